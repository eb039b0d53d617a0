/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "profile/report.h"
#include "util/error.h"

bool pmu__report_clock_event(const char *ev)
{
	size_t n = ev ? strcspn(ev, ":/") : 0;

	return (n == 9 && !strncmp(ev, "cpu-clock", 9)) ||
	       (n == 10 && !strncmp(ev, "task-clock", 10));
}

const char *pmu__report_frame_label(const struct pmu_frame *f, char *buf,
			       size_t len)
{
	if (f->sym)
		return f->sym;
	/* perf shows an unknown function by its address in the file */
	snprintf(buf, len, "0x%016" PRIx64, f->addr);
	return buf;
}

static bool in_list(const char *list, const char *s)
{
	size_t n = strlen(s);

	for (const char *p = list; p && *p;) {
		size_t k = strcspn(p, ",");

		if (k == n && !strncmp(p, s, n))
			return true;
		p += k + (p[k] == ',');
	}
	return false;
}

bool pmu__report_filter(const struct pmu_report_opts *o, const struct pmu_sample *s,
		   const struct pmu_frame *leaf)
{
	if (o->comm && !in_list(o->comm, s->comm))
		return false;
	if (o->dso && (!leaf || (!in_list(o->dso, leaf->dso_short) &&
				 !in_list(o->dso, leaf->dso))))
		return false;
	if (o->tid && (pid_t)s->tid != o->tid)
		return false;
	return true;
}

/* The leaf's own function: past the inlined frames of its address. */
static const struct pmu_frame *leaf_func(const struct pmu_frame *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (f[i].kind != PMU_FRAME_INLINED)
			return &f[i];
	return n ? &f[0] : NULL;
}

static const char *base_name(const char *p)
{
	const char *b = p ? strrchr(p, '/') : NULL;

	return b ? b + 1 : p;
}

static uint32_t key_of(struct report *r, enum rkey k, struct pmu_profile *p,
		       const struct pmu_sample *s, const struct pmu_frame *f,
		       const struct pmu_frame *inner)
{
	char buf[512], lab[40];

	switch (k) {
	case RK_COMM:
		return pmu__rpool_add(&r->pool, s->comm);
	case RK_PID:   /* perf's pid key is the thread (Pid:Command) */
	case RK_TID:
		snprintf(buf, sizeof(buf), "%7u:%s", s->tid, s->comm);
		return pmu__rpool_add(&r->pool, buf);
	case RK_DSO:
		return f ? pmu__report_intern(r, f->dso_short, 1, NULL) :
			   pmu__rpool_add(&r->pool, "[unknown]");
	case RK_SYM:
		if (f && f->sym) {
			bool kern = f->kind == PMU_FRAME_KERNEL;
			uint32_t id;

			if (pmu__report_cached(r, f->sym, kern ? 3 : 2, &id))
				return id;
			snprintf(buf, sizeof(buf), "[%c] %s", kern ? 'k' : '.',
				 f->sym);
			id = pmu__rpool_add(&r->pool, buf);
			pmu__report_cache(r, f->sym, kern ? 3 : 2, id);
			return id;
		}
		snprintf(buf, sizeof(buf), "[%c] %s",
			 f && f->kind == PMU_FRAME_KERNEL ? 'k' : '.',
			 f ? pmu__report_frame_label(f, lab, sizeof(lab)) : "?");
		return pmu__rpool_add(&r->pool, buf);
	case RK_SRCLINE:
		if (inner && inner->srcfile)
			snprintf(buf, sizeof(buf), "%s:%u",
				 base_name(inner->srcfile), inner->line);
		else
			snprintf(buf, sizeof(buf), "%s+%#" PRIx64,
				 f ? f->dso_short : "[unknown]",
				 f ? f->addr : 0);
		return pmu__rpool_add(&r->pool, buf);
	case RK_EVENT:
		return pmu__rpool_add(&r->pool, pmu_profile_event_name(p, s->event));
	default:
		return 0;
	}
}

static size_t row_hash(const uint32_t *key, size_t n)
{
	uint64_t h = 0;

	for (size_t i = 0; i < n; i++)
		h = (h ^ key[i]) * 0x9E3779B97F4A7C15ULL;
	return (size_t)(h >> 20);
}

