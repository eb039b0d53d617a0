/* SPDX-License-Identifier: MIT */
/*
 * A program with known hot spots for the profiling tests:
 *
 *   workload [SCALE] [A B C]
 *
 * spins A:B:C units of the same work (default 60:30:10) in three
 * places: hot_main, which does it in an always-inlined helper
 * (hot_inline); hot_lib, in the shared library libpmuwork.so; and
 * hot_rec, recursive, spinning at depth 5.  Each is called from its own
 * caller (run_main, run_lib, run_rec) so call graphs have known edges.
 * SCALE multiplies the total (default 1: about a second here).
 */
#include <stdio.h>
#include <stdlib.h>

#include "work.h"

#define CHUNK 200000ULL

static inline __attribute__((always_inline)) uint64_t hot_inline(uint64_t n,
								  uint64_t acc)
{
	for (uint64_t i = 0; i < n; i++)
		WORK_UNIT(acc, i);
	return acc;
}

__attribute__((noinline)) uint64_t hot_main(uint64_t units)
{
	work_enter();
	return hot_inline(units, 3);
}

__attribute__((noinline)) uint64_t hot_rec(uint64_t units, int depth)
{
	uint64_t acc = 7;

	work_enter();
	if (depth > 0)
		return hot_rec(units, depth - 1) + 1;
	for (uint64_t i = 0; i < units; i++)
		WORK_UNIT(acc, i);
	return acc;
}

__attribute__((noinline)) uint64_t run_main(uint64_t u) { return hot_main(u); }
__attribute__((noinline)) uint64_t run_lib(uint64_t u) { return hot_lib(u); }
__attribute__((noinline)) uint64_t run_rec(uint64_t u) { return hot_rec(u, 5); }

int main(int argc, char **argv)
{
	double scale = argc > 1 ? atof(argv[1]) : 1.0;
	uint64_t share[3] = { 60, 30, 10 }, sum = 0;

	for (int i = 0; i < 3 && argc > 2 + i; i++)
		share[i] = strtoull(argv[2 + i], NULL, 10);
	/* interleaved in small chunks, so a short sample still sees the
	 * ratio */
	uint64_t rounds = (uint64_t)(scale * 40);

	for (uint64_t r = 0; r < rounds; r++) {
		sum += run_main(share[0] * CHUNK);
		sum += run_lib(share[1] * CHUNK);
		sum += run_rec(share[2] * CHUNK);
	}
	printf("%llu\n", (unsigned long long)(sum & 0xff));
	return 0;
}
