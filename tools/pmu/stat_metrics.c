/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/event.h>

#include "stat.h"

int stat_derive_alloc(struct stat_derive *b, size_t n)
{
	n = n ? n : 1;
	b->counts = calloc(n, sizeof(*b->counts));
	b->status = calloc(n, sizeof(*b->status));
	b->cgroups = calloc(n, sizeof(*b->cgroups));
	b->d = calloc(n, sizeof(*b->d));
	return b->counts && b->status && b->cgroups && b->d ? 0 : -1;
}

void stat_derive_free(struct stat_derive *b)
{
	free(b->counts);
	free(b->status);
	free(b->cgroups);
	free(b->d);
}

/* Each row's derived figure, from the counting engine. */
void stat_metrics_compute(struct pmu_stat *st, struct stat_derive *b,
			  struct stat_row *rows, size_t n, double wall_ns)
{
	static const enum stat_mfmt fmt[] = {
		[PMU_DERIVED_RATE] = STAT_MF_RATE, [PMU_DERIVED_PCT] = STAT_MF_PCT,
		[PMU_DERIVED_IPC] = STAT_MF_IPC, [PMU_DERIVED_PCT5] = STAT_MF_PCT5,
		[PMU_DERIVED_WHOLE] = STAT_MF_WHOLE,
	};

	for (size_t i = 0; i < n; i++) {
		rows[i].metric_unit = NULL;
		rows[i].metric_is_pct = false;
	}
	if (!st || !n)
		return;
	for (size_t i = 0; i < n; i++) {
		b->counts[i] = rows[i].count;
		b->status[i] = rows[i].status;
		b->cgroups[i] = rows[i].cgroup;
	}
	b->d[0].size = sizeof(*b->d);
	if (pmu_stat_derive(st, b->counts, b->status, b->cgroups, wall_ns,
			    b->d))
		return;
	for (size_t i = 0; i < n; i++) {
		if (!b->d[i].unit)
			continue;
		rows[i].metric = b->d[i].value;
		rows[i].metric_unit = b->d[i].unit;
		rows[i].metric_is_pct = b->d[i].pct;
		rows[i].metric_fmt = fmt[b->d[i].fmt];
	}
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
