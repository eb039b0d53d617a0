/* SPDX-License-Identifier: MIT */
/*
 * PMC and PMD registers of a context (seed-semantics 2.3): writes are
 * checked as a whole first, so a call that fails changes nothing; the
 * values live in their set and reach the hardware only while the set
 * is counting.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "perfmon/pfm.h"
#include "util/error.h"

struct pfm_set *pmu__pfm_find_set(struct pfm_ctx *c, unsigned id)
{
	size_t lo = 0, hi = c->nsets;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->sets[mid].id == id)
			return &c->sets[mid];
		if (c->sets[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void pmu__pfm_refresh(const struct pfm_ctx *c, struct pfm_set *s)
{
	for (unsigned w = 0; w < PFM_BV; w++) {
		s->watch_pmds[w] = s->used_pmds[w] &
				   (c->intr_pmds[w] | c->cnt_pmds[w]);
		/* 64-bit counters (a PMU that counts in 64 bits) need
		 * no emulation: each overflow they report is one */
		s->emul_pmds[w] = c->irq_model && c->width < 64
				  ? c->cnt_pmds[w] : 0;
	}
	/* a counter whose own control turned emulation off */
	for (unsigned k = 0; k < c->npmcs; k++)
		if (c->pmd_of_pmc[k] >= 0 && bv_test(s->nemul_pmcs, k))
			bv_clear(s->emul_pmds, (unsigned)c->pmd_of_pmc[k]);
}

static uint64_t mask_of(const struct pfm_ctx *c, const struct pfm_set *s,
			unsigned i)
{
	return pmu__pfm_emulated(c, s, i) ? c->ovfl_mask : c->wmask;
}

static bool on_hw(const struct pfm_ctx *c, const struct pfm_set *s)
{
	return c->on_hw && s == &c->sets[c->active];
}

uint64_t pmu__pfm_pmd_value_slow(struct pfm_ctx *c, struct pfm_set *s,
				 unsigned i)
{
	struct pfm_pmd *p = &s->pmds[i];
	uint64_t hw, mask;

	if (!on_hw(c, s))
		return p->value;
	hw = c->hw->ops->read_pmd(c->hw, i);
	if (!bv_test(c->cnt_pmds, i))
		return hw;
	mask = mask_of(c, s, i);
	if (!c->irq_model) {
		/* no interrupt tells of a wrap: a counter that went
		 * backwards since it was last seen wrapped once */
		if ((hw & c->wmask) < p->hwlast)
			p->value += c->wmask + 1;
		p->hwlast = hw & c->wmask;
	}
	return (p->value & ~mask) | (hw & mask);
}

void pmu__pfm_hw_write_pmd(struct pfm_ctx *c, struct pfm_set *s, unsigned i)
{
	struct pfm_pmd *p = &s->pmds[i];
	uint64_t img = p->value;

	if (bv_test(c->cnt_pmds, i)) {
		if (!pmu__pfm_emulated(c, s, i))
			img &= c->wmask;
		else if (c->m->ovf_dir == PMU_OVF_NEG_TO_NONNEG)
			/* the bits above the emulated width are set, so
			 * the counter overflows when the low part wraps */
			img = (img | ~c->ovfl_mask) & c->wmask;
		else
			img &= c->ovfl_mask;
		p->hwlast = img & c->wmask;
	}
	c->hw->ops->write_pmd(c->hw, i, img);
}

static int bad_reg(struct pmu_error *err, const char *kind, unsigned num,
		   size_t k, const char *why)
{
	char tok[32];

	snprintf(tok, sizeof(tok), "%s%u", kind, num);
	pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, tok, -1,
		   "register %zu of the call, %s: %s", k, tok, why);
	if (err)
		err->index = (int)k;
	return -EINVAL;
}

/* P6/AMD64 EVNTSEL.INT and the P4 CCCR OVF_PMI bits: what NO_EMUL64
 * clears so the counter never interrupts. */
static uint64_t no_emul64_bits(const struct pfm_ctx *c)
{
	return c->m->check.family == PMU_CHECK_P4 ? UINT64_C(0x0C000000)
						  : UINT64_C(0x00100000);
}

