/* SPDX-License-Identifier: MIT */
/*
 * perf-style event lists: "cycles:u,{task-clock,cs}:k,msr/tsc/,sched:x".
 *
 * The list is split into tokens by hand rather than by a grammar tool:
 * the only nesting is one level of braces, and commas inside pmu/.../
 * belong to the term list, which a scanner tracking '/' handles directly.
 * Events are parsed into a private list that is moved into the caller's
 * list only when the whole string parsed, so errors append nothing.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <pmu/event.h>
#include <pmu/metric.h>

#include "events/catalog.h"
#include "events/encode.h"
#include "events/evlist.h"
#include "events/evparse.h"
#include "events/ibs.h"
#include "util/error.h"
#include "util/sysfs_pmus.h"

#define MODS_HELP "u k h G H p pp ppp P S D I e W b"
#define KNOWN_HELP "known: generic hardware, cache and software events, " \
	"tracepoints sys:name, pmu/term=value/ and rHEX raw codes"

struct parser {
	const char *str;
	const struct pmu__parse_ctx *ctx;
	struct pmu_error *err;
	struct pmu__evlist out;
	int group;
	bool in_group;         /* parsing the members of {...} */
	char model_msg[512];   /* the default model's "no event X (did you
				  mean Y)", for a name nothing else knows */
};

/* One event as it is being built: the descriptor plus what the name
 * still needs. */
struct evbuild {
	struct pmu__ev d;
	const char *text;      /* the token, NUL-terminated */
	size_t off;            /* its byte offset in the input */
	bool own_mods;         /* the token carried modifiers */
	bool named;            /* name= term gave the name */
	uint64_t cfg[3];       /* config=, config1=, config2= (the last
				  given of each), under the format terms'
				  bits, as perf sets them */
	const struct pmu__model *core; /* pmu/.../ is this kernel model's
					  core PMU (its events are terms) */
	bool no_sysfs;         /* ... and sysfs lacks it: the formats
				  and aliases the kernel declares */
	const struct pmu__model *twin; /* a bare name of a hybrid part:
					  the other core type has it too */
	const char *print;     /* printed name when not the token's own */
	size_t name_len;       /* else the token's first name_len bytes
				  (0: all of it) */
};

static const char *sysfs_root(const struct parser *p)
{
	return p->ctx && p->ctx->sysfs_root ? p->ctx->sysfs_root
					    : PMU__SYSFS_DEFAULT;
}

static const char *tracefs_root(const struct parser *p)
{
	return p->ctx ? p->ctx->tracefs_root : NULL;
}

static int clamp_off(size_t off)
{
	return off > INT_MAX ? INT_MAX : (int)off;
}

/* Fill the error for the event being parsed; tok[0..toklen) is copied so
 * callers can name a slice of the input. */
PMU__PRINTF(7, 8)
static int fail(struct parser *p, int code, enum pmu_error_kind kind,
		const char *tok, size_t toklen, size_t off, const char *fmt, ...)
{
	char tbuf[64], msg[512];
	va_list ap;

	if (toklen >= sizeof(tbuf))
		toklen = sizeof(tbuf) - 1;
	memcpy(tbuf, tok, toklen);
	tbuf[toklen] = '\0';
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pmu__error(p->err, code, kind, tbuf, clamp_off(off), "%s", msg);
	pmu__error_index(p->err, (int)(p->out.n > INT_MAX ? INT_MAX
							    : p->out.n));
	return code;
}

static int fail_syntax(struct parser *p, size_t off, const char *what)
{
	const char *at = p->str + off;
	size_t len = strcspn(at, ",{}");

	return fail(p, -EINVAL, PMU_ERR_SYNTAX, at, len, off,
		    "%s at offset %zu of '%s'", what, off, p->str);
}

PMU__PRINTF(4, 5)
static void appendf(char *buf, size_t sz, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (*used >= sz)
		return;
	va_start(ap, fmt);
	k = vsnprintf(buf + *used, sz - *used, fmt, ap);
	va_end(ap);
	*used = k < 0 ? sz : *used + (size_t)k;
}

static bool name_encodes(const struct pmu__model *m, const char *t,
			 size_t n);

/* A perf name of other kernel models' tables (core or uncore): those
 * models, the first few, in buf ("skylakex, icelakex and 9 more"). */
static bool other_models(const char *name, char *buf, size_t sz)
{
	size_t found = 0, used = 0, n = strlen(name);

	buf[0] = '\0';
	if (!strchr(name, '.') && !strchr(name, '_'))
		return false;
	for (size_t i = 0; i < pmu__catalog_count(); i++) {
		const struct pmu__model *m = pmu__catalog_at(i);

		if (!m || m->arch == PMU__ARCH_NONE ||
		    (!pmu__uncore_find(m, name, n) && !name_encodes(m, name, n)))
			continue;
		if (found < 4)
			appendf(buf, sz, &used, "%s%s", found ? ", " : "",
				m->name);
		found++;
	}
	if (found > 4)
		appendf(buf, sz, &used, " and %zu more", found - 4);
	return found > 0;
}

static int unknown_event(struct parser *p, const char *name, size_t len,
			 size_t off)
{
	struct pmu__suggestion s[3];
	char tok[128], hint[400] = "";
	size_t n, used = 0;

	if (len >= sizeof(tok))
		len = sizeof(tok) - 1;
	memcpy(tok, name, len);
	tok[len] = '\0';
	n = pmu__event_suggest_ex(tok, p->ctx, pmu__core_host(p->ctx), s, 3);
	for (size_t i = 0; i < n; i++)
		appendf(hint, sizeof(hint), &used, "%s'%s'",
			i == 0 ? "; did you mean " : i + 1 == n ? " or " : ", ",
			s[i].name);
	if (n)
		return fail(p, -EINVAL, PMU_ERR_UNKNOWN_EVENT, tok, len, off,
			    "unknown event '%s'%s?", tok, hint);
	if (other_models(tok, hint, sizeof(hint)))
		return fail(p, -EINVAL, PMU_ERR_UNKNOWN_EVENT, tok, len, off,
			    "unknown event '%s' on this CPU: it is an event of "
			    "%s (pmu list --model M %s)", tok, hint, tok);
	return fail(p, -EINVAL, PMU_ERR_UNKNOWN_EVENT, tok, len, off,
		    "unknown event '%s' (" KNOWN_HELP ")", tok);
}

/* ---- modifiers ---- */

/* perf's rule for u/k/h (and G/H): the first one named excludes all the
 * others, each one named re-includes itself. */
static void include_priv(struct perf_event_attr *a, char c)
{
	if (!a->exclude_user && !a->exclude_kernel && !a->exclude_hv)
		a->exclude_user = a->exclude_kernel = a->exclude_hv = 1;
	if (c == 'u')
		a->exclude_user = 0;
	else if (c == 'k')
		a->exclude_kernel = 0;
	else
		a->exclude_hv = 0;
}

/* exclude_guest may already be set by default, so "first one named"
 * is kept in PMU__EV_GUEST_DEFAULT rather than read from the attr. */
