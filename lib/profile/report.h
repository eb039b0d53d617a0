/* SPDX-License-Identifier: MIT */
#ifndef PMU_PROFILE_REPORT_H
#define PMU_PROFILE_REPORT_H

/*
 * Reports: samples aggregated into rows by sort keys (perf report's
 * histogram), and call stacks merged into a tree (flame graphs, pprof,
 * folded stacks).  Every string is interned in the report's pool so a
 * stack is an array of small integers.
 */

#include <stdio.h>

#include <pmu/profile.h>

#include "profile/profile.h"

enum rkey { RK_COMM, RK_PID, RK_TID, RK_DSO, RK_SYM, RK_SRCLINE, RK_EVENT,
	    RK_MAX };

/* One node of a merged call tree (children in first-seen order). */
struct rnode {
	uint32_t name;           /* interned frame label */
	uint32_t dso;            /* interned DSO short name */
	uint8_t kind;            /* enum pmu_frame_kind */
	uint64_t self, total;    /* period */
	uint64_t base_total;     /* differential: the base profile's */
	uint32_t first_child, next_sibling; /* indices, 0 = none */
	uint32_t last_child;      /* where the next child is linked */
	uint32_t parent;
};

struct rtree {
	struct rnode *n;         /* n[0] is the root */
	size_t len, cap;
	uint32_t *hash;          /* (parent, name) -> node */
	size_t hcap;
};

struct rrow {
	uint32_t key[RK_MAX];
	uint64_t self, children;
	uint64_t samples;
	uint64_t base_self;      /* differential */
	struct rtree *chains;    /* per-row call graph, or NULL */
};

struct rpool {
	char **s;
	size_t n, cap;
	uint32_t *hash;
	size_t hcap;
};

/* Interned ids of strings that live as long as the profile (symbol and
 * DSO names), by address and a tag: most frames are found here without
 * hashing or comparing their text. */
struct pcache {
	const void **key;
	uint32_t *tag, *val;
	size_t cap, n;
};

struct report {
	const struct pmu_report_opts *o;
	struct pcache pc;
	enum rkey keys[RK_MAX];
	size_t nkeys;
	struct rpool pool;
	struct rrow *rows;
	size_t nrows, cap_rows;
	uint32_t *rhash;
	size_t rhcap;
	struct rtree tree;       /* every stack, caller first */
	uint64_t total, base_total, samples;
	uint64_t lost;
	const char *event;
	bool diff;               /* adding the base profile */
	/* scratch */
	uint32_t *stack;
	size_t *stack_frame;     /* [cap_stack]: the frame of each position */
	size_t cap_stack;
};

uint32_t pmu__rpool_add(struct rpool *p, const char *s);
/* The id of a long-lived string s, cached by (s, tag); label is what to
 * intern on a miss (s itself when NULL). */
uint32_t pmu__report_intern(struct report *r, const char *s, uint32_t tag,
		       const char *label);
bool pmu__report_cached(struct report *r, const void *s, uint32_t tag,
		   uint32_t *id);
void pmu__report_cache(struct report *r, const void *s, uint32_t tag, uint32_t id);
const char *pmu__rpool_get(const struct rpool *p, uint32_t i);

int pmu__rtree_init(struct rtree *t);
/* Add a stack (root first) with its period; in_base: to base_total. */
int pmu__rtree_add(struct rtree *t, const uint32_t *names, const uint32_t *dsos,
	      const uint8_t *kinds, size_t n, uint64_t period, bool in_base);

int pmu__report_collect(struct report *r, struct pmu_profile *p, bool base,
		   struct pmu_error *err);
void pmu__report_free(struct report *r);

int pmu__report_svg(struct report *r, FILE *out);
int pmu__report_pprof(struct report *r, struct pmu_profile *p, FILE *out,
		 struct pmu_error *err);
int pmu__report_firefox(struct pmu_profile *p, const struct pmu_report_opts *o,
		   FILE *out, struct pmu_error *err);
int pmu__report_script(struct pmu_profile *p, const struct pmu_report_opts *o,
		  FILE *out, struct pmu_error *err);

/* Frames of the current sample (profile_sample.c). */
const struct pmu_frame *pmu__profile_frames(const struct pmu_profile *p,
					    size_t *n);
/* A frame's label as perf prints it: the symbol, or its address. */
const char *pmu__report_frame_label(const struct pmu_frame *f, char *buf,
			       size_t len);
/* Is the event a clock (cpu-clock, task-clock, with any modifiers),
 * whose period is in nanoseconds? */
bool pmu__report_clock_event(const char *ev);
/* Does the sample pass the report's filters? */
bool pmu__report_filter(const struct pmu_report_opts *o,
		   const struct pmu_sample *s, const struct pmu_frame *leaf);

#endif
