/* SPDX-License-Identifier: MIT */
/*
 * The counting engine's aggregates: a session's units (CPUs or threads)
 * grouped as perf stat's aggregation modes group them, from the
 * topology the library reads in sysfs; reading them, with the instances
 * of a merged event summed into one.  A client of the session API only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/host.h>
#include <pmu/stat.h>

#include "stat/stat.h"
#include "util/error.h"
#include "util/opts.h"
#include "util/outstruct.h"

static struct pmu_aggr aggr_none(void)
{
	return (struct pmu_aggr){ .size = sizeof(struct pmu_aggr), .cpu = -1,
				  .socket = -1, .die = -1, .core = -1,
				  .node = -1, .cache_level = -1,
				  .cache_id = -1, .tid = -1 };
}

/* The aggregate a CPU belongs to: only the ids the mode groups by are
 * kept, so equal aggregates compare equal. */
static int topo_aggr(int cpu, enum pmu_aggr_mode mode, int cache_level,
		     struct pmu_aggr *a)
{
	struct pmu_cpu_topology t = { .size = sizeof(t) };
	int r = pmu_cpu_topology(cpu, cache_level, &t);

	*a = aggr_none();
	if (r)
		return r;
	switch (mode) {
	case PMU_AGGR_CORE:
		a->core = t.core;
		/* a core is within a die */
		__attribute__((fallthrough));
	case PMU_AGGR_DIE:
		a->die = t.die;
		/* a die is within a socket */
		__attribute__((fallthrough));
	case PMU_AGGR_SOCKET:
		a->socket = t.socket;
		break;
	case PMU_AGGR_NODE:
		a->node = t.node;
		break;
	case PMU_AGGR_CACHE:
		if (t.cache_level < 0)
			return -ENOENT; /* no cache of that level */
		a->socket = t.socket;
		a->die = t.die;
		a->cache_level = t.cache_level;
		a->cache_id = t.cache_id;
		break;
	default:
		break;
	}
	return 0;
}

static int aggr_cmp(const struct pmu_aggr *x, const struct pmu_aggr *y)
{
	const int kx[] = { x->socket, x->die, x->node, x->cache_level,
			   x->cache_id, x->core, x->cpu, x->tid };
	const int ky[] = { y->socket, y->die, y->node, y->cache_level,
			   y->cache_id, y->core, y->cpu, y->tid };

	for (size_t i = 0; i < sizeof(kx) / sizeof(kx[0]); i++)
		if (kx[i] != ky[i])
			return kx[i] < ky[i] ? -1 : 1;
	return 0;
}

/* One aggregate per unit (per CPU, per thread). */
static int per_unit(struct pmu_stat *st)
{
	for (size_t u = 0; u < st->nunits; u++) {
		struct pmu_unit_info ui = { .size = sizeof(ui) };

		if (pmu_session_unit_info(st->s, u, &ui))
			return -EINVAL;
		st->aggs[u] = aggr_none();
		st->aggs[u].nr = 1;
		if (st->mode == PMU_AGGR_CPU)
			st->aggs[u].cpu = ui.cpu;
		st->aggs[u].tid = ui.tid;
		memcpy(st->aggs[u].comm, ui.comm, sizeof(st->aggs[u].comm));
		st->unit_aggr[u] = u;
	}
	st->naggr = st->nunits;
	return 0;
}

/* Units grouped by topology, aggregates sorted by their ids. */
static int by_topology(struct pmu_stat *st, int cache_level)
{
	size_t n = 0;

	for (size_t u = 0; u < st->nunits; u++) {
		struct pmu_unit_info ui = { .size = sizeof(ui) };
		struct pmu_aggr a;
		size_t k;
		int r = pmu_session_unit_info(st->s, u, &ui);

		if (r || ui.cpu < 0 ||
		    (r = topo_aggr(ui.cpu, st->mode, cache_level, &a)))
			return r ? r : -EINVAL;
		for (k = 0; k < n && aggr_cmp(&st->aggs[k], &a) < 0; k++)
			;
		if (k == n || aggr_cmp(&st->aggs[k], &a)) {
			memmove(&st->aggs[k + 1], &st->aggs[k],
				(n - k) * sizeof(*st->aggs));
			for (size_t j = 0; j < u; j++)
				st->unit_aggr[j] += st->unit_aggr[j] >= k;
			st->aggs[k] = a;
			n++;
		}
		st->aggs[k].nr++;
		st->unit_aggr[u] = k;
	}
	st->naggr = n;
	return 0;
}

