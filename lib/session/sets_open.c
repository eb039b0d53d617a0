/* SPDX-License-Identifier: MIT */
/* Opening a session of several event sets on a driver with the set ops. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "session/sets.h"
#include "util/error.h"

/* One past the last event the user added to set k. */
static size_t set_end(const struct pmu__sets *ss, size_t k)
{
	return k + 1 < ss->n ? ss->set[k + 1].first : ss->nuser;
}

static int check_nonempty(const struct pmu_session *s, struct pmu_error *err)
{
	const struct pmu__sets *ss = s->sets;

	for (size_t k = 0; k < ss->n; k++)
		if (set_end(ss, k) == ss->set[k].first)
			return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
					  "event set %zu has no events: add "
					  "some after pmu_session_add_set()",
					  k);
	return 0;
}

/* A copy of the designated event, appended as a group of its own. */
static int append_event(struct pmu_session *s, const struct pmu__ev *e)
{
	struct pmu__ev *ev;
	size_t cap = s->cap;

	if (s->n == cap) {
		cap = cap ? 2 * cap : 8;
		ev = realloc(s->ev, cap * sizeof(*ev));
		if (!ev)
			return -ENOMEM;
		s->ev = ev;
		s->cap = cap;
	}
	ev = &s->ev[s->n];
	*ev = *e;
	ev->name = strdup(e->name);
	ev->spec = e->spec ? strdup(e->spec) : NULL;
	ev->cpus = e->cpus ? strdup(e->cpus) : NULL;
	if (!ev->name || (e->spec && !ev->spec) || (e->cpus && !ev->cpus)) {
		free(ev->name);
		free(ev->spec);
		free(ev->cpus);
		return -ENOMEM;
	}
	ev->group = s->ngroups++;
	ev->leader = true;
	s->n++;
	return 0;
}

/* OVERFLOW sets: the set's own event of that name, or one appended. */
static int find_designated(struct pmu_session *s, size_t k, size_t *added)
{
	struct pmu__set *set = &s->sets->set[k];
	const char *name = set->eff->ev.name;
	size_t i, end = set_end(s->sets, k);

	for (i = set->first; i < end; i++) {
		if (!strcmp(s->ev[i].name, name)) {
			set->ovfl_ev = (ssize_t)i;
			set->ovfl_bit = (unsigned)(i - set->first);
			return 0;
		}
	}
	if (append_event(s, &set->eff->ev))
		return -ENOMEM;
	set->ovfl_ev = (ssize_t)(s->n - 1);
	set->ovfl_bit = (unsigned)(end - set->first);
	added[s->n - 1 - s->sets->nuser] = k;
	return 0;
}

static int resolve_policies(struct pmu_session *s, size_t *added)
{
	struct pmu__sets *ss = s->sets;
	int ret = 0;

	for (size_t k = 0; !ret && k < ss->n; k++) {
		struct pmu__set *set = &ss->set[k];

		set->eff = set->own ? &set->pol : ss->dflt_own ? &ss->dflt
					     : pmu__sets_default_policy();
		set->ovfl_ev = -1;
		if (set->eff->kind == PMU_SWITCH_OVERFLOW)
			ret = find_designated(s, k, added);
	}
	return ret;
}

static int fill_evset(struct pmu__sets *ss, size_t n, const size_t *added)
{
	ss->evset = calloc(n + ss->n + 1, sizeof(*ss->evset));
	if (!ss->evset)
		return -ENOMEM;
	for (size_t k = 0; k < ss->n; k++)
		for (size_t i = ss->set[k].first; i < set_end(ss, k); i++)
			ss->evset[i] = k;
	for (size_t i = ss->nuser; i < n; i++)
		ss->evset[i] = added[i - ss->nuser];
	return 0;
}

/* Set k's announcer for an inherited per-task target: a copy of its
 * designated event, appended to what the driver opens, held with the
 * set's groups. */
