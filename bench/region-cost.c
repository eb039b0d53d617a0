/* SPDX-License-Identifier: MIT */
/*
 * What a region's begin/end pair costs: outside pmu (the markers off),
 * and under pmu stat --regions with read(2) (a software event: no
 * user-space read), against what the marker must do at least (two bare
 * read(2) calls of a group of the same events) and against PAPI's
 * high-level markers and LIKWID's, each in the same process, interleaved.
 *
 *   region-cost [-i PAIRS] [-r ROUNDS]
 *
 * The markers' state is per process and fixed at their first call, so
 * each configuration runs in a child of its own (this program again,
 * with -c MODE), which prints the medians it measured.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pmu/region.h>

#include "bench.h"

#ifdef HAVE_PAPI
#include <papi.h>
#endif
#ifdef HAVE_LIKWID
#define LIKWID_PERFMON
#include <likwid-marker.h>
#endif

static long pairs = 100000;
static int rounds = 15;

typedef void (*pair_fn)(void);

static void pmu_pair(void)
{
	pmu_region_begin("r");
	pmu_region_end("r");
}

static int group_fd = -1;
static uint64_t buf[16];

/* The least a marker reads: one group read(2) at each end. */
static void bare_pair(void)
{
	if (read(group_fd, buf, sizeof(buf)) < 0 ||
	    read(group_fd, buf, sizeof(buf)) < 0)
		exit(3);
}

#ifdef HAVE_PAPI
static void papi_pair(void)
{
	PAPI_hl_region_begin("r");
	PAPI_hl_region_end("r");
}
#endif

#ifdef HAVE_LIKWID
static void likwid_pair(void)
{
	likwid_markerStartRegion("r");
	likwid_markerStopRegion("r");
}
#endif

/* The pair's calls straight in the loop (pair_fn's body), so that the
 * time is theirs, not an indirect call's. */
#define LOOP(name, body)						\
	static double name(long n)					\
	{								\
		uint64_t t0 = bench_now_ns();				\
									\
		for (long i = 0; i < n; i++) {				\
			body;						\
			__asm__ volatile("" ::: "memory");		\
		}							\
		return (double)(bench_now_ns() - t0) / (double)n;	\
	}
LOOP(loop_pmu, (pmu_region_begin("r"), pmu_region_end("r")))
LOOP(loop_bare, bare_pair())
#ifdef HAVE_PAPI
LOOP(loop_papi, (PAPI_hl_region_begin("r"), PAPI_hl_region_end("r")))
#endif
#ifdef HAVE_LIKWID
LOOP(loop_likwid, (likwid_markerStartRegion("r"),
		   likwid_markerStopRegion("r")))
#endif

static double time_pairs(pair_fn f, long n)
{
	if (f == pmu_pair)
		return loop_pmu(n);
	if (f == bare_pair)
		return loop_bare(n);
#ifdef HAVE_PAPI
	if (f == papi_pair)
		return loop_papi(n);
#endif
#ifdef HAVE_LIKWID
	if (f == likwid_pair)
		return loop_likwid(n);
#endif
	return 0;
}

/* Medians of a and b over the rounds, interleaved. */
static void measure(pair_fn a, pair_fn b, long n, double *ma, double *mb)
{
	double *va = calloc((size_t)rounds, sizeof(double));
	double *vb = calloc((size_t)rounds, sizeof(double));

	if (!va || !vb)
		exit(3);
	time_pairs(a, n / 10 + 1);   /* warm */
	if (b)
		time_pairs(b, n / 10 + 1);
	for (int r = 0; r < rounds; r++) {
		va[r] = time_pairs(a, n);
		if (b)
			vb[r] = time_pairs(b, n);
	}
	*ma = bench_median(va, (size_t)rounds);
	*mb = b ? bench_median(vb, (size_t)rounds) : 0;
	free(va);
	free(vb);
}

/* task-clock and page-faults in one group on the calling thread. */
static int open_group(void)
{
	struct perf_event_attr a = {
		.size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.read_format = PERF_FORMAT_GROUP |
			       PERF_FORMAT_TOTAL_TIME_ENABLED |
			       PERF_FORMAT_TOTAL_TIME_RUNNING,
	};
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);

	if (fd < 0)
		return -1;
	a.config = PERF_COUNT_SW_PAGE_FAULTS;
	if (syscall(SYS_perf_event_open, &a, 0, -1, fd, 0) < 0)
		return -1;
	return fd;
}

/* In a child: one configuration's figures, "NAME VALUE" lines. */
static int child(const char *mode)
{
	double a, b;

	if (!strcmp(mode, "off")) {
#ifdef HAVE_LIKWID
		measure(pmu_pair, likwid_pair, pairs, &a, &b);
		printf("off %.3f\nlikwid-off %.3f\n", a, b);
#else
		measure(pmu_pair, NULL, pairs, &a, &b);
		printf("off %.3f\n", a);
#endif
		return 0;
	}
	if (!strcmp(mode, "read")) {
		if ((group_fd = open_group()) < 0) {
			printf("read-na perf_event_open: %s\n", strerror(errno));
			return 0;
		}
		measure(pmu_pair, bare_pair, pairs / 10, &a, &b);
		printf("read %.3f\nbare %.3f\n", a, b);
		return 0;
	}
#ifdef HAVE_PAPI
	if (!strcmp(mode, "papi")) {
		measure(pmu_pair, papi_pair, pairs / 100, &a, &b);
		printf("pmu %.3f\npapi %.3f\n", a, b);
		return 0;
	}
#endif
	return 2;
}

