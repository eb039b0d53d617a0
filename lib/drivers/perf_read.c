/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdint.h>

#include "drivers/perf_priv.h"
#include "util/scale.h"

/* Count j of the caller's array, whose elements are p->stride apart. */
#define AT(p, vals, j) \
	((struct pmu__count *)(void *)((char *)(vals) + (j) * (p)->stride))

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

/* A group read of unit u into p->buf: nr, enabled, running, then per
 * member value, id (and lost): *w words each. */
static int group_words(struct pmu__perf *p, const struct perf_group *g,
		       size_t u, uint64_t *nr, size_t *w)
{
	int fd = p->fd[g->first * p->nunits + u];
	uint64_t *b = p->buf;
	ssize_t r;

	*w = 2 + g->lost;
	*nr = 0;
	if (fd < 0)
		return 0;
	r = p->sys->read(p->sys->ctx, fd, b, (3 + *w * g->nev) * sizeof(*b));
	if (r < 0)
		return errno ? -errno : -EIO;
	*nr = (size_t)r >= 3 * sizeof(*b) ? b[0] : UINT64_MAX;
	if (*nr > g->nev || (size_t)r < (3 + *w * *nr) * sizeof(*b))
		return -EIO;
	return 0;
}

static int read_group(struct pmu__perf *p, const struct perf_group *g,
		      size_t u, struct pmu__count *vals, size_t n)
{
	const uint64_t *b = p->buf;
	uint64_t nr, k;
	size_t w;
	int ret = group_words(p, g, u, &nr, &w);

	for (k = 0; !ret && k < nr; k++) {
		size_t j = find_event(p, g, u, k, b[4 + w * k]);

		if (j < n)
			acc(AT(p, vals, j), b[3 + w * k], b[1], b[2]);
	}
	return ret;
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
		r = p->sys->read(p->sys->ctx, fd, b, (4 + g->lost) * sizeof(*b));
		if (r < 0)
			return errno ? -errno : -EIO;
		if (r < (ssize_t)((4 + g->lost) * sizeof(*b)))
			return -EIO;
		if (j < n)
			acc(AT(p, vals, j), b[0], b[1], b[2]);
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
			acc(AT(p, vals, g->first + k), b[3 * k], b[3 * k + 1],
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

/* The scaled count and status of a sum. */
static inline void finish(struct pmu__count *v)
{
	/* the common unmultiplexed case needs no division */
	v->scaled = v->running >= v->enabled
			    ? v->raw
			    : pmu__scale(v->raw, v->enabled, v->running);
	v->status = v->running ? PMU__COUNT_OK : PMU__COUNT_IDLE;
	v->err = 0;
}

/* One group on one thread or CPU (the self-monitoring case): values go
 * straight from the kernel's buffer to the caller's array; the group's
 * members share its times, so the scaling is decided once. */
static int read_group_direct(struct pmu__perf *p, const struct perf_group *g,
			     struct pmu__count *vals, size_t n)
{
	const uint64_t *ids = &p->id[g->first];
	const uint64_t *b = p->buf;
	size_t nev = g->nev, first = g->first, stride = p->stride, k;
	ssize_t r = p->sys->read(p->sys->ctx, p->fd[first], p->buf,
				 (3 + 2 * nev) * sizeof(*b));
	enum pmu__count_status st;
	uint64_t ena, run;
	bool whole;

	if (r < 0)
		return errno ? -errno : -EIO;
	if ((size_t)r != (3 + 2 * nev) * sizeof(*b) || b[0] != nev)
		return -EIO;
	ena = b[1];
	run = b[2];
	whole = run >= ena;
	st = run ? PMU__COUNT_OK : PMU__COUNT_IDLE;
	/* locals throughout: stores through the caller's array could alias
	 * the driver's own fields */
	for (k = 0; k < nev; k++) {
		uint64_t raw = b[3 + 2 * k];
		size_t j = __builtin_expect(ids[k] == b[4 + 2 * k], 1)
			   ? first + k : find_event(p, g, 0, k, b[4 + 2 * k]);
		struct pmu__count *c;

		if (__builtin_expect(j >= n, 0))
			continue;
		c = (struct pmu__count *)(void *)((char *)vals + j * stride);
		c->raw = raw;
		c->enabled = ena;
		c->running = run;
		c->scaled = whole ? raw : pmu__scale(raw, ena, run);
		c->status = st;
		c->err = 0;
		c->scaled_err = 0;
	}
	return 0;
}

/* Several CPUs/threads, per-event reads or the mmap page: sum, then
 * scale the sums. */
static int read_group_summed(struct pmu__perf *p, const struct perf_group *g,
			     struct pmu__count *vals, size_t n)
{
	size_t i, end = g->first + g->nev < n ? g->first + g->nev : n;
	int ret;

	for (i = g->first; i < end; i++)
		*AT(p, vals, i) = (struct pmu__count){ 0 };
	ret = read_units(p, g, vals, n);
	for (i = g->first; !ret && i < end; i++)
		finish(AT(p, vals, i));
	return ret;
}

static void set_unsupported(const struct pmu__perf *p,
			    const struct perf_group *g,
			    struct pmu__count *vals, size_t n)
{
	size_t i;

	for (i = g->first; i < g->first + g->nev && i < n; i++)
		*AT(p, vals, i) = (struct pmu__count){
			.status = p->st[i].err ? PMU__COUNT_UNSUPPORTED
					       : PMU__COUNT_IDLE,
			.err = p->st[i].err };
}

/* One group, whatever its shape. */
static int read_one(struct pmu__perf *p, const struct perf_group *gr,
		    struct pmu__count *vals, size_t n)
{
	if (!gr->open) {
		set_unsupported(p, gr, vals, n);
		return 0;
	}
	if (p->nunits == 1 && !gr->per_event && !gr->mmap && !gr->lost &&
	    p->fd[gr->first] >= 0)
		return read_group_direct(p, gr, vals, n);
	return read_group_summed(p, gr, vals, n);
}

/* Every group. */
static __attribute__((noinline)) int read_groups(struct pmu__perf *p,
						 struct pmu__count *vals,
						 size_t n)
{
	size_t g;
	int ret = 0;

	for (g = 0; !ret && g < p->ngrp && p->grp[g].first < n; g++)
		ret = read_one(p, &p->grp[g], vals, n);
	return ret ? ret : (int)n;
}

int pmu__perf_read_group(struct pmu__drv *d, size_t group,
			 struct pmu__count *c, size_t stride)
{
	struct pmu__perf *p = (struct pmu__perf *)d;

	if (!p->is_open || group >= p->ngrp)
		return -EINVAL;
	p->stride = stride;
	return read_one(p, &p->grp[group], c, p->nev);
}

int pmu__perf_read(struct pmu__drv *d, struct pmu__count *vals,
		   size_t stride, size_t n)
{
	struct pmu__perf *p = (struct pmu__perf *)d;
	int ret;

	if (!p->is_open)
		return -EBADF;
	p->stride = stride;
	if (n > p->nev)
		n = p->nev;
	/* the calling thread's one group, read whole: nothing to decide */
	if (!p->direct || n != p->nev)
		return read_groups(p, vals, n);
	ret = read_group_direct(p, p->grp, vals, n);
	return ret ? ret : (int)n;
}

/* Unit u alone: each group read on it with read(2), never through the
 * mmap page (which only the summed read of the calling thread uses). */
int pmu__perf_read_unit(struct pmu__drv *d, size_t u, struct pmu__count *vals,
			size_t stride, size_t n)
{
	struct pmu__perf *p = (struct pmu__perf *)d;
	int ret = 0;

	if (!p->is_open)
		return -EBADF;
	if (u >= p->nunits)
		return -EINVAL;
	p->stride = stride;
	if (n > p->nev)
		n = p->nev;
	for (size_t g = 0; !ret && g < p->ngrp && p->grp[g].first < n; g++) {
		const struct perf_group *gr = &p->grp[g];
		size_t i, end = gr->first + gr->nev < n ? gr->first + gr->nev : n;

		if (!gr->open) {
			set_unsupported(p, gr, vals, n);
			continue;
		}
		for (i = gr->first; i < end; i++)
			*AT(p, vals, i) = (struct pmu__count){ 0 };
		ret = gr->per_event ? read_each(p, gr, u, vals, n)
				    : read_group(p, gr, u, vals, n);
		for (i = gr->first; !ret && i < end; i++)
			finish(AT(p, vals, i));
	}
	return ret ? ret : (int)n;
}

/* Event i's lost samples: the last word of its entry (per-event reads:
 * of its own read) on every unit. */
int pmu__perf_lost(struct pmu__drv *d, size_t i, uint64_t *n)
{
	struct pmu__perf *p = (struct pmu__perf *)d;
	const struct perf_group *g = NULL;
	const uint64_t *b;

	*n = 0;
	for (size_t k = 0; p->is_open && k < p->ngrp; k++)
		if (i >= p->grp[k].first && i < p->grp[k].first + p->grp[k].nev)
			g = &p->grp[k];
	if (!g || !g->lost || !g->open)
		return -EINVAL;
	b = p->buf;
	for (size_t u = 0; u < p->nunits; u++) {
		uint64_t nr;
		size_t w;
		int fd = p->fd[i * p->nunits + u], ret;
		ssize_t r;

		if (g->per_event) {
			if (fd < 0)
				continue;
			r = p->sys->read(p->sys->ctx, fd, p->buf, 5 * 8);
			if (r < 5 * 8)
				return r < 0 && errno ? -errno : -EIO;
			*n = sat_add(*n, b[4]);
			continue;
		}
		if ((ret = group_words(p, g, u, &nr, &w)))
			return ret;
		for (uint64_t k = 0; k < nr; k++)
			if (find_event(p, g, u, k, b[4 + w * k]) == i)
				*n = sat_add(*n, b[5 + w * k]);
	}
	return 0;
}
