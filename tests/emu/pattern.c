/* SPDX-License-Identifier: MIT */
/*
 * Workload: one conditional branch whose direction follows a pattern,
 * between the region markers: "taken" (always), "alternate" (taken,
 * not taken, ...) or "random" (a fixed pseudo-random sequence), N times.
 * In the region the loop runs 5 instructions and 2 conditional branches
 * per iteration (the pattern's and the loop's own).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/emu.h>

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "random";
	long n = argc > 2 ? atol(argv[2]) : 10000, taken = 0;
	unsigned char *dir = malloc((size_t)n);
	unsigned s = 2463534242u;

	if (!dir)
		return 1;
	for (long i = 0; i < n; i++) {
		s ^= s << 13;
		s ^= s >> 17;
		s ^= s << 5;
		dir[i] = !strcmp(mode, "taken") ? 1 :
			 !strcmp(mode, "alternate") ? !(i & 1) : (s >> 7) & 1;
	}
	PMU_EMU_START();
	__asm__ volatile("xor %%ecx, %%ecx\n"
			 "1:\n\t"
			 "cmpb $0, (%[d],%%rcx)\n\t"
			 "je 2f\n\t"
			 "inc %[t]\n"
			 "2:\n\t"
			 "inc %%rcx\n\t"
			 "cmp %%rcx, %[n]\n\t"
			 "jne 1b"
			 : [t] "+r"(taken)
			 : [d] "r"(dir), [n] "r"(n)
			 : "rcx", "cc", "memory");
	PMU_EMU_STOP();
	printf("%ld of %ld\n", taken, n);
	free(dir);
	return 0;
}
