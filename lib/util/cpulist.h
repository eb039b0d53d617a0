/* SPDX-License-Identifier: MIT */
#ifndef PMU_UTIL_CPULIST_H
#define PMU_UTIL_CPULIST_H

#include <stdbool.h>
#include <stddef.h>

#include <pmu/error.h>

/* Highest CPU number accepted in a list (keeps "0-99999999" from
 * allocating a huge array). */
#define PMU__CPU_MAX 65535

/* A sorted list of distinct CPU numbers. */
struct pmu__cpulist {
	int *cpu;
	size_t n;
};

/*
 * Parse "0-3,5,7-8" (the kernel's cpulist format).  Errors are -EINVAL
 * with kind PMU_ERR_USAGE, err->token = the bad element and err->offset its
 * byte offset.  On success *out owns a new array (free with
 * pmu__cpulist_free).
 */
int pmu__cpulist_parse(const char *str, struct pmu__cpulist *out,
		       struct pmu_error *err);

/* Read a cpulist file such as /sys/devices/system/cpu/online. */
int pmu__cpulist_read(const char *path, struct pmu__cpulist *out);

/* The CPUs online now. */
int pmu__cpulist_online(struct pmu__cpulist *out);

bool pmu__cpulist_has(const struct pmu__cpulist *l, int cpu);

/*
 * Check that every CPU of `want` is in `online`; otherwise -EINVAL with
 * kind PMU_ERR_NO_TARGET naming the first missing CPU.
 */
int pmu__cpulist_check(const struct pmu__cpulist *want,
		       const struct pmu__cpulist *online,
		       struct pmu_error *err);

void pmu__cpulist_free(struct pmu__cpulist *l);

#endif
