/* SPDX-License-Identifier: MIT */
#ifndef PMU_DRIVERS_SIM_DRV_H
#define PMU_DRIVERS_SIM_DRV_H

/*
 * The sim driver: a simulated CPU (struct pmu_sim, the same one `pmu
 * sim` runs) under its seed's low-level driver.  Models perfctr knew
 * (x86, PowerPC) are programmed through perfctr's control; XScale
 * models through the XScale kernel API's register protocol (claim,
 * start, stop, the overflow handler that counts wraps).  What the
 * simulated program does comes from feed(): a stream, or single events.
 */

#include "drivers/driver.h"
#include "drivers/sim_api.h"

struct sim_pfm;
struct pmu__pfm_hw;

enum sim_slot_kind { SLOT_NONE, SLOT_TSC, SLOT_PMC };

struct sim_slot {
	enum sim_slot_kind kind;
	unsigned idx;          /* perfctr virtual counter / XScale PMNn */
};

/* The XScale backend's run: what seed 004's pmu_start programmed. */
struct xsc_run {
	uint32_t evt[4];       /* event of PMNn; the idle event if unused */
	unsigned npmn;         /* PMNs in use */
	bool reset_pending;    /* the next PMNC write sets P and C */
	uint32_t of[5];        /* wraps seen by the handler: CCNT, PMN0..3 */
	uint32_t saved[5];     /* counter values read at the last stop */
	uint64_t irqs, last_pc;
};

struct sim_drv {
	struct pmu__drv drv;   /* first: the ops table */
	struct pmu_sim *s;
	const struct pmu_hwmodel *m;
	bool xsc;              /* XScale register protocol, not perfctr */
	bool is_open, enabled, raw_width, ever_enabled;
	size_t nev;
	const struct pmu__ev_state *st;  /* the session's, while open */
	struct sim_slot *slot;
	uint64_t t_enabled;    /* simulated cycles while enabled */
	uint64_t t_mark;       /* pmu_sim.cycles at the last enable */
	uint64_t unsampled;    /* fed since the counters were last folded */
	struct xsc_run xr;
	struct sim_pfm *pfm;   /* perfmon2's view of the PMU, once asked */
	const struct pmu__feed *feed; /* the feed running, for its region
					 statements */
};

/* A sim driver for simulated model `model` ("p6", "xscale1", ...). */
int pmu__sim_driver_new(const char *model, struct pmu__drv **out,
			struct pmu_error *err);

/* The PMU as perfmon2's contexts program it (sim_pfm.c); NULL with
 * *err when events are open through the driver or out of memory.  From
 * then on the engine owns the PMU's interrupt. */
struct pmu__pfm_hw *pmu__sim_pfm_hw(struct pmu__drv *d,
				    struct pmu_error *err);
void pmu__sim_pfm_put(struct pmu__drv *d);

/* The XScale backend (sim_xsc.c). */
void pmu__xsc_attach(struct sim_drv *d);
int pmu__xsc_open(struct sim_drv *d, const struct pmu__ev *ev,
		  const struct pmu__place *place, struct pmu__ev_state *st,
		  struct pmu_error *err);
void pmu__xsc_enable(struct sim_drv *d);
void pmu__xsc_disable(struct sim_drv *d);
void pmu__xsc_reset(struct sim_drv *d);
uint64_t pmu__xsc_read(const struct sim_drv *d, const struct sim_slot *sl);
uint64_t pmu__xsc_ctl_writes(const struct sim_drv *d);

/* The driver's operations, for the registry (driver.c). */
extern const struct pmu__driver_ops pmu__sim_ops;

#endif
