/* SPDX-License-Identifier: MIT */
/*
 * Event sets under the emulator: each set becomes a context of its own
 * (a perfctr control and feed rules, built as for one set), whose
 * designated event is an i-mode counter of period `period`; the
 * emulator switches round robin after `count` of its overflows, at the
 * exact instruction, and reports each set's sums, runs, duration (guest
 * instructions) and per-turn rates.  So a set's counts and estimates
 * repeat run to run, and several processes' sets add up.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/emu_drv.h"
#include "util/error.h"
#include "util/scale.h"

/* Set k's events, with its designated event last if it is not one of
 * them, copied so that the designated one samples every `period`. */
struct set_view {
	struct pmu__ev *ev;
	struct pmu__place *pl;
	struct pmu__ev_state *st;
	struct emu_slot *slot;
	size_t n, dsg;
};

static void view_free(struct set_view *v)
{
	free(v->ev);
	free(v->pl);
	free(v->st);
	free(v->slot);
}

static int view_make(const struct pmu__ev *ev, const struct pmu__place *pl,
		     const struct pmu__ev_state *st,
		     const struct pmu__drv_set *set, struct set_view *v)
{
	bool own = set->dsg >= set->first && set->dsg < set->first + set->n;
	size_t n = set->n + !own;

	*v = (struct set_view){ .n = n,
				.ev = calloc(n, sizeof(*v->ev)),
				.pl = calloc(n, sizeof(*v->pl)),
				.st = calloc(n, sizeof(*v->st)),
				.slot = calloc(n, sizeof(*v->slot)) };
	if (!v->ev || !v->pl || !v->st || !v->slot)
		return -ENOMEM;
	memcpy(v->ev, &ev[set->first], set->n * sizeof(*ev));
	memcpy(v->pl, &pl[set->first], set->n * sizeof(*pl));
	memcpy(v->st, &st[set->first], set->n * sizeof(*st));
	v->dsg = own ? set->dsg - set->first : n - 1;
	if (!own) {
		v->ev[n - 1] = ev[set->dsg];
		v->pl[n - 1] = pl[set->dsg];
		v->st[n - 1] = st[set->dsg];
	}
	v->ev[v->dsg].attr.sample_period = set->period;
	v->ev[v->dsg].attr.freq = 0;
	return 0;
}

static int dsg_error(const struct emu_drv *d, size_t k,
		     const struct set_view *v, struct pmu_error *err)
{
	const struct pmu__ev *e = &v->ev[v->dsg];

	if (d->m->check.family != PMU_CHECK_P6_LIKE)
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED,
				  e->name, -1, "set %zu switches on overflows "
				  "of %s: the emulated %s's counters do not "
				  "interrupt (overflow switching needs p6, "
				  "pii, piii, pentm, k7, k8, k8c or fam10h)",
				  k, e->name, d->m->name);
	return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED, e->name,
			  -1, "set %zu switches on overflows of %s, which the "
			  "emulated %s cannot count beside the set's events%s%s",
			  k, e->name, d->m->name, v->st[v->dsg].reason[0]
			  ? ": " : "", v->st[v->dsg].reason);
}

/* Set k's context and switch rule; its events' states and slots. */
static int build_set(struct emu_drv *d, size_t k, const struct pmu__ev *ev,
		     const struct pmu__place *place,
		     const struct pmu__drv_set *set, struct pmu__ev_state *st,
		     struct emu_slot *slot, unsigned *sset,
		     struct pmu_error *err)
{
	struct set_view v;
	int rc = view_make(ev, place, st, set, &v);

