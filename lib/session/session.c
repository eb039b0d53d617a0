/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "events/evlist.h"
#include "session/session.h"
#include "util/error.h"

PMU_API struct pmu_session *pmu_session_new(struct pmu_error *err)
{
	struct pmu_session *s = calloc(1, sizeof(*s));

	pmu__error_clear(err);
	if (!s) {
		pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
			   "out of memory");
		errno = ENOMEM;
	}
	return s;
}

PMU_API void pmu_session_free(struct pmu_session *s)
{
	size_t i;

	if (!s)
		return;
	pmu__perf_close(s->drv);
	for (i = 0; i < s->n; i++)
		free(s->ev[i].name);
	free(s->ev);
	free(s);
}

void pmu__session_set_sys(struct pmu_session *s,
			  const struct pmu__perf_sys *sys)
{
	s->sys = sys;
}

static int reserve(struct pmu_session *s, size_t more)
{
	struct pmu__perf_ev *ev;
	size_t cap = s->cap ? s->cap : 8;

	while (cap < s->n + more)
		cap *= 2;
	if (cap == s->cap)
		return 0;
	ev = realloc(s->ev, cap * sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	s->ev = ev;
	s->cap = cap;
	return 0;
}

static bool attr_is_hw(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE ||
	       a->type == PERF_TYPE_RAW;
}

int pmu__session_add_attr(struct pmu_session *s, const char *name,
			  const struct perf_event_attr *attr, bool new_group)
{
	struct pmu__perf_ev *e;
	bool clock;

	if (!s || !name || !attr || s->drv)
		return -EINVAL;
	if (reserve(s, 1))
		return -ENOMEM;
	e = &s->ev[s->n];
	memset(e, 0, sizeof(*e));
	e->name = strdup(name);
	if (!e->name)
		return -ENOMEM;
	e->attr = *attr;
	new_group = new_group || s->ngroups == 0;
	e->group = new_group ? s->ngroups++ : s->ngroups - 1;
	e->leader = new_group;
	e->is_hw = attr_is_hw(attr);
	clock = attr->type == PERF_TYPE_SOFTWARE &&
		(attr->config == PERF_COUNT_SW_TASK_CLOCK ||
		 attr->config == PERF_COUNT_SW_CPU_CLOCK);
	strcpy(e->unit, clock ? "msec" : "");
	e->scale = clock ? 1e-6 : 1.0;
	s->n++;
	return 0;
}

static void take_desc(struct pmu_session *s, struct pmu__evdesc *d)
{
	struct pmu__perf_ev *e = &s->ev[s->n++];

	memset(e, 0, sizeof(*e));
	e->name = d->name;
	d->name = NULL; /* the session owns it now */
	e->attr = d->attr;
	e->group = s->ngroups + d->group;
	e->leader = d->leader;
	e->is_hw = d->is_hw;
	e->guest_default = d->guest_default;
	memcpy(e->unit, d->unit, sizeof(e->unit));
	e->unit[sizeof(e->unit) - 1] = '\0';
	e->scale = d->scale;
}

PMU_API int pmu_session_add(struct pmu_session *s, const char *events,
			    struct pmu_error *err)
{
	struct pmu__evlist l = { 0 };
	int ret, maxg = -1;
	size_t i;

	pmu__error_clear(err);
	if (!s || !events)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "no session or no event list given");
	if (s->drv)
		return pmu__error(err, -EBUSY, PMU_ERR_USAGE, NULL, -1,
				  "events cannot be added to an open session");
	ret = pmu__evlist_parse(&l, events, NULL, err);
	if (!ret && reserve(s, l.n))
		ret = pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				 "out of memory");
	for (i = 0; !ret && i < l.n; i++) {
		if (l.ev[i].group > maxg)
			maxg = l.ev[i].group;
		take_desc(s, &l.ev[i]);
	}
	if (!ret)
		s->ngroups += maxg + 1;
	pmu__evlist_clear(&l);
	return ret;
}

PMU_API size_t pmu_session_nevents(const struct pmu_session *s)
{
	return s ? s->n : 0;
}

PMU_API const char *pmu_session_event_name(const struct pmu_session *s,
					   size_t i)
{
	return s && i < s->n ? s->ev[i].name : NULL;
}

PMU_API const char *pmu_session_event_unit(const struct pmu_session *s,
					   size_t i, double *scale)
{
	if (!s || i >= s->n)
		return NULL;
	if (scale)
		*scale = s->ev[i].scale;
	return s->ev[i].unit;
}

PMU_API int pmu_session_event_group(const struct pmu_session *s, size_t i)
{
	return s && i < s->n ? s->ev[i].group : -1;
}

PMU_API int pmu_session_open(struct pmu_session *s,
			     const struct pmu_open_opts *opts,
			     struct pmu_error *err)
{
	pmu__error_clear(err);
	if (!s)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "no session given");
	if (s->drv)
		return pmu__error(err, -EBUSY, PMU_ERR_USAGE, NULL, -1,
				  "the session is already open");
	if (s->n == 0)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "no events to open: add some first");
	if (opts && opts->sz < offsetof(struct pmu_open_opts, target) +
				       sizeof(opts->target))
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "pmu_open_opts.sz is not set");
	return pmu__perf_open(&s->drv, s->sys, s->ev, s->n, opts, err);
}

PMU_API enum pmu_event_status pmu_session_event_status(
	const struct pmu_session *s, size_t i, int *err)
{
	if (!s || i >= s->n) {
		if (err)
			*err = -EINVAL;
		return PMU_EVENT_NOT_SUPPORTED;
	}
	if (err)
		*err = s->ev[i].err;
	return s->ev[i].status;
}

PMU_API const char *pmu_session_event_reason(const struct pmu_session *s,
					     size_t i)
{
	return s && i < s->n ? s->ev[i].reason : NULL;
}

PMU_API int pmu_session_start(struct pmu_session *s)
{
	return s && s->drv ? pmu__perf_ioctl(s->drv, PERF_EVENT_IOC_ENABLE) :
			     -EINVAL;
}

PMU_API int pmu_session_stop(struct pmu_session *s)
{
	return s && s->drv ? pmu__perf_ioctl(s->drv, PERF_EVENT_IOC_DISABLE) :
			     -EINVAL;
}

PMU_API int pmu_session_reset(struct pmu_session *s)
{
	return s && s->drv ? pmu__perf_ioctl(s->drv, PERF_EVENT_IOC_RESET) :
			     -EINVAL;
}

PMU_API int pmu_session_read(struct pmu_session *s, struct pmu_value *vals,
			     size_t n)
{
	if (!s || !s->drv || (!vals && n))
		return -EINVAL;
	return pmu__perf_read(s->drv, vals, n);
}
