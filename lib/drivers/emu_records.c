/* SPDX-License-Identifier: MIT */
/*
 * The records of the emulator's FIFO, as bytes arrive: whole records are
 * added up (counts) or kept (samples); a partial one waits for the rest.
 * The bytes come from another program, so every size is checked.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/emu_drv.h"

#define MAX_KEPT_SAMPLES (1u << 20)
/* A profile's records wait here until the recorder takes them (it does
 * every few tenths of a second): 64 MiB is some 380 000 samples. */
#define MAX_RAW_BYTES (64u << 20)

_Static_assert(PIPE_BUF <= sizeof(((struct emu_records *)0)->buf) / 2,
	       "a partial record and a whole one fit in the buffer");

/* Room for `need` elements of `size` bytes at p (*cap of them), the new
 * ones zeroed: p itself, or its new place, or NULL (p is kept). */
static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return p;
	while (n < need)
		n *= 2;
	q = realloc(p, n * size);
	if (!q)
		return NULL;
	memset((char *)q + *cap * size, 0, (n - *cap) * size);
	*cap = n;
	return q;
}

static void add_parts(struct emu_counts *c, const uint64_t *sum, unsigned n,
		      uint64_t tsc, const uint64_t *kind, uint64_t lost)
{
	for (unsigned i = 0; i < n; i++)
		c->sum[i] += sum[i];
	c->tsc += tsc;
	for (unsigned i = 0; i < PMU_EMU_NKIND; i++)
		c->kind[i] += kind[i];
	c->lost += lost;
}

static void add_counts(struct emu_counts *c, const struct pmu_emu_rec_counts *k)
{
	add_parts(c, k->sum, k->nctrs < PMU_MAX_CTRS ? k->nctrs : PMU_MAX_CTRS,
		  k->tsc, k->kind, k->samples_lost);
}

/* ---- instruction intervals ----
 * Each process counts its own intervals from its start (a fork, an
 * exec): its records up to its k-th INSNS record belong to interval k.
 * Interval k of the command is the sum over processes of theirs, so it
 * does not depend on how the processes were scheduled. */

static struct emu_proc_ord *proc_of(struct emu_records *r, int32_t pid)
{
	void *p;

	for (size_t i = 0; i < r->nprocs; i++)
		if (r->procs[i].pid == pid)
			return &r->procs[i];
	p = grow(r->procs, &r->proccap, r->nprocs + 1, sizeof(*r->procs));
	if (!p)
		return NULL;
	r->procs = p;
	r->procs[r->nprocs] = (struct emu_proc_ord){ pid, 0 };
	return &r->procs[r->nprocs++];
}

/* The interval pid's records go to now; NULL (marks_over) when it
 * cannot be kept. */
static struct emu_counts *ival_of(struct emu_records *r, int32_t pid)
{
	struct emu_proc_ord *p = proc_of(r, pid);
	void *q;

	if (!p || p->ord >= EMU_MAX_MARKS) {
		r->marks_over = true;
		return NULL;
	}
	q = grow(r->iv, &r->ivcap, p->ord + 1, sizeof(*r->iv));
	if (!q) {
		r->marks_over = true;
		return NULL;
	}
	r->iv = q;
	if (p->ord >= r->niv)
		r->niv = p->ord + 1;
	return &r->iv[p->ord];
}

static void ival_counts(struct emu_records *r,
			const struct pmu_emu_rec_counts *k)
{
	struct emu_counts *c = ival_of(r, k->h.pid);
	struct emu_proc_ord *p;

	if (c)
		add_counts(c, k);
	p = proc_of(r, k->h.pid);
	if (!p)
		return;
	if (k->why == PMU_EMU_WHY_INSNS)
		p->ord++;
	else if (k->why == PMU_EMU_WHY_EXEC || k->why == PMU_EMU_WHY_EXIT)
		p->ord = 0;      /* a new image counts from its start */
}

static void counts_rec(struct emu_records *r,
		       const struct pmu_emu_rec_counts *k)
{
	add_counts(&r->c, k);
	if (r->marks)
		ival_counts(r, k);
}

static void set_rec(struct emu_records *r, const struct pmu_emu_rec_set *s)
{
	struct emu_counts *c;

	pmu__emu_sets_add(&r->c, s);
	if (r->marks && (c = ival_of(r, s->h.pid)))
		pmu__emu_sets_add(c, s);
}

static void sum_into(struct emu_counts *to, const struct emu_counts *c)
{
	add_parts(to, c->sum, PMU_MAX_CTRS, c->tsc, c->kind, c->lost);
	pmu__emu_sets_merge(to, c);
}

ssize_t pmu__emu_records_nmarks(const struct emu_records *r)
{
	size_t n = r->niv;

	if (r->marks_over)
		return -E2BIG;
	while (n > 1 && !r->iv[n - 1].kind[PMU_EMU_K_INSTR])
		n--;
	return (ssize_t)n;
}

int pmu__emu_records_mark(const struct emu_records *r, size_t k,
			  struct emu_counts *out)
{
	ssize_t n = pmu__emu_records_nmarks(r);

	if (n < 0)
		return (int)n;
	if (k >= (size_t)n)
		return -ERANGE;
	memset(out, 0, sizeof(*out));
	/* the last one takes what a trailing interval without instructions
	 * holds: it is everything */
	if (k == (size_t)n - 1) {
		*out = r->c;
		return 0;
	}
	for (size_t j = 0; j <= k; j++)
		sum_into(out, &r->iv[j]);
	return 0;
}

