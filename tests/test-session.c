/* SPDX-License-Identifier: MIT */
/* The session API on the real kernel (software events work everywhere). */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <pmu/pmu.h>

#include "session/session.h"

static struct perf_event_attr sw(uint64_t config)
{
	return (struct perf_event_attr){ .type = PERF_TYPE_SOFTWARE,
					 .size = sizeof(struct perf_event_attr),
					 .config = config };
}

static struct pmu_session *sw_session(const uint64_t *cfg, size_t n)
{
	struct pmu_session *s = pmu_session_new(NULL);
	static const char *const names[] = {
		[PERF_COUNT_SW_CPU_CLOCK] = "cpu-clock",
		[PERF_COUNT_SW_TASK_CLOCK] = "task-clock",
		[PERF_COUNT_SW_PAGE_FAULTS] = "page-faults",
		[PERF_COUNT_SW_CONTEXT_SWITCHES] = "context-switches",
	};
	size_t i;

	assert_non_null(s);
	for (i = 0; i < n; i++) {
		struct perf_event_attr a = sw(cfg[i]);

		assert_int_equal(pmu__session_add_attr(s, names[cfg[i]], &a,
						       i == 0), 0);
	}
	return s;
}

static void touch_pages(size_t n)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), i;
	volatile char *m = mmap(NULL, n * pg, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(m != MAP_FAILED);
	for (i = 0; i < n; i++)
		m[i * pg] = 1;
	munmap((void *)m, n * pg);
}

static void test_self_page_faults(void **state)
{
	const uint64_t cfg[] = { PERF_COUNT_SW_TASK_CLOCK,
				 PERF_COUNT_SW_PAGE_FAULTS };
	struct pmu_session *s = sw_session(cfg, 2);
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_value v[2] = { { .size = sizeof(struct pmu_value) } };
	const size_t n = 256;
	uint64_t before;

	(void)state;
	assert_int_equal(pmu_session_open(s, NULL, &err), 0);
	assert_int_equal(pmu_session_event_status(s, 0, NULL), PMU_EVENT_OK);
	assert_int_equal(pmu_session_start(s), 0);
	touch_pages(n);
	assert_int_equal(pmu_session_stop(s), 0);
	assert_int_equal(pmu_session_read(s, v, 2), 2);
	assert_true(v[1].raw >= n);
	assert_true(v[0].raw > 0);
	assert_int_equal(v[0].status, PMU_EVENT_OK);
	assert_true(v[0].enabled > 0 && v[0].running == v[0].enabled);
	assert_int_equal(v[1].scaled, v[1].raw);
	/* stopped: nothing more is counted; reset clears */
	before = v[1].raw;
	touch_pages(16);
	assert_int_equal(pmu_session_read(s, v, 2), 2);
	assert_int_equal(v[1].raw, before);
	assert_int_equal(pmu_session_reset(s), 0);
	assert_int_equal(pmu_session_read(s, v, 2), 2);
	assert_int_equal(v[1].raw, 0);
	pmu_session_free(s);
}

static void test_self_context_switches(void **state)
{
	const uint64_t cfg[] = { PERF_COUNT_SW_CONTEXT_SWITCHES };
	struct pmu_session *s = sw_session(cfg, 1);
	struct pmu_value v = { .size = sizeof(v) };
	int i;

	(void)state;
	assert_int_equal(pmu_session_open(s, NULL, NULL), 0);
	assert_int_equal(pmu_session_start(s), 0);
	for (i = 0; i < 20; i++) {
		sched_yield();
		usleep(1000); /* sleeping always switches out */
	}
	assert_int_equal(pmu_session_stop(s), 0);
	assert_int_equal(pmu_session_read(s, &v, 1), 1);
	assert_true(v.raw >= 20);
	pmu_session_free(s);
}

