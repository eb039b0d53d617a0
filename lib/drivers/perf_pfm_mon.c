/* SPDX-License-Identifier: MIT */
/*
 * The monitor thread of a perfmon2 context on the perf driver: what
 * the hardware's interrupt and clock were to perfmon2's kernel.  It
 * polls the overflow rings of the sampling counters and a timerfd
 * armed at the engine's deadline; under the engine's lock it hands
 * every announced overflow to the engine as an interrupt (which calls
 * back pending() to learn which counters overflowed) and, when the
 * deadline has passed, lets the engine switch sets (tick).
 *
 * It only ever tries the engine's lock (backing off while a caller
 * holds it), so the engine may stop it -- join it -- under that lock.
 * A ring announcement is read one record at a time: an overflow
 * (PERF_RECORD_SAMPLE: ip, pid/tid, cpu) or a PERF_RECORD_LOST whose
 * overflows are handed on too, without an ip.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "drivers/perf_pfm.h"

#define BACKOFF_MS 1    /* while a caller holds the engine's lock */
#define ROUNDS 256      /* overflows handed over per look, at most */
#define NPOLL (2 + PMU__PERF_PFM_MAX)

/* PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CPU, in that order. */
struct sample {
	uint64_t ip;
	uint32_t pid, tid;
	uint32_t cpu, res;
};

static bool bv_has(const uint64_t *bv, unsigned i)
{
	return bv[i / 64] >> (i % 64) & 1;
}

/* The next announcement of counter k's ring, unless one is waiting. */
static void fetch(struct perf_pfm *p, struct perf_pfm_ctr *k)
{
	const struct perf_event_header *h;
	uint64_t lost0;

	if (!k->ring.meta || k->have)
		return;
	lost0 = k->ring.lost;
	pmu__ring_begin(&k->ring);
	while ((h = pmu__ring_next(&k->ring))) {
		struct sample s;

		if (h->type != PERF_RECORD_SAMPLE ||
		    h->size < sizeof(*h) + sizeof(s))
			continue;   /* THROTTLE and the like */
		memcpy(&s, h + 1, sizeof(s));
		k->ip = s.ip;
		k->pid = s.pid;
		k->tid = s.tid;
		k->cpu = s.cpu;
		k->have = true;
		break;
	}
	pmu__ring_end(&k->ring);
	k->lost += k->ring.lost - lost0;
	p->lost += k->ring.lost - lost0;
}

void pmu__perf_pfm_pending(struct pmu__pfm_hw *h, const uint64_t *watch,
			   const uint64_t *emul, unsigned width, uint64_t *bv)
{
	struct perf_pfm *p = (struct perf_pfm *)h;

	(void)emul;
	(void)width;
	p->served = true;
	for (unsigned i = 0; i < p->n; i++) {
		struct perf_pfm_ctr *k = &p->ctr[i];

		fetch(p, k);
		if (!k->have && !k->lost)
			continue;
		if (k->have)
			k->have = false;
		else
			k->lost--;
		if (bv_has(watch, i))
			bv[i / 64] |= UINT64_C(1) << (i % 64);
	}
}

static void drop_all(struct perf_pfm *p)
{
	for (unsigned i = 0; i < p->n; i++) {
		p->ctr[i].have = false;
		p->ctr[i].lost = 0;
	}
}

/* Interrupts for what the rings announced, one overflow per counter
 * each; while the context is stopped or masked the engine takes none
 * (it counts them spurious) and they are dropped. */
static void serve(struct perf_pfm *p)
{
	for (unsigned r = 0; r < ROUNDS; r++) {
		const struct perf_pfm_ctr *k = NULL;

		for (unsigned i = 0; i < p->n; i++) {
			fetch(p, &p->ctr[i]);
			if (!k && (p->ctr[i].have || p->ctr[i].lost))
				k = &p->ctr[i];
		}
		if (!k)
			return;
		p->cur_ip = k->have ? k->ip : 0;
		p->cur_cpu = k->cpu;
		p->cur_pid = k->pid;
		p->cur_tid = k->tid;
		p->in_irq = true;
		p->served = false;
		p->cb.irq(p->cb.arg, p->cur_ip);
		p->in_irq = false;
		if (!p->served) {
			drop_all(p);
			return;
		}
	}
	pmu__perf_pfm_mon_kick(p);   /* more: look again at once */
}

static void arm_timer(struct perf_pfm *p)
{
	uint64_t d = p->cb.deadline ? p->cb.deadline(p->cb.arg) : UINT64_MAX;
	struct itimerspec its;

	memset(&its, 0, sizeof(its));
	if (d != UINT64_MAX) {
		its.it_value.tv_sec = (time_t)(d / 1000000000u);
		its.it_value.tv_nsec = (long)(d % 1000000000u);
		if (!its.it_value.tv_sec && !its.it_value.tv_nsec)
			its.it_value.tv_nsec = 1;
	}
	timerfd_settime(p->mon.timer, 0, &its, NULL);
}

