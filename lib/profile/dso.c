/* SPDX-License-Identifier: MIT */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "profile/dso.h"
#include "profile/dso_priv.h"

/* ---- demangling through the C++ runtime, when there is one ---- */

typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);
static demangle_fn cxa_demangle;
static pthread_once_t demangle_once = PTHREAD_ONCE_INIT;

static void demangle_init(void)
{
	void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);

	if (h)
		cxa_demangle = (demangle_fn)dlsym(h, "__cxa_demangle");
}

/* The operator a name spells after "operator", so its characters are
 * not taken for the name's own parentheses or angle brackets. */
static const char *skip_operator(const char *p)
{
	if (p[0] == '(' && p[1] == ')')
		return p + 2;
	if (p[0] == '[' && p[1] == ']')
		return p + 2;
	while (*p && strchr("<>=!+-*/%^&|~,", *p))
		p++;
	return p;
}

/* perf shows C++ functions without their parameter lists (its
 * demangler's default): cut at the '(' that opens them, outside
 * template arguments and lambda names. */
static void strip_params(char *s)
{
	int angle = 0, brace = 0;

	for (char *p = s; *p; p++) {
		if (!strncmp(p, "operator", 8)) {
			p = (char *)skip_operator(p + 8) - 1;
			continue;
		}
		if (!strncmp(p, "(anonymous namespace)", 21)) {
			p += 20;
			continue;
		}
		switch (*p) {
		case '<': angle++; break;
		case '>': angle -= angle > 0; break;
		case '{': brace++; break;
		case '}': brace -= brace > 0; break;
		case '(':
			if (!angle && !brace && p != s) {
				*p = 0;
				return;
			}
			break;
		default: break;
		}
	}
}

/* Template functions demangle with their return type first ("void
 * std::sort<...>"); perf's names have none: keep what follows the last
 * space outside template arguments ("operator new" keeps its own). */
static void strip_return_type(char *s)
{
	int angle = 0;
	char *cut = NULL;

	for (char *p = s; *p; p++) {
		if (*p == '<')
			angle++;
		else if (*p == '>')
			angle -= angle > 0;
		else if (*p == ' ' && !angle && p > s &&
			 !(p - s >= 8 && !strncmp(p - 8, "operator", 8)) &&
			 !(p - s >= 10 && !strncmp(p - 10, "(anonymous", 10)))
			cut = p + 1;
	}
	if (cut)
		memmove(s, cut, strlen(cut) + 1);
}

char *pmu__demangle(const char *name)
{
	int st = -1;
	char *out;

	if (!name || name[0] != '_' || name[1] != 'Z')
		return NULL;
	pthread_once(&demangle_once, demangle_init);
	if (!cxa_demangle)
		return NULL;
	out = cxa_demangle(name, NULL, NULL, &st);
	if (st != 0) {
		free(out);
		return NULL;
	}
	strip_params(out);
	strip_return_type(out);
	return out;
}

/* ---- the set ---- */

struct pmu__dso_set *pmu__dso_set_new(bool want_lines)
{
	struct pmu__dso_set *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->want_lines = want_lines;
	return s;
}

static void dso_free(struct pmu__dso *d)
{
	for (size_t i = 0; i < d->cache_cap; i++) {
		struct pmu__addr_info *a = d->cache[i];

		if (!a)
			continue;
		free((void *)a->inl);
		free(a);
	}
	for (size_t i = 0; i < d->nstr; i++)
		free(d->str[i]);
	if (d->dw)
		dwarf_end(d->dw);
	if (d->dw_elf)
		elf_end(d->dw_elf);
	if (d->dw_fd >= 0)
		close(d->dw_fd);
	if (d->cfi_elf)
		elf_end(d->cfi_elf);
	if (d->cfi_fd >= 0)
		close(d->cfi_fd);
	free(d->str);
	free(d->cache);
	free(d->syms);
	free(d->segs);
	free(d->path);
	free(d);
}

void pmu__dso_set_free(struct pmu__dso_set *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		dso_free(s->dso[i]);
	free(s->dso);
	free(s);
}

