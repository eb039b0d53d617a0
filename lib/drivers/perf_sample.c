/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/perf_priv.h"
#include "drivers/perf_ring.h"
#include "util/error.h"

/* The first open descriptor of unit u, in event order. */
static int unit_fd(const struct pmu__perf *p, size_t u)
{
	for (size_t i = 0; i < p->nev; i++)
		if (p->fd[i * p->nunits + u] >= 0)
			return p->fd[i * p->nunits + u];
	return -1;
}

/* A ring already mapped for a descriptor of the same CPU: the kernel
 * lets events of one CPU share a ring (PERF_EVENT_IOC_SET_OUTPUT). */
static struct pmu__ring *ring_of_cpu(struct pmu__perf *p, size_t u)
{
	int cpu = p->units.cpu[u];

	for (size_t v = 0; cpu >= 0 && v < u; v++) {
		if (p->units.cpu[v] != cpu)
			continue;
		int fd = unit_fd(p, v);

		for (size_t k = 0; fd >= 0 && k < p->nring; k++)
			if (p->ring[k].fd == fd)
				return &p->ring[k];
	}
	return NULL;
}

static int redirect(struct pmu__perf *p, size_t u, int out_fd,
		    struct pmu_error *err)
{
	const struct pmu__perf_sys *sys = p->sys;

	for (size_t i = 0; i < p->nev; i++) {
		int fd = p->fd[i * p->nunits + u];

		if (fd < 0 || fd == out_fd)
			continue;
		if (sys->ioctl(sys->ctx, fd, PERF_EVENT_IOC_SET_OUTPUT,
			       (unsigned long)out_fd) < 0) {
			int e = errno ? -errno : -EIO;

			return pmu__error(err, e, PMU_ERR_SYSTEM, p->ev[i].name,
					  -1, "cannot send '%s' into the ring "
					  "buffer of its CPU: %s",
					  p->ev[i].name, pmu_strerror(e));
		}
	}
	return 0;
}

static int map_unit(struct pmu__perf *p, size_t u, size_t pages,
		    struct pmu_error *err)
{
	struct pmu__ring *shared = ring_of_cpu(p, u);
	int fd = unit_fd(p, u), ret;

	if (fd < 0)
		return 0; /* nothing open there (an exited thread) */
	if (shared)
		return redirect(p, u, shared->fd, err);
	ret = pmu__ring_map(&p->ring[p->nring], p->sys, fd, pages, err);
	if (ret)
		return ret;
	p->nring++;
	return redirect(p, u, fd, err);
}

int pmu__perf_map_buffer(struct pmu__drv *d, size_t pages,
			 struct pmu__ring **rings, size_t *nrings,
			 struct pmu_error *err)
{
	struct pmu__perf *p = (struct pmu__perf *)d;
	int ret = 0;

	if (!p->is_open || p->ring)
		return pmu__error(err, -EBUSY, PMU_ERR_USAGE, NULL, -1,
				  p->ring ? "the rings are mapped already" :
				  "open the events before mapping rings");
	p->ring = calloc(p->nunits + 1, sizeof(*p->ring));
	if (!p->ring)
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	for (size_t u = 0; !ret && u < p->nunits; u++)
		ret = map_unit(p, u, pages, err);
	if (ret) {
		pmu__perf_unmap_rings(p);
		return ret;
	}
	*rings = p->ring;
	*nrings = p->nring;
	return 0;
}

void pmu__perf_unmap_rings(struct pmu__perf *p)
{
	for (size_t k = 0; k < p->nring; k++)
		pmu__ring_unmap(&p->ring[k]);
	free(p->ring);
	p->ring = NULL;
	p->nring = 0;
}

int pmu__perf_event_ids(struct pmu__drv *d, size_t i, uint64_t *ids,
			size_t max, size_t *n)
{
	struct pmu__perf *p = (struct pmu__perf *)d;

	*n = 0;
	if (!p->is_open || i >= p->nev)
		return -EINVAL;
	for (size_t u = 0; u < p->nunits; u++) {
		if (p->fd[i * p->nunits + u] < 0)
			continue;
		if (*n < max)
			ids[*n] = p->id[i * p->nunits + u];
		(*n)++;
	}
	return 0;
}
