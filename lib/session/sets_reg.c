/* SPDX-License-Identifier: MIT */
/*
 * Event sets on a register-level (simulated) PMU: perfmon2's own sets.
 * The session becomes a monitoring context on its driver's PMU
 * (lib/perfmon): each set's events are placed on the model's counters as
 * if alone, turned into the PMC values the model's low-level driver
 * would write (perfctr's control on a scratch simulator; the XScale
 * API's PMNC/EVTSEL), and handed to the context's set of the same
 * index with their PMDs.  Switching is the context's (seed-semantics
 * 2.4): time switching on the set's own counting time in simulated
 * cycles, overflow switching on its designated event's overflows.
 * Reading is one pfm_read per set.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/sim.h>

#include "hwmodel/control.h"
#include "perfmon/pfm.h"
#include "session/sample.h"
#include "session/sets.h"
#include "util/error.h"
#include "util/scale.h"

static struct pmu__sets_reg *reg_of(const struct pmu_session *s)
{
	return s->sets ? s->sets->reg : NULL;
}

/* ---- placement and register values ---- */

static int pmd_of_counter(const struct pmu_hwmodel *m, int counter)
{
	if (counter == PMU__PLACE_TSC) {
		for (unsigned i = 0; i < m->nr_pmds; i++)
			if (m->tsc_kind == PMU_TSC_CCNT &&
			    m->pmds[i].addr == m->tsc_addr)
				return (int)i;
		return REG_TIME;
	}
	if (counter < 0 || counter >= (int)m->nr_hw_ctrs)
		return REG_NONE;
	for (unsigned i = 0; i < m->nr_pmds; i++)
		if (m->pmds[i].addr == m->ctr_addr[counter])
			return (int)i;
	return REG_NONE;
}

/* Events [first, end) with the designated one (if any) after them:
 * placed together as the session places one set. */
int pmu__sets_place(struct pmu_session *s, size_t first, size_t end,
		    const struct pmu__ev *dsg, struct pmu__place *place,
		    struct pmu__ev_state *st, struct pmu_error *err)
{
	struct pmu_session view = *s;
	size_t n = end - first + (dsg != NULL);
	struct pmu__ev *ev = calloc(n, sizeof(*ev));
	int ret;

	if (!ev)
		return -ENOMEM;
	memcpy(ev, &s->ev[first], (end - first) * sizeof(*ev));
	if (dsg) {
		ev[n - 1] = *dsg;
		ev[n - 1].group = s->ngroups;
		ev[n - 1].leader = true;
	}
	view.ev = ev;
	view.n = n;
	view.st = st;
	view.place = place;
	view.sets = NULL;
	ret = pmu__session_place(&view,
				 s->drv->ops->hwmodel->catalog_model(s->drv),
				 err);
	free(ev);
	return ret;
}

static const struct pmu_hwmodel *model_of(struct pmu_session *s)
{
	const char *name = s->drv->ops->hwmodel
			   ? s->drv->ops->hwmodel->hwmodel_name(s->drv) : NULL;

	return name ? pmu__hwmodel_find(name) : NULL;
}

