/* SPDX-License-Identifier: MIT */
/*
 * The regions tests' workload: marked regions (<pmu/region.h>) whose
 * page faults the kernel also counts by itself (getrusage), printed as
 * "NAME faults F" for the test to compare with what pmu reports.
 *   regions touch N          region "touch": N fresh pages
 *   regions nest A B         "outer" touches A pages, its "inner" B
 *   regions recurse D P      "rec" D deep, each level P pages
 *   regions open N           "left" is never ended
 *   regions mismatch         end("b") inside "a"; end("none")
 *   regions threads T N      T threads, N regions "t" each (1 page)
 *   regions fork P C         "forked": the parent touches P pages in
 *                            it, the child (forked inside) C
 *   regions names            odd names: tab, newline, '%', UTF-8, long
 *   regions func N           "func" around one call of work(N)
 *   regions buffer           names in one reused buffer: "x" around "y"
 *   regions many N           N regions of distinct names, "m0".."mN-1",
 *                            twice each
 *   regions exec P N         "pre-exec" touches P pages, is flushed and
 *                            left open by an exec of "regions touch N"
 *   regions killed           killed by SIGKILL inside region "k"
 *   regions empty            begin(""), begin(NULL): -EINVAL
 *   regions none             no marker at all
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pmu/region.h>

static long psz;

static long faults(int who)
{
	struct rusage ru;

	getrusage(who, &ru);
	return ru.ru_minflt;
}

static void touch(long n)
{
	volatile char *p;

	if (n <= 0)
		return;
	p = mmap(NULL, (size_t)(n * psz), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		exit(3);
	for (long i = 0; i < n; i++)
		p[i * psz] = 1;
	munmap((void *)p, (size_t)(n * psz));
}

static void check(int rc, const char *what)
{
	if (rc) {
		fprintf(stderr, "regions: %s: %s\n", what, strerror(-rc));
		exit(4);
	}
}

/* The outermost call (top) keeps the faults between its markers. */
static long rec_faults;

static void rec(int d, long p, bool top)
{
	long f0;

	check(pmu_region_begin("rec"), "begin rec");
	f0 = faults(RUSAGE_THREAD);
	touch(p);
	if (d > 1)
		rec(d - 1, p, false);
	if (top)
		rec_faults = faults(RUSAGE_THREAD) - f0;
	check(pmu_region_end("rec"), "end rec");
}

/* What "func" wraps: N iterations, nothing else (cachegrind's
 * --toggle-collect=work counts the same instructions). */
long work(long n);
__attribute__((noinline)) long work(long n)
{
	volatile long s = 0;

	for (long i = 0; i < n; i++)
		s += i;
	return s;
}

static long per_thread;

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
	long sum = 0, f0;

	(void)arg;
	for (long i = 0; i < per_thread; i++) {
		check(pmu_region_begin("t"), "begin t");
		f0 = faults(RUSAGE_THREAD);
		touch(1);
		sum += faults(RUSAGE_THREAD) - f0;
		check(pmu_region_end("t"), "end t");
	}
	pthread_mutex_lock(&out_lock);
	printf("thread %ld faults %ld\n", (long)syscall(SYS_gettid), sum);
	pthread_mutex_unlock(&out_lock);
	return NULL;
}

