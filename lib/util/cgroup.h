/* SPDX-License-Identifier: MIT */
#ifndef PMU_UTIL_CGROUP_H
#define PMU_UTIL_CGROUP_H

#include <stdbool.h>
#include <stddef.h>

/* The cgroup hierarchy perf_event uses, from a mountinfo file: the v1
 * mount with the perf_event controller, else the cgroup2 mount.
 * 0, or -ENOENT when there is neither. */
int pmu__cgroup_mount_at(const char *mountinfo, char *buf, size_t sz);

/* A cgroup's directory: "name" under that hierarchy ("/" is its root,
 * a leading '/' changes nothing), as perf resolves -G names. */
int pmu__cgroup_path(const char *name, char *buf, size_t sz);

#endif
