/* SPDX-License-Identifier: MIT */
/*
 * Metrics measured by a session (pmu stat -M): which metrics a list of
 * names and groups selects, the events they need grouped as perf groups
 * them (tools/perf/util/metricgroup.c), and their values from the
 * session's counts.  The set hands its events to the session as an
 * ordinary event list and remembers where they start, so the session
 * needs to know nothing of metrics.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <pmu/event.h>
#include <pmu/metric.h>
#include <pmu/session.h>

#include "events/catalog.h"
#include "events/evlist.h"
#include "events/jsondir.h"
#include "events/metric.h"
#include "session/session.h"
#include "util/error.h"
#include "util/nearest.h"
#include "util/opts.h"
#include "util/outstruct.h"

#define MAX_REF_DEPTH 16

struct mev {
	char *text;           /* event-list string */
	int group;            /* -1: not in a group */
	bool ok;              /* the parser resolves it here */
	size_t width;         /* events it stands for (an uncore event: one
				 per PMU instance), summed for the metric */
	bool solo;            /* kept out of core groups (another PMU) */
	ssize_t pos;          /* its place in the list, -1: left out */
};

struct minst {
	const struct pmu__catmodel *m;
	const struct pmu__metric *x;
	char **evs;           /* the events of its formula and of the
				 metrics it names, once each */
	size_t nevs;
	size_t *at;           /* where each of evs is in the set */
	bool grouped;
};

/* A parsed formula per metric, parsed once. */
struct mparsed {
	const struct pmu__metric *x;
	struct pmu_metric_expr *e;
};

struct pmu_metric_set {
	struct minst *in;
	size_t n;
	struct mev *ev;
	size_t nev;
	int ngroups;
	char *list;           /* pmu_metric_set_events() */
	size_t base;          /* session index of ev[0] */
	bool added;
	struct mparsed *parsed;
	size_t nparsed;
	struct pmu__parse_ctx pctx;
	char model[64];
	char why[400];        /* why the first event left out is */
};

static struct pmu_metric_expr *parsed(struct pmu_metric_set *s,
				      const struct pmu__catmodel *m,
				      const struct pmu__metric *x,
				      struct pmu_error *err)
{
	struct mparsed *p;

	for (size_t i = 0; i < s->nparsed; i++)
		if (s->parsed[i].x == x)
			return s->parsed[i].e;
	p = realloc(s->parsed, (s->nparsed + 1) * sizeof(*p));
	if (!p)
		return NULL;
	s->parsed = p;
	p[s->nparsed].x = x;
	p[s->nparsed].e = pmu_metric_expr_parse(pmu__str(m, x->expr), err);
	if (!p[s->nparsed].e)
		return NULL;
	return p[s->nparsed++].e;
}

static bool is_tool(const char *id)
{
	return !strcasecmp(id, "duration_time") ||
	       !strcasecmp(id, "user_time") || !strcasecmp(id, "system_time");
}

static int push_ev(struct minst *in, const char *id)
{
	char buf[512], **e;

	if (pmu_metric_id_event(id, buf, sizeof(buf)) < 0)
		return -ENAMETOOLONG;
	for (size_t i = 0; i < in->nevs; i++)
		if (!strcmp(in->evs[i], buf))
			return 0;
	if (!(e = realloc(in->evs, (in->nevs + 1) * sizeof(*e))))
		return -ENOMEM;
	in->evs = e;
	if (!(e[in->nevs] = strdup(buf)))
		return -ENOMEM;
	in->nevs++;
	return 0;
}

/* The events of x's formula and, through the metrics it names, theirs. */
static int closure(struct pmu_metric_set *s, struct minst *in,
		   const struct pmu__metric *x, int depth,
		   struct pmu_error *err)
{
	struct pmu_metric_expr *e = parsed(s, in->m, x, err);
	int rc = 0;

	if (!e)
		return err && err->code ? err->code : -ENOMEM;
	if (depth > MAX_REF_DEPTH)
		return pmu__error(err, -ELOOP, PMU_ERR_BAD_VALUE,
				  pmu__str(in->m, x->name), -1,
				  "metric %s names metrics %d deep (a cycle?)",
				  pmu__str(in->m, x->name), MAX_REF_DEPTH);
	for (size_t i = 0; !rc && i < pmu_metric_expr_nids(e); i++) {
		const char *id = pmu_metric_expr_id(e, i);
		const struct pmu__metric *r = pmu__metric_find(in->m, id,
							       strlen(id));
		if (r)
			rc = closure(s, in, r, depth + 1, err);
		else if (!is_tool(id))
			rc = push_ev(in, id);
	}
	return rc;
}

