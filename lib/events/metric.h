/* SPDX-License-Identifier: MIT */
#ifndef PMU_EVENTS_METRIC_H
#define PMU_EVENTS_METRIC_H

/*
 * Metric expressions (metric_expr.c parses, metric_eval.c evaluates) and
 * the metrics of catalog models (metric_catalog.c): which metrics a
 * "NAME|GROUP" list selects, what events they need and how perf groups
 * them, and their values from counts.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmu/metric.h>

#include "events/catalog.h"

enum pmu__mop {
	PMU__M_NUM, PMU__M_ID, PMU__M_LIT, PMU__M_NEG,
	PMU__M_ADD, PMU__M_SUB, PMU__M_MUL, PMU__M_DIV, PMU__M_MOD,
	PMU__M_LT, PMU__M_GT, PMU__M_AND, PMU__M_OR, PMU__M_XOR,
	PMU__M_SELECT,       /* a if b else c */
	PMU__M_MIN, PMU__M_MAX, PMU__M_DRATIO,
	PMU__M_SRC,          /* source_count(ids[id]) */
	PMU__M_HAS,          /* has_event(args[id]) */
	PMU__M_CPUID,        /* strcmp_cpuid_str(args[id]) */
};

struct pmu__mnode {
	uint8_t op;
	uint32_t a, b, c;    /* operands (node indices) */
	uint32_t id;         /* ID/SRC: ids[], LIT: lits[], HAS/CPUID: args[] */
	double num;
};

struct pmu_metric_expr {
	struct pmu__mnode *n;
	size_t nn, cap;
	uint32_t root;
	char **ids, **args, **lits;
	size_t nids, nargs, nlits;
};

/* Metric of model m named (n bytes, case-insensitive), or NULL. */
const struct pmu__metric *pmu__metric_find(const struct pmu__catmodel *m,
					   const char *name, size_t n);

/* Is the n-byte name one of a ';'-separated list (case-insensitive)? */
bool pmu__metric_in_list(const char *list, const char *name, size_t n);

#endif
