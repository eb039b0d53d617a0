/* SPDX-License-Identifier: MIT */
/*
 * AMD Family 10h IBS (fetch and op sampling) as a simulator extension.
 * The two units are independent periodic counters that tag one event,
 * latch its data into MSRs and stop until software re-arms them.
 */
#include "sim/ibs.h"
#include "sim/sim_util.h"

#define IBS_CTL_WRITABLE 0x10Full

/* xorshift32: tiny, deterministic, never returns to 0 from non-zero. */
static uint32_t rng_next(struct pmu__ibs *ibs)
{
	uint32_t x = ibs->rng;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	ibs->rng = x;
	return x;
}

static struct pmu__ibs_unit *unit(struct pmu__ibs *ibs, bool fetch)
{
	return fetch ? &ibs->fetch : &ibs->op;
}

/* Any write of a control register restarts its count. */
static void arm(struct pmu__ibs *ibs, bool fetch)
{
	struct pmu__ibs_unit *u = unit(ibs, fetch);

	u->cnt = 0;
	u->since_arm = 0;
	if (fetch && (u->ctl & PMU_IBS_RAND_EN))
		u->cnt = rng_next(ibs) & 0xFu;
}

/* Counting needs En, no pending sample and a non-zero period. */
static bool active(const struct pmu__ibs *ibs, bool fetch)
{
	uint64_t en = fetch ? PMU_IBS_FETCH_EN : PMU_IBS_OP_EN;
	uint64_t val = fetch ? PMU_IBS_FETCH_VAL : PMU_IBS_OP_VAL;
	uint64_t ctl = fetch ? ibs->fetch.ctl : ibs->op.ctl;

	return (ctl & en) && !(ctl & val) && pmu__ibs_period(ctl) != 0;
}

static void tag_fetch(struct pmu__ibs *ibs, const struct pmu__sim_snapshot *sn)
{
	uint64_t phys = sn->aux[PMU_IBS_AUX_FETCH_PHYS] & PMU_IBS_PHYS_MASK;
	uint64_t status = sn->aux[PMU_IBS_AUX_FETCH_STATUS] &
			  PMU_IBS_FETCH_STATUS;

	ibs->fetch_linad = sn->ip;
	ibs->fetch_physad = phys;
	if (phys)
		status |= PMU_IBS_FETCH_PHY_VALID;
	ibs->fetch.ctl = (ibs->fetch.ctl & ~PMU_IBS_FETCH_STATUS) | status |
			 PMU_IBS_FETCH_COMP | PMU_IBS_FETCH_VAL;
}

static void tag_op(struct pmu__ibs *ibs, const struct pmu__sim_snapshot *sn)
{
	ibs->op_rip = sn->ip;
	for (unsigned i = 0; i < 3; i++)
		ibs->op_data[i] = sn->aux[PMU_IBS_AUX_OP_DATA + i];
	ibs->dc_linad = sn->data_addr;
	ibs->dc_physad = sn->phys_addr & PMU_IBS_PHYS_MASK;
	ibs->op.ctl |= PMU_IBS_OP_VAL;
}

/* Count n fetches / ops / cycles; every time the count reaches the period
 * the current event is tagged and the interrupt raised.  The handler may
 * re-arm at once, so the rest of the batch keeps counting. */
static void run(struct pmu__sim *s, struct pmu__ibs *ibs, bool fetch,
		uint64_t n)
{
	struct pmu__ibs_unit *u = unit(ibs, fetch);

	while (n && active(ibs, fetch) && !s->halted) {
		uint32_t period = pmu__ibs_period(u->ctl);
		uint64_t need = period - u->cnt;

		if (n < need) {
			u->cnt += (uint32_t)n;
			u->since_arm += n;
			return;
		}
		n -= need;
		u->since_arm += need;
		u->cnt = period;
		u->tags++;
		u->last_gap = u->since_arm;
		if (fetch)
			tag_fetch(ibs, &s->snap);
		else
			tag_op(ibs, &s->snap);
		pmu__sim_raise(s, PMU_SIM_IRQ_IBS);
	}
}

