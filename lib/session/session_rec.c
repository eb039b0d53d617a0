/* SPDX-License-Identifier: MIT */
/*
 * Raw sampling: the driver's rings read record by record, for profiles
 * that keep the kernel's records as they come (perf.data).  The session
 * decodes nothing here; a perfmon2 sampling format's decoding is in
 * sample_perf.c.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>

#include "drivers/perf_ring.h"
#include "session/session.h"
#include "util/error.h"

int pmu__session_rec_map(struct pmu_session *s, size_t pages,
			 struct pmu_error *err)
{
	const struct pmu__drv_buffer *b = s && s->open ? s->drv->ops->buffer
						      : NULL;

	if (!s || !s->open)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "the session is not open");
	if (!b)
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED,
				  NULL, -1, "the %s driver has no sampling "
				  "buffers", s->drv->ops->name);
	if (s->rings)
		return pmu__error(err, -EBUSY, PMU_ERR_USAGE, NULL, -1,
				  "the session's buffers are mapped already");
	return b->map_buffer(s->drv, pages, &s->rings, &s->nrings, err);
}

int pmu__session_rec_ids(struct pmu_session *s, size_t i, uint64_t *ids,
			 size_t max, size_t *n)
{
	*n = 0;
	if (!s || !s->open || i >= s->n)
		return -EINVAL;
	if (!s->drv->ops->buffer)
		return -EOPNOTSUPP;
	return s->drv->ops->buffer->event_ids(s->drv, i, ids, max, n);
}

int pmu__session_rec_wait(struct pmu_session *s, int timeout_ms)
{
	struct pollfd *pf;
	int ret;

	if (!s || !s->rings)
		return -EINVAL;
	pf = calloc(s->nrings + 1, sizeof(*pf));
	if (!pf)
		return -ENOMEM;
	for (size_t i = 0; i < s->nrings; i++)
		pf[i] = (struct pollfd){ .fd = s->rings[i].fd, .events = POLLIN };
	ret = poll(pf, s->nrings, timeout_ms);
	if (ret < 0)
		ret = errno == EINTR ? -EINTR : -errno;
	free(pf);
	return ret < 0 ? ret : 0;
}

static int drain_ring(struct pmu__ring *g, pmu__rec_fn fn, void *arg,
		      bool *any)
{
	const struct perf_event_header *h;
	int ret = 0;

	if (!pmu__ring_begin(g))
		return 0;
	*any = true;
	while (!ret && (h = pmu__ring_next(g)))
		ret = fn(arg, h);
	/* what fn took is gone from the ring, even when it failed */
	pmu__ring_end(g);
	return ret;
}

int pmu__session_rec_drain(struct pmu_session *s, pmu__rec_fn fn, void *arg,
			   bool *any)
{
	int ret = 0;

	*any = false;
	if (!s || !fn)
		return -EINVAL;
	for (size_t i = 0; !ret && i < s->nrings; i++)
		ret = drain_ring(&s->rings[i], fn, arg, any);
	return ret;
}

uint64_t pmu__session_rec_lost(const struct pmu_session *s)
{
	uint64_t n = 0;

	for (size_t i = 0; s && i < s->nrings; i++)
		n += s->rings[i].lost;
	return n;
}
