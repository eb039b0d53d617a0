/* SPDX-License-Identifier: MIT */
/*
 * Deterministic workloads for the CLI tests.  Steps run in order:
 *   spin pages N | switches N | fork N PAGES | sleep MS | spin MS |
 *        paced N MS | exit CODE | signal SIG ...
 * pages:    mmap N fresh pages and touch each once (>= N page faults)
 * paced:    the same, N pages spread evenly over MS ms of the process's
 *           CPU time (busy between them), in chunks unmapped as it goes
 * switches: N blocking pipe round trips with a child, both pinned to one
 *           CPU so that every round trip switches twice (>= 2N switches)
 * fork:     N children, each touching PAGES fresh pages
 * threads:  N (<= 3) threads named work0.., for MS ms; in every 40 ms
 *           thread k is busy for 10 (k + 1) ms, so that over any stretch
 *           the later threads use more CPU time
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long arg_num(const char *s, const char *step)
{
	char *end;
	long v = s ? strtol(s, &end, 10) : -1;

	if (!s || *end || v < 0) {
		fprintf(stderr, "spin: %s needs a number >= 0\n", step);
		exit(2);
	}
	return v;
}

static void touch_pages(long n)
{
	long psz = sysconf(_SC_PAGESIZE);
	volatile char *p;

	if (n == 0)
		return;
	p = mmap(NULL, (size_t)(n * psz), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("spin: mmap");
		exit(2);
	}
	for (long i = 0; i < n; i++)
		p[i * psz] = 1;
	munmap((void *)p, (size_t)(n * psz));
}

static void ping_pong(long n)
{
	int to[2], from[2];
	char c = 0;
	pid_t pid;
	cpu_set_t one;

	/* On one CPU the reply cannot come without running the child, so
	 * each round trip is at least two switches; on two CPUs a reader
	 * may find its byte already there and not block at all. */
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu() < 0 ? 0 : sched_getcpu(), &one);
	if (sched_setaffinity(0, sizeof(one), &one) < 0) {
		perror("spin: sched_setaffinity");
		exit(2);
	}
	if (pipe(to) < 0 || pipe(from) < 0) {
		perror("spin: pipe");
		exit(2);
	}
	pid = fork();
	if (pid == 0) {
		close(to[1]);
		close(from[0]);
		while (read(to[0], &c, 1) == 1)
			if (write(from[1], &c, 1) != 1)
				_exit(2);
		_exit(0);
	}
	for (long i = 0; i < n; i++)
		if (write(to[1], &c, 1) != 1 || read(from[0], &c, 1) != 1)
			exit(2);
	close(to[1]);
	close(to[0]);
	waitpid(pid, NULL, 0);
	close(from[0]);
	close(from[1]);
}

static void fork_children(long n, long pages)
{
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			touch_pages(pages);
			_exit(0);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
}

static double cpu_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

#define PACED_CHUNK 1024

static void paced_pages(long n, long ms)
{
	long psz = sysconf(_SC_PAGESIZE);
	double t0 = cpu_ms();
	volatile char *p = NULL;

	for (long i = 0; i < n; i++) {
		if (i % PACED_CHUNK == 0) {
			if (p)
				munmap((void *)p, (size_t)(PACED_CHUNK * psz));
			p = mmap(NULL, (size_t)(PACED_CHUNK * psz),
				 PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (p == MAP_FAILED) {
				perror("spin: mmap");
				exit(2);
			}
		}
		p[(i % PACED_CHUNK) * psz] = 1;
		while (cpu_ms() - t0 < (double)ms * (double)(i + 1) / (double)n)
			;
	}
	if (p)
		munmap((void *)p, (size_t)(PACED_CHUNK * psz));
}

/* ns from a to b: whole, so that a difference of nanoseconds that is
 * negative does not round a millisecond away. */
static long long ns_between(const struct timespec *a, const struct timespec *b)
{
	return (long long)(b->tv_sec - a->tv_sec) * 1000000000LL +
	       (b->tv_nsec - a->tv_nsec);
}

static void busy(long ms)
{
	struct timespec a, b;
	volatile unsigned long x = 0;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		for (int i = 0; i < 10000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while (ns_between(&a, &b) < ms * 1000000LL);
}

struct worker {
	pthread_t t;
	long k, ms;
};

static long elapsed_ms(const struct timespec *a)
{
	struct timespec b;

	clock_gettime(CLOCK_MONOTONIC, &b);
	return (long)(ns_between(a, &b) / 1000000);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct timespec start;
	char name[16];

	snprintf(name, sizeof(name), "work%ld", w->k);
	pthread_setname_np(pthread_self(), name);
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (elapsed_ms(&start) < w->ms) {
		busy(10 * (w->k + 1));
		usleep((useconds_t)(40 - 10 * (w->k + 1)) * 1000);
	}
	return NULL;
}

static void threads(long n, long ms)
{
	struct worker w[3];

	if (n > 3)
		n = 3;
	for (long k = 0; k < n; k++) {
		w[k] = (struct worker){ .k = k, .ms = ms };
		if (pthread_create(&w[k].t, NULL, work, &w[k])) {
			fprintf(stderr, "spin: cannot start a thread\n");
			exit(2);
		}
	}
	for (long k = 0; k < n; k++)
		pthread_join(w[k].t, NULL);
}

static int step(char **argv, int i)
{
	const char *s = argv[i];

	if (!strcmp(s, "paced")) {
		paced_pages(arg_num(argv[i + 1], s),
			    arg_num(argv[i + 1] ? argv[i + 2] : NULL, s));
		return 3;
	}
	if (!strcmp(s, "fork")) {
		fork_children(arg_num(argv[i + 1], s),
			      arg_num(argv[i + 1] ? argv[i + 2] : NULL, s));
		return 3;
	}
	if (!strcmp(s, "threads")) {
		threads(arg_num(argv[i + 1], s),
			arg_num(argv[i + 1] ? argv[i + 2] : NULL, s));
		return 3;
	}
	long v = arg_num(argv[i + 1], s);
	if (!strcmp(s, "pages"))
		touch_pages(v);
	else if (!strcmp(s, "switches"))
		ping_pong(v);
	else if (!strcmp(s, "sleep"))
		usleep((useconds_t)v * 1000);
	else if (!strcmp(s, "spin"))
		busy(v);
	else if (!strcmp(s, "exit"))
		exit((int)v);
	else if (!strcmp(s, "signal"))
		raise((int)v);
	else {
		fprintf(stderr, "spin: unknown step '%s'\n", s);
		exit(2);
	}
	return 2;
}

int main(int argc, char **argv)
{
	/* Background jobs of a script start with SIGINT ignored; tests
	 * interrupt spin like a program in the foreground. */
	signal(SIGINT, SIG_DFL);
	for (int i = 1; i < argc;)
		i += step(argv, i);
	return 0;
}
