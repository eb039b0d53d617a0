/* SPDX-License-Identifier: MIT */
/*
 * The claim / start / stop / release interface over a simulated XScale
 * PMU.  What the kernel API kept in globals (the claim flag, the claim
 * id, the results the interrupt handler fills) lives in the device.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/simple.h>

#include "model/control.h"
#include "model/model.h"
#include "sim/sim.h"
#include "sim/xscale.h"
#include "util/error.h"

struct pmu_simple {
	struct pmu__sim sim;
	struct pmu__xscale xs;
	bool claimed;
	int claim_id;           /* current claim */
	int last_id;            /* ids handed out so far */
	uint32_t pmnc;          /* control of the active run, 0 = none */
	struct pmu_results results;   /* the interrupt handler's */
	uint64_t irqs;
	uint64_t last_irq_pc;
};

static uint32_t cp14_read(struct pmu_simple *dev, uint32_t addr)
{
	uint64_t v = 0;

	(void)pmu__sim_reg_read(&dev->sim, PMU_SIM_REG_CP14, addr, &v);
	return (uint32_t)v;
}

static void cp14_write(struct pmu_simple *dev, uint32_t addr, uint32_t v)
{
	(void)pmu__sim_reg_write(&dev->sim, PMU_SIM_REG_CP14, addr, v);
}

static bool gen2(const struct pmu_simple *dev)
{
	return dev->xs.gen == 2;
}

static uint32_t pmnc_addr(const struct pmu_simple *dev)
{
	return gen2(dev) ? PMU_CP14_XSC2_PMNC : PMU_CP14_XSC1_PMNC;
}

/* The interrupt handler: count each pending overflow, then write the
 * flags back, which clears them and leaves the counters running. */
static void on_irq(struct pmu__sim *sim, void *arg, enum pmu_sim_irq src,
		   uint64_t pc)
{
	struct pmu_simple *dev = arg;
	uint32_t pend;

	(void)sim;
	(void)src;
	if (!dev->claimed)	/* no handler installed */
		return;
	dev->irqs++;
	dev->last_irq_pc = pc;
	pend = pmu__xscale_pending(&dev->xs);
	dev->results.ccnt_of += pend & PMU_XSC2_BIT_CCNT ? 1 : 0;
	dev->results.pmn0_of += pend & PMU_XSC2_BIT_PMN(0) ? 1 : 0;
	dev->results.pmn1_of += pend & PMU_XSC2_BIT_PMN(1) ? 1 : 0;
	if (gen2(dev))
		cp14_write(dev, PMU_CP14_XSC2_FLAG, pend);
	else
		cp14_write(dev, PMU_CP14_XSC1_PMNC,
			   cp14_read(dev, PMU_CP14_XSC1_PMNC));
}

struct pmu_simple *pmu_simple_open(const char *model, struct pmu_error *err)
{
	const char *name = model ? model : "xscale1";
	const struct pmu_model *m = pmu__model_find(name);
	struct pmu_simple *dev;

	if (!m || m->check.family != PMU_CHECK_XSCALE) {
		errno = -pmu__error(err, -EINVAL, PMU_ERR_USAGE, name, -1,
				    "model '%s' has no XScale PMU; use "
				    "xscale1 or xscale2", name);
		return NULL;
	}
	dev = calloc(1, sizeof(*dev));
	if (!dev) {
		errno = -pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				    "out of memory");
		return NULL;
	}
	if (pmu__sim_init(&dev->sim, m) ||
	    pmu__sim_xscale_attach(&dev->sim, &dev->xs)) {
		free(dev);
		errno = -pmu__error(err, -EINVAL, PMU_ERR_USAGE, name, -1,
				    "cannot simulate model '%s'", m->name);
		return NULL;
	}
	pmu__sim_set_irq(&dev->sim, on_irq, dev);
	return dev;
}

void pmu_simple_close(struct pmu_simple *dev)
{
	free(dev);
}

int pmu_claim(struct pmu_simple *dev)
{
	if (!dev)
		return -EINVAL;
	if (dev->claimed)
		return -EBUSY;
	dev->claimed = true;
	cp14_write(dev, pmnc_addr(dev), 0);
	dev->pmnc = 0;
	/* Ids only grow; past INT_MAX they start again at 1. */
	dev->last_id = dev->last_id == __INT_MAX__ ? 1 : dev->last_id + 1;
	dev->claim_id = dev->last_id;
	return dev->claim_id;
}

int pmu_release(struct pmu_simple *dev, int claim_id)
{
	if (!dev)
		return -EINVAL;
	if (!dev->claimed)
		return 0;
	if (claim_id != dev->claim_id)
		return -EPERM;
	dev->claimed = false;
	return 0;
}

