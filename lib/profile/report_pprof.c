/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <dlfcn.h>
#include <pthread.h>

#include "profile/dso.h"
#include "profile/machine.h"
#include "profile/profile.h"
#include "profile/report.h"
#include "util/error.h"
#include "util/jsonstr.h"

/*
 * pprof's profile.proto (github.com/google/pprof, proto/profile.proto),
 * written field by field: one mapping per mapped range of a file (its
 * addresses, offset, path and build-id, so that pprof can symbolize and
 * disassemble from the file), one location per distinct address and
 * mapping, its inlined functions as its lines (innermost first), samples
 * merged by stack and thread with two values (samples/count and the
 * event's period) and pid, tid and comm labels; the period, the duration
 * and, where the recording says when it was (its clock data), the time.
 */

struct buf {
	unsigned char *p;
	size_t n, cap;
	bool oom;
};

static void put(struct buf *b, const void *d, size_t n)
{
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 4096;

		while (cap < b->n + n)
			cap *= 2;
		unsigned char *v = realloc(b->p, cap);

		if (!v) {
			b->oom = true;
			return;
		}
		b->p = v;
		b->cap = cap;
	}
	memcpy(b->p + b->n, d, n);
	b->n += n;
}

static void varint(struct buf *b, uint64_t v)
{
	unsigned char t[10];
	size_t n = 0;

	do {
		t[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	put(b, t, n);
}

static void f_varint(struct buf *b, unsigned field, uint64_t v)
{
	varint(b, (uint64_t)field << 3);
	varint(b, v);
}

static void f_bytes(struct buf *b, unsigned field, const void *d, size_t n)
{
	varint(b, (uint64_t)field << 3 | 2);
	varint(b, n);
	put(b, d, n);
}

static void f_msg(struct buf *b, unsigned field, struct buf *m)
{
	f_bytes(b, field, m->p, m->n);
	b->oom |= m->oom;
	m->n = 0;
}

/* ---- tables ---- */

/* A mapped range of a file, as the process had it. */
struct mapping {
	uint64_t start, limit, offset;
	uint32_t file, build_id;     /* string indexes */
	uint64_t weight;             /* period of the samples' leaves in it */
};

/* A location is known by its address, its DSO and where that was
 * mapped (range and file: what makes its mapping). */
struct loc {
	uint64_t addr;
	uint32_t dso;       /* string index of the DSO path */
	uint64_t start, limit, offset;
	struct pmu__dso *file;
	uint64_t mapping;   /* its id, 0: none */
	uint64_t id;
};

struct fn {
	uint32_t name, file;
	uint64_t id;
};

struct stack {
	uint64_t *ids;
	size_t n;
	uint32_t pid, tid, comm;     /* the labels (comm: string index) */
	uint64_t count, period;
};

struct pp {
	struct report *r;
	struct buf out, tmp, tmp2;
	struct loc *loc;
	size_t nloc, cap_loc;
	struct fn *fn;
	size_t nfn, cap_fn;
	struct stack *st;
	size_t nst, cap_st;
	uint32_t *st_hash;
	size_t st_hcap;
	struct mapping *map; /* mapping id - 1 */
	size_t nmap, cap_map;
	bool lines;          /* some location has source lines */
	bool inlines;        /* and some of them inlined functions */
};

static uint64_t find_fn(struct pp *p, uint32_t name, uint32_t file)
{
	for (size_t i = p->nfn; i-- > 0;)
		if (p->fn[i].name == name && p->fn[i].file == file)
			return p->fn[i].id;
	if (p->nfn == p->cap_fn) {
		size_t cap = p->cap_fn ? 2 * p->cap_fn : 256;
		struct fn *v = realloc(p->fn, cap * sizeof(*v));

		if (!v)
			return 0;
		p->fn = v;
		p->cap_fn = cap;
	}
	p->fn[p->nfn] = (struct fn){ name, file, p->nfn + 1 };
	return ++p->nfn;
}

/* Where a frame's address is mapped: the process's map of the file
 * there (the kernel: its half of the address space); false if nowhere. */
static bool map_of(struct pmu_profile *pr, int pid, const struct pmu_frame *f,
		   struct loc *l)
{
	const struct pmu__map *pm;

	if (f->kind == PMU_FRAME_KERNEL) {
		l->start = 0xffff800000000000ull;
		l->limit = UINT64_MAX;
		l->file = pr->kernel;
	} else if ((pm = pmu__machine_find(pmu__machine_proc(&pr->m, pid),
					   f->ip))) {
		l->start = pm->start;
		l->limit = pm->end;
		l->offset = pm->pgoff;
		l->file = pm->dso;
	} else {
		return false;
	}
	return true;
}

/* The id of a location's mapping, added when it is new. */
static uint64_t mapping_id(struct pp *p, const struct loc *l,
			   const struct pmu_frame *f)
{
	struct mapping m = { l->start, l->limit, l->offset, 0, 0, 0 };
	struct pmu__dso *d = l->file;
	uint8_t bid[20];
	char hex[41];
	size_t nb = 0;

	m.file = pmu__rpool_add(&p->r->pool, d ? pmu__dso_name(d) : f->dso);
	for (size_t i = p->nmap; i-- > 0;)
		if (p->map[i].start == m.start && p->map[i].limit == m.limit &&
		    p->map[i].offset == m.offset && p->map[i].file == m.file)
			return i + 1;
	/* a new mapping: its file's build-id, read once */
	if (d && pmu__dso_kind(d) == PMU__DSO_FILE)
		nb = pmu__dso_build_id(d, bid);
	for (size_t i = 0; i < nb; i++)
		snprintf(hex + 2 * i, 3, "%02x", bid[i]);
	hex[2 * nb] = '\0';
	m.build_id = pmu__rpool_add(&p->r->pool, hex);
	if (p->nmap == p->cap_map) {
		size_t cap = p->cap_map ? 2 * p->cap_map : 64;
		struct mapping *v = realloc(p->map, cap * sizeof(*v));

		if (!v)
			return 0;
		p->map = v;
		p->cap_map = cap;
	}
	p->map[p->nmap] = m;
	return ++p->nmap;
}

/* A location message: lines innermost first, each a function. */
static void write_location(struct pp *p, uint64_t id, uint64_t mapping,
			   const struct pmu_frame *f, size_t n)
{
	char lab[40];

	f_varint(&p->tmp, 1, id);
	if (mapping)
		f_varint(&p->tmp, 2, mapping);
	f_varint(&p->tmp, 3, f[n - 1].ip);
	p->inlines |= n > 1;
	for (size_t i = 0; i < n; i++) {
		uint32_t name = pmu__rpool_add(&p->r->pool,
					  pmu__report_frame_label(&f[i], lab,
							     sizeof(lab)));
		uint32_t file = pmu__rpool_add(&p->r->pool,
					  f[i].srcfile ? f[i].srcfile : "");

		f_varint(&p->tmp2, 1, find_fn(p, name, file));
		if (f[i].line) {
			f_varint(&p->tmp2, 2, f[i].line);
			p->lines = true;
		}
		f_msg(&p->tmp, 4, &p->tmp2);
	}
	f_msg(&p->out, 4, &p->tmp);
}

static uint64_t location(struct pp *p, struct pmu_profile *pr, int pid,
			 const struct pmu_frame *f, size_t n)
{
	struct loc l = { .addr = f[n - 1].ip,
			 .dso = pmu__rpool_add(&p->r->pool, f[n - 1].dso) };
	bool mapped = map_of(pr, pid, &f[n - 1], &l);

	/* linear over recent ones is enough: stacks repeat their top */
	for (size_t i = p->nloc; i-- > 0 && i + 4096 > p->nloc;) {
		const struct loc *o = &p->loc[i];

		if (o->addr == l.addr && o->dso == l.dso &&
		    o->start == l.start && o->limit == l.limit &&
		    o->offset == l.offset && o->file == l.file)
			return o->id;
	}
	if (p->nloc == p->cap_loc) {
		size_t cap = p->cap_loc ? 2 * p->cap_loc : 1024;
		struct loc *v = realloc(p->loc, cap * sizeof(*v));

		if (!v)
			return 0;
		p->loc = v;
		p->cap_loc = cap;
	}
	l.mapping = mapped ? mapping_id(p, &l, &f[n - 1]) : 0;
	l.id = p->nloc + 1;
	p->loc[p->nloc] = l;
	write_location(p, l.id, l.mapping, f, n);
	return ++p->nloc;
}

static size_t st_hash(const uint64_t *ids, size_t n, uint32_t tid)
{
	uint64_t h = n ^ ((uint64_t)tid << 32);

	for (size_t i = 0; i < n; i++)
		h = (h ^ ids[i]) * 0x9E3779B97F4A7C15ULL;
	return (size_t)(h >> 16);
}

static int st_rehash(struct pp *p)
{
	size_t cap = p->st_hcap ? 2 * p->st_hcap : 1024;
	uint32_t *h = malloc(cap * sizeof(*h));

	if (!h)
		return -ENOMEM;
	memset(h, 0xff, cap * sizeof(*h));
	for (size_t i = 0; i < p->nst; i++) {
		size_t k = st_hash(p->st[i].ids, p->st[i].n, p->st[i].tid) &
			   (cap - 1);

		while (h[k] != UINT32_MAX)
			k = (k + 1) & (cap - 1);
		h[k] = (uint32_t)i;
	}
	free(p->st_hash);
	p->st_hash = h;
	p->st_hcap = cap;
	return 0;
}

static int add_stack(struct pp *p, const uint64_t *ids, size_t n,
		     const struct pmu_sample *smp)
{
	uint32_t comm = pmu__rpool_add(&p->r->pool, smp->comm);
	uint64_t period = smp->period;
	size_t k;

	if (2 * (p->nst + 1) > p->st_hcap && st_rehash(p))
		return -ENOMEM;
	for (k = st_hash(ids, n, smp->tid) & (p->st_hcap - 1);
	     p->st_hash[k] != UINT32_MAX; k = (k + 1) & (p->st_hcap - 1)) {
		struct stack *s = &p->st[p->st_hash[k]];

		if (s->n == n && s->tid == smp->tid && s->pid == smp->pid &&
		    s->comm == comm && !memcmp(s->ids, ids, n * sizeof(*ids))) {
			s->count++;
			s->period += period;
			return 0;
		}
	}
	if (p->nst == p->cap_st) {
		size_t cap = p->cap_st ? 2 * p->cap_st : 1024;
		struct stack *v = realloc(p->st, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		p->st = v;
		p->cap_st = cap;
	}
	struct stack *s = &p->st[p->nst];

	if (!(s->ids = malloc((n + 1) * sizeof(*ids))))
		return -ENOMEM;
	memcpy(s->ids, ids, n * sizeof(*ids));
	s->n = n;
	s->pid = smp->pid;
	s->tid = smp->tid;
	s->comm = comm;
	s->count = 1;
	s->period = period;
	p->st_hash[k] = (uint32_t)p->nst++;
	return 0;
}

/* Frames of one address (its inlined functions, then itself) make one
 * location; the stack is leaf first. */
static int add_sample(struct pp *p, struct pmu_profile *pr,
		      const struct pmu_sample *s)
{
	size_t n, at = 0, k = 0;
	const struct pmu_frame *f = pmu__profile_frames(pr, &n);
	uint64_t ids[1024];

	if (!pmu__report_filter(p->r->o, s, n ? &f[0] : NULL))
		return 0;
	while (at < n && k < 1024) {
		size_t end = at;

		while (end < n && f[end].kind == PMU_FRAME_INLINED)
			end++;
		if (end == n)
			end = n - 1;
		if (!(p->r->o->no_kernel && f[end].kind == PMU_FRAME_KERNEL))
			ids[k++] = location(p, pr, (int)s->pid, f + at,
					    end - at + 1);
		at = end + 1;
	}
	/* the leaf's mapping weighs for the program's (pprof's first) */
	if (k && ids[0] && ids[0] <= p->nloc && p->loc[ids[0] - 1].mapping)
		p->map[p->loc[ids[0] - 1].mapping - 1].weight += s->period;
	return add_stack(p, ids, k, s);
}

static void write_tail(struct pp *p, struct pmu_profile *pr)
{
	struct rpool *sp = &p->r->pool;
	const char *ev = pmu_profile_event_name(pr, 0);

	/* sample_type: samples/count, EVENT/events (or cpu/nanoseconds) */
	bool ns = pmu__report_clock_event(ev);

	f_varint(&p->tmp, 1, pmu__rpool_add(sp, "samples"));
	f_varint(&p->tmp, 2, pmu__rpool_add(sp, "count"));
	f_msg(&p->out, 1, &p->tmp);
	f_varint(&p->tmp, 1, pmu__rpool_add(sp, ns ? "cpu" : ev ? ev : "events"));
	f_varint(&p->tmp, 2, pmu__rpool_add(sp, ns ? "nanoseconds" : "count"));
	f_msg(&p->out, 1, &p->tmp);
	uint32_t k_pid = pmu__rpool_add(sp, "pid"), k_tid = pmu__rpool_add(sp, "tid"),
		 k_comm = pmu__rpool_add(sp, "comm");

	for (size_t i = 0; i < p->nst; i++) {
		struct buf lab = { 0 };

		for (size_t k = 0; k < p->st[i].n; k++)
			varint(&p->tmp2, p->st[i].ids[k]);
		f_msg(&p->tmp, 1, &p->tmp2);
		varint(&p->tmp2, p->st[i].count);
		varint(&p->tmp2, p->st[i].period);
		f_msg(&p->tmp, 2, &p->tmp2);
		/* labels: pid and tid as numbers, the command as text */
		f_varint(&lab, 1, k_pid);
		f_varint(&lab, 3, p->st[i].pid);
		f_msg(&p->tmp, 3, &lab);
		f_varint(&lab, 1, k_tid);
		f_varint(&lab, 3, p->st[i].tid);
		f_msg(&p->tmp, 3, &lab);
		f_varint(&lab, 1, k_comm);
		f_varint(&lab, 2, p->st[i].comm);
		f_msg(&p->tmp, 3, &lab);
		free(lab.p);
		f_msg(&p->out, 2, &p->tmp);
	}
	/* pprof takes the first mapping for the program's: the one where
	 * most samples fell goes first (ids are kept, the order changes) */
	size_t *ord = malloc((p->nmap + 1) * sizeof(*ord));

	for (size_t i = 0; ord && i < p->nmap; i++) {
		size_t j = i;

		for (; j > 0 && p->map[ord[j - 1]].weight < p->map[i].weight; j--)
			ord[j] = ord[j - 1];
		ord[j] = i;
	}
	for (size_t k = 0; k < p->nmap; k++) {
		size_t i = ord ? ord[k] : k;
		const struct mapping *m = &p->map[i];

		f_varint(&p->tmp, 1, i + 1);
		f_varint(&p->tmp, 2, m->start);
		f_varint(&p->tmp, 3, m->limit);
		f_varint(&p->tmp, 4, m->offset);
		f_varint(&p->tmp, 5, m->file);
		f_varint(&p->tmp, 6, m->build_id);
		f_varint(&p->tmp, 7, 1);
		f_varint(&p->tmp, 8, p->lines);
		f_varint(&p->tmp, 9, p->lines);
		f_varint(&p->tmp, 10, p->inlines);
		f_msg(&p->out, 3, &p->tmp);
	}
	free(ord);
	for (size_t i = 0; i < p->nfn; i++) {
		f_varint(&p->tmp, 1, p->fn[i].id);
		f_varint(&p->tmp, 2, p->fn[i].name);
		f_varint(&p->tmp, 3, p->fn[i].name);
		f_varint(&p->tmp, 4, p->fn[i].file);
		f_msg(&p->out, 5, &p->tmp);
	}
	uint32_t pt = pmu__rpool_add(sp, ns ? "cpu" : ev ? ev : "events");
	uint32_t pu = pmu__rpool_add(sp, ns ? "nanoseconds" : "count");

	f_varint(&p->tmp, 1, pt);
	f_varint(&p->tmp, 2, pu);
	f_msg(&p->out, 11, &p->tmp);
	/* the sampling period: the event's fixed one, else (a frequency)
	 * the mean of the samples' */
	struct pmu_profile_info in = { .size = sizeof(in) };
	uint64_t period = 0;

	pmu_profile_info(pr, &in);
	if (pr->f.nattr && !pr->f.attr[0].attr.freq)
		period = pr->f.attr[0].attr.sample_period;
	else if (in.nsamples)
		period = (in.total_period + in.nsamples / 2) / in.nsamples;
	if (period)
		f_varint(&p->out, 12, period);
	if (in.last_time > in.first_time)
		f_varint(&p->out, 10, in.last_time - in.first_time);
	/* when: the recording's clock data ties sample times to the wall
	 * clock (perf record -k, pmu record) */
	if (pr->f.has_clock && in.first_time && pr->f.nattr &&
	    pr->f.attr[0].attr.use_clockid &&
	    pr->f.attr[0].attr.clockid == (int)pr->f.clockid)
		f_varint(&p->out, 9, pr->f.wall_ns - pr->f.clock_ns +
				      in.first_time);
	/* the string table last: every index above is in it by now */
	for (size_t i = 0; i < sp->n; i++) {
		/* proto3 strings are UTF-8: readers reject anything else */
		size_t len = strlen(sp->s[i]);
		char small[3 * 256 + 1];
		char *u = len < 256 ? small : malloc(3 * len + 1);

		if (u)
			f_bytes(&p->out, 6, u, pmu__utf8_copy(sp->s[i], u));
		else    /* out of memory: the bytes as they are */
			f_bytes(&p->out, 6, sp->s[i], len);
		if (u != small)
			free(u);
	}
}

/* zlib, loaded when a pprof file is written (no other command uses it). */
static struct {
	__typeof__(deflateInit2_) *init;
	__typeof__(deflate) *deflate;
	__typeof__(deflateEnd) *end;
} zl;

static void zlib_load(void)
{
	void *h = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return;
	*(void **)(void *)&zl.init = dlsym(h, "deflateInit2_");
	*(void **)(void *)&zl.deflate = dlsym(h, "deflate");
	*(void **)(void *)&zl.end = dlsym(h, "deflateEnd");
	if (!zl.init || !zl.deflate || !zl.end)
		zl.init = NULL;
}

static int gzip_out(const struct buf *b, FILE *out)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	z_stream z = { 0 };
	unsigned char chunk[65536];
	int ret;

	pthread_once(&once, zlib_load);
	if (!zl.init)
		return -ENOSYS;   /* no libz.so.1 */
	/* windowBits 15 + 16: a gzip wrapper, as pprof expects */
	if (zl.init(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
		    ZLIB_VERSION, (int)sizeof(z_stream)))
		return -ENOMEM;
	z.next_in = b->p;
	z.avail_in = (uInt)b->n;
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		ret = zl.deflate(&z, Z_FINISH);
		fwrite(chunk, 1, sizeof(chunk) - z.avail_out, out);
	} while (ret == Z_OK);
	zl.end(&z);
	return ret == Z_STREAM_END && !ferror(out) ? 0 : -EIO;
}

static void pp_free(struct pp *p)
{
	for (size_t i = 0; i < p->nst; i++)
		free(p->st[i].ids);
	free(p->st);
	free(p->st_hash);
	free(p->loc);
	free(p->fn);
	free(p->map);
	free(p->out.p);
	free(p->tmp.p);
	free(p->tmp2.p);
}

int pmu__report_pprof(struct report *r, struct pmu_profile *pr, FILE *out,
		 struct pmu_error *err)
{
	struct pp p = { .r = r };
	struct pmu_sample s = { .size = sizeof(s) };
	int ret;

	pmu_profile_rewind(pr);
	while ((ret = pmu_profile_next(pr, &s)) > 0)
		if ((ret = add_sample(&p, pr, &s)))
			break;
	if (!ret) {
		write_tail(&p, pr);
		ret = p.out.oom || p.tmp.oom || p.tmp2.oom ? -ENOMEM :
		      gzip_out(&p.out, out);
	}
	pp_free(&p);
	if (ret)
		return pmu__error(err, ret, PMU_ERR_SYSTEM, NULL, -1,
				  "cannot write the pprof profile: %s",
				  ret == -ENOMEM ? "out of memory" :
				  ret == -ENOSYS ? "libz.so.1 (zlib) cannot "
						   "be loaded" :
				  "write error");
	return 0;
}