/* cycles without a PMU is NOT_SUPPORTED and does not fail the open. */
static void test_hw_event(void **state)
{
	const uint64_t cfg[] = { PERF_COUNT_SW_TASK_CLOCK };
	struct pmu_session *s = sw_session(cfg, 1);
	struct perf_event_attr c = { .type = PERF_TYPE_HARDWARE,
				     .size = sizeof(c),
				     .config = PERF_COUNT_HW_CPU_CYCLES };
	struct pmu_host_info h = { .size = sizeof(h) };
	struct pmu_value v[2] = { { .size = sizeof(struct pmu_value) } };

	(void)state;
	assert_int_equal(pmu_host_info(&h), 0);
	assert_int_equal(pmu__session_add_attr(s, "cycles", &c, true), 0);
	assert_int_equal(pmu_session_open(s, NULL, NULL), 0);
	assert_int_equal(pmu_session_start(s), 0);
	assert_int_equal(pmu_session_stop(s), 0);
	assert_int_equal(pmu_session_read(s, v, 2), 2);
	assert_int_equal(v[0].status, PMU_EVENT_OK);
	if (h.has_hw_pmu) {
		assert_int_equal(v[1].status, PMU_EVENT_OK);
	} else {
		assert_int_equal(v[1].status, PMU_EVENT_NOT_SUPPORTED);
		assert_true(v[1].err < 0);
		assert_non_null(strstr(pmu_session_event_reason(s, 1),
				       "no hardware PMU"));
	}
	pmu_session_free(s);
}

static pid_t sleeper(void)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		for (;;)
			usleep(1000);
	}
	return pid;
}

static void test_pid_target(void **state)
{
	const uint64_t cfg[] = { PERF_COUNT_SW_TASK_CLOCK,
				 PERF_COUNT_SW_CONTEXT_SWITCHES };
	struct pmu_session *s = sw_session(cfg, 2);
	pid_t pid = sleeper();
	struct pmu_open_opts o = PMU_OPTS_INIT(pmu_open_opts,
					       .target = PMU_TARGET_PID,
					       .pid = pid);
	struct pmu_value v[2] = { { .size = sizeof(struct pmu_value) } };

	(void)state;
	assert_int_equal(pmu_session_open(s, &o, NULL), 0);
	assert_int_equal(pmu_session_start(s), 0);
	usleep(50000);
	assert_int_equal(pmu_session_stop(s), 0);
	assert_int_equal(pmu_session_read(s, v, 2), 2);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	assert_true(v[1].raw >= 1);
	assert_true(v[0].enabled > 0);
	pmu_session_free(s);
}

