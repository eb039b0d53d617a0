/* SPDX-License-Identifier: MIT */
/*
 * Sampling on a register-level PMU: what the monitoring context of a
 * sampling session (sets_reg.c) holds beyond counting.  Each group
 * leader's PMD samples as perfmon2's tools programmed it (seed-semantics
 * 2.3, 2.5): value and short reset -period, long reset -long_period,
 * PFM_REGFL_RANDOM with the mask, OVFL_NOTIFY so that a full buffer is
 * announced, and its group's other PMDs as smpl_pmds.  The PEBS formats
 * sample one group whose leader runs on IQ_COUNTER4 with 64-bit
 * emulation off and PEBS_ENABLE set; the ibs format samples IBS set-ups,
 * whose control PMD interrupts and whose data PMDs are recorded.
 */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "session/sample.h"
#include "session/sets.h"
#include "sim/pebs.h"
#include "util/error.h"

static bool is_pebs(const struct pmu__smpl *m)
{
	return !strncmp(m->format, "pebs", 4);
}

static bool pebs64(const struct pmu__smpl *m)
{
	return !strcmp(m->format, "pebs64_p4");
}

static const struct pmu_hwmodel *model_of(const struct pmu_session *s)
{
	const char *name = s->drv->ops->hwmodel
			   ? s->drv->ops->hwmodel->hwmodel_name(s->drv) : NULL;

	return name ? pmu__hwmodel_find(name) : NULL;
}

static int reg_by_addr(const struct pmu_reg_desc *r, unsigned n, uint32_t a)
{
	for (unsigned i = 0; i < n; i++)
		if (r[i].addr == a)
			return (int)i;
	return -1;
}

/* The period of sampling event i (its period= term, else the opts'). */
static uint64_t period_of(const struct pmu_session *s, size_t i)
{
	const struct perf_event_attr *a = &s->ev[i].attr;

	return !a->freq && a->sample_period ? a->sample_period
					    : s->smpl->period;
}

/* The first sampling leader's period (PEBS samples one). */
static uint64_t first_period(const struct pmu_session *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->ev[i].leader)
			return period_of(s, i);
	return s->smpl->period;
}

static int pebs_arg(struct pmu_session *s, pfm_pebs_p4_smpl_arg_t *a,
		    struct pmu_error *err)
{
	const struct pmu__smpl *m = s->smpl;
	unsigned rec = pmu__pebs_rec_size(pebs64(m));
	size_t cap;

	if (m->buf_size <= PMU_PEBS_FMT_ALIGN + pmu__pebs_hdr_size(pebs64(m)))
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, "buf_size",
				  -1, "buf_size %zu leaves no room for PEBS "
				  "records after the header and the 256-byte "
				  "alignment", m->buf_size);
	memset(a, 0, sizeof(*a));
	a->buf_size = m->buf_size - PMU_PEBS_FMT_ALIGN;
	cap = a->buf_size / rec;
	a->intr_thres = m->intr_thres ? m->intr_thres : cap * 9 / 10;
	if (!a->intr_thres)
		a->intr_thres = 1;
	/* the counter is 40 bits wide and not emulated to 64 */
	a->cnt_reset = m->cnt_reset ? m->cnt_reset
		       : (0 - first_period(s)) & ((UINT64_C(1) << 40) - 1);
	return 0;
}

int pmu__smpl_reg_format(struct pmu_session *s, const struct pfm_fmt **fmt,
			 union pmu__smpl_arg *arg, size_t *argsz,
			 struct pmu_error *err)
{
	const struct pmu__smpl *m = s->smpl;

	*fmt = pmu__pfm_fmt_find(m->format);
	if (!*fmt)
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, m->format,
				  -1, "unknown sampling format '%s'",
				  m->format);
	if (is_pebs(m)) {
		*argsz = sizeof(arg->pebs);
		return pebs_arg(s, &arg->pebs, err);
	}
	memset(&arg->dfl, 0, sizeof(arg->dfl));
	arg->dfl.buf_size = m->buf_size;
	*argsz = sizeof(arg->dfl);
	return 0;
}

/* ---- placement ---- */

static size_t nleaders(const struct pmu_session *s, size_t first, size_t end)
{
	size_t n = 0;

	for (size_t i = first; i < end; i++)
		n += s->ev[i].leader;
	return n;
}

