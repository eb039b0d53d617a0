/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "events/jsondir_impl.h"
#include "util/error.h"

/* Modifiers of the built-in tables of the same kinds. */
#define AMD_MODS 0x7fu   /* k u e i c h g */
#define INTEL_MODS 0x39fu /* k u e i c t intx intxcp */
#define CONFIG_MODS 0x3u  /* k u */
#define PERF_AMD_MODS 0x1fu /* k u e i c: perf's AMD format has no host
			       or guest bits; :H/:G say that */

struct grp {
	const char *name;
	uint64_t code;
	int bare;            /* record without a umask part, or -1 */
	size_t nums;
	bool split;          /* EVENT_UMASK split off a family */
};

struct bld {
	struct grp *g;
	size_t ng;
	int *gi;             /* group of each record, -1 = dropped */
};

static int find_grp(const struct bld *b, const char *name)
{
	for (size_t i = 0; i < b->ng; i++)
		if (!strcasecmp(b->g[i].name, name))
			return (int)i;
	return -1;
}

/* A vendor name whose code differs from its family's (Intel's fixed
 * counter pseudo-events such as INST_RETIRED.ANY with code 0) becomes an
 * event of its own, EVENT_UMASK, since one event has one code. */
static int place_ent(struct pmu__jsondir *jd, struct bld *b,
		     struct jd_ent *e)
{
	int g = find_grp(b, e->event);
	bool renamed = false;

	if (g >= 0 && b->g[g].code != e->code) {
		char *n;
		if (!e->umask)
			return -1;
		n = pmu__jd_alloc(jd, strlen(e->event) + strlen(e->umask) + 2);
		if (!n)
			return -2;
		sprintf(n, "%s_%s", e->event, e->umask);
		e->event = n;
		e->umask = NULL;
		renamed = true;
		g = find_grp(b, n);
		if (g >= 0 && b->g[g].code != e->code)
			return -1;
	}
	if (g < 0) {
		g = (int)b->ng++;
		b->g[g] = (struct grp){ .name = e->event, .code = e->code,
					.bare = -1 };
	}
	/* The encoder still takes the vendor's dotted name for it. */
	b->g[g].split |= renamed;
	return g;
}

static bool dup_umask(const struct jd_model *jm, const int *gi, size_t k)
{
	for (size_t j = 0; j < k; j++)
		if (gi[j] == gi[k] && jm->ents[j].umask && jm->ents[k].umask &&
		    !strcasecmp(jm->ents[j].umask, jm->ents[k].umask))
			return true;
	return false;
}

/* The code most records of a family share (a non-zero one on ties):
 * it keeps the family's name, the odd ones out are split off. */
static uint64_t family_code(const struct jd_model *jm, const char *name)
{
	uint64_t best = 0;
	size_t best_n = 0;

	for (size_t k = 0; k < jm->nents; k++) {
		const struct jd_ent *e = &jm->ents[k];
		size_t cnt = 0;
		if (strcasecmp(e->event, name))
			continue;
		for (size_t j = 0; j < jm->nents; j++)
			cnt += jm->ents[j].code == e->code &&
			       !strcasecmp(jm->ents[j].event, name);
		if (cnt > best_n || (cnt == best_n && !best && e->code)) {
			best = e->code;
			best_n = cnt;
		}
	}
	return best;
}

static int group_all(struct pmu__jsondir *jd, struct jd_model *jm,
		     struct bld *b)
{
	for (size_t k = 0; k < jm->nents; k++)
		if (find_grp(b, jm->ents[k].event) < 0)
			b->g[b->ng++] = (struct grp){
				.name = jm->ents[k].event,
				.code = family_code(jm, jm->ents[k].event),
				.bare = -1 };
	for (size_t k = 0; k < jm->nents; k++) {
		struct jd_ent *e = &jm->ents[k];
		int g = place_ent(jd, b, e);

		if (g == -2)
			return -ENOMEM;
		b->gi[k] = g;
		if (g < 0)
			continue;
		if (!e->umask && b->g[g].bare >= 0)
			b->gi[k] = -1;
		else if (!e->umask)
			b->g[g].bare = (int)k;
		else if (dup_umask(jm, b->gi, k))
			b->gi[k] = -1;
		else
			b->g[g].nums++;
	}
	return 0;
}

static void add_umask(struct jd_model *jm, struct pmu__strpool *sp,
		      struct pmu__event *ev, const struct jd_ent *e,
		      const char *name, uint32_t fl)
{
	struct pmu__umask *u = &jm->umasks[jm->m.numasks];

	u->name = pmu__strpool_add(sp, name);
	u->desc = pmu__strpool_add(sp, e->brief);
	u->code = e->ucode;
	u->flags = PMU__UM_EXCL | fl | (e->prec ? PMU__UM_PREC : 0);
	if (e->has_xcode) {
		u->flags |= PMU__UM_XCODE;
		u->xcode = e->xcode;
	}
	u->cntmsk = e->cntmsk;
	jm->um_long[jm->m.numasks++] = e->full ? e->full : e->brief;
	ev->numasks++;
	ev->cntmsk |= e->cntmsk;
	if (e->prec)
		ev->flags |= PMU__EV_PREC;
}

