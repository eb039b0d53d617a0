/* SPDX-License-Identifier: MIT */
#ifndef PMU_SESSION_H
#define PMU_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <pmu/error.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A session is a set of counting events opened on one target.  Events are
 * added as perf-style strings ("cycles,instructions", "{a,b}:u",
 * "msr/tsc/", "sched:sched_switch", "r01c2"); each brace group is
 * scheduled on the PMU together.  Typical use:
 *
 *	struct pmu_session *s = pmu_session_new(NULL);
 *	pmu_session_add(s, "task-clock,page-faults", NULL);
 *	pmu_session_open(s, NULL, NULL);            // this thread
 *	pmu_session_start(s);
 *	...
 *	pmu_session_stop(s);
 *	pmu_session_read(s, vals, n);
 *	pmu_session_free(s);
 */
struct pmu_session;

enum pmu_target_kind {
	PMU_TARGET_SELF = 0, /* the calling thread */
	PMU_TARGET_PID,      /* every thread of existing processes */
	PMU_TARGET_TID,      /* existing threads */
	PMU_TARGET_CHILD,    /* a child stopped before exec: counts from its
				exec, follows its children (inherit) */
	PMU_TARGET_CPUS,     /* system-wide on CPUs (all when cpus is NULL) */
};

struct pmu_open_opts {
	size_t sz;                 /* sizeof(struct pmu_open_opts) */
	enum pmu_target_kind target;
	pid_t pid;                 /* PID, TID or CHILD (unless npids > 0) */
	const char *cpus;          /* CPUS: list like "0-3,6"; NULL = all online */
	bool inherit;              /* count children created after open
				      (default on for CHILD) */
	bool no_mmap_read;         /* force read(2), never the mmap page */
	const pid_t *pids;         /* PID or TID: several processes or threads,
				      counted together; replaces pid */
	size_t npids;              /* entries in pids; 0 = use pid */
};

#define PMU_OPTS_INIT(type, ...) \
	((struct type){ .sz = sizeof(struct type), __VA_ARGS__ })

/* Status of one event after pmu_session_open(). */
enum pmu_event_status {
	PMU_EVENT_OK = 0,
	PMU_EVENT_NOT_SUPPORTED, /* the kernel/hardware cannot count it here */
	PMU_EVENT_NOT_COUNTED,   /* opened, but never scheduled */
};

/*
 * One reading of one event, summed over every CPU or thread it is open on.
 * Filled by the library: set size = sizeof(struct pmu_value) before reading
 * (pmu_session_read() does it for arrays it is given with size == 0).
 */
struct pmu_value {
	size_t size;
	uint64_t raw;          /* counter value as the kernel reported it */
	uint64_t enabled;      /* ns the event was enabled */
	uint64_t running;      /* ns it was actually on a counter */
	uint64_t scaled;       /* raw * enabled / running, exact, saturating */
	enum pmu_event_status status;
	int err;               /* negative errno when NOT_SUPPORTED, else 0 */
};

/* Create an empty session; NULL on failure (errno set). */
PMU_API struct pmu_session *pmu_session_new(struct pmu_error *err);

/* Destroy; closes everything. Accepts NULL. */
PMU_API void pmu_session_free(struct pmu_session *s);

/*
 * Add events from a perf-style event list.  May be called several times
 * before open.  Returns 0 or a negative errno (-EINVAL on parse errors,
 * with err->token naming the offending token and err->message suggesting
 * near names).
 */
PMU_API int pmu_session_add(struct pmu_session *s, const char *events,
			    struct pmu_error *err);

/* Number of events added so far. */
PMU_API size_t pmu_session_nevents(const struct pmu_session *s);

/* Canonical name of event i ("cycles:u", "msr/tsc/"), or NULL. */
PMU_API const char *pmu_session_event_name(const struct pmu_session *s,
					   size_t i);

/* Unit and scale of event i ("msec", 1e-6 for task-clock; sysfs .unit/.scale). */
PMU_API const char *pmu_session_event_unit(const struct pmu_session *s,
					   size_t i, double *scale);

/* Group index of event i (events outside braces are groups of one). */
PMU_API int pmu_session_event_group(const struct pmu_session *s, size_t i);

/*
 * Open every event on the target; opts may be NULL (this thread).  Events
 * that the machine cannot count are marked PMU_EVENT_NOT_SUPPORTED and do
 * not fail the open; errors that concern the whole session (permission,
 * no such process, bad CPU list, out of file descriptors) do, with
 * err->kind and err->message saying why and what to change.  Events start
 * disabled, except for PMU_TARGET_CHILD where they start at exec.
 */
PMU_API int pmu_session_open(struct pmu_session *s,
			     const struct pmu_open_opts *opts,
			     struct pmu_error *err);

/* Status and errno of event i after open. */
PMU_API enum pmu_event_status pmu_session_event_status(
	const struct pmu_session *s, size_t i, int *err);

/* Why event i is not supported, one line (e.g. "no hardware PMU"). */
PMU_API const char *pmu_session_event_reason(const struct pmu_session *s,
					     size_t i);

PMU_API int pmu_session_start(struct pmu_session *s);
PMU_API int pmu_session_stop(struct pmu_session *s);
PMU_API int pmu_session_reset(struct pmu_session *s);

/*
 * Read every event: vals[i] for i < min(n, nevents).  One read(2) per
 * group and CPU/thread (PERF_FORMAT_GROUP); for the calling thread, the
 * mmap page (rdpmc) when the kernel allows it.  Returns the number of
 * values filled or a negative errno.
 */
PMU_API int pmu_session_read(struct pmu_session *s, struct pmu_value *vals,
			     size_t n);

/*
 * Exact scaling: raw * enabled / running computed in 128 bits, saturating
 * at UINT64_MAX.  running == 0 gives 0; running >= enabled gives raw.
 */
PMU_API uint64_t pmu_scale(uint64_t raw, uint64_t enabled, uint64_t running);

#ifdef __cplusplus
}
#endif
#endif
