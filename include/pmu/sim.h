/* SPDX-License-Identifier: MIT */
#ifndef PMU_SIM_H
#define PMU_SIM_H

/*
 * The simulated PMU driven by an event stream, with perfctr's low-level
 * driver on top: what `pmu sim` runs.  Open a simulator for a model
 * (pmu_hwmodel_find), load a perfctr control (pmu_control_parse), run a
 * stream (docs/stream-format.md), read the sums and what the overflow
 * handler saw.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmu/error.h>
#include <pmu/model.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pmu_sim;   /* opaque */

/* A simulator for model `m` (owns all its memory).  The stream may use
 * interrupt-mode counters: the library installs a handler that behaves
 * like perfctr's per-process driver (suspend, identify the overflowed
 * counters, record them, reload, resume).  NULL + errno on failure. */
PMU_API struct pmu_sim *pmu_sim_open(const struct pmu_hwmodel *m,
				     struct pmu_error *err);
PMU_API void pmu_sim_close(struct pmu_sim *sim);

/* Reserve the PMU and apply control `c` (perfctr update_control with the
 * control's is_global).  A rejected control returns perfctr's negative
 * errno; err->token holds the rule id, err->index the counter. */
PMU_API int pmu_sim_control(struct pmu_sim *sim, const struct pmu_control *c,
			    struct pmu_error *err);

/* Resume the counters, feed the stream text (`len` bytes), suspend at
 * the end.  -EINVAL with "line L, column C" in err on a bad stream (the
 * run stops at the statement at fault). */
PMU_API int pmu_sim_run(struct pmu_sim *sim, const char *stream, size_t len,
			struct pmu_error *err);

#define PMU_SIM_MAX_COUNTERS 18

struct pmu_sim_result {
	size_t size;                  /* sizeof(struct pmu_sim_result) */
	const char *model;
	uint32_t cstatus;
	bool tsc_on;
	uint64_t tsc;                 /* TSC sum */
	unsigned nractrs, nrictrs;
	uint64_t pmc[PMU_SIM_MAX_COUNTERS];       /* 64-bit sums */
	uint32_t pmc_map[PMU_SIM_MAX_COUNTERS];
	uint64_t overflows[PMU_SIM_MAX_COUNTERS]; /* times in a handler mask */
	uint64_t interrupts;          /* handler runs */
	size_t interrupts_kept;       /* records available (capped) */
	size_t ibs_samples;           /* IBS samples recorded */
	size_t pebs_records;          /* P4 PEBS records collected */
	uint64_t events, cycles;      /* fed by the stream */
	uint64_t control_writes;      /* control-register writes (cache misses) */
	uint64_t counter_writes;
	uint64_t pebs_dropped;        /* PEBS assists that found the buffer full */
};

PMU_API int pmu_sim_result(const struct pmu_sim *sim,
			   struct pmu_sim_result *res);

enum pmu_sim_irq_source {
	PMU_SIM_SRC_PMC = 1,          /* counter overflow */
	PMU_SIM_SRC_PEBS = 2,         /* P4 PEBS threshold */
	PMU_SIM_SRC_IBS = 3,          /* AMD IBS sample */
	PMU_SIM_SRC_TB = 4,           /* PPC time base */
};

/* One run of the overflow handler. */
struct pmu_sim_interrupt {
	size_t size;
	uint64_t pc;                  /* where the interrupt hit */
	uint32_t mask;                /* identify_overflow: virtual counters */
	enum pmu_sim_irq_source source;
	uint64_t tsc;                 /* time-stamp counter at that moment */
};

/* i-th interrupt record, 0 <= i < interrupts_kept; -ERANGE past it. */
PMU_API int pmu_sim_interrupt_at(const struct pmu_sim *sim, size_t i,
				 struct pmu_sim_interrupt *out);

/* An IBS sample (fam10h), read by the handler before it re-armed IBS. */
struct pmu_sim_ibs_sample {
	size_t size;
	bool op;                      /* op sample, else fetch sample */
	uint64_t ctl;                 /* IbsOpCtl / IbsFetchCtl */
	uint64_t addr;                /* IbsOpRip / IbsFetchLinAd */
	uint64_t phys;                /* IbsFetchPhysAd (fetch) */
	uint64_t data[3];             /* IbsOpData 1-3 (op) */
	uint64_t dc_linad, dc_physad; /* (op) */
};

PMU_API int pmu_sim_ibs_at(const struct pmu_sim *sim, size_t i,
			   struct pmu_sim_ibs_sample *out);

/* A P4 PEBS record (32-bit layout), collected from the sample buffer by
 * the handler at each threshold interrupt and at the end of the run.
 * PEBS is used when the control sets PEBS_ENABLE bit 24 and programs
 * IQ_COUNTER4; the buffer reloads the counter with that counter's ireset
 * (0 for an a-mode counter). */
struct pmu_sim_pebs_record {
	size_t size;
	uint64_t flags;               /* EFLAGS */
	uint64_t ip;                  /* linear IP */
	uint64_t regs[8];             /* eax ebx ecx edx esi edi ebp esp */
};

PMU_API int pmu_sim_pebs_at(const struct pmu_sim *sim, size_t i,
			    struct pmu_sim_pebs_record *out);

#ifdef __cplusplus
}
#endif
#endif
