/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <stdbool.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <pmu/host.h>

#include "events/catalog.h"
#include "events/evparse.h"
#include "util/outstruct.h"
#include "util/sysfs_pmus.h"

bool pmu__name_is_safe(const char *name, size_t len)
{
	/* Names become path components: no '/', no "..", no hidden files. */
	if (len == 0 || len > NAME_MAX || name[0] == '.')
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];

		if (!isalnum(c) && c != '_' && c != '-' && c != '.')
			return false;
	}
	return true;
}

int pmu__read_small(const char *path, char *buf, size_t sz)
{
	ssize_t n;
	int fd;

	if (sz == 0)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do
		n = read(fd, buf, sz - 1);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		n--;
	buf[n] = '\0';
	return (int)n;
}

int pmu__sysfs_path(char *buf, size_t sz, const char *root, const char *pmu,
		    const char *rel)
{
	int n = snprintf(buf, sz, "%s/bus/event_source/devices/%s%s%s",
			 root ? root : PMU__SYSFS_DEFAULT, pmu, *rel ? "/" : "",
			 rel);

	return n < 0 || (size_t)n >= sz ? -ENAMETOOLONG : 0;
}

int pmu__sysfs_pmu_type(const char *root, const char *pmu, uint32_t *type)
{
	char path[PATH_MAX], buf[32], *end;
	unsigned long v;
	int r;

	if (!pmu__name_is_safe(pmu, strlen(pmu)))
		return -ENOENT;
	r = pmu__sysfs_path(path, sizeof(path), root, pmu, "type");
	if (r == 0)
		r = pmu__read_small(path, buf, sizeof(buf));
	if (r < 0)
		return r;
	errno = 0;
	v = strtoul(buf, &end, 10);
	if (errno || end == buf || *end || v > UINT32_MAX)
		return -EINVAL;
	*type = (uint32_t)v;
	return 0;
}

static int field_of(const char *s, size_t len)
{
	static const char *const fields[] = { "config", "config1", "config2" };

	for (int i = 0; i < 3; i++)
		if (strlen(fields[i]) == len && !strncmp(s, fields[i], len))
			return i;
	return -1;
}

/* "lo-hi" or "bit" at *p; advances *p. */
static int parse_range(const char **p, unsigned *lo, unsigned *hi)
{
	char *end;
	unsigned long a, b;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	a = strtoul(*p, &end, 10);
	b = a;
	if (*end == '-') {
		if (!isdigit((unsigned char)end[1]))
			return -EINVAL;
		b = strtoul(end + 1, &end, 10);
	}
	if (a > b || b > 63)
		return -EINVAL;
	*lo = (unsigned)a;
	*hi = (unsigned)b;
	*p = end;
	return 0;
}

int pmu__format_parse(const char *text, struct pmu__format *f)
{
	const char *colon = strchr(text, ':'), *p;

	if (!colon || (f->field = field_of(text, (size_t)(colon - text))) < 0)
		return -EINVAL;
	f->mask = 0;
	for (p = colon + 1;; p++) {
		unsigned lo, hi;

		if (parse_range(&p, &lo, &hi))
			return -EINVAL;
		f->mask |= (~0ULL >> (63 - hi)) & (~0ULL << lo);
		if (*p == '\0')
			return 0;
		if (*p != ',')
			return -EINVAL;
	}
}

int pmu__format_apply(const struct pmu__format *f, uint64_t val,
		      struct perf_event_attr *attr)
{
	uint64_t out = 0, rest = val;
	__u64 *dst[] = { &attr->config, &attr->config1, &attr->config2 };

	for (unsigned bit = 0; bit < 64 && rest; bit++) {
		if (!(f->mask & (1ULL << bit)))
			continue;
		if (rest & 1)
			out |= 1ULL << bit;
		rest >>= 1;
	}
	if (rest)
		return -ERANGE;
	/* perf's rule: every term's bits are ORed in, over an event
	 * alias's and over a term given before for the same field */
	*dst[f->field] |= out;
	return 0;
}

int pmu__sysfs_format(const char *root, const char *pmu, const char *term,
		      struct pmu__format *f)
{
	char path[PATH_MAX], rel[NAME_MAX + 8], buf[256];
	int r;

	if (!pmu__name_is_safe(term, strlen(term)))
		return -ENOENT;
	snprintf(rel, sizeof(rel), "format/%s", term);
	r = pmu__sysfs_path(path, sizeof(path), root, pmu, rel);
	if (r == 0)
		r = pmu__read_small(path, buf, sizeof(buf));
	if (r < 0)
		return r == -ENOENT || r == -ENOTDIR ? -ENOENT : r;
	return pmu__format_parse(buf, f);
}