/* Set k: its events' PMDs and its PMC values. */
static int prepare_set(struct pmu_session *s, struct pmu__sets_reg *r,
		       size_t k, struct pmu_error *err)
{
	const struct pmu_hwmodel *m = model_of(s);
	const struct pmu__set_policy *pol = pmu__sets_policy(s, k);
	size_t first = s->sets->set[k].first, end = pmu__sets_end(s, k), n, i;
	const struct pmu__ev *dsg = NULL;
	struct pmu__place *pl;
	struct pmu__ev_state *st;
	int *own = NULL;        /* a PMD of the format's (IBS), or -1 */
	int ret;

	r->dsg[k] = REG_NONE;
	if (pol->kind == PMU_SWITCH_OVERFLOW) {
		dsg = &pol->ev;
		for (i = first; i < end; i++)
			if (!strcmp(s->ev[i].name, pol->ev.name))
				dsg = NULL; /* the set counts it: that one */
	}
	n = end - first + (dsg != NULL);
	pl = calloc(n, sizeof(*pl));
	st = calloc(n, sizeof(*st));
	own = malloc(n * sizeof(*own));
	ret = pl && st && own ? 0 : -ENOMEM;
	for (i = 0; !ret && i < n; i++)
		own[i] = REG_NONE;
	if (!ret) {
		memcpy(st, &s->st[first], (end - first) * sizeof(*st));
		ret = pmu__sets_place(s, first, end, dsg, pl, st, err);
	}
	if (!ret && s->smpl)
		ret = pmu__smpl_reg_place(s, first, end, pl, st, own, err);
	if (!ret)
		ret = pmu__place_pmcs(m, pl, n, r->pmcs[k], err);
	for (i = 0; !ret && i < n; i++) {
		int pmd = own[i] >= 0 ? own[i]
			  : st[i].err || st[i].idle ? REG_NONE
			  : pmd_of_counter(m, pl[i].counter);

		if (i < end - first) {
			r->pmd[first + i] = pmd;
			s->st[first + i] = st[i];
			s->place[first + i] = pl[i];
			if (pol->kind == PMU_SWITCH_OVERFLOW &&
			    !strcmp(s->ev[first + i].name, pol->ev.name))
				r->dsg[k] = pmd;
		} else {
			r->dsg[k] = pmd;
		}
	}
	if (!ret && pol->kind == PMU_SWITCH_OVERFLOW && r->dsg[k] < 0)
		ret = pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED,
				 pol->ev.name, -1, "set %zu switches on "
				 "overflows of %s, which the simulated %s "
				 "cannot count beside the set's events", k,
				 pol->ev.name, m->name);
	free(own);
	free(pl);
	free(st);
	return ret;
}

/* ---- the context ---- */

static int fail(struct pmu_error *err, const char *what)
{
	const struct pmu_error *e = pmu_perfmon_error();

	return pmu__error(err, -errno, e->kind, NULL, -1, "%s: %s", what,
			  e->message);
}

/* Set k's registers into the context: every PMC, its counters at 0
 * (the designated one at -period). */
static int program_set(struct pmu_session *s, struct pmu__sets_reg *r,
		       size_t k, struct pmu_error *err)
{
	const struct pmu_hwmodel *m = model_of(s);
	const struct pmu__set_policy *pol = pmu__sets_policy(s, k);
	pfarg_pmr_t pc[PMU_MODEL_MAX_PMCS];
	uint64_t val[PMU_MODEL_MAX_PMCS];
	uint32_t fl[PMU_MODEL_MAX_PMCS] = { 0 };
	pfarg_pmd_attr_t pd;

	memcpy(val, r->pmcs[k], sizeof(val));
	if (s->smpl)
		pmu__smpl_reg_pmcs(s, s->sets->set[k].first, pmu__sets_end(s, k),
				   r->pmd, val, fl);
	for (unsigned i = 0; i < m->nr_pmcs; i++)
		pc[i] = (pfarg_pmr_t){ .reg_num = (uint16_t)i,
				       .reg_set = (uint16_t)k,
				       .reg_flags = fl[i],
				       .reg_value = val[i] };
	if (pfm_write(r->fd, 0, PFM_RW_PMC, pc, m->nr_pmcs * sizeof(*pc)))
		return fail(err, "event set registers");
	for (size_t i = s->sets->set[k].first; i < pmu__sets_end(s, k); i++) {
		if (r->pmd[i] < 0 || r->pmd[i] == r->dsg[k])
			continue;
		pd = (pfarg_pmd_attr_t){ .reg_num = (uint16_t)r->pmd[i],
					 .reg_set = (uint16_t)k };
		if (s->smpl)
			pmu__smpl_reg_pmd(s, i, r->pmd, &pd);
		if (pfm_write(r->fd, 0, PFM_RW_PMD_ATTR, &pd, sizeof(pd)))
			return fail(err, "event set counters");
	}
	if (r->dsg[k] < 0)
		return 0;
	r->dsg_value[k] = 0 - pol->period;
	pd = (pfarg_pmd_attr_t){ .reg_num = (uint16_t)r->dsg[k],
				 .reg_set = (uint16_t)k,
				 .reg_value = r->dsg_value[k],
				 .reg_long_reset = r->dsg_value[k],
				 .reg_short_reset = r->dsg_value[k],
				 .reg_ovfl_swcnt = pol->count };
	return pfm_write(r->fd, 0, PFM_RW_PMD_ATTR, &pd, sizeof(pd))
	       ? fail(err, "the designated event's counter") : 0;
}

