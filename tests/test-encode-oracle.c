/* SPDX-License-Identifier: MIT */
/*
 * libpfm4 as the oracle: for every model both know, every event alone,
 * with each of its umasks alone, with pairs of its first twelve umasks,
 * and with a set of modifier combinations, pmu must give libpfm4's raw
 * codes, full string, perf_event_attr fields and error class; any
 * difference fails the model's test.  Then the hard strings users and
 * scripts type, generated for every event, counted by class: raw umasks
 * wider than the umask field (offcore response events take them whole),
 * raw umasks beside named ones, named umasks given a value, three
 * umasks, every spelling of a boolean's value, malformed strings
 * ("EV::", "EV:UM:", "EV:=1", a trailing ':'), precise= out of range,
 * modifiers given twice, c= against a umask's own counter mask, and raw
 * umask 0.  libpfm4 only encodes for PMUs it
 * believes present, so each model is forced in turn with
 * LIBPFM_FORCE_PMU.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <perfmon/pfmlib.h>
#include <perfmon/pfmlib_perf_event.h>

#include <pmu/event.h>

#include "events/catalog.h"

struct oracle {
	int ret;
	uint64_t codes[PMU_ENCODE_MAX_CODES];
	int ncodes;
	char fstr[512];
};

/* The classes of hard strings users and scripts type, counted apart. */
enum hard {
	H_NONE, H_WIDE, H_MIXED, H_BOOL, H_MALFORMED, H_PERF, H_ZERO, H_ALIAS,
	H_KEPT, H_NR
};

static const char *const hard_names[H_NR] = {
	[H_NONE] = "plain", [H_WIDE] = "wide raw umask",
	[H_MIXED] = "raw/named/valued/three umasks",
	[H_BOOL] = "boolean values", [H_MALFORMED] = "malformed",
	[H_PERF] = "precise, repeated and fixed modifiers",
	[H_ZERO] = "raw umask 0",
	[H_ALIAS] = "umask aliases repeated",
	[H_KEPT] = "umasks given three times",
};

struct counts {
	unsigned compared, mismatched;
	unsigned hc[H_NR], hm[H_NR];   /* per hard class */
	enum hard cls;                 /* of the strings being compared */
};

static const char *pfm_class(int ret)
{
	switch (ret) {
	case PFM_ERR_NOTFOUND: return "notfound";
	case PFM_ERR_UMASK: return "umask";
	case PFM_ERR_FEATCOMB: return "featcomb";
	case PFM_ERR_ATTR: return "attr";
	case PFM_ERR_ATTR_VAL: return "attr_val";
	case PFM_ERR_ATTR_SET: return "attr_set";
	case PFM_SUCCESS: return "";
	default: return "inval";
	}
}

/* libpfm4's class of one of pmu's error kinds (the kinds are finer:
 * unknown event and unknown pmu are both libpfm4's "notfound"). */
static const char *our_class(enum pmu_error_kind k)
{
	switch (k) {
	case PMU_ERR_UNKNOWN_EVENT:
	case PMU_ERR_UNKNOWN_PMU: return "notfound";
	case PMU_ERR_BAD_UMASK: return "umask";
	case PMU_ERR_CONFLICT: return "featcomb";
	case PMU_ERR_BAD_MODIFIER: return "attr";
	case PMU_ERR_BAD_VALUE: return "attr_val";
	case PMU_ERR_REPEATED: return "attr_set";
	case PMU_ERR_SYNTAX: return "inval";
	default: return pmu_error_kind_name(k);
	}
}

static void pfm_raw(const char *s, struct oracle *o)
{
	pfm_pmu_encode_arg_t arg;
	char *fstr = NULL;

	memset(o, 0, sizeof(*o));
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.fstr = &fstr;
	o->ret = pfm_get_os_event_encoding(s, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE,
					   &arg);
	if (o->ret == PFM_SUCCESS) {
		o->ncodes = arg.count;
		for (int i = 0; i < arg.count && i < PMU_ENCODE_MAX_CODES; i++)
			o->codes[i] = arg.codes[i];
		snprintf(o->fstr, sizeof(o->fstr), "%s", fstr);
	}
	free(fstr);
	free(arg.codes);
}

static void pfm_perf(const char *s, struct oracle *o,
		     struct perf_event_attr *attr)
{
	pfm_perf_encode_arg_t arg;
	char *fstr = NULL;

