/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "events/catalog_seed.h"
#include "events/encode.h"
#include "events/jsondir.h"
#include "util/error.h"
#include "util/opts.h"
#include "util/outstruct.h"
#include "util/nearest.h"

static const char *const pmod_names[PMU__PMOD_NR] = {
	[PMU__PMOD_U] = "u", [PMU__PMOD_K] = "k", [PMU__PMOD_H] = "h",
	[PMU__PMOD_PRECISE] = "precise", [PMU__PMOD_EXCL] = "excl",
	[PMU__PMOD_MG] = "mg", [PMU__PMOD_MH] = "mh",
	[PMU__PMOD_HW_SMPL] = "hw_smpl",
};

/* Nearest umask or modifier name to `tok`, for "did you mean". */
/* Umask, modifier and event names of a model are offered up to this
 * distance whatever their length. */
#define NEAR_LIMIT 3

static const char *near_attr(const struct pmu__enc_req *r, const char *tok)
{
	const struct pmu__umask *u = pmu__event_umasks(r->m, r->ev);
	struct pmu__nearest near;

	pmu__nearest_init(&near, tok, NEAR_LIMIT);
	for (int i = 0; i < r->ev->numasks; i++)
		pmu__nearest_offer(&near, pmu__um_name(r->m, &u[i]));
	for (int m = 0; m < PMU__MOD_NR; m++) {
		const struct pmu__moddesc *md = pmu__mod_desc(r->m->kind, m);

		if (md && (r->ev->modmsk & PMU__MODBIT(m)))
			pmu__nearest_offer(&near, md->name);
	}
	return near.best;
}

/*
 * Values as libpfm4 reads them: an integer is what strtoull() takes,
 * whole (so "+1" and " 1" pass, "-1" wraps past any limit); a boolean is
 * one character of y, t, 1 or n, f, 0 in either case.
 */
static int parse_int(const char *s, uint64_t *v)
{
	char *end;

	if (!*s)
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno == ERANGE)
		*v = UINT64_MAX;
	return *end ? -1 : 0;
}

static int parse_bool(const char *s, uint64_t *v)
{
	if (!s[0] || s[1])
		return -1;
	switch (s[0]) {
	case 'y': case 'Y': case 't': case 'T': case '1':
		*v = 1;
		return 0;
	case 'n': case 'N': case 'f': case 'F': case '0':
		*v = 0;
		return 0;
	}
	return -1;
}

/* The first error of a kind libpfm4 reports after parsing. */
struct attr_tok {
	char name[64];
	const char *val;      /* NULL when no '=' */
	const char *text;     /* whole token, for messages */
};

static void late(struct pmu__enc_req *r, enum pmu_error_kind k,
		 const struct attr_tok *t, uint64_t max)
{
	if (r->late == PMU_ERR_REPEATED ||
	    (r->late && k != PMU_ERR_REPEATED))
		return;
	r->late = k;
	r->late_max = max;
	pmu__strlcpy(r->late_tok, t->text, sizeof(r->late_tok));
	pmu__strlcpy(r->late_name, t->name, sizeof(r->late_name));
}

/* Every attribute goes to the request's list, in order: whether one is
 * repeated with another value is decided on the whole list (libpfm4's
 * rule, see repeated()).  The value in effect is the last one given. */
static void log_attr(struct pmu__enc_req *r, unsigned kind, unsigned id,
		     uint64_t v)
{
	if (r->nseq < PMU__ENC_MAX_SEQ)
		r->seq[r->nseq] = (struct pmu__enc_attr){ (uint8_t)kind,
							  (uint16_t)id, v };
	r->nseq++;
}

static int set_value(struct pmu__enc_req *r, uint64_t *slot, uint32_t *set,
		     unsigned bit, uint64_t v, const struct attr_tok *t,
		     unsigned kind)
{
	/* past the list's room, the plain rule: one value each */
	if (r->nseq >= PMU__ENC_MAX_SEQ && (*set & (1u << bit)) && *slot != v)
		late(r, PMU_ERR_REPEATED, t, 0);
	log_attr(r, kind, bit, v);
	*slot = v;
	*set |= 1u << bit;
	return 0;
}

