/* SPDX-License-Identifier: MIT */
/* The part of the test workload that lives in a shared library. */
#include "work.h"

__attribute__((noinline)) void work_enter(void)
{
	__asm__ volatile("");
}

__attribute__((noinline)) uint64_t hot_lib(uint64_t units)
{
	uint64_t acc = 1;

	work_enter();
	for (uint64_t i = 0; i < units; i++)
		WORK_UNIT(acc, i);
	return acc;
}
