/* SPDX-License-Identifier: MIT */
/*
 * The sim driver on XScale models: the register protocol of the Linux
 * XScale PMU API (seed 004).  Start writes PMNC = evt1 << 20 | evt0 << 12
 * | E | P | C | all three interrupt enables (the second core generation:
 * EVTSEL, INTEN, then PMNC), twice on the 80200 when a branch event is
 * selected (A-stepping erratum); stop reads CCNT and the PMNs and writes
 * PMNC = 0; the interrupt handler counts each overflow flag and writes
 * the flags back to clear them.  So every count is (wraps << 32) +
 * value, exact in 64 bits, unless the target asked for raw hardware
 * width (no handler installed: counters wrap, as with an unclaimed PMU).
 */
#include <errno.h>
#include <stdio.h>

#include "drivers/sim_drv.h"
#include "hwmodel/control.h"
#include "sim/xscale.h"

#define XSC_EVT_BRANCH 0x05u
#define NSLOT 5 /* CCNT, PMN0..3 */

static bool gen2(const struct sim_drv *d)
{
	return d->s->xs.gen == 2;
}

static uint32_t cp14_read(const struct sim_drv *d, uint32_t addr)
{
	uint64_t v = 0;

	(void)pmu__sim_reg_read(&d->s->sim, PMU_SIM_REG_CP14, addr, &v);
	return (uint32_t)v;
}

static void cp14_write(struct sim_drv *d, uint32_t addr, uint32_t v)
{
	(void)pmu__sim_reg_write(&d->s->sim, PMU_SIM_REG_CP14, addr, v);
}

static uint32_t pmnc_addr(const struct sim_drv *d)
{
	return gen2(d) ? PMU_CP14_XSC2_PMNC : PMU_CP14_XSC1_PMNC;
}

/* Register of slot i: 0 CCNT, 1 + n PMNn. */
static uint32_t slot_addr(const struct sim_drv *d, unsigned i)
{
	if (gen2(d))
		return i ? PMU_CP14_XSC2_PMN(i - 1) : PMU_CP14_XSC2_CCNT;
	return i == 0 ? PMU_CP14_XSC1_CCNT :
	       i == 1 ? PMU_CP14_XSC1_PMN0 : PMU_CP14_XSC1_PMN1;
}

static unsigned nslots(const struct sim_drv *d)
{
	return 1 + d->m->nr_ctrs;
}

/* The handler the API installs at claim: count, then clear the flags
 * by writing them back; counting goes on. */
static void xsc_irq(struct pmu__sim *sim, void *arg, enum pmu_sim_irq src,
		    uint64_t pc)
{
	struct sim_drv *d = arg;
	uint32_t pend;

	(void)sim;
	(void)src;
	if (!d->is_open || d->raw_width)
		return;         /* no handler installed */
	d->xr.irqs++;
	d->xr.last_pc = pc;
	pend = pmu__xscale_pending(&d->s->xs);
	for (unsigned i = 0; i < nslots(d) && i < NSLOT; i++)
		d->xr.of[i] += (pend >> i) & 1;
	if (gen2(d))
		cp14_write(d, PMU_CP14_XSC2_FLAG, pend);
	else
		cp14_write(d, PMU_CP14_XSC1_PMNC,
			   cp14_read(d, PMU_CP14_XSC1_PMNC));
}

void pmu__xsc_attach(struct sim_drv *d)
{
	pmu__sim_set_irq(&d->s->sim, xsc_irq, d);
}

