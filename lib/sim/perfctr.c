/* SPDX-License-Identifier: MIT */
/*
 * perfctr's low-level driver on the simulated PMU: reservation, control
 * validation, a-mode accumulation (32-bit deltas into 64-bit sums),
 * i-mode counters and the cached control-register writes.
 */
#include "sim/perfctr.h"
#include "sim/perfctr_hw.h"
#include "sim/sim_util.h"
#include "hwmodel/fs_util.h"

static void perfctr_isuspend(struct pmu__perfctr *pc, struct pmu__perfctr_state *st);

static void perfctr_iresume(struct pmu__perfctr *pc, struct pmu__perfctr_state *st);

void pmu__perfctr_state_init(struct pmu__perfctr_state *st)
{
	pmu__sim_zero(st, sizeof(*st));
	st->k1.isuspend_cpu = -1;
}

/* Interrupt entry: the simulated LVTPC / PM exception / PMU IRQ. */
static void perfctr_intr(struct pmu__sim *sim, void *arg,
			 enum pmu_sim_irq source, uint64_t ip)
{
	struct pmu__perfctr *pc = arg;

	if (pc->cache.interrupts_masked || !pc->ihandler)
		return;
	pc->last_source = source;
	pc->ihandler(pc->ihandler_arg, ip);
}

int pmu__perfctr_init(struct pmu__perfctr *pc, struct pmu__sim *sim,
		      const char *model_name)
{
	const struct pmu_hwmodel *m =
		model_name ? pmu__hwmodel_find(model_name) : NULL;
	int err;

	if (!pc || !sim)
		return -PMU_EINVAL;
	if (!m)
		return -PMU_ENOENT;
	pmu__sim_zero(pc, sizeof(*pc));
	/* Keep a simulator the caller already set up (with extensions)
	 * for this model. */
	if (sim->model != m) {
		err = pmu__sim_init(sim, m);
		if (err)
			return err;
	}
	pc->sim = sim;
	pc->model = m;
	pc->cpu_name = m->desc;
	pc->features = m->features;
	pc->cpu = 0;
	pmu__sim_set_irq(sim, perfctr_intr, pc);
	pmu__perfctr_hw_clear(pc);
	if (pc->features & PMU_FEAT_PCINT)
		pmu__sim_reg_write(sim, PMU_SIM_REG_APIC, PMU_SIM_APIC_LVTPC,
				   PMU_SIM_PERFCTR_VECTOR);
	return 0;
}

void pmu__perfctr_exit(struct pmu__perfctr *pc)
{
	if (!pc || !pc->sim)
		return;
	if (pc->features & PMU_FEAT_PCINT)
		pmu__sim_reg_write(pc->sim, PMU_SIM_REG_APIC, PMU_SIM_APIC_LVTPC,
				   PMU_SIM_LVT_MASKED);
	pmu__perfctr_hw_clear(pc);
	pmu__sim_set_irq(pc->sim, NULL, NULL);
}

const char *pmu__perfctr_reserve(struct pmu__perfctr *pc, const char *service)
{
	if (pc->service)
		return pc->service;
	pc->service = service;
	return NULL;
}

int pmu__perfctr_release(struct pmu__perfctr *pc, const char *service)
{
	if (!pc->service || !service || pmu__fs_strcmp(pc->service, service))
		return -PMU_EPERM;
	pc->service = NULL;
	pmu__perfctr_hw_clear(pc);
	return 0;
}

void pmu__perfctr_set_ihandler(struct pmu__perfctr *pc,
			       pmu__perfctr_ihandler_t fn, void *arg)
{
	pc->ihandler = fn;
	pc->ihandler_arg = arg;
}

/* perfctr's new_id(): never 0, which means "nothing loaded". */
static uint32_t new_id(struct pmu__perfctr *pc)
{
	if (++pc->last_id == 0)
		pc->last_id = 1;
	return pc->last_id;
}

static uint32_t state_id(struct pmu__perfctr *pc, const struct pmu_control_result *r)
{
	switch (pc->model->check.family) {
	case PMU_CHECK_P5_LIKE:
		return r->p5_cesr; /* the CESR doubles as the id */
	case PMU_CHECK_VC3:
		return r->vc3_id;
	default:
		return new_id(pc);
	}
}

