/* SPDX-License-Identifier: MIT */
#ifndef PMU_UTIL_PROC_H
#define PMU_UTIL_PROC_H

#include <stddef.h>
#include <sys/types.h>

/*
 * The one lister of /proc: the numeric entries of PROC (proc_root NULL:
 * "/proc") when pid is 0 (the processes), else of PROC/PID/task (its
 * threads), in the order /proc lists them, appended to *ids (of *n, room
 * *cap; realloc'd).  0, -ENOENT/-ESRCH when the directory is not there,
 * another negative errno when it cannot be read, -ENOMEM.
 */
int pmu__proc_ids(const char *proc_root, pid_t pid, pid_t **ids, size_t *n,
		  size_t *cap);

#endif
