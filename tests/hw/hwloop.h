/* SPDX-License-Identifier: MIT */
#ifndef PMU_TESTS_HW_HWLOOP_H
#define PMU_TESTS_HW_HWLOOP_H

/* The hardware suite's counted loop: n iterations of two instructions,
 * a decrement that sets the flags and a conditional branch back. */
static inline void hw_loop(unsigned long n)
{
	if (!n)
		return;
#if defined(__aarch64__)
	__asm__ volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
#elif defined(__x86_64__)
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
#else
#error "the hardware suite's loop is written for arm64 and x86-64"
#endif
}

#endif
