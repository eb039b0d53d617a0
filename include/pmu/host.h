/* SPDX-License-Identifier: MIT */
#ifndef PMU_HOST_H
#define PMU_HOST_H

#include <stdbool.h>

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

#ifdef __cplusplus
}
#endif
#endif
