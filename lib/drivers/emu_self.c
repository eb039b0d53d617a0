/* SPDX-License-Identifier: MIT */
/*
 * The calling program as the emulated target: when it runs under the
 * emulator, each operation is one client request, answered by the tool
 * at once on a counter context of this process (the events of every
 * thread of the process, like the tool's other contexts).
 */
#include <errno.h>
#include <string.h>

#include <pmu/emu.h>

#include "drivers/emu_drv.h"
#include "util/error.h"

_Static_assert(PMU_EMU__REQ(1) == PMU_EMU_REQ_START &&
	       PMU_EMU__REQ(2) == PMU_EMU_REQ_STOP &&
	       PMU_EMU__REQ(3) == PMU_EMU_REQ_PROBE,
	       "the public markers are the protocol's requests");

static long req(unsigned r, uintptr_t a1, uintptr_t a2, uintptr_t a3)
{
	return (long)pmu_emu_request((uintptr_t)-EIO, r, a1, a2, a3, 0, 0);
}

int pmu__emu_self_open(struct emu_drv *d, struct pmu_error *err)
{
	struct pmu_emu_open o;
	long id;

	if (req(PMU_EMU_REQ_PROBE, 0, 0, 0) != (long)PMU_EMU_MAGIC)
		return pmu__error(err, -ENODEV, PMU_ERR_NOT_SUPPORTED, NULL,
				  -1, "this program does not run under pmu's "
				  "emulator: an emulated PMU counts the program "
				  "it runs in only there (run it with 'pmu stat "
				  "--emulate -- PROGRAM')");
	memset(&o, 0, sizeof(o));
	o.magic = PMU_EMU_MAGIC;
	o.size = sizeof(o);
	o.ctx = d->ctx;
	id = req(PMU_EMU_REQ_OPEN, (uintptr_t)&o, 0, 0);
	if (id <= 0)
		return pmu__error(err, id < 0 ? (int)id : -EINVAL,
				  PMU_ERR_RESOURCES, NULL, -1, "the emulator "
				  "refused the counters (%s)", id == -ENOSPC
				  ? "every context of this process is in use"
				  : "bad control");
	d->id = id;
	return 0;
}

void pmu__emu_self_close(struct emu_drv *d)
{
	if (d->id > 0)
		req(PMU_EMU_REQ_CLOSE, (uintptr_t)d->id, 0, 0);
	d->id = 0;
}

int pmu__emu_self_op(struct emu_drv *d, unsigned r)
{
	return req(r, (uintptr_t)d->id, 0, 0) ? -EIO : 0;
}

int pmu__emu_self_read(struct emu_drv *d, struct emu_counts *out)
{
	struct pmu_emu_read r;

	memset(&r, 0, sizeof(r));
	if (req(PMU_EMU_REQ_READ, (uintptr_t)d->id, (uintptr_t)&r, 0) ||
	    r.size != sizeof(r))
		return -EIO;
	memset(out, 0, sizeof(*out));
	memcpy(out->sum, r.sum, sizeof(out->sum));
	memcpy(out->kind, r.kind, sizeof(out->kind));
	out->tsc = r.tsc;
	out->cycles = r.cycles;
	return 0;
}

long pmu__emu_self_samples(struct emu_drv *d, struct pmu_emu_rec_sample *out,
			   size_t max)
{
	return req(PMU_EMU_REQ_SAMPLES, (uintptr_t)d->id, (uintptr_t)out,
		   (uintptr_t)max);
}