/* The context's sets as the session's policies say (this also resets
 * their runs and durations). */
static int define_sets(struct pmu_session *s, struct pmu__sets_reg *r,
		       struct pmu_error *err)
{
	for (size_t k = 0; k < s->sets->n; k++) {
		const struct pmu__set_policy *pol = pmu__sets_policy(s, k);
		pfarg_set_desc_t d = { .set_id = (uint16_t)k };

		if (pol->kind == PMU_SWITCH_TIME) {
			d.set_flags = PFM_SETFL_TIME_SWITCH;
			d.set_timeout = pol->timeout_ns;
		} else if (pol->kind == PMU_SWITCH_OVERFLOW) {
			d.set_flags = PFM_SETFL_OVFL_SWITCH;
		}
		if (pfm_create_sets(r->fd, 0, &d, sizeof(d)))
			return fail(err, "event sets");
	}
	return 0;
}

static bool any_overflow_set(const struct pmu_session *s)
{
	for (size_t k = 0; k < s->sets->n; k++)
		if (pmu__sets_policy(s, k)->kind == PMU_SWITCH_OVERFLOW)
			return true;
	return false;
}

static int make_context(struct pmu_session *s, struct pmu__sets_reg *r,
			struct pmu_error *err)
{
	const struct pfm_fmt *fmt = any_overflow_set(s) ? &pmu__pfm_fmt_turns
							: NULL;
	union pmu__smpl_arg arg;
	size_t argsz = 0;
	int fd;

	if (s->smpl && (fd = pmu__smpl_reg_format(s, &fmt, &arg, &argsz, err)))
		return fd;
	pmu__pfm_lock();
	fd = pmu__pfm_create_on(s->drv, 0, fmt, s->smpl ? &arg : NULL, argsz,
				err);
	pmu__pfm_unlock();
	if (fd < 0)
		return fd;
	r->fd = fd;
	return 0;
}

static void reg_free(struct pmu_session *s)
{
	struct pmu__sets_reg *r = reg_of(s);

	if (!r)
		return;
	if (r->fd >= 0)
		pmu_perfmon_close(r->fd);
	free(r->pmd);
	free(r->pmcs);
	free(r->dsg);
	free(r->dsg_value);
	free(r);
	s->sets->reg = NULL;
}

static struct pmu__sets_reg *reg_new(struct pmu_session *s)
{
	struct pmu__sets_reg *r = calloc(1, sizeof(*r));
	size_t ns = s->sets->n;

	if (!r)
		return NULL;
	r->fd = -1;
	r->pmd = calloc(s->n + 1, sizeof(*r->pmd));
	r->pmcs = calloc(ns, sizeof(*r->pmcs));
	r->dsg = calloc(ns, sizeof(*r->dsg));
	r->dsg_value = calloc(ns, sizeof(*r->dsg_value));
	s->sets->reg = r;
	if (!r->pmd || !r->pmcs || !r->dsg || !r->dsg_value) {
		reg_free(s);
		return NULL;
	}
	return r;
}

static int open_reg(struct pmu_session *s, struct pmu_error *err)
{
	struct pmu__sets_reg *r;
	int ret = 0;

	if (!s->drv->ops->hwmodel || !s->drv->ops->pfm)
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED, NULL,
				  -1, "event sets are not supported on the %s "
				  "driver", s->drv->ops->name);
	if (s->smpl && any_overflow_set(s))
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_CONFLICT, NULL, -1,
				  "a sampling session switches its event sets "
				  "by time only: an overflow switch would reset "
				  "the counters the samples come from");
	s->st = calloc(s->n + 1, sizeof(*s->st));
	s->place = calloc(s->n + 1, sizeof(*s->place));
	s->cnt = calloc(s->n + 1, sizeof(*s->cnt));
	if (!s->st || !s->place || !s->cnt || !(r = reg_new(s)))
		return -ENOMEM;
	for (size_t k = 0; !ret && k < s->sets->n; k++)
		ret = prepare_set(s, r, k, err);
	if (!ret)
		ret = make_context(s, r, err);
	if (!ret)
		ret = define_sets(s, r, err);
	for (size_t k = 0; !ret && k < s->sets->n; k++)
		ret = program_set(s, r, k, err);
	if (!ret && pfm_attach(r->fd, 0, gettid()))
		ret = fail(err, "attach");
	return ret;
}

