/* SPDX-License-Identifier: MIT */
/*
 * Event sets a driver switches itself (driver.h's open_sets): the
 * emulator, where a turn must end on an exact guest instruction, so
 * that a run repeats exactly; no thread or clock of the session takes
 * part.  The session places each set on its own (with its designated
 * event if it lacks it, as sets_reg.c does) and hands the sets over;
 * readings come back scaled, with their errors.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "session/sets.h"
#include "util/error.h"

static int check_sets(struct pmu_session *s, struct pmu_error *err)
{
	for (size_t k = 0; k < s->sets->n; k++) {
		if (pmu__sets_end(s, k) == s->sets->set[k].first)
			return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
					  "event set %zu has no events: add "
					  "some after pmu_session_add_set()",
					  k);
		if (pmu__sets_policy(s, k)->kind != PMU_SWITCH_OVERFLOW)
			return pmu__error(err, -EOPNOTSUPP,
					  PMU_ERR_NOT_SUPPORTED, "time", -1,
					  "event set %zu switches by time, but "
					  "the %s driver switches sets after "
					  "guest events only, so that runs "
					  "repeat: give it an overflow policy "
					  "(overflow:EVENT:N)", k,
					  s->drv->ops->name);
	}
	return 0;
}

/* The designated event of set k: one of its own, or one more event
 * (ev[*next], which *next then passes). */
static size_t designated(struct pmu_session *s, size_t k,
			 struct pmu__ev *ev, size_t *next)
{
	const struct pmu__set_policy *pol = pmu__sets_policy(s, k);

	for (size_t i = s->sets->set[k].first; i < pmu__sets_end(s, k); i++)
		if (!strcmp(s->ev[i].name, pol->ev.name))
			return i;
	ev[*next] = pol->ev;
	return (*next)++;
}

/* Set k placed on its own into pl[] and st[]. */
static int place_one(struct pmu_session *s, size_t k, size_t dsg,
		     struct pmu__place *pl, struct pmu__ev_state *st,
		     struct pmu_error *err)
{
	size_t first = s->sets->set[k].first, end = pmu__sets_end(s, k);
	size_t m = end - first;
	bool own = dsg < end;
	struct pmu__place *tpl = calloc(m + 1, sizeof(*tpl));
	struct pmu__ev_state *tst = calloc(m + 1, sizeof(*tst));
	int ret = tpl && tst ? 0 : -ENOMEM;

	if (!ret)
		ret = pmu__sets_place(s, first, end,
				      own ? NULL : &pmu__sets_policy(s, k)->ev,
				      tpl, tst, err);
	if (!ret) {
		memcpy(&pl[first], tpl, m * sizeof(*tpl));
		memcpy(&st[first], tst, m * sizeof(*tst));
		if (!own) {
			pl[dsg] = tpl[m];
			st[dsg] = tst[m];
		}
	}
	free(tpl);
	free(tst);
	return ret;
}

static int open_all(struct pmu_session *s, const struct pmu__target *t,
		    struct pmu__ev *ev, struct pmu__place *pl,
		    struct pmu__ev_state *st, struct pmu__drv_set *ds,
		    struct pmu_error *err)
{
	size_t next = s->n;
	int ret = 0;

	memcpy(ev, s->ev, s->n * sizeof(*ev));
	for (size_t k = 0; !ret && k < s->sets->n; k++) {
		const struct pmu__set_policy *pol = pmu__sets_policy(s, k);
		size_t first = s->sets->set[k].first;

		ds[k] = (struct pmu__drv_set){
			.first = first, .n = pmu__sets_end(s, k) - first,
			.dsg = designated(s, k, ev, &next),
			.period = pol->period, .count = pol->count };
		ret = place_one(s, k, ds[k].dsg, pl, st, err);
	}
	if (!ret)
		ret = s->drv->ops->guest->open_sets(s->drv, ev, next, pl, ds,
					     s->sets->n, t, st, err);
	if (!ret) {
		memcpy(s->st, st, s->n * sizeof(*st));
		memcpy(s->place, pl, s->n * sizeof(*pl));
	}
	return ret;
}

int pmu__sets_drv_open(struct pmu_session *s, const struct pmu__target *t,
		       struct pmu_error *err)
{
	size_t cap = s->n + s->sets->n;
	struct pmu__ev *ev = calloc(cap, sizeof(*ev));
	struct pmu__place *pl = calloc(cap, sizeof(*pl));
	struct pmu__ev_state *st = calloc(cap, sizeof(*st));
	struct pmu__drv_set *ds = calloc(s->sets->n, sizeof(*ds));
	int ret = check_sets(s, err);

	s->st = calloc(s->n + 1, sizeof(*s->st));
	s->place = calloc(s->n + 1, sizeof(*s->place));
	s->cnt = calloc(s->n + 1, sizeof(*s->cnt));
	if (!ret && (!ev || !pl || !st || !ds || !s->st || !s->place ||
		     !s->cnt))
		ret = -ENOMEM;
	if (!ret)
		ret = open_all(s, t, ev, pl, st, ds, err);
	if (!ret)
		s->sets->drv_sw = true;
	free(ev);
	free(pl);
	free(st);
	free(ds);
	return ret;
}

int pmu__sets_drv_info(struct pmu_session *s, size_t k,
		       struct pmu_set_info *info)
{
	int ret = s->drv->ops->guest->set_info(s->drv, k, &info->runs,
					&info->duration);

	info->timeout_left = 0;
	info->ovfl_mask = 0;
	return ret;
}