/* A child that touches `pages` fresh pages once it reads a byte from fd. */
static pid_t held_toucher(int fd, long pages)
{
	pid_t pid = fork();
	long psz = sysconf(_SC_PAGESIZE);
	volatile char *p;
	char c;

	assert_true(pid >= 0);
	if (pid)
		return pid;
	if (read(fd, &c, 1) != 1)
		_exit(99);
	p = mmap(NULL, (size_t)(pages * psz), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		_exit(98);
	for (long i = 0; i < pages; i++)
		p[i * psz] = 1;
	_exit(0);
}

/* Two processes as one target: their page faults add up, which one of
 * them alone (N and a few) cannot reach. */
static void test_pid_list(void **state)
{
	const uint64_t cfg[] = { PERF_COUNT_SW_PAGE_FAULTS };
	const long n = 500;
	struct pmu_session *s = sw_session(cfg, 1);
	struct pmu_open_opts o = PMU_OPTS_INIT(pmu_open_opts,
					       .target = PMU_TARGET_PID);
	pid_t pids[2];
	struct pmu_value v[1] = { { .size = sizeof(struct pmu_value) } };
	int go[2], i;

	(void)state;
	assert_int_equal(pipe(go), 0);
	for (i = 0; i < 2; i++)
		pids[i] = held_toucher(go[0], n);
	close(go[0]);
	o.pids = pids;
	o.npids = 2;
	assert_int_equal(pmu_session_open(s, &o, NULL), 0);
	assert_int_equal(pmu_session_start(s), 0);
	assert_int_equal(write(go[1], "xy", 2), 2);
	close(go[1]);
	for (i = 0; i < 2; i++) {
		int st;

		assert_int_equal(waitpid(pids[i], &st, 0), pids[i]);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	assert_int_equal(pmu_session_stop(s), 0);
	assert_int_equal(pmu_session_read(s, v, 1), 1);
	assert_true(v[0].raw >= 2 * (uint64_t)n);
	pmu_session_free(s);
}

static void test_no_such_pid(void **state)
{
	const uint64_t cfg[] = { PERF_COUNT_SW_TASK_CLOCK };
	struct pmu_session *s = sw_session(cfg, 1);
	struct pmu_error err = { .size = sizeof(err) };
	pid_t pid = fork();
	struct pmu_open_opts o = PMU_OPTS_INIT(pmu_open_opts,
					       .target = PMU_TARGET_PID);

	(void)state;
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0); /* reaped: the pid is free now */
	o.pid = pid;
	assert_int_equal(pmu_session_open(s, &o, &err), -ESRCH);
	assert_int_equal(err.kind, PMU_ERR_NO_TARGET);
	assert_non_null(strstr(err.message, "no such process"));
	o.target = PMU_TARGET_TID;
	assert_int_equal(pmu_session_open(s, &o, &err), -ESRCH);
	assert_non_null(strstr(err.message, "no such thread"));
	pmu_session_free(s);
}

/* A child forked stopped: counting starts at its exec. */
static void test_child_target(void **state)
{
	const uint64_t cfg[] = { PERF_COUNT_SW_TASK_CLOCK,
				 PERF_COUNT_SW_PAGE_FAULTS };
	struct pmu_session *s = sw_session(cfg, 2);
	struct pmu_open_opts o = PMU_OPTS_INIT(pmu_open_opts,
					       .target = PMU_TARGET_CHILD);
	struct pmu_value v[2] = { { .size = sizeof(struct pmu_value) } };
	int go[2], st;
	char c;

	(void)state;
	assert_int_equal(pipe(go), 0);
	o.pid = fork();
	if (o.pid == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(99);
		execl("/bin/true", "true", (char *)NULL);
		_exit(98);
	}
	close(go[0]);
	assert_int_equal(pmu_session_open(s, &o, NULL), 0);
	assert_int_equal(write(go[1], "x", 1), 1);
	close(go[1]);
	assert_int_equal(waitpid(o.pid, &st, 0), o.pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(pmu_session_read(s, v, 2), 2);
	assert_true(v[0].raw > 0);
	assert_true(v[1].raw > 0);
	pmu_session_free(s);
}

static void test_cpus_target(void **state)
{
	const uint64_t cfg[] = { PERF_COUNT_SW_CPU_CLOCK };
	struct pmu_session *s = sw_session(cfg, 1);
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_open_opts o = PMU_OPTS_INIT(pmu_open_opts,
					       .target = PMU_TARGET_CPUS,
					       .cpus = "0-x");
	struct pmu_value v = { .size = sizeof(v) };
	int ret;

	(void)state;
	assert_int_equal(pmu_session_open(s, &o, &err), -EINVAL);
	assert_int_equal(err.kind, PMU_ERR_USAGE);
	assert_string_equal(err.token, "0-x");
	o.cpus = "4095";
	if (sysconf(_SC_NPROCESSORS_CONF) < 4096) {
		assert_int_equal(pmu_session_open(s, &o, &err), -EINVAL);
		assert_int_equal(err.kind, PMU_ERR_NO_TARGET);
		assert_string_equal(err.token, "4095");
	}
	o.cpus = "0";
	ret = pmu_session_open(s, &o, &err);
	if (ret == -EACCES || ret == -EPERM) {
		pmu_session_free(s);
		skip(); /* system-wide counting needs privileges */
	}
	assert_int_equal(ret, 0);
	assert_int_equal(pmu_session_start(s), 0);
	usleep(20000);
	assert_int_equal(pmu_session_stop(s), 0);
	assert_int_equal(pmu_session_read(s, &v, 1), 1);
	assert_true(v.raw > 0 && v.enabled > 0);
	pmu_session_free(s);
}

/* The parsed path: names, groups and units come from the event layer. */
static void test_add_strings(void **state)
{
	struct pmu_session *s = pmu_session_new(NULL);
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_value v[3] = { { .size = sizeof(struct pmu_value) } };
	double scale = 0;

	(void)state;
	assert_int_equal(pmu_session_add(s, "{task-clock,page-faults}", &err), 0);
	assert_int_equal(pmu_session_add(s, "context-switches", &err), 0);
	assert_int_equal(pmu_session_add(s, "task-clock,,", &err), -EINVAL);
	assert_int_equal(pmu_session_nevents(s), 3);
	assert_string_equal(pmu_session_event_name(s, 1), "page-faults");
	assert_int_equal(pmu_session_event_group(s, 0), 0);
	assert_int_equal(pmu_session_event_group(s, 1), 0);
	assert_int_equal(pmu_session_event_group(s, 2), 1);
	assert_string_equal(pmu_session_event_unit(s, 0, &scale), "msec");
	assert_true(scale > 0.9e-6 && scale < 1.1e-6);
	assert_null(pmu_session_event_name(s, 3));
	assert_int_equal(pmu_session_open(s, NULL, &err), 0);
	assert_int_equal(pmu_session_start(s), 0);
	touch_pages(8);
	assert_int_equal(pmu_session_stop(s), 0);
	assert_int_equal(pmu_session_read(s, v, 3), 3);
	assert_true(v[1].raw >= 8);
	pmu_session_free(s);
	pmu_session_free(NULL);
}

/* An event's description: what it counts, as perf_event_attr says. */
static const struct desc_row {
	int line;
	const char *name;
	uint32_t type;
	uint64_t config;
	int group;
	bool leader;
	uint8_t excl_user, excl_kernel;
} desc_rows[] = {
	/* a group's modifier: the members' names stay bare, as perf's */
	{ __LINE__, "instructions", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_INSTRUCTIONS, 0, true, 1, 0 },
	{ __LINE__, "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
	  0, false, 1, 0 },
	{ __LINE__, "page-faults:u", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_PAGE_FAULTS, 1, true, 0, 1 },
	{ __LINE__, "r01c2", PERF_TYPE_RAW, 0x1c2, 2, true, 0, 0 },
};

static void test_event_desc(void **state)
{
	struct pmu_session *s = pmu_session_new(NULL);
	struct pmu_event_desc d = { .size = sizeof(d) };
	size_t n = sizeof(desc_rows) / sizeof(desc_rows[0]);

	(void)state;
	assert_int_equal(pmu_session_add(s, "{instructions,cycles}:k,"
					 "page-faults:u,r01c2", NULL), 0);
	for (size_t i = 0; i < n; i++) {
		const struct desc_row *r = &desc_rows[i];

		memset(&d, 0xa5, sizeof(d));
		d.size = sizeof(d);
		if (pmu_session_event_desc(s, i, &d))
			fail_msg("row at line %d: no description", r->line);
		if (strcmp(d.name, r->name) || !d.has_perf ||
		    d.perf.type != r->type || d.perf.config != r->config ||
		    d.group != r->group || d.leader != r->leader ||
		    d.perf.exclude_user != r->excl_user ||
		    d.perf.exclude_kernel != r->excl_kernel)
			fail_msg("row at line %d: %s type %u config %#llx "
				 "group %d excl u%u k%u", r->line, d.name,
				 d.perf.type, (unsigned long long)d.perf.config,
				 d.group, d.perf.exclude_user,
				 d.perf.exclude_kernel);
	}
	/* past the last event, a size that holds no field */
	assert_int_equal(pmu_session_event_desc(s, n, &d), -EINVAL);
	d.size = sizeof(size_t);
	assert_int_equal(pmu_session_event_desc(s, 0, &d), -EINVAL);
	/* an older, smaller struct is filled up to its size and no further */
	{
		unsigned char buf[sizeof(d) + 8];
		struct pmu_event_desc *small = (void *)buf;
		size_t sz = offsetof(struct pmu_event_desc, group);

		memset(buf, 0x5a, sizeof(buf));
		small->size = sz;
		assert_int_equal(pmu_session_event_desc(s, 0, small), 0);
		assert_string_equal(small->name, "instructions");
		for (size_t k = sz; k < sizeof(buf); k++)
			assert_int_equal(buf[k], 0x5a);
	}
	assert_int_equal(pmu_session_event_desc(NULL, 0, &d), -EINVAL);
	pmu_session_free(s);
}

static void *thread_main(void *arg)
{
	const uint64_t cfg[] = { PERF_COUNT_SW_PAGE_FAULTS };
	struct pmu_session *s = sw_session(cfg, 1);
	struct pmu_value v = { .size = sizeof(v) };
	int i;

	for (i = 0; i < 20; i++) {
		assert_int_equal(pmu_session_open(s, NULL, NULL), i ? -EBUSY : 0);
		assert_int_equal(pmu_session_start(s), 0);
		touch_pages(4);
		assert_int_equal(pmu_session_stop(s), 0);
		assert_int_equal(pmu_session_read(s, &v, 1), 1);
	}
	*(uint64_t *)arg = v.raw;
	pmu_session_free(s);
	return NULL;
}

/* Sessions in different threads are independent. */
static void test_threads(void **state)
{
	pthread_t t[4];
	uint64_t got[4];
	int i;

	(void)state;
	for (i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&t[i], NULL, thread_main,
						&got[i]), 0);
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		assert_true(got[i] >= 80);
	}
}

