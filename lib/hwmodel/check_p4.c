/* SPDX-License-Identifier: MIT */
/*
 * Pentium 4 check_control: CCCR, ESCR and replay-tagging (PEBS_ENABLE,
 * PEBS_MATRIX_VERT) rules, in perfctr 2.6.9's order.
 */
#include "hwmodel/check.h"

static int p4_cccr(const struct pmu_hwmodel *m, const struct pmu_control *c,
		   uint32_t i, uint32_t pmc, struct pmu_control_result *r)
{
	uint32_t cccr = c->evntsel[i];

	if (cccr & PMU_P4_CCCR_RESERVED)
		return PMU_FAIL(r, PMU_EPERM, "p4.cccr_reserved", i, "evntsel",
				cccr, "CCCR sets reserved bits (0xB80007FF)");
	if (cccr & PMU_P4_CCCR_EXTENDED_CASCADE) {
		if (!(m->quirks & PMU_QUIRK_P4_EXTENDED_CASCADE))
			return PMU_FAIL(r, PMU_EPERM, "p4.extended_cascade_model",
					i, "evntsel", cccr,
					"EXTENDED_CASCADE is not available on this model");
		if (!(pmc == 12 || pmc >= 15))
			return PMU_FAIL(r, PMU_EPERM,
					"p4.extended_cascade_counter", i,
					"evntsel", cccr,
					"EXTENDED_CASCADE only on counters 12, 15, 16, 17");
	}
	if ((cccr & PMU_P4_CCCR_ACTIVE_THREAD) != PMU_P4_CCCR_ACTIVE_THREAD &&
	    !m->check.p4.ht)
		return PMU_FAIL(r, PMU_EINVAL, "p4.active_thread", i, "evntsel",
				cccr, "CCCR ACTIVE_THREAD must be 3 on a non-HT CPU");
	if (!(cccr & (PMU_P4_CCCR_ENABLE | PMU_P4_CCCR_CASCADE |
		      PMU_P4_CCCR_EXTENDED_CASCADE)))
		return PMU_FAIL(r, PMU_EINVAL, "p4.cccr_enable", i, "evntsel",
				cccr, "CCCR needs ENABLE, CASCADE or EXTENDED_CASCADE");
	if (!(cccr & PMU_P4_CCCR_OVF_PMI_T0)) {
		if (i >= c->nractrs)
			return PMU_FAIL(r, PMU_EINVAL, "p4.ovf_pmi_imode", i,
					"evntsel", cccr,
					"i-mode counter must set CCCR OVF_PMI_T0");
		return 0;
	}
	if (i < c->nractrs)
		return PMU_FAIL(r, PMU_EINVAL, "p4.ovf_pmi_amode", i, "evntsel",
				cccr, "a-mode counter sets CCCR OVF_PMI_T0");
	if ((cccr & PMU_P4_CCCR_FORCE_OVF) && c->ireset[i] != -1)
		return PMU_FAIL(r, PMU_EINVAL, "p4.force_ovf_ireset", i,
				"ireset", (uint32_t)c->ireset[i],
				"FORCE_OVF with OVF_PMI_T0 needs ireset -1");
	return 0;
}

static int p4_escr(const struct pmu_hwmodel *m, const struct pmu_control *c,
		   uint32_t i, uint32_t pmc, bool is_global,
		   struct pmu_control_result *r)
{
	uint32_t escr = c->p4.escr[i], addr;

	if (escr & PMU_P4_ESCR_RESERVED)
		return PMU_FAIL(r, PMU_EPERM, "p4.escr_reserved", i, "p4.escr",
				escr, "ESCR sets reserved bit 31");
	if ((escr & PMU_P4_ESCR_CPL_T1) && (!m->check.p4.ht || !is_global))
		return PMU_FAIL(r, PMU_EINVAL, "p4.escr_cpl_t1", i, "p4.escr",
				escr, "ESCR T1 bits need an HT CPU in global mode");
	addr = pmu__p4_escr_addr(pmc, PMU_P4_CCCR_ESCR_SELECT(c->evntsel[i]));
	if (!addr)
		return PMU_FAIL(r, PMU_EINVAL, "p4.escr_select", i, "evntsel",
				c->evntsel[i],
				"CCCR ESCR_SELECT names no ESCR of this counter");
	if ((addr == PMU_MSR_P4_IQ_ESCR0 || addr == PMU_MSR_P4_IQ_ESCR1) &&
	    !(m->quirks & PMU_QUIRK_P4_IQ_ESCR))
		return PMU_FAIL(r, PMU_EINVAL, "p4.iq_escr", i, "evntsel",
				c->evntsel[i],
				"IQ_ESCR0/1 do not exist on this model");
	r->p4_escr_msr[i] = addr;
	return 0;
}

