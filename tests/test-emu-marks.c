/* SPDX-License-Identifier: MIT */
/*
 * Instruction intervals of the emu driver (setting report-insns=N):
 *  - the bookkeeping, on records made here: a process's records up to
 *    its k-th INSNS record are interval k, an exec starts its count
 *    over, interval k of the command sums the processes';
 *  - through the session on tests/emu/loops: with T instructions (the
 *    plain reading's), ceil(T/N) intervals whose readings are at
 *    min((k+1)N, T) instructions, the last one the plain reading;
 *  - the settings' and the API's errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <pmu/pmu.h>

#include "drivers/emu_drv.h"

static char work_dir[PATH_MAX];

/* ---- the bookkeeping ---- */

/* One COUNTS record of `pid`: `insns` instructions, counter 0 `c0`. */
static void rec(struct emu_records *r, int pid, uint32_t why, uint64_t insns,
		uint64_t c0)
{
	struct pmu_emu_rec_counts k;

	memset(&k, 0, sizeof(k));
	k.h = (struct pmu_emu_rec_hdr){ PMU_EMU_REC_COUNTS, sizeof(k), pid,
					pid };
	k.why = why;
	k.nctrs = 1;
	k.sum[0] = c0;
	k.kind[PMU_EMU_K_INSTR] = insns;
	pmu__emu_records_add(r, &k, sizeof(k));
}

static void expect_mark(struct emu_records *r, size_t k, uint64_t insns,
			uint64_t c0)
{
	struct emu_counts *c = malloc(sizeof(*c));

	assert_non_null(c);
	assert_int_equal(pmu__emu_records_mark(r, k, c), 0);
	assert_int_equal(c->kind[PMU_EMU_K_INSTR], insns);
	assert_int_equal(c->sum[0], c0);
	free(c);
}

static void test_bookkeeping(void **state)
{
	struct emu_records *r = calloc(1, sizeof(*r));
	struct emu_counts *c = malloc(sizeof(*c));

	(void)state;
	assert_non_null(r);
	assert_non_null(c);
	r->marks = true;
	/* N = 10.  Process 1: 10 | 10 | exec (3) ; new image 10 | 5 exit.
	 * Process 2 (forked, arriving in between): 10 | 4 exit. */
	rec(r, 1, PMU_EMU_WHY_INSNS, 10, 1);
	rec(r, 2, PMU_EMU_WHY_INSNS, 10, 100);
	rec(r, 1, PMU_EMU_WHY_INSNS, 10, 2);
	rec(r, 1, PMU_EMU_WHY_EXEC, 3, 4);
	rec(r, 2, PMU_EMU_WHY_EXIT, 4, 200);
	rec(r, 1, PMU_EMU_WHY_INSNS, 10, 8);
	rec(r, 1, PMU_EMU_WHY_EXIT, 5, 16);
	/* interval 0: 10 + 10 + 10 (the exec'd image's first);
	 * interval 1: 10 + 4 + 5; interval 2: the 3 before the exec */
	assert_int_equal(pmu__emu_records_nmarks(r), 3);
	expect_mark(r, 0, 30, 1 + 100 + 8);
	expect_mark(r, 1, 49, 109 + 2 + 200 + 16);
	expect_mark(r, 2, 52, 331);
	assert_int_equal(pmu__emu_records_mark(r, 3, c), -ERANGE);
	/* a process without INSNS records counts in the first one */
	rec(r, 3, PMU_EMU_WHY_EXIT, 0, 1000);
	assert_int_equal(pmu__emu_records_nmarks(r), 3);
	expect_mark(r, 0, 30, 109 + 1000);
	expect_mark(r, 2, 52, 1331);
	/* a last interval without instructions folds into the one before */
	rec(r, 4, PMU_EMU_WHY_INSNS, 1, 0);
	rec(r, 4, PMU_EMU_WHY_INSNS, 1, 0);
	rec(r, 4, PMU_EMU_WHY_INSNS, 1, 0);
	rec(r, 4, PMU_EMU_WHY_EXIT, 0, 10000);
	assert_int_equal(pmu__emu_records_nmarks(r), 3);
	expect_mark(r, 2, 55, 11331);
	free(c);
	pmu__emu_records_clear(r);
	free(r);
}

/* Without marks (no report-insns), one interval: the whole run. */
static void test_bookkeeping_off(void **state)
{
	struct emu_records *r = calloc(1, sizeof(*r));

	(void)state;
	assert_non_null(r);
	rec(r, 1, PMU_EMU_WHY_EXIT, 7, 3);
	assert_int_equal(pmu__emu_records_nmarks(r), 0);
	pmu__emu_records_clear(r);
	free(r);
}

/* ---- through the session ---- */

struct run {
	struct pmu_session *s;
	bool skipped;
};

