/* SPDX-License-Identifier: MIT */
#include <byteswap.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "profile/perfdata.h"

static void swap32s(unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t v;

		memcpy(&v, p + 4 * i, 4);
		v = bswap_32(v);
		memcpy(p + 4 * i, &v, 4);
	}
}

static void swap64s(unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t v;

		memcpy(&v, p + 8 * i, 8);
		v = bswap_64(v);
		memcpy(p + 8 * i, &v, 8);
	}
}

/* Two u32 in one u64 come out of a u64 swap in each other's place. */
static void swap_halves(unsigned char *p)
{
	unsigned char t[4];

	memcpy(t, p, 4);
	memcpy(p, p + 4, 4);
	memcpy(p + 4, t, 4);
}

static size_t pc(uint64_t v)
{
	return (size_t)__builtin_popcountll(v);
}

/* The sample_id trailer at the end of a non-sample record. */
static void swap_trailer(const struct pd_file *f, ssize_t attr,
			 unsigned char *rec, size_t size)
{
	uint64_t st;
	size_t n, at;

	if (attr < 0 || !f->attr[attr].sid_size ||
	    f->attr[attr].sid_size > size - 8)
		return;
	st = f->attr[attr].attr.sample_type;
	n = f->attr[attr].sid_size / 8;
	at = size - 8 * n;
	swap64s(rec + at, n);
	if (st & PERF_SAMPLE_TID)
		swap_halves(rec + at);
	if (st & PERF_SAMPLE_CPU)
		swap_halves(rec + at + 8 * pc(st & (PERF_SAMPLE_TID |
			PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			PERF_SAMPLE_STREAM_ID)));
}

static void swap_sample(const struct pd_file *f, ssize_t attr,
			unsigned char *rec, size_t size)
{
	uint64_t st = attr >= 0 ? f->attr[attr].attr.sample_type : 0;

	swap64s(rec + 8, (size - 8) / 8);
	if (st & PERF_SAMPLE_TID) {
		size_t i = pc(st & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP));

		if (8 + 8 * i + 8 <= size)
			swap_halves(rec + 8 + 8 * i);
	}
	if (st & PERF_SAMPLE_CPU) {
		size_t i = pc(st & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
				    PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				    PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
				    PERF_SAMPLE_STREAM_ID));

		if (8 + 8 * i + 8 <= size)
			swap_halves(rec + 8 + 8 * i);
	}
}

/* Leading fields of the records pmu reads: u32s then u64s. */
static void swap_body(const struct pd_file *f, unsigned char *rec,
		      size_t size, ssize_t attr)
{
	unsigned char *b = rec + 8;
	size_t n32 = 0, n64 = 0;

	switch (((struct perf_event_header *)rec)->type) {
	case PERF_RECORD_SAMPLE:
		swap_sample(f, attr, rec, size);
		return;
	case PERF_RECORD_MMAP: n32 = 2; n64 = 3; break;
	case PERF_RECORD_MMAP2: n32 = 2; n64 = 3; break;
	case PERF_RECORD_COMM: n32 = 2; break;
	case PERF_RECORD_FORK: case PERF_RECORD_EXIT: n32 = 4; n64 = 1; break;
	case PERF_RECORD_LOST: n64 = 2; break;
	case PERF_RECORD_LOST_SAMPLES: n64 = 1; break;
	case PERF_RECORD_THROTTLE: case PERF_RECORD_UNTHROTTLE: n64 = 3; break;
	default: break;
	}
	if (8 + 4 * n32 + 8 * n64 > size)
		return;
	swap32s(b, n32);
	swap64s(b + 4 * n32, n64);
	if (((struct perf_event_header *)rec)->type == PERF_RECORD_MMAP2 &&
	    size >= 8 + 8 + 24 + 8 + 16 + 8) {
		swap32s(b + 32, 2);   /* maj, min */
		swap64s(b + 40, 2);   /* ino, ino_generation */
		swap32s(b + 56, 2);   /* prot, flags */
	}
	swap_trailer(f, attr, rec, size);
}

static ssize_t id_lookup(const struct pd_file *f, uint64_t id)
{
	size_t m = f->id_cap - 1, k = (size_t)(id * 0x9E3779B97F4A7C15ULL) & m;

	for (size_t n = 0; n < f->id_cap; n++, k = (k + 1) & m) {
		if (f->id_val[k] == (size_t)-1)
			return -1;
		if (f->id_key[k] == id)
			return (ssize_t)f->id_val[k];
	}
	return -1;
}

/* Where a record's ID sits, by the first attr (every attr of a file
 * puts it in the same place: perf requires it), or 0 for none. */
static size_t id_offset(const struct pd_file *f, uint32_t type, size_t size)
{
	const struct pd_attr *a = &f->attr[0];

	if (type == PERF_RECORD_SAMPLE)
		return a->attr.sample_type &
		       (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER) ?
		       8 + 8 * a->id_pos : 0;
	if (!a->sid_size || !a->sid_id_from_end ||
	    8 * a->sid_id_from_end > size - 8)
		return 0;
	return size - 8 * a->sid_id_from_end;
}

