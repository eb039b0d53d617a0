/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "drivers/perf.h"
#include "drivers/perf_priv.h"
#include "util/error.h"

#define READ_FORMAT (PERF_FORMAT_TOTAL_TIME_ENABLED | \
		     PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID)

static void prep_attr(const struct pmu__perf *p, const struct perf_group *g,
		      const struct pmu__perf_ev *e, struct perf_event_attr *a)
{
	*a = e->attr;
	a->size = sizeof(*a);
	a->read_format = READ_FORMAT | (g->per_event ? 0 : PERF_FORMAT_GROUP);
	a->disabled = e->leader;
	a->inherit = p->inherit;
	a->enable_on_exec = p->target == PMU_TARGET_CHILD;
}

static int open_one(struct pmu__perf *p, const struct perf_group *g,
		    size_t k, size_t u)
{
	const struct pmu__perf_sys *sys = p->sys;
	size_t i = (g->first + k) * p->nunits + u;
	int lfd = k ? p->fd[g->first * p->nunits + u] : -1;
	struct perf_event_attr a;
	int fd;

	prep_attr(p, g, &p->ev[g->first + k], &a);
	errno = 0;
	fd = sys->event_open(sys->ctx, &a, p->units.pid[u], p->units.cpu[u],
			     lfd, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno ? -errno : -EIO;
	p->fd[i] = fd;
	if (sys->ioctl(sys->ctx, fd, PERF_EVENT_IOC_ID,
		       (unsigned long)&p->id[i]) < 0)
		return errno ? -errno : -EIO;
	return 0;
}

static void close_unit(struct pmu__perf *p, const struct perf_group *g,
		       size_t u)
{
	size_t k;

	/* members first: closing the leader first would orphan them */
	for (k = g->nev; k-- > 0;) {
		int *fd = &p->fd[(g->first + k) * p->nunits + u];

		if (*fd >= 0)
			p->sys->close(p->sys->ctx, *fd);
		*fd = -1;
	}
}

static void close_group(struct pmu__perf *p, const struct perf_group *g)
{
	size_t u;

	for (u = 0; u < p->nunits; u++)
		close_unit(p, g, u);
}

static bool errno_not_supported(int ret)
{
	return ret == -ENOENT || ret == -EOPNOTSUPP || ret == -ENODEV ||
	       ret == -ENXIO || ret == -EINVAL || ret == -E2BIG;
}

static void explain(struct pmu__perf *p, const struct pmu__perf_ev *e,
		    int ret, char *buf, size_t len)
{
	const struct pmu_host_info *h = pmu__perf_host(p);

	if (e->is_hw && !h->has_hw_pmu)
		snprintf(buf, len, "no hardware PMU on this machine (%s)",
			 h->virtualized ? "virtual machine without PMU "
					  "passthrough" :
					  "no core PMU registered with perf");
	else if (e->attr.precise_ip &&
		 (ret == -EOPNOTSUPP || ret == -EINVAL))
		snprintf(buf, len, ":p precise sampling not available on "
			 "this CPU or kernel");
	else if (ret == -EINVAL)
		snprintf(buf, len, "not supported by this CPU or kernel "
			 "(settings rejected)");
	else
		snprintf(buf, len, "not supported by this CPU or kernel");
}

/* A group is scheduled as a whole: if one member cannot be opened, none
 * of it can count. */
static void mark_unsupported(struct pmu__perf *p, const struct perf_group *g,
			     size_t bad, int ret)
{
	const struct pmu__perf_ev *b = &p->ev[g->first + bad];
	char why[128];
	size_t k;

	explain(p, b, ret, why, sizeof(why));
	for (k = 0; k < g->nev; k++) {
		struct pmu__perf_ev *e = &p->ev[g->first + k];

		e->status = PMU_EVENT_NOT_SUPPORTED;
		e->err = ret;
		if (k == bad)
			snprintf(e->reason, sizeof(e->reason), "%s", why);
		else
			snprintf(e->reason, sizeof(e->reason),
				 "group member '%.40s' is not supported: %.100s",
				 b->name ? b->name : "?", why);
	}
}

static int open_units(struct pmu__perf *p, struct perf_group *g, size_t *bad)
{
	size_t u, k;
	int ret;

	/* an abandoned attempt's exited threads say nothing about this one */
	memset(p->gone_try, 0, p->nunits * sizeof(*p->gone_try));
	for (u = 0; u < p->nunits; u++) {
		for (k = 0; k < g->nev; k++) {
			ret = open_one(p, g, k, u);
			if (ret == -ESRCH && p->target == PMU_TARGET_PID) {
				close_unit(p, g, u); /* thread exited */
				p->gone_try[u] = true;
				break;
			}
			if (ret) {
				*bad = k;
				p->bad_unit = u;
				return ret;
			}
		}
	}
	return 0;
}

/* exclude_guest is set on every event unless :G or :H said otherwise,
 * and some PMUs (msr, uncore) refuse it: count without it rather than
 * not at all, but only where the user did not ask for it. */
static bool drop_default_guest(struct pmu__perf *p, const struct perf_group *g,
			       size_t bad)
{
	const struct pmu__perf_ev *b = &p->ev[g->first + bad];
	size_t k;

	if (!b->guest_default || !b->attr.exclude_guest)
		return false;
	for (k = 0; k < g->nev; k++) {
		struct pmu__perf_ev *e = &p->ev[g->first + k];

		if (e->guest_default)
			e->attr.exclude_guest = 0;
	}
	return true;
}

/* Settings a kernel or PMU may refuse with EINVAL, given up one at a
 * time: group reads of inherited events (older kernels), then a default
 * exclude_guest.  Each is given up at most once. */
static bool fall_back(struct pmu__perf *p, struct perf_group *g, size_t bad,
		      int ret)
{
	if (ret != -EINVAL)
		return false;
	if (p->inherit && !g->per_event) {
		g->per_event = true;
		return true;
	}
	return drop_default_guest(p, g, bad);
}

static void keep_gone(struct pmu__perf *p)
{
	size_t u;

	for (u = 0; u < p->nunits; u++)
		p->gone[u] = p->gone[u] || p->gone_try[u];
}

static int open_group(struct pmu__perf *p, struct perf_group *g,
		      struct pmu_error *err)
{
	size_t bad = 0;
	int ret = open_units(p, g, &bad);

	while (ret && fall_back(p, g, bad, ret)) {
		close_group(p, g);
		ret = open_units(p, g, &bad);
	}
	keep_gone(p);
	if (!ret) {
		g->open = true;
		return 0;
	}
	close_group(p, g);
	if (errno_not_supported(ret)) {
		mark_unsupported(p, g, bad, ret);
		return 0;
	}
	return pmu__perf_open_error(p, g->first + bad, ret, err);
}

static int build_groups(struct pmu__perf *p)
{
	size_t i;

	p->grp = calloc(p->nev, sizeof(*p->grp));
	if (!p->grp)
		return -ENOMEM;
	for (i = 0; i < p->nev; i++) {
		if (i == 0 || p->ev[i].group != p->ev[i - 1].group)
			p->grp[p->ngrp++].first = i;
		p->grp[p->ngrp - 1].nev++;
		p->ev[i].status = PMU_EVENT_OK;
		p->ev[i].err = 0;
		p->ev[i].reason[0] = '\0';
	}
	return 0;
}

static int alloc_tables(struct pmu__perf *p)
{
	size_t n = p->nev * p->nunits, i, maxg = 1;

	p->fd = malloc((n + 1) * sizeof(*p->fd));
	/* marked closed at once: if a later allocation fails, closing the
	 * session must not close descriptors it never opened */
	for (i = 0; p->fd && i < n; i++)
		p->fd[i] = -1;
	p->id = calloc(n + 1, sizeof(*p->id));
	p->leader = malloc((p->ngrp * p->nunits + 1) * sizeof(*p->leader));
	p->gone = calloc(p->nunits + 1, sizeof(*p->gone));
	p->gone_try = calloc(p->nunits + 1, sizeof(*p->gone_try));
	for (i = 0; i < p->ngrp; i++)
		if (p->grp[i].nev > maxg)
			maxg = p->grp[i].nev;
	/* group read: nr, enabled, running, {value, id} per event; the mmap
	 * path keeps {value, enabled, running} per event */
	p->buf = calloc(3 + 3 * maxg, sizeof(*p->buf));
	if (!p->fd || !p->id || !p->leader || !p->gone || !p->gone_try ||
	    !p->buf)
		return -ENOMEM;
	return 0;
}

/* rdpmc only reads the caller's own counters, and only on x86-64 here. */
static bool mmap_possible(const struct pmu__perf *p,
			  const struct pmu_open_opts *o)
{
#if defined(__x86_64__)
	return p->target == PMU_TARGET_SELF && !p->inherit && p->nunits == 1 &&
	       !o->no_mmap_read;
#else
	return false;
#endif
}

/* Software events and tracepoints never sit on a hardware counter, so a
 * page for them would only add kernel work on every enable/disable. */
static bool group_may_rdpmc(const struct pmu__perf *p,
			    const struct perf_group *g)
{
	size_t k;

	for (k = 0; k < g->nev; k++) {
		uint32_t t = p->ev[g->first + k].attr.type;

		if (t == PERF_TYPE_SOFTWARE || t == PERF_TYPE_TRACEPOINT ||
		    t == PERF_TYPE_BREAKPOINT)
			return false;
	}
	return g->open;
}

static void map_pages(struct pmu__perf *p)
{
	size_t g, k;

	p->page = calloc(p->nev, sizeof(*p->page));
	if (!p->page)
		return; /* read(2) still works */
	p->page_size = (size_t)sysconf(_SC_PAGESIZE);
	p->opener = pthread_self();
	for (g = 0; g < p->ngrp; g++) {
		struct perf_group *gr = &p->grp[g];

		gr->mmap = group_may_rdpmc(p, gr);
		for (k = 0; gr->mmap && k < gr->nev; k++) {
			size_t i = gr->first + k;
			void *m = p->sys->mmap(p->sys->ctx, p->page_size,
					       p->fd[i]);

			if (m == MAP_FAILED || !m)
				gr->mmap = false;
			else
				p->page[i] = m;
		}
	}
}

static void collect_leaders(struct pmu__perf *p)
{
	size_t g, u;

	p->nleader = 0;
	for (g = 0; g < p->ngrp; g++)
		for (u = 0; p->grp[g].open && u < p->nunits; u++)
			if (p->fd[p->grp[g].first * p->nunits + u] >= 0)
				p->leader[p->nleader++] =
					p->fd[p->grp[g].first * p->nunits + u];
}

/* Threads may exit between listing and opening; a process all of whose
 * threads did is gone, and counting nothing for it would look like a
 * quiet process. */
static int check_vanished(const struct pmu__perf *p, pid_t owner,
			  struct pmu_error *err)
{
	char tok[24];
	size_t u, n = 0, gone = 0;

	for (u = 0; u < p->nunits; u++) {
		if (p->units.owner[u] != owner)
			continue;
		n++;
		gone += p->gone[u];
	}
	if (!n || gone < n)
		return 0;
	snprintf(tok, sizeof(tok), "%d", (int)owner);
	return pmu__error(err, -ESRCH, PMU_ERR_NO_TARGET, tok, -1,
			  "no such process: %d (it has exited)", (int)owner);
}

static int check_processes(const struct pmu__perf *p,
			   const struct pmu_open_opts *o, struct pmu_error *err)
{
	const pid_t *ids = o->npids ? o->pids : &o->pid;
	size_t i, n = o->npids ? o->npids : 1;
	int ret = 0;

	for (i = 0; !ret && p->target == PMU_TARGET_PID && i < n; i++)
		ret = check_vanished(p, ids[i], err);
	return ret;
}

static int open_all(struct pmu__perf *p, const struct pmu_open_opts *o,
		    struct pmu_error *err)
{
	int ret = pmu__perf_units_get(o, p->sys->proc, &p->units, err);
	size_t g;

	if (ret)
		return ret;
	p->nunits = p->units.n;
	ret = build_groups(p);
	if (!ret)
		ret = alloc_tables(p);
	for (g = 0; !ret && g < p->ngrp; g++)
		ret = open_group(p, &p->grp[g], err);
	if (!ret)
		ret = check_processes(p, o, err);
	if (ret)
		return ret;
	if (mmap_possible(p, o))
		map_pages(p);
	collect_leaders(p);
	return 0;
}

int pmu__perf_open(struct pmu__perf **out, const struct pmu__perf_sys *sys,
		   struct pmu__perf_ev *ev, size_t nev,
		   const struct pmu_open_opts *opts, struct pmu_error *err)
{
	struct pmu_open_opts o = { .sz = sizeof(o) };
	struct pmu__perf *p;
	int ret;

	*out = NULL;
	if (opts)
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	p = calloc(1, sizeof(*p));
	if (!p)
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	p->sys = sys ? sys : &pmu__perf_sys_default;
	p->ev = ev;
	p->nev = nev;
	p->target = o.target;
	p->inherit = o.target == PMU_TARGET_CHILD ||
		     (o.inherit && o.target != PMU_TARGET_CPUS);
	ret = open_all(p, &o, err);
	if (ret) {
		if (ret == -ENOMEM)
			pmu__error(err, ret, PMU_ERR_SYSTEM, NULL, -1,
				   "out of memory");
		pmu__perf_close(p);
		return ret;
	}
	*out = p;
	return 0;
}

void pmu__perf_close(struct pmu__perf *p)
{
	size_t g, i;

	if (!p)
		return;
	for (i = 0; p->page && i < p->nev; i++)
		if (p->page[i])
			p->sys->munmap(p->sys->ctx, p->page[i], p->page_size);
	for (g = 0; p->fd && g < p->ngrp; g++)
		close_group(p, &p->grp[g]);
	pmu__perf_units_free(&p->units);
	free(p->page);
	free(p->fd);
	free(p->id);
	free(p->leader);
	free(p->gone);
	free(p->gone_try);
	free(p->buf);
	free(p->grp);
	free(p);
}

int pmu__perf_ioctl(const struct pmu__perf *p, unsigned long req)
{
	const struct pmu__perf_sys *sys = p->sys;
	int ret = 0;
	size_t i;

	for (i = 0; i < p->nleader; i++)
		if (sys->ioctl(sys->ctx, p->leader[i], req,
			       PERF_IOC_FLAG_GROUP) < 0 && !ret)
			ret = errno ? -errno : -EIO;
	return ret;
}

size_t pmu__perf_nunits(const struct pmu__perf *p)
{
	return p ? p->nunits : 0;
}
