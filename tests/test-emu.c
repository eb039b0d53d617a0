/* SPDX-License-Identifier: MIT */
/*
 * The emu driver and the emulator, through the session and the driver's
 * sample stream: i-mode sampling on programs whose instructions the test
 * knows (tests/emu/kloop.c, pattern.c), the settings, the errors.
 *
 * The sampling rule: a counter of period P overflows at its P-th, 2P-th
 * ... event, each overflow is one sample taken at the instruction that
 * caused the event (its address, the registers after it, its data
 * address).  On a loop of K instructions, N times, inside the region
 * markers, that is floor(total / P) samples, the ones in the loop at
 * instructions P apart modulo K.
 */
#include <errno.h>
#include <inttypes.h>
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
#include "session/session.h"

#define KLOOP_K 5
#define MAX_SAMPLES 100000

static char work_dir[4096];

static const char *workload(const char *name)
{
	static char p[4200];

	snprintf(p, sizeof(p), "%s/emu/%s", work_dir, name);
	return p;
}

struct run {
	struct pmu_session *s;
	char out[65536];          /* the program's standard output */
	int status;
	bool skipped;
};

/* Run argv under the emulator with the session's events (the first one
 * sampling every `period` events when period > 0), as pmu stat does. */
static void run(struct run *r, const char *events, const char *settings,
		uint64_t period, char *const *argv)
{
	struct pmu_session_opts so = PMU_OPTS_INIT(pmu_session_opts,
		.driver = "emu", .model = "fam10h", .emu = settings);
	struct pmu_error err = { .size = sizeof(err) };
	int go[2], out[2];
	char **cmd = NULL, c = 0;
	ssize_t n, len = 0;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	r->s = pmu_session_new_opts(&so, &err);
	assert_non_null(r->s);
	assert_int_equal(pmu_session_add(r->s, events, &err), 0);
	r->s->ev[0].attr.sample_period = period;
	if (pmu_session_command(r->s, argv, &cmd, &err) == -ENOENT) {
		print_message("# %s\n", err.message);
		r->skipped = true;
		return;
	}
	assert_non_null(cmd);
	assert_true(pipe(go) == 0 && pipe(out) == 0);
	pid = fork();
	if (pid == 0) {
		dup2(out[1], 1);
		close(out[0]);
		close(go[1]);
		if (read(go[0], &c, 1) == 1)
			execvp(cmd[0], cmd);
		_exit(127);
	}
	free(cmd);
	close(go[0]);
	close(out[1]);
	{
		struct pmu_open_opts oo = PMU_OPTS_INIT(pmu_open_opts,
			.target = PMU_TARGET_CHILD, .pid = pid);

		if (pmu_session_open(r->s, &oo, &err))
			fail_msg("open: %s", err.message);
	}
	assert_int_equal(write(go[1], &c, 1), 1);
	close(go[1]);
	while ((n = read(out[0], r->out + len, sizeof(r->out) - 1 - len)) > 0)
		len += n;
	r->out[len] = '\0';
	close(out[0]);
	waitpid(pid, &r->status, 0);
	assert_int_equal(pmu_session_stop(r->s), 0);
}

static uint64_t count(struct run *r, size_t i)
{
	struct pmu_value v[8] = { { .size = sizeof(v[0]) } };

	assert_true(pmu_session_read(r->s, v, 8) > (ssize_t)i);
	assert_int_equal(v[i].status, PMU_EVENT_OK);
	return v[i].raw;
}

static struct pmu_emu_rec_sample *samples(struct run *r, long *n)
{
	struct pmu_emu_rec_sample *smp = calloc(MAX_SAMPLES, sizeof(*smp));

	assert_non_null(smp);
	*n = pmu__emu_samples(r->s->drv, smp, MAX_SAMPLES);
	assert_true(*n >= 0);
	return smp;
}

static int loop_index(const uint64_t *at, uint64_t ip)
{
	for (int i = 0; i < KLOOP_K; i++)
		if (at[i] == ip)
			return i;
	return -1;
}

/* K instructions per iteration, period P: floor(total/P) samples, and
 * in the loop each one P instructions (mod K) after the previous. */
