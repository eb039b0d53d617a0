/* SPDX-License-Identifier: MIT */
#ifndef PMU_EVENTS_IBS_H
#define PMU_EVENTS_IBS_H

#include <pmu/error.h>

#include "drivers/driver.h"

/*
 * An IBS set-up in an event list, "[model::]ibs_op:maxcnt=N[:cnt_ctl]"
 * or "[model::]ibs_fetch:maxcnt=N[:randen]", as an event object
 * (PMU__EV_IBS: codes are the control value, its perfmon2 PMC, control
 * PMD and number of PMDs; attr the perf form where sysfs has the PMU,
 * else PMU__EV_NO_PERF).  The model is the prefix, else dfl_model, else
 * this host's.  -ENOENT when `text` is no IBS set-up; other errors name
 * the bad setting in *err.
 */
int pmu__ibs_parse(const char *text, const char *dfl_model,
		   const char *sysfs_root, struct pmu__ev *d,
		   struct pmu_error *err);

#endif
