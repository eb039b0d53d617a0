/* SPDX-License-Identifier: MIT */
#include <errno.h>
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
