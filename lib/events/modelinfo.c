/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "events/catalog.h"
#include "events/jsondir.h"
#include "util/outstruct.h"

/*
 * The public listing of models, events and their attributes
 * (pmu_model_*), over every model the catalog holds: the run-time ones
 * of $PMU_EVENTS_DIR are loaded before the first answer.
 */

/* A model by index, the run-time ones included; filled on first use. */
static const struct pmu__catmodel *model_at(size_t idx)
{
	pmu__jsondir_env_load();
	return pmu__catalog_at(idx);
}

/*
 * perf events have no register modifiers of their own; what they take
 * are the perf_event_attr ones the encoder accepts for them (libpfm4
 * offers the same set through its perf_event layer).  "h" only for the
 * events perf_event can exclude the hypervisor from.
 */
static const struct {
	char name[4];
	char desc[40];
	bool hv_only;
} perf_mods[] = {
	{ "u", "count in user mode", false },
	{ "k", "count in kernel mode", false },
	{ "h", "count in the hypervisor", true },
	{ "mg", "count while a guest runs", false },
	{ "mh", "count while the host runs", false },
};

#define NPERF_MODS (sizeof(perf_mods) / sizeof(perf_mods[0]))

static bool is_perf(const struct pmu__catmodel *m)
{
	return m->kind == PMU__ENC_PERF || m->kind == PMU__ENC_PERF_RAW;
}

/* The idx-th perf modifier of ev, or -1. */
static int perf_mod_at(const struct pmu__event *ev, size_t idx)
{
	for (size_t i = 0; ev && i < NPERF_MODS; i++) {
		if (perf_mods[i].hv_only && !(ev->flags & PMU__EV_PERF_HV))
			continue;
		if (idx-- == 0)
			return (int)i;
	}
	return -1;
}

static size_t perf_mod_count(const struct pmu__event *ev)
{
	size_t n = 0;

	while (perf_mod_at(ev, n) >= 0)
		n++;
	return n;
}

static size_t mod_count(const struct pmu__catmodel *m, uint32_t mask)
{
	size_t n = 0;

	for (int i = 0; i < PMU__MOD_NR; i++)
		n += (mask & PMU__MODBIT(i)) && pmu__mod_desc(m->kind, i);
	return n;
}

PMU_API size_t pmu_catalog_count(void)
{
	pmu__jsondir_env_load();
	return pmu__catalog_count();
}

PMU_API ssize_t pmu_catalog_find(const char *name)
{
	ssize_t i;

	if (!name)
		return -EINVAL;
	pmu__jsondir_env_load();
	i = pmu__catalog_find_index(name, strlen(name));
	return i < 0 ? -ENOENT : i;
}

PMU_API const char *pmu_catalog_suggest(const char *name)
{
	if (!name)
		return NULL;
	pmu__jsondir_env_load();
	return pmu__catalog_suggest(name, strlen(name));
}

PMU_API int pmu_catalog_info(size_t model, struct pmu_catalog_info *info)
{
	const struct pmu__catmodel *m = model_at(model);
	static const char *const none[] = { NULL };
	struct pmu_catalog_info o = { .size = sizeof(o) };

	if (!m || !pmu__out_ok(info, info ? info->size : 0))
		return m ? -EINVAL : -ENOENT;
	o.name = m->name;
	o.desc = m->desc ? m->desc : "";
	o.aliases = m->aliases ? m->aliases : none;
	o.nevents = m->nevents;
	o.nmodifiers = is_perf(m) ? NPERF_MODS : mod_count(m, m->modmsk);
	o.ncounters = m->ncounters > 0 ? (size_t)m->ncounters : 0;
	o.nfixed = m->nfixed > 0 ? (size_t)m->nfixed : 0;
	o.is_host = !strcmp(pmu_event_host_model(), m->name);
	o.arch = pmu__arch_name(m->arch);
	o.pmu = m->pmu;
	o.patterns = m->patterns;
	o.hybrid = m->hybrid;
	o.twin = m->twin;
	o.nmetrics = m->nmetrics;
	PMU__OUT(info, &o);
	return 0;
}

static const struct pmu__event *event_at(const struct pmu__catmodel *m,
					 size_t ev)
{
	return m && ev < m->nevents ? &m->events[ev] : NULL;
}

PMU_API int pmu_catalog_event_info(size_t model, size_t event,
				   struct pmu_event_info *info)
{
	const struct pmu__catmodel *m = model_at(model);
	const struct pmu__event *ev = event_at(m, event);
	struct pmu_event_info o = { .size = sizeof(o) };

