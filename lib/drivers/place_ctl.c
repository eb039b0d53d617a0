/* SPDX-License-Identifier: MIT */
/*
 * From placed events to what a register-level PMU's low-level driver
 * writes: perfctr's control (counters in a-mode, or i-mode with an
 * overflow period), and the PMC values that control leaves in the
 * model's registers, or the XScale API's PMNC/EVTSEL.  One home for the
 * simulated and emulated drivers and for event sets on them.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <pmu/sim.h>

#include "drivers/driver.h"
#include "drivers/sim_api.h"
#include "hwmodel/control.h"
#include "sim/xscale.h"

bool pmu__place_put(const struct pmu_hwmodel *m, const struct pmu__place *pl,
		    uint32_t period, struct pmu_control *c)
{
	unsigned k = c->nractrs + c->nrictrs;

	if (pl->counter < 0 || pl->counter >= PMU__PLACE_FIXED ||
	    k >= PMU_MAX_CTRS)
		return false;
	c->pmc_map[k] = (uint32_t)pl->counter;
	c->evntsel[k] = (uint32_t)pl->codes[0];
	if (m->check.family == PMU_CHECK_P4)
		c->p4.escr[k] = (uint32_t)pl->codes[1];
	if (period) {
		c->evntsel[k] |= PMU_P6_EVNTSEL_INT;
		c->ireset[k] = -(int32_t)period;
		c->nrictrs++;
	} else {
		c->nractrs++;
	}
	return true;
}

/* XScale: what the XScale API's start writes. */
static void xscale_pmcs(const struct pmu_hwmodel *m,
			const struct pmu__place *pl, size_t n, uint64_t *pmcs)
{
	uint32_t evt[4] = { PMU_XSC_EVT_IDLE, PMU_XSC_EVT_IDLE,
			    PMU_XSC_EVT_IDLE, PMU_XSC_EVT_IDLE };

	for (size_t i = 0; i < n; i++)
		if (pl[i].counter >= 0 && pl[i].counter < 4)
			evt[pl[i].counter] = (uint32_t)pl[i].codes[0] & 0xFFu;
	if (m->nr_pmcs == 1) {
		pmcs[0] = PMU_XSC_PMNC_E | PMU_XSC_PMNC_EVT0(evt[0]) |
			  PMU_XSC_PMNC_EVT1(evt[1]);
		return;
	}
	/* PMNC, INTEN (the engine's), FLAG, EVTSEL */
	pmcs[0] = PMU_XSC_PMNC_E;
	pmcs[3] = evt[0] | evt[1] << 8 | evt[2] << 16 | (uint64_t)evt[3] << 24;
}

/* Elsewhere: perfctr's control applied to a scratch simulated CPU of
 * the model, its control registers read back. */
static int perfctr_pmcs(const struct pmu_hwmodel *m,
			const struct pmu__place *pl, size_t n, uint64_t *pmcs,
			struct pmu_error *err)
{
	struct pmu_control c;
	struct pmu_sim *sim;
	int ret;

	memset(&c, 0, sizeof(c));
	for (size_t i = 0; i < n; i++)
		pmu__place_put(m, &pl[i], 0, &c);
	if (!c.nractrs)
		return 0;
	if (!(sim = pmu_sim_open(m, err)))
		return -errno;
	ret = pmu_sim_control(sim, &c, err);
	if (!ret) {
		pmu__perfctr_resume(&sim->pc, &sim->st);
		for (unsigned i = 0; i < m->nr_pmcs; i++) {
			uint64_t v = m->pmcs[i].dfl_val;

			pmu__sim_reg_read(&sim->sim, m->arch == PMU_ARCH_PPC
					  ? PMU_SIM_REG_SPR : PMU_SIM_REG_MSR,
					  m->pmcs[i].addr, &v);
			pmcs[i] = v;
		}
	}
	pmu_sim_close(sim);
	return ret;
}

int pmu__place_pmcs(const struct pmu_hwmodel *m, const struct pmu__place *pl,
		    size_t n, uint64_t *pmcs, struct pmu_error *err)
{
	if (m->arch == PMU_ARCH_ARM) {
		xscale_pmcs(m, pl, n, pmcs);
		return 0;
	}
	return perfctr_pmcs(m, pl, n, pmcs, err);
}
