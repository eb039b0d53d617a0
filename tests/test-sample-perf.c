/* SPDX-License-Identifier: MIT */
/*
 * Sampling sessions on the perf driver.
 *
 * Against a fake kernel (the driver's system-call seam and fake rings):
 * the test opens a session, checks the attributes the kernel is asked
 * for, then plays the kernel, writing PERF_RECORD_SAMPLE records laid
 * out as perf_event_open(2) describes them for those attributes, and
 * checks the default-format entries the session decodes them into:
 * every field, group values matched by id, the extras, the buffer's
 * full rule, the notification, restart and the counts of lost samples.
 *
 * Against this machine's kernel (software events): a workload touching
 * N fresh pages sampled every P page faults.  The kernel samples every
 * P-th fault it counts, and the faults it counts lie between those
 * getrusage() sees inside and around the sampled window, so the
 * samples (plus the lost ones) lie between floor(inside / P) and
 * floor(around / P); the N faults of the touch loop are consecutive,
 * so at least floor(N / P) samples have their ip in it.  perf record
 * and perf script of the same workload obey the same bounds.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <pmu/pmu.h>
#define PMU_PERFMON_NO_REDIRECT
#include <pmu/perfmon.h>

#include "drivers/perf.h"
#include "session/session.h"

#define PAGE 4096
#define FD0 100
#define HDR 128u

/* ---- the fake kernel ---- */

struct fk {
	struct perf_event_attr attr[16];
	int group_fd[16];
	int nopen;
	unsigned char *ring;         /* the one ring (a SELF target) */
	size_t ring_len;
	uint64_t lost[16];           /* PERF_FORMAT_LOST of each event */
	uint64_t value[16];
	int nmmap;                   /* one-page maps for user-space reads */
	unsigned max_precise;        /* with limit_precise: EOPNOTSUPP above */
	bool limit_precise;
};

static int fk_open(void *ctx, struct perf_event_attr *a, pid_t pid, int cpu,
		   int group_fd, unsigned long flags)
{
	struct fk *k = ctx;

	(void)pid;
	(void)cpu;
	(void)flags;
	k->attr[k->nopen] = *a;
	k->group_fd[k->nopen] = group_fd;
	if (k->limit_precise && a->precise_ip > k->max_precise) {
		k->nopen++;   /* the attempt is kept, its fd never used */
		errno = EOPNOTSUPP;
		return -1;
	}
	return FD0 + k->nopen++;
}

static uint64_t fk_id(int fd)
{
	return 7000 + 3 * (uint64_t)(fd - FD0); /* ids unlike fds */
}

static int fk_ioctl(void *ctx, int fd, unsigned long req, unsigned long arg)
{
	(void)ctx;
	if (req == PERF_EVENT_IOC_ID)
		*(uint64_t *)arg = fk_id(fd);
	return 0;
}

/* A group read: nr, enabled, running, {value, id, lost} per member. */
static ssize_t fk_read(void *ctx, int fd, void *buf, size_t n)
{
	struct fk *k = ctx;
	uint64_t *b = buf, nr = 0;
	size_t w = k->attr[fd - FD0].read_format & PERF_FORMAT_LOST ? 3 : 2;

	assert_true(k->attr[fd - FD0].read_format & PERF_FORMAT_GROUP);
	for (int i = 0; i < k->nopen; i++) {
		if (i != fd - FD0 && k->group_fd[i] != fd)
			continue;
		assert_true((3 + w * (nr + 1)) * 8 <= n);
		b[3 + w * nr] = k->value[i];
		b[4 + w * nr] = fk_id(FD0 + i);
		if (w == 3)
			b[5 + w * nr] = k->lost[i];
		nr++;
	}
	b[0] = nr;
	b[1] = b[2] = 1000;
	return (ssize_t)((3 + w * nr) * 8);
}

static void *fk_mmap(void *ctx, size_t len, int fd)
{
	struct fk *k = ctx;

	(void)len;
	(void)fd;
	k->nmmap++;
	return MAP_FAILED;
}

static void *fk_mmap_ring(void *ctx, size_t len, int fd)
{
	struct fk *k = ctx;
	struct perf_event_mmap_page *meta;

	(void)fd;
	assert_null(k->ring);
	k->ring = aligned_alloc(PAGE, len);
	assert_non_null(k->ring);
	memset(k->ring, 0, len);
	k->ring_len = len;
	meta = (void *)k->ring;
	meta->data_offset = PAGE;
	meta->data_size = len - PAGE;
	return k->ring;
}

static int fk_munmap(void *ctx, void *addr, size_t len)
{
	struct fk *k = ctx;

	(void)len;
	assert_ptr_equal(addr, k->ring);
	free(addr);
	k->ring = NULL;
	return 0;
}

