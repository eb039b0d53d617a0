/* SPDX-License-Identifier: MIT */
/* The region report reader: what well-formed files give, and a clear
 * error naming the file and line for each kind of bad one. */
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

#include <pmu/region.h>

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test-region.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static void clear_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -f %s/regions.*", dir);
	assert_int_equal(system(cmd), 0);
}

static int teardown(void **state)
{
	(void)state;
	clear_dir();
	rmdir(dir);
	return 0;
}

static void put(const char *name, const char *text, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
}

#define HEAD "pmu-regions 1\npid\t100\n" \
	     "event\ttask-clock\tmsec\t1e-06\t1\nevent\tcycles\t-\t1\t0\n"

static void test_two_processes(void **state)
{
	static const char a[] = HEAD
		"thread\t100\n"
		"region\tsolve\t3\t3000\t2000\t0\t2900\t0\t1900\t0\n"
		"region\tin%09ner\t3\t1000\t1000\t0\t1000\t0\t1000\t0\n"
		"thread\t101\n"
		"region\tsolve\t2\t500\t500\t1\t400\t0\t400\t0\n"
		"error\tend of region 'x', which is not open (thread 101)\n"
		"end\n";
	static const char b[] = "pmu-regions 1\npid\t99\n"
		"event\ttask-clock\tmsec\t1e-06\t1\nevent\tcycles\t-\t1\t0\n"
		"thread\t99\n"
		"region\tsolve\t1\t10\t10\t0\t9\t0\t9\t0\n"
		"end\n";
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_region_row row = { .size = sizeof(row) };
	struct pmu_region_report *r;
	const char *unit;
	double scale;

	(void)state;
	clear_dir();
	put("regions.100", a, sizeof(a) - 1);
	put("regions.99", b, sizeof(b) - 1);
	r = pmu_region_report_load(dir, &err);
	assert_non_null(r);
	assert_int_equal(pmu_region_report_nevents(r), 2);
	assert_string_equal(pmu_region_report_event(r, 0, &unit, &scale),
			    "task-clock");
	assert_string_equal(unit, "msec");
	assert_true(scale == 1e-6);
	assert_string_equal(pmu_region_report_event(r, 1, &unit, NULL),
			    "cycles");
	assert_string_equal(unit, "");
	assert_true(pmu_region_report_counted(r, 0));
	assert_false(pmu_region_report_counted(r, 1));
	/* regions in the order first seen, process 99's file first */
	assert_int_equal(pmu_region_report_nregions(r), 2);
	assert_int_equal(pmu_region_report_total(r, 0, &row), 0);
	assert_string_equal(row.name, "solve");
	assert_int_equal(row.calls, 6);
	assert_int_equal(row.threads, 3);
	assert_int_equal(row.time_ns, 3510);
	assert_int_equal(row.excl_time_ns, 2510);
	assert_int_equal(row.incl[0], 3309);
	assert_int_equal(row.excl[0], 2309);
	assert_true(row.open_at_exit);
	assert_int_equal(pmu_region_report_nrows(r, 0), 3);
	assert_int_equal(pmu_region_report_row(r, 0, 0, &row), 0);
	assert_int_equal(row.pid, 99);
	assert_int_equal(row.tid, 99);
	assert_int_equal(pmu_region_report_row(r, 0, 2, &row), 0);
	assert_int_equal(row.tid, 101);
	assert_int_equal(row.threads, 1);
	assert_true(row.open_at_exit);
	assert_int_equal(pmu_region_report_total(r, 1, &row), 0);
	assert_string_equal(row.name, "in\tner");
	assert_int_equal(pmu_region_report_nerrors(r), 1);
	assert_non_null(strstr(pmu_region_report_error(r, 0), "'x'"));
	/* out of range */
	assert_int_equal(pmu_region_report_total(r, 2, &row), -EINVAL);
	assert_int_equal(pmu_region_report_row(r, 0, 3, &row), -EINVAL);
	assert_null(pmu_region_report_event(r, 2, NULL, NULL));
	assert_null(pmu_region_report_error(r, 1));
	pmu_region_report_free(r);
}

struct bad_row {
	int line;
	const char *text;
	size_t len;              /* 0: strlen */
	int code;
	const char *msg;         /* in the message */
};

