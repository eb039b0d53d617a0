/* SPDX-License-Identifier: MIT */
/*
 * The counting engine: the readings of an open session put together as
 * perf stat puts them, so that every client (the pmu tool, bindings,
 * exporters) gets the same numbers.
 *
 *	PMU_OPTS(pmu_stat_opts, o, .mode = PMU_AGGR_SOCKET);
 *	struct pmu_stat *st = pmu_stat_new(session, &o, &err);
 *	size_t na = pmu_stat_naggr(st), n = pmu_session_nevents(session);
 *	struct pmu_value v[na * n];   (each .size set)
 *	pmu_stat_read(st, v, na * n);   v[a * n + i]: event i, aggregate a
 *
 * Aggregates group the session's units (CPUs or threads, see
 * pmu_session_unit_info()) by the CPU topology sysfs describes.  Events
 * one name stands for on several PMU instances (a merge id, see
 * pmu_session_event_merge()) are summed into the first of them, as perf
 * prints one line for them, unless the options keep them apart.
 */
#ifndef PMU_STAT_H
#define PMU_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <pmu/error.h>
#include <pmu/session.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How the counts of CPUs and threads are put together (perf stat's
 * aggregation modes). */
enum pmu_aggr_mode {
	PMU_AGGR_GLOBAL = 0,    /* one figure per event (the default) */
	PMU_AGGR_CPU,           /* one per CPU (perf stat -A) */
	PMU_AGGR_THREAD,        /* one per thread (--per-thread) */
	PMU_AGGR_CORE,          /* the CPUs of one core (--per-core) */
	PMU_AGGR_SOCKET,        /* of one socket (--per-socket) */
	PMU_AGGR_DIE,           /* of one die (--per-die) */
	PMU_AGGR_NODE,          /* of one NUMA node (--per-node) */
	PMU_AGGR_CACHE,         /* sharing one cache (--per-cache) */
};

struct pmu_stat_opts {
	size_t sz;              /* sizeof(struct pmu_stat_opts) */
	enum pmu_aggr_mode mode;
	int cache_level;        /* PMU_AGGR_CACHE: the level (1, 2, 3); 0:
				   the highest the CPUs have */
	bool no_merge;          /* the instances of a merged event are
				   read apart, each its own line (perf's
				   --no-merge) */
};
#define pmu_stat_opts__last_field no_merge

/* One aggregate: what a row of perf stat's output names. */
struct pmu_aggr {
	size_t size;            /* sizeof(struct pmu_aggr) */
	int cpu, socket, die, core, node; /* -1 where the mode does not
					     group by it */
	int cache_level, cache_id; /* PMU_AGGR_CACHE, else -1 */
	pid_t tid;              /* PMU_AGGR_THREAD and PMU_AGGR_CPU:
				   the unit's thread, else -1 */
	char comm[16];          /* the thread's name, "" when unknown */
	int nr;                 /* CPUs (or threads) in it */
};

struct pmu_stat;

/*
 * The aggregates of open session s (which must outlive the result): NULL
 * with errno and err set on failure: -EINVAL (a session not open, a
 * topology mode over thread units), -ENOENT (PMU_AGGR_CACHE: sysfs lists
 * no cache of that level for a CPU), or what reading the topology gave.
 */
PMU_API struct pmu_stat *pmu_stat_new(struct pmu_session *s,
				      const struct pmu_stat_opts *opts,
				      struct pmu_error *err);
PMU_API void pmu_stat_free(struct pmu_stat *st);

/* Number of aggregates (1 for PMU_AGGR_GLOBAL). */
PMU_API size_t pmu_stat_naggr(const struct pmu_stat *st);

/* Describe aggregate a (set out->size first; filled up to it); 0, or
 * -EINVAL past the last aggregate.  Aggregates of a topology mode come
 * sorted by socket, die, node, cache, core. */
PMU_API int pmu_stat_aggr(const struct pmu_stat *st, size_t a,
			  struct pmu_aggr *out);

/* The aggregate unit u of the session counts in, or -EINVAL. */
PMU_API ssize_t pmu_stat_unit_aggr(const struct pmu_stat *st, size_t u);

