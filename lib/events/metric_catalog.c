/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include <pmu/metric.h>

#include "events/catalog.h"
#include "events/jsondir.h"
#include "events/metric.h"
#include "util/outstruct.h"

/* The metrics of the catalogs' models, as the public API lists them. */

static const struct pmu__catmodel *model_at(size_t idx)
{
	pmu__jsondir_env_load();
	return pmu__catalog_at(idx);
}

static const char *str_or_empty(const struct pmu__catmodel *m, uint32_t off)
{
	const char *s = pmu__str(m, off);

	return s ? s : "";
}

PMU_API size_t pmu_catalog_metric_count(size_t model)
{
	const struct pmu__catmodel *m = model_at(model);

	return m ? m->nmetrics : 0;
}

PMU_API int pmu_catalog_metric_info(size_t model, size_t metric,
				    struct pmu_metric_info *info)
{
	const struct pmu__catmodel *m = model_at(model);
	struct pmu_metric_info o = { .size = sizeof(o) };
	const struct pmu__metric *x;

	if (!m || metric >= m->nmetrics)
		return -ENOENT;
	if (!pmu__out_ok(info, info ? info->size : 0))
		return -EINVAL;
	x = &m->metrics[metric];
	o.name = str_or_empty(m, x->name);
	o.expr = str_or_empty(m, x->expr);
	o.groups = str_or_empty(m, x->groups);
	o.nogroup = str_or_empty(m, x->nogroup);
	o.default_group = str_or_empty(m, x->dflt);
	o.unit = str_or_empty(m, x->unit);
	o.no_group_events = !!(x->flags & (PMU__MET_NO_GROUP |
					   PMU__MET_NO_NMI |
					   PMU__MET_NO_SMT));
	PMU__OUT(info, &o);
	return 0;
}

const struct pmu__metric *pmu__metric_find(const struct pmu__catmodel *m,
					   const char *name, size_t n)
{
	for (uint32_t i = 0; m && i < m->nmetrics; i++) {
		const char *s = pmu__str(m, m->metrics[i].name);
		if (s && strlen(s) == n && !strncasecmp(s, name, n))
			return &m->metrics[i];
	}
	return NULL;
}

PMU_API ssize_t pmu_catalog_metric_find(size_t model, const char *name)
{
	const struct pmu__catmodel *m = model_at(model);
	const struct pmu__metric *x;

	if (!m || !name)
		return -ENOENT;
	x = pmu__metric_find(m, name, strlen(name));
	return x ? (ssize_t)(x - m->metrics) : -ENOENT;
}

bool pmu__metric_in_list(const char *list, const char *name, size_t n)
{
	while (list && *list) {
		size_t k = strcspn(list, ";");
		if (k == n && !strncasecmp(list, name, n))
			return true;
		list += k + (list[k] == ';');
	}
	return false;
}
