/* SPDX-License-Identifier: MIT */
#ifndef PMU_UTIL_OUTSTRUCT_H
#define PMU_UTIL_OUTSTRUCT_H

/*
 * Structs the library fills start with `size_t size`, set by the caller
 * to the size it was built with.  The library fills a complete struct of
 * its own and copies what both sides know: min(size, its sizeof) bytes,
 * the caller's `size` kept.  A caller built against an older, smaller
 * struct is never written past its end; a newer, larger one keeps its
 * extra fields as it set them.
 */

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* A caller's size the library can fill at all: at least the size
 * field and one field after it. */
static inline bool pmu__out_ok(const void *dst, size_t user_size)
{
	return dst && user_size > sizeof(size_t);
}

/* Copy src (ours, src_size bytes) into dst (the caller's, user_size). */
static inline void pmu__out_copy(void *dst, size_t user_size, const void *src,
				 size_t src_size)
{
	size_t n = user_size < src_size ? user_size : src_size;

	if (n > sizeof(size_t))
		memcpy((char *)dst + sizeof(size_t),
		       (const char *)src + sizeof(size_t), n - sizeof(size_t));
}

/* The whole of a struct with a leading size: PMU__OUT(dst, &mine). */
#define PMU__OUT(dst, src) \
	pmu__out_copy((dst), (dst)->size, (src), sizeof(*(src)))

/* Does the caller's struct reach past `field`? */
#define PMU__OUT_HAS(dst, field) \
	((dst)->size >= offsetof(__typeof__(*(dst)), field) + \
			sizeof((dst)->field))

#endif
