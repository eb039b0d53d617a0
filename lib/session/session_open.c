/* SPDX-License-Identifier: MIT */
/* Opening a session's events on its driver, and what became of each. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/sample.h"
#include "session/session.h"
#include "session/sets.h"
#include "util/error.h"
#include "util/opts.h"

/* The public target, checked and in the driver's terms. */
static int make_target(struct pmu_session *s, const struct pmu_open_opts *o,
		       struct pmu__target *t, struct pmu_error *err)
{
	size_t npids = PMU__OPTS_GET(o, npids, 0);
	const pid_t *pids = PMU__OPTS_GET(o, pids, NULL);
	int ret = PMU__OPTS_CHECK(o, pmu_open_opts, err);

	if (ret)
		return ret;
	*t = (struct pmu__target){
		.kind = (enum pmu__target_kind)PMU__OPTS_GET(o, target,
							    PMU_TARGET_SELF),
		.cpus = PMU__OPTS_GET(o, cpus, NULL),
		.inherit = PMU__OPTS_GET(o, inherit, false),
		.no_mmap_read = PMU__OPTS_GET(o, no_mmap_read, false),
		.start_stopped = PMU__OPTS_GET(o, start_stopped, false),
		.skip_gone = PMU__OPTS_GET(o, skip_gone, false),
		.raw_width = s->raw_width,
	};
	if (npids && (!pids || (t->kind != PMU__TARGET_PID &&
				t->kind != PMU__TARGET_TID)))
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "pids/npids need a PID or TID target and "
				  "a non-NULL pids");
	if (npids) {
		t->pids = pids;
		t->npids = npids;
	} else if (t->kind != PMU__TARGET_SELF && t->kind != PMU__TARGET_CPUS) {
		s->pid1 = PMU__OPTS_GET(o, pid, 0);
		t->pids = &s->pid1;
		t->npids = 1;
	}
	return 0;
}

static int alloc_open_state(struct pmu_session *s, bool placed, size_t nev)
{
	size_t n = nev ? nev : 1;

	s->st = calloc(n, sizeof(*s->st));
	s->cnt = calloc(n, sizeof(*s->cnt));
	s->place = placed ? calloc(n, sizeof(*s->place)) : NULL;
	if (!s->st || !s->cnt || (placed && !s->place))
		return -ENOMEM;
	return 0;
}

/* Events with no perf encoding (a register-level model's) cannot reach
 * the kernel: say where they can be counted. */
static void mark_no_perf(struct pmu_session *s)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct pmu__ev *e = &s->ev[i];

		if (!(e->flags & PMU__EV_NO_PERF))
			continue;
		s->st[i].err = -EOPNOTSUPP;
		if (e->flags & PMU__EV_IBS) {
			snprintf(s->st[i].reason, sizeof(s->st[i].reason),
				 "this kernel has no AMD IBS PMU (ibs_fetch, "
				 "ibs_op); a simulated fam10h samples it "
				 "(driver sim, model fam10h)");
			continue;
		}
		snprintf(s->st[i].reason, sizeof(s->st[i].reason),
			 "%s events have no perf_event encoding; a simulated "
			 "PMU counts them (driver sim, model %s)", e->model,
			 e->model);
	}
}

/* A driver that lets the session switch sets itself. */
static bool has_set_ops(const struct pmu__driver_ops *o)
{
	return o->switching != NULL;
}

/* Several sets: the events the driver opens are the sets' (sets.h). */
static int open_sets(struct pmu_session *s, const struct pmu__target *t,
		     struct pmu_error *err)
{
	const struct pmu__driver_ops *o = s->drv->ops;
	struct pmu__sets *ss = s->sets;
	int ret = pmu__sets_prepare(s, t, err);

	if (!ret)
		ret = alloc_open_state(s, false, ss->ndev);
	if (!ret)
		mark_no_perf(s);
	if (!ret)
		ret = o->open(s->drv, ss->dev, ss->ndev, NULL, t, s->st, err);
	if (!ret) {
		s->open = true; /* the driver has it open: close it on failure */
		ret = pmu__sets_opened(s, t, err);
	}
	return ret;
}

/* One set: the session's events as they are. */
/* A metric's uncore event on a task target: not counted, the metric
 * not supported, and the reason says how to count it. */
static void mark_uncore_implied(struct pmu_session *s,
				const struct pmu__target *t)
{
	for (size_t i = 0; t->kind != PMU__TARGET_CPUS && i < s->n; i++) {
		if (!s->ev[i].cpus || !(s->ev[i].flags & PMU__EV_IMPLIED))
			continue;
		s->st[i].err = -EOPNOTSUPP;
		snprintf(s->st[i].reason, sizeof(s->st[i].reason),
			 "an uncore event counts for the whole package (CPUs "
			 "%.40s), not per task: count system-wide (-a)",
			 s->ev[i].cpus);
	}
}

static int open_one(struct pmu_session *s, const struct pmu__target *t,
		    struct pmu_error *err)
{
	const struct pmu__driver_ops *o = s->drv->ops;
	const char *model = o->hwmodel ? o->hwmodel->catalog_model(s->drv) : NULL;
	int ret = alloc_open_state(s, model != NULL, s->n);
	struct pmu__target tt = *t;
	struct pmu__ev *ev = s->ev;

	if (ret == 0 && model)
		ret = pmu__session_place(s, model, err);
	else if (ret == 0)
		mark_no_perf(s);
	if (ret == 0)
		mark_uncore_implied(s, t);
	/* sampling on perf: the events with their sampling settings */
	if (ret == 0 && s->smpl)
		ret = pmu__smpl_perf_prepare(s, &tt, &ev, err);
	if (ret == 0)
		ret = o->open(s->drv, ev, s->n, s->place, &tt, s->st, err);
	if (ret == 0 && s->smpl) {
		s->open = true; /* the driver has it open: close it on failure */
		ret = pmu__smpl_perf_opened(s, err);
	}
	return ret;
}

