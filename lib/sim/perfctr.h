/* SPDX-License-Identifier: MIT */
#ifndef PMU_SIM_PERFCTR_H
#define PMU_SIM_PERFCTR_H

/*
 * perfctr's kernel-internal low-level driver API (perfctr 2.6, x86 /
 * ppc32 / XScale), running on the simulated PMU.  Freestanding.
 *
 * One `struct pmu__perfctr` is one CPU with its per-CPU control-register
 * cache; what perfctr kept in globals (the reserving service, the
 * interrupt handler, the id generator) lives in it too.  A
 * `struct pmu__perfctr_state` is perfctr_cpu_state: control, cstatus,
 * TSC and per-counter start/sum.
 */

#include <stdbool.h>
#include <stdint.h>

#include "hwmodel/control.h"
#include "hwmodel/model.h"
#include "sim/sim.h"

/* The high-level driver's overflow handler (perfctr_ihandler_t). */
typedef void (*pmu__perfctr_ihandler_t)(void *arg, uint64_t pc);

struct pmu__perfctr_state {
	uint32_t cstatus;
	struct {
		uint32_t id;            /* control identity for the cache */
		int32_t isuspend_cpu;   /* CPU of the last isuspend, -1 none */
	} k1;
	uint32_t tsc_start;
	uint64_t tsc_sum;
	struct {
		uint32_t map;           /* RDPMC operand (P4: fast bit kept) */
		uint32_t start;
		uint64_t sum;
	} pmc[PMU_MAX_CTRS];
	struct pmu_control control;
	/* Kernel-only data derived by update_control. */
	uint32_t hw[PMU_MAX_CTRS];          /* physical counter per index */
	uint32_t p4_escr_map[PMU_MAX_CTRS]; /* ESCR MSR per index */
	uint32_t p5_cesr;
	uint32_t ppc_mmcr[3];
	uint32_t xsc[3];                    /* PMNC, EVTSEL, INTEN images */
	struct pmu_control_result check;    /* outcome of the last check */
};

/* Per-CPU control-register cache: the last value written to each. */
struct pmu__perfctr_cache {
	uint32_t id;                  /* state whose control is loaded */
	bool interrupts_masked;
	uint64_t ctl[PMU_MAX_CTRS];   /* EVNTSEL / CCCR per hardware counter */
	uint32_t escr[0x42];          /* P4 ESCR 0x3A0.. */
	uint32_t pebs_enable;
	uint32_t pebs_matrix_vert;
	uint32_t p5_cesr;
	uint32_t mmcr[3];
	uint32_t xsc[3];
	uint32_t stale;               /* PMU_PERFCTR_STALE_*: force a write */
};

#define PMU_PERFCTR_STALE_MMCR0 0x1u

struct pmu__perfctr {
	struct pmu__sim *sim;
	const struct pmu_hwmodel *model;
	const char *cpu_name;         /* perfctr_cpu_name */
	uint32_t features;            /* PMU_FEAT_* */
	const char *service;          /* reserving high-level driver */
	pmu__perfctr_ihandler_t ihandler;
	void *ihandler_arg;
	uint32_t last_id;             /* new_id() generator */
	int32_t cpu;                  /* this CPU's number */
	struct pmu__perfctr_cache cache;
	enum pmu_sim_irq last_source; /* of the interrupt being handled */
};

/* perfctr_cpu_init(): `model_name` selects the simulated CPU; `sim` is
 * caller memory, (re)initialised here.  Clears every counter and control
 * register and, with PCINT, points LVTPC at vector 0xEE.
 * Returns 0 or -PMU_ENOENT (unknown CPU) / -PMU_EINVAL. */
int pmu__perfctr_init(struct pmu__perfctr *pc, struct pmu__sim *sim,
		      const char *model_name);
void pmu__perfctr_exit(struct pmu__perfctr *pc);

/* NULL on success, else the current owner's service string. */
const char *pmu__perfctr_reserve(struct pmu__perfctr *pc, const char *service);
/* 0, or -PMU_EPERM if `service` is not the owner (nothing changes). */
int pmu__perfctr_release(struct pmu__perfctr *pc, const char *service);

void pmu__perfctr_set_ihandler(struct pmu__perfctr *pc,
			       pmu__perfctr_ihandler_t fn, void *arg);

/* Zero a state (before filling state->control). */
void pmu__perfctr_state_init(struct pmu__perfctr_state *st);

/* PRE: no running i-mode counters.  Validates st->control with the
 * model's rules; on failure cstatus stays 0 and st->check says why. */
int pmu__perfctr_update_control(struct pmu__perfctr *pc,
				struct pmu__perfctr_state *st, bool is_global);

void pmu__perfctr_suspend(struct pmu__perfctr *pc, struct pmu__perfctr_state *st);
void pmu__perfctr_resume(struct pmu__perfctr *pc, struct pmu__perfctr_state *st);
void pmu__perfctr_sample(struct pmu__perfctr *pc, struct pmu__perfctr_state *st);

/* PRE: suspended.  Bit i set for every overflowed i-mode counter i; their
 * start values are reset from ireset (PPC: bit 8 = time-base event). */
uint32_t pmu__perfctr_identify_overflow(struct pmu__perfctr *pc,
					struct pmu__perfctr_state *st);
void pmu__perfctr_ireload(struct pmu__perfctr *pc, struct pmu__perfctr_state *st);

/* Current 64-bit value of the TSC / counter i (sum + live delta), the
 * way the mmap'd fast path computes it. */
uint64_t pmu__perfctr_read_tsc(struct pmu__perfctr *pc,
			       const struct pmu__perfctr_state *st);
uint64_t pmu__perfctr_read_pmc(struct pmu__perfctr *pc,
			       const struct pmu__perfctr_state *st, unsigned i);

#endif
