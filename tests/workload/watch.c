/* SPDX-License-Identifier: MIT */
/*
 * The breakpoint tests' workload: writes the global `watched` W times,
 * reads it R times and calls watched_fn() C times, nothing else touching
 * either.  Built without PIE so that `nm` gives their addresses.
 *   watch W R C
 */
#include <stdlib.h>

volatile long watched;
volatile long sink;

__attribute__((noinline)) void watched_fn(void)
{
	sink++;
}

int main(int argc, char **argv)
{
	long w = argc > 1 ? atol(argv[1]) : 0, r = argc > 2 ? atol(argv[2]) : 0;
	long c = argc > 3 ? atol(argv[3]) : 0;

	for (long i = 0; i < w; i++)
		watched = i;
	for (long i = 0; i < r; i++)
		sink = watched;
	for (long i = 0; i < c; i++)
		watched_fn();
	return 0;
}
