/* SPDX-License-Identifier: MIT */
#ifndef PMU_EMU_H
#define PMU_EMU_H

/*
 * Region markers for programs measured with 'pmu stat --emulate': the
 * emulated counters count between PMU_EMU_START() and PMU_EMU_STOP()
 * (with --emulate-regions they count nowhere else).  Outside the
 * emulator each marker is a handful of instructions that do nothing,
 * so the markers may stay in production code.  This header needs no
 * library: include it alone.
 *
 *	#include <pmu/emu.h>
 *	...
 *	PMU_EMU_START();
 *	hot_loop();
 *	PMU_EMU_STOP();
 *
 * pmu_emu_request() is the mechanism: a Valgrind client request (the
 * instruction sequence Valgrind recognises, which the processor runs as
 * no-ops), answered by pmu's emulator; it returns `dflt` when nothing
 * answers.  docs/emulation.md lists the requests.
 */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Request numbers: Valgrind's tool base for the letters 'P', 'M'. */
#define PMU_EMU__REQ(n) ((((uint32_t)'P') << 24 | ((uint32_t)'M') << 16) + (n))

static inline uintptr_t pmu_emu_request(uintptr_t dflt, uintptr_t req,
					uintptr_t a1, uintptr_t a2,
					uintptr_t a3, uintptr_t a4,
					uintptr_t a5)
{
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__)
	volatile uintptr_t args[6] = { req, a1, a2, a3, a4, a5 };
	uintptr_t res = dflt;

	/* %rdi rotated by 3, 13, 61 and 51 bits comes back unchanged: a
	 * no-op for the processor, the request's marker for Valgrind,
	 * which then reads the arguments at %rax and answers in %rdx. */
	__asm__ volatile("rolq $3, %%rdi\n\t"
			 "rolq $13, %%rdi\n\t"
			 "rolq $61, %%rdi\n\t"
			 "rolq $51, %%rdi\n\t"
			 "xchgq %%rbx, %%rbx"
			 : "+d"(res)
			 : "a"(&args[0])
			 : "cc", "memory");
	return res;
#else
	(void)req; (void)a1; (void)a2; (void)a3; (void)a4; (void)a5;
	return dflt;
#endif
}

/* Count from here (resume the counters 'pmu stat --emulate' set up). */
#define PMU_EMU_START() \
	((void)pmu_emu_request(0, PMU_EMU__REQ(1), 0, 0, 0, 0, 0))

/* Stop counting here. */
#define PMU_EMU_STOP() \
	((void)pmu_emu_request(0, PMU_EMU__REQ(2), 0, 0, 0, 0, 0))

/* Non-zero when the program runs under pmu's emulator. */
#define PMU_EMU_RUNNING() \
	(pmu_emu_request(0, PMU_EMU__REQ(3), 0, 0, 0, 0, 0) == 0x45554d50u)

#ifdef __cplusplus
}
#endif
#endif