static int fk_close(void *ctx, int fd)
{
	(void)ctx;
	(void)fd;
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

/* The kernel writes a record of `n` words (header included) at
 * data_head, wrapping round the ring. */
static void kernel_put(struct fk *k, const uint64_t *w, size_t n)
{
	struct perf_event_mmap_page *meta = (void *)k->ring;
	unsigned char *data = k->ring + PAGE;
	uint64_t size = k->ring_len - PAGE, head = meta->data_head;
	const unsigned char *src = (const void *)w;

	for (size_t i = 0; i < 8 * n; i++)
		data[(head + i) & (size - 1)] = src[i];
	__atomic_store_n(&meta->data_head, head + 8 * n, __ATOMIC_RELEASE);
}

static uint64_t header(uint32_t type, size_t words)
{
	struct perf_event_header h = { .type = type,
				       .size = (uint16_t)(8 * words) };
	uint64_t v;

	memcpy(&v, &h, 8);
	return v;
}

/* One sample as perf_event_open(2) lays it out for sample_type st. */
struct smp {
	int ev;                     /* the fake's open index */
	uint64_t ip, time, addr, period;
	uint32_t pid, tid, cpu;
	size_t nread;               /* members in READ, in this order: */
	int read_ev[4];
	size_t nchain;
	uint64_t chain[8];
	size_t nraw;                /* IBS: caps then registers */
	uint64_t raw[8];
	uint64_t abi, regs[20];
};

static void kernel_sample(struct fk *k, const struct smp *s)
{
	uint64_t st = k->attr[s->ev].sample_type, w[128];
	size_t n = 1;

	if (st & PERF_SAMPLE_IDENTIFIER)
		w[n++] = fk_id(FD0 + s->ev);
	if (st & PERF_SAMPLE_IP)
		w[n++] = s->ip;
	if (st & PERF_SAMPLE_TID)
		w[n++] = s->pid | (uint64_t)s->tid << 32;
	if (st & PERF_SAMPLE_TIME)
		w[n++] = s->time;
	if (st & PERF_SAMPLE_ADDR)
		w[n++] = s->addr;
	if (st & PERF_SAMPLE_CPU)
		w[n++] = s->cpu;
	if (st & PERF_SAMPLE_PERIOD)
		w[n++] = s->period;
	if (st & PERF_SAMPLE_READ) {
		w[n++] = s->nread;
		w[n++] = 5;
		w[n++] = 5;
		for (size_t j = 0; j < s->nread; j++) {
			w[n++] = k->value[s->read_ev[j]];
			w[n++] = fk_id(FD0 + s->read_ev[j]);
			if (k->attr[s->ev].read_format & PERF_FORMAT_LOST)
				w[n++] = 0;
		}
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		w[n++] = s->nchain;
		for (size_t j = 0; j < s->nchain; j++)
			w[n++] = s->chain[j];
	}
	if (st & PERF_SAMPLE_RAW) {
		/* u32 size, then the data: u32 caps, u64 registers */
		w[n++] = (4 + 8 * s->nraw) | (uint64_t)0xcafe << 32;
		for (size_t j = 0; j < s->nraw; j++)
			w[n++] = s->raw[j];
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		w[n++] = s->abi;
		for (size_t j = 0; s->abi && j < 20; j++)
			w[n++] = s->regs[j];
	}
	w[0] = header(PERF_RECORD_SAMPLE, n);
	kernel_put(k, w, n);
}

static void kernel_lost(struct fk *k, uint64_t n)
{
	uint64_t w[3] = { header(PERF_RECORD_LOST, 3), fk_id(FD0), n };

	kernel_put(k, w, 3);
}

static struct pmu_session *fake_session(struct fk *k,
					struct pmu__perf_sys *sys,
					const char *events,
					const struct pmu_sampling_opts *o)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_session *s;

	*sys = fk_sys(k);
	s = pmu__session_new_on(pmu__perf_driver_new(sys), true, &err);
	assert_non_null(s);
	if (pmu_session_add(s, events, &err) ||
	    pmu_session_sample(s, o, &err) || pmu_session_open(s, NULL, &err))
		fail_msg("%s", err.message);
	return s;
}

/* Sampling, :P asks for the highest precise level the PMU takes: 3,
 * 2, 1 ... until one opens (counting asks for none, as perf stat). */
static void test_precise_max(void **state)
{
	struct fk k = { .limit_precise = true, .max_precise = 1 };
	struct pmu__perf_sys sys;
	struct pmu_sampling_opts o = { .sz = sizeof(o), .period = 1000 };
	struct pmu_session *s;

	(void)state;
	s = fake_session(&k, &sys, "cycles:P", &o);
	assert_int_equal(k.nopen, 3);
	for (int i = 0; i < 3; i++)
		assert_int_equal(k.attr[i].precise_ip, 3 - i);
	assert_int_equal(pmu_session_event_status(s, 0, NULL), PMU_EVENT_OK);
	pmu_session_free(s);
}

static const struct pmu_sample_hdr *buffer(struct pmu_session *s)
{
	size_t size;
	const struct pmu_sample_hdr *h = pmu_session_buffer(s, &size);

	assert_non_null(h);
	assert_int_equal(size, h->hdr_buf_size);
	return h;
}

static const struct pmu_sample_entry *at(const struct pmu_sample_hdr *h,
					 size_t off)
{
	return (const void *)((const char *)h + off);
}

