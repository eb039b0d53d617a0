/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <pmu/event.h>

#include "events/catalog_seed.h"

/* Encodings worked out by hand from the register layouts: P6 EVNTSEL
 * (USR 16, OS 17, E 18, EN 22, INV 23, CMASK 31:24; L2_RQSTS MESI umask
 * I 1, S 2, E 4, M 8), P5 CESR half (CPL bits 6-7, clocks bit 8), PPC
 * PMCnSEL, XScale event byte.  Failures: libpfm4's class, and a word the
 * message must contain (the limit, the missing part). */
static const struct {
	int line;
	const char *ev;
	int rc;
	uint64_t code;
	enum pmu_error_kind cls;
	const char *msg;
} rows[] = {
	{ __LINE__, "p6::INST_RETIRED:u", 0, 0x4100c0, 0, NULL },
	{ __LINE__, "p6::L2_RQSTS", 0, 0x430f2e, 0, NULL },
	/* A value makes e and i the modifiers; bare, they are umasks. */
	{ __LINE__, "p6::L2_RQSTS:M:e=1", 0, 0x47082e, 0, NULL },
	{ __LINE__, "p6::L2_RQSTS:M:e", 0, 0x430c2e, 0, NULL },
	{ __LINE__, "p6::L2_RQSTS:I:i=1:c=1", 0, 0x1c3012e, 0, NULL },
	{ __LINE__, "p6::L2_RQSTS:i:e=0", 0, 0x43012e, 0, NULL },
	{ __LINE__, "pii::BUS_TRAN_ANY:ANY", 0, 0x432070, 0, NULL },
	{ __LINE__, "piii::MMX_INSTR_TYPE_EXEC:MUL:u", 0, 0x4101b3, 0, NULL },
	{ __LINE__, "pentm::INST_RETIRED:e:i", 0, 0xc700c0, 0, NULL },
	{ __LINE__, "p5::DATA_READ:k", 0, 0x40, 0, NULL },
	{ __LINE__, "mii::DATA_READ", 0, 0xc0, 0, NULL },
	{ __LINE__, "p5mmx::PIPELINE_AGI_STALLS", 0, 0x1df, 0, NULL },
	{ __LINE__, "wcc6::X86_INSTRUCTIONS", 0, 0x2, 0, NULL },
	{ __LINE__, "vc3::INTERNAL_CLOCKS", 0, 0x79, 0, NULL },
	{ __LINE__, "xscale2::DCACHE_MISS", 0, 0xb, 0, NULL },
	{ __LINE__, "xscale1::BCU_DRAIN", 0, 0x12, 0, NULL },
	{ __LINE__, "ppc7450::RAW:0x45", 0, 0x45, 0, NULL },
	{ __LINE__, "ppc750::INSTR_DISPATCHED", 0, 0x4, 0, NULL },
	{ __LINE__, "ppc604::RAW:0x7f", 0, 0x7f, 0, NULL },
	/* PMC1's selector is 7 bits: 0x7f is the largest event number. */
	{ __LINE__, "ppc604::RAW:0x80", -EINVAL, 0, PMU_ERR_BAD_VALUE, "0x7f" },
	/* No event number: a missing umask, as libpfm4 classes it. */
	{ __LINE__, "ppc604::RAW", -EINVAL, 0, PMU_ERR_BAD_UMASK, "0xNN" },
	{ __LINE__, "p6::L2_RQSTS:M:e=2", -EINVAL, 0, PMU_ERR_BAD_VALUE, NULL },
	{ __LINE__, "p6::NO_SUCH", -ENOENT, 0, PMU_ERR_UNKNOWN_EVENT, NULL },
	{ __LINE__, "xscale2::BCU_DRAIN", -ENOENT, 0, PMU_ERR_UNKNOWN_EVENT, NULL },
};

static void test_encode(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmu_encoding e = { .size = sizeof(e) };
		struct pmu_error err = { .size = sizeof(err) };
		int rc = pmu_event_encode(rows[i].ev, NULL, &e, &err);
		if ((rc < 0) != (rows[i].rc < 0) ||
		    (rc == 0 && (e.ncodes != 1 || e.codes[0] != rows[i].code)))
			fail_msg("line %d: %s rc %d code 0x%llx", rows[i].line,
				 rows[i].ev, rc, (unsigned long long)e.codes[0]);
		if (rc && (e.error != rows[i].cls || (rows[i].msg &&
			   !strstr(err.message, rows[i].msg))))
			fail_msg("line %d: %s class %s (%s)", rows[i].line,
				 rows[i].ev, pmu_error_kind_name(e.error),
				 err.message);
	}
}

/* Every event of every seed model is found by name, names are unique,
 * counter masks stay inside the model's counters. */
static void test_tables(void **state)
{
	size_t n;
	const struct pmu__catmodel *const *m = pmu__seed_models(&n);

	(void)state;
	assert_int_equal(n, 16);
	for (size_t i = 0; i < n; i++) {
		const struct pmu__seed_info *si = pmu__seed_info(m[i]);
		assert_non_null(si);
		assert_true(m[i]->nevents > 0);
		assert_non_null(m[i]->hash);
		for (uint32_t e = 0; e < m[i]->nevents; e++) {
			const struct pmu__event *ev = &m[i]->events[e];
			const char *name = pmu__ev_name(m[i], ev);
			if (pmu__catmodel_event(m[i], name, strlen(name)) != ev)
				fail_msg("%s::%s not found", m[i]->name, name);
			if (ev->cntmsk & ~((1ull << si->nctrs) - 1) || !ev->cntmsk)
				fail_msg("%s::%s counters", m[i]->name, name);
		}
		assert_ptr_equal(pmu__seed_model_find(m[i]->name), m[i]);
	}
	assert_null(pmu__seed_info(NULL));
}

