/* SPDX-License-Identifier: MIT */
/*
 * Self-monitoring reads on a real PMU: a session on the calling thread
 * reads its counters from user space (rdpmc on x86-64; the PMU's counter
 * registers on arm64, where the kernel allows it with
 * kernel.perf_user_access = 1), with no system call, and the values are
 * those read(2) gives for the same descriptors.  Also what each read
 * costs, in the counted cycles.  Skips, saying why, where the machine
 * has no PMU or forbids user-space reads.
 */
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

#include "hwloop.h"

#include <pmu/pmu.h>

#include "drivers/perf.h"
#include "drivers/perf_priv.h"
#include "session/session.h"

#define N 1000000ul
#define READS 1000

/* The real kernel, with the reads counted. */
static struct pmu__perf_sys sys;
static unsigned long nread, nrdpmc;

static ssize_t count_read(void *ctx, int fd, void *buf, size_t n)
{
	nread++;
	return pmu__perf_sys_default.read(ctx, fd, buf, n);
}

static unsigned long long count_rdpmc(void *ctx, unsigned idx)
{
	nrdpmc++;
	return pmu__perf_sys_default.rdpmc(ctx, idx);
}


static char why_skip[256];
static char restore_access = 0;

/* Whether this machine lets a thread read its counters itself. */
static bool user_reads_allowed(void)
{
	FILE *f;
	char v[8] = "";

#if defined(__aarch64__)
	f = fopen("/proc/sys/kernel/perf_user_access", "r+");
	if (!f) {
		snprintf(why_skip, sizeof(why_skip), "this kernel has no "
			 "kernel.perf_user_access (before 5.17): no user-space "
			 "reads of the PMU");
		return false;
	}
	if (fgets(v, sizeof(v), f) && v[0] == '0') {
		/* as root in the test guest: allow, and restore after */
		rewind(f);
		if (fputs("1\n", f) < 0 || fflush(f)) {
			fclose(f);
			snprintf(why_skip, sizeof(why_skip), "kernel."
				 "perf_user_access is 0 and cannot be set "
				 "here (sysctl kernel.perf_user_access=1)");
			return false;
		}
		restore_access = '0';
	}
	fclose(f);
	return true;
#elif defined(__x86_64__)
	f = fopen("/sys/bus/event_source/devices/cpu/rdpmc", "r");
	if (f && fgets(v, sizeof(v), f) && v[0] == '0') {
		fclose(f);
		snprintf(why_skip, sizeof(why_skip), "rdpmc is disabled "
			 "(/sys/bus/event_source/devices/cpu/rdpmc is 0)");
		return false;
	}
	if (f)
		fclose(f);
	return true;
#else
	snprintf(why_skip, sizeof(why_skip), "user-space reads are "
		 "implemented for x86-64 and arm64");
	return false;
#endif
}

static struct pmu_session *open_self(const char *events, bool no_mmap)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_open_opts o = PMU_OPTS_INIT(pmu_open_opts,
					       .target = PMU_TARGET_SELF,
					       .no_mmap_read = no_mmap);
	struct pmu_session *s;

	s = pmu__session_new_on(pmu__perf_driver_new(&sys), true, &err);
	assert_non_null(s);
	assert_int_equal(pmu_session_add(s, events, &err), 0);
	assert_int_equal(pmu_session_open(s, &o, &err), 0);
	for (size_t i = 0; i < pmu_session_nevents(s); i++)
		if (pmu_session_event_status(s, i, NULL) != PMU_EVENT_OK) {
			print_message("# %s: %s\n", pmu_session_event_name(s, i),
				      pmu_session_event_reason(s, i));
			pmu_session_free(s);
			return NULL;
		}
	return s;
}

static uint64_t read1(struct pmu_session *s, size_t i)
{
	struct pmu_value v[4] = { { .size = sizeof(v[0]) } };

	assert_true(pmu_session_read(s, v, 4) > (ssize_t)i);
	assert_int_equal(v[i].status, PMU_EVENT_OK);
	return v[i].raw;
}

static int setup(void **state)
{
	sys = pmu__perf_sys_default;
	sys.read = count_read;
	sys.rdpmc = count_rdpmc;
	*state = open_self("{instructions:u,cycles:u}", false);
	if (!*state)
		snprintf(why_skip, sizeof(why_skip), "this machine cannot "
			 "count instructions:u and cycles:u (no hardware PMU)");
	return 0;
}

