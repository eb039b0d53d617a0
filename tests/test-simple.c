/* SPDX-License-Identifier: MIT */
/*
 * The claim / start / stop / release API.  Expected values follow the
 * XScale PMU documentation (seed 004) and seed-semantics section 5.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <string.h>
#include <cmocka.h>

#include <pmu/pmu.h>

static struct pmu_simple *open_ok(const char *model)
{
	struct pmu_simple *dev = pmu_simple_open(model, NULL);

	assert_non_null(dev);
	return dev;
}

static void test_open(void **state)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_simple *dev;

	(void)state;
	errno = 0;
	assert_null(pmu_simple_open("no-such-cpu", &err));
	assert_int_equal(errno, ENOENT);
	assert_int_equal(err.code, -ENOENT);
	assert_string_equal(err.token, "no-such-cpu");
	assert_non_null(strstr(err.message, "no-such-cpu"));
	dev = open_ok(NULL);
	pmu_simple_close(dev);
	/* any simulated model, and this machine, are devices too */
	dev = open_ok("p6");
	pmu_simple_close(dev);
	dev = open_ok("perf");
	pmu_simple_close(dev);
	pmu_simple_close(NULL);
	assert_int_equal(pmu_simple_claim(NULL), -EINVAL);
}

/* One claimer at a time; ids grow from 1; release checks the id. */
static void test_claim_release(void **state)
{
	enum { CLAIM, RELEASE };
	static const struct { int line, op, arg, want; } rows[] = {
		{ __LINE__, RELEASE, 7, 0 },        /* not claimed: 0 */
		{ __LINE__, CLAIM, 0, 1 },
		{ __LINE__, CLAIM, 0, -EBUSY },
		{ __LINE__, RELEASE, 2, -EPERM },
		{ __LINE__, RELEASE, 0, -EPERM },
		{ __LINE__, RELEASE, 1, 0 },
		{ __LINE__, RELEASE, 1, 0 },        /* already free */
		{ __LINE__, CLAIM, 0, 2 },
		{ __LINE__, RELEASE, 1, -EPERM },   /* the old id */
		{ __LINE__, RELEASE, 2, 0 },
		{ __LINE__, CLAIM, 0, 3 },
	};
	struct pmu_simple *dev = open_ok("xscale1");

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int got = rows[i].op == CLAIM ? pmu_simple_claim(dev)
					      : pmu_simple_release(dev, rows[i].arg);

		if (got != rows[i].want)
			fail_msg("row at line %d: got %d, want %d", rows[i].line,
				 got, rows[i].want);
	}
	pmu_simple_close(dev);
}

/* PMNC = pmn1 << 20 | pmn0 << 12 | E | P | C | 0x70 (P and C read as 0);
 * an EVT_BRANCH selection is written twice. */
