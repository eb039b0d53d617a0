/* SPDX-License-Identifier: MIT */
#ifndef PMU_PROFILE_REGS_H
#define PMU_PROFILE_REGS_H

/*
 * The user registers a sample carries, by the architecture of the
 * machine that recorded it (perf's register numbers of
 * asm/perf_regs.h), and what unwinding needs of them.
 */

#include <stdbool.h>
#include <stdint.h>

enum pmu__regs_arch {
	PMU__REGS_NONE = 0,     /* an architecture unwinding does not know */
	PMU__REGS_X86_64,
	PMU__REGS_ARM64,
};

/* From a machine name as uname(2) and perf.data's arch feature give
 * it ("x86_64", "aarch64"); NULL: this machine's. */
enum pmu__regs_arch pmu__regs_arch(const char *machine);

/* Every general register perf samples for DWARF unwinding; 0 for NONE. */
uint64_t pmu__regs_dwarf_mask(enum pmu__regs_arch a);
/* What a frame-pointer call chain records besides: arm64's link
 * register (the caller of a leaf function lives there); else 0. */
uint64_t pmu__regs_fp_mask(enum pmu__regs_arch a);

/* perf's numbers of the stack pointer, the program counter and (arm64)
 * the link register; -1 where there is none. */
int pmu__regs_sp(enum pmu__regs_arch a);
int pmu__regs_pc(enum pmu__regs_arch a);
int pmu__regs_lr(enum pmu__regs_arch a);

/* The value of perf register r in a sample's registers (mask: which
 * registers it holds, in number order); false when it holds none. */
static inline bool pmu__regs_get(uint64_t mask, const uint64_t *regs, int r,
				 uint64_t *v)
{
	if (r < 0 || r > 63 || !regs || !(mask >> r & 1))
		return false;
	*v = regs[__builtin_popcountll(mask & ((UINT64_C(1) << r) - 1))];
	return true;
}

#endif
