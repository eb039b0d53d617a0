/* SPDX-License-Identifier: MIT */
/*
 * Placing a session's events on the counters of a register-level
 * driver's model (the sim driver): each event becomes the model's own
 * event (named ones as they are, generic ones through the model's map,
 * raw XScale codes as given), then counter assignment picks a counter
 * and the register values for it.  What the model cannot count is
 * marked not supported, as perf marks what a machine cannot count.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/assign.h>
#include <pmu/event.h>

#include "events/generic.h"
#include "session/session.h"
#include "util/error.h"

enum kind { K_NONE, K_TSC, K_SPEC, K_RAW };

struct plan {
	const char *model;       /* catalog model */
	const char *hw;          /* the simulated model, for messages */
	enum kind kind[PMU_ASSIGN_MAX_EVENTS];
	char *spec[PMU_ASSIGN_MAX_EVENTS];
	const char *specs[PMU_ASSIGN_MAX_EVENTS]; /* of the K_SPEC events */
	size_t at[PMU_ASSIGN_MAX_EVENTS];         /* their event index */
	int nspec;
};

PMU__PRINTF(2, 3)
static enum kind not_counted(struct pmu__ev_state *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->reason, sizeof(st->reason), fmt, ap);
	va_end(ap);
	st->err = -EOPNOTSUPP;
	return K_NONE;
}

static bool is_xscale(const char *model)
{
	return !strncmp(model, "xscale", 6);
}

/* The encoder's privilege modifiers for a generic event's :u / :k. */
static const char *plm_suffix(const struct perf_event_attr *a)
{
	if (a->exclude_kernel && !a->exclude_user)
		return ":u";
	if (a->exclude_user && !a->exclude_kernel)
		return ":k";
	return "";
}

static enum kind generic(struct plan *p, const struct pmu__ev *e,
			 struct pmu__ev_state *st, char **spec)
{
	bool cache = e->attr.type == PERF_TYPE_HW_CACHE;
	const char *g = cache ? pmu__generic_cache_spec(p->model, e->attr.config)
			      : pmu__generic_spec(p->model, e->attr.config);
	const char *plm = plm_suffix(&e->attr);
	size_t n;

	if (!g && cache)
		return not_counted(st, "the simulated %s has no cache event "
				   "for '%s' (it counts the hardware events "
				   "of its model: 'pmu list --model %s')",
				   p->hw, e->name, p->model);
	if (!g)
		return not_counted(st, "the simulated %s has no event for "
				   "'%s'", p->hw, e->name);
	if (!strcmp(g, PMU__GENERIC_TSC))
		return *plm ? not_counted(st, "the simulated %s counts cycles "
					  "with its time-stamp counter, which "
					  "cannot tell user from kernel mode",
					  p->hw)
			    : K_TSC;
	n = strlen(p->model) + strlen(g) + strlen(plm) + 3;
	if (!(*spec = malloc(n)))
		return not_counted(st, "out of memory");
	snprintf(*spec, n, "%s::%s%s", p->model, g, plm);
	return K_SPEC;
}

static enum kind classify(struct plan *p, const struct pmu__ev *e,
			  struct pmu__ev_state *st, char **spec)
{
	*spec = NULL;
	if (st->err)
		return K_NONE;
	if (e->flags & PMU__EV_IBS)
		/* sample_reg.c places it where the format wants it */
		return not_counted(st, "an IBS set-up samples and counts "
				   "nothing: sample it (pmu_session_sample, "
				   "format ibs or default)");
	if (e->model[0] && strcmp(e->model, p->model))
		return not_counted(st, "an event of %s: this session's PMU is "
				   "the simulated %s", e->model, p->hw);
	if (e->model[0])
		return (*spec = strdup(e->spec)) ? K_SPEC
			: not_counted(st, "out of memory");
	if (e->attr.type == PERF_TYPE_HARDWARE ||
	    e->attr.type == PERF_TYPE_HW_CACHE)
		return generic(p, e, st, spec);
	if (e->attr.type == PERF_TYPE_RAW && is_xscale(p->model))
		return K_RAW;
	if (e->attr.type == PERF_TYPE_RAW)
		return not_counted(st, "raw codes are taken by the simulated "
				   "XScale models only; name a %s event "
				   "('pmu list --model %s')", p->hw, p->model);
	return not_counted(st, "a simulated PMU counts hardware events of "
			   "its model only (the simulated %s)", p->hw);
}

static void place_from(struct pmu__place *pl, const struct pmu_assigned_event *a)
{
	pl->counter = a->counter;
	pl->ncodes = a->ncodes < PMU__EV_MAX_CODES ? a->ncodes
						   : PMU__EV_MAX_CODES;
	memcpy(pl->codes, a->codes, sizeof(pl->codes));
	pl->escr_msr = a->escr_msr;
}

/* Assign the specs of events [0, n) of the plan; 0, -ENOSPC when they
 * do not fit, or another error. */
static int try_assign(struct plan *p, int n, struct pmu_assignment *a,
		      struct pmu_error *err)
{
	struct pmu_assign_opts o = { .sz = sizeof(o), .model = p->model };

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	return pmu_assign(p->specs, n, &o, a, err);
}

