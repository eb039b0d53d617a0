/* SPDX-License-Identifier: MIT */
/*
 * XScale PMU registers on the simulator core.  The core counts PMN0-3
 * (their values are sim->ctr[]); this file decodes PMNC / EVTSEL into
 * the core's per-counter configuration, keeps the overflow flags and the
 * clock counter, and answers CP14 register accesses.
 */
#include "sim/xscale.h"
#include "sim/sim_util.h"
#include "hwmodel/control.h"

#define CTX_ALL 0xFu

static bool enabled(const struct pmu__xscale *xs)
{
	return xs->pmnc & PMU_XSC_PMNC_E;
}

static unsigned nr_pmn(const struct pmu__xscale *xs)
{
	return xs->gen == 2 ? 4 : 2;
}

static void reset_pmn(struct pmu__sim *s, const struct pmu__xscale *xs)
{
	for (unsigned n = 0; n < nr_pmn(xs); n++)
		pmu__sim_set_ctr(s, n, 0);
}

/* The core's free-running cycle count is replaced by CCNT. */
static void sync_tsc(struct pmu__sim *s, const struct pmu__xscale *xs)
{
	s->tsc = xs->ccnt;
}

static void ctl_written(struct pmu__sim *s)
{
	s->stats.ctl_writes++;
	pmu__sim_reconfigure(s);
}

static void write_pmnc1(struct pmu__sim *s, struct pmu__xscale *xs,
			uint32_t v)
{
	uint32_t flags = xs->pmnc & PMU_XSC_PMNC_OF_ALL;

	v &= PMU_XSC1_PMNC_WRITE_MASK;
	flags &= ~(v & PMU_XSC_PMNC_OF_ALL);	/* write one to clear */
	if (v & PMU_XSC_PMNC_P)
		reset_pmn(s, xs);
	if (v & PMU_XSC_PMNC_C) {
		xs->ccnt = 0;
		xs->div = 0;
	}
	xs->pmnc = (v & ~(PMU_XSC_PMNC_P | PMU_XSC_PMNC_C |
			  PMU_XSC_PMNC_OF_ALL)) | flags;
}

static void write_pmnc2(struct pmu__sim *s, struct pmu__xscale *xs,
			uint32_t v)
{
	if (v & PMU_XSC_PMNC_P)
		reset_pmn(s, xs);
	if (v & PMU_XSC_PMNC_C) {
		xs->ccnt = 0;
		xs->div = 0;
	}
	xs->pmnc = v & (PMU_XSC_PMNC_E | PMU_XSC_PMNC_D);
}

static int write_gen1(struct pmu__sim *s, struct pmu__xscale *xs,
		      uint32_t addr, uint32_t v)
{
	switch (addr) {
	case PMU_CP14_XSC1_PMNC:
		xs->pmnc_writes++;
		write_pmnc1(s, xs, v);
		ctl_written(s);
		break;
	case PMU_CP14_XSC1_CCNT:
		xs->ccnt = v;
		break;
	case PMU_CP14_XSC1_PMN0:
	case PMU_CP14_XSC1_PMN1:
		pmu__sim_set_ctr(s, (addr >> 8) - 2, v);
		s->stats.ctr_writes++;
		break;
	default:
		return 0;
	}
	sync_tsc(s, xs);
	return 1;
}

static int write_gen2_ctl(struct pmu__sim *s, struct pmu__xscale *xs,
			  uint32_t addr, uint32_t v)
{
	switch (addr) {
	case PMU_CP14_XSC2_PMNC:
		xs->pmnc_writes++;
		write_pmnc2(s, xs, v);
		break;
	case PMU_CP14_XSC2_INTEN:
		xs->inten = v & 0x1Fu;
		break;
	case PMU_CP14_XSC2_FLAG:
		xs->flag &= ~(v & 0x1Fu);
		break;
	case PMU_CP14_XSC2_EVTSEL:
		xs->evtsel = v;
		break;
	default:
		return 0;
	}
	ctl_written(s);
	return 1;
}