	if (rc)
		return pmu__error(err, rc, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	if (set->period > INT32_MAX || !set->count || set->count > UINT32_MAX)
		rc = pmu__error(err, -EINVAL, PMU_ERR_USAGE, v.ev[v.dsg].name,
				-1, "set %zu: under emulation an overflow "
				"period is at most 2^31-1 events", k);
	d->slot = v.slot;
	d->nev = v.n;
	if (!rc)
		rc = pmu__emu_make_context(d, v.ev, v.pl, v.st, err);
	if (!rc && (v.st[v.dsg].err || v.slot[v.dsg].kind != EMU_SLOT_PMC))
		rc = dsg_error(d, k, &v, err);
	if (!rc) {
		d->sctx[k] = d->ctx;
		d->sw[k] = (struct pmu_emu_switch){ v.slot[v.dsg].idx,
						    (uint32_t)set->count };
		for (size_t i = 0; i < set->n; i++) {
			if (v.slot[i].kind == EMU_SLOT_TSC) {
				/* the emulator's TSC is not kept per set */
				v.st[i].err = -EOPNOTSUPP;
				snprintf(v.st[i].reason, sizeof(v.st[i].reason),
					 "the time-stamp counter is not counted "
					 "per event set under emulation");
				v.slot[i].kind = EMU_SLOT_NONE;
			}
			st[set->first + i] = v.st[i];
			slot[set->first + i] = v.slot[i];
			sset[set->first + i] = (unsigned)k;
		}
	}
	d->slot = NULL;
	view_free(&v);
	return rc;
}

int pmu__emu_sets_build(struct emu_drv *d, const struct pmu__ev *ev,
			size_t nev, const struct pmu__place *place,
			const struct pmu__drv_set *sets, size_t nsets,
			struct pmu__ev_state *st, struct pmu_error *err)
{
	struct emu_slot *slot;
	unsigned *sset;
	int rc = 0;

	if (nsets > PMU_EMU_MAX_SETS)
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED, NULL,
				  -1, "the emulator switches at most %d event "
				  "sets, not %zu", PMU_EMU_MAX_SETS, nsets);
	slot = calloc(nev ? nev : 1, sizeof(*slot));
	sset = calloc(nev ? nev : 1, sizeof(*sset));
	if (!slot || !sset)
		rc = pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				"out of memory");
	for (size_t k = 0; !rc && k < nsets; k++)
		rc = build_set(d, k, ev, place, &sets[k], st, slot, sset, err);
	if (rc) {
		free(slot);
		free(sset);
		return rc;
	}
	d->slot = slot;
	d->slot_set = sset;
	d->nev = nev;
	d->st = st;
	d->nsets = nsets;
	d->ctx = d->sctx[0];
	return 0;
}

void pmu__emu_sets_config(const struct emu_drv *d, struct pmu_emu_config *cfg)
{
	if (d->nsets < 2)
		return;
	cfg->nsets = (uint32_t)d->nsets;
	memcpy(cfg->sw, d->sw, sizeof(cfg->sw));
	for (size_t k = 1; k < d->nsets; k++)
		cfg->set_ctx[k - 1] = d->sctx[k];
}

/* One event of a set: durations are guest instructions. */
void pmu__emu_sets_value(const struct emu_drv *d, const struct emu_counts *k,
			 size_t i, struct pmu__count *c)
{
	const struct emu_slot *sl = &d->slot[i];
	const struct emu_set_counts *s = &k->set[d->slot_set[i]];
	uint64_t total = 0;

	for (size_t j = 0; j < d->nsets; j++)
		total += k->set[j].duration;
	c->raw = s->sum[sl->idx];
	c->enabled = total;
	c->running = s->duration;
	c->scaled = pmu__scale(c->raw, total, s->duration);
	c->scaled_err = pmu__scale_err(s->rsum[sl->idx], s->rsq[sl->idx],
				       s->nrates, total, s->duration);
	c->status = s->duration ? PMU__COUNT_OK : PMU__COUNT_IDLE;
	c->err = 0;
}

static void set_add(struct emu_set_counts *s, uint64_t runs,
		    uint64_t duration, uint64_t nrates, const uint64_t *sum,
		    const double *rsum, const double *rsq, unsigned n)
{
	s->runs += runs;
	s->duration += duration;
	s->nrates += nrates;
	for (unsigned i = 0; i < n; i++) {
		s->sum[i] += sum[i];
		s->rsum[i] += rsum[i];
		s->rsq[i] += rsq[i];
	}
}

void pmu__emu_sets_add(struct emu_counts *c, const struct pmu_emu_rec_set *r)
{
	if (r->set >= PMU_EMU_MAX_SETS)
		return;
	set_add(&c->set[r->set], r->runs, r->duration, r->nrates, r->sum,
		r->rsum, r->rsq, r->nctrs < PMU_MAX_CTRS ? r->nctrs
							 : PMU_MAX_CTRS);
}

void pmu__emu_sets_merge(struct emu_counts *to, const struct emu_counts *c)
{
	for (unsigned k = 0; k < PMU_EMU_MAX_SETS; k++) {
		const struct emu_set_counts *s = &c->set[k];

		set_add(&to->set[k], s->runs, s->duration, s->nrates, s->sum,
			s->rsum, s->rsq, PMU_MAX_CTRS);
	}
}