static void copy_derived(struct pmu__perfctr_state *st,
			 const struct pmu_control_result *r)
{
	unsigned n = pmu__cstatus_nrctrs(r->cstatus);
	unsigned na = pmu__cstatus_nractrs(r->cstatus);

	for (unsigned i = 0; i < n && i < PMU_MAX_CTRS; i++) {
		st->pmc[i].map = r->map[i];
		st->hw[i] = r->hw_ctr[i];
		st->p4_escr_map[i] = r->p4_escr_msr[i];
		if (i >= na)
			st->pmc[i].start = (uint32_t)r->start[i];
	}
	st->p5_cesr = r->p5_cesr;
	for (unsigned i = 0; i < 3; i++)
		st->ppc_mmcr[i] = r->ppc_mmcr[i];
	st->xsc[0] = r->xsc_pmnc;
	st->xsc[1] = r->xsc_evtsel;
	st->xsc[2] = r->xsc_inten;
}

int pmu__perfctr_update_control(struct pmu__perfctr *pc,
				struct pmu__perfctr_state *st, bool is_global)
{
	int err;

	st->k1.isuspend_cpu = -1;
	st->cstatus = 0;
	err = pmu__control_check(pc->model, &st->control, is_global, &st->check);
	if (err)
		return err;
	copy_derived(st, &st->check);
	st->k1.id = state_id(pc, &st->check);
	st->cstatus = st->check.cstatus;
	return 0;
}

/* Low 32 bits of the TSC and of every a-mode counter. */
struct ctrs_now {
	uint32_t tsc;
	uint32_t pmc[PMU_MAX_CTRS];
};

static void read_counters(struct pmu__perfctr *pc,
			  const struct pmu__perfctr_state *st,
			  struct ctrs_now *now)
{
	unsigned na = pmu__cstatus_nractrs(st->cstatus);

	now->tsc = 0;
	if (pmu__cstatus_has_tsc(st->cstatus))
		now->tsc = pmu__perfctr_hw_read_tsc(pc);
	for (unsigned i = 0; i < na; i++)
		now->pmc[i] = pmu__perfctr_hw_read_ctr(pc, st, i);
}

void pmu__perfctr_suspend(struct pmu__perfctr *pc, struct pmu__perfctr_state *st)
{
	struct ctrs_now now;
	unsigned na = pmu__cstatus_nractrs(st->cstatus);

	/* Capture MMCR0 as the hardware left it (FCECE, TRIGGER and PMXE
	 * change on their own) before isuspend freezes it. */
	pmu__perfctr_hw_save_mmcr0(pc, st);
	if (pmu__cstatus_has_ictrs(st->cstatus))
		perfctr_isuspend(pc, st);
	read_counters(pc, st, &now);
	if (pmu__cstatus_has_tsc(st->cstatus))
		st->tsc_sum += (uint32_t)(now.tsc - st->tsc_start);
	for (unsigned i = 0; i < na; i++)
		st->pmc[i].sum += (uint32_t)(now.pmc[i] - st->pmc[i].start);
}

void pmu__perfctr_resume(struct pmu__perfctr *pc, struct pmu__perfctr_state *st)
{
	struct ctrs_now now;
	unsigned na = pmu__cstatus_nractrs(st->cstatus);

	if (pmu__cstatus_has_ictrs(st->cstatus))
		perfctr_iresume(pc, st);
	pmu__perfctr_hw_write_control(pc, st);
	read_counters(pc, st, &now);
	if (pmu__cstatus_has_tsc(st->cstatus))
		st->tsc_start = now.tsc;
	for (unsigned i = 0; i < na; i++)
		st->pmc[i].start = now.pmc[i];
}