static int check_pmc(struct pfm_ctx *c, const pfarg_pmr_t *r, size_t k,
		     struct pmu_error *err)
{
	if (r->reg_num >= c->npmcs)
		return bad_reg(err, "pmc", r->reg_num, k, "no such PMC on "
			       "this model ('pmu info --model M' lists them)");
	if (!pmu__pfm_find_set(c, r->reg_set))
		return bad_reg(err, "pmc", r->reg_num, k, "its set does not "
			       "exist (pfm_create_sets creates it)");
	if (r->reg_flags & ~(uint32_t)PFM_REGFL_NO_EMUL64)
		return bad_reg(err, "pmc", r->reg_num, k, "flags other than "
			       "PFM_REGFL_NO_EMUL64");
	if ((r->reg_flags & PFM_REGFL_NO_EMUL64) &&
	    !(c->m->pmcs[r->reg_num].flags & PMU_REGF_NO_EMUL64))
		return bad_reg(err, "pmc", r->reg_num, k, "this register has "
			       "no 64-bit emulation to turn off");
	return 0;
}

int pmu__pfm_write_pmcs(struct pfm_ctx *c, const pfarg_pmr_t *r, size_t n,
			struct pmu_error *err)
{
	for (size_t k = 0; k < n; k++) {
		int rc = check_pmc(c, &r[k], k, err);

		if (rc)
			return rc;
	}
	for (size_t k = 0; k < n; k++) {
		unsigned i = r[k].reg_num;
		const struct pmu_reg_desc *d = &c->m->pmcs[i];
		struct pfm_set *s = pmu__pfm_find_set(c, r[k].reg_set);
		uint64_t v = (r[k].reg_value & ~d->rsvd_msk) |
			     (d->dfl_val & d->rsvd_msk);

		if (r[k].reg_flags & PFM_REGFL_NO_EMUL64) {
			v &= ~no_emul64_bits(c);
			bv_set(s->nemul_pmcs, i);
		} else {
			bv_clear(s->nemul_pmcs, i);
		}
		s->pmcs[i] = v;
		bv_set(s->used_pmcs, i);
		pmu__pfm_refresh(c, s);
		if (on_hw(c, s))
			c->hw->ops->write_pmc(c->hw, i, v);
	}
	/* stored either way; a counting PMU may still refuse them */
	return pmu__pfm_hw_error(c, err);
}

static int check_pmd(struct pfm_ctx *c, const pfarg_pmd_attr_t *r, size_t k,
		     struct pmu_error *err)
{
	if (r->reg_num >= c->npmds)
		return bad_reg(err, "pmd", r->reg_num, k, "no such PMD on "
			       "this model ('pmu info --model M' lists them)");
	if (!pmu__pfm_find_set(c, r->reg_set))
		return bad_reg(err, "pmd", r->reg_num, k, "its set does not "
			       "exist (pfm_create_sets creates it)");
	if (!bv_test(c->wr_pmds, r->reg_num))
		return bad_reg(err, "pmd", r->reg_num, k, "read-only register");
	if (r->reg_flags & ~(uint32_t)(PFM_REGFL_OVFL_NOTIFY |
				       PFM_REGFL_RANDOM))
		return bad_reg(err, "pmd", r->reg_num, k, "flags other than "
			       "PFM_REGFL_OVFL_NOTIFY and PFM_REGFL_RANDOM");
	if (!bv_subset(r->reg_smpl_pmds, c->impl_pmds))
		return bad_reg(err, "pmd", r->reg_num, k, "reg_smpl_pmds "
			       "names a PMD the model does not have");
	if (!bv_subset(r->reg_reset_pmds, c->wr_pmds))
		return bad_reg(err, "pmd", r->reg_num, k, "reg_reset_pmds "
			       "names a PMD that cannot be written");
	return 0;
}

