/* SPDX-License-Identifier: MIT */
#ifndef PMU_DRIVERS_SIM_API_H
#define PMU_DRIVERS_SIM_API_H

/* The layout behind the public `struct pmu_sim` (sim_api.c, sim_exec.c). */

#include <stdbool.h>
#include <stdint.h>

#include <pmu/sim.h>

#include "drivers/sim_stream.h"
#include "sim/ibs.h"
#include "sim/pebs.h"
#include "sim/perfctr.h"
#include "sim/xscale.h"

/* Statements executed (repeat bodies count every time): bounds a run. */
#define PMU_SIM_MAX_EXECUTED 100000000ull
/* Counter overflows plus interrupts in one run: a single `event` or
 * `cycles` statement with a huge count and a short period would
 * otherwise run for years. */
#define PMU_SIM_MAX_OVERFLOWS 10000000ull

/* Move the PEBS records out of the simulated buffer and restart it. */
void pmu__sim_run_drain_pebs(struct pmu_sim *s);

/* Lay out the PEBS buffer for the loaded control with the stream's
 * `pebs` parameters (NULL: defaults).  0, or -ENOSYS when the model has
 * no PEBS, -ENOMEM, -EINVAL. */
int pmu__sim_run_setup_pebs(struct pmu_sim *s, const struct pmu__stream_pebs *p);

/*
 * How a driver takes part in a stream's run: `suspend` / `resume`
 * statements call its disable / enable (which must keep
 * pmu_sim.running), `sample` its sample; bursts of events and cycles
 * are fed in pieces of at most `chunk` (0: whole), `fed` called after
 * each; cycles also in pieces of at most what `limit` returns (NULL: no
 * limit; a result of 0 counts as 1).  When `cancel` (NULL: never)
 * returns true the run ends where it is with -ECANCELED (the driver
 * sets pmu__sim.halted to stop a burst at once).
 */
struct pmu__sim_hooks {
	int (*suspend)(void *arg);
	int (*resume)(void *arg);
	void (*sample)(void *arg);
	void (*fed)(void *arg, uint64_t n);
	uint64_t (*limit)(void *arg);
	bool (*cancel)(void *arg);
	/* a `region begin|end NAME` statement: a negative return stops
	 * the stream with it (NULL: the statement does nothing) */
	int (*region)(void *arg, bool begin, const char *name);
	uint64_t chunk;
	void *arg;
};

struct pmu_sim;

/* Run stream text on `s` as it stands (no resume or suspend around
 * it), through the driver's hooks.  A `pebs` header is refused. */
int pmu__sim_exec(struct pmu_sim *s, const char *text, size_t len,
		  const struct pmu__sim_hooks *h, struct pmu_error *err);

/* n events `code` (with `umask`), or n cycles, through the hooks'
 * pieces (h may be NULL). */
void pmu__sim_burst(struct pmu_sim *s, bool cycles, uint32_t code,
		    uint32_t umask, uint64_t n, const struct pmu__sim_hooks *h);

struct pmu_sim {
	struct pmu__sim sim;
	struct pmu__perfctr pc;
	struct pmu__perfctr_state st;
	struct pmu__xscale xs;
	struct pmu__ibs ibs;
	struct pmu__pebs pebs;
	uint8_t *pebs_mem;            /* simulated memory of the PEBS buffer */
	size_t pebs_mem_size;
	struct pmu_sim_pebs_record *pebs_r;
	size_t npebs, pebscap;
	const struct pmu_hwmodel *model;
	bool controlled, running;
	struct pmu_sim_interrupt *irqs;
	size_t nkept, irqcap;
	uint64_t nirqs;
	struct pmu_sim_ibs_sample *ibs_s;
	size_t nibs, ibscap;
	uint64_t overflows[PMU_MAX_CTRS];
	uint64_t events, cycles;
	uint64_t ctl_base, ctr_base;
};

#endif
