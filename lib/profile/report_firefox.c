/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "profile/report.h"
#include "util/error.h"
#include "util/jsonstr.h"

/*
 * The Firefox Profiler's processed format (as samply writes it): one
 * thread per recorded thread with its samples (time, stack); the stack,
 * frame, function and resource tables and the strings are built once
 * and given to every thread.  Categories: user, kernel, inlined.
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

struct ff {
	struct rpool str;
	struct ff_tab res;      /* (dso string) */
	struct ff_tab func;     /* (name, resource, file) */
	struct ff_tab frame;    /* (addr, func, line | depth << 32) */
	struct ff_tab stack;    /* (prefix + 1, frame, category) */
	uint8_t *fcat;          /* category of each frame */
	size_t cap_fcat;
	struct ff_sample *s;
	size_t ns, cap_s;
	uint64_t t0;
};

static int64_t ff_frame(struct ff *x, const struct pmu_frame *f, unsigned depth)
{
	char lab[40];
	uint32_t dso = rpool_add(&x->str, f->dso);
	int64_t res = tab_get(&x->res, dso, 0, 0);
	uint32_t name = rpool_add(&x->str, report_frame_label(f, lab,
							      sizeof(lab)));
	uint32_t file = f->srcfile ? rpool_add(&x->str, f->srcfile) : 0;
	int64_t fn = res < 0 ? -1 : tab_get(&x->func, name, (uint64_t)res, file);
	int64_t fr = fn < 0 ? -1 : tab_get(&x->frame, f->ip, (uint64_t)fn,
					   f->line | (uint64_t)depth << 32);

	if (fr >= 0 && (size_t)fr >= x->cap_fcat) {
		size_t cap = x->cap_fcat ? 2 * x->cap_fcat : 1024;
		uint8_t *v = realloc(x->fcat, cap);

		if (!v)
			return -1;
		x->fcat = v;
		x->cap_fcat = cap;
	}
	if (fr >= 0)
		x->fcat[fr] = (uint8_t)f->kind;
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

	if (!report_filter(o, s, n ? &f[0] : NULL))
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
					    rpool_add(&x->str, s->comm),
					    s->time, ff_stack(x, f, n,
							      o->no_kernel) };
	return 0;
}

static void jstr(FILE *o, const char *s)
{
	pmu__json_fputs(o, s);
}

static void col(FILE *o, const char *name, const struct ff_tab *t, int which,
		int64_t add, bool first)
{
	const uint64_t *v = which == 0 ? t->a : which == 1 ? t->b : t->c;

	fprintf(o, "%s\"%s\":[", first ? "" : ",", name);
	for (size_t i = 0; i < t->n; i++)
		fprintf(o, "%s%" PRId64, i ? "," : "", (int64_t)v[i] + add);
	fputc(']', o);
}

static void repeat(FILE *o, const char *name, const char *val, size_t n)
{
	fprintf(o, ",\"%s\":[", name);
	for (size_t i = 0; i < n; i++)
		fprintf(o, "%s%s", i ? "," : "", val);
	fputc(']', o);
}

static void tables(FILE *o, const struct ff *x)
{
	fputs("\"stackTable\":{", o);
	col(o, "prefix", &x->stack, 0, -1, true);
	col(o, "frame", &x->stack, 1, 0, false);
	col(o, "category", &x->stack, 2, 0, false);
	repeat(o, "subcategory", "0", x->stack.n);
	fprintf(o, ",\"length\":%zu},\"frameTable\":{", x->stack.n);
	col(o, "address", &x->frame, 0, 0, true);
	col(o, "func", &x->frame, 1, 0, false);
	fputs(",\"inlineDepth\":[", o);
	for (size_t i = 0; i < x->frame.n; i++)
		fprintf(o, "%s%" PRIu64, i ? "," : "", x->frame.c[i] >> 32);
	fputs("],\"line\":[", o);
	for (size_t i = 0; i < x->frame.n; i++) {
		uint32_t l = (uint32_t)x->frame.c[i];

		fprintf(o, i ? "," : "");
		if (l)
			fprintf(o, "%u", l);
		else
			fputs("null", o);
	}
	fputs("],\"category\":[", o);
	for (size_t i = 0; i < x->frame.n; i++)
		fprintf(o, "%s%u", i ? "," : "", x->fcat[i]);
	fputc(']', o);
	repeat(o, "subcategory", "0", x->frame.n);
	repeat(o, "column", "null", x->frame.n);
	repeat(o, "nativeSymbol", "null", x->frame.n);
	repeat(o, "innerWindowID", "0", x->frame.n);
	repeat(o, "implementation", "null", x->frame.n);
	fprintf(o, ",\"length\":%zu},\"funcTable\":{", x->frame.n);
	col(o, "name", &x->func, 0, 0, true);
	col(o, "resource", &x->func, 1, 0, false);
	fputs(",\"fileName\":[", o);
	for (size_t i = 0; i < x->func.n; i++) {
		fprintf(o, i ? "," : "");
		if (x->func.c[i])
			fprintf(o, "%" PRIu64, x->func.c[i]);
		else
			fputs("null", o);
	}
	fputc(']', o);
	repeat(o, "isJS", "false", x->func.n);
	repeat(o, "relevantForJS", "false", x->func.n);
	repeat(o, "lineNumber", "null", x->func.n);
	repeat(o, "columnNumber", "null", x->func.n);
	fprintf(o, ",\"length\":%zu},\"resourceTable\":{", x->func.n);
	col(o, "name", &x->res, 0, 0, true);
	repeat(o, "lib", "null", x->res.n);
	repeat(o, "host", "null", x->res.n);
	repeat(o, "type", "1", x->res.n);
	fprintf(o, ",\"length\":%zu},\"nativeSymbols\":{\"libIndex\":[],"
		"\"address\":[],\"name\":[],\"functionSize\":[],\"length\":0},"
		"\"stringArray\":[", x->res.n);
	for (size_t i = 0; i < x->str.n; i++) {
		if (i)
			fputc(',', o);
		jstr(o, x->str.s[i]);
	}
	fputc(']', o);
}