	memset(o, 0, sizeof(*o));
	memset(attr, 0, sizeof(*attr));
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.attr = attr;
	arg.fstr = &fstr;
	o->ret = pfm_get_os_event_encoding(s, PFM_PLM0 | PFM_PLM3,
					   PFM_OS_PERF_EVENT_EXT, &arg);
	if (o->ret == PFM_SUCCESS)
		snprintf(o->fstr, sizeof(o->fstr), "%s", fstr);
	free(fstr);
}

static int diag_budget = 40;

static void mismatch(struct counts *c, const char *s, const char *what,
		     const char *want, const char *got)
{
	c->mismatched++;
	c->hm[c->cls]++;
	if (diag_budget-- > 0)
		printf("# %s: %s: libpfm4 '%s', pmu '%s'\n", s, what, want, got);
}

static void cmp_raw(const char *s, struct counts *c)
{
	struct pmu_encoding e = { .size = sizeof(e) };
	struct oracle o;
	char w[64], g[64];
	int ret;

	pfm_raw(s, &o);
	ret = pmu_event_encode(s, NULL, &e, NULL);
	c->compared++;
	c->hc[c->cls]++;
	/* An encoding valid for perf_event use only has no raw codes, where
	 * libpfm4's raw encoding rejects the perf modifier. */
	if (!ret && !e.ncodes && o.ret == PFM_ERR_ATTR)
		return;
	if (strcmp(pfm_class(o.ret), ret ? our_class(e.error) : "")
	    || (!ret && !e.ncodes)) {
		mismatch(c, s, "raw class", pfm_class(o.ret),
			 ret ? our_class(e.error) : "ok");
		return;
	}
	if (ret)
		return;
	snprintf(w, sizeof(w), "%d:%#llx:%#llx", o.ncodes,
		 (unsigned long long)o.codes[0], (unsigned long long)o.codes[1]);
	snprintf(g, sizeof(g), "%d:%#llx:%#llx", e.ncodes,
		 (unsigned long long)e.codes[0], (unsigned long long)e.codes[1]);
	if (strcmp(w, g))
		mismatch(c, s, "codes", w, g);
	else if (strcmp(o.fstr, e.fstr))
		mismatch(c, s, "fstr", o.fstr, e.fstr);
}

/* With PMU_ENCODE_RAW_ONLY pmu must answer exactly as libpfm4's raw
 * encoding, perf-only modifiers included. */
static void cmp_raw_only(const char *s, struct counts *c)
{
	struct pmu_encode_opts opts = { .sz = sizeof(opts),
					.flags = PMU_ENCODE_RAW_ONLY };
	struct pmu_encoding e = { .size = sizeof(e) };
	struct oracle o;
	char w[64], g[64];
	int ret;

	pfm_raw(s, &o);
	ret = pmu_event_encode(s, &opts, &e, NULL);
	c->compared++;
	c->hc[c->cls]++;
	if (strcmp(pfm_class(o.ret), ret ? our_class(e.error) : "")
	    || (!ret && (e.has_perf || e.perf_fstr[0]))) {
		mismatch(c, s, "raw-only class", pfm_class(o.ret),
			 ret ? our_class(e.error) : "ok");
		return;
	}
	if (ret)
		return;
	snprintf(w, sizeof(w), "%d:%#llx:%#llx", o.ncodes,
		 (unsigned long long)o.codes[0], (unsigned long long)o.codes[1]);
	snprintf(g, sizeof(g), "%d:%#llx:%#llx", e.ncodes,
		 (unsigned long long)e.codes[0], (unsigned long long)e.codes[1]);
	if (strcmp(w, g))
		mismatch(c, s, "raw-only codes", w, g);
	else if (strcmp(o.fstr, e.fstr))
		mismatch(c, s, "raw-only fstr", o.fstr, e.fstr);
}

static void attr_str(char *b, size_t n, uint32_t type, uint64_t config,
		     uint64_t c1, int eu, int ek, int eh, int eho, int eg,
		     int pip)
{
	snprintf(b, n, "type=%u config=%#llx config1=%#llx eu=%d ek=%d eh=%d "
		 "ehost=%d eguest=%d precise=%d", type,
		 (unsigned long long)config, (unsigned long long)c1, eu, ek,
		 eh, eho, eg, pip);
}

/*
 * raw_only: the string uses a model modifier that perf_event use lacks
 * (AMD "h" where perf offers no "h").  pmu reports raw-use errors first;
 * libpfm4's perf encoding fails on that modifier first.
 */
