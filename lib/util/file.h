/* SPDX-License-Identifier: MIT */
#ifndef PMU_UTIL_FILE_H
#define PMU_UTIL_FILE_H

#include <stddef.h>

/*
 * Read a whole file of at most `max` bytes, NUL-terminated (*len without
 * the NUL).  NULL with errno set: EFBIG when the file is larger than
 * `max`, EISDIR for a directory, otherwise what open/read said.  Memory
 * grows with the file, not with `max`.
 */
char *pmu__read_file(const char *path, size_t max, size_t *len);

#endif
