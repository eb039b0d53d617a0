/* SPDX-License-Identifier: MIT */
#ifndef PMU_DRIVERS_PERF_PRIV_H
#define PMU_DRIVERS_PERF_PRIV_H

#include <pthread.h>
#include <stdint.h>

#include <pmu/host.h>

#include "drivers/perf.h"
#include "util/cpulist.h"

/* Internal layout of the perf driver, shared by its source files. */

struct perf_group {
	size_t first, nev;  /* events ev[first .. first+nev) */
	bool open;          /* false when not supported */
	bool per_event;     /* no PERF_FORMAT_GROUP: one read per event */
	bool mmap;          /* every event has an mmap page */
	bool lost;          /* reads carry PERF_FORMAT_LOST (PMU__EV_LOST) */
	bool uread;         /* its events ask the PMU for user-space reads
			       (arm64: config1's rdpmc bit) */
	struct pmu__cpulist cpus; /* a CPU target: the only CPUs it opens
				     on (its leader's PMU's cpumask); cpu
				     NULL: every unit */
};

/* A NOTIFY event's descriptors and overflow rings.  Where the kernel
 * maps no ring of an inherited per-task event, the event (then a group
 * of one) is opened apart, per unit and online CPU; elsewhere it is
 * opened as any other, with its group, and gets its rings after. */
struct perf_notify {
	size_t n;
	int *fd;
	struct perf_event_mmap_page **ring;
	bool own;       /* opened apart (fd ours to close); else the event is
			   in an ordinary group and fd its descriptors' */
};

struct pmu__perf {
	struct pmu__drv drv;          /* first: the ops table */
	const struct pmu__perf_sys *sys;
	bool is_open;
	/* The session's events and their outcome; valid until close. */
	const struct pmu__ev *ev;
	struct pmu__ev_state *st;
	size_t nev;
	struct perf_event_attr *attr; /* own copies: fallbacks adjust them */
	enum pmu__target_kind target;
	bool inherit;
	bool start_stopped;  /* no enable_on_exec: the session starts it */
	bool skip_gone;      /* TID: threads gone by the open are left out */
	struct pmu__perf_units units;
	size_t nunits;
	bool *gone;         /* [unit]: its thread exited before it was opened */
	bool *gone_try;     /* the same, seen by the open attempt under way;
			       kept in gone once a group's attempts end */
	size_t bad_unit;    /* unit of the open that failed the session */
	int *fd;            /* [event * nunits + unit], -1 when not open */
	int *cgfd;          /* [event]: its cgroup directory, -1: none */
	uint64_t *id;       /* kernel ids, same indexing */
	struct perf_event_mmap_page **page; /* [event], self only, or NULL */
	struct perf_notify *ntf;      /* [event]: NOTIFY events, or NULL */
	size_t ring_len;
	size_t page_size;
	pthread_t opener;    /* the counted thread: pages are only valid there */
	struct perf_group *grp;
	size_t ngrp;
	int *leader;        /* open leader fds: the ioctl fast path */
	size_t nleader;
	uint64_t *buf;      /* read scratch, big enough for any group */
	size_t stride;      /* of the read under way's count array */
	bool direct;        /* one unit, one group read with one read(2) */
	struct pmu_host_info host; /* filled on first need (size != 0) */
	struct pmu__ring *ring;     /* sampling rings (perf_sample.c) */
	size_t nring;
	/* perfmon2's PMU (perf_pfm.c), once a context took it */
	struct perf_pfm *pfm;
	struct pmu__perf_pfm_host *pfm_host; /* a test's host; NULL: this */
};

/* Sampling: the driver ops map_buffer and event_ids (perf_sample.c),
 * and unmapping the rings before their descriptors close. */
int pmu__perf_map_buffer(struct pmu__drv *d, size_t pages,
			 struct pmu__ring **rings, size_t *nrings,
			 struct pmu_error *err);
int pmu__perf_event_ids(struct pmu__drv *d, size_t i, uint64_t *ids,
			size_t max, size_t *n);
int pmu__perf_lost(struct pmu__drv *d, size_t i, uint64_t *n);
void pmu__perf_unmap_rings(struct pmu__perf *p);

/* User-space reads where a PMU must be asked for them (perf_uread.c):
 * ask, for the events of a self-monitoring session's groups; stop
 * asking for group g (true when it had asked: open it again). */
void pmu__perf_uread_request(struct pmu__perf *p);
bool pmu__perf_uread_drop(struct pmu__perf *p, struct perf_group *g);

/* Fill *err for a failure of event i that fails the whole open. */
int pmu__perf_open_error(struct pmu__perf *p, size_t i, int ret,
			 struct pmu_error *err);

/* Facts about the machine, read on first use. */
const struct pmu_host_info *pmu__perf_host(struct pmu__perf *p);

/* Event sets (perf_notify.c): open group g of a NOTIFY event (marking
 * it not supported, or failing the open as open_group does), close every
 * NOTIFY event; the ops of driver.h. */
int pmu__perf_open_notify(struct pmu__perf *p, struct perf_group *g,
			  struct pmu_error *err);
bool pmu__perf_notify_apart(const struct pmu__perf *p,
			    const struct perf_group *g);
int pmu__perf_map_members(struct pmu__perf *p, struct pmu_error *err);
void pmu__perf_close_notify(struct pmu__perf *p);
/* Shared with perf.c's open path. */
void pmu__perf_prep_attr(const struct pmu__perf *p, const struct perf_group *g,
			 size_t i, struct perf_event_attr *a);
void pmu__perf_mark_unsupported(struct pmu__perf *p,
				const struct perf_group *g, size_t bad,
				int ret, const char *why);
bool pmu__perf_errno_not_supported(int ret);
int pmu__perf_group_ctl(struct pmu__drv *d, size_t group, bool enable);
ssize_t pmu__perf_notify_fds(struct pmu__drv *d, size_t ev, int *fds,
			     size_t max);
uint64_t pmu__perf_notify_consume(struct pmu__drv *d, size_t ev);
int pmu__perf_set_period(struct pmu__drv *d, size_t ev, uint64_t period);
int pmu__perf_read_group(struct pmu__drv *d, size_t group,
			 struct pmu__count *c, size_t stride);

/* Sum every event over CPUs/threads into c[0..min(n, nev)), elements
 * `stride` bytes apart. */
int pmu__perf_read(struct pmu__drv *d, struct pmu__count *c, size_t stride,
		   size_t n);

/* The same for unit u (a CPU or a thread) alone. */
int pmu__perf_read_unit(struct pmu__drv *d, size_t u, struct pmu__count *c,
			size_t stride, size_t n);

#endif
