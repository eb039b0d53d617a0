/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "profile/dso.h"
#include "profile/profile.h"
#include "profile/report.h"
#include "util/error.h"
#include "util/jsonstr.h"

/*
 * The Firefox Profiler's processed format, version 44, which its
 * upgraders bring to the current one: one thread per recorded thread
 * with its samples (time, stack) and its share of the stack, frame,
 * function and resource tables and strings (built once for all, each
 * thread given what its samples use); the shared objects as libs, with
 * their build-ids, so the profiler can symbolize and disassemble.
 * Categories: user, kernel, inlined.
 */

struct ff_tab {
	uint64_t *a, *b, *c;    /* columns */
	size_t n, cap;
	uint32_t *hash;
	size_t hcap;
};

static size_t h3(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t h = a * 0x9E3779B97F4A7C15ULL;

	h = (h ^ b) * 0x9E3779B97F4A7C15ULL;
	h = (h ^ c) * 0x9E3779B97F4A7C15ULL;
	return (size_t)(h >> 20);
}

static int tab_rehash(struct ff_tab *t)
{
	size_t cap = t->hcap ? 2 * t->hcap : 1024;
	uint32_t *h = malloc(cap * sizeof(*h));

	if (!h)
		return -ENOMEM;
	memset(h, 0xff, cap * sizeof(*h));
	for (size_t i = 0; i < t->n; i++) {
		size_t k = h3(t->a[i], t->b[i], t->c[i]) & (cap - 1);

		while (h[k] != UINT32_MAX)
			k = (k + 1) & (cap - 1);
		h[k] = (uint32_t)i;
	}
	free(t->hash);
	t->hash = h;
	t->hcap = cap;
	return 0;
}

/* Index of row (a, b, c), added when new; -1 when out of memory. */
static int64_t tab_get(struct ff_tab *t, uint64_t a, uint64_t b, uint64_t c)
{
	size_t k;

	if (2 * (t->n + 1) > t->hcap && tab_rehash(t))
		return -1;
	for (k = h3(a, b, c) & (t->hcap - 1); t->hash[k] != UINT32_MAX;
	     k = (k + 1) & (t->hcap - 1)) {
		uint32_t i = t->hash[k];

		if (t->a[i] == a && t->b[i] == b && t->c[i] == c)
			return i;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 1024;
		uint64_t *x = realloc(t->a, cap * 8), *y, *z;

		if (!x)
			return -1;
		t->a = x;
		if (!(y = realloc(t->b, cap * 8)))
			return -1;
		t->b = y;
		if (!(z = realloc(t->c, cap * 8)))
			return -1;
		t->c = z;
		t->cap = cap;
	}
	t->a[t->n] = a;
	t->b[t->n] = b;
	t->c[t->n] = c;
	t->hash[k] = (uint32_t)t->n;
	return (int64_t)t->n++;
}

static void tab_free(struct ff_tab *t)
{
	free(t->a);
	free(t->b);
	free(t->c);
	free(t->hash);
}

struct ff_sample {
	uint32_t tid, pid;
	uint32_t comm;
	uint64_t time;
	int64_t stack;
};

/* A shared object the profile's libs list names (for symbolication
 * and the assembly view): its path and ids from its build-id. */
struct ff_lib {
	const char *path;
	char breakpad[34];      /* GUID of the build-id's first 16 bytes + age */
	char code[41];          /* the build-id, hex */
};

struct ff {
	struct pmu_profile *p;
	const char *arch;
	struct rpool str;
	struct ff_tab res;      /* (dso string) */
	int64_t *reslib;        /* resource -> lib + 1, 0: none */
	struct ff_tab func;     /* (name, resource, file) */
	struct ff_tab frame;    /* (ip, func, line | depth << 32) */
	struct ff_tab stack;    /* (prefix + 1, frame, category) */
	uint8_t *fcat;          /* category of each frame */
	int64_t *faddr;         /* its address in its file */
	size_t cap_fcat, cap_res;
	struct ff_lib *libs;
	size_t nlibs;
	struct ff_sample *s;
	size_t ns, cap_s;
	uint64_t t0;
};

/* The lib of a resource's DSO (an ELF file with a build-id), its index
 * + 1, or 0. */