static ssize_t swapped_attr(const struct pd_file *f, const unsigned char *rec,
			    uint32_t type, size_t size)
{
	size_t at;
	uint64_t id;

	if (f->nattr == 1)
		return 0;
	at = id_offset(f, type, size);
	if (!at)
		return 0;
	if (at + 8 > size)
		return -1;
	memcpy(&id, rec + at, 8);
	return id_lookup(f, bswap_64(id));
}

static const struct perf_event_header *swapped(struct pd_file *f,
					       const unsigned char *p,
					       size_t size)
{
	struct perf_event_header *h;

	if (f->scratch_size < size) {
		unsigned char *s = realloc(f->scratch, size);

		if (!s)
			return NULL;
		f->scratch = s;
		f->scratch_size = size;
	}
	memcpy(f->scratch, p, size);
	h = (struct perf_event_header *)f->scratch;
	h->type = bswap_32(h->type);
	h->misc = bswap_16(h->misc);
	h->size = bswap_16(h->size);
	swap_body(f, f->scratch, size, swapped_attr(f, f->scratch, h->type,
						     size));
	return h;
}

static const struct perf_event_header *aligned_copy(struct pd_file *f,
						   const unsigned char *p,
						   size_t size)
{
	if (f->scratch_size < size) {
		unsigned char *s = realloc(f->scratch, size);

		if (!s)
			return NULL;
		f->scratch = s;
		f->scratch_size = size;
	}
	memcpy(f->scratch, p, size);
	return (const struct perf_event_header *)f->scratch;
}

/* A big file read through its mapping would stay resident as it is
 * read: pages well behind the reading position are dropped (the page
 * cache keeps them; a record still needed refaults). */
static void release_pages(struct pd_file *f, size_t n)
{
	const uint64_t keep = 4u << 20, page = 4096;
	uint64_t upto;

	f->since_release += n;
	if (f->since_release < (1u << 20) || !f->own_map || f->pos < 2 * keep)
		return;
	f->since_release = 0;
	upto = (f->pos - keep) & ~(page - 1);
	if (upto > f->released)
		madvise((void *)(f->map + f->released), upto - f->released,
			MADV_DONTNEED);
	f->released = upto;
}

const struct perf_event_header *pmu__pd_next(struct pd_file *f)
{
	struct perf_event_header h;
	const unsigned char *p;

	if (f->pos >= f->end || f->corrupt)
		return NULL;
	if (f->end - f->pos < sizeof(h)) {
		f->truncated = true;
		return NULL;
	}
	p = f->map + f->pos;
	memcpy(&h, p, sizeof(h));
	if (f->swap)
		h.size = bswap_16(h.size);
	if (h.size < sizeof(h)) {
		f->corrupt = true;
		f->corrupt_at = f->pos;
		return NULL;
	}
	if (h.size > f->end - f->pos) {
		f->truncated = true;
		return NULL;
	}
	f->pos += h.size;
	if (f->pipe && h.type == PD_REC_HEADER_TRACING_DATA && h.size >= 12) {
		/* pipe mode: the tracefs data follows its record */
		uint32_t n;
		uint64_t skip;

		memcpy(&n, p + 8, 4);
		skip = (n + 7ull) & ~7ull;
		f->pos = skip > f->end - f->pos ? f->end : f->pos + skip;
	}
	release_pages(f, h.size);
	if (f->swap)
		return swapped(f, p, h.size);
	if (!((uintptr_t)p & 7))
		return (const struct perf_event_header *)p;
	/* perf keeps records 8-byte aligned; a file that does not is read
	 * through an aligned copy */
	return aligned_copy(f, p, h.size);
}

ssize_t pmu__pd_attr_of(const struct pd_file *f, const struct perf_event_header *h)
{
	size_t at;
	uint64_t id;

	if (f->nattr == 1)
		return 0;
	at = id_offset(f, h->type, h->size);
	if (!at)
		return 0;
	if (at + 8 > h->size)
		return -1;
	memcpy(&id, (const unsigned char *)h + at, 8);
	return id_lookup(f, id);
}

struct rd {
	const unsigned char *p, *end;
	bool bad;
};

static uint64_t take(struct rd *r)
{
	uint64_t v = 0;

	if (r->end - r->p < 8) {
		r->bad = true;
		return 0;
	}
	memcpy(&v, r->p, 8);
	r->p += 8;
	return v;
}

static const unsigned char *take_n(struct rd *r, uint64_t n)
{
	const unsigned char *p = r->p;

	if (n > (uint64_t)(r->end - r->p)) {
		r->bad = true;
		return NULL;
	}
	r->p += n;
	return p;
}

static void take_read(struct rd *r, uint64_t rf)
{
	uint64_t per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);

	if (rf & PERF_FORMAT_GROUP) {
		uint64_t nr = take(r);

		take_n(r, 8 * (!!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			       !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING)));
		if (nr > 65536)
			r->bad = true;
		else
			take_n(r, 8 * per * nr);
	} else {
		take_n(r, 8 * (per + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			       !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING)));
	}
}

