/* SPDX-License-Identifier: MIT */
/*
 * Register access: wrmsr/rdmsr, mtspr/mfspr, the local-APIC LVTPC and
 * RDPMC.  Control writes re-decode the configuration; counter writes
 * follow each model's width and sign-extension rules.
 */
#include "sim/sim.h"
#include "sim/sim_internal.h"
#include "hwmodel/control.h"

#define P4_ESCR_LAST 0x3E1u

/* Index of the hardware counter whose data (ctr) or control (ctl)
 * register is `addr`, or -1. */
static int find_reg(const struct pmu__sim *s, uint32_t addr, bool ctl)
{
	const uint32_t *tab = ctl ? s->model->ctl_addr : s->model->ctr_addr;

	for (unsigned hw = 0; hw < s->nr_hw; hw++)
		if (tab[hw] == addr && addr != 0)
			return (int)hw;
	return -1;
}

static bool p4_escr_exists(const struct pmu__sim *s, uint32_t addr)
{
	for (unsigned hw = 0; hw < s->nr_hw; hw++)
		for (unsigned sel = 0; sel < 8; sel++)
			if (pmu__sim_p4_escr_addr(s, hw, sel) == addr)
				return true;
	return false;
}

void pmu__sim_write_ctr(struct pmu__sim *s, unsigned hw, uint64_t v)
{
	/* P6 writes only the low 32 bits and sign-extends bit 31. */
	if (s->quirks & PMU_QUIRK_P6_WRITE_SIGN_EXTEND_31)
		v = (uint64_t)(int64_t)(int32_t)(uint32_t)v;
	s->ctr[hw] = v & s->wmask;
	s->stats.ctr_writes++;
}

static int p5_write(struct pmu__sim *s, uint32_t addr, uint64_t v)
{
	if (addr == PMU_MSR_P5_CESR) {
		s->p5_cesr = (uint32_t)v;
		s->ctl[0] = v & 0xFFFFu;
		s->ctl[1] = (v >> 16) & 0xFFFFu;
		s->stats.ctl_writes++;
		pmu__sim_reconfigure(s);
		return 0;
	}
	if (addr == PMU_MSR_P5_CTR0 || addr == PMU_MSR_P5_CTR0 + 1) {
		pmu__sim_write_ctr(s, addr - PMU_MSR_P5_CTR0, v);
		return 0;
	}
	return -PMU_EINVAL;
}

static int p4_write_special(struct pmu__sim *s, uint32_t addr, uint64_t v)
{
	if (addr >= PMU_MSR_P4_ESCR0 && addr <= P4_ESCR_LAST &&
	    p4_escr_exists(s, addr))
		s->p4_escr[addr - PMU_MSR_P4_ESCR0] = (uint32_t)v;
	else if (addr == PMU_MSR_P4_PEBS_ENABLE)
		s->p4_pebs_enable = (uint32_t)v;
	else if (addr == PMU_MSR_P4_PEBS_MATRIX_VERT)
		s->p4_pebs_matrix_vert = (uint32_t)v;
	else if (addr == PMU_MSR_P4_MISC_ENABLE)
		s->p4_misc_enable = (uint32_t)v;
	else
		return -PMU_EINVAL;
	s->stats.ctl_writes++;
	pmu__sim_reconfigure(s);
	return 0;
}

static int msr_write(struct pmu__sim *s, uint32_t addr, uint64_t v)
{
	int hw;

	if (addr == PMU_MSR_TSC) {
		s->tsc = v;
		return 0;
	}
	if (s->model->check.family == PMU_CHECK_P5_LIKE)
		return p5_write(s, addr, v);
	hw = find_reg(s, addr, true);
	if (hw >= 0) {
		s->ctl[hw] = v;
		s->stats.ctl_writes++;
		pmu__sim_reconfigure(s);
		return 0;
	}
	hw = find_reg(s, addr, false);
	if (hw >= 0) {
		pmu__sim_write_ctr(s, (unsigned)hw, v);
		return 0;
	}
	if (s->model->check.family == PMU_CHECK_P4)
		return p4_write_special(s, addr, v);
	return -PMU_EINVAL;
}

