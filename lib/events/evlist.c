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
#include "events/evlist_priv.h"

const char *pmu__evl_sysfs_root(const struct parser *p)
{
	return p->ctx && p->ctx->sysfs_root ? p->ctx->sysfs_root
					    : PMU__SYSFS_DEFAULT;
}

const char *pmu__evl_tracefs_root(const struct parser *p)
{
	return p->ctx ? p->ctx->tracefs_root : NULL;
}

static int clamp_off(size_t off)
{
	return off > INT_MAX ? INT_MAX : (int)off;
}

/* Fill the error for the event being parsed; tok[0..toklen) is copied so
 * callers can name a slice of the input. */
int pmu__evl_fail(struct parser *p, int code, enum pmu_error_kind kind,
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

int pmu__evl_fail_syntax(struct parser *p, size_t off, const char *what)
{
	const char *at = p->str + off;
	size_t len = strcspn(at, ",{}");

	return pmu__evl_fail(p, -EINVAL, PMU_ERR_SYNTAX, at, len, off,
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

/* A perf name of other kernel models' tables (core or uncore): those
 * models, the first few, in buf ("skylakex, icelakex and 9 more"). */
static bool other_models(const char *name, char *buf, size_t sz)
{
	size_t found = 0, used = 0, n = strlen(name);

	buf[0] = '\0';
	if (!strchr(name, '.') && !strchr(name, '_'))
		return false;
	for (size_t i = 0; i < pmu__catalog_count(); i++) {
		const struct pmu__catmodel *m = pmu__catalog_at(i);

		if (!m || m->arch == PMU__ARCH_NONE ||
		    (!pmu__uncore_find(m, name, n) && !pmu__evl_name_encodes(m, name, n)))
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

int pmu__evl_unknown_event(struct parser *p, const char *name, size_t len,
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
		return pmu__evl_fail(p, -EINVAL, PMU_ERR_UNKNOWN_EVENT, tok, len, off,
				     "unknown event '%s'%s?", tok, hint);
	if (other_models(tok, hint, sizeof(hint)))
		return pmu__evl_fail(p, -EINVAL, PMU_ERR_UNKNOWN_EVENT, tok, len, off,
				     "unknown event '%s' on this CPU: it is an event of "
				     "%s (pmu list --model M %s)", tok, hint, tok);
	return pmu__evl_fail(p, -EINVAL, PMU_ERR_UNKNOWN_EVENT, tok, len, off,
			     "unknown event '%s' (" KNOWN_HELP ")", tok);
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
	struct pmu_error e = { .size = sizeof(e) };
	char model[64], cat[sizeof(b->d.model)];
	const char *dfl;
	int r;

	if (!is_ibs(name))
		return -ENOENT;
	/* (only now: finding the host's model costs more than all the
	 * rest of a plain event's parse) */
	dfl = p->ctx && p->ctx->default_model ? p->ctx->default_model
					      : pmu_event_host_model();
	if (dc && dc == t)
		return pmu__evl_fail_syntax(p, b->off, "missing PMU name before '::'");
	snprintf(model, sizeof(model), "%.*s", dc ? (int)(dc - t) : -1,
		 dc ? t : dfl ? dfl : "");
	r = model[0] ? pmu__catalog_resolve(model, name, &b->d, &e) : -ENOENT;
	if (r == -ENOENT)
		return pmu__evl_fail(p, -EINVAL, dc ? PMU_ERR_UNKNOWN_PMU
					   : PMU_ERR_UNKNOWN_EVENT, t, strlen(t),
				     b->off, dc ? "unknown PMU '%s' in '%s': model-"
				     "specific event tables are not available for it"
				     : "'%s' needs a catalog model with IBS, and this "
				     "CPU has none: name one, as in fam10h::%s", dc ?
				     model : t, t);
	memcpy(cat, b->d.model, sizeof(cat));
	if (!r)
		r = pmu__ibs_parse(t, model, pmu__evl_sysfs_root(p), &b->d, &e);
	if (r)
		return pmu__evl_fail(p, r, e.kind, t, strlen(t), b->off, "%s",
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
			return pmu__evl_fail(p, -EINVAL, PMU_ERR_SYNTAX, t, strlen(t),
					     b->off, "unexpected whitespace at offset %zu "
					     "inside event '%s'", b->off + (size_t)(c - t), t);
	if (!strncmp(t, "mem:", 4))
		return pmu__evl_parse_breakpoint(p, b);
	if (strchr(t, '/'))
		return pmu__evl_parse_pmu_event(p, b);
	r = parse_ibs(p, b);
	if (r != -ENOENT)
		return r;
	if (dcolon)
		return pmu__evl_parse_catalog(p, b, dcolon);
	return pmu__evl_parse_named(p, b);
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
		    const struct pmu__catmodel *twin, struct pmu__ev *first)
{
	struct evbuild b = {
		.d = { .scale = 1.0, .group = p->group + 1, .leader = true,
		       .flags = PMU__EV_GUEST_DEFAULT },
		.text = t, .off = off,
	};
	char *n1;
	int r;

	const struct pmu__catmodel *m1 = pmu__catalog_find(first->model,
						strlen(first->model));

	if (p->in_group)
		return pmu__evl_fail(p, -EINVAL, PMU_ERR_CONFLICT, t, strlen(t), off,
				     "'%s' is an event of both core types of this "
				     "hybrid CPU; in a group name one: %s/%s/ or "
				     "%s/%s/", t, m1->pmu, t, twin->pmu, t);
	r = pmu__evl_resolve_kernel(p, &b, twin);
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
		r = pmu__evl_apply_mods(p, &b.d, gmods, strlen(gmods), t, off);
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
		pmu__evl_fail(p, r, PMU_ERR_SYSTEM, t, strlen(t), off, "out of memory");
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
		return pmu__evl_unknown_event(p, t, slen + 1 + nlen, off);
	snprintf(sys, sizeof(sys), "%.*s", (int)slen, t);
	snprintf(name, sizeof(name), "%.*s", (int)nlen, c1 + 1);
	r = pmu__tracepoint_expand(pmu__evl_tracefs_root(p), sys, name, c2 ? c2 : "",
				   x);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return pmu__evl_tracepoint_error(p, t, slen + 1 + nlen, off, r);
	if (x->n == 0)
		return pmu__evl_fail(p, -EINVAL, PMU_ERR_UNKNOWN_EVENT, t, slen + 1 + nlen,
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
	r = pmu__evl_resolve_default(&quiet, &b);
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
	const struct pmu__catmodel *m;
	const struct pmu__uevent *u = pmu__evl_uncore_event(p, t, len, &m);
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
		int r0 = pmu__evl_apply_mods(p, &d, c1 + 1, strlen(c1 + 1), t, off);

		if (r0)
			return r0;
	}
	upmu = pmu__ustr(m, u->pmu);
	r = pmu__sysfs_instances(pmu__evl_sysfs_root(p), upmu, &inst, &n);
	if (r)
		return r;
	if (!n)
		return pmu__evl_fail(p, -ENODEV, PMU_ERR_NOT_SUPPORTED, t, len, off,
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
	if (pmu__sysfs_pmu_type(pmu__evl_sysfs_root(p), pmu, &type) == 0 ||
	    pmu__core_model(p->ctx, pmu))
		return 0;
	r = pmu__sysfs_instances(pmu__evl_sysfs_root(p), pmu, &inst, &n);
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
	r = pmu__sysfs_alias_expand(pmu__evl_sysfs_root(p), name, c1 ? c1 : "", t, x);
	if (r == 0 && !x->n)
		return expand_uncore(p, t, off, len, c1, x);
	if (r == 0 && x->n && p->ctx && p->ctx->default_model) {
		/* the session's model names its own events bare */
		struct evbuild b = { .d = { .scale = 1.0 }, .text = t, .off = off };
		struct parser quiet = *p;

		quiet.err = NULL;
		if (pmu__evl_resolve_default(&quiet, &b) == 0)
			pmu__expansion_free(x);
		free(b.d.spec);
	}
	return r;
}

/* Whether token t stands for several events (x->n > 0 then), or for
 * itself (x->n == 0). */
int pmu__evl_expand(struct parser *p, const char *t, size_t off,
		  struct pmu__expansion *x)
{
	const char *c1 = strchr(t, ':');

	if (strstr(t, "::") || !strncmp(t, "mem:", 4))
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
	int r = pmu__evl_expand(p, t, off, &x);

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
		pmu__evl_fail(p, r, PMU_ERR_SYSTEM, t, strlen(t), off, "out of memory");
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
	bool in_terms = false, bp = !strncmp(s + i, "mem:", 4);

	for (; s[i]; i++) {
		if (s[i] == '/' && !bp)   /* mem:ADDR/LEN has no terms */
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
		return pmu__evl_fail_syntax(p, at, "unexpected '}'");
	if (c == '}')
		return pmu__evl_fail_syntax(p, at, first ? "empty group"
					       : "empty event before '}'");
	if (c == '\0' && p->out.n == 0)
		return pmu__evl_fail_syntax(p, at, "empty event list");
	if (c == '\0')
		return pmu__evl_fail_syntax(p, at, "empty event after ','");
	return pmu__evl_fail_syntax(p, at, "empty event");
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
		return pmu__evl_fail(p, -ENOMEM, PMU_ERR_SYSTEM, "", 0, start,
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
			r = pmu__evl_fail_syntax(p, i, "unexpected whitespace in modifiers");
	if (r == 0)
		r = pmu__evl_apply_mods(p, &scratch, text + (start - open), end - start,
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
		return pmu__evl_fail_syntax(p, close, "nested groups are not supported");
	if (!s[close])
		return pmu__evl_fail_syntax(p, open, "missing '}' for this '{'");
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
		pmu__evl_fail(p, r, PMU_ERR_SYSTEM, s + open, close - open + 1, open,
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
			return pmu__evl_fail(p, -EINVAL, PMU_ERR_SYNTAX, s + pos, 1, pos,
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
