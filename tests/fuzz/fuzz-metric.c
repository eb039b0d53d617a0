/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the metric expression parser and evaluator: whatever
 * parses must list its identifiers and evaluate (to a number or NaN)
 * with any values; whatever fails must say why.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/metric.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static double lit(const char *name, void *arg)
{
	(void)arg;
	return (double)strlen(name);
}

static bool has(const char *name, void *arg)
{
	(void)arg;
	return name[0] & 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmu_error err = { .size = sizeof(err) };
	char *s = malloc(size + 1);
	struct pmu_metric_expr *e;
	double *v, out;
	size_t n;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	e = pmu_metric_expr_parse(s, &err);
	free(s);
	if (!e) {
		if (!err.message[0] || err.code >= 0)
			abort();
		return 0;
	}
	n = pmu_metric_expr_nids(e);
	v = calloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		const char *id = pmu_metric_expr_id(e, i);
		char ev[256];
		if (!id || !*id)
			abort();
		pmu_metric_id_event(id, ev, sizeof(ev));
		v[i] = i % 3 == 0 ? 0 : i % 3 == 1 ? NAN : (double)i;
	}
	struct pmu_metric_ctx c = { .sz = sizeof(c), .values = v,
				    .literal = lit, .has_event = has,
				    .cpuid = "GenuineIntel-6-A7-1" };
	int rc = pmu_metric_expr_eval(e, &c, &out, &err);
	if (rc && (rc != -EDOM || !err.message[0]))
		abort();
	free(v);
	pmu_metric_expr_free(e);
	return 0;
}
