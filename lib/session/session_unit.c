/* SPDX-License-Identifier: MIT */
/* The units of an open session (CPUs or threads), each read on its own. */
#include <errno.h>
#include <string.h>

#include "session/session.h"
#include "session/sets.h"
#include "util/outstruct.h"

PMU_API size_t pmu_session_nunits(const struct pmu_session *s)
{
	const struct pmu__driver_ops *o;

	if (!s || !s->open)
		return 0;
	o = s->drv->ops;
	return o->units ? o->units->nunits(s->drv) : 1;
}

PMU_API int pmu_session_unit_info(const struct pmu_session *s, size_t u,
				  struct pmu_unit_info *info)
{
	struct pmu_unit_info i = { .size = sizeof(i), .cpu = -1 };
	struct pmu__unit du = { .cpu = -1 };
	const struct pmu__driver_ops *o;
	int ret;

	if (u >= pmu_session_nunits(s) || !pmu__out_ok(info, info ? info->size : 0))
		return -EINVAL;
	o = s->drv->ops;
	/* a driver without units is one: the program it counts */
	ret = o->units ? o->units->unit_info(s->drv, u, &du) : 0;
	if (ret)
		return ret;
	i.cpu = du.cpu;
	i.tid = du.tid;
	i.pid = du.owner;
	memcpy(i.comm, du.comm, sizeof(i.comm));
	i.comm[sizeof(i.comm) - 1] = '\0';
	PMU__OUT(info, &i);
	return 0;
}

/* The caller's element size, 0 if it is not one. */
static size_t value_stride(struct pmu_value *vals)
{
	size_t stride = vals[0].size ? vals[0].size : PMU_VALUE_SIZE0;

	if (stride < sizeof(vals[0].size) || stride > 1024 ||
	    stride % _Alignof(struct pmu_value))
		return 0;
	vals[0].size = stride;
	return stride;
}

/* The session's scratch counts into the caller's elements. */
static void copy_out(const struct pmu_session *s, struct pmu_value *vals,
		     size_t stride, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct pmu_value v = { .size = stride };

		memcpy(&v.raw, &s->cnt[i], sizeof(s->cnt[i]));
		memcpy((char *)vals + i * stride, &v,
		       stride < sizeof(v) ? stride : sizeof(v));
	}
}

/* Not a hot path: readings go through the session's scratch counts and
 * are copied to the caller's elements as pmu_session_read copies them. */
PMU_API ssize_t pmu_session_read_unit(struct pmu_session *s, size_t u,
				      struct pmu_value *vals, size_t n)
{
	const struct pmu__driver_ops *o;
	size_t stride;
	int ret;

	if (!s || !s->open || (!vals && n) || u >= pmu_session_nunits(s))
		return -EINVAL;
	/* a set's estimate needs every set's time, known session-wide
	 * only: a unit's reading would be its set's turns alone */
	if (pmu__sets_on(s))
		return -EOPNOTSUPP;
	o = s->drv->ops;
	if (!o->units)
		return pmu_session_read(s, vals, n);
	if (n > s->n)
		n = s->n;
	if (n == 0)
		return 0;
	if (!(stride = value_stride(vals)))
		return -EINVAL;
	ret = o->units->read_unit(s->drv, u, s->cnt, sizeof(*s->cnt), n);
	if (ret < 0)
		return ret;
	if (s->ntool)
		pmu__session_tool_read(s, s->cnt, sizeof(*s->cnt), n);
	copy_out(s, vals, stride, n);
	return (ssize_t)n;
}

/* ---- instruction intervals (the emu driver's report-insns) ---- */

PMU_API ssize_t pmu_session_nmarks(struct pmu_session *s)
{
	if (!s || !s->open)
		return -EINVAL;
	if (!s->drv->ops->guest)
		return -EOPNOTSUPP;
	return s->drv->ops->guest->nmarks(s->drv);
}

/* Tool events (duration_time...) measure wall time: not at a mark. */
PMU_API ssize_t pmu_session_read_mark(struct pmu_session *s, size_t k,
				      uint64_t *insns, struct pmu_value *vals,
				      size_t n)
{
	const struct pmu__driver_ops *o;
	uint64_t at = 0;
	size_t stride = 0;
	int ret;

	if (!s || !s->open || (!vals && n))
		return -EINVAL;
	o = s->drv->ops;
	if (!o->guest)
		return -EOPNOTSUPP;
	if (n > s->n)
		n = s->n;
	if (n && !(stride = value_stride(vals)))
		return -EINVAL;
	ret = o->guest->read_mark(s->drv, k, &at, s->cnt, sizeof(*s->cnt), n);
	if (ret < 0)
		return ret;
	if (insns)
		*insns = at;
	if (n)
		copy_out(s, vals, stride, n);
	return (ssize_t)n;
}
