/* SPDX-License-Identifier: MIT */
#ifndef PMU_SIM_IBS_H
#define PMU_SIM_IBS_H

/*
 * AMD Family 10h Instruction-Based Sampling on the simulator
 * (freestanding).  Registers: the MSRs 0xC0011030-0xC001103A.
 *
 * Fetch sampling counts PMU_SIM_KEY_FETCH events; op sampling counts
 * clock cycles (IbsOpCntCtl = 0) or PMU_SIM_KEY_OP events (IbsOpCntCtl
 * = 1).  When the count reaches MaxCnt << 4 the event (fetch, op, or the
 * op in flight at that cycle) is tagged: its data registers are filled
 * from the current snapshot, Val is set, counting stops and the
 * interrupt is raised (source PMU_SIM_IRQ_IBS).  Writing the control
 * register re-arms: the count restarts from 0, or from a pseudo-random
 * value in 0..15 with IbsRandEn (fetch only).
 *
 * Snapshot fields used: ip (IbsFetchLinAd, IbsOpRip), data_addr
 * (IbsDcLinAd), phys_addr (IbsDcPhysAd) and the aux[] words below.
 */

#include <stdbool.h>
#include <stdint.h>

#include "sim/sim.h"

#define PMU_MSR_IBS_FETCH_LINAD  0xC0011031u
#define PMU_MSR_IBS_FETCH_PHYSAD 0xC0011032u
#define PMU_MSR_IBS_OP_RIP       0xC0011034u
#define PMU_MSR_IBS_OP_DATA      0xC0011035u
#define PMU_MSR_IBS_OP_DATA2     0xC0011036u
#define PMU_MSR_IBS_OP_DATA3     0xC0011037u
#define PMU_MSR_IBS_DC_LINAD     0xC0011038u
#define PMU_MSR_IBS_DC_PHYSAD    0xC0011039u
#define PMU_MSR_IBS_CTL          0xC001103Au

/* IbsFetchCtl */
#define PMU_IBS_FETCH_MAXCNT     0x000000000000FFFFull
#define PMU_IBS_FETCH_CNT_SHIFT  16
#define PMU_IBS_FETCH_CNT        0x00000000FFFF0000ull
#define PMU_IBS_FETCH_EN         (1ull << 48)
#define PMU_IBS_FETCH_VAL        (1ull << 49)
#define PMU_IBS_FETCH_COMP       (1ull << 50)
#define PMU_IBS_FETCH_PHY_VALID  (1ull << 52)
#define PMU_IBS_RAND_EN          (1ull << 57)
/* Status bits a tagged fetch reports (latency 47:32, Comp .. L2TlbMiss). */
#define PMU_IBS_FETCH_STATUS     0x01FCFFFF00000000ull
/* Bits software can write (the rest is reserved on Fam10h). */
#define PMU_IBS_FETCH_WRITABLE   0x03FFFFFF0000FFFFull

/* IbsOpCtl */
#define PMU_IBS_OP_MAXCNT        0x000000000000FFFFull
#define PMU_IBS_OP_EN            (1ull << 17)
#define PMU_IBS_OP_VAL           (1ull << 18)
#define PMU_IBS_OP_CNT_CTL       (1ull << 19)
#define PMU_IBS_OP_CURCNT_SHIFT  32
#define PMU_IBS_OP_CURCNT        (0x7FFFFFFull << 32)
#define PMU_IBS_OP_WRITABLE      0x00000000000EFFFFull

/* Physical addresses are 48 bits. */
#define PMU_IBS_PHYS_MASK        0x0000FFFFFFFFFFFFull

/* Snapshot aux[] words read at tagging time. */
enum {
	PMU_IBS_AUX_OP_DATA = 0,     /* IbsOpData */
	PMU_IBS_AUX_OP_DATA2 = 1,    /* IbsOpData2 */
	PMU_IBS_AUX_OP_DATA3 = 2,    /* IbsOpData3 */
	PMU_IBS_AUX_FETCH_PHYS = 3,  /* IbsFetchPhysAd; non-zero = valid */
	PMU_IBS_AUX_FETCH_STATUS = 4,/* IbsFetchCtl status bits (lat, miss...) */
};

struct pmu__ibs_unit {
	uint64_t ctl;           /* control register, count field excluded */
	uint32_t cnt;           /* current count (period units, not >> 4) */
	uint64_t tags;          /* samples taken since attach */
	uint64_t last_gap;      /* events (or cycles) counted for the last tag */
	uint64_t since_arm;     /* events counted since the last arm */
};

struct pmu__ibs {
	struct pmu__ibs_unit fetch, op;
	uint64_t fetch_linad, fetch_physad;
	uint64_t op_rip, op_data[3];
	uint64_t dc_linad, dc_physad;
	uint64_t ibs_ctl;       /* IbsCtl: LvtOffset 3:0, LvtOffsetValid 8 */
	uint32_t rng;           /* xorshift state for IbsRandEn */
};

/* Attach to `sim` (model with PMU_QUIRK_HAS_IBS).  `seed` seeds the
 * generator of IbsRandEn start counts; the same seed gives the same
 * samples.  Returns 0 or -PMU_EINVAL. */
int pmu__sim_ibs_attach(struct pmu__sim *sim, struct pmu__ibs *ibs,
			uint32_t seed);

/* Sampling period of a control value: MaxCnt << 4. */
static inline uint32_t pmu__ibs_period(uint64_t ctl)
{
	return (uint32_t)(ctl & 0xFFFFu) << 4;
}

#endif
