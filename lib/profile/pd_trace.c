/* SPDX-License-Identifier: MIT */
/*
 * TRACING_DATA: the tracefs formats of a recording's tracepoints, and
 * the text of a tracepoint's record (its RAW data) from its format.
 *
 * A record prints as its format's print fmt says, as perf prints it
 * (pd_trace_fmt.c); where that has a helper or a conversion that is not
 * run, as the list of its fields, name=value.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/pd_trace.h"

struct cur {
	const unsigned char *p, *end;
	bool bad;
};

static const unsigned char *take(struct cur *c, uint64_t n)
{
	const unsigned char *p = c->p;

	if (c->bad || n > (uint64_t)(c->end - c->p)) {
		c->bad = true;
		return NULL;
	}
	c->p += n;
	return p;
}

static uint64_t take_u(struct cur *c, int width)
{
	const unsigned char *p = take(c, (uint64_t)width);
	uint64_t v = 0;

	if (p)
		memcpy(&v, p, (size_t)width);   /* little-endian files only */
	return v;
}

static const char *take_str(struct cur *c)
{
	const unsigned char *s = c->p;

	while (c->p < c->end && *c->p)
		c->p++;
	if (c->p >= c->end) {
		c->bad = true;
		return NULL;
	}
	c->p++;
	return (const char *)s;
}

/* ---- one format ---- */

