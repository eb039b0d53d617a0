/* SPDX-License-Identifier: MIT */
/*
 * Sampling on the perf driver.  Every group leader samples with
 * sample_type IDENTIFIER|IP|TID|TIME|CPU|PERIOD, READ of the group when
 * it has members, and the extras asked for; members only count.  The
 * driver maps one ring per CPU or thread (map_buffer), and the session
 * decodes the kernel's records into perfmon2 default-format entries in
 * a buffer of its own: a memfd the library writes and the caller maps
 * read-only, so the caller reads what was decoded without a copy.
 *
 * Nothing runs between calls: pmu_session_sample_poll(), _read(),
 * _stop() and _sample_stats() decode what the rings hold, and the
 * rings (sized after the buffer) keep the samples in the meantime.
 * What the kernel could not keep it announces with PERF_RECORD_LOST,
 * which the ring reader adds up; both kinds of loss are reported.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "drivers/perf_ring.h"
#include "session/sample.h"
#include "session/sets.h"
#include "util/error.h"

/* perf's user register set on x86-64: every general register but the
 * segment ones (ax bx cx dx si di bp sp ip flags cs ss r8-r15). */
#define X86_64_REGS_USER 0xff0fffULL
/* The kernel adds context markers to a chain's frames: room for them
 * inside PMU_SAMPLE_MAX_STACK. */
#define CHAIN_MARKERS 8

struct pmu__smpl_perf {
	struct pmu__ev *dev;          /* the events as the driver opened them */
	struct pmu__smpl_ev *ev;
	uint64_t *ids;
	uint32_t *idev;
	size_t nids;
	struct pmu__ring *rings;      /* the driver's */
	size_t nrings;
	struct pollfd *pfd;
	int buf_fd;
	unsigned char *buf;
	size_t size;
	int msg[2];                   /* the notification queue */
	struct pmu__smpl_dec dec;
};

static struct pmu__smpl_perf *perf_of(const struct pmu_session *s)
{
	return s->smpl ? s->smpl->perf : NULL;
}

/* ---- before the driver's open ---- */

static size_t group_size(const struct pmu_session *s, size_t leader)
{
	size_t n = 1;

	while (leader + n < s->n && !s->ev[leader + n].leader)
		n++;
	return n;
}

/* PERIOD only when the kernel varies it (freq): with a fixed period
 * the kernel makes software events and tracepoints that carry PERIOD
 * sample every single event (reporting the period as 1), and the period
 * is known anyway. */
static uint64_t sample_type(const struct pmu__smpl *m, size_t nmemb,
			    bool freq)
{
	uint64_t t = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
		     PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;

	if (freq)
		t |= PERF_SAMPLE_PERIOD;

	if (nmemb > 1)
		t |= PERF_SAMPLE_READ;
	if (m->extra & PMU_SAMPLE_DATA_ADDR)
		t |= PERF_SAMPLE_ADDR;
	if (m->extra & PMU_SAMPLE_CALLCHAIN)
		t |= PERF_SAMPLE_CALLCHAIN;
	if (m->extra & PMU_SAMPLE_REGS)
		t |= PERF_SAMPLE_REGS_USER;
	return t;
}

/* A power of two of pages holding at least the buffer's bytes: the
 * rings keep what the buffer could take between two decodes. */
static size_t ring_pages(size_t buf_size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), n = 1;

	while (n * page < buf_size && n < 4096)
		n *= 2;
	return n;
}

static void set_leader(const struct pmu_session *s, size_t i,
		       struct perf_event_attr *a)
{
	const struct pmu__smpl *m = s->smpl;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	pmu__ev_sampling(&s->ev[i], a);
	if (a->freq || !a->sample_period) {
		/* no period= term of its own */
		a->freq = m->freq != 0;
		if (m->freq)
			a->sample_freq = m->freq;
		else
			a->sample_period = m->period;
	}
	a->sample_type = sample_type(m, group_size(s, i), a->freq);
	/* an IBS unit's registers come as the kernel's raw data */
	if (s->ev[i].flags & PMU__EV_IBS)
		a->sample_type |= PERF_SAMPLE_RAW;
	if (m->extra & PMU_SAMPLE_CALLCHAIN)
		a->sample_max_stack = PMU_SAMPLE_MAX_STACK - CHAIN_MARKERS;
	if (m->extra & PMU_SAMPLE_REGS)
		a->sample_regs_user = X86_64_REGS_USER;
	/* wake a poller when a quarter of the ring is used */
	a->watermark = 1;
	a->wakeup_watermark = (uint32_t)(ring_pages(m->buf_size) * page / 4);
}