/* The first event of event i's merge id: where its instances add up. */
static size_t merge_head(const struct pmu_session *s, size_t i)
{
	ssize_t id = pmu_session_event_merge(s, i);

	for (size_t j = 0; id > 0 && j < i; j++)
		if (pmu_session_event_merge(s, j) == id)
			return j;
	return i;
}

static int build(struct pmu_stat *st, int cache_level)
{
	size_t nu = st->nunits, ne = st->nevents;

	st->aggs = calloc(nu ? nu : 1, sizeof(*st->aggs));
	st->unit_aggr = calloc(nu ? nu : 1, sizeof(*st->unit_aggr));
	st->head = calloc(ne ? ne : 1, sizeof(*st->head));
	st->tmp = calloc(ne ? ne : 1, sizeof(*st->tmp));
	st->rows = calloc(ne ? ne : 1, sizeof(*st->rows));
	if (!st->aggs || !st->unit_aggr || !st->head || !st->tmp || !st->rows)
		return -ENOMEM;
	for (size_t i = 0; i < ne; i++) {
		pmu__stat_evkind(st->s, i, &st->rows[i].ev);
		st->rows[i].name = pmu_session_event_name(st->s, i);
	}
	for (size_t i = 0; i < ne; i++)
		st->head[i] = st->no_merge ? i : merge_head(st->s, i);
	switch (st->mode) {
	case PMU_AGGR_GLOBAL:
		st->aggs[0] = aggr_none();
		st->aggs[0].nr = (int)nu;
		st->naggr = 1;
		return 0;
	case PMU_AGGR_CPU:
	case PMU_AGGR_THREAD:
		return per_unit(st);
	default:
		return by_topology(st, cache_level);
	}
}

PMU_API struct pmu_stat *pmu_stat_new(struct pmu_session *s,
				      const struct pmu_stat_opts *opts,
				      struct pmu_error *err)
{
	enum pmu_aggr_mode mode = PMU__OPTS_GET(opts, mode, PMU_AGGR_GLOBAL);
	int level = PMU__OPTS_GET(opts, cache_level, 0);
	struct pmu_stat *st;
	int r;

	if ((r = PMU__OPTS_CHECK(opts, pmu_stat_opts, err))) {
		errno = -r;
		return NULL;
	}
	if (!s) {
		pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1, "no session");
		return NULL;
	}
	if ((unsigned)mode > PMU_AGGR_CACHE) {
		pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
			   "aggregation mode %d: no such mode", (int)mode);
		return NULL;
	}
	if (level < 0) {
		pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
			   "cache level %d: not a level", level);
		return NULL;
	}
	if (!(st = calloc(1, sizeof(*st)))) {
		pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
			   "out of memory");
		return NULL;
	}
	st->s = s;
	st->mode = mode;
	st->no_merge = PMU__OPTS_GET(opts, no_merge, false);
	st->nunits = pmu_session_nunits(s);
	st->nevents = pmu_session_nevents(s);
	r = build(st, level);
	if (r) {
		if (r == -ENOENT && mode == PMU_AGGR_CACHE)
			pmu__error(err, r, PMU_ERR_NO_TARGET, NULL, -1,
				   "sysfs lists no cache of level %d for "
				   "these CPUs", level);
		else if (r == -ENOMEM)
			pmu__error(err, r, PMU_ERR_SYSTEM, NULL, -1,
				   "out of memory");
		else
			pmu__error(err, r, PMU_ERR_USAGE, NULL, -1,
				   "cannot tell which %s the counts belong "
				   "to: %s", mode == PMU_AGGR_THREAD ?
				   "threads" : "CPUs", strerror(-r));
		pmu_stat_free(st);
		errno = -r;
		return NULL;
	}
	return st;
}

PMU_API void pmu_stat_free(struct pmu_stat *st)
{
	if (!st)
		return;
	free(st->aggs);
	free(st->unit_aggr);
	free(st->head);
	free(st->tmp);
	free(st->rows);
	free(st);
}

