/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"

/* The only mutable global: the caller-installed log sink. */
static _Atomic(pmu_print_fn_t) print_fn;

PMU_API pmu_print_fn_t pmu_set_print(pmu_print_fn_t fn)
{
	return atomic_exchange(&print_fn, fn);
}

void pmu__log(enum pmu_log_level level, const char *fmt, ...)
{
	pmu_print_fn_t fn = atomic_load(&print_fn);
	va_list ap;

	if (!fn)
		return;
	va_start(ap, fmt);
	fn(level, fmt, ap);
	va_end(ap);
}

static int error_usable(const struct pmu_error *err)
{
	return err && err->size >= sizeof(*err);
}

void pmu__error_clear(struct pmu_error *err)
{
	if (!error_usable(err))
		return;
	err->code = 0;
	err->kind = PMU_ERR_NONE;
	err->offset = -1;
	err->index = -1;
	err->token[0] = '\0';
	err->message[0] = '\0';
}

int pmu__error(struct pmu_error *err, int code, enum pmu_error_kind kind,
	       const char *token, int offset, const char *fmt, ...)
{
	va_list ap;

	if (!error_usable(err))
		return code;
	err->code = code;
	err->kind = kind;
	err->offset = offset;
	snprintf(err->token, sizeof(err->token), "%s", token ? token : "");
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return code;
}

static const char *const kind_names[] = {
	[PMU_ERR_NONE] = "none",
	[PMU_ERR_SYNTAX] = "syntax",
	[PMU_ERR_UNKNOWN_EVENT] = "unknown-event",
	[PMU_ERR_UNKNOWN_PMU] = "unknown-pmu",
	[PMU_ERR_BAD_MODIFIER] = "bad-modifier",
	[PMU_ERR_BAD_VALUE] = "bad-value",
	[PMU_ERR_NOT_SUPPORTED] = "not-supported",
	[PMU_ERR_PERMISSION] = "permission",
	[PMU_ERR_NO_TARGET] = "no-target",
	[PMU_ERR_RESOURCES] = "resources",
	[PMU_ERR_SYSTEM] = "system",
	[PMU_ERR_USAGE] = "usage",
};

PMU_API const char *pmu_error_kind_name(enum pmu_error_kind kind)
{
	if ((unsigned)kind >= sizeof(kind_names) / sizeof(kind_names[0]))
		return "unknown";
	return kind_names[kind];
}

PMU_API const char *pmu_strerror(int err)
{
	if (err < 0)
		err = -err;
	switch (err) {
	case 0:
		return "success";
	case EOPNOTSUPP:
		return "not supported by this kernel or hardware";
	default:
		return strerrordesc_np(err) ? strerrordesc_np(err) : "unknown error";
	}
}
