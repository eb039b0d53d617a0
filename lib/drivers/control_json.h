/* SPDX-License-Identifier: MIT */
#ifndef PMU_DRIVERS_CONTROL_JSON_H
#define PMU_DRIVERS_CONTROL_JSON_H

/* JSON (docs/control-format.md) -> perfctr control.  Hosted. */

#include <pmu/error.h>

#include "hwmodel/control.h"
#include "util/json.h"

/* Fill *c (zeroed first) from a parsed JSON object; 0 or -EINVAL with
 * *err naming the field, its index (err->index) and position. */
int pmu__control_from_json(const struct pmu_json *root, struct pmu_control *c,
			   struct pmu_error *err);

/* Parse text then convert; 0 or a negative errno. */
int pmu__control_parse(const char *text, size_t len, struct pmu_control *c,
		       struct pmu_error *err);

#endif