static int64_t ff_lib(struct ff *x, const char *path)
{
	struct pmu__dso *d = pmu__dso_get(x->p->dsos, path, NULL, 0);
	uint8_t id[20] = { 0 }, g[16] = { 0 };
	size_t n;
	struct ff_lib *v, *l;

	if (!d || pmu__dso_kind(d) != PMU__DSO_FILE ||
	    !(n = pmu__dso_build_id(d, id)))
		return 0;
	if (!(v = realloc(x->libs, (x->nlibs + 1) * sizeof(*v))))
		return 0;
	x->libs = v;
	l = &x->libs[x->nlibs];
	l->path = pmu__dso_name(d);
	for (size_t i = 0; i < n; i++)
		snprintf(l->code + 2 * i, 3, "%02x", id[i]);
	l->code[2 * n] = '\0';
	/* breakpad's id of an ELF file: its build-id's first 16 bytes as
	 * a GUID (the first three fields byte-swapped), then age 0 */
	memcpy(g, id, n < 16 ? n : 16);
	snprintf(l->breakpad, sizeof(l->breakpad),
		 "%02X%02X%02X%02X%02X%02X%02X%02X%02X%02X%02X%02X%02X%02X"
		 "%02X%02X0", g[3], g[2], g[1], g[0], g[5], g[4], g[7], g[6],
		 g[8], g[9], g[10], g[11], g[12], g[13], g[14], g[15]);
	return (int64_t)++x->nlibs;
}

static int64_t ff_frame(struct ff *x, const struct pmu_frame *f, unsigned depth)
{
	char lab[40];
	uint32_t dso = pmu__rpool_add(&x->str, f->dso);
	size_t nres = x->res.n;
	int64_t res = tab_get(&x->res, dso, 0, 0);

	if (res >= 0 && (size_t)res == nres) {   /* a new resource */
		if (nres >= x->cap_res) {
			size_t cap = x->cap_res ? 2 * x->cap_res : 64;
			int64_t *v = realloc(x->reslib, cap * sizeof(*v));

			if (!v)
				return -1;
			x->reslib = v;
			x->cap_res = cap;
		}
		x->reslib[nres] = ff_lib(x, f->dso);
	}
	uint32_t name = pmu__rpool_add(&x->str, pmu__report_frame_label(f, lab,
							      sizeof(lab)));
	uint32_t file = f->srcfile ? pmu__rpool_add(&x->str, f->srcfile) : 0;
	int64_t fn = res < 0 ? -1 : tab_get(&x->func, name, (uint64_t)res, file);
	int64_t fr = fn < 0 ? -1 : tab_get(&x->frame, f->ip, (uint64_t)fn,
					   f->line | (uint64_t)depth << 32);

	if (fr >= 0 && (size_t)fr >= x->cap_fcat) {
		size_t cap = x->cap_fcat ? 2 * x->cap_fcat : 1024;
		uint8_t *v = realloc(x->fcat, cap);
		int64_t *a = realloc(x->faddr, cap * sizeof(*a));

		if (v)
			x->fcat = v;
		if (a)
			x->faddr = a;
		if (!v || !a)
			return -1;
		x->cap_fcat = cap;
	}
	if (fr >= 0) {
		x->fcat[fr] = (uint8_t)f->kind;
		/* a file's frames by their address in it, as the profiler
		 * takes them to symbolize and disassemble */
		x->faddr[fr] = x->reslib[res] ? (int64_t)f->addr : -1;
	}
	return fr;
}

/* Root first: a stack row's prefix is its caller's row. */
static int64_t ff_stack(struct ff *x, const struct pmu_frame *f, size_t n,
			bool no_kernel)
{
	int64_t prefix = -1;
	unsigned depth = 0;

	for (size_t i = n; i-- > 0;) {
		if (no_kernel && f[i].kind == PMU_FRAME_KERNEL)
			continue;
		/* inlined frames of an address count up from its function */
		depth = f[i].kind == PMU_FRAME_INLINED ? depth + 1 : 0;
		int64_t fr = ff_frame(x, &f[i], depth);

		if (fr < 0)
			return -1;
		prefix = tab_get(&x->stack, (uint64_t)(prefix + 1),
				 (uint64_t)fr, x->fcat[fr]);
		if (prefix < 0)
			return -1;
	}
	return prefix;
}

