/* SPDX-License-Identifier: MIT */
/*
 * Simulator core: initialisation, the event path (advance / cycles),
 * overflow detection and interrupt delivery.
 */
#include "sim/sim.h"
#include "sim/sim_internal.h"
#include "sim/sim_util.h"
#include "hwmodel/control.h"

int pmu__sim_init(struct pmu__sim *s, const struct pmu_hwmodel *m)
{
	/* A model may have no counters at all: seed 000's generic x86,
	 * TSC only. */
	if (!s || !m || m->nr_hw_ctrs > PMU_MAX_CTRS ||
	    (m->ctr_width == 0 && m->nr_hw_ctrs) || m->ctr_width > 64)
		return -PMU_EINVAL;
	pmu__sim_zero(s, sizeof(*s));
	s->model = m;
	s->quirks = m->quirks;
	s->nr_hw = m->nr_hw_ctrs;
	s->wmask = m->ctr_width == 64 ? ~0ull : (1ull << m->ctr_width) - 1;
	/* Distance to the next overflow is ((bias - v) & wmask) + 1: the
	 * carry out of the top bit (x86, XScale) or bit 31 becoming 1 (PPC). */
	s->ovf_bias = m->ovf_dir == PMU_OVF_NONNEG_TO_NEG ? 0x7FFFFFFFull
							  : s->wmask;
	/* The APIC comes out of reset with every LVT entry masked. */
	s->lvtpc = PMU_SIM_LVT_MASKED;
	pmu__sim_reconfigure(s);
	return 0;
}

void pmu__sim_set_irq(struct pmu__sim *s, pmu__sim_irq_fn fn, void *arg)
{
	s->irq = fn;
	s->irq_arg = arg;
}

int pmu__sim_attach(struct pmu__sim *s, enum pmu_sim_ext_slot slot,
		    const struct pmu__sim_ext_ops *ops, void *state)
{
	uint32_t bit = 1u << slot;

	if ((unsigned)slot >= PMU_SIM_NEXT)
		return -PMU_EINVAL;
	s->ext[slot] = ops;
	s->ext_state[slot] = state;
	s->ext_mask &= ~bit;
	s->ev_hooks &= ~bit;
	s->cyc_hooks &= ~bit;
	if (ops) {
		s->ext_mask |= bit;
		if (ops->on_event)
			s->ev_hooks |= bit;
		if (ops->on_cycles)
			s->cyc_hooks |= bit;
	}
	pmu__sim_reconfigure(s);
	return 0;
}

uint32_t pmu__sim_p4_escr_addr(const struct pmu__sim *s, unsigned hw,
			       unsigned sel)
{
	uint32_t a = pmu__p4_escr_addr(hw, sel);

	if ((a == PMU_MSR_P4_IQ_ESCR0 || a == PMU_MSR_P4_IQ_ESCR1) &&
	    !(s->quirks & PMU_QUIRK_P4_IQ_ESCR))
		return 0;
	return a;
}

bool pmu__sim_lvtpc_automask(const struct pmu__sim *s)
{
	return (s->quirks & PMU_QUIRK_LVTPC_AUTOMASK) != 0;
}

/* PPC: the PM exception needs MMCR0.PMXE, which hardware (except the 604)
 * clears when it signals; SIA latches the PC. */
static bool ppc_deliverable(struct pmu__sim *s)
{
	if (!(s->mmcr[0] & PMU_PPC_MMCR0_PMXE))
		return false;
	if (s->quirks & PMU_QUIRK_PPC_PMXE_CLEARED_ON_PMI) {
		s->mmcr[0] &= ~PMU_PPC_MMCR0_PMXE;
		pmu__sim_reconfigure(s);
	}
	s->ppc_sia = (uint32_t)s->snap.ip;
	return true;
}

static bool x86_deliverable(struct pmu__sim *s)
{
	if (s->lvtpc & PMU_SIM_LVT_MASKED)
		return false;
	if (pmu__sim_lvtpc_automask(s))
		s->lvtpc |= PMU_SIM_LVT_MASKED;
	return true;
}

/* Overflow stops and interrupts are the work that one event statement
 * can multiply without end; the caller's budget bounds them. */
static void charge(struct pmu__sim *s)
{
	const struct pmu__sim_stats *st = &s->stats;

	if (s->budget &&
	    st->overflows + st->irqs + st->irqs_masked > s->budget)
		s->halted = true;
}

