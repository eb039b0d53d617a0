/* SPDX-License-Identifier: MIT */
#ifndef PMU_SESSION_SESSION_H
#define PMU_SESSION_SESSION_H

#include <stdbool.h>

#include <pmu/session.h>

#include "drivers/driver.h"

struct pmu__evlist;
struct pmu__sets;
struct pmu__smpl;

/*
 * A session: events (from the event layer) on one driver.  The session
 * knows the driver only through its ops table; events are placed on
 * counters here for drivers that program registers themselves.
 */
struct pmu_session {
	struct pmu__drv *drv;
	bool own_drv;            /* destroy the driver with the session */
	struct pmu__ev *ev;
	size_t n, cap;
	int ngroups;
	uint32_t nmerge;         /* the last merge id of its events */
	struct pmu__ev_state *st;    /* [n] once opened */
	struct pmu__place *place;    /* [n] once opened, register drivers */
	struct pmu__count *cnt;      /* [n] read scratch */
	bool open;
	bool raw_width;          /* open with hardware-width counters */
	pid_t pid1;              /* a one-process target's pid list */
	size_t ntool;            /* tool events among ev (session_tool.c) */
	size_t in_place_min;     /* element sizes read straight into the
				    caller's array: sizeof(struct
				    pmu_value) and up, none with tools
				    or sets (decided at open) */
	struct {
		bool self, running;
		uint64_t t_on, dur;      /* ns, CLOCK_MONOTONIC */
		uint64_t user0, sys0;    /* CPU times at open/reset, ns */
	} tool;
	unsigned long nstart;    /* times counting was started */
	struct pmu__sets *sets;  /* event sets (sets.h); NULL: one set */
	struct pmu__smpl *smpl;  /* sampling (sample.h); NULL: counting */
	struct pmu__ring *rings; /* raw sampling (session_rec.c): the
				    driver's, unmapped at close */
	pmu_region_fn region_fn; /* a fed stream's region statements */
	void *region_arg;
	size_t nrings;
};

/* A session on driver `drv`; with own, the session destroys it. */
struct pmu_session *pmu__session_new_on(struct pmu__drv *drv, bool own,
					struct pmu_error *err);

/*
 * Add one event given as a ready perf_event_attr (no parsing).  With
 * new_group it starts a group of its own, else it joins the last group.
 */
int pmu__session_add_attr(struct pmu_session *s, const char *name,
			  const struct perf_event_attr *attr, bool new_group);

/*
 * Append the events of a parsed list l (parsed with l->ngroups and
 * l->nmerge starting at the session's): the session owns them then and
 * l is left empty.  -EINVAL on an open session, -ENOMEM.
 */
int pmu__session_adopt(struct pmu_session *s, struct pmu__evlist *l);

/*
 * Open the events on a target in the driver's own terms (what
 * pmu_session_open() makes of its options), for callers that set the
 * target's details themselves (profiles: per-CPU rings, no mmap reads).
 */
int pmu__session_open_on(struct pmu_session *s, const struct pmu__target *t,
			 struct pmu_error *err);

/*
 * Raw sampling, for profiles that keep the kernel's records as they are
 * (perf.data; session_rec.c).  The events carry their sampling settings
 * in their attrs.  After the open: map a ring of `pages` data pages per
 * CPU or thread (-EOPNOTSUPP: the driver has no buffers); the kernel's
 * ids of event i; wait up to timeout_ms for a ring to fill (0, -EINTR
 * or a negative errno); hand every whole record the rings hold to fn,
 * ring after ring (*any: some ring held records; fn's non-zero return
 * stops there and is returned); the records the kernel dropped so far.
 */
typedef int (*pmu__rec_fn)(void *arg, const struct perf_event_header *h);
int pmu__session_rec_map(struct pmu_session *s, size_t pages,
			 struct pmu_error *err);
int pmu__session_rec_ids(struct pmu_session *s, size_t i, uint64_t *ids,
			 size_t max, size_t *n);
int pmu__session_rec_wait(struct pmu_session *s, int timeout_ms);
int pmu__session_rec_drain(struct pmu_session *s, pmu__rec_fn fn, void *arg,
			   bool *any);
uint64_t pmu__session_rec_lost(const struct pmu_session *s);

/* Close the counters (events stay, the session may be opened again). */
void pmu__session_close(struct pmu_session *s);

/* The driver's record stream (drivers/driver.h, struct pmu__drv_stream),
 * for profiles: -EOPNOTSUPP (counter: -1, lost: 0) on a driver without
 * one. */
int pmu__session_stream_keep(struct pmu_session *s);
long pmu__session_stream_take(struct pmu_session *s, void *out, size_t len);
int pmu__session_stream_counter(const struct pmu_session *s, size_t i);
uint64_t pmu__session_stream_lost(struct pmu_session *s);

/* Free what an open session's counting needs (statuses, placement,
 * scratch counts): closing, or an open that failed. */
void pmu__session_free_open(struct pmu_session *s);

/* 0 for a session not open yet; else -EINVAL (none given) or -EBUSY
 * with the message `busy`, in err. */
int pmu__session_not_open(const struct pmu_session *s, const char *busy,
			  struct pmu_error *err);

/* Close, and forget every event. */
void pmu__session_clear(struct pmu_session *s);

/* Drive the session's simulated PMU (see struct pmu__feed). */
int pmu__session_feed(struct pmu_session *s, const struct pmu__feed *f,
		      struct pmu_error *err);

/* Tool events (session_tool.c): their clocks follow open (running for
 * targets that start counting by themselves), start, stop and reset;
 * read fills their values into the caller's array. */
void pmu__session_tool_open(struct pmu_session *s, bool self, bool running);
void pmu__session_tool_start(struct pmu_session *s);
void pmu__session_tool_stop(struct pmu_session *s);
void pmu__session_tool_reset(struct pmu_session *s);
void pmu__session_tool_read(struct pmu_session *s, struct pmu__count *c,
			    size_t stride, size_t n);
/*
 * Open a session of several event sets on a driver without the set ops
 * of driver.h (a register-level simulated PMU): every set placed on the
 * model's counters and switched by the session.  On success the session
 * is open (s->open) as pmu_session_open() leaves it; on failure nothing
 * is left open.  (lib/session/sets_reg.c)
 */
int pmu__session_sets_reg_open(struct pmu_session *s,
			       const struct pmu__target *t,
			       struct pmu_error *err);

/* Place every event on a counter of the driver's catalog model: fills
 * s->place, marks in s->st what the model cannot count, fails when the
 * events do not fit together. */
int pmu__session_place(struct pmu_session *s, const char *model,
		       struct pmu_error *err);

#endif
