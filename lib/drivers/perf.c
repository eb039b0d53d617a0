/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "drivers/perf.h"
#include "drivers/perf_pfm.h"
#include "drivers/perf_priv.h"
#include "util/error.h"

#define READ_FORMAT (PERF_FORMAT_TOTAL_TIME_ENABLED | \
		     PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID)

void pmu__perf_prep_attr(const struct pmu__perf *p, const struct perf_group *g,
			 size_t i, struct perf_event_attr *a)
{
	const struct pmu__ev *e = &p->ev[i];

	*a = p->attr[i];
	a->size = sizeof(*a);
	a->read_format = READ_FORMAT | (g->per_event ? 0 : PERF_FORMAT_GROUP) |
			 (g->lost ? PERF_FORMAT_LOST : 0);
	if (e->flags & PMU__EV_SAMPLE_READ)
		a->sample_type |= PERF_SAMPLE_READ;
	/* a group's first event leads it (a weak group split apart: each) */
	a->disabled = i == g->first;
	a->inherit = p->inherit;
	/* a held group waits for the session, also at exec; so does every
	 * group of a child opened stopped (its counting starts at enable) */
	a->enable_on_exec = p->target == PMU__TARGET_CHILD &&
			    !p->start_stopped && !(e->flags & PMU__EV_HELD);
	if (e->flags & PMU__EV_NOTIFY) {
		a->wakeup_events = 1; /* every overflow polls readable */
		a->watermark = 0;
		a->freq = 0;
	}
}