static void read_sidecars(const char *path, struct pmu__alias *a)
{
	char side[PATH_MAX + 8], buf[64], *end;
	double v;

	snprintf(side, sizeof(side), "%s.unit", path);
	if (pmu__read_small(side, a->unit, sizeof(a->unit)) < 0)
		a->unit[0] = '\0';
	snprintf(side, sizeof(side), "%s.scale", path);
	if (pmu__read_small(side, buf, sizeof(buf)) > 0) {
		v = strtod(buf, &end);
		if (end != buf && *end == '\0' && v > 0)
			a->scale = v;
	}
}

/* The PMU's own spelling of alias `name`, which perf matches in any
 * case ("INST_RETIRED" is armv8_pmuv3's inst_retired): into out, or
 * -ENOENT. */
static int alias_name(const char *root, const char *pmu, const char *name,
		      char *out, size_t sz)
{
	char path[PATH_MAX], rel[NAME_MAX + 8];
	struct dirent *de;
	DIR *d;
	int r = -ENOENT;

	if (!pmu__name_is_safe(name, strlen(name)) || strlen(name) >= sz)
		return -ENOENT;
	snprintf(rel, sizeof(rel), "events/%s", name);
	if (!pmu__sysfs_path(path, sizeof(path), root, pmu, rel) &&
	    !access(path, R_OK)) {
		strcpy(out, name);
		return 0;
	}
	if (pmu__sysfs_path(path, sizeof(path), root, pmu, "events") ||
	    !(d = opendir(path)))
		return -ENOENT;
	while ((de = readdir(d)))
		if (!strcasecmp(de->d_name, name) && strlen(de->d_name) < sz) {
			strcpy(out, de->d_name);
			r = 0;
			break;
		}
	closedir(d);
	return r;
}

int pmu__sysfs_alias(const char *root, const char *pmu, const char *name,
		     struct pmu__alias *a)
{
	char path[PATH_MAX], rel[NAME_MAX + 8], own[NAME_MAX + 1];
	int r;

	a->terms[0] = a->unit[0] = '\0';
	a->scale = 1.0;
	if (alias_name(root, pmu, name, own, sizeof(own)))
		return -ENOENT;
	snprintf(rel, sizeof(rel), "events/%s", own);
	r = pmu__sysfs_path(path, sizeof(path), root, pmu, rel);
	if (r == 0)
		r = pmu__read_small(path, a->terms, sizeof(a->terms));
	if (r < 0)
		return r == -ENOENT || r == -ENOTDIR ? -ENOENT : r;
	read_sidecars(path, a);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in a PMU's directory `sub` ("format", "events": sidecar
 * files with a '.' left out), sorted and comma-separated into buf; a
 * list longer than buf ends with "...". */
static void list_dir(const char *root, const char *pmu, const char *sub,
		     char *buf, size_t sz)
{
	char path[PATH_MAX], *name[256];
	size_t n = 0, used = 0;
	bool full = false;
	struct dirent *de;
	DIR *d;

	buf[0] = '\0';
	if (pmu__sysfs_path(path, sizeof(path), root, pmu, sub) ||
	    !(d = opendir(path)))
		return;
	while ((de = readdir(d)) && n < sizeof(name) / sizeof(name[0]))
		if (de->d_name[0] != '.' && !strchr(de->d_name, '.') &&
		    (name[n] = strdup(de->d_name)))
			n++;
	closedir(d);
	qsort(name, n, sizeof(name[0]), cmp_str);
	for (size_t i = 0; i < n; i++) {
		int w = full ? 0 : snprintf(buf + used, sz - used, "%s%s",
					    used ? ", " : "", name[i]);

		if (!full && (w < 0 || (size_t)w >= sz - used)) {
			/* the end of what fits, marked as cut */
			buf[used] = '\0';
			if (used + 4 < sz)
				strcpy(buf + used, "...");
			full = true;
		} else if (!full) {
			used += (size_t)w;
		}
		free(name[i]);
	}
}

void pmu__sysfs_format_list(const char *root, const char *pmu, char *buf,
			    size_t sz)
{
	list_dir(root, pmu, "format", buf, sz);
}

void pmu__sysfs_alias_list(const char *root, const char *pmu, char *buf,
			   size_t sz)
{
	list_dir(root, pmu, "events", buf, sz);
}

int pmu__expansion_add(struct pmu__expansion *x, const char *text,
		       const char *name)
{
	if (x->n == x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 16;
		char **t = realloc(x->text, cap * sizeof(*t));

		if (!t)
			return -ENOMEM;
		x->text = t;
		t = realloc(x->name, cap * sizeof(*t));
		if (!t)
			return -ENOMEM;
		x->name = t;
		x->cap = cap;
	}
	x->text[x->n] = strdup(text);
	x->name[x->n] = strdup(name);
	if (!x->text[x->n] || !x->name[x->n]) {
		free(x->text[x->n]);
		free(x->name[x->n]);
		return -ENOMEM;
	}
	x->n++;
	return 0;
}

