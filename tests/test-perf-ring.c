/* SPDX-License-Identifier: MIT */
/*
 * The perf ring-buffer reader against a fake ring: a test plays the
 * kernel, writing records at data_head (wrapping at the end of the
 * ring, as the kernel does), and checks what the reader hands out, what
 * it stores in data_tail and how it counts LOST records.  The driver's
 * map_buffer runs over the system-call seam: rings per CPU, events of
 * one CPU redirected into one ring.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "drivers/perf.h"
#include "drivers/perf_ring.h"

#define PAGE 4096

struct fake_ring {
	unsigned char *mem;
	size_t len;
	struct perf_event_mmap_page *meta;
	unsigned char *data;
	uint64_t size;
};

static void fake_ring_new(struct fake_ring *f, size_t data_pages, bool meta)
{
	f->len = (data_pages + 1) * PAGE;
	f->mem = aligned_alloc(PAGE, f->len);
	assert_non_null(f->mem);
	memset(f->mem, 0, f->len);
	f->meta = (void *)f->mem;
	f->data = f->mem + PAGE;
	f->size = data_pages * PAGE;
	if (meta) {
		f->meta->data_offset = PAGE;
		f->meta->data_size = f->size;
	}
}

/* The kernel's side: a record of `size` bytes of type `type` whose
 * payload bytes are `fill`, written at data_head, wrapping. */
static void kernel_put(struct fake_ring *f, uint32_t type, uint16_t size,
		       unsigned char fill)
{
	unsigned char rec[1024];
	struct perf_event_header h = { .type = type, .size = size };
	uint64_t head = f->meta->data_head;

	assert_true(size <= sizeof(rec));
	memset(rec, fill, size);
	memcpy(rec, &h, sizeof(h));
	for (size_t i = 0; i < size; i++)
		f->data[(head + i) & (f->size - 1)] = rec[i];
	f->meta->data_head = head + size;
}

static void kernel_lost(struct fake_ring *f, uint64_t n)
{
	uint64_t head = f->meta->data_head;
	unsigned char rec[40] = { 0 };
	struct perf_event_header h = { .type = PERF_RECORD_LOST, .size = 40 };

	memcpy(rec, &h, sizeof(h));
	memcpy(rec + 16, &n, 8);
	for (size_t i = 0; i < sizeof(rec); i++)
		f->data[(head + i) & (f->size - 1)] = rec[i];
	f->meta->data_head = head + sizeof(rec);
}

static void check_record(const struct perf_event_header *h, uint32_t type,
			 uint16_t size, unsigned char fill)
{
	assert_non_null(h);
	assert_int_equal(h->type, type);
	assert_int_equal(h->size, size);
	for (size_t i = sizeof(*h); i < size; i++)
		assert_int_equal(((const unsigned char *)h)[i], fill);
}

/* Records of these sizes, starting at this offset of the ring: the
 * reader returns each whole, in order, however the ring cuts them. */
static const struct {
	int line;
	uint64_t start;    /* data_head = data_tail before the first */
	uint16_t size[4];
	size_t pages;
} wrap_rows[] = {
	{ __LINE__, 0, { 16, 24, 1000, 8 }, 1 },
	{ __LINE__, PAGE - 16, { 40, 8, 0, 0 }, 1 },    /* body wraps */
	{ __LINE__, PAGE - 4, { 32, 0, 0, 0 }, 1 },     /* header wraps */
	{ __LINE__, PAGE - 8, { 8, 64, 0, 0 }, 1 },     /* ends exactly */
	{ __LINE__, 3 * PAGE - 24, { 200, 200, 0, 0 }, 2 }, /* many laps */
	{ __LINE__, PAGE * 2 - 8, { 1016, 1016, 1016, 1016 }, 2 },
};