int pmu__smpl_perf_prepare(struct pmu_session *s, struct pmu__target *t,
			   struct pmu__ev **dev, struct pmu_error *err)
{
	struct pmu__smpl_perf *p;

#if !defined(__x86_64__)
	if (s->smpl->extra & PMU_SAMPLE_REGS)
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED,
				  "extra", -1, "user registers are sampled "
				  "on x86-64 only");
#endif
	p = calloc(1, sizeof(*p));
	if (!p || !(p->dev = calloc(s->n + 1, sizeof(*p->dev)))) {
		free(p);
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	}
	p->buf_fd = p->msg[0] = p->msg[1] = -1;
	s->smpl->perf = p;
	for (size_t i = 0; i < s->n; i++)
		if ((s->ev[i].flags & PMU__EV_IBS) && group_size(s, i) > 1)
			return pmu__error(err, -EINVAL, PMU_ERR_USAGE,
					  s->ev[i].name, -1, "'%s' samples "
					  "alone: an IBS set-up's values are its "
					  "unit's data registers, not a group's "
					  "counts", s->ev[i].name);
	memcpy(p->dev, s->ev, s->n * sizeof(*p->dev));
	for (size_t i = 0; i < s->n; i++) {
		struct perf_event_attr *a = &p->dev[i].attr;

		/* the session reads the groups itself, and the samples
		 * the kernel could not keep */
		p->dev[i].flags &= ~PMU__EV_SAMPLE_READ;
		p->dev[i].flags |= PMU__EV_LOST;
		if (p->dev[i].leader) {
			set_leader(s, i, a);
			continue;
		}
		/* members count, their leader samples */
		a->sample_period = 0;
		a->freq = 0;
		a->sample_type = 0;
	}
	/* the kernel maps rings of inherited events per CPU only */
	t->per_cpu = t->kind == PMU__TARGET_CHILD ||
		     (t->inherit && t->kind != PMU__TARGET_CPUS);
	*dev = p->dev;
	return 0;
}

/* ---- after it ---- */

static int cmp_id(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* The kernel's ids of every event, sorted, with their events. */
static int collect_ids(struct pmu_session *s, struct pmu__smpl_perf *p)
{
	const struct pmu__driver_ops *o = s->drv->ops;
	size_t cap = 16, n = 0, got;
	uint64_t *pairs = malloc(2 * cap * sizeof(*pairs)), tmp[256];

	for (size_t i = 0; pairs && i < s->n; i++) {
		if (s->st[i].err ||
		    o->buffer->event_ids(s->drv, i, tmp, 256, &got))
			continue;
		for (size_t k = 0; k < got && k < 256; k++) {
			if (n == cap) {
				uint64_t *q = realloc(pairs, 4 * cap *
						      sizeof(*pairs));

				if (!q)
					break;
				pairs = q;
				cap *= 2;
			}
			pairs[2 * n] = tmp[k];
			pairs[2 * n++ + 1] = i;
		}
	}
	p->ids = malloc((n + 1) * sizeof(*p->ids));
	p->idev = malloc((n + 1) * sizeof(*p->idev));
	if (!pairs || !p->ids || !p->idev) {
		free(pairs);
		return -ENOMEM;
	}
	qsort(pairs, n, 2 * sizeof(*pairs), cmp_id);
	for (size_t k = 0; k < n; k++) {
		p->ids[k] = pairs[2 * k];
		p->idev[k] = (uint32_t)pairs[2 * k + 1];
	}
	p->nids = n;
	free(pairs);
	return 0;
}

static int describe_events(struct pmu_session *s, struct pmu__smpl_perf *p)
{
	uint32_t first = 0;

	p->ev = calloc(s->n + 1, sizeof(*p->ev));
	if (!p->ev)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++) {
		if (s->ev[i].leader)
			first = (uint32_t)i;
		p->ev[i] = (struct pmu__smpl_ev){
			.sample_type = p->dev[i].attr.sample_type,
			.period = p->dev[i].attr.freq ? 0
				  : p->dev[i].attr.sample_period,
			.first = first,
			.nmemb = (uint32_t)group_size(s, first),
			.read_w = 3,
			.raw_vals = (s->ev[i].flags & PMU__EV_IBS) &&
				    s->ev[i].ncodes >= 4 && s->ev[i].codes[3]
				    ? (uint32_t)s->ev[i].codes[3] - 1 : 0,
			.samples = s->ev[i].leader && !s->st[i].err,
		};
	}
	return 0;
}

