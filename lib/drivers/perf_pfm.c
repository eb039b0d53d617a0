/* SPDX-License-Identifier: MIT */
/*
 * The perf driver as perfmon2's PMU (drivers/pfm_hw.h).  Counter i is
 * PMC i (an event select of the host's layout) and PMD i (its count):
 *
 *   - a PMC with EN set is a raw perf event on the context's target,
 *     opened disabled and pinned (a counter of its own, or the event
 *     stops: read then says so) and enabled by ioctl; clearing EN
 *     disables it; a changed selector (event, unit mask, modifiers,
 *     privilege levels, counting or sampling) closes it and opens the
 *     new one, the PMD's value carried over;
 *   - PMD i reads the count plus an offset; a write sets the offset so
 *     that the next read returns the value written, and forgets the
 *     overflows its ring still announces (perfmon2 forgets a written
 *     PMD's pending overflow);
 *   - a PMD above 2^63 wraps after 2^64 - v events: with INT in its
 *     PMC the event samples with that period (a small ring, one wake-up
 *     per overflow), and each write re-arms it (PERF_EVENT_IOC_PERIOD
 *     restarts the period), which is what the engine's resets do.
 *
 * Every op runs under the engine's lock, the monitor thread's too.  A
 * refusal of the kernel is kept for take_error when a caller's call
 * caused it, and logged when the monitor's switch did.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "drivers/perf_pfm.h"
#include "util/error.h"

/* Data pages of an overflow ring: 128 announcements of 32 bytes. */
#define RING_PAGES 1
#define SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CPU)
#define WRAPS UINT64_C(0x8000000000000000)

static struct perf_pfm *pf(struct pmu__pfm_hw *h)
{
	return (struct perf_pfm *)h;
}

static const struct perf_pfm *cpf(const struct pmu__pfm_hw *h)
{
	return (const struct perf_pfm *)h;
}

static const struct pmu__perf_sys *sys_of(const struct perf_pfm *p)
{
	return p->d->sys;
}

/* ---- refusals ---- */

static enum pmu_error_kind kind_of(int e)
{
	switch (-e) {
	case EACCES: case EPERM:
		return PMU_ERR_PERMISSION;
	case ESRCH:
		return PMU_ERR_NO_TARGET;
	case EMFILE: case ENFILE: case ENOMEM: case EBUSY: case ENOSPC:
		return PMU_ERR_RESOURCES;
	case ENOENT: case EINVAL: case EOPNOTSUPP: case ENODEV: case E2BIG:
		return PMU_ERR_NOT_SUPPORTED;
	default:
		return PMU_ERR_SYSTEM;
	}
}

static const char *hint_of(const struct perf_pfm *p, int e,
			   const struct perf_event_attr *a)
{
	switch (-e) {
	case EACCES: case EPERM:
		if (p->cpu >= 0)
			return "; CPU-wide counting needs kernel."
			       "perf_event_paranoid <= 0 or CAP_PERFMON";
		return a && !a->exclude_kernel
		       ? (p->pm.arm ? "; counting EL1 (P, bit 31, clear) "
				      "needs kernel.perf_event_paranoid <= 1 "
				      "or CAP_PERFMON: set P to count EL0 only"
				    : "; counting kernel mode (OS, bit 17) "
				      "needs kernel.perf_event_paranoid <= 1 "
				      "or CAP_PERFMON: clear OS to count user "
				      "mode only")
		       : "; kernel.perf_event_paranoid or a security policy "
			 "refused it";
	case ENOENT: case EINVAL: case E2BIG:
		return "; the kernel does not take this event select on this "
		       "processor (event code, unit mask, counter mask)";
	case EOPNOTSUPP:
		return a && a->sample_period
		       ? "; this PMU cannot sample (no overflow interrupt)" : "";
	case ESRCH:
		return "; the monitored thread has exited";
	case EMFILE: case ENFILE:
		return "; out of file descriptors (ulimit -n)";
	default:
		return "";
	}
}

