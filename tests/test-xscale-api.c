/* SPDX-License-Identifier: MIT */
/*
 * The XScale API's own calls (<pmu/xscale.h>): signatures, names and
 * struct layout as the documentation (seed 004) gives them, and the
 * claim / start / stop / release rules of seed-semantics section 5.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pmu/xscale.h>

/* The documentation's calls, with its exact types. */
static int (*const claim_fn)(void) = pmu_claim;
static int (*const start_fn)(u32, u32) = pmu_start;
static int (*const stop_fn)(struct pmu_results *) = pmu_stop;
static int (*const release_fn)(int) = pmu_release;

static void test_layout(void **state)
{
	static const struct { int line; size_t got, want; } rows[] = {
		{ __LINE__, offsetof(struct pmu_results, ccnt), 0 },
		{ __LINE__, offsetof(struct pmu_results, ccnt_of), 4 },
		{ __LINE__, offsetof(struct pmu_results, pmn0), 8 },
		{ __LINE__, offsetof(struct pmu_results, pmn0_of), 12 },
		{ __LINE__, offsetof(struct pmu_results, pmn1), 16 },
		{ __LINE__, offsetof(struct pmu_results, pmn1_of), 20 },
		{ __LINE__, sizeof(struct pmu_results), 24 },
		{ __LINE__, sizeof(u32), 4 },
		{ __LINE__, EVT_ICACHE_MISS, 0x00 },
		{ __LINE__, EVT_ICACHE_DATA_STALL, 0x02 },
		{ __LINE__, EVT_DATA_STALL, 0x02 },
		{ __LINE__, EVT_INSTRUCTION, 0x07 },
		{ __LINE__, EVT_DCACHE_WRITE_BACK, 0x0C },
		{ __LINE__, EVT_DCACE_WRITE_BACK, 0x0C },
		{ __LINE__, EVT_PC_CHANGED, 0x0D },
		{ __LINE__, EVT_BCU_REQUEST, 0x10 },
		{ __LINE__, EVT_BCU_ECC_NO_ELOG, 0x14 },
		{ __LINE__, EVT_RMW, 0x16 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].got != rows[i].want)
			fail_msg("row at line %d: %zu, want %zu", rows[i].line,
				 rows[i].got, rows[i].want);
}

/* One global PMU: ids grow, a second claim is busy, release checks the
 * id, stop without start is ENOSYS; counts past 32 bits come back as
 * overflow counts. */
static void test_protocol(void **state)
{
	struct pmu_simple *cpu = pmu_xscale_device();
	struct pmu_results r = { 0 };
	int id;

	(void)state;
	assert_non_null(cpu);
	assert_int_equal(release_fn(5), 0);           /* not claimed */
	id = claim_fn();
	assert_true(id >= 1);
	assert_int_equal(claim_fn(), -EBUSY);
	assert_int_equal(release_fn(id + 1), -EPERM);
	assert_int_equal(stop_fn(&r), -ENOSYS);
	assert_int_equal(start_fn(EVT_BRANCH, EVT_BCU_REQUEST), 0);
	pmu_simple_event(cpu, EVT_BRANCH, 0x100000003ull);
	pmu_simple_event(cpu, EVT_BCU_REQUEST, 9);
	pmu_simple_cycles(cpu, 77);
	assert_int_equal(stop_fn(&r), 0);
	assert_int_equal(r.pmn0_of, 1);
	assert_int_equal(r.pmn0, 3);
	assert_int_equal(r.pmn1, 9);
	assert_int_equal(r.pmn1_of, 0);
	assert_int_equal(r.ccnt, 77);
	assert_int_equal(stop_fn(&r), -ENOSYS);
	assert_int_equal(stop_fn(NULL), -EINVAL);
	assert_int_equal(release_fn(id), 0);
	assert_int_equal(claim_fn(), id + 1);
	assert_int_equal(release_fn(id + 1), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_protocol),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
