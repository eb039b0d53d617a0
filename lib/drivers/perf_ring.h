/* SPDX-License-Identifier: MIT */
#ifndef PMU_DRIVERS_PERF_RING_H
#define PMU_DRIVERS_PERF_RING_H

/*
 * The perf mmap ring buffer, read from user space.
 *
 * A sampling event's descriptor maps 1 + 2^n pages: the first is the
 * control page (struct perf_event_mmap_page), the others a ring the
 * kernel fills with PERF_RECORD_* records.  The kernel advances
 * data_head; the reader consumes records from data_tail up to a
 * snapshot of data_head and then stores the new data_tail, which frees
 * the space (the mapping must be writable for that, otherwise the
 * kernel overwrites old records).  A record may wrap around the end of
 * the ring; the reader hands it out contiguous, copied into a scratch
 * buffer.  When the ring was full the kernel drops records and writes a
 * PERF_RECORD_LOST with the number dropped; the reader adds them up.
 *
 * Nothing here knows perf.data, sessions or the command line: a
 * recorder, a perfmon2 sampling format or a test decodes the records it
 * is handed.  Use:
 *
 *	struct pmu__ring r;
 *	pmu__ring_map(&r, sys, fd, 8, err);     // 8 data pages
 *	...
 *	pmu__ring_begin(&r);                    // snapshot data_head
 *	while ((h = pmu__ring_next(&r)))        // one record at a time
 *		consume(h, h->size);
 *	pmu__ring_end(&r);                      // give the space back
 *	...
 *	pmu__ring_unmap(&r);
 *
 * pmu__ring_init() attaches to memory the caller already mapped (or a
 * fake ring in a test).  A ring is used by one thread at a time.
 */

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmu/error.h>

#include "drivers/perf_sys.h"

struct pmu__ring {
	struct perf_event_mmap_page *meta; /* the control page */
	unsigned char *data;  /* the ring: data_size bytes */
	uint64_t data_size;   /* a power of two */
	uint64_t head;        /* data_head at pmu__ring_begin() */
	uint64_t tail;        /* next record to read */
	unsigned char *copy;  /* scratch for a record that wraps */
	size_t copy_size;
	uint64_t lost;        /* records the kernel dropped (LOST) */
	uint64_t nlost;       /* PERF_RECORD_LOST records seen */
	uint64_t bad;         /* ring contents that made no sense: the
				 reader skipped to data_head */
	/* set by pmu__ring_map() */
	const struct pmu__perf_sys *sys;
	void *base;
	size_t map_len;
	int fd;
};

/*
 * Attach to a ring at `base` of `len` bytes: one page of `page_size`
 * then a power-of-two data area (the control page's data_offset and
 * data_size are used when the kernel set them).  -EINVAL when len is
 * not 1 + 2^n pages.
 */
int pmu__ring_init(struct pmu__ring *r, void *base, size_t len,
		   size_t page_size);

/*
 * Map the ring of descriptor fd through sys->mmap_ring: 1 + `pages`
 * pages (pages a power of two).  Fills *err naming the page count when
 * the kernel refuses it (EPERM: perf_event_mlock_kb).
 */
int pmu__ring_map(struct pmu__ring *r, const struct pmu__perf_sys *sys,
		  int fd, size_t pages, struct pmu_error *err);

/* Unmap what pmu__ring_map() mapped and free the scratch; NULL ok. */
void pmu__ring_unmap(struct pmu__ring *r);

/* Take a snapshot of data_head (load-acquire).  Returns the number of
 * bytes ready to read. */
uint64_t pmu__ring_begin(struct pmu__ring *r);

/*
 * The next whole record before the snapshot, or NULL when there is none
 * (or memory for a wrapped record ran out: the rest is left for the
 * next round).  The pointer is valid until the next call.  A record
 * whose size is smaller than its header, not 8-byte aligned or larger
 * than what is left means the reader lost its place: it counts it in
 * `bad`, skips to the snapshot and returns NULL.
 */
const struct perf_event_header *pmu__ring_next(struct pmu__ring *r);

/* Store data_tail (store-release): the kernel may reuse the space of
 * every record read since pmu__ring_begin(). */
void pmu__ring_end(struct pmu__ring *r);

/* Bytes the kernel has written and nobody has read yet. */
uint64_t pmu__ring_pending(const struct pmu__ring *r);

#endif
