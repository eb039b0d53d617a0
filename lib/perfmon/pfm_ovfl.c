/* SPDX-License-Identifier: MIT */
/*
 * What perfmon2's PMU interrupt did (seed-semantics 2.5): 64-bit
 * virtual counters advanced by one emulated-width wrap per hardware
 * overflow; a wrap of the 64-bit value is an overflow proper, which
 * counts toward the set's overflow switch, is handed to the sampling
 * format, and yields the controls MASK, SWITCH, NOTIFY and RESET, acted
 * on in that order.  Restart undoes a mask and does the resets and the
 * switch that the mask deferred.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "perfmon/pfm.h"
#include "util/error.h"

static uint64_t next_random(struct pfm_ctx *c)
{
	/* xorshift64*: cheap, never zero once seeded non-zero */
	uint64_t x = c->rand;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	c->rand = x;
	return x * UINT64_C(2685821657736338717);
}

void pmu__pfm_reset_pmds(struct pfm_ctx *c, struct pfm_set *s,
			 const uint64_t *pmds, bool long_reset)
{
	bool live = c->on_hw && s == &c->sets[c->active];
	uint64_t todo[PFM_BVU];
	unsigned i;

	memcpy(todo, pmds, sizeof(todo));
	BV_FOR_EACH(i, todo) {
		struct pfm_pmd *p = &s->pmds[i];
		uint64_t v;

		if (i >= c->npmds)
			continue;
		bv_clear(s->reset_pmds, i);
		if (!bv_test(c->cnt_pmds, i)) {
			/* a sampling unit (IBS): its reset is a re-arm */
			if (live)
				c->hw->ops->rearm(c->hw, i);
			continue;
		}
		v = long_reset ? p->long_reset : p->short_reset;
		if (p->flags & PFM_REGFL_RANDOM)
			v -= next_random(c) & p->random_mask;
		/* what it counted since its last reset is kept */
		p->accum += (live ? pmu__pfm_pmd_value(c, s, i) : p->value) -
			    p->lval;
		p->value = p->lval = v;
		if (live)
			pmu__pfm_hw_write_pmd(c, s, i);
	}
}

static void pfm_mask(struct pfm_ctx *c)
{
	if (c->state != PFM_CTX_LOADED)
		return;
	pmu__pfm_save(c);
	c->state = PFM_CTX_MASKED;
}

static void pfm_unmask(struct pfm_ctx *c)
{
	if (c->state != PFM_CTX_MASKED)
		return;
	c->state = PFM_CTX_LOADED;
	if (c->started) {
		pmu__pfm_load(c);
		pmu__pfm_replay(c);
	}
}

/* The current task as the kernel saw it at the interrupt: the
 * monitored thread, or for a CPU-wide context the one the PMU found
 * running (a simulated PMU: the one feeding it). */
static void current_task(const struct pfm_ctx *c, uint32_t *tid,
			 uint32_t *pid)
{
	if ((c->flags & PFM_FL_SYSTEM_WIDE) && c->hw->ops->task &&
	    c->hw->ops->task(c->hw, tid, pid))
		return;
	if (c->flags & PFM_FL_SYSTEM_WIDE) {
		*tid = (uint32_t)gettid();
		*pid = (uint32_t)getpid();
	} else {
		*tid = (uint32_t)c->tid;
		*pid = (uint32_t)c->pid;
	}
}

static uint16_t current_cpu(const struct pfm_ctx *c)
{
	return (uint16_t)((c->flags & PFM_FL_SYSTEM_WIDE) ? c->cpu
				: c->hw->ops->cpu(c->hw));
}

/* An emulated counter back in the hardware with its marker bit set,
 * the low part as counted so far. */
static void rearm(struct pfm_ctx *c, struct pfm_set *s, unsigned i)
{
	struct pfm_pmd *p = &s->pmds[i];
	uint64_t hw = c->hw->ops->read_pmd(c->hw, i);

	p->value = (p->value & ~c->ovfl_mask) | (hw & c->ovfl_mask);
	pmu__pfm_hw_write_pmd(c, s, i);
}

/* Step 2: counters advance by 2^W per hardware overflow; the PMDs whose
 * 64-bit value wrapped go into ovfl.  *sw: an overflow switch is due. */
static void advance(struct pfm_ctx *c, struct pfm_set *s, const uint64_t *pend,
		    uint64_t *ovfl, bool *sw)
{
	uint64_t todo[PFM_BVU];
	unsigned i;

	for (unsigned w = 0; w < PFM_BVU; w++) {
		todo[w] = pend[w] & s->used_pmds[w];
		s->povfl_pmds[w] &= ~todo[w];
	}
	BV_FOR_EACH(i, todo) {
		struct pfm_pmd *p = &s->pmds[i];

		if (bv_test(s->emul_pmds, i)) {
			uint64_t old = p->value;

			p->value += c->ovfl_mask + 1;
			if (p->value >= old) {
				/* not a 64-bit overflow: re-arm only */
				if (c->on_hw)
					rearm(c, s, i);
				continue;
			}
		}
		bv_set(ovfl, i);
		if ((s->flags & PFM_SETFL_OVFL_SWITCH) && p->ovflsw_thres &&
		    --p->ovflsw_thres == 0)
			*sw = true;
		bv_set(s->reset_pmds, i);
		bv_or(s->reset_pmds, p->reset_pmds);
	}
}