static uint64_t word(const struct pmu_sample_entry *e, size_t j)
{
	uint64_t v;

	memcpy(&v, (const char *)(e + 1) + 8 * j, 8);
	return v;
}

/* What the kernel is asked for: leaders sample with the session's
 * fields, members count; every read carries the lost samples. */
static void test_attrs(void **state)
{
	const struct {
		int line;
		const char *events;
		struct pmu_sampling_opts o;
		uint64_t st0, period0;
		bool freq;
	} rows[] = {
		{ __LINE__, "{page-faults,task-clock,cpu-clock}",
		  { .sz = sizeof(struct pmu_sampling_opts), .period = 77 },
		  PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
		  PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_READ, 77,
		  false },
		{ __LINE__, "page-faults",
		  { .sz = sizeof(struct pmu_sampling_opts), .freq = 99 },
		  PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
		  PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD, 99,
		  true },
		{ __LINE__, "software/config=2,period=5/",
		  { .sz = sizeof(struct pmu_sampling_opts), .period = 77,
		    .extra = PMU_SAMPLE_DATA_ADDR | PMU_SAMPLE_REGS |
			     PMU_SAMPLE_CALLCHAIN },
		  PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
		  PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_ADDR |
		  PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER, 5, false },
		/* hardware counters of the calling thread: the descriptors
		 * map their sampling ring, not a page for user-space reads
		 * (a second mapping of another size would make the ring's
		 * mmap fail on a real PMU) */
		{ __LINE__, "{cycles,instructions}",
		  { .sz = sizeof(struct pmu_sampling_opts), .period = 77 },
		  PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
		  PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_READ, 77,
		  false },
	};

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct fk k = { 0 };
		struct pmu__perf_sys sys;
		struct pmu_session *s;

		print_message("row at line %d\n", rows[r].line);
		s = fake_session(&k, &sys, rows[r].events, &rows[r].o);
		assert_int_equal(k.attr[0].sample_type, rows[r].st0);
		assert_int_equal(k.attr[0].sample_period, rows[r].period0);
		assert_int_equal(k.attr[0].freq, rows[r].freq);
		for (int i = 0; i < k.nopen; i++) {
			assert_true(k.attr[i].read_format & PERF_FORMAT_LOST);
			if (i > 0) {
				assert_int_equal(k.attr[i].sample_period, 0);
				assert_int_equal(k.attr[i].sample_type, 0);
			}
		}
		if (rows[r].o.extra & PMU_SAMPLE_REGS)
			assert_int_equal(__builtin_popcountll(
				k.attr[0].sample_regs_user), 20);
		assert_int_equal(k.nmmap, 0);
		pmu_session_free(s);
	}
}

/* Every field of an entry, a group's values in group order whatever
 * order the kernel lists them in. */
static void test_entries(void **state)
{
	struct fk k = { 0 };
	struct pmu__perf_sys sys;
	struct pmu_sampling_opts o = { .sz = sizeof(o), .period = 1000 };
	struct pmu_session *s = fake_session(&k, &sys,
		"{page-faults,task-clock,cpu-clock}", &o);
	struct smp a = { .ev = 0, .ip = 0x401234, .time = 123456789,
			 .pid = 4000, .tid = 4001, .cpu = 1, .nread = 3,
			 .read_ev = { 0, 1, 2 } };
	struct pmu_sample_stats st = { .size = sizeof(st) };
	const struct pmu_sample_hdr *h;
	const struct pmu_sample_entry *e;
	size_t idx[4];

	(void)state;
	k.value[0] = 3000;
	k.value[1] = 111;
	k.value[2] = 222;
	kernel_sample(&k, &a);
	/* the same group listed backwards, later values */
	k.value[1] = 333;
	k.value[2] = 444;
	a.read_ev[0] = 2;
	a.read_ev[1] = 1;
	a.read_ev[2] = 0;
	a.ip = 0x405678;
	kernel_sample(&k, &a);
	assert_int_equal(pmu_session_sample_poll(s, 0), 2);
	h = buffer(s);
	assert_int_equal(h->hdr_version, 0x10000);
	assert_int_equal(h->hdr_count, 2);
	assert_int_equal(h->hdr_cur_offs, HDR + 2 * (40 + 16));
	assert_int_equal(h->hdr_min_buf_space, 40 + 16);
	assert_int_equal(h->hdr_buf_flags, 0);
	e = at(h, HDR);
	assert_int_equal(e->pid, 4001);
	assert_int_equal(e->tgid, 4000);
	assert_int_equal(e->ovfl_pmd, 0);
	assert_int_equal(e->last_reset_val, 0 - 1000ull);
	assert_int_equal(e->ip, 0x401234);
	assert_int_equal(e->tstamp, 123456789);
	assert_int_equal(e->cpu, 1);
	assert_int_equal(e->set, 0);
	assert_int_equal(word(e, 0), 111);
	assert_int_equal(word(e, 1), 222);
	e = at(h, HDR + 56);
	assert_int_equal(e->ip, 0x405678);
	assert_int_equal(word(e, 0), 333);
	assert_int_equal(word(e, 1), 444);
	assert_int_equal(pmu_session_sample_event(s, e), 0);
	assert_int_equal(pmu_session_sample_values(s, 0, idx, 4), 2);
	assert_int_equal(idx[0], 1);
	assert_int_equal(idx[1], 2);
	assert_int_equal(pmu_session_sample_values(s, 1, idx, 4), -EINVAL);
	assert_int_equal(pmu_session_sample_stats(s, &st), 0);
	assert_int_equal(st.samples, 2);
	assert_int_equal(st.lost, 0);
	pmu_session_free(s);
}