static void test_wrap(void **state)
{
	for (size_t r = 0; r < sizeof(wrap_rows) / sizeof(wrap_rows[0]); r++) {
		struct fake_ring f;
		struct pmu__ring ring;
		uint64_t total = 0;

		print_message("row at line %d\n", wrap_rows[r].line);
		fake_ring_new(&f, wrap_rows[r].pages, true);
		f.meta->data_head = f.meta->data_tail = wrap_rows[r].start;
		assert_int_equal(pmu__ring_init(&ring, f.mem, f.len, PAGE), 0);
		for (int i = 0; i < 4 && wrap_rows[r].size[i]; i++) {
			kernel_put(&f, 9, wrap_rows[r].size[i], 0x10 + i);
			total += wrap_rows[r].size[i];
		}
		assert_int_equal(pmu__ring_begin(&ring), total);
		for (int i = 0; i < 4 && wrap_rows[r].size[i]; i++)
			check_record(pmu__ring_next(&ring), 9,
				     wrap_rows[r].size[i], 0x10 + i);
		assert_null(pmu__ring_next(&ring));
		/* nothing given back before end() */
		assert_int_equal(f.meta->data_tail, wrap_rows[r].start);
		pmu__ring_end(&ring);
		assert_int_equal(f.meta->data_tail, wrap_rows[r].start + total);
		assert_int_equal(ring.bad, 0);
		pmu__ring_unmap(&ring);
		free(f.mem);
	}
}

/* Records written after the snapshot wait for the next round. */
static void test_snapshot(void **state)
{
	struct fake_ring f;
	struct pmu__ring ring;

	fake_ring_new(&f, 1, true);
	assert_int_equal(pmu__ring_init(&ring, f.mem, f.len, PAGE), 0);
	kernel_put(&f, 9, 16, 1);
	assert_int_equal(pmu__ring_begin(&ring), 16);
	kernel_put(&f, 9, 24, 2);
	check_record(pmu__ring_next(&ring), 9, 16, 1);
	assert_null(pmu__ring_next(&ring));
	pmu__ring_end(&ring);
	assert_int_equal(f.meta->data_tail, 16);
	assert_int_equal(pmu__ring_pending(&ring), 24);
	assert_int_equal(pmu__ring_begin(&ring), 24);
	check_record(pmu__ring_next(&ring), 9, 24, 2);
	pmu__ring_end(&ring);
	assert_int_equal(f.meta->data_tail, 40);
	free(f.mem);
}

static void test_lost(void **state)
{
	static const struct {
		int line;
		uint64_t lost[3];
	} rows[] = {
		{ __LINE__, { 1, 0, 0 } },
		{ __LINE__, { 5, 7, 0 } },
		{ __LINE__, { 1000000, 3, 12 } },
	};

	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct fake_ring f;
		struct pmu__ring ring;
		uint64_t want = 0, n = 0;
		const struct perf_event_header *h;

		print_message("row at line %d\n", rows[r].line);
		fake_ring_new(&f, 1, true);
		f.meta->data_head = f.meta->data_tail = PAGE - 24;
		assert_int_equal(pmu__ring_init(&ring, f.mem, f.len, PAGE), 0);
		for (int i = 0; i < 3 && rows[r].lost[i]; i++) {
			kernel_put(&f, PERF_RECORD_SAMPLE, 48, 7);
			kernel_lost(&f, rows[r].lost[i]);
			want += rows[r].lost[i];
			n++;
		}
		pmu__ring_begin(&ring);
		while ((h = pmu__ring_next(&ring)))
			;
		assert_int_equal(ring.lost, want);
		assert_int_equal(ring.nlost, n);
		pmu__ring_unmap(&ring);
		free(f.mem);
	}
}

/* A ring whose contents make no sense: the reader stops at once, says
 * so and resynchronises on data_head rather than reading garbage. */
static void test_bad(void **state)
{
	static const struct {
		int line;
		uint16_t size;
	} rows[] = {
		{ __LINE__, 0 },     /* would never advance */
		{ __LINE__, 4 },     /* smaller than a header */
		{ __LINE__, 20 },    /* not 8-byte aligned */
		{ __LINE__, 4096 },  /* more than was written */
	};

	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct fake_ring f;
		struct pmu__ring ring;
		struct perf_event_header h = { .type = 9, .size = rows[r].size };

		print_message("row at line %d\n", rows[r].line);
		fake_ring_new(&f, 1, true);
		assert_int_equal(pmu__ring_init(&ring, f.mem, f.len, PAGE), 0);
		memcpy(f.data, &h, sizeof(h));
		f.meta->data_head = 64;
		pmu__ring_begin(&ring);
		assert_null(pmu__ring_next(&ring));
		assert_int_equal(ring.bad, 1);
		pmu__ring_end(&ring);
		assert_int_equal(f.meta->data_tail, 64);
		free(f.mem);
	}
}

