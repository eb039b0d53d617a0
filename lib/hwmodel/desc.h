/* SPDX-License-Identifier: MIT */
#ifndef PMU_HWMODEL_DESC_H
#define PMU_HWMODEL_DESC_H

/*
 * perfmon2-style register descriptor tables, one file per family.  The
 * sizes are part of the declarations so the model table can count them.
 */

#include "hwmodel/model.h"

/* Reserved mask of a register that implements only the low `w` bits. */
#define PMU_RSVD_ABOVE(w) (~((UINT64_C(1) << (w)) - 1))

extern const struct pmu_reg_desc pmu__p5_pmcs[1], pmu__p5_pmds[2];
extern const struct pmu_reg_desc pmu__mii_pmcs[1];
extern const struct pmu_reg_desc pmu__c6_pmcs[1];
extern const struct pmu_reg_desc pmu__p6_pmcs[2], pmu__p6_pmds[2];
extern const struct pmu_reg_desc pmu__k8_pmcs[4], pmu__k8_pmds[4];
extern const struct pmu_reg_desc pmu__fam10h_pmcs[6], pmu__fam10h_pmds[14];
extern const struct pmu_reg_desc pmu__vc3_pmcs[1], pmu__vc3_pmds[1];

#define PMU_P4_NPMCS 65
#define PMU_P4_NPMDS 18
#define PMU_P4HT_NPMCS 32
#define PMU_P4HT_NPMDS 9
extern const struct pmu_reg_desc pmu__p4_pmcs[PMU_P4_NPMCS];
extern const struct pmu_reg_desc pmu__p4_pmds[PMU_P4_NPMDS];

extern const struct pmu_reg_desc pmu__ppc604_pmcs[1], pmu__ppc604_pmds[3];
extern const struct pmu_reg_desc pmu__ppc604e_pmcs[2], pmu__ppc604e_pmds[5];
extern const struct pmu_reg_desc pmu__ppc750_pmcs[2], pmu__ppc750_pmds[5];
extern const struct pmu_reg_desc pmu__ppc7400_pmcs[4], pmu__ppc7400_pmds[5];
extern const struct pmu_reg_desc pmu__ppc7450_pmcs[4], pmu__ppc7450_pmds[7];

extern const struct pmu_reg_desc pmu__xsc1_pmcs[1], pmu__xsc1_pmds[3];
extern const struct pmu_reg_desc pmu__xsc2_pmcs[4], pmu__xsc2_pmds[5];

#endif