/* Extras after the values: address, ABI + 20 registers (zeros when
 * the kernel had none), chain count + frames; freq: each sample's own
 * period. */
static void test_extras(void **state)
{
	struct fk k = { 0 };
	struct pmu__perf_sys sys;
	struct pmu_sampling_opts o = { .sz = sizeof(o), .freq = 1000,
		.extra = PMU_SAMPLE_DATA_ADDR | PMU_SAMPLE_REGS |
			 PMU_SAMPLE_CALLCHAIN };
	struct pmu_session *s = fake_session(&k, &sys, "page-faults", &o);
	struct smp a = { .ev = 0, .ip = 0x1000, .time = 5, .pid = 9,
			 .tid = 9, .period = 4321, .addr = 0xdead000,
			 .nchain = 3, .chain = { (uint64_t)-512, 0x1000,
						 0x2000 },
			 .abi = 2 };
	const struct pmu_sample_hdr *h;
	const struct pmu_sample_entry *e;

	(void)state;
	for (int j = 0; j < 20; j++)
		a.regs[j] = 100 + (uint64_t)j;
	kernel_sample(&k, &a);
	a.abi = 0;              /* a kernel thread: no user registers */
	a.nchain = 1;
	a.period = 17;
	kernel_sample(&k, &a);
	assert_int_equal(pmu_session_sample_poll(s, 0), 2);
	h = buffer(s);
	assert_int_equal(h->hdr_buf_flags, PMU_SAMPLE_DATA_ADDR |
			 PMU_SAMPLE_REGS | PMU_SAMPLE_CALLCHAIN);
	assert_int_equal(h->hdr_min_buf_space,
			 40 + 8 + 8 * 21 + 8 * (1 + PMU_SAMPLE_MAX_STACK));
	e = at(h, HDR);
	assert_int_equal(e->last_reset_val, 0 - 4321ull);
	assert_int_equal(word(e, 0), 0xdead000);
	assert_int_equal(word(e, 1), 2);
	for (int j = 0; j < 20; j++)
		assert_int_equal(word(e, 2 + (size_t)j), 100 + (uint64_t)j);
	assert_int_equal(word(e, 22), 3);
	assert_int_equal(word(e, 23), (uint64_t)-512);
	assert_int_equal(word(e, 25), 0x2000);
	e = at(h, HDR + 40 + 8 * 26);
	assert_int_equal(e->last_reset_val, 0 - 17ull);
	assert_int_equal(word(e, 1), 0);
	assert_int_equal(word(e, 2), 0);
	assert_int_equal(word(e, 22), 1);
	assert_int_equal(h->hdr_cur_offs, HDR + 40 + 8 * 26 + 40 + 8 * 24);
	pmu_session_free(s);
}

static bool readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

/*
 * The default format's rules: with room for 3 entries (128 + 3 * 40 +
 * 39 bytes; an entry of a group of one is 40), the 3rd fills it (kept,
 * one overflow, one message naming the event); samples until restart
 * are lost, counted; restart empties it.  A LOST record of the kernel,
 * and an undecodable sample, are lost too.
 */