static void test_init_layout(void **state)
{
	static const struct {
		int line;
		size_t len;
		uint64_t off, size; /* control page's data_offset/size */
		int ret;
	} rows[] = {
		{ __LINE__, 2 * PAGE, 0, 0, 0 },          /* old kernel */
		{ __LINE__, 5 * PAGE, PAGE, 4 * PAGE, 0 },
		{ __LINE__, 4 * PAGE, 0, 0, -EINVAL },    /* 3 data pages */
		{ __LINE__, PAGE, 0, 0, -EINVAL },        /* no data */
		{ __LINE__, 3 * PAGE, PAGE, 3 * PAGE, -EINVAL }, /* past end */
		{ __LINE__, 3 * PAGE, PAGE, 3000, -EINVAL },
	};

	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		unsigned char *m = aligned_alloc(PAGE, 5 * PAGE);
		struct perf_event_mmap_page *meta = (void *)m;
		struct pmu__ring ring;

		print_message("row at line %d\n", rows[r].line);
		memset(m, 0, 5 * PAGE);
		meta->data_offset = rows[r].off;
		meta->data_size = rows[r].size;
		assert_int_equal(pmu__ring_init(&ring, m, rows[r].len, PAGE),
				 rows[r].ret);
		if (!rows[r].ret)
			assert_ptr_equal(ring.data, m + PAGE);
		free(m);
	}
}

/* ---- the driver's map_buffer over the seam ---- */

#define FD0 100

struct fk {
	int nopen;
	int cpu[64];
	pid_t pid[64];
	unsigned long setout_fd[64]; /* fd -> SET_OUTPUT target + 1 */
	int nmap, nunmap, map_fd[64];
	size_t map_len;
	struct fake_ring rings[16];
	uint64_t next_id;
	int fail_map_errno;
};

static int fk_open(void *ctx, struct perf_event_attr *a, pid_t pid, int cpu,
		   int group_fd, unsigned long flags)
{
	struct fk *k = ctx;

	k->cpu[k->nopen] = cpu;
	k->pid[k->nopen] = pid;
	return FD0 + k->nopen++;
}

static ssize_t fk_read(void *ctx, int fd, void *buf, size_t n)
{
	return -1;
}

static int fk_ioctl(void *ctx, int fd, unsigned long req, unsigned long arg)
{
	struct fk *k = ctx;

	if (req == PERF_EVENT_IOC_ID) {
		*(uint64_t *)arg = 1000 + (uint64_t)(fd - FD0);
		return 0;
	}
	if (req == PERF_EVENT_IOC_SET_OUTPUT) {
		/* the kernel refuses rings of another CPU */
		if (k->cpu[fd - FD0] != k->cpu[arg - FD0]) {
			errno = EINVAL;
			return -1;
		}
		k->setout_fd[fd - FD0] = arg + 1;
	}
	return 0;
}

static void *fk_mmap(void *ctx, size_t len, int fd)
{
	return MAP_FAILED;
}

static void *fk_mmap_ring(void *ctx, size_t len, int fd)
{
	struct fk *k = ctx;
	struct fake_ring *f;

	if (k->fail_map_errno) {
		errno = k->fail_map_errno;
		return MAP_FAILED;
	}
	f = &k->rings[k->nmap];
	fake_ring_new(f, len / PAGE - 1, true);
	k->map_fd[k->nmap++] = fd;
	k->map_len = len;
	return f->mem;
}

static int fk_munmap(void *ctx, void *addr, size_t len)
{
	struct fk *k = ctx;

	k->nunmap++;
	free(addr);
	return 0;
}

static int fk_close(void *ctx, int fd)
{
	return 0;
}

static struct pmu__perf_sys fk_sys(struct fk *k)
{
	return (struct pmu__perf_sys){
		.event_open = fk_open, .read = fk_read, .ioctl = fk_ioctl,
		.mmap = fk_mmap, .munmap = fk_munmap, .close = fk_close,
		.ctx = k, .mmap_ring = fk_mmap_ring,
	};
}

static struct pmu__ev sw_ev(const char *name, int group, uint64_t config)
{
	struct pmu__ev e = { .name = (char *)name, .group = group,
			     .leader = true, .scale = 1 };

	e.attr.type = PERF_TYPE_SOFTWARE;
	e.attr.config = config;
	e.attr.sample_period = 1000;
	e.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	return e;
}