static unsigned call_format(struct pfm_ctx *c, struct pfm_set *s,
			    const uint64_t *ovfl, uint64_t ip)
{
	struct pfm_ovfl_arg a;
	unsigned ctrl = 0, i;

	a.set = s->id;
	a.ip = ip;
	a.tstamp = c->hw->ops->now(c->hw);
	a.cpu = current_cpu(c);
	current_task(c, &a.tid, &a.pid);
	BV_FOR_EACH(i, ovfl) {
		const struct pfm_pmd *p = &s->pmds[i];
		unsigned j;

		a.pmd = i;
		a.last_reset = p->lval;
		a.eventid = p->eventid;
		a.nsmpl = 0;
		BV_FOR_EACH(j, p->smpl_pmds)
			if (j < c->npmds)
				a.smpl[a.nsmpl++] = pmu__pfm_pmd_value(c, s, j);
		ctrl |= c->fmt->handler(c, &a);
	}
	return ctrl;
}

static bool notify(struct pfm_ctx *c, struct pfm_set *s, const uint64_t *ovfl,
		   uint64_t ip)
{
	pfarg_msg_t m;
	uint32_t tid, pid;

	if (c->flags & PFM_FL_OVFL_NO_MSG)
		return true;
	memset(&m, 0, sizeof(m));
	current_task(c, &tid, &pid);
	m.pfm_ovfl_msg.msg_type = PFM_MSG_OVFL;
	/* perfmon2's fill-in: the thread id in the "pid" field and the
	 * process id in the "tid" field */
	m.pfm_ovfl_msg.msg_ovfl_pid = tid;
	m.pfm_ovfl_msg.msg_ovfl_tid = pid;
	m.pfm_ovfl_msg.msg_active_set = s->id;
	m.pfm_ovfl_msg.msg_ovfl_cpu = current_cpu(c);
	m.pfm_ovfl_msg.msg_ovfl_ip = ip;
	memcpy(m.pfm_ovfl_msg.msg_ovfl_pmds, ovfl,
	       sizeof(m.pfm_ovfl_msg.msg_ovfl_pmds));
	return pmu__pfm_post(c, &m);
}

void pmu__pfm_overflow(struct pfm_ctx *c, struct pfm_set *s,
		       const uint64_t *pend, uint64_t ip)
{
	uint64_t ovfl[PFM_BV] = { 0 };
	bool sw = false, has_notify = false, switched = false;
	unsigned ctrl, i;

	advance(c, s, pend, ovfl, &sw);
	if (bv_empty(ovfl))
		return;
	memcpy(s->ovfl_pmds, ovfl, sizeof(ovfl));
	BV_FOR_EACH(i, ovfl)
		has_notify |= (s->pmds[i].flags & PFM_REGFL_OVFL_NOTIFY) != 0;
	if (c->fmt)
		ctrl = call_format(c, s, ovfl, ip);
	else
		/* no format: the counter saturates (no reset before a
		 * restart) unless an overflow switch moves on */
		ctrl = PFM_OVFL_NOTIFY |
		       (has_notify || !sw ? PFM_OVFL_MASK : 0);
	if (sw)
		ctrl |= PFM_OVFL_SWITCH;
	if (ctrl & PFM_OVFL_MASK) {
		pfm_mask(c);
		ctrl &= ~PFM_OVFL_RESET;
		if (ctrl & PFM_OVFL_SWITCH)
			c->deferred_switch = true;
		ctrl &= ~PFM_OVFL_SWITCH;
	}
	if (ctrl & PFM_OVFL_SWITCH) {
		pmu__pfm_switch(c, false);
		switched = true;
	}
	if ((ctrl & PFM_OVFL_NOTIFY) && has_notify) {
		if (!notify(c, s, ovfl, ip)) {
			/* the queue is full: nothing is dropped silently,
			 * monitoring waits for the reader */
			c->msgs_lost++;
			pfm_mask(c);
			ctrl &= ~PFM_OVFL_RESET;
		}
		c->can_restart++;
		pmu__pfm_block_request(c);
	}
	/* a set switched out keeps its resets for its next turn */
	if ((ctrl & PFM_OVFL_RESET) && !switched) {
		uint64_t r[PFM_BV];

		memcpy(r, s->reset_pmds, sizeof(r));
		pmu__pfm_reset_pmds(c, s, r, false);
	}
	/* wrapped counters still counting without a reset: marker back */
	if (c->on_hw && s == &c->sets[c->active])
		BV_FOR_EACH(i, ovfl)
			if (bv_test(s->emul_pmds, i) && bv_test(s->reset_pmds, i))
				rearm(c, s, i);
}