struct figures {
	double off, likwid_off, read, bare, pmu, papi;
	char read_na[128];
};

static int run_child(const char *self, const char *mode, char *const env[],
		     struct figures *f)
{
	int p[2], st;
	pid_t pid;
	FILE *in;
	char line[256];

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		char i[32], r[32];

		dup2(p[1], 1);
		close(p[0]);
		snprintf(i, sizeof(i), "%ld", pairs);
		snprintf(r, sizeof(r), "%d", rounds);
		for (size_t k = 0; env[k]; k += 2)
			if (env[k + 1])
				setenv(env[k], env[k + 1], 1);
			else
				unsetenv(env[k]);
		execl(self, self, "-c", mode, "-i", i, "-r", r, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	in = fdopen(p[0], "r");
	while (in && fgets(line, sizeof(line), in)) {
		double v;
		char name[32];

		if (!strncmp(line, "read-na ", 8)) {
			snprintf(f->read_na, sizeof(f->read_na), "%.*s",
				 (int)strcspn(line + 8, "\n"), line + 8);
			continue;
		}
		if (sscanf(line, "%31s %lf", name, &v) != 2)
			continue;
		if (!strcmp(name, "off"))
			f->off = v;
		else if (!strcmp(name, "likwid-off"))
			f->likwid_off = v;
		else if (!strcmp(name, "read"))
			f->read = v;
		else if (!strcmp(name, "bare"))
			f->bare = v;
		else if (!strcmp(name, "pmu"))
			f->pmu = v;
		else if (!strcmp(name, "papi"))
			f->papi = v;
	}
	if (in)
		fclose(in);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -1;
}

int main(int argc, char **argv)
{
	const char *mode = NULL;
	char dir[] = "/tmp/region-cost.XXXXXX";
	struct figures f = { 0 };
	int c;

	while ((c = getopt(argc, argv, "c:i:r:")) != -1) {
		if (c == 'c')
			mode = optarg;
		else if (c == 'i')
			pairs = atol(optarg);
		else if (c == 'r')
			rounds = atoi(optarg);
		else
			return 2;
	}
	if (mode)
		return child(mode);
	if (!mkdtemp(dir))
		return 1;
	{
		char *const off[] = { "PMU_REGIONS", NULL, NULL };
		char *const on[] = { "PMU_REGIONS", dir, "PMU_REGIONS_EVENTS",
				     "task-clock,page-faults", NULL };
		char *const papi[] = { "PMU_REGIONS", dir, "PMU_REGIONS_EVENTS",
				       "task-clock", "PAPI_EVENTS",
				       "perf::TASK-CLOCK",
				       "PAPI_OUTPUT_DIRECTORY", dir, NULL };

		if (run_child(argv[0], "off", off, &f) ||
		    run_child(argv[0], "read", on, &f))
			return 1;
#ifdef HAVE_PAPI
		if (run_child(argv[0], "papi", papi, &f))
			f.papi = -1;
#else
		(void)papi;
#endif
	}
	printf("| region begin/end pair, outside pmu | %.2f ns | goal 2.00 ns | "
	       "%.3f | <= 1.00 | %s |\n", f.off, f.off / 2.0,
	       f.off <= 2.0 ? "yes" : "no");
#ifdef HAVE_LIKWID
	bench_row("region pair outside pmu", "ns", f.off,
		  "LIKWID markers, likwid-perfctr absent", f.likwid_off, 0);
#else
	bench_row_na("region pair outside pmu", "ns", f.off, "LIKWID markers",
		     "likwid-marker.h not installed");
#endif
	if (f.read_na[0])
		bench_row_na("region pair, read(2)", "ns", 0,
			     "two bare group reads", f.read_na);
	else
		bench_row("region pair, read(2), task-clock+page-faults", "ns",
			  f.read, "two bare group reads", f.bare, 1.1);
	bench_row_na("region pair, user-space reads", "ns", 0,
		     "two bare rdpmc reads", "no hardware PMU here");
#ifdef HAVE_PAPI
	if (f.papi > 0)
		bench_row("region pair, task-clock", "ns", f.pmu,
			  "PAPI_hl_region_begin/end, perf::TASK-CLOCK", f.papi,
			  1.0);
	else
		bench_row_na("region pair, task-clock", "ns", f.pmu,
			     "PAPI_hl", "PAPI could not count perf::TASK-CLOCK");
#else
	bench_row_na("region pair, task-clock", "ns", f.pmu, "PAPI_hl",
		     "PAPI not installed");
#endif
	{
		char cmd[64];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd))
			return 1;
	}
	return 0;
}
