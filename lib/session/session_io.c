/* SPDX-License-Identifier: MIT */
/* The hot paths of an open session: start, stop, read. */
#include <errno.h>
#include <string.h>

#include "session/sample.h"
#include "session/session.h"
#include "session/sets.h"
#include "util/error.h"
#include "util/scale.h"

/* Far more than pmu_value will ever need: a bound on a bad size. */
#define PMU_VALUE_SIZE_MAX 1024

/* Tool events are rare: their clock is kept out of line, and the calls
 * end in the driver's op as they did before there were any. */
PMU_API int pmu_session_start(struct pmu_session *s)
{
	int ret;

	if (!s || !s->open)
		return -EINVAL;
	if (__builtin_expect(s->ntool != 0, 0))
		pmu__session_tool_start(s);
	ret = pmu__sets_on(s) ? pmu__sets_start(s) : s->drv->ops->enable(s->drv);
	s->nstart += ret == 0;
	return ret;
}

/* A perf sampling session decodes what its rings hold. */
static inline void drain(struct pmu_session *s)
{
	if (__builtin_expect(s->smpl != NULL, 0) && s->smpl->perf)
		pmu__smpl_perf_drain(s);
}

PMU_API int pmu_session_stop(struct pmu_session *s)
{
	int ret;

	if (!s || !s->open)
		return -EINVAL;
	if (__builtin_expect(s->ntool != 0, 0))
		pmu__session_tool_stop(s);
	ret = pmu__sets_on(s) ? pmu__sets_stop(s) : s->drv->ops->disable(s->drv);
	drain(s);
	return ret;
}

PMU_API int pmu_session_reset(struct pmu_session *s)
{
	if (!s || !s->open)
		return -EINVAL;
	if (s->ntool)
		pmu__session_tool_reset(s);
	return pmu__sets_on(s) ? pmu__sets_reset(s) : s->drv->ops->reset(s->drv);
}

_Static_assert(offsetof(struct pmu_value, raw) == sizeof(size_t) &&
	       sizeof(struct pmu_value) ==
		       sizeof(size_t) + sizeof(struct pmu__count) &&
	       offsetof(struct pmu_value, scaled) - offsetof(struct pmu_value,
							     raw) ==
		       offsetof(struct pmu__count, scaled) &&
	       offsetof(struct pmu_value, status) - offsetof(struct pmu_value,
							     raw) ==
		       offsetof(struct pmu__count, status) &&
	       offsetof(struct pmu_value, err) - offsetof(struct pmu_value,
							  raw) ==
		       offsetof(struct pmu__count, err) &&
	       offsetof(struct pmu_value, scaled_err) -
			       offsetof(struct pmu_value, raw) ==
		       offsetof(struct pmu__count, scaled_err),
	       "a pmu_value is its size and a driver's pmu__count");
_Static_assert((int)PMU__COUNT_OK == (int)PMU_EVENT_OK &&
	       (int)PMU__COUNT_UNSUPPORTED == (int)PMU_EVENT_NOT_SUPPORTED &&
	       (int)PMU__COUNT_IDLE == (int)PMU_EVENT_NOT_COUNTED,
	       "count statuses are the public event statuses");

/* A caller's array of this library's layout or a larger one: the driver
 * writes each reading in place, after the element's size. */
static ssize_t read_in_place(struct pmu_session *s, struct pmu_value *vals,
			     size_t stride, size_t n)
{
	int ret = s->drv->ops->read(s->drv, (struct pmu__count *)(void *)
				    &vals->raw, stride, n);
	char *v = (char *)vals;

	if (ret < 0)
		return ret;
	for (size_t i = 1; i < n; i++)
		((struct pmu_value *)(void *)(v + i * stride))->size = stride;
	return (ssize_t)n;
}

/* An older, smaller layout: readings to scratch, then each element's
 * prefix. */
static __attribute__((noinline, cold)) ssize_t
read_copied(struct pmu_session *s, struct pmu_value *vals, size_t stride,
	    size_t n)
{
	int ret = s->drv->ops->read(s->drv, s->cnt, sizeof(*s->cnt), n);
	struct pmu_value v = { .size = stride };

	for (size_t i = 0; ret >= 0 && i < n; i++) {
		memcpy(&v.raw, &s->cnt[i], sizeof(s->cnt[i]));
		memcpy((char *)vals + i * stride, &v, stride);
	}
	return ret < 0 ? ret : (ssize_t)n;
}