void pmu__sim_raise(struct pmu__sim *s, enum pmu_sim_irq source)
{
	bool ok;

	switch (s->model->arch) {
	case PMU_ARCH_X86:
		ok = x86_deliverable(s);
		break;
	case PMU_ARCH_PPC:
		ok = ppc_deliverable(s);
		break;
	default: /* XScale: the extension decides (PMNC interrupt enables) */
		ok = true;
		break;
	}
	/* A second interrupt while the handler runs is lost, as a masked
	 * one would be; the overflow stays visible in the counters. */
	if (!ok || !s->irq || s->in_irq) {
		s->stats.irqs_masked++;
		charge(s);
		return;
	}
	s->stats.irqs++;
	charge(s);
	s->in_irq++;
	s->irq(s, s->irq_arg, source, s->snap.ip);
	s->in_irq--;
}

/* PPC: a counter overflow is an "enabled condition" when PMC1CE/PMCjCE
 * allows it; it may end TRIGGER, set FC (FCECE) and raise the exception. */
static bool ppc_condition(struct pmu__sim *s, uint32_t cond)
{
	uint32_t mmcr0 = s->mmcr[0];

	if (!cond)
		return false;
	if (mmcr0 & PMU_PPC_MMCR0_TRIGGER) {
		/* FCECE is ignored while TRIGGER is set; a PMC1 event
		 * starts PMC2-6 and clears TRIGGER. */
		if (cond & 1u)
			mmcr0 &= ~PMU_PPC_MMCR0_TRIGGER;
	} else if (mmcr0 & PMU_PPC_MMCR0_FCECE) {
		mmcr0 |= PMU_PPC_MMCR0_FC;
	}
	if (mmcr0 != s->mmcr[0]) {
		s->mmcr[0] = mmcr0;
		pmu__sim_reconfigure(s);
	}
	return true;
}

static void handle_overflow(struct pmu__sim *s, uint32_t ovf)
{
	const struct pmu__sim_ext_ops *x = s->ext[PMU_SIM_EXT_PEBS];
	const struct pmu__sim_ext_ops *xs = s->ext[PMU_SIM_EXT_XSCALE];
	bool p4 = s->model->check.family == PMU_CHECK_P4;
	uint32_t want = 0;

	s->stats.overflows += pmu__sim_popcount(ovf);
	charge(s);
	s->ovf_flags |= ovf;
	for (uint32_t m = ovf; m; m &= m - 1) {
		unsigned hw = pmu__sim_ctz(m);

		if (x && x->on_overflow &&
		    x->on_overflow(s, s->ext_state[PMU_SIM_EXT_PEBS], hw))
			continue;
		if (xs && xs->on_overflow &&
		    xs->on_overflow(s, s->ext_state[PMU_SIM_EXT_XSCALE], hw))
			continue;
		if (p4)
			s->ctl[hw] |= PMU_P4_CCCR_OVF;
		if (s->cfg[hw].flags & PMU_SIM_CFG_INT)
			want |= 1u << hw;
	}
	if (s->model->arch == PMU_ARCH_PPC && !ppc_condition(s, want))
		return;
	if (want)
		pmu__sim_raise(s, PMU_SIM_IRQ_PMC);
}

static uint32_t umask_filter(const struct pmu__sim *s, uint32_t m,
			     uint32_t umask)
{
	for (uint32_t u = m & s->um_ctrs; u; u &= u - 1) {
		unsigned hw = pmu__sim_ctz(u);

		if (!(s->cfg[hw].umask & umask))
			m &= ~(1u << hw);
	}
	return m;
}

/* Counters incremented by (key, umask) in the current context. */
static inline uint32_t lookup(const struct pmu__sim *s, uint32_t key,
			      uint32_t umask)
{
	uint32_t h = pmu__sim_hash(key);
	uint32_t m;

	for (;;) {
		const struct pmu__sim_slot *sl = &s->hash[h];

		if (sl->key == key) {
			m = sl->mask[s->cur_ctx];
			break;
		}
		if (sl->key == PMU_SIM_KEY_NONE)
			return 0;
		h = (h + 1) & (PMU_SIM_HASH_SIZE - 1);
	}
	if (umask && (m & s->um_ctrs))
		m = umask_filter(s, m, umask);
	return m;
}

static inline uint64_t dist(const struct pmu__sim *s, unsigned hw)
{
	return ((s->ovf_bias - s->ctr[hw]) & s->wmask) + 1;
}

/* Add `step` to every counter of `m`; step never passes an overflow.
 * Returns the counters that reached their overflow transition. */
