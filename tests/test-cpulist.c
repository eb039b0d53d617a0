/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <pmu/host.h>

#include "util/cpulist.h"

struct ok_row {
	int line;
	const char *in;
	int want[12];
	size_t n;
};

static const struct ok_row ok_rows[] = {
	{ __LINE__, "0", { 0 }, 1 },
	{ __LINE__, "0-3", { 0, 1, 2, 3 }, 4 },
	{ __LINE__, "0-3,5,7-8", { 0, 1, 2, 3, 5, 7, 8 }, 7 },
	{ __LINE__, "5,1,3", { 1, 3, 5 }, 3 },
	{ __LINE__, "1,1,0-1", { 0, 1 }, 2 },
	{ __LINE__, "4-4", { 4 }, 1 },
	{ __LINE__, "65535", { 65535 }, 1 },
};

static void test_parse_ok(void **state)
{
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(ok_rows) / sizeof(ok_rows[0]); i++) {
		const struct ok_row *r = &ok_rows[i];
		struct pmu__cpulist l;
		int ret = pmu__cpulist_parse(r->in, &l, NULL);

		if (ret || l.n != r->n)
			fail_msg("row at line %d: ret %d n %zu", r->line, ret,
				 l.n);
		for (j = 0; j < r->n; j++)
			if (l.cpu[j] != r->want[j])
				fail_msg("row at line %d: cpu[%zu] = %d",
					 r->line, j, l.cpu[j]);
		pmu__cpulist_free(&l);
	}
}

struct bad_row {
	int line;
	const char *in;
	const char *token;
	int offset;
	const char *why; /* substring of the message */
};

static const struct bad_row bad_rows[] = {
	{ __LINE__, "", "", 0, "empty" },
	{ __LINE__, "a", "a", 0, "expected" },
	{ __LINE__, "0-", "0-", 0, "expected" },
	{ __LINE__, "0-3,,5", "", 4, "empty" },
	{ __LINE__, "3-1", "3-1", 0, "backwards" },
	{ __LINE__, "0,x-2", "x-2", 2, "expected" },
	{ __LINE__, "1,70000", "70000", 2, "65535" },
	{ __LINE__, "1 ", "1 ", 0, "expected" },
	{ __LINE__, ",1", "", 0, "empty" },
	{ __LINE__, "1,", "", 2, "empty" },
	{ __LINE__, "-1", "-1", 0, "expected" },
	{ __LINE__, "2-3-4", "2-3-4", 0, "expected" },
};

static void test_parse_errors(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad_rows) / sizeof(bad_rows[0]); i++) {
		const struct bad_row *r = &bad_rows[i];
		struct pmu_error err = { .size = sizeof(err) };
		struct pmu__cpulist l;
		int ret = pmu__cpulist_parse(r->in, &l, &err);

		if (ret != -EINVAL || err.kind != PMU_ERR_USAGE ||
		    strcmp(err.token, r->token) || err.offset != r->offset ||
		    !strstr(err.message, r->why))
			fail_msg("row at line %d: ret %d kind %d token '%s' "
				 "offset %d message '%s'", r->line, ret,
				 err.kind, err.token, err.offset, err.message);
		assert_null(l.cpu);
	}
}

static void test_check_online(void **state)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu__cpulist want, online;

	(void)state;
	assert_int_equal(pmu__cpulist_parse("0-1,4-5", &online, NULL), 0);
	assert_int_equal(pmu__cpulist_parse("1,4", &want, NULL), 0);
	assert_int_equal(pmu__cpulist_check(&want, &online, &err), 0);
	pmu__cpulist_free(&want);
	assert_int_equal(pmu__cpulist_parse("0,3,5", &want, NULL), 0);
	assert_int_equal(pmu__cpulist_check(&want, &online, &err), -EINVAL);
	assert_int_equal(err.kind, PMU_ERR_NO_TARGET);
	assert_string_equal(err.token, "3");
	assert_non_null(strstr(err.message, "CPU 3 is not online"));
	assert_true(pmu__cpulist_has(&online, 5));
	assert_false(pmu__cpulist_has(&online, 2));
	pmu__cpulist_free(&want);
	pmu__cpulist_free(&online);
}

static void test_read_file(void **state)
{
	char path[] = "/tmp/test-cpulist-XXXXXX";
	struct pmu__cpulist l;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "0-2,7\n", 6), 6);
	close(fd);
	assert_int_equal(pmu__cpulist_read(path, &l), 0);
	assert_int_equal(l.n, 4);
	assert_int_equal(l.cpu[3], 7);
	pmu__cpulist_free(&l);
	unlink(path);
	assert_int_equal(pmu__cpulist_read(path, &l), -ENOENT);
}

/* The real file agrees with what libc counts. */
static void test_online(void **state)
{
	struct pmu__cpulist l;

	(void)state;
	assert_int_equal(pmu__cpulist_online(&l), 0);
	assert_int_equal((long)l.n, sysconf(_SC_NPROCESSORS_ONLN));
	pmu__cpulist_free(&l);
	pmu__cpulist_free(NULL);
}

