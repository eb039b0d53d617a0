/* SPDX-License-Identifier: MIT */
/*
 * The sim driver as perfmon2's PMU (drivers/pfm_hw.h): the engine's
 * PMC and PMD numbers are the model's pmu_desc registers, written
 * through the simulator's register interface (MSR, SPR, CP14).  What the
 * model needs besides the user's values is done here: the x86 LVTPC
 * unmasked (and unmasked again where the CPU masks it on delivery),
 * PowerPC's PMXE and counter-interrupt enables, XScale's per-counter
 * interrupt enables and overflow flags, the PEBS buffer, IBS re-arming.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/pfm_hw.h"
#include "drivers/sim_drv.h"
#include "hwmodel/control.h"
#include "sim/ibs.h"
#include "sim/pebs.h"
#include "sim/xscale.h"
#include "util/error.h"

struct sim_pfm {
	struct pmu__pfm_hw hw;     /* first */
	struct sim_drv *d;
	struct pmu__pfm_hw_cb cb;
	enum pmu_sim_reg_kind space;
	uint64_t irq_pmds[PMU__PFM_BV];
	uint64_t pmc_img[PMU_MODEL_MAX_PMCS]; /* last written, as written */
	/* PMD i is hardware counter pmd_hw[i] of the core (x86, PowerPC:
	 * read and written directly), -1 otherwise */
	int pmd_hw[PMU_MODEL_MAX_PMDS];
	int hw_pmd[PMU_MAX_CTRS];     /* and back */
	bool pebs_irq;             /* the last interrupt was PEBS's */
	int cpu;                   /* where the feeding thread ran */
	bool ibs_irq;
};

static struct sim_pfm *pf_of(struct pmu__pfm_hw *h)
{
	return (struct sim_pfm *)h;
}

static const struct sim_pfm *cpf_of(const struct pmu__pfm_hw *h)
{
	return (const struct sim_pfm *)h;
}

static struct pmu__sim *core(struct sim_pfm *p)
{
	return &p->d->s->sim;
}

static bool bv_has(const uint64_t *bv, unsigned i)
{
	return bv[i / 64] >> (i % 64) & 1;
}

static void pf_set_callbacks(struct pmu__pfm_hw *h,
			     const struct pmu__pfm_hw_cb *cb)
{
	pf_of(h)->cb = *cb;
}

static unsigned pmd_by_addr(const struct pmu_hwmodel *m, uint32_t addr)
{
	for (unsigned i = 0; i < m->nr_pmds; i++)
		if (m->pmds[i].addr == addr)
			return i;
	return UINT32_MAX;
}

/* PowerPC MMCR0 and XScale interrupt enables for the counters that
 * must interrupt; everything else is the user's value. */
static uint64_t with_irq_bits(const struct sim_pfm *p, unsigned i, uint64_t v)
{
	const struct pmu_hwmodel *m = p->hw.model;
	uint32_t addr = m->pmcs[i].addr;
	uint32_t bits = 0;

	if (m->arch == PMU_ARCH_PPC && addr == PMU_SPR_MMCR0) {
		for (unsigned k = 0; k < m->nr_pmds; k++) {
			if (!bv_has(p->irq_pmds, k))
				continue;
			bits |= PMU_PPC_MMCR0_PMXE;
			bits |= m->pmds[k].addr == PMU_SPR_PMC1
				? PMU_PPC_MMCR0_PMC1CE : PMU_PPC_MMCR0_PMCJCE;
		}
	} else if (m->arch == PMU_ARCH_ARM &&
		   (addr == PMU_CP14_XSC1_PMNC || addr == PMU_CP14_XSC2_INTEN)) {
		bool gen1 = addr == PMU_CP14_XSC1_PMNC;

		for (unsigned k = 0; k < m->nr_pmds; k++) {
			if (!bv_has(p->irq_pmds, k))
				continue;
			if (!gen1)
				bits |= k == 0 ? PMU_XSC2_BIT_CCNT
					       : PMU_XSC2_BIT_PMN(k - 1);
			else
				bits |= k == 0 ? PMU_XSC_PMNC_INTEN_CCNT
					       : k == 1 ? PMU_XSC_PMNC_INTEN_PMN0
							: PMU_XSC_PMNC_INTEN_PMN1;
		}
		/* never clear a flag by rewriting the control, nor zero
		 * the counters (P, C): their values are the engine's */
		if (gen1)
			v &= ~(uint64_t)PMU_XSC_PMNC_OF_ALL;
	}
	if (m->arch == PMU_ARCH_ARM &&
	    (addr == PMU_CP14_XSC1_PMNC || addr == PMU_CP14_XSC2_PMNC))
		v &= ~(uint64_t)(PMU_XSC_PMNC_P | PMU_XSC_PMNC_C);
	return v | bits;
}

