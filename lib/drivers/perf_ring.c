/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "drivers/perf_ring.h"
#include "util/error.h"

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

int pmu__ring_init(struct pmu__ring *r, void *base, size_t len,
		   size_t page_size)
{
	struct perf_event_mmap_page *m = base;
	uint64_t off = page_size, size;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	if (!base || !page_size || len <= page_size ||
	    !pow2(len - page_size))
		return -EINVAL;
	size = len - page_size;
	/* kernels since 4.1 say where the data is; older ones leave 0 */
	if (m->data_size) {
		if (!pow2(m->data_size) || m->data_offset < sizeof(*m) ||
		    m->data_offset + m->data_size > len)
			return -EINVAL;
		off = m->data_offset;
		size = m->data_size;
	}
	r->meta = m;
	r->data = (unsigned char *)base + off;
	r->data_size = size;
	r->tail = r->head = __atomic_load_n(&m->data_tail, __ATOMIC_ACQUIRE);
	return 0;
}

int pmu__ring_map(struct pmu__ring *r, const struct pmu__perf_sys *sys,
		  int fd, size_t pages, struct pmu_error *err)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len;
	void *m;
	int ret;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	if (!pow2(pages) || pages > (1u << 20))
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, NULL, -1,
				  "ring buffer of %zu pages: the number of "
				  "data pages must be a power of two", pages);
	if (!sys->mmap_ring)
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED, NULL,
				  -1, "this system call table maps no rings");
	len = (pages + 1) * page;
	errno = 0;
	m = sys->mmap_ring(sys->ctx, len, fd);
	if (m == MAP_FAILED || !m) {
		int e = errno ? -errno : -ENOMEM;

		return pmu__error(err, e, e == -EPERM ? PMU_ERR_PERMISSION :
				  PMU_ERR_RESOURCES, NULL, -1,
				  "cannot map a ring buffer of %zu pages "
				  "(%s); try fewer pages (-m) or raise "
				  "/proc/sys/kernel/perf_event_mlock_kb",
				  pages, strerror(-e));
	}
	ret = pmu__ring_init(r, m, len, page);
	if (ret) {
		sys->munmap(sys->ctx, m, len);
		return pmu__error(err, ret, PMU_ERR_SYSTEM, NULL, -1,
				  "the kernel's ring buffer has a layout "
				  "this reader does not know");
	}
	r->sys = sys;
	r->base = m;
	r->map_len = len;
	r->fd = fd;
	return 0;
}

void pmu__ring_unmap(struct pmu__ring *r)
{
	if (!r)
		return;
	if (r->sys && r->base)
		r->sys->munmap(r->sys->ctx, r->base, r->map_len);
	free(r->copy);
	r->copy = NULL;
	r->copy_size = 0;
	r->base = NULL;
	r->meta = NULL;
}

uint64_t pmu__ring_begin(struct pmu__ring *r)
{
	/* pairs with the kernel's store of data_head after the records */
	r->head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	return r->head - r->tail;
}

uint64_t pmu__ring_pending(const struct pmu__ring *r)
{
	return __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE) -
	       r->tail;
}

static void lost_place(struct pmu__ring *r)
{
	r->bad++;
	r->tail = r->head;
}

/* A record that runs past the end of the ring, made contiguous. */
static const struct perf_event_header *unwrap(struct pmu__ring *r,
					      uint64_t off, size_t size)
{
	size_t first = (size_t)(r->data_size - off);

	if (r->copy_size < size) {
		unsigned char *c = realloc(r->copy, size);

		if (!c)
			return NULL;
		r->copy = c;
		r->copy_size = size;
	}
	memcpy(r->copy, r->data + off, first);
	memcpy(r->copy + first, r->data, size - first);
	return (const struct perf_event_header *)r->copy;
}

/* The header itself may straddle the end of the ring. */
static struct perf_event_header peek_header(const struct pmu__ring *r,
					    uint64_t off)
{
	struct perf_event_header h;
	size_t first = (size_t)(r->data_size - off);

	if (first >= sizeof(h)) {
		memcpy(&h, r->data + off, sizeof(h));
	} else {
		memcpy(&h, r->data + off, first);
		memcpy((char *)&h + first, r->data, sizeof(h) - first);
	}
	return h;
}

static void count_lost(struct pmu__ring *r, const struct perf_event_header *h)
{
	uint64_t n;

	/* { header, u64 id, u64 lost, sample_id } */
	if (h->type != PERF_RECORD_LOST || h->size < sizeof(*h) + 16)
		return;
	memcpy(&n, (const char *)h + sizeof(*h) + 8, sizeof(n));
	r->lost += n;
	r->nlost++;
}

const struct perf_event_header *pmu__ring_next(struct pmu__ring *r)
{
	const struct perf_event_header *h;
	struct perf_event_header hd;
	uint64_t avail = r->head - r->tail, off;

	if (avail < sizeof(hd))
		return NULL;
	off = r->tail & (r->data_size - 1);
	hd = peek_header(r, off);
	if (hd.size < sizeof(hd) || hd.size % 8 || hd.size > avail) {
		lost_place(r);
		return NULL;
	}
	if (off + hd.size <= r->data_size)
		h = (const struct perf_event_header *)(r->data + off);
	else if (!(h = unwrap(r, off, hd.size)))
		return NULL;
	r->tail += hd.size;
	count_lost(r, h);
	return h;
}

void pmu__ring_end(struct pmu__ring *r)
{
	/* every read of the records happens before the kernel may reuse
	 * their space */
	__atomic_store_n(&r->meta->data_tail, r->tail, __ATOMIC_RELEASE);
}
