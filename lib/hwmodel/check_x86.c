/* SPDX-License-Identifier: MIT */
/*
 * check_control of the x86 families other than the Pentium 4: generic
 * (TSC only), P5-like (P5, P5MMX, Cyrix MII, WinChip C6), P6-like (P6
 * family and AMD K7/K8/Fam10h) and VIA C3.  The order of the tests is
 * perfctr's, since it decides which errno a doubly-wrong control gets.
 */
#include "hwmodel/check.h"

int pmu__check_generic(const struct pmu_hwmodel *m, const struct pmu_control *c,
		       bool is_global, struct pmu_control_result *r)
{
	if (c->nractrs || c->nrictrs)
		return PMU_FAIL(r, PMU_EINVAL, "generic.no_counters", -1,
				"nractrs", c->nractrs,
				"this CPU has no usable counters: only the TSC");
	return 0;
}

static int p5_counter(const struct pmu_hwmodel *m, const struct pmu_control *c,
		      uint32_t i, uint16_t half[2], struct pmu_control_result *r)
{
	uint32_t pmc = c->pmc_map[i], evntsel = c->evntsel[i];

	r->map[i] = pmc;
	r->hw_ctr[i] = pmc;
	/* a used counter is one whose CESR half is already non-zero */
	if (pmc > 1 || half[pmc] != 0)
		return PMU_FAIL(r, PMU_EINVAL, "p5.pmc_map", i, "pmc_map", pmc,
				"pmc_map must be 0 or 1 and name each counter once");
	if (evntsel & ~(uint32_t)m->check.p5.allowed_mask)
		return PMU_FAIL(r, PMU_EPERM, "p5.evntsel_reserved", i,
				"evntsel", evntsel,
				"evntsel sets CESR bits outside the allowed mask");
	if (m->check.p5.cpl_check && !(evntsel & PMU_P5_CESR_CPL))
		return PMU_FAIL(r, PMU_EINVAL, "p5.cpl_zero", i, "evntsel",
				evntsel, "evntsel CPL field (0x00C0) is zero");
	half[pmc] = (uint16_t)evntsel;
	return 0;
}

int pmu__check_p5(const struct pmu_hwmodel *m, const struct pmu_control *c,
		  bool is_global, struct pmu_control_result *r)
{
	uint16_t half[2] = { 0, 0 };
	int err;

	if (m->check.p5.tsc_forbidden && c->tsc_on)
		return PMU_FAIL(r, PMU_EINVAL, "c6.tsc_on", -1, "tsc_on",
				c->tsc_on, "this CPU's TSC cannot be used: tsc_on must be 0");
	if (c->nrictrs != 0 || c->nractrs > 2)
		return PMU_FAIL(r, PMU_EINVAL, "p5.nrctrs", -1,
				c->nrictrs ? "nrictrs" : "nractrs",
				c->nrictrs ? c->nrictrs : c->nractrs,
				"at most 2 a-mode counters and no i-mode counters");
	for (uint32_t i = 0; i < c->nractrs; i++) {
		err = p5_counter(m, c, i, half, r);
		if (err)
			return err;
	}
	r->p5_cesr = ((uint32_t)half[1] << 16) | half[0];
	return 0;
}

/* The ENable bit: K7 wants it everywhere; P6 has one global enable in
 * EVNTSEL0, so it must be set exactly on physical counter 0. */
static int p6_enable(const struct pmu_hwmodel *m, uint32_t i, uint32_t pmc,
		     uint32_t evntsel, struct pmu_control_result *r)
{
	bool en = evntsel & PMU_P6_EVNTSEL_ENABLE;

	if (m->check.p6.k7_enable) {
		if (!en)
			return PMU_FAIL(r, PMU_EINVAL, "k7.enable_bit", i,
					"evntsel", evntsel,
					"evntsel must set the enable bit 22");
		return 0;
	}
	if (en && pmc > 0)
		return PMU_FAIL(r, PMU_EPERM, "p6.enable_bit_other", i,
				"evntsel", evntsel,
				"only the evntsel of PMC0 may set the enable bit 22");
	if (!en && pmc == 0)
		return PMU_FAIL(r, PMU_EINVAL, "p6.enable_bit_pmc0", i,
				"evntsel", evntsel,
				"the evntsel of PMC0 must set the enable bit 22");
	return 0;
}