static void add_sample(struct emu_records *r,
		       const struct pmu_emu_rec_sample *s)
{
	if (r->nsmp == MAX_KEPT_SAMPLES) {
		r->c.lost++;
		return;
	}
	void *p = grow(r->smp, &r->cap, r->nsmp + 1, sizeof(*r->smp));

	if (!p) {
		r->c.lost++;
		return;
	}
	r->smp = p;
	r->smp[r->nsmp++] = *s;
}

/* Room for n more bytes in the raw queue. */
static bool raw_room(struct emu_records *r, size_t n)
{
	if (r->qhead && r->qhead >= r->qlen / 2) {
		memmove(r->q, r->q + r->qhead, r->qlen - r->qhead);
		r->qlen -= r->qhead;
		r->qhead = 0;
	}
	if (r->qlen + n <= r->qcap)
		return true;
	size_t cap = r->qcap ? 2 * r->qcap : 65536;

	while (cap < r->qlen + n)
		cap *= 2;
	void *p = realloc(r->q, cap);

	if (!p)
		return false;
	r->q = p;
	r->qcap = cap;
	return true;
}

static void add_raw(struct emu_records *r, const struct pmu_emu_rec_hdr *h)
{
	/* a full queue drops samples; tasks and maps are few, and every
	 * later sample needs them */
	if (h->type == PMU_EMU_REC_SAMPLE &&
	    r->qlen - r->qhead + h->size > MAX_RAW_BYTES) {
		r->c.lost++;
		return;
	}
	if (!raw_room(r, h->size)) {
		r->c.lost += h->type == PMU_EMU_REC_SAMPLE;
		return;
	}
	memcpy(r->q + r->qlen, h, h->size);
	r->qlen += h->size;
}

static bool mmap_ok(const struct pmu_emu_rec_hdr *h)
{
	const struct pmu_emu_rec_mmap *m = (const void *)h;
	size_t room = h->size - sizeof(*m);

	return h->size > sizeof(*m) && !(h->size & 7) &&
	       memchr(m->name, 0, room) != NULL;
}

static void one(struct emu_records *r, const struct pmu_emu_rec_hdr *h)
{
	if ((h->type == PMU_EMU_REC_TASK &&
	     h->size == sizeof(struct pmu_emu_rec_task)) ||
	    (h->type == PMU_EMU_REC_MMAP && mmap_ok(h))) {
		if (r->raw)
			add_raw(r, h);
	} else if (h->type == PMU_EMU_REC_SAMPLE && r->raw &&
		   h->size == sizeof(struct pmu_emu_rec_sample)) {
		add_raw(r, h);
	} else if (h->type == PMU_EMU_REC_COUNTS &&
	    h->size == sizeof(struct pmu_emu_rec_counts))
		counts_rec(r, (const struct pmu_emu_rec_counts *)(const void *)h);
	else if (h->type == PMU_EMU_REC_SET &&
		 h->size == sizeof(struct pmu_emu_rec_set))
		set_rec(r, (const struct pmu_emu_rec_set *)(const void *)h);
	else if (h->type == PMU_EMU_REC_SAMPLE &&
		 h->size == sizeof(struct pmu_emu_rec_sample))
		add_sample(r, (const struct pmu_emu_rec_sample *)(const void *)h);
	else if (h->type != PMU_EMU_REC_ERROR)
		r->broken = true;  /* the tool prints its own errors */
}

void pmu__emu_records_add(struct emu_records *r, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len) {
		size_t n = sizeof(r->buf) - r->have < len
			   ? sizeof(r->buf) - r->have : len;
		size_t at = 0;

		memcpy(r->buf + r->have, p, n);
		r->have += n;
		p += n;
		len -= n;
		while (r->have - at >= sizeof(struct pmu_emu_rec_hdr)) {
			union { struct pmu_emu_rec_hdr h;
				unsigned char b[PIPE_BUF]; } rec;

			memcpy(&rec.h, r->buf + at, sizeof(rec.h));
			if (rec.h.size < sizeof(rec.h) || rec.h.size > PIPE_BUF) {
				/* lost track of the records: drop it all */
				r->broken = true;
				at = r->have;
				break;
			}
			if (r->have - at < rec.h.size)
				break;
			memcpy(rec.b, r->buf + at, rec.h.size);
			one(r, &rec.h);
			at += rec.h.size;
		}
		memmove(r->buf, r->buf + at, r->have - at);
		r->have -= at;
	}
}

size_t pmu__emu_records_take(struct emu_records *r,
			     struct pmu_emu_rec_sample *out, size_t max)
{
	size_t n = r->nsmp < max ? r->nsmp : max;

	if (!n)
		return 0;
	memcpy(out, r->smp, n * sizeof(*out));
	memmove(r->smp, r->smp + n, (r->nsmp - n) * sizeof(*out));
	r->nsmp -= n;
	return n;
}

size_t pmu__emu_records_take_raw(struct emu_records *r, void *out,
				 size_t len)
{
	size_t at = r->qhead;

	while (r->qlen - at >= sizeof(struct pmu_emu_rec_hdr)) {
		struct pmu_emu_rec_hdr h;

		memcpy(&h, r->q + at, sizeof(h));
		if (at + h.size - r->qhead > len)
			break;
		at += h.size;
	}
	memcpy(out, r->q + r->qhead, at - r->qhead);
	len = at - r->qhead;
	r->qhead = at;
	return len;
}

void pmu__emu_records_clear(struct emu_records *r)
{
	free(r->q);
	free(r->smp);
	free(r->iv);
	free(r->procs);
	memset(r, 0, sizeof(*r));
}
