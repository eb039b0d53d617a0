/* SPDX-License-Identifier: MIT */
/*
 * PowerPC 604/750/74xx logical PMU, built from perfctr's register facts
 * (perfmon2 never described these).  `addr` is the SPR number.  The SPRs
 * are 32 bits wide, so bits 63:32 are reserved everywhere.
 */
#include "hwmodel/desc.h"

#define HI32 UINT64_C(0xFFFFFFFF00000000)

#define SPR(nm, a, rsvd) { .name = nm, .addr = (a), .rsvd_msk = (rsvd) }
#define PMC(n, a) { .name = "PMC" #n, .addr = (a), .rsvd_msk = HI32, \
	.width = 32, .flags = PMU_REGF_COUNTER }

/* MMCR1 event fields: PMC3SEL 31:27, PMC4SEL 26:22 (then PMC5/6 on 745x). */
#define MMCR1_RSVD_2 (HI32 | UINT64_C(0x003FFFFF))
#define MMCR1_RSVD_4 (HI32 | UINT64_C(0x000007FF))
/* MMCR2 on 74xx: only THRESHMULT is accepted by perfctr. */
#define MMCR2_RSVD (HI32 | UINT64_C(0x7FFFFFFF))

#define MMCR0 SPR("MMCR0", 0x3B8, HI32)
#define SIA SPR("SIA", 0x3BB, HI32)

const struct pmu_reg_desc pmu__ppc604_pmcs[1] = { MMCR0 };
const struct pmu_reg_desc pmu__ppc604_pmds[3] = {
	PMC(1, 0x3B9), PMC(2, 0x3BA), SIA,
};

const struct pmu_reg_desc pmu__ppc604e_pmcs[2] = {
	MMCR0, SPR("MMCR1", 0x3BC, MMCR1_RSVD_2),
};
const struct pmu_reg_desc pmu__ppc604e_pmds[5] = {
	PMC(1, 0x3B9), PMC(2, 0x3BA), PMC(3, 0x3BD), PMC(4, 0x3BE), SIA,
};

const struct pmu_reg_desc pmu__ppc750_pmcs[2] = {
	MMCR0, SPR("MMCR1", 0x3BC, MMCR1_RSVD_2),
};
const struct pmu_reg_desc pmu__ppc750_pmds[5] = {
	PMC(1, 0x3B9), PMC(2, 0x3BA), PMC(3, 0x3BD), PMC(4, 0x3BE), SIA,
};

const struct pmu_reg_desc pmu__ppc7400_pmcs[4] = {
	MMCR0, SPR("MMCR1", 0x3BC, MMCR1_RSVD_2),
	SPR("MMCR2", 0x3B0, MMCR2_RSVD), SPR("BAMR", 0x3B7, HI32),
};
const struct pmu_reg_desc pmu__ppc7400_pmds[5] = {
	PMC(1, 0x3B9), PMC(2, 0x3BA), PMC(3, 0x3BD), PMC(4, 0x3BE), SIA,
};

const struct pmu_reg_desc pmu__ppc7450_pmcs[4] = {
	MMCR0, SPR("MMCR1", 0x3BC, MMCR1_RSVD_4),
	SPR("MMCR2", 0x3B0, MMCR2_RSVD), SPR("BAMR", 0x3B7, HI32),
};
const struct pmu_reg_desc pmu__ppc7450_pmds[7] = {
	PMC(1, 0x3B9), PMC(2, 0x3BA), PMC(3, 0x3BD), PMC(4, 0x3BE),
	PMC(5, 0x3B1), PMC(6, 0x3B2), SIA,
};
