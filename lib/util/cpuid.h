/* SPDX-License-Identifier: MIT */
#ifndef PMU_UTIL_CPUID_H
#define PMU_UTIL_CPUID_H

/*
 * The host's processor identity as the kernel reports it: the only code
 * that reads /proc/cpuinfo (and, on arm64, MIDR_EL1 in sysfs).  Event
 * model detection, the vendor event-file loader and the host facts all
 * start from it, so they agree on what this machine is.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pmu__cpuid {
	char vendor[32];     /* x86 "vendor_id" ("GenuineIntel"), else "" */
	char name[64];       /* x86 "model name", POWER "cpu", else "" */
	int family;          /* x86 "cpu family"; -1 when not given */
	int model;           /* x86 "model"; -1 when not given */
	int stepping;        /* x86 "stepping"; -1 when not given */
	uint64_t midr;       /* arm64 MIDR_EL1; 0 when not known */
	uint32_t pvr;        /* POWER processor version register; 0 when
				not known */
	bool hypervisor;     /* x86: "hypervisor" among the CPU flags */
	char arch[8];        /* "x86", "arm64", "powerpc", "s390", "riscv"
				as far as the files tell; "" otherwise */
	char perf_id[128];   /* the identifier perf matches the kernel's
				event mapfiles against: x86
				"GenuineIntel-6-A7-1", arm64 MIDR
				"0x00000000410fd0c1", POWER PVR
				"0x004e1202", s390 "IBM,3931,A01,3.7,002f",
				RISC-V "0x489-0x8000000000000007-0x0"; ""
				when not known */
};

/*
 * Identity from /proc/cpuinfo text (tests feed fixtures; the fields of
 * the first processor count).  Returns 0, or -ENOENT when the text names
 * no vendor, MIDR or PVR; *id is filled with what was found either way.
 */
int pmu__cpuid_parse(const char *text, struct pmu__cpuid *id);

/*
 * Read the identity from the files under `root` (a fake tree in tests;
 * NULL means "/"): proc/cpuinfo, and sys/devices/system/cpu/cpu0/regs/
 * identification/midr_el1 which the kernel exports on arm64.  Returns as
 * pmu__cpuid_parse(), or a negative errno when cpuinfo cannot be read.
 */
int pmu__cpuid_read_at(const char *root, struct pmu__cpuid *id);

/* This host's identity, read on first use (thread-safe); never NULL.
 * Unreadable files leave the fields "not known". */
const struct pmu__cpuid *pmu__cpuid_host(void);

/*
 * The CPUID string of x86 identities in the form of the kernel's event
 * mapfiles, "Vendor-Family-Model" (family decimal, model upper-case
 * hex, e.g. "GenuineIntel-6-8F").  Returns 0, or -ENOENT when vendor,
 * family or model is not known.
 */
int pmu__cpuid_string(const struct pmu__cpuid *id, char *buf, size_t sz);

#endif
