/* SPDX-License-Identifier: MIT */
/*
 * What event sets cost, against their peers measured in the same run:
 *
 *	switch:   one switch between two sets, each one group of four
 *	          software events on the calling thread (the outgoing
 *	          group off, the next one on, the outgoing group read for
 *	          its per-run rates; the sets' pinned clock runs on) against
 *	          one bare ioctl(DISABLE) + ioctl(ENABLE) pair with
 *	          PERF_IOC_FLAG_GROUP on a group of the same four events
 *	overhead: CPU time (user + sys of the tool and everything it
 *	          waited for) of `pmu stat --set A --set B --switch time:10`
 *	          on a CPU-bound command of fixed work, against `perf stat
 *	          -e A,B` on the same command; the kernel does not multiplex
 *	          software events (they need no counter), so perf counts
 *	          them all the time: the peer is the same events unswitched
 *
 *	sets-cost -P PMU [-i ITERATIONS] [-b BLOCK] [-n RUNS] [-w WORK]
 *	sets-cost --work N     (the command measured: N units of fixed work)
 *
 * The switch benchmark calls the library's internal switch routine
 * (pmu__sets_switch, the one the monitor thread runs), so it links
 * libpmu.a and its internal headers.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pmu/pmu.h>

#include "bench.h"

int pmu__sets_switch(struct pmu_session *s);

#define NEV 4
#define GROUP "{task-clock,page-faults,context-switches,cpu-migrations}"

static const uint64_t bare_config[NEV] = {
	PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_PAGE_FAULTS,
	PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_COUNT_SW_CPU_MIGRATIONS,
};

/* ---- the command: fixed work, no system call ---- */

static int work(long n)
{
	volatile uint64_t x = 1;

	for (long i = 0; i < n; i++)
		for (int j = 0; j < 1000000; j++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
	return (int)(x & 0);
}

/* ---- one switch against a bare ioctl pair ---- */

static int open_bare(int *fds)
{
	for (int i = 0; i < NEV; i++) {
		struct perf_event_attr a;

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = bare_config[i];
		a.disabled = i == 0;
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
				PERF_FORMAT_TOTAL_TIME_ENABLED |
				PERF_FORMAT_TOTAL_TIME_RUNNING;
		fds[i] = (int)syscall(SYS_perf_event_open, &a, 0, -1,
				      i ? fds[0] : -1, 0);
		if (fds[i] < 0) {
			perror("sets-cost: perf_event_open");
			return -1;
		}
	}
	return ioctl(fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
}

/* Two sets of the same group, not started: no monitor thread, and no
 * turn ends by itself (an hour's timeout); every switch is the
 * benchmark's, and after the first one exactly one set is enabled, as
 * while counting. */
static struct pmu_session *open_sets(void)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_switch_opts o = { .sz = sizeof(o), .kind = PMU_SWITCH_TIME,
				     .timeout_ns = 3600000000000ull };
	struct pmu_session *s = pmu_session_new(&err);

	if (!s || pmu_session_add(s, GROUP, &err) ||
	    pmu_session_add_set(s, &err) < 0 ||
	    pmu_session_add(s, GROUP, &err) ||
	    pmu_session_set_switch(s, -1, &o, &err) ||
	    pmu_session_open(s, NULL, &err)) {
		fprintf(stderr, "sets-cost: libpmu: %s\n",
			err.message[0] ? err.message : strerror(errno));
		pmu_session_free(s);
		return NULL;
	}
	return s;
}

static int bench_switch(int iterations, int block)
{
	int fds[NEV] = { -1, -1, -1, -1 }, blocks = iterations / block, rc = -1;
	double *sw = calloc((size_t)blocks, sizeof(double));
	double *bare = calloc((size_t)blocks, sizeof(double));
	struct pmu_session *s = open_sets();
	char what[128];

	if (!sw || !bare || !s || open_bare(fds))
		goto out;
	for (int b = -1; b < blocks; b++) { /* block -1 warms up */
		for (int m = 0; m < 2; m++) {
			bool pmu = (m + b) % 2 == 0; /* alternate who goes first */
			uint64_t t0 = bench_now_ns();

			for (int i = 0; i < block; i++) {
				if (pmu && pmu__sets_switch(s))
					goto out;
				if (!pmu && (ioctl(fds[0], PERF_EVENT_IOC_DISABLE,
						   PERF_IOC_FLAG_GROUP) ||
					     ioctl(fds[0], PERF_EVENT_IOC_ENABLE,
						   PERF_IOC_FLAG_GROUP)))
					goto out;
			}
			if (b >= 0)
				(pmu ? sw : bare)[b] =
					(double)(bench_now_ns() - t0) / block;
		}
	}
	snprintf(what, sizeof(what), "switch between two sets of a 4-event "
		 "group, median per switch (%d x %d)", blocks, block);
	bench_row(what, "ns", bench_median(sw, (size_t)blocks),
		  "bare DISABLE+ENABLE ioctl pair",
		  bench_median(bare, (size_t)blocks), 2.0);
	rc = 0;
out:
	if (rc)
		fprintf(stderr, "sets-cost: the switch benchmark failed\n");
	pmu_session_free(s);
	for (int i = NEV - 1; i >= 0; i--)
		if (fds[i] >= 0)
			close(fds[i]);
	free(sw);
	free(bare);
	return rc;
}

/* ---- CPU time of a tool counting the command ---- */

/* user + sys seconds of argv and what it waited for; -1 on failure. */
static double cpu_of(char **argv)
{
	struct rusage ru;
	int status, null;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR)
			return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "sets-cost: '%s' failed (status %d)\n", argv[0],
			status);
		return -1;
	}
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

