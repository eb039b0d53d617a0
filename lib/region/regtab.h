/* SPDX-License-Identifier: MIT */
#ifndef PMU_REGION_REGTAB_H
#define PMU_REGION_REGTAB_H

/*
 * One thread's regions, kept from readings of a session (regtab.c): the
 * bookkeeping that region.c does for each thread of a measured program
 * and recorder.c for the regions of a simulated PMU's stream.  Nothing
 * here knows threads, the environment or files' places.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <pmu/session.h>

#include "region/nameidx.h"
#include "region/region.h"

/* Errors kept per thread; more are counted. */
#define PMU__RT_MAX_ERRORS 16

/* The events counted, as a session names them. */
struct pmu__rt_meta {
	size_t n;
	char **name, **unit;
	double *scale;
	bool *counted;
};

struct pmu__rt_ent {             /* one region */
	char name[PMU__REGION_NAME_MAX];
	uint64_t calls, time, excl_time;
	unsigned depth;          /* open instances (recursion) */
	bool open_at_exit;
	uint64_t *incl, *excl;   /* [n] */
};

struct pmu__rt_frame {           /* one open region */
	size_t ent;
	uint64_t t0, child_t;
	uint64_t *c0, *child;    /* [n] */
};

struct pmu__rt {
	struct pmu__rt *next;    /* region.c's list of threads */
	const struct pmu__rt_meta *m;
	pid_t pid, tid;
	struct pmu_session *s;   /* read at each marker; NULL: times only */
	bool own_s;              /* freed with the thread */
	struct pmu_value *vals;  /* [n] read scratch */
	uint64_t *cur;           /* [n] the last reading */
	uint64_t now;            /* its time */
	struct pmu__rt_ent *ents;
	size_t nents, cap;
	struct pmu__nameidx idx; /* names to ents */
	struct pmu__rt_frame *stack;
	size_t depth, scap;
	char *errors[PMU__RT_MAX_ERRORS];
	size_t nerr, more_err;
	bool ended;              /* the thread has ended */
};

/* CLOCK_MONOTONIC in ns. */
uint64_t pmu__rt_now_ns(void);

/* The events of session s (none for NULL) into m; -ENOMEM. */
int pmu__rt_meta_of(struct pmu__rt_meta *m, struct pmu_session *s);
void pmu__rt_meta_free(struct pmu__rt_meta *m);

/* A thread's regions on meta m, reading s; NULL on ENOMEM. */
struct pmu__rt *pmu__rt_new(const struct pmu__rt_meta *m,
			    struct pmu_session *s, bool own_s);
void pmu__rt_free(struct pmu__rt *t);

/* Read the session into cur, the clock into now. */
void pmu__rt_sample(struct pmu__rt *t);

/* Begin and end a region at the thread's next reading (begin reads
 * after its bookkeeping, end before it): 0, -EINVAL (an end that is not
 * the innermost open region's, kept as an error), -ENOMEM. */
int pmu__rt_begin(struct pmu__rt *t, const char *name);
int pmu__rt_end(struct pmu__rt *t, const char *name);

/* Close what is open at the last reading, flagged. */
void pmu__rt_close_open(struct pmu__rt *t);

/* A whole file of region.h's format, DIR/NAME, written as a temporary
 * then renamed: the header (magic, pid, events, an error of the whole
 * process when `error`), each thread of the list `threads` (oldest last
 * in the list, first in the file; what is open closed in a copy when
 * snap), "end".  0 or a negative errno. */
int pmu__rt_write_file(const char *dir, const char *name,
		       const struct pmu__rt_meta *m, pid_t pid,
		       const char *error, const struct pmu__rt *threads,
		       bool snap);

/* Forget the counts so far: open regions start again at the last
 * reading (t's own thread need not be the caller's), each a call of
 * what comes after. */
void pmu__rt_forget(struct pmu__rt *t);

/* The same in a forked child, on its own new counters: read here. */
void pmu__rt_restart(struct pmu__rt *t);

#endif
