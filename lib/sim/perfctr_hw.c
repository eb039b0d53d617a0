/* SPDX-License-Identifier: MIT */
/*
 * The register-level half of the perfctr driver: which registers each
 * architecture reads and writes, in perfctr's order, through the
 * per-CPU control-register cache.
 */
#include "sim/perfctr_hw.h"
#include "sim/sim_internal.h"
#include "sim/sim_util.h"

#define P4_ESCR_LAST 0x3E1u

static enum pmu_sim_reg_kind reg_kind(const struct pmu__perfctr *pc)
{
	switch (pc->model->arch) {
	case PMU_ARCH_PPC:
		return PMU_SIM_REG_SPR;
	case PMU_ARCH_ARM:
		return PMU_SIM_REG_CP14;
	default:
		return PMU_SIM_REG_MSR;
	}
}

static void wr(struct pmu__perfctr *pc, uint32_t addr, uint64_t v)
{
	pmu__sim_reg_write(pc->sim, reg_kind(pc), addr, v);
}

static uint64_t rd(struct pmu__perfctr *pc, uint32_t addr)
{
	uint64_t v = 0;

	pmu__sim_reg_read(pc->sim, reg_kind(pc), addr, &v);
	return v;
}

/* Write through the cache: skip the register when it already holds v. */
static void wr_cached64(struct pmu__perfctr *pc, uint32_t addr, uint64_t v,
			uint64_t *cached)
{
	if (*cached == v)
		return;
	wr(pc, addr, v);
	*cached = v;
}

static void wr_cached(struct pmu__perfctr *pc, uint32_t addr, uint32_t v,
		      uint32_t *cached)
{
	if (*cached == v)
		return;
	wr(pc, addr, v);
	*cached = v;
}

static bool is_family(const struct pmu__perfctr *pc, enum pmu_check_family f)
{
	return pc->model->check.family == f;
}

static bool ppc_has_mmcr2(const struct pmu__perfctr *pc)
{
	/* Not "== THRESHMULT": control.h reuses that name for the MMCR2 bit. */
	return pc->model->check.ppc.mmcr2 != PMU_PPC_MMCR2_MUST_BE_ZERO;
}

static void clear_p4(struct pmu__perfctr *pc)
{
	/* Addresses in the gaps answer -EINVAL and change nothing. */
	for (uint32_t a = PMU_MSR_P4_ESCR0; a <= P4_ESCR_LAST; a++)
		pmu__sim_wrmsr(pc->sim, a, 0);
	wr(pc, PMU_MSR_P4_PEBS_ENABLE, 0);
	wr(pc, PMU_MSR_P4_PEBS_MATRIX_VERT, 0);
}

static void clear_ppc(struct pmu__perfctr *pc)
{
	if (ppc_has_mmcr2(pc))
		wr(pc, PMU_SPR_MMCR2, 0);
	wr(pc, PMU_SPR_BAMR, 0);
	if (pc->model->nr_hw_ctrs > 2)
		wr(pc, PMU_SPR_MMCR1, 0);
	wr(pc, PMU_SPR_MMCR0, 0);
}

static void clear_xscale(struct pmu__perfctr *pc)
{
	if (pc->model->quirks & PMU_QUIRK_XSCALE2_BANKS) {
		wr(pc, PMU_CP14_XSC2_PMNC, 0);
		wr(pc, PMU_CP14_XSC2_INTEN, 0);
		wr(pc, PMU_CP14_XSC2_EVTSEL, 0);
	} else {
		wr(pc, PMU_CP14_XSC1_PMNC, 0);
	}
}

