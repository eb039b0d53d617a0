/* SPDX-License-Identifier: MIT */
/*
 * The emu driver's ops: from a placement to a control the emulator runs,
 * and back from what it reports to counts.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pmu/model.h>
#include <pmu/sim.h>

#include "drivers/emu_drv.h"
#include "drivers/emu_map.h"
#include "drivers/sim_api.h"
#include "util/error.h"

static struct emu_drv *emu_of(struct pmu__drv *d)
{
	return (struct emu_drv *)d;
}

static const struct emu_drv *cemu_of(const struct pmu__drv *d)
{
	return (const struct emu_drv *)d;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* P6-style EVNTSELs (P6 family, K7, K8, family 10h) take an interrupt
 * bit: the models whose counters can sample under emulation. */
static bool can_sample(const struct pmu_hwmodel *m)
{
	return m->check.family == PMU_CHECK_P6_LIKE;
}

/* ---- the control ---- */

/* An i-mode counter's period: the event's period= term, or the
 * catalog encoding's. */
static uint64_t ev_period(const struct pmu__ev *e)
{
	return e->attr.freq ? 0 : e->period ? e->period : e->attr.sample_period;
}

static bool put_pmc(struct emu_drv *d, const struct pmu__ev *e,
		    const struct pmu__place *pl, struct pmu_control *c,
		    struct emu_slot *sl, struct pmu__ev_state *st)
{
	bool imode = ev_period(e) != 0;
	unsigned k = c->nractrs + c->nrictrs;

	if (pl->counter < 0 || pl->counter >= PMU__PLACE_FIXED ||
	    k >= PMU_MAX_CTRS) {
		pmu__ev_unsupported(st, "no counter of the emulated %s takes it",
			    d->m->name);
		return false;
	}
	if (imode && (!can_sample(d->m) || ev_period(e) > INT32_MAX)) {
		pmu__ev_unsupported(st, "%s: the emulated %s cannot sample: sampling "
			    "under emulation needs a model with P6-style "
			    "counters (p6, pii, piii, pentm, k7, k8, k8c, "
			    "fam10h) and a period below 2^31", e->name,
			    d->m->name);
		return false;
	}
	pmu__place_put(d->m, pl, imode ? (uint32_t)ev_period(e) : 0, c);
	*sl = (struct emu_slot){ EMU_SLOT_PMC, k };
	return true;
}

/* a-mode counters first, then i-mode ones, as perfctr wants them. */
static void build(struct emu_drv *d, const struct pmu__ev *ev,
		  const struct pmu__place *place, struct pmu__ev_state *st,
		  struct pmu_control *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < d->nev; i++)
		d->slot[i] = (struct emu_slot){ EMU_SLOT_NONE, 0 };
	for (int pass = 0; pass < 2 && place; pass++) {
		for (size_t i = 0; i < d->nev; i++) {
			const struct pmu__place *pl = &place[i];
			bool imode = ev_period(&ev[i]) != 0;

			if (st[i].err || pl->counter == PMU__PLACE_NONE ||
			    imode != (pass == 1))
				continue;
			if (pl->counter == PMU__PLACE_TSC) {
				c->tsc_on = 1;
				d->slot[i] = (struct emu_slot){ EMU_SLOT_TSC, 0 };
				continue;
			}
			put_pmc(d, &ev[i], pl, c, &d->slot[i], &st[i]);
		}
	}
}

/* ---- what the emulation produces ---- */

static bool rule_counts(const struct pmu_emu_rule *r,
			const struct pmu__sim_cfg *cfg)
{
	if (!(cfg->flags & PMU_SIM_CFG_ON) || cfg->key != r->key)
		return false;
	return !r->umask || !cfg->umask || (cfg->umask & r->umask);
}

static bool produced(const struct pmu__sim_cfg *cfg,
		     const struct pmu_emu_rule *rules, size_t n)
{
	if (cfg->flags & PMU_SIM_CFG_CYCLES)
		return true;
	for (size_t i = 0; i < n; i++)
		if (rule_counts(&rules[i], cfg))
			return true;
	return false;
}

/* Load c on a local simulated PMU (the sim driver's checks and
 * messages), then look at what each counter was decoded to count: mark
 * the events no rule feeds, and keep the rules some counter counts. */