/* ---- selection ---- */

static bool selected(const struct pmu_metric_set *s,
		     const struct pmu__metric *x)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->in[i].x == x)
			return true;
	return false;
}

static int add_inst(struct pmu_metric_set *s, const struct pmu__catmodel *m,
		    const struct pmu__metric *x, const char *tok, size_t n,
		    bool no_group, struct pmu_error *err)
{
	struct minst *in;

	if (selected(s, x))
		return 0;
	if (!(in = realloc(s->in, (s->n + 1) * sizeof(*in))))
		return -ENOMEM;
	s->in = in;
	in = &s->in[s->n++];
	memset(in, 0, sizeof(*in));
	in->m = m;
	in->x = x;
	/* perf's rules: a constraint, or a group that says so */
	in->grouped = !no_group && !(x->flags & PMU__MET_NO_GROUP) &&
		      !pmu__metric_in_list(pmu__str(m, x->nogroup), tok, n);
	return closure(s, in, x, 0, err);
}

static int unknown(const struct pmu__catmodel *const *ms, const char *tok,
		   size_t n, struct pmu_error *err)
{
	struct pmu__nearest near;
	char typed[128];

	snprintf(typed, sizeof(typed), "%.*s", (int)n, tok);
	pmu__nearest_init(&near, typed, 3);
	for (int k = 0; k < 2 && ms[k]; k++)
		for (uint32_t i = 0; i < ms[k]->nmetrics; i++)
			pmu__nearest_offer(&near, pmu__str(ms[k],
					   ms[k]->metrics[i].name));
	return pmu__error(err, -ENOENT, PMU_ERR_UNKNOWN_EVENT, typed, -1,
			  "no metric or metric group '%s' in model %s%s%s%s",
			  typed, ms[0]->name, near.best ? " (did you mean '" : "",
			  near.best ? near.best : "", near.best ? "'?)" : "");
}

/* One name of the list: a metric, else every metric of that group. */
static int select_tok(struct pmu_metric_set *s,
		      const struct pmu__catmodel *const *ms, const char *tok,
		      size_t n, bool no_group, struct pmu_error *err)
{
	int found = 0, rc = 0;

	for (int k = 0; k < 2 && ms[k]; k++) {
		const struct pmu__metric *x = pmu__metric_find(ms[k], tok, n);
		if (x) {
			found++;
			rc = add_inst(s, ms[k], x, tok, n, no_group, err);
		}
	}
	for (int k = 0; !rc && !found && k < 2 && ms[k]; k++)
		for (uint32_t i = 0; !rc && i < ms[k]->nmetrics; i++) {
			const struct pmu__metric *x = &ms[k]->metrics[i];
			if (!pmu__metric_in_list(pmu__str(ms[k], x->groups),
						 tok, n))
				continue;
			found++;
			rc = add_inst(s, ms[k], x, tok, n, no_group, err);
		}
	if (!rc && !found)
		return unknown(ms, tok, n, err);
	return rc;
}

/* ---- the event list ---- */

/* How many events `text` stands for here (0: it does not resolve), and
 * whether it may join a group of core events: not when it counts on
 * another PMU (uncore) or on several instances, as perf groups a
 * metric's events per PMU. */
static size_t parses(struct pmu_metric_set *s, const char *text, bool *solo)
{
	struct pmu__evlist l = { 0 };
	struct pmu_error e = { .size = sizeof(e) };
	int rc = pmu__evlist_parse(&l, text, &s->pctx, &e);
	size_t n = rc ? 0 : l.n;

	if (rc && !s->why[0])
		snprintf(s->why, sizeof(s->why), "%.80s: %.300s", text,
			 e.message);

	*solo = n > 1;
	for (size_t i = 0; i < n; i++) {
		uint32_t t = l.ev[i].attr.type;
		if (!(l.ev[i].flags & PMU__EV_HW) && t != PERF_TYPE_SOFTWARE &&
		    t != PERF_TYPE_HARDWARE && t != PERF_TYPE_HW_CACHE &&
		    t != PERF_TYPE_RAW)
			*solo = true;
	}
	pmu__evlist_clear(&l);
	return n;
}

static ssize_t find_ev(const struct pmu_metric_set *s, const char *text,
		       int group)
{
	for (size_t i = 0; i < s->nev; i++)
		if (s->ev[i].group == group && !strcmp(s->ev[i].text, text))
			return (ssize_t)i;
	return -1;
}

/* What `text` resolves to here, parsed once per set: an event already
 * listed (in any group) answers for it. */