static void build_event(struct jd_model *jm, struct pmu__strpool *sp,
			const struct bld *b, int g)
{
	const struct grp *gr = &b->g[g];
	struct pmu__event *ev = &jm->events[jm->m.nevents];
	const struct jd_ent *bare = gr->bare >= 0 ? &jm->ents[gr->bare] : NULL;

	ev->name = pmu__strpool_add(sp, gr->name);
	ev->name_len = (uint16_t)(strlen(gr->name) < UINT16_MAX ?
				  strlen(gr->name) : 0);
	ev->code = gr->code;
	ev->flags = gr->split ? PMU__EV_SPLIT : 0;
	ev->modmsk = jm->m.modmsk;
	ev->umask0 = jm->m.numasks;
	ev->desc = pmu__strpool_add(sp, bare ? bare->brief : NULL);
	jm->ev_long[jm->m.nevents] = bare ? (bare->full ? bare->full
							: bare->brief) : NULL;
	/* A lone event of a config model is its code; elsewhere a umask
	 * value or a second register needs a umask to hold it. */
	if (bare && (gr->nums || bare->has_xcode ||
		     (bare->ucode && jm->m.kind != PMU__ENC_CONFIG)))
		add_umask(jm, sp, ev, bare, "DEFAULT", PMU__UM_DFL);
	else if (bare)
		ev->cntmsk = bare->cntmsk, ev->flags |= bare->prec ?
						      PMU__EV_PREC : 0;
	for (size_t k = 0; k < jm->nents; k++)
		if (b->gi[k] == g && jm->ents[k].umask)
			add_umask(jm, sp, ev, &jm->ents[k], jm->ents[k].umask,
				  0);
	ev->ngrp = ev->numasks ? 1 : 0;
	/* A umask's own mask only where it narrows the event's. */
	for (uint32_t u = ev->umask0; u < ev->umask0 + ev->numasks; u++)
		if (jm->umasks[u].cntmsk == ev->cntmsk)
			jm->umasks[u].cntmsk = 0;
	jm->m.nevents++;
}

static void set_counters(struct jd_model *jm)
{
	uint64_t all = 0;

	for (size_t k = 0; k < jm->nents; k++)
		all |= jm->ents[k].cntmsk;
	jm->m.modmsk = jm->m.kind == PMU__ENC_INTEL ? INTEL_MODS :
		       jm->m.kind == PMU__ENC_CONFIG ? CONFIG_MODS :
		       jm->is_dir ? PERF_AMD_MODS : AMD_MODS;
	jm->m.perf_type = 4; /* PERF_TYPE_RAW: core PMU */
	if (jm->num_generic >= 0) {
		jm->m.ncounters = jm->num_generic;
		jm->m.nfixed = jm->num_fixed > 0 ? jm->num_fixed : 0;
		return;
	}
	for (int c = 0; c < 32; c++) {
		if (all >> c & 1)
			jm->m.ncounters = c + 1;
		if (all >> (32 + c) & 1)
			jm->m.nfixed = c + 1;
	}
	/* Kernel files give no counters: Zen and later have six, older
	 * AMD parts four. */
	if (!jm->m.ncounters && jm->m.kind == PMU__ENC_AMD64) {
		bool zen = false;
		for (size_t p = 0; p < jm->npat; p++)
			zen |= !strncmp(jm->patterns[p], "AuthenticAMD-2", 14) ||
			       !strncmp(jm->patterns[p], "HygonGenuine-2", 14);
		jm->m.ncounters = zen ? 6 : 4;
	}
	if (!jm->m.ncounters && jm->m.kind != PMU__ENC_CONFIG)
		jm->m.ncounters = 4;
}

/* Metric records to pool offsets; the array lives in jd memory. */
static int add_metrics(struct pmu__jsondir *jd, struct jd_model *jm,
		       struct pmu__strpool *sp)
{
	struct pmu__metric *o;

	if (!jm->nmets)
		return 0;
	o = pmu__jd_alloc(jd, jm->nmets * sizeof(*o));
	jm->met_long = pmu__jd_alloc(jd, jm->nmets * sizeof(char *));
	if (!o || !jm->met_long)
		return -ENOMEM;
	for (size_t i = 0; i < jm->nmets; i++) {
		const struct jd_metric *m = &jm->mets[i];

		o[i].name = pmu__strpool_add(sp, m->name);
		o[i].expr = pmu__strpool_add(sp, m->expr);
		o[i].groups = pmu__strpool_add(sp, m->groups);
		o[i].nogroup = pmu__strpool_add(sp, m->nogroup);
		o[i].dflt = pmu__strpool_add(sp, m->dflt);
		o[i].unit = pmu__strpool_add(sp, m->unit);
		o[i].flags = m->flags;
		jm->met_long[i] = m->desc;
	}
	jm->metrics = o;
	jm->m.metrics = o;
	jm->m.nmetrics = (uint32_t)jm->nmets;
	return 0;
}