void pmu__perfctr_hw_clear(struct pmu__perfctr *pc)
{
	const struct pmu_hwmodel *m = pc->model;

	pmu__sim_zero(&pc->cache, sizeof(pc->cache));
	if (is_family(pc, PMU_CHECK_P5_LIKE))
		wr(pc, PMU_MSR_P5_CESR, 0);
	else if (is_family(pc, PMU_CHECK_P4))
		clear_p4(pc);
	else if (is_family(pc, PMU_CHECK_PPC))
		clear_ppc(pc);
	else if (is_family(pc, PMU_CHECK_XSCALE))
		clear_xscale(pc);
	for (unsigned hw = 0; hw < m->nr_hw_ctrs; hw++) {
		if (m->arch == PMU_ARCH_X86 && m->ctl_addr[hw] &&
		    !is_family(pc, PMU_CHECK_P5_LIKE))
			wr(pc, m->ctl_addr[hw], 0);
		if (m->ctr_addr[hw])
			wr(pc, m->ctr_addr[hw], 0);
	}
	/* The C3's idle EVNTSEL1 counts cycles, as perfctr leaves it. */
	if (is_family(pc, PMU_CHECK_VC3) && m->nr_hw_ctrs > 1) {
		wr(pc, m->ctl_addr[1], PMU_VC3_EVNTSEL1_CLEAR);
		pc->cache.ctl[1] = PMU_VC3_EVNTSEL1_CLEAR;
	}
}

uint32_t pmu__perfctr_hw_read_tsc(struct pmu__perfctr *pc)
{
	if (pc->model->tsc_kind == PMU_TSC_TSC)
		return (uint32_t)pmu__sim_rdtsc(pc->sim);
	return (uint32_t)rd(pc, pc->model->tsc_addr);
}

uint32_t pmu__perfctr_hw_read_ctr(struct pmu__perfctr *pc,
				  const struct pmu__perfctr_state *st,
				  unsigned i)
{
	uint64_t v = 0;

	if (pc->model->arch != PMU_ARCH_X86 ||
	    (pc->model->quirks & PMU_QUIRK_RDMSR_COUNTERS))
		return (uint32_t)rd(pc, pc->model->ctr_addr[st->hw[i]]);
	pmu__sim_rdpmc(pc->sim, st->pmc[i].map, &v);
	return (uint32_t)v;
}

static void write_x86(struct pmu__perfctr *pc, const struct pmu__perfctr_state *st)
{
	const struct pmu_hwmodel *m = pc->model;
	unsigned n = pmu__cstatus_nrctrs(st->cstatus);

	if (is_family(pc, PMU_CHECK_P5_LIKE)) {
		/* A CESR of 0 means no counter is on: nothing to load. */
		if (st->p5_cesr)
			wr_cached(pc, PMU_MSR_P5_CESR, st->p5_cesr,
				  &pc->cache.p5_cesr);
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		unsigned hw = st->hw[i];
		uint32_t escr = st->p4_escr_map[i];

		/* P4: the ESCR first, then the CCCR that enables it. */
		if (is_family(pc, PMU_CHECK_P4) && escr >= PMU_MSR_P4_ESCR0 &&
		    escr <= P4_ESCR_LAST)
			wr_cached(pc, escr, st->control.p4.escr[i],
				  &pc->cache.escr[escr - PMU_MSR_P4_ESCR0]);
		wr_cached64(pc, m->ctl_addr[hw], st->control.evntsel[i],
			    &pc->cache.ctl[hw]);
	}
	if (is_family(pc, PMU_CHECK_P4)) {
		wr_cached(pc, PMU_MSR_P4_PEBS_ENABLE,
			  st->control.p4.pebs_enable, &pc->cache.pebs_enable);
		wr_cached(pc, PMU_MSR_P4_PEBS_MATRIX_VERT,
			  st->control.p4.pebs_matrix_vert,
			  &pc->cache.pebs_matrix_vert);
	}
}

