/* SPDX-License-Identifier: MIT */
/*
 * Workload: a loop of exactly KLOOP_K instructions per iteration, N
 * iterations, between the region markers; with a second argument the
 * same loop also runs N times before the region (so that its code was
 * translated, and ran, before counting started).  Prints the address of
 * each of the loop's instructions, one per line, so that a test knows
 * where samples must fall.
 */
#include <stdio.h>
#include <stdlib.h>

#include <pmu/emu.h>

#define KLOOP_K 5

extern const char kloop_i0[], kloop_i1[], kloop_i2[], kloop_i3[], kloop_i4[];

static __attribute__((noinline)) long kloop(long n)
{
	long a = 0, b = 0;

	__asm__ volatile(".globl kloop_i0, kloop_i1, kloop_i2, kloop_i3, "
			 "kloop_i4\n"
			 "kloop_i0: add $1, %[a]\n"
			 "kloop_i1: add %[a], %[b]\n"
			 "kloop_i2: xor $3, %[b]\n"
			 "kloop_i3: dec %[n]\n"
			 "kloop_i4: jnz kloop_i0"
			 : [a] "+r"(a), [b] "+r"(b), [n] "+r"(n)
			 : : "cc");
	return b;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000, b = 0;
	const char *at[KLOOP_K] = { kloop_i0, kloop_i1, kloop_i2, kloop_i3,
				    kloop_i4 };

	for (int i = 0; i < KLOOP_K; i++)
		printf("%p\n", (const void *)at[i]);
	fflush(stdout);
	if (argc > 2)
		b += kloop(n);
	PMU_EMU_START();
	b += kloop(n);
	PMU_EMU_STOP();
	return (int)(b & 1) * 0;
}