/* Counter i's refusal (i < 0: none in particular). */
static void refuse(struct perf_pfm *p, int i, int e, const char *what,
		   const struct perf_event_attr *a)
{
	char msg[sizeof(p->err_msg)];

	if (i >= 0)
		snprintf(msg, sizeof(msg), "pmc%d (%s = 0x%llx): %s: %s%s", i,
			 p->pm.pmcs[i].name,
			 (unsigned long long)p->ctr[i].sel, what,
			 strerror(-e), hint_of(p, e, a));
	else
		snprintf(msg, sizeof(msg), "%s: %s", what, strerror(-e));
	if (p->in_monitor) {
		/* a switch or reset of the monitor's: nobody to return to */
		pmu__warn("perfmon2 context on the perf driver: %s", msg);
		return;
	}
	if (p->err)
		return;   /* the first one is the cause */
	p->err = e;
	p->err_kind = kind_of(e);
	snprintf(p->err_tok, sizeof(p->err_tok), i >= 0 ? "pmc%d" : "perf", i);
	snprintf(p->err_msg, sizeof(p->err_msg), "%s", msg);
}

/* ---- one counter ---- */

static bool samples(const struct perf_pfm_ctr *k)
{
	return k->period && (k->sel & PMU__PERF_PFM_INT);
}

static void attr_of(const struct perf_pfm *p, const struct perf_pfm_ctr *k,
		    struct perf_event_attr *a)
{
	pmu__perf_pfm_attr(&p->pm, k->sel, a);
	a->disabled = 1;
	/* a counter of its own or none: perfmon2's counts are never
	 * estimates of a multiplexed event */
	a->pinned = 1;
	if (samples(k)) {
		a->sample_period = k->period;
		a->sample_type = SAMPLE_TYPE;
		a->wakeup_events = 1;
	}
}

static bool same_event(const struct perf_event_attr *a,
		       const struct perf_event_attr *b)
{
	return a->type == b->type && a->config == b->config &&
	       a->exclude_user == b->exclude_user &&
	       a->exclude_kernel == b->exclude_kernel &&
	       a->exclude_hv == b->exclude_hv &&
	       a->exclude_guest == b->exclude_guest &&
	       a->exclude_host == b->exclude_host &&
	       !a->sample_period == !b->sample_period;
}

/* The count of counter i's open event (the last one read when a read
 * fails: the failure is reported). */
static uint64_t count(struct perf_pfm *p, unsigned i)
{
	struct perf_pfm_ctr *k = &p->ctr[i];
	const struct pmu__perf_sys *sys = sys_of(p);
	uint64_t v = 0;
	ssize_t r;

	errno = 0;
	r = sys->read(sys->ctx, k->fd, &v, sizeof(v));
	if (r == (ssize_t)sizeof(v))
		return k->last = v;
	/* every caller's read says so; the monitor's log says it once */
	if (!k->failed || !p->in_monitor) {
		k->failed = true;
		if (r == 0)
			refuse(p, (int)i, -EBUSY, "the kernel could not keep "
			       "its event on a counter (another user of the "
			       "PMU holds one): its PMD stopped counting",
			       &k->attr);
		else
			refuse(p, (int)i, errno ? -errno : -EIO,
			       "reading its count failed", &k->attr);
	}
	return k->last;
}

/* Overflows its ring still announces are forgotten. */
static void forget_overflows(struct perf_pfm_ctr *k)
{
	if (k->ring.meta) {
		pmu__ring_begin(&k->ring);
		while (pmu__ring_next(&k->ring))
			;
		pmu__ring_end(&k->ring);
	}
	k->have = false;
	k->lost = 0;
}