/*
 * Read every aggregate: vals[a * nevents + i] is event i summed over the
 * units of aggregate a (each element's size set by the caller; n at
 * least naggr * nevents).  Events never scheduled read
 * PMU_EVENT_NOT_COUNTED.  A merged event's instances are summed into the
 * first one (scaled by each instance's own share of the time), which
 * pmu_stat_folded() tells.  Returns the number of values filled or a
 * negative errno.
 */
PMU_API ssize_t pmu_stat_read(struct pmu_stat *st, struct pmu_value *vals,
			      size_t n);

/* Is event i an instance whose count pmu_stat_read() adds into an
 * earlier event's (and which a printer leaves out)? */
PMU_API bool pmu_stat_folded(const struct pmu_stat *st, size_t i);

/*
 * The name a line of event i carries: with no_merge, "PMU/EVENT/MODS"
 * for an instance of a merged event ("uncore_cha_0/foo/u" for foo:u on
 * uncore_cha_0), else the event's own name.  Copied into buf (size sz,
 * cut and terminated); returns the full length, or -EINVAL.
 */
PMU_API ssize_t pmu_stat_event_name(const struct pmu_stat *st, size_t i,
				    char *buf, size_t sz);

/*
 * perf stat's derived figures: the comment each count line carries
 * ("insn per cycle", "of all branches", "GHz", "M/sec", "CPUs
 * utilized", the TSX figures of -T).  Each pairs two events of one
 * aggregate's counts by what they count (generic events by
 * perf_event_attr type and config, whatever their names), their context
 * (privilege levels and places left out) and their cgroup.
 */
enum pmu_derived_fmt {
	PMU_DERIVED_RATE = 0,   /* perf prints it %8.3f */
	PMU_DERIVED_PCT,        /* %7.2f%% */
	PMU_DERIVED_IPC,        /* %7.2f and a space */
	PMU_DERIVED_PCT5,       /* %5.2f%% */
	PMU_DERIVED_WHOLE,      /* %8.0f */
};

struct pmu_derived {
	size_t size;            /* sizeof(struct pmu_derived) */
	const char *unit;       /* what the figure is; NULL: none */
	double value;
	bool pct;               /* a percentage */
	enum pmu_derived_fmt fmt;
};

/*
 * The derived figure of each event from one aggregate's figures:
 * counts[i] (scaled or raw, as printed) and status[i] of event i,
 * cgroups[i] its cgroup's name (cgroups NULL, or an entry NULL: none),
 * wall_ns the wall time (for CPUs utilized); out[i] for every event,
 * elements out[0].size bytes apart.  0, or -EINVAL.  The engine keeps
 * its working state in st: one call at a time on one st.
 */
PMU_API int pmu_stat_derive(struct pmu_stat *st, const double *counts,
			    const enum pmu_event_status *status,
			    const char *const *cgroups, double wall_ns,
			    struct pmu_derived *out);

/* to += v: raw counts and times summed, the status of a counted value
 * kept over one that was not, the sum rescaled (pmu_scale()). */
PMU_API void pmu_value_add(struct pmu_value *to, const struct pmu_value *v);

/* out = now - before: what was counted between two readings of one
 * event (an interval of perf stat -I), raw counts and times subtracted,
 * the difference rescaled; the status is now's. */
PMU_API void pmu_value_delta(const struct pmu_value *now,
			     const struct pmu_value *before,
			     struct pmu_value *out);

/*
 * Statistics of repeated measurements (perf stat -r): a running mean and
 * spread (Welford's method), zero-initialized.
 */
struct pmu_runstat {
	uint64_t n;
	double mean;
	double m2;              /* sum of squared differences from the mean */
};

PMU_API void pmu_runstat_add(struct pmu_runstat *r, double x);
/* The sample standard deviation; 0 below 2 values. */
PMU_API double pmu_runstat_stddev(const struct pmu_runstat *r);
/* perf's noise figure: the standard deviation of the mean relative to
 * the mean, in percent; 0 below 2 values or for a zero mean. */
PMU_API double pmu_runstat_noise_pct(const struct pmu_runstat *r);

#ifdef __cplusplus
}
#endif

#endif
