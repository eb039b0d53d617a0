/* SPDX-License-Identifier: MIT */
/*
 * Logical PMU descriptors of the x86 models other than the Pentium 4.
 * P6 and AMD64 follow perfmon2's tables; P5, Cyrix MII, WinChip C6 and
 * VIA C3 were never described by perfmon2 and are built the same way
 * from perfctr's register facts (see docs/decisions.md).
 */
#include "hwmodel/desc.h"

/* 64-bit MSRs whose upper half does not exist on these 32-bit-era parts. */
#define HI32 UINT64_C(0xFFFFFFFF00000000)

/* The CESR holds both counters' 16-bit halves; only perfctr's per-half
 * allowed bits are writable. */
#define CESR_RSVD(allowed) (~((UINT64_C(allowed) << 16) | UINT64_C(allowed)))

const struct pmu_reg_desc pmu__p5_pmcs[1] = {
	{ .name = "CESR", .addr = 0x11, .rsvd_msk = CESR_RSVD(0x01FF) },
};

const struct pmu_reg_desc pmu__mii_pmcs[1] = {
	{ .name = "CESR", .addr = 0x11, .rsvd_msk = CESR_RSVD(0x05FF) },
};

const struct pmu_reg_desc pmu__c6_pmcs[1] = {
	{ .name = "CESR", .addr = 0x11, .rsvd_msk = CESR_RSVD(0x00FF) },
};

/* P5, MII and C6 share the two 40-bit counters at MSR 0x12/0x13. */
const struct pmu_reg_desc pmu__p5_pmds[2] = {
	{ .name = "CTR0", .addr = 0x12, .rsvd_msk = PMU_RSVD_ABOVE(40),
	  .width = 40, .flags = PMU_REGF_COUNTER },
	{ .name = "CTR1", .addr = 0x13, .rsvd_msk = PMU_RSVD_ABOVE(40),
	  .width = 40, .flags = PMU_REGF_COUNTER },
};

/* P6: bits 21 and 19 are reserved (perfctr's x86 notes), 63:32 do not
 * exist, and only EVNTSEL0 has the global enable bit 22.  INT (bit 20)
 * is forced on through dfl_val, as perfmon2 does for AMD64, so counters
 * can be virtualized to 64 bits. */
#define P6_SEL_RSVD (HI32 | (UINT64_C(1) << 21) | (UINT64_C(1) << 20) | \
	(UINT64_C(1) << 19))
#define P6_SEL_DFL (UINT64_C(1) << 20)

const struct pmu_reg_desc pmu__p6_pmcs[2] = {
	{ .name = "PERFEVTSEL0", .addr = 0x186, .dfl_val = P6_SEL_DFL,
	  .rsvd_msk = P6_SEL_RSVD, .flags = PMU_REGF_NO_EMUL64 },
	{ .name = "PERFEVTSEL1", .addr = 0x187, .dfl_val = P6_SEL_DFL,
	  .rsvd_msk = P6_SEL_RSVD | (UINT64_C(1) << 22),
	  .flags = PMU_REGF_NO_EMUL64 },
};

const struct pmu_reg_desc pmu__p6_pmds[2] = {
	{ .name = "PERFCTR0", .addr = 0xC1, .rsvd_msk = PMU_RSVD_ABOVE(40),
	  .width = 40, .flags = PMU_REGF_COUNTER },
	{ .name = "PERFCTR1", .addr = 0xC2, .rsvd_msk = PMU_RSVD_ABOVE(40),
	  .width = 40, .flags = PMU_REGF_COUNTER },
};

/* K7/K8 PERFSEL: bits 63:32, 21 and 20 reserved, INT forced via dfl_val. */
#define K8_SEL_RSVD (HI32 | (UINT64_C(1) << 21) | (UINT64_C(1) << 20))
#define K8_SEL(n) { .name = "PERFSEL" #n, .addr = 0xC0010000 + (n), \
	.dfl_val = UINT64_C(1) << 20, .rsvd_msk = K8_SEL_RSVD,      \
	.flags = PMU_REGF_NO_EMUL64 }
