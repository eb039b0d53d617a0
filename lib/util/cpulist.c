/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cpulist.h"
#include "util/error.h"

#define ONLINE_PATH "/sys/devices/system/cpu/online"

/* Parse a decimal CPU number at *p; advances *p. -1 if none or too big. */
static int parse_cpu(const char **p)
{
	const char *s = *p;
	long v = 0;

	if (*s < '0' || *s > '9')
		return -1;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (*s - '0');
		if (v > PMU__CPU_MAX)
			return -1;
		s++;
	}
	*p = s;
	return (int)v;
}

static int bad_element(const char *str, const char *start,
		       struct pmu_error *err, const char *why)
{
	char tok[64];
	size_t len = strcspn(start, ",");

	if (len >= sizeof(tok))
		len = sizeof(tok) - 1;
	memcpy(tok, start, len);
	tok[len] = '\0';
	return pmu__error(err, -EINVAL, PMU_ERR_USAGE, tok, (int)(start - str),
			  "bad CPU list element '%s' in '%s': %s", tok, str,
			  why);
}

/* One "N" or "N-M" element; marks its CPUs in `set`. */
static int parse_element(const char *str, const char **p, unsigned char *set,
			 struct pmu_error *err)
{
	const char *start = *p, *s = *p;
	int lo, hi;

	if (*s == ',' || *s == '\0')
		return bad_element(str, start, err, "empty element");
	lo = parse_cpu(&s);
	hi = lo;
	if (lo >= 0 && *s == '-') {
		s++;
		hi = parse_cpu(&s);
	}
	if (lo < 0 || hi < 0 || (*s != ',' && *s != '\0'))
		return bad_element(str, start, err,
				   "expected N or N-M with N, M <= 65535");
	if (hi < lo)
		return bad_element(str, start, err, "range goes backwards");
	memset(set + lo, 1, (size_t)(hi - lo + 1));
	*p = s;
	return 0;
}

static int collect(const unsigned char *set, struct pmu__cpulist *out)
{
	size_t n = 0, i;

	for (i = 0; i <= PMU__CPU_MAX; i++)
		n += set[i];
	out->cpu = malloc(n * sizeof(*out->cpu));
	if (!out->cpu)
		return -ENOMEM;
	out->n = 0;
	for (i = 0; i <= PMU__CPU_MAX; i++)
		if (set[i])
			out->cpu[out->n++] = (int)i;
	return 0;
}

int pmu__cpulist_parse(const char *str, struct pmu__cpulist *out,
		       struct pmu_error *err)
{
	unsigned char *set;
	const char *p = str;
	int ret = 0;

	out->cpu = NULL;
	out->n = 0;
	if (!str)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "no CPU list given");
	set = calloc(PMU__CPU_MAX + 1, 1);
	if (!set)
		return -ENOMEM;
	for (;;) {
		ret = parse_element(str, &p, set, err);
		if (ret || *p == '\0')
			break;
		p++; /* the comma; an empty element after it is an error */
	}
	if (!ret)
		ret = collect(set, out);
	free(set);
	return ret;
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
