/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <pmu/event.h>
#include <pmu/ibs.h>

#include "events/evparse.h"
#include "events/ibs.h"
#include "util/error.h"
#include "util/opts.h"
#include "util/outstruct.h"

enum ibs_level {
	IBS_NONE,       /* no IBS (K7, K8, non-AMD) */
	IBS_REVB,       /* Fam10h RevB (Barcelona): no op counting mode */
	IBS_FULL,       /* RevC and later, Zen */
};

/* IBS capability by catalog model name; the names are stable strings. */
static enum ibs_level ibs_level(const char *model)
{
	static const char *const revb[] = { "fam10h",
					    "amd64_fam10h_barcelona" };
	static const char *const full_prefix[] = {
		"amd64_fam10h_", "amd64_fam12h", "amd64_fam14h",
		"amd64_fam15h", "amd64_fam16h", "amd64_fam17h",
		"amd64_fam19h", "amd64_fam1a",
	};

	for (size_t i = 0; i < sizeof(revb) / sizeof(revb[0]); i++)
		if (!strcasecmp(model, revb[i]))
			return IBS_REVB;
	for (size_t i = 0; i < sizeof(full_prefix) / sizeof(full_prefix[0]);
	     i++)
		if (!strncasecmp(model, full_prefix[i],
				 strlen(full_prefix[i])))
			return IBS_FULL;
	return IBS_NONE;
}

static int check_maxcnt(uint32_t maxcnt, struct pmu_error *err)
{
	char tok[16];

	snprintf(tok, sizeof(tok), "0x%x", maxcnt);
	/* The hint must itself be valid: below 16 it would round to 0. */
	if (maxcnt & 0xF)
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, tok, -1,
				  "IBS maxcnt %s has bits 3:0 set; the period "
				  "must be a multiple of 16 (e.g. 0x%x)",
				  tok, maxcnt < 0x10 ? 0x10u : maxcnt & ~0xFu);
	if (maxcnt == 0 || maxcnt > PMU_IBS_MAXCNT_MAX)
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, tok, -1,
				  "IBS maxcnt %s is out of range; it is a "
				  "20-bit period from 0x10 to 0x%x",
				  tok, PMU_IBS_MAXCNT_MAX);
	return 0;
}

static int check_options(enum pmu_ibs_kind kind, unsigned options,
			 enum ibs_level lvl, const char *model,
			 struct pmu_error *err)
{
	char tok[16];

	snprintf(tok, sizeof(tok), "0x%x", options);
	if (options & ~1u)
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, tok, -1,
				  "unknown IBS %s option bits %s",
				  kind == PMU_IBS_FETCH ? "fetch" : "op", tok);
	if (kind == PMU_IBS_OP && (options & PMU_IBS_UOPS) &&
	    lvl == IBS_REVB)
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED,
				  model, -1,
				  "IBS op counting of dispatched ops needs "
				  "Fam10h RevC or later; %s is RevB", model);
	return 0;
}

static void fill_config(enum pmu_ibs_kind kind, uint32_t maxcnt,
			unsigned options, struct pmu_ibs_config *c)
{
	bool fetch = kind == PMU_IBS_FETCH;
	bool opt = options & 1u;

	c->kind = kind;
	c->ctl = maxcnt >> 4;
	if (fetch)
		c->ctl |= PMU_IBS_FETCH_EN | (opt ? PMU_IBS_FETCH_RANDEN : 0);
	else
		c->ctl |= PMU_IBS_OP_EN | (opt ? PMU_IBS_OP_CNTCTL : 0);
	c->msr = fetch ? PMU_IBS_FETCH_CTL_MSR : PMU_IBS_OP_CTL_MSR;
	c->pmc = fetch ? 4 : 5;
	c->pmd = fetch ? 4 : 7;
	c->npmds = fetch ? 3 : 7;
	snprintf(c->perf_pmu, sizeof(c->perf_pmu), "%s",
		 fetch ? "ibs_fetch" : "ibs_op");
	c->perf_config = opt ? (fetch ? PMU_IBS_FETCH_RANDEN
				      : PMU_IBS_OP_CNTCTL) : 0;
	c->sample_period = maxcnt;
}

PMU_API int pmu_ibs_setup(enum pmu_ibs_kind kind, uint32_t maxcnt,
			  unsigned options, const struct pmu_ibs_opts *opts,
			  struct pmu_ibs_config *out, struct pmu_error *err)
{
	const char *model = PMU__OPTS_GET(opts, model, NULL);
	const char *root = PMU__OPTS_GET(opts, sysfs_root, NULL);
	struct pmu_catalog_info mi = { .size = sizeof(mi) };
	struct pmu_ibs_config c = { .size = sizeof(c) };
	enum ibs_level lvl;
	ssize_t m;
	int rc = PMU__OPTS_CHECK(opts, pmu_ibs_opts, err);

	if (rc)
		return rc;
	model = model ? model : pmu_event_host_model();
	root = root ? root : PMU__SYSFS_DEFAULT;
	m = pmu_catalog_find(model);
	/* Aliases ("zen4") and any case name the same model. */
	if (m >= 0 && pmu_catalog_info((size_t)m, &mi) == 0)
		model = mi.name;
	lvl = ibs_level(model);

