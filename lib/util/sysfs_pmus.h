/* SPDX-License-Identifier: MIT */
#ifndef PMU_UTIL_SYSFS_PMUS_H
#define PMU_UTIL_SYSFS_PMUS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The entries of directory dir that keep accepts (NULL: all; never the
 * hidden ones), in natural order: 0 with *names (free with
 * pmu__strv_free) and *n, 0 with none when dir cannot be read, or
 * -ENOMEM.
 */
int pmu__dir_names(const char *dir,
		   bool (*keep)(const char *name, const void *arg),
		   const void *arg, char ***names, size_t *n);

/*
 * The one reader of the kernel's PMU directory: the names under
 * SYSFS/bus/event_source/devices (sysfs_root NULL: "/sys") that keep
 * accepts (NULL: all), in natural order ("uncore_cha_2" before
 * "uncore_cha_10").  0 with *names (free with pmu__strv_free) and *n,
 * 0 with none when the directory cannot be read, or -ENOMEM.
 */
int pmu__sysfs_pmus(const char *sysfs_root,
		    bool (*keep)(const char *name, const void *arg),
		    const void *arg, char ***names, size_t *n);

/* Is name a CPU's core PMU as the kernel registers it (cpu, cpu_core,
 * cpu_atom, armv8_pmuv3*, armv8_cortex_*, armv7_cortex_*)? */
bool pmu__sysfs_core_pmu(const char *name);

/* Natural order of two strings: digit runs compare by value. */
int pmu__strcmp_natural(const char *x, const char *y);

void pmu__strv_free(char **v, size_t n);

#endif