static int open_one(struct pmu__perf *p, const struct perf_group *g,
		    size_t k, size_t u)
{
	const struct pmu__perf_sys *sys = p->sys;
	size_t i = (g->first + k) * p->nunits + u;
	int lfd = k ? p->fd[g->first * p->nunits + u] : -1;
	struct perf_event_attr a;
	int fd;

	int cg = p->cgfd ? p->cgfd[g->first + k] : -1;

	pmu__perf_prep_attr(p, g, g->first + k, &a);
	errno = 0;
	/* a cgroup event names the cgroup's directory where the pid goes */
	fd = sys->event_open(sys->ctx, &a, cg >= 0 ? cg : p->units.pid[u],
			     p->units.cpu[u], lfd, PERF_FLAG_FD_CLOEXEC |
			     (cg >= 0 ? PERF_FLAG_PID_CGROUP : 0));
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

bool pmu__perf_errno_not_supported(int ret)
{
	return ret == -ENOENT || ret == -EOPNOTSUPP || ret == -ENODEV ||
	       ret == -ENXIO || ret == -EINVAL || ret == -E2BIG;
}

static void explain(struct pmu__perf *p, size_t i, int ret, char *buf,
		    size_t len)
{
	const struct pmu_host_info *h = pmu__perf_host(p);

	if ((p->ev[i].flags & PMU__EV_HW) && !h->has_hw_pmu)
		snprintf(buf, len, "no hardware PMU on this machine (%s)",
			 h->virtualized ? "virtual machine without PMU "
					  "passthrough" :
					  "no core PMU registered with perf");
	else if (p->attr[i].precise_ip &&
		 (ret == -EOPNOTSUPP || ret == -EINVAL))
		snprintf(buf, len, ":p precise sampling not available on "
			 "this CPU or kernel");
	else if (ret == -EINVAL)
		snprintf(buf, len, "not supported by this CPU or kernel "
			 "(settings rejected)");
	else
		snprintf(buf, len, "not supported by this CPU or kernel");
}

static const char *ev_name(const struct pmu__perf *p, size_t i)
{
	return p->ev[i].name ? p->ev[i].name : "?";
}

/* A group is scheduled as a whole: if one member cannot be opened, none
 * of it can count.  why == NULL: explain the errno of member `bad`. */
void pmu__perf_mark_unsupported(struct pmu__perf *p,
				const struct perf_group *g, size_t bad,
				int ret, const char *why)
{
	char buf[128];
	size_t k;

	if (!why) {
		explain(p, g->first + bad, ret, buf, sizeof(buf));
		why = buf;
	}
	for (k = 0; k < g->nev; k++) {
		struct pmu__ev_state *st = &p->st[g->first + k];

		st->err = ret;
		if (k == bad)
			snprintf(st->reason, sizeof(st->reason), "%s", why);
		else
			snprintf(st->reason, sizeof(st->reason),
				 "group member '%.40s' is not supported: %.100s",
				 ev_name(p, g->first + bad), why);
	}
}

/* An uncore PMU counts for its package or die on one CPU of each (its
 * cpumask): opened on every CPU, it would count the same thing once per
 * CPU. */
static bool unit_ok(const struct pmu__perf *p, const struct perf_group *g,
		    size_t u)
{
	return !g->cpus.cpu || pmu__cpulist_has(&g->cpus, p->units.cpu[u]);
}

static int open_units(struct pmu__perf *p, struct perf_group *g, size_t *bad)
{
	size_t u, k;
	int ret;

	/* an abandoned attempt's exited threads say nothing about this one */
	memset(p->gone_try, 0, p->nunits * sizeof(*p->gone_try));
	for (u = 0; u < p->nunits; u++) {
		if (u > 0 && (p->ev[g->first].flags & PMU__EV_ONE_UNIT))
			break;
		if (!unit_ok(p, g, u))
			continue;
		for (k = 0; k < g->nev; k++) {
			ret = open_one(p, g, k, u);
			if (ret == -ESRCH && (p->target == PMU__TARGET_PID ||
					      p->skip_gone)) {
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
	size_t i = g->first + bad, k;

	if (!(p->ev[i].flags & PMU__EV_GUEST_DEFAULT) ||
	    !p->attr[i].exclude_guest)
		return false;
	for (k = g->first; k < g->first + g->nev; k++)
		if (p->ev[k].flags & PMU__EV_GUEST_DEFAULT)
			p->attr[k].exclude_guest = 0;
	return true;
}

/* :P asks for the most precise level the PMU takes: step down from 3
 * until the kernel accepts one (perf's rule). */
static bool lower_precise(struct pmu__perf *p, const struct perf_group *g,
			  size_t bad)
{
	size_t i = g->first + bad;

	if (!(p->ev[i].flags & PMU__EV_PRECISE_MAX) || !p->attr[i].precise_ip)
		return false;
	p->attr[i].precise_ip--;
	return true;
}

/* perf's fallback where perf_event_paranoid > 1 keeps an unprivileged
 * user to user space: an event that did not exclude the kernel (nor
 * count only the kernel: ":k" stays an error) is counted in user space
 * only; its owner names it and says so (pmu__user_only_said). */
static bool user_only(struct pmu__perf *p, const struct perf_group *g,
		      size_t bad, int ret)
{
	size_t i = g->first + bad;
	struct perf_event_attr *a = &p->attr[i];
	int par;

	if ((ret != -EACCES && ret != -EPERM) ||
	    p->target == PMU__TARGET_CPUS || a->exclude_kernel ||
	    a->exclude_user)
		return false;
	par = pmu__perf_host(p)->paranoid;
	if (par == PMU_PARANOID_UNKNOWN || par <= 1)
		return false;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	p->st[i].user_only = par;
	return true;
}

/* Settings a kernel or PMU may refuse, given up one at a time: a :P
 * level, a request for user-space reads, kernel-mode counting (perf's
 * paranoid fallback), then (EINVAL only) group reads of inherited
 * events (older kernels), then a default exclude_guest.  Each is given
 * up at most once, so the retries end. */
static bool fall_back(struct pmu__perf *p, struct perf_group *g, size_t bad,
		      int ret)
{
	if (lower_precise(p, g, bad))
		return true;
	if (user_only(p, g, bad, ret))
		return true;
	if ((ret == -EINVAL || ret == -EOPNOTSUPP) && pmu__perf_uread_drop(p, g))
		return true;
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

/* An event the session already ruled out takes its group with it. */
static bool premarked(struct pmu__perf *p, const struct perf_group *g)
{
	for (size_t k = 0; k < g->nev; k++) {
		const struct pmu__ev_state *st = &p->st[g->first + k];

		if (st->err) {
			char why[sizeof(st->reason)];

			snprintf(why, sizeof(why), "%s", st->reason);
			pmu__perf_mark_unsupported(p, g, k, st->err, why);
			return true;
		}
	}
	return false;
}

/* perf's weak group ({...}:W): refused as a whole, its events become
 * groups of their own, each counted (or not) alone.  Not for groups the
 * session switches or samples through (their group numbers are the
 * session's). */
static bool split_weak(struct pmu__perf *p, struct perf_group *g)
{
	size_t n = g->nev, at = (size_t)(g - p->grp);

	if (n < 2 || !(p->ev[g->first].flags & PMU__EV_WEAK))
		return false;
	for (size_t i = 0; i < p->nev; i++)
		if (p->ev[i].flags & (PMU__EV_HELD | PMU__EV_NOTIFY) ||
		    p->attr[i].sample_period)
			return false;
	/* each part finds its own CPUs again (a copied list would be
	 * freed once per part) */
	pmu__cpulist_free(&g->cpus);
	memmove(&p->grp[at + n], &p->grp[at + 1],
		(p->ngrp - at - 1) * sizeof(*p->grp));
	for (size_t k = n; k-- > 0;) {
		p->grp[at + k] = p->grp[at];
		p->grp[at + k].first = p->grp[at].first + k;
		p->grp[at + k].nev = 1;
	}
	p->ngrp += n - 1;
	return true;
}

/* A CPU target opens an event of an uncore PMU (its group: the
 * leader's PMU decides) on the CPUs of the PMU's cpumask that the target
 * has; with none of them (-C naming other CPUs) it is not counted. */
static bool restrict_cpus(struct pmu__perf *p, struct perf_group *g)
{
	const char *mask = p->ev[g->first].cpus;
	char why[160];
	size_t u;

	if (p->target != PMU__TARGET_CPUS || !mask)
		return false;
	if (pmu__cpulist_parse(mask, &g->cpus, NULL) < 0) {
		snprintf(why, sizeof(why), "its PMU's cpumask '%.60s' is not "
			 "a CPU list", mask);
		pmu__perf_mark_unsupported(p, g, 0, -EINVAL, why);
		return true;
	}
	for (u = 0; u < p->nunits && !unit_ok(p, g, u); u++)
		;
	if (u < p->nunits)
		return false;
	snprintf(why, sizeof(why), "an uncore event counts only on CPUs %.60s "
		 "(one per package or die), none of which is in the CPU list",
		 mask);
	pmu__perf_mark_unsupported(p, g, 0, -ENODEV, why);
	return true;
}

/* A member of a PMU's counters the kernel refused (EINVAL) that it takes
 * alone did not fit beside the rest of its group: the group needs more
 * counters (or a combination of them) than the PMU has. */
static bool fits_alone(struct pmu__perf *p, const struct perf_group *g,
		       size_t bad)
{
	const struct pmu__perf_sys *sys = p->sys;
	struct perf_group one = { .first = g->first + bad, .nev = 1,
				  .per_event = true };
	uint32_t type = p->attr[g->first + bad].type;
	struct perf_event_attr a;
	size_t u = p->bad_unit;
	int fd;

	if (type == PERF_TYPE_SOFTWARE || type == PERF_TYPE_TRACEPOINT ||
	    type == PERF_TYPE_BREAKPOINT)
		return false;
	pmu__perf_prep_attr(p, &one, g->first + bad, &a);
	a.enable_on_exec = 0;
	fd = sys->event_open(sys->ctx, &a, p->units.pid[u], p->units.cpu[u],
			     -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return false;
	sys->close(sys->ctx, fd);
	return true;
}

/* perf's reading of such a group: the member that did not fit is not
 * supported (in this group), the others open but never counted. */
static void mark_no_room(struct pmu__perf *p, const struct perf_group *g,
			 size_t bad)
{
	const char *name = ev_name(p, g->first + bad);

	for (size_t k = 0; k < g->nev; k++) {
		struct pmu__ev_state *st = &p->st[g->first + k];

		if (k == bad) {
			st->err = -ENOSPC;
			snprintf(st->reason, sizeof(st->reason), "it does not "
				 "fit on the PMU's counters beside the other %zu "
				 "events of its group (it counts alone: split "
				 "the group)", g->nev - 1);
		} else {
			st->err = 0;
			st->idle = true;
			snprintf(st->reason, sizeof(st->reason), "its group "
				 "was never counted: '%.40s' does not fit on the "
				 "PMU's counters beside the rest of the group",
				 name);
		}
	}
}

static int open_group(struct pmu__perf *p, struct perf_group *g,
		      struct pmu_error *err)
{
	size_t bad = 0;
	int ret;

	if (premarked(p, g) || restrict_cpus(p, g))
		return 0;
	if (pmu__perf_notify_apart(p, g))
		return pmu__perf_open_notify(p, g, err);
	ret = open_units(p, g, &bad);
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
	if (split_weak(p, g))
		return open_group(p, g, err);
	if (ret == -EINVAL && bad > 0 && fits_alone(p, g, bad)) {
		mark_no_room(p, g, bad);
		return 0;
	}
	if (pmu__perf_errno_not_supported(ret)) {
		pmu__perf_mark_unsupported(p, g, bad, ret, NULL);
		return 0;
	}
	return pmu__perf_open_error(p, g->first + bad, ret, err);
}

static int build_groups(struct pmu__perf *p)
{
	size_t i;

	p->grp = calloc(p->nev, sizeof(*p->grp));
	p->attr = calloc(p->nev, sizeof(*p->attr));
	if (!p->grp || !p->attr)
		return -ENOMEM;
	for (i = 0; i < p->nev; i++) {
		if (i == 0 || p->ev[i].group != p->ev[i - 1].group)
			p->grp[p->ngrp++].first = i;
		p->grp[p->ngrp - 1].nev++;
		p->grp[p->ngrp - 1].lost |= (p->ev[i].flags & PMU__EV_LOST) != 0;
		p->attr[i] = p->ev[i].attr;
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
	/* room for every event as a leader: weak groups may split */
	p->leader = malloc((p->nev * p->nunits + 1) * sizeof(*p->leader));
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

/* User-space reads (rdpmc on x86-64, the PMU's counter registers on
 * arm64) only read the caller's own counters. */
static bool mmap_possible(const struct pmu__perf *p,
			  const struct pmu__target *t)
{
#if defined(__x86_64__) || defined(__aarch64__)
	return p->target == PMU__TARGET_SELF && !p->inherit && p->nunits == 1 &&
	       !t->no_mmap_read;
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
		uint32_t t = p->attr[g->first + k].type;

		if (t == PERF_TYPE_SOFTWARE || t == PERF_TYPE_TRACEPOINT ||
		    t == PERF_TYPE_BREAKPOINT)
			return false;
		/* its descriptor maps an overflow or sampling ring instead
		 * (one mapping a descriptor: a page of another size would
		 * make the ring's mmap fail) */
		if ((p->ev[g->first + k].flags & PMU__EV_NOTIFY) ||
		    p->attr[g->first + k].sample_period)
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
			   const struct pmu__target *t, struct pmu_error *err)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && p->target == PMU__TARGET_PID && i < t->npids; i++)
		ret = check_vanished(p, t->pids[i], err);
	return ret;
}

/* The directories of the events' cgroups: a cgroup event counts what
 * runs in it on each CPU, so only system-wide targets take one. */
static int open_cgroups(struct pmu__perf *p, const struct pmu__target *t,
			struct pmu_error *err)
{
	size_t i;

	for (i = 0; i < p->nev && !p->ev[i].cgroup; i++)
		;
	if (i == p->nev)
		return 0;
	if (t->kind != PMU__TARGET_CPUS)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, p->ev[i].cgroup,
				  -1, "event '%s' counts in cgroup %s, which "
				  "needs a system-wide target (all or some "
				  "CPUs)", ev_name(p, i), p->ev[i].cgroup);
	p->cgfd = malloc(p->nev * sizeof(*p->cgfd));
	if (!p->cgfd)
		return -ENOMEM;
	for (i = 0; i < p->nev; i++)
		p->cgfd[i] = -1;
	for (i = 0; i < p->nev; i++) {
		if (!p->ev[i].cgroup)
			continue;
		p->cgfd[i] = open(p->ev[i].cgroup, O_RDONLY | O_DIRECTORY |
				  O_CLOEXEC);
		if (p->cgfd[i] < 0)
			return pmu__error(err, -errno, PMU_ERR_NO_TARGET,
					  p->ev[i].cgroup, -1, "cannot open "
					  "cgroup %s: %s", p->ev[i].cgroup,
					  pmu_strerror(-errno));
	}
	return 0;
}

static int open_all(struct pmu__perf *p, const struct pmu__target *t,
		    struct pmu_error *err)
{
	int ret = pmu__perf_units_get(t, p->sys->proc, &p->units, err);
	size_t g;

	if (!ret)
		ret = open_cgroups(p, t, err);
	if (ret)
		return ret;
	p->nunits = p->units.n;
	ret = build_groups(p);
	if (!ret && mmap_possible(p, t))
		pmu__perf_uread_request(p);
	if (!ret)
		ret = alloc_tables(p);
	for (g = 0; !ret && g < p->ngrp; g++)
		ret = open_group(p, &p->grp[g], err);
	if (!ret)
		ret = check_processes(p, t, err);
	if (!ret)
		ret = pmu__perf_map_members(p, err);
	if (ret)
		return ret;
	if (mmap_possible(p, t))
		map_pages(p);
	collect_leaders(p);
	p->direct = p->nunits == 1 && p->ngrp == 1 && p->grp[0].open &&
		    !p->grp[0].per_event && !p->grp[0].mmap && !p->grp[0].lost &&
		    p->fd[0] >= 0;
	return 0;
}

static struct pmu__perf *perf_of(struct pmu__drv *d)
{
	return (struct pmu__perf *)d;
}

static void perf_close(struct pmu__drv *d)
{
	struct pmu__perf *p = perf_of(d);
	size_t g, i;

	pmu__perf_unmap_rings(p);
	for (i = 0; p->page && i < p->nev; i++)
		if (p->page[i])
			p->sys->munmap(p->sys->ctx, p->page[i], p->page_size);
	pmu__perf_close_notify(p);
	for (g = 0; p->fd && g < p->ngrp; g++)
		close_group(p, &p->grp[g]);
	for (i = 0; p->cgfd && i < p->nev; i++)
		if (p->cgfd[i] >= 0)
			close(p->cgfd[i]);
	free(p->cgfd);
	pmu__perf_units_free(&p->units);
	for (g = 0; p->grp && g < p->ngrp; g++)
		pmu__cpulist_free(&p->grp[g].cpus);
	free(p->page);
	free(p->fd);
	free(p->id);
	free(p->leader);
	free(p->gone);
	free(p->gone_try);
	free(p->buf);
	free(p->grp);
	free(p->attr);
	/* back to a fresh instance: only the seam, host facts and a
	 * context's hold on the PMU stay */
	*p = (struct pmu__perf){ .drv = p->drv, .sys = p->sys,
				 .host = p->host, .pfm = p->pfm,
				 .pfm_host = p->pfm_host };
}

static int perf_open(struct pmu__drv *d, const struct pmu__ev *ev, size_t nev,
		     const struct pmu__place *place,
		     const struct pmu__target *t, struct pmu__ev_state *st,
		     struct pmu_error *err)
{
	struct pmu__perf *p = perf_of(d);
	int ret;

	(void)place;
	if (p->is_open)
		return pmu__error(err, -EBUSY, PMU_ERR_USAGE, NULL, -1,
				  "the perf driver already has events open");
	if (p->pfm)
		return pmu__error(err, -EBUSY, PMU_ERR_USAGE, NULL, -1,
				  "a perfmon2 context holds this perf driver's "
				  "PMU");
	p->ev = ev;
	p->st = st;
	p->nev = nev;
	p->target = t->kind;
	p->start_stopped = t->start_stopped;
	p->skip_gone = t->skip_gone && t->kind == PMU__TARGET_TID;
	p->inherit = t->kind == PMU__TARGET_CHILD ||
		     (t->inherit && t->kind != PMU__TARGET_CPUS);
	ret = open_all(p, t, err);
	if (ret) {
		if (ret == -ENOMEM)
			pmu__error(err, ret, PMU_ERR_SYSTEM, NULL, -1,
				   "out of memory");
		perf_close(d);
		return ret;
	}
	p->is_open = true;
	return 0;
}

/* One ioctl(req, PERF_IOC_FLAG_GROUP) per group leader and CPU/thread. */
static int perf_ioctl(const struct pmu__perf *p, unsigned long req)
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

static int perf_enable(struct pmu__drv *d)
{
	return perf_ioctl(perf_of(d), PERF_EVENT_IOC_ENABLE);
}

static int perf_disable(struct pmu__drv *d)
{
	return perf_ioctl(perf_of(d), PERF_EVENT_IOC_DISABLE);
}

static int perf_reset(struct pmu__drv *d)
{
	return perf_ioctl(perf_of(d), PERF_EVENT_IOC_RESET);
}

static size_t perf_nunits(const struct pmu__drv *d)
{
	const struct pmu__perf *p = (const struct pmu__perf *)d;

	return p->is_open ? p->nunits : 0;
}

/* A thread's name as the kernel has it now ("" once it is gone). */
static void thread_comm(const struct pmu__perf *p, pid_t owner, pid_t tid,
			char *buf, size_t sz)
{
	char path[128];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/%d/task/%d/comm",
		 p->sys->proc ? p->sys->proc : "/proc", (int)owner, (int)tid);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(buf, (int)sz, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

static int perf_unit_info(const struct pmu__drv *d, size_t u,
			  struct pmu__unit *out)
{
	const struct pmu__perf *p = (const struct pmu__perf *)d;

	if (!p->is_open || u >= p->nunits)
		return -EINVAL;
	out->cpu = p->units.cpu[u];
	out->tid = p->units.cpu[u] >= 0 ? -1 : p->units.pid[u];
	out->owner = p->units.owner[u];
	out->comm[0] = '\0';
	if (out->tid > 0)
		thread_comm(p, out->owner, out->tid, out->comm,
			    sizeof(out->comm));
	return 0;
}

static void perf_destroy(struct pmu__drv *d)
{
	if (!d)
		return;
	perf_close(d);
	pmu__perf_pfm_put(d);
	free(perf_of(d)->pfm_host);
	free(d);
}

static const struct pmu__drv_units perf_units = {
	.nunits = perf_nunits,
	.unit_info = perf_unit_info,
	.read_unit = pmu__perf_read_unit,
};

static const struct pmu__drv_pfm perf_pfm = {
	.pfm_hw = pmu__perf_pfm_hw,
	.pfm_put = pmu__perf_pfm_put,
};

static const struct pmu__drv_switching perf_switching = {
	.group_ctl = pmu__perf_group_ctl,
	.read_group = pmu__perf_read_group,
	.notify_fds = pmu__perf_notify_fds,
	.notify_consume = pmu__perf_notify_consume,
	.set_period = pmu__perf_set_period,
};

static const struct pmu__drv_buffer perf_buffer = {
	.map_buffer = pmu__perf_map_buffer,
	.event_ids = pmu__perf_event_ids,
	.lost = pmu__perf_lost,
};

const struct pmu__driver_ops pmu__perf_ops = {
	.name = "perf",
	.caps = PMU__DRV_CGROUP,
	.open = perf_open,
	.close = perf_close,
	.enable = perf_enable,
	.disable = perf_disable,
	.reset = perf_reset,
	.read = pmu__perf_read,
	.destroy = perf_destroy,
	.units = &perf_units,
	.pfm = &perf_pfm,
	.switching = &perf_switching,
	.buffer = &perf_buffer,
};

struct pmu__drv *pmu__perf_driver_new(const struct pmu__perf_sys *sys)
{
	struct pmu__perf *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->drv.ops = &pmu__perf_ops;
	p->sys = sys ? sys : &pmu__perf_sys_default;
	return &p->drv;
}