/* An uncore PMU counts for its whole package or die: the kernel takes
 * its events only on a CPU, never in a task's context, and a per-task
 * figure of a package-wide count would not mean anything anyway. */
static int check_uncore(const struct pmu_session *s,
			const struct pmu__target *t, struct pmu_error *err)
{
	if (t->kind == PMU__TARGET_CPUS)
		return 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->ev[i].cpus && !(s->ev[i].flags & PMU__EV_IMPLIED))
			return pmu__error(err, -EINVAL, PMU_ERR_NOT_SUPPORTED,
					  s->ev[i].name, -1, "%s: an uncore "
					  "event counts for the whole package "
					  "(its PMU counts on CPUs %s), not per "
					  "task; count it system-wide (-a, or -C "
					  "CPUS)", s->ev[i].name,
					  s->ev[i].cpus);
	return 0;
}

/* Events the driver counted in user space only (perf's paranoid
 * fallback) are named and described as such: "cycles:u". */
static int name_user_only(struct pmu_session *s)
{
	for (size_t i = 0; s->st && i < s->n; i++) {
		/* the sets' copy may share the name */
		bool shared = s->sets && s->sets->dev &&
			      s->sets->dev[i].name == s->ev[i].name;

		if (!s->st[i].user_only)
			continue;
		if (pmu__ev_user_only(&s->ev[i]))
			return -ENOMEM;
		if (shared)
			s->sets->dev[i].name = s->ev[i].name;
	}
	if (s->st)
		pmu__user_only_said(s->st, s->n);
	return 0;
}

static int open_target(struct pmu_session *s, const struct pmu__target *tp,
		       struct pmu_error *err);

/* A session that may open: not open yet, with events. */
static int openable(const struct pmu_session *s, struct pmu_error *err)
{
	int ret;

	pmu__error_clear(err);
	if ((ret = pmu__session_not_open(s, "the session is already open",
					 err)))
		return ret;
	if (s->n == 0)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "no events to open: add some first");
	return 0;
}

PMU_API int pmu_session_open(struct pmu_session *s,
			     const struct pmu_open_opts *opts,
			     struct pmu_error *err)
{
	struct pmu__target t;
	int ret;

	if ((ret = openable(s, err)))
		return ret;
	ret = make_target(s, opts, &t, err);
	return ret ? ret : open_target(s, &t, err);
}

int pmu__session_open_on(struct pmu_session *s, const struct pmu__target *t,
			 struct pmu_error *err)
{
	int ret = openable(s, err);

	return ret ? ret : open_target(s, t, err);
}

static int open_target(struct pmu_session *s, const struct pmu__target *tp,
		       struct pmu_error *err)
{
	struct pmu__target t = *tp;
	int ret = check_uncore(s, &t, err);

	if (ret)
		return ret;
	/* sets, tool events and sampling are read off the hot path */
	s->in_place_min = s->ntool || pmu__sets_on(s) || s->smpl
				  ? SIZE_MAX : sizeof(struct pmu_value);
	if (s->smpl && (pmu__smpl_on_reg(s) || pmu__sets_on(s))) {
		ret = pmu__smpl_open(s, &t, err);
		return ret ? ret : name_user_only(s);
	}
	if (pmu__sets_on(s) && !has_set_ops(s->drv->ops) &&
	    !s->drv->ops->guest)
		return pmu__session_sets_reg_open(s, &t, err);
	if (pmu__sets_on(s) && s->drv->ops->guest)
		ret = pmu__sets_drv_open(s, &t, err);
	else
		ret = pmu__sets_on(s) ? open_sets(s, &t, err)
				      : open_one(s, &t, err);
	if (ret) {
		if (ret == -ENOMEM)
			pmu__error(err, ret, PMU_ERR_SYSTEM, NULL, -1,
				   "out of memory");
		pmu__session_close(s);
		return ret;
	}
	s->open = true;
	if ((ret = name_user_only(s)) != 0) {
		pmu__session_close(s);
		return pmu__error(err, ret, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	}
	if (s->ntool)
		/* a child's counters start at its exec, by themselves */
		pmu__session_tool_open(s, t.kind == PMU__TARGET_SELF,
				       t.kind == PMU__TARGET_CHILD &&
				       !t.start_stopped);
	/* a child counts from its exec on, unless opened stopped */
	s->nstart = t.kind == PMU__TARGET_CHILD && !t.start_stopped;
	return 0;
}

PMU_API enum pmu_event_status pmu_session_event_status(
	const struct pmu_session *s, size_t i, int *err)
{
	int e = s && i < s->n ? (s->st ? s->st[i].err : 0) : -EINVAL;

	/* the session measures a tool event, whatever the PMU said of the
	 * dummy standing in for it */
	if (e != -EINVAL && s->ev[i].tool != PMU__TOOL_NONE)
		e = 0;
	if (err)
		*err = e;
	if (e)
		return PMU_EVENT_NOT_SUPPORTED;
	return s->st && s->st[i].idle ? PMU_EVENT_NOT_COUNTED : PMU_EVENT_OK;
}

PMU_API const char *pmu_session_event_reason(const struct pmu_session *s,
					     size_t i)
{
	if (!s || i >= s->n)
		return NULL;
	if (s->ev[i].tool != PMU__TOOL_NONE)
		return "";
	return s->st ? s->st[i].reason : "";
}