	if (!ev || !pmu__out_ok(info, info ? info->size : 0))
		return ev ? -EINVAL : -ENOENT;
	o.name = pmu__ev_name(m, ev);
	o.desc = ev->desc ? pmu__str(m, ev->desc) : "";
	o.code = ev->code;
	o.code2 = m->kind == PMU__ENC_NETBURST ? ev->code2 : 0;
	o.cntmsk = ev->cntmsk;
	o.numasks = ev->numasks;
	o.nattrs = ev->numasks + (is_perf(m) ? perf_mod_count(ev)
					     : mod_count(m, ev->modmsk));
	o.precise = !!(ev->flags & PMU__EV_PREC);
	PMU__OUT(info, &o);
	return 0;
}

PMU_API ssize_t pmu_catalog_event_find(size_t model, const char *name)
{
	const struct pmu__catmodel *m = model_at(model);
	const struct pmu__event *ev;

	if (!m || !name)
		return -ENOENT;
	ev = pmu__catmodel_event(m, name, strlen(name));
	return ev ? (ssize_t)(ev - m->events) : -ENOENT;
}

static int mod_attr(const struct pmu__catmodel *m, const struct pmu__event *ev,
		    size_t idx, struct pmu_attr_info *info)
{
	if (is_perf(m)) {
		int p = perf_mod_at(ev, idx);
		if (p < 0)
			return -ENOENT;
		info->name = perf_mods[p].name;
		info->desc = perf_mods[p].desc;
		info->type = PMU_ATTR_MOD_BOOL;
		info->group = -1;
		return 0;
	}
	for (int i = 0; i < PMU__MOD_NR; i++) {
		const struct pmu__moddesc *d = pmu__mod_desc(m->kind, i);
		if (!d || !(ev->modmsk & PMU__MODBIT(i)) || idx-- > 0)
			continue;
		info->name = d->name;
		info->desc = d->desc;
		info->type = d->is_int ? PMU_ATTR_MOD_INT : PMU_ATTR_MOD_BOOL;
		info->group = -1;
		return 0;
	}
	return -ENOENT;
}

static void umask_attr(const struct pmu__catmodel *m,
		       const struct pmu__umask *u, struct pmu_attr_info *o)
{
	o->name = pmu__um_name(m, u);
	o->desc = u->desc ? pmu__str(m, u->desc) : "";
	o->type = PMU_ATTR_UMASK;
	o->code = u->code;
	o->is_default = !!(u->flags & PMU__UM_DFL);
	o->exclusive = !!(u->flags & PMU__UM_EXCL);
	o->group = u->grp;
}

PMU_API int pmu_catalog_attr_info(size_t model, size_t event, size_t attr,
				  struct pmu_attr_info *info)
{
	const struct pmu__catmodel *m = model_at(model);
	const struct pmu__event *ev = event_at(m, event);
	struct pmu_attr_info o = { .size = sizeof(o) };
	int ret = 0;

	if (!ev || !pmu__out_ok(info, info ? info->size : 0))
		return ev ? -EINVAL : -ENOENT;
	if (attr >= ev->numasks)
		ret = mod_attr(m, ev, attr - ev->numasks, &o);
	else
		umask_attr(m, &pmu__event_umasks(m, ev)[attr], &o);
	if (!ret)
		PMU__OUT(info, &o);
	return ret;
}

PMU_API size_t pmu_catalog_uncore_count(size_t model)
{
	const struct pmu__catmodel *m = model_at(model);

	return m ? m->nuncore : 0;
}

PMU_API int pmu_catalog_uncore_info(size_t model, size_t i,
				    struct pmu_uncore_info *info)
{
	const struct pmu__catmodel *m = model_at(model);
	const struct pmu__uevent *u = m ? pmu__uncore_at(m, i) : NULL;
	struct pmu_uncore_info o = { .size = sizeof(o) };

	if (!u || !pmu__out_ok(info, info ? info->size : 0))
		return u ? -EINVAL : -ENOENT;
	o.name = pmu__ustr(m, u->name);
	o.pmu = pmu__ustr(m, u->pmu);
	o.terms = pmu__ustr(m, u->terms);
	o.scale_unit = u->sunit ? pmu__ustr(m, u->sunit) : "";
	o.per_pkg = !!(u->flags & PMU__UEV_PERPKG);
	o.deprecated = !!(u->flags & PMU__UEV_DEPRECATED);
	PMU__OUT(info, &o);
	return 0;
}

PMU_API ssize_t pmu_catalog_uncore_find(size_t model, const char *name)
{
	const struct pmu__catmodel *m = model_at(model);
	ssize_t pos = m && name ? pmu__uncore_pos(m, name, strlen(name)) : -1;

	return pos < 0 ? -ENOENT : pos;
}
