/* SPDX-License-Identifier: MIT */
/*
 * What the session needs of the perf driver to switch event sets itself:
 * one group enabled or disabled, one group read, and overflow
 * announcements of NOTIFY events through a small ring buffer per
 * descriptor (wakeup_events = 1: each overflow makes it poll readable).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "drivers/perf_priv.h"
#include "util/cpulist.h"
#include "util/error.h"

/* Data pages of a ring (a power of two).  Overflow records carry no
 * sample (sample_type 0): 8 bytes each, so one page holds 512 turns'
 * worth of announcements between two looks of the session. */
#define RING_DATA_PAGES 1

static bool notifies(const struct pmu__perf *p, size_t i)
{
	return p->ev[i].flags & PMU__EV_NOTIFY;
}

/* The kernel maps no ring of an inherited per-task event (all children
 * would write to it): perf opens those per CPU, and so does this. */
static bool per_cpu(const struct pmu__perf *p)
{
	return p->inherit && p->target != PMU__TARGET_CPUS;
}

static int map_ring(struct pmu__perf *p, size_t i, int fd,
		    struct perf_event_mmap_page **out, struct pmu_error *err)
{
	void *m = p->sys->mmap_ring ? p->sys->mmap_ring(p->sys->ctx,
							p->ring_len, fd)
				    : MAP_FAILED;
	int e;

	if (m != MAP_FAILED && m) {
		*out = m;
		return 0;
	}
	e = p->sys->mmap_ring && errno ? -errno : -EOPNOTSUPP;
	return pmu__error(err, e, PMU_ERR_RESOURCES, p->ev[i].name, -1,
			  "cannot map the overflow buffer of '%s': %s%s",
			  p->ev[i].name, pmu_strerror(e),
			  e == -EPERM ? " (raise kernel.perf_event_mlock_kb)"
				      : "");
}

/* Descriptor j of event i: unit j / ncpu on CPU j % ncpu (per CPU), or
 * unit j as the unit itself is. */
static int open_at(struct pmu__perf *p, const struct perf_group *g,
		   const struct pmu__cpulist *cpus, size_t j, int *fd)
{
	const struct pmu__perf_sys *sys = p->sys;
	size_t nc = cpus->n ? cpus->n : 1, u = j / nc;
	struct perf_event_attr a;

	pmu__perf_prep_attr(p, g, g->first, &a);
	errno = 0;
	*fd = sys->event_open(sys->ctx, &a, p->units.pid[u],
			      cpus->n ? cpus->cpu[j % nc] : p->units.cpu[u],
			      -1, PERF_FLAG_FD_CLOEXEC);
	return *fd < 0 ? (errno ? -errno : -EIO) : 0;
}

static int alloc_notify(struct pmu__perf *p, struct perf_notify *n,
			size_t count)
{
	p->page_size = (size_t)sysconf(_SC_PAGESIZE);
	p->ring_len = (1 + RING_DATA_PAGES) * p->page_size;
	n->fd = malloc((count + 1) * sizeof(*n->fd));
	n->ring = calloc(count + 1, sizeof(*n->ring));
	if (!n->fd || !n->ring)
		return -ENOMEM;
	for (n->n = 0; n->n < count; n->n++)
		n->fd[n->n] = -1;
	return 0;
}

static void close_notify(struct pmu__perf *p, struct perf_notify *n)
{
	for (size_t j = 0; n->fd && j < n->n; j++) {
		if (n->ring[j])
			p->sys->munmap(p->sys->ctx, n->ring[j], p->ring_len);
		if (n->own && n->fd[j] >= 0)
			p->sys->close(p->sys->ctx, n->fd[j]);
	}
	free(n->fd);
	free(n->ring);
	*n = (struct perf_notify){ 0 };
}

