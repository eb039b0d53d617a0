/* SPDX-License-Identifier: MIT */
#ifndef PMU_HWMODEL_FS_UTIL_H
#define PMU_HWMODEL_FS_UTIL_H

/* Tiny replacements for string.h, which freestanding code cannot use. */

#include <stddef.h>

static inline int pmu__fs_strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (int)(unsigned char)*a - (int)(unsigned char)*b;
}

#define PMU_FS_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