static int check(struct emu_drv *d, const struct pmu__ev *ev,
		 struct pmu__ev_state *st, const struct pmu_control *c,
		 bool *dropped, struct pmu_error *err)
{
	size_t nr = 0;
	const struct pmu_emu_rule *rules = pmu__emu_rules(d->m->name, &nr);
	struct pmu_sim *s = pmu_sim_open(d->m, err);
	int rc;

	if (!s)
		return -errno;
	rc = pmu_sim_control(s, c, err);
	if (rc)
		goto out;
	pmu__perfctr_resume(&s->pc, &s->st);
	d->ctx.nrules = 0;
	d->ctx.flags = c->tsc_on ? PMU_EMU_CFG_CYCLES : 0;
	for (size_t i = 0; i < d->nev; i++) {
		const struct pmu__sim_cfg *cfg;

		if (d->slot[i].kind != EMU_SLOT_PMC)
			continue;
		cfg = &s->sim.cfg[s->st.hw[d->slot[i].idx]];
		if (cfg->flags & PMU_SIM_CFG_CYCLES)
			d->ctx.flags |= PMU_EMU_CFG_CYCLES;
		if (produced(cfg, rules, nr))
			continue;
		pmu__ev_unsupported(&st[i], "the emulation produces no %s on the "
			    "emulated %s (docs/emulation.md lists what it "
			    "counts)", ev[i].name, d->m->name);
		*dropped = true;
	}
	for (size_t r = 0; r < nr && d->ctx.nrules < PMU_EMU_MAX_RULES; r++)
		for (unsigned hw = 0; hw < s->sim.nr_hw; hw++)
			if (rule_counts(&rules[r], &s->sim.cfg[hw])) {
				d->ctx.rules[d->ctx.nrules++] = rules[r];
				break;
			}
	pmu__perfctr_suspend(&s->pc, &s->st);
out:
	pmu_sim_close(s);
	return rc;
}

int pmu__emu_make_context(struct emu_drv *d, const struct pmu__ev *ev,
			  const struct pmu__place *place,
			  struct pmu__ev_state *st, struct pmu_error *err)
{
	struct pmu_control c;
	bool dropped = false;
	int rc;

	memset(&d->ctx, 0, sizeof(d->ctx));
	snprintf(d->ctx.model, sizeof(d->ctx.model), "%s", d->m->name);
	build(d, ev, place, st, &c);
	rc = check(d, ev, st, &c, &dropped, err);
	if (!rc && dropped) {
		/* again without what the emulation cannot count */
		build(d, ev, place, st, &c);
		rc = check(d, ev, st, &c, &dropped, err);
	}
	if (rc)
		return rc;
	d->ctx.control = c;
	if (d->set.regions)
		d->ctx.flags |= PMU_EMU_CFG_REGIONS;
	return 0;
}

/* ---- ops ---- */

static void emu_close(struct pmu__drv *dd)
{
	struct emu_drv *d = emu_of(dd);

	if (d->mode == EMU_MODE_SELF)
		pmu__emu_self_close(d);
	if (d->child) {
		pmu__emu_child_free(d->child);
		d->child = NULL;
	}
	free(d->slot);
	free(d->slot_set);
	d->slot = NULL;
	d->slot_set = NULL;
	d->nev = 0;
	d->nsets = 0;
	d->mode = EMU_MODE_NONE;
	d->is_open = d->enabled = d->ever_enabled = false;
	d->t_enabled = 0;
}

static void fill_config(const struct emu_drv *d, struct pmu_emu_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->magic = PMU_EMU_MAGIC;
	cfg->version = PMU_EMU_VERSION;
	cfg->size = sizeof(*cfg);
	cfg->report_ms = d->set.report_ms;
	cfg->i1 = d->set.i1;
	cfg->d1 = d->set.d1;
	cfg->ll = d->set.ll;
	cfg->predictor = d->set.predictor;
	cfg->costs = d->set.costs;
	cfg->max_samples = d->set.max_samples;
	cfg->ctx = d->ctx;
	cfg->report_insns = d->set.report_insns;
	pmu__emu_sets_config(d, cfg);
}

static int open_target(struct emu_drv *d, const struct pmu__target *t,
		       struct pmu_error *err)
{
	struct pmu_emu_config cfg;

	if (t->kind == PMU__TARGET_SELF) {
		d->mode = EMU_MODE_SELF;
		return pmu__emu_self_open(d, err);
	}
	if (t->kind != PMU__TARGET_CHILD)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "the emulated PMU counts a command it runs "
				  "(pmu stat --emulate -- CMD) or the program "
				  "that runs under it, not a process, thread "
				  "or CPU");
	/* its counts are the command's from its start: nothing to hold */
	if (t->start_stopped)
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED,
				  NULL, -1, "the emulated PMU counts a command "
				  "from its start: it cannot be opened stopped "
				  "(count a part with PMU_EMU_START/STOP "
				  "regions)");
	if (!d->child)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "an emulated child must run the command line "
				  "of pmu_session_command(): make it before "
				  "forking the child");
	d->mode = EMU_MODE_CHILD;
	if (d->raw)
		pmu__emu_child_keep_raw(d->child);
	fill_config(d, &cfg);
	return pmu__emu_child_start(d->child, &cfg, err);
}