static void pf_write_pmc(struct pmu__pfm_hw *h, unsigned i, uint64_t v)
{
	struct sim_pfm *p = pf_of(h);

	p->pmc_img[i] = v;
	(void)pmu__sim_reg_write(core(p), p->space, h->model->pmcs[i].addr,
				 with_irq_bits(p, i, v));
}

static void pf_write_pmd(struct pmu__pfm_hw *h, unsigned i, uint64_t v)
{
	struct sim_pfm *p = pf_of(h);
	const struct pmu_reg_desc *r = &h->model->pmds[i];

	if (r->flags & PMU_REGF_COUNTER)
		v &= ~r->rsvd_msk;
	if (p->pmd_hw[i] >= 0)
		pmu__sim_write_ctr(core(p), (unsigned)p->pmd_hw[i], v);
	else
		(void)pmu__sim_reg_write(core(p), p->space, r->addr, v);
}

static uint64_t pf_read_pmd(struct pmu__pfm_hw *h, unsigned i)
{
	struct sim_pfm *p = pf_of(h);
	uint64_t v = 0;

	if (p->pmd_hw[i] >= 0)
		return core(p)->ctr[p->pmd_hw[i]];
	(void)pmu__sim_reg_read(core(p), p->space, h->model->pmds[i].addr, &v);
	return v;
}

/* Monitoring stopped: the family's enable bits.  WinChip and VIA C3
 * counters cannot be stopped; the engine saves them at stop instead. */
static uint64_t pf_stopped(const struct pmu__pfm_hw *h, unsigned i, uint64_t v)
{
	const struct pmu_hwmodel *m = h->model;
	uint32_t addr = m->pmcs[i].addr;

	switch (m->check.family) {
	case PMU_CHECK_P6_LIKE:
		if (addr == PMU_MSR_IBS_FETCH_CTL)
			return v & ~PMU_IBS_FETCH_EN;
		if (addr == PMU_MSR_IBS_OP_CTL)
			return v & ~PMU_IBS_OP_EN;
		return v & ~(uint64_t)PMU_P6_EVNTSEL_ENABLE;
	case PMU_CHECK_P4:
		if (addr >= PMU_MSR_P4_CCCR0 && addr < PMU_MSR_P4_CCCR0 + 18)
			return v & ~(uint64_t)PMU_P4_CCCR_ENABLE;
		if (addr == PMU_MSR_P4_PEBS_ENABLE)
			return v & ~(uint64_t)PMU_P4_PEBS_ENABLE_BIT;
		return v;
	case PMU_CHECK_P5_LIKE:
		return v & ~(((uint64_t)PMU_P5_CESR_CPL << 16) |
			     PMU_P5_CESR_CPL);
	case PMU_CHECK_PPC:
		return addr == PMU_SPR_MMCR0 ? v | PMU_PPC_MMCR0_FC : v;
	case PMU_CHECK_XSCALE:
		return addr == PMU_CP14_XSC1_PMNC || addr == PMU_CP14_XSC2_PMNC
		       ? v & ~(uint64_t)(PMU_XSC_PMNC_E | PMU_XSC_PMNC_P |
					 PMU_XSC_PMNC_C) : v;
	default:
		return v;
	}
}

static void pf_irq_enable(struct pmu__pfm_hw *h, const uint64_t *pmds)
{
	struct sim_pfm *p = pf_of(h);

	memcpy(p->irq_pmds, pmds, sizeof(p->irq_pmds));
}

