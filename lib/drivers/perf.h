/* SPDX-License-Identifier: MIT */
#ifndef PMU_DRIVERS_PERF_H
#define PMU_DRIVERS_PERF_H

/*
 * The perf driver: events on Linux perf_event_open(2), one descriptor
 * per event and CPU or thread, groups read with PERF_FORMAT_GROUP or,
 * for the calling thread, through the mmap page and rdpmc.
 */

#include "drivers/driver.h"
#include "drivers/perf_sys.h"

/* A perf driver whose system calls go through `sys` (NULL: the real
 * kernel); sys must outlive it.  NULL and errno on failure. */
struct pmu__drv *pmu__perf_driver_new(const struct pmu__perf_sys *sys);

/*
 * Where events are opened: pid[i]/cpu[i] are perf_event_open's pid/cpu;
 * owner[i] is the pid or tid the caller listed that unit came from.
 */
struct pmu__perf_units {
	pid_t *pid;
	int *cpu;
	pid_t *owner;
	size_t n;
};

/*
 * Resolve a target to units: SELF/CHILD one unit, TID each listed thread,
 * PID every thread in PROC/PID/task of every listed process (`proc` NULL
 * = "/proc"), CPUS every listed (or online) CPU.  A thread listed twice
 * is one unit.  Errors name the bad PID or CPU list token in *err.
 */
int pmu__perf_units_get(const struct pmu__target *t, const char *proc,
			struct pmu__perf_units *u, struct pmu_error *err);
void pmu__perf_units_free(struct pmu__perf_units *u);

/* The driver's operations, for the registry (driver.c). */
extern const struct pmu__driver_ops pmu__perf_ops;

#endif
