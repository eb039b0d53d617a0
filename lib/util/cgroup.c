/* SPDX-License-Identifier: MIT */
/* Where a cgroup's directory is: under the hierarchy perf_event events
 * use, the v1 mount with the perf_event controller, else the v2 one. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/cgroup.h"

/* Field 5 (the mount point) and what follows " - " (fstype, source,
 * super options) of one mountinfo line. */
static bool split_line(char *line, char **mnt, char **fstype, char **opts)
{
	char *sep = strstr(line, " - "), *save = NULL, *f;
	int i = 0;

	if (!sep)
		return false;
	*sep = '\0';
	for (f = strtok_r(line, " ", &save); f && i < 4; f = strtok_r(NULL, " ", &save))
		i++;
	*mnt = f;
	*fstype = strtok_r(sep + 3, " ", &save);
	if (!strtok_r(NULL, " ", &save))
		return false;
	*opts = strtok_r(NULL, " \n", &save);
	return *mnt && *fstype && *opts;
}

static bool has_opt(const char *opts, const char *want)
{
	size_t n = strlen(want);

	for (const char *o = opts; o; o = strchr(o, ',')) {
		o += *o == ',';
		if (!strncmp(o, want, n) && (o[n] == ',' || !o[n]))
			return true;
	}
	return false;
}

int pmu__cgroup_mount_at(const char *mountinfo, char *buf, size_t sz)
{
	char line[1024], v2[512] = "";
	FILE *f = fopen(mountinfo, "re");
	bool found = false;

	if (!f)
		return -errno;
	while (!found && fgets(line, sizeof(line), f)) {
		char *mnt, *type, *opts;

		if (!split_line(line, &mnt, &type, &opts))
			continue;
		if (!strcmp(type, "cgroup") && has_opt(opts, "perf_event")) {
			snprintf(buf, sz, "%s", mnt);
			found = true;
		} else if (!strcmp(type, "cgroup2") && !v2[0]) {
			snprintf(v2, sizeof(v2), "%s", mnt);
		}
	}
	fclose(f);
	if (!found && v2[0])
		snprintf(buf, sz, "%s", v2);
	return found || v2[0] ? 0 : -ENOENT;
}

int pmu__cgroup_path(const char *name, char *buf, size_t sz)
{
	char mnt[512];
	int r = pmu__cgroup_mount_at("/proc/self/mountinfo", mnt, sizeof(mnt));

	/* as perf names them: relative to the hierarchy, "/" its root */
	while (*name == '/')
		name++;
	if (r == 0 && snprintf(buf, sz, "%s%s%s", mnt, *name ? "/" : "",
			       name) >= (int)sz)
		r = -ENAMETOOLONG;
	return r;
}