static void test_full(void **state)
{
	struct fk k = { 0 };
	struct pmu__perf_sys sys;
	struct pmu_sampling_opts o = { .sz = sizeof(o), .period = 10,
				       .buf_size = HDR + 3 * 40 + 39 };
	struct pmu_session *s = fake_session(&k, &sys,
					     "cpu-clock,page-faults", &o);
	struct smp a = { .ev = 1, .ip = 0x1000, .pid = 3, .tid = 4,
			 .cpu = 0 };
	struct pmu_sample_stats st = { .size = sizeof(st) };
	const struct pmu_sample_hdr *h;
	pfarg_msg_t m;
	uint64_t bad[3];
	int fd = pmu_session_fd(s);

	(void)state;
	assert_true(fd >= 0);
	for (int i = 0; i < 5; i++) {
		a.ip = 0x1000 + (uint64_t)i;
		kernel_sample(&k, &a);
	}
	assert_false(readable(fd));
	assert_int_equal(pmu_session_sample_poll(s, 0), 3);
	h = buffer(s);
	assert_int_equal(h->hdr_count, 3);
	assert_int_equal(h->hdr_overflows, 1);
	assert_int_equal(at(h, HDR + 80)->ip, 0x1002);
	assert_int_equal(at(h, HDR + 80)->ovfl_pmd, 1);
	assert_true(readable(fd));
	assert_int_equal(read(fd, &m, sizeof(m)), sizeof(m));
	assert_int_equal(m.type, PFM_MSG_OVFL);
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_pmds[0], 1u << 1);
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_ip, 0x1002);
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_pid, 4);
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_tid, 3);
	assert_int_equal(pmu_session_sample_stats(s, &st), 0);
	assert_int_equal(st.samples, 3);
	assert_int_equal(st.lost, 2);
	assert_int_equal(st.full, 1);
	assert_int_equal(pmu_session_restart(s), 0);
	assert_int_equal(pmu_session_restart(s), -EBUSY);
	assert_int_equal(h->hdr_count, 0);
	assert_int_equal(h->hdr_cur_offs, HDR);
	/* after the restart: a sample, the kernel's LOST, a sample of an
	 * event the session does not know */
	a.ip = 0x2000;
	kernel_sample(&k, &a);
	kernel_lost(&k, 6);
	bad[0] = header(PERF_RECORD_SAMPLE, 3);
	bad[1] = 424242;
	bad[2] = 0;
	kernel_put(&k, bad, 3);
	assert_int_equal(pmu_session_sample_poll(s, 0), 1);
	assert_int_equal(h->hdr_count, 1);
	assert_int_equal(at(h, HDR)->ip, 0x2000);
	assert_int_equal(pmu_session_sample_stats(s, &st), 0);
	assert_int_equal(st.samples, 4);
	assert_int_equal(st.lost, 2 + 6 + 1);
	/* the kernel's own count of the event's lost samples, as a read
	 * gives it before a LOST record says so */
	k.lost[1] = 10;
	assert_int_equal(pmu_session_sample_stats(s, &st), 0);
	assert_int_equal(st.lost, 2 + 10 + 1);
	pmu_session_free(s);
}

/* IBS where the kernel has an ibs_op PMU (not this machine: a fake
 * one): the unit's registers come as raw data, the entry's values are
 * the data registers after the control, as perfmon2's ibs format has
 * them (IbsOpRip, IbsOpData 1-3, IbsDcLinAd, IbsDcPhysAd). */
static void test_ibs(void **state)
{
	struct fk k = { 0 };
	struct pmu__perf_sys sys = fk_sys(&k);
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_sampling_opts o = { .sz = sizeof(o), .format = "ibs" };
	struct perf_event_attr a = { .type = 11, .size = sizeof(a),
				     .sample_period = 4096 };
	struct pmu_session *s = pmu__session_new_on(
		pmu__perf_driver_new(&sys), true, &err);
	struct smp x = { .ev = 0, .ip = 0x402000, .pid = 8, .tid = 8,
			 .nraw = 8, .raw = { 0x20100, 0x402000, 1, 2, 3,
					     0x1234, 0x5678, 0 } };
	const struct pmu_sample_hdr *h;
	const struct pmu_sample_entry *e;
	size_t idx[2];

	(void)state;
	assert_non_null(s);
	assert_int_equal(pmu__session_add_attr(s, "ibs_op:maxcnt=4096", &a,
					       true), 0);
	s->ev[0].flags |= PMU__EV_IBS;
	s->ev[0].ncodes = 4;
	s->ev[0].codes[0] = 0x20100;    /* IbsOpCtl: MaxCnt 0x100, En */
	s->ev[0].codes[1] = 5;
	s->ev[0].codes[2] = 7;
	s->ev[0].codes[3] = 7;
	if (pmu_session_sample(s, &o, &err) || pmu_session_open(s, NULL, &err))
		fail_msg("%s", err.message);
	assert_true(k.attr[0].sample_type & PERF_SAMPLE_RAW);
	assert_int_equal(k.attr[0].sample_period, 4096);
	kernel_sample(&k, &x);
	x.raw[1] = 0x403000;
	x.nraw = 7;              /* no branch target register */
	kernel_sample(&k, &x);
	x.nraw = 3;              /* too few registers: not an entry */
	kernel_sample(&k, &x);
	assert_int_equal(pmu_session_sample_poll(s, 0), 2);
	h = buffer(s);
	assert_int_equal(h->hdr_min_buf_space, 40 + 6 * 8);
	e = at(h, HDR);
	assert_int_equal(word(e, 0), 0x402000);
	assert_int_equal(word(e, 1), 1);
	assert_int_equal(word(e, 3), 3);
	assert_int_equal(word(e, 5), 0x5678);
	e = at(h, HDR + 88);
	assert_int_equal(word(e, 0), 0x403000);
	assert_int_equal(word(e, 4), 0x1234);
	assert_int_equal(pmu_session_sample_values(s, 0, idx, 2), 0);
	pmu_session_free(s);
}