static void close_ctr(struct perf_pfm *p, unsigned i)
{
	struct perf_pfm_ctr *k = &p->ctr[i];
	const struct pmu__perf_sys *sys = sys_of(p);
	bool ring = k->ring.meta != NULL;
	uint64_t v;

	if (k->fd < 0)
		return;
	v = k->off + count(p, i);
	if (ring)
		pmu__ring_unmap(&k->ring);
	memset(&k->ring, 0, sizeof(k->ring));
	sys->close(sys->ctx, k->fd);
	k->fd = -1;
	k->off = v;
	k->on = k->have = k->dead = k->failed = false;
	k->lost = 0;
	if (ring)   /* the monitor polls it no more */
		pmu__perf_pfm_mon_kick(p);
}

static int map_ring(struct perf_pfm *p, unsigned i)
{
	struct perf_pfm_ctr *k = &p->ctr[i];
	struct pmu_error e = { .size = sizeof(e) };
	int rc = pmu__ring_map(&k->ring, sys_of(p), k->fd, RING_PAGES, &e);

	if (rc) {
		refuse(p, (int)i, rc, "cannot map its overflow ring", NULL);
		return rc;
	}
	if ((rc = pmu__perf_pfm_mon_start(p))) {
		refuse(p, -1, rc, "cannot start the thread that takes the "
		       "counters' overflows", NULL);
		return rc;
	}
	pmu__perf_pfm_mon_kick(p);
	return 0;
}

static int open_ctr(struct perf_pfm *p, unsigned i,
		    struct perf_event_attr *a)
{
	struct perf_pfm_ctr *k = &p->ctr[i];
	const struct pmu__perf_sys *sys = sys_of(p);
	int fd;

	errno = 0;
	fd = sys->event_open(sys->ctx, a, p->tid, p->cpu, -1,
			     PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		refuse(p, (int)i, errno ? -errno : -EIO,
		       "the kernel refused its event", a);
		return -1;
	}
	k->fd = fd;
	k->attr = *a;
	k->on = k->dead = k->failed = k->have = false;
	k->last = k->lost = 0;
	if (a->sample_period && map_ring(p, i)) {
		memset(&k->ring, 0, sizeof(k->ring));
		sys->close(sys->ctx, fd);
		k->fd = -1;
		return -1;
	}
	return 0;
}

static void ctl(struct perf_pfm *p, unsigned i, bool on)
{
	struct perf_pfm_ctr *k = &p->ctr[i];
	const struct pmu__perf_sys *sys = sys_of(p);

	errno = 0;
	if (sys->ioctl(sys->ctx, k->fd, on ? PERF_EVENT_IOC_ENABLE
					    : PERF_EVENT_IOC_DISABLE, 0) < 0) {
		refuse(p, (int)i, errno ? -errno : -EIO, on ?
		       "enabling its event failed" : "disabling its event "
		       "failed", &k->attr);
		return;
	}
	k->on = on;
}

/* A new period, counted from now (the kernel restarts it). */
static void arm(struct perf_pfm *p, unsigned i, uint64_t period)
{
	struct perf_pfm_ctr *k = &p->ctr[i];
	const struct pmu__perf_sys *sys = sys_of(p);

	errno = 0;
	if (sys->ioctl(sys->ctx, k->fd, PERF_EVENT_IOC_PERIOD,
		       (unsigned long)&period) < 0) {
		refuse(p, (int)i, errno ? -errno : -EIO,
		       "setting its sampling period failed", &k->attr);
		return;
	}
	k->attr.sample_period = period;
}

/* Counter i's event as its PMC and PMD say it must be now. */
static void sync_ctr(struct perf_pfm *p, unsigned i, bool rearm)
{
	struct perf_pfm_ctr *k = &p->ctr[i];
	bool en = (k->sel & PMU__PERF_PFM_EN) && p->attached;
	struct perf_event_attr a;

	attr_of(p, k, &a);
	if (k->fd >= 0 && !same_event(&k->attr, &a))
		close_ctr(p, i);
	if (k->fd >= 0 && a.sample_period &&
	    (rearm || a.sample_period != k->attr.sample_period))
		arm(p, i, a.sample_period);
	if (en && k->fd < 0 && open_ctr(p, i, &a))
		return;
	if (k->fd >= 0 && en != k->on)
		ctl(p, i, en);
}

/* ---- the ops ---- */

