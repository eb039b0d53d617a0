/* SPDX-License-Identifier: MIT */
/*
 * The kernel's PERF_RECORD_SAMPLE records as perfmon2 default-format
 * entries (seed-semantics 2.2 and 2.6).  The records carry
 * IDENTIFIER, IP, TID, TIME, [ADDR], CPU, [PERIOD], [READ of the group],
 * [CALLCHAIN], [RAW: an IBS unit's registers], [REGS_USER], in the
 * kernel's order; the identifier says
 * which event sampled, hence where the rest lies.  The buffer follows
 * the default format's rules exactly: an entry is written only if the
 * largest entry fits, the buffer is full once the largest no longer
 * does (the entry just written is kept), a full buffer counts one
 * hdr_overflows and queues one notification, and restart empties it.
 * A sample that finds the buffer full is counted lost: the kernel's
 * counters cannot be masked from a ring reader, and dropping it
 * without a word would be worse.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "session/sample.h"

_Static_assert(sizeof(struct pmu_sample_hdr) == 128 &&
	       sizeof(struct pmu_sample_entry) == 40,
	       "perfmon2's default format");

#define HDR ((size_t)sizeof(struct pmu_sample_hdr))

static struct pmu_sample_hdr *hdr_of(const struct pmu__smpl_dec *d)
{
	return (struct pmu_sample_hdr *)(void *)d->buf;
}

static size_t extras_max(uint32_t flags)
{
	return (flags & PMU_SAMPLE_DATA_ADDR ? 8u : 0u) +
	       (flags & PMU_SAMPLE_REGS ? 8u + 8u * PMU_SAMPLE_NREGS : 0u) +
	       (flags & PMU_SAMPLE_CALLCHAIN ? 8u + 8u * PMU_SAMPLE_MAX_STACK
					     : 0u);
}

size_t pmu__smpl_dec_max_entry(const struct pmu__smpl_dec *d)
{
	uint32_t vals = 0;

	for (size_t i = 0; i < d->nev; i++) {
		uint32_t v = d->ev[i].raw_vals + d->ev[i].nmemb - 1;

		if (d->ev[i].samples && v > vals)
			vals = v;
	}
	return sizeof(struct pmu_sample_entry) + 8u * vals +
	       extras_max(d->flags);
}

void pmu__smpl_dec_init(struct pmu__smpl_dec *d)
{
	struct pmu_sample_hdr *h = hdr_of(d);

	memset(h, 0, sizeof(*h));
	h->hdr_version = 0x10000;
	h->hdr_buf_size = d->size;
	h->hdr_buf_flags = d->flags;
	h->hdr_cur_offs = HDR;
	h->hdr_min_buf_space = pmu__smpl_dec_max_entry(d);
	d->full = false;
}

/* The event of kernel id `id` (ids sorted), -1 when unknown. */
static ssize_t event_of(const struct pmu__smpl_dec *d, uint64_t id)
{
	size_t lo = 0, hi = d->nids;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < d->nids && d->ids[lo] == id ? (ssize_t)d->idev[lo] : -1;
}

/* A sample's fields, as read from the record. */
struct fields {
	uint64_t ip, time, addr, period;
	uint32_t pid, tid, cpu;
	const uint64_t *read;     /* the group read: nr, ena, run, {v, id} */
	const uint64_t *chain;    /* nr, ips */
	const uint64_t *raw;      /* size | caps << 32, then u64 registers */
	size_t nraw;              /* registers */
	const uint64_t *regs;     /* abi, regs */
};

/* The next n u64 words of a record of `words` words, NULL past it. */
static const uint64_t *take(const uint64_t *r, size_t words, size_t *at,
			    size_t n)
{
	const uint64_t *p = r + *at;

	if (n > words - *at)
		return NULL;
	*at += n;
	return p;
}

