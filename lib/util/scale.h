/* SPDX-License-Identifier: MIT */
#ifndef PMU_UTIL_SCALE_H
#define PMU_UTIL_SCALE_H

#include <stdint.h>

/* raw * enabled / running in 128 bits, saturating; 0 when running is 0,
 * raw when running >= enabled (pmu_scale). */
uint64_t pmu__scale(uint64_t raw, uint64_t enabled, uint64_t running);

/* One standard error of raw * enabled / running: the time the event did
 * not count times the standard error of the mean of its n per-run rates
 * (their sum and sum of squares); 0 below two runs. */
uint64_t pmu__scale_err(double sum, double sumsq, uint64_t n,
			uint64_t enabled, uint64_t running);

#endif