/* libpfm4's pass over the list: each attribute against the ones after
 * it, an identical one removed (and the attribute that moves into its
 * place not compared with this one: libpfm4 steps past it), one of the
 * same name with another value an error.  Returns the index of the
 * later of two conflicting attributes, or -1.  (A umask libpfm4 keeps
 * twice this way counts twice in its group: pmu__enc_kept_twice().) */
int pmu__enc_kept_twice(const struct pmu__enc_req *r, uint16_t *ids, int max)
{
	int n = r->nseq < PMU__ENC_MAX_SEQ ? r->nseq : PMU__ENC_MAX_SEQ, k = 0;

	for (int i = 0; i < n; i++)
		for (int j = i + 1; r->seq[i].kind == 0 && j < n; j++)
			if (r->seq[j].kind == 0 && r->seq[j].id == r->seq[i].id &&
			    k < max)
				ids[k++] = r->seq[i].id;
	return k;
}

static int repeated(struct pmu__enc_req *r)
{
	int n = r->nseq < PMU__ENC_MAX_SEQ ? r->nseq : PMU__ENC_MAX_SEQ;
	struct pmu__enc_attr *a = r->seq;

	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			if (a[i].kind != a[j].kind || a[i].id != a[j].id)
				continue;
			if (a[i].v != a[j].v)
				return j;
			memmove(&a[j], &a[j + 1], (size_t)(n - j - 1) * sizeof(*a));
			n--;
		}
	r->nseq = n;
	return -1;
}

static int add_umask(struct pmu__enc_req *r, int idx)
{
	for (int i = 0; i < r->nu; i++)
		if (r->um[i] == idx)
			return 0;
	if (r->nu == PMU__ENC_MAX_UMASKS)
		return -1;
	int i = r->nu++;
	while (i > 0 && r->um[i - 1] > idx) {
		r->um[i] = r->um[i - 1];
		i--;
	}
	r->um[i] = (uint16_t)idx;
	return 0;
}

static int find_umask(const struct pmu__enc_req *r, const char *name)
{
	const struct pmu__umask *u = pmu__event_umasks(r->m, r->ev);

	for (int i = 0; i < r->ev->numasks; i++)
		if (!strcasecmp(pmu__um_name(r->m, &u[i]), name))
			return i;
	return -1;
}

static int apply_mod(struct pmu__enc_req *r, const struct attr_tok *t,
		     struct pmu_encoding *out, struct pmu_error *err);
static int parse_attrs(struct pmu__enc_req *r, const char *s,
		       struct pmu_encoding *out, struct pmu_error *err);

static int find_mod(const struct pmu__enc_req *r, const char *name);

/* What one list of attributes has named so far: libpfm4 forbids a raw
 * umask beside a named one within a list, not across the lists of an
 * alias and of the string. */
struct attr_seen {
	bool raw, umask;
};

/* "0x..": one raw umask, alone, of a model that takes them. */
static int apply_raw(struct pmu__enc_req *r, const struct attr_tok *t,
		     struct attr_seen *seen, struct pmu_encoding *out,
		     struct pmu_error *err)
{
	uint64_t v;

	if (seen->raw || seen->umask)
		return pmu__encode_fail(out, err, PMU_ERR_BAD_MODIFIER, t->text,
			"%s: a raw umask '%s' cannot be combined with another "
			"umask", pmu__req_name(r), t->name);
	/* ESCR event masks are named bits: netburst takes no raw umask;
	 * nor do perf's events, whose raw codes are the event itself */
	if (r->m->kind == PMU__ENC_PERF || r->m->kind == PMU__ENC_PERF_RAW ||
	    r->m->kind == PMU__ENC_NETBURST || parse_int(t->name, &v))
		return pmu__encode_fail(out, err, PMU_ERR_BAD_MODIFIER, t->text,
			"%s takes no raw umask '%s'", pmu__req_name(r),
			t->name);
	if (t->val)
		return pmu__encode_fail(out, err, PMU_ERR_BAD_VALUE, t->text,
			"raw umask '%s' takes no value", t->name);
	/* past 64 bits strtoull() stops at its largest value: never
	 * a number the user did not type */
	if (errno == ERANGE)
		return pmu__encode_fail(out, err, PMU_ERR_BAD_MODIFIER, t->text,
			"%s: raw umask '%s' is wider than 64 bits",
			pmu__req_name(r), t->name);
	r->raw = v;
	r->has_raw = true;
	seen->raw = true;
	return 0;
}

