/* SPDX-License-Identifier: MIT */
/*
 * The sim driver's common part and its perfctr backend.  Counting uses
 * a-mode counters only: perfctr folds each counter's 32-bit delta into
 * a 64-bit sum at every suspend and sample, and the driver samples at
 * least every 2^31 events or cycles fed, so every sum is exact however
 * long the run (what perfctr's kernel side did at each timer tick).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/sim_drv.h"
#include "util/error.h"

/* The driver interface numbers register spaces as the simulator does. */
_Static_assert((int)PMU__REG_MSR == (int)PMU_SIM_REG_MSR &&
	       (int)PMU__REG_SPR == (int)PMU_SIM_REG_SPR &&
	       (int)PMU__REG_CP14 == (int)PMU_SIM_REG_CP14, "register spaces");

/* Fed between two folds of the counters: half the 32-bit range. */
#define FOLD_EVERY (1ull << 31)

static struct sim_drv *sim_of(struct pmu__drv *d)
{
	return (struct sim_drv *)d;
}

static const struct sim_drv *csim_of(const struct pmu__drv *d)
{
	return (const struct sim_drv *)d;
}

static void pc_zero_sums(struct sim_drv *d)
{
	d->s->st.tsc_sum = 0;
	for (unsigned i = 0; i < PMU_MAX_CTRS; i++)
		d->s->st.pmc[i].sum = 0;
}

/* One event onto the perfctr control; false when it cannot go there. */
static bool pc_slot(struct sim_drv *d, const struct pmu__place *pl,
		    struct pmu_control *c, struct sim_slot *sl,
		    struct pmu__ev_state *st)
{
	unsigned k = c->nractrs;

	if (pl->counter == PMU__PLACE_TSC) {
		if (d->m->tsc_kind == PMU_TSC_NONE) {
			pmu__ev_unsupported(st, "this model's perfctr driver has no "
				    "time-stamp counter");
			return false;
		}
		c->tsc_on = 1;
		*sl = (struct sim_slot){ SLOT_TSC, 0 };
		return true;
	}
	if (pl->counter == PMU__PLACE_NONE)
		return false;   /* the session left it out, and says why */
	if (!pmu__place_put(d->m, pl, 0, c)) {
		pmu__ev_unsupported(st, "no counter of the simulated PMU takes it");
		return false;
	}
	*sl = (struct sim_slot){ SLOT_PMC, k };
	return true;
}

static int pc_open(struct sim_drv *d, const struct pmu__ev *ev,
		   const struct pmu__place *place, struct pmu__ev_state *st,
		   struct pmu_error *err)
{
	struct pmu_control c;
	int rc;

	(void)ev;
	memset(&c, 0, sizeof(c));
	for (size_t i = 0; i < d->nev; i++)
		if (!st[i].err && place)
			pc_slot(d, &place[i], &c, &d->slot[i], &st[i]);
	if (!c.tsc_on && !c.nractrs)
		return 0;       /* nothing this PMU counts: nothing to load */
	rc = pmu_sim_control(d->s, &c, err);
	if (rc == 0)
		pc_zero_sums(d);
	return rc;
}

static void sim_close(struct pmu__drv *dd)
{
	struct sim_drv *d = sim_of(dd);

	if (d->enabled)
		dd->ops->disable(dd);
	free(d->slot);
	d->slot = NULL;
	d->nev = 0;
	d->is_open = d->ever_enabled = false;
	d->t_enabled = d->unsampled = 0;
}

static int sim_open(struct pmu__drv *dd, const struct pmu__ev *ev,
		    size_t nev, const struct pmu__place *place,
		    const struct pmu__target *t, struct pmu__ev_state *st,
		    struct pmu_error *err)
{
	struct sim_drv *d = sim_of(dd);
	int rc;

	if (d->is_open)
		return pmu__error(err, -EBUSY, PMU_ERR_USAGE, NULL, -1,
				  "the simulated %s already has events open",
				  d->m->name);
	if (d->pfm)
		return pmu__error(err, -EBUSY, PMU_ERR_USAGE, NULL, -1,
				  "the simulated %s is programmed by a "
				  "monitoring context", d->m->name);
	if (t->kind != PMU__TARGET_SELF)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "a simulated PMU counts the program it is "
				  "fed, not a process, thread or CPU");
	d->slot = calloc(nev ? nev : 1, sizeof(*d->slot));
	if (!d->slot)
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	d->nev = nev;
	d->st = st;
	d->raw_width = t->raw_width;
	rc = d->xsc ? pmu__xsc_open(d, ev, place, st, err)
		    : pc_open(d, ev, place, st, err);
	if (rc) {
		sim_close(dd);
		return rc;
	}
	d->is_open = true;
	return 0;
}

