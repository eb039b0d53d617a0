/* SPDX-License-Identifier: MIT */
/* The event-list parser: built-in names, raw codes, tracepoints. */
#include "events/evlist_priv.h"

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
			return pmu__evl_fail(p, -EINVAL, PMU_ERR_BAD_VALUE, name, len,
					     b->off, "raw code '%.*s' does not fit in 64 bits",
					     (int)len, name);
		v = v << 4 | pmu__evl_hexval(name[i]);
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
		return pmu__evl_fail(p, -EINVAL, PMU_ERR_UNKNOWN_EVENT, name, len,
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

int pmu__evl_tracepoint_error(struct parser *p, const char *name, size_t len,
			    size_t off, int r)
{
	return pmu__evl_fail(p, r, r == -EACCES || r == -EPERM ? PMU_ERR_PERMISSION
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
		return pmu__evl_fail_syntax(p, b->off + slen + 1,
					    "missing tracepoint name after ':'");
	if (slen <= NAME_MAX && elen <= NAME_MAX) {
		snprintf(sys, sizeof(sys), "%.*s", (int)slen, t);
		snprintf(name, sizeof(name), "%.*s", (int)elen, ev);
		r = pmu__tracepoint_id(pmu__evl_tracefs_root(p), sys, name, &id);
	}
	if (r == -ENOENT && !c2 && pmu__evl_mods_valid(ev))
		return pmu__evl_unknown_event(p, t, slen, b->off);
	if (r == -ENOENT)
		return pmu__evl_unknown_event(p, t, slen + 1 + elen, b->off);
	if (r < 0)
		return pmu__evl_tracepoint_error(p, t, slen + 1 + elen, b->off, r);
	b->d.attr.type = PERF_TYPE_TRACEPOINT;
	b->d.attr.config = id;
	b->name_len = slen + 1 + elen; /* perf prints sys:name alone */
	if (!c2)
		return 0;
	b->own_mods = true;
	return pmu__evl_apply_mods(p, &b->d, c2 + 1, strlen(c2 + 1), t, b->off);
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
		return pmu__evl_fail(p, r, e.kind, e.token, strlen(e.token), b->off,
				     "%s", e.message);
	return 0;
}

/* The perf_event type of a kernel model's events: its core PMU's in
 * sysfs (hybrid and arm64 core PMUs have dynamic types), else the
 * model's. */
static void core_type(struct parser *p, const struct pmu__catmodel *m,
		      struct pmu__ev *d)
{
	uint32_t type;

	if (m->pmu && pmu__sysfs_pmu_type(pmu__evl_sysfs_root(p), m->pmu, &type) == 0)
		d->attr.type = type;
}

/* Does the name part (up to ':') alone encode for m? */
bool pmu__evl_name_encodes(const struct pmu__catmodel *m, const char *t,
			   size_t n)
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
int pmu__evl_resolve_kernel(struct parser *p, struct evbuild *b,
			  const struct pmu__catmodel *m)
{
	const char *t = b->text, *colon = strchr(t, ':');
	size_t n = colon ? (size_t)(colon - t) : strlen(t);
	const struct pmu__catmodel *h = m->hybrid && !p->ctx->model_only ?
		pmu__catalog_find(m->hybrid, strlen(m->hybrid)) : NULL;
	/* whether each core type's table has the name: an encoding each */
	bool in_m = pmu__evl_name_encodes(m, t, n), in_h = h && pmu__evl_name_encodes(h, t, n);
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
	return pmu__evl_apply_mods(p, &b->d, colon + 1, strlen(colon + 1), t, b->off);
}

/* Is name (n bytes) an event alias of m's core PMU, in sysfs or, where
 * sysfs lacks the PMU, as the kernel declares it? */
static bool core_alias(struct parser *p, const struct pmu__catmodel *m,
		       const char *name, size_t n)
{
	struct pmu__alias a;
	char buf[NAME_MAX + 1];
	uint32_t type;

	if (!m->pmu || n >= sizeof(buf))
		return false;
	memcpy(buf, name, n);
	buf[n] = '\0';
	if (pmu__sysfs_pmu_type(pmu__evl_sysfs_root(p), m->pmu, &type) == 0)
		return pmu__sysfs_alias(pmu__evl_sysfs_root(p), m->pmu, buf, &a) == 0;
	return pmu__core_alias(m, buf, &a) == 0;
}

/* A bare alias of the core PMU ("topdown-retiring:u"), as perf takes it:
 * "cpu/topdown-retiring/u". */
static int resolve_alias(struct parser *p, struct evbuild *b,
			 const struct pmu__catmodel *m)
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
	r = pmu__evl_parse_pmu_event(p, b);
	b->text = saved;
	b->own_mods = colon != NULL;
	free(text);
	return r;
}

int pmu__evl_resolve_default(struct parser *p, struct evbuild *b)
{
	const struct pmu__catmodel *m = NULL;
	int r;

	if (p->ctx && !p->ctx->default_model)
		m = pmu__core_host(p->ctx);
	if (m && m->arch != PMU__ARCH_NONE) {
		r = pmu__evl_resolve_kernel(p, b, m);
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

/*
 * "mem:ADDR[/LEN][:TYPE][:MODS]", perf's breakpoint event: a hardware
 * breakpoint (watchpoint) at ADDR, of LEN bytes (1, 2, 4 or 8; default
 * 4, the size of a long for x), that fires on the accesses TYPE names
 * (r, w, x, or r and w together; default rw).  Printed as typed.
 */
int pmu__evl_parse_breakpoint(struct parser *p, struct evbuild *b)
{
	const char *t = b->text, *s = t + 4, *mods = NULL;
	uint64_t addr = 0, len = 0;
	unsigned bp = 0;
	char *end;

	errno = 0;
	addr = strtoull(s, &end, 0);
	if (end == s || errno || (*end && *end != '/' && *end != ':'))
		return pmu__evl_fail(p, -EINVAL, PMU_ERR_SYNTAX, t, strlen(t),
				     b->off, "bad address in breakpoint event '%s': "
				     "expected mem:ADDR[/LEN][:rwx]", t);
	s = end;
	if (*s == '/') {
		errno = 0;
		len = strtoull(s + 1, &end, 0);
		if (end == s + 1 || errno || (*end && *end != ':') ||
		    (len != 1 && len != 2 && len != 4 && len != 8))
			return pmu__evl_fail(p, -EINVAL, PMU_ERR_BAD_VALUE, t,
					     strlen(t), b->off, "bad length in "
					     "breakpoint event '%s': 1, 2, 4 or 8 "
					     "bytes", t);
		s = end;
	}
	if (*s == ':') {
		size_t n = strcspn(s + 1, ":");

		if (n && strspn(s + 1, "rwx") >= n) {
			for (size_t i = 1; i <= n; i++) {
				unsigned bit = s[i] == 'r' ? 1 : s[i] == 'w' ? 2 : 4;

				if (bp & bit)
					return pmu__evl_fail(p, -EINVAL,
						PMU_ERR_BAD_MODIFIER, t, strlen(t),
						b->off, "'%c' given twice in "
						"breakpoint event '%s'", s[i], t);
				bp |= bit;
			}
			s += n + 1;
		}
		if (*s == ':')
			mods = s + 1;
	}
	/* a breakpoint on an instruction is one on its execution alone */
	if ((bp & 4) && (bp & 3))
		return pmu__evl_fail(p, -EINVAL, PMU_ERR_CONFLICT, t, strlen(t),
				     b->off, "breakpoint event '%s': x (execute) "
				     "does not combine with r or w", t);
	b->d.attr.type = PERF_TYPE_BREAKPOINT;
	b->d.attr.config = 0;
	b->d.attr.bp_type = bp ? bp : 3;
	b->d.attr.bp_addr = addr;
	b->d.attr.bp_len = len ? len : bp == 4 ? sizeof(long) : 4;
	/* perf prints the name as typed, modifiers and all, but for a
	 * length: then only up to it */
	b->name_len = strchr(t, '/') ? (size_t)(strchr(t, '/') - t) : 0;
	if (!mods)
		return 0;
	b->own_mods = true;
	return pmu__evl_apply_mods(p, &b->d, mods, strlen(mods), t, b->off);
}

/* A name without '/' or "::": built-in, raw, the default model's, or
 * a tracepoint. */
int pmu__evl_parse_named(struct parser *p, struct evbuild *b)
{
	const char *t = b->text, *colon = strchr(t, ':');
	size_t len = colon ? (size_t)(colon - t) : strlen(t);
	int r;

	if (len == 0)
		return pmu__evl_fail_syntax(p, b->off, "missing event name before ':'");
	r = resolve_builtin(p, t, len, b);
	if (r == -ENOENT)
		r = pmu__evl_resolve_default(p, b);
	if (r == 0 && b->d.spec)
		return 0;
	if (r == -ENOENT && !colon && p->model_msg[0])
		/* the model's own message names its near events */
		return pmu__evl_fail(p, -EINVAL, PMU_ERR_UNKNOWN_EVENT, t, len, b->off,
				     "%s", p->model_msg);
	if (r == -ENOENT && !colon)
		return pmu__evl_unknown_event(p, t, len, b->off);
	if (r == -ENOENT)
		return resolve_tracepoint(p, b, colon);
	if (r < 0 || !colon)
		return r;
	if (!pmu__evl_mods_valid(colon + 1)) {
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
	return pmu__evl_apply_mods(p, &b->d, colon + 1, strlen(colon + 1), t, b->off);
}
