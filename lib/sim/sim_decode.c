/* SPDX-License-Identifier: MIT */
/*
 * Decoding of control registers into per-counter configurations and the
 * event dispatch hash.  Runs on every control-register write, never on
 * the event path, so clarity wins over speed here.
 */
#include "sim/sim.h"
#include "sim/sim_internal.h"
#include "sim/sim_util.h"
#include "hwmodel/control.h"

/* Context bits (index = kernel | pmm << 1) for "count in user" / "kernel". */
#define CTX_USER   0x5u /* contexts 0 and 2 */
#define CTX_KERNEL 0xAu /* contexts 1 and 3 */
#define CTX_ALL    0xFu

static uint8_t priv_ctx(bool user, bool kernel)
{
	return (uint8_t)((user ? CTX_USER : 0) | (kernel ? CTX_KERNEL : 0));
}

static void cfg_set(struct pmu__sim_cfg *c, uint32_t key, uint32_t umask,
		    uint8_t ctx, uint8_t flags)
{
	c->key = key;
	c->umask = umask;
	c->ctx = ctx;
	c->flags = (uint8_t)(flags | PMU_SIM_CFG_ON);
}

/* P5, MII, WinChip: two 16-bit halves of the CESR. */
static void decode_p5(struct pmu__sim *s)
{
	const struct pmu_hwmodel *m = s->model;

	for (unsigned hw = 0; hw < s->nr_hw && hw < 2; hw++) {
		uint32_t half = (uint32_t)s->ctl[hw];
		uint32_t ev;
		uint8_t ctx;

		if (!m->check.p5.cpl_check) {
			/* WinChip counters cannot be stopped: they always
			 * count the selected event, in every mode. */
			cfg_set(&s->cfg[hw], half & 0xFFu, 0, CTX_ALL, 0);
			continue;
		}
		ev = half & 0x3Fu;
		if (m->check.p5.allowed_mask & 0x0400u) /* MII 7th event bit */
			ev |= ((half >> 10) & 1u) << 6;
		/* CPL bit 6: CPL 0-2 (kernel), bit 7: CPL 3 (user). */
		ctx = priv_ctx(half & 0x80u, half & 0x40u);
		if (ctx)
			cfg_set(&s->cfg[hw], ev, 0, ctx, 0);
	}
}

static bool is_k7(const struct pmu__sim *s)
{
	return s->model->check.p6.k7_enable;
}

/* P6 family and K7/K8/fam10h EVNTSELs. */
static void decode_p6(struct pmu__sim *s)
{
	bool global = s->quirks & PMU_QUIRK_P6_GLOBAL_ENABLE_EVNTSEL0;
	uint32_t cyc = is_k7(s) ? PMU_SIM_K7_CYCLES : PMU_SIM_P6_CYCLES;

	for (unsigned hw = 0; hw < s->nr_hw; hw++) {
		uint64_t c = s->ctl[hw];
		uint64_t en = global ? s->ctl[0] : c;
		uint32_t key = (uint32_t)(c & 0xFFu);
		uint8_t ctx, fl = 0;

		if (!(en & PMU_P6_EVNTSEL_ENABLE))
			continue;
		if (is_k7(s))
			key |= (uint32_t)((c >> 32) & 0xFu) << 8;
		ctx = priv_ctx(c & 0x10000u, c & 0x20000u);
		if (c & PMU_P6_EVNTSEL_INT)
			fl |= PMU_SIM_CFG_INT;
		if (key == cyc)
			fl |= PMU_SIM_CFG_CYCLES;
		if (ctx)
			cfg_set(&s->cfg[hw], key, (uint32_t)(c >> 8) & 0xFFu,
				ctx, fl);
	}
}

/* VIA C3: only PERFCTR1 is programmable and it cannot be stopped. */
static void decode_vc3(struct pmu__sim *s)
{
	uint32_t key;

	if (s->nr_hw < 2)
		return;
	key = (uint32_t)s->ctl[1] & 0xFFu;
	cfg_set(&s->cfg[1], key, 0, CTX_ALL,
		key == PMU_SIM_P6_CYCLES ? PMU_SIM_CFG_CYCLES : 0);
}

/* P4: CCCR enables, ESCR (chosen by ESCR_SELECT) names the event. */
static void decode_p4(struct pmu__sim *s)
{
	for (unsigned hw = 0; hw < s->nr_hw; hw++) {
		uint32_t cccr = (uint32_t)s->ctl[hw];
		uint32_t addr, escr, key, mask;
		uint8_t ctx, fl = 0;

		if (!(cccr & PMU_P4_CCCR_ENABLE) ||
		    !(cccr & PMU_P4_CCCR_ACTIVE_THREAD))
			continue;
		addr = pmu__sim_p4_escr_addr(s, hw, PMU_P4_CCCR_ESCR_SELECT(cccr));
		if (!addr)
			continue;
		escr = s->p4_escr[addr - PMU_MSR_P4_ESCR0];
		key = PMU_SIM_P4_KEY(addr, escr >> 25);
		mask = (escr >> 9) & 0xFFFFu;
		/* T0_OS bit 3, T0_USR bit 2: this simulates thread 0. */
		ctx = priv_ctx(escr & 0x4u, escr & 0x8u);
		if (cccr & PMU_P4_CCCR_OVF_PMI_T0)
			fl |= PMU_SIM_CFG_INT;
		if (key == PMU_SIM_P4_CYCLES && (mask & 1u))
			fl |= PMU_SIM_CFG_CYCLES;
		if (ctx)
			cfg_set(&s->cfg[hw], key, mask, ctx, fl);
	}
}

