/* SPDX-License-Identifier: MIT */
/* The hot paths of an open session: start, stop, read. */
#include <errno.h>
#include <string.h>

#include "session/session.h"
#include "util/error.h"

/* Far more than pmu_value will ever need: a bound on a bad size. */
#define PMU_VALUE_SIZE_MAX 1024

PMU_API int pmu_session_start(struct pmu_session *s)
{
	return s && s->open ? s->drv->ops->enable(s->drv) : -EINVAL;
}

PMU_API int pmu_session_stop(struct pmu_session *s)
{
	return s && s->open ? s->drv->ops->disable(s->drv) : -EINVAL;
}

PMU_API int pmu_session_reset(struct pmu_session *s)
{
	return s && s->open ? s->drv->ops->reset(s->drv) : -EINVAL;
}

static inline void fill_value(struct pmu_value *v, const struct pmu__count *c,
			      int err)
{
	v->raw = c->raw;
	v->enabled = c->enabled;
	v->running = c->running;
	/* the common unmultiplexed case needs no division */
	v->scaled = c->running >= c->enabled
			    ? c->raw
			    : pmu_scale(c->raw, c->enabled, c->running);
	v->status = err ? PMU_EVENT_NOT_SUPPORTED
			: c->running ? PMU_EVENT_OK : PMU_EVENT_NOT_COUNTED;
	v->err = err;
}

/*
 * The caller's elements are vals[0].size bytes apart (0: the first
 * layout).  Each gets that element size in its size field and the
 * fields both sides know; bytes past this library's struct are left as
 * the caller set them.
 */
PMU_API ssize_t pmu_session_read(struct pmu_session *s,
				 struct pmu_value *vals, size_t n)
{
	size_t stride, copy, i;
	int ret;

	if (!s || !s->open || (!vals && n))
		return -EINVAL;
	if (n > s->n)
		n = s->n;
	if (n == 0)
		return 0;
	stride = vals[0].size ? vals[0].size : PMU_VALUE_SIZE0;
	/* an unset (garbage) size must not send writes anywhere */
	if (stride < sizeof(vals[0].size) || stride > PMU_VALUE_SIZE_MAX ||
	    stride % _Alignof(struct pmu_value))
		return -EINVAL;
	ret = s->drv->ops->read(s->drv, s->cnt, n);
	if (ret < 0)
		return ret;
	copy = stride < sizeof(*vals) ? stride : sizeof(*vals);
	for (i = 0; i < n; i++) {
		struct pmu_value v;
		char *dst = (char *)vals + i * stride;

		fill_value(&v, &s->cnt[i], s->st[i].err);
		v.size = stride;
		memcpy(dst, &v, copy);
	}
	return (ssize_t)n;
}

int pmu__session_feed(struct pmu_session *s, const struct pmu__feed *f,
		      struct pmu_error *err)
{
	const struct pmu__driver_ops *o = s->drv->ops;

	if (!o->feed)
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_USAGE, NULL, -1,
				  "the %s driver counts a real program; only "
				  "a simulated PMU is fed a stream", o->name);
	return o->feed(s->drv, f, err);
}

PMU_API int pmu_session_feed(struct pmu_session *s, const char *stream,
			     size_t len, struct pmu_error *err)
{
	struct pmu__feed f = { .kind = PMU__FEED_STREAM,
			       .text = stream ? stream : "", .len = len };

	pmu__error_clear(err);
	if (!s || (!stream && len))
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "no session or no stream given");
	if (!s->open)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "open the session before feeding it");
	return pmu__session_feed(s, &f, err);
}