static void cmp_perf(const char *s, struct counts *c, bool raw_only)
{
	struct pmu_encoding e = { .size = sizeof(e) };
	struct perf_event_attr a;
	struct oracle o;
	char w[256], g[256];
	int ret;

	pfm_perf(s, &o, &a);
	ret = pmu_event_encode(s, NULL, &e, NULL);
	c->compared++;
	c->hc[c->cls]++;
	/* A raw-only encoding (model modifier with no perf_event meaning)
	 * is libpfm4's attr error for perf_event use. */
	if ((!ret && !e.has_perf) ||
	    (ret && raw_only && e.error != PMU_ERR_SYNTAX)) {
		if (o.ret != PFM_ERR_ATTR)
			mismatch(c, s, "perf class", pfm_class(o.ret),
				 "no perf encoding");
		return;
	}
	if (strcmp(pfm_class(o.ret), ret ? our_class(e.error) : "")) {
		mismatch(c, s, "perf class", pfm_class(o.ret),
			 ret ? our_class(e.error) : "ok");
		return;
	}
	if (ret)
		return;
	attr_str(w, sizeof(w), a.type, a.config, a.config1, a.exclude_user,
		 a.exclude_kernel, a.exclude_hv, a.exclude_host,
		 a.exclude_guest, a.precise_ip);
	attr_str(g, sizeof(g), e.perf.type, e.perf.config, e.perf.config1,
		 e.perf.exclude_user, e.perf.exclude_kernel, e.perf.exclude_hv,
		 e.perf.exclude_host, e.perf.exclude_guest, e.perf.precise_ip);
	if (strcmp(w, g))
		mismatch(c, s, "perf attr", w, g);
	else if (strcmp(o.fstr, e.perf_fstr))
		mismatch(c, s, "perf fstr", o.fstr, e.perf_fstr);
}

static const char *const mod_sets[] = {
	":u", ":k", ":u:k", ":u=0:k=1", ":e", ":i", ":c=2", ":c=0x10",
	":e:i:c=3", ":h", ":g", ":c=256", ":c", ":u=2", ":u=0:u=1", ":u:u",
	":nosuchattr", ":t", ":intx", ":cmpl", ":thr=3", ":thr=16",
	":precise=1", ":mg", ":mh=0", ":excl", ":t=0", ":c=1:e",
	":ldlat=5", ":ldlat=0", ":fe_thres=2", ":fe_thres=0", ":e=0:e",
	":cmpl:e:thr=15", ":hw_smpl",
};

/* Perf-only modifiers: libpfm4's raw encoding does not know them, so it
 * says "attr" where pmu checks their values.  For perf's own events the
 * privilege levels are perf modifiers too. */
static bool has_mod(const char *mods, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = mods; (p = strchr(p, ':')); p++)
		if (!strncmp(p + 1, name, n) &&
		    (p[n + 1] == '\0' || p[n + 1] == ':' || p[n + 1] == '='))
			return true;
	return false;
}

static bool perf_only(const char *mods, bool perf_model)
{
	return has_mod(mods, "precise") || has_mod(mods, "mg") ||
	       has_mod(mods, "hw_smpl") ||
	       has_mod(mods, "mh") || has_mod(mods, "excl") ||
	       (perf_model && (has_mod(mods, "u") || has_mod(mods, "k") ||
			       has_mod(mods, "h")));
}

