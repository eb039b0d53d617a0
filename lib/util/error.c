/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/outstruct.h"

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

/*
 * Errors are built whole and copied as far as the caller's struct
 * reaches (an older, smaller pmu_error gets its prefix).  A string cut
 * by the end of the caller's struct is still terminated.
 */
static void error_store(struct pmu_error *err, const struct pmu_error *e)
{
	size_t n = err->size < sizeof(*e) ? err->size : sizeof(*e);

	pmu__out_copy(err, err->size, e, sizeof(*e));
	if (n < sizeof(*e) && n > offsetof(struct pmu_error, token))
		((char *)err)[n - 1] = '\0';
}

void pmu__error_clear(struct pmu_error *err)
{
	struct pmu_error e = { .offset = -1, .index = -1 };

	if (pmu__out_ok(err, err ? err->size : 0))
		error_store(err, &e);
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if none. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len = s[0] >= 0xc2 && s[0] <= 0xdf ? 2
		   : s[0] >= 0xe0 && s[0] <= 0xef ? 3
		   : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;

	if (len == 0 || len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

/*
 * Messages quote what they were given, which may be a binary file: a
 * byte that is not printable text is written as \xNN, so a message is
 * always one line a terminal shows as it is.
 */
static void escape_text(char *dst, size_t sz, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t n = strlen(src), o = 0;

	for (size_t i = 0; i < n && o + 1 < sz;) {
		size_t u = s[i] >= 0x80 ? utf8_len(s + i, n - i) : 0;

		if (s[i] >= 0x20 && s[i] < 0x7f) {
			dst[o++] = (char)s[i++];
		} else if (u && o + u < sz) {
			memcpy(dst + o, s + i, u);
			o += u;
			i += u;
		} else if (!u && o + 4 < sz) {
			snprintf(dst + o, 5, "\\x%02x", s[i++]);
			o += 4;
		} else {
			break;
		}
	}
	dst[o] = '\0';
}

int pmu__error(struct pmu_error *err, int code, enum pmu_error_kind kind,
	       const char *token, int offset, const char *fmt, ...)
{
	struct pmu_error e = { .code = code, .kind = kind, .offset = offset,
			       .index = -1 };
	char raw[sizeof(e.message)];
	va_list ap;

	if (!pmu__out_ok(err, err ? err->size : 0))
		return code;
	snprintf(e.token, sizeof(e.token), "%s", token ? token : "");
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	escape_text(e.message, sizeof(e.message), raw);
	/* an index set before (the event being parsed) stays */
	if (PMU__OUT_HAS(err, index))
		e.index = err->index;
	error_store(err, &e);
	return code;
}

int pmu__error_recode(struct pmu_error *err, int code)
{
	if (err && PMU__OUT_HAS(err, code))
		err->code = code;
	return code;
}

void pmu__error_index(struct pmu_error *err, int index)
{
	if (err && PMU__OUT_HAS(err, index))
		err->index = index;
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
	[PMU_ERR_BAD_UMASK] = "bad-umask",
	[PMU_ERR_CONFLICT] = "conflict",
	[PMU_ERR_REPEATED] = "repeated",
};

PMU_API const char *pmu_error_kind_name(enum pmu_error_kind kind)
{
	if ((unsigned)kind >= sizeof(kind_names) / sizeof(kind_names[0]))
		return "unknown";
	return kind_names[kind];
}

PMU_API const char *pmu_strerror(int err)
{
	if (err == INT_MIN)
		return "unknown error";
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