static void test_errors(void **state)
{
	const struct {
		int line;
		struct pmu_sampling_opts o;
		const char *says;
	} rows[] = {
		{ __LINE__, { .sz = sizeof(struct pmu_sampling_opts),
			      .format = "pebs32_p4" }, "simulated" },
		{ __LINE__, { .sz = sizeof(struct pmu_sampling_opts),
			      .long_period = 5 }, "long_period" },
		{ __LINE__, { .sz = sizeof(struct pmu_sampling_opts),
			      .random_mask = 5 }, "random_mask" },
		{ __LINE__, { .sz = sizeof(struct pmu_sampling_opts),
			      .extra = 0x100 }, "extra" },
		{ __LINE__, { .sz = sizeof(struct pmu_sampling_opts),
			      .period = 1ull << 63 }, "period" },
	};

	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_session *s;

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		s = pmu_session_new(NULL);
		print_message("row at line %d\n", rows[r].line);
		assert_non_null(s);
		assert_true(pmu_session_sample(s, &rows[r].o, &err) < 0);
		if (!strstr(err.message, rows[r].says))
			fail_msg("'%s' does not say '%s'", err.message,
				 rows[r].says);
		pmu_session_free(s);
	}
	/* event sets sample on a simulated PMU only */
	s = pmu_session_new(NULL);
	assert_int_equal(pmu_session_add(s, "task-clock", &err), 0);
	assert_true(pmu_session_add_set(s, &err) == 1);
	assert_int_equal(pmu_session_add(s, "page-faults", &err), 0);
	assert_int_equal(pmu_session_sample(s, NULL, &err), 0);
	assert_int_equal(pmu_session_open(s, NULL, &err), -EOPNOTSUPP);
	assert_non_null(strstr(err.message, "simulated PMU"));
	/* and nothing of sampling answers before open */
	assert_int_equal(pmu_session_fd(s), -EINVAL);
	assert_int_equal(pmu_session_restart(s), -EINVAL);
	assert_null(pmu_session_buffer(s, NULL));
	pmu_session_free(s);
}

/* ---- this machine's kernel ---- */

extern char __start_pmu_touch_text[], __stop_pmu_touch_text[];

/* The loop whose page faults are sampled, alone in its section so that
 * its addresses are known. */
__attribute__((noinline, section("pmu_touch_text")))
static void touch(volatile char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i * PAGE] = 1;
}

static long faults(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_minflt + ru.ru_majflt;
}

static bool under_valgrind(void)
{
	const char *p = getenv("LD_PRELOAD");

	return p && strstr(p, "vgpreload");
}

struct run {
	long inside, around;        /* faults getrusage saw */
	struct pmu_sample_stats st;
	uint64_t in_touch;          /* entries with their ip in touch() */
	uint64_t entries;
};

/* Sample `events` every P page faults while touching n pages: the
 * session's own calls in the window, getrusage inside and around it. */
static int sample_touch(const char *events, uint64_t P, size_t n,
			size_t buf_size, struct run *out)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_sampling_opts o = { .sz = sizeof(o), .period = P,
				       .buf_size = buf_size };
	struct pmu_session *s = pmu_session_new(&err);
	char *p = mmap(NULL, n * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	const struct pmu_sample_hdr *h;
	long f0, f1, f2, f3;
	size_t off;

	assert_true(s && p != MAP_FAILED);
	madvise(p, n * PAGE, MADV_NOHUGEPAGE);
	if (pmu_session_add(s, events, &err) || pmu_session_sample(s, &o, &err))
		fail_msg("%s", err.message);
	if (pmu_session_open(s, NULL, &err) ||
	    pmu_session_event_status(s, 0, NULL) != PMU_EVENT_OK) {
		print_message("# cannot sample %s here: %s %s\n", events,
			      err.message, pmu_session_event_reason(s, 0));
		pmu_session_free(s);
		munmap(p, n * PAGE);
		return -1;
	}
	h = pmu_session_buffer(s, NULL);
	assert_non_null(h);
	f0 = faults();
	pmu_session_start(s);
	f1 = faults();
	touch(p, n);
	f2 = faults();
	pmu_session_stop(s);
	f3 = faults();
	out->inside = f2 - f1;
	out->around = f3 - f0;
	out->st.size = sizeof(out->st);
	assert_int_equal(pmu_session_sample_stats(s, &out->st), 0);
	out->entries = h->hdr_count;
	out->in_touch = 0;
	off = HDR;
	for (uint64_t k = 0; k < h->hdr_count; k++) {
		const struct pmu_sample_entry *e = at(h, off);
		ssize_t nv = pmu_session_sample_values(
			s, (size_t)pmu_session_sample_event(s, e), NULL, 0);

		assert_true(nv >= 0);
		assert_int_equal(e->pid, (uint32_t)gettid());
		assert_int_equal(e->tgid, (uint32_t)getpid());
		assert_int_equal(e->last_reset_val, 0 - P);
		assert_true(e->cpu < 4096);
		out->in_touch += e->ip >= (uintptr_t)__start_pmu_touch_text &&
				 e->ip < (uintptr_t)__stop_pmu_touch_text;
		off += 40 + 8 * (size_t)nv;
	}
	assert_int_equal(off, h->hdr_cur_offs);
	pmu_session_free(s);
	munmap(p, n * PAGE);
	return 0;
}

