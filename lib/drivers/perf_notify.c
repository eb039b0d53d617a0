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
#include "util/error.h"

/* Data pages of a ring (a power of two).  Overflow records carry no
 * sample (sample_type 0): 8 bytes each, so one page holds 512 turns'
 * worth of announcements between two looks of the session. */
#define RING_DATA_PAGES 1

static bool notifies(const struct pmu__perf *p, size_t i)
{
	return p->ev[i].flags & PMU__EV_NOTIFY;
}

static int map_one(struct pmu__perf *p, size_t i, size_t u,
		   struct pmu_error *err)
{
	size_t k = i * p->nunits + u;
	void *m;

	if (p->fd[k] < 0)
		return 0;
	m = p->sys->mmap_ring ? p->sys->mmap_ring(p->sys->ctx, p->ring_len,
						  p->fd[k])
			      : MAP_FAILED;
	if (m == MAP_FAILED || !m) {
		int e = p->sys->mmap_ring && errno ? -errno : -EOPNOTSUPP;

		return pmu__error(err, e, PMU_ERR_RESOURCES, p->ev[i].name, -1,
				  "cannot map the overflow buffer of '%s': %s%s",
				  p->ev[i].name, pmu_strerror(e),
				  e == -EPERM ? " (raise kernel.perf_event_"
						"mlock_kb)" : "");
	}
	p->ring[k] = m;
	return 0;
}

int pmu__perf_map_rings(struct pmu__perf *p, struct pmu_error *err)
{
	size_t i, u;
	int ret = 0;

	for (i = 0; i < p->nev && !notifies(p, i); i++)
		;
	if (i == p->nev)
		return 0;
	p->page_size = (size_t)sysconf(_SC_PAGESIZE);
	p->ring_len = (1 + RING_DATA_PAGES) * p->page_size;
	p->ring = calloc(p->nev * p->nunits + 1, sizeof(*p->ring));
	if (!p->ring)
		return -ENOMEM;
	for (i = 0; !ret && i < p->nev; i++)
		for (u = 0; !ret && notifies(p, i) && u < p->nunits; u++)
			ret = map_one(p, i, u, err);
	return ret;
}

void pmu__perf_unmap_rings(struct pmu__perf *p)
{
	size_t k;

	for (k = 0; p->ring && k < p->nev * p->nunits; k++)
		if (p->ring[k])
			p->sys->munmap(p->sys->ctx, p->ring[k], p->ring_len);
	free(p->ring);
	p->ring = NULL;
}

int pmu__perf_group_ctl(struct pmu__drv *d, size_t group, bool enable)
{
	struct pmu__perf *p = (struct pmu__perf *)d;
	const struct pmu__perf_sys *sys = p->sys;
	unsigned long req = enable ? PERF_EVENT_IOC_ENABLE
				   : PERF_EVENT_IOC_DISABLE;
	const int *fd;
	int ret = 0;
	size_t u;

	if (!p->is_open || group >= p->ngrp)
		return -EINVAL;
	fd = &p->fd[p->grp[group].first * p->nunits];
	for (u = 0; u < p->nunits; u++)
		if (fd[u] >= 0 && sys->ioctl(sys->ctx, fd[u], req,
					     PERF_IOC_FLAG_GROUP) < 0 && !ret)
			ret = errno ? -errno : -EIO;
	return ret;
}

ssize_t pmu__perf_notify_fds(struct pmu__drv *d, size_t ev, int *fds,
			     size_t max)
{
	struct pmu__perf *p = (struct pmu__perf *)d;
	size_t u, n = 0;

	if (!p->is_open || ev >= p->nev || !notifies(p, ev) || !p->ring)
		return -EINVAL;
	for (u = 0; u < p->nunits; u++) {
		size_t k = ev * p->nunits + u;

		if (p->ring[k] && n < max)
			fds[n] = p->fd[k];
		n += p->ring[k] != NULL;
	}
	return n ? (ssize_t)n : -ENODEV;
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
	uint64_t n = 0;
	size_t u;

	if (!p->is_open || !p->ring || ev >= p->nev)
		return 0;
	for (u = 0; u < p->nunits; u++) {
		struct perf_event_mmap_page *pg = p->ring[ev * p->nunits + u];

		if (pg)
			n += consume_ring(pg, p->page_size, p->ring_len);
	}
	return n;
}
