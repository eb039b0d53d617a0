/* SPDX-License-Identifier: MIT */
#ifndef PMU_SIM_PERFCTR_HW_H
#define PMU_SIM_PERFCTR_HW_H

/* Per-architecture register work of the perfctr driver (perfctr_hw.c). */

#include "sim/perfctr.h"

/* Clear every control and counter register; reset the cache. */
void pmu__perfctr_hw_clear(struct pmu__perfctr *pc);

/* Low 32 bits of the TSC (TSC, TBL, CCNT) / of virtual counter i. */
uint32_t pmu__perfctr_hw_read_tsc(struct pmu__perfctr *pc);
uint32_t pmu__perfctr_hw_read_ctr(struct pmu__perfctr *pc,
				  const struct pmu__perfctr_state *st,
				  unsigned i);

/* Load st's control registers, writing only what the cache lacks. */
void pmu__perfctr_hw_write_control(struct pmu__perfctr *pc,
				   const struct pmu__perfctr_state *st);

/* isuspend: stop the i-mode counters (controls to 0). */
void pmu__perfctr_hw_istop(struct pmu__perfctr *pc,
			   const struct pmu__perfctr_state *st);
/* iresume: write the i-mode counters' start values. */
void pmu__perfctr_hw_iload(struct pmu__perfctr *pc,
			   const struct pmu__perfctr_state *st);
/* identify_overflow's hardware part: LVTPC re-arm, flag clearing, PPC
 * time-base event. */
void pmu__perfctr_hw_rearm(struct pmu__perfctr *pc,
			   const struct pmu__perfctr_state *st, uint32_t *mask);
/* PPC 74xx with FCECE/TRIGGER/PMXE: read MMCR0 back into the state. */
void pmu__perfctr_hw_save_mmcr0(struct pmu__perfctr *pc,
				struct pmu__perfctr_state *st);

#endif
