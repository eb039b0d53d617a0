/* SPDX-License-Identifier: MIT */
/*
 * One table of session cases run over every driver: perf (software
 * events of this thread, the real kernel), sim (a simulated K8 fed
 * an event stream) and emu (an emulated family 10h counting this very
 * program, which then runs under pmu's emulator: the test starts itself
 * again there, with --emu-row).  The session must behave the same
 * whichever driver it holds; only the workload and the precision of the
 * expected counts differ (perf's page faults are at least the pages
 * touched, the simulator's instructions exactly the events fed, the
 * emulator's branches those of the loop and of the start and stop
 * calls around it).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <pmu/pmu.h>

struct drv {
	const char *name;
	struct pmu_session *(*make)(void);
	const char *events;       /* "{A,B},C": A is checked */
	const char *unsupported;  /* an event this driver cannot count */
	void (*work)(struct pmu_session *s, unsigned n);
	unsigned slack;           /* A counts n .. n + slack for n units */
};

static struct pmu_session *make_perf(void)
{
	return pmu_session_new(NULL);
}

static struct pmu_session *make_sim(void)
{
	struct pmu_session_opts o = PMU_OPTS_INIT(pmu_session_opts,
						  .driver = "sim",
						  .model = "k8");

	return pmu_session_new_opts(&o, NULL);
}

static struct pmu_session *make_emu(void)
{
	struct pmu_session_opts o = PMU_OPTS_INIT(pmu_session_opts,
						  .driver = "emu",
						  .model = "fam10h");

	return pmu_session_new_opts(&o, NULL);
}

/* n page faults of this thread: n fresh pages touched. */
static void work_perf(struct pmu_session *s, unsigned n)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	volatile char *m = mmap(NULL, n * pg, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	(void)s;
	assert_true(m != MAP_FAILED);
	for (unsigned i = 0; i < n; i++)
		m[i * pg] = 1;
	munmap((void *)m, n * pg);
}

/* n retired instructions (K8 event 0xc0) and as many cycles. */
static void work_sim(struct pmu_session *s, unsigned n)
{
	char text[128];
	int len = snprintf(text, sizeof(text),
			   "event 0xc0 %u\ncycles %u\nevent 0xc2 1\n", n, n);

	assert_int_equal(pmu_session_feed(s, text, (size_t)len, NULL), 0);
}

/* n retired branches: a loop of n iterations, its own jnz.  The calls
 * that start and stop counting retire a few more, as many each time. */
static void work_emu(struct pmu_session *s, unsigned n)
{
	unsigned long k = n;

	(void)s;
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(k) : : "cc");
}

static const struct drv emu_row = {
	"emu", make_emu, "{RETIRED_BRANCH_INSTRUCTIONS,RETIRED_INSTRUCTIONS},"
	"cycles", "task-clock", work_emu, 200,
};

static const struct drv drivers[] = {
	{ "perf", make_perf, "{page-faults,task-clock},context-switches",
	  "p6::INST_RETIRED", work_perf, 64 },
	{ "sim", make_sim, "{RETIRED_INSTRUCTIONS,cycles},"
	  "RETIRED_BRANCH_INSTRUCTIONS", "task-clock", work_sim, 0 },
};

static struct pmu_session *opened(const struct drv *d)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_session *s = d->make();

	assert_non_null(s);
	if (pmu_session_add(s, d->events, &err) ||
	    pmu_session_open(s, NULL, &err))
		fail_msg("%s: %s", d->name, err.message);
	return s;
}

static uint64_t first(struct pmu_session *s)
{
	struct pmu_value v[3] = { { .size = sizeof(v[0]) } };

	assert_int_equal(pmu_session_read(s, v, 3), 3);
	assert_int_equal(v[0].status, PMU_EVENT_OK);
	return v[0].raw;
}

