/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <pmu/event.h>
#include <pmu/metric.h>

#include "events/catalog.h"
#include "events/metric.h"
#include "util/cpuid.h"
#include "util/error.h"
#include "util/opts.h"
#include "util/topology.h"

/*
 * Evaluation as perf's expr.y evaluates a metric over counts: NaN for
 * an uncounted event travels through arithmetic; '/' by zero is NaN,
 * d_ratio() by zero 0; '<' '>' give 1 or 0 (NaN compares false); '|'
 * '&' '^' are logical on zero / non-zero operands, NaN when an operand
 * is NaN and does not decide alone; "a if c else b" takes a unless c is
 * zero; min and max keep the second operand when the comparison fails.
 */

struct ev {
	const struct pmu_metric_expr *e;
	const struct pmu_metric_ctx *ctx;
	double *lit;             /* literal values, looked up once */
	int rc;
};

static bool zero(double v)
{
	return fpclassify(v) == FP_ZERO;
}

static double node(struct ev *x, uint32_t i, int depth);

static double logical(struct ev *x, const struct pmu__mnode *n, int d)
{
	double a = node(x, n->a, d), b = node(x, n->b, d);

	if (isfinite(a) && isfinite(b)) {
		if (n->op == PMU__M_OR)
			return zero(a) && zero(b) ? 0 : 1;
		if (n->op == PMU__M_AND)
			return !zero(a) && !zero(b) ? 1 : 0;
		return zero(a) != zero(b) ? 1 : 0;
	}
	/* One known operand may decide (perf's short cut), else NaN. */
	if (isfinite(a) && n->op != PMU__M_XOR)
		return n->op == PMU__M_OR ? (zero(a) ? b : 1)
					  : (zero(a) ? 0 : b);
	if (isfinite(b) && n->op != PMU__M_XOR)
		return n->op == PMU__M_OR ? (zero(b) ? a : 1)
					  : (zero(b) ? 0 : a);
	return NAN;
}

/* perf takes '%' of the operands as integers; an uncounted operand
 * (or one no integer holds) gives NaN rather than a cast's undefined
 * value. */
static double modulo(struct ev *x, double a, double b)
{
	const double lim = 9.2e18;

	if (zero(b)) {
		x->rc = -EDOM;
		return NAN;
	}
	if (!isfinite(a) || !isfinite(b) || fabs(a) >= lim || fabs(b) >= lim)
		return NAN;
	if ((long long)b == -1)
		return 0;
	if ((long long)b == 0) {
		x->rc = -EDOM;
		return NAN;
	}
	return (double)((long long)a % (long long)b);
}

static double binary(struct ev *x, const struct pmu__mnode *n, int d)
{
	double a = node(x, n->a, d), b = node(x, n->b, d);

	switch (n->op) {
	case PMU__M_ADD: return a + b;
	case PMU__M_SUB: return a - b;
	case PMU__M_MUL: return a * b;
	case PMU__M_DIV: return zero(b) ? NAN : a / b;
	case PMU__M_MOD: return modulo(x, a, b);
	case PMU__M_LT: return a < b;
	case PMU__M_GT: return a > b;
	case PMU__M_MIN: return a < b ? a : b;
	case PMU__M_MAX: return a > b ? a : b;
	case PMU__M_DRATIO: return zero(b) ? 0 : a / b;
	default: return NAN;
	}
}

static bool host_has_event(const char *name)
{
	struct pmu_encoding enc = { .size = sizeof(enc) };

	return pmu_event_encode(name, NULL, &enc, NULL) == 0;
}

static double has_event(struct ev *x, const char *name)
{
	const struct pmu_metric_ctx *c = x->ctx;
	bool (*f)(const char *, void *) = PMU__OPTS_GET(c, has_event, NULL);

	return f ? f(name, PMU__OPTS_GET(c, arg, NULL)) : host_has_event(name);
}

static double cpuid_is(struct ev *x, const char *want)
{
	const char *have = PMU__OPTS_GET(x->ctx, cpuid, NULL);
	const struct pmu__cpuid *h = pmu__cpuid_host();
	enum pmu__arch a;

	if (!have)
		have = h->perf_id;
	if (!have || !*have)
		return NAN;
	a = pmu__cpuid_arch(have, strlen(have));
	return pmu__cpuid_pattern_match(a, want, have) ? 1 : 0;
}

static double leaf(struct ev *x, const struct pmu__mnode *n)
{
	const struct pmu_metric_ctx *c = x->ctx;
	const double *v = PMU__OPTS_GET(c, values, NULL);
	const double *sc = PMU__OPTS_GET(c, source_counts, NULL);

	switch (n->op) {
	case PMU__M_NUM:
		return n->num;
	case PMU__M_LIT:
		return x->lit[n->id];
	case PMU__M_ID:
		return v[n->id];
	case PMU__M_SRC:
		return sc ? sc[n->id] : 1;
	case PMU__M_HAS:
		return has_event(x, x->e->args[n->id]);
	case PMU__M_CPUID:
		return cpuid_is(x, x->e->args[n->id]);
	default:
		return NAN;
	}
}

