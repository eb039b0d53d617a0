/* SPDX-License-Identifier: MIT */
#ifndef PMU_UTIL_ERROR_H
#define PMU_UTIL_ERROR_H

#include <pmu/error.h>

#define PMU__PRINTF(a, b) __attribute__((format(printf, a, b)))

/*
 * Fill *err (if non-NULL and sized) and return `code` (a negative errno),
 * so callers can write `return pmu__error(err, -EINVAL, ...);`.
 * `token` may be NULL; `offset` is -1 when unknown.
 */
int pmu__error(struct pmu_error *err, int code, enum pmu_error_kind kind,
	       const char *token, int offset, const char *fmt, ...)
	PMU__PRINTF(6, 7);

/* A lower layer's error passed up with another errno: the detail keeps
 * its kind and message and takes the code returned.  Returns code. */
int pmu__error_recode(struct pmu_error *err, int code);

/* Record which event (or field) an error is about, where the caller's
 * struct has room for it. */
void pmu__error_index(struct pmu_error *err, int index);

/* Reset *err to "no error". */
void pmu__error_clear(struct pmu_error *err);

/* Send a diagnostic to the installed print callback (if any). */
void pmu__log(enum pmu_log_level level, const char *fmt, ...)
	PMU__PRINTF(2, 3);

#define pmu__warn(...) pmu__log(PMU_LOG_WARN, __VA_ARGS__)
#define pmu__info(...) pmu__log(PMU_LOG_INFO, __VA_ARGS__)
#define pmu__debug(...) pmu__log(PMU_LOG_DEBUG, __VA_ARGS__)

#endif