static bool controlled(const struct sim_drv *d)
{
	return d->s->st.cstatus != 0;
}

static int sim_enable(struct pmu__drv *dd)
{
	struct sim_drv *d = sim_of(dd);

	if (!d->is_open)
		return -EBADF;
	if (d->enabled)
		return 0;
	if (d->xsc)
		pmu__xsc_enable(d);
	else if (controlled(d))
		pmu__perfctr_resume(&d->s->pc, &d->s->st);
	d->enabled = d->s->running = d->ever_enabled = true;
	d->t_mark = d->s->cycles;
	d->unsampled = 0;
	return 0;
}

static int sim_disable(struct pmu__drv *dd)
{
	struct sim_drv *d = sim_of(dd);

	if (!d->is_open)
		return -EBADF;
	if (!d->enabled)
		return 0;
	if (d->xsc)
		pmu__xsc_disable(d);
	else if (controlled(d))
		pmu__perfctr_suspend(&d->s->pc, &d->s->st);
	d->t_enabled += d->s->cycles - d->t_mark;
	d->enabled = d->s->running = false;
	return 0;
}

static int sim_reset(struct pmu__drv *dd)
{
	struct sim_drv *d = sim_of(dd);

	if (!d->is_open)
		return -EBADF;
	if (d->xsc) {
		pmu__xsc_reset(d);
	} else if (controlled(d)) {
		if (d->enabled)
			pmu__perfctr_sample(&d->s->pc, &d->s->st);
		pc_zero_sums(d);
	}
	d->t_enabled = 0;
	d->t_mark = d->s->cycles;
	return 0;
}

static uint64_t pc_read(const struct sim_drv *d, const struct sim_slot *sl)
{
	struct pmu_sim *s = d->s;

	if (sl->kind == SLOT_TSC)
		return d->enabled ? pmu__perfctr_read_tsc(&s->pc, &s->st)
				  : s->st.tsc_sum;
	return d->enabled ? pmu__perfctr_read_pmc(&s->pc, &s->st, sl->idx)
			  : s->st.pmc[sl->idx].sum;
}

/* Simulated time is cycles; a run that was enabled but fed no cycles
 * still ran (its counts are real), so it reports at least one. */
static uint64_t run_time(const struct sim_drv *d)
{
	uint64_t t = d->t_enabled;

	if (d->enabled)
		t += d->s->cycles - d->t_mark;
	return t || !d->ever_enabled ? t : 1;
}

static int sim_read(struct pmu__drv *dd, struct pmu__count *c, size_t stride,
		    size_t n)
{
	struct sim_drv *d = sim_of(dd);
	uint64_t t;

	if (!d->is_open)
		return -EBADF;
	if (n > d->nev)
		n = d->nev;
	t = run_time(d);
	for (size_t i = 0; i < n; i++) {
		const struct sim_slot *sl = &d->slot[i];
		struct pmu__count *ci = (struct pmu__count *)(void *)
					((char *)c + i * stride);

		if (sl->kind == SLOT_NONE) {
			*ci = (struct pmu__count){
				.status = d->st[i].err ? PMU__COUNT_UNSUPPORTED
						       : PMU__COUNT_IDLE,
				.err = d->st[i].err };
			continue;
		}
		ci->raw = d->xsc ? pmu__xsc_read(d, sl) : pc_read(d, sl);
		/* one PMU, no multiplexing: running is enabled */
		ci->enabled = ci->running = t;
		ci->scaled = ci->raw;
		ci->status = t ? PMU__COUNT_OK : PMU__COUNT_IDLE;
		ci->err = 0;
		ci->scaled_err = 0;
	}
	return (int)n;
}

/* ---- what the simulated program does ---- */

static int hook_suspend(void *arg)
{
	return sim_disable(arg);
}

static int hook_resume(void *arg)
{
	return sim_enable(arg);
}

static void hook_sample(void *arg)
{
	struct sim_drv *d = arg;

	if (!d->xsc && d->enabled && controlled(d))
		pmu__perfctr_sample(&d->s->pc, &d->s->st);
}

static void hook_fed(void *arg, uint64_t n)
{
	struct sim_drv *d = arg;

	d->unsampled += n;
	if (d->unsampled >= FOLD_EVERY) {
		hook_sample(d);
		d->unsampled = 0;
	}
}

/* A region statement: the feed's callback reads the counters as they
 * are there. */
static int hook_region(void *arg, bool begin, const char *name)
{
	struct sim_drv *d = arg;
	const struct pmu__feed *f = d->feed;

	return f && f->region ? f->region(f->region_arg, begin, name) : 0;
}