static void write_ppc(struct pmu__perfctr *pc, const struct pmu__perfctr_state *st)
{
	if (pc->cache.stale & PMU_PERFCTR_STALE_MMCR0) {
		pc->cache.mmcr[0] = ~st->ppc_mmcr[0];
		pc->cache.stale &= ~PMU_PERFCTR_STALE_MMCR0;
	}
	/* MMCR0 last: it may enable the PM exception. */
	if (ppc_has_mmcr2(pc))
		wr_cached(pc, PMU_SPR_MMCR2, st->ppc_mmcr[2], &pc->cache.mmcr[2]);
	if (pc->model->nr_hw_ctrs > 2)
		wr_cached(pc, PMU_SPR_MMCR1, st->ppc_mmcr[1], &pc->cache.mmcr[1]);
	wr_cached(pc, PMU_SPR_MMCR0, st->ppc_mmcr[0], &pc->cache.mmcr[0]);
}

static void write_xscale(struct pmu__perfctr *pc,
			 const struct pmu__perfctr_state *st)
{
	if (pc->model->quirks & PMU_QUIRK_XSCALE2_BANKS) {
		wr_cached(pc, PMU_CP14_XSC2_EVTSEL, st->xsc[1], &pc->cache.xsc[1]);
		wr_cached(pc, PMU_CP14_XSC2_INTEN, st->xsc[2], &pc->cache.xsc[2]);
		wr_cached(pc, PMU_CP14_XSC2_PMNC, st->xsc[0], &pc->cache.xsc[0]);
	} else {
		wr_cached(pc, PMU_CP14_XSC1_PMNC, st->xsc[0], &pc->cache.xsc[0]);
	}
}

void pmu__perfctr_hw_write_control(struct pmu__perfctr *pc,
				   const struct pmu__perfctr_state *st)
{
	if (pc->cache.id == st->k1.id) {
		/* MMCR0 may have changed on its own (74xx FCECE, TRIGGER,
		 * PMXE): reload it even though the rest is cached. */
		if (st->cstatus & PMU_CSTATUS_PPC_MMCR0_QUIRK) {
			wr(pc, PMU_SPR_MMCR0, st->ppc_mmcr[0]);
			pc->cache.mmcr[0] = st->ppc_mmcr[0];
		}
		return;
	}
	switch (pc->model->arch) {
	case PMU_ARCH_PPC:
		write_ppc(pc, st);
		break;
	case PMU_ARCH_ARM:
		write_xscale(pc, st);
		break;
	default:
		write_x86(pc, st);
		break;
	}
	pc->cache.id = st->k1.id;
}

/* PPC and XScale have no per-counter stop: freeze / disable them all. */
static void freeze_all(struct pmu__perfctr *pc)
{
	if (pc->model->arch == PMU_ARCH_PPC)
		wr_cached(pc, PMU_SPR_MMCR0, pc->cache.mmcr[0] | PMU_PPC_MMCR0_FC,
			  &pc->cache.mmcr[0]);
	else if (pc->model->quirks & PMU_QUIRK_XSCALE2_BANKS)
		wr_cached(pc, PMU_CP14_XSC2_PMNC, pc->cache.xsc[0] & ~PMU_XSC_PMNC_E,
			  &pc->cache.xsc[0]);
	else
		wr_cached(pc, PMU_CP14_XSC1_PMNC, pc->cache.xsc[0] & ~PMU_XSC_PMNC_E,
			  &pc->cache.xsc[0]);
}

void pmu__perfctr_hw_istop(struct pmu__perfctr *pc,
			   const struct pmu__perfctr_state *st)
{
	unsigned na = pmu__cstatus_nractrs(st->cstatus);
	unsigned n = pmu__cstatus_nrctrs(st->cstatus);

	if (pc->model->arch != PMU_ARCH_X86) {
		freeze_all(pc);
		return;
	}
	for (unsigned i = na; i < n; i++) {
		unsigned hw = st->hw[i];

		/* On P4 this also clears the sticky CCCR.OVF. */
		wr(pc, pc->model->ctl_addr[hw], 0);
		pc->cache.ctl[hw] = 0;
	}
}