static void include_virt(struct pmu__ev *d, char c)
{
	struct perf_event_attr *a = &d->attr;

	if (d->flags & PMU__EV_GUEST_DEFAULT)
		a->exclude_guest = a->exclude_host = 1;
	d->flags &= ~PMU__EV_GUEST_DEFAULT;
	if (c == 'G')
		a->exclude_guest = 0;
	else
		a->exclude_host = 0;
}

static int apply_flag(struct pmu__ev *d, char c)
{
	switch (c) {
	case 'u': case 'k': case 'h':
		include_priv(&d->attr, c);
		/* perf's rule: user-only counts leave out guests unless
		 * :G or :H said otherwise; :k and :h do not */
		if (c == 'u' && (d->flags & PMU__EV_GUEST_DEFAULT))
			d->attr.exclude_guest = 1;
		return 0;
	case 'G': case 'H':
		include_virt(d, c);
		return 0;
	case 'P':
		/* the most precise level the PMU takes, when sampling
		 * (pmu__ev_sampling); counting asks for none, as perf
		 * stat does */
		d->flags |= PMU__EV_PRECISE_MAX;
		return 0;
	case 'b':
		/* perf's "count with BPF": the same count, read without
		 * BPF here */
		return 0;
	case 'S':
		d->flags |= PMU__EV_SAMPLE_READ;
		return 0;
	case 'D':
		d->attr.pinned = 1;
		return 0;
	case 'I':
		d->attr.exclude_idle = 1;
		return 0;
	case 'e':
		d->attr.exclusive = 1;
		return 0;
	case 'W':
		/* a weak group: counted apart if it cannot be as a whole */
		d->flags |= PMU__EV_WEAK;
		return 0;
	default:
		return -EINVAL;
	}
}

/* Apply mods[0..len) to d; `tok` is the whole event token for messages. */
static int apply_mods(struct parser *p, struct pmu__ev *d,
		      const char *mods, size_t len, const char *tok,
		      size_t off)
{
	unsigned np = 0;
	char seen[sizeof(MODS_HELP)] = "";

	if (len == 0)
		return fail(p, -EINVAL, PMU_ERR_SYNTAX, tok, strlen(tok), off,
			    "missing modifier after ':' in '%s'", tok);
	for (size_t i = 0; i < len; i++) {
		/* like perf: each modifier once, but p up to three times */
		if (mods[i] != 'p' && strchr(MODS_HELP, mods[i]) &&
		    strchr(seen, mods[i]))
			return fail(p, -EINVAL, PMU_ERR_REPEATED, tok,
				    strlen(tok), off, "modifier '%c' given "
				    "twice in '%s' (each one at most once)",
				    mods[i], tok);
		if (mods[i] != 'p')
			seen[strlen(seen)] = mods[i];
		if (mods[i] == 'p') {
			if (++np > 3)
				return fail(p, -EINVAL, PMU_ERR_BAD_MODIFIER,
					    tok, strlen(tok), off,
					    "too many 'p' modifiers in '%s' (at most ppp)",
					    tok);
		} else if (apply_flag(d, mods[i])) {
			return fail(p, -EINVAL, PMU_ERR_BAD_MODIFIER, tok,
				    strlen(tok), off,
				    "unknown modifier '%c' in '%s' (valid: "
				    MODS_HELP ")", mods[i], tok);
		}
	}
	if (np && !(d->flags & PMU__EV_PRECISE_MAX))
		d->attr.precise_ip = np;
	/* precise sampling of the host alone, as perf asks for it */
	if (np && (d->flags & PMU__EV_GUEST_DEFAULT))
		d->attr.exclude_guest = 1;
	return 0;
}

static bool mods_valid(const char *mods)
{
	struct parser quiet = { .str = "" };
	struct pmu__ev d = { .scale = 1.0 };

	return apply_mods(&quiet, &d, mods, strlen(mods), mods, 0) == 0;
}

/* ---- numbers ---- */

static unsigned hexval(char c)
{
	return isdigit((unsigned char)c) ? (unsigned)(c - '0')
					 : (unsigned)(tolower((unsigned char)c) - 'a' + 10);
}

/* Decimal or 0x-hex, the whole string, no wrap-around. */
static int parse_u64(const char *s, uint64_t *v)
{
	unsigned base = 10;
	uint64_t x = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		unsigned dgt;

		if (!(base == 16 ? isxdigit((unsigned char)*s)
				 : isdigit((unsigned char)*s)))
			return -EINVAL;
		dgt = hexval(*s);
		if (x > (UINT64_MAX - dgt) / base)
			return -ERANGE;
		x = x * base + dgt;
	}
	*v = x;
	return 0;
}

/* ---- built-in names, raw codes, tracepoints ---- */

/* "r1a2" -> raw code; -ENOENT when the token is not of that form. */
static int resolve_raw(struct parser *p, const char *name, size_t len,
		       struct evbuild *b)
{
	uint64_t v = 0;

	if (len < 2 || name[0] != 'r')
		return -ENOENT;
	for (size_t i = 1; i < len; i++)
		if (!isxdigit((unsigned char)name[i]))
			return -ENOENT;
	for (size_t i = 1; i < len; i++) {
		if (v >> 60)
			return fail(p, -EINVAL, PMU_ERR_BAD_VALUE, name, len,
				    b->off, "raw code '%.*s' does not fit in 64 bits",
				    (int)len, name);
		v = v << 4 | hexval(name[i]);
	}
	b->d.attr.type = PERF_TYPE_RAW;
	b->d.attr.config = v;
	b->d.flags |= PMU__EV_HW;
	return 0;
}

/* Generic hardware, software, cache or raw event; -ENOENT if none. */
static int resolve_builtin(struct parser *p, const char *name, size_t len,
			   struct evbuild *b)
{
	const struct pmu__evname *e = pmu__evname_find(name, len);
	uint64_t config;
	int r;

	if (e) {
		b->d.attr.type = e->type;
		b->d.attr.config = e->config;
		if (e->type == PERF_TYPE_HARDWARE)
			b->d.flags |= PMU__EV_HW;
		if (e->clock) {
			snprintf(b->d.unit, sizeof(b->d.unit), "msec");
			b->d.scale = 1e-6;
		}
		b->d.tool = e->tool;
		if (e->tool)
			snprintf(b->d.unit, sizeof(b->d.unit), "ns");
		return 0;
	}
	r = pmu__cache_parse(name, len, &config);
	if (r == -EOPNOTSUPP)
		return fail(p, -EINVAL, PMU_ERR_UNKNOWN_EVENT, name, len,
			    b->off, "'%.*s' names an operation that cache does "
			    "not have (iTLB and branch only have loads, "
			    "L1-icache no stores)", (int)len, name);
	if (r == 0) {
		b->d.attr.type = PERF_TYPE_HW_CACHE;
		b->d.attr.config = config;
		b->d.flags |= PMU__EV_HW;
		return 0;
	}
	return resolve_raw(p, name, len, b);
}

