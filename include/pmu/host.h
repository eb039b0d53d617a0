/* SPDX-License-Identifier: MIT */
#ifndef PMU_HOST_H
#define PMU_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <pmu/error.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Facts about the running machine that explain what can be counted. */
struct pmu_host_info {
	size_t size;            /* sizeof(struct pmu_host_info) */
	int paranoid;           /* /proc/sys/kernel/perf_event_paranoid, or
				   PMU_PARANOID_UNKNOWN */
	bool has_hw_pmu;        /* a core PMU is registered with perf */
	bool virtualized;       /* running under a hypervisor */
	bool privileged;        /* root or CAP_PERFMON/CAP_SYS_ADMIN */
	int ncpus_online;
};

#define PMU_PARANOID_UNKNOWN (-100)

/* Fill *info; returns 0 or a negative errno. */
PMU_API int pmu_host_info(struct pmu_host_info *info);

/* The host's processor as the kernel reports it (/proc/cpuinfo, and on
 * arm64 MIDR_EL1): what event-model detection starts from. */
struct pmu_host_cpu {
	size_t size;            /* sizeof(struct pmu_host_cpu) */
	char vendor[32];        /* x86 "GenuineIntel", "AuthenticAMD"; else "" */
	char name[64];          /* model name (x86), cpu (POWER); else "" */
	int family;             /* x86 family, model, stepping; -1 when */
	int model;              /*   not known */
	int stepping;
	uint64_t midr;          /* arm64 MIDR_EL1, 0 when not known */
	uint32_t pvr;           /* POWER PVR, 0 when not known */
};

/* Fill *cpu (read once per process); 0, -EINVAL for an unsized struct,
 * -ENOENT when the kernel names no vendor, MIDR or PVR (*cpu is filled
 * with what is known either way). */
PMU_API int pmu_host_cpu(struct pmu_host_cpu *cpu);

/* Where a CPU sits, as sysfs describes it (what perf stat aggregates
 * --per-socket, --per-die, --per-core, --per-node and --per-cache by). */
struct pmu_cpu_topology {
	size_t size;            /* sizeof(struct pmu_cpu_topology) */
	int cpu;
	int socket;             /* physical package */
	int die;                /* within the package (0 when sysfs has no
				   die_id) */
	int core;               /* core id, within the package and die */
	int node;               /* NUMA node (0 without NUMA) */
	int cache_level;        /* the cache asked for (level, or the highest
				   level), -1 when sysfs lists none */
	int cache_id;           /* its id: CPUs sharing it have the same */
};

/* Fill *t for CPU `cpu`; cache_level 0 picks the CPU's highest cache
 * level.  0, -ENOENT when sysfs has no topology for that CPU, -EINVAL
 * for a negative cpu or an unsized struct. */
PMU_API int pmu_cpu_topology(int cpu, int cache_level,
			     struct pmu_cpu_topology *t);

/*
 * Parse a CPU list in the kernel's format ("0-3,5,7-8", as in
 * /sys/devices/system/cpu/online) into cpus[0..max), in increasing order,
 * each CPU once.  Returns how many CPUs the list names, which may be more
 * than max: only the first max are stored, and cpus NULL with max 0 only
 * counts them.  On error returns a negative errno, and *err (may be NULL)
 * has the offending element in err->token, the byte offset in `list` of
 * the first character that does not fit in err->offset, and in err->kind
 * the fix that applies:
 *   PMU_ERR_SYNTAX     -EINVAL  not a comma list of N and N-M elements, or
 *                               an empty element ("", "1,,2", "1,")
 *   PMU_ERR_BAD_VALUE  -EINVAL  a range without an end ("2-") or whose end
 *                               is below its start ("3-1"; offset: the
 *                               range)
 *   PMU_ERR_NO_TARGET  -ERANGE  a CPU number above 65535 (err->token: the
 *                               number)
 * or -ENOMEM.  Whether the CPUs exist or are online is not checked here.
 */
PMU_API ssize_t pmu_cpulist_parse(const char *list, int *cpus, size_t max,
				  struct pmu_error *err);

/* One PMU the kernel registered (sysfs bus/event_source/devices). */
struct pmu_kernel_pmu {
	size_t size;            /* sizeof(struct pmu_kernel_pmu) */
	char name[64];
	int type;               /* its perf_event_attr.type; -1 when sysfs
				   does not say */
	bool core;              /* a CPU's core PMU (cpu, cpu_core,
				   cpu_atom, armv8_pmuv3...) */
};

/* One event alias a kernel PMU publishes (sysfs .../PMU/events/NAME). */
struct pmu_kernel_alias {
	size_t size;            /* sizeof(struct pmu_kernel_alias) */
	char name[128];
	char terms[256];        /* what it stands for ("event=0x3c"), "" when
				   unreadable */
};

/*
 * The kernel's PMUs, or (pmu_kernel_aliases) the event aliases of PMU
 * pmu, in natural order ("uncore_cha_2" before "uncore_cha_10"): the
 * first max into out, whose elements are out[0].size bytes apart (set
 * it; filled up to that size).  Returns how many there are, which may
 * be more than max (out NULL with max 0 only counts), 0 when sysfs has
 * none, or -EINVAL (an unsized out, a pmu name with '/'), -ENOMEM.
 */
PMU_API ssize_t pmu_kernel_pmus(struct pmu_kernel_pmu *out, size_t max);
PMU_API ssize_t pmu_kernel_aliases(const char *pmu,
				   struct pmu_kernel_alias *out, size_t max);

/*
 * The threads of process pid (/proc/PID/task), or with pid 0 every
 * thread of every process: the first max into tids, in the order /proc
 * lists them.  Returns how many there are (more than max: call again
 * with room; threads come and go between calls), -ESRCH when process
 * pid is not there, -EINVAL, -ENOMEM.
 */
PMU_API ssize_t pmu_host_threads(pid_t pid, pid_t *tids, size_t max);

#ifdef __cplusplus
}
#endif
#endif