static enum pmu__dso_kind kind_of(const char *name)
{
	if (!strncmp(name, "[kernel.kallsyms]", 17) || !strcmp(name, "[kernel]"))
		return PMU__DSO_KERNEL;
	if (!strcmp(name, "[vdso]"))
		return PMU__DSO_VDSO;
	if (!strncmp(name, "/tmp/perf-", 10) &&
	    strstr(name, ".map") == name + strlen(name) - 4)
		return PMU__DSO_PERFMAP;
	/* anonymous memory as the kernel names it: where JIT code lives */
	if (name[0] != '/' || !strncmp(name, "//anon", 6) ||
	    !strncmp(name, "/anon_hugepage", 14) ||
	    !strncmp(name, "/memfd:", 7) || !strncmp(name, "/dev/zero", 9))
		return PMU__DSO_ANON;   /* //anon, [heap], [stack] ... */
	return PMU__DSO_FILE;
}

static struct pmu__dso *dso_new(struct pmu__dso_set *s, const char *name)
{
	struct pmu__dso *d = calloc(1, sizeof(*d)), **v;

	if (!d)
		return NULL;
	d->kind = kind_of(name);
	d->path = strdup(d->kind == PMU__DSO_KERNEL ? "[kernel.kallsyms]" :
			 name);
	v = realloc(s->dso, (s->n + 1) * sizeof(*v));
	if (!d->path || !v) {
		free(d->path);
		free(d);
		if (v)
			s->dso = v;
		return NULL;
	}
	s->dso = v;
	d->dw_fd = -1;
	d->cfi_fd = -1;
	d->set = s;
	d->index = s->n;
	s->dso[s->n++] = d;
	return d;
}

struct pmu__dso *pmu__dso_get(struct pmu__dso_set *s, const char *filename,
			      const uint8_t *build_id, size_t bid_len)
{
	const char *key = kind_of(filename) == PMU__DSO_KERNEL ?
			  "[kernel.kallsyms]" : filename;
	struct pmu__dso *d;

	/* few DSOs per profile; the last one asked for is usually next */
	if (s->last && !strcmp(s->last->path, key))
		return s->last;
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->dso[i]->path, key))
			return s->last = s->dso[i];
	d = dso_new(s, filename);
	if (d && build_id && bid_len) {
		d->hdr_bid_len = bid_len > 20 ? 20 : bid_len;
		memcpy(d->hdr_bid, build_id, d->hdr_bid_len);
	}
	return s->last = d;
}

struct pmu__dso *pmu__dso_perfmap(struct pmu__dso_set *s, int pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", pid);
	if (access(path, R_OK))
		return NULL;
	return pmu__dso_get(s, path, NULL, 0);
}

const char *pmu__dso_name(const struct pmu__dso *d)
{
	return d->path;
}

const char *pmu__dso_short(const struct pmu__dso *d)
{
	const char *b = strrchr(d->path, '/');

	return d->kind == PMU__DSO_FILE && b ? b + 1 : d->path;
}

enum pmu__dso_kind pmu__dso_kind(const struct pmu__dso *d)
{
	return d->kind;
}

bool pmu__dso_is_elf(struct pmu__dso *d)
{
	if (d->kind != PMU__DSO_FILE)
		return false;
	pmu__dso_load(d);
	return d->nsegs > 0;
}

uint64_t pmu__dso_load_bias(struct pmu__dso *d, uint64_t start,
			    uint64_t pgoff)
{
	pmu__dso_load(d);
	/* the segment holding the offset, else the one whose first page
	 * it is (a map starts at a page boundary) */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < d->nsegs; i++) {
			uint64_t lo = d->segs[i].off;

			if (pass)
				lo &= ~(uint64_t)4095;
			if (pgoff >= lo &&
			    pgoff < d->segs[i].off + d->segs[i].filesz)
				return start - (d->segs[i].vaddr -
						d->segs[i].off + pgoff);
		}
	}
	return start - pgoff;
}

const char *pmu__dso_problem(struct pmu__dso *d)
{
	pmu__dso_load(d);
	return d->problem[0] ? d->problem : NULL;
}

