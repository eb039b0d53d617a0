/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/host.h>

#include "util/cpulist.h"
#include "util/error.h"

#define ONLINE_PATH "/sys/devices/system/cpu/online"

/* What is wrong with a list, and where. */
enum fault_kind {
	F_EMPTY,      /* an empty element: "", "1,,2", "1," */
	F_SYNTAX,     /* not N or N-M */
	F_NO_END,     /* "N-" without a number after the '-' */
	F_BACKWARDS,  /* N-M with M < N */
	F_BIG,        /* a number above PMU__CPU_MAX */
};

struct fault {
	enum fault_kind why;
	const char *start;  /* the element */
	const char *at;     /* the first character that does not fit */
};

/* Decimal CPU number at *p, which is advanced past its digits; -1 when
 * there is none, -2 when it is above PMU__CPU_MAX. */
static int parse_cpu(const char **p)
{
	const char *s = *p;
	long v = 0;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++)
		if (v <= PMU__CPU_MAX)
			v = v * 10 + (*s - '0');
	*p = s;
	return v > PMU__CPU_MAX ? -2 : (int)v;
}

static int fail(struct fault *f, enum fault_kind why, const char *at)
{
	f->why = why;
	f->at = at;
	return -1;
}

/* One "N" or "N-M" element; marks its CPUs in `set`.  0, or -1 with *f
 * saying what is wrong. */
static int parse_element(const char **p, unsigned char *set, struct fault *f,
			 int *top)
{
	const char *s = *p, *end;
	int lo, hi;

	f->start = s;
	if (*s == ',' || *s == '\0')
		return fail(f, F_EMPTY, s);
	lo = parse_cpu(&s);
	if (lo < 0)
		return fail(f, lo == -2 ? F_BIG : F_SYNTAX, f->start);
	hi = lo;
	if (*s == '-') {
		end = ++s;
		hi = parse_cpu(&s);
		if (hi < 0)
			return fail(f, hi == -2 ? F_BIG : F_NO_END, end);
	}
	if (*s != ',' && *s != '\0')
		return fail(f, F_SYNTAX, s);
	if (hi < lo)
		return fail(f, F_BACKWARDS, f->start);
	if (set)
		memset(set + lo, 1, (size_t)(hi - lo + 1));
	if (hi > *top)
		*top = hi;
	*p = s;
	return 0;
}

/* Mark every CPU of the list in `set` (*top + 1 bytes, *top the largest
 * CPU of the list, which a first pass with set NULL finds). */
static int parse_set(const char *str, unsigned char *set, struct fault *f,
		     int *top)
{
	const char *p = str;

	for (;;) {
		if (parse_element(&p, set, f, top))
			return -1;
		if (*p == '\0')
			return 0;
		p++; /* the comma; an empty element after it is an error */
	}
}

/* The element at f->start (up to its comma), for messages. */
static void element(const struct fault *f, char *tok, size_t sz)
{
	size_t len = strcspn(f->start, ",");

	if (len >= sz)
		len = sz - 1;
	memcpy(tok, f->start, len);
	tok[len] = '\0';
}

static const char *fault_text(enum fault_kind why)
{
	switch (why) {
	case F_EMPTY:
		return "empty element";
	case F_BACKWARDS:
		return "range goes backwards";
	default:
		return "expected N or N-M with N, M <= 65535";
	}
}

/* The list's CPUs in a set of top + 1 bytes (NULL: out of memory), or
 * -1 with *f saying where the list is wrong. */
static unsigned char *to_set(const char *str, struct fault *f, int *top,
			     int *ret)
{
	unsigned char *set;

	*top = -1;
	*ret = parse_set(str, NULL, f, top);
	if (*ret)
		return NULL;
	set = calloc((size_t)*top + 1, 1);
	if (!set) {
		*ret = -ENOMEM;
		return NULL;
	}
	*top = -1;
	parse_set(str, set, f, top);
	return set;
}

static int collect(const unsigned char *set, int top, struct pmu__cpulist *out)
{
	size_t n = 0, i;

	for (i = 0; i <= (size_t)top; i++)
		n += set[i];
	out->cpu = malloc((n + 1) * sizeof(*out->cpu));
	if (!out->cpu)
		return -ENOMEM;
	out->n = 0;
	for (i = 0; i <= (size_t)top; i++)
		if (set[i])
			out->cpu[out->n++] = (int)i;
	return 0;
}