static int teardown(void **state)
{
	pmu_session_free(*state);
	return 0;
}

#define NEED(s) do { if (!(s) || why_skip[0]) { \
	print_message("# skipped: %s\n", why_skip); skip(); } } while (0)

/* The group is read from user space: no read(2), one counter read
 * each event. */
static void test_no_syscall(void **state)
{
	struct pmu_session *s = *state;
	const struct pmu__perf *p;

	NEED(s);
	p = (const struct pmu__perf *)s->drv;
	assert_true(p->grp[0].mmap);
	assert_int_equal(pmu_session_start(s), 0);
	hw_loop(N);
	nread = nrdpmc = 0;
	read1(s, 0);
	assert_int_equal(nread, 0);
	assert_int_equal(nrdpmc, 2);
	assert_int_equal(pmu_session_stop(s), 0);
}

/* A user-space read, a read(2) of the same descriptors, another
 * user-space read: the system call's count lies between the two, and
 * all three count the loop. */
static void test_equals_syscall(void **state)
{
	struct pmu_session *s = *state;
	const struct pmu__perf *p;
	uint64_t b[7], a, c;

	NEED(s);
	p = (const struct pmu__perf *)s->drv;
	assert_int_equal(pmu_session_start(s), 0);
	hw_loop(N);
	a = read1(s, 0);
	/* nr, enabled, running, {value, id} of each member: the leader's
	 * value first */
	assert_int_equal(read(p->fd[0], b, sizeof(b)), (ssize_t)sizeof(b));
	c = read1(s, 0);
	assert_int_equal(pmu_session_stop(s), 0);
	print_message("# user read %llu, read(2) %llu, user read %llu\n",
		      (unsigned long long)a, (unsigned long long)b[3],
		      (unsigned long long)c);
	assert_true(a >= 2 * N);
	assert_true(a <= b[3] && b[3] <= c);
	/* the instructions of one read between them, no more */
	assert_true(c - a < 5000);
}

/* Counting goes on across starts and stops: what a user-space read
 * says after a stop is what read(2) says. */
static void test_after_stop(void **state)
{
	struct pmu_session *s = *state;
	const struct pmu__perf *p;
	uint64_t b[7], a;

	NEED(s);
	p = (const struct pmu__perf *)s->drv;
	assert_int_equal(pmu_session_start(s), 0);
	hw_loop(N);
	assert_int_equal(pmu_session_stop(s), 0);
	a = read1(s, 0);
	assert_int_equal(read(p->fd[0], b, sizeof(b)), (ssize_t)sizeof(b));
	assert_int_equal(a, b[3]);
}

/* The price of a read: cycles (all modes) of READS reads of each kind,
 * counted by a session that reads with read(2). */
static void test_cost(void **state)
{
	struct pmu_session *s = *state, *clk, *sc;
	uint64_t t0, t1, t2;

	NEED(s);
	clk = open_self("cycles", true);
	sc = open_self("{instructions:u,cycles:u}", true);
	assert_non_null(clk);
	assert_non_null(sc);
	assert_int_equal(pmu_session_start(s), 0);
	assert_int_equal(pmu_session_start(sc), 0);
	assert_int_equal(pmu_session_start(clk), 0);
	t0 = read1(clk, 0);
	for (int k = 0; k < READS; k++)
		read1(s, 0);
	t1 = read1(clk, 0);
	for (int k = 0; k < READS; k++)
		read1(sc, 0);
	t2 = read1(clk, 0);
	print_message("# cycles per read: user space %.0f, read(2) %.0f\n",
		      (double)(t1 - t0) / READS, (double)(t2 - t1) / READS);
	assert_true(t1 - t0 < t2 - t1);
	pmu_session_free(clk);
	pmu_session_free(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_no_syscall, setup, teardown),
		cmocka_unit_test_setup_teardown(test_equals_syscall, setup, teardown),
		cmocka_unit_test_setup_teardown(test_after_stop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cost, setup, teardown),
	};
	int r;

	user_reads_allowed();
	r = cmocka_run_group_tests(tests, NULL, NULL);
	if (restore_access) {
		FILE *f = fopen("/proc/sys/kernel/perf_user_access", "w");

		if (f) {
			fputc(restore_access, f);
			fclose(f);
		}
	}
	return r;
}
