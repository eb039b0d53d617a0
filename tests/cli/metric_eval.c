/* SPDX-License-Identifier: MIT */
/*
 * Evaluates metric expressions for shell tests: one JSON object a line on
 * stdin, {"expr": E, "values": {ID: V...}, "literals": {"#x": V...},
 * "has": [NAME...], "cpuid": S, "source": {ID: N...}}, one line out:
 * {"value": V} (null for NaN) or {"error": MESSAGE}.  Values are the
 * test's own; the helper only connects them to the library.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/metric.h>

#include "util/json.h"

struct job {
	const struct pmu_json *lits, *has;
};

static double lit(const char *name, void *arg)
{
	const struct job *j = arg;
	const struct pmu_json *v = j->lits ? pmu__json_get(j->lits, name) : NULL;

	return v ? v->real : NAN;
}

static bool has(const char *name, void *arg)
{
	const struct job *j = arg;

	for (size_t i = 0; j->has && i < j->has->n; i++)
		if (!strcmp(j->has->items[i]->str, name))
			return true;
	return false;
}

static double num(const struct pmu_json *v)
{
	return v && (v->type == PMU_JSON_INT || v->type == PMU_JSON_REAL)
	       ? v->real : NAN;
}

static void one(const struct pmu_json *o)
{
	struct pmu_error err = { .size = sizeof(err) };
	const struct pmu_json *ex = pmu__json_get(o, "expr");
	const struct pmu_json *vals = pmu__json_get(o, "values");
	const struct pmu_json *src = pmu__json_get(o, "source");
	const struct pmu_json *cpuid = pmu__json_get(o, "cpuid");
	struct job j = { pmu__json_get(o, "literals"), pmu__json_get(o, "has") };
	struct pmu_metric_expr *e = pmu_metric_expr_parse(ex ? ex->str : NULL,
							  &err);
	size_t n = pmu_metric_expr_nids(e);
	double *v = calloc(n + 1, sizeof(*v)), *sc = calloc(n + 1, sizeof(*sc));
	double out;

	for (size_t i = 0; e && i < n; i++) {
		const char *id = pmu_metric_expr_id(e, i);
		const struct pmu_json *x = vals ? pmu__json_get(vals, id) : NULL;
		const struct pmu_json *s = src ? pmu__json_get(src, id) : NULL;
		if (!x) {
			printf("{\"error\": \"no value for id '%s'\"}\n", id);
			goto out;
		}
		v[i] = num(x);
		sc[i] = s ? num(s) : 1;
	}
	if (!e) {
		printf("{\"error\": \"parse: %s\"}\n", err.message);
		goto out;
	}
	struct pmu_metric_ctx c = { .sz = sizeof(c), .values = v,
				    .source_counts = sc, .literal = lit,
				    .has_event = has, .arg = &j,
				    .cpuid = cpuid ? cpuid->str : "" };
	if (pmu_metric_expr_eval(e, &c, &out, &err))
		printf("{\"error\": \"eval: %s\"}\n", err.message);
	else if (isnan(out))
		printf("{\"value\": null}\n");
	else
		printf("{\"value\": %.17g}\n", out);
out:
	free(v);
	free(sc);
	pmu_metric_expr_free(e);
}

int main(void)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	while ((len = getline(&line, &cap, stdin)) > 0) {
		struct pmu_error err = { .size = sizeof(err) };
		struct pmu_json *o = pmu__json_parse(line, (size_t)len, &err);

		if (!o) {
			printf("{\"error\": \"bad job: %s\"}\n", err.message);
			continue;
		}
		one(o);
		pmu__json_free(o);
		fflush(stdout);
	}
	free(line);
	return 0;
}