static int sim_feed(struct pmu__drv *dd, const struct pmu__feed *f,
		    struct pmu_error *err)
{
	struct sim_drv *d = sim_of(dd);
	const struct pmu__sim_hooks h = {
		.suspend = hook_suspend, .resume = hook_resume,
		.sample = hook_sample, .fed = hook_fed,
		.region = hook_region,
		.chunk = d->xsc ? 0 : FOLD_EVERY, .arg = d,
	};
	int rc;

	switch (f->kind) {
	case PMU__FEED_STREAM:
		d->feed = f;
		rc = pmu__sim_exec(d->s, f->text, f->len, &h, err);
		d->feed = NULL;
		return rc;
	case PMU__FEED_EVENT:
	case PMU__FEED_CYCLES:
		pmu__sim_burst(d->s, f->kind == PMU__FEED_CYCLES, f->code,
			       f->umask, f->n, &h);
		return 0;
	case PMU__FEED_IP:
		pmu__sim_set_ip(&d->s->sim, f->n);
		return 0;
	}
	return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
			  "unknown feed kind %d", (int)f->kind);
}

static int sim_stats(const struct pmu__drv *dd, struct pmu__drv_stats *st)
{
	const struct sim_drv *d = csim_of(dd);
	const struct pmu_sim *s = d->s;

	if (d->xsc) {
		*st = (struct pmu__drv_stats){ d->xr.irqs, d->xr.last_pc,
					       pmu__xsc_ctl_writes(d) };
		return 0;
	}
	*st = (struct pmu__drv_stats){
		.irqs = s->nirqs,
		.last_irq_ip = s->nkept ? s->irqs[s->nkept - 1].pc : 0,
		.ctl_writes = s->sim.stats.ctl_writes,
	};
	return 0;
}

static int sim_reg_read(struct pmu__drv *dd, unsigned space, uint32_t addr,
			uint64_t *val)
{
	struct sim_drv *d = sim_of(dd);

	return pmu__sim_reg_read(&d->s->sim, (enum pmu_sim_reg_kind)space,
				 addr, val) ? -EINVAL : 0;
}

static const char *sim_catalog(const struct pmu__drv *dd)
{
	const struct sim_drv *d = csim_of(dd);

	return d->m->catalog ? d->m->catalog : d->m->name;
}

static const char *sim_model_name(const struct pmu__drv *dd)
{
	return csim_of(dd)->m->name;
}

static void sim_destroy(struct pmu__drv *dd)
{
	struct sim_drv *d = sim_of(dd);

	if (!d)
		return;
	sim_close(dd);
	pmu_sim_close(d->s);
	free(d->pfm);
	free(d);
}

static const struct pmu__drv_hwmodel sim_model = {
	.catalog_model = sim_catalog,
	.hwmodel_name = sim_model_name,
};

static const struct pmu__drv_regs sim_regs = {
	.feed = sim_feed,
	.stats = sim_stats,
	.reg_read = sim_reg_read,
};

static const struct pmu__drv_pfm sim_pfm = {
	.pfm_hw = pmu__sim_pfm_hw,
	.pfm_put = pmu__sim_pfm_put,
};

const struct pmu__driver_ops pmu__sim_ops = {
	.name = "sim",
	.caps = PMU__DRV_HWMODEL,
	.open = sim_open,
	.close = sim_close,
	.enable = sim_enable,
	.disable = sim_disable,
	.reset = sim_reset,
	.read = sim_read,
	.destroy = sim_destroy,
	.hwmodel = &sim_model,
	.regs = &sim_regs,
	.pfm = &sim_pfm,
};

int pmu__sim_driver_new(const char *model, struct pmu__drv **out,
			struct pmu_error *err)
{
	const struct pmu_hwmodel *m = model ? pmu__hwmodel_find(model) : NULL;
	struct sim_drv *d;

	*out = NULL;
	if (!m)
		return pmu__error(err, -ENOENT, PMU_ERR_UNKNOWN_PMU,
				  model ? model : "", -1,
				  "%s%s%s: 'pmu info --list-models' lists the "
				  "simulated models", model ? "unknown simulated "
				  "model '" : "the sim driver needs a model",
				  model ? model : "", model ? "'" : "");
	d = calloc(1, sizeof(*d));
	if (!d)
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	d->drv.ops = &pmu__sim_ops;
	d->m = m;
	d->s = pmu_sim_open(m, err);
	if (!d->s) {
		int rc = -errno;

		free(d);
		return rc;
	}
	d->xsc = m->check.family == PMU_CHECK_XSCALE;
	if (d->xsc)
		pmu__xsc_attach(d);
	*out = &d->drv;
	return 0;
}
