/* SPDX-License-Identifier: MIT */
/* The aggregates of perf stat's aggregation modes: CPUs (-A), threads
 * (--per-thread), or the CPUs of one core, socket, die, node or cache,
 * from the topology the library reads in sysfs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"

static struct stat_agg agg_none(void)
{
	return (struct stat_agg){ .cpu = -1, .socket = -1, .die = -1,
				  .core = -1, .node = -1, .cache_level = -1,
				  .cache_id = -1, .tid = -1 };
}

/* The aggregate a CPU belongs to in mode `aggr`: only the ids that
 * mode groups by are kept, so equal aggregates compare equal. */
static int topo_agg(int cpu, const struct stat_opts *o, struct stat_agg *a)
{
	struct pmu_cpu_topology t = { .size = sizeof(t) };
	int r = pmu_cpu_topology(cpu, o->cache_level, &t);

	*a = agg_none();
	if (r)
		return r;
	switch (o->aggr) {
	case STAT_AGGR_CORE:
		a->core = t.core;
		/* a core is within a die */
		__attribute__((fallthrough));
	case STAT_AGGR_DIE:
		a->die = t.die;
		/* a die is within a socket */
		__attribute__((fallthrough));
	case STAT_AGGR_SOCKET:
		a->socket = t.socket;
		break;
	case STAT_AGGR_NODE:
		a->node = t.node;
		break;
	case STAT_AGGR_CACHE:
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

static int agg_cmp(const struct stat_agg *x, const struct stat_agg *y)
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

/* One aggregate per unit (-A, --per-thread, the global figure). */
static int per_unit(struct pmu_session *s, const struct stat_opts *o,
		    struct stat_agg *aggs, size_t *unit_agg, size_t nu)
{
	for (size_t u = 0; u < nu; u++) {
		struct pmu_unit_info ui = { .size = sizeof(ui) };

		if (pmu_session_unit_info(s, u, &ui))
			return -EINVAL;
		aggs[u] = agg_none();
		aggs[u].nr = 1;
		if (o->aggr == STAT_AGGR_NONE)
			aggs[u].cpu = ui.cpu;
		aggs[u].tid = ui.tid;
		memcpy(aggs[u].comm, ui.comm, sizeof(aggs[u].comm));
		unit_agg[u] = u;
	}
	return 0;
}

/* Units grouped by topology, aggregates sorted by their ids. */
static int by_topology(struct pmu_session *s, const struct stat_opts *o,
		       struct stat_agg *aggs, size_t *nagg, size_t *unit_agg,
		       size_t nu)
{
	size_t n = 0;

	for (size_t u = 0; u < nu; u++) {
		struct pmu_unit_info ui = { .size = sizeof(ui) };
		struct stat_agg a;
		size_t k, j;
		int r = pmu_session_unit_info(s, u, &ui);

		if (r || ui.cpu < 0 || (r = topo_agg(ui.cpu, o, &a)))
			return r ? r : -EINVAL;
		for (k = 0; k < n && agg_cmp(&aggs[k], &a) < 0; k++)
			;
		if (k == n || agg_cmp(&aggs[k], &a)) {
			memmove(&aggs[k + 1], &aggs[k], (n - k) * sizeof(*aggs));
			for (j = 0; j < u; j++)
				unit_agg[j] += unit_agg[j] >= k;
			aggs[k] = a;
			n++;
		}
		aggs[k].nr++;
		unit_agg[u] = k;
	}
	*nagg = n;
	return 0;
}

int stat_aggr_build(struct pmu_session *s, const struct stat_opts *o,
		    struct stat_agg **aggs, size_t *nagg, size_t **unit_agg,
		    size_t *nunits)
{
	size_t nu = pmu_session_nunits(s);
	int r;

	*aggs = calloc(nu ? nu : 1, sizeof(**aggs));
	*unit_agg = calloc(nu ? nu : 1, sizeof(**unit_agg));
	*nunits = nu;
	if (!*aggs || !*unit_agg)
		return -ENOMEM;
	if (o->aggr == STAT_AGGR_GLOBAL) {
		(*aggs)[0] = agg_none();
		(*aggs)[0].nr = (int)nu;
		*nagg = 1;
		return 0;
	}
	if (o->aggr == STAT_AGGR_NONE || o->aggr == STAT_AGGR_THREAD) {
		*nagg = nu;
		return per_unit(s, o, *aggs, *unit_agg, nu);
	}
	r = by_topology(s, o, *aggs, nagg, *unit_agg, nu);
	return r;
}
