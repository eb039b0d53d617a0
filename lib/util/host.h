/* SPDX-License-Identifier: MIT */
#ifndef PMU_UTIL_HOST_H
#define PMU_UTIL_HOST_H

#include <pmu/host.h>

/*
 * pmu_host_info() reading every file under `root` (a fake tree in tests)
 * instead of "/".  With a root, the facts that do not come from files
 * (cpuid, effective uid) are left out so the result depends on the tree
 * only.
 */
int pmu__host_info_at(const char *root, struct pmu_host_info *info);

/* pmu_cpu_topology() reading under `root` (tests) instead of "/". */
int pmu__cpu_topology_at(const char *root, int cpu, int cache_level,
			 struct pmu_cpu_topology *t);

#endif
