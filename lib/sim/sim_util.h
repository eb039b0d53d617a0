/* SPDX-License-Identifier: MIT */
#ifndef PMU_SIM_SIM_UTIL_H
#define PMU_SIM_SIM_UTIL_H

/* Freestanding helpers shared by the simulator files. */

#include <stddef.h>
#include <stdint.h>

/*
 * Zero `n` bytes.  The volatile store keeps the compiler from turning the
 * loop back into a memset() call, which freestanding code cannot link.
 */
static inline void pmu__sim_zero(void *p, size_t n)
{
	volatile unsigned char *b = p;

	while (n--)
		*b++ = 0;
}

static inline unsigned pmu__sim_ctz(uint32_t m)
{
	return (unsigned)__builtin_ctz(m);
}

/* Without -mpopcnt __builtin_popcount may call into libgcc. */
static inline unsigned pmu__sim_popcount(uint32_t m)
{
	unsigned n = 0;

	for (; m; m &= m - 1)
		n++;
	return n;
}

#endif
