/* SPDX-License-Identifier: MIT */
#ifndef PMU_DRIVERS_PERF_H
#define PMU_DRIVERS_PERF_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

#include <pmu/session.h>

#include "drivers/perf_sys.h"

/*
 * One event as the perf driver sees it.  The caller fills the first part;
 * pmu__perf_open() fills status, err and reason.  Events of a group are
 * contiguous and share `group`.
 */
struct pmu__perf_ev {
	char *name;
	struct perf_event_attr attr; /* the driver adds read_format, disabled,
					inherit, enable_on_exec */
	int group;
	bool leader;
	bool is_hw;                  /* needs a hardware PMU */
	bool guest_default;          /* attr.exclude_guest was not asked for:
					dropped if the PMU refuses it */
	char unit[16];
	double scale;
	enum pmu_event_status status;
	int err;
	char reason[192];
};

/* Events opened on one target: one fd per event and CPU/thread. */
struct pmu__perf;

/*
 * Open `ev[0..nev)` on the target of `opts` (NULL = this thread).  Events
 * the machine cannot count are marked NOT_SUPPORTED; errors that concern
 * the whole target fail with *err filled and nothing left open.  `ev`
 * must stay valid (and in place) until pmu__perf_close().
 */
int pmu__perf_open(struct pmu__perf **out, const struct pmu__perf_sys *sys,
		   struct pmu__perf_ev *ev, size_t nev,
		   const struct pmu_open_opts *opts, struct pmu_error *err);

/* Close every fd and unmap every page. Accepts NULL. */
void pmu__perf_close(struct pmu__perf *p);

/* One ioctl(req, PERF_IOC_FLAG_GROUP) per group leader and CPU/thread. */
int pmu__perf_ioctl(const struct pmu__perf *p, unsigned long req);

/* Sum every event over CPUs/threads into vals[0..min(n, nev)). */
int pmu__perf_read(struct pmu__perf *p, struct pmu_value *vals, size_t n);

/* CPUs or threads the events are open on. */
size_t pmu__perf_nunits(const struct pmu__perf *p);



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
int pmu__perf_units_get(const struct pmu_open_opts *o, const char *proc,
			struct pmu__perf_units *u, struct pmu_error *err);
void pmu__perf_units_free(struct pmu__perf_units *u);
#endif
