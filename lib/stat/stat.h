/* SPDX-License-Identifier: MIT */
#ifndef PMU_STAT_STAT_H
#define PMU_STAT_STAT_H

#include <stdbool.h>
#include <stddef.h>

#include <pmu/stat.h>

/* What perf's derived figures pair: generic hardware and cache events by
 * their perf_event_attr type and config, whatever they are called. */
enum pmu__kind {
	PMU__K_OTHER = 0,
	PMU__K_CYCLES,
	PMU__K_INSTRUCTIONS,
	PMU__K_BRANCHES,
	PMU__K_BRANCH_MISSES,
	PMU__K_CACHE_REFS,
	PMU__K_CACHE_MISSES,
	PMU__K_STALLED_FRONTEND,
	PMU__K_STALLED_BACKEND,
	PMU__K_L1D_LOADS,
	PMU__K_L1D_LOAD_MISSES,
	PMU__K_L1I_LOADS,
	PMU__K_L1I_LOAD_MISSES,
	PMU__K_LLC_LOADS,
	PMU__K_LLC_LOAD_MISSES,
	PMU__K_DTLB_LOADS,
	PMU__K_DTLB_LOAD_MISSES,
	PMU__K_ITLB_LOADS,
	PMU__K_ITLB_LOAD_MISSES,
	PMU__K_CLOCK,              /* task-clock, cpu-clock */
};

/* An event's kind and its context (the exclude bits perf pairs on). */
struct pmu__evkind {
	enum pmu__kind kind;
	unsigned ctx;
};

/* One event as the derived figures' rules see it: what it is (set once)
 * and one aggregate's figures (set by each pmu_stat_derive()). */
struct pmu__drow {
	struct pmu__evkind ev;
	const char *name;
	const char *cgroup;
	double count;
	bool ok;
};

struct pmu_stat {
	struct pmu_session *s;
	enum pmu_aggr_mode mode;
	bool no_merge;
	struct pmu_aggr *aggs;
	size_t naggr;
	size_t *unit_aggr;      /* [nunits] */
	size_t nunits;
	size_t *head;           /* [nevents]: where event i's count adds up */
	size_t nevents;
	struct pmu_value *tmp;  /* [nevents]: one unit's reading */
	struct pmu__drow *rows; /* [nevents]: for pmu_stat_derive() */
};

/* derived.c: event i's kind and context, from the session. */
void pmu__stat_evkind(const struct pmu_session *s, size_t i,
		      struct pmu__evkind *out);

#endif
