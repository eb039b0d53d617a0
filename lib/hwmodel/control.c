/* SPDX-License-Identifier: MIT */
/*
 * perfctr_cpu_update_control(): the common steps around each family's
 * check_control.  On any failure cstatus stays 0 (counters stopped).
 */
#include "hwmodel/check.h"

static const pmu__check_fn family_check[] = {
	[PMU_CHECK_GENERIC] = pmu__check_generic,
	[PMU_CHECK_P5_LIKE] = pmu__check_p5,
	[PMU_CHECK_P6_LIKE] = pmu__check_p6,
	[PMU_CHECK_VC3] = pmu__check_vc3,
	[PMU_CHECK_P4] = pmu__check_p4,
	[PMU_CHECK_PPC] = pmu__check_ppc,
	[PMU_CHECK_XSCALE] = pmu__check_xscale,
};

int pmu__check_fail(struct pmu_control_result *r, int err, const char *rule,
		    int counter, const char *field, uint32_t value,
		    const char *message)
{
	r->err = err;
	r->rule = rule;
	r->counter = counter;
	r->field = field;
	r->value = value;
	r->message = message;
	r->cstatus = 0;
	return err;
}

static void result_reset(struct pmu_control_result *r)
{
	r->err = 0;
	r->rule = "ok";
	r->counter = -1;
	r->field = NULL;
	r->value = 0;
	r->message = "control accepted";
	r->cstatus = 0;
	for (unsigned i = 0; i < PMU_MAX_CTRS; i++) {
		r->hw_ctr[i] = 0;
		r->map[i] = 0;
		r->p4_escr_msr[i] = 0;
		r->start[i] = 0;
	}
	r->p5_cesr = 0;
	r->ppc_mmcr[0] = r->ppc_mmcr[1] = r->ppc_mmcr[2] = 0;
	r->xsc_pmnc = r->xsc_evtsel = r->xsc_inten = 0;
	r->vc3_id = 0;
}

/* x86/ARM: i-mode counters start negative and overflow to non-negative;
 * PPC: they start non-negative and overflow when the MSB sets. */
static int check_ireset(const struct pmu_hwmodel *m, const struct pmu_control *c,
			struct pmu_control_result *r)
{
	uint32_t nrctrs = c->nractrs + c->nrictrs;
	bool ppc = m->ovf_dir == PMU_OVF_NONNEG_TO_NEG;

	for (uint32_t i = c->nractrs; i < nrctrs && i < PMU_MAX_CTRS; i++) {
		int32_t v = c->ireset[i];

		if (ppc && v < 0)
			return PMU_FAIL(r, PMU_EINVAL, "ppc.ireset", i, "ireset",
					(uint32_t)v,
					"i-mode ireset must be in [0, 0x7fffffff] on PowerPC");
		if (!ppc && v >= 0)
			return PMU_FAIL(r, PMU_EINVAL,
					m->arch == PMU_ARCH_ARM ? "xscale.ireset"
								: "x86.ireset",
					i, "ireset", (uint32_t)v,
					"i-mode ireset must be negative");
	}
	return 0;
}

static int run_checks(const struct pmu_hwmodel *m, const struct pmu_control *c,
		      bool is_global, struct pmu_control_result *r)
{
	pmu__check_fn fn;
	int err;

	if ((unsigned)m->check.family >=
	    sizeof(family_check) / sizeof(family_check[0]))
		return PMU_FAIL(r, PMU_ENOSYS, "model.family", -1, NULL, 0,
				"model has no control check");
	fn = family_check[m->check.family];
	if (m->arch == PMU_ARCH_X86) {
		err = fn(m, c, is_global, r);
		return err ? err : check_ireset(m, c, r);
	}
	err = check_ireset(m, c, r);
	return err ? err : fn(m, c, is_global, r);
}

int pmu__control_check(const struct pmu_hwmodel *model,
		       const struct pmu_control *c, bool is_global,
		       struct pmu_control_result *r)
{
	int err;

	result_reset(r);
	if (c->nrictrs && !(model->features & PMU_FEAT_PCINT))
		return PMU_FAIL(r, PMU_EPERM, "pcint.missing", -1, "nrictrs",
				c->nrictrs,
				"i-mode counters need overflow interrupt support (PCINT)");
	err = run_checks(model, c, is_global, r);
	if (err)
		return err;
	/* PPC may have pre-set bit 30 in check_control */
	r->cstatus |= pmu__mk_cstatus(c->tsc_on, c->nractrs, c->nrictrs);
	for (uint32_t i = c->nractrs; i < c->nractrs + c->nrictrs &&
				      i < PMU_MAX_CTRS; i++)
		r->start[i] = c->ireset[i];
	return 0;
}
