/* SPDX-License-Identifier: MIT */
/*
 * Event sets (seed-semantics 2.4): kept sorted by id, one of them
 * active.  The active set is on the hardware only while it counts
 * (context loaded, started, not masked); otherwise every value lives in
 * the set.  Switching is round-robin to the next higher id, on the
 * set's timeout (time the set spent counting: simulated cycles, one
 * per ns) or after its PMDs' overflow thresholds run out.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "perfmon/pfm.h"
#include "util/error.h"

static void pfm_set_reset(struct pfm_ctx *c, struct pfm_set *s)
{
	uint16_t id = s->id;

	memset(s, 0, sizeof(*s));
	s->id = id;
	for (unsigned i = 0; i < c->npmcs; i++)
		s->pmcs[i] = c->m->pmcs[i].dfl_val;
	pmu__pfm_refresh(c, s);
}

int pmu__pfm_init_sets(struct pfm_ctx *c)
{
	c->sets = calloc(1, sizeof(*c->sets));
	if (!c->sets)
		return -ENOMEM;
	c->nsets = 1;
	c->active = 0;
	pfm_set_reset(c, &c->sets[0]);
	return 0;
}

void pmu__pfm_reload_thresholds(struct pfm_set *s)
{
	for (unsigned i = 0; i < PMU_MODEL_MAX_PMDS; i++)
		s->pmds[i].ovflsw_thres = s->pmds[i].ovflsw_ref;
}

/* Collect the hardware's overflows of the active set into pend. */
void pmu__pfm_collect(struct pfm_ctx *c, uint64_t *pend)
{
	struct pfm_set *s = &c->sets[c->active];

	c->hw->ops->pending(c->hw, s->watch_pmds, s->emul_pmds, c->width,
			    pend);
}

/* A PMU whose time passes by itself learns that tick() will be due. */
void pmu__pfm_timer_armed(struct pfm_ctx *c)
{
	if (c->hw->ops->timer)
		c->hw->ops->timer(c->hw);
}

void pmu__pfm_load(struct pfm_ctx *c)
{
	struct pfm_set *s = &c->sets[c->active];
	const struct pmu__pfm_hw_ops *o = c->hw->ops;
	uint64_t irq[PFM_BV], now;

	for (unsigned w = 0; w < PFM_BV; w++)
		irq[w] = s->used_pmds[w] & c->intr_pmds[w];
	o->irq_enable(c->hw, irq);
	c->on_hw = true;
	for (unsigned i = 0; i < c->npmds; i++)
		if (bv_test(s->used_pmds, i) && bv_test(c->wr_pmds, i))
			pmu__pfm_hw_write_pmd(c, s, i);
	for (unsigned i = 0; i < c->npmcs; i++)
		o->write_pmc(c->hw, i, s->pmcs[i]);
	for (unsigned i = 0; i < c->npmds; i++)
		if (bv_test(s->used_pmds, i) && bv_test(c->cnt_pmds, i))
			s->pmds[i].run_start = pmu__pfm_count(c, s, i);
	now = o->now(c->hw);
	s->duration_start = now;
	if (s->flags & PFM_SETFL_TIME_SWITCH) {
		if (!s->timeout_left)
			s->timeout_left = s->timeout;
		c->deadline = now + s->timeout_left;
		pmu__pfm_timer_armed(c);
	} else {
		c->deadline = 0;
	}
}

/* A run of the set ends: its counters' rates, for the spread of the
 * sessions' estimates. */
static void record_rates(struct pfm_ctx *c, struct pfm_set *s, uint64_t ns)
{
	if (!ns)
		return;
	for (unsigned i = 0; i < c->npmds; i++) {
		struct pfm_pmd *p = &s->pmds[i];
		double r;

		if (!bv_test(s->used_pmds, i) || !bv_test(c->cnt_pmds, i))
			continue;
		r = (double)(pmu__pfm_count(c, s, i) - p->run_start) /
		    (double)ns;
		p->rsum += r;
		p->rsq += r * r;
		p->nrates++;
	}
}

void pmu__pfm_save(struct pfm_ctx *c)
{
	struct pfm_set *s = &c->sets[c->active];
	const struct pmu__pfm_hw_ops *o = c->hw->ops;
	uint64_t now;

	if (!c->on_hw)
		return;
	for (unsigned i = 0; i < c->npmcs; i++)
		o->write_pmc(c->hw, i, o->stopped(c->hw, i, s->pmcs[i]));
	pmu__pfm_collect(c, s->povfl_pmds);
	now = o->now(c->hw);
	record_rates(c, s, now - s->duration_start);
	for (unsigned i = 0; i < c->npmds; i++)
		if (bv_test(s->used_pmds, i))
			s->pmds[i].value = pmu__pfm_pmd_value(c, s, i);
	s->duration += now - s->duration_start;
	if (c->deadline)
		s->timeout_left = c->deadline > now ? c->deadline - now : 0;
	c->deadline = 0;
	c->on_hw = false;
}