static int msr_read(struct pmu__sim *s, uint32_t addr, uint64_t *v)
{
	int hw;

	if (addr == PMU_MSR_TSC) {
		*v = s->tsc;
		return 0;
	}
	if (s->model->check.family == PMU_CHECK_P5_LIKE) {
		if (addr == PMU_MSR_P5_CESR)
			*v = s->p5_cesr;
		else if (addr == PMU_MSR_P5_CTR0 || addr == PMU_MSR_P5_CTR0 + 1)
			*v = s->ctr[addr - PMU_MSR_P5_CTR0];
		else
			return -PMU_EINVAL;
		return 0;
	}
	if ((hw = find_reg(s, addr, true)) >= 0) {
		*v = s->ctl[hw];
	} else if ((hw = find_reg(s, addr, false)) >= 0) {
		/* VIA C3 PERFCTR0 is the time-stamp counter. */
		if (hw == 0 && (s->quirks & PMU_QUIRK_VC3_TSC_ALIAS))
			*v = s->tsc & s->wmask;
		else
			*v = s->ctr[hw];
	} else if (s->model->check.family != PMU_CHECK_P4) {
		return -PMU_EINVAL;
	} else if (addr >= PMU_MSR_P4_ESCR0 && addr <= P4_ESCR_LAST &&
		   p4_escr_exists(s, addr)) {
		*v = s->p4_escr[addr - PMU_MSR_P4_ESCR0];
	} else if (addr == PMU_MSR_P4_PEBS_ENABLE) {
		*v = s->p4_pebs_enable;
	} else if (addr == PMU_MSR_P4_PEBS_MATRIX_VERT) {
		*v = s->p4_pebs_matrix_vert;
	} else if (addr == PMU_MSR_P4_MISC_ENABLE) {
		*v = s->p4_misc_enable;
	} else {
		return -PMU_EINVAL;
	}
	return 0;
}

/* MMCR2 exists on the 74xx only. */
static bool has_mmcr2(const struct pmu__sim *s)
{
	/* Not "== THRESHMULT": control.h reuses that name for the MMCR2 bit. */
	return s->model->check.ppc.mmcr2 != PMU_PPC_MMCR2_MUST_BE_ZERO;
}

static int spr_write(struct pmu__sim *s, uint32_t addr, uint64_t v)
{
	uint32_t w = (uint32_t)v;
	int hw;

	if (addr == PMU_SPR_TBL) {
		s->tsc = (s->tsc & ~0xFFFFFFFFull) | w;
		return 0;
	}
	hw = find_reg(s, addr, false);
	if (hw >= 0) {
		pmu__sim_write_ctr(s, (unsigned)hw, w);
		return 0;
	}
	if (addr == PMU_SPR_MMCR0)
		s->mmcr[0] = w;
	else if (addr == PMU_SPR_MMCR1 && s->nr_hw > 2)
		s->mmcr[1] = w;
	else if (addr == PMU_SPR_MMCR2 && has_mmcr2(s))
		s->mmcr[2] = w;
	else if (addr == PMU_SPR_BAMR)
		s->ppc_bamr = w;
	else if (addr == PMU_SPR_SIA)
		s->ppc_sia = w;
	else
		return -PMU_EINVAL;
	s->stats.ctl_writes++;
	pmu__sim_reconfigure(s);
	return 0;
}

static int spr_read(struct pmu__sim *s, uint32_t addr, uint64_t *v)
{
	int hw = find_reg(s, addr, false);

	if (hw >= 0)
		*v = s->ctr[hw];
	else if (addr == PMU_SPR_TBL)
		*v = s->tsc & 0xFFFFFFFFu;
	else if (addr == PMU_SPR_MMCR0)
		*v = s->mmcr[0];
	else if (addr == PMU_SPR_MMCR1 && s->nr_hw > 2)
		*v = s->mmcr[1];
	else if (addr == PMU_SPR_MMCR2 && has_mmcr2(s))
		*v = s->mmcr[2];
	else if (addr == PMU_SPR_BAMR)
		*v = s->ppc_bamr;
	else if (addr == PMU_SPR_SIA)
		*v = s->ppc_sia;
	else
		return -PMU_EINVAL;
	return 0;
}