/* The context is made: start the target. */
static int open_made(struct emu_drv *d, const struct pmu__target *t, int rc,
		     struct pmu_error *err)
{
	if (!rc)
		rc = open_target(d, t, err);
	if (rc) {
		d->mode = EMU_MODE_NONE;
		free(d->slot);
		free(d->slot_set);
		d->slot = NULL;
		d->slot_set = NULL;
		d->nev = 0;
		d->nsets = 0;
		return rc;
	}
	d->is_open = true;
	if (d->mode == EMU_MODE_CHILD) {
		/* counting starts at exec, as perf's enable_on_exec */
		d->enabled = d->ever_enabled = true;
		d->t_mark = now_ns();
	}
	return 0;
}

static int busy(const struct emu_drv *d, struct pmu_error *err)
{
	return pmu__error(err, -EBUSY, PMU_ERR_USAGE, NULL, -1,
			  "the emulated %s already has events open",
			  d->m->name);
}

static int emu_open(struct pmu__drv *dd, const struct pmu__ev *ev,
		    size_t nev, const struct pmu__place *place,
		    const struct pmu__target *t, struct pmu__ev_state *st,
		    struct pmu_error *err)
{
	struct emu_drv *d = emu_of(dd);

	if (d->is_open)
		return busy(d, err);
	d->slot = calloc(nev ? nev : 1, sizeof(*d->slot));
	if (!d->slot)
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	d->nev = nev;
	d->st = st;
	return open_made(d, t, pmu__emu_make_context(d, ev, place, st, err),
			 err);
}

static int emu_open_sets(struct pmu__drv *dd, const struct pmu__ev *ev,
			 size_t nev, const struct pmu__place *place,
			 const struct pmu__drv_set *sets, size_t nsets,
			 const struct pmu__target *t, struct pmu__ev_state *st,
			 struct pmu_error *err)
{
	struct emu_drv *d = emu_of(dd);

	if (d->is_open)
		return busy(d, err);
	if (t->kind != PMU__TARGET_CHILD)
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED, NULL,
				  -1, "event sets under the emulator count a "
				  "command it runs (pmu stat --emulate --set "
				  "... -- CMD), not the program itself");
	return open_made(d, t, pmu__emu_sets_build(d, ev, nev, place, sets,
						   nsets, st, err), err);
}

static int emu_enable(struct pmu__drv *dd)
{
	struct emu_drv *d = emu_of(dd);

	if (!d->is_open)
		return -EBADF;
	if (d->enabled)
		return 0;
	d->enabled = d->ever_enabled = true;
	/* last: the program's own events count from here */
	if (d->mode == EMU_MODE_SELF)
		return pmu__emu_self_op(d, PMU_EMU_REQ_ENABLE) ? -EIO : 0;
	d->t_mark = now_ns();
	return 0;
}

static int emu_disable(struct pmu__drv *dd)
{
	struct emu_drv *d = emu_of(dd);

	if (!d->is_open)
		return -EBADF;
	if (!d->enabled)
		return 0;
	/* first: the program's own events count up to here */
	if (d->mode == EMU_MODE_SELF && pmu__emu_self_op(d, PMU_EMU_REQ_DISABLE))
		return -EIO;
	d->enabled = false;
	if (d->mode != EMU_MODE_CHILD)
		return 0;
	pmu__emu_child_drain(d->child);
	d->t_enabled += now_ns() - d->t_mark;
	return 0;
}

static int emu_reset(struct pmu__drv *dd)
{
	struct emu_drv *d = emu_of(dd);

	if (!d->is_open)
		return -EBADF;
	if (d->mode == EMU_MODE_SELF)
		return pmu__emu_self_op(d, PMU_EMU_REQ_RESET) ? -EIO : 0;
	return -EOPNOTSUPP;      /* a command's counts are its own */
}

static int counts(struct emu_drv *d, struct emu_counts *c, uint64_t *t)
{
	if (d->mode == EMU_MODE_SELF) {
		if (pmu__emu_self_read(d, c))
			return -EIO;
		*t = c->cycles;
	} else {
		pmu__emu_child_counts(d->child, c);
		*t = d->t_enabled + (d->enabled ? now_ns() - d->t_mark : 0);
	}
	/* a run that was enabled counted, even if no time passed */
	if (!*t && d->ever_enabled)
		*t = 1;
	return 0;
}

