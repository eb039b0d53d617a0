/* SPDX-License-Identifier: MIT */
/*
 * XScale check_control (perfctr 2.6.x ARM port) and the PMNC / EVTSEL /
 * INTEN images.  Counters without an event are parked on the idle event
 * 0xFF so they do not count.
 */
#include "model/check.h"

#define XSC_IDLE 0xFFu

static void xscale_images(const struct pmu_hwmodel *m, const uint32_t ev[4],
			  uint32_t pmi, struct pmu_control_result *r)
{
	if (m->check.xscale.nr_ctrs == 2) {
		r->xsc_pmnc = (ev[1] << 20) | (ev[0] << 12) | (pmi << 4) |
			      PMU_XSC_PMNC_E;
		return;
	}
	r->xsc_pmnc = PMU_XSC_PMNC_E;
	r->xsc_evtsel = ev[0] | (ev[1] << 8) | (ev[2] << 16) | (ev[3] << 24);
	r->xsc_inten = pmi << 1;
}

int pmu__check_xscale(const struct pmu_hwmodel *m, const struct pmu_control *c,
		      bool is_global, struct pmu_control_result *r)
{
	uint32_t nrctrs = c->nractrs + c->nrictrs, used = 0, pmi = 0;
	uint32_t ev[4] = { XSC_IDLE, XSC_IDLE, XSC_IDLE, XSC_IDLE };

	if (nrctrs < c->nractrs || nrctrs > m->check.xscale.nr_ctrs)
		return PMU_FAIL(r, PMU_EINVAL, "xscale.nrctrs", -1, "nrictrs",
				nrctrs, "more counters than this CPU has");
	for (uint32_t i = 0; i < nrctrs; i++) {
		uint32_t pmc = c->pmc_map[i];

		r->map[i] = pmc;
		r->hw_ctr[i] = pmc;
		if (pmc >= m->check.xscale.nr_ctrs || (used & (1u << pmc)))
			return PMU_FAIL(r, PMU_EINVAL, "xscale.pmc_map", i,
					"pmc_map", pmc,
					"pmc_map names a missing or already used counter");
		used |= 1u << pmc;
		if (c->evntsel[i] > PMU_XSC_MAX_EVENT)
			return PMU_FAIL(r, PMU_EINVAL, "xscale.event", i,
					"evntsel", c->evntsel[i],
					"XScale events are 0x00..0x0D");
		ev[pmc] = c->evntsel[i];
		if (i >= c->nractrs)
			pmi |= 1u << pmc;
	}
	xscale_images(m, ev, pmi, r);
	return 0;
}
