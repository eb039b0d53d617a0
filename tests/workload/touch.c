/* SPDX-License-Identifier: MIT */
/*
 * The sampling tests' workload: touch N fresh pages, once each, in
 * touch_pages() (one page fault per page), then print the process's own
 * page faults so far ("faults F"), an upper bound of what any counter
 * started at exec can have counted.  Built without PIE so that sample
 * addresses and `nm` agree without knowing where it was loaded.
 *   touch N
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

__attribute__((noinline)) void touch_pages(volatile char *p, long n,
					   long psz)
{
	for (long i = 0; i < n; i++)
		p[i * psz] = 1;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : -1;
	long psz = sysconf(_SC_PAGESIZE);
	struct rusage ru;
	char *p;

	if (n <= 0) {
		fprintf(stderr, "usage: touch N (pages, >= 1)\n");
		return 2;
	}
	p = mmap(NULL, (size_t)(n * psz), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("touch: mmap");
		return 2;
	}
	/* one fault per page: no transparent huge page for the region */
	madvise(p, (size_t)(n * psz), MADV_NOHUGEPAGE);
	touch_pages(p, n, psz);
	getrusage(RUSAGE_SELF, &ru);
	printf("faults %ld\n", ru.ru_minflt + ru.ru_majflt);
	return 0;
}