int pmu__session_sets_reg_open(struct pmu_session *s,
			       const struct pmu__target *t,
			       struct pmu_error *err)
{
	int ret;

	if (t->kind != PMU__TARGET_SELF)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "a simulated PMU counts the program it is "
				  "fed, not a process, thread or CPU");
	for (size_t k = 0; k < s->sets->n; k++)
		if (pmu__sets_end(s, k) == s->sets->set[k].first)
			return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
					  "event set %zu has no events: add "
					  "some after pmu_session_add_set()",
					  k);
	ret = open_reg(s, err);
	if (ret) {
		reg_free(s);
		pmu__session_free_open(s);
		return ret;
	}
	s->open = true;
	return 0;
}

/* ---- at run time ---- */

int pmu__sets_reg_start(struct pmu_session *s)
{
	struct pmu__sets_reg *r = reg_of(s);

	if (pfm_set_state(r->fd, 0, PFM_ST_START))
		return -errno;
	r->counting = true;
	return 0;
}

int pmu__sets_reg_stop(struct pmu_session *s)
{
	struct pmu__sets_reg *r = reg_of(s);

	if (pfm_set_state(r->fd, 0, PFM_ST_STOP))
		return -errno;
	r->counting = false;
	return 0;
}

/* Counts back to 0, runs and durations too: detached, the sets are
 * defined again and their counters written. */
int pmu__sets_reg_reset(struct pmu_session *s)
{
	struct pmu__sets_reg *r = reg_of(s);
	bool was = r->counting;
	int ret = 0;

	if (pfm_attach(r->fd, 0, PFM_NO_TARGET))
		return -errno;
	ret = define_sets(s, r, NULL);
	for (size_t k = 0; !ret && k < s->sets->n; k++)
		ret = program_set(s, r, k, NULL);
	if (!ret && pfm_attach(r->fd, 0, gettid()))
		ret = -errno;
	r->counting = false;
	return !ret && was ? pmu__sets_reg_start(s) : ret;
}

static int set_infos(struct pmu_session *s, pfarg_set_info_t *in)
{
	for (size_t k = 0; k < s->sets->n; k++)
		in[k] = (pfarg_set_info_t){ .set_id = (uint16_t)k };
	return pfm_getinfo_sets(reg_of(s)->fd, 0, in, s->sets->n * sizeof(*in))
	       ? -errno : 0;
}

/* What set k's events counted, and the spread of their estimates over
 * `total` ns: one call each for the set. */
static int read_set(struct pmu_session *s, size_t k, uint64_t total,
		    uint64_t *val, uint64_t *errs)
{
	struct pmu__sets_reg *r = reg_of(s);
	size_t first = s->sets->set[k].first, end = pmu__sets_end(s, k), n = 0;
	unsigned pmd[PMU_MODEL_MAX_PMDS];
	uint64_t got[PMU_MODEL_MAX_PMDS], e[PMU_MODEL_MAX_PMDS];

	for (size_t i = first; i < end; i++)
		if (r->pmd[i] >= 0 && n < PMU_MODEL_MAX_PMDS)
			pmd[n++] = (unsigned)r->pmd[i];
	if (n && (pmu__pfm_counts(r->fd, (unsigned)k, pmd, n, got) ||
		  pmu__pfm_count_errs(r->fd, (unsigned)k, pmd, n, total, e)))
		return -EINVAL;
	n = 0;
	for (size_t i = first; i < end; i++) {
		val[i] = r->pmd[i] >= 0 ? got[n] : 0;
		errs[i] = r->pmd[i] >= 0 ? e[n++] : 0;
	}
	return 0;
}

