/* SPDX-License-Identifier: MIT */
/*
 * Metric expressions and metric sets.  Expected values are worked out
 * by hand from each row's expression and inputs with perf's rules
 * (tools/perf/util/expr.y): '/' by zero NaN, d_ratio() by zero 0,
 * comparisons 1/0, | & ^ logical, "a if c else b" takes a unless c is
 * zero.  tests/cli/metric-oracle.sh checks every expression of the
 * kernel's tree against the kernel's own parser.  The sets use the
 * built-in amdzen5 model, whose PipelineL1 metrics are (the kernel's
 * x86/amdzen5/pipeline.json): total_dispatch_slots = 8 *
 * ls_not_halted_cyc, retiring = d_ratio(ex_ret_ops,
 * total_dispatch_slots) with ScaleUnit 100%slots, and three more.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <pmu/metric.h>

#define MAXV 4

struct erow {
	int line;
	const char *expr;
	const char *ids[MAXV];   /* in first-use order */
	double vals[MAXV];
	double want;             /* NAN: NaN */
};

static double lit(const char *name, void *arg)
{
	(void)arg;
	if (!strcmp(name, "#smt_on"))
		return 1;
	if (!strcmp(name, "#SMT_on"))
		return 1;
	if (!strcmp(name, "#slots"))
		return 6;
	return NAN;
}

static bool has(const char *name, void *arg)
{
	(void)arg;
	return !strcmp(name, "present");
}

static const struct erow erows[] = {
	{ __LINE__, "a / b", { "a", "b" }, { 6, 3 }, 2 },
	{ __LINE__, "a / b", { "a", "b" }, { 6, 0 }, NAN },
	{ __LINE__, "d_ratio(a, b)", { "a", "b" }, { 6, 0 }, 0 },
	{ __LINE__, "d_ratio(a, b)", { "a", "b" }, { 6, 4 }, 1.5 },
	{ __LINE__, "100 * (a - b) / c", { "a", "b", "c" }, { 10, 4, 3 }, 200 },
	/* Python's precedence: * before +, comparisons below | */
	{ __LINE__, "1 + 2 * a", { "a" }, { 3 }, 7 },
	{ __LINE__, "a if b > 2 else c", { "a", "b", "c" }, { 1, 3, 5 }, 1 },
	{ __LINE__, "a if b > 2 else c", { "a", "b", "c" }, { 1, 2, 5 }, 5 },
	/* a NaN condition is not zero: the true value */
	{ __LINE__, "a if b else c", { "a", "b", "c" }, { 1, NAN, 5 }, 1 },
	{ __LINE__, "a if b < 1 else c if b < 5 else 9", { "a", "b", "c" },
	  { 1, 3, 5 }, 5 },
	{ __LINE__, "min(a, b) + max(a, b)", { "a", "b" }, { 2, 7 }, 9 },
	/* perf's min keeps the second operand when the comparison fails */
	{ __LINE__, "min(a, b)", { "a", "b" }, { NAN, 7 }, 7 },
	{ __LINE__, "max(0, a)", { "a" }, { NAN }, NAN },
	{ __LINE__, "a | b", { "a", "b" }, { 0, 0 }, 0 },
	{ __LINE__, "a | b", { "a", "b" }, { 0, 3 }, 1 },
	{ __LINE__, "a & b", { "a", "b" }, { 2, 3 }, 1 },
	{ __LINE__, "a ^ b", { "a", "b" }, { 2, 3 }, 0 },
	{ __LINE__, "a & b", { "a", "b" }, { 0, NAN }, 0 },
	{ __LINE__, "a | b", { "a", "b" }, { 0, NAN }, NAN },
	{ __LINE__, "a + b", { "a", "b" }, { 1, NAN }, NAN },
	{ __LINE__, "a % b", { "a", "b" }, { 7, 3 }, 1 },
	{ __LINE__, "-a + 1e3", { "a" }, { 2 }, 998 },
	{ __LINE__, "#smt_on * 2 + #slots", { NULL }, { 0 }, 8 },
	{ __LINE__, "#SMT_on + #nosuch", { NULL }, { 0 }, NAN },
	{ __LINE__, "(1 if has_event(present) else 0) + has_event(gone)",
	  { NULL }, { 0 }, 1 },
	{ __LINE__, "strcmp_cpuid_str(0x410fd493)", { NULL }, { 0 }, 1 },
	{ __LINE__, "strcmp_cpuid_str(0x410fd494)", { NULL }, { 0 }, 0 },
	{ __LINE__, "source_count(u) * 2", { "u" }, { 5 }, 2 },
	/* escapes: the identifier is the text without the backslashes */
	{ __LINE__, "cpu@EV.A\\,cmask\\=1@ * 2", { "cpu@EV.A,cmask=1@" },
	  { 4 }, 8 },
	{ __LINE__, "topdown\\-retiring / slots", { "topdown-retiring",
	  "slots" }, { 3, 6 }, 0.5 },
	{ __LINE__, "x<y", { "x<y" }, { 2 }, 2 },
};

