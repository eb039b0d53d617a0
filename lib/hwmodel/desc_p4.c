/* SPDX-License-Identifier: MIT */
/*
 * Pentium 4 logical PMU in perfmon2's order (non-HT view): ESCR0s, the
 * CCCRs of PMD 0-8, ESCR1s, the CCCRs of PMD 9-17, PEBS_MATRIX_VERT,
 * PEBS_ENABLE.  With HyperThreading only pmc0-31 and pmd0-8 exist.
 */
#include "hwmodel/desc.h"

/* ESCR: event select, mask, tag and the T0 CPL bits are the user's;
 * bit 31 and the T1 CPL bits (1:0) belong to the kernel. */
#define ESCR_RSVD (~UINT64_C(0x7FFFFFFC))
/* CCCR: enable, ESCR select, compare/complement/threshold/edge, cascade;
 * the OVF_PMI bits and ACTIVE_THREAD stay at the default. */
#define CCCR_RSVD (~UINT64_C(0x41FCF000))
#define CCCR_DFL UINT64_C(0x04030000)

#define ESCR(nm, a) { .name = nm, .addr = (a), .rsvd_msk = ESCR_RSVD }
#define CCCR(nm, a) { .name = nm, .addr = (a), .dfl_val = CCCR_DFL, \
	.rsvd_msk = CCCR_RSVD, .flags = PMU_REGF_NO_EMUL64 }
#define CTR(nm, a) { .name = nm, .addr = (a), .rsvd_msk = PMU_RSVD_ABOVE(40), \
	.width = 40, .flags = PMU_REGF_COUNTER }

const struct pmu_reg_desc pmu__p4_pmcs[PMU_P4_NPMCS] = {
	ESCR("BPU_ESCR0", 0x3B2),   ESCR("IS_ESCR0", 0x3B4),
	ESCR("MOB_ESCR0", 0x3AA),   ESCR("ITLB_ESCR0", 0x3B6),
	ESCR("PMH_ESCR0", 0x3AC),   ESCR("IX_ESCR0", 0x3C8),
	ESCR("FSB_ESCR0", 0x3A2),   ESCR("BSU_ESCR0", 0x3A0),
	ESCR("MS_ESCR0", 0x3C0),    ESCR("TC_ESCR0", 0x3C4),
	ESCR("TBPU_ESCR0", 0x3C2),  ESCR("FLAME_ESCR0", 0x3A6),
	ESCR("FIRM_ESCR0", 0x3A4),  ESCR("SAAT_ESCR0", 0x3AE),
	ESCR("U2L_ESCR0", 0x3B0),   ESCR("DAC_ESCR0", 0x3A8),
	ESCR("IQ_ESCR0", 0x3BA),    ESCR("ALF_ESCR0", 0x3CA),
	ESCR("RAT_ESCR0", 0x3BC),   ESCR("SSU_ESCR0", 0x3BE),
	ESCR("CRU_ESCR0", 0x3B8),   ESCR("CRU_ESCR2", 0x3CC),
	ESCR("CRU_ESCR4", 0x3E0),
	/* pmc23-31 */
	CCCR("BPU_CCCR0", 0x360),   CCCR("BPU_CCCR1", 0x361),
	CCCR("MS_CCCR0", 0x364),    CCCR("MS_CCCR1", 0x365),
	CCCR("FLAME_CCCR0", 0x368), CCCR("FLAME_CCCR1", 0x369),
	CCCR("IQ_CCCR0", 0x36C),    CCCR("IQ_CCCR1", 0x36D),
	CCCR("IQ_CCCR4", 0x370),
	/* pmc32-53 */
	ESCR("BPU_ESCR1", 0x3B3),   ESCR("IS_ESCR1", 0x3B5),
	ESCR("MOB_ESCR1", 0x3AB),   ESCR("ITLB_ESCR1", 0x3B7),
	ESCR("PMH_ESCR1", 0x3AD),   ESCR("IX_ESCR1", 0x3C9),
	ESCR("FSB_ESCR1", 0x3A3),   ESCR("BSU_ESCR1", 0x3A1),
	ESCR("MS_ESCR1", 0x3C1),    ESCR("TC_ESCR1", 0x3C5),
	ESCR("TBPU_ESCR1", 0x3C3),  ESCR("FLAME_ESCR1", 0x3A7),
	ESCR("FIRM_ESCR1", 0x3A5),  ESCR("SAAT_ESCR1", 0x3AF),
	ESCR("U2L_ESCR1", 0x3B1),   ESCR("DAC_ESCR1", 0x3A9),
	ESCR("IQ_ESCR1", 0x3BB),    ESCR("ALF_ESCR1", 0x3CB),
	ESCR("RAT_ESCR1", 0x3BD),   ESCR("CRU_ESCR1", 0x3B9),
	ESCR("CRU_ESCR3", 0x3CD),   ESCR("CRU_ESCR5", 0x3E1),
	/* pmc54-62: the CCCRs of pmd9-17 */
	CCCR("BPU_CCCR2", 0x362),   CCCR("BPU_CCCR3", 0x363),
	CCCR("MS_CCCR2", 0x366),    CCCR("MS_CCCR3", 0x367),
	CCCR("FLAME_CCCR2", 0x36A), CCCR("FLAME_CCCR3", 0x36B),
	CCCR("IQ_CCCR2", 0x36E),    CCCR("IQ_CCCR3", 0x36F),
	CCCR("IQ_CCCR5", 0x371),
	/* pmc63, pmc64 */
	{ .name = "PEBS_MATRIX_VERT", .addr = 0x3F2, .rsvd_msk = ~UINT64_C(0x3) },
	{ .name = "PEBS_ENABLE", .addr = 0x3F1,
	  .rsvd_msk = ~UINT64_C(0x03000607) },
};

const struct pmu_reg_desc pmu__p4_pmds[PMU_P4_NPMDS] = {
	CTR("BPU_CTR0", 0x300),   CTR("BPU_CTR1", 0x301),
	CTR("MS_CTR0", 0x304),    CTR("MS_CTR1", 0x305),
	CTR("FLAME_CTR0", 0x308), CTR("FLAME_CTR1", 0x309),
	CTR("IQ_CTR0", 0x30C),    CTR("IQ_CTR1", 0x30D),
	CTR("IQ_CTR4", 0x310),
	CTR("BPU_CTR2", 0x302),   CTR("BPU_CTR3", 0x303),
	CTR("MS_CTR2", 0x306),    CTR("MS_CTR3", 0x307),
	CTR("FLAME_CTR2", 0x30A), CTR("FLAME_CTR3", 0x30B),
	CTR("IQ_CTR2", 0x30E),    CTR("IQ_CTR3", 0x30F),
	CTR("IQ_CTR5", 0x311),
};