static size_t probe(struct pmu_metric_set *s, const char *text, bool *solo)
{
	for (size_t i = 0; i < s->nev; i++)
		if (!strcmp(s->ev[i].text, text)) {
			*solo = s->ev[i].solo;
			return s->ev[i].width;
		}
	return parses(s, text, solo);
}

static ssize_t add_ev(struct pmu_metric_set *s, const char *text, int group,
		      size_t width, bool solo)
{
	struct mev *e = realloc(s->ev, (s->nev + 1) * sizeof(*e));

	if (!e)
		return -ENOMEM;
	s->ev = e;
	e = &s->ev[s->nev];
	if (!(e->text = strdup(text)))
		return -ENOMEM;
	e->group = group;
	e->width = width;
	e->solo = solo;
	e->ok = width > 0;
	return (ssize_t)s->nev++;
}

/* A group of an earlier metric holding all of this one's events. */
static int shared_group(const struct pmu_metric_set *s,
			const struct minst *in)
{
	for (int g = 0; g < s->ngroups; g++) {
		size_t k = 0;
		while (k < in->nevs && find_ev(s, in->evs[k], g) >= 0)
			k++;
		if (k == in->nevs && in->nevs)
			return g;
	}
	return -1;
}

static int place(struct pmu_metric_set *s, struct minst *in)
{
	int g = in->grouped ? shared_group(s, in) : -1;

	if (!(in->at = calloc(in->nevs + 1, sizeof(*in->at))))
		return -ENOMEM;
	if (in->grouped && g < 0 && in->nevs)
		g = s->ngroups++;
	for (size_t k = 0; k < in->nevs; k++) {
		bool solo;
		size_t width = probe(s, in->evs[k], &solo);
		int gk = solo ? -1 : g;
		ssize_t at = find_ev(s, in->evs[k], gk);

		if (at < 0 &&
		    (at = add_ev(s, in->evs[k], gk, width, solo)) < 0)
			return (int)at;
		in->at[k] = (size_t)at;
	}
	return 0;
}

/*
 * Intel's topdown events count only in a group led by the slots event,
 * the topdown metric events right after it; perf sorts groups so (arch
 * evlist ordering for x86).  0: slots, 1: topdown-*, 2: the rest.
 */
static int rank(const char *text)
{
	const char *b = strrchr(text, '/'), *name = text;
	size_t n;

	if (b && b != text) {
		/* "cpu/NAME/mods": NAME */
		const char *a = strchr(text, '/');
		name = a + 1;
		n = (size_t)(b - name);
	} else {
		n = strcspn(text, ":");
	}
	if ((n == 5 && !strncasecmp(name, "slots", 5)) ||
	    (n == 13 && !strncasecmp(name, "topdown.slots", 13)))
		return 0;
	return !strncasecmp(name, "topdown-", 8) ? 1 : 2;
}

/* Events in list order, ungrouped ones first, then each group's
 * together as {a,b}; events that do not resolve here are left out. */
static int build_list(struct pmu_metric_set *s)
{
	size_t len = 1, *order = calloc(s->nev + 1, sizeof(*order)), n = 0;
	char *p;

	if (!order)
		return -ENOMEM;
	for (int g = -1; g < s->ngroups; g++)
		for (int r = g < 0 ? 2 : 0; r <= 2; r++)
			for (size_t i = 0; i < s->nev; i++)
				if (s->ev[i].group == g && s->ev[i].ok &&
				    (g < 0 || rank(s->ev[i].text) == r))
					order[n++] = i;
	for (size_t i = 0; i < s->nev; i++) {
		len += strlen(s->ev[i].text) + 6;
		s->ev[i].pos = -1;
	}
	if (!(s->list = p = calloc(1, len))) {
		free(order);
		return -ENOMEM;
	}
	for (size_t k = 0, at = 0; k < n; k++) {
		const struct mev *e = &s->ev[order[k]];
		bool first = e->group >= 0 && (k == 0 ||
			     s->ev[order[k - 1]].group != e->group);
		bool last = e->group >= 0 && (k + 1 == n ||
			    s->ev[order[k + 1]].group != e->group);
		/* weak groups, as perf opens a metric's: a group the PMU
		 * cannot hold is counted apart rather than not at all */
		p += sprintf(p, "%s%s%s%s", k ? "," : "", first ? "{" : "",
			     e->text, last ? "}:W" : "");
		/* the session's events: an expanded one takes several */
		s->ev[order[k]].pos = (ssize_t)at;
		at += e->width;
	}
	free(order);
	return 0;
}