static inline uint32_t add_step(struct pmu__sim *s, uint32_t m, uint64_t step)
{
	uint32_t ovf = 0;

	for (; m; m &= m - 1) {
		unsigned hw = pmu__sim_ctz(m);

		if (dist(s, hw) == step)
			ovf |= 1u << hw;
		s->ctr[hw] = (s->ctr[hw] + step) & s->wmask;
	}
	return ovf;
}

static uint64_t max_step(const struct pmu__sim *s, uint32_t m, uint64_t n)
{
	for (; m; m &= m - 1) {
		uint64_t d = dist(s, pmu__sim_ctz(m));

		if (d < n)
			n = d;
	}
	return n;
}

/* One event for counters armed by an extension (PEBS assist). */
static void armed_event(struct pmu__sim *s, uint32_t a)
{
	const struct pmu__sim_ext_ops *x = s->ext[PMU_SIM_EXT_PEBS];

	for (; a; a &= a - 1) {
		unsigned hw = pmu__sim_ctz(a);

		if (x && x->on_armed)
			x->on_armed(s, s->ext_state[PMU_SIM_EXT_PEBS], hw);
		else
			s->armed &= ~(1u << hw);
	}
}

static inline uint32_t current(const struct pmu__sim *s, bool cyc,
			       uint32_t key, uint32_t umask)
{
	return cyc ? s->cyc_mask[s->cur_ctx] : lookup(s, key, umask);
}

/* Count n events, stopping at every overflow so that interrupt handlers
 * see (and may reprogram) the exact state at the overflowing event. */
static void count(struct pmu__sim *s, bool cyc, uint32_t key, uint32_t umask,
		  uint64_t n)
{
	uint32_t m = current(s, cyc, key, umask);

	while (m && n && !s->halted) {
		uint32_t a = m & s->armed, ovf;
		uint64_t step;

		if (a) {
			armed_event(s, a);
			ovf = add_step(s, m & ~a, 1);
			n--;
		} else {
			step = max_step(s, m, n);
			ovf = add_step(s, m, step);
			n -= step;
		}
		if (!ovf && !a)
			continue;
		if (ovf)
			handle_overflow(s, ovf);
		m = current(s, cyc, key, umask);
	}
}

static void event_hooks(struct pmu__sim *s, uint32_t key, uint32_t umask,
			uint64_t n)
{
	for (uint32_t h = s->ev_hooks; h; h &= h - 1) {
		unsigned i = pmu__sim_ctz(h);

		s->ext[i]->on_event(s, s->ext_state[i], key, umask, n);
	}
}

void pmu__sim_advance(struct pmu__sim *s, uint32_t key, uint32_t umask,
		      uint64_t n)
{
	if (__builtin_expect(s->ev_hooks != 0, 0))
		event_hooks(s, key, umask, n);
	count(s, false, key, umask, n);
}

void pmu__sim_cycles(struct pmu__sim *s, uint64_t n)
{
	s->tsc += n;
	for (uint32_t h = s->cyc_hooks; h; h &= h - 1) {
		unsigned i = pmu__sim_ctz(h);

		s->ext[i]->on_cycles(s, s->ext_state[i], n);
	}
	count(s, true, 0, 0, n);
}

void pmu__sim_set_mode(struct pmu__sim *s, enum pmu_sim_mode mode)
{
	s->mode = mode == PMU_SIM_KERNEL;
	s->cur_ctx = (uint8_t)(s->mode | (s->pmm << 1));
}

void pmu__sim_set_pmm(struct pmu__sim *s, bool pmm)
{
	s->pmm = pmm;
	s->cur_ctx = (uint8_t)(s->mode | (s->pmm << 1));
}

void pmu__sim_set_ip(struct pmu__sim *s, uint64_t ip)
{
	s->snap.ip = ip;
}

void pmu__sim_set_snapshot(struct pmu__sim *s,
			   const struct pmu__sim_snapshot *snap)
{
	/* Field by field: a struct assignment may become a memcpy call. */
	s->snap.ip = snap->ip;
	s->snap.flags = snap->flags;
	for (unsigned i = 0; i < PMU_SIM_NGPR; i++)
		s->snap.gpr[i] = snap->gpr[i];
	s->snap.data_addr = snap->data_addr;
	s->snap.phys_addr = snap->phys_addr;
	for (unsigned i = 0; i < PMU_SIM_NAUX; i++)
		s->snap.aux[i] = snap->aux[i];
}

void pmu__sim_set_ctr(struct pmu__sim *s, unsigned hw, uint64_t val)
{
	if (hw < s->nr_hw)
		s->ctr[hw] = val & s->wmask;
}

uint64_t pmu__sim_rdtsc(const struct pmu__sim *s)
{
	return s->tsc;
}
