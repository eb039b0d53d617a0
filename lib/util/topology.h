/* SPDX-License-Identifier: MIT */
#ifndef PMU_UTIL_TOPOLOGY_H
#define PMU_UTIL_TOPOLOGY_H

#include <stdbool.h>

/*
 * The host's CPU topology as perf's metric literals read it (#num_cpus,
 * #num_cpus_online, #num_packages, #num_dies, #num_cores, #smt_on,
 * #has_pmem): counts of distinct package, die and core sibling lists of
 * the online CPUs under sys/devices/system/cpu.  -1 when not known.
 */
struct pmu__topology {
	int present_max;     /* highest present CPU + 1 */
	int online;
	int packages, dies, cores;
	int smt_on;          /* 1 or 0 */
	bool has_pmem;       /* ACPI NFIT table present */
};

/* This host's, read once (thread-safe); never NULL. */
const struct pmu__topology *pmu__topology_host(void);

#endif