static void test_start_pmnc(void **state)
{
	static const struct {
		int line;
		uint32_t pmn0, pmn1, pmnc;
		uint64_t writes;
	} rows[] = {
		{ __LINE__, 0x07, 0x00, 0x00007071, 1 },
		{ __LINE__, 0x0A, 0x0B, 0x00B0A071, 1 },
		{ __LINE__, 0x05, 0x06, 0x00605071, 2 },
		{ __LINE__, 0x06, 0x05, 0x00506071, 2 },
		{ __LINE__, 0x05, 0x05, 0x00505071, 2 },
		{ __LINE__, 0x15, 0x16, 0x01615071, 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmu_simple *dev = open_ok("xscale1");
		struct pmu_simple_stats before = { .size = sizeof(before) };
		struct pmu_simple_stats after = { .size = sizeof(after) };
		uint32_t pmnc = 0;

		assert_int_equal(pmu_simple_claim(dev), 1);
		assert_int_equal(pmu_simple_stats(dev, &before), 0);
		assert_int_equal(pmu_simple_start(dev, rows[i].pmn0, rows[i].pmn1), 0);
		assert_int_equal(pmu_simple_stats(dev, &after), 0);
		assert_int_equal(pmu_simple_reg_read(dev, 0, 0, &pmnc), 0);
		if (pmnc != rows[i].pmnc ||
		    after.pmnc_writes - before.pmnc_writes != rows[i].writes)
			fail_msg("row at line %d: PMNC 0x%x after %llu writes",
				 rows[i].line, pmnc,
				 (unsigned long long)(after.pmnc_writes -
						      before.pmnc_writes));
		pmu_simple_close(dev);
	}
}

static void test_stop(void **state)
{
	struct pmu_simple *dev = open_ok("xscale1");
	struct pmu_simple_results res = { .size = sizeof(res) };
	struct pmu_simple_results unsized = { .size = 0 };
	uint32_t pmnc = 1;

	(void)state;
	assert_int_equal(pmu_simple_claim(dev), 1);
	assert_int_equal(pmu_simple_stop(dev, &res), -ENOSYS);
	assert_int_equal(pmu_simple_start(dev, PMU_XSC_EVT_INSTRUCTION,
				   PMU_XSC_EVT_BRANCH), 0);
	assert_int_equal(pmu_simple_stop(dev, NULL), -EINVAL);
	assert_int_equal(pmu_simple_stop(dev, &unsized), -EINVAL);
	pmu_simple_event(dev, PMU_XSC_EVT_INSTRUCTION, 10);
	pmu_simple_event(dev, PMU_XSC_EVT_BRANCH, 2);
	pmu_simple_cycles(dev, 30);
	assert_int_equal(pmu_simple_stop(dev, &res), 0);
	assert_int_equal(res.size, sizeof(res));
	assert_int_equal(res.pmn0, 10);
	assert_int_equal(res.pmn1, 2);
	assert_int_equal(res.ccnt, 30);
	/* Stopped: PMNC is 0 and nothing counts any more. */
	assert_int_equal(pmu_simple_reg_read(dev, 0, 0, &pmnc), 0);
	assert_int_equal(pmnc, 0);
	pmu_simple_event(dev, PMU_XSC_EVT_INSTRUCTION, 10);
	assert_int_equal(pmu_simple_stop(dev, &res), -ENOSYS);
	/* A new start zeroes the previous counts. */
	assert_int_equal(pmu_simple_start(dev, PMU_XSC_EVT_INSTRUCTION, 0), 0);
	assert_int_equal(pmu_simple_stop(dev, &res), 0);
	assert_int_equal(res.pmn0 | res.pmn1 | res.ccnt | res.pmn0_of, 0);
	pmu_simple_close(dev);
}

/* Counts past 32 bits: the interrupt handler counts each overflow. */
static void test_overflow_counts(void **state)
{
	static const char *const models[] = { "xscale1", "xscale2" };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct pmu_simple *dev = open_ok(models[i]);
		struct pmu_simple_results res = { .size = sizeof(res) };
		struct pmu_simple_stats st = { .size = sizeof(st) };
		uint64_t four_g = 0x100000000ull;

		assert_int_equal(pmu_simple_claim(dev), 1);
		assert_int_equal(pmu_simple_start(dev, PMU_XSC_EVT_DCACHE_ACCESS,
					   PMU_XSC_EVT_DCACHE_MISS), 0);
		pmu_simple_set_pc(dev, 0xC0008000u);
		pmu_simple_event(dev, PMU_XSC_EVT_DCACHE_ACCESS, four_g + 5);
		pmu_simple_event(dev, PMU_XSC_EVT_DCACHE_MISS, 2 * four_g);
		pmu_simple_cycles(dev, 3 * four_g + 7);
		assert_int_equal(pmu_simple_stop(dev, &res), 0);
		assert_int_equal(res.pmn0_of, 1);
		assert_int_equal(res.pmn0, 5);
		assert_int_equal(res.pmn1_of, 2);
		assert_int_equal(res.pmn1, 0);
		assert_int_equal(res.ccnt_of, 3);
		assert_int_equal(res.ccnt, 7);
		assert_int_equal(pmu_simple_count(res.pmn0_of, res.pmn0),
				 four_g + 5);
		assert_int_equal(pmu_simple_stats(dev, &st), 0);
		assert_int_equal(st.irqs, 6);
		assert_int_equal(st.last_irq_pc, 0xC0008000u);
		pmu_simple_close(dev);
	}
}