static void check_event(const struct pmu__catmodel *m,
			const struct pmu__event *ev, struct counts *c)
{
	const struct pmu__umask *u = pmu__event_umasks(m, ev);
	bool raw_h = (ev->modmsk & PMU__MODBIT(PMU__MOD_H)) &&
		     !(ev->flags & PMU__EV_PERF_HV);
	char s[512];

	snprintf(s, sizeof(s), "%s::%s", m->name, pmu__ev_name(m, ev));
	cmp_raw(s, c);
	cmp_raw_only(s, c);
	cmp_perf(s, c, false);
	for (int i = 0; i < ev->numasks; i++) {
		snprintf(s, sizeof(s), "%s::%s:%s", m->name, pmu__ev_name(m, ev),
			 pmu__um_name(m, &u[i]));
		cmp_raw(s, c);
		cmp_perf(s, c, false);
	}
	/* Pairs of umasks: groups, exclusions and defaults of other groups. */
	for (int i = 0; i < ev->numasks && i < 12; i++)
		for (int j = i + 1; j < ev->numasks && j < 12; j++) {
			snprintf(s, sizeof(s), "%s::%s:%s:%s", m->name,
				 pmu__ev_name(m, ev), pmu__um_name(m, &u[j]),
				 pmu__um_name(m, &u[i]));
			cmp_raw(s, c);
		}
	for (size_t i = 0; i < sizeof(mod_sets) / sizeof(mod_sets[0]); i++) {
		snprintf(s, sizeof(s), "%s::%s%s", m->name, pmu__ev_name(m, ev),
			 mod_sets[i]);
		if (!perf_only(mod_sets[i], m->kind == PMU__ENC_PERF ||
					   m->kind == PMU__ENC_PERF_RAW))
			cmp_raw(s, c);
		cmp_raw_only(s, c);
		cmp_perf(s, c, raw_h && has_mod(mod_sets[i], "h"));
	}
}

/* ---- hard strings: generated probes of every class ---- */