void pmu__pfm_irq(void *arg, uint64_t ip)
{
	struct pfm_ctx *c = arg;
	struct pfm_set *s;
	uint64_t pend[PFM_BV] = { 0 };

	if (c->in_irq)
		return;
	if (!c->on_hw) {
		c->spurious++;
		return;
	}
	c->in_irq = true;
	s = &c->sets[c->active];
	pmu__pfm_collect(c, pend);
	bv_or(pend, s->povfl_pmds);
	pmu__pfm_overflow(c, s, pend, ip);
	c->in_irq = false;
	/* blocking notification: the monitored thread stops here */
	pmu__pfm_block_wait(c);
}

int pmu__pfm_restart(struct pfm_ctx *c, struct pmu_error *err)
{
	struct pfm_set *s = &c->sets[c->active];
	unsigned ctrl;

	if (c->state == PFM_CTX_UNLOADED)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "PFM_ST_RESTART: the context is not "
				  "attached");
	if (c->state != PFM_CTX_MASKED && !(c->fmt && c->fmt->restart))
		return pmu__error(err, -EBUSY, PMU_ERR_USAGE, NULL, -1,
				  "PFM_ST_RESTART: monitoring is not masked "
				  "and the context has no sampling format");
	if (!c->can_restart)
		return pmu__error(err, -EBUSY, PMU_ERR_USAGE, NULL, -1,
				  "PFM_ST_RESTART: no notification is "
				  "waiting for a restart");
	c->can_restart--;
	/* before the reset: a replayed overflow may block the thread
	 * again */
	c->block = false;
	ctrl = c->fmt && c->fmt->restart ? c->fmt->restart(c)
					 : PFM_OVFL_RESET;
	if (c->deferred_switch) {
		c->deferred_switch = false;
		pmu__pfm_switch(c, true);
	} else if (ctrl & PFM_OVFL_RESET) {
		uint64_t r[PFM_BV];

		memcpy(r, s->reset_pmds, sizeof(r));
		pmu__pfm_reset_pmds(c, s, r, true);
	}
	if (!(ctrl & PFM_OVFL_MASK))
		pfm_unmask(c);
	/* perfmon2: the blocked task is woken */
	pmu__pfm_block_wake(c);
	return 0;
}

/* ---- set switches: an overflow may cause one, and a switch replays
 * what the next set missed ---- */

/* Overflows the hardware saw while the set was not being handled. */
void pmu__pfm_replay(struct pfm_ctx *c)
{
	struct pfm_set *s = &c->sets[c->active];
	uint64_t pend[PFM_BV];

	if (!c->on_hw || bv_empty(s->povfl_pmds))
		return;
	memcpy(pend, s->povfl_pmds, sizeof(pend));
	pmu__pfm_overflow(c, s, pend, 0);
}

void pmu__pfm_switch(struct pfm_ctx *c, bool long_reset)
{
	bool counting = c->on_hw;
	struct pfm_set *n;
	uint64_t resets[PFM_BV];

	if (c->nsets == 1) {
		n = &c->sets[0];
		n->runs++;
		if (counting && (n->flags & PFM_SETFL_TIME_SWITCH)) {
			c->deadline = c->hw->ops->now(c->hw) + n->timeout;
			pmu__pfm_timer_armed(c);
		}
		return;
	}
	if (counting)
		pmu__pfm_save(c);
	c->active = (c->active + 1) % c->nsets;
	n = &c->sets[c->active];
	n->runs++;
	pmu__pfm_reload_thresholds(n);
	n->timeout_left = n->timeout;
	memcpy(resets, n->reset_pmds, sizeof(resets));
	pmu__pfm_reset_pmds(c, n, resets, long_reset);
	if (counting) {
		pmu__pfm_load(c);
		pmu__pfm_replay(c);
	}
}

void pmu__pfm_tick(void *arg)
{
	struct pfm_ctx *c = arg;

	if (c->on_hw && c->deadline && !c->in_irq &&
	    c->hw->ops->now(c->hw) >= c->deadline)
		pmu__pfm_switch(c, false);
}

uint64_t pmu__pfm_deadline(void *arg)
{
	struct pfm_ctx *c = arg;
	uint64_t now;

	if (!c->on_hw || !c->deadline)
		return UINT64_MAX;
	now = c->hw->ops->now(c->hw);
	return c->deadline > now ? c->deadline - now : 1;
}

/* ---- pfm_create_sets / pfm_getinfo_sets ---- */