static void xsc_pending(struct sim_pfm *p, const uint64_t *watch,
			uint64_t *bv)
{
	uint32_t fl = pmu__xscale_pending(&p->d->s->xs);
	uint64_t pmnc = 0;

	if (!fl)
		return;
	for (unsigned k = 0; k < 5; k++)
		if (fl >> k & 1 && k < p->hw.model->nr_pmds && bv_has(watch, k))
			bv[k / 64] |= UINT64_C(1) << (k % 64);
	if (p->d->s->xs.gen == 2) {
		pmu__sim_reg_write(core(p), PMU_SIM_REG_CP14,
				   PMU_CP14_XSC2_FLAG, fl);
		return;
	}
	/* generation 1: the flags are PMNC bits, written back to clear */
	pmu__sim_reg_read(core(p), PMU_SIM_REG_CP14, PMU_CP14_XSC1_PMNC, &pmnc);
	pmnc &= ~(uint64_t)(PMU_XSC_PMNC_P | PMU_XSC_PMNC_C);
	pmu__sim_reg_write(core(p), PMU_SIM_REG_CP14, PMU_CP14_XSC1_PMNC,
			   pmnc | PMU_XSC_PMNC_OF_ALL);
}

static void mark(const struct pmu_hwmodel *m, uint32_t addr,
		 const uint64_t *watch, uint64_t *bv)
{
	unsigned i = pmd_by_addr(m, addr);

	if (i < m->nr_pmds && bv_has(watch, i))
		bv[i / 64] |= UINT64_C(1) << (i % 64);
}

/* AMD IBS: a unit with its Val bit set has a sample. */
static void ibs_pending(struct sim_pfm *p, const uint64_t *watch,
			uint64_t *bv)
{
	uint64_t v = 0;

	pmu__sim_rdmsr(core(p), PMU_MSR_IBS_FETCH_CTL, &v);
	if (v & PMU_IBS_FETCH_VAL)
		mark(p->hw.model, PMU_MSR_IBS_FETCH_CTL, watch, bv);
	pmu__sim_rdmsr(core(p), PMU_MSR_IBS_OP_CTL, &v);
	if (v & PMU_IBS_OP_VAL)
		mark(p->hw.model, PMU_MSR_IBS_OP_CTL, watch, bv);
}

static void pf_pending(struct pmu__pfm_hw *h, const uint64_t *watch,
		       const uint64_t *emul, unsigned width, uint64_t *bv)
{
	struct sim_pfm *p = pf_of(h);
	const struct pmu_hwmodel *m = h->model;

	if (m->arch == PMU_ARCH_ARM) {
		xsc_pending(p, watch, bv);
		return;
	}
	if (m->quirks & PMU_QUIRK_HAS_IBS)
		ibs_pending(p, watch, bv);
	if (p->pebs_irq) {
		/* the buffer reached its threshold: the PEBS counter's
		 * "overflow" (perfmon2's rule for PMD 8) */
		p->pebs_irq = false;
		if (pmu__pebs_fmt_full(&p->d->s->pebs.buf))
			mark(m, PMU_MSR_P4_COUNTER0 + PMU_P4_PEBS_HW_CTR,
			     watch, bv);
	}
	/* the core flags every counter that wrapped at its full width:
	 * for an emulated counter that is the marker bit W flipping (x86:
	 * bits W and up were all set; PowerPC: bit 31 becoming 1) */
	for (uint32_t f = core(p)->ovf_flags; f; f &= f - 1) {
		int i = p->hw_pmd[__builtin_ctz(f)];

		if (i >= 0 && bv_has(emul, (unsigned)i))
			bv[i / 64] |= UINT64_C(1) << (i % 64);
	}
	core(p)->ovf_flags = 0;
	(void)width;
}

/* IBS: writing the control back with Val clear restarts the unit. */
static void pf_rearm(struct pmu__pfm_hw *h, unsigned pmd)
{
	struct sim_pfm *p = pf_of(h);
	uint32_t addr = h->model->pmds[pmd].addr;
	uint64_t v = 0;

	if (addr == PMU_MSR_IBS_FETCH_CTL) {
		pmu__sim_rdmsr(core(p), addr, &v);
		v &= ~(PMU_IBS_FETCH_VAL | PMU_IBS_FETCH_CNT |
		       PMU_IBS_FETCH_STATUS | PMU_IBS_FETCH_PHY_VALID);
	} else if (addr == PMU_MSR_IBS_OP_CTL) {
		pmu__sim_rdmsr(core(p), addr, &v);
		v &= ~(PMU_IBS_OP_VAL | PMU_IBS_OP_CURCNT);
	} else {
		return;
	}
	pmu__sim_wrmsr(core(p), addr, v);
}