/* One probe: raw, raw-only and perf encodings against libpfm4's. */
static void probe(const struct pmu__catmodel *m, const struct pmu__event *ev,
		  enum hard cls, struct counts *c, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void probe(const struct pmu__catmodel *m, const struct pmu__event *ev,
		  enum hard cls, struct counts *c, const char *fmt, ...)
{
	bool perf_model = m->kind == PMU__ENC_PERF ||
			  m->kind == PMU__ENC_PERF_RAW;
	bool raw_h = (ev->modmsk & PMU__MODBIT(PMU__MOD_H)) &&
		     !(ev->flags & PMU__EV_PERF_HV);
	char s[512], tail[400];
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(tail, sizeof(tail), fmt, ap);
	va_end(ap);
	n = snprintf(s, sizeof(s), "%s::%s%s", m->name, pmu__ev_name(m, ev),
		     tail);
	if (n < 0 || (size_t)n >= sizeof(s))
		return;
	c->cls = cls;
	if (!perf_only(tail, perf_model))
		cmp_raw(s, c);
	cmp_raw_only(s, c);
	cmp_perf(s, c, raw_h && has_mod(tail, "h"));
	c->cls = H_NONE;
}

/* The first n umasks of ev that are not aliases. */
static int plain_umasks(const struct pmu__catmodel *m,
			const struct pmu__event *ev, const char **names,
			int n)
{
	const struct pmu__umask *u = pmu__event_umasks(m, ev);
	int k = 0;

	for (int i = 0; i < ev->numasks && k < n; i++)
		if (!u[i].equiv)
			names[k++] = pmu__um_name(m, &u[i]);
	return k;
}

static void hard_umasks(const struct pmu__catmodel *m,
			const struct pmu__event *ev, struct counts *c)
{
	/* also past the offcore response register's 38 bits and past
	 * 64 bits (strtoull()'s limit).  (Up to 38 bits libpfm4's full
	 * string keeps only the low 32 bits of the value: see
	 * docs/decisions.md.) */
	static const char *const wide[] = { "0x100", "0x1ff", "0xffff",
					    "0x12345", "0x10001",
					    "0x7fffffffff",
					    "0x1ffffffffffffffff" };
	const char *um[3];
	int nu = plain_umasks(m, ev, um, 3);

	for (size_t i = 0; i < sizeof(wide) / sizeof(wide[0]); i++)
		probe(m, ev, H_WIDE, c, ":%s", wide[i]);
	probe(m, ev, H_ZERO, c, ":0x0");
	probe(m, ev, H_ZERO, c, ":0x00:u");
	probe(m, ev, H_ZERO, c, ":0x0:k=1");
	if (!nu)
		return;
	probe(m, ev, H_MIXED, c, ":%s:0x1", um[0]);
	probe(m, ev, H_MIXED, c, ":0x1:%s", um[0]);
	probe(m, ev, H_MIXED, c, ":%s=1", um[0]);
	probe(m, ev, H_MIXED, c, ":%s=0", um[0]);
	probe(m, ev, H_MIXED, c, ":%s:%s", um[0], um[0]);
	if (nu == 3)
		probe(m, ev, H_MIXED, c, ":%s:%s:%s", um[0], um[1], um[2]);
	probe(m, ev, H_MALFORMED, c, ":%s:", um[0]);
	probe(m, ev, H_MALFORMED, c, "::%s", um[0]);
	probe(m, ev, H_MALFORMED, c, ":%s::u", um[0]);
}

/* Boolean modifiers of ev, model ones and the perf ones it takes. */
static int bools_of(const struct pmu__catmodel *m, const struct pmu__event *ev,
		    const char **names, int max)
{
	int n = 0;

	for (int k = 0; k < PMU__MOD_NR && n < max; k++) {
		const struct pmu__moddesc *d = pmu__mod_desc(m->kind, k);
		if (d && !d->is_int && (ev->modmsk & PMU__MODBIT(k)))
			names[n++] = d->name;
	}
	if (m->kind != PMU__ENC_SEED && n + 3 <= max) {
		names[n++] = "excl";
		names[n++] = "mg";
		names[n++] = "mh";
	}
	return n;
}

static void hard_bools(const struct pmu__catmodel *m,
		       const struct pmu__event *ev, uint32_t idx,
		       struct counts *c)
{
	static const char *const vals[] = {
		"y", "n", "Y", "N", "yes", "no", "true", "0x1", "2", "-1",
		"", "01", "00", "1 ", "+1", "0x0",
	};
	const char *b[16];
	int nb = bools_of(m, ev, b, 16);

	if (!nb)
		return;
	/* every value for one of its booleans, a rotating one */
	for (size_t v = 0; v < sizeof(vals) / sizeof(vals[0]); v++)
		probe(m, ev, H_BOOL, c, ":%s=%s", b[idx % (uint32_t)nb],
		      vals[v]);
}

static void hard_malformed(const struct pmu__catmodel *m,
			   const struct pmu__event *ev, struct counts *c)
{
	static const char *const tails[] = {
		"::", ":", ":=1", ":=", ":u::k", ":u:", ":c=", ":u=",
	};

	for (size_t i = 0; i < sizeof(tails) / sizeof(tails[0]); i++)
		probe(m, ev, H_MALFORMED, c, "%s", tails[i]);
}

/* A umask whose code fixes the counter mask (Intel: bits 16+), or -1. */
static int fixed_c_umask(const struct pmu__catmodel *m,
			 const struct pmu__event *ev, unsigned *cval)
{
	const struct pmu__umask *u = pmu__event_umasks(m, ev);

	if (m->kind != PMU__ENC_INTEL)
		return -1;
	for (int i = 0; i < ev->numasks; i++)
		if (!u[i].equiv && (u[i].code >> 16 & 0xff) &&
		    !(u[i].flags & (PMU__UM_LDLAT | PMU__UM_FETHR))) {
			*cval = (unsigned)(u[i].code >> 16 & 0xff);
			return i;
		}
	return -1;
}

static void hard_perf(const struct pmu__catmodel *m,
		      const struct pmu__event *ev, struct counts *c)
{
	static const char *const tails[] = {
		":precise=4", ":precise=-1", ":precise=0x2", ":precise=",
		":precise=1:precise=2", ":precise=1:precise=1",
		":excl:excl=0", ":mg=1:mg=0", ":mh=0:mh=1", ":c=1:c=2",
		":c=1:c=1", ":c=256", ":c=0x100", ":u=1:u=0",
	};
	const struct pmu__umask *u = pmu__event_umasks(m, ev);
	unsigned cv = 0;
	int fc;

	for (size_t i = 0; i < sizeof(tails) / sizeof(tails[0]); i++)
		probe(m, ev, H_PERF, c, "%s", tails[i]);
	if ((fc = fixed_c_umask(m, ev, &cv)) < 0)
		return;
	probe(m, ev, H_PERF, c, ":%s:c=%u", pmu__um_name(m, &u[fc]), cv);
	probe(m, ev, H_PERF, c, ":%s:c=%u", pmu__um_name(m, &u[fc]), cv + 1);
	probe(m, ev, H_PERF, c, ":%s:c=%u:c=%u", pmu__um_name(m, &u[fc]), cv,
	      cv + 1);
	probe(m, ev, H_PERF, c, ":%s:c=256", pmu__um_name(m, &u[fc]));
}

/* A umask alias (a name for umasks and modifiers, "STALL_CYCLES" for
 * "ANY:c=1:i=1"): with the umask it names again, with itself, and with
 * the modifiers it sets given twice.  libpfm4 removes an attribute
 * given twice alike, and then does not compare the one after it, so
 * some repeats of another value it lets through (hard_kept(): a umask
 * it keeps twice). */
static void hard_alias(const struct pmu__catmodel *m,
		       const struct pmu__event *ev, struct counts *c)
{
	const struct pmu__umask *u = pmu__event_umasks(m, ev);
	const char *alias = NULL, *eq = NULL;
	char first[64];
	size_t n;

	for (int i = 0; i < ev->numasks && !alias; i++)
		if ((eq = pmu__str(m, u[i].equiv)) && *eq && !strchr(eq, '.'))
			alias = pmu__um_name(m, &u[i]);
	if (!alias)
		return;
	n = strcspn(eq, ":");
	if (n >= sizeof(first))
		return;
	memcpy(first, eq, n);
	first[n] = '\0';
	probe(m, ev, H_ALIAS, c, ":%s:%s", first, alias);
	probe(m, ev, H_ALIAS, c, ":%s:%s", alias, alias);
	for (const char *const *t = (const char *const[]){ ":c=1:c=3",
			":c=2:c=1", ":i=1:i=0", ":c=1:i=0", ":e=0:e=1", NULL };
	     *t; t++)
		probe(m, ev, H_ALIAS, c, ":%s%s", alias, *t);
}

/* A umask given three times, itself or through aliases, in every
 * order: libpfm4's pass over the list removes the second copy and steps
 * past the third, which so counts twice in its group, an error for the
 * umasks that combine with no other of their group. */
static void hard_kept(const struct pmu__catmodel *m,
		      const struct pmu__event *ev, struct counts *c)
{
	const struct pmu__umask *u = pmu__event_umasks(m, ev);
	const char *plain[3], *alias[2], *eq;
	char first[64];
	int np = plain_umasks(m, ev, plain, 3), na = 0;
	size_t n;

	for (int i = 0; i < np; i++)
		probe(m, ev, H_KEPT, c, ":%s:%s:%s", plain[i], plain[i],
		      plain[i]);
	for (int i = 0; i < ev->numasks && na < 2; i++)
		if ((eq = pmu__str(m, u[i].equiv)) && *eq && !strchr(eq, '.'))
			alias[na++] = pmu__um_name(m, &u[i]);
	if (!na)
		return;
	eq = pmu__str(m, pmu__event_umasks(m, ev)[0].equiv);
	for (int i = 0; i < ev->numasks; i++)
		if (!strcmp(pmu__um_name(m, &u[i]), alias[0]))
			eq = pmu__str(m, u[i].equiv);
	n = strcspn(eq, ":");
	if (n >= sizeof(first))
		return;
	memcpy(first, eq, n);
	first[n] = '\0';
	probe(m, ev, H_KEPT, c, ":%s:%s:%s", first, alias[0], alias[0]);
	probe(m, ev, H_KEPT, c, ":%s:%s:%s", alias[0], first, alias[0]);
	probe(m, ev, H_KEPT, c, ":%s:%s:%s", alias[0], alias[0], first);
	if (na < 2)
		return;
	probe(m, ev, H_KEPT, c, ":%s:%s:%s", first, alias[0], alias[1]);
	probe(m, ev, H_KEPT, c, ":%s:%s:%s", alias[1], first, alias[0]);
	probe(m, ev, H_KEPT, c, ":%s:%s:%s", alias[0], alias[1], first);
}

static void check_hard(const struct pmu__catmodel *m,
		       const struct pmu__event *ev, uint32_t idx,
		       struct counts *c)
{
	hard_alias(m, ev, c);
	hard_kept(m, ev, c);
	hard_umasks(m, ev, c);
	hard_bools(m, ev, idx, c);
	hard_malformed(m, ev, c);
	hard_perf(m, ev, c);
}

/* The modifiers a listing shows for a perf event, comma-separated: what
 * libpfm4's perf_event layer offers (PFM_OS_PERF_EVENT, umasks left out)
 * against what pmu_catalog_attr_info() gives after the umasks. */
static void pfm_perf_mods(const char *s, char *b, size_t n)
{
	pfm_event_info_t ei = { .size = sizeof(ei) };
	int idx = pfm_find_event(s);
	size_t l = 0;

	b[0] = '\0';
	if (idx < 0 || pfm_get_event_info(idx, PFM_OS_PERF_EVENT, &ei))
		return;
	for (int a = 0; a < ei.nattrs; a++) {
		pfm_event_attr_info_t ai = { .size = sizeof(ai) };
		if (pfm_get_event_attr_info(idx, a, PFM_OS_PERF_EVENT, &ai) ||
		    ai.type == PFM_ATTR_UMASK)
			continue;
		l += (size_t)snprintf(b + l, n - l, "%s%s", l ? "," : "",
				      ai.name);
	}
}

static void pmu_perf_mods(int m, int ev, char *b, size_t n)
{
	struct pmu_event_info ei = { .size = sizeof(ei) };
	size_t l = 0;

	b[0] = '\0';
	assert_int_equal(pmu_catalog_event_info(m, ev, &ei), 0);
	for (size_t a = ei.numasks; a < ei.nattrs; a++) {
		struct pmu_attr_info ai = { .size = sizeof(ai) };
		assert_int_equal(pmu_catalog_attr_info(m, ev, a, &ai), 0);
		l += (size_t)snprintf(b + l, n - l, "%s%s", l ? "," : "",
				      ai.name);
	}
}

static void cmp_perf_mods(const struct pmu__catmodel *m, struct counts *c)
{
	int mi = pmu_catalog_find(m->name);
	char s[160], want[160], got[160];

	for (uint32_t i = 0; i < m->nevents; i++) {
		snprintf(s, sizeof(s), "%s::%s", m->name,
			 pmu__ev_name(m, &m->events[i]));
		pfm_perf_mods(s, want, sizeof(want));
		pmu_perf_mods(mi, (int)i, got, sizeof(got));
		c->compared++;
		if (strcmp(want, got))
			mismatch(c, s, "listed modifiers", want, got);
	}
}

static bool force(const char *name)
{
	pfm_pmu_info_t pi;

	pfm_terminate();
	setenv("LIBPFM_FORCE_PMU", name, 1);
	if (pfm_initialize() != PFM_SUCCESS)
		return false;
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(p, &pi) == PFM_SUCCESS &&
		    !strcmp(pi.name, name))
			return pi.is_present;
	}
	return false;
}