/* The kernel layout's facts of a model into the pool: its PMU, its
 * mapfile patterns (one a line) and its hybrid sibling's name. */
static int add_extra(struct jd_model *jm, struct pmu__strpool *sp)
{
	const struct jd_model *other = jm->atom ? jm->atom : jm->core;
	size_t len = 1;
	char *pats;

	if (jm->arch == PMU__ARCH_NONE)
		return 0;
	for (size_t p = 0; p < jm->npat; p++)
		len += strlen(jm->patterns[p]) + 1;
	if (!(pats = calloc(1, len)))
		return -ENOMEM;
	for (size_t p = 0; p < jm->npat; p++) {
		strcat(pats, jm->patterns[p]);
		if (p + 1 < jm->npat)
			strcat(pats, "\n");
	}
	jm->off_pmu = pmu__strpool_add(sp, jm->pmu[0] ? jm->pmu : NULL);
	jm->off_patterns = pmu__strpool_add(sp, jm->npat ? pats : NULL);
	jm->off_hybrid = pmu__strpool_add(sp, other ? other->name : NULL);
	free(pats);
	return 0;
}

/* Point the model at its kernel-layout facts in its pool. */
static void set_extra(struct jd_model *jm)
{
	jm->m.arch = jm->arch;
	jm->m.pmu = pmu__str(&jm->m, jm->off_pmu);
	jm->m.patterns = pmu__str(&jm->m, jm->off_patterns);
	jm->m.hybrid = pmu__str(&jm->m, jm->off_hybrid);
}

static uint32_t hash_size(uint32_t n)
{
	uint32_t s = 1;

	while (s <= 2 * n)
		s <<= 1;
	return s;
}

/* The vendor-name index: every name as the files spell it. */
static int build_vindex(struct pmu__jsondir *jd, struct jd_model *jm)
{
	uint32_t size = hash_size(pmu__catmodel_vnames(&jm->m));
	uint32_t *slots = pmu__jd_alloc(jd, size * sizeof(*slots));
	int rc;

	if (!slots)
		return -ENOMEM;
	if ((rc = pmu__catmodel_vindex(&jm->m, slots, size)))
		return rc;
	jm->m.vhash = slots;
	jm->m.vhash_size = size;
	return 0;
}

int pmu__jd_build(struct pmu__jsondir *jd, struct jd_model *jm,
		  struct pmu_error *err)
{
	struct bld b = { 0 };
	struct pmu__strpool sp = { 0 };
	size_t n = jm->nents ? jm->nents : 1;
	int rc = -ENOMEM;

	b.g = calloc(n, sizeof(*b.g));
	b.gi = calloc(n, sizeof(*b.gi));
	jm->events = pmu__jd_alloc(jd, n * sizeof(*jm->events));
	jm->umasks = pmu__jd_alloc(jd, n * sizeof(*jm->umasks));
	jm->ev_long = pmu__jd_alloc(jd, n * sizeof(*jm->ev_long));
	jm->um_long = pmu__jd_alloc(jd, n * sizeof(*jm->um_long));
	if (!b.g || !b.gi || !jm->events || !jm->umasks || !jm->ev_long ||
	    !jm->um_long || group_all(jd, jm, &b))
		goto out;
	set_counters(jm);
	for (size_t g = 0; g < b.ng; g++)
		build_event(jm, &sp, &b, (int)g);
	if (add_metrics(jd, jm, &sp) || add_extra(jm, &sp))
		goto out;
	/* The extra "" keeps the pool non-empty for a model without events. */
	if (sp.failed || !pmu__strpool_add(&sp, "") ||
	    !(jm->strings = pmu__jd_alloc(jd, sp.len)))
		goto out;
	memcpy(jm->strings, sp.buf, sp.len);
	jm->m.strings = jm->strings;
	set_extra(jm);
	jm->m.vendor_names = true;
	jm->m.events = jm->events;
	jm->m.umasks = jm->umasks;
	jm->m.hash_size = hash_size(jm->m.nevents);
	if (!(jm->hash = pmu__jd_alloc(jd, jm->m.hash_size * sizeof(uint32_t))))
		goto out;
	rc = pmu__catmodel_index(&jm->m, jm->hash, jm->m.hash_size);
	jm->m.hash = jm->hash;
	if (!rc)
		rc = build_vindex(jd, jm);
	if (!rc)
		rc = pmu__jd_build_uncore(jd, jm);
	snprintf(jm->desc, sizeof(jm->desc), "vendor events: %.120s",
		 jm->nfiles ? jm->files[0] : "-");
out:
	free(b.g);
	free(b.gi);
	free(sp.buf);
	if (rc)
		return pmu__error(err, rc, PMU_ERR_SYSTEM, NULL, -1,
				  "%s: cannot build the model: %s", jm->name,
				  strerror(-rc));
	return 0;
}