static int bench_overhead(const char *pmu, const char *self, int runs,
			  long units)
{
	char n[24], *sets[] = { (char *)pmu, "stat", "--set",
		"task-clock,page-faults", "--set",
		"context-switches,minor-faults", "--switch", "time:10", "--",
		(char *)self, "--work", n, NULL };
	char *one[] = { (char *)pmu, "stat", "-e",
		"task-clock,page-faults,context-switches,minor-faults", "--",
		(char *)self, "--work", n, NULL };
	char *perf[] = { "perf", "stat", "-e",
		"task-clock,page-faults,context-switches,minor-faults", "--",
		(char *)self, "--work", n, NULL };
	double *a = calloc((size_t)runs, sizeof(double));
	double *b = calloc((size_t)runs, sizeof(double));
	double *c = calloc((size_t)runs, sizeof(double));
	char what[160];
	int rc = -1;

	snprintf(n, sizeof(n), "%ld", units);
	for (int r = -1; r < runs && a && b && c; r++) { /* -1: warm-up */
		double x = cpu_of(sets), y = cpu_of(perf), z = cpu_of(one);

		if (x < 0 || y < 0 || z < 0)
			goto out;
		if (r >= 0) {
			a[r] = x * 1e3;
			b[r] = y * 1e3;
			c[r] = z * 1e3;
		}
	}
	snprintf(what, sizeof(what), "CPU time, 2 sets switched every 10 ms "
		 "on a CPU-bound command (%ld units), median of %d", units,
		 runs);
	bench_row(what, "ms", bench_median(a, (size_t)runs),
		  "perf stat, same events", bench_median(b, (size_t)runs), 1.01);
	/* not a goal: what switching adds to pmu stat itself */
	snprintf(what, sizeof(what), "CPU time of the switching: pmu stat "
		 "with 2 sets against the same events in one");
	bench_row(what, "ms", bench_median(a, (size_t)runs),
		  "pmu stat, one set", bench_median(c, (size_t)runs), 0);
	rc = 0;
out:
	free(a);
	free(b);
	free(c);
	return rc;
}

int main(int argc, char **argv)
{
	int iterations = 20000, block = 500, runs = 7, opt;
	long units = 300;
	const char *pmu = NULL;
	char self[4096];
	ssize_t self_len;

	if (argc == 3 && !strcmp(argv[1], "--work"))
		return work(atol(argv[2]));
	while ((opt = getopt(argc, argv, "P:i:b:n:w:")) != -1) {
		switch (opt) {
		case 'P': pmu = optarg; break;
		case 'i': iterations = atoi(optarg); break;
		case 'b': block = atoi(optarg); break;
		case 'n': runs = atoi(optarg); break;
		case 'w': units = atol(optarg); break;
		default:
			fprintf(stderr, "usage: sets-cost -P PMU [-i ITERATIONS] "
				"[-b BLOCK] [-n RUNS] [-w WORK]\n");
			return 2;
		}
	}
	if (!pmu || block < 1 || iterations < block || runs < 1 || units < 1) {
		fprintf(stderr, "sets-cost: need -P PMU, ITERATIONS >= BLOCK "
			">= 1, RUNS >= 1, WORK >= 1\n");
		return 2;
	}
	self_len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (self_len <= 0) {
		perror("sets-cost: /proc/self/exe");
		return 1;
	}
	self[self_len] = '\0';
	if (bench_switch(iterations, block) ||
	    bench_overhead(pmu, self, runs, units))
		return 1;
	return 0;
}