void pmu__expansion_free(struct pmu__expansion *x)
{
	for (size_t i = 0; i < x->n; i++) {
		free(x->text[i]);
		free(x->name[i]);
	}
	free(x->text);
	free(x->name);
	*x = (struct pmu__expansion){ 0 };
}

/* Names of the sysfs PMUs `keep` accepts, in natural order. */
struct scan {
	const char *root;
	bool (*keep)(const char *root, const char *pmu, const void *arg);
	const void *arg;
};

static bool scan_keep(const char *name, const void *arg)
{
	const struct scan *sc = arg;

	return sc->keep(sc->root, name, sc->arg);
}

static int scan_pmus(const char *root,
		     bool (*keep)(const char *root, const char *pmu,
				  const void *arg),
		     const void *arg, char ***out, size_t *n)
{
	struct scan sc = { root, keep, arg };

	return pmu__sysfs_pmus(root, scan_keep, &sc, out, n);
}

static bool has_alias(const char *root, const char *pmu, const void *arg)
{
	char own[NAME_MAX + 1];

	return !alias_name(root, pmu, arg, own, sizeof(own));
}

static bool is_instance(const char *root, const char *pmu, const void *arg)
{
	(void)root;
	return pmu__uncore_pmu_match(arg, pmu);
}

int pmu__sysfs_instances(const char *root, const char *pmu, char ***out,
			 size_t *n)
{
	return scan_pmus(root, is_instance, pmu, out, n);
}

int pmu__sysfs_alias_expand(const char *root, const char *name,
			    const char *mods, const char *token,
			    struct pmu__expansion *x)
{
	char **pmus = NULL, text[2 * NAME_MAX + 64];
	size_t n = 0;
	int r;

	if (!pmu__name_is_safe(name, strlen(name)) || strchr(name, '.'))
		return 0;
	r = scan_pmus(root, has_alias, name, &pmus, &n);
	for (size_t i = 0; !r && i < n; i++) {
		char own[NAME_MAX + 1];

		if (alias_name(root, pmus[i], name, own, sizeof(own)))
			continue;
		snprintf(text, sizeof(text), "%s/%s/%s", pmus[i], own, mods);
		r = pmu__expansion_add(x, text, token);
	}
	pmu__strv_free(pmus, n);
	return r;
}

/* ---- the kernel's PMUs and aliases, for <pmu/host.h> ---- */

/* Element k of a caller's array whose elements are esz bytes apart. */
static void *elem(void *out, size_t esz, size_t k)
{
	return (char *)out + k * esz;
}

PMU_API ssize_t pmu_kernel_pmus(struct pmu_kernel_pmu *out, size_t max)
{
	size_t esz = max && out ? out[0].size : 0, n = 0;
	char **names;
	int r;

	if (max && !pmu__out_ok(out, esz))
		return -EINVAL;
	if ((r = pmu__sysfs_pmus(NULL, NULL, NULL, &names, &n)))
		return r;
	for (size_t i = 0; i < n && i < max; i++) {
		struct pmu_kernel_pmu p = { .size = sizeof(p), .type = -1 };
		uint32_t type;

		snprintf(p.name, sizeof(p.name), "%s", names[i]);
		if (!pmu__sysfs_pmu_type(NULL, names[i], &type) &&
		    type <= INT32_MAX)
			p.type = (int)type;
		p.core = pmu__sysfs_core_pmu(names[i]);
		pmu__out_copy(elem(out, esz, i), esz, &p, sizeof(p));
	}
	pmu__strv_free(names, n);
	return (ssize_t)n;
}

/* NAME.unit, NAME.scale: properties of alias NAME, not aliases. */
static bool alias_file(const char *name, const void *arg)
{
	(void)arg;
	return !strchr(name, '.');
}

PMU_API ssize_t pmu_kernel_aliases(const char *pmu,
				   struct pmu_kernel_alias *out, size_t max)
{
	size_t esz = max && out ? out[0].size : 0, n = 0;
	char dir[PATH_MAX], **v;
	int r;

	if (!pmu || !pmu__name_is_safe(pmu, strlen(pmu)) ||
	    (max && !pmu__out_ok(out, esz)))
		return -EINVAL;
	if (pmu__sysfs_path(dir, sizeof(dir), NULL, pmu, "events"))
		return 0;
	if ((r = pmu__dir_names(dir, alias_file, NULL, &v, &n)))
		return r;
	for (size_t i = 0; i < n && i < max; i++) {
		struct pmu_kernel_alias a = { .size = sizeof(a) };
		char path[PATH_MAX + NAME_MAX + 2];

		snprintf(a.name, sizeof(a.name), "%s", v[i]);
		snprintf(path, sizeof(path), "%s/%s", dir, v[i]);
		if (pmu__read_small(path, a.terms, sizeof(a.terms)) < 0)
			a.terms[0] = '\0';
		pmu__out_copy(elem(out, esz, i), esz, &a, sizeof(a));
	}
	pmu__strv_free(v, n);
	return (ssize_t)n;
}
