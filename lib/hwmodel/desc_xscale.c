/* SPDX-License-Identifier: MIT */
/*
 * XScale logical PMU, built from the MontaVista PMU driver's register
 * facts.  `addr` is the CP14 register as (CRn << 8) | CRm.
 */
#include "hwmodel/desc.h"

#define HI32 UINT64_C(0xFFFFFFFF00000000)
#define CTR(nm, a) { .name = nm, .addr = (a), .rsvd_msk = HI32, .width = 32, \
	.flags = PMU_REGF_COUNTER }

/* XScale1 PMNC: bits 7, 11 and 31:28 must be written as 0. */
const struct pmu_reg_desc pmu__xsc1_pmcs[1] = {
	{ .name = "PMNC", .addr = PMU_CP14_XSC1_PMNC,
	  .rsvd_msk = HI32 | UINT64_C(0xF0000880) },
};

const struct pmu_reg_desc pmu__xsc1_pmds[3] = {
	CTR("CCNT", PMU_CP14_XSC1_CCNT),
	CTR("PMN0", PMU_CP14_XSC1_PMN0),
	CTR("PMN1", PMU_CP14_XSC1_PMN1),
};

/* XScale2 splits the controls: PMNC keeps E/P/C/D (ID 31:24 read-only),
 * INTEN and FLAG hold one bit per counter (CCNT, PMN0-3), EVTSEL one
 * byte per PMN. */
const struct pmu_reg_desc pmu__xsc2_pmcs[4] = {
	{ .name = "PMNC", .addr = PMU_CP14_XSC2_PMNC,
	  .rsvd_msk = ~UINT64_C(0xF) },
	{ .name = "INTEN", .addr = PMU_CP14_XSC2_INTEN,
	  .rsvd_msk = ~UINT64_C(0x1F) },
	{ .name = "FLAG", .addr = PMU_CP14_XSC2_FLAG,
	  .rsvd_msk = ~UINT64_C(0x1F) },
	{ .name = "EVTSEL", .addr = PMU_CP14_XSC2_EVTSEL, .rsvd_msk = HI32 },
};

const struct pmu_reg_desc pmu__xsc2_pmds[5] = {
	CTR("CCNT", PMU_CP14_XSC2_CCNT),
	CTR("PMN0", PMU_CP14_XSC2_PMN(0)),
	CTR("PMN1", PMU_CP14_XSC2_PMN(1)),
	CTR("PMN2", PMU_CP14_XSC2_PMN(2)),
	CTR("PMN3", PMU_CP14_XSC2_PMN(3)),
};