static void take_tail(struct rd *r, const struct perf_event_attr *a,
		      uint64_t st, struct pd_sample *s);

int pmu__pd_sample_parse(const struct pd_file *f, const struct perf_event_header *h,
		    struct pd_sample *s)
{
	ssize_t ai = pmu__pd_attr_of(f, h);
	const struct perf_event_attr *a;
	struct rd r = { (const unsigned char *)h + 8,
			(const unsigned char *)h + h->size, false };
	uint64_t st, v;

	memset(s, 0, sizeof(*s));
	if (ai < 0)
		return -ENOENT;
	a = &f->attr[ai].attr;
	st = a->sample_type;
	s->attr = (size_t)ai;
	s->misc = h->misc;
	s->period = a->freq ? 0 : a->sample_period;
	if (st & PERF_SAMPLE_IDENTIFIER) s->id = take(&r);
	if (st & PERF_SAMPLE_IP) s->ip = take(&r);
	if (st & PERF_SAMPLE_TID) {
		v = take(&r);
		s->pid = (uint32_t)v;
		s->tid = (uint32_t)(v >> 32);
	}
	if (st & PERF_SAMPLE_TIME) s->time = take(&r);
	if (st & PERF_SAMPLE_ADDR) s->addr = take(&r);
	if (st & PERF_SAMPLE_ID) s->id = take(&r);
	if (st & PERF_SAMPLE_STREAM_ID) s->stream_id = take(&r);
	if (st & PERF_SAMPLE_CPU) s->cpu = (uint32_t)take(&r);
	if (st & PERF_SAMPLE_PERIOD) s->period = take(&r);
	if (st & PERF_SAMPLE_READ) take_read(&r, a->read_format);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		s->nr_ips = take(&r);
		s->ips = (const uint64_t *)take_n(&r, s->nr_ips > (1u << 20) ?
						  UINT64_MAX : 8 * s->nr_ips);
		if (!s->ips)
			s->nr_ips = 0;
	}
	if (!r.bad)
		take_tail(&r, a, st, s);
	if (f->swap && (st & PERF_SAMPLE_RAW))
		r.bad = false; /* what follows a swapped RAW is not read */
	return r.bad ? -EINVAL : 0;
}

/* RAW, BRANCH_STACK, REGS_USER, STACK_USER, WEIGHT: the fields after
 * the call chain that pmu uses or must step over. */
static void take_tail(struct rd *r, const struct perf_event_attr *a,
		      uint64_t st, struct pd_sample *s)
{
	if (st & PERF_SAMPLE_RAW) {
		uint32_t n;

		if (r->end - r->p < 4) {
			r->bad = true;
			return;
		}
		memcpy(&n, r->p, 4);
		/* u32 size, data, padded to 8 */
		s->raw = take_n(r, ((uint64_t)n + 4 + 7) & ~7ULL);
		if (s->raw && !r->bad) {
			s->raw += 4;
			s->raw_size = n;
		} else {
			s->raw = NULL;
		}
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		uint64_t nr = take(r);

		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			take(r);
		take_n(r, nr > 65536 ? UINT64_MAX : 24 * nr);
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		s->user_abi = take(r);
		if (s->user_abi) {
			s->user_mask = a->sample_regs_user;
			s->user_regs = (const uint64_t *)take_n(
				r, 8 * (uint64_t)pc(a->sample_regs_user));
		}
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		s->stack_size = take(r);
		if (s->stack_size) {
			s->stack = take_n(r, s->stack_size);
			s->stack_dyn = take(r);
			if (s->stack_dyn > s->stack_size)
				s->stack_dyn = s->stack_size;
		}
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		s->weight = take(r);
}

void pmu__pd_sample_id(const struct pd_file *f, const struct perf_event_header *h,
		  struct pmu__pd_sample_id *sid)
{
	ssize_t ai = pmu__pd_attr_of(f, h);
	const unsigned char *p;
	uint64_t st, v;

	memset(sid, 0, sizeof(*sid));
	sid->cpu = (uint32_t)-1;
	if (ai < 0 || !f->attr[ai].sid_size ||
	    f->attr[ai].sid_size > h->size - 8u)
		return;
	st = f->attr[ai].attr.sample_type;
	p = (const unsigned char *)h + h->size - f->attr[ai].sid_size;
	if (st & PERF_SAMPLE_TID) {
		memcpy(&v, p, 8);
		sid->pid = (uint32_t)v;
		sid->tid = (uint32_t)(v >> 32);
		p += 8;
	}
	if (st & PERF_SAMPLE_TIME) {
		memcpy(&sid->time, p, 8);
		sid->has_time = true;
		p += 8;
	}
	if (st & PERF_SAMPLE_ID) {
		memcpy(&sid->id, p, 8);
		p += 8;
	}
	if (st & PERF_SAMPLE_STREAM_ID)
		p += 8;
	if (st & PERF_SAMPLE_CPU) {
		memcpy(&v, p, 8);
		sid->cpu = (uint32_t)v;
	}
}