static void pp_set_callbacks(struct pmu__pfm_hw *h,
			     const struct pmu__pfm_hw_cb *cb)
{
	pf(h)->cb = *cb;
}

static void pp_write_pmc(struct pmu__pfm_hw *h, unsigned i, uint64_t v)
{
	struct perf_pfm *p = pf(h);

	if (i >= p->n)
		return;
	p->ctr[i].sel = v;
	sync_ctr(p, i, false);
}

static void pp_write_pmd(struct pmu__pfm_hw *h, unsigned i, uint64_t v)
{
	struct perf_pfm *p = pf(h);
	struct perf_pfm_ctr *k = &p->ctr[i];

	if (i >= p->n)
		return;
	k->off = v - (k->fd >= 0 ? count(p, i) : 0);
	/* -N: the PMD wraps after N events (N < 2^63, perf's limit) */
	k->period = v > WRAPS ? 0 - v : 0;
	forget_overflows(k);
	sync_ctr(p, i, true);
}

static uint64_t pp_read_pmd(struct pmu__pfm_hw *h, unsigned i)
{
	struct perf_pfm *p = pf(h);

	if (i >= p->n)
		return 0;
	return p->ctr[i].off + (p->ctr[i].fd >= 0 ? count(p, i) : 0);
}

static uint64_t pp_stopped(const struct pmu__pfm_hw *h, unsigned i,
			   uint64_t v)
{
	(void)h;
	(void)i;
	return v & ~PMU__PERF_PFM_EN;
}

/* INT in the event select is the interrupt enable: nothing to add. */
static void pp_irq_enable(struct pmu__pfm_hw *h, const uint64_t *pmds)
{
	pf(h)->irq_pmds = pmds[0];
}

static void pp_rearm(struct pmu__pfm_hw *h, unsigned pmd)
{
	(void)h;
	(void)pmd;
}

static void pp_irq_done(struct pmu__pfm_hw *h)
{
	(void)h;
}