PMU_API void pmu_metric_set_free(struct pmu_metric_set *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		for (size_t k = 0; k < s->in[i].nevs; k++)
			free(s->in[i].evs[k]);
		free(s->in[i].evs);
		free(s->in[i].at);
	}
	for (size_t i = 0; i < s->nev; i++)
		free(s->ev[i].text);
	for (size_t i = 0; i < s->nparsed; i++)
		pmu_metric_expr_free(s->parsed[i].e);
	free(s->parsed);
	free(s->in);
	free(s->ev);
	free(s->list);
	free(s);
}

/* The model and its hybrid sibling; ms[0] NULL when there is none. */
static int models(const struct pmu_metric_set_opts *o,
		  const struct pmu__catmodel *ms[2], char *name, size_t sz,
		  struct pmu_error *err)
{
	const char *mn = PMU__OPTS_GET(o, model, NULL);

	if (!mn)
		mn = pmu_event_host_model();
	pmu__jsondir_env_load();
	ms[0] = pmu__catalog_find(mn, strlen(mn));
	ms[1] = NULL;
	if (!ms[0])
		return pmu__error(err, -ENOENT, PMU_ERR_UNKNOWN_PMU, mn, -1,
				  "no catalog model '%s'", mn);
	if (!ms[0]->nmetrics && !ms[0]->hybrid)
		return pmu__error(err, -ENOENT, PMU_ERR_UNKNOWN_PMU, mn, -1,
				  "model %s has no metrics (the kernel's "
				  "pmu-events models have them; see 'pmu list "
				  "--models')", mn);
	if (ms[0]->hybrid)
		ms[1] = pmu__catalog_find(ms[0]->hybrid,
					  strlen(ms[0]->hybrid));
	snprintf(name, sz, "%s", ms[0]->name);
	return 0;
}

static int select_all(struct pmu_metric_set *s,
		      const struct pmu__catmodel *const *ms, const char *list,
		      bool no_group, struct pmu_error *err)
{
	const char *t = list;
	int rc = 0;

	while (!rc) {
		size_t n = strcspn(t, ",");
		if (!n)
			return pmu__error(err, -EINVAL, PMU_ERR_SYNTAX, t, -1,
					  "empty metric name in '%s'", list);
		rc = select_tok(s, ms, t, n, no_group, err);
		if (!t[n])
			break;
		t += n + 1;
	}
	return rc;
}

PMU_API struct pmu_metric_set *pmu_metric_set_new(
	const char *list, const struct pmu_metric_set_opts *opts,
	struct pmu_error *err)
{
	const struct pmu__catmodel *ms[2];
	struct pmu_metric_set *s;
	int rc = PMU__OPTS_CHECK(opts, pmu_metric_set_opts, err);

	if (!rc && (!list || !*list))
		rc = pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				"no metric or metric group given");
	if (rc || !(s = calloc(1, sizeof(*s)))) {
		errno = rc ? -rc : ENOMEM;
		return NULL;
	}
	s->pctx.host_names = true;
	rc = models(opts, ms, s->model, sizeof(s->model), err);
	if (!rc)
		s->pctx.core_model = s->model;
	if (!rc)
		rc = select_all(s, ms, list, PMU__OPTS_GET(opts, no_group,
							    false), err);
	for (size_t i = 0; !rc && i < s->n; i++)
		rc = place(s, &s->in[i]);
	if (!rc)
		rc = build_list(s);
	if (rc == -ENOMEM)
		pmu__error(err, rc, PMU_ERR_SYSTEM, NULL, -1, "out of memory");
	if (rc) {
		pmu_metric_set_free(s);
		errno = -rc;
		return NULL;
	}
	return s;
}

PMU_API const char *pmu_metric_set_events(const struct pmu_metric_set *s)
{
	return s && s->list ? s->list : "";
}

PMU_API int pmu_metric_set_add(struct pmu_metric_set *s,
			       struct pmu_session *ses, struct pmu_error *err)
{
	int rc;

	if (!s || !ses)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "pmu_metric_set_add: no set or no session");
	if (s->added)
		return pmu__error(err, -EBUSY, PMU_ERR_USAGE, NULL, -1,
				  "the metrics' events are added already");
	s->base = pmu_session_nevents(ses);
	if (!s->list[0] && !s->base && s->why[0])
		/* nothing else to count either: say why, not "no events" */
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED,
				  NULL, -1, "none of the metrics' events can "
				  "be counted here; %s", s->why);
	if (s->list[0] && (rc = pmu_session_add(ses, s->list, err)))
		return rc;
	/* what the target cannot count makes its metrics not supported */
	for (size_t i = s->base; i < ses->n; i++)
		ses->ev[i].flags |= PMU__EV_IMPLIED;
	s->added = true;
	return 0;
}

PMU_API size_t pmu_metric_set_count(const struct pmu_metric_set *s)
{
	return s ? s->n : 0;
}