/* Each event's value from what the emulator reported; t: enabled and
 * running time of events outside sets. */
static int values(struct emu_drv *d, const struct emu_counts *k, uint64_t t,
		  struct pmu__count *c, size_t stride, size_t n)
{
	if (n > d->nev)
		n = d->nev;
	for (size_t i = 0; i < n; i++) {
		const struct emu_slot *sl = &d->slot[i];
		struct pmu__count *ci = (struct pmu__count *)(void *)
					((char *)c + i * stride);

		if (sl->kind == EMU_SLOT_NONE) {
			*ci = (struct pmu__count){
				.status = d->st[i].err ? PMU__COUNT_UNSUPPORTED
						       : PMU__COUNT_IDLE,
				.err = d->st[i].err };
			continue;
		}
		if (d->nsets) {
			pmu__emu_sets_value(d, k, i, ci);
			continue;
		}
		ci->raw = sl->kind == EMU_SLOT_TSC ? k->tsc : k->sum[sl->idx];
		ci->enabled = ci->running = t;
		ci->scaled = ci->raw;
		ci->status = t ? PMU__COUNT_OK : PMU__COUNT_IDLE;
		ci->err = 0;
	}
	return (int)n;
}

static int emu_read(struct pmu__drv *dd, struct pmu__count *c, size_t stride,
		    size_t n)
{
	struct emu_drv *d = emu_of(dd);
	struct emu_counts k;
	uint64_t t;

	if (!d->is_open)
		return -EBADF;
	if (counts(d, &k, &t))
		return -EIO;
	return values(d, &k, t, c, stride, n);
}

static bool has_marks(const struct emu_drv *d)
{
	return d->is_open && d->mode == EMU_MODE_CHILD && d->set.report_insns;
}

static ssize_t emu_nmarks(struct pmu__drv *dd)
{
	struct emu_drv *d = emu_of(dd);

	return has_marks(d) ? pmu__emu_child_nmarks(d->child) : -EOPNOTSUPP;
}

/* Time at a mark is its guest instructions: the same every run. */
static int emu_read_mark(struct pmu__drv *dd, size_t m, uint64_t *insns,
			 struct pmu__count *c, size_t stride, size_t n)
{
	struct emu_drv *d = emu_of(dd);
	struct emu_counts *k;
	int rc;

	if (!has_marks(d))
		return -EOPNOTSUPP;
	k = malloc(sizeof(*k));
	if (!k)
		return -ENOMEM;
	rc = pmu__emu_child_mark(d->child, m, k);
	if (!rc) {
		*insns = k->kind[PMU_EMU_K_INSTR];
		rc = values(d, k, *insns ? *insns : 1, c, stride, n);
	}
	free(k);
	return rc;
}

static int emu_command(struct pmu__drv *dd, char *const *argv, char ***out,
		       struct pmu_error *err)
{
	return pmu__emu_command(emu_of(dd), argv, out, err);
}

static const char *emu_catalog(const struct pmu__drv *dd)
{
	const struct emu_drv *d = cemu_of(dd);

	return d->m->catalog ? d->m->catalog : d->m->name;
}

static const char *emu_model_name(const struct pmu__drv *dd)
{
	return cemu_of(dd)->m->name;
}

static void emu_destroy(struct pmu__drv *dd)
{
	struct emu_drv *d = emu_of(dd);

	if (!d)
		return;
	emu_close(dd);
	free(d);
}

static int emu_set_info(struct pmu__drv *dd, size_t set, uint64_t *runs,
			uint64_t *duration)
{
	struct emu_drv *d = emu_of(dd);
	struct emu_counts k;
	uint64_t t;

	if (!d->is_open || set >= d->nsets)
		return -EINVAL;
	if (counts(d, &k, &t))
		return -EIO;
	*runs = k.set[set].runs;
	*duration = k.set[set].duration;
	return 0;
}

static const struct pmu__drv_stream emu_stream = {
	.keep = pmu__emu_keep_records,
	.take = pmu__emu_records,
	.counter = pmu__emu_counter,
	.lost = pmu__emu_lost,
};

static const struct pmu__drv_hwmodel emu_model = {
	.catalog_model = emu_catalog,
	.hwmodel_name = emu_model_name,
};