static void add_notifier(struct pmu_session *s, size_t k)
{
	struct pmu__sets *ss = s->sets;
	struct pmu__set *set = &ss->set[k];
	struct pmu__ev *c = &ss->dev[ss->ndev];

	*c = set->eff->ev;
	c->attr.sample_period = set->eff->period;
	c->attr.freq = 0;
	c->group = s->ngroups + (int)(ss->ndev - s->n);
	c->leader = true;
	c->flags |= PMU__EV_NOTIFY | (k ? PMU__EV_HELD : 0);
	ss->evset[ss->ndev] = k;
	set->notify_ev = (ssize_t)ss->ndev++;
	set->count = set->eff->count;
}

/* The clock of the TIME sets: pinned, so that enabling the sets'
 * (flexible) groups never reschedules it; running from start or exec
 * with the first TIME set's timeout. */
static void add_clock(struct pmu_session *s, enum pmu__target_kind target)
{
	struct pmu__sets *ss = s->sets;
	struct pmu__ev *c = &ss->dev[ss->ndev];
	bool cpus = target == PMU__TARGET_CPUS;
	size_t k;

	for (k = 0; k < ss->n && ss->set[k].eff->kind != PMU_SWITCH_TIME; k++)
		;
	if (k == ss->n)
		return;
	*c = (struct pmu__ev){
		.name = (char *)(cpus ? "cpu-clock" : "task-clock"),
		.group = s->ngroups + (int)(ss->ndev - s->n),
		.leader = true,
		.scale = 1e-6,
		.flags = PMU__EV_NOTIFY | (cpus ? PMU__EV_ONE_UNIT : 0),
		.attr = { .type = PERF_TYPE_SOFTWARE,
			  .size = sizeof(struct perf_event_attr),
			  .config = cpus ? PERF_COUNT_SW_CPU_CLOCK
					 : PERF_COUNT_SW_TASK_CLOCK,
			  .sample_period = ss->set[k].eff->timeout_ns,
			  .pinned = 1 },
	};
	strcpy(c->unit, "msec");
	ss->evset[ss->ndev] = k;
	ss->clock = (ssize_t)ss->ndev++;
	ss->clock_period = ss->set[k].eff->timeout_ns;
	for (k = 0; k < ss->n; k++) {
		if (ss->set[k].eff->kind != PMU_SWITCH_TIME)
			continue;
		ss->set[k].notify_ev = ss->clock;
		ss->set[k].count = 1;
	}
}

/* Elsewhere, the designated event itself announces its overflows. */
static void designated_notifies(struct pmu_session *s, size_t k)
{
	struct pmu__sets *ss = s->sets;
	struct pmu__set *set = &ss->set[k];
	struct pmu__ev *e = &ss->dev[set->ovfl_ev];

	e->flags |= PMU__EV_NOTIFY;
	e->attr.sample_period = set->eff->period;
	e->attr.freq = 0;
	set->notify_ev = set->ovfl_ev;
	set->count = set->eff->count;
}

/* The kernel maps no ring of an inherited per-task event (the perf
 * driver's rule, for the same reason). */
static bool inherited_per_task(const struct pmu__target *t)
{
	return t->kind == PMU__TARGET_CHILD ||
	       (t->inherit && t->kind != PMU__TARGET_CPUS);
}

/* What the driver opens: the session's events, held unless in set 0,
 * the OVERFLOW sets' copies and the clock. */
