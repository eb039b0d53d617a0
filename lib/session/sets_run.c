/* SPDX-License-Identifier: MIT */
/*
 * Event sets at run time: the monitor thread that ends turns, the switch
 * itself, and start, stop, reset and read of a session with sets.  Every
 * driver call happens under the sets' lock, so a switch and a caller's
 * read never interleave.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "session/sets.h"
#include "util/scale.h"

static int ctl(struct pmu_session *s, size_t g, bool on, int ret)
{
	int r = s->drv->ops->switching->group_ctl(s->drv, g, on);

	return ret ? ret : r;
}

static int groups_ctl(struct pmu_session *s, const struct pmu__set *set,
		      bool on)
{
	int ret = 0;

	for (size_t j = 0; j < set->ngrp; j++)
		ret = ctl(s, set->grp[j], on, ret);
	return ret;
}

static int notifier_ctl(struct pmu_session *s, const struct pmu__set *set,
			bool on)
{
	return set->notify_grp < 0 ? 0 : ctl(s, (size_t)set->notify_grp, on, 0);
}

/* The set's groups, then its announcer (OVERFLOW). */
int pmu__sets_enable(struct pmu_session *s, const struct pmu__set *set,
		     bool on)
{
	int ret = groups_ctl(s, set, on), r = notifier_ctl(s, set, on);

	return ret ? ret : r;
}

static int clock_ctl(struct pmu_session *s, bool on)
{
	const struct pmu__sets *ss = s->sets;

	return ss->clock_grp < 0 ? 0 : ctl(s, (size_t)ss->clock_grp, on, 0);
}

/* A TIME set's turn after an OVERFLOW set's, or of another length: the
 * clock's period restarts with its timeout, and what it announced
 * meanwhile was no TIME set's. */
static void clock_follow(struct pmu_session *s, const struct pmu__set *a,
			 const struct pmu__set *b)
{
	struct pmu__sets *ss = s->sets;
	const struct pmu__driver_ops *o = s->drv->ops;

	if (b->eff->kind != PMU_SWITCH_TIME || ss->clock < 0 ||
	    (a->eff->kind == PMU_SWITCH_TIME &&
	     b->eff->timeout_ns == ss->clock_period))
		return;
	o->switching->set_period(s->drv, (size_t)ss->clock, b->eff->timeout_ns);
	ss->clock_period = b->eff->timeout_ns;
	o->switching->notify_consume(s->drv, (size_t)ss->clock);
}

/* Turns' worth of time a TIME set had. */
static double served(const struct pmu__set *b)
{
	return (double)(b->dur - b->dur_base) / (double)b->eff->timeout_ns;
}

/* The least any TIME set with an open group was served, the outgoing
 * set's turn counted as a whole one (its reading is of before it). */
static double least_served(const struct pmu__sets *ss)
{
	double least = INFINITY;

	for (size_t k = 0; k < ss->n; k++) {
		const struct pmu__set *b = &ss->set[k];
		double v;

		if (!b->ngrp || b->eff->kind != PMU_SWITCH_TIME)
			continue;
		v = served(b) + (k == ss->active);
		least = v < least ? v : least;
	}
	return least;
}

/* Whether set b is owed its turn now.  A TIME set a whole turn ahead of
 * the least served one is passed over; an OVERFLOW set whose announcer
 * overflowed past its count (the monitor was late) already had its next
 * turn, and is passed over once for each. */
static bool owed(struct pmu_session *s, struct pmu__set *b, double least)
{
	if (b->eff->kind == PMU_SWITCH_TIME)
		return served(b) < least + 1;
	b->carry += s->drv->ops->switching->notify_consume(s->drv,
							   (size_t)b->notify_ev);
	if (b->carry < b->count)
		return true;
	b->carry -= b->count;
	b->runs++;
	return false;
}

/* The next set, round robin, with an open group and owed a turn. */
static size_t next_set(struct pmu_session *s)
{
	struct pmu__sets *ss = s->sets;
	double least = least_served(ss);

	for (size_t j = 1; j < ss->n; j++) {
		size_t k = (ss->active + j) % ss->n;

		if (ss->set[k].ngrp && owed(s, &ss->set[k], least))
			return k;
	}
	return ss->active;
}

/* Read the set's groups (one read per group and CPU/thread) into the
 * scratch counts; the set's duration is its groups' enabled time. */