size_t pmu__dso_build_id(struct pmu__dso *d, uint8_t id[20])
{
	pmu__dso_load(d);
	memcpy(id, d->bid, d->bid_len);
	return d->bid_len;
}

/* Strings live as long as their DSO, in chunks: one allocation per
 * string would cost more than the kernel's 100 000 names themselves. */
static char *arena_alloc(struct pmu__dso *d, size_t n)
{
	char **v;

	if (d->arena_left < n) {
		size_t sz = n > 65536 ? n : 65536;

		if (d->nstr == d->cap_str) {
			size_t cap = d->cap_str ? 2 * d->cap_str : 16;

			if (!(v = realloc(d->str, cap * sizeof(*v))))
				return NULL;
			d->str = v;
			d->cap_str = cap;
		}
		if (!(d->str[d->nstr] = malloc(sz)))
			return NULL;
		d->arena = d->str[d->nstr++];
		d->arena_left = sz;
	}
	d->arena_left -= n;
	d->arena += n;
	return d->arena - n;
}

const char *pmu__dso_str(struct pmu__dso *d, const char *s, bool demangle)
{
	char *c = demangle ? pmu__demangle(s) : NULL;
	const char *src = c ? c : s;
	size_t n = strlen(src) + 1;
	char *out = arena_alloc(d, n);

	if (out) {
		memcpy(out, src, n);
		/* a name is printed to terminals: no control characters
		 * (a hostile binary or map could carry escapes) */
		for (char *q = out; *q; q++)
			if ((unsigned char)*q < 0x20 || *q == 0x7f)
				*q = '?';
	}
	free(c);
	return out ? out : "?";
}

uint64_t pmu__dso_map_addr(struct pmu__dso *d, uint64_t ip, uint64_t start,
			   uint64_t pgoff)
{
	uint64_t off = ip - start + pgoff;

	if (d->kind == PMU__DSO_KERNEL || d->kind == PMU__DSO_PERFMAP ||
	    d->kind == PMU__DSO_ANON)
		return ip;
	pmu__dso_load(d);
	for (size_t i = 0; i < d->nsegs; i++)
		if (off >= d->segs[i].off &&
		    off - d->segs[i].off < d->segs[i].filesz)
			return off - d->segs[i].off + d->segs[i].vaddr;
	return off;
}

/* ---- lookups ---- */

static const struct pmu__sym *find_sym(const struct pmu__dso *d,
				       uint64_t addr)
{
	size_t lo = 0, hi = d->nsyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr >= d->syms[lo - 1].end)
		return NULL;
	return &d->syms[lo - 1];
}

static size_t hash_addr(uint64_t a)
{
	return (size_t)((a * 0x9E3779B97F4A7C15ULL) >> 17);
}

static int cache_grow(struct pmu__dso *d)
{
	size_t cap = d->cache_cap ? 2 * d->cache_cap : 1024;
	struct pmu__addr_info **n = calloc(cap, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (size_t i = 0; i < d->cache_cap; i++) {
		struct pmu__addr_info *a = d->cache[i];
		size_t k;

		if (!a)
			continue;
		for (k = hash_addr(a->addr) & (cap - 1); n[k];
		     k = (k + 1) & (cap - 1))
			;
		n[k] = a;
	}
	free(d->cache);
	d->cache = n;
	d->cache_cap = cap;
	return 0;
}

const struct pmu__addr_info *pmu__dso_resolve(struct pmu__dso *d,
					      uint64_t addr)
{
	static const struct pmu__addr_info none;
	struct pmu__addr_info *a;
	size_t k;

	pmu__dso_load(d);
	if (2 * (d->ncache + 1) > d->cache_cap && cache_grow(d))
		return &none;
	for (k = hash_addr(addr) & (d->cache_cap - 1); d->cache[k];
	     k = (k + 1) & (d->cache_cap - 1))
		if (d->cache[k]->addr == addr)
			return d->cache[k];
	a = calloc(1, sizeof(*a));
	if (!a)
		return &none;
	a->addr = addr;
	a->sym = find_sym(d, addr);
	if (d->dw && a->sym)
		pmu__dso_lines(d, a);
	d->cache[k] = a;
	d->ncache++;
	return a;
}