/* The tool events' own values over the dummies' readings, through the
 * scratch counts so that any element size takes them. */
static void fill_tools(struct pmu_session *s, struct pmu_value *vals,
		       size_t stride, size_t n)
{
	struct pmu_value v = { .size = stride };
	size_t len = stride < sizeof(v) ? stride : sizeof(v);

	pmu__session_tool_read(s, s->cnt, sizeof(*s->cnt), n);
	for (size_t i = 0; i < n; i++) {
		if (s->ev[i].tool == PMU__TOOL_NONE)
			continue;
		memcpy(&v.raw, &s->cnt[i], sizeof(s->cnt[i]));
		memcpy((char *)vals + i * stride, &v, len);
	}
}

/* Sets, tool events, older layouts: the readings, then the tools'. */
static __attribute__((noinline, cold)) ssize_t
read_cold(struct pmu_session *s, struct pmu_value *vals, size_t stride,
	  size_t n)
{
	ssize_t ret;

	drain(s);
	if (pmu__sets_on(s) && !s->sets->drv_sw)  /* else the driver scales */
		ret = pmu__sets_read(s, vals, stride, n);
	else if (stride >= sizeof(*vals))
		ret = read_in_place(s, vals, stride, n);
	else
		ret = read_copied(s, vals, stride, n);
	if (ret > 0 && s->ntool)
		fill_tools(s, vals, stride, (size_t)ret);
	return ret;
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
	size_t stride;

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
	vals[0].size = stride;
	/* one comparison decides the common case: in_place_min is larger
	 * than any stride when tool events need their values filled in,
	 * the session switches sets or it samples (pmu_session_open sets
	 * it) */
	if (__builtin_expect(stride >= s->in_place_min, 1))
		return read_in_place(s, vals, stride, n);
	return read_cold(s, vals, stride, n);
}

int pmu__session_feed(struct pmu_session *s, const struct pmu__feed *f,
		      struct pmu_error *err)
{
	const struct pmu__driver_ops *o = s->drv->ops;

	if (s->sets && s->sets->reg)
		return pmu__sets_reg_feed(s, f, err);
	if (!o->regs)
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_USAGE, NULL, -1,
				  "the %s driver counts a real program; only "
				  "a simulated PMU is fed a stream", o->name);
	return o->regs->feed(s->drv, f, err);
}

PMU_API int pmu_session_feed(struct pmu_session *s, const char *stream,
			     size_t len, struct pmu_error *err)
{
	struct pmu__feed f = { .kind = PMU__FEED_STREAM,
			       .text = stream ? stream : "", .len = len,
			       .region = s ? s->region_fn : NULL,
			       .region_arg = s ? s->region_arg : NULL };

	pmu__error_clear(err);
	if (!s || (!stream && len))
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "no session or no stream given");
	if (!s->open)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "open the session before feeding it");
	return pmu__session_feed(s, &f, err);
}

PMU_API int pmu_session_on_region(struct pmu_session *s, pmu_region_fn fn,
				  void *arg)
{
	if (!s)
		return -EINVAL;
	s->region_fn = fn;
	s->region_arg = fn ? arg : NULL;
	return 0;
}

PMU_API uint64_t pmu_scale(uint64_t raw, uint64_t enabled, uint64_t running)
{
	return pmu__scale(raw, enabled, running);
}

int pmu__session_stream_keep(struct pmu_session *s)
{
	const struct pmu__drv_stream *st = s->drv->ops->stream;

	return st ? st->keep(s->drv) : -EOPNOTSUPP;
}

long pmu__session_stream_take(struct pmu_session *s, void *out, size_t len)
{
	const struct pmu__drv_stream *st = s->drv->ops->stream;

	return st ? st->take(s->drv, out, len) : -EOPNOTSUPP;
}

int pmu__session_stream_counter(const struct pmu_session *s, size_t i)
{
	const struct pmu__drv_stream *st = s->drv->ops->stream;

	return st ? st->counter(s->drv, i) : -1;
}

uint64_t pmu__session_stream_lost(struct pmu_session *s)
{
	const struct pmu__drv_stream *st = s->drv->ops->stream;

	return st ? st->lost(s->drv) : 0;
}
