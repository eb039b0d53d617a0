/* SPDX-License-Identifier: MIT */
#ifndef PMU_DRIVERS_PERF_PRIV_H
#define PMU_DRIVERS_PERF_PRIV_H

#include <pthread.h>
#include <stdint.h>

#include <pmu/host.h>

#include "drivers/perf.h"

/* Internal layout of the perf driver, shared by its source files. */

struct perf_group {
	size_t first, nev;  /* events ev[first .. first+nev) */
	bool open;          /* false when not supported */
	bool per_event;     /* no PERF_FORMAT_GROUP: one read per event */
	bool mmap;          /* every event has an mmap page */
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
	struct pmu__perf_units units;
	size_t nunits;
	bool *gone;         /* [unit]: its thread exited before it was opened */
	bool *gone_try;     /* the same, seen by the open attempt under way;
			       kept in gone once a group's attempts end */
	size_t bad_unit;    /* unit of the open that failed the session */
	int *fd;            /* [event * nunits + unit], -1 when not open */
	uint64_t *id;       /* kernel ids, same indexing */
	struct perf_event_mmap_page **page; /* [event], self only, or NULL */
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
};

/* Sampling: the driver ops map_buffer and event_ids (perf_sample.c),
 * and unmapping the rings before their descriptors close. */
int pmu__perf_map_buffer(struct pmu__drv *d, size_t pages,
			 struct pmu__ring **rings, size_t *nrings,
			 struct pmu_error *err);
int pmu__perf_event_ids(struct pmu__drv *d, size_t i, uint64_t *ids,
			size_t max, size_t *n);
void pmu__perf_unmap_rings(struct pmu__perf *p);

/* Fill *err for a failure of event i that fails the whole open. */
int pmu__perf_open_error(struct pmu__perf *p, size_t i, int ret,
			 struct pmu_error *err);

/* Facts about the machine, read on first use. */
const struct pmu_host_info *pmu__perf_host(struct pmu__perf *p);

/* Sum every event over CPUs/threads into c[0..min(n, nev)), elements
 * `stride` bytes apart. */
int pmu__perf_read(struct pmu__drv *d, struct pmu__count *c, size_t stride,
		   size_t n);

#endif