static int build_dev(struct pmu_session *s, const struct pmu__target *t)
{
	struct pmu__sets *ss = s->sets;

	ss->dev = calloc(s->n + ss->n + 1, sizeof(*ss->dev));
	ss->er = calloc(s->n + 1, sizeof(*ss->er));
	if (!ss->dev || !ss->er)
		return -ENOMEM;
	memcpy(ss->dev, s->ev, s->n * sizeof(*s->ev));
	for (size_t i = 0; i < s->n; i++)
		if (ss->evset[i] != 0)
			ss->dev[i].flags |= PMU__EV_HELD;
	ss->ndev = s->n;
	ss->clock = ss->clock_grp = -1;
	for (size_t k = 0; k < ss->n; k++) {
		ss->set[k].notify_grp = -1;
		if (ss->set[k].eff->kind != PMU_SWITCH_OVERFLOW)
			continue;
		if (inherited_per_task(t))
			add_notifier(s, k);
		else
			designated_notifies(s, k);
	}
	add_clock(s, t->kind);
	return 0;
}

int pmu__sets_prepare(struct pmu_session *s, const struct pmu__target *t,
		      struct pmu_error *err)
{
	struct pmu__sets *ss = s->sets;
	size_t *added;
	int ret;

	ss->nuser = s->n;
	ss->ngroups_user = s->ngroups;
	ss->prepared = true;
	ret = check_nonempty(s, err);
	if (ret)
		return ret;
	added = calloc(ss->n, sizeof(*added));
	ret = added ? resolve_policies(s, added) : -ENOMEM;
	if (!ret)
		ret = fill_evset(ss, s->n, added);
	free(added);
	if (!ret)
		ret = build_dev(s, t);
	return ret;
}

/* The set's events, and those of its groups that opened. */
static int collect(struct pmu_session *s, size_t k)
{
	struct pmu__sets *ss = s->sets;
	struct pmu__set *set = &ss->set[k];

	set->evi = calloc(s->n, sizeof(*set->evi));
	set->grp = calloc(s->n, sizeof(*set->grp));
	if (!set->evi || !set->grp)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++) {
		if (ss->evset[i] != k)
			continue;
		set->evi[set->nevi++] = i;
		if (s->ev[i].leader && !s->st[i].err)
			set->grp[set->ngrp++] = (size_t)s->ev[i].group;
	}
	/* a copy is a group of its own, past the session's events */
	if ((size_t)set->notify_ev >= s->n && !s->st[set->notify_ev].err &&
	    set->eff->kind == PMU_SWITCH_OVERFLOW)
		set->notify_grp = ss->dev[set->notify_ev].group;
	return 0;
}

/* What ends a turn of set k must count, or the set could never end it. */
static int check_switch_event(struct pmu_session *s, size_t k,
			      struct pmu_error *err)
{
	const struct pmu__sets *ss = s->sets;
	const struct pmu__set *set = &ss->set[k];
	ssize_t i = set->notify_ev;

	if (!set->ngrp || !s->st[i].err)
		return 0;
	return pmu__error(err, s->st[i].err, PMU_ERR_NOT_SUPPORTED,
			  ss->dev[i].name, -1, "event set %zu cannot switch: "
			  "its %s '%s' cannot be counted here: %s", k,
			  set->eff->kind == PMU_SWITCH_TIME ? "clock"
							    : "switch event",
			  ss->dev[i].name, s->st[i].reason);
}

/* Poll list of set k: the wake-up, then the descriptors announcing the
 * end of its turn. */
static int make_pollfds(struct pmu_session *s, size_t k)
{
	struct pmu__sets *ss = s->sets;
	struct pmu__set *set = &ss->set[k];
	const struct pmu__driver_ops *o = s->drv->ops;
	ssize_t i = set->notify_ev;
	ssize_t n = set->ngrp ? o->switching->notify_fds(s->drv, (size_t)i,
							 NULL, 0) : 0;

	if (n < 0)
		return (int)n;
	set->pfd = calloc((size_t)n + 1, sizeof(*set->pfd));
	if (!set->pfd)
		return -ENOMEM;
	set->npfd = (size_t)n + 1;
	set->pfd[0] = (struct pollfd){ .fd = ss->wake_fd, .events = POLLIN };
	if (n) {
		int *fds = calloc((size_t)n, sizeof(*fds));

		if (!fds)
			return -ENOMEM;
		o->switching->notify_fds(s->drv, (size_t)i, fds, (size_t)n);
		for (ssize_t j = 0; j < n; j++)
			set->pfd[j + 1] = (struct pollfd){ .fd = fds[j],
							   .events = POLLIN };
		free(fds);
	}
	return 0;
}