int pmu__xsc_open(struct sim_drv *d, const struct pmu__ev *ev,
		  const struct pmu__place *place, struct pmu__ev_state *st,
		  struct pmu_error *err)
{
	(void)ev;
	(void)err;
	d->xr = (struct xsc_run){ .reset_pending = true };
	for (unsigned k = 0; k < 4; k++)
		d->xr.evt[k] = PMU_XSC_EVT_IDLE;
	for (size_t i = 0; place && i < d->nev; i++) {
		int c = place[i].counter;

		if (st[i].err || c == PMU__PLACE_NONE)
			continue;
		if (c == PMU__PLACE_TSC) {
			d->slot[i] = (struct sim_slot){ SLOT_TSC, 0 };
		} else if (c >= 0 && (unsigned)c < d->m->nr_ctrs) {
			d->xr.evt[c] = (uint32_t)place[i].codes[0] & 0xFFu;
			if ((unsigned)c + 1 > d->xr.npmn)
				d->xr.npmn = (unsigned)c + 1;
			d->slot[i] = (struct sim_slot){ SLOT_PMC, (unsigned)c + 1 };
		} else {
			st[i].err = -EOPNOTSUPP;
			snprintf(st[i].reason, sizeof(st[i].reason),
				 "no counter of the simulated %s takes it",
				 d->m->name);
		}
	}
	return 0;
}

static uint32_t pc_bits(const struct sim_drv *d)
{
	return PMU_XSC_PMNC_E |
	       (d->xr.reset_pending ? PMU_XSC_PMNC_P | PMU_XSC_PMNC_C : 0);
}

/* Second generation: events in EVTSEL (unused PMNs idle), enables in
 * INTEN, then PMNC; PMN0 and PMN1 interrupts are enabled as the API
 * always did. */
static void start_gen2(struct sim_drv *d)
{
	uint32_t evtsel = 0, inten = PMU_XSC2_BIT_CCNT;
	unsigned n = d->xr.npmn > 2 ? d->xr.npmn : 2;

	for (unsigned k = 0; k < 4; k++)
		evtsel |= (k < d->xr.npmn ? d->xr.evt[k] : PMU_XSC_EVT_IDLE)
			  << (8 * k);
	for (unsigned k = 0; k < n; k++)
		inten |= PMU_XSC2_BIT_PMN(k);
	cp14_write(d, PMU_CP14_XSC2_EVTSEL, evtsel);
	cp14_write(d, PMU_CP14_XSC2_INTEN, inten);
	cp14_write(d, PMU_CP14_XSC2_PMNC, pc_bits(d));
}

void pmu__xsc_enable(struct sim_drv *d)
{
	uint32_t e0 = d->xr.evt[0], e1 = d->xr.evt[1], pmnc;

	if (gen2(d)) {
		start_gen2(d);
	} else {
		pmnc = PMU_XSC_PMNC_EVT1(e1) | PMU_XSC_PMNC_EVT0(e0) |
		       pc_bits(d) | PMU_XSC_PMNC_INTEN_ALL;
		cp14_write(d, PMU_CP14_XSC1_PMNC, pmnc);
		/* 80200 A-stepping erratum: a branch-event selection needs
		 * the control register written twice. */
		if (e0 == XSC_EVT_BRANCH || e1 == XSC_EVT_BRANCH)
			cp14_write(d, PMU_CP14_XSC1_PMNC, pmnc);
	}
	d->xr.reset_pending = false;
}

void pmu__xsc_disable(struct sim_drv *d)
{
	for (unsigned i = 0; i < nslots(d) && i < NSLOT; i++)
		d->xr.saved[i] = cp14_read(d, slot_addr(d, i));
	cp14_write(d, pmnc_addr(d), 0);
}

void pmu__xsc_reset(struct sim_drv *d)
{
	for (unsigned i = 0; i < NSLOT; i++)
		d->xr.of[i] = d->xr.saved[i] = 0;
	d->xr.reset_pending = true;
	if (d->enabled)
		pmu__xsc_enable(d);
}

uint64_t pmu__xsc_read(const struct sim_drv *d, const struct sim_slot *sl)
{
	unsigned i = sl->idx;
	uint32_t v = d->enabled ? cp14_read(d, slot_addr(d, i))
				: d->xr.saved[i];

	return ((uint64_t)d->xr.of[i] << 32) + v;
}

uint64_t pmu__xsc_ctl_writes(const struct sim_drv *d)
{
	return d->s->xs.pmnc_writes;
}
