/* SPDX-License-Identifier: MIT */
/*
 * A program written for PAPI's high-level API, built against Debian's
 * papi.h and libpapi: under `pmu stat --regions` its regions are pmu's.
 *   papi-hl N    N calls of region "computation", then "io" once
 */
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 5;
	volatile double x = 0;

	for (int i = 0; i < n; i++) {
		if (PAPI_hl_region_begin("computation") != PAPI_OK)
			return 1;
		for (int j = 0; j < 100000; j++)
			x += j;
		if (PAPI_hl_read("computation") != PAPI_OK)
			return 2;
		if (PAPI_hl_region_end("computation") != PAPI_OK)
			return 3;
	}
	if (PAPI_hl_region_begin("io") != PAPI_OK ||
	    PAPI_hl_region_end("io") != PAPI_OK)
		return 4;
	if (PAPI_hl_stop() != PAPI_OK)
		return 5;
	printf("done %d\n", n);
	return 0;
}
