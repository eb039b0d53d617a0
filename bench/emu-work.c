/* SPDX-License-Identifier: MIT */
/*
 * The CPU-bound program the emulator's benchmarks run (natively, under
 * pmu stat --emulate, under cachegrind and under valgrind --tool=none):
 * three rounds of filling a million integers from a linear congruential
 * generator, sorting them with qsort (a comparison through a function
 * pointer for each step) and hashing the result.
 *
 *	emu-work [N]     (default 1000000)
 */
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000000;
	int *v = malloc((size_t)(n > 0 ? n : 1) * sizeof(*v));
	unsigned s = 1;
	unsigned long h = 0;

	if (!v || n <= 0)
		return 1;
	for (int r = 0; r < 3; r++) {
		for (int i = 0; i < n; i++) {
			s = s * 1103515245u + 12345u;
			v[i] = (int)(s >> 4);
		}
		qsort(v, (size_t)n, sizeof(*v), cmp);
		for (int i = 0; i < n; i++)
			h = h * 31 + (unsigned)v[i];
	}
	printf("%lu\n", h);
	free(v);
	return 0;
}