/* The at-retirement events PEBS tags (seed-semantics 3). */
static bool pebs_event(const struct pmu__ev *e)
{
	static const char *const ok[] = { "front_end_event",
					  "execution_event", "replay_event" };
	const char *name = e->spec ? strstr(e->spec, "::") : NULL;

	if (!name)
		return false;
	name += 2;
	for (size_t i = 0; i < sizeof(ok) / sizeof(*ok); i++) {
		size_t n = strlen(ok[i]);

		if (!strncasecmp(name, ok[i], n) &&
		    (name[n] == ':' || !name[n]))
			return true;
	}
	return false;
}

/* PEBS: the set's one group, its leader on IQ_COUNTER4 (the only PEBS
 * counter); an event assignment put there moves to the leader's place.
 * perfctr's control check then says whether the ESCRs still fit. */
static int pebs_place(struct pmu_session *s, size_t first, size_t end,
		      struct pmu__place *pl, const struct pmu__ev_state *st,
		      struct pmu_error *err)
{
	const int iq4 = (int)PMU_P4_PEBS_HW_CTR;
	int was;

	if (nleaders(s, first, end) != 1)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "the PEBS formats sample one group (the P4 "
				  "has one PEBS counter, IQ_COUNTER4); this "
				  "set has %zu", nleaders(s, first, end));
	was = pl[0].counter;
	if (st[0].err || st[0].idle || was < 12 ||
	    !pebs_event(&s->ev[first]))
		return pmu__error(err, -EINVAL, PMU_ERR_NOT_SUPPORTED,
				  s->ev[first].name, -1, "'%s' cannot sample "
				  "with PEBS: only at-retirement events "
				  "(front_end_event, execution_event, "
				  "replay_event) counted on IQ_COUNTER4 can",
				  s->ev[first].name);
	for (size_t i = 1; i < end - first; i++)
		if (pl[i].counter == iq4)
			pl[i].counter = was;
	pl[0].counter = iq4;
	return 0;
}

static bool is_ibs_ev(const struct pmu__ev *e)
{
	return (e->flags & PMU__EV_IBS) && e->ncodes >= 4;
}

/* IBS set-ups: on their control PMD (which interrupts), groups of one
 * (their values are the IBS data registers), one per unit. */
static int ibs_place(struct pmu_session *s, size_t first, size_t end,
		     struct pmu__ev_state *st, int *pmd,
		     struct pmu_error *err)
{
	uint64_t seen = 0;

	for (size_t i = first; i < end; i++) {
		const struct pmu__ev *e = &s->ev[i];

		if (!is_ibs_ev(e))
			continue;
		if (!e->leader || (i + 1 < end && !s->ev[i + 1].leader))
			return pmu__error(err, -EINVAL, PMU_ERR_USAGE, e->name,
					  -1, "'%s' samples alone: an IBS "
					  "set-up's values are its unit's data "
					  "registers, not a group's counts",
					  e->name);
		if (seen >> e->codes[1] & 1)
			return pmu__error(err, -EINVAL, PMU_ERR_CONFLICT,
					  e->name, -1, "'%s': one IBS %s unit, "
					  "one set-up per event set", e->name,
					  e->codes[1] == 4 ? "fetch" : "op");
		seen |= UINT64_C(1) << e->codes[1];
		st[i - first] = (struct pmu__ev_state){ 0 };
		pmd[i - first] = (int)e->codes[2];
	}
	return 0;
}

int pmu__smpl_reg_place(struct pmu_session *s, size_t first, size_t end,
			struct pmu__place *pl, struct pmu__ev_state *st,
			int *pmd, struct pmu_error *err)
{
	if (is_pebs(s->smpl))
		return pebs_place(s, first, end, pl, st, err);
	return ibs_place(s, first, end, st, pmd, err);
}

/* ---- registers ---- */

void pmu__smpl_reg_pmcs(struct pmu_session *s, size_t first, size_t end,
			const int *pmd, uint64_t *pmcs, uint32_t *pmc_flags)
{
	const struct pmu_hwmodel *m = model_of(s);
	int cccr, en;

	(void)pmd;
	if (!m)
		return;
	for (size_t i = first; i < end; i++)
		if (is_ibs_ev(&s->ev[i]) && s->ev[i].codes[1] < m->nr_pmcs)
			pmcs[s->ev[i].codes[1]] = s->ev[i].codes[0];
	if (!is_pebs(s->smpl))
		return;
	cccr = reg_by_addr(m->pmcs, m->nr_pmcs,
			   m->ctl_addr[PMU_P4_PEBS_HW_CTR]);
	en = reg_by_addr(m->pmcs, m->nr_pmcs, PMU_MSR_P4_PEBS_ENABLE);
	/* perfmon2's PEBS usage: no 64-bit emulation on the PEBS
	 * counter, PEBS_ENABLE bit 24 and "my thread" bit 25 */
	if (cccr >= 0)
		pmc_flags[cccr] |= PFM_REGFL_NO_EMUL64;
	if (en >= 0)
		pmcs[en] = PMU_P4_PEBS_ENABLE_BIT | (PMU_P4_PEBS_ENABLE_BIT << 1);
}