/* Second generation: events in EVTSEL (PMN2/3 idle), enables in INTEN. */
static void start_gen2(struct pmu_simple *dev, uint32_t pmn0, uint32_t pmn1)
{
	cp14_write(dev, PMU_CP14_XSC2_EVTSEL,
		   0xFFFF0000u | (pmn1 & 0xFFu) << 8 | (pmn0 & 0xFFu));
	cp14_write(dev, PMU_CP14_XSC2_INTEN, PMU_XSC2_BIT_CCNT |
		   PMU_XSC2_BIT_PMN(0) | PMU_XSC2_BIT_PMN(1));
	cp14_write(dev, PMU_CP14_XSC2_PMNC,
		   PMU_XSC_PMNC_E | PMU_XSC_PMNC_P | PMU_XSC_PMNC_C);
}

int pmu_start(struct pmu_simple *dev, uint32_t pmn0, uint32_t pmn1)
{
	uint32_t pmnc;

	if (!dev)
		return -EINVAL;
	memset(&dev->results, 0, sizeof(dev->results));
	pmnc = PMU_XSC_PMNC_EVT1(pmn1) | PMU_XSC_PMNC_EVT0(pmn0) |
	       PMU_XSC_PMNC_E | PMU_XSC_PMNC_P | PMU_XSC_PMNC_C |
	       PMU_XSC_PMNC_INTEN_ALL;
	dev->pmnc = pmnc;
	if (gen2(dev)) {
		start_gen2(dev, pmn0, pmn1);
		return 0;
	}
	cp14_write(dev, PMU_CP14_XSC1_PMNC, pmnc);
	/* 80200 A-stepping erratum: a branch-event selection needs the
	 * control register written twice. */
	if (pmn0 == PMU_XSC_EVT_BRANCH || pmn1 == PMU_XSC_EVT_BRANCH)
		cp14_write(dev, PMU_CP14_XSC1_PMNC, pmnc);
	return 0;
}

int pmu_stop(struct pmu_simple *dev, struct pmu_results *res)
{
	size_t n;

	if (!dev || !res || res->size == 0)
		return -EINVAL;
	if (!dev->pmnc)
		return -ENOSYS;
	if (gen2(dev)) {
		dev->results.ccnt = cp14_read(dev, PMU_CP14_XSC2_CCNT);
		dev->results.pmn0 = cp14_read(dev, PMU_CP14_XSC2_PMN(0));
		dev->results.pmn1 = cp14_read(dev, PMU_CP14_XSC2_PMN(1));
	} else {
		dev->results.ccnt = cp14_read(dev, PMU_CP14_XSC1_CCNT);
		dev->results.pmn0 = cp14_read(dev, PMU_CP14_XSC1_PMN0);
		dev->results.pmn1 = cp14_read(dev, PMU_CP14_XSC1_PMN1);
	}
	cp14_write(dev, pmnc_addr(dev), 0);
	dev->pmnc = 0;
	/* Copy what both sides know; `size` stays the caller's. */
	n = res->size < sizeof(*res) ? res->size : sizeof(*res);
	if (n > sizeof(res->size))
		memcpy((char *)res + sizeof(res->size),
		       (const char *)&dev->results + sizeof(res->size),
		       n - sizeof(res->size));
	return 0;
}

int pmu_simple_event(struct pmu_simple *dev, uint32_t event, uint64_t n)
{
	if (!dev)
		return -EINVAL;
	pmu__sim_advance(&dev->sim, event, 0, n);
	return 0;
}

int pmu_simple_cycles(struct pmu_simple *dev, uint64_t n)
{
	if (!dev)
		return -EINVAL;
	pmu__sim_cycles(&dev->sim, n);
	return 0;
}

int pmu_simple_set_pc(struct pmu_simple *dev, uint64_t pc)
{
	if (!dev)
		return -EINVAL;
	pmu__sim_set_ip(&dev->sim, pc);
	return 0;
}

int pmu_simple_stats(const struct pmu_simple *dev, struct pmu_simple_stats *st)
{
	struct pmu_simple_stats all = { .size = sizeof(all) };
	size_t n;

	if (!dev || !st || st->size == 0)
		return -EINVAL;
	all.pmnc_writes = dev->xs.pmnc_writes;
	all.irqs = dev->irqs;
	all.last_irq_pc = dev->last_irq_pc;
	n = st->size < sizeof(all) ? st->size : sizeof(all);
	if (n > sizeof(all.size))
		memcpy((char *)st + sizeof(all.size),
		       (const char *)&all + sizeof(all.size),
		       n - sizeof(all.size));
	return 0;
}

int pmu_simple_reg_read(struct pmu_simple *dev, unsigned crn, unsigned crm,
			uint32_t *val)
{
	uint64_t v;
	int rc;

	if (!dev || !val || crn > 15 || crm > 15)
		return -EINVAL;
	rc = pmu__sim_reg_read(&dev->sim, PMU_SIM_REG_CP14, PMU_CP14(crn, crm),
			       &v);
	if (rc)
		return -EINVAL;
	*val = (uint32_t)v;
	return 0;
}
