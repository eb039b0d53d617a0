/* SPDX-License-Identifier: MIT */
/*
 * The C side of the Python binding's read cost: pmu_session_read() of
 * {task-clock,page-faults} on the calling thread, ns per call (median
 * of rounds).  Prints "c NS".
 */
#include <stdio.h>
#include <stdlib.h>

#include <pmu/pmu.h>
#include <pmu/session.h>

#include "bench.h"

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_session *s = pmu_session_new(&err);
	struct pmu_value v[2] = { { .size = sizeof(v[0]) } };
	double t[15];

	if (!s || pmu_session_add(s, "task-clock,page-faults", &err) ||
	    pmu_session_open(s, NULL, &err) || pmu_session_start(s)) {
		fprintf(stderr, "read-cost: %s\n", err.message);
		return 1;
	}
	for (int r = 0; r < 15; r++) {
		uint64_t t0 = bench_now_ns();

		for (long i = 0; i < n; i++)
			if (pmu_session_read(s, v, 2) != 2)
				return 1;
		t[r] = (double)(bench_now_ns() - t0) / (double)n;
	}
	printf("c %.1f\n", bench_median(t, 15));
	pmu_session_free(s);
	return 0;
}