void pmu__smpl_reg_pmd(struct pmu_session *s, size_t i, const int *pmd,
		       pfarg_pmd_attr_t *pd)
{
	const struct pmu__smpl *m = s->smpl;
	const struct perf_event_attr *a = &s->ev[i].attr;
	uint64_t period = period_of(s, i);
	bool own = !a->freq && a->sample_period;

	if (!s->ev[i].leader)
		return;
	if (is_ibs_ev(&s->ev[i])) {
		/* every interrupt of the unit is an overflow; the reset
		 * re-arms it; its data registers are the values */
		pd->reg_flags |= PFM_REGFL_OVFL_NOTIFY;
		for (uint64_t j = 1; j < s->ev[i].codes[3]; j++) {
			uint64_t d = s->ev[i].codes[2] + j;

			pd->reg_smpl_pmds[d / 64] |= UINT64_C(1) << (d % 64);
		}
		return;
	}
	pd->reg_value = pd->reg_short_reset = 0 - period;
	/* a period= term of the event's own is both its periods */
	pd->reg_long_reset = 0 - (own ? period : m->long_period);
	pd->reg_flags |= PFM_REGFL_OVFL_NOTIFY;
	if (m->random_mask) {
		pd->reg_flags |= PFM_REGFL_RANDOM;
		pd->reg_random_mask = m->random_mask;
	}
	for (size_t j = i + 1; j < s->n && !s->ev[j].leader; j++)
		if (pmd[j] >= 0)
			pd->reg_smpl_pmds[pmd[j] / 64] |=
				UINT64_C(1) << (pmd[j] % 64);
}

/* ---- the open session ---- */

uint64_t pmu__smpl_reg_pebs_count(struct pmu_session *s, const void *buf)
{
	struct pmu__pebs_buf b = { .mem = (uint8_t *)(uintptr_t)buf,
				   .size = s->smpl->ulen,
				   .base = PMU__PFM_PEBS_BASE,
				   .mode64 = pebs64(s->smpl) };

	return pmu__pebs_fmt_count(&b);
}

int pmu__smpl_reg_stats(struct pmu_session *s, const void *b,
			struct pmu_sample_stats *st)
{
	struct pmu__pebs_buf pb;

	if (!b)
		return -errno;
	/* a full buffer masks the context: nothing is lost, counting
	 * waits for the restart */
	st->lost = 0;
	if (!is_pebs(s->smpl)) {
		st->full = ((const struct pmu_sample_hdr *)b)->hdr_overflows;
		return 0;
	}
	pb = (struct pmu__pebs_buf){ .mem = (uint8_t *)(uintptr_t)b,
				     .size = s->smpl->ulen,
				     .base = PMU__PFM_PEBS_BASE,
				     .mode64 = pebs64(s->smpl) };
	st->full = pmu__pebs_fmt_hdr(&pb, PMU_PEBS_HDR_OVERFLOWS);
	return 0;
}

ssize_t pmu__smpl_reg_event(const struct pmu_session *s, unsigned pmd,
			    unsigned set)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->ev[i].leader && pmu__sets_reg_pmd(s, i) == (int)pmd &&
		    pmu_session_event_set(s, i) == (ssize_t)set)
			return (ssize_t)i;
	return -ENOENT;
}

/* A leader's group's other events in increasing PMD order: perfmon2
 * writes smpl_pmds that way. */
ssize_t pmu__smpl_reg_values(const struct pmu_session *s, size_t ev,
			     size_t *idx, size_t max)
{
	size_t n = 0;
	int last = -1;

	if (!s->ev[ev].leader || pmu__sets_reg_pmd(s, ev) < 0)
		return -EINVAL;
	/* PEBS records hold registers, IBS entries its data registers */
	if (is_pebs(s->smpl) || is_ibs_ev(&s->ev[ev]))
		return 0;
	for (;;) {
		ssize_t best = -1;
		int bp = 0;

		for (size_t j = ev + 1; j < s->n && !s->ev[j].leader; j++) {
			int p = pmu__sets_reg_pmd(s, j);

			if (p > last && (best < 0 || p < bp)) {
				best = (ssize_t)j;
				bp = p;
			}
		}
		if (best < 0)
			return (ssize_t)n;
		if (n < max)
			idx[n] = (size_t)best;
		n++;
		last = bp;
	}
}
