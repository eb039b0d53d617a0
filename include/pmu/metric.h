/* SPDX-License-Identifier: MIT */
#ifndef PMU_METRIC_H
#define PMU_METRIC_H

/*
 * Metrics: perf's MetricExpr formulas over event counts, as the kernel's
 * pmu-events files give them for each CPU model (pmu_catalog_metric_*),
 * parsed as perf's metric generator reads them and evaluated as perf
 * evaluates them (division by zero and uncounted events give NaN,
 * d_ratio() by zero gives 0, "x if c else y", min, max, comparisons,
 * the logical | & ^, #smt_on and the other #literals, source_count(),
 * has_event(), strcmp_cpuid_str(), metrics that name other metrics).
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <pmu/error.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pmu_metric_expr;

/*
 * Parse a MetricExpr.  Returns the expression or NULL with errno set
 * (EINVAL, ENOMEM, E2BIG) and *err naming the offending token and its
 * offset.
 */
PMU_API struct pmu_metric_expr *pmu_metric_expr_parse(const char *text,
						      struct pmu_error *err);
PMU_API void pmu_metric_expr_free(struct pmu_metric_expr *e);

/*
 * The identifiers whose values the expression reads, each once, in the
 * order of first use: events ("INST_RETIRED.ANY", "cpu@X,cmask=1@" with
 * the expression's backslash escapes removed, "duration_time") and
 * other metrics' names.  The arguments of has_event() and
 * strcmp_cpuid_str() are not among them; those of source_count() are.
 */
PMU_API size_t pmu_metric_expr_nids(const struct pmu_metric_expr *e);
PMU_API const char *pmu_metric_expr_id(const struct pmu_metric_expr *e,
				       size_t i);

/*
 * An identifier as an event-list string: "cpu@X,cmask=1@" is
 * "cpu/X,cmask=1/" and "cpu_core@X@k" "cpu_core/X/k", as perf opens
 * them; others are unchanged.  Into buf; the length, or -ENAMETOOLONG.
 */
PMU_API ssize_t pmu_metric_id_event(const char *id, char *buf, size_t sz);

/* What an evaluation reads. */
struct pmu_metric_ctx {
	size_t sz;                 /* sizeof(struct pmu_metric_ctx) */
	const double *values;      /* one per identifier (pmu_metric_expr_id);
				      NaN: not counted or not supported */
	const double *source_counts; /* one per identifier; NULL: all 1 */
	/* "#smt_on", "#num_cpus"...: the value, or NaN for one it does not
	 * know; NULL: this host's (pmu_metric_literal()) */
	double (*literal)(const char *name, void *arg);
	/* has_event(NAME): can NAME be opened here?  NULL: it parses as an
	 * event of the host */
	bool (*has_event)(const char *name, void *arg);
	const char *cpuid;         /* for strcmp_cpuid_str(): this CPU in
				      perf's form; NULL: the host's */
	void *arg;                 /* passed to the callbacks */
};
#define pmu_metric_ctx__last_field arg

/*
 * Evaluate.  Returns 0 and *out (NaN where perf's evaluation gives NaN:
 * a division by zero, an uncounted event), or a negative errno with
 * *err: -EINVAL for a missing context value, -EDOM for '%' by zero
 * (perf gives no value at all).
 */
PMU_API int pmu_metric_expr_eval(const struct pmu_metric_expr *e,
				 const struct pmu_metric_ctx *ctx, double *out,
				 struct pmu_error *err);

/*
 * This host's value of a #literal, as perf computes it: #smt_on,
 * #core_wide, #num_cpus, #num_cpus_online, #num_packages, #num_dies,
 * #num_cores, #slots (NaN without a core PMU giving it),
 * #system_tsc_freq; case-insensitive.  NaN when unknown.
 */
PMU_API double pmu_metric_literal(const char *name);

/* ---- the metrics of the catalogs' models ---- */

