/* SPDX-License-Identifier: MIT */
#ifndef PMU_SESSION_SETS_H
#define PMU_SESSION_SETS_H

/*
 * Event sets (perfmon2's, seed 001): a session's events split into sets,
 * exactly one of which counts at any time.  On a driver with the set ops
 * of driver.h (perf), every set is opened at once as its own groups, held
 * disabled; the session enables the active set's groups and a monitor
 * thread switches round-robin when the active set's turn ends:
 *
 *  TIME      a clock of the session (task-clock, cpu-clock for CPU
 *            targets) samples every timeout_ns of the target's running
 *            time; an announced overflow ends the active set's turn
 *  OVERFLOW  the set's designated event samples every `period`;
 *            `count` announced overflows end a turn.  Where the kernel
 *            maps no ring of an inherited per-task event (a child, a
 *            process with inherit), a copy of it does instead: a group
 *            of its own, opened per CPU, enabled with the set
 *
 * The clock runs all the time, pinned, so that a switch is only the
 * sets' own groups (per-set clocks, groups of their own, doubled its
 * ioctls, and every enable of a flexible group reschedules them).  The
 * time between an overflow and the switch goes to the outgoing set;
 * a set that got a whole turn more than the least served one is passed
 * over, so that every set gets the same time in the long run.  An
 * OVERFLOW set that overflowed past its count (the monitor was late)
 * is passed over the same way.
 * A set none of whose groups opened gets no turn.
 */

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "hwmodel/model.h"
#include "session/session.h"

struct pmu__set_policy {
	enum pmu_switch_kind kind;
	uint64_t timeout_ns;
	uint64_t period, count;
	struct pmu__ev ev;          /* OVERFLOW: the designated event, parsed
				       (owns name and spec) */
};

struct pmu__set {
	size_t first;               /* its first event (events of a set are
				       contiguous as added) */
	bool own;                   /* a policy given for this set */
	struct pmu__set_policy pol;
	/* resolved at open */
	const struct pmu__set_policy *eff; /* own, the session's, or default */
	size_t *grp, ngrp;          /* its groups that opened */
	size_t *evi, nevi;          /* its events */
	ssize_t ovfl_ev;            /* OVERFLOW: the designated event */
	unsigned ovfl_bit;          /* its place among the set's events */
	ssize_t notify_ev;          /* what announces the end of its turn:
				       the clock (TIME), the designated
				       event or a copy of it (OVERFLOW) */
	ssize_t notify_grp;         /* OVERFLOW: that copy's group, enabled
				       with the set; -1: none */
	uint64_t count;             /* announcements per turn */
	struct pollfd *pfd;         /* [0]: the wake-up; then what ends a turn */
	size_t npfd;
	/* what it did (perfmon2's pfm_setinfo) */
	uint64_t runs, timeout_left, ovfl_mask, turn_ovfl;
	uint64_t carry;             /* announcements past the end of a turn
				       (the monitor was late): its next
				       turns were served in advance */
	uint64_t dur;               /* kernel time enabled, as last read */
	uint64_t dur_base;          /* ... at the last reset */
	uint64_t turn_dur;          /* ... when its turn began */
};

/* Per event: the previous switch-out's reading and the per-run rates. */
struct pmu__ev_runs {
	uint64_t raw, run;          /* at the end of the last run */
	uint64_t run_base;          /* running at the last reset */
	double sum, sumsq;          /* of count/ns over runs */
	uint64_t n;
};

struct pmu__sets_reg;

struct pmu__sets {
	struct pmu__sets_reg *reg;  /* a register-level PMU's sets: a
				       monitoring context (sets_reg.c) */
	bool drv_sw;                /* the driver switches (sets_drv.c) */
	struct pmu__set *set;
	size_t n, cap;
	bool dflt_own;
	struct pmu__set_policy dflt; /* given for every set (-1) */
	/* open */
	size_t nuser;               /* events before open added any */
	int ngroups_user;           /* and groups */
	bool prepared;              /* events appended for the open */
	size_t *evset;              /* [events]: the set of each */
	struct pmu__ev *dev;        /* what the driver opened: the events,
				       the OVERFLOW sets' copies, the
				       clock */
	size_t ndev;
	ssize_t clock;              /* TIME sets' clock, -1: none */
	ssize_t clock_grp;
	uint64_t clock_period;
	struct pmu__ev_runs *er;
	size_t active;
	bool live;                  /* some set has an open group */
	bool counting;
	bool begun;                 /* the first turn was started */
	pthread_mutex_t lock;
	bool lock_init;
	pthread_t thr;
	bool thr_on;
	bool quit;                  /* the monitor is to end at its wake-up */
	int wake_fd;                /* wakes the monitor: to end, or to look
				       at the active set again */
	uint64_t nswitch;           /* switches done (monitor and forced) */
};

/* Several sets, or a monitoring context (that of a sampling session
 * on a register-level PMU may have one set). */