static void in_range(const struct drv *d, int line, uint64_t got,
		     uint64_t n)
{
	if (got < n || got > n + d->slack)
		fail_msg("%s, case at line %d: %llu, want %llu..%llu", d->name,
			 line, (unsigned long long)got, (unsigned long long)n,
			 (unsigned long long)(n + d->slack));
}

/* start, work, stop, read */
static void c_count(const struct drv *d, int line)
{
	struct pmu_session *s = opened(d);

	assert_int_equal(pmu_session_start(s), 0);
	d->work(s, 300);
	assert_int_equal(pmu_session_stop(s), 0);
	in_range(d, line, first(s), 300);
	pmu_session_free(s);
}

/* nothing counts while stopped; reset clears */
static void c_stop_reset(const struct drv *d, int line)
{
	struct pmu_session *s = opened(d);
	uint64_t before;

	assert_int_equal(pmu_session_start(s), 0);
	d->work(s, 100);
	assert_int_equal(pmu_session_stop(s), 0);
	before = first(s);
	in_range(d, line, before, 100);
	d->work(s, 200);
	assert_int_equal(first(s), before);
	assert_int_equal(pmu_session_reset(s), 0);
	assert_int_equal(first(s), 0);
	pmu_session_free(s);
}

/* two runs add up */
static void c_accumulate(const struct drv *d, int line)
{
	struct pmu_session *s = opened(d);

	for (int run = 0; run < 2; run++) {
		assert_int_equal(pmu_session_start(s), 0);
		d->work(s, 150);
		assert_int_equal(pmu_session_stop(s), 0);
	}
	in_range(d, line, first(s), 300);
	pmu_session_free(s);
}

/* an event the PMU cannot count is reported, and the rest count */
static void c_unsupported(const struct drv *d, int line)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_session *s = d->make();
	struct pmu_value v[4] = { { .size = sizeof(v[0]) } };
	int e = 0;

	assert_int_equal(pmu_session_add(s, d->events, &err), 0);
	assert_int_equal(pmu_session_add(s, d->unsupported, &err), 0);
	assert_int_equal(pmu_session_open(s, NULL, &err), 0);
	assert_int_equal(pmu_session_event_status(s, 3, &e),
			 PMU_EVENT_NOT_SUPPORTED);
	assert_true(e < 0);
	assert_true(strlen(pmu_session_event_reason(s, 3)) > 10);
	assert_int_equal(pmu_session_start(s), 0);
	d->work(s, 50);
	assert_int_equal(pmu_session_stop(s), 0);
	assert_int_equal(pmu_session_read(s, v, 4), 4);
	in_range(d, line, v[0].raw, 50);
	assert_int_equal(v[3].status, PMU_EVENT_NOT_SUPPORTED);
	assert_int_equal(v[3].raw, 0);
	pmu_session_free(s);
}

/* a caller whose pmu_value ends after `raw` (an older, smaller layout)
 * gets nothing past it: elements 16 bytes apart, the bytes after the
 * array untouched */
static void c_small_value(const struct drv *d, int line)
{
	struct old_value { size_t size; uint64_t raw; };
	struct { struct old_value v[3]; uint64_t fence[4]; } buf;
	struct pmu_session *s = opened(d);

	memset(&buf, 0xAB, sizeof(buf));
	buf.v[0].size = sizeof(struct old_value);
	assert_int_equal(pmu_session_start(s), 0);
	d->work(s, 40);
	assert_int_equal(pmu_session_stop(s), 0);
	assert_int_equal(pmu_session_read(s, (struct pmu_value *)(void *)buf.v,
					  3), 3);
	in_range(d, line, buf.v[0].raw, 40);
	for (int i = 0; i < 3; i++)
		assert_int_equal(buf.v[i].size, sizeof(struct old_value));
	for (int i = 0; i < 4; i++)
		assert_int_equal(buf.fence[i], 0xABABABABABABABABull);
	pmu_session_free(s);
}

