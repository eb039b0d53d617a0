/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the emu driver's two parsers of outside input: the
 * emulator settings (pmu stat --emulate-opt) and the records another
 * program writes to the driver's FIFO.  The first byte picks the parser.
 * Settings that are accepted must describe caches the emulator can
 * build; records are fed in pieces of every size the input says, and
 * whatever they hold, the sums and the kept samples stay in bounds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/pmu.h>

#include "drivers/emu_drv.h"
#include "hwmodel/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void geom_ok(const struct pmu_emu_cache_geom *g, int may_be_none)
{
	if (may_be_none && !g->size)
		return;
	if (g->line < 16 || g->line > 4096 || (g->line & (g->line - 1)) ||
	    !g->assoc || !g->size ||
	    g->size % ((uint64_t)g->assoc * g->line))
		abort();
}

static void settings(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct pmu_error err = { .size = sizeof(err) };
	struct emu_settings s;

	if (!text)
		return;
	memcpy(text, data, size);
	text[size] = '\0';
	if (pmu__emu_settings(pmu__hwmodel_find("p6"), 1, text, &s, &err) == 0) {
		geom_ok(&s.i1, 0);
		geom_ok(&s.d1, 0);
		geom_ok(&s.ll, 1);
		if (s.predictor > PMU_EMU_BP_BIMODAL)
			abort();
	} else if (!err.message[0]) {
		abort();
	}
	free(text);
}

static void records(const uint8_t *data, size_t size)
{
	struct emu_records r;
	struct pmu_emu_rec_sample out[4];
	size_t step = size ? (size_t)data[0] % 37 + 1 : 1;

	memset(&r, 0, sizeof(r));
	for (size_t at = 0; at < size; at += step)
		pmu__emu_records_add(&r, data + at,
				     size - at < step ? size - at : step);
	if (r.have >= sizeof(r.buf) || r.nsmp > r.cap)
		abort();
	while (pmu__emu_records_take(&r, out, 4))
		;
	if (r.nsmp)
		abort();
	pmu__emu_records_clear(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	if (data[0] & 1)
		settings(data + 1, size - 1);
	else
		records(data + 1, size - 1);
	return 0;
}