static int make_buffer(struct pmu_session *s, struct pmu__smpl_perf *p,
		       struct pmu_error *err)
{
	size_t size = s->smpl->buf_size, need;

	p->dec = (struct pmu__smpl_dec){
		.ev = p->ev, .nev = s->n, .ids = p->ids, .idev = p->idev,
		.nids = p->nids, .flags = (uint32_t)s->smpl->extra,
		.msg_fd = -1,
	};
	need = sizeof(struct pmu_sample_hdr) + pmu__smpl_dec_max_entry(&p->dec);
	if (size < need)
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, "buf_size",
				  -1, "buf_size %zu is too small: the header "
				  "and the largest entry take %zu bytes", size,
				  need);
	p->buf_fd = memfd_create("pmu-sampling-buffer", MFD_CLOEXEC);
	if (p->buf_fd < 0 || ftruncate(p->buf_fd, (off_t)size))
		return pmu__error(err, -errno, PMU_ERR_SYSTEM, NULL, -1,
				  "cannot create the %zu-byte sampling buffer: "
				  "%s", size, pmu_strerror(-errno));
	p->buf = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
		      p->buf_fd, 0);
	if (p->buf == MAP_FAILED) {
		p->buf = NULL;
		return pmu__error(err, -errno, PMU_ERR_SYSTEM, NULL, -1,
				  "cannot map the sampling buffer: %s",
				  pmu_strerror(-errno));
	}
	p->size = size;
	p->dec.buf = p->buf;
	p->dec.size = size;
	return 0;
}

static int make_queue(struct pmu__smpl_perf *p, struct pmu_error *err)
{
	if (pipe2(p->msg, O_CLOEXEC))
		return pmu__error(err, -errno, PMU_ERR_SYSTEM, NULL, -1,
				  "cannot create the notification queue: %s",
				  pmu_strerror(-errno));
	/* the decoder never waits for the reader: a full pipe counts the
	 * notification as lost */
	fcntl(p->msg[1], F_SETFL, O_NONBLOCK);
	p->dec.msg_fd = p->msg[1];
	return 0;
}

static int map_rings(struct pmu_session *s, struct pmu__smpl_perf *p,
		     struct pmu_error *err)
{
	int ret = s->drv->ops->buffer->map_buffer(s->drv,
					  ring_pages(s->smpl->buf_size),
					  &p->rings, &p->nrings, err);

	if (ret)
		return ret;
	p->pfd = calloc(p->nrings + 1, sizeof(*p->pfd));
	if (!p->pfd)
		return -ENOMEM;
	for (size_t k = 0; k < p->nrings; k++)
		p->pfd[k] = (struct pollfd){ .fd = p->rings[k].fd,
					     .events = POLLIN };
	return 0;
}

int pmu__smpl_perf_opened(struct pmu_session *s, struct pmu_error *err)
{
	struct pmu__smpl_perf *p = perf_of(s);
	int ret = map_rings(s, p, err);

	if (!ret && (collect_ids(s, p) || describe_events(s, p)))
		ret = -ENOMEM;
	if (!ret)
		ret = make_buffer(s, p, err);
	if (!ret)
		ret = make_queue(p, err);
	if (ret == -ENOMEM)
		pmu__error(err, ret, PMU_ERR_SYSTEM, NULL, -1, "out of memory");
	if (!ret)
		pmu__smpl_dec_init(&p->dec);
	return ret;
}

/* ---- running ---- */

uint64_t pmu__smpl_perf_drain(struct pmu_session *s)
{
	struct pmu__smpl_perf *p = perf_of(s);
	uint64_t before = p->dec.samples;

	for (size_t k = 0; k < p->nrings; k++) {
		struct pmu__ring *r = &p->rings[k];
		const struct perf_event_header *h;

		if (!pmu__ring_begin(r))
			continue;
		while ((h = pmu__ring_next(r)))
			pmu__smpl_dec_record(&p->dec, h);
		pmu__ring_end(r);
	}
	return p->dec.samples - before;
}