static size_t poll_set(const struct perf_pfm *p, struct pollfd *pf)
{
	size_t n = 0;

	pf[n++] = (struct pollfd){ .fd = p->mon.wake, .events = POLLIN };
	pf[n++] = (struct pollfd){ .fd = p->mon.timer, .events = POLLIN };
	for (unsigned i = 0; i < p->n; i++) {
		const struct perf_pfm_ctr *k = &p->ctr[i];

		if (k->fd >= 0 && k->ring.meta && !k->dead)
			pf[n++] = (struct pollfd){ .fd = k->fd,
						   .events = POLLIN };
	}
	return n;
}

/* Descriptors that hung up (their thread is gone): polled no more. */
static void mark_dead(struct perf_pfm *p, const int *hup, size_t nhup)
{
	for (size_t j = 0; j < nhup; j++)
		for (unsigned i = 0; i < p->n; i++)
			if (p->ctr[i].fd == hup[j])
				p->ctr[i].dead = true;
}

static bool quitting(const struct perf_pfm *p)
{
	return __atomic_load_n(&p->mon.quit, __ATOMIC_ACQUIRE);
}

static bool take(struct perf_pfm *p)
{
	while (!p->cb.trylock()) {
		if (quitting(p))
			return false;
		poll(NULL, 0, BACKOFF_MS);
	}
	if (!quitting(p))
		return true;
	p->cb.unlock();
	return false;
}

static void drain(int fd)
{
	uint64_t v;

	while (read(fd, &v, sizeof(v)) == (ssize_t)sizeof(v))
		;
}

/* One look under the engine's lock; the descriptors to poll next. */
static size_t look(struct perf_pfm *p, bool due, const int *hup,
		   size_t nhup, struct pollfd *pf)
{
	size_t n;

	p->in_monitor = true;
	mark_dead(p, hup, nhup);
	if (due && p->cb.tick)
		p->cb.tick(p->cb.arg);
	serve(p);
	arm_timer(p);
	n = poll_set(p, pf);
	p->in_monitor = false;
	return n;
}

static void *monitor(void *arg)
{
	struct perf_pfm *p = arg;
	struct pollfd pf[NPOLL];
	int hup[NPOLL];
	size_t n, nhup = 0;
	bool due = false;

	while (take(p)) {
		n = look(p, due, hup, nhup, pf);
		p->cb.unlock();
		if (poll(pf, n, -1) < 0 && errno != EINTR)
			break;
		if (pf[0].revents)
			drain(p->mon.wake);
		due = pf[1].revents != 0;
		if (due)
			drain(p->mon.timer);
		nhup = 0;
		for (size_t j = 2; j < n; j++)
			if (pf[j].revents & (POLLHUP | POLLERR | POLLNVAL))
				hup[nhup++] = pf[j].fd;
	}
	return NULL;
}

int pmu__perf_pfm_mon_start(struct perf_pfm *p)
{
	struct perf_pfm_mon *m = &p->mon;
	sigset_t all, old;
	int r;

	if (m->on)
		return 0;
	if (!p->cb.trylock || !p->cb.unlock || !p->cb.irq)
		return -EINVAL;
	if (m->wake < 0 &&
	    (m->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0)
		return -errno;
	if (m->timer < 0 &&
	    (m->timer = timerfd_create(CLOCK_MONOTONIC,
				       TFD_CLOEXEC | TFD_NONBLOCK)) < 0)
		return -errno;
	drain(m->wake);
	m->quit = false;
	/* the library takes no signal of its caller's */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	r = pthread_create(&m->thr, NULL, monitor, p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r)
		return -r;
	m->on = true;
	m->owner = getpid();
	return 0;
}

static void wake(int fd)
{
	uint64_t one = 1;

	while (write(fd, &one, sizeof(one)) < 0 && errno == EINTR)
		;
}

void pmu__perf_pfm_mon_kick(struct perf_pfm *p)
{
	if (p->mon.on)
		wake(p->mon.wake);
}

/* Called under the engine's lock, never from the monitor itself. */
void pmu__perf_pfm_mon_stop(struct perf_pfm *p)
{
	struct perf_pfm_mon *m = &p->mon;

	if (!m->on)
		return;
	m->on = false;
	/* a forked child: the thread was its parent's */
	if (m->owner != getpid())
		return;
	__atomic_store_n(&m->quit, true, __ATOMIC_RELEASE);
	wake(m->wake);
	pthread_join(m->thr, NULL);
}

void pmu__perf_pfm_mon_fini(struct perf_pfm *p)
{
	pmu__perf_pfm_mon_stop(p);
	if (p->mon.wake >= 0)
		close(p->mon.wake);
	if (p->mon.timer >= 0)
		close(p->mon.timer);
	p->mon.wake = p->mon.timer = -1;
}