	if (!pmu__out_ok(out, out ? out->size : 0))
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "pmu_ibs_setup: out must be non-NULL with "
				  "size set");
	if (kind != PMU_IBS_FETCH && kind != PMU_IBS_OP)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "unknown IBS kind %d", (int)kind);
	if (lvl == IBS_NONE)
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED,
				  model, -1, "model %s has no instruction-"
				  "based sampling (Fam10h and later)", model);
	if ((rc = check_maxcnt(maxcnt, err)) ||
	    (rc = check_options(kind, options, lvl, model, err)))
		return rc;
	fill_config(kind, maxcnt, options, &c);
	c.perf_type_known = pmu__sysfs_pmu_type(root, c.perf_pmu,
						&c.perf_type) == 0;
	PMU__OUT(out, &c);
	return 0;
}

/* ---- IBS set-ups in event lists: [model::]ibs_op:maxcnt=N[:cnt_ctl],
 * [model::]ibs_fetch:maxcnt=N[:randen] ---- */

/* The kind an event string names, its rest (":..."), its model prefix;
 * -1 when it is no IBS set-up. */
static int ibs_kind_of(const char *text, const char **rest, char *model,
		       size_t msz)
{
	const char *sep = strstr(text, "::"), *p = sep ? sep + 2 : text;
	size_t n = strcspn(p, ":");

	*model = '\0';
	if (sep)
		snprintf(model, msz, "%.*s", (int)(sep - text), text);
	*rest = p + n;
	if (n == 9 && !strncasecmp(p, "ibs_fetch", 9))
		return PMU_IBS_FETCH;
	if (n == 6 && !strncasecmp(p, "ibs_op", 6))
		return PMU_IBS_OP;
	return -1;
}

static int ibs_term(const char *t, size_t n, enum pmu_ibs_kind kind,
		    uint64_t *maxcnt, unsigned *opts, struct pmu_error *err)
{
	const char *opt = kind == PMU_IBS_FETCH ? "randen" : "cnt_ctl";
	char tok[64], *end;

	snprintf(tok, sizeof(tok), "%.*s", (int)n, t);
	if (!strncasecmp(tok, "maxcnt=", 7)) {
		*maxcnt = strtoull(tok + 7, &end, 0);
		if (!tok[7] || *end)
			return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, tok,
					  -1, "'%s': maxcnt takes a number",
					  tok);
		return 0;
	}
	if (!strcasecmp(tok, opt) || (!strncasecmp(tok, opt, strlen(opt)) &&
				      !strcmp(tok + strlen(opt), "=1"))) {
		*opts |= 1u;
		return 0;
	}
	if (!strncasecmp(tok, opt, strlen(opt)) &&
	    !strcmp(tok + strlen(opt), "=0"))
		return 0;
	return pmu__error(err, -EINVAL, PMU_ERR_BAD_MODIFIER, tok, -1,
			  "IBS %s has no setting '%s' (maxcnt=N, %s)",
			  kind == PMU_IBS_FETCH ? "fetch" : "op", tok, opt);
}

int pmu__ibs_parse(const char *text, const char *dfl_model,
		   const char *sysfs_root, struct pmu__ev *d,
		   struct pmu_error *err)
{
	struct pmu_ibs_opts o = { .sz = sizeof(o), .sysfs_root = sysfs_root };
	struct pmu_ibs_config c = { .size = sizeof(c) };
	char model[32];
	const char *rest;
	int kind = ibs_kind_of(text, &rest, model, sizeof(model)), rc;
	uint64_t maxcnt = UINT64_MAX;
	unsigned opts = 0;

	if (kind < 0)
		return -ENOENT;
	while (*rest == ':') {
		size_t n = strcspn(rest + 1, ":");

		if (n && (rc = ibs_term(rest + 1, n, (enum pmu_ibs_kind)kind,
					&maxcnt, &opts, err)))
			return rc;
		rest += 1 + n;
	}
	if (maxcnt == UINT64_MAX)
		return pmu__error(err, -EINVAL, PMU_ERR_SYNTAX, text, -1,
				  "'%s' needs maxcnt=N, the sampling period "
				  "(a multiple of 16 up to 0xffff0)", text);
	if (maxcnt > PMU_IBS_MAXCNT_MAX)
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, text, -1,
				  "IBS maxcnt 0x%llx is out of range; it is a "
				  "20-bit period from 0x10 to 0x%x",
				  (unsigned long long)maxcnt,
				  PMU_IBS_MAXCNT_MAX);
	o.model = model[0] ? model : dfl_model;
	if ((rc = pmu_ibs_setup((enum pmu_ibs_kind)kind, (uint32_t)maxcnt, opts,
				&o, &c, err)))
		return rc;
	d->flags |= PMU__EV_IBS | PMU__EV_HW;
	d->flags &= ~PMU__EV_GUEST_DEFAULT;
	d->ncodes = 4;
	d->codes[0] = c.ctl;
	d->codes[1] = (uint64_t)c.pmc;
	d->codes[2] = (uint64_t)c.pmd;
	d->codes[3] = (uint64_t)c.npmds;
	if (!c.perf_type_known) {
		/* no such PMU in this kernel: a simulated fam10h samples it */
		d->flags |= PMU__EV_NO_PERF;
		snprintf(d->model, sizeof(d->model), "%s", "fam10h");
		return 0;
	}
	d->attr.type = c.perf_type;
	d->attr.config = c.perf_config;
	d->attr.sample_period = c.sample_period;
	return 0;
}