static void run(struct run *r, const char *settings, char *const *argv)
{
	struct pmu_session_opts so = PMU_OPTS_INIT(pmu_session_opts,
		.driver = "emu", .model = "fam10h", .emu = settings);
	struct pmu_error err = { .size = sizeof(err) };
	char **cmd = NULL;
	pid_t pid;
	int status;

	memset(r, 0, sizeof(*r));
	r->s = pmu_session_new_opts(&so, &err);
	assert_non_null(r->s);
	assert_int_equal(pmu_session_add(r->s, "instructions,branches", &err), 0);
	if (pmu_session_command(r->s, argv, &cmd, &err) == -ENOENT) {
		print_message("# %s\n", err.message);
		r->skipped = true;
		return;
	}
	assert_non_null(cmd);
	pid = fork();
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(126);
		raise(SIGSTOP);
		execvp(cmd[0], cmd);
		_exit(127);
	}
	free(cmd);
	waitpid(pid, &status, WUNTRACED);
	{
		struct pmu_open_opts oo = PMU_OPTS_INIT(pmu_open_opts,
			.target = PMU_TARGET_CHILD, .pid = pid);

		if (pmu_session_open(r->s, &oo, &err))
			fail_msg("open: %s", err.message);
	}
	kill(pid, SIGCONT);
	waitpid(pid, &status, 0);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(pmu_session_stop(r->s), 0);
}

static void read_all(struct pmu_session *s, struct pmu_value v[2])
{
	v[0].size = sizeof(v[0]);
	assert_int_equal(pmu_session_read(s, v, 2), 2);
}

static void test_session(void **state)
{
	char path[4200];
	char *argv[] = { path, (char *)"1", NULL };
	struct pmu_value all[2], v[2] = { { .size = sizeof(v[0]) } };
	struct run plain, iv;
	const uint64_t n = 150000;
	uint64_t t, insns = 0;
	ssize_t nm;

	(void)state;
	snprintf(path, sizeof(path), "%s/emu/loops", work_dir);
	run(&plain, NULL, argv);
	if (plain.skipped) {
		pmu_session_free(plain.s);
		skip();
	}
	read_all(plain.s, all);
	t = all[0].raw;
	assert_true(t > 2 * n);
	/* no report-insns: no intervals */
	assert_int_equal(pmu_session_nmarks(plain.s), -EOPNOTSUPP);
	assert_int_equal(pmu_session_read_mark(plain.s, 0, NULL, v, 2),
			 -EOPNOTSUPP);
	pmu_session_free(plain.s);

	run(&iv, "report-insns=150000", argv);
	nm = pmu_session_nmarks(iv.s);
	assert_int_equal(nm, (ssize_t)((t + n - 1) / n));
	for (ssize_t k = 0; k < nm; k++) {
		uint64_t want = (uint64_t)(k + 1) * n < t ? (uint64_t)(k + 1) * n : t;

		v[0].size = sizeof(v[0]);
		assert_int_equal(pmu_session_read_mark(iv.s, (size_t)k, &insns,
						       v, 2), 2);
		assert_int_equal(insns, want);
		assert_int_equal(v[0].raw, want);
		assert_int_equal(v[0].status, PMU_EVENT_OK);
		/* time at a mark is guest instructions */
		assert_int_equal(v[0].enabled, want);
		assert_int_equal(v[0].running, want);
	}
	/* the last reading is the run's */
	assert_int_equal(v[1].raw, all[1].raw);
	assert_int_equal(pmu_session_read_mark(iv.s, (size_t)nm, &insns, v, 2),
			 -ERANGE);
	pmu_session_free(iv.s);
}

/* A bad count is named; a session that is not open has no intervals. */
static void test_errors(void **state)
{
	static const char *const bad[] = {
		"report-insns=0", "report-insns=abc", "report-insns=10K",
		"report-insns=", "report-insns=99999999999999999999",
	};
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_value v[1] = { { .size = sizeof(v[0]) } };
	struct pmu_session *s;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pmu_session_opts so = PMU_OPTS_INIT(pmu_session_opts,
			.driver = "emu", .emu = bad[i]);

		s = pmu_session_new_opts(&so, &err);
		if (s || strcmp(err.token, bad[i]))
			fail_msg("%s: token '%s'", bad[i], err.token);
	}
	assert_int_equal(pmu_session_nmarks(NULL), -EINVAL);
	s = pmu_session_new(&err);
	assert_non_null(s);
	assert_int_equal(pmu_session_nmarks(s), -EINVAL);
	assert_int_equal(pmu_session_read_mark(s, 0, NULL, v, 1), -EINVAL);
	pmu_session_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bookkeeping),
		cmocka_unit_test(test_bookkeeping_off),
		cmocka_unit_test(test_session),
		cmocka_unit_test(test_errors),
	};
	/* the workloads are in emu/ beside this program */
	if (!realpath("/proc/self/exe", work_dir) || !strrchr(work_dir, '/'))
		return 1;
	*strrchr(work_dir, '/') = '\0';
	return cmocka_run_group_tests(tests, NULL, NULL);
}