static void pf_irq_done(struct pmu__pfm_hw *h)
{
	struct sim_pfm *p = pf_of(h);
	const struct pmu_hwmodel *m = h->model;

	if (m->arch == PMU_ARCH_X86) {
		/* where the CPU masked LVTPC on delivery */
		if (m->quirks & PMU_QUIRK_LVTPC_AUTOMASK)
			pmu__sim_reg_write(core(p), PMU_SIM_REG_APIC,
					   PMU_SIM_APIC_LVTPC,
					   PMU_SIM_PERFCTR_VECTOR);
		return;
	}
	if (m->arch == PMU_ARCH_PPC && m->nr_pmcs &&
	    m->pmcs[0].addr == PMU_SPR_MMCR0) {
		uint64_t cur = 0;

		/* PMXE is cleared by the exception; FC stays as the engine
		 * last wrote it */
		pmu__sim_reg_read(core(p), PMU_SIM_REG_SPR, PMU_SPR_MMCR0, &cur);
		pmu__sim_reg_write(core(p), PMU_SIM_REG_SPR, PMU_SPR_MMCR0,
				   with_irq_bits(p, 0, p->pmc_img[0]) |
				   (cur & PMU_PPC_MMCR0_FC));
	}
}

static uint64_t pf_now(const struct pmu__pfm_hw *h)
{
	return cpf_of(h)->d->s->cycles;
}

static int pf_cpu(const struct pmu__pfm_hw *h)
{
	return cpf_of(h)->cpu;
}

static int pf_pebs_buffer(struct pmu__pfm_hw *h, void *mem, size_t size,
			  bool mode64, struct pmu_error *err)
{
	struct sim_pfm *p = pf_of(h);
	struct pmu_sim *s = p->d->s;

	if (!s->pebs_mem)
		return pmu__error(err, -ENOSYS, PMU_ERR_NOT_SUPPORTED,
				  h->model->name, -1, "the simulated %s has no "
				  "PEBS (a Pentium 4 without HyperThreading "
				  "has)", h->model->name);
	s->pebs.buf.mem = mem;
	s->pebs.buf.size = size;
	s->pebs.buf.base = PMU__PFM_PEBS_BASE;
	s->pebs.buf.mode64 = mode64;
	pmu__sim_wrmsr(&s->sim, PMU_MSR_DS_AREA,
		       pmu__pebs_fmt_ds_addr(&s->pebs.buf));
	return 0;
}

/* ---- the simulated program ---- */

static void on_irq(struct pmu__sim *sim, void *arg, enum pmu_sim_irq src,
		   uint64_t pc)
{
	struct sim_pfm *p = arg;

	(void)sim;
	if (src == PMU_SIM_IRQ_PEBS)
		p->pebs_irq = true;
	if (p->cb.irq)
		p->cb.irq(p->cb.arg, pc);
	pf_irq_done(&p->hw);
	/* the engine ended the feed while it waited in the interrupt:
	 * the burst stops at this event */
	if (p->cb.cancelled && p->cb.cancelled(p->cb.arg))
		core(p)->halted = true;
}

static void on_fed(void *arg, uint64_t n)
{
	struct sim_pfm *p = arg;

	(void)n;
	if (p->cb.tick)
		p->cb.tick(p->cb.arg);
}

static uint64_t on_limit(void *arg)
{
	struct sim_pfm *p = arg;

	return p->cb.deadline ? p->cb.deadline(p->cb.arg) : UINT64_MAX;
}

static bool on_cancel(void *arg)
{
	struct sim_pfm *p = arg;

	return p->cb.cancelled && p->cb.cancelled(p->cb.arg);
}

static int refuse_suspend(void *arg)
{
	(void)arg;
	return -EOPNOTSUPP;
}