static void test_period(void **state)
{
	static const struct { int line; long n; uint64_t p; bool warm; } rows[] = {
		{ __LINE__, 20000, 7, false },
		{ __LINE__, 20000, 1000, false },
		{ __LINE__, 100003, 4096, false },
		{ __LINE__, 3000, 1, false },
		/* the loop ran before counting started, already translated */
		{ __LINE__, 20000, 7, true },
		{ __LINE__, 20000, 999, true },
	};

	(void)state;
	for (size_t t = 0; t < sizeof(rows) / sizeof(rows[0]); t++) {
		char arg[32];
		char *argv[] = { (char *)workload("kloop"), arg,
				 rows[t].warm ? (char *)"warm" : NULL, NULL };
		struct pmu_emu_rec_sample *smp;
		uint64_t at[KLOOP_K], total, p = rows[t].p;
		struct run r;
		long n, inloop = 0, prev = -1;
		char *s;

		snprintf(arg, sizeof(arg), "%ld", rows[t].n);
		run(&r, "RETIRED_INSTRUCTIONS", "regions", p, argv);
		if (r.skipped)
			skip();
		assert_int_equal(r.status, 0);
		s = r.out;
		for (int i = 0; i < KLOOP_K; i++)
			at[i] = strtoull(s, &s, 16);
		total = count(&r, 0);
		print_message("# kloop %ld, period %" PRIu64 ": %" PRIu64 " instructions\n", rows[t].n, p, total);
		smp = samples(&r, &n);
		if ((uint64_t)n != total / p)
			fail_msg("row %d: %ld samples of %" PRIu64 " instructions, "
				 "period %" PRIu64 ": want %" PRIu64, rows[t].line,
				 n, total, p, total / p);
		/* the loop ran n*K of them, the region a few more */
		assert_true(total >= (uint64_t)rows[t].n * KLOOP_K &&
			    total < (uint64_t)rows[t].n * KLOOP_K + 64);
		for (long i = 0; i < n; i++) {
			int k = loop_index(at, smp[i].ip);

			if (k < 0) {
				prev = -1;
				continue;
			}
			inloop++;
			if (prev >= 0 && k != (int)((prev + p) % KLOOP_K))
				fail_msg("row %d: sample %ld at loop instruction "
					 "%d after %ld, want %d", rows[t].line, i,
					 k, prev, (int)((prev + p) % KLOOP_K));
			assert_int_equal(smp[i].data_addr, 0);
			assert_int_equal(smp[i].mask, 1);   /* counter 0 */
			prev = k;
		}
		assert_true(inloop >= n - 64 / (long)p - 2);
		free(smp);
		pmu_session_free(r.s);
	}
}

/* max-samples bounds the samples of a process; the counts go on. */
static void test_max_samples(void **state)
{
	char *argv[] = { (char *)workload("kloop"), (char *)"20000", NULL };
	struct pmu_emu_rec_sample *smp;
	struct run r;
	long n;

	(void)state;
	run(&r, "RETIRED_INSTRUCTIONS", "regions max-samples=100", 7, argv);
	if (r.skipped)
		skip();
	assert_true(count(&r, 0) >= 100000);
	smp = samples(&r, &n);
	assert_int_equal(n, 100);
	free(smp);
	pmu_session_free(r.s);
}

/* Sampling a memory event: each sample is the loop's one load, its data
 * address the array element that the index register (rcx, after the
 * load) says. */
static void test_data_address(void **state)
{
	char *argv[] = { (char *)workload("pattern"), (char *)"random",
			 (char *)"5000", NULL };
	struct pmu_emu_rec_sample *smp;
	uint64_t loads;
	struct run r;
	long n;

	(void)state;
	run(&r, "DATA_CACHE_ACCESSES", "regions", 97, argv);
	if (r.skipped)
		skip();
	assert_int_equal(r.status, 0);
	loads = count(&r, 0);
	smp = samples(&r, &n);
	/* 5000 loads in the loop, and what the region holds besides */
	assert_true(loads >= 5000 && loads < 5064);
	assert_int_equal((uint64_t)n, loads / 97);
	for (long i = 1; i < n; i++) {
		if (smp[i].ip != smp[1].ip)
			continue;          /* outside the loop: start, stop */
		assert_int_equal(smp[i].data_addr - smp[i].gpr[2],
				 smp[1].data_addr - smp[1].gpr[2]);
	}
	assert_true(smp[1].data_addr != 0);
	free(smp);
	pmu_session_free(r.s);
}

/* Counting is deterministic: two runs, the same counts. */
static void test_deterministic(void **state)
{
	char *argv[] = { (char *)workload("sort"), NULL };
	uint64_t first[4] = { 0 };

	(void)state;
	for (int round = 0; round < 2; round++) {
		struct run r;

		run(&r, "instructions,branch-misses,L1-dcache-load-misses,"
		    "cycles", NULL, 0, argv);
		if (r.skipped)
			skip();
		uint64_t kind[PMU_EMU_NKIND];

		for (size_t i = 0; i < 4; i++) {
			uint64_t v = count(&r, i);

			if (round == 0)
				first[i] = v;
			else
				assert_int_equal(v, first[i]);
		}
		assert_true(first[0] > 1000000);
		/* what the emulator saw, reported beside the counters */
		assert_int_equal(pmu__emu_kinds(r.s->drv, kind), 0);
		assert_int_equal(kind[PMU_EMU_K_INSTR], first[0]);
		pmu_session_free(r.s);
	}
}

