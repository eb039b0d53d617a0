/* SPDX-License-Identifier: MIT */
#ifndef PMU_BENCH_H
#define PMU_BENCH_H

/*
 * Helpers shared by the benchmarks.  Every benchmark measures pmu and its
 * peer in the same process run, interleaved, and compares medians: these
 * machines are noisy and absolute times are not comparable across runs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of v[0..n); sorts v in place. */
static inline double bench_median(double *v, size_t n)
{
	if (!n)
		return 0.0;
	qsort(v, n, sizeof(*v), bench_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/*
 * One row of the results table, in markdown so bench/run.sh can paste the
 * rows of every benchmark under one header.  `goal` <= 0 means none.
 */
static inline void bench_row(const char *what, const char *unit, double pmu,
			     const char *peer, double peer_val, double goal)
{
	double ratio = peer_val > 0 ? pmu / peer_val : 0.0;
	const char *verdict = goal <= 0 ? "-" : ratio <= goal ? "yes" : "no";
	char goal_txt[32] = "-";

	if (goal > 0)
		snprintf(goal_txt, sizeof(goal_txt), "<= %.2f", goal);
	printf("| %s | %.1f %s | %s %.1f %s | %.3f | %s | %s |\n", what, pmu,
	       unit, peer, peer_val, unit, ratio, goal_txt, verdict);
}

/* A row for a peer that could not be measured on this machine. */
static inline void bench_row_na(const char *what, const char *unit,
				double pmu, const char *peer, const char *why)
{
	printf("| %s | %.1f %s | %s: n/a (%s) | - | - | - |\n", what, pmu,
	       unit, peer, why);
}

#endif