static const struct pmu__drv_guest emu_guest = {
	.command = emu_command,
	.open_sets = emu_open_sets,
	.set_info = emu_set_info,
	.nmarks = emu_nmarks,
	.read_mark = emu_read_mark,
};

const struct pmu__driver_ops pmu__emu_ops = {
	.name = "emu",
	.caps = PMU__DRV_HWMODEL,
	.stream = &emu_stream,
	.open = emu_open,
	.close = emu_close,
	.enable = emu_enable,
	.disable = emu_disable,
	.reset = emu_reset,
	.read = emu_read,
	.destroy = emu_destroy,
	.hwmodel = &emu_model,
	.guest = &emu_guest,
};

long pmu__emu_samples(struct pmu__drv *dd, struct pmu_emu_rec_sample *out,
		      size_t max)
{
	struct emu_drv *d = emu_of(dd);

	if (!dd || dd->ops != &pmu__emu_ops || !d->is_open)
		return -EINVAL;
	return d->mode == EMU_MODE_SELF ? pmu__emu_self_samples(d, out, max)
		: pmu__emu_child_samples(d->child, out, max);
}

int pmu__emu_keep_records(struct pmu__drv *dd)
{
	struct emu_drv *d = emu_of(dd);

	if (!dd || dd->ops != &pmu__emu_ops || d->is_open)
		return -EINVAL;
	d->raw = true;
	return 0;
}

long pmu__emu_records(struct pmu__drv *dd, void *out, size_t len)
{
	struct emu_drv *d = emu_of(dd);

	if (!dd || dd->ops != &pmu__emu_ops || !d->is_open ||
	    d->mode != EMU_MODE_CHILD || !d->raw)
		return -EINVAL;
	return pmu__emu_child_records(d->child, out, len);
}

int pmu__emu_counter(const struct pmu__drv *dd, size_t i)
{
	const struct emu_drv *d = cemu_of(dd);

	if (!dd || dd->ops != &pmu__emu_ops || i >= d->nev ||
	    d->slot[i].kind != EMU_SLOT_PMC)
		return -1;
	return (int)d->slot[i].idx;
}

uint64_t pmu__emu_lost(struct pmu__drv *dd)
{
	struct emu_drv *d = emu_of(dd);
	struct emu_counts k;
	uint64_t t;

	if (!dd || dd->ops != &pmu__emu_ops || !d->is_open || counts(d, &k, &t))
		return 0;
	return k.lost;
}

int pmu__emu_kinds(struct pmu__drv *dd, uint64_t kind[PMU_EMU_NKIND])
{
	struct emu_drv *d = emu_of(dd);
	struct emu_counts k;
	uint64_t t;

	if (!dd || dd->ops != &pmu__emu_ops || !d->is_open)
		return -EINVAL;
	if (counts(d, &k, &t))
		return -EIO;
	memcpy(kind, k.kind, sizeof(k.kind));
	return 0;
}

/* Without a model named: the simulated model closest to this host's CPU
 * ($PMU_CPUID, "Vendor-Family-Model[-Stepping]", standing for it as for
 * the event catalog) when it samples under emulation (pmu record's
 * default is this one too), else fam10h, the most complete of those. */
static const struct pmu_hwmodel *default_model(void)
{
	const struct pmu_hwmodel *m = pmu_hwmodel_host();

	return m && can_sample(m) ? m : pmu__hwmodel_find("fam10h");
}

int pmu__emu_driver_new(const char *model, const char *settings,
			struct pmu__drv **out, struct pmu_error *err)
{
	bool given = model && *model;
	/* $PMU_EMU_MODEL: the default in place of the host's (a script's
	 * runs alike on any machine), with the host's caches still */
	const char *env = getenv("PMU_EMU_MODEL");
	bool from_env = !given && env && *env;
	const struct pmu_hwmodel *m;
	struct emu_drv *d;
	int rc;

	if (from_env)
		model = env;
	m = given || from_env ? pmu__hwmodel_find(model) : default_model();
	*out = NULL;
	if (!m)
		return pmu__error(err, -ENOENT, PMU_ERR_UNKNOWN_PMU, model, -1,
				  "unknown model '%s' to emulate%s: 'pmu info "
				  "--list-models' lists the simulated models",
				  model, from_env ? " ($PMU_EMU_MODEL)" : "");
	d = calloc(1, sizeof(*d));
	if (!d)
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	d->drv.ops = &pmu__emu_ops;
	d->m = m;
	rc = pmu__emu_settings(m, given, settings, &d->set, err);
	if (rc) {
		free(d);
		return rc;
	}
	*out = &d->drv;
	return 0;
}