/* A group that does not fit beside the ones already placed: it is not
 * counted (idle, not unsupported: it reads as <not counted>), and
 * says why. */
static void not_placed(const struct plan *p, struct pmu_session *s,
		       const size_t *at, int n, const char *why)
{
	for (int k = 0; k < n; k++) {
		s->st[at[k]].idle = true;
		snprintf(s->st[at[k]].reason, sizeof(s->st[at[k]].reason),
			 "no counter of the simulated %s is free for its group "
			 "(%.100s)", p->hw, why);
	}
}

/*
 * Groups are placed in order, each with all the groups placed before
 * it; a group that does not fit then is not counted, as perf shows a
 * group it cannot schedule (event sets, which rotate groups, lift
 * this).  specs[0, kept) are the groups placed so far.
 */
static int assign_groups(struct plan *p, struct pmu_session *s,
			 struct pmu_assignment *a, struct pmu_error *err)
{
	int kept = 0, j = 0, ret;

	while (j < p->nspec) {
		int g = s->ev[p->at[j]].group, k = j, len;

		while (k < p->nspec && s->ev[p->at[k]].group == g)
			k++;
		len = k - j;
		memmove(&p->specs[kept], &p->specs[j],
			(size_t)len * sizeof(p->specs[0]));
		memmove(&p->at[kept], &p->at[j], (size_t)len * sizeof(p->at[0]));
		ret = try_assign(p, kept + len, a, err);
		if (ret == -ENOSPC)
			not_placed(p, s, &p->at[kept], len, a->reason);
		else if (ret)
			return ret;
		else
			kept += len;
		j = k;
	}
	p->nspec = kept;
	if (kept)
		return try_assign(p, kept, a, err);
	a->nevents = 0;         /* nothing placed: not the last failed try */
	a->note[0] = '\0';
	return 0;
}

static int assign(struct plan *p, struct pmu_session *s, uint64_t *used,
		  struct pmu_error *err)
{
	struct pmu_assignment *a = calloc(1, sizeof(*a));
	int ret;

	if (!a)
		return -ENOMEM;
	ret = assign_groups(p, s, a, err);
	/* The note is about perfctr's control (P6: PMC1 alone counts
	 * nothing); the XScale models run the XScale API's protocol. */
	if (!ret && a->note[0] && !is_xscale(p->model))
		ret = pmu__error(err, -EINVAL, PMU_ERR_NOT_SUPPORTED, NULL, -1,
				 "%s", a->note);
	for (size_t j = 0; !ret && j < a->nevents; j++) {
		place_from(&s->place[p->at[j]], &a->ev[j]);
		if (a->ev[j].counter >= 0 && a->ev[j].counter < 64)
			*used |= 1ull << a->ev[j].counter;
	}
	free(a);
	return ret;
}

/* Raw XScale codes take the free counters in order. */
static void place_raw(struct plan *p, struct pmu_session *s, uint64_t used)
{
	struct pmu_catalog_info ci = { .size = sizeof(ci) };
	ssize_t m = pmu_catalog_find(p->model);
	int nctr = m >= 0 && !pmu_catalog_info((size_t)m, &ci)
		   ? (int)ci.ncounters : 0;
	int c = 0;

	for (size_t i = 0; i < s->n; i++) {
		if (p->kind[i] != K_RAW)
			continue;
		while (c < nctr && (used >> c & 1))
			c++;
		if (c >= nctr) {
			not_placed(p, s, &i, 1, "every counter is taken");
			continue;
		}
		s->place[i] = (struct pmu__place){ .counter = c, .ncodes = 1,
			.codes = { s->ev[i].attr.config } };
		used |= 1ull << c++;
	}
}

int pmu__session_place(struct pmu_session *s, const char *model,
		       struct pmu_error *err)
{
	const struct pmu__driver_ops *o = s->drv->ops;
	struct plan p = { .model = model,
			  .hw = o->hwmodel ? o->hwmodel->hwmodel_name(s->drv)
					 : model };
	uint64_t used = 0;
	int ret = 0;

	if (s->n > PMU_ASSIGN_MAX_EVENTS)
		return pmu__error(err, -E2BIG, PMU_ERR_USAGE, NULL, -1,
				  "a simulated PMU session holds at most %d "
				  "events", PMU_ASSIGN_MAX_EVENTS);
	for (size_t i = 0; i < s->n; i++) {
		s->place[i].counter = PMU__PLACE_NONE;
		p.kind[i] = classify(&p, &s->ev[i], &s->st[i], &p.spec[i]);
		if (p.kind[i] == K_TSC)
			s->place[i].counter = PMU__PLACE_TSC;
		if (p.kind[i] == K_SPEC) {
			p.specs[p.nspec] = p.spec[i];
			p.at[p.nspec++] = i;
		}
	}
	if (p.nspec)
		ret = assign(&p, s, &used, err);
	if (!ret)
		place_raw(&p, s, used);
	for (size_t i = 0; i < s->n; i++)
		free(p.spec[i]);
	return ret;
}