static void test_eval(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(erows) / sizeof(erows[0]); i++) {
		const struct erow *r = &erows[i];
		struct pmu_error err = { .size = sizeof(err) };
		struct pmu_metric_expr *e = pmu_metric_expr_parse(r->expr, &err);
		struct pmu_metric_ctx c = { .sz = sizeof(c), .values = r->vals,
					    .literal = lit, .has_event = has,
					    .cpuid = "0x00000000410fd493" };
		size_t n = 0;
		double got;

		if (!e)
			fail_msg("line %d: %s", r->line, err.message);
		while (n < MAXV && r->ids[n])
			n++;
		if (pmu_metric_expr_nids(e) != n)
			fail_msg("line %d: %zu ids, want %zu", r->line,
				 pmu_metric_expr_nids(e), n);
		for (size_t k = 0; k < n; k++)
			if (strcmp(pmu_metric_expr_id(e, k), r->ids[k]))
				fail_msg("line %d: id %zu '%s', want '%s'",
					 r->line, k, pmu_metric_expr_id(e, k),
					 r->ids[k]);
		assert_int_equal(pmu_metric_expr_eval(e, &c, &got, &err), 0);
		if (isnan(r->want) ? !isnan(got) : got != r->want)
			fail_msg("line %d: %s = %g, want %g", r->line, r->expr,
				 got, r->want);
		pmu_metric_expr_free(e);
	}
}

static const struct {
	int line;
	const char *expr;
	int offset;
	const char *msg;
} bad[] = {
	{ __LINE__, "", 0, "unexpected end" },
	{ __LINE__, "a +", 3, "unexpected end" },
	{ __LINE__, "(a", 2, "expected ')'" },
	{ __LINE__, "a b", 2, "unexpected 'b'" },
	{ __LINE__, "a ** 2", 2, "'**'" },
	{ __LINE__, "a <= 2", 2, "'<='" },
	{ __LINE__, "a < b < c", 6, "chained" },
	{ __LINE__, "a if b", 6, "'if' without 'else'" },
	{ __LINE__, "min(a)", 5, "expected ','" },
	{ __LINE__, "# + 1", 0, "'#' needs a name" },
	{ __LINE__, "2x", 0, "bad number" },
	{ __LINE__, "has_event(1 + 2)", 10, "expected a name" },
	{ __LINE__, "a )", 2, "unexpected ')'" },
};

static void test_parse_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pmu_error err = { .size = sizeof(err) };
		struct pmu_metric_expr *e = pmu_metric_expr_parse(bad[i].expr,
								  &err);
		if (e || err.kind != PMU_ERR_SYNTAX ||
		    err.offset != bad[i].offset ||
		    !strstr(err.message, bad[i].msg))
			fail_msg("line %d: '%s': offset %d message '%s'",
				 bad[i].line, bad[i].expr, err.offset,
				 err.message);
	}
	assert_null(pmu_metric_expr_parse(NULL, NULL));
}

/* '%' by zero: perf gives the metric no value at all. */
static void test_mod_zero(void **state)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_metric_expr *e = pmu_metric_expr_parse("a % 0", &err);
	double v[] = { 3 }, out;
	struct pmu_metric_ctx c = { .sz = sizeof(c), .values = v };

	(void)state;
	assert_non_null(e);
	assert_int_equal(pmu_metric_expr_eval(e, &c, &out, &err), -EDOM);
	assert_non_null(strstr(err.message, "by zero"));
	pmu_metric_expr_free(e);
}

static void test_units(void **state)
{
	static const struct { const char *in, *unit; double scale; } u[] = {
		{ "100%", "%", 100 }, { "1GHz", "GHz", 1 },
		{ "1per branch", "per branch", 1 }, { "1e9ns", "ns", 1e9 },
		{ "100%slots", "%slots", 100 }, { "MPKI", "MPKI", 1 },
	};
	double sc;

	(void)state;
	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		assert_string_equal(pmu_metric_unit(u[i].in, &sc), u[i].unit);
		assert_true(sc == u[i].scale);
	}
	assert_string_equal(pmu_metric_unit(NULL, &sc), "");
}

/* ---- sets over the built-in amdzen5 model ---- */