static int read_set(struct pmu_session *s, struct pmu__set *set)
{
	const struct pmu__driver_ops *o = s->drv->ops;
	uint64_t dur = 0;

	for (size_t j = 0; j < set->ngrp; j++) {
		int r = o->switching->read_group(s->drv, set->grp[j], s->cnt,
				      sizeof(*s->cnt));

		if (r < 0)
			return r;
	}
	for (size_t j = 0; j < set->nevi; j++) {
		const struct pmu__count *c = &s->cnt[set->evi[j]];

		if (c->status != PMU__COUNT_UNSUPPORTED && c->enabled > dur)
			dur = c->enabled;
	}
	set->dur = dur;
	return 0;
}

/* The outgoing set's run: each event's rate over it, for scaled_err. */
static void turn_end(struct pmu_session *s, struct pmu__set *a,
		     uint64_t mask)
{
	struct pmu__sets *ss = s->sets;

	a->ovfl_mask = mask;
	a->timeout_left = 0;
	if (read_set(s, a))
		return;
	for (size_t j = 0; j < a->nevi; j++) {
		size_t i = a->evi[j];
		const struct pmu__count *c = &s->cnt[i];
		struct pmu__ev_runs *r = &ss->er[i];
		uint64_t drun = c->running - r->run;

		if (c->status == PMU__COUNT_UNSUPPORTED)
			continue;
		if (drun && c->running > r->run) {
			double rate = (double)(c->raw - r->raw) / (double)drun;

			r->sum += rate;
			r->sumsq += rate * rate;
			r->n++;
		}
		r->raw = c->raw;
		r->run = c->running;
	}
}

static void turn_begin(struct pmu__set *b)
{
	b->runs++;
	b->turn_ovfl = b->carry;
	b->carry = 0;
	b->turn_dur = b->dur;
}

/* The switch: the outgoing set's groups off and the next one's on at
 * once, since no set counts between the two (the announcers only time
 * the turns); the bookkeeping after, while the next set counts. */
static void do_switch(struct pmu_session *s, uint64_t mask)
{
	struct pmu__sets *ss = s->sets;
	size_t next = next_set(s);
	struct pmu__set *a = &ss->set[ss->active], *b = &ss->set[next];

	if (b != a) {
		groups_ctl(s, a, false);
		groups_ctl(s, b, true);
		notifier_ctl(s, a, false);
		notifier_ctl(s, b, true);
		clock_follow(s, a, b);
	}
	turn_end(s, a, mask);
	turn_begin(b);
	__atomic_store_n(&ss->active, next, __ATOMIC_RELEASE);
	ss->nswitch++;
}

/* What the monitor found: end the active set's turn if it is over. */
static void turn_check(struct pmu_session *s, struct pmu__set *a)
{
	a->turn_ovfl += s->drv->ops->switching->notify_consume(s->drv,
						    (size_t)a->notify_ev);
	if (a->turn_ovfl < a->count)
		return;
	/* a late TIME turn is made up for by served time, not counts */
	a->carry = a->eff->kind == PMU_SWITCH_OVERFLOW ? a->turn_ovfl - a->count
						       : 0;
	do_switch(s, a->eff->kind == PMU_SWITCH_TIME || a->ovfl_bit >= 64
			     ? 0 : 1ull << a->ovfl_bit);
}

/* A descriptor that hangs up belongs to a thread or process that is
 * gone: no set polls it again. */
static void hangups(struct pmu__sets *ss, const struct pmu__set *a)
{
	for (size_t j = 1; j < a->npfd; j++) {
		int fd = a->pfd[j].fd;

		if (!(a->pfd[j].revents & (POLLHUP | POLLERR | POLLNVAL)))
			continue;
		for (size_t k = 0; k < ss->n; k++)
			for (size_t m = 1; m < ss->set[k].npfd; m++)
				if (ss->set[k].pfd[m].fd == fd)
					ss->set[k].pfd[m].fd = -1;
	}
}

static void drain_wake(int fd)
{
	uint64_t v;

	while (read(fd, &v, sizeof(v)) == (ssize_t)sizeof(v))
		;
}

/* Polls the active set's announcers; the set it polls is looked up
 * again after every wake-up, since a forced switch may have changed it
 * (it then wakes this thread). */