static double node(struct ev *x, uint32_t i, int depth)
{
	const struct pmu__mnode *n = &x->e->n[i];

	if (depth > 256)
		return NAN;
	switch (n->op) {
	case PMU__M_NEG:
		return -node(x, n->a, depth + 1);
	case PMU__M_SELECT:
		return zero(node(x, n->b, depth + 1)) ? node(x, n->c, depth + 1)
						      : node(x, n->a, depth + 1);
	case PMU__M_AND:
	case PMU__M_OR:
	case PMU__M_XOR:
		return logical(x, n, depth + 1);
	case PMU__M_ADD: case PMU__M_SUB: case PMU__M_MUL: case PMU__M_DIV:
	case PMU__M_MOD: case PMU__M_LT: case PMU__M_GT: case PMU__M_MIN:
	case PMU__M_MAX: case PMU__M_DRATIO:
		return binary(x, n, depth + 1);
	default:
		return leaf(x, n);
	}
}

/* ---- #literals ---- */

static double tsc_freq(void)
{
	const char *at = strstr(pmu__cpuid_host()->name, "@ ");
	char *end;
	double ghz;

	if (!at)
		return NAN;
	ghz = strtod(at + 2, &end);
	return end != at + 2 && !strncmp(end, "GHz", 3) ? ghz * 1e9 : NAN;
}

static double count(int v)
{
	return v < 0 ? NAN : v;
}

PMU_API double pmu_metric_literal(const char *name)
{
	const struct pmu__topology *t;

	if (!name)
		return NAN;
	t = pmu__topology_host();
	if (!strcasecmp(name, "#smt_on"))
		return count(t->smt_on);
	/* pmu_metric_literal() knows no measurement: not system-wide */
	if (!strcasecmp(name, "#core_wide"))
		return 0;
	if (!strcasecmp(name, "#num_cpus"))
		return count(t->present_max);
	if (!strcasecmp(name, "#num_cpus_online"))
		return count(t->online);
	if (!strcasecmp(name, "#num_packages"))
		return count(t->packages);
	if (!strcasecmp(name, "#num_dies"))
		return count(t->dies);
	if (!strcasecmp(name, "#num_cores"))
		return count(t->cores);
	if (!strcasecmp(name, "#has_pmem"))
		return t->has_pmem;
	if (!strcasecmp(name, "#system_tsc_freq"))
		return tsc_freq();
	return NAN;   /* #slots: no core PMU here gives it */
}

static int literals(struct ev *x)
{
	const struct pmu_metric_ctx *c = x->ctx;
	double (*f)(const char *, void *) = PMU__OPTS_GET(c, literal, NULL);
	void *arg = PMU__OPTS_GET(c, arg, NULL);

	if (!x->e->nlits)
		return 0;
	if (!(x->lit = calloc(x->e->nlits, sizeof(double))))
		return -ENOMEM;
	for (size_t i = 0; i < x->e->nlits; i++)
		x->lit[i] = f ? f(x->e->lits[i], arg)
			      : pmu_metric_literal(x->e->lits[i]);
	return 0;
}

PMU_API int pmu_metric_expr_eval(const struct pmu_metric_expr *e,
				 const struct pmu_metric_ctx *ctx, double *out,
				 struct pmu_error *err)
{
	struct ev x = { .e = e, .ctx = ctx };
	int rc = PMU__OPTS_CHECK(ctx, pmu_metric_ctx, err);

	if (rc)
		return rc;
	if (!e || !out)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "pmu_metric_expr_eval: no expression or no "
				  "result");
	if (e->nids && !PMU__OPTS_GET(ctx, values, NULL))
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "pmu_metric_expr_eval: the expression reads "
				  "%zu values and none are given", e->nids);
	if ((rc = literals(&x)))
		return pmu__error(err, rc, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	*out = node(&x, e->root, 0);
	free(x.lit);
	if (x.rc)
		return pmu__error(err, x.rc, PMU_ERR_BAD_VALUE, "%", -1,
				  "'%%' by zero: perf gives the metric no "
				  "value");
	return 0;
}

PMU_API const char *pmu_metric_unit(const char *scale_unit, double *scale)
{
	char *end;
	double v;

	if (!scale_unit) {
		if (scale)
			*scale = 1;
		return "";
	}
	v = strtod(scale_unit, &end);
	if (end == scale_unit)
		v = 1;
	if (scale)
		*scale = v;
	return end;
}
