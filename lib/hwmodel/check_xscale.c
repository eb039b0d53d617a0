/* SPDX-License-Identifier: MIT */
/*
 * XScale check_control (perfctr 2.6.x ARM port) and the PMNC / EVTSEL /
 * INTEN images.  Counters without an event are parked on the idle event
 * 0xFF so they do not count.
 */
#include "hwmodel/check.h"

/*
 * Events a control may select: the core's 0x00-0x0D, and on the 80200
 * the bus control unit's and RMW events that seed 004 lists among the
 * 20 statistics a counter provides (EVT_BCU_REQUEST 0x10, _FULL 0x11,
 * _DRAIN 0x12, _ECC_NO_ELOG 0x14, _1_BIT_ERR 0x15, EVT_RMW 0x16).
 */
static bool xsc_event_ok(const struct pmu_hwmodel *m, uint32_t ev)
{
	if (ev <= PMU_XSC_MAX_EVENT)
		return true;
	return m->check.xscale.bus_events &&
	       ((ev >= 0x10 && ev <= 0x12) || (ev >= 0x14 && ev <= 0x16));
}

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
		if (!xsc_event_ok(m, c->evntsel[i]))
			return PMU_FAIL(r, PMU_EINVAL, "xscale.event", i,
					"evntsel", c->evntsel[i],
					m->check.xscale.bus_events
					? "XScale 80200 events are 0x00..0x0D, "
					  "0x10..0x12 and 0x14..0x16"
					: "XScale events are 0x00..0x0D");
		ev[pmc] = c->evntsel[i];
		if (i >= c->nractrs)
			pmi |= 1u << pmc;
	}
	xscale_images(m, ev, pmi, r);
	return 0;
}