static int write_gen2(struct pmu__sim *s, struct pmu__xscale *xs,
		      uint32_t addr, uint32_t v)
{
	if (addr == PMU_CP14_XSC2_CCNT) {
		xs->ccnt = v;
	} else if ((addr & 0xFFu) == 2 && (addr >> 8) < 4) {
		pmu__sim_set_ctr(s, addr >> 8, v);
		s->stats.ctr_writes++;
	} else if (!write_gen2_ctl(s, xs, addr, v)) {
		return 0;
	}
	sync_tsc(s, xs);
	return 1;
}

static int xs_reg_write(struct pmu__sim *s, void *st,
			enum pmu_sim_reg_kind kind, uint32_t addr, uint64_t val)
{
	struct pmu__xscale *xs = st;

	if (kind != PMU_SIM_REG_CP14)
		return 0;
	if (xs->gen == 2)
		return write_gen2(s, xs, addr, (uint32_t)val);
	return write_gen1(s, xs, addr, (uint32_t)val);
}

static int read_gen1(const struct pmu__sim *s, const struct pmu__xscale *xs,
		     uint32_t addr, uint64_t *val)
{
	switch (addr) {
	case PMU_CP14_XSC1_PMNC:
		*val = xs->pmnc & PMU_XSC1_PMNC_READ_MASK;
		return 1;
	case PMU_CP14_XSC1_CCNT:
		*val = xs->ccnt;
		return 1;
	case PMU_CP14_XSC1_PMN0:
	case PMU_CP14_XSC1_PMN1:
		*val = s->ctr[(addr >> 8) - 2];
		return 1;
	default:
		return 0;
	}
}

static int read_gen2(const struct pmu__sim *s, const struct pmu__xscale *xs,
		     uint32_t addr, uint64_t *val)
{
	switch (addr) {
	case PMU_CP14_XSC2_PMNC:
		*val = (PMU_XSC2_PMNC_ID << PMU_XSC2_PMNC_ID_SHIFT) | xs->pmnc;
		return 1;
	case PMU_CP14_XSC2_CCNT:
		*val = xs->ccnt;
		return 1;
	case PMU_CP14_XSC2_INTEN:
		*val = xs->inten;
		return 1;
	case PMU_CP14_XSC2_FLAG:
		*val = xs->flag;
		return 1;
	case PMU_CP14_XSC2_EVTSEL:
		*val = xs->evtsel;
		return 1;
	default:
		break;
	}
	if ((addr & 0xFFu) == 2 && (addr >> 8) < 4) {
		*val = s->ctr[addr >> 8];
		return 1;
	}
	return 0;
}

static int xs_reg_read(struct pmu__sim *s, void *st,
		       enum pmu_sim_reg_kind kind, uint32_t addr, uint64_t *val)
{
	const struct pmu__xscale *xs = st;

	if (kind != PMU_SIM_REG_CP14)
		return 0;
	if (xs->gen == 2)
		return read_gen2(s, xs, addr, val);
	return read_gen1(s, xs, addr, val);
}

static uint32_t event_of(const struct pmu__xscale *xs, unsigned n)
{
	if (xs->gen == 2)
		return (xs->evtsel >> (8 * n)) & 0xFFu;
	return (xs->pmnc >> (n ? 20 : 12)) & 0xFFu;
}

static bool pmn_inten(const struct pmu__xscale *xs, unsigned n)
{
	if (xs->gen == 2)
		return xs->inten & PMU_XSC2_BIT_PMN(n);
	return xs->pmnc & (PMU_XSC_PMNC_INTEN_PMN0 << n);
}

static bool ccnt_inten(const struct pmu__xscale *xs)
{
	if (xs->gen == 2)
		return xs->inten & PMU_XSC2_BIT_CCNT;
	return xs->pmnc & PMU_XSC_PMNC_INTEN_CCNT;
}

/* PMNC.E starts and stops every counter at once; the idle event never
 * counts.  No PMN counts clock cycles: that is CCNT's job. */
