/* SPDX-License-Identifier: MIT */
/*
 * A program built against an older libpmu (tests/abi/pmu-0.h, whose
 * structs end before fields added since), run against this one: every
 * struct the library fills is followed by a fence that must stay
 * untouched, the fields the old struct has must be right, and options
 * the old structs lack take their defaults.  Built with only
 * tests/abi on the include path, linked to the shared library.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmu-0.h"

#define FENCE 0xA5

/* A struct of the old size followed by a fence, all set to FENCE. */
#define FENCED(type, name) \
	struct { type v; unsigned char fence[128]; } name; \
	memset(&name, FENCE, sizeof(name)); \
	name.v.size = sizeof(name.v)

static void fence_intact(const unsigned char *f, size_t n, const char *what)
{
	for (size_t i = 0; i < n; i++)
		if (f[i] != FENCE)
			fail_msg("%s: byte %zu past the old struct written", what,
				 i);
}

#define CHECK_FENCE(name, what) \
	fence_intact((name).fence, sizeof((name).fence), what)

static void test_error_and_read(void **state)
{
	FENCED(struct pmu_error, e);
	struct { struct pmu_value v[3]; unsigned char fence[128]; } vals;
	struct pmu_session *s = pmu_session_new(NULL);

	(void)state;
	assert_non_null(s);
	/* a parse error: the detail up to the old size, message cut and
	 * terminated */
	assert_int_equal(pmu_session_add(s, "page-faults,no-such-event-xyz",
					 &e.v), -EINVAL);
	CHECK_FENCE(e, "pmu_error");
	assert_int_equal(e.v.code, -EINVAL);
	assert_int_equal(e.v.kind, PMU_ERR_UNKNOWN_EVENT);
	assert_int_equal(e.v.offset, 12);
	assert_string_equal(e.v.token, "no-such-event-xyz");
	assert_non_null(memchr(e.v.message, '\0', sizeof(e.v.message)));
	assert_non_null(strstr(e.v.message, "unknown event"));
	assert_int_equal(pmu_session_add(s, "page-faults,task-clock", &e.v), 0);
	assert_int_equal(pmu_session_open(s, NULL, &e.v), 0);
	assert_int_equal(pmu_session_start(s), 0);
	assert_int_equal(pmu_session_stop(s), 0);
	/* values 40 bytes apart, nothing after the third */
	memset(&vals, FENCE, sizeof(vals));
	vals.v[0].size = sizeof(vals.v[0]);
	assert_int_equal(pmu_session_read(s, vals.v, 3), 2);
	CHECK_FENCE(vals, "pmu_value[2]");
	for (int i = 0; i < 2; i++)
		assert_int_equal(vals.v[i].size, sizeof(vals.v[0]));
	assert_true(vals.v[1].raw > 0 && vals.v[1].enabled > 0);
	assert_int_equal(vals.v[1].scaled, vals.v[1].raw);
	/* the third element was not filled: only two events */
	assert_int_equal(vals.v[2].raw, 0xA5A5A5A5A5A5A5A5ull);
	pmu_session_free(s);
}

/* An old pmu_open_opts (no pids/npids): its target is taken, the rest
 * default. */
static void test_old_open_opts(void **state)
{
	struct pmu_open_opts o = { .sz = sizeof(o), .target = 0 };
	struct pmu_session *s = pmu_session_new(NULL);

	(void)state;
	assert_int_equal(pmu_session_add(s, "task-clock", NULL), 0);
	assert_int_equal(pmu_session_open(s, &o, NULL), 0);
	pmu_session_free(s);
}

static void test_encode_and_catalog(void **state)
{
	FENCED(struct pmu_encoding, enc);
	FENCED(struct pmu_catalog_info, ci);
	FENCED(struct pmu_event_info, ei);
	struct pmu_encode_opts o = { .sz = sizeof(o), .model = "zen4" };
	ssize_t m;

	(void)state;
	assert_int_equal(pmu_event_encode("RETIRED_OPS:u", &o, &enc.v, NULL),
			 0);
	CHECK_FENCE(enc, "pmu_encoding");
	assert_string_equal(enc.v.pmu, "amd64_fam19h_zen4");
	assert_int_equal(enc.v.ncodes, 1);
	assert_int_equal(enc.v.codes[0] & 0xff, 0xc1);
	assert_int_equal(enc.v.error, PMU_ERR_NONE);
	assert_int_equal(pmu_event_encode("NO_SUCH", &o, &enc.v, NULL),
			 -ENOENT);
	CHECK_FENCE(enc, "pmu_encoding (error)");
	assert_int_equal(enc.v.error, PMU_ERR_UNKNOWN_EVENT);
	m = pmu_catalog_find("zen4");
	assert_true(m >= 0);
	assert_int_equal(pmu_catalog_info((size_t)m, &ci.v), 0);
	CHECK_FENCE(ci, "pmu_catalog_info");
	assert_string_equal(ci.v.name, "amd64_fam19h_zen4");
	assert_true(ci.v.nevents > 0);
	assert_int_equal(pmu_catalog_event_info((size_t)m, 0, &ei.v), 0);
	CHECK_FENCE(ei, "pmu_event_info");
	assert_non_null(ei.v.name);
}

static void test_models_and_host(void **state)
{
	static const char ctl[] = "{ \"tsc_on\": 1, \"nractrs\": 1, "
		"\"pmc_map\": [0], \"evntsel\": [\"0x4300c0\"] }";
	FENCED(struct pmu_hwmodel_info, hi);
	FENCED(struct pmu_check_result, cr);
	FENCED(struct pmu_host_info, host);
	const struct pmu_hwmodel *p6 = pmu_hwmodel_find("p6");
	struct pmu_control *c = pmu_control_parse(ctl, sizeof(ctl) - 1, NULL);

	(void)state;
	assert_non_null(p6);
	assert_non_null(c);
	assert_int_equal(pmu_hwmodel_info(p6, &hi.v), 0);
	CHECK_FENCE(hi, "pmu_hwmodel_info");
	assert_string_equal(hi.v.name, "p6");
	assert_int_equal(hi.v.nr_ctrs, 2);
	assert_int_equal(pmu_control_check(p6, c, &cr.v), 0);
	CHECK_FENCE(cr, "pmu_check_result");
	assert_true(cr.v.ok);
	assert_string_equal(cr.v.rule, "ok");
	assert_int_equal(pmu_host_info(&host.v), 0);
	CHECK_FENCE(host, "pmu_host_info");
	pmu_control_free(c);
}

static void test_simple_results(void **state)
{
	FENCED(struct pmu_simple_results, r);
	struct pmu_simple *dev = pmu_simple_open("xscale1", NULL);

	(void)state;
	assert_non_null(dev);
	assert_int_equal(pmu_simple_claim(dev), 1);
	assert_int_equal(pmu_simple_start(dev, 0x07, 0x0b), 0);
	assert_int_equal(pmu_simple_event(dev, 0x07, 0x100000009ull), 0);
	assert_int_equal(pmu_simple_stop(dev, &r.v), 0);
	CHECK_FENCE(r, "pmu_simple_results");
	assert_int_equal(r.v.pmn0_of, 1);
	assert_int_equal(r.v.pmn0, 9);
	pmu_simple_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_and_read),
		cmocka_unit_test(test_old_open_opts),
		cmocka_unit_test(test_encode_and_catalog),
		cmocka_unit_test(test_models_and_host),
		cmocka_unit_test(test_simple_results),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