int pmu__cpulist_parse(const char *str, struct pmu__cpulist *out,
		       struct pmu_error *err)
{
	unsigned char *set;
	struct fault f;
	char tok[64];
	int ret, top;

	out->cpu = NULL;
	out->n = 0;
	if (!str)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "no CPU list given");
	set = to_set(str, &f, &top, &ret);
	if (set)
		ret = collect(set, top, out);
	free(set);
	if (ret != -1)
		return ret;
	element(&f, tok, sizeof(tok));
	return pmu__error(err, -EINVAL, PMU_ERR_USAGE, tok,
			  (int)(f.start - str), "bad CPU list element '%s' in "
			  "'%s': %s", tok, str, fault_text(f.why));
}

/*
 * The public parser reports finer than the internal one: the kind says
 * which fix applies (syntax, a range, a CPU that cannot exist) and the
 * offset points at the character that does not fit.
 */
static int public_error(const char *list, const struct fault *f,
			struct pmu_error *err)
{
	enum pmu_error_kind kind = PMU_ERR_SYNTAX;
	char tok[64];
	int code = -EINVAL;

	element(f, tok, sizeof(tok));
	if (f->why == F_NO_END || f->why == F_BACKWARDS) {
		kind = PMU_ERR_BAD_VALUE;
	} else if (f->why == F_BIG) {
		size_t len = strspn(f->at, "0123456789");

		kind = PMU_ERR_NO_TARGET;
		code = -ERANGE;
		snprintf(tok, sizeof(tok), "%.*s", (int)len, f->at);
	}
	return pmu__error(err, code, kind, tok, (int)(f->at - list),
			  "bad CPU list element '%.*s' in '%s': %s",
			  (int)strcspn(f->start, ","), f->start, list,
			  fault_text(f->why));
}

PMU_API ssize_t pmu_cpulist_parse(const char *list, int *cpus, size_t max,
				  struct pmu_error *err)
{
	unsigned char *set;
	struct fault f;
	ssize_t n = 0;
	int top, ret;

	if (!list || (!cpus && max))
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "pmu_cpulist_parse: no %s given",
				  list ? "array" : "CPU list");
	set = to_set(list, &f, &top, &ret);
	if (!set)
		return ret == -1 ? public_error(list, &f, err) : ret;
	for (int i = 0; i <= top; i++)
		if (set[i] && (size_t)n++ < max)
			cpus[n - 1] = i;
	free(set);
	return n;
}

int pmu__cpulist_read(const char *path, struct pmu__cpulist *out)
{
	char line[4096];
	FILE *f = fopen(path, "re");
	size_t len;

	out->cpu = NULL;
	out->n = 0;
	if (!f)
		return -errno;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	len = strcspn(line, "\n");
	line[len] = '\0';
	return pmu__cpulist_parse(line, out, NULL);
}

int pmu__cpulist_online(struct pmu__cpulist *out)
{
	return pmu__cpulist_read(ONLINE_PATH, out);
}

bool pmu__cpulist_has(const struct pmu__cpulist *l, int cpu)
{
	size_t lo = 0, hi = l->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->cpu[mid] == cpu)
			return true;
		if (l->cpu[mid] < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

int pmu__cpulist_check(const struct pmu__cpulist *want,
		       const struct pmu__cpulist *online,
		       struct pmu_error *err)
{
	char tok[16];
	size_t i;

	for (i = 0; i < want->n; i++) {
		if (pmu__cpulist_has(online, want->cpu[i]))
			continue;
		snprintf(tok, sizeof(tok), "%d", want->cpu[i]);
		return pmu__error(err, -EINVAL, PMU_ERR_NO_TARGET, tok, -1,
				  "CPU %d is not online (%zu CPUs online); choose "
				  "CPUs listed in " ONLINE_PATH,
				  want->cpu[i], online->n);
	}
	return 0;
}

void pmu__cpulist_free(struct pmu__cpulist *l)
{
	if (!l)
		return;
	free(l->cpu);
	l->cpu = NULL;
	l->n = 0;
}