static int apply_attr(struct pmu__enc_req *r, const struct attr_tok *t,
		      struct attr_seen *seen, struct pmu_encoding *out,
		      struct pmu_error *err)
{
	int u;

	if (t->name[0] == '0' && (t->name[1] | 0x20) == 'x')
		return apply_raw(r, t, seen, out, err);
	/* umasks take no value: "NAME=v" is a modifier or nothing (P6 MESI
	 * umasks E and I beside the modifiers e and i) */
	u = t->val ? -1 : find_umask(r, t->name);
	if (u < 0)
		return apply_mod(r, t, out, err);
	if (seen->raw)
		return pmu__encode_fail(out, err, PMU_ERR_BAD_MODIFIER, t->text,
			"%s: umask '%s' cannot be combined with a raw umask",
			pmu__req_name(r), t->name);
	seen->umask = true;
	const struct pmu__umask *um = &pmu__event_umasks(r->m, r->ev)[u];
	const char *eq = pmu__str(r->m, um->equiv);
	/* An alias stands for its umasks and modifiers (possibly aliases
	 * again), which full strings spell out. */
	if (eq && r->equiv_depth < 4) {
		r->equiv_depth++;
		int ret = parse_attrs(r, eq, out, err);
		r->equiv_depth--;
		return ret;
	}
	if (add_umask(r, u))
		return pmu__encode_fail(out, err, PMU_ERR_SYNTAX, t->text,
					"too many umasks");
	log_attr(r, 0, (unsigned)u, 0);
	return 0;
}
static int find_mod(const struct pmu__enc_req *r, const char *name)
{
	for (int m = 0; m < PMU__MOD_NR; m++) {
		const struct pmu__moddesc *md = pmu__mod_desc(r->m->kind, m);
		if (md && (r->ev->modmsk & PMU__MODBIT(m)) &&
		    !strcasecmp(md->name, name))
			return m;
	}
	return -1;
}

static int find_pmod(const char *name)
{
	for (int m = 0; m < PMU__PMOD_NR; m++)
		if (!strcasecmp(pmod_names[m], name))
			return m;
	return -1;
}

/* Perf modifiers an event takes besides its model's own. */
static bool pmod_ok(const struct pmu__enc_req *r, int p)
{
	bool perf = r->m->kind == PMU__ENC_PERF ||
		    r->m->kind == PMU__ENC_PERF_RAW;

	switch (p) {
	case PMU__PMOD_U:
	case PMU__PMOD_K:
		return perf;
	case PMU__PMOD_H:
		return perf && (r->ev->flags & PMU__EV_PERF_HV);
	case PMU__PMOD_PRECISE:
		return r->ev->flags & PMU__EV_PREC;
	case PMU__PMOD_HW_SMPL:
		return r->ev->flags & PMU__EV_HW_SMPL;
	default:
		return r->m->kind != PMU__ENC_SEED;
	}
}

static int bad_value(const struct pmu__enc_req *r, const char *tok,
		     const char *name, uint64_t max, struct pmu_encoding *out,
		     struct pmu_error *err)
{
	return pmu__encode_fail(out, err, PMU_ERR_BAD_VALUE, tok,
		"modifier '%s' of %s needs a value from 0 to %llu%s", name,
		pmu__req_name(r), (unsigned long long)max,
		max == 1 ? " (or y, n, t, f)" : "");
}