static int tracepoint_error(struct parser *p, const char *name, size_t len,
			    size_t off, int r)
{
	return fail(p, r, r == -EACCES || r == -EPERM ? PMU_ERR_PERMISSION
						       : PMU_ERR_SYSTEM,
		    name, len, off, "cannot read the id of tracepoint '%.*s': %s",
		    (int)len, name, pmu_strerror(r));
}

/* "sys:name" or "sys:name:mods"; colon points at the first ':'. */
static int resolve_tracepoint(struct parser *p, struct evbuild *b,
			      const char *colon)
{
	const char *t = b->text, *ev = colon + 1, *c2 = strchr(ev, ':');
	size_t slen = (size_t)(colon - t), elen = c2 ? (size_t)(c2 - ev) : strlen(ev);
	char sys[NAME_MAX + 1], name[NAME_MAX + 1];
	uint64_t id;
	int r = -ENOENT;

	if (elen == 0)
		return fail_syntax(p, b->off + slen + 1,
				   "missing tracepoint name after ':'");
	if (slen <= NAME_MAX && elen <= NAME_MAX) {
		snprintf(sys, sizeof(sys), "%.*s", (int)slen, t);
		snprintf(name, sizeof(name), "%.*s", (int)elen, ev);
		r = pmu__tracepoint_id(tracefs_root(p), sys, name, &id);
	}
	if (r == -ENOENT && !c2 && mods_valid(ev))
		return unknown_event(p, t, slen, b->off);
	if (r == -ENOENT)
		return unknown_event(p, t, slen + 1 + elen, b->off);
	if (r < 0)
		return tracepoint_error(p, t, slen + 1 + elen, b->off, r);
	b->d.attr.type = PERF_TYPE_TRACEPOINT;
	b->d.attr.config = id;
	b->name_len = slen + 1 + elen; /* perf prints sys:name alone */
	if (!c2)
		return 0;
	b->own_mods = true;
	return apply_mods(p, &b->d, c2 + 1, strlen(c2 + 1), t, b->off);
}

/* A bare name of the context's default model ("INST_RETIRED:u"):
 * -ENOENT when it names none of its events. */
static int resolve_in(struct parser *p, struct evbuild *b, const char *model,
		      const char *text)
{
	struct pmu_error e = { .size = sizeof(e) };
	int r = pmu__catalog_resolve(model, text, &b->d, &e);

	if (r == -ENOENT || (r && e.kind == PMU_ERR_UNKNOWN_EVENT)) {
		free(b->d.spec);
		b->d.spec = NULL;
		if (r != -ENOENT)
			snprintf(p->model_msg, sizeof(p->model_msg), "%s",
				 e.message);
		return -ENOENT;
	}
	if (r)
		return fail(p, r, e.kind, e.token, strlen(e.token), b->off,
			    "%s", e.message);
	return 0;
}

/* The perf_event type of a kernel model's events: its core PMU's in
 * sysfs (hybrid and arm64 core PMUs have dynamic types), else the
 * model's. */
static void core_type(struct parser *p, const struct pmu__model *m,
		      struct pmu__ev *d)
{
	uint32_t type;

	if (m->pmu && pmu__sysfs_pmu_type(sysfs_root(p), m->pmu, &type) == 0)
		d->attr.type = type;
}

/* Does the name part (up to ':') alone encode for m? */
static bool name_encodes(const struct pmu__model *m, const char *t, size_t n)
{
	struct pmu_encoding enc = { .size = sizeof(enc) };
	char name[160];

	if (n >= sizeof(name))
		return false;
	memcpy(name, t, n);
	name[n] = '\0';
	return pmu__encode(m, name, NULL, &enc, NULL) == 0;
}

/*
 * perf's syntax for a kernel model: the whole vendor name is the event
 * and what follows ':' are perf's modifiers ("inst_retired.any:uppp");
 * a name that is not a whole event keeps the catalog's own syntax
 * ("LS_DISPATCH:LD_ST_DISPATCH:u").  The other core type of a hybrid
 * part that knows the name counts it too, as perf counts it on both.
 */
static int resolve_kernel(struct parser *p, struct evbuild *b,
			  const struct pmu__model *m)
{
	const char *t = b->text, *colon = strchr(t, ':');
	size_t n = colon ? (size_t)(colon - t) : strlen(t);
	const struct pmu__model *h = m->hybrid && !p->ctx->model_only ?
		pmu__catalog_find(m->hybrid, strlen(m->hybrid)) : NULL;
	/* whether each core type's table has the name: an encoding each */
	bool in_m = name_encodes(m, t, n), in_h = h && name_encodes(h, t, n);
	char *name;
	int r;

	/* a name only the other core type of a hybrid part has is that
	 * type's event alone ("ld_head.any_at_ret": cpu_atom's) */
	if (!in_m && in_h) {
		m = h;
		in_m = true;
		in_h = false;
	}
	if (!in_m) {
		/* a dotted name is perf's: a whole event or none */
		if (memchr(t, '.', n))
			return -ENOENT;
		r = resolve_in(p, b, m->name, t);
		b->own_mods = r == 0 && colon;
		/* the catalog's syntax: its modifiers decide */
		if (r == 0)
			b->d.flags &= ~PMU__EV_GUEST_DEFAULT;
		return r;
	}
	if (!(name = strndup(t, n)))
		return -ENOMEM;
	r = resolve_in(p, b, m->name, name);
	free(name);
	if (r)
		return r;
	/* perf's modifiers start from an attr that excludes nothing */
	b->d.attr.exclude_user = b->d.attr.exclude_kernel = 0;
	b->d.attr.exclude_hv = b->d.attr.exclude_guest = 0;
	b->d.attr.exclude_host = 0;
	core_type(p, m, &b->d);
	if (in_h)
		b->twin = h;
	if (!colon)
		return 0;
	b->own_mods = true;
	return apply_mods(p, &b->d, colon + 1, strlen(colon + 1), t, b->off);
}

static int parse_pmu_event(struct parser *p, struct evbuild *b);

/* Is name (n bytes) an event alias of m's core PMU, in sysfs or, where
 * sysfs lacks the PMU, as the kernel declares it? */
static bool core_alias(struct parser *p, const struct pmu__model *m,
		       const char *name, size_t n)
{
	struct pmu__alias a;
	char buf[NAME_MAX + 1];
	uint32_t type;

	if (!m->pmu || n >= sizeof(buf))
		return false;
	memcpy(buf, name, n);
	buf[n] = '\0';
	if (pmu__sysfs_pmu_type(sysfs_root(p), m->pmu, &type) == 0)
		return pmu__sysfs_alias(sysfs_root(p), m->pmu, buf, &a) == 0;
	return pmu__core_alias(m, buf, &a) == 0;
}

/* A bare alias of the core PMU ("topdown-retiring:u"), as perf takes it:
 * "cpu/topdown-retiring/u". */
static int resolve_alias(struct parser *p, struct evbuild *b,
			 const struct pmu__model *m)
{
	const char *t = b->text, *colon = strchr(t, ':');
	size_t n = colon ? (size_t)(colon - t) : strlen(t);
	const char *saved = t;
	char *text = NULL;
	int r;

	if (!core_alias(p, m, t, n))
		return -ENOENT;
	if (asprintf(&text, "%s/%.*s/%s", m->pmu, (int)n, t,
		     colon ? colon + 1 : "") < 0)
		return -ENOMEM;
	b->text = text;
	r = parse_pmu_event(p, b);
	b->text = saved;
	b->own_mods = colon != NULL;
	free(text);
	return r;
}

