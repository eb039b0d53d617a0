/* SPDX-License-Identifier: MIT */
/* Event sets: which events form which set, and each set's switch policy. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "events/evlist.h"
#include "session/sets.h"
#include "util/error.h"
#include "util/opts.h"
#include "util/outstruct.h"

/* The kernel's hrtimer events take no shorter period. */
#define MIN_TIMEOUT_NS 10000u

static void policy_clear(struct pmu__set_policy *p)
{
	free(p->ev.name);
	free(p->ev.spec);
	free(p->ev.cpus);
	memset(p, 0, sizeof(*p));
}

void pmu__sets_free(struct pmu_session *s)
{
	struct pmu__sets *ss = s->sets;

	if (!ss)
		return;
	pmu__sets_close(s);
	for (size_t k = 0; k < ss->n; k++)
		policy_clear(&ss->set[k].pol);
	policy_clear(&ss->dflt);
	pthread_mutex_destroy(&ss->lock);
	free(ss->set);
	free(ss);
	s->sets = NULL;
}

PMU_API ssize_t pmu_session_add_set(struct pmu_session *s,
				    struct pmu_error *err)
{
	struct pmu__sets *ss;
	int ret;

	pmu__error_clear(err);
	if ((ret = pmu__session_not_open(s, "event sets cannot be added to "
					 "an open session", err)))
		return ret;
	ss = pmu__sets_get(s);
	if (!ss || pmu__sets_grow(ss))
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	ss->set[ss->n] = (struct pmu__set){ .first = s->n };
	return (ssize_t)ss->n++;
}

PMU_API size_t pmu_session_nsets(const struct pmu_session *s)
{
	return !s ? 0 : s->sets ? s->sets->n : 1;
}

static int parse_event(struct pmu_session *s, const char *name,
		       struct pmu__ev *out, struct pmu_error *err)
{
	const struct pmu__driver_ops *o = s->drv->ops;
	struct pmu__parse_ctx ctx = {
		.default_model = o->hwmodel ? o->hwmodel->catalog_model(s->drv)
						  : NULL,
	};
	struct pmu__evlist l = { 0 };
	int ret = pmu__evlist_parse(&l, name, &ctx, err);

	if (!ret && l.n != 1)
		ret = pmu__error(err, -EINVAL, PMU_ERR_USAGE, name, -1,
				 "the switch event '%s' is %zu events: name "
				 "one event", name, l.n);
	/* the kernel counts nothing for a tool event's dummy */
	if (!ret && l.ev[0].tool != PMU__TOOL_NONE)
		ret = pmu__error(err, -EINVAL, PMU_ERR_USAGE, name, -1,
				 "the switch event '%s' is measured by the "
				 "session, not counted by the PMU: it never "
				 "overflows; name a counted event", name);
	if (!ret) {
		*out = l.ev[0];
		out->group = 0;
		out->leader = true;
		l.n = 0; /* the name and spec are the caller's now */
	}
	pmu__evlist_clear(&l);
	return ret;
}

static int check_time(const struct pmu_session *s, uint64_t t,
		      struct pmu_error *err)
{
	if (t == 0)
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, "timeout_ns",
				  -1, "switch timeout_ns is 0: give the "
				  "target's running time per turn in ns");
	/* a simulated PMU (sets of its own, through a context) switches
	 * on the exact cycle (1 ns each) */
	if (t < MIN_TIMEOUT_NS &&
	    !(s->drv->ops->pfm && s->drv->ops->hwmodel))
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, "timeout_ns",
				  -1, "switch timeout of %llu ns is too short: "
				  "at least %u ns, the kernel's shortest clock "
				  "period", (unsigned long long)t,
				  MIN_TIMEOUT_NS);
	return 0;
}

static int check_overflow(const char *ev, uint64_t period, uint64_t count,
			  struct pmu_error *err)
{
	if (!ev || !ev[0])
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, "event", -1,
				  "overflow switching needs an event whose "
				  "overflows end a turn");
	if (period == 0)
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, "period", -1,
				  "switch period is 0: give the counts of '%s' "
				  "per overflow (>= 1)", ev);
	if (count == 0)
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, "count", -1,
				  "switch count is 0: give the overflows of "
				  "'%s' before a set switches (>= 1)", ev);
	return 0;
}