static void store_pmd(struct pfm_ctx *c, const pfarg_pmd_attr_t *r)
{
	struct pfm_set *s = pmu__pfm_find_set(c, r->reg_set);
	unsigned i = r->reg_num;
	struct pfm_pmd *p = &s->pmds[i];

	p->flags = r->reg_flags;
	memcpy(p->smpl_pmds, r->reg_smpl_pmds, sizeof(p->smpl_pmds));
	memcpy(p->reset_pmds, r->reg_reset_pmds, sizeof(p->reset_pmds));
	p->eventid = r->reg_smpl_eventid;
	p->ovflsw_ref = p->ovflsw_thres = r->reg_ovfl_swcnt;
	p->long_reset = r->reg_long_reset;
	p->short_reset = r->reg_short_reset;
	p->random_mask = r->reg_random_mask;
	p->value = p->lval = r->reg_value;
	p->accum = 0;
	p->rsum = p->rsq = 0;
	p->nrates = 0;
	bv_set(s->used_pmds, i);
	bv_or(s->used_pmds, p->smpl_pmds);
	bv_or(s->used_pmds, p->reset_pmds);
	bv_clear(s->povfl_pmds, i);
	pmu__pfm_refresh(c, s);
	if (on_hw(c, s)) {
		pmu__pfm_hw_write_pmd(c, s, i);
		/* the set's interrupting PMDs may have grown */
		c->hw->ops->irq_enable(c->hw, s->used_pmds);
	}
}

/* The short form (pfarg_pmr_t) as an attribute record. */
static void widen(const pfarg_pmr_t *r, pfarg_pmd_attr_t *a)
{
	memset(a, 0, sizeof(*a));
	a->reg_num = r->reg_num;
	a->reg_set = r->reg_set;
	a->reg_flags = r->reg_flags;
	a->reg_value = r->reg_value;
}

int pmu__pfm_write_pmds(struct pfm_ctx *c, const pfarg_pmd_attr_t *r,
			size_t n, bool attr, struct pmu_error *err)
{
	const pfarg_pmr_t *pr = (const pfarg_pmr_t *)(const void *)r;
	pfarg_pmd_attr_t a;

	for (size_t k = 0; k < n; k++) {
		int rc;

		if (!attr)
			widen(&pr[k], &a);
		rc = check_pmd(c, attr ? &r[k] : &a, k, err);
		if (rc)
			return rc;
	}
	for (size_t k = 0; k < n; k++) {
		if (!attr)
			widen(&pr[k], &a);
		store_pmd(c, attr ? &r[k] : &a);
	}
	return pmu__pfm_hw_error(c, err);
}

static int check_read(struct pfm_ctx *c, unsigned num, unsigned set,
		      size_t k, struct pmu_error *err)
{
	struct pfm_set *s;

	if (num >= c->npmds)
		return bad_reg(err, "pmd", num, k, "no such PMD on this model");
	if (!(s = pmu__pfm_find_set(c, set)))
		return bad_reg(err, "pmd", num, k, "its set does not exist");
	if (!bv_test(s->used_pmds, num))
		return bad_reg(err, "pmd", num, k, "never written, nor named "
			       "by a written PMD's smpl or reset PMDs");
	return 0;
}

int pmu__pfm_read_pmds(struct pfm_ctx *c, pfarg_pmd_attr_t *r, size_t n,
		       bool attr, struct pmu_error *err)
{
	pfarg_pmr_t *pr = (pfarg_pmr_t *)(void *)r;

	for (size_t k = 0; k < n; k++) {
		int rc = attr ? check_read(c, r[k].reg_num, r[k].reg_set, k, err)
			      : check_read(c, pr[k].reg_num, pr[k].reg_set, k,
					   err);
		if (rc)
			return rc;
	}
	for (size_t k = 0; k < n; k++) {
		unsigned num = attr ? r[k].reg_num : pr[k].reg_num;
		struct pfm_set *s = pmu__pfm_find_set(c, attr ? r[k].reg_set
							      : pr[k].reg_set);
		struct pfm_pmd *p = &s->pmds[num];
		uint64_t v = pmu__pfm_pmd_value(c, s, num);

		if (!attr) {
			pr[k].reg_value = v;
			continue;
		}
		r[k].reg_value = v;
		r[k].reg_flags = p->flags;
		r[k].reg_last_value = p->lval;
		r[k].reg_ovfl_swcnt = p->ovflsw_thres;
		r[k].reg_long_reset = p->long_reset;
		r[k].reg_short_reset = p->short_reset;
		r[k].reg_random_mask = p->random_mask;
		r[k].reg_smpl_eventid = p->eventid;
		memcpy(r[k].reg_smpl_pmds, p->smpl_pmds, sizeof(p->smpl_pmds));
		memcpy(r[k].reg_reset_pmds, p->reset_pmds,
		       sizeof(p->reset_pmds));
	}
	/* a counter the PMU stopped (a kernel's: taken by another user)
	 * reads what it had: the read says so */
	return pmu__pfm_hw_error(c, err);
}

