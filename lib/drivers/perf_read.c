/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdint.h>

#include "drivers/perf_priv.h"

/* struct perf_event_mmap_page capability bits (little-endian bitfield). */
#define CAP_USER_RDPMC (1ULL << 2)
#define CAP_USER_TIME (1ULL << 3)
#define CAP_USER_TIME_SHORT (1ULL << 5)

/* Sums over many CPUs/threads must not wrap into small numbers. */
static inline uint64_t sat_add(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

static inline void acc(struct pmu__count *v, uint64_t raw, uint64_t ena,
		       uint64_t run)
{
	v->raw = sat_add(v->raw, raw);
	v->enabled = sat_add(v->enabled, ena);
	v->running = sat_add(v->running, run);
}

/* Group reads list members in open order; look further only if not. */
static inline size_t find_event(const struct pmu__perf *p,
				const struct perf_group *g, size_t u, size_t k,
				uint64_t id)
{
	size_t j;

	if (k < g->nev && p->id[(g->first + k) * p->nunits + u] == id)
		return g->first + k;
	for (j = 0; j < g->nev; j++)
		if (p->id[(g->first + j) * p->nunits + u] == id)
			return g->first + j;
	return SIZE_MAX;
}

static int read_group(struct pmu__perf *p, const struct perf_group *g,
		      size_t u, struct pmu__count *vals, size_t n)
{
	int fd = p->fd[g->first * p->nunits + u];
	uint64_t *b = p->buf, nr, k;
	ssize_t r;

	if (fd < 0)
		return 0;
	r = p->sys->read(p->sys->ctx, fd, b, (3 + 2 * g->nev) * sizeof(*b));
	if (r < 0)
		return errno ? -errno : -EIO;
	nr = (size_t)r >= 3 * sizeof(*b) ? b[0] : UINT64_MAX;
	if (nr > g->nev || (size_t)r < (3 + 2 * nr) * sizeof(*b))
		return -EIO;
	for (k = 0; k < nr; k++) {
		size_t j = find_event(p, g, u, k, b[4 + 2 * k]);

		if (j < n)
			acc(&vals[j], b[3 + 2 * k], b[1], b[2]);
	}
	return 0;
}

static int read_each(struct pmu__perf *p, const struct perf_group *g,
		     size_t u, struct pmu__count *vals, size_t n)
{
	uint64_t *b = p->buf;
	size_t k;

	for (k = 0; k < g->nev; k++) {
		size_t j = g->first + k;
		int fd = p->fd[j * p->nunits + u];
		ssize_t r;

		if (fd < 0)
			continue;
		r = p->sys->read(p->sys->ctx, fd, b, 4 * sizeof(*b));
		if (r < 0)
			return errno ? -errno : -EIO;
		if (r < (ssize_t)(4 * sizeof(*b)))
			return -EIO;
		if (j < n)
			acc(&vals[j], b[0], b[1], b[2]);
	}
	return 0;
}

static inline uint64_t sign_extend(uint64_t v, unsigned int width)
{
	if (width == 0 || width >= 64)
		return v;
	v <<= 64 - width;
	return (uint64_t)((int64_t)v >> (64 - width));
}

/* Time since the page was last updated, in ns, from the TSC. */
static inline uint64_t time_delta(const struct pmu__perf_sys *sys,
				  const volatile struct perf_event_mmap_page *pc,
				  uint64_t caps)
{
	uint64_t cyc = sys->rdtsc(sys->ctx), quot, rem, mult;
	unsigned int shift = pc->time_shift;

	if (caps & CAP_USER_TIME_SHORT)
		cyc = pc->time_cycles + ((cyc - pc->time_cycles) & pc->time_mask);
	if (shift > 63)
		return 0;
	mult = pc->time_mult;
	quot = cyc >> shift;
	rem = cyc & (((uint64_t)1 << shift) - 1);
	return pc->time_offset + quot * mult + ((rem * mult) >> shift);
}

/* The page's seqlock protocol; -EAGAIN when the counter is not on a
 * hardware register the caller may read (then read(2) it). */
static inline int read_page(const struct pmu__perf_sys *sys,
			    const volatile struct perf_event_mmap_page *pc,
			    uint64_t *out)
{
	uint64_t caps, ena, run, cnt;
	uint32_t seq, idx;

	do {
		seq = pc->lock;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		caps = pc->capabilities;
		idx = pc->index;
		if (!(caps & CAP_USER_RDPMC) || idx == 0)
			return -EAGAIN;
		ena = pc->time_enabled;
		run = pc->time_running;
		if (caps & CAP_USER_TIME) {
			uint64_t d = time_delta(sys, pc, caps);

			ena += d;
			run += d;
		}
		cnt = sign_extend(sys->rdpmc(sys->ctx, idx - 1),
				  pc->pmc_width);
		cnt += (uint64_t)pc->offset;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (pc->lock != seq);
	out[0] = cnt;
	out[1] = ena;
	out[2] = run;
	return 0;
}

static int read_mmap(struct pmu__perf *p, const struct perf_group *g,
		     struct pmu__count *vals, size_t n)
{
	uint64_t *b = p->buf;
	size_t k;

	for (k = 0; k < g->nev; k++)
		if (read_page(p->sys, p->page[g->first + k], &b[3 * k]))
			return -EAGAIN;
	for (k = 0; k < g->nev; k++)
		if (g->first + k < n)
			acc(&vals[g->first + k], b[3 * k], b[3 * k + 1],
			    b[3 * k + 2]);
	return 0;
}

static int read_units(struct pmu__perf *p, const struct perf_group *g,
		      struct pmu__count *vals, size_t n)
{
	size_t u;
	int ret = 0;

	/* rdpmc reads the register of the CPU the caller runs on: any other
	 * thread would get a counter of whatever runs there */
	if (g->mmap && pthread_equal(p->opener, pthread_self()) &&
	    read_mmap(p, g, vals, n) == 0)
		return 0;
	for (u = 0; !ret && u < p->nunits; u++)
		ret = g->per_event ? read_each(p, g, u, vals, n) :
				     read_group(p, g, u, vals, n);
	return ret;
}

/* One group on one thread or CPU (the self-monitoring case): values go
 * straight from the kernel's buffer to the caller's array. */
static int read_group_direct(struct pmu__perf *p, const struct perf_group *g,
			     struct pmu__count *vals, size_t n)
{
	uint64_t *b = p->buf, k;
	ssize_t r = p->sys->read(p->sys->ctx, p->fd[g->first], b,
				 (3 + 2 * g->nev) * sizeof(*b));

	if (r < 0)
		return errno ? -errno : -EIO;
	if ((size_t)r != (3 + 2 * g->nev) * sizeof(*b) || b[0] != g->nev)
		return -EIO;
	for (k = 0; k < g->nev; k++) {
		size_t j = find_event(p, g, 0, k, b[4 + 2 * k]);

		if (j < n)
			vals[j] = (struct pmu__count){ b[3 + 2 * k], b[1], b[2] };
	}
	return 0;
}

/* Several CPUs/threads, per-event reads or the mmap page: sum. */
static int read_group_summed(struct pmu__perf *p, const struct perf_group *g,
			     struct pmu__count *vals, size_t n)
{
	size_t i, end = g->first + g->nev < n ? g->first + g->nev : n;

	for (i = g->first; i < end; i++)
		vals[i] = (struct pmu__count){ 0 };
	return read_units(p, g, vals, n);
}

static void set_unsupported(const struct perf_group *g,
			    struct pmu__count *vals, size_t n)
{
	size_t i;

	for (i = g->first; i < g->first + g->nev && i < n; i++)
		vals[i] = (struct pmu__count){ 0 };
}

int pmu__perf_read(struct pmu__drv *d, struct pmu__count *vals, size_t n)
{
	struct pmu__perf *p = (struct pmu__perf *)d;
	size_t g;
	int ret = 0;

	if (!p->is_open)
		return -EBADF;
	if (n > p->nev)
		n = p->nev;
	for (g = 0; !ret && g < p->ngrp && p->grp[g].first < n; g++) {
		const struct perf_group *gr = &p->grp[g];

		if (!gr->open)
			set_unsupported(gr, vals, n);
		else if (p->nunits == 1 && !gr->per_event && !gr->mmap &&
			 p->fd[gr->first] >= 0)
			ret = read_group_direct(p, gr, vals, n);
		else
			ret = read_group_summed(p, gr, vals, n);
	}
	return ret ? ret : (int)n;
}
