/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>

#include "events/encode.h"

/* Cache events take one operation and one result; a second umask of a
 * group replaces nothing, it is an error. */
static int perf_umasks(const struct pmu__enc_req *r, uint64_t *config,
		       struct pmu__sb *fs, struct pmu_encoding *out,
		       struct pmu_error *err)
{
	const struct pmu__umask *u = pmu__event_umasks(r->m, r->ev);
	int chosen[2] = { -1, -1 };
	uint16_t again;

	/* one libpfm4 keeps twice (pmu__enc_kept_twice()) is two */
	if (pmu__enc_kept_twice(r, &again, 1))
		return pmu__encode_fail(out, err, PMU_ERR_BAD_UMASK,
			pmu__um_name(r->m, &u[again]), "%s takes one operation "
			"and one result", pmu__req_name(r));
	for (int i = 0; i < r->nu; i++) {
		int g = u[r->um[i]].grp & 1;
		if (chosen[g] >= 0)
			return pmu__encode_fail(out, err, PMU_ERR_BAD_UMASK,
				pmu__um_name(r->m, &u[r->um[i]]),
				"%s takes one operation "
				"and one result", pmu__req_name(r));
		chosen[g] = r->um[i];
	}
	for (int i = 0; i < r->ev->numasks; i++)
		for (int g = 0; g < 2; g++)
			if (chosen[g] < 0 && u[i].grp == g &&
			    (u[i].flags & PMU__UM_DFL))
				chosen[g] = i;
	for (int i = 0; i < r->ev->numasks; i++)
		if (i == chosen[0] || i == chosen[1]) {
			*config |= u[i].code;
			pmu__sb_putc(fs, ':');
			pmu__sb_puts(fs, pmu__um_name(r->m, &u[i]));
		}
	return 0;
}

/* libpfm4 spells a raw value out for raw use and leaves the event name
 * empty for perf_event use. */
static void raw_strings(const struct pmu__enc_req *r, uint64_t config,
			struct pmu_encoding *out)
{
	struct pmu__sb b;
	char hex[24];

	pmu__sb_init(&b, hex, sizeof(hex));
	pmu__sb_putx(&b, config);
	/* "r" and the digits without the 0x ("r0" for zero) */
	const char *digits = config ? hex + 2 : hex;
	pmu__sb_init(&b, out->fstr, sizeof(out->fstr));
	pmu__sb_puts(&b, r->m->name);
	pmu__sb_puts(&b, "::r");
	pmu__sb_puts(&b, digits);
	out->event[0] = 'r';
	pmu__strlcpy(out->event + 1, digits, sizeof(out->event) - 1);
	pmu__sb_init(&b, out->perf_fstr, sizeof(out->perf_fstr));
	pmu__sb_puts(&b, r->m->name);
	pmu__sb_puts(&b, "::");
}

int pmu__encode_perf(const struct pmu__enc_req *r, struct pmu_encoding *out,
		     struct pmu_error *err)
{
	const char *name = r->ev->equiv ? pmu__str(r->m, r->ev->equiv)
					: pmu__req_name(r);
	uint64_t config = r->ev->code;
	bool hv = r->ev->flags & PMU__EV_PERF_HV;
	struct pmu__sb fs;
	int ret;

	pmu__sb_init(&fs, out->fstr, sizeof(out->fstr));
	pmu__sb_puts(&fs, r->m->name);
	pmu__sb_puts(&fs, "::");
	pmu__sb_puts(&fs, name);
	ret = perf_umasks(r, &config, &fs, out, err);
	if (ret)
		return ret;
	pmu__strlcpy(out->event, name, sizeof(out->event));
	memcpy(out->perf_fstr, out->fstr, fs.len + 1);
	if (r->m->kind == PMU__ENC_PERF_RAW) {
		config = r->raw;
		raw_strings(r, config, out);
	}
	/* Privilege and perf modifiers exist only for perf_event use. */
	if (!r->pmodset) {
		out->ncodes = 1;
		out->codes[0] = config;
	}
	if (r->raw_only) {
		out->perf_fstr[0] = '\0';
		return 0;
	}
	/* Every perf event excludes the hypervisor unless asked to count
	 * it, even software ones, which offer no "h". */
	pmu__encode_perf_common(r, true, out);
	out->perf.type = r->m->kind == PMU__ENC_PERF ? (uint32_t)r->ev->code2
						     : PERF_TYPE_RAW;
	out->perf.config = config;
	pmu__encode_perf_fstr(r, hv, out);
	return 0;
}