static void ibs_on_event(struct pmu__sim *s, void *st, uint32_t key,
			 uint32_t umask, uint64_t n)
{
	struct pmu__ibs *ibs = st;

	(void)umask;
	if (key == PMU_SIM_KEY_FETCH)
		run(s, ibs, true, n);
	else if (key == PMU_SIM_KEY_OP && (ibs->op.ctl & PMU_IBS_OP_CNT_CTL))
		run(s, ibs, false, n);
}

static void ibs_on_cycles(struct pmu__sim *s, void *st, uint64_t n)
{
	struct pmu__ibs *ibs = st;

	if (!(ibs->op.ctl & PMU_IBS_OP_CNT_CTL))
		run(s, ibs, false, n);
}

/* The data registers, by address; NULL for the control registers. */
static uint64_t *data_reg(struct pmu__ibs *ibs, uint32_t addr)
{
	switch (addr) {
	case PMU_MSR_IBS_FETCH_LINAD: return &ibs->fetch_linad;
	case PMU_MSR_IBS_FETCH_PHYSAD: return &ibs->fetch_physad;
	case PMU_MSR_IBS_OP_RIP: return &ibs->op_rip;
	case PMU_MSR_IBS_OP_DATA: return &ibs->op_data[0];
	case PMU_MSR_IBS_OP_DATA2: return &ibs->op_data[1];
	case PMU_MSR_IBS_OP_DATA3: return &ibs->op_data[2];
	case PMU_MSR_IBS_DC_LINAD: return &ibs->dc_linad;
	case PMU_MSR_IBS_DC_PHYSAD: return &ibs->dc_physad;
	case PMU_MSR_IBS_CTL: return &ibs->ibs_ctl;
	default: return NULL;
	}
}

static int ibs_reg_write(struct pmu__sim *s, void *st,
			 enum pmu_sim_reg_kind kind, uint32_t addr, uint64_t v)
{
	struct pmu__ibs *ibs = st;
	uint64_t *r;

	if (kind != PMU_SIM_REG_MSR)
		return 0;
	if (addr == PMU_MSR_IBS_FETCH_CTL || addr == PMU_MSR_IBS_OP_CTL) {
		bool fetch = addr == PMU_MSR_IBS_FETCH_CTL;

		unit(ibs, fetch)->ctl = fetch ?
			v & PMU_IBS_FETCH_WRITABLE & ~PMU_IBS_FETCH_CNT :
			v & PMU_IBS_OP_WRITABLE;
		arm(ibs, fetch);
		s->stats.ctl_writes++;
		return 1;
	}
	r = data_reg(ibs, addr);
	if (!r)
		return 0;
	*r = addr == PMU_MSR_IBS_CTL ? v & IBS_CTL_WRITABLE : v;
	return 1;
}

static int ibs_reg_read(struct pmu__sim *s, void *st,
			enum pmu_sim_reg_kind kind, uint32_t addr, uint64_t *v)
{
	struct pmu__ibs *ibs = st;
	uint64_t *r;

	(void)s;
	if (kind != PMU_SIM_REG_MSR)
		return 0;
	if (addr == PMU_MSR_IBS_FETCH_CTL) {
		*v = ibs->fetch.ctl | ((uint64_t)((ibs->fetch.cnt >> 4) & 0xFFFFu)
				       << PMU_IBS_FETCH_CNT_SHIFT);
		return 1;
	}
	if (addr == PMU_MSR_IBS_OP_CTL) {
		*v = ibs->op.ctl | ((uint64_t)(ibs->op.cnt & 0x7FFFFFFu)
				    << PMU_IBS_OP_CURCNT_SHIFT);
		return 1;
	}
	r = data_reg(ibs, addr);
	if (!r)
		return 0;
	*v = *r;
	return 1;
}

static const struct pmu__sim_ext_ops ibs_ops = {
	.reg_write = ibs_reg_write,
	.reg_read = ibs_reg_read,
	.on_event = ibs_on_event,
	.on_cycles = ibs_on_cycles,
};

int pmu__sim_ibs_attach(struct pmu__sim *s, struct pmu__ibs *ibs,
			uint32_t seed)
{
	if (!s || !ibs || !s->model || !(s->quirks & PMU_QUIRK_HAS_IBS))
		return -PMU_EINVAL;
	pmu__sim_zero(ibs, sizeof(*ibs));
	ibs->rng = seed ? seed : 0x2545F491u;
	return pmu__sim_attach(s, PMU_SIM_EXT_IBS, &ibs_ops, ibs);
}
