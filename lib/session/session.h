/* SPDX-License-Identifier: MIT */
#ifndef PMU_SESSION_SESSION_H
#define PMU_SESSION_SESSION_H

#include <linux/perf_event.h>
#include <stdbool.h>

#include <pmu/session.h>

#include "drivers/perf.h"
#include "drivers/perf_sys.h"

struct pmu_session {
	struct pmu__perf_ev *ev;
	size_t n, cap;
	int ngroups;
	const struct pmu__perf_sys *sys; /* NULL = the real kernel */
	struct pmu__perf *drv;           /* non-NULL once opened */
};

/*
 * Add one event given as a ready perf_event_attr (no parsing).  With
 * new_group it starts a group of its own, else it joins the last group.
 */
int pmu__session_add_attr(struct pmu_session *s, const char *name,
			  const struct perf_event_attr *attr, bool new_group);

#endif