static void *monitor(void *arg)
{
	struct pmu_session *s = arg;
	struct pmu__sets *ss = s->sets;

	for (;;) {
		size_t k = __atomic_load_n(&ss->active, __ATOMIC_ACQUIRE);
		struct pmu__set *a = &ss->set[k];
		int r = poll(a->pfd, a->npfd, -1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		if (a->pfd[0].revents) {
			drain_wake(ss->wake_fd);
			if (__atomic_load_n(&ss->quit, __ATOMIC_ACQUIRE))
				break;
		}
		pthread_mutex_lock(&ss->lock);
		if (ss->active == k) {
			hangups(ss, a);
			turn_check(s, a);
		}
		pthread_mutex_unlock(&ss->lock);
	}
	return NULL;
}

int pmu__sets_monitor_start(struct pmu_session *s)
{
	struct pmu__sets *ss = s->sets;
	sigset_t all, old;
	int r;

	if (ss->thr_on || !ss->live)
		return 0;
	drain_wake(ss->wake_fd);
	ss->quit = false;
	/* the library takes no signal of its caller's */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	r = pthread_create(&ss->thr, NULL, monitor, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	ss->thr_on = r == 0;
	return -r;
}

void pmu__sets_monitor_stop(struct pmu_session *s)
{
	struct pmu__sets *ss = s->sets;
	uint64_t one = 1;

	if (!ss || !ss->thr_on)
		return;
	__atomic_store_n(&ss->quit, true, __ATOMIC_RELEASE);
	while (write(ss->wake_fd, &one, sizeof(one)) < 0 && errno == EINTR)
		;
	pthread_join(ss->thr, NULL);
	ss->thr_on = false;
	drain_wake(ss->wake_fd);
}

int pmu__sets_start(struct pmu_session *s)
{
	struct pmu__sets *ss = s->sets;
	struct pmu__set *a = &ss->set[ss->active];
	int ret = 0;

	if (ss->reg)
		return pmu__sets_reg_start(s);
	if (ss->drv_sw)
		return s->drv->ops->enable(s->drv);
	if (!ss->live)
		return 0;
	pthread_mutex_lock(&ss->lock);
	if (!ss->begun) {
		turn_begin(a);
		ss->begun = true;
	}
	ret = pmu__sets_enable(s, a, true);
	if (!ret)
		ret = clock_ctl(s, true);
	ss->counting = true;
	pthread_mutex_unlock(&ss->lock);
	return ret ? ret : pmu__sets_monitor_start(s);
}

int pmu__sets_stop(struct pmu_session *s)
{
	struct pmu__sets *ss = s->sets;
	int ret = 0;

	if (ss->reg)
		return pmu__sets_reg_stop(s);
	if (ss->drv_sw)
		return s->drv->ops->disable(s->drv);
	if (!ss->live)
		return 0;
	pmu__sets_monitor_stop(s);
	pthread_mutex_lock(&ss->lock);
	ret = pmu__sets_enable(s, &ss->set[ss->active], false);
	if (!ret)
		ret = clock_ctl(s, false);
	ss->counting = false;
	pthread_mutex_unlock(&ss->lock);
	return ret;
}

/* Every set's duration from a reading of all events in s->cnt. */
static void fold_durations(struct pmu_session *s)
{
	struct pmu__sets *ss = s->sets;

	for (size_t k = 0; k < ss->n; k++)
		ss->set[k].dur = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct pmu__count *c = &s->cnt[i];
		struct pmu__set *set = &ss->set[ss->evset[i]];

		if (c->status != PMU__COUNT_UNSUPPORTED && c->enabled > set->dur)
			set->dur = c->enabled;
	}
}

int pmu__sets_reset(struct pmu_session *s)
{
	struct pmu__sets *ss = s->sets;
	int ret;

	if (ss->reg)
		return pmu__sets_reg_reset(s);
	if (ss->drv_sw)
		return s->drv->ops->reset(s->drv);
	pthread_mutex_lock(&ss->lock);
	ret = s->drv->ops->reset(s->drv);
	if (!ret)
		ret = s->drv->ops->read(s->drv, s->cnt, sizeof(*s->cnt), s->n);
	if (ret >= 0) {
		ret = 0;
		fold_durations(s);
		for (size_t k = 0; k < ss->n; k++) {
			struct pmu__set *set = &ss->set[k];

			set->dur_base = set->turn_dur = set->dur;
			set->runs = k == ss->active && ss->begun;
			set->timeout_left = set->ovfl_mask = set->turn_ovfl = 0;
			set->carry = 0;
		}
		for (size_t i = 0; i < s->n; i++)
			ss->er[i] = (struct pmu__ev_runs){
				.run = s->cnt[i].running,
				.run_base = s->cnt[i].running };
	}
	pthread_mutex_unlock(&ss->lock);
	return ret;
}

static uint64_t scaled_err(const struct pmu__ev_runs *r, uint64_t enabled,
			   uint64_t running)
{
	return pmu__scale_err(r->sum, r->sumsq, r->n, enabled, running);
}

/* Event i of a reading with sets: enabled is the whole session's time,
 * running the time it counted. */
static void set_value(const struct pmu_session *s, size_t i, uint64_t total,
		      struct pmu__count *c)
{
	const struct pmu__ev_runs *r = &s->sets->er[i];
	uint64_t run = c->running > r->run_base ? c->running - r->run_base : 0;

	if (c->status == PMU__COUNT_UNSUPPORTED)
		return;
	c->enabled = total;
	c->running = run;
	c->scaled = run >= total ? c->raw : pmu__scale(c->raw, total, run);
	c->status = run ? PMU__COUNT_OK : PMU__COUNT_IDLE;
	c->scaled_err = scaled_err(r, total, run);
}

ssize_t pmu__sets_read(struct pmu_session *s, struct pmu_value *vals,
		       size_t stride, size_t n)
{
	struct pmu__sets *ss = s->sets;
	struct pmu_value v = { .size = stride };
	size_t len = stride < sizeof(v) ? stride : sizeof(v);
	uint64_t total = 0;
	int ret;

	if (ss->reg)
		return pmu__sets_reg_read(s, vals, stride, n);
	pthread_mutex_lock(&ss->lock);
	ret = s->drv->ops->read(s->drv, s->cnt, sizeof(*s->cnt), s->n);
	if (ret >= 0) {
		fold_durations(s);
		for (size_t k = 0; k < ss->n; k++)
			total += ss->set[k].dur - ss->set[k].dur_base;
		for (size_t i = 0; i < n; i++) {
			memcpy(&v.raw, &s->cnt[i], sizeof(s->cnt[i]));
			set_value(s, i, total, (struct pmu__count *)(void *)&v.raw);
			memcpy((char *)vals + i * stride, &v, len);
		}
	}
	pthread_mutex_unlock(&ss->lock);
	return ret < 0 ? ret : (ssize_t)n;
}

int pmu__sets_info(struct pmu_session *s, size_t k, struct pmu_set_info *info)
{
	struct pmu__sets *ss = s->sets;
	struct pmu__set *set = &ss->set[k];
	int ret = 0;

	if (ss->reg)
		return pmu__sets_reg_info(s, k, info);
	if (ss->drv_sw)
		return pmu__sets_drv_info(s, k, info);
	pthread_mutex_lock(&ss->lock);
	if (s->open && set->ngrp)
		ret = read_set(s, set);
	info->runs = set->runs;
	info->duration = set->dur - set->dur_base;
	info->ovfl_mask = set->ovfl_mask;
	info->timeout_left = set->timeout_left;
	/* stopped mid-turn: what is left of it */
	if (s->open && k == ss->active && ss->begun && !ss->counting &&
	    set->eff->kind == PMU_SWITCH_TIME) {
		uint64_t used = set->dur - set->turn_dur;

		info->timeout_left = used < set->eff->timeout_ns
					     ? set->eff->timeout_ns - used : 0;
	}
	pthread_mutex_unlock(&ss->lock);
	return ret;
}

int pmu__sets_switch(struct pmu_session *s)
{
	struct pmu__sets *ss = s->sets;
	uint64_t one = 1;

	if (!pmu__sets_on(s) || !s->open || !ss->live)
		return -EINVAL;
	pthread_mutex_lock(&ss->lock);
	do_switch(s, 0);
	pthread_mutex_unlock(&ss->lock);
	/* the monitor polls the set it found active: make it look again */
	if (ss->thr_on && write(ss->wake_fd, &one, sizeof(one)) < 0)
		return -errno;
	return 0;
}