static void iload_ppc(struct pmu__perfctr *pc, const struct pmu__perfctr_state *st)
{
	unsigned na = pmu__cstatus_nractrs(st->cstatus);
	unsigned n = pmu__cstatus_nrctrs(st->cstatus);
	uint32_t used = 0;

	freeze_all(pc);
	for (unsigned i = 0; i < n; i++)
		used |= 1u << st->hw[i];
	for (unsigned hw = 0; hw < pc->model->nr_hw_ctrs; hw++)
		if (!(used & (1u << hw)))
			wr(pc, pc->model->ctr_addr[hw], 0);
	for (unsigned i = na; i < n; i++)
		wr(pc, pc->model->ctr_addr[st->hw[i]], st->pmc[i].start);
}

void pmu__perfctr_hw_iload(struct pmu__perfctr *pc,
			   const struct pmu__perfctr_state *st)
{
	unsigned na = pmu__cstatus_nractrs(st->cstatus);
	unsigned n = pmu__cstatus_nrctrs(st->cstatus);

	if (pc->model->arch == PMU_ARCH_PPC) {
		iload_ppc(pc, st);
		return;
	}
	if (pc->model->arch == PMU_ARCH_ARM)
		freeze_all(pc);
	for (unsigned i = na; i < n; i++) {
		unsigned hw = st->hw[i];

		/* Stop the counter before loading it: no stray counts,
		 * no interrupt from a half-loaded value. */
		if (pc->model->arch == PMU_ARCH_X86 && pc->cache.ctl[hw]) {
			wr(pc, pc->model->ctl_addr[hw], 0);
			pc->cache.ctl[hw] = 0;
		}
		/* Low 32 bits = start, high bits all ones, whatever the
		 * sign of start (an overflow whose interrupt was lost
		 * leaves it non-negative). */
		wr(pc, pc->model->ctr_addr[hw],
		   0xFFFFFFFF00000000ull | st->pmc[i].start);
	}
}

static void xscale_clear_flags(struct pmu__perfctr *pc, uint32_t hwmask)
{
	if (pc->model->quirks & PMU_QUIRK_XSCALE2_BANKS)
		wr(pc, PMU_CP14_XSC2_FLAG, hwmask << 1);
	else
		wr(pc, PMU_CP14_XSC1_PMNC, pc->cache.xsc[0] | (hwmask << 8));
}

void pmu__perfctr_hw_rearm(struct pmu__perfctr *pc,
			   const struct pmu__perfctr_state *st, uint32_t *mask)
{
	const struct pmu_hwmodel *m = pc->model;
	uint32_t hwmask = 0;

	if (m->arch == PMU_ARCH_X86 && pmu__sim_lvtpc_automask(pc->sim))
		pmu__sim_reg_write(pc->sim, PMU_SIM_REG_APIC, PMU_SIM_APIC_LVTPC,
				   PMU_SIM_PERFCTR_VECTOR);
	if (m->arch == PMU_ARCH_PPC && !*mask &&
	    (st->ppc_mmcr[0] & PMU_PPC_MMCR0_TBEE))
		*mask = 1u << 8;
	if (m->arch != PMU_ARCH_ARM)
		return;
	for (uint32_t b = *mask; b; b &= b - 1)
		hwmask |= 1u << st->hw[pmu__sim_ctz(b)];
	if (hwmask)
		xscale_clear_flags(pc, hwmask); /* write one to clear */
}

void pmu__perfctr_hw_save_mmcr0(struct pmu__perfctr *pc,
				struct pmu__perfctr_state *st)
{
	uint32_t v;

	if (!(st->cstatus & PMU_CSTATUS_PPC_MMCR0_QUIRK))
		return;
	v = (uint32_t)rd(pc, PMU_SPR_MMCR0);
	st->ppc_mmcr[0] = v;
	wr(pc, PMU_SPR_MMCR0, v | PMU_PPC_MMCR0_FC);
	pc->cache.mmcr[0] = v | PMU_PPC_MMCR0_FC;
}
