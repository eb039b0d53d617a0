/* SPDX-License-Identifier: MIT */
/*
 * The bottom of the session layer: what every session file may call and
 * which calls none of them back (a session's open state, its event
 * sets' bookkeeping).  The other files call downwards only: sets_reg.c
 * and sample_reg.c (a register-level PMU's sets and sampling), then
 * sets_drv.c, sets_run.c, sets_open.c, sets.c, sample.c and session.c,
 * with the opening and reading files above them.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "session/session.h"
#include "session/sets.h"
#include "util/error.h"

void pmu__session_free_open(struct pmu_session *s)
{
	free(s->st);
	free(s->place);
	free(s->cnt);
	s->st = NULL;
	s->place = NULL;
	s->cnt = NULL;
}

int pmu__session_not_open(const struct pmu_session *s, const char *busy,
			  struct pmu_error *err)
{
	if (!s)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "no session given");
	if (s->open)
		return pmu__error(err, -EBUSY, PMU_ERR_USAGE, NULL, -1, "%s",
				  busy);
	return 0;
}

static const struct pmu__set_policy default_policy = {
	.kind = PMU_SWITCH_TIME,
	.timeout_ns = PMU_SWITCH_DEFAULT_NS,
};

const struct pmu__set_policy *pmu__sets_default_policy(void)
{
	return &default_policy;
}

int pmu__sets_grow(struct pmu__sets *ss)
{
	size_t cap = ss->cap ? ss->cap * 2 : 4;
	struct pmu__set *set;

	if (ss->n < ss->cap)
		return 0;
	set = realloc(ss->set, cap * sizeof(*set));
	if (!set)
		return -ENOMEM;
	memset(set + ss->cap, 0, (cap - ss->cap) * sizeof(*set));
	ss->set = set;
	ss->cap = cap;
	return 0;
}

/* The session's sets, created with set 0 on first need. */
struct pmu__sets *pmu__sets_get(struct pmu_session *s)
{
	struct pmu__sets *ss = s->sets;

	if (ss)
		return ss;
	ss = calloc(1, sizeof(*ss));
	if (!ss || pmu__sets_grow(ss)) {
		free(ss);
		return NULL;
	}
	ss->n = 1;
	ss->wake_fd = -1;
	if (pthread_mutex_init(&ss->lock, NULL)) {
		free(ss->set);
		free(ss);
		return NULL;
	}
	s->sets = ss;
	return ss;
}


PMU_API ssize_t pmu_session_event_set(const struct pmu_session *s, size_t i)
{
	const struct pmu__sets *ss = s ? s->sets : NULL;
	size_t k;

	if (!s || i >= s->n)
		return -EINVAL;
	if (!ss)
		return 0;
	if (ss->evset)
		return (ssize_t)ss->evset[i];
	/* the last set that began at or before i (empty sets begin where
	 * the next one does) */
	for (k = ss->n; k-- > 1 && ss->set[k].first > i;)
		;
	return (ssize_t)k;
}

/* One past the last event of set k. */
size_t pmu__sets_end(const struct pmu_session *s, size_t k)
{
	const struct pmu__sets *ss = s->sets;

	return k + 1 < ss->n ? ss->set[k + 1].first : s->n;
}

const struct pmu__set_policy *pmu__sets_policy(const struct pmu_session *s,
					       size_t k)
{
	const struct pmu__sets *ss = s->sets;

	return ss->set[k].own ? &ss->set[k].pol
	       : ss->dflt_own ? &ss->dflt : pmu__sets_default_policy();
}
