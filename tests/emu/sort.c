/* SPDX-License-Identifier: MIT */
/* Workload: libc's qsort (a comparison through a function pointer) and
 * an insertion sort, on pseudo-random numbers. */
#include <stdio.h>
#include <stdlib.h>

#define N 20000

static int cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int v[N], w[2000];

int main(void)
{
	unsigned s = 12345;
	long sum = 0;

	for (int i = 0; i < N; i++) {
		s = s * 1103515245u + 12345u;
		v[i] = (int)(s >> 8);
	}
	qsort(v, N, sizeof(v[0]), cmp);
	for (int i = 0; i < 2000; i++)
		w[i] = v[(i * 7919) % N];
	for (int i = 1; i < 2000; i++) {
		int x = w[i], j = i - 1;

		while (j >= 0 && w[j] > x) {
			w[j + 1] = w[j];
			j--;
		}
		w[j + 1] = x;
	}
	for (int i = 0; i < N; i += 100)
		sum += v[i];
	printf("%ld %d %d\n", sum, w[0], w[1999]);
	return 0;
}