static int open_all_notify(struct pmu__perf *p, struct perf_group *g,
			   const struct pmu__cpulist *cpus,
			   struct perf_notify *n, struct pmu_error *err)
{
	size_t i = g->first, nc = cpus->n ? cpus->n : 1;
	bool one = p->ev[i].flags & PMU__EV_ONE_UNIT;
	int ret = alloc_notify(p, n, (one ? 1 : p->nunits) * nc);

	for (size_t j = 0; !ret && j < n->n; j++) {
		ret = open_at(p, g, cpus, j, &n->fd[j]);
		/* a thread that exited since it was listed */
		if (ret == -ESRCH && p->target == PMU__TARGET_PID) {
			ret = 0;
			continue;
		}
		if (ret && pmu__perf_errno_not_supported(ret)) {
			pmu__perf_mark_unsupported(p, g, 0, ret, NULL);
			return 1;
		}
		if (ret)
			return pmu__perf_open_error(p, i, ret, err);
		ret = map_ring(p, i, n->fd[j], &n->ring[j], err);
	}
	return ret;
}

/* A NOTIFY event that needs per-CPU descriptors (inherited per task) is
 * opened apart; no group could hold them. */
bool pmu__perf_notify_apart(const struct pmu__perf *p,
			    const struct perf_group *g)
{
	for (size_t k = 0; per_cpu(p) && k < g->nev; k++)
		if (notifies(p, g->first + k))
			return true;
	return false;
}

/* Rings for the NOTIFY events opened as ordinary events (with their
 * group): their own descriptors, one per unit. */
int pmu__perf_map_members(struct pmu__perf *p, struct pmu_error *err)
{
	int ret = 0;

	for (size_t g = 0; !ret && !per_cpu(p) && g < p->ngrp; g++) {
		const struct perf_group *gr = &p->grp[g];

		for (size_t k = 0; !ret && gr->open && k < gr->nev; k++) {
			size_t i = gr->first + k;
			struct perf_notify *n;

			if (!notifies(p, i))
				continue;
			if (!p->ntf && !(p->ntf = calloc(p->nev, sizeof(*p->ntf))))
				return -ENOMEM;
			n = &p->ntf[i];
			ret = alloc_notify(p, n, p->nunits);
			for (size_t u = 0; !ret && u < p->nunits; u++) {
				n->fd[u] = p->fd[i * p->nunits + u];
				if (n->fd[u] >= 0)
					ret = map_ring(p, i, n->fd[u],
						       &n->ring[u], err);
			}
		}
	}
	return ret;
}

int pmu__perf_open_notify(struct pmu__perf *p, struct perf_group *g,
			  struct pmu_error *err)
{
	struct pmu__cpulist cpus = { 0 };
	struct perf_notify *n;
	int ret = 0;

	if (g->nev != 1)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, p->ev[g->first].name,
				  -1, "'%s' announces overflows of an inherited "
				  "event: it must be a group of its own",
				  p->ev[g->first].name);
	if (per_cpu(p))
		ret = pmu__cpulist_online(&cpus);
	if (!ret && !p->ntf && !(p->ntf = calloc(p->nev, sizeof(*p->ntf))))
		ret = -ENOMEM;
	if (ret) {
		pmu__cpulist_free(&cpus);
		return ret;
	}
	n = &p->ntf[g->first];
	n->own = true;
	ret = open_all_notify(p, g, &cpus, n, err);
	pmu__cpulist_free(&cpus);
	if (ret)
		close_notify(p, n);
	g->open = ret == 0;
	return ret > 0 ? 0 : ret;
}

void pmu__perf_close_notify(struct pmu__perf *p)
{
	for (size_t i = 0; p->ntf && i < p->nev; i++)
		close_notify(p, &p->ntf[i]);
	free(p->ntf);
	p->ntf = NULL;
}

/* The leader descriptors of a group, or those of a NOTIFY event opened
 * apart. */