static void test_kernel_faults(void **state)
{
	const struct {
		int line;
		const char *events;
		uint64_t P;
		size_t n;
	} rows[] = {
		{ __LINE__, "page-faults", 16, 4096 },
		{ __LINE__, "{page-faults,task-clock}", 100, 3000 },
		{ __LINE__, "page-faults:u", 1, 500 },
	};

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		uint64_t P = rows[r].P;
		struct run x;

		print_message("row at line %d\n", rows[r].line);
		if (sample_touch(rows[r].events, P, rows[r].n, 0, &x))
			skip();
		print_message("# %llu samples, faults %ld inside, %ld "
			      "around\n", (unsigned long long)x.st.samples,
			      x.inside, x.around);
		assert_int_equal(x.st.lost, 0);
		assert_int_equal(x.st.full, 0);
		assert_int_equal(x.entries, x.st.samples);
		assert_true(x.st.samples >= (uint64_t)x.inside / P);
		assert_true(x.st.samples <= (uint64_t)x.around / P);
		if (!under_valgrind())
			assert_true(x.in_touch >= rows[r].n / P);
	}
}

/* A buffer and ring of one page: samples go missing, and every one of
 * them is counted, by the kernel or the session. */
static void test_kernel_lost(void **state)
{
	const uint64_t P = 4;
	const size_t n = 8192;
	struct run x;

	(void)state;
	if (sample_touch("page-faults", P, n, PAGE, &x))
		skip();
	print_message("# %llu samples, %llu lost, %llu full; faults %ld "
		      "inside, %ld around\n", (unsigned long long)x.st.samples,
		      (unsigned long long)x.st.lost,
		      (unsigned long long)x.st.full, x.inside, x.around);
	assert_true(x.st.lost > 0);
	assert_true(x.st.samples + x.st.lost >= (uint64_t)x.inside / P);
	assert_true(x.st.samples + x.st.lost <= (uint64_t)x.around / P);
	assert_int_equal(x.entries, x.st.samples);
}

/* The buffer fills on this kernel too: a message, restart, more. */
static void test_kernel_restart(void **state)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_sampling_opts o = { .sz = sizeof(o), .period = 1,
				       .buf_size = HDR + 10 * 40 + 39 };
	struct pmu_session *s = pmu_session_new(&err);
	size_t n = 64;
	char *p = mmap(NULL, 2 * n * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct pmu_sample_stats st = { .size = sizeof(st) };
	const struct pmu_sample_hdr *h;
	pfarg_msg_t m;
	int fd;

	(void)state;
	madvise(p, 2 * n * PAGE, MADV_NOHUGEPAGE);
	if (pmu_session_add(s, "page-faults", &err) ||
	    pmu_session_sample(s, &o, &err))
		fail_msg("%s", err.message);
	if (pmu_session_open(s, NULL, &err) ||
	    pmu_session_event_status(s, 0, NULL) != PMU_EVENT_OK) {
		pmu_session_free(s);
		skip();
	}
	fd = pmu_session_fd(s);
	h = pmu_session_buffer(s, NULL);
	pmu_session_start(s);
	touch(p, n);
	pmu_session_sample_poll(s, 0);
	assert_int_equal(h->hdr_count, 10);
	assert_true(readable(fd));
	assert_int_equal(read(fd, &m, sizeof(m)), sizeof(m));
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_pid, (uint32_t)gettid());
	assert_int_equal(pmu_session_restart(s), 0);
	touch(p + n * PAGE, n);
	pmu_session_stop(s);
	assert_int_equal(h->hdr_count, 10);
	assert_int_equal(pmu_session_sample_stats(s, &st), 0);
	assert_int_equal(st.full, 2);
	assert_int_equal(st.samples, 20);
	assert_true(st.samples + st.lost >= 2 * n);
	pmu_session_free(s);
	munmap(p, 2 * n * PAGE);
}

/* ---- against perf record + perf script ---- */

static bool have_perf(void)
{
	return system("perf --version >/dev/null 2>&1") == 0;
}

/* nm's address and size of touch_pages in the workload. */
static void touch_range(const char *bin, uint64_t *lo, uint64_t *hi)
{
	char cmd[600], line[256];
	unsigned long long a, sz;
	char type, name[128];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "nm -S --defined-only '%s'", bin);
	f = popen(cmd, "r");
	assert_non_null(f);
	*lo = *hi = 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %llx %c %127s", &a, &sz, &type, name) ==
		    4 && !strcmp(name, "touch_pages")) {
			*lo = a;
			*hi = a + sz;
		}
	pclose(f);
	assert_true(*hi > *lo);
}

/* Run the workload as a child counted from its exec; its own count of
 * page faults comes back on stdout. */
