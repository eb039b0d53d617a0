/* SPDX-License-Identifier: MIT */
/* The kernel's PMU directory, read in one place. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int pmu__dir_names(const char *dir,
		   bool (*keep)(const char *name, const void *arg),
		   const void *arg, char ***names, size_t *n)
{
	char **v = NULL;
	struct dirent *de;
	size_t cap = 0;
	DIR *d;

	*n = 0;
	*names = NULL;
	if (!(d = opendir(dir)))
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

int pmu__sysfs_pmus(const char *sysfs_root,
		    bool (*keep)(const char *name, const void *arg),
		    const void *arg, char ***names, size_t *n)
{
	char path[4096];
	int len = snprintf(path, sizeof(path), "%s/bus/event_source/devices",
			   sysfs_root ? sysfs_root : "/sys");

	*n = 0;
	*names = NULL;
	if (len < 0 || (size_t)len >= sizeof(path))
		return 0;
	return pmu__dir_names(path, keep, arg, names, n);
}