static int ff_add(struct ff *x, struct pmu_profile *p,
		  const struct pmu_sample *s, const struct pmu_report_opts *o)
{
	size_t n;
	const struct pmu_frame *f = pmu__profile_frames(p, &n);

	if (!pmu__report_filter(o, s, n ? &f[0] : NULL))
		return 0;
	if (x->ns == x->cap_s) {
		size_t cap = x->cap_s ? 2 * x->cap_s : 4096;
		struct ff_sample *v = realloc(x->s, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		x->s = v;
		x->cap_s = cap;
	}
	if (!x->ns)
		x->t0 = s->time;
	x->s[x->ns++] = (struct ff_sample){ s->tid, s->pid,
					    pmu__rpool_add(&x->str, s->comm),
					    s->time, ff_stack(x, f, n,
							      o->no_kernel) };
	return 0;
}

static void jstr(FILE *o, const char *s)
{
	pmu__json_fputs(o, s);
}

/* ---- one thread's share of the tables ---- */

/* old index -> new index of one thread's tables, -1 where unused; the
 * touched entries are reset after the thread. */
struct remap {
	int64_t *map;
	size_t *touched;
	size_t nt;
};

static int remap_init(struct remap *m, size_t n)
{
	m->map = malloc((n + 1) * sizeof(*m->map));
	m->touched = malloc((n + 1) * sizeof(*m->touched));
	m->nt = 0;
	if (!m->map || !m->touched)
		return -ENOMEM;
	for (size_t i = 0; i <= n; i++)
		m->map[i] = -1;
	return 0;
}

static void remap_mark(struct remap *m, size_t i)
{
	if (m->map[i] == -1) {
		m->map[i] = -2;          /* used; numbered later */
		m->touched[m->nt++] = i;
	}
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* Number the used entries in their old order (a stack's prefix keeps
 * coming before it). */
static void remap_number(struct remap *m)
{
	qsort(m->touched, m->nt, sizeof(*m->touched), cmp_size);
	for (size_t k = 0; k < m->nt; k++)
		m->map[m->touched[k]] = (int64_t)k;
}

static void remap_reset(struct remap *m)
{
	for (size_t k = 0; k < m->nt; k++)
		m->map[m->touched[k]] = -1;
	m->nt = 0;
}

struct ff_out {
	struct remap st, fr, fn, res, str;
	int64_t *res_lib;        /* resource -> profile lib, -1: none */
};

/* idx[0..n): the thread's samples, in time order. */
static void mark_thread(struct ff_out *w, const struct ff *x,
			const uint64_t (*idx)[2], size_t n)
{
	for (size_t k = 0; k < n; k++) {
		size_t i = idx[k][1];
		int64_t st = x->s[i].stack;

		remap_mark(&w->str, x->s[i].comm);
		/* the stack and its prefixes, up to one already marked */
		while (st >= 0 && w->st.map[st] == -1) {
			remap_mark(&w->st, (size_t)st);
			st = (int64_t)x->stack.a[st] - 1;
		}
	}
	for (size_t k = 0; k < w->st.nt; k++)
		remap_mark(&w->fr, x->stack.b[w->st.touched[k]]);
	for (size_t k = 0; k < w->fr.nt; k++)
		remap_mark(&w->fn, x->frame.b[w->fr.touched[k]]);
	for (size_t k = 0; k < w->fn.nt; k++) {
		size_t f = w->fn.touched[k];

		remap_mark(&w->res, x->func.b[f]);
		remap_mark(&w->str, x->func.a[f]);
		if (x->func.c[f])
			remap_mark(&w->str, x->func.c[f]);
	}
	for (size_t k = 0; k < w->res.nt; k++)
		remap_mark(&w->str, x->res.a[w->res.touched[k]]);
	remap_number(&w->st);
	remap_number(&w->fr);
	remap_number(&w->fn);
	remap_number(&w->res);
	remap_number(&w->str);
}

static void list_start(FILE *o, const char *name, bool first)
{
	fprintf(o, "%s\"%s\":[", first ? "" : ",", name);
}

/* The k-th number of a list (a comma before all but the first), or
 * null where there is none. */
static void item(FILE *o, size_t k, bool has, int64_t v)
{
	if (k)
		fputc(',', o);
	if (has)
		fprintf(o, "%" PRId64, v);
	else
		fputs("null", o);
}

static void repeat(FILE *o, const char *name, const char *val, size_t n)
{
	list_start(o, name, false);
	for (size_t i = 0; i < n; i++)
		fprintf(o, "%s%s", i ? "," : "", val);
	fputc(']', o);
}

/* The thread's tables: stack (root prefix null), frame (addresses in
 * the file's own, with their lib), func, resource, strings. */
static void tables(FILE *o, const struct ff *x, const struct ff_out *w)
{
	const struct remap *st = &w->st, *fr = &w->fr, *fn = &w->fn,
			   *res = &w->res, *str = &w->str;

	fputs("\"stackTable\":{", o);
	list_start(o, "prefix", true);
	for (size_t k = 0; k < st->nt; k++) {
		uint64_t pre = x->stack.a[st->touched[k]];

		item(o, k, pre, pre ? st->map[pre - 1] : 0);
	}
	fputc(']', o);
	list_start(o, "frame", false);
	for (size_t k = 0; k < st->nt; k++)
		item(o, k, true, fr->map[x->stack.b[st->touched[k]]]);
	fputc(']', o);
	list_start(o, "category", false);
	for (size_t k = 0; k < st->nt; k++)
		item(o, k, true, (int64_t)x->stack.c[st->touched[k]]);
	fputc(']', o);
	repeat(o, "subcategory", "0", st->nt);
	fprintf(o, ",\"length\":%zu},\"frameTable\":{", st->nt);
	list_start(o, "address", true);
	for (size_t k = 0; k < fr->nt; k++)
		item(o, k, true, x->faddr[fr->touched[k]]);
	fputc(']', o);
	list_start(o, "func", false);
	for (size_t k = 0; k < fr->nt; k++)
		item(o, k, true, fn->map[x->frame.b[fr->touched[k]]]);
	fputc(']', o);
	list_start(o, "inlineDepth", false);
	for (size_t k = 0; k < fr->nt; k++)
		item(o, k, true, (int64_t)(x->frame.c[fr->touched[k]] >> 32));
	fputc(']', o);
	list_start(o, "line", false);
	for (size_t k = 0; k < fr->nt; k++) {
		uint32_t l = (uint32_t)x->frame.c[fr->touched[k]];

		item(o, k, l, l);
	}
	fputc(']', o);
	list_start(o, "category", false);
	for (size_t k = 0; k < fr->nt; k++)
		item(o, k, true, x->fcat[fr->touched[k]]);
	fputc(']', o);
	repeat(o, "subcategory", "0", fr->nt);
	repeat(o, "column", "null", fr->nt);
	repeat(o, "nativeSymbol", "null", fr->nt);
	repeat(o, "innerWindowID", "0", fr->nt);
	repeat(o, "implementation", "null", fr->nt);
	fprintf(o, ",\"length\":%zu},\"funcTable\":{", fr->nt);
	list_start(o, "name", true);
	for (size_t k = 0; k < fn->nt; k++)
		item(o, k, true, str->map[x->func.a[fn->touched[k]]]);
	fputc(']', o);
	list_start(o, "resource", false);
	for (size_t k = 0; k < fn->nt; k++)
		item(o, k, true, res->map[x->func.b[fn->touched[k]]]);
	fputc(']', o);
	list_start(o, "fileName", false);
	for (size_t k = 0; k < fn->nt; k++) {
		uint64_t f = x->func.c[fn->touched[k]];

		item(o, k, f, f ? str->map[f] : 0);
	}
	fputc(']', o);
	repeat(o, "isJS", "false", fn->nt);
	repeat(o, "relevantForJS", "false", fn->nt);
	repeat(o, "lineNumber", "null", fn->nt);
	repeat(o, "columnNumber", "null", fn->nt);
	fprintf(o, ",\"length\":%zu},\"resourceTable\":{", fn->nt);
	list_start(o, "name", true);
	for (size_t k = 0; k < res->nt; k++)
		item(o, k, true, str->map[x->res.a[res->touched[k]]]);
	fputc(']', o);
	list_start(o, "lib", false);
	for (size_t k = 0; k < res->nt; k++) {
		int64_t lib = w->res_lib[res->touched[k]];

		item(o, k, lib >= 0, lib);
	}
	fputc(']', o);
	repeat(o, "host", "null", res->nt);
	repeat(o, "type", "1", res->nt);
	fprintf(o, ",\"length\":%zu},\"nativeSymbols\":{\"libIndex\":[],"
		"\"address\":[],\"name\":[],\"functionSize\":[],\"length\":0},"
		"\"stringArray\":[", res->nt);
	for (size_t k = 0; k < str->nt; k++) {
		if (k)
			fputc(',', o);
		jstr(o, pmu__rpool_get(&x->str, (uint32_t)str->touched[k]));
	}
	fputc(']', o);
}

/* pid a number, tid a string, as version 44 had them: the upgraders
 * then make the process's own thread its main thread (its track) and
 * every other thread a track of its own under it. */
static void thread(FILE *o, const struct ff *x, struct ff_out *w,
		   const uint64_t (*idx)[2], size_t n, bool first)
{
	const struct ff_sample *s0 = &x->s[idx[0][1]];
	uint32_t tid = s0->tid;

	mark_thread(w, x, idx, n);
	fprintf(o, "%s{\"name\":", first ? "" : ",");
	jstr(o, pmu__rpool_get(&x->str, s0->comm));
	fputs(",\"processName\":", o);
	jstr(o, pmu__rpool_get(&x->str, s0->comm));
	fprintf(o, ",\"processType\":\"default\",\"pid\":%u,\"tid\":\"%u\","
		"\"registerTime\":0,\"unregisterTime\":null,"
		"\"processStartupTime\":0,"
		"\"markers\":{\"data\":[],\"name\":[],\"startTime\":[],"
		"\"endTime\":[],\"phase\":[],\"category\":[],\"length\":0},"
		"\"samples\":{\"weightType\":\"samples\",\"weight\":null,"
		"\"stack\":[", s0->pid, tid);
	for (size_t k = 0; k < n; k++) {
		const struct ff_sample *s = &x->s[idx[k][1]];

		item(o, k, s->stack >= 0,
		     s->stack >= 0 ? w->st.map[s->stack] : 0);
	}
	fputs("],\"time\":[", o);
	for (size_t k = 0; k < n; k++)
		fprintf(o, "%s%.6f", k ? "," : "",
			(double)(x->s[idx[k][1]].time - x->t0) / 1e6);
	fprintf(o, "],\"length\":%zu},", n);
	tables(o, x, w);
	fputc('}', o);
	remap_reset(&w->st);
	remap_reset(&w->fr);
	remap_reset(&w->fn);
	remap_reset(&w->res);
	remap_reset(&w->str);
}

/* The threads in the order their first samples came. */
static int cmp_first(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) :
	       x[1] < y[1] ? -1 : x[1] > y[1];
}

static void write_libs(FILE *o, const struct ff *x)
{
	fputs("\"libs\":[", o);
	for (size_t i = 0; i < x->nlibs; i++) {
		const struct ff_lib *l = &x->libs[i];
		const char *base = strrchr(l->path, '/');

		base = base ? base + 1 : l->path;
		fprintf(o, "%s{\"arch\":", i ? "," : "");
		jstr(o, x->arch);
		fputs(",\"name\":", o);
		jstr(o, base);
		fputs(",\"path\":", o);
		jstr(o, l->path);
		fputs(",\"debugName\":", o);
		jstr(o, base);
		fputs(",\"debugPath\":", o);
		jstr(o, l->path);
		fprintf(o, ",\"breakpadId\":\"%s\",\"codeId\":", l->breakpad);
		if (l->code[0])
			fprintf(o, "\"%s\"}", l->code);
		else
			fputs("null}", o);
	}
	fputs("],", o);
}

static int write_profile(FILE *o, const struct ff *x, double interval_ms)
{
	struct ff_out w = { 0 };
	uint64_t (*first)[2] = malloc((x->ns + 1) * sizeof(*first));
	uint64_t (*order)[2] = malloc((x->ns + 1) * sizeof(*order));
	size_t nt = 0;
	int ret = 0;

	if (!first || !order || remap_init(&w.st, x->stack.n) ||
	    remap_init(&w.fr, x->frame.n) || remap_init(&w.fn, x->func.n) ||
	    remap_init(&w.res, x->res.n) || remap_init(&w.str, x->str.n) ||
	    !(w.res_lib = malloc((x->res.n + 1) * sizeof(*w.res_lib)))) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < x->res.n; i++)
		w.res_lib[i] = x->reslib[i] - 1;
	fprintf(o, "{\"meta\":{\"version\":24,\"preprocessedProfileVersion\":44,"
		"\"interval\":%.6f,\"startTime\":0,\"processType\":0,"
		"\"product\":\"pmu\",\"stackwalk\":1,\"symbolicated\":true,"
		"\"debug\":false,\"markerSchema\":[],\"categories\":["
		"{\"name\":\"User\",\"color\":\"yellow\",\"subcategories\":"
		"[\"Other\"]},{\"name\":\"Kernel\",\"color\":\"orange\","
		"\"subcategories\":[\"Other\"]},{\"name\":\"Inlined\","
		"\"color\":\"blue\",\"subcategories\":[\"Other\"]}]},",
		interval_ms);
	write_libs(o, x);
	fputs("\"pages\":[],\"counters\":[],\"threads\":[", o);
	/* every thread, in the order of its first sample */
	for (size_t i = 0; i < x->ns; i++) {
		first[i][0] = x->s[i].tid;
		first[i][1] = i;
	}
	/* by thread, each thread's samples in order: one range each */
	qsort(first, x->ns, sizeof(*first), cmp_first);
	for (size_t i = 0; i < x->ns; i++)
		if (!i || first[i][0] != first[i - 1][0]) {
			order[nt][0] = first[i][1];     /* its first sample */
			order[nt++][1] = i;             /* its range's start */
		}
	qsort(order, nt, sizeof(*order), cmp_first);
	for (size_t k = 0; k < nt; k++) {
		size_t b = order[k][1], e = b + 1;

		while (e < x->ns && first[e][0] == first[b][0])
			e++;
		thread(o, x, &w, first + b, e - b, k == 0);
	}
	fputs("]}\n", o);
out:
	free(first);
	free(order);
	free(w.st.map); free(w.st.touched);
	free(w.fr.map); free(w.fr.touched);
	free(w.fn.map); free(w.fn.touched);
	free(w.res.map); free(w.res.touched);
	free(w.str.map); free(w.str.touched);
	free(w.res_lib);
	return ret;
}

