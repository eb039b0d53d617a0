/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/event.h>

#include "stat.h"

/* Each row's derived figure, from the counting engine. */
void stat_metrics_compute(const struct pmu_stat *st, struct stat_row *rows,
			  size_t n, double wall_ns)
{
	double *counts = calloc(n ? n : 1, sizeof(*counts));
	enum pmu_event_status *status = calloc(n ? n : 1, sizeof(*status));
	const char **cgroups = calloc(n ? n : 1, sizeof(*cgroups));
	struct pmu_derived *d = calloc(n ? n : 1, sizeof(*d));
	static const enum stat_mfmt fmt[] = {
		[PMU_DERIVED_RATE] = STAT_MF_RATE, [PMU_DERIVED_PCT] = STAT_MF_PCT,
		[PMU_DERIVED_IPC] = STAT_MF_IPC, [PMU_DERIVED_PCT5] = STAT_MF_PCT5,
		[PMU_DERIVED_WHOLE] = STAT_MF_WHOLE,
	};

	for (size_t i = 0; i < n; i++) {
		rows[i].metric_unit = NULL;
		rows[i].metric_is_pct = false;
	}
	if (!st || !n || !counts || !status || !cgroups || !d)
		goto out;
	for (size_t i = 0; i < n; i++) {
		counts[i] = rows[i].count;
		status[i] = rows[i].status;
		cgroups[i] = rows[i].cgroup;
	}
	d[0].size = sizeof(*d);
	if (pmu_stat_derive(st, counts, status, cgroups, wall_ns, d))
		goto out;
	for (size_t i = 0; i < n; i++) {
		if (!d[i].unit)
			continue;
		rows[i].metric = d[i].value;
		rows[i].metric_unit = d[i].unit;
		rows[i].metric_is_pct = d[i].pct;
		rows[i].metric_fmt = fmt[d[i].fmt];
	}
out:
	free(counts);
	free(status);
	free(cgroups);
	free(d);
}

bool stat_metric_shown_alone(const struct stat_row *r)
{
	return r->metric_unit && !strstr(r->metric_unit, "/sec") &&
	       !strstr(r->metric_unit, "CPUs utilized");
}

void stat_metric_format(char *buf, size_t sz, const struct stat_row *r)
{
	switch (r->metric_fmt) {
	case STAT_MF_PCT:
		snprintf(buf, sz, "%7.2f%%", r->metric);
		break;
	case STAT_MF_IPC:
		snprintf(buf, sz, "%7.2f ", r->metric);
		break;
	case STAT_MF_PCT5:
		snprintf(buf, sz, "%5.2f%%", r->metric);
		break;
	case STAT_MF_WHOLE:
		snprintf(buf, sz, "%8.0f", r->metric);
		break;
	case STAT_MF_RATE:
		snprintf(buf, sz, "%8.3f", r->metric);
		break;
	}
}