static struct pmu_metric_set *set_of(const char *list, bool no_group,
				     struct pmu_error *err)
{
	PMU_OPTS(pmu_metric_set_opts, o, .model = "amdzen5",
		 .no_group = no_group);

	return pmu_metric_set_new(list, &o, err);
}

/* Index of an event in the set's list ("{a,b},c" split at ','). */
static ssize_t position(const char *list, const char *ev)
{
	ssize_t k = 0;

	for (const char *p = list; *p; k++) {
		size_t n;
		p += *p == '{';
		n = strcspn(p, ",}");
		if (strlen(ev) == n && !strncmp(p, ev, n))
			return k;
		p += n;
		p += *p == '}';
		p += *p == ',';
	}
	return -1;
}

static void test_set_retiring(void **state)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_metric_set *s = set_of("Retiring", false, &err);
	struct pmu_metric_value v = { .size = sizeof(v) };
	const char *list;
	double counts[4];
	ssize_t ops, cyc;

	(void)state;
	assert_non_null(s);
	list = pmu_metric_set_events(s);
	/* one metric, its two events grouped */
	assert_int_equal(pmu_metric_set_count(s), 1);
	assert_int_equal(list[0], '{');
	/* a weak group, as perf writes a metric's */
	assert_true(strlen(list) > 3);
	assert_string_equal(list + strlen(list) - 3, "}:W");
	ops = position(list, "ex_ret_ops");
	cyc = position(list, "ls_not_halted_cyc");
	assert_true(ops >= 0 && cyc >= 0 && ops + cyc == 1);
	counts[ops] = 600;
	counts[cyc] = 100;
	/* 100 * 600 / (8 * 100) */
	assert_int_equal(pmu_metric_set_value(s, 0, counts, 2, 1e9, &v, &err),
			 0);
	assert_string_equal(v.name, "retiring");
	assert_string_equal(v.unit, "%slots");
	assert_true(fabs(v.value - 75.0) < 1e-12);
	assert_null(v.missing);
	assert_int_equal(v.leader, 0);
	/* an event that is not supported: no value, and which one */
	counts[cyc] = NAN;
	assert_int_equal(pmu_metric_set_value(s, 0, counts, 2, 1e9, &v, &err),
			 0);
	assert_true(isnan(v.value));
	assert_string_equal(v.missing, "ls_not_halted_cyc");
	/* not counted (0): d_ratio by zero is 0, as in perf */
	counts[cyc] = 0;
	assert_int_equal(pmu_metric_set_value(s, 0, counts, 2, 1e9, &v, &err),
			 0);
	assert_true(v.value == 0);
	pmu_metric_set_free(s);
}

static void test_set_groups(void **state)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_metric_set *s = set_of("PipelineL1", false, &err), *u;
	const char *list;
	int groups = 0;

	(void)state;
	assert_non_null(s);
	/* frontend_bound, bad_speculation, backend_bound, smt_contention,
	 * retiring: retiring's two events are in bad_speculation's group */
	assert_int_equal(pmu_metric_set_count(s), 5);
	list = pmu_metric_set_events(s);
	for (const char *p = list; *p; p++)
		groups += *p == '{';
	assert_int_equal(groups, 4);
	u = set_of("PipelineL1", true, &err);
	assert_non_null(u);
	assert_null(strchr(pmu_metric_set_events(u), '{'));
	/* ungrouped, ls_not_halted_cyc is counted once */
	assert_int_equal(position(pmu_metric_set_events(u),
				  "ls_not_halted_cyc") >= 0, 1);
	assert_null(strstr(strstr(pmu_metric_set_events(u),
				  "ls_not_halted_cyc") + 1,
			   "ls_not_halted_cyc"));
	pmu_metric_set_free(s);
	pmu_metric_set_free(u);
}

static void test_set_errors(void **state)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_metric_set_opts o = { .sz = sizeof(o), .model = "p6" };

	(void)state;
	assert_null(set_of("retirng", false, &err));
	assert_int_equal(err.kind, PMU_ERR_UNKNOWN_EVENT);
	assert_string_equal(err.token, "retirng");
	assert_non_null(strstr(err.message, "did you mean 'retiring'"));
	assert_null(set_of("retiring,,ipc", false, &err));
	assert_int_equal(err.kind, PMU_ERR_SYNTAX);
	assert_null(set_of("", false, &err));
	assert_int_equal(err.kind, PMU_ERR_USAGE);
	assert_null(pmu_metric_set_new("x", &o, &err));
	assert_non_null(strstr(err.message, "has no metrics"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eval),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_mod_zero),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_set_retiring),
		cmocka_unit_test(test_set_groups),
		cmocka_unit_test(test_set_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