static bool pending(const struct pmu__smpl_perf *p)
{
	for (size_t k = 0; k < p->nrings; k++)
		if (pmu__ring_pending(&p->rings[k]))
			return true;
	return false;
}

ssize_t pmu__smpl_perf_poll(struct pmu_session *s, int timeout_ms)
{
	struct pmu__smpl_perf *p = perf_of(s);

	if (timeout_ms != 0 && p->nrings && !pending(p) &&
	    poll(p->pfd, p->nrings, timeout_ms) < 0 && errno != EINTR)
		return -errno;
	return (ssize_t)pmu__smpl_perf_drain(s);
}

int pmu__smpl_perf_restart(struct pmu_session *s)
{
	return pmu__smpl_dec_restart(&perf_of(s)->dec);
}

int pmu__smpl_perf_map(struct pmu_session *s)
{
	struct pmu__smpl_perf *p = perf_of(s);
	void *m = mmap(NULL, p->size, PROT_READ, MAP_SHARED, p->buf_fd, 0);

	if (m == MAP_FAILED)
		return -errno;
	s->smpl->umap = m;
	s->smpl->ulen = p->size;
	return 0;
}

int pmu__smpl_perf_fd(struct pmu_session *s)
{
	return perf_of(s)->msg[0];
}

/* What the kernel could not keep: its LOST records say so once the
 * ring has room again, the events' own counts (PERF_FORMAT_LOST) at
 * once; they count the same samples. */
static uint64_t kernel_lost(struct pmu_session *s, struct pmu__smpl_perf *p)
{
	uint64_t rings = 0, events = 0, n;

	for (size_t k = 0; k < p->nrings; k++)
		rings += p->rings[k].lost;
	for (size_t i = 0; s->drv->ops->buffer && i < s->n; i++)
		if (p->ev[i].samples &&
		    !s->drv->ops->buffer->lost(s->drv, i, &n))
			events += n;
	return rings > events ? rings : events;
}

int pmu__smpl_perf_stats(struct pmu_session *s, struct pmu_sample_stats *st)
{
	struct pmu__smpl_perf *p = perf_of(s);
	uint64_t lost;

	pmu__smpl_perf_drain(s);
	lost = kernel_lost(s, p);
	st->samples = p->dec.samples;
	st->lost = p->dec.lost + lost;
	st->full = p->dec.fills;
	return 0;
}

ssize_t pmu__smpl_perf_event(const struct pmu_session *s, unsigned ev)
{
	const struct pmu__smpl_perf *p = perf_of(s);

	return ev < s->n && p->ev[ev].samples ? (ssize_t)ev : -ENOENT;
}

ssize_t pmu__smpl_perf_values(const struct pmu_session *s, size_t ev,
			      size_t *idx, size_t max)
{
	const struct pmu__smpl_perf *p = perf_of(s);
	size_t n = p->ev[ev].raw_vals ? 0 : p->ev[ev].nmemb - 1;

	if (!p->ev[ev].samples)
		return -EINVAL;
	for (size_t k = 0; k < n && k < max; k++)
		idx[k] = ev + 1 + k;
	return (ssize_t)n;
}

void pmu__smpl_perf_close(struct pmu_session *s)
{
	struct pmu__smpl_perf *p = perf_of(s);

	if (!p)
		return;
	if (p->buf)
		munmap(p->buf, p->size);
	if (p->buf_fd >= 0)
		close(p->buf_fd);
	for (int k = 0; k < 2; k++)
		if (p->msg[k] >= 0)
			close(p->msg[k]);
	free(p->pfd);
	free(p->ids);
	free(p->idev);
	free(p->ev);
	free(p->dev);
	free(p);
	s->smpl->perf = NULL;
}

struct pmu__smpl_dec *pmu__smpl_perf_decoder(struct pmu_session *s)
{
	struct pmu__smpl_perf *p = perf_of(s);

	return p ? &p->dec : NULL;
}

int pmu__smpl_perf_rings(struct pmu_session *s, struct pmu__ring **rings,
			 size_t *n)
{
	struct pmu__smpl_perf *p = perf_of(s);

	if (!p)
		return -EINVAL;
	*rings = p->rings;
	*n = p->nrings;
	return 0;
}