static int p6_counter(const struct pmu_hwmodel *m, const struct pmu_control *c,
		      uint32_t i, uint32_t *used, struct pmu_control_result *r)
{
	uint32_t pmc = c->pmc_map[i], evntsel = c->evntsel[i];
	int err;

	r->map[i] = pmc;
	r->hw_ctr[i] = pmc;
	if (pmc >= m->check.p6.max_ctrs || (*used & (1u << pmc)))
		return PMU_FAIL(r, PMU_EINVAL, "p6.pmc_map", i, "pmc_map", pmc,
				"pmc_map names a missing or already used counter");
	*used |= 1u << pmc;
	if (evntsel & PMU_P6_EVNTSEL_RESERVED)
		return PMU_FAIL(r, PMU_EPERM, "p6.evntsel_reserved", i,
				"evntsel", evntsel,
				"evntsel sets reserved bit 19 or 21");
	err = p6_enable(m, i, pmc, evntsel, r);
	if (err)
		return err;
	if (!(evntsel & PMU_P6_EVNTSEL_CPL))
		return PMU_FAIL(r, PMU_EINVAL, "p6.cpl_zero", i, "evntsel",
				evntsel, "evntsel USR/OS bits 16-17 are both clear");
	if ((evntsel & PMU_P6_EVNTSEL_INT) && i < c->nractrs)
		return PMU_FAIL(r, PMU_EINVAL, "p6.int_amode", i, "evntsel",
				evntsel, "a-mode counter sets the INT bit 20");
	if (!(evntsel & PMU_P6_EVNTSEL_INT) && i >= c->nractrs)
		return PMU_FAIL(r, PMU_EINVAL, "p6.int_imode", i, "evntsel",
				evntsel, "i-mode counter must set the INT bit 20");
	return 0;
}

int pmu__check_p6(const struct pmu_hwmodel *m, const struct pmu_control *c,
		  bool is_global, struct pmu_control_result *r)
{
	uint32_t nrctrs = c->nractrs + c->nrictrs, used = 0;
	int err;

	if (nrctrs < c->nractrs || nrctrs > m->check.p6.max_ctrs)
		return PMU_FAIL(r, PMU_EINVAL, "p6.nrctrs", -1, "nrictrs",
				nrctrs, "more counters than this CPU has");
	for (uint32_t i = 0; i < nrctrs; i++) {
		err = p6_counter(m, c, i, &used, r);
		if (err)
			return err;
	}
	return 0;
}

int pmu__check_vc3(const struct pmu_hwmodel *m, const struct pmu_control *c,
		   bool is_global, struct pmu_control_result *r)
{
	uint32_t evntsel;

	if (c->nrictrs || c->nractrs > 1)
		return PMU_FAIL(r, PMU_EINVAL, "vc3.nrctrs", -1,
				c->nrictrs ? "nrictrs" : "nractrs",
				c->nrictrs ? c->nrictrs : c->nractrs,
				"at most 1 a-mode counter and no i-mode counters");
	if (c->nractrs == 0)
		return 0;
	r->map[0] = c->pmc_map[0];
	r->hw_ctr[0] = c->pmc_map[0];
	if (c->pmc_map[0] != 1)
		return PMU_FAIL(r, PMU_EINVAL, "vc3.pmc_map", 0, "pmc_map",
				c->pmc_map[0], "the only counter is pmc_map 1");
	evntsel = c->evntsel[0];
	if (evntsel & ~PMU_VC3_EVNTSEL1_ALLOWED)
		return PMU_FAIL(r, PMU_EPERM, "vc3.evntsel_reserved", 0,
				"evntsel", evntsel,
				"evntsel sets bits outside 0x1FF");
	r->vc3_id = evntsel;
	return 0;
}