static inline bool pmu__sets_on(const struct pmu_session *s)
{
	return s->sets && (s->sets->n > 1 || s->sets->reg);
}

/* sets.c */
void pmu__sets_free(struct pmu_session *s);
const struct pmu__set_policy *pmu__sets_default_policy(void);

/* sets_open.c: before the driver's open, the events it opens (adds the
 * designated events sets lack, and the clock); after it, the groups and
 * descriptors of each set, checked; at close, back to the user's events */
int pmu__sets_prepare(struct pmu_session *s, const struct pmu__target *t,
		      struct pmu_error *err);
int pmu__sets_opened(struct pmu_session *s, const struct pmu__target *t,
		     struct pmu_error *err);
void pmu__sets_close(struct pmu_session *s);

/* sets_run.c: the session's hot paths with sets, and the monitor */
int pmu__sets_start(struct pmu_session *s);
int pmu__sets_stop(struct pmu_session *s);
int pmu__sets_reset(struct pmu_session *s);
ssize_t pmu__sets_read(struct pmu_session *s, struct pmu_value *vals,
		       size_t stride, size_t n);
int pmu__sets_info(struct pmu_session *s, size_t set,
		   struct pmu_set_info *info);
/* Enable or disable a set's groups and clock. */
int pmu__sets_enable(struct pmu_session *s, const struct pmu__set *set,
		     bool on);
/* Monitor thread for a target counting from exec (opened counting). */
int pmu__sets_monitor_start(struct pmu_session *s);
void pmu__sets_monitor_stop(struct pmu_session *s);

/* Switch to the next set now, as the monitor does at the end of a turn
 * (benchmarks and tests). */
int pmu__sets_switch(struct pmu_session *s);

/* sets_reg.c: set k's end (one past its last event) and policy; its
 * events [first, end), with dsg (if any) after them, placed as the
 * session places one set. */
size_t pmu__sets_end(const struct pmu_session *s, size_t k);
const struct pmu__set_policy *pmu__sets_policy(const struct pmu_session *s,
					       size_t k);
int pmu__sets_place(struct pmu_session *s, size_t first, size_t end,
		    const struct pmu__ev *dsg, struct pmu__place *place,
		    struct pmu__ev_state *st, struct pmu_error *err);

/* sets_drv.c: sets a driver switches itself (driver.h's open_sets) */
int pmu__sets_drv_open(struct pmu_session *s, const struct pmu__target *t,
		       struct pmu_error *err);
int pmu__sets_drv_info(struct pmu_session *s, size_t set,
		       struct pmu_set_info *info);

/* sets_reg.c: the same calls when the sets are a monitoring context's
 * (a driver without the set ops: a simulated PMU) */
int pmu__sets_reg_start(struct pmu_session *s);
int pmu__sets_reg_stop(struct pmu_session *s);
int pmu__sets_reg_reset(struct pmu_session *s);
ssize_t pmu__sets_reg_read(struct pmu_session *s, struct pmu_value *vals,
			   size_t stride, size_t n);
int pmu__sets_reg_info(struct pmu_session *s, size_t set,
		       struct pmu_set_info *info);
int pmu__sets_reg_feed(struct pmu_session *s, const struct pmu__feed *f,
		       struct pmu_error *err);
void pmu__sets_reg_close(struct pmu_session *s);
/* A register-level PMU's sets: its monitoring context and where each
 * event counts.  Sampling (sample*.c) reads fd and pmd; the rest is
 * sets_reg.c's. */
#define REG_NONE (-1)   /* not counted */
#define REG_TIME (-2)   /* the set's counting time (a TSC placement) */
struct pmu__sets_reg {
	int fd;                  /* the monitoring context */
	int *pmd;                /* [event]: its PMD, REG_NONE, REG_TIME */
	uint64_t (*pmcs)[PMU_MODEL_MAX_PMCS]; /* [set]: PMC values */
	int *dsg;                /* [set]: the designated event's PMD */
	uint64_t *dsg_value;     /* [set]: its value (-period) */
	bool counting;
};

/* The context's descriptor, and event i's PMD (negative: none). */
static inline int pmu__sets_reg_fd(const struct pmu_session *s)
{
	const struct pmu__sets_reg *r = s->sets ? s->sets->reg : NULL;

	return r ? r->fd : -EBADF;
}

static inline int pmu__sets_reg_pmd(const struct pmu_session *s, size_t i)
{
	const struct pmu__sets_reg *r = s->sets ? s->sets->reg : NULL;

	return r && i < s->n ? r->pmd[i] : REG_NONE;
}
/* The session's sets, set 0 made on first need (a sampling session on
 * a register-level PMU is a context of one set or more). */
struct pmu__sets *pmu__sets_get(struct pmu_session *s);
/* Room for one more set in ss->set; -ENOMEM. */
int pmu__sets_grow(struct pmu__sets *ss);

#endif
