/* SPDX-License-Identifier: MIT */
#ifndef PMU_ERROR_H
#define PMU_ERROR_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef PMU_API
#define PMU_API __attribute__((visibility("default")))
#endif

/*
 * Option structs (struct pmu_*_opts) begin with `size_t sz`, the size the
 * caller was built with, so that they can grow: PMU_OPTS_INIT() gives
 * one with sz set, for an argument.
 */
#define PMU_OPTS_INIT(type, ...) \
	((struct type){ .sz = sizeof(struct type), __VA_ARGS__ })

/*
 * Declares NAME, a struct TYPE with sz and the given fields set and every
 * other byte zero, padding included: the library refuses a byte set after
 * the last field it knows (a newer release's field), and an initializer
 * that names every field leaves the padding unspecified in C.
 *	PMU_OPTS(pmu_open_opts, o, .target = PMU_TARGET_CHILD);
 */
#define PMU_OPTS(type, name, ...) \
	struct type name = __extension__ ({ \
		__builtin_memset(&name, 0, sizeof(struct type)); \
		(struct type){ .sz = sizeof(struct type), __VA_ARGS__ }; \
	})

/*
 * What kind of thing went wrong; the errno alone is often too coarse.
 * One vocabulary for every call: the event parser, the encoder (whose
 * classes match libpfm4's: unknown-event/-pmu = "notfound", bad-umask =
 * "umask", conflict = "featcomb", bad-modifier = "attr", bad-value =
 * "attr_val", repeated = "attr_set", syntax = "inval"), the drivers.
 */
enum pmu_error_kind {
	PMU_ERR_NONE = 0,
	PMU_ERR_SYNTAX,         /* malformed event string */
	PMU_ERR_UNKNOWN_EVENT,  /* name not known; token = the name */
	PMU_ERR_UNKNOWN_PMU,    /* pmu/...,/ or pmu:: prefix not known */
	PMU_ERR_BAD_MODIFIER,   /* :x modifier or term not accepted */
	PMU_ERR_BAD_VALUE,      /* term or modifier value out of range */
	PMU_ERR_NOT_SUPPORTED,  /* kernel or hardware cannot count it */
	PMU_ERR_PERMISSION,     /* perf_event_paranoid / capabilities */
	PMU_ERR_NO_TARGET,      /* no such process, thread or CPU */
	PMU_ERR_RESOURCES,      /* too many open files, no counters */
	PMU_ERR_SYSTEM,         /* any other system call failure */
	PMU_ERR_USAGE,          /* API misuse: wrong state, bad argument */
	PMU_ERR_BAD_UMASK,      /* a unit mask missing or not of the event */
	PMU_ERR_CONFLICT,       /* unit masks or modifiers that exclude each
				   other */
	PMU_ERR_REPEATED,       /* a modifier or term given twice */
};

/*
 * Filled by calls that take a `struct pmu_error *` (which may be NULL).
 * Set `size = sizeof(struct pmu_error)` before the call so the struct can
 * grow later without breaking callers.
 */
struct pmu_error {
	size_t size;
	int code;                 /* negative errno, same as the return value */
	enum pmu_error_kind kind;
	int offset;               /* byte offset of token in the input, or -1 */
	int index;                /* event index (or field index), or -1 */
	char token[64];           /* the offending token, "" if none */
	char message[512];        /* one line, names the cause and the fix */
};

/* Text for a negative (or positive) errno value returned by libpmu. */
PMU_API const char *pmu_strerror(int err);

/* Name of an error kind, e.g. "unknown-event" ("unknown" past the end). */
PMU_API const char *pmu_error_kind_name(enum pmu_error_kind kind);

enum pmu_log_level {
	PMU_LOG_WARN,
	PMU_LOG_INFO,
	PMU_LOG_DEBUG,
};

typedef int (*pmu_print_fn_t)(enum pmu_log_level level, const char *fmt,
			      va_list ap);

/*
 * The library never prints on its own; install a callback to receive
 * diagnostics.  Returns the previous callback.  NULL silences everything
 * (the default).
 */
PMU_API pmu_print_fn_t pmu_set_print(pmu_print_fn_t fn);

#ifdef __cplusplus
}
#endif
#endif