/* Bad settings and models are named; events the emulation does not
 * produce are not supported; sampling needs a P6-style model. */
static void test_errors(void **state)
{
	static const struct { int line; const char *model, *set, *token; } bad[] = {
		{ __LINE__, NULL, "I1=32768,8", "I1=32768,8" },
		{ __LINE__, NULL, "D1=1000,3,64", "D1=1000,3,64" },
		{ __LINE__, NULL, "LL=4096,1,12", "LL=4096,1,12" },
		{ __LINE__, NULL, "predictor=tage", "predictor=tage" },
		{ __LINE__, NULL, "costs=1,2", "costs=1,2" },
		{ __LINE__, NULL, "bogus", "bogus" },
		{ __LINE__, "pentium9", NULL, "pentium9" },
	};
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_session *s;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pmu_session_opts so = PMU_OPTS_INIT(pmu_session_opts,
			.driver = "emu", .model = bad[i].model,
			.emu = bad[i].set);

		errno = 0;
		s = pmu_session_new_opts(&so, &err);
		if (s || strcmp(err.token, bad[i].token))
			fail_msg("row %d: token '%s'", bad[i].line, err.token);
	}
	{
		struct pmu_session_opts so = PMU_OPTS_INIT(pmu_session_opts,
			.driver = "sim", .model = "k8", .emu = "regions");

		assert_null(pmu_session_new_opts(&so, &err));
		assert_int_equal(errno, EINVAL);
	}
	{
		/* P6 events the emulation has no rule for, on a P6 */
		struct pmu_session_opts so = PMU_OPTS_INIT(pmu_session_opts,
			.driver = "emu", .model = "p6");
		struct pmu_open_opts oo = PMU_OPTS_INIT(pmu_open_opts,
			.target = PMU_TARGET_PID, .pid = 1);
		struct pmu_open_opts stopped = PMU_OPTS_INIT(pmu_open_opts,
			.target = PMU_TARGET_CHILD, .pid = 1,
			.start_stopped = true);

		s = pmu_session_new_opts(&so, &err);
		assert_non_null(s);
		assert_int_equal(pmu_session_add(s, "INST_RETIRED", &err), 0);
		/* only a command or the program itself */
		assert_int_equal(pmu_session_open(s, &oo, &err), -EINVAL);
		/* a command is counted whole: it cannot start stopped */
		assert_int_equal(pmu_session_open(s, &stopped, &err),
				 -EOPNOTSUPP);
		assert_int_equal(err.kind, PMU_ERR_NOT_SUPPORTED);
		assert_non_null(strstr(err.message, "opened stopped"));
		/* the program itself, not under the emulator */
		assert_int_equal(pmu_session_open(s, NULL, &err), -ENODEV);
		assert_non_null(strstr(err.message, "emulator"));
		pmu_session_free(s);
	}
}

/* An event of the model the emulation does not produce is reported as
 * not supported, and the others of its group still count. */
static void test_unproduced(void **state)
{
	char *argv[] = { (char *)workload("loops"), (char *)"1", NULL };
	struct pmu_session_opts so = PMU_OPTS_INIT(pmu_session_opts,
		.driver = "emu", .model = "p6");
	struct pmu_open_opts oo = PMU_OPTS_INIT(pmu_open_opts,
		.target = PMU_TARGET_CHILD, .pid = getpid());
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_session *s = pmu_session_new_opts(&so, &err);
	char **cmd = NULL;
	int e = 0;

	(void)state;
	assert_non_null(s);
	assert_int_equal(pmu_session_add(s, "{INST_RETIRED,MISALIGN_MEM_REF}",
					 &err), 0);
	if (pmu_session_command(s, argv, &cmd, &err) == -ENOENT) {
		pmu_session_free(s);
		skip();
	}
	free(cmd);
	assert_int_equal(pmu_session_open(s, &oo, &err), 0);
	assert_int_equal(pmu_session_event_status(s, 0, &e), PMU_EVENT_OK);
	assert_int_equal(pmu_session_event_status(s, 1, &e),
			 PMU_EVENT_NOT_SUPPORTED);
	assert_non_null(strstr(pmu_session_event_reason(s, 1),
			       "emulation produces no"));
	pmu_session_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_period),
		cmocka_unit_test(test_max_samples),
		cmocka_unit_test(test_data_address),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_unproduced),
	};
	ssize_t n = readlink("/proc/self/exe", work_dir, sizeof(work_dir) - 1);
	char *slash;

	if (n <= 0)
		return 1;
	work_dir[n] = '\0';
	slash = strrchr(work_dir, '/');
	if (slash)
		*slash = '\0';
	return cmocka_run_group_tests(tests, NULL, NULL);
}
