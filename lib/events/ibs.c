/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <pmu/event.h>
#include <pmu/ibs.h>

#include "events/evparse.h"
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