#define T(s) s, sizeof(s) - 1
static const struct bad_row bad_rows[] = {
	{ __LINE__, T("something else\n"), -EINVAL, ":1: not a region file" },
	{ __LINE__, T(HEAD "thread\t100\n"), -EINVAL, "no 'end' line" },
	{ __LINE__, T(HEAD "thread\t100\nend"), -EINVAL,
	  "middle of a line" },
	{ __LINE__, T(HEAD "thread\t100\nregion\tx\t1\t2\n" "end\n"),
	  -EINVAL, ":6: a malformed region line" },
	{ __LINE__, T(HEAD "thread\t100\nregion\tx\t1\t2\t3\t0\t1\t2\t3\tq\n"
		      "end\n"), -EINVAL, ":6: a malformed region line" },
	{ __LINE__, T(HEAD "thread\t100\nregion\tx\t1\t2\t3\t7\t1\t2\t3\t4\n"
		      "end\n"), -EINVAL, ":6: a malformed region line" },
	{ __LINE__, T(HEAD "region\tx\t1\t2\t3\t0\t1\t2\t3\t4\nend\n"),
	  -EINVAL, ":5: a line of no known kind" },
	{ __LINE__, T(HEAD "bogus\nend\n"), -EINVAL, ":5: a line of no known" },
	{ __LINE__, T(HEAD "end\nthread\t1\n"), -EINVAL, "text after 'end'" },
	{ __LINE__, T("pmu-regions 1\npid\t1\nevent\tx\tmsec\tnan?\t1\n"
		      "end\n"), -EINVAL, ":3: a malformed event line" },
	{ __LINE__, T("pmu-regions 1\npid\t1\nevent\tx\t-\t1\t2\nend\n"),
	  -EINVAL, ":3: a malformed event line" },
	{ __LINE__, T("pmu-regions 1\npid\t-4\nend\n"), -EINVAL,
	  ":2: a line of no known kind" },
	{ __LINE__, "pmu-regions 1\n\0end\n", 19, -EINVAL, "a NUL byte" },
};

static void test_bad_files(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_rows) / sizeof(*bad_rows); i++) {
		const struct bad_row *b = &bad_rows[i];
		struct pmu_error err = { .size = sizeof(err) };
		struct pmu_region_report *r;

		clear_dir();
		put("regions.7", b->text, b->len);
		r = pmu_region_report_load(dir, &err);
		if (r || err.code != b->code || !strstr(err.message, b->msg) ||
		    !strstr(err.message, "regions.7"))
			fail_msg("row of line %d: got %p, %d '%s'", b->line,
				 (void *)r, err.code, err.message);
	}
}

static void test_other_events(void **state)
{
	static const char b[] = "pmu-regions 1\npid\t200\n"
		"event\tpage-faults\t-\t1\t1\nevent\tcycles\t-\t1\t0\n"
		"thread\t200\nend\n";
	static const char a[] = HEAD "thread\t100\nend\n";
	struct pmu_error err = { .size = sizeof(err) };

	(void)state;
	clear_dir();
	put("regions.100", a, sizeof(a) - 1);
	put("regions.200", b, sizeof(b) - 1);
	assert_null(pmu_region_report_load(dir, &err));
	assert_int_equal(err.code, -EINVAL);
	assert_non_null(strstr(err.message, "regions.200"));
	assert_non_null(strstr(err.message, "other than the first file's"));
}

static void test_no_files(void **state)
{
	struct pmu_error err = { .size = sizeof(err) };

	(void)state;
	clear_dir();
	assert_null(pmu_region_report_load(dir, &err));
	assert_int_equal(err.code, -ENOENT);
	assert_non_null(strstr(err.message, "no region file"));
	assert_null(pmu_region_report_load("/nonexistent/dir", &err));
	assert_int_equal(err.code, -ENOENT);
	assert_non_null(strstr(err.message, "/nonexistent/dir"));
	assert_null(pmu_region_report_load(NULL, &err));
	assert_int_equal(err.code, -EINVAL);
	pmu_region_report_free(NULL);
}

/* An MPI job's directory: the ranks' files count, a rank's own file
 * (which repeats what it sent) does not. */
