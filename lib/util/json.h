/* SPDX-License-Identifier: MIT */
#ifndef PMU_UTIL_JSON_H
#define PMU_UTIL_JSON_H

/*
 * A small strict JSON reader (RFC 8259) for pmu's input files: a tree of
 * values, integers kept exact as 64-bit magnitudes, positions kept for
 * error messages.  Hosted code only.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmu/error.h>

#define PMU_JSON_MAX_DEPTH 64

enum pmu_json_type {
	PMU_JSON_NULL,
	PMU_JSON_BOOL,
	PMU_JSON_INT,      /* no fraction, no exponent */
	PMU_JSON_REAL,
	PMU_JSON_STRING,
	PMU_JSON_ARRAY,
	PMU_JSON_OBJECT,
};

struct pmu_json {
	enum pmu_json_type type;
	int line, col;          /* 1-based position of the value */
	bool b;                 /* BOOL */
	bool neg;               /* INT: value = neg ? -mag : mag */
	uint64_t mag;
	double real;            /* REAL (also set for INT) */
	char *str;              /* STRING: NUL-terminated, no embedded NUL */
	size_t len;
	size_t n;               /* ARRAY / OBJECT: number of members */
	size_t cap;             /* ... room for, in items (and keys) */
	struct pmu_json **items;
	char **keys;            /* OBJECT only, unique */
};

/*
 * Parse `len` bytes.  Returns the tree (free with pmu__json_free) or NULL
 * with errno set and *err filled: "line L, column C: ..." in the message,
 * the byte offset in err->offset.
 */
struct pmu_json *pmu__json_parse(const char *text, size_t len,
				 struct pmu_error *err);
void pmu__json_free(struct pmu_json *v);

/* Member of an object by key, NULL if absent or not an object. */
const struct pmu_json *pmu__json_get(const struct pmu_json *obj,
				     const char *key);

/*
 * Integer value of a JSON integer or of a string "0x..." (hex) or of a
 * decimal string; -ERANGE if it does not fit, -EINVAL if not a number.
 */
int pmu__json_int64(const struct pmu_json *v, int64_t *out);
int pmu__json_uint64(const struct pmu_json *v, uint64_t *out);

#endif
