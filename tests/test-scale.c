/* SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pmu/session.h>

#define P63 ((uint64_t)1 << 63)
#define P62 ((uint64_t)1 << 62)

struct row {
	int line;
	uint64_t raw, enabled, running, want;
};

/* Expected values worked out by hand from raw * enabled / running. */
static const struct row rows[] = {
	{ __LINE__, 0, 0, 0, 0 },
	{ __LINE__, 100, 100, 0, 0 },             /* never ran */
	{ __LINE__, 100, 100, 100, 100 },         /* not multiplexed */
	{ __LINE__, 100, 50, 100, 100 },          /* running > enabled */
	{ __LINE__, 5, 3000, 1000, 15 },          /* ran 1/3 of the time */
	{ __LINE__, 7, 300, 100, 21 },
	{ __LINE__, 10, 4, 3, 13 },               /* 40/3 rounds down */
	{ __LINE__, 1, 5, 3, 1 },                 /* 5/3 rounds down */
	{ __LINE__, 2, 3, 2, 3 },
	{ __LINE__, UINT64_MAX, 2, 1, UINT64_MAX },  /* saturates */
	{ __LINE__, P63, 2, 1, UINT64_MAX },          /* exactly 2^64 */
	{ __LINE__, P63 - 1, 2, 1, UINT64_MAX - 1 },  /* 2^64 - 2 */
	{ __LINE__, 1000, P63, P62, 2000 },
	{ __LINE__, 3, P63 - 1, P62, 5 },         /* 6 - 3/2^62 */
	{ __LINE__, UINT64_MAX, UINT64_MAX, UINT64_MAX - 1, UINT64_MAX },
	{ __LINE__, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX },
	{ __LINE__, (uint64_t)1 << 40, (uint64_t)1 << 40, (uint64_t)1 << 39,
	  (uint64_t)1 << 41 },                   /* product needs 80 bits */
	{ __LINE__, P62 + 1, 3, 2, 0x6000000000000001ULL }, /* 3*2^61 + 1 */
	{ __LINE__, 0, P63, 1, 0 },
	{ __LINE__, 1, UINT64_MAX, 1, UINT64_MAX },
};

static void test_scale_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		uint64_t got = pmu_scale(r->raw, r->enabled, r->running);

		if (got != r->want)
			fail_msg("row at line %d: got %llu, want %llu", r->line,
				 (unsigned long long)got,
				 (unsigned long long)r->want);
	}
}

/* Scaling never makes a count smaller than what was counted. */
static void test_scale_monotonic(void **state)
{
	uint64_t raw;

	(void)state;
	for (raw = 1; raw < UINT64_MAX / 3; raw = raw * 3 + 1) {
		assert_true(pmu_scale(raw, 10, 9) >= raw);
		assert_true(pmu_scale(raw, 10, 10) == raw);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scale_table),
		cmocka_unit_test(test_scale_monotonic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
