/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "drivers/perf.h"
#include "util/cpulist.h"
#include "util/error.h"
#include "util/proc.h"

static int units_alloc(struct pmu__perf_units *u, size_t n)
{
	u->pid = calloc(n ? n : 1, sizeof(*u->pid));
	u->cpu = calloc(n ? n : 1, sizeof(*u->cpu));
	u->owner = calloc(n ? n : 1, sizeof(*u->owner));
	u->n = 0;
	if (!u->pid || !u->cpu || !u->owner) {
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
	u->owner[0] = pid;
	u->n = 1;
	return 0;
}

/* A thread found while resolving the target, and the listed id (and its
 * place in the list) it was found through. */
struct thread_ent {
	pid_t tid, owner;
	size_t order;
};

struct thread_list {
	struct thread_ent *e;
	size_t n, cap;
};

static int list_push(struct thread_list *l, pid_t tid, pid_t owner,
		     size_t order)
{
	if (l->n == l->cap) {
		size_t ncap = l->cap ? l->cap * 2 : 16;
		struct thread_ent *e = realloc(l->e, ncap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		l->e = e;
		l->cap = ncap;
	}
	l->e[l->n++] = (struct thread_ent){ tid, owner, order };
	return 0;
}

static int no_process(struct pmu_error *err, pid_t pid, const char *why)
{
	char tok[24];

	snprintf(tok, sizeof(tok), "%d", (int)pid);
	return pmu__error(err, -ESRCH, PMU_ERR_NO_TARGET, tok, -1,
			  "no such process: %d%s", (int)pid, why);
}

/* Threads are listed once; ones created later are not followed. */
static int list_threads(struct thread_list *l, const char *proc, pid_t pid,
			size_t order, struct pmu_error *err)
{
	pid_t *tids = NULL;
	size_t n = 0, cap = 0;
	int ret = pmu__proc_ids(proc, pid, &tids, &n, &cap);

	if (ret == -ENOENT || ret == -ESRCH) {
		free(tids);
		return no_process(err, pid, "");
	}
	if (ret) {
		free(tids);
		return pmu__error(err, ret, PMU_ERR_SYSTEM, NULL, -1,
				  "cannot list the threads of process %d: %s",
				  (int)pid, pmu_strerror(ret));
	}
	for (size_t i = 0; !ret && i < n; i++)
		ret = list_push(l, tids[i], pid, order);
	free(tids);
	if (!ret && !n)
		ret = no_process(err, pid, " (it has exited)");
	return ret;
}

static int ent_cmp(const void *a, const void *b)
{
	const struct thread_ent *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* One unit per thread, owned by the first listed id that led to it, so
 * a process named twice (or by one of its threads) is still one owner. */
static int units_from_list(struct pmu__perf_units *u, struct thread_list *l)
{
	size_t i;
	int ret;

	qsort(l->e, l->n, sizeof(*l->e), ent_cmp);
	ret = units_alloc(u, l->n);
	for (i = 0; !ret && i < l->n; i++) {
		if (u->n && u->pid[u->n - 1] == l->e[i].tid)
			continue;
		u->pid[u->n] = l->e[i].tid;
		u->cpu[u->n] = -1;
		u->owner[u->n++] = l->e[i].owner;
	}
	return ret;
}

static int units_listed(struct pmu__perf_units *u, const pid_t *ids,
			size_t n, bool threads, const char *proc,
			struct pmu_error *err)
{
	struct thread_list l = { 0 };
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < n; i++)
		ret = threads ? list_push(&l, ids[i], ids[i], i)
			      : list_threads(&l, proc, ids[i], i, err);
	if (!ret)
		ret = units_from_list(u, &l);
	free(l.e);
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
		u->owner[i] = -1;
		u->cpu[i] = cpus ? want.cpu[i] : online.cpu[i];
		u->n++;
	}
	pmu__cpulist_free(&want);
	pmu__cpulist_free(&online);
	return ret;
}

static int check_ids(const pid_t *ids, size_t n, struct pmu_error *err)
{
	char tok[24];
	size_t i;

	for (i = 0; i < n; i++) {
		if (ids[i] > 0)
			continue;
		snprintf(tok, sizeof(tok), "%d", (int)ids[i]);
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, tok, -1,
				  "target needs process or thread ids > 0, "
				  "not %d", (int)ids[i]);
	}
	return 0;
}

/* Sampling rings of inherited events must be per CPU: every thread
 * unit becomes one unit per CPU (the listed ones, or every online one). */
static int units_per_cpu(struct pmu__perf_units *u, const char *cpus,
			 struct pmu_error *err)
{
	struct pmu__perf_units c = { 0 }, out = { 0 };
	size_t i, k;
	int ret = units_cpus(&c, cpus, err);

	if (!ret)
		ret = units_alloc(&out, u->n * c.n);
	for (i = 0; !ret && i < u->n; i++) {
		for (k = 0; k < c.n; k++) {
			out.pid[out.n] = u->pid[i];
			out.owner[out.n] = u->owner[i];
			out.cpu[out.n++] = c.cpu[k];
		}
	}
	pmu__perf_units_free(&c);
	if (ret) {
		pmu__perf_units_free(u);
		return ret;
	}
	pmu__perf_units_free(u);
	*u = out;
	return 0;
}

static int units_threads(const struct pmu__target *t, const char *proc,
			 struct pmu__perf_units *u, struct pmu_error *err);

int pmu__perf_units_get(const struct pmu__target *t, const char *proc,
			struct pmu__perf_units *u, struct pmu_error *err)
{
	int ret = units_threads(t, proc, u, err);

	if (ret || !t->per_cpu || t->kind == PMU__TARGET_CPUS)
		return ret;
	return units_per_cpu(u, t->cpus, err);
}

static int units_threads(const struct pmu__target *t, const char *proc,
			 struct pmu__perf_units *u, struct pmu_error *err)
{
	bool listed = t->kind == PMU__TARGET_PID || t->kind == PMU__TARGET_TID;
	int ret;

	*u = (struct pmu__perf_units){ 0 };
	if (t->kind == PMU__TARGET_CHILD || listed) {
		if (!t->npids || !t->pids)
			return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
					  "the target needs a process or "
					  "thread id");
		ret = check_ids(t->pids, t->npids, err);
		if (ret)
			return ret;
	}
	switch (t->kind) {
	case PMU__TARGET_SELF:
		return units_one(u, 0);
	case PMU__TARGET_CHILD:
		return units_one(u, t->pids[0]);
	case PMU__TARGET_TID:
	case PMU__TARGET_PID:
		return units_listed(u, t->pids, t->npids,
				    t->kind == PMU__TARGET_TID, proc, err);
	case PMU__TARGET_CPUS:
		return units_cpus(u, t->cpus, err);
	}
	return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
			  "unknown target kind %d", (int)t->kind);
}

void pmu__perf_units_free(struct pmu__perf_units *u)
{
	if (!u)
		return;
	free(u->pid);
	free(u->cpu);
	free(u->owner);
	*u = (struct pmu__perf_units){ 0 };
}
