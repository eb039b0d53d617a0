/* SPDX-License-Identifier: MIT */
/*
 * The hardware suite's region workload: region "loop" around the
 * suite's two-instruction loop, so that on a PMU that counts exactly a
 * region's instructions are 2 N + c, c the markers' own share.
 *
 *   hwregion N [T]    the region in T threads (default 1), N loops each
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <pmu/region.h>

#include "hwloop.h"

static unsigned long n;

static void *run(void *arg)
{
	(void)arg;
	if (pmu_region_begin("loop"))
		exit(3);
	hw_loop(n);
	if (pmu_region_end("loop"))
		exit(4);
	return NULL;
}

int main(int argc, char **argv)
{
	int t = argc > 2 ? atoi(argv[2]) : 1;
	pthread_t th[64];

	if (argc < 2 || t < 1 || t > 64)
		return 2;
	n = strtoul(argv[1], NULL, 10);
	for (int i = 0; i < t; i++)
		if (pthread_create(&th[i], NULL, run, NULL))
			return 5;
	for (int i = 0; i < t; i++)
		pthread_join(th[i], NULL);
	printf("active %d\n", pmu_region_active());
	return 0;
}