static int resolve_default(struct parser *p, struct evbuild *b)
{
	const struct pmu__model *m = NULL;
	int r;

	if (p->ctx && !p->ctx->default_model)
		m = pmu__core_host(p->ctx);
	if (m && m->arch != PMU__ARCH_NONE) {
		r = resolve_kernel(p, b, m);
		if (r == -ENOENT)
			r = resolve_alias(p, b, m);
		/* the libpfm4-named model of the same CPU: either naming */
		if (r == -ENOENT && m->twin &&
		    (r = resolve_in(p, b, m->twin, b->text)) == 0) {
			b->d.flags &= ~PMU__EV_GUEST_DEFAULT;
			b->own_mods = strchr(b->text, ':') != NULL;
		}
		/* a model found, not chosen: an unknown name gets the
		 * general message and its nearest names, not the model's */
		if (r == -ENOENT)
			p->model_msg[0] = '\0';
		return r;
	}
	if (!p->ctx || !p->ctx->default_model)
		return -ENOENT;
	r = resolve_in(p, b, p->ctx->default_model, b->text);
	if (r)
		return r;
	b->d.flags &= ~PMU__EV_GUEST_DEFAULT;
	b->own_mods = strchr(b->text, ':') != NULL;
	return 0;
}

/* A name without '/' or "::": built-in, raw, the default model's, or
 * a tracepoint. */