static int ext_write(struct pmu__sim *s, enum pmu_sim_reg_kind kind,
		     uint32_t addr, uint64_t v)
{
	for (unsigned i = 0; i < PMU_SIM_NEXT; i++) {
		const struct pmu__sim_ext_ops *x = s->ext[i];

		if (x && x->reg_write && x->reg_write(s, s->ext_state[i], kind,
						      addr, v) == 1)
			return 1;
	}
	return 0;
}

static int ext_read(struct pmu__sim *s, enum pmu_sim_reg_kind kind,
		    uint32_t addr, uint64_t *v)
{
	for (unsigned i = 0; i < PMU_SIM_NEXT; i++) {
		const struct pmu__sim_ext_ops *x = s->ext[i];

		if (x && x->reg_read &&
		    x->reg_read(s, s->ext_state[i], kind, addr, v) == 1)
			return 1;
	}
	return 0;
}

static enum pmu_arch kind_arch(enum pmu_sim_reg_kind kind)
{
	switch (kind) {
	case PMU_SIM_REG_MSR:
	case PMU_SIM_REG_APIC:
		return PMU_ARCH_X86;
	case PMU_SIM_REG_SPR:
		return PMU_ARCH_PPC;
	default:
		return PMU_ARCH_ARM;
	}
}

int pmu__sim_reg_write(struct pmu__sim *s, enum pmu_sim_reg_kind kind,
		       uint32_t addr, uint64_t v)
{
	if (kind_arch(kind) != s->model->arch)
		return -PMU_ENOSYS;
	if (s->ext_mask && ext_write(s, kind, addr, v))
		return 0;
	switch (kind) {
	case PMU_SIM_REG_MSR:
		return msr_write(s, addr, v);
	case PMU_SIM_REG_SPR:
		return spr_write(s, addr, v);
	case PMU_SIM_REG_APIC:
		if (addr != PMU_SIM_APIC_LVTPC)
			return -PMU_EINVAL;
		s->lvtpc = (uint32_t)v;
		return 0;
	default: /* CP14 is the XScale extension's */
		return -PMU_ENOSYS;
	}
}

int pmu__sim_reg_read(struct pmu__sim *s, enum pmu_sim_reg_kind kind,
		      uint32_t addr, uint64_t *v)
{
	if (kind_arch(kind) != s->model->arch)
		return -PMU_ENOSYS;
	s->stats.reg_reads++;
	if (s->ext_mask && ext_read(s, kind, addr, v))
		return 0;
	switch (kind) {
	case PMU_SIM_REG_MSR:
		return msr_read(s, addr, v);
	case PMU_SIM_REG_SPR:
		return spr_read(s, addr, v);
	case PMU_SIM_REG_APIC:
		if (addr != PMU_SIM_APIC_LVTPC)
			return -PMU_EINVAL;
		*v = s->lvtpc;
		return 0;
	default:
		return -PMU_ENOSYS;
	}
}

int pmu__sim_rdpmc(struct pmu__sim *s, uint32_t idx, uint64_t *v)
{
	bool fast = false;

	if (s->model->arch == PMU_ARCH_X86) {
		/* P5 without MMX has no RDPMC instruction (#UD). */
		if (s->quirks & PMU_QUIRK_RDMSR_COUNTERS)
			return -PMU_ENOSYS;
		if (s->model->check.family == PMU_CHECK_P4) {
			fast = idx & PMU_P4_FAST_RDPMC;
			idx &= ~PMU_P4_FAST_RDPMC;
		}
	}
	if (idx >= s->nr_hw)
		return -PMU_EINVAL;
	s->stats.reg_reads++;
	if (idx == 0 && (s->quirks & PMU_QUIRK_VC3_TSC_ALIAS))
		*v = s->tsc & s->wmask;
	else
		*v = s->ctr[idx];
	if (fast)
		*v &= 0xFFFFFFFFu;
	return 0;
}