void pmu__pfm_activate(struct pfm_ctx *c)
{
	pmu__pfm_reload_thresholds(&c->sets[c->active]);
}

static int bad_set(struct pmu_error *err, unsigned id, size_t k,
		   const char *why)
{
	char tok[32];

	snprintf(tok, sizeof(tok), "set%u", id);
	pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, tok, -1,
		   "set description %zu, set %u: %s", k, id, why);
	if (err)
		err->index = (int)k;
	return -EINVAL;
}

static uint64_t clock_res(void)
{
	struct timespec ts;

	if (clock_getres(CLOCK_MONOTONIC, &ts) || ts.tv_sec ||
	    ts.tv_nsec <= 0)
		return 1;
	return (uint64_t)ts.tv_nsec;
}

static int check_desc(const pfarg_set_desc_t *d, size_t k, uint64_t res,
		      struct pmu_error *err)
{
	uint32_t both = PFM_SETFL_OVFL_SWITCH | PFM_SETFL_TIME_SWITCH;

	if (d->set_flags & ~both)
		return bad_set(err, d->set_id, k, "unknown set flags");
	if ((d->set_flags & both) == both)
		return bad_set(err, d->set_id, k, "PFM_SETFL_OVFL_SWITCH and "
			       "PFM_SETFL_TIME_SWITCH exclude each other");
	if ((d->set_flags & PFM_SETFL_TIME_SWITCH) && !d->set_timeout)
		return bad_set(err, d->set_id, k, "PFM_SETFL_TIME_SWITCH "
			       "needs a non-zero set_timeout (ns)");
	if ((d->set_flags & PFM_SETFL_TIME_SWITCH) && d->set_timeout % res)
		return bad_set(err, d->set_id, k, "set_timeout is not a "
			       "multiple of the clock's resolution");
	return 0;
}

/* Insert set `id` keeping the order; the active set stays the same. */
static struct pfm_set *insert_set(struct pfm_ctx *c, uint16_t id)
{
	struct pfm_set *p = realloc(c->sets, (c->nsets + 1) * sizeof(*p));
	uint16_t active_id;
	size_t at = 0;

	if (!p)
		return NULL;
	c->sets = p;
	active_id = p[c->active].id;
	while (at < c->nsets && p[at].id < id)
		at++;
	memmove(&p[at + 1], &p[at], (c->nsets - at) * sizeof(*p));
	c->nsets++;
	p[at].id = id;
	pfm_set_reset(c, &p[at]);
	if (id < active_id)
		c->active++;
	return &p[at];
}

int pmu__pfm_create_sets(struct pfm_ctx *c, const pfarg_set_desc_t *d,
			 size_t n, struct pmu_error *err)
{
	uint64_t res = clock_res();

	for (size_t k = 0; k < n; k++) {
		int rc = check_desc(&d[k], k, res, err);

		if (rc)
			return rc;
	}
	for (size_t k = 0; k < n; k++) {
		struct pfm_set *s = pmu__pfm_find_set(c, d[k].set_id);

		if (!s && !(s = insert_set(c, d[k].set_id)))
			return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL,
					  -1, "out of memory for set %u",
					  d[k].set_id);
		s->flags = d[k].set_flags;
		s->timeout = s->flags & PFM_SETFL_TIME_SWITCH
			     ? d[k].set_timeout : 0;
		s->timeout_left = s->timeout;
		s->runs = s->duration = 0;
		for (unsigned i = 0; i < PMU_MODEL_MAX_PMDS; i++) {
			s->pmds[i].rsum = s->pmds[i].rsq = 0;
			s->pmds[i].nrates = 0;
		}
	}
	return 0;
}

int pmu__pfm_getinfo_sets(struct pfm_ctx *c, pfarg_set_info_t *s, size_t n,
			  struct pmu_error *err)
{
	uint64_t now = c->hw->ops->now(c->hw);

	for (size_t k = 0; k < n; k++)
		if (!pmu__pfm_find_set(c, s[k].set_id))
			return bad_set(err, s[k].set_id, k, "no such set");
	for (size_t k = 0; k < n; k++) {
		struct pfm_set *set = pmu__pfm_find_set(c, s[k].set_id);
		bool live = c->on_hw && set == &c->sets[c->active];

		memcpy(s[k].set_ovfl_pmds, set->ovfl_pmds,
		       sizeof(s[k].set_ovfl_pmds));
		s[k].set_runs = set->runs;
		s[k].set_duration = set->duration +
				    (live ? now - set->duration_start : 0);
		s[k].set_timeout = live && c->deadline
				   ? (c->deadline > now ? c->deadline - now : 0)
				   : set->timeout_left;
	}
	return 0;
}