static uint32_t ppc_sel(const struct pmu__sim *s, unsigned hw)
{
	static const uint8_t shift[6] = { 6, 0, 27, 22, 17, 11 };
	static const uint8_t mask[6] = { 0x7F, 0x3F, 0x1F, 0x1F, 0x1F, 0x3F };
	uint32_t reg = hw < 2 ? s->mmcr[0] : s->mmcr[1];

	return (reg >> shift[hw]) & mask[hw];
}

/* Is PPC counter `hw` frozen in context `c` by MMCR0? */
static bool ppc_frozen(uint32_t mmcr0, unsigned hw, unsigned c)
{
	bool kernel = c & 1u, pmm = c & 2u;

	if (mmcr0 & PMU_PPC_MMCR0_FC)
		return true;
	if ((mmcr0 & PMU_PPC_MMCR0_FCS) && kernel)
		return true;
	if ((mmcr0 & PMU_PPC_MMCR0_FCP) && !kernel)
		return true;
	if ((mmcr0 & PMU_PPC_MMCR0_FCM1) && pmm)
		return true;
	if ((mmcr0 & PMU_PPC_MMCR0_FCM0) && !pmm)
		return true;
	return hw > 0 && (mmcr0 & PMU_PPC_MMCR0_TRIGGER);
}

/* PPC: PMCnSEL fields in MMCR0/MMCR1; MMCR0 freeze bits per context. */
static void decode_ppc(struct pmu__sim *s)
{
	uint32_t mmcr0 = s->mmcr[0];

	for (unsigned hw = 0; hw < s->nr_hw && hw < 6; hw++) {
		uint32_t sel = ppc_sel(s, hw);
		uint32_t ce = hw ? PMU_PPC_MMCR0_PMCJCE : PMU_PPC_MMCR0_PMC1CE;
		uint8_t ctx = 0, fl = 0;

		if (!sel) /* event 0: the counter holds its value */
			continue;
		for (unsigned c = 0; c < PMU_SIM_NCTX; c++)
			if (!ppc_frozen(mmcr0, hw, c))
				ctx |= (uint8_t)(1u << c);
		if (mmcr0 & ce)
			fl |= PMU_SIM_CFG_INT;
		if (sel == PMU_SIM_PPC_CYCLES)
			fl |= PMU_SIM_CFG_CYCLES;
		/* The umask names the counter so that a stream can aim an
		 * event number whose meaning differs between PMCs. */
		if (ctx)
			cfg_set(&s->cfg[hw], sel, 1u << hw, ctx, fl);
	}
}

static void decode_arch(struct pmu__sim *s)
{
	switch (s->model->check.family) {
	case PMU_CHECK_P5_LIKE:
		decode_p5(s);
		break;
	case PMU_CHECK_P6_LIKE:
		decode_p6(s);
		break;
	case PMU_CHECK_VC3:
		decode_vc3(s);
		break;
	case PMU_CHECK_P4:
		decode_p4(s);
		break;
	case PMU_CHECK_PPC:
		decode_ppc(s);
		break;
	default: /* generic: TSC only; XScale: the extension decodes */
		break;
	}
}

static void hash_insert(struct pmu__sim *s, unsigned hw)
{
	const struct pmu__sim_cfg *c = &s->cfg[hw];
	uint32_t h = pmu__sim_hash(c->key);

	while (s->hash[h].key != PMU_SIM_KEY_NONE && s->hash[h].key != c->key)
		h = (h + 1) & (PMU_SIM_HASH_SIZE - 1);
	s->hash[h].key = c->key;
	for (unsigned x = 0; x < PMU_SIM_NCTX; x++) {
		if (!(c->ctx & (1u << x)))
			continue;
		s->hash[h].mask[x] |= 1u << hw;
		if (c->flags & PMU_SIM_CFG_CYCLES)
			s->cyc_mask[x] |= 1u << hw;
	}
	if (c->umask)
		s->um_ctrs |= 1u << hw;
}

static void build_dispatch(struct pmu__sim *s)
{
	for (unsigned h = 0; h < PMU_SIM_HASH_SIZE; h++) {
		s->hash[h].key = PMU_SIM_KEY_NONE;
		for (unsigned x = 0; x < PMU_SIM_NCTX; x++)
			s->hash[h].mask[x] = 0;
	}
	for (unsigned x = 0; x < PMU_SIM_NCTX; x++)
		s->cyc_mask[x] = 0;
	s->um_ctrs = 0;
	for (unsigned hw = 0; hw < s->nr_hw; hw++)
		if ((s->cfg[hw].flags & PMU_SIM_CFG_ON) && s->cfg[hw].ctx)
			hash_insert(s, hw);
}

void pmu__sim_reconfigure(struct pmu__sim *s)
{
	pmu__sim_zero(s->cfg, sizeof(s->cfg));
	decode_arch(s);
	for (unsigned i = 0; i < PMU_SIM_NEXT; i++)
		if (s->ext[i] && s->ext[i]->decode)
			s->ext[i]->decode(s, s->ext_state[i]);
	build_dispatch(s);
}