/* Two events on a child followed per CPU: one ring per CPU, the second
 * event of each CPU sent into it; ids one per CPU. */
static void test_map_buffer(void **state)
{
	static const struct {
		int line;
		const char *cpus;
		size_t ncpu;
	} rows[] = {
		{ __LINE__, "0", 1 },
		{ __LINE__, "0,1", 2 },
		{ __LINE__, "1", 1 },
	};

	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct fk k = { 0 };
		struct pmu__perf_sys sys = fk_sys(&k);
		struct pmu__drv *d = pmu__perf_driver_new(&sys);
		struct pmu__ev ev[2] = { sw_ev("cpu-clock", 0, 0),
					 sw_ev("task-clock", 1, 1) };
		struct pmu__ev_state st[2] = { 0 };
		pid_t child = 4242;
		struct pmu__target t = { .kind = PMU__TARGET_CHILD,
					 .pids = &child, .npids = 1,
					 .cpus = rows[r].cpus, .per_cpu = true };
		struct pmu__ring *rings;
		size_t nrings, n;
		uint64_t ids[8];

		print_message("row at line %d\n", rows[r].line);
		assert_int_equal(d->ops->open(d, ev, 2, NULL, &t, st, NULL), 0);
		assert_int_equal(k.nopen, 2 * (int)rows[r].ncpu);
		for (int i = 0; i < k.nopen; i++)
			assert_int_equal(k.pid[i], child);
		assert_int_equal(d->ops->buffer->map_buffer(d, 4, &rings, &nrings,
						    NULL), 0);
		assert_int_equal(nrings, rows[r].ncpu);
		assert_int_equal(k.nmap, rows[r].ncpu);
		assert_int_equal(k.map_len, 5 * PAGE);
		/* the second event's descriptor on each CPU goes into the
		 * ring of the first event's descriptor on that CPU */
		for (int i = 0; i < k.nopen; i++) {
			if (k.setout_fd[i] == 0)
				continue;
			int out = (int)k.setout_fd[i] - 1 - FD0;

			assert_int_equal(k.cpu[out], k.cpu[i]);
			assert_int_not_equal(out, i);
		}
		assert_int_equal(d->ops->buffer->event_ids(d, 1, ids, 8, &n), 0);
		assert_int_equal(n, rows[r].ncpu);
		for (size_t c = 0; c < n; c++)
			assert_true(ids[c] >= 1000 + rows[r].ncpu);
		/* records the "kernel" writes come out of the driver's ring */
		kernel_put(&k.rings[0], PERF_RECORD_SAMPLE, 32, 3);
		assert_int_equal(pmu__ring_begin(&rings[0]), 32);
		check_record(pmu__ring_next(&rings[0]), PERF_RECORD_SAMPLE, 32,
			     3);
		pmu__ring_end(&rings[0]);
		assert_int_equal(k.rings[0].meta->data_tail, 32);
		d->ops->close(d);
		assert_int_equal(k.nunmap, k.nmap);
		pmu__driver_free(d);
	}
}

static void test_map_refused(void **state)
{
	struct fk k = { .fail_map_errno = EPERM };
	struct pmu__perf_sys sys = fk_sys(&k);
	struct pmu__drv *d = pmu__perf_driver_new(&sys);
	struct pmu__ev ev = sw_ev("cpu-clock", 0, 0);
	struct pmu__ev_state st = { 0 };
	pid_t child = 7;
	struct pmu__target t = { .kind = PMU__TARGET_CHILD, .pids = &child,
				 .npids = 1, .cpus = "0", .per_cpu = true };
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu__ring *rings;
	size_t nrings;

	assert_int_equal(d->ops->open(d, &ev, 1, NULL, &t, &st, NULL), 0);
	assert_int_equal(d->ops->buffer->map_buffer(d, 3, &rings, &nrings, &err),
			 -EINVAL); /* not a power of two */
	assert_non_null(strstr(err.message, "power of two"));
	assert_int_equal(d->ops->buffer->map_buffer(d, 8, &rings, &nrings, &err),
			 -EPERM);
	assert_int_equal(err.kind, PMU_ERR_PERMISSION);
	assert_non_null(strstr(err.message, "perf_event_mlock_kb"));
	pmu__driver_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_snapshot),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_init_layout),
		cmocka_unit_test(test_map_buffer),
		cmocka_unit_test(test_map_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
