/* SPDX-License-Identifier: MIT */
/* The event-list parser: pmu/term=value,alias/ events, and the
 * uncore events of the parse's kernel model. */
#include "events/evlist_priv.h"

/* ---- dynamic PMUs: pmu/term=value,alias/ ---- */

struct pmuterm {
	const char *pmu;
	const char *alias;   /* non-NULL while expanding an events/ alias */
	size_t off;          /* offset of the term (or of the alias) */
};

static int apply_terms(struct parser *p, struct evbuild *b,
		       const struct pmuterm *pt, const char *s, size_t len);

static int bad_value(struct parser *p, const struct pmuterm *pt,
		     const char *key, const char *val, const char *why)
{
	return pmu__evl_fail(p, -EINVAL, PMU_ERR_BAD_VALUE, key, strlen(key), pt->off,
			     "value '%s' of term '%s' for PMU '%s'%s%s%s %s", val, key,
			     pt->pmu, pt->alias ? " (in event alias '" : "",
			     pt->alias ? pt->alias : "", pt->alias ? "')" : "", why);
}

/* config=, config1=, config2=, period=, name=: known to every PMU. */
static int generic_term(struct parser *p, struct evbuild *b,
			const struct pmuterm *pt, const char *key,
			const char *val)
{
	static const char *const keys[] = { "config", "config1", "config2",
					    "period", "name" };
	uint64_t *dst[] = { &b->cfg[0], &b->cfg[1], &b->cfg[2], &b->d.period };
	uint64_t v;
	size_t k;
	int r;

	for (k = 0; k < 5 && strcmp(key, keys[k]); k++)
		;
	if (k == 5)
		return -ENOENT;
	if (!val || !*val)
		return pmu__evl_fail(p, -EINVAL, PMU_ERR_SYNTAX, key, strlen(key),
				     pt->off, "term '%s' needs a value ('%s=...')",
				     key, key);
	if (k == 4) {
		free(b->d.name);
		b->d.name = strdup(val);
		b->named = true;
		return b->d.name ? 0 : -ENOMEM;
	}
	r = pmu__evl_parse_u64(val, &v);
	if (r)
		return bad_value(p, pt, key, val, r == -ERANGE ?
				 "is out of range (more than 64 bits)" :
				 "is not a number");
	*dst[k] = v;
	return 0;
}

static int unknown_term(struct parser *p, const struct evbuild *b,
			const struct pmuterm *pt, const char *key)
{
	char list[300];

	if (b->no_sysfs)
		pmu__core_format_list(b->core, list, sizeof(list));
	else
		pmu__sysfs_format_list(pmu__evl_sysfs_root(p), pt->pmu, list,
				       sizeof(list));
	return pmu__evl_fail(p, -EINVAL, PMU_ERR_BAD_MODIFIER, key, strlen(key),
			     pt->off, "unknown term '%s' for PMU '%s'%s%s%s; valid "
			     "terms: %s%sconfig, config1, config2, name, period", key,
			     pt->pmu, pt->alias ? " in event alias '" : "",
			     pt->alias ? pt->alias : "", pt->alias ? "'" : "", list,
			     *list ? ", " : "");
}

/* A bare word in pmu/.../ that is neither an event alias of the PMU nor
 * a flag term: the nearest names if any, else what the PMU has. */
static int unknown_word(struct parser *p, const struct evbuild *b,
			const struct pmuterm *pt, const char *key)
{
	char full[NAME_MAX * 2 + 4], events[200], terms[200];
	struct pmu__suggestion s[1];

	snprintf(full, sizeof(full), "%s/%s/", pt->pmu, key);
	if (pmu__event_suggest_ex(full, p->ctx, pmu__core_host(p->ctx), s, 1))
		return pmu__evl_unknown_event(p, full, strlen(full), b->off);
	if (b->no_sysfs) {
		events[0] = '\0';
		pmu__core_format_list(b->core, terms, sizeof(terms));
	} else {
		pmu__sysfs_alias_list(pmu__evl_sysfs_root(p), pt->pmu, events,
				      sizeof(events));
		pmu__sysfs_format_list(pmu__evl_sysfs_root(p), pt->pmu, terms,
				       sizeof(terms));
	}
	return pmu__evl_fail(p, -EINVAL, PMU_ERR_UNKNOWN_EVENT, key, strlen(key),
			     pt->off, "unknown event or term '%s' for PMU '%s' (its "
			     "events: %s; its terms: %s%sconfig, config1, config2, "
			     "name, period)", key, pt->pmu, *events ? events : "none",
			     terms, *terms ? ", " : "");
}

