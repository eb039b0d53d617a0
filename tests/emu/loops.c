/* SPDX-License-Identifier: MIT */
/* Workload for the emulator's tests: integer loops over arrays, with
 * loads, stores and read-modify-writes, and a stride that misses in the
 * caches.  Prints a checksum so nothing is optimised away. */
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 16)

static unsigned a[N], b[N];

int main(int argc, char **argv)
{
	unsigned rounds = argc > 1 ? (unsigned)atoi(argv[1]) : 4;
	unsigned long sum = 0;

	for (unsigned i = 0; i < N; i++)
		a[i] = i * 2654435761u;
	for (unsigned r = 0; r < rounds; r++) {
		for (unsigned i = 0; i < N; i++)
			b[i] += a[i] >> (r & 7);
		for (unsigned i = 0; i < N; i += 16)    /* a line apart */
			sum += b[(i * 7) & (N - 1)];
	}
	printf("%lu\n", sum);
	return 0;
}