/* The fields after the identifier (word 0), in the kernel's order. */
static int parse(const struct pmu__smpl_ev *e, const uint64_t *r,
		 size_t words, struct fields *f)
{
	uint64_t st = e->sample_type;
	size_t at = 1;
	const uint64_t *p;

	if (!(p = take(r, words, &at, 3)))
		return -1;
	f->ip = p[0];
	f->pid = (uint32_t)p[1];
	f->tid = (uint32_t)(p[1] >> 32);
	f->time = p[2];
	if ((st & PERF_SAMPLE_ADDR) && !(p = take(r, words, &at, 1)))
		return -1;
	f->addr = st & PERF_SAMPLE_ADDR ? p[0] : 0;
	if (!(p = take(r, words, &at, 1)))
		return -1;
	f->cpu = (uint32_t)p[0];
	f->period = e->period;
	if ((st & PERF_SAMPLE_PERIOD) && !(p = take(r, words, &at, 1)))
		return -1;
	if (st & PERF_SAMPLE_PERIOD)
		f->period = p[0];
	f->read = NULL;
	if (st & PERF_SAMPLE_READ) {
		if (!(f->read = take(r, words, &at, 3)) || f->read[0] != e->nmemb ||
		    !take(r, words, &at, e->read_w * e->nmemb))
			return -1;
	}
	f->chain = NULL;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (!(f->chain = take(r, words, &at, 1)) ||
		    !take(r, words, &at, f->chain[0]))
			return -1;
	}
	f->raw = NULL;
	f->nraw = 0;
	if (st & PERF_SAMPLE_RAW) {
		uint32_t size;

		if (!(f->raw = take(r, words, &at, 1)))
			return -1;
		/* u32 size, size bytes, padded to 8 */
		size = (uint32_t)f->raw[0];
		if (size < 4 || !take(r, words, &at, (size + 4 + 7) / 8 - 1))
			return -1;
		f->nraw = (size - 4) / 8;
	}
	f->regs = NULL;
	if (st & PERF_SAMPLE_REGS_USER) {
		if (!(f->regs = take(r, words, &at, 1)))
			return -1;
		if (f->regs[0] && !take(r, words, &at, PMU_SAMPLE_NREGS))
			return -1;
	}
	return 0;
}

/* The group's other events' counts, in group order, matched by id (the
 * kernel lists the leader first, then the members as they were
 * created, but nothing obliges it to). */
static int put_values(const struct pmu__smpl_dec *d,
		      const struct pmu__smpl_ev *e, const uint64_t *read,
		      uint64_t *out)
{
	uint32_t seen = 0, first = e->first, nmemb = e->nmemb, w = e->read_w;

	for (uint32_t k = 0; k < nmemb; k++) {
		uint64_t v = read[3 + w * k], id = read[4 + w * k];
		ssize_t i = event_of(d, id);

		if (i < (ssize_t)first || i >= (ssize_t)(first + nmemb))
			return -1;
		if (i > (ssize_t)first) {
			out[i - first - 1] = v;
			seen++;
		}
	}
	return seen == nmemb - 1 ? 0 : -1;
}

static size_t put_extras(const struct pmu__smpl_dec *d, const struct fields *f,
			 uint64_t *out)
{
	size_t n = 0;

	if (d->flags & PMU_SAMPLE_DATA_ADDR)
		out[n++] = f->addr;
	if (d->flags & PMU_SAMPLE_REGS) {
		out[n++] = f->regs ? f->regs[0] : 0;
		if (f->regs && f->regs[0])
			memcpy(out + n, f->regs + 1, 8u * PMU_SAMPLE_NREGS);
		else
			memset(out + n, 0, 8u * PMU_SAMPLE_NREGS);
		n += PMU_SAMPLE_NREGS;
	}
	if (d->flags & PMU_SAMPLE_CALLCHAIN) {
		uint64_t nr = f->chain ? f->chain[0] : 0;

		/* the kernel stops at sample_max_stack; a longer chain
		 * keeps its innermost frames */
		if (nr > PMU_SAMPLE_MAX_STACK)
			nr = PMU_SAMPLE_MAX_STACK;
		out[n++] = nr;
		if (nr)
			memcpy(out + n, f->chain + 1, 8u * nr);
		n += (size_t)nr;
	}
	return n;
}