struct pmu_metric_info {
	size_t size;            /* sizeof(struct pmu_metric_info) */
	const char *name;       /* MetricName */
	const char *expr;       /* MetricExpr */
	const char *groups;     /* MetricGroup, "A;B", or "" */
	const char *nogroup;    /* MetricgroupNoGroup, or "" */
	const char *default_group; /* DefaultMetricgroupName, or "" */
	const char *unit;       /* ScaleUnit: "100%", "1GHz"... or "" */
	bool no_group_events;   /* MetricConstraint NO_GROUP_EVENTS* */
};

/* Number of metrics of catalog model `model` (0 for models without). */
PMU_API size_t pmu_catalog_metric_count(size_t model);
PMU_API int pmu_catalog_metric_info(size_t model, size_t metric,
				    struct pmu_metric_info *info);
/* A metric of a model by name (case-insensitive), or -ENOENT. */
PMU_API ssize_t pmu_catalog_metric_find(size_t model, const char *name);

/* ---- metrics measured by a session ---- */

struct pmu_session;
struct pmu_metric_set;

struct pmu_metric_set_opts {
	size_t sz;              /* sizeof(struct pmu_metric_set_opts) */
	const char *model;      /* catalog model whose metrics the names
				   are (with its hybrid sibling); NULL:
				   pmu_event_host_model() */
	bool no_group;          /* never group a metric's events (perf's
				   --metric-no-group) */
};
#define pmu_metric_set_opts__last_field no_group

/*
 * The metrics a comma list of metric names and metric groups selects
 * ("IPC,TopdownL1"; case-insensitive), with the events they need and
 * their grouping as perf groups them: one group per metric unless its
 * MetricConstraint or a MetricgroupNoGroup group that selected it says
 * otherwise, groups whose events another metric's group already holds
 * shared, events of ungrouped metrics counted once.  An unknown name is
 * an error naming it; events this machine cannot resolve are left out
 * and make their metrics' values NaN (pmu_metric_value.missing says
 * which).  NULL with errno and *err on failure.
 */
PMU_API struct pmu_metric_set *pmu_metric_set_new(
	const char *list, const struct pmu_metric_set_opts *opts,
	struct pmu_error *err);
PMU_API void pmu_metric_set_free(struct pmu_metric_set *m);

/* The event list the metrics need ("{a,b},c"), "" when none. */
PMU_API const char *pmu_metric_set_events(const struct pmu_metric_set *m);

/* Add those events to a session after the ones it has (once). */
PMU_API int pmu_metric_set_add(struct pmu_metric_set *m,
			       struct pmu_session *s, struct pmu_error *err);

/* Number of metrics selected, in the order the list named them. */
PMU_API size_t pmu_metric_set_count(const struct pmu_metric_set *m);

struct pmu_metric_value {
	size_t size;            /* sizeof(struct pmu_metric_value) */
	const char *name;       /* MetricName */
	const char *unit;       /* unit from ScaleUnit: "%", "GHz"... */
	double value;           /* scaled by ScaleUnit; NaN as perf */
	ssize_t leader;         /* session event whose line shows it, -1 */
	const char *missing;    /* an event it needs that is not available
				   (unknown here, or counts[] NaN; value is
				   then NaN), else NULL */
};

/*
 * Metric i from counts of the session's events (counts[j] for event j,
 * n of them: the scaled count, NaN for an event that is not supported,
 * 0 for one that was not counted) and the measurement's duration.
 */
PMU_API int pmu_metric_set_value(const struct pmu_metric_set *m, size_t i,
				 const double *counts, size_t n,
				 double duration_ns,
				 struct pmu_metric_value *out,
				 struct pmu_error *err);

/*
 * A ScaleUnit split as perf splits it: the leading number (*scale,
 * 1 when none) and the unit after it ("%", "GHz", "per branch").
 */
PMU_API const char *pmu_metric_unit(const char *scale_unit, double *scale);

#ifdef __cplusplus
}
#endif
#endif