#define K8_CTR(n) { .name = "PERFCTR" #n, .addr = 0xC0010004 + (n), \
	.rsvd_msk = PMU_RSVD_ABOVE(48), .width = 48,                \
	.flags = PMU_REGF_COUNTER }

const struct pmu_reg_desc pmu__k8_pmcs[4] = {
	K8_SEL(0), K8_SEL(1), K8_SEL(2), K8_SEL(3),
};

const struct pmu_reg_desc pmu__k8_pmds[4] = {
	K8_CTR(0), K8_CTR(1), K8_CTR(2), K8_CTR(3),
};

/* Fam10h widens PERFSEL: EventSelect[11:8] at 35:32, Guest/Host 40/41. */
#define F10_SEL_RSVD (UINT64_C(0xFFFFFC0000000000) | \
	UINT64_C(0x000000F000000000) | (UINT64_C(1) << 21) | (UINT64_C(1) << 20))
#define F10_SEL(n) { .name = "PERFSEL" #n, .addr = 0xC0010000 + (n), \
	.dfl_val = UINT64_C(1) << 20, .rsvd_msk = F10_SEL_RSVD,      \
	.flags = PMU_REGF_NO_EMUL64 }
#define IBS_REG(nm, a) { .name = nm, .addr = (a), .flags = PMU_REGF_IBS }

const struct pmu_reg_desc pmu__fam10h_pmcs[6] = {
	F10_SEL(0), F10_SEL(1), F10_SEL(2), F10_SEL(3),
	/* only MaxCnt 15:0, En 48 and RandEn 57 are the user's */
	{ .name = "IBSFETCHCTL", .addr = 0xC0011030,
	  .rsvd_msk = ~(UINT64_C(0xFFFF) | (UINT64_C(1) << 48) |
			(UINT64_C(1) << 57)),
	  .flags = PMU_REGF_IBS },
	/* only MaxCnt 15:0 and En 17 */
	{ .name = "IBSOPCTL", .addr = 0xC0011033,
	  .rsvd_msk = ~(UINT64_C(0xFFFF) | (UINT64_C(1) << 17)),
	  .flags = PMU_REGF_IBS },
};

const struct pmu_reg_desc pmu__fam10h_pmds[14] = {
	K8_CTR(0), K8_CTR(1), K8_CTR(2), K8_CTR(3),
	IBS_REG("IBSFETCHCTL", 0xC0011030),
	IBS_REG("IBSFETCHLINAD", 0xC0011031),
	IBS_REG("IBSFETCHPHYSAD", 0xC0011032),
	IBS_REG("IBSOPCTL", 0xC0011033),
	IBS_REG("IBSOPRIP", 0xC0011034),
	IBS_REG("IBSOPDATA", 0xC0011035),
	IBS_REG("IBSOPDATA2", 0xC0011036),
	IBS_REG("IBSOPDATA3", 0xC0011037),
	IBS_REG("IBSDCLINAD", 0xC0011038),
	IBS_REG("IBSDCPHYSAD", 0xC0011039),
};

/* VIA C3: one programmable counter, PERFCTR1 with EVNTSEL1; PERFCTR0
 * only aliases the TSC and is not part of the logical PMU. */
const struct pmu_reg_desc pmu__vc3_pmcs[1] = {
	{ .name = "EVNTSEL1", .addr = 0x187, .rsvd_msk = ~UINT64_C(0x1FF) },
};

const struct pmu_reg_desc pmu__vc3_pmds[1] = {
	{ .name = "PERFCTR1", .addr = 0xC2, .rsvd_msk = PMU_RSVD_ABOVE(40),
	  .width = 40, .flags = PMU_REGF_COUNTER },
};
