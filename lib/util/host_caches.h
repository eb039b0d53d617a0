/* SPDX-License-Identifier: MIT */
#ifndef PMU_UTIL_HOST_CACHES_H
#define PMU_UTIL_HOST_CACHES_H

#include <stdint.h>

struct pmu__cache_geom {
	uint32_t size, assoc, line;   /* bytes, ways, bytes; size 0: none */
};

/*
 * This host's caches as CPU 0 sees them (sysfs cache/index*): the level-1
 * instruction and data caches and the last level (the highest unified
 * one; size 0 when there is none).  `root` prefixes the paths (a fake
 * tree in tests; NULL: "/").  0, or -ENOENT when the level-1 caches are
 * not described.
 */
int pmu__host_caches(const char *root, struct pmu__cache_geom *i1,
		     struct pmu__cache_geom *d1, struct pmu__cache_geom *ll);

#endif