static int format_term(struct parser *p, struct evbuild *b,
		       const struct pmuterm *pt, const char *key,
		       const char *val)
{
	struct pmu__format f;
	char why[64];
	uint64_t v = 1;
	int r = b->no_sysfs ? pmu__core_format(b->core, key, &f)
			    : pmu__sysfs_format(pmu__evl_sysfs_root(p), pt->pmu, key, &f);

	if (r == -ENOENT && !val && !pt->alias)
		return unknown_word(p, b, pt, key);
	if (r == -ENOENT)
		return unknown_term(p, b, pt, key);
	if (r < 0)
		return pmu__evl_fail(p, r == -EINVAL ? -EINVAL : r, PMU_ERR_SYSTEM, key,
				     strlen(key), pt->off, "cannot use the sysfs format "
				     "of term '%s' for PMU '%s': %s", key, pt->pmu,
				     pmu_strerror(r));
	r = val ? pmu__evl_parse_u64(val, &v) : 0;
	if (r < 0)
		return bad_value(p, pt, key, val, r == -ERANGE ?
				 "is out of range (more than 64 bits)" :
				 "is not a number");
	if (pmu__format_apply(&f, v, &b->d.attr)) {
		snprintf(why, sizeof(why), "does not fit in its %d bits",
			 __builtin_popcountll(f.mask));
		return bad_value(p, pt, key, val ? val : "1", why);
	}
	return 0;
}

/* "cpu/inst_retired.any/": an event of the kernel model whose core PMU
 * this is, as perf takes the vendor files' events as that PMU's
 * aliases; later terms ("cmask=1") change its fields. */
static int model_term(struct parser *p, struct evbuild *b,
		      const struct pmuterm *pt, const char *key)
{
	struct pmu_encoding enc = { .size = sizeof(enc) };
	struct pmu_error e = { .size = sizeof(e) };
	int r;

	if (!b->core)
		return -ENOENT;
	r = pmu__encode(b->core, key, NULL, &enc, &e);
	if (r == -ENOENT)
		return -ENOENT;
	if (r)
		return pmu__evl_fail(p, -EINVAL, e.kind, key, strlen(key), pt->off,
				     "%s", e.message);
	/* its terms' bits, ORed in as every term's are */
	b->d.attr.config |= enc.perf.config;
	b->d.attr.config1 |= enc.perf.config1;
	b->d.attr.config2 |= enc.perf.config2;
	return 0;
}

/* ---- uncore events of the parse's kernel model ---- */

const struct pmu__uevent *pmu__evl_uncore_event(const struct parser *p,
					      const char *name, size_t n,
					      const struct pmu__catmodel **mp)
{
	const struct pmu__catmodel *m = pmu__core_host(p->ctx);

	*mp = m;
	return m ? pmu__uncore_find(m, name, n) : NULL;
}

/* "uncore_cha_0/unc_cha_clockticks/": the model's uncore event as an
 * alias of the PMUs of its unit, as perf takes the vendor files' events;
 * -ENOENT when the model has no such event. */
static int uncore_term(struct parser *p, struct evbuild *b,
		       const struct pmuterm *pt, const char *key)
{
	const struct pmu__catmodel *m;
	const struct pmu__uevent *u = pmu__evl_uncore_event(p, key, strlen(key), &m);
	struct pmuterm inner = { .pmu = pt->pmu, .alias = key, .off = pt->off };
	const char *upmu, *terms, *unit;
	double scale = 1.0;
	int r;

	if (!u)
		return -ENOENT;
	upmu = pmu__ustr(m, u->pmu);
	if (!pmu__uncore_pmu_match(upmu, pt->pmu))
		return pmu__evl_fail(p, -EINVAL, PMU_ERR_UNKNOWN_EVENT, key, strlen(key),
				     pt->off, "event '%s' of model %s counts on PMU %s, "
				     "not on '%s'", key, m->name, upmu, pt->pmu);
	terms = pmu__ustr(m, u->terms);
	r = apply_terms(p, b, &inner, terms, strlen(terms));
	if (r < 0)
		return r;
	if (u->sunit) {
		unit = pmu_metric_unit(pmu__ustr(m, u->sunit), &scale);
		snprintf(b->d.unit, sizeof(b->d.unit), "%s", unit ? unit : "");
		b->d.scale = scale;
	}
	return 0;
}

