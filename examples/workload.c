/* SPDX-License-Identifier: MIT */
/*
 * A small deterministic workload for trying out `pmu stat`: it faults in
 * fresh memory, forces context switches with a pipe ping-pong between two
 * processes and runs an integer checksum loop.  Each phase is sized by an
 * option so the expected counts follow from the command line:
 *
 *	workload [--pages N] [--switches N] [--loops N] [--verbose]
 *
 * --pages N      touch N fresh pages (at least N page faults)
 * --switches N   N pipe round trips with a child (at least 2N switches)
 * --loops N      N iterations of the checksum loop
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

struct workload_opts {
	unsigned long pages;
	unsigned long switches;
	unsigned long loops;
	int verbose;
};

static int parse_count(const char *opt, const char *arg, unsigned long *out)
{
	char *end;

	if (!arg) {
		fprintf(stderr, "workload: %s needs a value\n", opt);
		return -1;
	}
	errno = 0;
	*out = strtoul(arg, &end, 0);
	if (errno || end == arg || *end || arg[0] == '-') {
		fprintf(stderr, "workload: %s: '%s' is not a count\n", opt, arg);
		return -1;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct workload_opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		unsigned long *dst = NULL;

		if (!strcmp(a, "--pages"))
			dst = &o->pages;
		else if (!strcmp(a, "--switches"))
			dst = &o->switches;
		else if (!strcmp(a, "--loops"))
			dst = &o->loops;
		else if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
			o->verbose = 1;
			continue;
		} else {
			fprintf(stderr, "usage: workload [--pages N] "
				"[--switches N] [--loops N] [--verbose]\n");
			return -1;
		}
		if (parse_count(a, v, dst))
			return -1;
		i++;
	}
	return 0;
}

/* Fresh anonymous memory faults once per page on first write. */
static int touch_pages(unsigned long pages, uint64_t *sum)
{
	long psz = sysconf(_SC_PAGESIZE);
	size_t len = pages * (size_t)psz;
	unsigned char *p;

	if (!pages)
		return 0;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("workload: mmap");
		return -1;
	}
	for (size_t off = 0; off < len; off += (size_t)psz)
		p[off] = (unsigned char)(off / (size_t)psz);
	for (size_t off = 0; off < len; off += (size_t)psz)
		*sum += p[off];
	munmap(p, len);
	return 0;
}

static void echo_child(int rfd, int wfd)
{
	char c;

	while (read(rfd, &c, 1) == 1)
		if (write(wfd, &c, 1) != 1)
			break;
	_exit(0);
}

/* Each round trip blocks both sides once, so each costs two switches. */
static int ping_pong(unsigned long rounds)
{
	int to_child[2], to_parent[2];
	pid_t pid;
	int rc = 0;

	if (!rounds)
		return 0;
	if (pipe(to_child) || pipe(to_parent)) {
		perror("workload: pipe");
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		perror("workload: fork");
		return -1;
	}
	if (pid == 0) {
		close(to_child[1]);
		close(to_parent[0]);
		echo_child(to_child[0], to_parent[1]);
	}
	close(to_child[0]);
	close(to_parent[1]);
	for (unsigned long i = 0; i < rounds && !rc; i++) {
		char c = (char)i;

		if (write(to_child[1], &c, 1) != 1 ||
		    read(to_parent[0], &c, 1) != 1)
			rc = -1;
	}
	close(to_child[1]);
	close(to_parent[0]);
	waitpid(pid, NULL, 0);
	if (rc)
		fprintf(stderr, "workload: pipe round trip failed\n");
	return rc;
}

/* An xorshift mix: cheap, branch-free, and impossible to fold at compile
 * time because the seed comes from the command line. */
static uint64_t checksum(unsigned long loops, uint64_t seed)
{
	uint64_t x = seed | 1;

	for (unsigned long i = 0; i < loops; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		x += i;
	}
	return x;
}

int main(int argc, char **argv)
{
	struct workload_opts o = {
		.pages = 2048, .switches = 1000, .loops = 20000000,
	};
	uint64_t sum = 0;
	volatile uint64_t keep; /* the loop's result must not be dropped */

	if (parse_args(argc, argv, &o))
		return 2;
	if (touch_pages(o.pages, &sum) || ping_pong(o.switches))
		return 1;
	sum = checksum(o.loops, sum + o.pages + o.switches);
	keep = sum;
	if (o.verbose)
		printf("workload: pages=%lu switches=%lu loops=%lu "
		       "checksum=%016" PRIx64 "\n",
		       o.pages, o.switches, o.loops, sum);
	(void)keep;
	return 0;
}