static uint64_t ns_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t thread_user_ns(void)
{
	struct rusage ru;

	assert_int_equal(getrusage(RUSAGE_THREAD, &ru), 0);
	return (uint64_t)ru.ru_utime.tv_sec * 1000000000u +
	       (uint64_t)ru.ru_utime.tv_usec * 1000u;
}

/* Tool events measured by the session: duration_time within the wall
 * time around start..stop, user_time within the thread's own CPU time
 * over open..read, both counted (status OK) on the perf driver. */
static void test_tool_events(void **state)
{
	struct pmu_session *s = pmu_session_new(NULL);
	struct pmu_value v[3] = { { .size = sizeof(struct pmu_value) } };
	uint64_t u0, u1, t0, t1;
	volatile unsigned long x = 0;

	(void)state;
	assert_int_equal(pmu_session_add(s, "duration_time,user_time,"
					 "system_time", NULL), 0);
	u0 = thread_user_ns();
	assert_int_equal(pmu_session_open(s, NULL, NULL), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(pmu_session_event_status(s, (size_t)i, NULL),
				 PMU_EVENT_OK);
	t0 = ns_now();
	assert_int_equal(pmu_session_start(s), 0);
	while (thread_user_ns() - u0 < 20000000u)
		x++;
	assert_int_equal(pmu_session_stop(s), 0);
	t1 = ns_now();
	assert_int_equal(pmu_session_read(s, v, 3), 3);
	u1 = thread_user_ns();
	assert_true(v[0].raw > 0 && v[0].raw <= t1 - t0);
	assert_true(v[0].enabled == v[0].raw && v[0].running == v[0].raw);
	assert_true(v[1].raw >= 10000000u && v[1].raw <= u1 - u0);
	assert_int_equal(v[1].status, PMU_EVENT_OK);
	/* stopped: the clock stands still */
	assert_int_equal(pmu_session_read(s, v, 1), 1);
	assert_int_equal(v[0].raw, v[0].enabled);
	{
		uint64_t d = v[0].raw;

		assert_int_equal(pmu_session_read(s, v, 1), 1);
		assert_int_equal(v[0].raw, d);
	}
	assert_int_equal(pmu_session_reset(s), 0);
	assert_int_equal(pmu_session_read(s, v, 1), 1);
	assert_int_equal(v[0].raw, 0);
	assert_int_equal(v[0].status, PMU_EVENT_NOT_COUNTED);
	pmu_session_free(s);
}

/* A cgroup the library cannot look up for want of a file descriptor is
 * reported as that (EMFILE, a system error), never as a cgroup that is
 * not there: pmu serve drops "not there" cgroups without a word. */
static void test_cgroup_out_of_fds(void **state)
{
	const uint64_t cfg[] = { PERF_COUNT_SW_TASK_CLOCK };
	struct pmu_session *s = sw_session(cfg, 1);
	struct pmu_error err = { .size = sizeof(err) };
	struct rlimit old, low;
	int lowest = dup(0), r;

	(void)state;
	assert_true(lowest >= 0);
	close(lowest);
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	low = old;
	low.rlim_cur = (rlim_t)lowest; /* no descriptor left */
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	r = pmu_session_set_cgroup(s, 0, "/", &err);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	assert_int_equal(r, -EMFILE);
	assert_int_equal(err.code, -EMFILE);
	assert_int_equal(err.kind, PMU_ERR_SYSTEM);
	assert_non_null(strstr(err.message, "mountinfo"));
	/* with descriptors back it looks the cgroup up again */
	r = pmu_session_set_cgroup(s, 0, "/", &err);
	assert_true(r == 0 || r == -ENOENT);
	pmu_session_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_self_page_faults),
		cmocka_unit_test(test_self_context_switches),
		cmocka_unit_test(test_hw_event),
		cmocka_unit_test(test_pid_target),
		cmocka_unit_test(test_pid_list),
		cmocka_unit_test(test_no_such_pid),
		cmocka_unit_test(test_child_target),
		cmocka_unit_test(test_cpus_target),
		cmocka_unit_test(test_add_strings),
		cmocka_unit_test(test_event_desc),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_tool_events),
		cmocka_unit_test(test_cgroup_out_of_fds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