static int p4_pebs(const struct pmu_control *c, uint32_t nrctrs,
		   struct pmu_control_result *r)
{
	uint32_t pe = c->p4.pebs_enable, pmv = c->p4.pebs_matrix_vert;

	if (!pe) {
		if (pmv)
			return PMU_FAIL(r, PMU_EPERM, "p4.pmv_without_pebs", -1,
					"p4.pebs_matrix_vert", pmv,
					"pebs_matrix_vert needs pebs_enable");
		return 0;
	}
	if (!nrctrs)
		return PMU_FAIL(r, PMU_EPERM, "p4.pebs_no_counters", -1,
				"p4.pebs_enable", pe,
				"pebs_enable needs at least one counter");
	if (pe & ~PMU_P4_PE_ALLOWED)
		return PMU_FAIL(r, PMU_EPERM, "p4.pebs_reserved", -1,
				"p4.pebs_enable", pe,
				"pebs_enable sets bits outside 0x01000607");
	if (!(pe & PMU_P4_PE_UOP_TAG))
		return PMU_FAIL(r, PMU_EINVAL, "p4.pebs_uop_tag", -1,
				"p4.pebs_enable", pe,
				"pebs_enable must set UOP_TAG (bit 24)");
	if (!(pe & PMU_P4_PE_REPLAY_TAG_BITS))
		return PMU_FAIL(r, PMU_EINVAL, "p4.pebs_metric", -1,
				"p4.pebs_enable", pe,
				"pebs_enable selects no replay metric (bits 0-2, 9-10)");
	if (pmv & ~PMU_P4_PMV_ALLOWED)
		return PMU_FAIL(r, PMU_EPERM, "p4.pmv_reserved", -1,
				"p4.pebs_matrix_vert", pmv,
				"pebs_matrix_vert sets bits outside 0x3");
	if (!(pmv & PMU_P4_PMV_ALLOWED))
		return PMU_FAIL(r, PMU_EINVAL, "p4.pmv_metric", -1,
				"p4.pebs_matrix_vert", pmv,
				"pebs_matrix_vert selects neither bit 0 nor bit 1");
	return 0;
}

int pmu__check_p4(const struct pmu_hwmodel *m, const struct pmu_control *c,
		  bool is_global, struct pmu_control_result *r)
{
	uint32_t nrctrs = c->nractrs + c->nrictrs, used = 0;
	int err;

	if (nrctrs < c->nractrs || nrctrs > PMU_MAX_CTRS)
		return PMU_FAIL(r, PMU_EINVAL, "p4.nrctrs", -1, "nrictrs",
				nrctrs, "more than 18 counters");
	for (uint32_t i = 0; i < nrctrs; i++) {
		/* bit 31 only asks for fast RDPMC; the counter is below it */
		uint32_t pmc = c->pmc_map[i] & ~PMU_P4_FAST_RDPMC;

		r->map[i] = c->pmc_map[i];
		r->hw_ctr[i] = pmc;
		if (pmc >= PMU_MAX_CTRS || (used & (1u << pmc)))
			return PMU_FAIL(r, PMU_EINVAL, "p4.pmc_map", i,
					"pmc_map", c->pmc_map[i],
					"pmc_map names a missing or already used counter");
		used |= 1u << pmc;
		err = p4_cccr(m, c, i, pmc, r);
		if (!err)
			err = p4_escr(m, c, i, pmc, is_global, r);
		if (err)
			return err;
	}
	return p4_pebs(c, nrctrs, r);
}
