/* SPDX-License-Identifier: MIT */
#ifndef PMU_HWMODEL_CHECK_H
#define PMU_HWMODEL_CHECK_H

/* The per-family check_control functions behind pmu__control_check. */

#include "hwmodel/control.h"

/* Record a rejection in *r and return `err` (a negative PMU_E*). */
int pmu__check_fail(struct pmu_control_result *r, int err, const char *rule,
		    int counter, const char *field, uint32_t value,
		    const char *message);

typedef int (*pmu__check_fn)(const struct pmu_hwmodel *m,
			     const struct pmu_control *c, bool is_global,
			     struct pmu_control_result *r);

int pmu__check_generic(const struct pmu_hwmodel *m, const struct pmu_control *c,
		       bool is_global, struct pmu_control_result *r);
int pmu__check_p5(const struct pmu_hwmodel *m, const struct pmu_control *c,
		  bool is_global, struct pmu_control_result *r);
int pmu__check_p6(const struct pmu_hwmodel *m, const struct pmu_control *c,
		  bool is_global, struct pmu_control_result *r);
int pmu__check_vc3(const struct pmu_hwmodel *m, const struct pmu_control *c,
		   bool is_global, struct pmu_control_result *r);
int pmu__check_p4(const struct pmu_hwmodel *m, const struct pmu_control *c,
		  bool is_global, struct pmu_control_result *r);
int pmu__check_ppc(const struct pmu_hwmodel *m, const struct pmu_control *c,
		   bool is_global, struct pmu_control_result *r);
int pmu__check_xscale(const struct pmu_hwmodel *m, const struct pmu_control *c,
		      bool is_global, struct pmu_control_result *r);

#define PMU_FAIL(r, e, rule, i, field, v, msg) \
	pmu__check_fail((r), -(e), (rule), (int)(i), (field), (v), (msg))

#endif