/* Without a claim no handler runs, so overflows are not counted. */
static void test_unclaimed_no_handler(void **state)
{
	struct pmu_simple *dev = open_ok("xscale1");
	struct pmu_simple_results res = { .size = sizeof(res) };

	(void)state;
	assert_int_equal(pmu_simple_start(dev, PMU_XSC_EVT_INSTRUCTION, 0), 0);
	pmu_simple_event(dev, PMU_XSC_EVT_INSTRUCTION, 0x100000001ull);
	assert_int_equal(pmu_simple_stop(dev, &res), 0);
	assert_int_equal(res.pmn0_of, 0);
	assert_int_equal(res.pmn0, 1);
	pmu_simple_close(dev);
}

/*
 * The documentation's three examples.  Each row: the two events, the
 * workload (counts of each event fed, cycles), and the ratios worked out
 * by hand from the documented formulas.
 */
static void test_doc_examples(void **state)
{
	static const struct {
		int line;
		const char *model;
		uint32_t ev0, ev1;
		uint64_t n0, n1, noise, cycles;
		double r1, r2;  /* per example, see below */
		int kind;       /* 0 I-cache, 1 D-cache, 2 fetch latency */
	} rows[] = {
		/* miss rate = pmn1/pmn0, CPI = ccnt/pmn0 */
		{ __LINE__, "xscale1", PMU_XSC_EVT_INSTRUCTION,
		  PMU_XSC_EVT_ICACHE_MISS, 4000, 200, 77, 6000, 0.05, 1.5, 0 },
		{ __LINE__, "xscale2", PMU_XSC_EVT_INSTRUCTION,
		  PMU_XSC_EVT_ICACHE_MISS, 1000, 1, 5, 2500, 0.001, 2.5, 0 },
		/* miss rate = pmn1/pmn0 */
		{ __LINE__, "xscale1", PMU_XSC_EVT_DCACHE_ACCESS,
		  PMU_XSC_EVT_DCACHE_MISS, 1000, 125, 9, 3000, 0.125, 0, 1 },
		/* stall per miss = pmn0/pmn1, stall fraction = pmn0/ccnt */
		{ __LINE__, "xscale1", PMU_XSC_EVT_ICACHE_NO_DELIVER,
		  PMU_XSC_EVT_ICACHE_MISS, 900, 30, 11, 3600, 30.0, 0.25, 2 },
		{ __LINE__, "xscale2", PMU_XSC_EVT_ICACHE_NO_DELIVER,
		  PMU_XSC_EVT_ICACHE_MISS, 0, 0, 11, 3600, 0.0, 0.0, 2 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmu_simple *dev = open_ok(rows[i].model);
		struct pmu_simple_results res = { .size = sizeof(res) };
		double g1, g2;
		int id = pmu_simple_claim(dev);

		assert_int_equal(pmu_simple_start(dev, rows[i].ev0, rows[i].ev1), 0);
		/* Interleave the events; an unrelated one must not count. */
		for (unsigned k = 0; k < 10; k++) {
			pmu_simple_event(dev, rows[i].ev0, rows[i].n0 / 10);
			pmu_simple_event(dev, rows[i].ev1, rows[i].n1 / 10);
			pmu_simple_event(dev, PMU_XSC_EVT_RMW, rows[i].noise);
			pmu_simple_cycles(dev, rows[i].cycles / 10);
		}
		pmu_simple_event(dev, rows[i].ev0, rows[i].n0 % 10);
		pmu_simple_event(dev, rows[i].ev1, rows[i].n1 % 10);
		pmu_simple_cycles(dev, rows[i].cycles % 10);
		assert_int_equal(pmu_simple_stop(dev, &res), 0);
		assert_int_equal(pmu_simple_release(dev, id), 0);
		switch (rows[i].kind) {
		case 0:
			g1 = pmu_simple_icache_miss_rate(&res);
			g2 = pmu_simple_cpi(&res);
			break;
		case 1:
			g1 = pmu_simple_dcache_miss_rate(&res);
			g2 = 0;
			break;
		default:
			g1 = pmu_simple_fetch_stall_per_miss(&res);
			g2 = pmu_simple_fetch_stall_fraction(&res);
			break;
		}
		if (g1 != rows[i].r1 || g2 != rows[i].r2)
			fail_msg("row at line %d: ratios %.17g %.17g", rows[i].line,
				 g1, g2);
		pmu_simple_close(dev);
	}
}

/* On another simulated model the XScale events that have a generic
 * meaning count the model's own events: K8's RETIRED_INSTRUCTIONS (0xc0)
 * and RETIRED_BRANCH_INSTRUCTIONS (0xc2), cycles its CPU_CLK_UNHALTED
 * (0x76, fed by cycles).  The P6 has two counters for three events. */
static void test_other_sim_model(void **state)
{
	struct pmu_simple_results res = { .size = sizeof(res) };
	struct pmu_simple *dev = open_ok("k8");
	uint32_t reg;

	(void)state;
	assert_int_equal(pmu_simple_claim(dev), 1);
	assert_int_equal(pmu_simple_start(dev, PMU_XSC_EVT_INSTRUCTION,
					  PMU_XSC_EVT_BRANCH), 0);
	assert_int_equal(pmu_simple_event(dev, 0xc0, 7000), 0);
	assert_int_equal(pmu_simple_event(dev, 0xc2, 900), 0);
	assert_int_equal(pmu_simple_event(dev, 0xc3, 55), 0); /* not asked */
	assert_int_equal(pmu_simple_cycles(dev, 12345), 0);
	assert_int_equal(pmu_simple_stop(dev, &res), 0);
	assert_int_equal(res.pmn0, 7000);
	assert_int_equal(res.pmn1, 900);
	assert_int_equal(res.ccnt, 12345);
	assert_int_equal(res.pmn0_of | res.pmn1_of | res.ccnt_of, 0);
	/* events with no meaning off an XScale, and no CP14 registers */
	assert_int_equal(pmu_simple_start(dev, PMU_XSC_EVT_DATA_STALL,
					  PMU_XSC_EVT_BRANCH), -EOPNOTSUPP);
	assert_int_equal(pmu_simple_reg_read(dev, 0, 0, &reg), -EOPNOTSUPP);
	pmu_simple_close(dev);

	dev = open_ok("p6");
	assert_int_equal(pmu_simple_start(dev, PMU_XSC_EVT_INSTRUCTION,
					  PMU_XSC_EVT_BRANCH), -ENOSPC);
	pmu_simple_close(dev);
}

/* This machine: the program runs by itself, nothing is fed. */
static void test_perf_device(void **state)
{
	struct pmu_host_info h = { .size = sizeof(h) };
	struct pmu_simple_stats st = { .size = sizeof(st) };
	struct pmu_simple_results res = { .size = sizeof(res) };
	struct pmu_simple *dev = open_ok("perf");
	int rc;

	(void)state;
	assert_int_equal(pmu_host_info(&h), 0);
	assert_int_equal(pmu_simple_claim(dev), 1);
	assert_int_equal(pmu_simple_event(dev, PMU_XSC_EVT_INSTRUCTION, 1),
			 -EOPNOTSUPP);
	assert_int_equal(pmu_simple_stats(dev, &st), -EOPNOTSUPP);
	assert_int_equal(pmu_simple_start(dev, PMU_XSC_EVT_PC_CHANGED,
					  PMU_XSC_EVT_BRANCH), -EOPNOTSUPP);
	rc = pmu_simple_start(dev, PMU_XSC_EVT_INSTRUCTION,
			      PMU_XSC_EVT_BRANCH);
	if (!h.has_hw_pmu) {
		/* no silent zeros: the run is refused */
		assert_int_equal(rc, -EOPNOTSUPP);
		assert_int_equal(pmu_simple_stop(dev, &res), -ENOSYS);
	} else {
		assert_int_equal(rc, 0);
		assert_int_equal(pmu_simple_stop(dev, &res), 0);
		assert_true(res.pmn0 > 0 || res.pmn0_of > 0);
	}
	pmu_simple_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open),
		cmocka_unit_test(test_claim_release),
		cmocka_unit_test(test_start_pmnc),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_overflow_counts),
		cmocka_unit_test(test_unclaimed_no_handler),
		cmocka_unit_test(test_doc_examples),
		cmocka_unit_test(test_other_sim_model),
		cmocka_unit_test(test_perf_device),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