PMU_API size_t pmu_stat_naggr(const struct pmu_stat *st)
{
	return st ? st->naggr : 0;
}

PMU_API int pmu_stat_aggr(const struct pmu_stat *st, size_t a,
			  struct pmu_aggr *out)
{
	if (!st || a >= st->naggr || !pmu__out_ok(out, out ? out->size : 0))
		return -EINVAL;
	PMU__OUT(out, &st->aggs[a]);
	return 0;
}

PMU_API ssize_t pmu_stat_unit_aggr(const struct pmu_stat *st, size_t u)
{
	if (!st || u >= st->nunits)
		return -EINVAL;
	return st->mode == PMU_AGGR_GLOBAL ? 0 : (ssize_t)st->unit_aggr[u];
}

PMU_API void pmu_value_add(struct pmu_value *to, const struct pmu_value *v)
{
	if (!to || !v)
		return;
	to->raw += v->raw;
	to->enabled += v->enabled;
	to->running += v->running;
	if (v->status == PMU_EVENT_OK || to->status != PMU_EVENT_OK)
		to->status = v->status;
	to->scaled = pmu_scale(to->raw, to->enabled, to->running);
}

PMU_API void pmu_value_delta(const struct pmu_value *now,
			     const struct pmu_value *before,
			     struct pmu_value *out)
{
	struct pmu_value d;

	if (!now || !before || !out)
		return;
	d = *now;
	d.raw -= before->raw;
	d.enabled -= before->enabled;
	d.running -= before->running;
	d.scaled = pmu_scale(d.raw, d.enabled, d.running);
	*out = d;
}

PMU_API ssize_t pmu_stat_read(struct pmu_stat *st, struct pmu_value *vals,
			      size_t n)
{
	size_t ne, total, sz;
	ssize_t ret = 0;

	if (!st || (!vals && n))
		return -EINVAL;
	ne = st->nevents;
	total = st->naggr * ne;
	if (!total)
		return 0;
	if (n < total || vals[0].size < sizeof(struct pmu_value))
		return -EINVAL;
	sz = sizeof(struct pmu_value);
	for (size_t k = 0; k < total; k++)
		vals[k] = (struct pmu_value){ .size = sz,
					      .status = PMU_EVENT_NOT_COUNTED };
	if (st->mode == PMU_AGGR_GLOBAL)
		ret = pmu_session_read(st->s, vals, ne);
	for (size_t u = 0; ret >= 0 && st->mode != PMU_AGGR_GLOBAL &&
			   u < st->nunits; u++) {
		st->tmp[0].size = sz;
		ret = pmu_session_read_unit(st->s, u, st->tmp, ne);
		for (size_t i = 0; ret >= 0 && i < ne; i++)
			pmu_value_add(&vals[st->unit_aggr[u] * ne + i],
				      &st->tmp[i]);
	}
	if (ret < 0)
		return ret;
	/* instances add up in their first event; scaling sums, so an
	 * instance multiplexed out part of the time weighs in by its own
	 * share, as perf scales the merged line */
	for (size_t i = 0; i < ne; i++)
		for (size_t a = 0; st->head[i] != i && a < st->naggr; a++)
			pmu_value_add(&vals[a * ne + st->head[i]],
				      &vals[a * ne + i]);
	return (ssize_t)total;
}

PMU_API bool pmu_stat_folded(const struct pmu_stat *st, size_t i)
{
	return st && i < st->nevents && st->head[i] != i;
}

PMU_API ssize_t pmu_stat_event_name(const struct pmu_stat *st, size_t i,
				    char *buf, size_t sz)
{
	const char *name, *pmu, *colon;
	int len;

	if (!st || i >= st->nevents || (!buf && sz))
		return -EINVAL;
	name = pmu_session_event_name(st->s, i);
	pmu = pmu_session_event_pmu(st->s, i);
	if (!name)
		return -EINVAL;
	if (!st->no_merge || pmu_session_event_merge(st->s, i) <= 0 || !pmu)
		len = snprintf(buf, sz, "%s", name);
	else {
		colon = strchr(name, ':');
		len = snprintf(buf, sz, "%s/%.*s/%s", pmu,
			       (int)(colon ? (size_t)(colon - name)
					   : strlen(name)), name,
			       colon ? colon + 1 : "");
	}
	return len < 0 ? -EINVAL : len;
}