/* "pmu/alias/": expand events/<alias>, whose terms may not be aliases. */
static int alias_term(struct parser *p, struct evbuild *b,
		      const struct pmuterm *pt, const char *key)
{
	struct pmu__alias a;
	struct pmuterm inner = { .pmu = pt->pmu, .alias = key, .off = pt->off };
	int r = b->no_sysfs ? pmu__core_alias(b->core, key, &a)
			    : pmu__sysfs_alias(pmu__evl_sysfs_root(p), pt->pmu, key, &a);

	if (r == -ENOENT && !b->core) {
		r = uncore_term(p, b, pt, key);
		if (r != -ENOENT)
			return r;
	}
	if (r == -ENOENT)
		return model_term(p, b, pt, key);
	if (r < 0)
		return pmu__evl_fail(p, r, PMU_ERR_SYSTEM, key, strlen(key), pt->off,
				     "cannot read event alias '%s' of PMU '%s': %s", key,
				     pt->pmu, pmu_strerror(r));
	if (a.unit[0])
		snprintf(b->d.unit, sizeof(b->d.unit), "%s", a.unit);
	b->d.scale = a.scale;
	return apply_terms(p, b, &inner, a.terms, strlen(a.terms));
}

static int one_term(struct parser *p, struct evbuild *b,
		    const struct pmuterm *pt, char *term)
{
	char *eq = strchr(term, '='), *val = NULL;
	int r;

	if (eq) {
		*eq = '\0';
		val = eq + 1;
	}
	if (!*term)
		return pmu__evl_fail(p, -EINVAL, PMU_ERR_SYNTAX, "=", 1, pt->off,
				     "missing term name before '=' for PMU '%s'", pt->pmu);
	r = generic_term(p, b, pt, term, val);
	if (r != -ENOENT)
		return r;
	if (!val && !pt->alias) {
		r = alias_term(p, b, pt, term);
		if (r != -ENOENT)
			return r;
	}
	return format_term(p, b, pt, term, val);
}

/* Comma-separated terms s[0..len); offsets relative to the pmu's term
 * list unless expanding an alias (then the alias's offset). */
static int apply_terms(struct parser *p, struct evbuild *b,
		       const struct pmuterm *pt, const char *s, size_t len)
{
	size_t i = 0;

	if (len && s[len - 1] == ',')
		return pmu__evl_fail(p, -EINVAL, PMU_ERR_SYNTAX, ",", 1,
				     pt->alias ? pt->off : pt->off + len - 1,
				     "empty term after ',' for PMU '%s'", pt->pmu);
	while (i < len) {
		size_t j = i;
		struct pmuterm here = *pt;
		char term[256];
		int r;

		while (j < len && s[j] != ',')
			j++;
		if (!pt->alias)
			here.off = pt->off + i;
		if (j == i || j - i >= sizeof(term))
			return pmu__evl_fail(p, -EINVAL, PMU_ERR_SYNTAX, s + i, j - i,
					     here.off, j == i ? "empty term for PMU '%s'"
					     : "term too long for PMU '%s'", pt->pmu);
		snprintf(term, sizeof(term), "%.*s", (int)(j - i), s + i);
		r = one_term(p, b, &here, term);
		if (r < 0)
			return r;
		i = j + 1;
	}
	return 0;
}

static int unknown_pmu(struct parser *p, const struct evbuild *b,
		       size_t plen)
{
	return pmu__evl_fail(p, -EINVAL, PMU_ERR_UNKNOWN_PMU, b->text, plen, b->off,
			     "unknown PMU '%.*s' in '%s' (not listed in sysfs "
			     "bus/event_source/devices)", (int)plen, b->text, b->text);
}

/* An uncore PMU's cpumask: the one CPU per package or die its events
 * count on (a core PMU has none).  Absent or empty: no restriction. */