/*
 * A modifier's value: booleans default to 1; a value that does not read
 * is an error now, one out of range later (libpfm4 checks ranges once
 * every attribute has parsed).
 */
static int mod_value(struct pmu__enc_req *r, const struct attr_tok *t,
		     bool is_int, uint64_t max, uint64_t *v,
		     struct pmu_encoding *out, struct pmu_error *err)
{
	if (!t->val && !is_int) {
		*v = 1;
		return 0;
	}
	if (!t->val || (is_int ? parse_int(t->val, v) : parse_bool(t->val, v)))
		return bad_value(r, t->text, t->name, max, out, err);
	if (*v > max)
		late(r, PMU_ERR_BAD_VALUE, t, max);
	return 0;
}

static int apply_mod(struct pmu__enc_req *r, const struct attr_tok *t,
		     struct pmu_encoding *out, struct pmu_error *err)
{
	int m = find_mod(r, t->name), p, ret;
	uint64_t v;

	if (m >= 0) {
		const struct pmu__moddesc *md = pmu__mod_desc(r->m->kind, m);
		ret = mod_value(r, t, md->is_int, md->max, &v, out, err);
		if (ret)
			return ret;
		if (!v && (m == PMU__MOD_LDLAT || m == PMU__MOD_FE_THRES))
			late(r, PMU_ERR_BAD_VALUE, t, md->max);
		return set_value(r, &r->mod[m], &r->modset, (unsigned)m, v, t,
				 1);
	}
	/* Raw-only encodings know no perf_event modifiers at all. */
	p = r->raw_only ? -1 : find_pmod(t->name);
	if (p >= 0 && pmod_ok(r, p)) {
		uint64_t max = p == PMU__PMOD_PRECISE ? 3 : 1;
		enum pmu_error_kind keep = r->late;
		ret = mod_value(r, t, p == PMU__PMOD_PRECISE, max, &v, out,
				err);
		if (ret)
			return ret;
		/* libpfm4's perf layer checks its ranges after the PMU's
		 * encoding */
		if (v > max && r->late != keep) {
			r->late = keep;
			r->perf_late = true;
			pmu__strlcpy(r->perf_late_tok, t->text,
				     sizeof(r->perf_late_tok));
		}
		return set_value(r, &r->pmod[p], &r->pmodset, (unsigned)p, v,
				 t, 2);
	}
	const char *near = near_attr(r, t->name);
	return pmu__encode_fail(out, err, PMU_ERR_BAD_MODIFIER, t->text,
		"%s has no umask or modifier '%s'%s%s%s%s", pmu__req_name(r),
		t->name, t->val && find_umask(r, t->name) >= 0 ?
		" taking a value (a umask takes none)" : "",
		near ? " (did you mean '" : "", near ? near : "",
		near ? "'?)" : "");
}

/* The attribute [s, e) into t: "name" or "name=value". */
static int split_attr(const char *s, const char *e, struct attr_tok *t,
		      char *text, size_t tsz)
{
	size_t n = (size_t)(e - s);
	const char *eq;

	if (n >= tsz)
		n = tsz - 1;
	memcpy(text, s, n);
	text[n] = '\0';
	eq = strchr(text, '=');
	t->text = text;
	t->val = eq ? eq + 1 : NULL;
	n = eq ? (size_t)(eq - text) : n;
	if (n == 0 || n >= sizeof(t->name) || (size_t)(e - s) >= tsz)
		return -1;
	memcpy(t->name, text, n);
	t->name[n] = '\0';
	return 0;
}

/*
 * Attributes after the event name, separated by ':' or '.' as libpfm4
 * separates them: every separator opens one, so "EV:", "EV::U" and
 * "EV:=1" name an attribute with no name, which no event has.  s is
 * NULL when the name had no separator after it.
 */
static int parse_attrs(struct pmu__enc_req *r, const char *s,
		       struct pmu_encoding *out, struct pmu_error *err)
{
	struct attr_seen seen = { false, false };

