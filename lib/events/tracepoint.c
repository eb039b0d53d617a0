/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "events/evparse.h"

/* tracefs moved from debugfs to its own mount; older systems only have
 * the debugfs path. */
static const char *const default_roots[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};

static int id_under(const char *root, const char *sys, const char *name,
		    uint64_t *id)
{
	char path[PATH_MAX], buf[32], *end;
	unsigned long long v;
	int n, r;

	n = snprintf(path, sizeof(path), "%s/events/%s/%s/id", root, sys, name);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	r = pmu__read_small(path, buf, sizeof(buf));
	if (r < 0)
		return r == -ENOTDIR ? -ENOENT : r;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || end == buf || *end)
		return -EINVAL;
	*id = v;
	return 0;
}

int pmu__tracepoint_id(const char *tracefs_root, const char *sys,
		       const char *name, uint64_t *id)
{
	int r = -ENOENT;

	if (!pmu__name_is_safe(sys, strlen(sys)) ||
	    !pmu__name_is_safe(name, strlen(name)))
		return -ENOENT;
	if (tracefs_root)
		return id_under(tracefs_root, sys, name, id);
	for (size_t i = 0; i < sizeof(default_roots) / sizeof(*default_roots); i++) {
		r = id_under(default_roots[i], sys, name, id);
		if (r != -ENOENT)
			return r;
	}
	return r;
}

const char *pmu__tracefs_root(const char *tracefs_root)
{
	char path[PATH_MAX];

	if (tracefs_root)
		return tracefs_root;
	for (size_t i = 0; i < sizeof(default_roots) / sizeof(*default_roots); i++) {
		snprintf(path, sizeof(path), "%s/events", default_roots[i]);
		if (access(path, X_OK) == 0)
			return default_roots[i];
	}
	return NULL;
}

/* The events of one subsystem directory that match name_glob. */
static int expand_sys(const char *root, const char *sys, const char *name_glob,
		      const char *mods, struct pmu__expansion *x)
{
	char path[PATH_MAX], text[2 * NAME_MAX + 64], name[2 * NAME_MAX + 2];
	struct dirent *de;
	DIR *d;
	int r = 0;

	if ((size_t)snprintf(path, sizeof(path), "%s/events/%s", root, sys) >=
	    sizeof(path) || !(d = opendir(path)))
		return 0;
	/* readdir order, not sorted: the order perf lists them in */
	while (!r && (de = readdir(d))) {
		uint64_t id;

		if (de->d_name[0] == '.' || fnmatch(name_glob, de->d_name, 0) ||
		    id_under(root, sys, de->d_name, &id))
			continue;
		snprintf(name, sizeof(name), "%s:%s", sys, de->d_name);
		snprintf(text, sizeof(text), "%s%s", name, mods);
		r = pmu__expansion_add(x, text, name);
	}
	closedir(d);
	return r;
}

int pmu__tracepoint_expand(const char *tracefs_root, const char *sys_glob,
			   const char *name_glob, const char *mods,
			   struct pmu__expansion *x)
{
	const char *root = pmu__tracefs_root(tracefs_root);
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int r = 0;

	if (!root)
		return 0;
	if (!strpbrk(sys_glob, "*?["))
		return pmu__name_is_safe(sys_glob, strlen(sys_glob))
		       ? expand_sys(root, sys_glob, name_glob, mods, x) : 0;
	snprintf(path, sizeof(path), "%s/events", root);
	if (!(d = opendir(path)))
		return -errno;
	while (!r && (de = readdir(d)))
		if (de->d_name[0] != '.' && !fnmatch(sys_glob, de->d_name, 0))
			r = expand_sys(root, de->d_name, name_glob, mods, x);
	closedir(d);
	return r;
}
