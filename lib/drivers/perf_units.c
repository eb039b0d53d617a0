/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "drivers/perf.h"
#include "util/cpulist.h"
#include "util/error.h"

static int units_alloc(struct pmu__perf_units *u, size_t n)
{
	u->pid = calloc(n ? n : 1, sizeof(*u->pid));
	u->cpu = calloc(n ? n : 1, sizeof(*u->cpu));
	u->n = 0;
	if (!u->pid || !u->cpu) {
		pmu__perf_units_free(u);
		return -ENOMEM;
	}
	return 0;
}

static int units_one(struct pmu__perf_units *u, pid_t pid)
{
	int ret = units_alloc(u, 1);

	if (ret)
		return ret;
	u->pid[0] = pid;
	u->cpu[0] = -1;
	u->n = 1;
	return 0;
}

static int add_thread(struct pmu__perf_units *u, size_t *cap, pid_t tid)
{
	if (u->n == *cap) {
		size_t ncap = *cap * 2;
		pid_t *p = realloc(u->pid, ncap * sizeof(*p));
		int *c;

		if (!p)
			return -ENOMEM;
		u->pid = p;
		c = realloc(u->cpu, ncap * sizeof(*c));
		if (!c)
			return -ENOMEM;
		u->cpu = c;
		*cap = ncap;
	}
	u->pid[u->n] = tid;
	u->cpu[u->n++] = -1;
	return 0;
}

/* Threads are listed once; ones created later are not followed. */
static int units_threads(struct pmu__perf_units *u, pid_t pid,
			 struct pmu_error *err)
{
	char path[64], tok[24];
	struct dirent *d;
	size_t cap = 8;
	DIR *dir;
	int ret;

	snprintf(tok, sizeof(tok), "%d", (int)pid);
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return pmu__error(err, -ESRCH, PMU_ERR_NO_TARGET, tok, -1,
				  "no such process: %d", (int)pid);
	ret = units_alloc(u, cap);
	while (!ret && (d = readdir(dir))) {
		char *end;
		long tid = strtol(d->d_name, &end, 10);

		if (*end == '\0' && tid > 0)
			ret = add_thread(u, &cap, (pid_t)tid);
	}
	closedir(dir);
	if (!ret && u->n == 0)
		ret = pmu__error(err, -ESRCH, PMU_ERR_NO_TARGET, tok, -1,
				 "no such process: %d (it has exited)",
				 (int)pid);
	if (ret)
		pmu__perf_units_free(u);
	return ret;
}

static int units_cpus(struct pmu__perf_units *u, const char *cpus,
		      struct pmu_error *err)
{
	struct pmu__cpulist want = { 0 }, online = { 0 };
	int ret;
	size_t i;

	ret = pmu__cpulist_online(&online);
	if (ret)
		return pmu__error(err, ret, PMU_ERR_SYSTEM, NULL, -1,
				  "cannot read the online CPUs: %s",
				  pmu_strerror(ret));
	ret = cpus ? pmu__cpulist_parse(cpus, &want, err) : 0;
	if (!ret && cpus)
		ret = pmu__cpulist_check(&want, &online, err);
	if (!ret)
		ret = units_alloc(u, cpus ? want.n : online.n);
	for (i = 0; !ret && i < (cpus ? want.n : online.n); i++) {
		u->pid[i] = -1;
		u->cpu[i] = cpus ? want.cpu[i] : online.cpu[i];
		u->n++;
	}
	pmu__cpulist_free(&want);
	pmu__cpulist_free(&online);
	return ret;
}

int pmu__perf_units_get(const struct pmu_open_opts *o,
			struct pmu__perf_units *u, struct pmu_error *err)
{
	char tok[24];

	u->pid = NULL;
	u->cpu = NULL;
	u->n = 0;
	if (o->target != PMU_TARGET_SELF && o->target != PMU_TARGET_CPUS &&
	    o->pid <= 0) {
		snprintf(tok, sizeof(tok), "%d", (int)o->pid);
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, tok, -1,
				  "target needs a process or thread id > 0, "
				  "not %d", (int)o->pid);
	}
	switch (o->target) {
	case PMU_TARGET_SELF:
		return units_one(u, 0);
	case PMU_TARGET_TID:
	case PMU_TARGET_CHILD:
		return units_one(u, o->pid);
	case PMU_TARGET_PID:
		return units_threads(u, o->pid, err);
	case PMU_TARGET_CPUS:
		return units_cpus(u, o->cpus, err);
	}
	return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
			  "unknown target kind %d", (int)o->target);
}

void pmu__perf_units_free(struct pmu__perf_units *u)
{
	if (!u)
		return;
	free(u->pid);
	free(u->cpu);
	u->pid = NULL;
	u->cpu = NULL;
	u->n = 0;
}