/* A child counted from exec: set 0, its announcer and the clock start
 * there, the kernel's enable_on_exec; if set 0 has nothing open, the
 * first set that has is enabled now instead. */
static int begin_at_exec(struct pmu_session *s)
{
	struct pmu__sets *ss = s->sets;
	struct pmu__set *a = &ss->set[ss->active];

	ss->counting = ss->begun = true;
	a->runs = 1;
	if (ss->active != 0)
		pmu__sets_enable(s, a, true);
	return pmu__sets_monitor_start(s);
}

int pmu__sets_opened(struct pmu_session *s, const struct pmu__target *t,
		     struct pmu_error *err)
{
	struct pmu__sets *ss = s->sets;
	int ret = 0;
	size_t k;

	ss->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (ss->wake_fd < 0)
		return pmu__error(err, -errno, PMU_ERR_SYSTEM, NULL, -1,
				  "cannot create the event sets' wake-up "
				  "descriptor: %s", pmu_strerror(-errno));
	for (k = 0; !ret && k < ss->n; k++)
		ret = collect(s, k);
	if (!ret && ss->clock >= 0 && !s->st[ss->clock].err)
		ss->clock_grp = ss->dev[ss->clock].group;
	for (k = 0; !ret && k < ss->n; k++)
		ret = check_switch_event(s, k, err);
	for (k = 0; !ret && k < ss->n; k++)
		ret = make_pollfds(s, k);
	if (ret)
		return ret;
	for (k = ss->n; k-- > 0;)
		if (ss->set[k].ngrp)
			ss->active = k;
	ss->live = ss->set[ss->active].ngrp != 0;
	/* a child opened stopped begins at pmu_session_start, as others */
	if (t->kind == PMU__TARGET_CHILD && !t->start_stopped && ss->live)
		return begin_at_exec(s);
	return 0;
}

void pmu__sets_close(struct pmu_session *s)
{
	struct pmu__sets *ss = s->sets;

	if (ss->reg)
		pmu__sets_reg_close(s);
	pmu__sets_monitor_stop(s);
	for (size_t k = 0; k < ss->n; k++) {
		struct pmu__set *set = &ss->set[k];

		free(set->grp);
		free(set->evi);
		free(set->pfd);
		set->grp = set->evi = NULL;
		set->notify_grp = set->notify_ev = -1;
		set->pfd = NULL;
		set->ngrp = set->nevi = set->npfd = 0;
		set->eff = NULL;
		set->runs = set->timeout_left = set->ovfl_mask = 0;
		set->turn_ovfl = set->dur = set->dur_base = set->turn_dur = 0;
		set->carry = 0;
	}
	/* designated events added at open go: the user's events stay */
	for (size_t i = ss->nuser; ss->prepared && i < s->n; i++) {
		free(s->ev[i].name);
		free(s->ev[i].spec);
		free(s->ev[i].cpus);
	}
	if (ss->prepared) {
		s->n = ss->nuser;
		s->ngroups = ss->ngroups_user;
	}
	ss->prepared = false;
	if (ss->wake_fd >= 0)
		close(ss->wake_fd);
	free(ss->evset);
	free(ss->dev);
	free(ss->er);
	ss->evset = NULL;
	ss->dev = NULL;
	ss->er = NULL;
	ss->wake_fd = -1;
	ss->ndev = 0;
	ss->clock = ss->clock_grp = -1;
	ss->active = 0;
	ss->live = ss->counting = ss->begun = ss->drv_sw = false;
	ss->nswitch = 0;
}