static int pmu_cpumask(struct parser *p, const char *pmu, struct pmu__ev *d)
{
	char path[PATH_MAX], buf[1024];
	int r = pmu__sysfs_path(path, sizeof(path), pmu__evl_sysfs_root(p), pmu,
				"cpumask");

	if (r == 0)
		r = pmu__read_small(path, buf, sizeof(buf));
	if (r <= 0)
		return 0;
	free(d->cpus);
	d->cpus = strdup(buf);
	return d->cpus ? 0 : -ENOMEM;
}

/* "pmu/terms/", "pmu/terms/:mods" or "pmu/terms/mods". */
int pmu__evl_parse_pmu_event(struct parser *p, struct evbuild *b)
{
	const char *t = b->text, *open = strchr(t, '/');
	const char *close = strchr(open + 1, '/'), *mods;
	size_t plen = (size_t)(open - t);
	char pmu[NAME_MAX + 1];
	struct pmuterm pt = { .pmu = pmu };
	uint32_t type;
	int r;

	if (plen == 0)
		return pmu__evl_fail_syntax(p, b->off, "missing PMU name before '/'");
	if (!close)
		return pmu__evl_fail(p, -EINVAL, PMU_ERR_SYNTAX, t, strlen(t), b->off,
				     "missing closing '/' in '%s'", t);
	if (plen > NAME_MAX || !pmu__name_is_safe(t, plen))
		return unknown_pmu(p, b, plen);
	memcpy(pmu, t, plen);
	pmu[plen] = '\0';
	b->core = pmu__core_model(p->ctx, pmu);
	if (pmu__sysfs_pmu_type(pmu__evl_sysfs_root(p), pmu, &type) < 0) {
		/* no such PMU here: the kernel model's core PMU stands in */
		if (!b->core)
			return unknown_pmu(p, b, plen);
		b->no_sysfs = true;
		type = b->core->perf_type;
	}
	b->d.attr.type = type;
	if (plen < sizeof(b->d.pmu)) /* longer: no name for --no-merge */
		memcpy(b->d.pmu, pmu, plen + 1);
	if (pmu__sysfs_core_pmu(pmu))
		b->d.flags |= PMU__EV_HW;
	else if (!b->no_sysfs && (r = pmu_cpumask(p, pmu, &b->d)) < 0)
		return r;
	pt.off = b->off + plen + 1;
	/* the terms' own code: what err->code says (EISDIR, ENOMEM...) */
	r = apply_terms(p, b, &pt, open + 1, (size_t)(close - open - 1));
	if (r < 0)
		return r;
	b->d.attr.config |= b->cfg[0];
	b->d.attr.config1 |= b->cfg[1];
	b->d.attr.config2 |= b->cfg[2];
	mods = close + 1;
	if (*mods == '\0')
		return 0;
	b->own_mods = true;
	if (*mods == ':')
		mods++;
	return pmu__evl_apply_mods(p, &b->d, mods, strlen(mods), t, b->off);
}

/* "pmu::EVENT...": model-specific tables, through the catalog hook. */
int pmu__evl_parse_catalog(struct parser *p, struct evbuild *b,
			 const char *dcolon)
{
	const char *t = b->text;
	size_t plen = (size_t)(dcolon - t);
	char *pmu;
	int r;

	if (plen == 0)
		return pmu__evl_fail_syntax(p, b->off, "missing PMU name before '::'");
	pmu = strndup(t, plen);
	if (!pmu)
		return -ENOMEM;
	r = pmu__catalog_resolve(pmu, dcolon + 2, &b->d, p->err);
	free(pmu);
	if (r == -ENOENT) {
		char model[64];
		const char *near;

		snprintf(model, sizeof(model), "%.*s", (int)plen, t);
		near = pmu_catalog_suggest(model);
		return pmu__evl_fail(p, -EINVAL, PMU_ERR_UNKNOWN_PMU, t, plen, b->off,
				     "unknown PMU '%.*s' in '%s': model-specific event "
				     "tables are not available for it%s%s%s", (int)plen,
				     t, t, near ? " (did you mean '" : "",
				     near ? near : "", near ? "'?)" : "");
	}
	if (r < 0)
		return r;
	b->d.flags |= PMU__EV_HW;
	b->d.flags &= ~PMU__EV_GUEST_DEFAULT; /* the catalog's value stands */
	return 0;
}
