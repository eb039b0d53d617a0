/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profile/machine.h"

void pmu__machine_init(struct pmu__machine *m, struct pmu__dso_set *dsos)
{
	memset(m, 0, sizeof(*m));
	m->dsos = dsos;
}

void pmu__machine_free(struct pmu__machine *m)
{
	for (size_t i = 0; i < m->proc_cap; i++)
		if (m->procs[i]) {
			free(m->procs[i]->maps);
			free(m->procs[i]);
		}
	for (size_t i = 0; i < m->thr_cap; i++)
		free(m->threads[i]);
	for (size_t i = 0; i < m->nstrs; i++)
		free(m->strs[i]);
	free(m->procs);
	free(m->threads);
	free(m->strs);
	memset(m, 0, sizeof(*m));
}

static const char *intern(struct pmu__machine *m, const char *s)
{
	char *c, **v;

	for (size_t i = m->nstrs; i-- > 0 && i + 8 >= m->nstrs;)
		if (!strcmp(m->strs[i], s))
			return m->strs[i];
	if (m->nstrs == m->cap_strs) {
		size_t cap = m->cap_strs ? 2 * m->cap_strs : 64;

		if (!(v = realloc(m->strs, cap * sizeof(*v))))
			return NULL;
		m->strs = v;
		m->cap_strs = cap;
	}
	if (!(c = strdup(s)))
		return NULL;
	m->strs[m->nstrs++] = c;
	return c;
}

static size_t slot(int key, size_t cap)
{
	return ((size_t)(unsigned)key * 2654435761u) & (cap - 1);
}

/* Open-addressing tables of pointers whose first member is an int key. */
static void **table_find(void **t, size_t cap, int key)
{
	if (!cap)
		return NULL;
	for (size_t k = slot(key, cap);; k = (k + 1) & (cap - 1)) {
		if (!t[k] || *(int *)t[k] == key)
			return &t[k];
	}
}

static int table_grow(void ***t, size_t *cap)
{
	size_t ncap = *cap ? 2 * *cap : 256;
	void **n = calloc(ncap, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (size_t i = 0; i < *cap; i++)
		if ((*t)[i])
			*table_find(n, ncap, *(int *)(*t)[i]) = (*t)[i];
	free(*t);
	*t = n;
	*cap = ncap;
	return 0;
}

struct pmu__proc *pmu__machine_proc(struct pmu__machine *m, int pid)
{
	void **s;

	if (m->last_proc && m->last_proc->pid == pid)
		return m->last_proc;
	s = table_find((void **)m->procs, m->proc_cap, pid);
	if (s && *s)
		return m->last_proc = *s;
	if (2 * (m->nproc + 1) > m->proc_cap &&
	    table_grow((void ***)&m->procs, &m->proc_cap))
		return NULL;
	struct pmu__proc *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->pid = pid;
	*table_find((void **)m->procs, m->proc_cap, pid) = p;
	m->nproc++;
	return m->last_proc = p;
}

struct pmu__thread *pmu__machine_thread(struct pmu__machine *m, int pid,
					int tid)
{
	void **s;

	if (m->last_thr && m->last_thr->tid == tid)
		return m->last_thr;
	s = table_find((void **)m->threads, m->thr_cap, tid);
	if (s && *s)
		return m->last_thr = *s;
	if (2 * (m->nthr + 1) > m->thr_cap &&
	    table_grow((void ***)&m->threads, &m->thr_cap))
		return NULL;
	struct pmu__thread *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->tid = tid;
	t->pid = pid;
	*table_find((void **)m->threads, m->thr_cap, tid) = t;
	m->nthr++;
	return m->last_thr = t;
}

int pmu__machine_comm(struct pmu__machine *m, int pid, int tid,
		      const char *comm)
{
	struct pmu__thread *t = pmu__machine_thread(m, pid, tid);

	if (!t)
		return -ENOMEM;
	t->pid = pid;
	t->comm = intern(m, comm);
	return 0;
}

static size_t first_above(const struct pmu__proc *p, uint64_t ip)
{
	size_t lo = 0, hi = p->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->maps[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct pmu__map *pmu__machine_find(const struct pmu__proc *p,
					 uint64_t ip)
{
	size_t i;

	if (!p || !p->n)
		return NULL;
	i = first_above(p, ip);
	if (i == 0 || ip >= p->maps[i - 1].end)
		return NULL;
	return &p->maps[i - 1];
}

/* A new mapping replaces what it overlaps: old ones are cut around it
 * (their file offsets move with their start). */
int pmu__machine_mmap(struct pmu__machine *m, int pid, uint64_t start,
		      uint64_t len, uint64_t pgoff, struct pmu__dso *dso)
{
	struct pmu__proc *p = pmu__machine_proc(m, pid);
	struct pmu__map nm = { start, start + len, pgoff, dso }, *out;
	size_t n = 0, at;

	if (!p)
		return -ENOMEM;
	if (!len)
		return 0;
	if (nm.end < start)
		nm.end = UINT64_MAX;
	out = malloc((p->n + 3) * sizeof(*out));
	if (!out)
		return -ENOMEM;
	for (size_t i = 0; i < p->n; i++) {
		struct pmu__map o = p->maps[i];

		if (o.end <= nm.start || o.start >= nm.end) {
			out[n++] = o;
			continue;
		}
		if (o.start < nm.start)
			out[n++] = (struct pmu__map){ o.start, nm.start, o.pgoff,
						      o.dso };
		if (o.end > nm.end)
			out[n++] = (struct pmu__map){
				nm.end, o.end, o.pgoff + (nm.end - o.start),
				o.dso };
	}
	for (at = n; at > 0 && out[at - 1].start > nm.start; at--)
		;
	memmove(out + at + 1, out + at, (n - at) * sizeof(*out));
	out[at] = nm;
	free(p->maps);
	p->maps = out;
	p->n = n + 1;
	p->cap = p->n;
	return 0;
}

int pmu__machine_fork(struct pmu__machine *m, int pid, int ppid, int tid,
		      int ptid)
{
	struct pmu__thread *parent = pmu__machine_thread(m, ppid, ptid);
	const char *comm = parent ? parent->comm : NULL;
	struct pmu__thread *t = pmu__machine_thread(m, pid, tid);

	if (!t)
		return -ENOMEM;
	t->pid = pid;
	t->comm = comm;
	if (pid == ppid)
		return 0;
	struct pmu__proc *pp = pmu__machine_proc(m, ppid);
	size_t n = pp ? pp->n : 0;
	struct pmu__map *copy = n ? malloc(n * sizeof(*copy)) : NULL;

	if (n && !copy)
		return -ENOMEM;
	if (n)
		memcpy(copy, pp->maps, n * sizeof(*copy));
	struct pmu__proc *p = pmu__machine_proc(m, pid);

	if (!p) {
		free(copy);
		return -ENOMEM;
	}
	free(p->maps);
	p->maps = copy;
	p->n = p->cap = n;
	return 0;
}