void pmu__perfctr_sample(struct pmu__perfctr *pc, struct pmu__perfctr_state *st)
{
	struct ctrs_now now;
	unsigned na = pmu__cstatus_nractrs(st->cstatus);

	read_counters(pc, st, &now);
	if (pmu__cstatus_has_tsc(st->cstatus)) {
		st->tsc_sum += (uint32_t)(now.tsc - st->tsc_start);
		st->tsc_start = now.tsc;
	}
	for (unsigned i = 0; i < na; i++) {
		st->pmc[i].sum += (uint32_t)(now.pmc[i] - st->pmc[i].start);
		st->pmc[i].start = now.pmc[i];
	}
}

static void perfctr_isuspend(struct pmu__perfctr *pc, struct pmu__perfctr_state *st)
{
	unsigned na = pmu__cstatus_nractrs(st->cstatus);
	unsigned n = pmu__cstatus_nrctrs(st->cstatus);

	st->k1.isuspend_cpu = pc->cpu;
	pc->cache.interrupts_masked = true;
	pmu__perfctr_hw_istop(pc, st);
	for (unsigned i = na; i < n; i++) {
		uint32_t now = pmu__perfctr_hw_read_ctr(pc, st, i);

		st->pmc[i].sum += (uint32_t)(now - st->pmc[i].start);
		st->pmc[i].start = now;
	}
}

static void perfctr_iresume(struct pmu__perfctr *pc, struct pmu__perfctr_state *st)
{
	pc->cache.interrupts_masked = false;
	if (pc->cache.id == st->k1.id) {
		/* Force write_control to reload the stopped i-mode controls. */
		pc->cache.id = 0;
		if (st->k1.isuspend_cpu == pc->cpu)
			return; /* the counters still hold our values */
	}
	pmu__perfctr_hw_iload(pc, st);
}

static bool overflowed(const struct pmu__perfctr *pc, uint32_t start)
{
	if (pc->model->ovf_dir == PMU_OVF_NONNEG_TO_NEG)
		return (int32_t)start < 0;
	return (int32_t)start >= 0;
}

uint32_t pmu__perfctr_identify_overflow(struct pmu__perfctr *pc,
					struct pmu__perfctr_state *st)
{
	unsigned na = pmu__cstatus_nractrs(st->cstatus);
	unsigned n = pmu__cstatus_nrctrs(st->cstatus);
	uint32_t mask = 0;

	for (unsigned i = na; i < n; i++) {
		if (!overflowed(pc, st->pmc[i].start))
			continue;
		/* Plain reload: the overshoot past the overflow is dropped. */
		st->pmc[i].start = (uint32_t)st->control.ireset[i];
		mask |= 1u << i;
	}
	pmu__perfctr_hw_rearm(pc, st, &mask);
	return mask;
}

void pmu__perfctr_ireload(struct pmu__perfctr *pc, struct pmu__perfctr_state *st)
{
	/* SMP flavour: forgetting the isuspend CPU makes iresume rewrite
	 * the counters even when the cache still names this state. */
	st->k1.isuspend_cpu = -1;
	/* The MMCR0 image has PMXE whenever there are i-mode counters, even
	 * if the control's own mmcr0 does not name it. */
	if (pc->model->arch == PMU_ARCH_PPC &&
	    pmu__cstatus_has_ictrs(st->cstatus)) {
		st->ppc_mmcr[0] |= PMU_PPC_MMCR0_PMXE;
		pc->cache.stale |= PMU_PERFCTR_STALE_MMCR0;
	}
}

uint64_t pmu__perfctr_read_tsc(struct pmu__perfctr *pc,
			       const struct pmu__perfctr_state *st)
{
	if (!pmu__cstatus_has_tsc(st->cstatus))
		return st->tsc_sum;
	return st->tsc_sum +
	       (uint32_t)(pmu__perfctr_hw_read_tsc(pc) - st->tsc_start);
}

uint64_t pmu__perfctr_read_pmc(struct pmu__perfctr *pc,
			       const struct pmu__perfctr_state *st, unsigned i)
{
	if (i >= pmu__cstatus_nrctrs(st->cstatus))
		return i < PMU_MAX_CTRS ? st->pmc[i].sum : 0;
	return st->pmc[i].sum +
	       (uint32_t)(pmu__perfctr_hw_read_ctr(pc, st, i) - st->pmc[i].start);
}
