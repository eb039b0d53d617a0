/* SPDX-License-Identifier: MIT */
#ifndef PMU_UTIL_NEAREST_H
#define PMU_UTIL_NEAREST_H

/*
 * Nearest names for "did you mean" messages.  Kept below every layer
 * that names things (models, events, umasks, modifiers), so that each
 * suggests with the same distance and the same slack.
 */

/* Optimal-string-alignment distance, case-insensitive; strings longer
 * than 127 bytes compare as infinitely far. */
unsigned pmu__edit_distance(const char *a, const char *b);

/* How far a name may be from what was typed and still be offered, by
 * the length of what was typed. */
unsigned pmu__near_limit(const char *token);

/* The one nearest of several candidate names. */
struct pmu__nearest {
	const char *typed;
	unsigned bound;        /* offered names must be nearer than this */
	const char *best;      /* NULL until a name is near enough */
};

/* limit: the largest distance offered; 0 means pmu__near_limit(typed),
 * the limit that event-name suggestions use. */
void pmu__nearest_init(struct pmu__nearest *n, const char *typed,
		       unsigned limit);
void pmu__nearest_offer(struct pmu__nearest *n, const char *cand);

#endif
