/* SPDX-License-Identifier: MIT */
/*
 * The records of the emulator's FIFO, as bytes arrive: whole records are
 * added up (counts) or kept (samples); a partial one waits for the rest.
 * The bytes come from another program, so every size is checked.
 */
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

static void add_counts(struct emu_records *r,
		       const struct pmu_emu_rec_counts *k)
{
	unsigned n = k->nctrs < PMU_MAX_CTRS ? k->nctrs : PMU_MAX_CTRS;

	for (unsigned i = 0; i < n; i++)
		r->c.sum[i] += k->sum[i];
	r->c.tsc += k->tsc;
	for (unsigned i = 0; i < PMU_EMU_NKIND; i++)
		r->c.kind[i] += k->kind[i];
	r->c.lost += k->samples_lost;
}

static void add_sample(struct emu_records *r,
		       const struct pmu_emu_rec_sample *s)
{
	if (r->nsmp == MAX_KEPT_SAMPLES) {
		r->c.lost++;
		return;
	}
	if (r->nsmp == r->cap) {
		size_t n = r->cap ? 2 * r->cap : 256;
		void *p = realloc(r->smp, n * sizeof(*r->smp));

		if (!p) {
			r->c.lost++;
			return;
		}
		r->smp = p;
		r->cap = n;
	}
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
		add_counts(r, (const struct pmu_emu_rec_counts *)(const void *)h);
	else if (h->type == PMU_EMU_REC_SET &&
		 h->size == sizeof(struct pmu_emu_rec_set))
		pmu__emu_sets_add(&r->c, (const struct pmu_emu_rec_set *)
					 (const void *)h);
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
	memset(r, 0, sizeof(*r));
}