static const int *group_fds(const struct pmu__perf *p, size_t group,
			    size_t *n)
{
	size_t i = p->grp[group].first;

	if (p->ntf && p->ntf[i].own) {
		*n = p->ntf[i].n;
		return p->ntf[i].fd;
	}
	*n = p->nunits;
	return &p->fd[i * p->nunits];
}

int pmu__perf_group_ctl(struct pmu__drv *d, size_t group, bool enable)
{
	struct pmu__perf *p = (struct pmu__perf *)d;
	const struct pmu__perf_sys *sys = p->sys;
	unsigned long req = enable ? PERF_EVENT_IOC_ENABLE
				   : PERF_EVENT_IOC_DISABLE;
	const int *fd;
	int ret = 0;
	size_t u, n;

	if (!p->is_open || group >= p->ngrp)
		return -EINVAL;
	fd = group_fds(p, group, &n);
	for (u = 0; u < n; u++)
		if (fd[u] >= 0 && sys->ioctl(sys->ctx, fd[u], req,
					     PERF_IOC_FLAG_GROUP) < 0 && !ret)
			ret = errno ? -errno : -EIO;
	return ret;
}

ssize_t pmu__perf_notify_fds(struct pmu__drv *d, size_t ev, int *fds,
			     size_t max)
{
	struct pmu__perf *p = (struct pmu__perf *)d;
	const struct perf_notify *n;
	size_t j, k = 0;

	if (!p->is_open || ev >= p->nev || !notifies(p, ev) || !p->ntf)
		return -EINVAL;
	n = &p->ntf[ev];
	for (j = 0; j < n->n; j++) {
		if (n->fd[j] < 0)
			continue;
		if (k < max)
			fds[k] = n->fd[j];
		k++;
	}
	return k ? (ssize_t)k : -ENODEV;
}

/* The records between data_tail and data_head: one overflow each
 * PERF_RECORD_SAMPLE, and the count a PERF_RECORD_LOST says was lost. */
static uint64_t consume_ring(struct perf_event_mmap_page *pg, size_t page,
			     size_t len)
{
	const unsigned char *data = (const unsigned char *)pg + page;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pg->data_tail, size = len - page, n = 0;

	while (tail < head) {
		const struct perf_event_header *h =
			(const void *)(data + (tail & (size - 1)));

		if (h->size < sizeof(*h))
			break; /* never written this way: resynchronise */
		if (h->type == PERF_RECORD_SAMPLE)
			n++;
		else if (h->type == PERF_RECORD_LOST && h->size >= 24)
			n += *(const uint64_t *)(const void *)
				     (data + ((tail + 16) & (size - 1)));
		tail += h->size;
	}
	__atomic_store_n(&pg->data_tail, head, __ATOMIC_RELEASE);
	return n;
}

uint64_t pmu__perf_notify_consume(struct pmu__drv *d, size_t ev)
{
	struct pmu__perf *p = (struct pmu__perf *)d;
	const struct perf_notify *n;
	uint64_t k = 0;

	if (!p->is_open || !p->ntf || ev >= p->nev)
		return 0;
	n = &p->ntf[ev];
	for (size_t j = 0; j < n->n; j++)
		if (n->ring[j])
			k += consume_ring(n->ring[j], p->page_size, p->ring_len);
	return k;
}

int pmu__perf_set_period(struct pmu__drv *d, size_t ev, uint64_t period)
{
	struct pmu__perf *p = (struct pmu__perf *)d;
	const struct pmu__perf_sys *sys = p->sys;
	const struct perf_notify *n;
	int ret = 0;

	if (!p->is_open || !p->ntf || ev >= p->nev || !notifies(p, ev) ||
	    !period)
		return -EINVAL;
	n = &p->ntf[ev];
	for (size_t j = 0; j < n->n; j++)
		if (n->fd[j] >= 0 &&
		    sys->ioctl(sys->ctx, n->fd[j], PERF_EVENT_IOC_PERIOD,
			       (unsigned long)&period) < 0 && !ret)
			ret = errno ? -errno : -EIO;
	return ret;
}