static void xs_decode(struct pmu__sim *s, void *st)
{
	const struct pmu__xscale *xs = st;

	if (!enabled(xs))
		return;
	for (unsigned n = 0; n < nr_pmn(xs) && n < s->nr_hw; n++) {
		struct pmu__sim_cfg *c = &s->cfg[n];
		uint32_t ev = event_of(xs, n);

		if (ev == PMU_XSC_EVT_IDLE)
			continue;
		c->key = ev;
		c->umask = 0;
		c->ctx = CTX_ALL;
		c->flags = PMU_SIM_CFG_ON;
		if (pmn_inten(xs, n))
			c->flags |= PMU_SIM_CFG_INT;
	}
}

static void set_ccnt_flag(struct pmu__xscale *xs)
{
	if (xs->gen == 2)
		xs->flag |= PMU_XSC2_BIT_CCNT;
	else
		xs->pmnc |= PMU_XSC_PMNC_OF_CCNT;
}

/* The flag is set here; the core raises the IRQ when cfg says so. */
static bool xs_on_overflow(struct pmu__sim *s, void *st, unsigned hw)
{
	struct pmu__xscale *xs = st;

	(void)s;
	if (xs->gen == 2)
		xs->flag |= PMU_XSC2_BIT_PMN(hw);
	else if (hw < 2)
		xs->pmnc |= PMU_XSC_PMNC_OF_PMN0 << hw;
	return false;
}

/* CCNT ticks for n cycles: every cycle, or every 64th with PMNC.D. */
static uint64_t ccnt_ticks(struct pmu__xscale *xs, uint64_t n)
{
	uint64_t total;

	if (!(xs->pmnc & PMU_XSC_PMNC_D))
		return n;
	total = (uint64_t)xs->div + n;
	xs->div = (uint32_t)(total & 63u);
	return total >> 6;
}

/* Advance CCNT, stopping at each wrap so the handler sees every one. */
static void xs_on_cycles(struct pmu__sim *s, void *st, uint64_t n)
{
	struct pmu__xscale *xs = st;
	uint64_t ticks;

	if (!enabled(xs)) {
		sync_tsc(s, xs);
		return;
	}
	ticks = ccnt_ticks(xs, n);
	while (ticks && enabled(xs) && !s->halted) {
		uint64_t room = 0x100000000ull - xs->ccnt;

		if (ticks < room) {
			xs->ccnt += (uint32_t)ticks;
			break;
		}
		ticks -= room;
		xs->ccnt = 0;
		set_ccnt_flag(xs);
		sync_tsc(s, xs);
		if (ccnt_inten(xs))
			pmu__sim_raise(s, PMU_SIM_IRQ_PMC);
	}
	sync_tsc(s, xs);
}

static const struct pmu__sim_ext_ops xscale_ops = {
	.reg_write = xs_reg_write,
	.reg_read = xs_reg_read,
	.decode = xs_decode,
	.on_overflow = xs_on_overflow,
	.on_cycles = xs_on_cycles,
};

int pmu__sim_xscale_attach(struct pmu__sim *s, struct pmu__xscale *xs)
{
	if (!s || !xs || !s->model ||
	    s->model->check.family != PMU_CHECK_XSCALE)
		return -PMU_EINVAL;
	pmu__sim_zero(xs, sizeof(*xs));
	xs->gen = (s->quirks & PMU_QUIRK_XSCALE2_BANKS) ? 2 : 1;
	sync_tsc(s, xs);
	return pmu__sim_attach(s, PMU_SIM_EXT_XSCALE, &xscale_ops, xs);
}

uint32_t pmu__xscale_pending(const struct pmu__xscale *xs)
{
	uint32_t p = xs->pmnc;

	if (xs->gen == 2)
		return xs->flag;
	return ((p >> 10) & 1u) | (((p >> 8) & 1u) << 1) |
	       (((p >> 9) & 1u) << 2);
}