static int rows_rehash(struct report *r)
{
	size_t cap = r->rhcap ? 2 * r->rhcap : 1024;
	uint32_t *h = malloc(cap * sizeof(*h));

	if (!h)
		return -ENOMEM;
	memset(h, 0xff, cap * sizeof(*h));
	for (size_t i = 0; i < r->nrows; i++) {
		size_t k = row_hash(r->rows[i].key, r->nkeys) & (cap - 1);

		while (h[k] != UINT32_MAX)
			k = (k + 1) & (cap - 1);
		h[k] = (uint32_t)i;
	}
	free(r->rhash);
	r->rhash = h;
	r->rhcap = cap;
	return 0;
}

/* The row of a key, made if new: its index, or -ENOMEM.  An index, not
 * a pointer: a new row may move the array, and a pointer kept across
 * another row's lookup would point into freed memory. */
static ssize_t row_get(struct report *r, const uint32_t *key)
{
	struct rrow *row;
	size_t k;

	if (2 * (r->nrows + 1) > r->rhcap && rows_rehash(r))
		return -ENOMEM;
	for (k = row_hash(key, r->nkeys) & (r->rhcap - 1);
	     r->rhash[k] != UINT32_MAX; k = (k + 1) & (r->rhcap - 1))
		if (!memcmp(r->rows[r->rhash[k]].key, key,
			    r->nkeys * sizeof(*key)))
			return (ssize_t)r->rhash[k];
	if (r->nrows == r->cap_rows) {
		size_t cap = r->cap_rows ? 2 * r->cap_rows : 256;
		struct rrow *v = realloc(r->rows, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		r->rows = v;
		r->cap_rows = cap;
	}
	row = &r->rows[r->nrows];
	memset(row, 0, sizeof(*row));
	memcpy(row->key, key, r->nkeys * sizeof(*key));
	r->rhash[k] = (uint32_t)r->nrows;
	return (ssize_t)r->nrows++;
}

static void make_key(struct report *r, struct pmu_profile *p,
		     const struct pmu_sample *s, const struct pmu_frame *f,
		     const struct pmu_frame *inner, uint32_t *key)
{
	for (size_t i = 0; i < r->nkeys; i++)
		key[i] = key_of(r, r->keys[i], p, s, f, inner);
}

static int grow_stack(struct report *r, size_t n)
{
	if (n <= r->cap_stack)
		return 0;
	uint32_t *v = realloc(r->stack, 3 * n * sizeof(*v));
	size_t *fr = realloc(r->stack_frame, n * sizeof(*fr));

	if (v)
		r->stack = v;
	if (fr)
		r->stack_frame = fr;
	if (!v || !fr)
		return -ENOMEM;
	r->cap_stack = n;
	return 0;
}

/* The stack root first: names, DSOs and kinds, the command on top;
 * r->stack_frame[j] is the frame at position j. */
static size_t build_stack(struct report *r, const struct pmu_sample *s,
			  const struct pmu_frame *f, size_t n, uint32_t **names,
			  uint32_t **dsos, uint8_t **kinds)
{
	char lab[40];
	size_t k = 0;

	if (grow_stack(r, n + 1))
		return 0;
	*names = r->stack;
	*dsos = r->stack + r->cap_stack;
	*kinds = (uint8_t *)(r->stack + 2 * r->cap_stack);
	(*names)[k] = pmu__rpool_add(&r->pool, s->comm);
	(*dsos)[k] = pmu__rpool_add(&r->pool, "");
	(*kinds)[k++] = PMU_FRAME_USER;
	for (size_t i = n; i-- > 0;) {
		if (r->o->no_kernel && f[i].kind == PMU_FRAME_KERNEL)
			continue;
		r->stack_frame[k] = i;
		(*names)[k] = f[i].sym ? pmu__report_intern(r, f[i].sym, 4, NULL) :
			      pmu__rpool_add(&r->pool, pmu__report_frame_label(
					&f[i], lab, sizeof(lab)));
		(*dsos)[k] = pmu__report_intern(r, f[i].dso_short, 1, NULL);
		(*kinds)[k++] = (uint8_t)f[i].kind;
	}
	return k;
}

static int row_part(struct report *r, struct rrow *row, const uint32_t *names,
		    const uint32_t *dsos, const uint8_t *kinds, size_t k,
		    size_t j, uint64_t period);

/* Children: every distinct row along the stack (positions 1..k-1 of
 * build_stack) gets the period once.  With a call graph, as perf's
 * cumulative entries: the sample's own row (self_row) has the whole
 * chain (row_chain), every other row its part of it, from its frame to
 * the leaf (caller order) or to the root (callee order), taken at its
 * first frame in that order (a recursive function's outermost call for
 * caller order). */
static int add_children(struct report *r, struct pmu_profile *p,
			const struct pmu_sample *s, const struct pmu_frame *f,
			ssize_t self_row, const uint32_t *names,
			const uint32_t *dsos, const uint8_t *kinds, size_t k,
			bool chains)
{
	bool caller = r->o->callgraph == PMU_CALLGRAPH_CALLER;
	ssize_t seen[256];
	size_t nseen = 0;
	uint32_t key[RK_MAX];

	for (size_t step = 1; step < k; step++) {
		size_t j = caller ? step : k - step;
		const struct pmu_frame *fr = &f[r->stack_frame[j]];
		bool dup = false;
		ssize_t row;

		if (fr->kind == PMU_FRAME_INLINED)
			continue;
		make_key(r, p, s, fr, fr, key);
		if ((row = row_get(r, key)) < 0)
			return -ENOMEM;
		for (size_t q = 0; q < nseen && !dup; q++)
			dup = seen[q] == row;
		if (dup)
			continue;
		r->rows[row].children += s->period;
		if (nseen < 256)
			seen[nseen++] = row;
		if (chains && row != self_row &&
		    row_part(r, &r->rows[row], names, dsos, kinds, k, j,
			     s->period))
			return -ENOMEM;
	}
	return 0;
}

/* A row's call graph, without the command on top: root first for
 * -g caller, leaf first for -g callee. */
static int row_chain(struct report *r, struct rrow *row, const uint32_t *names,
		     const uint32_t *dsos, const uint8_t *kinds, size_t k,
		     uint64_t period)
{
	uint32_t rn[512], rd[512];
	uint8_t rk[512];
	size_t n = k ? k - 1 : 0;

	if (!row->chains) {
		row->chains = malloc(sizeof(*row->chains));
		if (!row->chains || pmu__rtree_init(row->chains))
			return -ENOMEM;
	}
	if (r->o->callgraph == PMU_CALLGRAPH_CALLER)
		return pmu__rtree_add(row->chains, names + 1, dsos + 1, kinds + 1, n,
				 period, false);
	if (n > 512)
		n = 512;
	for (size_t i = 0; i < n; i++) {
		rn[i] = names[k - 1 - i];
		rd[i] = dsos[k - 1 - i];
		rk[i] = kinds[k - 1 - i];
	}
	return pmu__rtree_add(row->chains, rn, rd, rk, n, period, false);
}

/* An ancestor's part of the chain: from position j to the leaf (caller
 * order) or down to the root (callee order). */
static int row_part(struct report *r, struct rrow *row, const uint32_t *names,
		    const uint32_t *dsos, const uint8_t *kinds, size_t k,
		    size_t j, uint64_t period)
{
	uint32_t rn[512], rd[512];
	uint8_t rk[512];
	size_t n = 0;

	if (!row->chains) {
		row->chains = malloc(sizeof(*row->chains));
		if (!row->chains || pmu__rtree_init(row->chains))
			return -ENOMEM;
	}
	if (r->o->callgraph == PMU_CALLGRAPH_CALLER)
		return pmu__rtree_add(row->chains, names + j, dsos + j, kinds + j,
				 k - j, period, false);
	for (size_t i = j; i >= 1 && n < 512; i--, n++) {
		rn[n] = names[i];
		rd[n] = dsos[i];
		rk[n] = kinds[i];
	}
	return pmu__rtree_add(row->chains, rn, rd, rk, n, period, false);
}

static int add_sample(struct report *r, struct pmu_profile *p,
		      const struct pmu_sample *s)
{
	size_t n;
	const struct pmu_frame *f = pmu__profile_frames(p, &n);
	const struct pmu_frame *leaf = leaf_func(f, n);
	uint32_t key[RK_MAX], *names, *dsos;
	uint8_t *kinds;
	ssize_t row;
	size_t k;

	if (!pmu__report_filter(r->o, s, leaf))
		return 0;
	r->total += s->period;
	r->samples++;
	make_key(r, p, s, leaf, n ? &f[0] : NULL, key);
	if ((row = row_get(r, key)) < 0)
		return -ENOMEM;
	r->rows[row].self += s->period;
	r->rows[row].samples++;
	k = build_stack(r, s, f, n, &names, &dsos, &kinds);
	/* (the children's rows may move the array: the row by its index) */
	if (r->o->children &&
	    add_children(r, p, s, f, row, names, dsos, kinds, k,
			 r->o->callgraph && p->callchains))
		return -ENOMEM;
	if (pmu__rtree_add(&r->tree, names, dsos, kinds, k, s->period, false))
		return -ENOMEM;
	if (r->o->callgraph && p->callchains &&
	    row_chain(r, &r->rows[row], names, dsos, kinds, k, s->period))
		return -ENOMEM;
	return 0;
}

/* The base profile of a differential report: its periods go to
 * base_self and the tree's base_total. */
static int add_base_sample(struct report *r, struct pmu_profile *p,
			   const struct pmu_sample *s)
{
	size_t n;
	const struct pmu_frame *f = pmu__profile_frames(p, &n);
	const struct pmu_frame *leaf = leaf_func(f, n);
	uint32_t key[RK_MAX], *names, *dsos;
	uint8_t *kinds;
	ssize_t row;
	size_t k;

	if (!pmu__report_filter(r->o, s, leaf))
		return 0;
	r->base_total += s->period;
	make_key(r, p, s, leaf, n ? &f[0] : NULL, key);
	if ((row = row_get(r, key)) < 0)
		return -ENOMEM;
	r->rows[row].base_self += s->period;
	k = build_stack(r, s, f, n, &names, &dsos, &kinds);
	return pmu__rtree_add(&r->tree, names, dsos, kinds, k, s->period, true);
}

static const char *const key_names[RK_MAX] = {
	[RK_COMM] = "comm", [RK_PID] = "pid", [RK_TID] = "tid",
	[RK_DSO] = "dso", [RK_SYM] = "sym", [RK_SRCLINE] = "srcline",
	[RK_EVENT] = "event",
};

static int parse_sort(struct report *r, const char *sort,
		      struct pmu_error *err)
{
	const char *p = sort;

	r->nkeys = 0;
	while (*p) {
		size_t n = strcspn(p, ","), k;

		for (k = 0; k < RK_MAX; k++)
			if (strlen(key_names[k]) == n &&
			    !strncmp(key_names[k], p, n))
				break;
		if (k == RK_MAX || r->nkeys == RK_MAX) {
			char tok[64];

			snprintf(tok, sizeof(tok), "%.*s", (int)n, p);
			return pmu__error(err, -EINVAL, PMU_ERR_USAGE, tok,
					  (int)(p - sort), "--sort: '%s' is not "
					  "a sort key (comm, pid, tid, dso, "
					  "sym, srcline, event)", tok);
		}
		r->keys[r->nkeys++] = (enum rkey)k;
		p += n + (p[n] == ',');
	}
	if (!r->nkeys)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, "", 0,
				  "--sort: no sort key given");
	return 0;
}

int pmu__report_collect(struct report *r, struct pmu_profile *p, bool base,
		   struct pmu_error *err)
{
	struct pmu_sample s = { .size = sizeof(s) };
	int ret;

	if (!base) {
		ret = parse_sort(r, r->o->sort ? r->o->sort : "comm,dso,sym",
				 err);
		if (ret)
			return ret;
		if (pmu__rtree_init(&r->tree))
			return -ENOMEM;
		pmu__rpool_add(&r->pool, "");
		r->event = pmu_profile_event_name(p, 0);
		r->lost = p->lost;
	}
	pmu_profile_rewind(p);
	while ((ret = pmu_profile_next(p, &s)) > 0) {
		ret = base ? add_base_sample(r, p, &s) : add_sample(r, p, &s);
		if (ret)
			return pmu__error(err, ret, PMU_ERR_SYSTEM, NULL, -1,
					  "out of memory");
	}
	return ret;
}