/* the lifecycle's errors, and groups */
static void c_lifecycle(const struct drv *d, int line)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_session *s = d->make();
	int fed;

	(void)line;
	assert_int_equal(pmu_session_start(s), -EINVAL);
	assert_int_equal(pmu_session_open(s, NULL, &err), -EINVAL);
	assert_int_equal(pmu_session_add(s, d->events, &err), 0);
	assert_int_equal(pmu_session_nevents(s), 3);
	assert_int_equal(pmu_session_event_group(s, 0),
			 pmu_session_event_group(s, 1));
	assert_true(pmu_session_event_group(s, 2) !=
		    pmu_session_event_group(s, 0));
	assert_int_equal(pmu_session_open(s, NULL, &err), 0);
	assert_int_equal(pmu_session_open(s, NULL, &err), -EBUSY);
	assert_int_equal(pmu_session_add(s, d->events, &err), -EBUSY);
	fed = pmu_session_feed(s, "cycles 1\n", 9, &err);
	assert_int_equal(fed, strcmp(d->name, "sim") ? -EOPNOTSUPP : 0);
	assert_string_equal(pmu_session_driver(s), d->name);
	pmu_session_free(s);
}

static const struct {
	int line;
	void (*fn)(const struct drv *d, int line);
} cases[] = {
	{ __LINE__, c_count },
	{ __LINE__, c_stop_reset },
	{ __LINE__, c_accumulate },
	{ __LINE__, c_unsupported },
	{ __LINE__, c_small_value },
	{ __LINE__, c_lifecycle },
};

static void test_cases(void **state)
{
	const struct drv *d = *state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		cases[i].fn(d, cases[i].line);
}

/* What a simulated PMU counts, and how it says what it does not: the
 * P6 has two counters (a third group is idle, <not counted>), counts
 * its own events only, and cycles with CPU_CLK_UNHALTED. */
static void test_sim_placement(void **state)
{
	static const struct {
		int line;
		const char *ev;
		enum pmu_event_status want;
		const char *why;        /* in the reason, or NULL */
	} rows[] = {
		{ __LINE__, "cycles", PMU_EVENT_OK, NULL },
		{ __LINE__, "INST_RETIRED", PMU_EVENT_OK, NULL },
		{ __LINE__, "branches", PMU_EVENT_NOT_COUNTED, "no counter" },
		{ __LINE__, "k8::RETIRED_INSTRUCTIONS", PMU_EVENT_NOT_SUPPORTED,
		  "an event of amd64_k8_revb" },
		{ __LINE__, "page-faults", PMU_EVENT_NOT_SUPPORTED,
		  "hardware events" },
		{ __LINE__, "L1-dcache-loads", PMU_EVENT_NOT_SUPPORTED,
		  "hardware events" },
		{ __LINE__, "r00c0", PMU_EVENT_NOT_SUPPORTED, "XScale" },
	};
	struct pmu_session_opts o = PMU_OPTS_INIT(pmu_session_opts,
						  .driver = "sim",
						  .model = "p6");
	struct pmu_session *s = pmu_session_new_opts(&o, NULL);
	struct pmu_error err = { .size = sizeof(err) };

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		assert_int_equal(pmu_session_add(s, rows[i].ev, &err), 0);
	assert_int_equal(pmu_session_open(s, NULL, &err), 0);
	assert_string_equal(pmu_session_model(s), "p6");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *why = pmu_session_event_reason(s, i);

		if (pmu_session_event_status(s, i, NULL) != rows[i].want ||
		    (rows[i].why && !strstr(why, rows[i].why)))
			fail_msg("row at line %d: status %d, reason '%s'",
				 rows[i].line, pmu_session_event_status(s, i, NULL),
				 why);
	}
	pmu_session_free(s);
}

