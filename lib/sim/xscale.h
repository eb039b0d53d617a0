/* SPDX-License-Identifier: MIT */
#ifndef PMU_SIM_XSCALE_H
#define PMU_SIM_XSCALE_H

/*
 * XScale PMU on the simulator (freestanding): the CP14 registers of the
 * first core generation (PMNC, CCNT, PMN0, PMN1) and of the second (PMNC,
 * CCNT, INTEN, FLAG, EVTSEL, PMN0-3).  PMN values live in sim->ctr[] so
 * the core counts them; CCNT is kept here and mirrored into sim->tsc,
 * so pmu__sim_rdtsc() reads the clock counter as perfctr did.
 *
 * Attach with pmu__sim_xscale_attach() after pmu__sim_init() on an
 * "xscale1" or "xscale2" model.  The PMU IRQ is the core's interrupt
 * callback with source PMU_SIM_IRQ_PMC.
 */

#include <stdbool.h>
#include <stdint.h>

#include "sim/sim.h"

/* PMNC bits, first generation (second: E, P, C, D only; ID in 31:24). */
#define PMU_XSC_PMNC_INTEN_PMN0   0x010u
#define PMU_XSC_PMNC_INTEN_PMN1   0x020u
#define PMU_XSC_PMNC_INTEN_CCNT   0x040u
#define PMU_XSC_PMNC_INTEN_ALL    0x070u
#define PMU_XSC_PMNC_OF_PMN0      0x100u
#define PMU_XSC_PMNC_OF_PMN1      0x200u
#define PMU_XSC_PMNC_OF_CCNT      0x400u
#define PMU_XSC_PMNC_OF_ALL       0x700u
#define PMU_XSC_PMNC_EVT0(e)      (((uint32_t)(e) & 0xFFu) << 12)
#define PMU_XSC_PMNC_EVT1(e)      (((uint32_t)(e) & 0xFFu) << 20)
/* Bits 7, 11, 28-31 write as zero; P and C read as unpredictable. */
#define PMU_XSC1_PMNC_WRITE_MASK  0x0FFFF77Fu
#define PMU_XSC1_PMNC_READ_MASK   0x0FFFF779u

/* Second generation: INTEN and FLAG share one layout. */
#define PMU_XSC2_BIT_CCNT         0x01u
#define PMU_XSC2_BIT_PMN(n)       (0x02u << (n))
#define PMU_XSC2_PMNC_ID_SHIFT    24
/* Core-generation-2 PMU identification reported in PMNC[31:24]. */
#define PMU_XSC2_PMNC_ID          0x14u

/* The idle event: a counter programmed with it never counts. */
#define PMU_XSC_EVT_IDLE          0xFFu

struct pmu__xscale {
	unsigned gen;           /* 1 or 2 */
	uint32_t pmnc;          /* gen 1: E, D, inten, flags, events; gen 2: E, D */
	uint32_t inten;         /* gen 2 */
	uint32_t flag;          /* gen 2 */
	uint32_t evtsel;        /* gen 2 */
	uint32_t ccnt;          /* clock counter */
	uint32_t div;           /* cycles towards the next /64 tick (D set) */
	uint64_t pmnc_writes;   /* PMNC writes seen (A-stepping double write) */
};

/* Attach to `sim` (whose model must be an XScale one).  Returns 0 or
 * -PMU_EINVAL. */
int pmu__sim_xscale_attach(struct pmu__sim *sim, struct pmu__xscale *xs);

/* Overflow flags currently pending, in the generation-2 FLAG layout
 * (bit 0 CCNT, bit 1+n PMNn), whichever generation is simulated. */
uint32_t pmu__xscale_pending(const struct pmu__xscale *xs);

#endif