/* ---- values ---- */

struct evalctx {
	const struct pmu_metric_set *s;
	const struct minst *in;
	const double *counts;
	size_t n;
	double seconds;
	const char *missing;
};

/* The count of event `text` of instance in, NaN when not available. */
static double count_of(struct evalctx *c, const char *text)
{
	double sum = 0;

	for (size_t k = 0; k < c->in->nevs; k++) {
		const struct mev *e;
		size_t j;

		if (strcmp(c->in->evs[k], text))
			continue;
		e = &c->s->ev[c->in->at[k]];
		j = c->s->base + (size_t)e->pos;
		if (e->pos < 0 || j + e->width > c->n)
			j = SIZE_MAX;
		/* an event on several PMU instances: their sum */
		for (size_t w = 0; j != SIZE_MAX && w < e->width; w++)
			sum += c->counts[j + w];
		if (j == SIZE_MAX || isnan(sum)) {
			if (!c->missing)
				c->missing = e->text;
			return NAN;
		}
		return sum;
	}
	return NAN;
}

static int metric_value(struct evalctx *c, const struct pmu__metric *x,
			int depth, double *out, struct pmu_error *err);

static int id_value(struct evalctx *c, const char *id, int depth, double *v,
		    struct pmu_error *err)
{
	const struct pmu__metric *r = pmu__metric_find(c->in->m, id,
						       strlen(id));
	char buf[512];

	if (r)
		return metric_value(c, r, depth + 1, v, err);
	if (!strcasecmp(id, "duration_time")) {
		*v = c->seconds;
		return 0;
	}
	if (is_tool(id)) {
		*v = NAN;
		return 0;
	}
	pmu_metric_id_event(id, buf, sizeof(buf));
	*v = count_of(c, buf);
	return 0;
}

static int metric_value(struct evalctx *c, const struct pmu__metric *x,
			int depth, double *out, struct pmu_error *err)
{
	const struct pmu_metric_expr *e = NULL;
	double *v;
	int rc = 0;

	for (size_t i = 0; i < c->s->nparsed; i++)
		if (c->s->parsed[i].x == x)
			e = c->s->parsed[i].e;
	if (!e || depth > MAX_REF_DEPTH)
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, NULL, -1,
				  "metric %s cannot be evaluated",
				  pmu__str(c->in->m, x->name));
	if (!(v = calloc(pmu_metric_expr_nids(e) + 1, sizeof(*v))))
		return -ENOMEM;
	for (size_t i = 0; !rc && i < pmu_metric_expr_nids(e); i++)
		rc = id_value(c, pmu_metric_expr_id(e, i), depth, &v[i], err);
	if (!rc) {
		struct pmu_metric_ctx mc = { .sz = sizeof(mc), .values = v };
		rc = pmu_metric_expr_eval(e, &mc, out, err);
	}
	free(v);
	return rc;
}

/* The first event of the metric's own formula in the list. */
static ssize_t leader_of(const struct pmu_metric_set *s,
			 const struct minst *in)
{
	ssize_t best = -1;

	for (size_t k = 0; k < in->nevs; k++) {
		ssize_t p = s->ev[in->at[k]].pos;
		if (p >= 0 && (best < 0 || p < best))
			best = p;
	}
	return best < 0 ? -1 : (ssize_t)s->base + best;
}

PMU_API int pmu_metric_set_value(const struct pmu_metric_set *s, size_t i,
				 const double *counts, size_t n,
				 double duration_ns,
				 struct pmu_metric_value *out,
				 struct pmu_error *err)
{
	struct pmu_metric_value o = { .size = sizeof(o) };
	struct evalctx c = { .s = s, .counts = counts, .n = n,
			     .seconds = duration_ns * 1e-9 };
	double scale;
	int rc;

	if (!s || i >= s->n || !out || !pmu__out_ok(out, out->size) ||
	    (!counts && n))
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "pmu_metric_set_value: no such metric, no "
				  "counts or no result struct");
	c.in = &s->in[i];
	rc = metric_value(&c, c.in->x, 0, &o.value, err);
	if (rc)
		return rc;
	/* An event it needs that cannot be counted here: no value, even
	 * where the formula would make one of the others (max(x, 0)). */
	if (c.missing)
		o.value = NAN;
	o.name = pmu__str(c.in->m, c.in->x->name);
	o.unit = pmu_metric_unit(pmu__str(c.in->m, c.in->x->unit), &scale);
	o.value *= scale;
	o.leader = leader_of(s, c.in);
	o.missing = c.missing;
	PMU__OUT(out, &o);
	return 0;
}