/* Bad driver choices are named. */
static void test_bad_driver(void **state)
{
	struct pmu_session_opts o = PMU_OPTS_INIT(pmu_session_opts,
						  .driver = "perfmon");
	struct pmu_error err = { .size = sizeof(err) };

	(void)state;
	errno = 0;
	assert_null(pmu_session_new_opts(&o, &err));
	assert_int_equal(errno, ENOENT);
	assert_string_equal(err.token, "perfmon");
	o.driver = "sim";
	assert_null(pmu_session_new_opts(&o, &err));
	assert_non_null(strstr(err.message, "needs a model"));
	o.model = "pentium9";
	assert_null(pmu_session_new_opts(&o, &err));
	assert_string_equal(err.token, "pentium9");
	o.driver = "perf";
	o.model = "p6";
	assert_null(pmu_session_new_opts(&o, &err));
	assert_int_equal(errno, EINVAL);
}

/* The emu row runs in a copy of this program under the emulator (the
 * session here counts that child, as pmu stat --emulate would); its TAP
 * goes to a file, shown when it fails. */
static void test_emu_row(void **state)
{
	struct pmu_session *s = make_emu();
	struct pmu_error err = { .size = sizeof(err) };
	char self[4096], log[] = "/tmp/pmu-emu-row.XXXXXX", out[8192];
	char *argv[] = { self, (char *)"--emu-row", NULL }, **cmd = NULL;
	ssize_t len;
	int status = 0, fd, go[2];
	pid_t pid;
	char c = 0;

	(void)state;
#if defined(__SANITIZE_ADDRESS__)
	pmu_session_free(s);
	skip();                  /* an ASan build cannot run under Valgrind */
#endif
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	assert_true(len > 0);
	self[len] = '\0';
	if (pmu_session_command(s, argv, &cmd, &err) == -ENOENT) {
		print_message("# emulator or valgrind missing: %s\n", err.message);
		pmu_session_free(s);
		skip();
	}
	assert_non_null(cmd);
	fd = mkstemp(log);
	assert_true(fd >= 0 && pipe(go) == 0);
	assert_int_equal(pmu_session_add(s, "instructions", &err), 0);
	pid = fork();
	if (pid == 0) {
		dup2(fd, 1);
		dup2(fd, 2);
		close(go[1]);
		if (read(go[0], &c, 1) == 1)
			execvp(cmd[0], cmd);
		_exit(127);
	}
	close(go[0]);
	{
		struct pmu_open_opts oo = PMU_OPTS_INIT(pmu_open_opts,
			.target = PMU_TARGET_CHILD, .pid = pid);

		if (pmu_session_open(s, &oo, &err))
			fail_msg("%s", err.message);
	}
	assert_int_equal(write(go[1], &c, 1), 1);
	close(go[1]);
	waitpid(pid, &status, 0);
	len = pread(fd, out, sizeof(out) - 1, 0);
	out[len > 0 ? len : 0] = '\0';
	close(fd);
	unlink(log);
	free(cmd);
	pmu_session_free(s);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fail_msg("the emu row failed under the emulator:\n%s", out);
}

int main(int argc, char **argv)
{
	struct CMUnitTest tests[sizeof(drivers) / sizeof(drivers[0]) + 3];
	size_t n = 0;

	if (argc > 1 && !strcmp(argv[1], "--emu-row")) {
		const struct CMUnitTest row[] = { {
			.name = "emu", .test_func = test_cases,
			.initial_state = (void *)&emu_row } };

		return _cmocka_run_group_tests("session-drivers-emu", row, 1,
					       NULL, NULL);
	}

	for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++)
		tests[n++] = (struct CMUnitTest){
			.name = drivers[i].name, .test_func = test_cases,
			.initial_state = (void *)&drivers[i],
		};
	tests[n++] = (struct CMUnitTest){ .name = "test_sim_placement",
					  .test_func = test_sim_placement };
	tests[n++] = (struct CMUnitTest){ .name = "test_bad_driver",
					  .test_func = test_bad_driver };
	tests[n++] = (struct CMUnitTest){ .name = "emu",
					  .test_func = test_emu_row };
	return _cmocka_run_group_tests("session-drivers", tests, n, NULL,
				       NULL);
}