static long arg(char **argv, int i)
{
	return argv[i] ? strtol(argv[i], NULL, 10) : 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	long f0, f1, f2;

	psz = sysconf(_SC_PAGESIZE);
	/* what the markers' first use costs (the counters' setup) stays
	 * outside the figures compared */
	touch(1);
	if (!strcmp(mode, "touch")) {
		check(pmu_region_begin("touch"), "begin");
		f0 = faults(RUSAGE_THREAD);
		touch(arg(argv, 2));
		f1 = faults(RUSAGE_THREAD);
		check(pmu_region_end("touch"), "end");
		printf("touch faults %ld\n", f1 - f0);
	} else if (!strcmp(mode, "nest")) {
		long f3;

		/* each count taken inside its region's markers, as the
		 * region's own */
		check(pmu_region_begin("outer"), "begin outer");
		f0 = faults(RUSAGE_THREAD);
		touch(arg(argv, 2));
		check(pmu_region_begin("inner"), "begin inner");
		f1 = faults(RUSAGE_THREAD);
		touch(arg(argv, 3));
		f2 = faults(RUSAGE_THREAD);
		check(pmu_region_end("inner"), "end inner");
		f3 = faults(RUSAGE_THREAD);
		check(pmu_region_end("outer"), "end outer");
		printf("outer faults %ld\ninner faults %ld\n", f3 - f0,
		       f2 - f1);
	} else if (!strcmp(mode, "recurse")) {
		rec((int)arg(argv, 2), arg(argv, 3), true);
		printf("rec faults %ld\n", rec_faults);
	} else if (!strcmp(mode, "open")) {
		check(pmu_region_begin("left"), "begin");
		touch(arg(argv, 2));
	} else if (!strcmp(mode, "mismatch")) {
		check(pmu_region_begin("a"), "begin a");
		printf("end b: %d\n", pmu_region_end("b"));
		check(pmu_region_end("a"), "end a");
		printf("end none: %d\n", pmu_region_end("none"));
	} else if (!strcmp(mode, "threads")) {
		long t = arg(argv, 2);
		pthread_t *th = calloc((size_t)t, sizeof(*th));

		per_thread = arg(argv, 3);
		for (long i = 0; i < t; i++)
			if (pthread_create(&th[i], NULL, worker, NULL))
				return 5;
		for (long i = 0; i < t; i++)
			pthread_join(th[i], NULL);
		free(th);
	} else if (!strcmp(mode, "fork")) {
		pid_t pid;
		int st;

		check(pmu_region_begin("forked"), "begin");
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			touch(arg(argv, 3));
			check(pmu_region_end("forked"), "child end");
			exit(0);
		}
		touch(arg(argv, 2));
		waitpid(pid, &st, 0);
		check(pmu_region_end("forked"), "end");
		printf("child %d status %d\n", (int)pid, st);
	} else if (!strcmp(mode, "names")) {
		static const char *const names[] = {
			"tab\there", "new\nline", "100%", "caf\xc3\xa9",
			"a,b;c \"quoted\"", "bad\xff",
		};
		char longname[300];

		memset(longname, 'x', sizeof(longname) - 1);
		longname[sizeof(longname) - 1] = 0;
		for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
			check(pmu_region_begin(names[i]), names[i]);
			check(pmu_region_end(names[i]), names[i]);
		}
		check(pmu_region_begin(longname), "long");
		check(pmu_region_end(longname), "long");
	} else if (!strcmp(mode, "func")) {
		check(pmu_region_begin("func"), "begin");
		work(arg(argv, 2));
		check(pmu_region_end("func"), "end");
	} else if (!strcmp(mode, "buffer")) {
		char buf[8];

		snprintf(buf, sizeof(buf), "x");
		check(pmu_region_begin(buf), "begin x");
		snprintf(buf, sizeof(buf), "y");
		check(pmu_region_begin(buf), "begin y");
		check(pmu_region_end(buf), "end y");
		snprintf(buf, sizeof(buf), "x");
		check(pmu_region_end(buf), "end x");
	} else if (!strcmp(mode, "many")) {
		char buf[32];

		for (int round = 0; round < 2; round++)
			for (long i = 0; i < arg(argv, 2); i++) {
				snprintf(buf, sizeof(buf), "m%ld", i);
				check(pmu_region_begin(buf), "begin m");
				check(pmu_region_end(buf), "end m");
			}
	} else if (!strcmp(mode, "exec")) {
		check(pmu_region_begin("pre-exec"), "begin");
		touch(arg(argv, 2));
		check(pmu_region_flush(), "flush");
		execl("/proc/self/exe", argv[0], "touch", argv[3] ? argv[3] : "1",
		      (char *)NULL);
		return 6;
	} else if (!strcmp(mode, "killed")) {
		check(pmu_region_begin("k"), "begin");
		raise(SIGKILL);
	} else if (!strcmp(mode, "empty")) {
		printf("empty %d null %d\n", pmu_region_begin(""),
		       pmu_region_begin(NULL));
	} else if (strcmp(mode, "none")) {
		fprintf(stderr, "regions: unknown mode '%s'\n", mode);
		return 2;
	}
	printf("active %d\n", pmu_region_active());
	return 0;
}