/* The sampling interval in ms: 1000 / the frequency, or a clock's
 * fixed period; for a fixed period of another event (no time of its
 * own), the mean gap between samples. */
static double interval_ms(struct pmu_profile *p, uint64_t gaps, uint64_t ngaps)
{
	const struct perf_event_attr *a = p->f.nattr ? &p->f.attr[0].attr : NULL;
	const char *ev = pmu_profile_event_name(p, 0);

	if (a && a->freq && a->sample_freq)
		return 1000.0 / (double)a->sample_freq;
	if (a && !a->freq && pmu__report_clock_event(ev) && a->sample_period)
		return (double)a->sample_period / 1e6;
	return ngaps ? (double)gaps / (double)ngaps / 1e6 : 1.0;
}

int pmu__report_firefox(struct pmu_profile *p, const struct pmu_report_opts *o,
		   FILE *out, struct pmu_error *err)
{
	struct pmu_sample s = { .size = sizeof(s) };
	struct pmu_profile_info in = { .size = sizeof(in) };
	struct ff x = { .p = p };
	uint64_t last = 0, gaps = 0, ngaps = 0;
	int ret;

	pmu_profile_info(p, &in);
	x.arch = in.arch && in.arch[0] ? in.arch : "x86_64";
	pmu__rpool_add(&x.str, "");
	pmu_profile_rewind(p);
	while ((ret = pmu_profile_next(p, &s)) > 0) {
		if (last && s.time > last) {
			gaps += s.time - last;
			ngaps++;
		}
		last = s.time;
		if ((ret = ff_add(&x, p, &s, o)))
			break;
	}
	if (!ret)
		ret = write_profile(out, &x, interval_ms(p, gaps, ngaps));
	tab_free(&x.res);
	tab_free(&x.func);
	tab_free(&x.frame);
	tab_free(&x.stack);
	free(x.fcat);
	free(x.faddr);
	free(x.reslib);
	free(x.libs);
	free(x.s);
	for (size_t i = 0; i < x.str.n; i++)
		free(x.str.s[i]);
	free(x.str.s);
	free(x.str.hash);
	if (ret || ferror(out))
		return pmu__error(err, ret ? ret : -EIO, PMU_ERR_SYSTEM, NULL, -1,
				  "cannot write the Firefox profile");
	return 0;
}