/* The public parser: CPUs in order, a count that may exceed the array,
 * and errors whose kind says which fix applies and whose offset points
 * at the character that does not fit. */
struct pub_row {
	int line;
	const char *in;
	size_t max;
	int ret;               /* count or negative errno */
	int want[8];           /* first min(ret, max) CPUs */
	enum pmu_error_kind kind;
	const char *token;
	int offset;
};

static const struct pub_row pub_rows[] = {
	{ __LINE__, "0-3,5", 8, 5, { 0, 1, 2, 3, 5 }, 0, NULL, 0 },
	{ __LINE__, "5,1,3", 8, 3, { 1, 3, 5 }, 0, NULL, 0 },
	{ __LINE__, "1,1,0-1", 8, 2, { 0, 1 }, 0, NULL, 0 },
	{ __LINE__, "65535", 8, 1, { 65535 }, 0, NULL, 0 },
	{ __LINE__, "0-7", 3, 8, { 0, 1, 2 }, 0, NULL, 0 },
	{ __LINE__, "0-99", 0, 100, { 0 }, 0, NULL, 0 },
	{ __LINE__, "", 8, -EINVAL, { 0 }, PMU_ERR_SYNTAX, "", 0 },
	{ __LINE__, "a", 8, -EINVAL, { 0 }, PMU_ERR_SYNTAX, "a", 0 },
	{ __LINE__, "0x3", 8, -EINVAL, { 0 }, PMU_ERR_SYNTAX, "0x3", 1 },
	{ __LINE__, "1,,2", 8, -EINVAL, { 0 }, PMU_ERR_SYNTAX, "", 2 },
	{ __LINE__, "1,", 8, -EINVAL, { 0 }, PMU_ERR_SYNTAX, "", 2 },
	{ __LINE__, " 1", 8, -EINVAL, { 0 }, PMU_ERR_SYNTAX, " 1", 0 },
	{ __LINE__, "2-3-4", 8, -EINVAL, { 0 }, PMU_ERR_SYNTAX, "2-3-4", 3 },
	{ __LINE__, "0,2-", 8, -EINVAL, { 0 }, PMU_ERR_BAD_VALUE, "2-", 4 },
	{ __LINE__, "2-x", 8, -EINVAL, { 0 }, PMU_ERR_BAD_VALUE, "2-x", 2 },
	{ __LINE__, "0,3-1", 8, -EINVAL, { 0 }, PMU_ERR_BAD_VALUE, "3-1", 2 },
	{ __LINE__, "1,70000", 8, -ERANGE, { 0 }, PMU_ERR_NO_TARGET, "70000", 2 },
	{ __LINE__, "0-99999", 8, -ERANGE, { 0 }, PMU_ERR_NO_TARGET, "99999", 2 },
};

static void check_pub_row(const struct pub_row *r, int ret, const int *cpus,
			  const struct pmu_error *err)
{
	if (ret != r->ret)
		fail_msg("row at line %d: ret %d", r->line, ret);
	for (int i = 0; ret > 0 && i < ret && (size_t)i < r->max; i++)
		if (cpus[i] != r->want[i])
			fail_msg("row at line %d: cpus[%d] = %d", r->line, i,
				 cpus[i]);
	if (ret >= 0)
		return;
	if (err->code != ret || err->kind != r->kind ||
	    strcmp(err->token, r->token) || err->offset != r->offset ||
	    !strstr(err->message, r->in))
		fail_msg("row at line %d: code %d kind %d token '%s' offset %d "
			 "message '%s'", r->line, err->code, err->kind,
			 err->token, err->offset, err->message);
}

static void test_public_parse(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(pub_rows) / sizeof(pub_rows[0]); i++) {
		const struct pub_row *r = &pub_rows[i];
		struct pmu_error err = { .size = sizeof(err) };
		int cpus[8] = { 0 };
		int ret = pmu_cpulist_parse(r->in, r->max ? cpus : NULL, r->max,
					    &err);

		check_pub_row(r, ret, cpus, &err);
		/* without an error struct: the same answer */
		assert_int_equal(pmu_cpulist_parse(r->in, r->max ? cpus : NULL,
						   r->max, NULL), r->ret);
	}
}

static void test_public_misuse(void **state)
{
	struct pmu_error err = { .size = sizeof(err) };
	int cpus[2];

	(void)state;
	assert_int_equal(pmu_cpulist_parse(NULL, cpus, 2, &err), -EINVAL);
	assert_int_equal(err.kind, PMU_ERR_USAGE);
	assert_int_equal(pmu_cpulist_parse("0", NULL, 2, &err), -EINVAL);
	assert_int_equal(err.kind, PMU_ERR_USAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_ok),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_check_online),
		cmocka_unit_test(test_read_file),
		cmocka_unit_test(test_online),
		cmocka_unit_test(test_public_parse),
		cmocka_unit_test(test_public_misuse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
