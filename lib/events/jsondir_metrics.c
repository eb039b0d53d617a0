/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "events/jsondir_impl.h"
#include "util/error.h"

/*
 * The kernel layout's metrics (MetricName, MetricExpr, MetricGroup...),
 * counter.json and the architecture standard events and metrics that
 * model records name with "ArchStdEvent" (arm64, RISC-V).  As perf's
 * generator does, a record naming a standard one takes every field it
 * does not give itself from it.
 */

static const char *dup_or(struct pmu__jsondir *jd, const char *s,
			  const char *dfl, bool *oom)
{
	char *c;

	if (!s)
		return dfl;
	if (!(c = pmu__jd_strndup(jd, s, strlen(s))))
		*oom = true;
	return c;
}

static uint32_t constraint_flags(const char *c, uint32_t dfl)
{
	if (!c)
		return dfl;
	if (!strcmp(c, "NO_GROUP_EVENTS"))
		return PMU__MET_NO_GROUP;
	if (!strcmp(c, "NO_GROUP_EVENTS_NMI"))
		return PMU__MET_NO_NMI;
	if (!strcmp(c, "NO_GROUP_EVENTS_SMT"))
		return PMU__MET_NO_SMT;
	return 0;
}

/* Add a metric record to a model; -ENOMEM. */
static int jd_add_metric(struct jd_model *jm, const struct jd_metric *m)
{
	if (jm->nmets == jm->mcap) {
		size_t cap = jm->mcap ? jm->mcap * 2 : 32;
		struct jd_metric *n = realloc(jm->mets, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		jm->mets = n;
		jm->mcap = cap;
	}
	jm->mets[jm->nmets++] = *m;
	return 0;
}

int pmu__jd_add_metric_record(struct pmu__jsondir *jd, struct jd_model *jm,
			      const char *what, const struct pmu_json *o,
			      struct pmu_error *err)
{
	const char *as = pmu__jd_str(o, "ArchStdEvent");
	const struct jd_std *std = as ? pmu__jd_std_find(jd, jm->arch, as)
				      : NULL;
	struct jd_metric m = { 0 };
	bool oom = false;

	if (as && (!std || !std->is_metric))
		return pmu__error(err, -EINVAL, PMU_ERR_UNKNOWN_EVENT, as, -1,
				  "%s: ArchStdEvent '%.64s' is not a standard "
				  "metric of this architecture", what, as);
	if (std)
		m = std->met;
	m.name = dup_or(jd, pmu__jd_str(o, "MetricName"), m.name, &oom);
	m.expr = dup_or(jd, pmu__jd_str(o, "MetricExpr"), m.expr, &oom);
	m.groups = dup_or(jd, pmu__jd_str(o, "MetricGroup"), m.groups, &oom);
	m.nogroup = dup_or(jd, pmu__jd_str(o, "MetricgroupNoGroup"), m.nogroup,
			   &oom);
	m.dflt = dup_or(jd, pmu__jd_str(o, "DefaultMetricgroupName"), m.dflt, &oom);
	m.unit = dup_or(jd, pmu__jd_str(o, "ScaleUnit"), m.unit, &oom);
	m.desc = dup_or(jd, pmu__jd_str(o, "PublicDescription"), m.desc, &oom);
	m.desc = dup_or(jd, pmu__jd_str(o, "BriefDescription"), m.desc, &oom);
	m.flags = constraint_flags(pmu__jd_str(o, "MetricConstraint"), m.flags);
	if (oom)
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	if (!m.name || !m.expr)
		return pmu__error(err, -EINVAL, PMU_ERR_SYNTAX, NULL, -1,
				  "%s: a metric needs MetricName and "
				  "MetricExpr", what);
	if (jd->loading_std)
		return pmu__jd_add_std(jd, m.name, NULL, &m) ?
		       pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory") : 0;
	/* A hybrid part's metrics of the atom cores go to that model. */
	if (!(jm = pmu__jd_unit_model(jd, jm, pmu__jd_str(o, "Unit"))))
		return 0;
	return jd_add_metric(jm, &m) ?
	       pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
			  "out of memory") : 0;
}

static int count_of(const struct pmu_json *o, const char *key)
{
	const struct pmu_json *v = pmu__json_get(o, key);
	uint64_t n = 0;

	if (!v || pmu__json_uint64(v, &n) || n > 64)
		return -1;
	return (int)n;
}

int pmu__jd_counters_record(struct pmu__jsondir *jd, struct jd_model *jm,
			    const struct pmu_json *o)
{
	if (!(jm = pmu__jd_unit_model(jd, jm, pmu__jd_str(o, "Unit"))))
		return 0;
	jm->num_generic = count_of(o, "CountersNumGeneric");
	jm->num_fixed = count_of(o, "CountersNumFixed");
	return 0;
}

int pmu__jd_add_std(struct pmu__jsondir *jd, const char *name,
		    const struct jd_ent *e, const struct jd_metric *met)
{
	struct jd_std *s;
	char *n;

	if (jd->nstd == jd->stdcap) {
		size_t cap = jd->stdcap ? jd->stdcap * 2 : 64;
		struct jd_std *a = realloc(jd->std, cap * sizeof(*a));

		if (!a)
			return -ENOMEM;
		jd->std = a;
		jd->stdcap = cap;
	}
	if (!(n = pmu__jd_strndup(jd, name, strlen(name))))
		return -ENOMEM;
	s = &jd->std[jd->nstd++];
	memset(s, 0, sizeof(*s));
	s->name = n;
	s->arch = jd->std_arch;
	if (e)
		s->ent = *e;
	if (met) {
		s->met = *met;
		s->is_metric = true;
	}
	return 0;
}

const struct jd_std *pmu__jd_std_find(const struct pmu__jsondir *jd,
				      enum pmu__arch arch, const char *name)
{
	/* Later files may redefine a name; the last one stands, as in
	 * perf's generator. */
	for (size_t i = jd->nstd; i-- > 0;)
		if (jd->std[i].arch == arch && !strcasecmp(jd->std[i].name, name))
			return &jd->std[i];
	return NULL;
}