/* The caller's options, checked, as a policy. */
static int make_policy(struct pmu_session *s, const struct pmu_switch_opts *o,
		       struct pmu__set_policy *p, struct pmu_error *err)
{
	const char *ev = PMU__OPTS_GET(o, event, NULL);
	int ret;

	memset(p, 0, sizeof(*p));
	p->kind = PMU__OPTS_GET(o, kind, PMU_SWITCH_NONE);
	p->timeout_ns = PMU__OPTS_GET(o, timeout_ns, 0);
	p->period = PMU__OPTS_GET(o, period, 0);
	p->count = PMU__OPTS_GET(o, count, 0);
	switch (p->kind) {
	case PMU_SWITCH_NONE:
		return 0;
	case PMU_SWITCH_TIME:
		return check_time(s, p->timeout_ns, err);
	case PMU_SWITCH_OVERFLOW:
		ret = check_overflow(ev, p->period, p->count, err);
		return ret ? ret : parse_event(s, ev, &p->ev, err);
	}
	return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, "kind", -1,
			  "unknown switch kind %d: NONE, TIME or OVERFLOW",
			  (int)p->kind);
}

static int check_switch_args(struct pmu_session *s, ssize_t set,
			     const struct pmu_switch_opts *o,
			     struct pmu_error *err)
{
	size_t n = pmu_session_nsets(s);

	if (!s || !o)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "no session or no switch options given");
	if (s->open)
		return pmu__error(err, -EBUSY, PMU_ERR_USAGE, NULL, -1,
				  "the switch policy cannot change once the "
				  "session is open");
	if (set < -1 || (set >= 0 && (size_t)set >= n))
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "set %zd does not exist: the session has %zu "
				  "set%s (0-%zu), or -1 for every set", set, n,
				  n == 1 ? "" : "s", n - 1);
	return PMU__OPTS_CHECK(o, pmu_switch_opts, err);
}

PMU_API int pmu_session_set_switch(struct pmu_session *s, ssize_t set,
				   const struct pmu_switch_opts *o,
				   struct pmu_error *err)
{
	struct pmu__set_policy p;
	struct pmu__sets *ss;
	int ret;

	pmu__error_clear(err);
	ret = check_switch_args(s, set, o, err);
	if (!ret)
		ret = make_policy(s, o, &p, err);
	if (ret)
		return ret;
	ss = pmu__sets_get(s);
	if (!ss) {
		policy_clear(&p);
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	}
	if (set >= 0) {
		policy_clear(&ss->set[set].pol);
		ss->set[set].pol = p;
		ss->set[set].own = p.kind != PMU_SWITCH_NONE;
		return 0;
	}
	/* every set, also those added later: no set keeps its own */
	for (size_t k = 0; k < ss->n; k++) {
		policy_clear(&ss->set[k].pol);
		ss->set[k].own = false;
	}
	policy_clear(&ss->dflt);
	ss->dflt = p;
	ss->dflt_own = p.kind != PMU_SWITCH_NONE;
	return 0;
}

/* One set for the whole session: it ran once per start, for the time
 * its events were enabled. */
static int one_set_info(struct pmu_session *s, struct pmu_set_info *i)
{
	int ret;

	i->runs = s->nstart;
	if (!s->open || !s->cnt)
		return 0;
	ret = s->drv->ops->read(s->drv, s->cnt, sizeof(*s->cnt), s->n);
	if (ret < 0)
		return ret;
	for (size_t k = 0; k < s->n; k++)
		if (s->cnt[k].enabled > i->duration)
			i->duration = s->cnt[k].enabled;
	return 0;
}

PMU_API int pmu_session_set_info(struct pmu_session *s, size_t set,
				 struct pmu_set_info *info)
{
	struct pmu_set_info mine = { .size = sizeof(mine) };
	int ret;

	if (!s || !info || !pmu__out_ok(info, info->size) ||
	    set >= pmu_session_nsets(s))
		return -EINVAL;
	ret = pmu__sets_on(s) ? pmu__sets_info(s, set, &mine)
			      : one_set_info(s, &mine);
	if (ret)
		return ret;
	PMU__OUT(info, &mine);
	return 0;
}
