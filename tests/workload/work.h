/* SPDX-License-Identifier: MIT */
#ifndef PMU_TEST_WORK_H
#define PMU_TEST_WORK_H

#include <stdint.h>

/* One unit of work: the same instructions wherever it is spun, so time
 * is proportional to the number of units. */
#define WORK_UNIT(acc, i) \
	do { \
		(acc) = (acc) * 6364136223846793005ULL + (i); \
		(acc) ^= (acc) >> 29; \
		__asm__ volatile("" : "+r"(acc)); \
	} while (0)

/* A call, so that hot functions are not leaves and set up their frame
 * pointer (compilers leave it out of leaves). */
void work_enter(void);

/* In the shared library libpmuwork.so. */
uint64_t hot_lib(uint64_t units);

#endif