static void fill_value(struct pmu_session *s, size_t i, uint64_t raw,
		       uint64_t err, uint64_t total,
		       const pfarg_set_info_t *in, struct pmu__count *c)
{
	const struct pmu__sets_reg *r = reg_of(s);
	size_t k = (size_t)pmu_session_event_set(s, i);
	uint64_t running = in[k].set_duration;

	if (r->pmd[i] == REG_NONE) {
		*c = (struct pmu__count){
			.status = s->st[i].err ? PMU__COUNT_UNSUPPORTED
					       : PMU__COUNT_IDLE,
			.err = s->st[i].err };
		return;
	}
	if (r->pmd[i] == REG_TIME)
		raw = running;
	*c = (struct pmu__count){
		.raw = raw, .enabled = total, .running = running,
		.scaled = pmu__scale(raw, total, running),
		.status = running ? PMU__COUNT_OK : PMU__COUNT_IDLE,
		.scaled_err = r->pmd[i] == REG_TIME ? 0 : err,
	};
}

ssize_t pmu__sets_reg_read(struct pmu_session *s, struct pmu_value *vals,
			   size_t stride, size_t n)
{
	pfarg_set_info_t *in = calloc(s->sets->n, sizeof(*in));
	uint64_t *raw = calloc(2 * (s->n + 1), sizeof(*raw)), total = 0;
	uint64_t *errs = raw ? raw + s->n + 1 : NULL;
	int ret = in && raw ? set_infos(s, in) : -ENOMEM;

	for (size_t k = 0; !ret && k < s->sets->n; k++)
		total += in[k].set_duration;
	for (size_t k = 0; !ret && k < s->sets->n; k++)
		ret = read_set(s, k, total, raw, errs);
	if (n > s->n)
		n = s->n;
	for (size_t i = 0; !ret && i < n; i++) {
		struct pmu_value *v = (struct pmu_value *)(void *)
				      ((char *)vals + i * stride);
		struct pmu__count c;

		fill_value(s, i, raw[i], errs[i], total, in, &c);
		memcpy(&v->raw, &c, stride - sizeof(v->size) < sizeof(c)
				    ? stride - sizeof(v->size) : sizeof(c));
		v->size = stride;
	}
	free(in);
	free(raw);
	return ret ? ret : (ssize_t)n;
}

int pmu__sets_reg_info(struct pmu_session *s, size_t k,
		       struct pmu_set_info *info)
{
	struct pmu__sets_reg *r = reg_of(s);
	pfarg_set_info_t in = { .set_id = (uint16_t)k };
	size_t first = s->sets->set[k].first;

	if (pfm_getinfo_sets(r->fd, 0, &in, sizeof(in)))
		return -errno;
	info->runs = in.set_runs;
	info->duration = in.set_duration;
	info->timeout_left = in.set_timeout;
	info->ovfl_mask = 0;
	for (size_t i = first; i < pmu__sets_end(s, k) && i - first < 64; i++)
		if (r->pmd[i] >= 0 && bv_test(in.set_ovfl_pmds,
					      (unsigned)r->pmd[i]))
			info->ovfl_mask |= UINT64_C(1) << (i - first);
	return 0;
}

int pmu__sets_reg_feed(struct pmu_session *s, const struct pmu__feed *f,
		       struct pmu_error *err)
{
	char line[64];
	const char *text = line;
	size_t len;

	switch (f->kind) {
	case PMU__FEED_STREAM:
		text = f->text;
		len = f->len;
		break;
	case PMU__FEED_EVENT:
		len = (size_t)snprintf(line, sizeof(line),
				       "event %u %llu umask=%u\n", f->code,
				       (unsigned long long)f->n, f->umask);
		break;
	case PMU__FEED_CYCLES:
		len = (size_t)snprintf(line, sizeof(line), "cycles %llu\n",
				       (unsigned long long)f->n);
		break;
	default:
		len = (size_t)snprintf(line, sizeof(line), "ip %llu\n",
				       (unsigned long long)f->n);
		break;
	}
	if (pmu_perfmon_feed(reg_of(s)->fd, text, len))
		return pmu__error(err, -errno, pmu_perfmon_error()->kind,
				  pmu_perfmon_error()->token, -1, "%s",
				  pmu_perfmon_error()->message);
	return 0;
}

void pmu__sets_reg_close(struct pmu_session *s)
{
	reg_free(s);
}
