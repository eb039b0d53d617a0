/* SPDX-License-Identifier: MIT */
/*
 * PowerPC 604/750/74xx check_control and the MMCR images it derives.
 * PMXE follows the later perfctr (interrupts implemented): allowed only
 * together with i-mode counters.
 */
#include "hwmodel/check.h"

/* Widest event code per counter PMC1..PMC6 (the MMCR field widths). */
static const uint32_t max_event[6] = { 127, 63, 31, 31, 31, 63 };
/* Where each counter's event code goes: MMCR0 for PMC1/2, MMCR1 after. */
static const uint8_t event_shift[6] = { 6, 0, 27, 22, 17, 11 };

static int ppc_counters(const struct pmu_hwmodel *m,
			const struct pmu_control *c, uint32_t nrctrs,
			uint32_t *used, uint32_t *pmi,
			struct pmu_control_result *r)
{
	for (uint32_t i = 0; i < nrctrs; i++) {
		uint32_t pmc = c->pmc_map[i], ev = c->evntsel[i];

		r->map[i] = pmc;
		r->hw_ctr[i] = pmc;
		if (pmc >= m->check.ppc.nr_pmcs || (*used & (1u << pmc)))
			return PMU_FAIL(r, PMU_EINVAL, "ppc.pmc_map", i,
					"pmc_map", pmc,
					"pmc_map names a missing or already used PMC");
		*used |= 1u << pmc;
		if (i >= c->nractrs)
			*pmi |= 1u << pmc;
		if (ev > max_event[pmc])
			return PMU_FAIL(r, PMU_EINVAL, "ppc.event_range", i,
					"evntsel", ev,
					"event code too large for this PMC");
		r->ppc_mmcr[pmc < 2 ? 0 : 1] |= ev << event_shift[pmc];
	}
	return 0;
}

static int ppc_mmcr2(const struct pmu_hwmodel *m, const struct pmu_control *c,
		     struct pmu_control_result *r)
{
	uint32_t v = c->ppc.mmcr2;

	if (m->check.ppc.mmcr2 == PMU_PPC_MMCR2_RULE_THRESHMULT) {
		if (v & (PMU_PPC_MMCR2_SMCNTEN | PMU_PPC_MMCR2_SMINTEN |
			 0x1FFFFFFFu))
			return PMU_FAIL(r, PMU_EINVAL, "ppc.mmcr2_reserved", -1,
					"ppc.mmcr2", v,
					"mmcr2 may only set THRESHMULT (bit 31)");
	} else if (v) {
		return PMU_FAIL(r, PMU_EINVAL, "ppc.mmcr2_nonzero", -1,
				"ppc.mmcr2", v, "this CPU has no usable MMCR2");
	}
	r->ppc_mmcr[2] = v;
	return 0;
}

/* PMC1 has its own overflow enable (PMC1CE); PMC2-6 share PMCjCE, so if
 * any of them interrupts, every used one of them must be i-mode. */
static int ppc_mmcr0(const struct pmu_hwmodel *m, const struct pmu_control *c,
		     uint32_t used, uint32_t pmi, struct pmu_control_result *r)
{
	uint32_t v = c->ppc.mmcr0;

	if (v & (PMU_PPC_MMCR0_PMC1SEL | PMU_PPC_MMCR0_PMC2SEL))
		return PMU_FAIL(r, PMU_EINVAL, "ppc.mmcr0_pmcsel", -1,
				"ppc.mmcr0", v,
				"mmcr0 PMC1SEL/PMC2SEL come from evntsel, not mmcr0");
	if ((v & PMU_PPC_MMCR0_PMXE) && !c->nrictrs)
		return PMU_FAIL(r, PMU_EINVAL, "ppc.pmxe_without_imode", -1,
				"ppc.mmcr0", v,
				"mmcr0 PMXE needs i-mode counters");
	if ((pmi & ~1u) && (pmi & ~1u) != (used & ~1u))
		return PMU_FAIL(r, PMU_EINVAL, "ppc.imode_shared_enable", -1,
				"nrictrs", c->nrictrs,
				"PMC2-6 share one overflow enable: all used ones must be i-mode");
	if (pmi)
		v |= PMU_PPC_MMCR0_PMXE;
	if (pmi & 1u)
		v |= PMU_PPC_MMCR0_PMC1CE;
	if (pmi & ~1u)
		v |= PMU_PPC_MMCR0_PMCJCE;
	r->ppc_mmcr[0] |= v;
	if (m->check.ppc.is_74xx &&
	    (v & (PMU_PPC_MMCR0_FCECE | PMU_PPC_MMCR0_TRIGGER |
		  PMU_PPC_MMCR0_PMXE)))
		r->cstatus |= PMU_CSTATUS_PPC_MMCR0_QUIRK;
	return 0;
}

int pmu__check_ppc(const struct pmu_hwmodel *m, const struct pmu_control *c,
		   bool is_global, struct pmu_control_result *r)
{
	uint32_t nrctrs = c->nractrs + c->nrictrs, used = 0, pmi = 0;
	int err;

	if (nrctrs < c->nractrs || nrctrs > m->check.ppc.nr_pmcs)
		return PMU_FAIL(r, PMU_EINVAL, "ppc.nrctrs", -1, "nrictrs",
				nrctrs, "more counters than this CPU has");
	err = ppc_counters(m, c, nrctrs, &used, &pmi, r);
	if (!err)
		err = ppc_mmcr2(m, c, r);
	if (!err)
		err = ppc_mmcr0(m, c, used, pmi, r);
	return err;
}