static long ours(const char *bin, long n, uint64_t P, uint64_t lo,
		 uint64_t hi, uint64_t *samples, uint64_t *in_touch)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_sampling_opts o = { .sz = sizeof(o), .period = P,
				       .buf_size = 1 << 20 };
	struct pmu_session *s = pmu_session_new(&err);
	int go[2], out[2], status;
	char arg[32], buf[64] = "";
	long f = -1;
	pid_t pid;
	char c = 0;
	const struct pmu_sample_hdr *h;
	struct pmu_sample_stats st = { .size = sizeof(st) };

	snprintf(arg, sizeof(arg), "%ld", n);
	assert_true(pipe(go) == 0 && pipe(out) == 0);
	pid = fork();
	if (pid == 0) {
		dup2(out[1], 1);
		close(go[1]);
		if (read(go[0], &c, 1) == 1)
			execl(bin, bin, arg, (char *)NULL);
		_exit(127);
	}
	close(go[0]);
	close(out[1]);
	{
		struct pmu_open_opts oo = PMU_OPTS_INIT(pmu_open_opts,
			.target = PMU_TARGET_CHILD, .pid = pid);

		if (pmu_session_add(s, "page-faults", &err) ||
		    pmu_session_sample(s, &o, &err) ||
		    pmu_session_open(s, &oo, &err))
			fail_msg("%s", err.message);
	}
	assert_int_equal(write(go[1], &c, 1), 1);
	close(go[1]);
	if (read(out[0], buf, sizeof(buf) - 1) > 0)
		sscanf(buf, "faults %ld", &f);
	close(out[0]);
	waitpid(pid, &status, 0);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	pmu_session_stop(s);
	assert_int_equal(pmu_session_sample_stats(s, &st), 0);
	assert_int_equal(st.lost, 0);
	h = pmu_session_buffer(s, NULL);
	*samples = h->hdr_count;
	*in_touch = 0;
	for (uint64_t k = 0; k < h->hdr_count; k++) {
		const struct pmu_sample_entry *e = at(h, HDR + 40 * k);

		assert_int_equal(e->tgid, (uint32_t)pid);
		*in_touch += e->ip >= lo && e->ip < hi;
	}
	pmu_session_free(s);
	return f;
}

/* perf record + perf script of the same run. */
static long theirs(const char *bin, long n, uint64_t P, uint64_t *samples,
		   uint64_t *in_touch)
{
	char dir[] = "/tmp/pmu-sample-XXXXXX", cmd[1024], line[512];
	long f = -1;
	FILE *p;

	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "perf record -q -e page-faults -c %llu "
		 "-o %s/perf.data -- '%s' %ld 2>/dev/null",
		 (unsigned long long)P, dir, bin, n);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p))
		sscanf(line, "faults %ld", &f);
	if (pclose(p) != 0)
		f = -1;
	*samples = *in_touch = 0;
	snprintf(cmd, sizeof(cmd), "perf script -i %s/perf.data -F ip,sym "
		 "2>/dev/null", dir);
	p = f >= 0 ? popen(cmd, "r") : NULL;
	while (p && fgets(line, sizeof(line), p)) {
		(*samples)++;
		*in_touch += strstr(line, " touch_pages") != NULL;
	}
	if (p)
		pclose(p);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		print_message("# could not remove %s\n", dir);
	return f;
}

static void test_against_perf(void **state)
{
	const char *build = getenv("PMU_BUILD");
	const long n = 3000;
	const uint64_t P = 20;
	char bin[512];
	uint64_t lo, hi, s1, t1, s2, t2;
	long f1, f2;

	(void)state;
	if (!have_perf()) {
		print_message("# perf is not installed (linux-perf)\n");
		skip();
	}
	snprintf(bin, sizeof(bin), "%s/tests/touch", build ? build : "build");
	if (access(bin, X_OK)) {
		print_message("# %s missing: make check builds it\n", bin);
		skip();
	}
	touch_range(bin, &lo, &hi);
	f1 = ours(bin, n, P, lo, hi, &s1, &t1);
	f2 = theirs(bin, n, P, &s2, &t2);
	if (f2 < 0) {
		print_message("# perf record cannot sample page-faults here\n");
		skip();
	}
	print_message("# pmu: %llu samples (%llu in touch_pages), workload "
		      "faults %ld; perf: %llu (%llu), faults %ld\n",
		      (unsigned long long)s1, (unsigned long long)t1, f1,
		      (unsigned long long)s2, (unsigned long long)t2, f2);
	/* each within [floor(n / P), floor(its run's faults / P)], so
	 * apart by at most the width of the wider range; the samples in
	 * touch_pages nearly all of floor(n / P): a fault elsewhere
	 * (another thread of the process, a page of the stack) in the
	 * middle of its loop can take one of them, for perf as for pmu */
	assert_true(f1 >= n && f2 >= n);
	assert_true(t1 >= (uint64_t)n / P * 95 / 100 &&
		    t2 >= (uint64_t)n / P * 95 / 100);
	assert_true(s1 <= (uint64_t)f1 / P && s2 <= (uint64_t)f2 / P);
	assert_true((s1 > s2 ? s1 - s2 : s2 - s1) <=
		    (uint64_t)(f1 > f2 ? f1 : f2) / P - (uint64_t)n / P);
	/* the faulting store is the same instruction for both */
	assert_true(t1 <= s1 && t2 <= s2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attrs),
		cmocka_unit_test(test_precise_max),
		cmocka_unit_test(test_entries),
		cmocka_unit_test(test_extras),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_ibs),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_kernel_faults),
		cmocka_unit_test(test_kernel_lost),
		cmocka_unit_test(test_kernel_restart),
		cmocka_unit_test(test_against_perf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
