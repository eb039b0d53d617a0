/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <pmu/vendor.h>

#include "events/jsondir_impl.h"
#include "events/catalog_seed.h"
#include "util/cpuid.h"
#include "util/error.h"

#define ENV_MAX_MODELS 32

/* Loaded once for the life of the process: models registered with the
 * catalog must outlive every caller. */
static struct pmu__jsondir *env_jd;
static const struct pmu__catmodel *env_models[ENV_MAX_MODELS];
static size_t env_n;
static pthread_once_t env_once = PTHREAD_ONCE_INIT;

/* A built-in name (a table's, a seed model's, a kernel model's) wins; a
 * vendor model of the same name or alias gets a suffix so both stay
 * reachable. */
static void rename_clashes(struct pmu__jsondir *jd)
{
	for (size_t i = 0; i < jd->n; i++) {
		struct jd_model *jm = jd->models[i];
		if (pmu__catalog_find_index(jm->name, strlen(jm->name)) >= 0) {
			size_t l = strlen(jm->name);
			snprintf(jm->name + l, sizeof(jm->name) - l, "_json");
		}
	}
}

static void load_env(void)
{
	const char *dir = getenv("PMU_EVENTS_DIR");
	struct pmu_error err = { .size = sizeof(err) };

	if (!dir || !*dir)
		return;
	env_jd = pmu__jsondir_load(dir, &err);
	if (!env_jd) {
		pmu__warn("PMU_EVENTS_DIR ignored: %s", err.message);
		return;
	}
	rename_clashes(env_jd);
	for (size_t i = 0; i < env_jd->n && env_n < ENV_MAX_MODELS; i++)
		env_models[env_n++] = &env_jd->models[i]->m;
	pmu__catalog_register(env_models, env_n);
}

/* Set once the models are registered: the hot paths (every encoding,
 * every catalog lookup) then pay one load instead of a call. */
static _Atomic bool env_done;

void pmu__jsondir_env_load(void)
{
	if (atomic_load_explicit(&env_done, memory_order_acquire))
		return;
	pthread_once(&env_once, load_env);
	atomic_store_explicit(&env_done, true, memory_order_release);
}

/* The loaded directory itself (loading it first), or NULL. */
static const struct pmu__jsondir *jsondir_env(void)
{
	pthread_once(&env_once, load_env);
	return env_jd;
}

int pmu__jsondir_host_cpuid(char *buf, size_t sz)
{
	return pmu__cpuid_string(pmu__cpuid_host(), buf, sz);
}

PMU_API int pmu_events_host_cpuid(char *buf, size_t sz)
{
	if (!buf || !sz)
		return -EINVAL;
	return pmu__jsondir_host_cpuid(buf, sz);
}

PMU_API int pmu_events_dir_check(const char *dir, struct pmu_error *err)
{
	struct pmu__jsondir *jd = pmu__jsondir_load(dir, err);
	int n;

	if (!jd)
		return -errno;
	n = (int)jd->n;
	pmu__jsondir_free(jd);
	return n;
}

/* ---- vendor descriptions for listings ---- */

/* A CPUID of each built-in model that vendor files also describe, to
 * find the vendor model through the mapfile patterns. */
static const struct {
	const char *model, *cpuid;
} rep_cpuid[] = {
	{ "amd64_fam17h_zen1", "AuthenticAMD-23-1" },
	{ "amd64_fam17h_zen2", "AuthenticAMD-23-31" },
	{ "amd64_fam19h_zen3", "AuthenticAMD-25-1" },
	{ "amd64_fam19h_zen4", "AuthenticAMD-25-11" },
	{ "skl", "GenuineIntel-6-5E" },
	{ "icl", "GenuineIntel-6-7E" },
	{ "spr", "GenuineIntel-6-8F" },
};

static const struct pmu__catmodel *counterpart(const struct pmu__jsondir *jd,
					    const struct pmu__catmodel *m)
{
	/* A kernel model's files: the directory's model of that name,
	 * renamed NAME_json since the built-in one holds the name. */
	if (m->arch != PMU__ARCH_NONE) {
		char n[PMU__JSONDIR_NAME_MAX + 8];
		snprintf(n, sizeof(n), "%s_json", m->name);
		return pmu__jsondir_model(jd, n);
	}
	for (size_t i = 0; i < sizeof(rep_cpuid) / sizeof(rep_cpuid[0]); i++)
		if (!strcmp(rep_cpuid[i].model, m->name))
			return pmu__jsondir_model(jd, rep_cpuid[i].cpuid);
	return NULL;
}