static int parse_named(struct parser *p, struct evbuild *b)
{
	const char *t = b->text, *colon = strchr(t, ':');
	size_t len = colon ? (size_t)(colon - t) : strlen(t);
	int r;

	if (len == 0)
		return fail_syntax(p, b->off, "missing event name before ':'");
	r = resolve_builtin(p, t, len, b);
	if (r == -ENOENT)
		r = resolve_default(p, b);
	if (r == 0 && b->d.spec)
		return 0;
	if (r == -ENOENT && !colon && p->model_msg[0])
		/* the model's own message names its near events */
		return fail(p, -EINVAL, PMU_ERR_UNKNOWN_EVENT, t, len, b->off,
			    "%s", p->model_msg);
	if (r == -ENOENT && !colon)
		return unknown_event(p, t, len, b->off);
	if (r == -ENOENT)
		return resolve_tracepoint(p, b, colon);
	if (r < 0 || !colon)
		return r;
	if (!mods_valid(colon + 1)) {
		/* "cycles:x" might still be a tracepoint of a subsystem that
		 * shares a name with a built-in event. */
		struct evbuild tp = *b;

		if (resolve_tracepoint(p, &tp, colon) == 0) {
			*b = tp;
			pmu__error_clear(p->err);
			return 0;
		}
	}
	b->own_mods = true;
	return apply_mods(p, &b->d, colon + 1, strlen(colon + 1), t, b->off);
}

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
	return fail(p, -EINVAL, PMU_ERR_BAD_VALUE, key, strlen(key), pt->off,
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
		return fail(p, -EINVAL, PMU_ERR_SYNTAX, key, strlen(key),
			    pt->off, "term '%s' needs a value ('%s=...')",
			    key, key);
	if (k == 4) {
		free(b->d.name);
		b->d.name = strdup(val);
		b->named = true;
		return b->d.name ? 0 : -ENOMEM;
	}
	r = parse_u64(val, &v);
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
		pmu__sysfs_format_list(sysfs_root(p), pt->pmu, list,
				       sizeof(list));
	return fail(p, -EINVAL, PMU_ERR_BAD_MODIFIER, key, strlen(key),
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
		return unknown_event(p, full, strlen(full), b->off);
	if (b->no_sysfs) {
		events[0] = '\0';
		pmu__core_format_list(b->core, terms, sizeof(terms));
	} else {
		pmu__sysfs_alias_list(sysfs_root(p), pt->pmu, events,
				      sizeof(events));
		pmu__sysfs_format_list(sysfs_root(p), pt->pmu, terms,
				       sizeof(terms));
	}
	return fail(p, -EINVAL, PMU_ERR_UNKNOWN_EVENT, key, strlen(key),
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
			    : pmu__sysfs_format(sysfs_root(p), pt->pmu, key, &f);

	if (r == -ENOENT && !val && !pt->alias)
		return unknown_word(p, b, pt, key);
	if (r == -ENOENT)
		return unknown_term(p, b, pt, key);
	if (r < 0)
		return fail(p, r == -EINVAL ? -EINVAL : r, PMU_ERR_SYSTEM, key,
			    strlen(key), pt->off, "cannot use the sysfs format "
			    "of term '%s' for PMU '%s': %s", key, pt->pmu,
			    pmu_strerror(r));
	r = val ? parse_u64(val, &v) : 0;
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
		return fail(p, -EINVAL, e.kind, key, strlen(key), pt->off,
			    "%s", e.message);
	/* its terms' bits, ORed in as every term's are */
	b->d.attr.config |= enc.perf.config;
	b->d.attr.config1 |= enc.perf.config1;
	b->d.attr.config2 |= enc.perf.config2;
	return 0;
}

/* ---- uncore events of the parse's kernel model ---- */

static const struct pmu__uevent *uncore_event(const struct parser *p,
					      const char *name, size_t n,
					      const struct pmu__model **mp)
{
	const struct pmu__model *m = pmu__core_host(p->ctx);

	*mp = m;
	return m ? pmu__uncore_find(m, name, n) : NULL;
}

/* "uncore_cha_0/unc_cha_clockticks/": the model's uncore event as an
 * alias of the PMUs of its unit, as perf takes the vendor files' events;
 * -ENOENT when the model has no such event. */
static int uncore_term(struct parser *p, struct evbuild *b,
		       const struct pmuterm *pt, const char *key)
{
	const struct pmu__model *m;
	const struct pmu__uevent *u = uncore_event(p, key, strlen(key), &m);
	struct pmuterm inner = { .pmu = pt->pmu, .alias = key, .off = pt->off };
	const char *upmu, *terms, *unit;
	double scale = 1.0;
	int r;

	if (!u)
		return -ENOENT;
	upmu = pmu__ustr(m, u->pmu);
	if (!pmu__uncore_pmu_match(upmu, pt->pmu))
		return fail(p, -EINVAL, PMU_ERR_UNKNOWN_EVENT, key, strlen(key),
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
			    : pmu__sysfs_alias(sysfs_root(p), pt->pmu, key, &a);

	if (r == -ENOENT && !b->core) {
		r = uncore_term(p, b, pt, key);
		if (r != -ENOENT)
			return r;
	}
	if (r == -ENOENT)
		return model_term(p, b, pt, key);
	if (r < 0)
		return fail(p, r, PMU_ERR_SYSTEM, key, strlen(key), pt->off,
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
		return fail(p, -EINVAL, PMU_ERR_SYNTAX, "=", 1, pt->off,
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
		return fail(p, -EINVAL, PMU_ERR_SYNTAX, ",", 1,
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
			return fail(p, -EINVAL, PMU_ERR_SYNTAX, s + i, j - i,
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
	return fail(p, -EINVAL, PMU_ERR_UNKNOWN_PMU, b->text, plen, b->off,
		    "unknown PMU '%.*s' in '%s' (not listed in sysfs "
		    "bus/event_source/devices)", (int)plen, b->text, b->text);
}

/* An uncore PMU's cpumask: the one CPU per package or die its events
 * count on (a core PMU has none).  Absent or empty: no restriction. */
static int pmu_cpumask(struct parser *p, const char *pmu, struct pmu__ev *d)
{
	char path[PATH_MAX], buf[1024];
	int r = pmu__sysfs_path(path, sizeof(path), sysfs_root(p), pmu,
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
static int parse_pmu_event(struct parser *p, struct evbuild *b)
{
	const char *t = b->text, *open = strchr(t, '/');
	const char *close = strchr(open + 1, '/'), *mods;
	size_t plen = (size_t)(open - t);
	char pmu[NAME_MAX + 1];
	struct pmuterm pt = { .pmu = pmu };
	uint32_t type;
	int r;

	if (plen == 0)
		return fail_syntax(p, b->off, "missing PMU name before '/'");
	if (!close)
		return fail(p, -EINVAL, PMU_ERR_SYNTAX, t, strlen(t), b->off,
			    "missing closing '/' in '%s'", t);
	if (plen > NAME_MAX || !pmu__name_is_safe(t, plen))
		return unknown_pmu(p, b, plen);
	memcpy(pmu, t, plen);
	pmu[plen] = '\0';
	b->core = pmu__core_model(p->ctx, pmu);
	if (pmu__sysfs_pmu_type(sysfs_root(p), pmu, &type) < 0) {
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
	return apply_mods(p, &b->d, mods, strlen(mods), t, b->off);
}

/* "pmu::EVENT...": model-specific tables, through the catalog hook. */
static int parse_catalog(struct parser *p, struct evbuild *b,
			 const char *dcolon)
{
	const char *t = b->text;
	size_t plen = (size_t)(dcolon - t);
	char *pmu;
	int r;

	if (plen == 0)
		return fail_syntax(p, b->off, "missing PMU name before '::'");
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
		return fail(p, -EINVAL, PMU_ERR_UNKNOWN_PMU, t, plen, b->off,
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

/* ---- events, groups, lists ---- */

static int push(struct parser *p, struct pmu__ev *d)
{
	struct pmu__evlist *l = &p->out;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		struct pmu__ev *ev = realloc(l->ev, cap * sizeof(*ev));

		if (!ev)
			return -ENOMEM;
		l->ev = ev;
		l->cap = cap;
	}
	l->ev[l->n++] = *d;
	return 0;
}

/* The event's name as printed: the token as typed, as perf prints it;
 * a group's modifiers apply to it but are not part of its name. */
static int set_name(struct evbuild *b)
{
	if (b->named)
		return 0;
	if (b->print)
		b->d.name = strdup(b->print);
	else if (b->name_len)
		b->d.name = strndup(b->text, b->name_len);
	else
		b->d.name = strdup(b->text);
	return b->d.name ? 0 : -ENOMEM;
}

/* "ibs_fetch" or "ibs_op" (after any "model::"), up to its settings. */
static bool is_ibs(const char *name)
{
	size_t n = strcspn(name, ":");

	return (n == 9 && !strncasecmp(name, "ibs_fetch", 9)) ||
	       (n == 6 && !strncasecmp(name, "ibs_op", 6));
}

/*
 * An IBS set-up: -ENOENT when the token is none.  The encoder reads and
 * checks it on its model (the prefix, else the parse's default, else
 * this host's), so that its errors are classed as `pmu encode` classes
 * them and the event carries its model and spec as any catalog event;
 * events/ibs.h then makes it the event a session samples (PMU__EV_IBS:
 * the control value, its perfmon2 PMC and PMDs, the perf form).  Errors
 * name the whole set-up.
 */
static int parse_ibs(struct parser *p, struct evbuild *b)
{
	const char *t = b->text, *dc = strstr(t, "::"), *name = dc ? dc + 2 : t;
	const char *dfl = p->ctx && p->ctx->default_model
			  ? p->ctx->default_model : pmu_event_host_model();
	struct pmu_error e = { .size = sizeof(e) };
	char model[64], cat[sizeof(b->d.model)];
	int r;

	if (!is_ibs(name))
		return -ENOENT;
	if (dc && dc == t)
		return fail_syntax(p, b->off, "missing PMU name before '::'");
	snprintf(model, sizeof(model), "%.*s", dc ? (int)(dc - t) : -1,
		 dc ? t : dfl ? dfl : "");
	r = model[0] ? pmu__catalog_resolve(model, name, &b->d, &e) : -ENOENT;
	if (r == -ENOENT)
		return fail(p, -EINVAL, dc ? PMU_ERR_UNKNOWN_PMU
					   : PMU_ERR_UNKNOWN_EVENT, t, strlen(t),
			    b->off, dc ? "unknown PMU '%s' in '%s': model-"
			    "specific event tables are not available for it"
			    : "'%s' needs a catalog model with IBS, and this "
			    "CPU has none: name one, as in fam10h::%s", dc ?
			    model : t, t);
	memcpy(cat, b->d.model, sizeof(cat));
	if (!r)
		r = pmu__ibs_parse(t, model, sysfs_root(p), &b->d, &e);
	if (r)
		return fail(p, r, e.kind, t, strlen(t), b->off, "%s",
			    e.message);
	/* the model that encoded it, as for any catalog event */
	memcpy(b->d.model, cat, sizeof(cat));
	return 0;
}

static int build_event(struct parser *p, struct evbuild *b)
{
	const char *t = b->text, *dcolon = strstr(t, "::");
	int r;

	for (const char *c = t; *c; c++)
		if (isspace((unsigned char)*c))
			return fail(p, -EINVAL, PMU_ERR_SYNTAX, t, strlen(t),
				    b->off, "unexpected whitespace at offset %zu "
				    "inside event '%s'", b->off + (size_t)(c - t), t);
	if (strchr(t, '/'))
		return parse_pmu_event(p, b);
	r = parse_ibs(p, b);
	if (r != -ENOENT)
		return r;
	if (dcolon)
		return parse_catalog(p, b, dcolon);
	return parse_named(p, b);
}

/* A group's :u / :k reach a catalog event's register codes too: the
 * placement spec carries them as the encoder's own modifiers. */
static bool spec_has_mod(const char *spec, char c)
{
	for (const char *f = strchr(spec, ':'); f; f = strchr(f + 1, ':'))
		if (f[1] == c && (f[2] == ':' || f[2] == '=' || !f[2]))
			return true;
	return false;
}

static int spec_add_plm(struct pmu__ev *d, const char *gmods)
{
	size_t n = strlen(d->spec);
	char *spec = realloc(d->spec, n + 2 * strlen(gmods) + 1);

	if (!spec)
		return -ENOMEM;
	d->spec = spec;
	for (; *gmods; gmods++) {
		if ((*gmods != 'u' && *gmods != 'k') ||
		    spec_has_mod(d->spec, *gmods))
			continue;
		spec[n++] = ':';
		spec[n++] = *gmods;
		spec[n] = '\0';
	}
	return 0;
}

/* "cpu_core/NAME/MODS": how perf names an event of one core type. */
static char *pmu_name(const char *pmu, const char *t)
{
	const char *colon = strchr(t, ':');
	size_t n = colon ? (size_t)(colon - t) : strlen(t);
	char *name = NULL;

	if (asprintf(&name, "%s/%.*s/%s", pmu, (int)n, t,
		     colon ? colon + 1 : "") < 0)
		return NULL;
	return name;
}

/*
 * A bare name both core types of a hybrid part know: perf counts it on
 * each, as two events named after their PMUs.  The second one leads a
 * group of its own (a group cannot span PMUs).
 */
static int add_twin(struct parser *p, const char *t, size_t off,
		    const struct pmu__model *twin, struct pmu__ev *first)
{
	struct evbuild b = {
		.d = { .scale = 1.0, .group = p->group + 1, .leader = true,
		       .flags = PMU__EV_GUEST_DEFAULT },
		.text = t, .off = off,
	};
	char *n1;
	int r;

	const struct pmu__model *m1 = pmu__catalog_find(first->model,
						strlen(first->model));

	if (p->in_group)
		return fail(p, -EINVAL, PMU_ERR_CONFLICT, t, strlen(t), off,
			    "'%s' is an event of both core types of this "
			    "hybrid CPU; in a group name one: %s/%s/ or "
			    "%s/%s/", t, m1->pmu, t, twin->pmu, t);
	r = resolve_kernel(p, &b, twin);
	if (!r && !b.own_mods)
		b.d.attr.exclude_guest = 1;
	b.d.attr.size = sizeof(b.d.attr);
	n1 = pmu_name(m1->pmu, t);
	b.d.name = pmu_name(twin->pmu, t);
	if (!r && (!n1 || !b.d.name))
		r = -ENOMEM;
	if (!r) {
		free(first->name);
		first->name = n1;
		n1 = NULL;
		p->group++;
		r = push(p, &b.d);
	}
	free(n1);
	if (r) {
		free(b.d.name);
		free(b.d.spec);
		free(b.d.cpus);
	}
	return r;
}

/* One event: the text t to parse (NUL-terminated), at offset off of the
 * input, printed as `print` (NULL: as t). */
static int add_one(struct parser *p, const char *t, const char *print,
		   size_t off, const char *gmods, bool leader)
{
	struct evbuild b = {
		.d = { .scale = 1.0, .group = p->group, .leader = leader,
		       .flags = PMU__EV_GUEST_DEFAULT },
		.text = t, .off = off, .print = print,
	};
	int r;

	r = build_event(p, &b);
	/* like perf: an event without modifiers leaves out time spent in
	 * guests; the event's own modifiers decide it otherwise (:u, :p,
	 * :G, :H), the group's start from what the event has */
	if (!b.own_mods && (b.d.flags & PMU__EV_GUEST_DEFAULT))
		b.d.attr.exclude_guest = 1;
	if (r == 0 && gmods)
		r = apply_mods(p, &b.d, gmods, strlen(gmods), t, off);
	if (r == 0 && gmods && b.d.spec)
		r = spec_add_plm(&b.d, gmods);
	/* catalogs may have filled attr wholesale */
	b.d.attr.size = sizeof(b.d.attr);
	if (r == 0)
		r = set_name(&b);
	if (r == 0)
		r = push(p, &b.d);
	if (r < 0) {
		free(b.d.name);
		free(b.d.spec);
		free(b.d.cpus);
	}
	if (r == 0 && b.twin)
		r = add_twin(p, t, off, b.twin, &p->out.ev[p->out.n - 1]);
	if (r == -ENOMEM)
		fail(p, r, PMU_ERR_SYSTEM, t, strlen(t), off, "out of memory");
	return r;
}

static bool is_glob(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == '*' || s[i] == '?' || s[i] == '[')
			return true;
	return false;
}

/* "sys:na*[:mods]": every tracepoint that matches, as perf expands it. */
static int expand_tracepoints(struct parser *p, const char *t, size_t off,
			      const char *c1, struct pmu__expansion *x)
{
	const char *c2 = strchr(c1 + 1, ':');
	size_t slen = (size_t)(c1 - t);
	size_t nlen = c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1);
	char sys[NAME_MAX + 1], name[NAME_MAX + 1];
	int r;

	if (slen > NAME_MAX || nlen > NAME_MAX)
		return unknown_event(p, t, slen + 1 + nlen, off);
	snprintf(sys, sizeof(sys), "%.*s", (int)slen, t);
	snprintf(name, sizeof(name), "%.*s", (int)nlen, c1 + 1);
	r = pmu__tracepoint_expand(tracefs_root(p), sys, name, c2 ? c2 : "",
				   x);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return tracepoint_error(p, t, slen + 1 + nlen, off, r);
	if (x->n == 0)
		return fail(p, -EINVAL, PMU_ERR_UNKNOWN_EVENT, t, slen + 1 + nlen,
			    off, "no tracepoint matches '%.*s'",
			    (int)(slen + 1 + nlen), t);
	return 0;
}

/* A name the built-in tables know: it is never a PMU's alias. */
static bool builtin_name(const char *n, size_t len)
{
	uint64_t cfg;
	size_t i;

	if (pmu__evname_find(n, len) || pmu__cache_parse(n, len, &cfg) != -ENOENT)
		return true;
	for (i = 1; i < len && isxdigit((unsigned char)n[i]); i++)
		;
	return len > 1 && n[0] == 'r' && i == len;
}

/* Does the kernel model's core PMU (or its libpfm4 twin) take the name? */
static bool core_takes(struct parser *p, const char *t, size_t off)
{
	struct evbuild b = { .d = { .scale = 1.0 }, .text = t, .off = off };
	struct parser quiet = *p;
	int r;

	quiet.err = NULL;
	r = resolve_default(&quiet, &b);
	free(b.d.spec);
	free(b.d.name);
	return r == 0;
}

/* A bare uncore event of the kernel model ("unc_cha_clockticks"), as
 * perf takes it: one event per PMU instance of its unit, all printed
 * as typed. */
static int expand_uncore(struct parser *p, const char *t, size_t off,
			 size_t len, const char *c1, struct pmu__expansion *x)
{
	const struct pmu__model *m;
	const struct pmu__uevent *u = uncore_event(p, t, len, &m);
	char **inst = NULL, text[2 * NAME_MAX + 64];
	const char *upmu;
	size_t n = 0;
	int r;

	if (!u || core_takes(p, t, off))
		return 0;
	if (c1) {
		/* the modifiers' errors name what was typed, not an
		 * instance's event */
		struct pmu__ev d = { .scale = 1.0 };
		int r0 = apply_mods(p, &d, c1 + 1, strlen(c1 + 1), t, off);

		if (r0)
			return r0;
	}
	upmu = pmu__ustr(m, u->pmu);
	r = pmu__sysfs_instances(sysfs_root(p), upmu, &inst, &n);
	if (r)
		return r;
	if (!n)
		return fail(p, -ENODEV, PMU_ERR_NOT_SUPPORTED, t, len, off,
			    "'%.*s' is an uncore event of %s, counted by PMU "
			    "%s%s, which this machine does not have (not in "
			    "sysfs bus/event_source/devices)", (int)len, t,
			    m->name, upmu, strchr(upmu, ',') ? "" : "[_N]");
	for (size_t i = 0; !r && i < n; i++) {
		snprintf(text, sizeof(text), "%s/%.*s/%s", inst[i], (int)len, t,
			 c1 ? c1 : "");
		r = pmu__expansion_add(x, text, t);
	}
	pmu__strv_free(inst, n);
	return r;
}

/* "uncore_cha/event=0x1/" where sysfs has only uncore_cha_0..N: one
 * event per instance, as perf expands it, printed as typed. */
static int expand_instances(struct parser *p, const char *t,
			    struct pmu__expansion *x)
{
	const char *slash = strchr(t, '/');
	size_t plen = (size_t)(slash - t);
	char pmu[NAME_MAX + 1], **inst = NULL, *text;
	uint32_t type;
	size_t n = 0;
	int r;

	if (!plen || plen > NAME_MAX || !pmu__name_is_safe(t, plen))
		return 0;
	memcpy(pmu, t, plen);
	pmu[plen] = '\0';
	if (pmu__sysfs_pmu_type(sysfs_root(p), pmu, &type) == 0 ||
	    pmu__core_model(p->ctx, pmu))
		return 0;
	r = pmu__sysfs_instances(sysfs_root(p), pmu, &inst, &n);
	for (size_t i = 0; !r && i < n; i++) {
		if (asprintf(&text, "%s%s", inst[i], slash) < 0) {
			r = -ENOMEM;
			break;
		}
		r = pmu__expansion_add(x, text, t);
		free(text);
	}
	pmu__strv_free(inst, n);
	return r;
}

/* A bare "tsc" that sysfs PMUs publish (msr/tsc/), as perf resolves it:
 * one event per PMU that has it, all printed as typed. */
static int expand_alias(struct parser *p, const char *t, size_t off,
			const char *c1, struct pmu__expansion *x)
{
	size_t len = c1 ? (size_t)(c1 - t) : strlen(t);
	char name[NAME_MAX + 1];
	int r;

	if (!len || len > NAME_MAX || builtin_name(t, len))
		return 0;
	snprintf(name, sizeof(name), "%.*s", (int)len, t);
	r = pmu__sysfs_alias_expand(sysfs_root(p), name, c1 ? c1 : "", t, x);
	if (r == 0 && !x->n)
		return expand_uncore(p, t, off, len, c1, x);
	if (r == 0 && x->n && p->ctx && p->ctx->default_model) {
		/* the session's model names its own events bare */
		struct evbuild b = { .d = { .scale = 1.0 }, .text = t, .off = off };
		struct parser quiet = *p;

		quiet.err = NULL;
		if (resolve_default(&quiet, &b) == 0)
			pmu__expansion_free(x);
		free(b.d.spec);
	}
	return r;
}

/* Whether token t stands for several events (x->n > 0 then), or for
 * itself (x->n == 0). */
static int expand(struct parser *p, const char *t, size_t off,
		  struct pmu__expansion *x)
{
	const char *c1 = strchr(t, ':');

	if (strstr(t, "::"))
		return 0;
	if (strchr(t, '/'))
		return expand_instances(p, t, x);
	for (const char *c = t; *c; c++)
		if (isspace((unsigned char)*c))
			return 0;
	if (c1 && (is_glob(t, (size_t)(c1 - t)) ||
		   is_glob(c1 + 1, strcspn(c1 + 1, ":"))))
		return expand_tracepoints(p, t, off, c1, x);
	return expand_alias(p, t, off, c1, x);
}

/* Events a token expanded to under one printed name are one PMU's
 * instances (uncore_cha_0..N): they print as one sum, as perf merges
 * them (but with --no-merge). */
static bool one_name(const struct pmu__expansion *x)
{
	if (x->n < 2)
		return false;
	for (size_t k = 1; k < x->n; k++)
		if (strcmp(x->name[k], x->name[0]))
			return false;
	return true;
}

/* One event token t (NUL-terminated copy) at offset off; a token that
 * stands for several events adds them all, in one group inside braces,
 * each in a group of its own outside. */
static int add_event(struct parser *p, const char *t, size_t off,
		     const char *gmods, bool leader, bool in_group)
{
	struct pmu__expansion x = { 0 };
	int r = expand(p, t, off, &x);

	uint32_t merge = 0;

	if (r == 0 && x.n == 0)
		return add_one(p, t, NULL, off, gmods, leader);
	if (r == 0 && one_name(&x))
		merge = ++p->out.nmerge;
	for (size_t k = 0; r == 0 && k < x.n; k++) {
		if (k && !in_group)
			p->group++;
		r = add_one(p, x.text[k], x.name[k], off, gmods,
			    in_group ? leader && k == 0 : true);
		if (r == 0)
			p->out.ev[p->out.n - 1].merge = merge;
	}
	pmu__expansion_free(&x);
	if (r == -ENOMEM)
		fail(p, r, PMU_ERR_SYSTEM, t, strlen(t), off, "out of memory");
	return r;
}

static size_t skip_ws(const char *s, size_t i)
{
	while (isspace((unsigned char)s[i]))
		i++;
	return i;
}

/* End of the token at i: the next ',' outside pmu/.../, a brace, or the
 * end of the string. */
static size_t token_end(const char *s, size_t i)
{
	bool in_terms = false;

	for (; s[i]; i++) {
		if (s[i] == '/')
			in_terms = !in_terms;
		else if (s[i] == '{' || s[i] == '}')
			break;
		else if (s[i] == ',' && !in_terms)
			break;
	}
	return i;
}

static size_t trim_end(const char *s, size_t start, size_t end)
{
	while (end > start && isspace((unsigned char)s[end - 1]))
		end--;
	return end;
}

static int fail_empty(struct parser *p, size_t at, bool in_group,
		      bool first)
{
	char c = p->str[at];

	/* ('{' never starts a member: groups are parsed before members) */
	if (c == '}' && !in_group)
		return fail_syntax(p, at, "unexpected '}'");
	if (c == '}')
		return fail_syntax(p, at, first ? "empty group"
					       : "empty event before '}'");
	if (c == '\0' && p->out.n == 0)
		return fail_syntax(p, at, "empty event list");
	if (c == '\0')
		return fail_syntax(p, at, "empty event after ','");
	return fail_syntax(p, at, "empty event");
}

static int parse_member(struct parser *p, size_t *pos, const char *gmods,
			bool in_group, bool first)
{
	const char *s = p->str;
	size_t start = skip_ws(s, *pos), stop = token_end(s, start);
	size_t end = trim_end(s, start, stop);
	char *t;
	int r;

	if (end == start)
		return fail_empty(p, start, in_group, first);
	t = strndup(s + start, end - start);
	if (!t)
		return fail(p, -ENOMEM, PMU_ERR_SYSTEM, "", 0, start,
			    "out of memory");
	r = add_event(p, t, start, gmods, first, in_group);
	free(t);
	*pos = stop;
	return r;
}

/* Group modifiers after '}' at s[close]: NULL if none, else a copy,
 * checked; *after is where the list continues. */
static int group_mods(struct parser *p, size_t open, size_t close,
		      char **gmods, size_t *after)
{
	const char *s = p->str;
	size_t start = close + 2, stop, end;
	struct pmu__ev scratch = { .scale = 1.0 };
	char *text;
	int r;

	*gmods = NULL;
	*after = close + 1;
	if (s[close + 1] != ':')
		return 0;
	stop = token_end(s, start);
	end = trim_end(s, start, stop);
	text = strndup(s + open, end - open);
	if (!text)
		return -ENOMEM;
	/* a blank is said as such, not as an unknown modifier ' ' */
	r = 0;
	for (size_t i = start; r == 0 && i < end; i++)
		if (isspace((unsigned char)s[i]))
			r = fail_syntax(p, i, "unexpected whitespace in modifiers");
	if (r == 0)
		r = apply_mods(p, &scratch, text + (start - open), end - start,
			       text, open);
	if (r == 0)
		memmove(text, text + (start - open), end - start + 1);
	if (r < 0) {
		free(text);
		return r;
	}
	*gmods = text;
	*after = stop;
	return 0;
}

static uint32_t pmu_key(uint32_t type)
{
	/* the core PMU's generic, cache and raw events are one PMU's */
	return type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE
	       ? PERF_TYPE_RAW : type;
}

/* A group holding an event that stands for several PMU instances
 * ({unc_cha_a,unc_cha_b}) becomes, as perf regroups it, one group per
 * PMU in the order they first appear: the kernel schedules a group on
 * one PMU, and each instance's events then count together. */
static int regroup_by_pmu(struct parser *p, size_t first)
{
	struct pmu__evlist *l = &p->out;
	size_t n = l->n - first, k = 0, nk = 0;
	struct pmu__ev *tmp;
	uint32_t *keys;
	int base;
	bool any = false;

	for (size_t i = first; i < l->n; i++)
		any |= l->ev[i].merge != 0;
	if (!any || n < 2)
		return 0;
	base = l->ev[first].group;
	tmp = malloc(n * sizeof(*tmp));
	keys = malloc(n * sizeof(*keys));
	if (!tmp || !keys) {
		free(tmp);
		free(keys);
		return -ENOMEM;
	}
	for (size_t i = first; i < l->n; i++) {
		uint32_t key = pmu_key(l->ev[i].attr.type);
		size_t j = 0;

		while (j < nk && keys[j] != key)
			j++;
		if (j == nk)
			keys[nk++] = key;
	}
	for (size_t j = 0; j < nk; j++)
		for (size_t i = first, lead = 1; i < l->n; i++) {
			if (pmu_key(l->ev[i].attr.type) != keys[j])
				continue;
			tmp[k] = l->ev[i];
			tmp[k].group = base + (int)j;
			tmp[k++].leader = lead;
			lead = 0;
		}
	memcpy(&l->ev[first], tmp, n * sizeof(*tmp));
	p->group = base + (int)nk - 1;
	free(tmp);
	free(keys);
	return 0;
}

static int parse_group(struct parser *p, size_t *pos)
{
	const char *s = p->str;
	size_t open = *pos, close = open + 1, q = open + 1, after;
	size_t start = p->out.n;
	char *gmods;
	int r;

	while (s[close] && s[close] != '}' && s[close] != '{')
		close++;
	if (s[close] == '{')
		return fail_syntax(p, close, "nested groups are not supported");
	if (!s[close])
		return fail_syntax(p, open, "missing '}' for this '{'");
	r = group_mods(p, open, close, &gmods, &after);
	p->in_group = true;
	for (bool first = true; r == 0; first = false) {
		r = parse_member(p, &q, gmods, true, first);
		if (r == 0 && s[q] == '}')
			break;
		q++; /* the ',' token_end stopped at */
	}
	p->in_group = false;
	if (r == 0 && (r = regroup_by_pmu(p, start)) == -ENOMEM)
		fail(p, r, PMU_ERR_SYSTEM, s + open, close - open + 1, open,
		     "out of memory");
	free(gmods);
	*pos = after;
	return r;
}

static int parse_list(struct parser *p)
{
	const char *s = p->str;
	size_t pos = 0;
	int r;

	for (;;) {
		pos = skip_ws(s, pos);
		if (s[pos] == '{')
			r = parse_group(p, &pos);
		else
			r = parse_member(p, &pos, NULL, false, true);
		if (r < 0)
			return r;
		p->group++;
		pos = skip_ws(s, pos);
		if (!s[pos])
			return 0;
		if (s[pos] != ',')
			return fail(p, -EINVAL, PMU_ERR_SYNTAX, s + pos, 1, pos,
				    "unexpected '%c' at offset %zu of '%s' "
				    "(expected ',')", s[pos], pos, s);
		pos++;
	}
}

/* Move every event of `from` to the end of `to`. */
static int append(struct pmu__evlist *to, struct pmu__evlist *from)
{
	size_t n = to->n + from->n;

	if (n > to->cap) {
		struct pmu__ev *ev = realloc(to->ev, n * sizeof(*ev));

		if (!ev)
			return -ENOMEM;
		to->ev = ev;
		to->cap = n;
	}
	if (from->n)
		memcpy(to->ev + to->n, from->ev, from->n * sizeof(*from->ev));
	to->n = n;
	from->n = 0;
	return 0;
}

int pmu__evlist_parse(struct pmu__evlist *l, const char *str,
		      const struct pmu__parse_ctx *ctx, struct pmu_error *err)
{
	struct parser p = { .str = str, .ctx = ctx, .err = err };
	int r;

	if (!l || !str)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "no event list to parse");
	pmu__error_clear(err);
	p.group = l->ngroups;
	p.out.nmerge = l->nmerge;
	r = parse_list(&p);
	if (r == 0)
		r = append(l, &p.out);
	if (r == 0) {
		l->ngroups = p.group;
		l->nmerge = p.out.nmerge;
	}
	else if (r == -ENOMEM)
		pmu__error(err, r, PMU_ERR_SYSTEM, NULL, -1, "out of memory");
	pmu__evlist_clear(&p.out);
	if (r == 0)
		pmu__error_clear(err);
	return r;
}

void pmu__evlist_clear(struct pmu__evlist *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++) {
		free(l->ev[i].name);
		free(l->ev[i].spec);
		free(l->ev[i].cpus);
	}
	free(l->ev);
	l->ev = NULL;
	l->n = l->cap = 0;
	l->ngroups = 0;
}
