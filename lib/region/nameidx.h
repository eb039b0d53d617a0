/* SPDX-License-Identifier: MIT */
#ifndef PMU_REGION_NAMEIDX_H
#define PMU_REGION_NAMEIDX_H

/*
 * Region names to their index in an array the caller keeps (nameidx.c):
 * an open-addressing table of the names' hashes, so that a program with
 * many distinct regions (one per loop iteration, say) stays linear.
 * Names are compared up to PMU__REGION_NAME_MAX - 1 bytes.
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The name of entry i of the caller's array. */
typedef const char *(*pmu__name_at_fn)(const void *arg, size_t i);

struct pmu__nameidx {
	uint32_t *slot;          /* index + 1; 0: empty */
	size_t cap;              /* a power of two, or 0 */
};

/* The entry named `name`, or -1. */
ssize_t pmu__nameidx_find(const struct pmu__nameidx *x, const char *name,
			  pmu__name_at_fn at, const void *arg);

/* Entry i (of n entries now, i included) joins; -ENOMEM. */
int pmu__nameidx_add(struct pmu__nameidx *x, size_t i, size_t n,
		     pmu__name_at_fn at, const void *arg);

void pmu__nameidx_free(struct pmu__nameidx *x);

#endif