/* Same name, else (vendor names differ from libpfm's on AMD) same code. */
static const struct pmu__event *same_event(const struct pmu__catmodel *v,
					   const struct pmu__catmodel *m,
					   const struct pmu__event *ev)
{
	const char *name = pmu__ev_name(m, ev);
	const struct pmu__event *e = pmu__catmodel_event(v, name, strlen(name));

	for (uint32_t i = 0; !e && i < v->nevents; i++)
		if (v->events[i].code == ev->code)
			e = &v->events[i];
	return e;
}

static int same_umask(const struct pmu__catmodel *v,
		      const struct pmu__event *ve,
		      const struct pmu__catmodel *m, const struct pmu__umask *u)
{
	const struct pmu__umask *vu = pmu__event_umasks(v, ve);

	for (int i = 0; i < ve->numasks; i++)
		if (!strcasecmp(pmu__um_name(v, &vu[i]), pmu__um_name(m, u)))
			return i;
	for (int i = 0; i < ve->numasks; i++)
		if (vu[i].code == u->code)
			return i;
	return -1;
}

PMU_API const char *pmu_catalog_vendor_desc(size_t model, size_t event,
					    size_t umask)
{
	const struct pmu__jsondir *jd = jsondir_env();
	const struct pmu__catmodel *m, *v;
	const struct pmu__event *ev, *ve;
	int attr;

	if (!jd || !(m = pmu__catalog_at(model)))
		return NULL;
	if (event >= m->nevents || (umask != PMU_CATALOG_EVENT &&
				    umask >= m->events[event].numasks))
		return NULL;
	attr = umask == PMU_CATALOG_EVENT ? -1 : (int)umask;
	ev = &m->events[event];
	/* A model loaded from the directory has its own descriptions. */
	for (size_t i = 0; i < pmu__jsondir_count(jd); i++)
		if (pmu__jsondir_model_at(jd, i) == m)
			return pmu__jsondir_long_desc(jd, m, ev, attr);
	if (!(v = counterpart(jd, m)) || !(ve = same_event(v, m, ev)))
		return NULL;
	if (attr < 0)
		return pmu__jsondir_long_desc(jd, v, ve, -1);
	attr = same_umask(v, ve, m, &pmu__event_umasks(m, ev)[attr]);
	return attr < 0 ? NULL : pmu__jsondir_long_desc(jd, v, ve, attr);
}

PMU_API const char *pmu_catalog_uncore_desc(size_t model, size_t i)
{
	const struct pmu__jsondir *jd = jsondir_env();
	const struct pmu__catmodel *m, *v;
	const char *name, *desc;
	ssize_t pos;

	if (!jd || !(m = pmu__catalog_at(model)) || i >= m->nuncore)
		return NULL;
	/* a model of the directory, or the directory's model of that name */
	if ((desc = pmu__jsondir_uncore_desc(jd, m, i)))
		return desc;
	if (!(v = counterpart(jd, m)))
		return NULL;
	name = pmu__ustr(m, pmu__uncore_at(m, i)->name);
	pos = pmu__uncore_pos(v, name, strlen(name));
	return pos < 0 ? NULL : pmu__jsondir_uncore_desc(jd, v, (size_t)pos);
}

PMU_API ssize_t pmu_events_dir_host_model(void)
{
	const struct pmu__jsondir *jd = jsondir_env();
	const struct pmu__catmodel *m;
	char cpuid[64];

	if (!jd || pmu__jsondir_host_cpuid(cpuid, sizeof(cpuid)) ||
	    !(m = pmu__jsondir_model(jd, cpuid)))
		return -ENOENT;
	return pmu__catalog_find_index(m->name, strlen(m->name));
}

PMU_API const char *pmu_catalog_metric_desc(size_t model, size_t metric)
{
	const struct pmu__jsondir *jd = jsondir_env();
	const struct pmu__catmodel *m, *v;
	const char *name;

	if (!jd || !(m = pmu__catalog_at(model)) || metric >= m->nmetrics)
		return NULL;
	for (size_t i = 0; i < pmu__jsondir_count(jd); i++)
		if (pmu__jsondir_model_at(jd, i) == m)
			return pmu__jsondir_metric_desc(jd, m, metric);
	if (!(v = counterpart(jd, m)))
		return NULL;
	name = pmu__str(m, m->metrics[metric].name);
	for (uint32_t k = 0; name && k < v->nmetrics; k++)
		if (!strcasecmp(pmu__str(v, v->metrics[k].name), name))
			return pmu__jsondir_metric_desc(jd, v, k);
	return NULL;
}