/* The buffer filled: one overflow, one notification. */
static void filled(struct pmu__smpl_dec *d, size_t ev, const struct fields *f)
{
	pfarg_msg_t m;

	hdr_of(d)->hdr_overflows++;
	d->fills++;
	d->full = true;
	d->can_restart++;
	if (d->msg_fd < 0)
		return;
	memset(&m, 0, sizeof(m));
	m.pfm_ovfl_msg.msg_type = PFM_MSG_OVFL;
	/* perfmon2's fill-in: the thread id in "pid", the process in "tid" */
	m.pfm_ovfl_msg.msg_ovfl_pid = f->tid;
	m.pfm_ovfl_msg.msg_ovfl_tid = f->pid;
	m.pfm_ovfl_msg.msg_active_set = d->ev[ev].set;
	m.pfm_ovfl_msg.msg_ovfl_cpu = (uint16_t)f->cpu;
	m.pfm_ovfl_msg.msg_ovfl_ip = f->ip;
	if (ev < PFM_MAX_PMDS)
		m.pfm_ovfl_msg.msg_ovfl_pmds[ev / 64] = UINT64_C(1) << (ev % 64);
	if (write(d->msg_fd, &m, sizeof(m)) != (ssize_t)sizeof(m))
		d->msgs_lost++;
}

static void write_entry(struct pmu__smpl_dec *d, size_t ev,
			const struct fields *f, const uint64_t *vals,
			size_t nvals)
{
	struct pmu_sample_hdr *h = hdr_of(d);
	unsigned char *at = d->buf + h->hdr_cur_offs;
	struct pmu_sample_entry e = {
		.pid = f->tid, .tgid = f->pid, .ovfl_pmd = (uint16_t)ev,
		.last_reset_val = 0 - f->period, .ip = f->ip,
		.tstamp = f->time, .cpu = (uint16_t)f->cpu,
		.set = d->ev[ev].set,
	};

	memcpy(at, &e, sizeof(e));
	memcpy(at + sizeof(e), vals, 8 * nvals);
	h->hdr_count++;
	h->hdr_cur_offs += sizeof(e) + 8 * nvals;
	d->samples++;
}

static int sample(struct pmu__smpl_dec *d, const uint64_t *r, size_t words)
{
	uint64_t vals[64 + 2 + PMU_SAMPLE_NREGS + 1 + PMU_SAMPLE_MAX_STACK];
	struct pmu_sample_hdr *h = hdr_of(d);
	ssize_t ev = words ? event_of(d, r[0]) : -1;
	const struct pmu__smpl_ev *e;
	struct fields f;
	size_t n = 0;

	if (ev < 0 || !(e = &d->ev[ev])->samples || parse(e, r, words, &f))
		goto bad;
	if (e->raw_vals) {
		/* IBS: the data registers after the control register */
		if (!f.raw || f.nraw < 1 + e->raw_vals || e->raw_vals > 32)
			goto bad;
		memcpy(vals, f.raw + 1 + 1, 8u * e->raw_vals);
		n = e->raw_vals;
	}
	if (e->nmemb > 1) {
		if (!f.read || e->nmemb - 1 > 64 || n ||
		    put_values(d, e, f.read, vals))
			goto bad;
		n = e->nmemb - 1;
	}
	if (d->full) {
		d->lost++;
		return 0;
	}
	if (h->hdr_buf_size - h->hdr_cur_offs < h->hdr_min_buf_space) {
		d->lost++;
		filled(d, (size_t)ev, &f);
		return 0;
	}
	n += put_extras(d, &f, vals + n);
	write_entry(d, (size_t)ev, &f, vals, n);
	/* checked again so that the entry just written is kept */
	if (h->hdr_buf_size - h->hdr_cur_offs < h->hdr_min_buf_space)
		filled(d, (size_t)ev, &f);
	return 1;
bad:
	/* not decodable: counted with the lost, never made up */
	d->bad++;
	d->lost++;
	return -1;
}

int pmu__smpl_dec_record(struct pmu__smpl_dec *d,
			 const struct perf_event_header *h)
{
	const uint64_t *r = (const uint64_t *)(const void *)(h + 1);
	size_t words = (h->size - sizeof(*h)) / 8;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		return sample(d, r, words);
	case PERF_RECORD_LOST_SAMPLES:
		/* samples the kernel could not make (the ring's LOST
		 * records are the ring reader's) */
		if (words >= 1)
			d->lost += r[0];
		return 0;
	default:
		return 0;
	}
}

int pmu__smpl_dec_restart(struct pmu__smpl_dec *d)
{
	struct pmu_sample_hdr *h = hdr_of(d);

	if (!d->can_restart)
		return -EBUSY;
	d->can_restart--;
	h->hdr_count = 0;
	h->hdr_cur_offs = HDR;
	d->full = false;
	return 0;
}
