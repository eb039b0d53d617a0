/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdint.h>

#include "util/scale.h"

/*
 * Multiplexed counts are extrapolated to the whole enabled time.  The
 * product can need 128 bits, so compute it exactly there instead of in
 * floating point (which loses the low bits of large counts).
 */
uint64_t pmu__scale(uint64_t raw, uint64_t enabled, uint64_t running)
{
	unsigned __int128 v;

	if (running == 0)
		return 0;
	if (running >= enabled)
		return raw;
	v = (unsigned __int128)raw * enabled / running;
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

uint64_t pmu__scale_err(double sum, double sumsq, uint64_t n,
			uint64_t enabled, uint64_t running)
{
	double mean, var;

	if (n < 2 || running >= enabled)
		return 0;
	mean = sum / (double)n;
	var = (sumsq - sum * mean) / (double)(n - 1);
	if (!(var > 0))
		return 0;
	return (uint64_t)llround(sqrt(var / (double)n) *
				 (double)(enabled - running));
}
