/* SPDX-License-Identifier: MIT */
/* The kernel's PMU directory, read in one place. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/host.h>

#include "util/sysfs_pmus.h"

int pmu__strcmp_natural(const char *x, const char *y)
{
	while (*x && *y) {
		if (isdigit((unsigned char)*x) && isdigit((unsigned char)*y)) {
			char *ex, *ey;
			unsigned long long vx = strtoull(x, &ex, 10);
			unsigned long long vy = strtoull(y, &ey, 10);

			if (vx != vy)
				return vx < vy ? -1 : 1;
			x = ex;
			y = ey;
			continue;
		}
		if (*x != *y)
			return (unsigned char)*x - (unsigned char)*y;
		x++;
		y++;
	}
	return (unsigned char)*x - (unsigned char)*y;
}

static int cmp_natural(const void *a, const void *b)
{
	return pmu__strcmp_natural(*(char *const *)a, *(char *const *)b);
}

void pmu__strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

bool pmu__sysfs_core_pmu(const char *name)
{
	return !strcmp(name, "cpu") || !strcmp(name, "cpu_core") ||
	       !strcmp(name, "cpu_atom") ||
	       !strncmp(name, "armv8", 5) || !strncmp(name, "armv7_cortex", 12);
}

int pmu__sysfs_pmus(const char *sysfs_root,
		    bool (*keep)(const char *name, const void *arg),
		    const void *arg, char ***names, size_t *n)
{
	char path[4096], **v = NULL;
	struct dirent *de;
	size_t cap = 0;
	DIR *d;
	int len = snprintf(path, sizeof(path), "%s/bus/event_source/devices",
			   sysfs_root ? sysfs_root : "/sys");

	*n = 0;
	*names = NULL;
	if (len < 0 || (size_t)len >= sizeof(path) || !(d = opendir(path)))
		return 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || (keep && !keep(de->d_name, arg)))
			continue;
		if (*n == cap) {
			char **nv = realloc(v, (cap = cap ? 2 * cap : 8) *
					       sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		if (!(v[*n] = strdup(de->d_name)))
			break;
		(*n)++;
	}
	closedir(d);
	if (de) {
		pmu__strv_free(v, *n);
		*n = 0;
		return -ENOMEM;
	}
	*names = v;
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_natural);
	return 0;
}

/* Reads the first line of a file into buf (sz bytes), without its
 * newline; "" when it cannot. */
static void first_line(const char *path, char *buf, size_t sz)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, (int)sz, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
}

/* out[k] of elements esz bytes apart, filled up to esz from `mine`. */
static void put_elem(void *out, size_t esz, size_t k, const void *mine,
		     size_t mine_sz)
{
	char *dst = (char *)out + k * esz;
	size_t n = esz < mine_sz ? esz : mine_sz;

	memcpy(dst + sizeof(size_t), (const char *)mine + sizeof(size_t),
	       n - sizeof(size_t));
}

PMU_API ssize_t pmu_kernel_pmus(struct pmu_kernel_pmu *out, size_t max)
{
	size_t esz = max ? out ? out[0].size : 0 : sizeof(*out), n = 0;
	char **names;
	int r;

	if (max && (!out || esz <= sizeof(size_t)))
		return -EINVAL;
	if ((r = pmu__sysfs_pmus(NULL, NULL, NULL, &names, &n)))
		return r;
	for (size_t i = 0; i < n && i < max; i++) {
		struct pmu_kernel_pmu p = { .size = sizeof(p), .type = -1 };
		char path[4200], v[32];

		snprintf(p.name, sizeof(p.name), "%s", names[i]);
		snprintf(path, sizeof(path),
			 "/sys/bus/event_source/devices/%s/type", names[i]);
		first_line(path, v, sizeof(v));
		if (v[0] >= '0' && v[0] <= '9')
			p.type = (int)strtol(v, NULL, 10);
		p.core = pmu__sysfs_core_pmu(names[i]);
		put_elem(out, esz, i, &p, sizeof(p));
	}
	pmu__strv_free(names, n);
	return (ssize_t)n;
}

PMU_API ssize_t pmu_kernel_aliases(const char *pmu,
				   struct pmu_kernel_alias *out, size_t max)
{
	size_t esz = max ? out ? out[0].size : 0 : sizeof(*out), n = 0,
	       cap = 0;
	char dir[4200], **v = NULL;
	struct dirent *de;
	DIR *d;

	if (!pmu || !*pmu || strchr(pmu, '/') || !strcmp(pmu, "..") ||
	    (max && (!out || esz <= sizeof(size_t))))
		return -EINVAL;
	snprintf(dir, sizeof(dir), "/sys/bus/event_source/devices/%s/events",
		 pmu);
	if (!(d = opendir(dir)))
		return 0;
	while ((de = readdir(d))) {
		/* NAME.unit, NAME.scale: properties of NAME */
		if (de->d_name[0] == '.' || strchr(de->d_name, '.'))
			continue;
		if (n == cap) {
			char **nv = realloc(v, (cap = cap ? 2 * cap : 16) *
					       sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		if (!(v[n] = strdup(de->d_name)))
			break;
		n++;
	}
	closedir(d);
	if (de) {
		pmu__strv_free(v, n);
		return -ENOMEM;
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_natural);
	for (size_t i = 0; i < n && i < max; i++) {
		struct pmu_kernel_alias a = { .size = sizeof(a) };
		char path[4500];

		snprintf(a.name, sizeof(a.name), "%s", v[i]);
		snprintf(path, sizeof(path), "%s/%s", dir, v[i]);
		first_line(path, a.terms, sizeof(a.terms));
		put_elem(out, esz, i, &a, sizeof(a));
	}
	pmu__strv_free(v, n);
	return (ssize_t)n;
}