static void test_model(void **state)
{
	const struct pmu__catmodel *m = *state;
	struct counts c = { 0 };

	if (!force(m->name))
		skip();
	diag_budget = getenv("ORACLE_DIAG") ? atoi(getenv("ORACLE_DIAG")) : 12;
	for (uint32_t i = 0; i < m->nevents; i++)
		check_event(m, &m->events[i], &c);
	for (uint32_t i = 0; i < m->nevents; i++)
		check_hard(m, &m->events[i], i, &c);
	if (m->kind == PMU__ENC_PERF || m->kind == PMU__ENC_PERF_RAW)
		cmp_perf_mods(m, &c);
	printf("# %s: %u encodings compared, %u differ\n", m->name,
	       c.compared, c.mismatched);
	for (int h = H_WIDE; h < H_NR; h++)
		printf("#   %s: %u compared, %u differ\n", hard_names[h],
		       c.hc[h], c.hm[h]);
	assert_true(c.compared > 0);
	assert_int_equal(c.mismatched, 0);
}

int main(void)
{
	size_t n;
	const struct pmu__catmodel *const *ms = pmu__catalog_models(&n);
	struct CMUnitTest tests[64];
	size_t nt = 0;

	/* ORACLE_MODELS=a,b limits the run, for debugging one model. */
	const char *only = getenv("ORACLE_MODELS");

	/*
	 * libpfm4 keeps state across pfm_terminate(): once another PMU was
	 * forced, perf's events change behaviour (the hypervisor level).  Run
	 * perf and perf_raw first, as a process forcing only them sees them.
	 */
	for (size_t pass = 0; pass < 2; pass++)
	for (size_t i = 0; i < n && nt < 64; i++) {
		bool perf = ms[i]->kind == PMU__ENC_PERF ||
			    ms[i]->kind == PMU__ENC_PERF_RAW;
		/* seed and kernel pmu-events models are not libpfm4's */
		if (perf != (pass == 0) || ms[i]->kind == PMU__ENC_SEED ||
		    ms[i]->arch != PMU__ARCH_NONE ||
		    (only && !strstr(only, ms[i]->name)))
			continue;
		tests[nt] = (struct CMUnitTest)cmocka_unit_test(test_model);
		tests[nt].name = ms[i]->name;
		tests[nt].initial_state = (void *)ms[i];
		nt++;
	}
	return _cmocka_run_group_tests("encode-oracle", tests, nt, NULL, NULL);
}
