/* SPDX-License-Identifier: MIT */
#include <string.h>
#include <sys/utsname.h>

#include "profile/regs.h"

/* x86-64: ax bx cx dx si di bp sp ip flags cs ss (0-11) and r8-r15
 * (16-23): ds, es, fs and gs are left out, as perf leaves them. */
#define X86_64_DWARF UINT64_C(0xff0fff)
/* arm64: x0-x28, x29 (fp), lr (30), sp (31), pc (32). */
#define ARM64_DWARF ((UINT64_C(1) << 33) - 1)
#define ARM64_LR 30

enum pmu__regs_arch pmu__regs_arch(const char *machine)
{
	struct utsname u;

	if (!machine) {
		if (uname(&u))
			return PMU__REGS_NONE;
		machine = u.machine;
	}
	if (!strcmp(machine, "x86_64"))
		return PMU__REGS_X86_64;
	if (!strcmp(machine, "aarch64") || !strcmp(machine, "arm64"))
		return PMU__REGS_ARM64;
	return PMU__REGS_NONE;
}

uint64_t pmu__regs_dwarf_mask(enum pmu__regs_arch a)
{
	return a == PMU__REGS_X86_64 ? X86_64_DWARF
	     : a == PMU__REGS_ARM64 ? ARM64_DWARF : 0;
}

uint64_t pmu__regs_fp_mask(enum pmu__regs_arch a)
{
	return a == PMU__REGS_ARM64 ? UINT64_C(1) << ARM64_LR : 0;
}

int pmu__regs_sp(enum pmu__regs_arch a)
{
	return a == PMU__REGS_X86_64 ? 7 : a == PMU__REGS_ARM64 ? 31 : -1;
}

int pmu__regs_pc(enum pmu__regs_arch a)
{
	return a == PMU__REGS_X86_64 ? 8 : a == PMU__REGS_ARM64 ? 32 : -1;
}

int pmu__regs_lr(enum pmu__regs_arch a)
{
	return a == PMU__REGS_ARM64 ? ARM64_LR : -1;
}