static void test_ranks(void **state)
{
#define RANK(pid, t, pf) "pmu-regions 1\npid\t" pid "\n" \
	"event\tpage-faults\t-\t1\t1\nthread\t" pid "\n" \
	"region\twork\t1\t" t "\t" t "\t0\t" pf "\t" pf "\n" \
	"thread\t9" pid "\n" \
	"region\twork\t1\t" t "\t" t "\t0\t" pf "\t" pf "\nend\n"
	static const char r0[] = RANK("10", "100", "5");
	static const char r1[] = RANK("11", "300", "20");
	static const char r2[] = RANK("12", "200", "20");
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_region_spread sp = { .size = sizeof(sp) };
	struct pmu_region_row row = { .size = sizeof(row) };
	struct pmu_region_report *r;

	(void)state;
	clear_dir();
	put("regions.rank.0", r0, sizeof(r0) - 1);
	put("regions.rank.10", r1, sizeof(r1) - 1);
	put("regions.rank.2", r2, sizeof(r2) - 1);
	put("regions.10", r0, sizeof(r0) - 1);
	r = pmu_region_report_load(dir, &err);
	assert_non_null(r);
	assert_int_equal(pmu_region_report_nranks(r), 3);
	assert_int_equal(pmu_region_report_sent(r), -1);
	assert_int_equal(pmu_region_report_total(r, 0, &row), 0);
	assert_int_equal(row.calls, 6);      /* not 8: regions.10 ignored */
	assert_int_equal(row.rank, -1);
	assert_int_equal(pmu_region_report_nrank_rows(r, 0), 3);
	/* rank order, 10 after 2 */
	assert_int_equal(pmu_region_report_rank_row(r, 0, 2, &row), 0);
	assert_int_equal(row.rank, 10);
	assert_int_equal(row.pid, 11);
	assert_int_equal(row.threads, 2);
	assert_int_equal(row.time_ns, 600);
	assert_int_equal(pmu_region_report_spread(r, 0, 0, &sp), 0);
	assert_int_equal(sp.nranks, 3);
	assert_true(sp.sum == 1200 && sp.min == 200 && sp.max == 600);
	assert_true(sp.mean == 400);
	assert_int_equal(sp.min_rank, 0);
	assert_int_equal(sp.max_rank, 10);
	/* equal maxima: the first rank's */
	assert_int_equal(pmu_region_report_spread(r, 0, 1, &sp), 0);
	assert_true(sp.max == 40 && sp.min == 10);
	assert_int_equal(sp.max_rank, 2);
	assert_int_equal(pmu_region_report_spread(r, 0, 2, &sp), -EINVAL);
	assert_int_equal(pmu_region_report_rank_row(r, 0, 3, &row), -EINVAL);
	pmu_region_report_free(r);
	/* rank 0's own regions after MPI_Finalize: regions.10 */
	r = pmu_region_report_load_after(dir, &err);
	assert_non_null(r);
	assert_int_equal(pmu_region_report_nregions(r), 1);
	assert_int_equal(pmu_region_report_nrows(r, 0), 2);
	assert_int_equal(pmu_region_report_total(r, 0, &row), 0);
	assert_int_equal(row.calls, 2);
	assert_int_equal(row.rank, -1);
	pmu_region_report_free(r);

	/* another rank's directory */
	clear_dir();
	put("regions.sent", "rank 3 of 4\n", 12);
	put("regions.55", r0, sizeof(r0) - 1);
	r = pmu_region_report_load(dir, &err);
	assert_non_null(r);
	assert_int_equal(pmu_region_report_sent(r), 3);
	assert_int_equal(pmu_region_report_nregions(r), 0);
	pmu_region_report_free(r);
	/* what that rank marked after it sent the rest: its own file */
	r = pmu_region_report_load_after(dir, &err);
	assert_non_null(r);
	assert_int_equal(pmu_region_report_sent(r), -1);
	assert_int_equal(pmu_region_report_nranks(r), 0);
	assert_int_equal(pmu_region_report_nregions(r), 1);
	assert_int_equal(pmu_region_report_total(r, 0, &row), 0);
	assert_int_equal(row.calls, 2);
	assert_int_equal(row.incl[0], 10);
	pmu_region_report_free(r);
	/* nothing after: a file of threads only */
	put("regions.55", "pmu-regions 1\npid\t55\nevent\tpage-faults\t-\t1\t1\n"
	    "thread\t55\nend\n", 59);
	assert_null(pmu_region_report_load_after(dir, &err));
	assert_int_equal(err.code, -ENOENT);
	/* not a job's directory: nothing is "after" */
	clear_dir();
	put("regions.55", r0, sizeof(r0) - 1);
	assert_null(pmu_region_report_load_after(dir, &err));
	assert_int_equal(err.code, -ENOENT);
	/* a note that makes no sense is no note */
	clear_dir();
	put("regions.sent", "what\n", 5);
	assert_null(pmu_region_report_load(dir, &err));
	assert_int_equal(err.code, -ENOENT);
}

/* Markers outside pmu stat --regions: nothing happens, 0 returned. */
static void test_markers_off(void **state)
{
	(void)state;
	unsetenv("PMU_REGIONS");
	assert_false(pmu_region_active());
	assert_int_equal(pmu_region_begin("x"), 0);
	assert_int_equal(pmu_region_end("y"), 0);
	assert_int_equal(pmu_region_begin(NULL), 0);
	assert_int_equal(pmu_region_flush(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_processes),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_other_events),
		cmocka_unit_test(test_no_files),
		cmocka_unit_test(test_ranks),
		cmocka_unit_test(test_markers_off),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