static void thread(FILE *o, const struct ff *x, uint32_t tid, bool first)
{
	const struct ff_sample *s0 = NULL;
	size_t n = 0;

	for (size_t i = 0; i < x->ns; i++)
		if (x->s[i].tid == tid) {
			s0 = s0 ? s0 : &x->s[i];
			n++;
		}
	fprintf(o, "%s{\"name\":", first ? "" : ",");
	jstr(o, rpool_get(&x->str, s0->comm));
	fputs(",\"processName\":", o);
	jstr(o, rpool_get(&x->str, s0->comm));
	fprintf(o, ",\"processType\":\"default\",\"pid\":\"%u\",\"tid\":%u,"
		"\"registerTime\":0,\"unregisterTime\":null,"
		"\"processStartupTime\":0,\"isMainThread\":%s,"
		"\"markers\":{\"data\":[],\"name\":[],\"startTime\":[],"
		"\"endTime\":[],\"phase\":[],\"category\":[],\"length\":0},"
		"\"samples\":{\"weightType\":\"samples\",\"weight\":null,"
		"\"stack\":[", s0->pid, tid, s0->pid == tid ? "true" : "false");
	for (size_t i = 0, k = 0; i < x->ns; i++)
		if (x->s[i].tid == tid)
			fprintf(o, "%s%" PRId64, k++ ? "," : "", x->s[i].stack);
	fputs("],\"time\":[", o);
	for (size_t i = 0, k = 0; i < x->ns; i++)
		if (x->s[i].tid == tid)
			fprintf(o, "%s%.6f", k++ ? "," : "",
				(double)(x->s[i].time - x->t0) / 1e6);
	fprintf(o, "],\"length\":%zu},", n);
	tables(o, x);
	fputc('}', o);
}

static void write_profile(FILE *o, const struct ff *x, double interval_ms)
{
	fprintf(o, "{\"meta\":{\"version\":24,\"preprocessedProfileVersion\":44,"
		"\"interval\":%.6f,\"startTime\":0,\"processType\":0,"
		"\"product\":\"pmu\",\"stackwalk\":1,\"symbolicated\":true,"
		"\"debug\":false,\"markerSchema\":[],\"categories\":["
		"{\"name\":\"User\",\"color\":\"yellow\",\"subcategories\":"
		"[\"Other\"]},{\"name\":\"Kernel\",\"color\":\"orange\","
		"\"subcategories\":[\"Other\"]},{\"name\":\"Inlined\","
		"\"color\":\"blue\",\"subcategories\":[\"Other\"]}]},"
		"\"libs\":[],\"pages\":[],\"counters\":[],\"threads\":[",
		interval_ms);
	uint32_t done[1024];
	size_t nd = 0;

	for (size_t i = 0; i < x->ns && nd < 1024; i++) {
		bool seen = false;

		for (size_t k = 0; k < nd && !seen; k++)
			seen = done[k] == x->s[i].tid;
		if (seen)
			continue;
		thread(o, x, x->s[i].tid, nd == 0);
		done[nd++] = x->s[i].tid;
	}
	fputs("]}\n", o);
}

int report_firefox(struct pmu_profile *p, const struct pmu_report_opts *o,
		   FILE *out, struct pmu_error *err)
{
	struct pmu_sample s = { .size = sizeof(s) };
	struct ff x = { 0 };
	uint64_t last = 0, gaps = 0, ngaps = 0;
	int ret;

	rpool_add(&x.str, "");
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
		write_profile(out, &x, ngaps ? (double)gaps / ngaps / 1e6 : 1.0);
	tab_free(&x.res);
	tab_free(&x.func);
	tab_free(&x.frame);
	tab_free(&x.stack);
	free(x.fcat);
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