static uint64_t pp_now(const struct pmu__pfm_hw *h)
{
	struct timespec ts;

	(void)h;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Where the overflow being handled happened, else this thread's CPU. */
static int pp_cpu(const struct pmu__pfm_hw *h)
{
	const struct perf_pfm *p = cpf(h);
	int c;

	if (p->in_irq)
		return (int)p->cur_cpu;
	c = sched_getcpu();
	return c < 0 ? 0 : c;
}

static bool pp_task(const struct pmu__pfm_hw *h, uint32_t *tid,
		    uint32_t *pid)
{
	const struct perf_pfm *p = cpf(h);

	if (!p->in_irq)
		return false;
	*tid = p->cur_tid;
	*pid = p->cur_pid;
	return true;
}

static int pp_pebs_buffer(struct pmu__pfm_hw *h, void *mem, size_t size,
			  bool mode64, struct pmu_error *err)
{
	(void)mem;
	(void)size;
	(void)mode64;
	return pmu__error(err, -ENOSYS, PMU_ERR_NOT_SUPPORTED, h->model->name,
			  -1, "the PEBS formats need a simulated Pentium 4; "
			  "this machine's PMU runs through perf_event_open");
}

static int pp_feed(struct pmu__pfm_hw *h, const char *text, size_t len,
		   struct pmu_error *err)
{
	(void)text;
	(void)len;
	return pmu__error(err, -EOPNOTSUPP, PMU_ERR_USAGE, h->model->name, -1,
			  "the context counts this machine's PMU (%s): the "
			  "monitored program runs by itself, there is "
			  "nothing to feed (pmu_perfmon_feed is for "
			  "simulated PMUs)", h->model->name);
}

static void pp_target(struct pmu__pfm_hw *h, int tid, int cpu)
{
	struct perf_pfm *p = pf(h);

	for (unsigned i = 0; i < p->n; i++)
		close_ctr(p, i);
	p->err = 0;   /* what the old target's events met is moot */
	p->attached = tid >= 0 || cpu >= 0;
	p->tid = tid >= 0 ? tid : -1;
	p->cpu = tid >= 0 ? -1 : cpu;
	if (!p->attached)
		pmu__perf_pfm_mon_stop(p);
}

static void pp_timer(struct pmu__pfm_hw *h)
{
	struct perf_pfm *p = pf(h);
	int rc = pmu__perf_pfm_mon_start(p);

	if (rc)
		refuse(p, -1, rc, "cannot start the thread that switches "
		       "sets on time", NULL);
	pmu__perf_pfm_mon_kick(p);
}

static int pp_take_error(struct pmu__pfm_hw *h, struct pmu_error *err)
{
	struct perf_pfm *p = pf(h);
	int e = p->err;

	if (!e)
		return 0;
	p->err = 0;
	return pmu__error(err, e, p->err_kind, p->err_tok, -1, "%s",
			  p->err_msg);
}

static const struct pmu__pfm_hw_ops perf_pfm_ops = {
	.set_callbacks = pp_set_callbacks,
	.write_pmc = pp_write_pmc,
	.write_pmd = pp_write_pmd,
	.read_pmd = pp_read_pmd,
	.stopped = pp_stopped,
	.irq_enable = pp_irq_enable,
	.pending = pmu__perf_pfm_pending,
	.rearm = pp_rearm,
	.irq_done = pp_irq_done,
	.now = pp_now,
	.cpu = pp_cpu,
	.pebs_buffer = pp_pebs_buffer,
	.feed = pp_feed,
	.target = pp_target,
	.timer = pp_timer,
	.take_error = pp_take_error,
	.task = pp_task,
};

/* ---- the driver's ops ---- */

static struct pmu__perf *perf_of(struct pmu__drv *d)
{
	return (struct pmu__perf *)d;
}

struct pmu__pfm_hw *pmu__perf_pfm_hw(struct pmu__drv *dd,
				     struct pmu_error *err)
{
	struct pmu__perf *d = perf_of(dd);
	struct pmu__perf_pfm_host host;
	struct perf_pfm *p;

	if (d->pfm)
		return &d->pfm->hw;
	if (d->is_open) {
		pmu__error(err, -EBUSY, PMU_ERR_USAGE, "perf", -1, "the perf "
			   "driver has events open: a monitoring context "
			   "needs the PMU to itself");
		return NULL;
	}
	if (d->pfm_host)
		host = *d->pfm_host;
	else
		pmu__perf_pfm_host_detect(&host);
	if (!(p = calloc(1, sizeof(*p)))) {
		pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
			   "out of memory");
		return NULL;
	}
	if (pmu__perf_pfm_model(&host, &p->pm, err)) {
		free(p);
		return NULL;
	}
	p->hw = (struct pmu__pfm_hw){ &perf_pfm_ops, &p->pm.m };
	p->d = d;
	p->n = p->pm.m.nr_pmds;
	p->tid = p->cpu = -1;
	p->mon.wake = p->mon.timer = -1;
	for (unsigned i = 0; i < PMU__PERF_PFM_MAX; i++)
		p->ctr[i].fd = -1;
	d->pfm = p;
	return &p->hw;
}

void pmu__perf_pfm_put(struct pmu__drv *dd)
{
	struct pmu__perf *d = perf_of(dd);
	struct perf_pfm *p = d->pfm;

	if (!p)
		return;
	pmu__perf_pfm_mon_fini(p);
	for (unsigned i = 0; i < p->n; i++)
		close_ctr(p, i);
	free(p);
	d->pfm = NULL;
}

int pmu__perf_pfm_set_host(struct pmu__drv *dd,
			   const struct pmu__perf_pfm_host *h)
{
	struct pmu__perf *d = perf_of(dd);

	if (!dd || dd->ops != &pmu__perf_ops || d->pfm)
		return -EINVAL;
	if (!d->pfm_host && !(d->pfm_host = malloc(sizeof(*d->pfm_host))))
		return -ENOMEM;
	*d->pfm_host = *h;
	return 0;
}