/* pfm_read of PMCs: the set's values as stored (reserved bits forced). */
int pmu__pfm_read_pmcs(struct pfm_ctx *c, pfarg_pmr_t *r, size_t n,
		       struct pmu_error *err)
{
	for (size_t k = 0; k < n; k++) {
		if (r[k].reg_num >= c->npmcs)
			return bad_reg(err, "pmc", r[k].reg_num, k,
				       "no such PMC on this model");
		if (!pmu__pfm_find_set(c, r[k].reg_set))
			return bad_reg(err, "pmc", r[k].reg_num, k,
				       "its set does not exist");
	}
	for (size_t k = 0; k < n; k++) {
		struct pfm_set *s = pmu__pfm_find_set(c, r[k].reg_set);

		r[k].reg_value = s->pmcs[r[k].reg_num];
		r[k].reg_flags = bv_test(s->nemul_pmcs, r[k].reg_num)
				 ? PFM_REGFL_NO_EMUL64 : 0;
	}
	return 0;
}

int pmu__pfm_counts(int fd, unsigned set, const unsigned *pmds, size_t n,
		    uint64_t *out)
{
	struct pfm_ctx *c;
	struct pfm_set *s;
	int rc = 0;

	pmu__pfm_lock();
	if (!(c = pmu__pfm_get(fd, NULL)) || !(s = pmu__pfm_find_set(c, set)))
		rc = -EINVAL;
	for (size_t k = 0; !rc && k < n; k++) {
		const struct pfm_pmd *p = &s->pmds[pmds[k]];

		if (pmds[k] >= c->npmds) {
			rc = -EINVAL;
			break;
		}
		(void)p;
		out[k] = pmu__pfm_count(c, s, pmds[k]);
	}
	pmu__pfm_unlock();
	return rc;
}

uint64_t pmu__pfm_count(struct pfm_ctx *c, struct pfm_set *s, unsigned i)
{
	const struct pfm_pmd *p = &s->pmds[i];

	return p->accum + (pmu__pfm_pmd_value(c, s, i) - p->lval);
}

int pmu__pfm_count_errs(int fd, unsigned set, const unsigned *pmds,
			size_t n, uint64_t total, uint64_t *out)
{
	struct pfm_ctx *c;
	struct pfm_set *s;
	int rc = 0;

	pmu__pfm_lock();
	if (!(c = pmu__pfm_get(fd, NULL)) || !(s = pmu__pfm_find_set(c, set)))
		rc = -EINVAL;
	for (size_t k = 0; !rc && k < n; k++) {
		const struct pfm_pmd *p;
		double m, var, nr;

		out[k] = 0;
		if (pmds[k] >= c->npmds) {
			rc = -EINVAL;
			break;
		}
		p = &s->pmds[pmds[k]];
		nr = (double)p->nrates;
		if (p->nrates < 2 || total <= s->duration)
			continue;
		m = p->rsum / nr;
		var = (p->rsq - p->rsum * m) / (nr - 1);
		if (var > 0)
			out[k] = (uint64_t)(sqrt(var / nr) *
					    (double)(total - s->duration) + 0.5);
	}
	pmu__pfm_unlock();
	return rc;
}