	while (s) {
		const char *e = s + strcspn(s, ":."), *start = s;
		struct attr_tok t;
		char text[128];
		int ret;

		s = *e ? e + 1 : NULL;
		if (split_attr(start, e, &t, text, sizeof(text)))
			return pmu__encode_fail(out, err, PMU_ERR_BAD_MODIFIER,
				start, "%s has no attribute '%.*s'",
				pmu__req_name(r), (int)(e - start), start);
		ret = apply_attr(r, &t, &seen, out, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* Two values of one modifier in the list (repeated()). */
static int repeated_error(const struct pmu__enc_req *r, int j,
			  struct pmu_encoding *out, struct pmu_error *err)
{
	const struct pmu__enc_attr *a = &r->seq[j];
	const struct pmu__moddesc *md = a->kind == 1 ?
		pmu__mod_desc(r->m->kind, a->id) : NULL;
	const char *name = md ? md->name : a->kind == 2 ? pmod_names[a->id]
							 : "?";
	char tok[96];

	snprintf(tok, sizeof(tok), "%s=%llu", name, (unsigned long long)a->v);
	return pmu__encode_fail(out, err, PMU_ERR_REPEATED, tok,
		"modifier '%s' of %s is given twice with different values",
		name, pmu__req_name(r));
}

/* What libpfm4 finds wrong once the attributes have all parsed. */
static int late_error(const struct pmu__enc_req *r, struct pmu_encoding *out,
		      struct pmu_error *err)
{
	if (r->late == PMU_ERR_REPEATED)
		return pmu__encode_fail(out, err, PMU_ERR_REPEATED, r->late_tok,
			"modifier '%s' of %s is given twice with different "
			"values", r->late_name, pmu__req_name(r));
	return pmu__encode_fail(out, err, PMU_ERR_BAD_VALUE, r->late_tok,
		"modifier '%s' of %s needs a value from %s to %llu",
		r->late_name, pmu__req_name(r),
		!strcmp(r->late_name, "ldlat") ||
		!strcmp(r->late_name, "fe_thres") ? "1" : "0",
		(unsigned long long)r->late_max);
}

static int not_found(const struct pmu__catmodel *m, const char *name,
		     struct pmu_encoding *out, struct pmu_error *err)
{
	struct pmu__nearest near;
	const char *best;

	pmu__nearest_init(&near, name, NEAR_LIMIT);
	for (uint32_t i = 0; i < m->nevents; i++)
		pmu__nearest_offer(&near, pmu__ev_name(m, &m->events[i]));
	best = near.best;
	return pmu__encode_fail(out, err, PMU_ERR_UNKNOWN_EVENT, name,
		"%s has no event '%s'%s%s%s", m->name, name,
		best ? " (did you mean '" : "", best ? best : "",
		best ? "'?)" : "");
}

/* perf_raw events are "r" and 1 to 16 hex digits: the config itself. */
static const struct pmu__event *raw_event(const struct pmu__catmodel *m,
					  const char *name,
					  struct pmu__enc_req *r)
{
	size_t n = strlen(name + 1);

	if (name[0] != 'r' || n == 0 || n > 16 || !m->nevents ||
	    strspn(name + 1, "0123456789abcdefABCDEF") != n)
		return NULL;
	r->raw = strtoull(name + 1, NULL, 16);
	r->has_raw = true;
	return &m->events[0];
}

static void init_out(const struct pmu__catmodel *m, struct pmu_encoding *out)
{
	size_t sz = out->size;

	/* The string buffers only need their terminator: clearing them
	 * would cost as much as the encoding. */
	out->event[0] = '\0';
	out->ncodes = 0;
	memset(out->codes, 0, sizeof(out->codes));
	out->fstr[0] = '\0';
	out->perf_fstr[0] = '\0';
	memset(&out->has_perf, 0, offsetof(struct pmu_encoding, perf_pmu) -
	       offsetof(struct pmu_encoding, has_perf));
	out->perf_pmu[0] = '\0';
	out->sample_period = 0;
	out->size = sz;
	pmu__strlcpy(out->pmu, m->name, sizeof(out->pmu));
}

static int dispatch(const struct pmu__enc_req *r, struct pmu_encoding *out,
		    struct pmu_error *err)
{
	switch (r->m->kind) {
	case PMU__ENC_AMD64:
	case PMU__ENC_INTEL:
		return pmu__encode_x86(r, out, err);
	case PMU__ENC_NETBURST:
		return pmu__encode_netburst(r, out, err);
	case PMU__ENC_PERF:
	case PMU__ENC_PERF_RAW:
		return pmu__encode_perf(r, out, err);
	case PMU__ENC_CONFIG:
		return pmu__encode_config(r, out, err);
	case PMU__ENC_SEED:
		break;
	}
	if (pmu__seed_info(r->m)) {
		const struct pmu__umask *u = pmu__event_umasks(r->m, r->ev);
		uint64_t codes[PMU__ENC_MAX_UMASKS + 1];
		size_t n = 0;
		for (int i = 0; i < r->nu; i++)
			codes[n++] = u[r->um[i]].code;
		if (r->has_raw)
			codes[n++] = r->raw;
		int rc = pmu__seed_encode(r->m, r->ev, codes, n, r->mod,
					  r->modset, out, err);
		/* The callback names its reason; this is only a fallback. */
		if (rc && out->error == PMU_ERR_NONE)
			return pmu__encode_fail(out, err, PMU_ERR_BAD_VALUE,
				pmu__req_name(r), "%s cannot be encoded for %s",
				pmu__req_name(r), r->m->name);
		return rc;
	}
	return pmu__encode_fail(out, err, PMU_ERR_SYNTAX, r->m->name,
				"%s cannot encode events", r->m->name);
}

/* An alias event ("EVENT[:UMASK]") encodes as what it stands for, with
 * the string's own attributes on top, and full strings name that. */
static int expand_equiv(struct pmu__enc_req *r, struct pmu_encoding *out,
			struct pmu_error *err)
{
	const char *eq = pmu__str(r->m, r->ev->equiv);
	const struct pmu__event *t;
	size_t n;

	if (!eq || r->m->kind == PMU__ENC_PERF)
		return 0;
	n = strcspn(eq, ":");
	t = pmu__catmodel_event(r->m, eq, n);
	if (!t)
		return 0;
	r->ev = t;
	return parse_attrs(r, eq[n] ? eq + n + 1 : NULL, out, err);
}

static bool has_umask(const struct pmu__catmodel *m,
		      const struct pmu__event *ev, const char *name, size_t n)
{
	const struct pmu__umask *u = pmu__event_umasks(m, ev);

	for (int i = 0; i < ev->numasks; i++)
		if (strlen(pmu__um_name(m, &u[i])) == n &&
		    !strncasecmp(pmu__um_name(m, &u[i]), name, n))
			return true;
	return false;
}

/*
 * Models built from vendor files keep the vendor's names, in which dots
 * are part of the name: "EVENT.A.B" is stored as the event EVENT_A_B when
 * the loader split it off (its code differs from EVENT's), else as umask
 * A_B of EVENT.  The longest dotted run that names one of them wins (a
 * later '.' may still separate a modifier).  Returns the string to parse:
 * str, or buf holding it rewritten as "EVENT_A_B..." or "EVENT:A_B...".
 */
static const char *vendor_spelling(const struct pmu__catmodel *m,
				   const char *str, size_t n, char *buf,
				   size_t sz)
{
	size_t len = strlen(str), k = n + strcspn(str + n, ":");
	const struct pmu__event *base, *ev;

	if (str[n] != '.' || len >= sz)
		return str;
	base = pmu__catmodel_event(m, str, n);
	for (size_t j = k; j > n + 1; j--) {
		if (j != k && str[j] != '.')
			continue;
		memcpy(buf, str, len + 1);
		for (size_t i = n; i < j; i++)
			if (buf[i] == '.')
				buf[i] = '_';
		ev = pmu__catmodel_event(m, buf, j);
		if (ev && (ev->flags & PMU__EV_SPLIT))
			return buf;
		buf[n] = ':';
		if (base && has_umask(m, base, buf + n + 1, j - n - 1))
			return buf;
	}
	return str;
}

/*
 * A vendor name through the model's index: the longest run of the name
 * up to ':' that ends at a '.' (or at ':' or the end) and names an event
 * or umask; a later '.' may still separate a modifier ("INST_RETIRED.
 * ANY.k").  Sets *n to the run's length, *um and *attrs (what follows
 * the run's separator, NULL at the end).
 */
static const struct pmu__event *vendor_name(const struct pmu__catmodel *m,
					    const char *str, size_t *n,
					    int *um, const char **attrs)
{
	size_t k = strcspn(str, ":");

	for (size_t j = k; j > 0; j--) {
		const struct pmu__event *ev;
		if (j != k && str[j] != '.')
			continue;
		if ((ev = pmu__catmodel_vname(m, str, j, um))) {
			*n = j;
			*attrs = str[j] ? str + j + 1 : NULL;
			return ev;
		}
	}
	return NULL;
}

int pmu__encode(const struct pmu__catmodel *m, const char *str,
		const struct pmu_encode_opts *opts, struct pmu_encoding *out,
		struct pmu_error *err)
{
	struct pmu__enc_req r;
	/* The name ends at ':' or '.'; a list or a blank anywhere is
	 * libpfm4's "invalid" (one event at a time). */
	size_t n = strcspn(str, ":., \t\n");
	bool blank = str[n] && (strchr(", \t\n", str[n]) ||
				strpbrk(str + n + 1, ", \t\n"));
	char name[128], vbuf[512];
	const char *attrs = NULL;
	int ret, vum = -1, rep;

	init_out(m, out);
	/* um[] fills as it grows and eff[] is computed: skip them. */
	memset(&r.nu, 0, offsetof(struct pmu__enc_req, eff) -
	       offsetof(struct pmu__enc_req, nu));
	r.late = PMU_ERR_NONE;
	r.m = m;
	r.dfl_plm = PMU__OPTS_GET(opts, dfl_plm, 0u);
	if (!r.dfl_plm)
		r.dfl_plm = PMU_PLM_USER | PMU_PLM_KERNEL;
	r.raw_only = PMU__OPTS_GET(opts, flags, 0u) & PMU_ENCODE_RAW_ONLY;
	if (n == 0 || n >= sizeof(name) || blank)
		return pmu__encode_fail(out, err, PMU_ERR_SYNTAX, str,
					"malformed event '%s'", str);
	ret = pmu__encode_ibs_kind(str, n);
	if (ret >= 0)
		return pmu__encode_ibs(m, ret, str + n, opts, out, err);
	if (m->vhash) {
		r.ev = vendor_name(m, str, &n, &vum, &attrs);
		if (r.ev)
			goto found;
	}
	if (m->vendor_names) {
		str = vendor_spelling(m, str, n, vbuf, sizeof(vbuf));
		n = strcspn(str, ":.");
	}
	r.ev = m->kind == PMU__ENC_PERF_RAW ? NULL
					    : pmu__catmodel_event(m, str, n);
	if (!r.ev) {
		memcpy(name, str, n);
		name[n] = '\0';
		if (m->kind == PMU__ENC_PERF_RAW)
			r.ev = raw_event(m, name, &r);
		if (!r.ev)
			return not_found(m, name, out, err);
	}
	attrs = str[n] ? str + n + 1 : NULL;
	ret = expand_equiv(&r, out, err);
	if (ret)
		return ret;
found:
	if (r.ev->name_len && r.ev->name_len < sizeof(out->event))
		memcpy(out->event, pmu__req_name(&r), r.ev->name_len + 1u);
	else
		pmu__strlcpy(out->event, pmu__req_name(&r),
			     sizeof(out->event));
	if (vum >= 0 && add_umask(&r, vum))
		return pmu__encode_fail(out, err, PMU_ERR_SYNTAX, str,
					"too many umasks");
	if (vum >= 0)
		log_attr(&r, 0, (unsigned)vum, 0);
	ret = parse_attrs(&r, attrs, out, err);
	if (!ret && (rep = repeated(&r)) >= 0)
		ret = repeated_error(&r, rep, out, err);
	if (!ret && r.late)
		ret = late_error(&r, out, err);
	if (ret)
		return ret;
	pmu__encode_resolve(&r);
	ret = dispatch(&r, out, err);
	if (!ret && r.perf_late && !r.raw_only)
		ret = pmu__encode_fail(out, err, PMU_ERR_BAD_VALUE,
			r.perf_late_tok, "modifier '%s' of %s needs a value "
			"from 0 to 3", r.perf_late_tok, pmu__req_name(&r));
	return ret;
}

static const char *model_opt(const struct pmu_encode_opts *opts)
{
	const char *m = PMU__OPTS_GET(opts, model, NULL);

	return m ? m : pmu_event_host_model();
}

/* Encode into a whole struct pmu_encoding of this library's size. */
static inline __attribute__((always_inline)) int
encode_whole(const char *str, const struct pmu_encode_opts *opts,
			struct pmu_encoding *out, struct pmu_error *err)
{
	const char *dir = PMU__OPTS_GET(opts, events_dir, NULL);
	const struct pmu__catmodel *m;
	const char *sep, *mname;
	size_t mlen;

	if (!str)
		return pmu__encode_fail(out, err, PMU_ERR_SYNTAX, NULL,
					"no event given");
	if (dir)
		return pmu__encode_dir(dir, str, opts, out, err);
	pmu__jsondir_env_load();
	/* "pmu::" ends at the first ':' when there is one. */
	sep = strchr(str, ':');
	if (sep && sep[1] != ':')
		sep = strstr(sep + 1, "::");
	mname = sep ? str : model_opt(opts);
	mlen = sep ? (size_t)(sep - str) : strlen(mname);
	m = pmu__catalog_find(mname, mlen);
	if (!m) {
		const char *near = err ? pmu__catalog_suggest(mname, mlen)
				       : NULL;
		out->error = PMU_ERR_UNKNOWN_PMU;
		return pmu__error(err, -ENOENT, PMU_ERR_UNKNOWN_PMU, str, 0,
				  "unknown pmu '%.*s' in '%s'%s%s%s",
				  (int)mlen, mname, str,
				  near ? " (did you mean '" : "",
				  near ? near : "", near ? "'?)" : "");
	}
	return pmu__encode(m, sep ? sep + 2 : str, opts, out, err);
}

/*
 * A caller's struct at least as large as ours is filled in place (its
 * size and any newer fields kept: the encoder writes only ours); a
 * smaller, older one gets the prefix of a whole encoding.
 */
/* A smaller, older caller's struct: the prefix of a whole encoding. */
static __attribute__((noinline)) int
encode_prefix(const char *str, const struct pmu_encode_opts *opts,
	      struct pmu_encoding *out, struct pmu_error *err)
{
	struct pmu_encoding tmp = { .size = sizeof(tmp) };
	int ret = encode_whole(str, opts, &tmp, err);

	if (out)
		PMU__OUT(out, &tmp);
	return ret;
}

PMU_API int pmu_event_encode(const char *str,
			     const struct pmu_encode_opts *opts,
			     struct pmu_encoding *out, struct pmu_error *err)
{
	int ret = PMU__OPTS_CHECK(opts, pmu_encode_opts, err);

	if (!ret && out && !pmu__out_ok(out, out->size))
		ret = pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				 "pmu_event_encode: set out->size");
	if (ret) {
		if (out && PMU__OUT_HAS(out, error))
			out->error = PMU_ERR_USAGE;
		return ret;
	}
	if (out && out->size >= sizeof(*out))
		return encode_whole(str, opts, out, err);
	return encode_prefix(str, opts, out, err);
}