static int pf_feed(struct pmu__pfm_hw *h, const char *text, size_t len,
		   struct pmu_error *err)
{
	struct sim_pfm *p = pf_of(h);
	const struct pmu__sim_hooks hk = {
		.suspend = refuse_suspend, .resume = refuse_suspend,
		.fed = on_fed, .limit = on_limit, .cancel = on_cancel,
		.arg = p,
	};
	int c = sched_getcpu();

	/* the CPU the simulated program runs on: this thread's, as it
	 * starts the piece (a thread may migrate between pieces) */
	p->cpu = c < 0 ? 0 : c;
	return pmu__sim_exec(p->d->s, text, len, &hk, err);
}

static const struct pmu__pfm_hw_ops sim_pfm_ops = {
	.set_callbacks = pf_set_callbacks,
	.write_pmc = pf_write_pmc,
	.write_pmd = pf_write_pmd,
	.read_pmd = pf_read_pmd,
	.stopped = pf_stopped,
	.irq_enable = pf_irq_enable,
	.pending = pf_pending,
	.rearm = pf_rearm,
	.irq_done = pf_irq_done,
	.now = pf_now,
	.cpu = pf_cpu,
	.pebs_buffer = pf_pebs_buffer,
	.feed = pf_feed,
};

static enum pmu_sim_reg_kind space_of(const struct pmu_hwmodel *m)
{
	switch (m->arch) {
	case PMU_ARCH_PPC:
		return PMU_SIM_REG_SPR;
	case PMU_ARCH_ARM:
		return PMU_SIM_REG_CP14;
	default:
		return PMU_SIM_REG_MSR;
	}
}

/* Which PMDs are plain core counters (x86 and PowerPC; XScale's go
 * through its extension's registers). */
static void map_counters(struct sim_pfm *p)
{
	const struct pmu_hwmodel *m = p->hw.model;

	for (unsigned k = 0; k < PMU_MAX_CTRS; k++)
		p->hw_pmd[k] = -1;
	for (unsigned i = 0; i < PMU_MODEL_MAX_PMDS; i++) {
		p->pmd_hw[i] = -1;
		if (i >= m->nr_pmds || m->arch == PMU_ARCH_ARM ||
		    !(m->pmds[i].flags & PMU_REGF_COUNTER))
			continue;
		for (unsigned k = 0; k < m->nr_hw_ctrs; k++)
			if (m->ctr_addr[k] == m->pmds[i].addr) {
				p->pmd_hw[i] = (int)k;
				p->hw_pmd[k] = (int)i;
			}
	}
}

struct pmu__pfm_hw *pmu__sim_pfm_hw(struct pmu__drv *dd,
				    struct pmu_error *err)
{
	struct sim_drv *d = (struct sim_drv *)dd;
	struct sim_pfm *p = d->pfm;

	if (p)
		return &p->hw;
	if (d->is_open) {
		pmu__error(err, -EBUSY, PMU_ERR_USAGE, NULL, -1, "the "
			   "simulated %s has events open through the driver",
			   d->m->name);
		return NULL;
	}
	if (!(p = calloc(1, sizeof(*p)))) {
		pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
			   "out of memory");
		return NULL;
	}
	p->hw = (struct pmu__pfm_hw){ &sim_pfm_ops, d->m };
	p->d = d;
	p->space = space_of(d->m);
	map_counters(p);
	d->pfm = p;
	/* the engine takes the interrupt from perfctr's handler */
	pmu__sim_set_irq(&d->s->sim, on_irq, p);
	if (d->m->arch == PMU_ARCH_X86)
		pmu__sim_reg_write(&d->s->sim, PMU_SIM_REG_APIC,
				   PMU_SIM_APIC_LVTPC, PMU_SIM_PERFCTR_VECTOR);
	return &p->hw;
}

void pmu__sim_pfm_put(struct pmu__drv *dd)
{
	struct sim_drv *d = (struct sim_drv *)dd;
	struct pmu_sim *fresh;

	if (!d->pfm)
		return;
	/* a new simulated CPU: registers, extensions and interrupt as the
	 * driver had them before the context took it */
	fresh = pmu_sim_open(d->m, NULL);
	if (fresh) {
		pmu_sim_close(d->s);
		d->s = fresh;
		if (d->xsc)
			pmu__xsc_attach(d);
	}
	free(d->pfm);
	d->pfm = NULL;
}