/* P6 keeps EN only on PMC0; PPC selector widths per counter. */
/* Full strings spell out what was encoded: hand-written expectations for
 * a few, and for every event of every seed model (alone, with u, and with
 * each unit mask) encoding the full string gives the same register. */
static const struct {
	int line;
	const char *str, *fstr;
} fstr_rows[] = {
	/* The modifiers e and i carry values, which tells them from the
	 * MESI umasks E and I. */
	{ __LINE__, "p6::L2_RQSTS:M:u:c=2",
	  "p6::L2_RQSTS:M:k=0:u=1:e=0:i=0:c=2" },
	{ __LINE__, "p6::L2_RQSTS", "p6::L2_RQSTS:I:S:E:M:k=1:u=1:e=0:i=0:c=0" },
	{ __LINE__, "p6::L2_RQSTS:E:e=1", "p6::L2_RQSTS:E:k=1:u=1:e=1:i=0:c=0" },
	{ __LINE__, "p6::INST_RETIRED:e", "p6::INST_RETIRED:k=1:u=1:e=1:i=0:c=0" },
	{ __LINE__, "ppc604::RAW:0x1", "ppc604::RAW:0x1" },
	{ __LINE__, "p5::DATA_READ:k", "p5::DATA_READ:k=1:u=0" },
	{ __LINE__, "xscale2::DCACHE_MISS", "xscale2::DCACHE_MISS" },
};

static void encode_ok(const char *str, struct pmu_encoding *e)
{
	struct pmu_error err = { .size = sizeof(err) };

	memset(e, 0, sizeof(*e));
	e->size = sizeof(*e);
	if (pmu_event_encode(str, NULL, e, &err))
		fail_msg("%s: %s", str, err.message);
}

static void roundtrip(const char *str)
{
	struct pmu_encoding a, b;

	encode_ok(str, &a);
	encode_ok(a.fstr, &b);
	if (a.codes[0] != b.codes[0] || strcmp(a.fstr, b.fstr))
		fail_msg("%s: fstr %s gives 0x%llx, not 0x%llx", str, a.fstr,
			 (unsigned long long)b.codes[0],
			 (unsigned long long)a.codes[0]);
}

static void test_fstr(void **state)
{
	static const char *const models[] = { "p5", "p5mmx", "mii", "wcc6",
		"vc3", "p6", "pii", "piii", "pentm", "ppc604", "ppc750",
		"ppc7450", "xscale1", "xscale2" };
	char str[256];

	(void)state;
	for (size_t i = 0; i < sizeof(fstr_rows) / sizeof(fstr_rows[0]); i++) {
		struct pmu_encoding e;
		encode_ok(fstr_rows[i].str, &e);
		if (strcmp(e.fstr, fstr_rows[i].fstr))
			fail_msg("line %d: fstr %s, want %s", fstr_rows[i].line,
				 e.fstr, fstr_rows[i].fstr);
	}
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
		int m = pmu_catalog_find(models[i]);
		struct pmu_catalog_info mi = { .size = sizeof(mi) };
		assert_true(m >= 0 && pmu_catalog_info(m, &mi) == 0);
		for (size_t ev = 0; ev < mi.nevents; ev++) {
			struct pmu_event_info ei = { .size = sizeof(ei) };
			assert_int_equal(pmu_catalog_event_info(m, ev, &ei), 0);
			if (!strcmp(ei.name, "RAW"))
				continue;
			snprintf(str, sizeof(str), "%s::%s", mi.name, ei.name);
			roundtrip(str);
			for (size_t a = 0; a < ei.numasks; a++) {
				struct pmu_attr_info ai = { .size = sizeof(ai) };
				assert_int_equal(pmu_catalog_attr_info(m, ev, a,
								     &ai), 0);
				snprintf(str, sizeof(str), "%s::%s:%s:u",
					 mi.name, ei.name, ai.name);
				roundtrip(str);
			}
		}
	}
}

static void test_counter_rules(void **state)
{
	const struct pmu__seed_info *p6 =
		pmu__seed_info(pmu__seed_model_find("p6"));
	const struct pmu__seed_info *ppc =
		pmu__seed_info(pmu__seed_model_find("ppc7450"));

	(void)state;
	assert_int_equal(pmu__seed_ctl_value(p6, 0x5300c0, 0), 0x4300c0);
	assert_int_equal(pmu__seed_ctl_value(p6, 0x4300c0, 1), 0x0300c0);
	assert_true(pmu__seed_counter_ok(ppc, 127, 0));
	assert_false(pmu__seed_counter_ok(ppc, 64, 1));
	assert_true(pmu__seed_counter_ok(ppc, 63, 5));
	assert_false(pmu__seed_counter_ok(ppc, 32, 2));
	assert_true(pmu__seed_counter_ok(ppc, 31, 4));
	assert_false(pmu__seed_counter_ok(ppc, 1, 6));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encode),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_counter_rules),
		cmocka_unit_test(test_fstr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