static char *dupn(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/* "\tfield:TYPE NAME[N];\toffset:O;\tsize:S;\tsigned:G;" */
static int parse_field(struct pd_tp *tp, const char *line)
{
	const char *decl = strstr(line, "field:"), *semi, *nm;
	struct pd_tp_field *f, *v;
	unsigned off, size, sig = 0;
	const char *o = strstr(line, "offset:"), *sz = strstr(line, "size:"),
		   *sg = strstr(line, "signed:");

	if (!decl || !o || !sz || sscanf(o, "offset:%u", &off) != 1 ||
	    sscanf(sz, "size:%u", &size) != 1)
		return 0;
	if (sg)
		sscanf(sg, "signed:%u", &sig);
	decl += 6;
	if (!(semi = strchr(decl, ';')))
		return 0;
	/* the name is the last word, before an array's [N] */
	nm = semi;
	while (nm > decl && nm[-1] == ']')
		while (nm > decl && *--nm != '[')
			;
	const char *end = nm;

	while (nm > decl && (nm[-1] == '_' || (nm[-1] >= 'a' && nm[-1] <= 'z') ||
			     (nm[-1] >= 'A' && nm[-1] <= 'Z') ||
			     (nm[-1] >= '0' && nm[-1] <= '9')))
		nm--;
	if (nm == end)
		return 0;
	if (!(v = realloc(tp->field, (tp->nfield + 1) * sizeof(*v))))
		return -ENOMEM;
	tp->field = v;
	f = &tp->field[tp->nfield];
	memset(f, 0, sizeof(*f));
	if (!(f->name = dupn(nm, (size_t)(end - nm))))
		return -ENOMEM;
	f->offset = off;
	f->size = size;
	if (*end == '[') {
		unsigned long cnt = strtoul(end + 1, NULL, 10);

		f->count = cnt && cnt <= size ? (unsigned)cnt : 0;
	}
	f->is_signed = sig != 0;
	f->dyn = !strncmp(decl, "__data_loc", 10);
	f->ptr = memchr(decl, '*', (size_t)(nm - decl)) != NULL;
	f->str = !f->dyn && strstr(decl, "char ") == decl && *end == '[';
	f->str |= f->dyn && strstr(decl, "char[]") != NULL;
	f->common = !strncmp(f->name, "common_", 7);
	tp->nfield++;
	return 0;
}

static int parse_format(struct pd_trace *t, const char *sys, const char *text,
			size_t len)
{
	char *s = dupn(text, len), *line, *save = NULL;
	struct pd_tp *v, *tp;
	int ret = 0;

	if (!s)
		return -ENOMEM;
	if (!(v = realloc(t->tp, (t->ntp + 1) * sizeof(*v)))) {
		free(s);
		return -ENOMEM;
	}
	t->tp = v;
	tp = &t->tp[t->ntp++];
	memset(tp, 0, sizeof(*tp));
	tp->sys = strdup(sys);
	for (line = strtok_r(s, "\n", &save); line && !ret;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long long id;

		/* a repeated line replaces the earlier one */
		if (!strncmp(line, "name: ", 6)) {
			free(tp->name);
			tp->name = strdup(line + 6);
		}
		else if (sscanf(line, "ID: %llu", &id) == 1)
			tp->id = id;
		else if (strstr(line, "field:"))
			ret = parse_field(tp, line);
		else if (!strncmp(line, "print fmt: ", 11)) {
			free(tp->fmt);
			tp->fmt = strdup(line + 11);
		}
	}
	free(s);
	if (!ret)
		tp->pfmt = pmu__pd_fmt_compile(tp);
	return ret;
}

/* ---- the feature ---- */

static int kstr_cmp(const void *a, const void *b)
{
	const struct pd_kstr *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* printk_formats: lines "0xADDR : \"TEXT\"" (the quotes kept out). */
static int parse_printk(struct pd_trace *t, const char *text, size_t len)
{
	size_t at = 0;

	while (at < len) {
		const char *line = text + at, *nl = memchr(line, '\n', len - at);
		size_t n = nl ? (size_t)(nl - line) : len - at;
		const char *q = memchr(line, '"', n), *e, *h = line, *d0;
		uint64_t addr = 0;
		struct pd_kstr *v;

		at += n + 1;
		/* "0x" and hex digits, within the line (no terminator here) */
		if (n > 2 && h[0] == '0' && (h[1] | 0x20) == 'x')
			h += 2;
		d0 = h;
		for (; h < line + n && isxdigit((unsigned char)*h); h++)
			addr = addr << 4 | (uint64_t)(*h <= '9' ? *h - '0'
							  : (*h | 0x20) - 'a' + 10);
		if (!q || h == d0 || q < h)
			continue;
		e = line + n;
		while (e > q + 1 && (e[-1] == ' ' || e[-1] == '\r'))
			e--;
		if (e > q + 1 && e[-1] == '"')
			e--;
		if (!(v = realloc(t->kstr, (t->nkstr + 1) * sizeof(*v))))
			return -ENOMEM;
		t->kstr = v;
		if (!(v[t->nkstr].s = dupn(q + 1, (size_t)(e - q - 1))))
			return -ENOMEM;
		v[t->nkstr++].addr = addr;
	}
	if (t->nkstr)
		qsort(t->kstr, t->nkstr, sizeof(*t->kstr), kstr_cmp);
	return 0;
}

const char *pmu__pd_trace_kstr(const struct pd_trace *t, uint64_t addr)
{
	size_t lo = 0, hi = t ? t->nkstr : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->kstr[mid].addr == addr)
			return t->kstr[mid].s;
		if (t->kstr[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int pmu__pd_trace_parse(struct pd_trace *t, const void *data, size_t len)
{
	struct cur c = { data, (const unsigned char *)data + len, false };
	const unsigned char *magic = take(&c, 10);
	const char *ver;
	uint32_t n, nsys;
	int ret = 0;

	if (!magic || magic[0] != 23 || magic[1] != 8 || magic[2] != 68 ||
	    memcmp(magic + 3, "tracing", 7) || !(ver = take_str(&c)))
		return -EINVAL;
	if (take_u(&c, 1))              /* big-endian: not read */
		return -EOPNOTSUPP;
	take(&c, 1);                    /* long size */
	take(&c, 4);                    /* page size */
	for (int h = 0; h < 2; h++) {   /* header_page, header_event */
		take_str(&c);
		take(&c, take_u(&c, 8));
	}
	n = (uint32_t)take_u(&c, 4);    /* ftrace's own events */
	for (uint32_t i = 0; i < n && !c.bad && !ret; i++) {
		uint64_t sz = take_u(&c, 8);
		const unsigned char *f = take(&c, sz);

		if (f)
			ret = parse_format(t, "ftrace", (const char *)f,
					   (size_t)sz);
	}
	nsys = (uint32_t)take_u(&c, 4);
	for (uint32_t s = 0; s < nsys && !c.bad && !ret; s++) {
		const char *sys = take_str(&c);

		n = (uint32_t)take_u(&c, 4);
		for (uint32_t i = 0; i < n && !c.bad && !ret && sys; i++) {
			uint64_t sz = take_u(&c, 8);
			const unsigned char *f = take(&c, sz);

			if (f)
				ret = parse_format(t, sys, (const char *)f,
						   (size_t)sz);
		}
	}
	/* kallsyms (not used: the profile has its own), then the printk
	 * formats, which older writers may lack */
	if (!c.bad && !ret) {
		uint32_t nk = (uint32_t)take_u(&c, 4);

		take(&c, nk);
		nk = (uint32_t)take_u(&c, 4);
		const unsigned char *pk = take(&c, nk);

		if (pk)
			ret = parse_printk(t, (const char *)pk, nk);
	}
	(void)ver;
	return ret ? ret : c.bad && !t->ntp ? -EINVAL : 0;
}

const struct pd_tp *pmu__pd_trace_find(const struct pd_trace *t, uint64_t id)
{
	for (size_t i = 0; t && i < t->ntp; i++)
		if (t->tp[i].id == id)
			return &t->tp[i];
	return NULL;
}

void pmu__pd_trace_free(struct pd_trace *t)
{
	for (size_t i = 0; t && i < t->ntp; i++) {
		for (size_t k = 0; k < t->tp[i].nfield; k++)
			free(t->tp[i].field[k].name);
		free(t->tp[i].field);
		free(t->tp[i].sys);
		free(t->tp[i].name);
		free(t->tp[i].fmt);
		pmu__pd_fmt_free(t->tp[i].pfmt);
	}
	for (size_t i = 0; t && i < t->nkstr; i++)
		free(t->kstr[i].s);
	if (t) {
		free(t->kstr);
		free(t->tp);
		memset(t, 0, sizeof(*t));
	}
}

/* ---- a record as text ---- */

bool pmu__pd_field_in(const struct pd_tp_field *f, size_t size)
{
	return f->offset <= size && f->size <= size - f->offset;
}

uint64_t pmu__pd_trace_num(const unsigned char *p, unsigned size,
			   bool is_signed)
{
	uint64_t v = 0;
	unsigned n = size > 8 ? 8 : size;

	memcpy(&v, p, n);
	if (is_signed && n > 0 && n < 8 && (v >> (8 * n - 1)) & 1)
		v |= ~0ull << (8 * n);
	return v;
}

static uint64_t num(const struct pd_tp_field *f, const unsigned char *raw)
{
	return pmu__pd_trace_num(raw + f->offset, f->size, f->is_signed);
}

int pmu__pd_field_str(const struct pd_tp_field *f, const unsigned char *raw,
		      size_t size, const unsigned char **s, size_t *n)
{
	*s = raw + f->offset;
	*n = f->size;
	if (f->dyn) {
		uint32_t loc = (uint32_t)num(f, raw);
		size_t off = loc & 0xffff;

		*n = loc >> 16;
		if (off > size || *n > size - off)
			return -1;
		*s = raw + off;
	}
	*n = strnlen((const char *)*s, *n);
	return 0;
}

static void str(FILE *o, const struct pd_tp_field *f,
		const unsigned char *raw, size_t size)
{
	const unsigned char *s;
	size_t n;

	if (pmu__pd_field_str(f, raw, size, &s, &n))
		return;
	for (size_t i = 0; i < n; i++)
		fputc(s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '.', o);
}

static void value(FILE *o, const struct pd_tp_field *f,
		  const unsigned char *raw, size_t size)
{
	if (f->str)
		str(o, f, raw, size);
	else if (f->ptr)
		fprintf(o, "%#" PRIx64, num(f, raw));
	else if (f->size > 8)
		fprintf(o, "ARRAY[%u]", f->size);
	else if (f->is_signed)
		fprintf(o, "%" PRId64, (int64_t)num(f, raw));
	else
		fprintf(o, "%" PRIu64, num(f, raw));
}

void pmu__pd_trace_print(FILE *o, const struct pd_tp *tp, const void *raw,
			 size_t size, const struct pd_tp_syms *ks)
{
	bool first = true;

	if (!tp || !raw)
		return;
	/* as its print fmt says; by field where that cannot be run (a
	 * record too short for it, a string where a number should be) */
	if (tp->pfmt && !pmu__pd_fmt_print(o, tp, tp->pfmt, raw, size, ks))
		return;
	for (size_t i = 0; i < tp->nfield; i++) {
		const struct pd_tp_field *f = &tp->field[i];

		if (f->common || !pmu__pd_field_in(f, size))
			continue;
		fprintf(o, "%s%s=", first ? "" : " ", f->name);
		value(o, f, raw, size);
		first = false;
	}
}
