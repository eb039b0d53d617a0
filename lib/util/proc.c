/* SPDX-License-Identifier: MIT */
/* Processes and threads as /proc lists them, read in one place. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/host.h>

#include "util/proc.h"

static int push(pid_t **ids, size_t *n, size_t *cap, pid_t id)
{
	if (*n == *cap) {
		size_t nc = *cap ? 2 * *cap : 64;
		pid_t *nv = realloc(*ids, nc * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		*ids = nv;
		*cap = nc;
	}
	(*ids)[(*n)++] = id;
	return 0;
}

int pmu__proc_ids(const char *proc_root, pid_t pid, pid_t **ids, size_t *n,
		  size_t *cap)
{
	char path[4096];
	struct dirent *de;
	int ret = 0, len;
	DIR *d;

	if (pid)
		len = snprintf(path, sizeof(path), "%s/%d/task",
			       proc_root ? proc_root : "/proc", (int)pid);
	else
		len = snprintf(path, sizeof(path), "%s",
			       proc_root ? proc_root : "/proc");
	if (len < 0 || (size_t)len >= sizeof(path))
		return -ENAMETOOLONG;
	if (!(d = opendir(path)))
		return errno ? -errno : -EIO;
	while (!ret && (de = readdir(d))) {
		char *end;
		long id = strtol(de->d_name, &end, 10);

		if (id > 0 && !*end)
			ret = push(ids, n, cap, (pid_t)id);
	}
	closedir(d);
	return ret;
}

PMU_API ssize_t pmu_host_threads(pid_t pid, pid_t *tids, size_t max)
{
	pid_t *procs = NULL, *all = NULL;
	size_t np = 0, pcap = 0, n = 0, cap = 0;
	int ret;

	if (pid < 0 || (max && !tids))
		return -EINVAL;
	if (pid) {
		ret = pmu__proc_ids(NULL, pid, &all, &n, &cap);
		if (ret == -ENOENT)
			ret = -ESRCH;
	} else {
		ret = pmu__proc_ids(NULL, 0, &procs, &np, &pcap);
		/* a process gone since the listing has no threads left */
		for (size_t i = 0; !ret && i < np; i++)
			if ((ret = pmu__proc_ids(NULL, procs[i], &all, &n,
						 &cap)) == -ENOENT ||
			    ret == -ESRCH)
				ret = 0;
		free(procs);
	}
	if (!ret && max)
		memcpy(tids, all, (n < max ? n : max) * sizeof(*tids));
	free(all);
	return ret ? ret : (ssize_t)n;
}
