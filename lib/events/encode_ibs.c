/* SPDX-License-Identifier: MIT */
/*
 * AMD IBS set-ups as event strings: "ibs_fetch:maxcnt=N[:randen]" and
 * "ibs_op:maxcnt=N[:cnt_ctl]" on a model, encoded like any other event
 * (the IbsFetchCtl / IbsOpCtl value as the register code, the ibs_fetch /
 * ibs_op perf PMU and the period as the perf form).  pmu_ibs_setup()
 * checks the values and knows which models have IBS.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <pmu/ibs.h>

#include "events/encode.h"
#include "util/error.h"
#include "util/opts.h"

struct ibs_req {
	enum pmu_ibs_kind kind;
	const char *opt;        /* "randen" or "cnt_ctl" */
	long long maxcnt;       /* -1: not given */
	int optval;             /* -1: not given */
};

int pmu__encode_ibs_kind_slow(const char *name, size_t n)
{
	if (n == 9 && !strncasecmp(name, "ibs_fetch", 9))
		return PMU_IBS_FETCH;
	if (n == 6 && !strncasecmp(name, "ibs_op", 6))
		return PMU_IBS_OP;
	return -1;
}

/* A modifier's value: 0 or a negative errno (-ERANGE past 64 bits). */
static int mod_number(const char *s, size_t n, unsigned long long *v)
{
	unsigned base = n > 2 && s[0] == '0' && (s[1] | 0x20) == 'x' ? 16 : 10;
	unsigned long long x = 0;
	size_t i = base == 16 ? 2 : 0;

	if (i == n)
		return -EINVAL;
	for (; i < n; i++) {
		unsigned d = s[i] >= '0' && s[i] <= '9' ? (unsigned)(s[i] - '0')
			   : (s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'f'
			   ? (unsigned)((s[i] | 0x20) - 'a' + 10) : 99;

		if (d >= base)
			return -EINVAL;
		if (x > (~0ull - d) / base)
			return -ERANGE;
		x = x * base + d;
	}
	*v = x;
	return 0;
}

static int ibs_mod(struct ibs_req *r, const char *t, size_t n,
		   struct pmu_encoding *out, struct pmu_error *err)
{
	const char *eq = memchr(t, '=', n);
	size_t kl = eq ? (size_t)(eq - t) : n;
	unsigned long long v = 1;
	char tok[64];
	int rc = 0;

	snprintf(tok, sizeof(tok), "%.*s", (int)n, t);
	if (eq)
		rc = mod_number(eq + 1, n - kl - 1, &v);
	if (rc)
		return rc == -ERANGE
		       ? pmu__encode_fail(out, err, PMU_ERR_BAD_VALUE, tok,
					  "'%s': the value is out of range",
					  tok)
		       : pmu__encode_fail(out, err, PMU_ERR_BAD_VALUE, tok,
					  "'%s': %.*s takes a number", tok,
					  (int)kl, t);
	if (kl == 6 && !strncasecmp(t, "maxcnt", 6) && eq) {
		if (r->maxcnt >= 0)
			return pmu__encode_fail(out, err, PMU_ERR_REPEATED, tok,
						"'%s': maxcnt given twice", tok);
		if (v > 0xffffffffull)
			return pmu__encode_fail(out, err, PMU_ERR_BAD_VALUE,
						tok, "IBS maxcnt in '%s' is out "
						"of range; it is a 20-bit "
						"period from 0x10 to 0x%x", tok,
						PMU_IBS_MAXCNT_MAX);
		r->maxcnt = (long long)v;
		return 0;
	}
	if (kl != strlen(r->opt) || strncasecmp(t, r->opt, kl))
		return pmu__encode_fail(out, err, PMU_ERR_BAD_MODIFIER, tok,
					"IBS %s has no setting '%s' (it takes "
					"maxcnt=N and %s)", r->kind ==
					PMU_IBS_FETCH ? "fetch" : "op", tok,
					r->opt);
	if (v > 1)
		return pmu__encode_fail(out, err, PMU_ERR_BAD_VALUE, tok,
					"'%s' takes 0 or 1", tok);
	if (r->optval >= 0)
		return pmu__encode_fail(out, err, PMU_ERR_REPEATED, tok,
					"'%s' given twice", tok);
	r->optval = (int)v;
	return 0;
}

static int ibs_parse(struct ibs_req *r, const char *rest,
		     struct pmu_encoding *out, struct pmu_error *err)
{
	while (*rest == ':' || *rest == '.') {
		size_t n = strcspn(rest + 1, ":.");
		int rc = n ? ibs_mod(r, rest + 1, n, out, err) : 0;

		if (rc)
			return rc;
		rest += 1 + n;
	}
	if (r->maxcnt < 0)
		return pmu__encode_fail(out, err, PMU_ERR_SYNTAX, "",
					"%s needs maxcnt=N, the sampling "
					"period (a multiple of 16 up to "
					"0x%x)", r->kind == PMU_IBS_FETCH ?
					"ibs_fetch" : "ibs_op",
					PMU_IBS_MAXCNT_MAX);
	return 0;
}

/* pmu_ibs_setup's refusal in the encoder's classes: a model without IBS
 * has no such event; one without the option's mode (Fam10h RevB) lacks
 * the modifier, as libpfm4 would class it. */
static int setup_failed(const struct ibs_req *r, const char *model, int rc,
			const struct pmu_error *why, struct pmu_encoding *out,
			struct pmu_error *err)
{
	struct pmu_ibs_opts io = { .sz = sizeof(io), .model = model };
	struct pmu_ibs_config c = { .size = sizeof(c) };
	enum pmu_error_kind cls = rc == -EOPNOTSUPP ? PMU_ERR_UNKNOWN_EVENT
						    : PMU_ERR_BAD_VALUE;

	if (rc == -EOPNOTSUPP && r->optval > 0 &&
	    pmu_ibs_setup(r->kind, (uint32_t)r->maxcnt, 0, &io, &c, NULL) == 0)
		cls = PMU_ERR_BAD_MODIFIER;
	return pmu__encode_fail(out, err, cls, why->token, "%s", why->message);
}

static void fill_out(const struct ibs_req *r, const struct pmu__catmodel *m,
		     const struct pmu_ibs_config *c, bool raw_only,
		     struct pmu_encoding *out)
{
	snprintf(out->event, sizeof(out->event), "%s", c->perf_pmu);
	out->ncodes = 1;
	out->codes[0] = c->ctl;
	snprintf(out->fstr, sizeof(out->fstr), "%s::%s:maxcnt=%lld:%s=%d",
		 m->name, c->perf_pmu, r->maxcnt, r->opt, r->optval > 0);
	snprintf(out->perf_fstr, sizeof(out->perf_fstr), "%s", out->fstr);
	snprintf(out->perf_pmu, sizeof(out->perf_pmu), "%s", c->perf_pmu);
	out->sample_period = c->sample_period;
	/* the perf form needs the PMU's type, which only sysfs knows */
	out->has_perf = !raw_only && c->perf_type_known;
	out->perf.type = c->perf_type;
	out->perf.config = c->perf_config;
}

int pmu__encode_ibs(const struct pmu__catmodel *m, int kind, const char *rest,
		    const struct pmu_encode_opts *opts,
		    struct pmu_encoding *out, struct pmu_error *err)
{
	struct ibs_req r = { .kind = (enum pmu_ibs_kind)kind, .maxcnt = -1,
			     .optval = -1 };
	struct pmu_ibs_opts io = { .sz = sizeof(io), .model = m->name };
	struct pmu_ibs_config c = { .size = sizeof(c) };
	struct pmu_error why = { .size = sizeof(why) };
	bool raw_only = PMU__OPTS_GET(opts, flags, 0u) & PMU_ENCODE_RAW_ONLY;
	int rc;

	r.opt = r.kind == PMU_IBS_FETCH ? "randen" : "cnt_ctl";
	rc = ibs_parse(&r, rest, out, err);
	if (rc)
		return rc;
	rc = pmu_ibs_setup(r.kind, (uint32_t)r.maxcnt, r.optval > 0 ? 1u : 0u,
			   &io, &c, &why);
	if (rc)
		return setup_failed(&r, m->name, rc, &why, out, err);
	fill_out(&r, m, &c, raw_only, out);
	return 0;
}
