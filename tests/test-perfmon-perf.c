/* SPDX-License-Identifier: MIT */
/*
 * perfmon2 contexts on the perf driver, against a fake kernel injected
 * through the driver's system-call seam (its descriptors are eventfds,
 * so the monitor thread can poll them) and a host given by the test
 * (AMD family 17h+ or Intel architectural PMU): the perf event each
 * event select becomes, enable and disable as ioctls, PMD offsets, a
 * sampling PMD's period, ring announcements turned into the engine's
 * overflow messages and sampling entries, restart re-arming the period,
 * sets switched by the monitor's timer, the kernel's refusals, and a
 * machine without a hardware PMU.
 *
 * Expected values come from the rows' own fields, placed by the AMD
 * APM's and Intel SDM's event-select layouts (the macros below).
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "drivers/perf.h"
#include "drivers/perf_pfm.h"
#include "perfmon/pfm.h"

/* Event-select fields (AMD APM vol. 2 PERF_CTL; Intel SDM vol. 3
 * IA32_PERFEVTSEL). */
#define B(n) (UINT64_C(1) << (n))
#define EV(e) ((uint64_t)((e) & 0xFF) | ((uint64_t)(((e) >> 8) & 0xF) << 32))
#define UM(u) ((uint64_t)(u) << 8)
#define CM(c) ((uint64_t)(c) << 24)
#define USR B(16)
#define OS B(17)
#define EDGE B(18)
#define PC B(19)
#define INT B(20)
#define ANY B(21)
#define EN B(22)
#define INV B(23)
#define GUEST B(40)
#define HOST B(41)

#define AMD PMU__PERF_PFM_AMD
#define INTEL PMU__PERF_PFM_INTEL
#define ARMV8 PMU__PERF_PFM_ARMV8
#define ARM_P B(31)                /* PMEVTYPER: not at EL1 */
#define ARM_U B(30)                /*            not at EL0 */

/* ---- the fake kernel ---- */

#define MAXEV 64
#define MAXIO 512

struct fk_ev {
	struct perf_event_attr attr;
	pid_t pid;
	int cpu, fd;
	bool live;
	uint64_t count;
	struct perf_event_mmap_page *ring;
	size_t ring_len;
};

struct fk_io {
	int ev;
	unsigned long req;
	uint64_t period;          /* PERF_EVENT_IOC_PERIOD's value */
};

struct fk {
	pthread_mutex_t mu;       /* the monitor thread calls in too */
	struct fk_ev ev[MAXEV];
	int nev;
	struct fk_io io[MAXIO];
	int nio;
	int fail_errno;           /* opens fail with this while non-zero */
	bool read_eof;            /* pinned events in error state: 0 bytes */
};

static struct fk *FK(void *ctx)
{
	return ctx;
}

static int fk_index(struct fk *k, int fd)
{
	for (int i = 0; i < k->nev; i++)
		if (k->ev[i].fd == fd && k->ev[i].live)
			return i;
	fail_msg("descriptor %d was never opened or is closed", fd);
	return -1;
}

static int fk_open(void *ctx, struct perf_event_attr *a, pid_t pid, int cpu,
		   int group_fd, unsigned long flags)
{
	struct fk *k = FK(ctx);
	struct fk_ev *e;
	int fd;

	(void)flags;
	pthread_mutex_lock(&k->mu);
	assert_int_equal(group_fd, -1);
	if (k->fail_errno) {
		errno = k->fail_errno;
		pthread_mutex_unlock(&k->mu);
		return -1;
	}
	assert_true(k->nev < MAXEV);
	e = &k->ev[k->nev];
	*e = (struct fk_ev){ .attr = *a, .pid = pid, .cpu = cpu,
			     .live = true };
	e->fd = fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	assert_true(fd >= 0);
	k->nev++;
	pthread_mutex_unlock(&k->mu);
	return fd;
}

static ssize_t fk_read(void *ctx, int fd, void *buf, size_t count)
{
	struct fk *k = FK(ctx);
	int i;

	pthread_mutex_lock(&k->mu);
	i = fk_index(k, fd);
	assert_int_equal(k->ev[i].attr.read_format, 0);
	assert_true(count >= 8);
	memcpy(buf, &k->ev[i].count, 8);
	pthread_mutex_unlock(&k->mu);
	return k->read_eof ? 0 : 8;
}

static int fk_ioctl(void *ctx, int fd, unsigned long req, unsigned long arg)
{
	struct fk *k = FK(ctx);
	struct fk_io *io;

	pthread_mutex_lock(&k->mu);
	assert_true(k->nio < MAXIO);
	io = &k->io[k->nio++];
	io->ev = fk_index(k, fd);
	io->req = req;
	io->period = req == PERF_EVENT_IOC_PERIOD ? *(uint64_t *)arg : 0;
	pthread_mutex_unlock(&k->mu);
	return 0;
}

static void *fk_mmap(void *ctx, size_t len, int fd)
{
	return MAP_FAILED;     /* no rdpmc pages */
}

static void *fk_mmap_ring(void *ctx, size_t len, int fd)
{
	struct fk *k = FK(ctx);
	struct fk_ev *e;
	void *p = aligned_alloc(4096, len);

	assert_non_null(p);
	memset(p, 0, len);
	pthread_mutex_lock(&k->mu);
	e = &k->ev[fk_index(k, fd)];
	e->ring = p;
	e->ring_len = len;
	pthread_mutex_unlock(&k->mu);
	return p;
}

static int fk_munmap(void *ctx, void *addr, size_t len)
{
	free(addr);
	return 0;
}

static int fk_close(void *ctx, int fd)
{
	struct fk *k = FK(ctx);

	pthread_mutex_lock(&k->mu);
	k->ev[fk_index(k, fd)].live = false;
	pthread_mutex_unlock(&k->mu);
	return close(fd);
}

static unsigned long long fk_zero(void *ctx, unsigned int idx)
{
	return 0;
}

static unsigned long long fk_tsc(void *ctx)
{
	return 0;
}

/* ---- a context on a fake host ---- */

struct tc {
	struct fk k;
	struct pmu__perf_sys sys;
	struct pmu__drv *drv;
	int fd;
};

static struct pmu__perf_pfm_host host_of(enum pmu__perf_pfm_layout lay,
					 unsigned nctrs, unsigned version)
{
	return (struct pmu__perf_pfm_host){ .has_pmu = true, .layout = lay,
					    .nctrs = nctrs, .version = version,
					    .what = "a test's processor" };
}

static int create_on(struct tc *t, const struct pmu__perf_pfm_host *h,
		     int flags, const char *fmt, const void *arg,
		     size_t argsz, struct pmu_error *err)
{
	int fd;

	pthread_mutex_init(&t->k.mu, NULL);
	t->sys = (struct pmu__perf_sys){
		.event_open = fk_open, .read = fk_read, .ioctl = fk_ioctl,
		.mmap = fk_mmap, .munmap = fk_munmap, .close = fk_close,
		.rdpmc = fk_zero, .rdtsc = fk_tsc, .ctx = &t->k,
		.mmap_ring = fk_mmap_ring,
	};
	t->drv = pmu__perf_driver_new(&t->sys);
	assert_non_null(t->drv);
	assert_int_equal(pmu__perf_pfm_set_host(t->drv, h), 0);
	pmu__pfm_lock();
	fd = pmu__pfm_create_on(t->drv, flags,
				fmt ? pmu__pfm_fmt_find(fmt) : NULL, arg,
				argsz, err);
	pmu__pfm_unlock();
	return fd;
}

static struct tc *tc_new(enum pmu__perf_pfm_layout lay, unsigned version,
			 int flags, const char *fmt, const void *arg,
			 size_t argsz)
{
	struct tc *t = calloc(1, sizeof(*t));
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu__perf_pfm_host h = host_of(lay, 4, version);

	assert_non_null(t);
	t->fd = create_on(t, &h, flags, fmt, arg, argsz, &err);
	if (t->fd < 0)
		fail_msg("context on the fake kernel: %s", err.message);
	return t;
}

static void tc_free(struct tc *t)
{
	assert_int_equal(pmu_perfmon_close(t->fd), 0);
	pmu__driver_free(t->drv);
	for (int i = 0; i < t->k.nev; i++)
		if (t->k.ev[i].live)
			fail_msg("the event of open %d was left open", i);
	pthread_mutex_destroy(&t->k.mu);
	free(t);
}

static int nev(struct tc *t)
{
	int n;

	pthread_mutex_lock(&t->k.mu);
	n = t->k.nev;
	pthread_mutex_unlock(&t->k.mu);
	return n;
}

static int nio(struct tc *t)
{
	int n;

	pthread_mutex_lock(&t->k.mu);
	n = t->k.nio;
	pthread_mutex_unlock(&t->k.mu);
	return n;
}

static void set_count(struct tc *t, int ev, uint64_t v)
{
	pthread_mutex_lock(&t->k.mu);
	t->k.ev[ev].count = v;
	pthread_mutex_unlock(&t->k.mu);
}

/* ioctl number j is `req` on the event of open `ev` */
static void expect_io(struct tc *t, int j, int ev, unsigned long req)
{
	if (j >= nio(t))
		fail_msg("ioctl %d expected, only %d made", j, nio(t));
	if (t->k.io[j].ev != ev || t->k.io[j].req != req)
		fail_msg("ioctl %d: request 0x%lx on open %d, expected 0x%lx "
			 "on open %d", j, t->k.io[j].req, t->k.io[j].ev, req,
			 ev);
}

static void write_pmc(int fd, unsigned set, unsigned i, uint64_t v)
{
	pfarg_pmr_t r = { .reg_num = (uint16_t)i, .reg_set = (uint16_t)set,
			  .reg_value = v };

	if (pfm_write(fd, 0, PFM_RW_PMC, &r, sizeof(r)))
		fail_msg("pfm_write pmc%u: %s", i,
			 pmu_perfmon_error()->message);
}

static void write_pmd(int fd, unsigned set, unsigned i, uint64_t v,
		      uint32_t flags)
{
	pfarg_pmd_attr_t r;

	memset(&r, 0, sizeof(r));
	r.reg_num = (uint16_t)i;
	r.reg_set = (uint16_t)set;
	r.reg_flags = flags;
	r.reg_value = r.reg_short_reset = r.reg_long_reset = v;
	if (pfm_write(fd, 0, PFM_RW_PMD_ATTR, &r, sizeof(r)))
		fail_msg("pfm_write pmd%u: %s", i,
			 pmu_perfmon_error()->message);
}

static uint64_t read_pmd(int fd, unsigned i)
{
	pfarg_pmr_t r = { .reg_num = (uint16_t)i };

	if (pfm_read(fd, 0, PFM_RW_PMD, &r, sizeof(r)))
		fail_msg("pfm_read pmd%u: %s", i, pmu_perfmon_error()->message);
	return r.reg_value;
}

static void state(int fd, int st)
{
	if (pfm_set_state(fd, 0, st))
		fail_msg("pfm_set_state %d: %s", st,
			 pmu_perfmon_error()->message);
}

static void attach_self(int fd)
{
	if (pfm_attach(fd, 0, gettid()))
		fail_msg("pfm_attach: %s", pmu_perfmon_error()->message);
}

/* ---- the perf event of an event select ---- */

static const struct attr_row {
	int line;
	enum pmu__perf_pfm_layout lay;
	unsigned version;          /* Intel's architectural perfmon */
	uint64_t sel;
	uint64_t config;
	bool xu, xk, xg, xh;       /* exclude_user, _kernel, _guest, _host */
} attr_rows[] = {
	{ __LINE__, AMD, 0, EV(0x76) | USR | OS | EN, EV(0x76), 0, 0, 0, 0 },
	/* EventSelect[11:8] go to config bits 35:32 */
	{ __LINE__, AMD, 0, EV(0x1C0) | USR | EN, EV(0x1C0), 0, 1, 0, 0 },
	{ __LINE__, AMD, 0, EV(0x2C0) | UM(0x0F) | EDGE | INV | CM(2) | OS | EN,
	  EV(0x2C0) | UM(0x0F) | EDGE | INV | CM(2), 1, 0, 0, 0 },
	/* GuestOnly: not in the host; HostOnly: not in a guest */
	{ __LINE__, AMD, 0, EV(0x76) | USR | OS | EN | GUEST, EV(0x76),
	  0, 0, 0, 1 },
	{ __LINE__, AMD, 0, EV(0x76) | USR | OS | EN | HOST, EV(0x76),
	  0, 0, 1, 0 },
	{ __LINE__, AMD, 0, EV(0x76) | USR | OS | EN | GUEST | HOST, EV(0x76),
	  0, 0, 0, 0 },
	/* reserved bits (PC, 21, 39:36, 63:42) never reach the kernel */
	{ __LINE__, AMD, 0, EV(0x76) | USR | EN | PC | ANY | B(37) | B(45) |
	  B(63), EV(0x76), 0, 1, 0, 0 },
	{ __LINE__, INTEL, 4, 0xC0 | USR | OS | EN, 0xC0, 0, 0, 0, 0 },
	{ __LINE__, INTEL, 3, 0x3C | UM(0x01) | ANY | EDGE | INV | CM(1) |
	  USR | EN, 0x3C | UM(0x01) | ANY | EDGE | INV | CM(1), 0, 1, 0, 0 },
	/* AnyThread only from version 3; bits 63:32 are reserved */
	{ __LINE__, INTEL, 2, 0x3C | ANY | OS | EN, 0x3C, 1, 0, 0, 0 },
	{ __LINE__, INTEL, 4, 0x2E | UM(0x41) | OS | EN | B(32) | B(34) | PC |
	  GUEST, 0x2E | UM(0x41), 1, 0, 0, 0 },
	/* Armv8: PMEVTYPER's event number and exclusion bits; NSK, NSU,
	 * NSH, M, MT (29-25) and bits 63:32 never reach the kernel */
	{ __LINE__, ARMV8, 0, 0x11 | EN, 0x11, 0, 0, 0, 0 },
	{ __LINE__, ARMV8, 0, 0x08 | ARM_P | EN, 0x08, 0, 1, 0, 0 },
	{ __LINE__, ARMV8, 0, 0x1B | ARM_U | EN, 0x1B, 1, 0, 0, 0 },
	{ __LINE__, ARMV8, 0, 0x4004 | ARM_P | EN | B(29) | B(27) | B(25) |
	  B(40), 0x4004, 0, 1, 0, 0 },
};

static void test_attr(void **state_)
{
	(void)state_;
	for (size_t r = 0; r < sizeof(attr_rows) / sizeof(*attr_rows); r++) {
		const struct attr_row *w = &attr_rows[r];
		struct tc *t = tc_new(w->lay, w->version, 0, NULL, NULL, 0);
		const struct perf_event_attr *a = &t->k.ev[0].attr;

		print_message("row at line %d\n", w->line);
		write_pmc(t->fd, 0, 0, w->sel);
		write_pmd(t->fd, 0, 0, 0, 0);
		attach_self(t->fd);
		assert_int_equal(nev(t), 0);   /* nothing before the start */
		state(t->fd, PFM_ST_START);
		assert_int_equal(nev(t), 1);
		assert_int_equal(a->type, PERF_TYPE_RAW);
		assert_int_equal(a->size, sizeof(*a));
		assert_int_equal(a->config, w->config);
		assert_int_equal(a->exclude_user, w->xu);
		assert_int_equal(a->exclude_kernel, w->xk);
		/* EL2 is never counted on Armv8 */
		assert_int_equal(a->exclude_hv, w->lay == ARMV8 ? 1 : w->xk);
		assert_int_equal(a->exclude_guest, w->xg);
		assert_int_equal(a->exclude_host, w->xh);
		assert_int_equal(a->sample_period, 0);
		assert_int_equal(a->inherit, 0);
		assert_true(a->disabled && a->pinned);
		/* the monitored thread itself, on any CPU */
		assert_int_equal(t->k.ev[0].pid, gettid());
		assert_int_equal(t->k.ev[0].cpu, -1);
		expect_io(t, 0, 0, PERF_EVENT_IOC_ENABLE);
		tc_free(t);
	}
}

/* What a PMC reads back after all-ones is written: its writable bits
 * and INT (forced on by its default). */
static const struct {
	int line;
	enum pmu__perf_pfm_layout lay;
	unsigned version;
	uint64_t value;
} rsvd_rows[] = {
	{ __LINE__, AMD, 0, EV(0xFFF) | UM(0xFF) | USR | OS | EDGE | INT | EN |
	  INV | CM(0xFF) | GUEST | HOST },
	{ __LINE__, INTEL, 3, 0xFF | UM(0xFF) | USR | OS | EDGE | INT | ANY | EN |
	  INV | CM(0xFF) },
	{ __LINE__, INTEL, 2, 0xFF | UM(0xFF) | USR | OS | EDGE | INT | EN | INV |
	  CM(0xFF) },
	{ __LINE__, ARMV8, 0, 0xFFFF | ARM_P | ARM_U | INT | EN },
};

static void test_reserved(void **state_)
{
	(void)state_;
	for (size_t r = 0; r < sizeof(rsvd_rows) / sizeof(*rsvd_rows); r++) {
		struct tc *t = tc_new(rsvd_rows[r].lay, rsvd_rows[r].version, 0,
				      NULL, NULL, 0);
		pfarg_pmr_t pc = { .reg_num = 3 };
		struct pmu_perfmon_info in = { .size = sizeof(in) };

		print_message("row at line %d\n", rsvd_rows[r].line);
		write_pmc(t->fd, 0, 3, UINT64_MAX);
		assert_int_equal(pfm_read(t->fd, 0, PFM_RW_PMC, &pc,
					  sizeof(pc)), 0);
		assert_int_equal(pc.reg_value, rsvd_rows[r].value);
		/* 4 counters: pmc4 is not there */
		pc.reg_num = 4;
		pc.reg_value = 0;
		errno = 0;
		assert_int_equal(pfm_write(t->fd, 0, PFM_RW_PMC, &pc,
					   sizeof(pc)), -1);
		assert_int_equal(errno, EINVAL);
		assert_int_equal(pmu_perfmon_info(t->fd, &in), 0);
		assert_int_equal(in.width, 64);
		assert_string_equal(in.model, rsvd_rows[r].lay == AMD
					      ? "host-amd64"
					      : rsvd_rows[r].lay == ARMV8
					      ? "host-armv8" : "host-intel");
		tc_free(t);
	}
}

/* ---- enable, disable, a changed selector ---- */

static void test_enable(void **state_)
{
	struct tc *t = tc_new(AMD, 0, 0, NULL, NULL, 0);

	(void)state_;
	write_pmc(t->fd, 0, 0, EV(0x76) | USR | OS | EN);
	write_pmd(t->fd, 0, 0, 0, 0);
	attach_self(t->fd);
	state(t->fd, PFM_ST_START);
	assert_int_equal(nev(t), 1);
	expect_io(t, 0, 0, PERF_EVENT_IOC_ENABLE);
	/* stop and start are ioctls on the same event */
	state(t->fd, PFM_ST_STOP);
	expect_io(t, 1, 0, PERF_EVENT_IOC_DISABLE);
	state(t->fd, PFM_ST_START);
	expect_io(t, 2, 0, PERF_EVENT_IOC_ENABLE);
	assert_int_equal(nev(t), 1);
	assert_true(t->k.ev[0].live);
	/* another event: the old one closed, the new one opened */
	write_pmc(t->fd, 0, 0, EV(0xC0) | USR | EN);
	assert_int_equal(nev(t), 2);
	assert_false(t->k.ev[0].live);
	assert_int_equal(t->k.ev[1].attr.config, EV(0xC0));
	assert_int_equal(t->k.ev[1].attr.exclude_kernel, 1);
	expect_io(t, 3, 1, PERF_EVENT_IOC_ENABLE);
	/* EN cleared while counting: disabled, not closed */
	write_pmc(t->fd, 0, 0, EV(0xC0) | USR);
	expect_io(t, 4, 1, PERF_EVENT_IOC_DISABLE);
	assert_true(t->k.ev[1].live);
	assert_int_equal(nio(t), 5);
	/* detached: nothing stays open */
	assert_int_equal(pfm_attach(t->fd, 0, PFM_NO_TARGET), 0);
	assert_false(t->k.ev[1].live);
	tc_free(t);
}

/* ---- PMD values: the count plus an offset ---- */

static void test_offsets(void **state_)
{
	struct tc *t = tc_new(INTEL, 4, 0, NULL, NULL, 0);

	(void)state_;
	write_pmc(t->fd, 0, 0, 0xC0 | USR | OS | EN);
	write_pmd(t->fd, 0, 0, 1000, 0);
	attach_self(t->fd);
	state(t->fd, PFM_ST_START);
	set_count(t, 0, 250);
	assert_int_equal(read_pmd(t->fd, 0), 1250);
	/* written while counting: read back from where it was written */
	write_pmd(t->fd, 0, 0, 5000, 0);
	set_count(t, 0, 300);
	assert_int_equal(read_pmd(t->fd, 0), 5050);
	/* stopped: the value stays; started again: counts on from it */
	state(t->fd, PFM_ST_STOP);
	assert_int_equal(read_pmd(t->fd, 0), 5050);
	state(t->fd, PFM_ST_START);
	assert_int_equal(nev(t), 1);
	set_count(t, 0, 320);
	assert_int_equal(read_pmd(t->fd, 0), 5070);
	/* a new selector is a new event: the PMD keeps its value */
	write_pmc(t->fd, 0, 0, 0x3C | USR | OS | EN);
	assert_int_equal(nev(t), 2);
	assert_int_equal(read_pmd(t->fd, 0), 5070);
	set_count(t, 1, 5);
	assert_int_equal(read_pmd(t->fd, 0), 5075);
	state(t->fd, PFM_ST_STOP);
	tc_free(t);
}

/* ---- sampling ---- */

static int find_io(struct tc *t, int from, int ev, unsigned long req)
{
	for (int j = from; j < nio(t); j++)
		if (t->k.io[j].ev == ev && t->k.io[j].req == req)
			return j;
	return -1;
}

/* The kernel's side: a record at data_head of open ev's ring, then
 * its descriptor readable. */
static void ring_put(struct tc *t, int ev, const void *rec, size_t size)
{
	struct fk_ev *e = &t->k.ev[ev];
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t dsize = e->ring_len - page;
	unsigned char *data = (unsigned char *)e->ring + page;
	uint64_t head = e->ring->data_head, one = 1;

	assert_non_null(e->ring);
	for (size_t i = 0; i < size; i++)
		data[(head + i) & (dsize - 1)] = ((const unsigned char *)rec)[i];
	__atomic_store_n(&e->ring->data_head, head + size, __ATOMIC_RELEASE);
	assert_int_equal(write(e->fd, &one, sizeof(one)), sizeof(one));
}

/* PERF_SAMPLE_IP | _TID | _CPU, of thread tid of process pid */
static void announce_of(struct tc *t, int ev, uint64_t ip, uint32_t cpu,
			uint32_t pid, uint32_t tid)
{
	struct {
		struct perf_event_header h;
		uint64_t ip;
		uint32_t pid, tid, cpu, res;
	} s = { { PERF_RECORD_SAMPLE, 0, 32 }, ip, pid, tid, cpu, 0 };

	ring_put(t, ev, &s, sizeof(s));
}

static void announce(struct tc *t, int ev, uint64_t ip, uint32_t cpu)
{
	announce_of(t, ev, ip, cpu, (uint32_t)getpid(), (uint32_t)gettid());
}

static void announce_lost(struct tc *t, int ev, uint64_t n)
{
	struct {
		struct perf_event_header h;
		uint64_t id, lost;
	} l = { { PERF_RECORD_LOST, 0, 24 }, 7, n };

	ring_put(t, ev, &l, sizeof(l));
}

/* The descriptor quiet again once the monitor took the message's
 * overflow (the eventfd stays readable until read). */
static void quiet(struct tc *t, int ev)
{
	uint64_t v;

	while (read(t->k.ev[ev].fd, &v, sizeof(v)) > 0)
		;
}

/* The next message of the context (a hang guard, not a measurement). */
static void next_msg(int fd, pfarg_msg_t *m)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, 60000) != 1)
		fail_msg("no message on the context's descriptor");
	assert_int_equal(read(fd, m, sizeof(*m)), sizeof(*m));
}

#define PERIOD 1000
/* the header, one 40-byte entry, room for less than another */
#define ONE_ENTRY (128 + 40 + 8 * 4)

static void test_sampling(void **state_)
{
	pfm_dfl_smpl_arg_t arg = { .buf_size = ONE_ENTRY };
	struct tc *t = tc_new(AMD, 0, 0, "default", &arg, sizeof(arg));
	struct pmu_perfmon_info in = { .size = sizeof(in) };
	const struct perf_event_attr *a = &t->k.ev[0].attr;
	const pfm_dfl_smpl_hdr_t *h;
	const pfm_dfl_smpl_entry_t *e;
	pfarg_msg_t m;
	int dis, per;

	(void)state_;
	write_pmc(t->fd, 0, 0, EV(0x76) | USR | OS | EN);
	write_pmd(t->fd, 0, 0, 0 - (uint64_t)PERIOD, PFM_REGFL_OVFL_NOTIFY);
	attach_self(t->fd);
	state(t->fd, PFM_ST_START);
	assert_int_equal(nev(t), 1);
	assert_int_equal(a->sample_period, PERIOD);
	assert_true(a->sample_type & PERF_SAMPLE_IP);
	assert_int_equal(a->wakeup_events, 1);
	assert_non_null(t->k.ev[0].ring);
	h = pmu_perfmon_mmap(NULL, ONE_ENTRY, PROT_READ, MAP_SHARED, t->fd, 0);
	assert_ptr_not_equal(h, MAP_FAILED);

	announce(t, 0, 0x401234, 1);
	next_msg(t->fd, &m);
	quiet(t, 0);
	assert_int_equal(m.type, PFM_MSG_OVFL);
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_pmds[0], 1);
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_ip, 0x401234);
	assert_int_equal(m.pfm_ovfl_msg.msg_active_set, 0);
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_cpu, 1);
	/* perfmon2's fill-in: the thread id in the "pid" field */
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_pid, gettid());
	/* the default format's entry; the full buffer masked the context */
	assert_int_equal(h->hdr_count, 1);
	assert_int_equal(h->hdr_overflows, 1);
	e = (const void *)((const char *)h + 128);
	assert_int_equal(e->ip, 0x401234);
	assert_int_equal(e->ovfl_pmd, 0);
	assert_int_equal(e->last_reset_val, 0 - (uint64_t)PERIOD);
	assert_int_equal(e->cpu, 1);
	assert_int_equal(e->set, 0);
	assert_int_equal(e->pid, gettid());
	assert_int_equal(pmu_perfmon_info(t->fd, &in), 0);
	assert_int_equal(in.state, 3);   /* masked */
	dis = find_io(t, 1, 0, PERF_EVENT_IOC_DISABLE);
	assert_true(dis > 0);

	/* restart: the period re-armed (the long reset), then enabled */
	state(t->fd, PFM_ST_RESTART);
	assert_int_equal(h->hdr_count, 0);
	per = find_io(t, dis, 0, PERF_EVENT_IOC_PERIOD);
	assert_true(per > dis);
	assert_int_equal(t->k.io[per].period, PERIOD);
	assert_true(find_io(t, per, 0, PERF_EVENT_IOC_ENABLE) > per);
	assert_int_equal(nev(t), 1);

	/* overflows the kernel lost are overflows too (no ip) */
	announce_lost(t, 0, 1);
	next_msg(t->fd, &m);
	quiet(t, 0);
	assert_int_equal(m.type, PFM_MSG_OVFL);
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_pmds[0], 1);
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_ip, 0);
	assert_int_equal(h->hdr_count, 1);
	assert_int_equal(munmap((void *)h, ONE_ENTRY), 0);
	state(t->fd, PFM_ST_STOP);
	tc_free(t);
}

/* A PMD that will not wrap counts; one written -N later samples. */
static void test_period_change(void **state_)
{
	struct tc *t = tc_new(INTEL, 4, 0, NULL, NULL, 0);

	(void)state_;
	write_pmc(t->fd, 0, 0, 0xC0 | USR | EN);
	write_pmd(t->fd, 0, 0, 77, 0);
	attach_self(t->fd);
	state(t->fd, PFM_ST_START);
	assert_int_equal(t->k.ev[0].attr.sample_period, 0);
	assert_null(t->k.ev[0].ring);
	set_count(t, 0, 3);
	write_pmd(t->fd, 0, 0, 0 - (uint64_t)500, PFM_REGFL_OVFL_NOTIFY);
	/* sampling needs another event: reopened with the period */
	assert_int_equal(nev(t), 2);
	assert_false(t->k.ev[0].live);
	assert_int_equal(t->k.ev[1].attr.sample_period, 500);
	assert_non_null(t->k.ev[1].ring);
	assert_int_equal(read_pmd(t->fd, 0), 0 - (uint64_t)500);
	/* written again: the period re-armed on the same event */
	write_pmd(t->fd, 0, 0, 0 - (uint64_t)300, PFM_REGFL_OVFL_NOTIFY);
	assert_int_equal(nev(t), 2);
	assert_int_equal(t->k.io[find_io(t, 0, 1, PERF_EVENT_IOC_PERIOD)].period,
			 300);
	/* NO_EMUL64 clears INT: the event only counts */
	{
		pfarg_pmr_t r = { .reg_num = 0, .reg_flags = PFM_REGFL_NO_EMUL64,
				  .reg_value = 0xC0 | USR | EN };

		assert_int_equal(pfm_write(t->fd, 0, PFM_RW_PMC, &r,
					   sizeof(r)), 0);
	}
	assert_int_equal(nev(t), 3);
	assert_int_equal(t->k.ev[2].attr.sample_period, 0);
	state(t->fd, PFM_ST_STOP);
	tc_free(t);
}

/* ---- sets switched by the monitor's timer ---- */

static void test_time_sets(void **state_)
{
	struct tc *t = tc_new(AMD, 0, 0, NULL, NULL, 0);
	pfarg_set_desc_t sd[2] = {
		{ .set_id = 0, .set_flags = PFM_SETFL_TIME_SWITCH,
		  .set_timeout = 2000000 },
		{ .set_id = 1, .set_flags = PFM_SETFL_TIME_SWITCH,
		  .set_timeout = 2000000 },
	};
	pfarg_set_info_t si[2] = { { .set_id = 0 }, { .set_id = 1 } };
	int tries;

	(void)state_;
	assert_int_equal(pfm_create_sets(t->fd, 0, sd, sizeof(sd)), 0);
	write_pmc(t->fd, 0, 0, EV(0x76) | USR | EN);
	write_pmd(t->fd, 0, 0, 0, 0);
	write_pmc(t->fd, 1, 0, EV(0xC0) | USR | EN);
	write_pmd(t->fd, 1, 0, 0, 0);
	attach_self(t->fd);
	state(t->fd, PFM_ST_START);
	/* wait (a hang guard) for two switches: set 1's event, then set
	 * 0's again */
	for (tries = 0; tries < 60000 && nev(t) < 3; tries++)
		usleep(1000);
	state(t->fd, PFM_ST_STOP);
	assert_true(nev(t) >= 3);
	pthread_mutex_lock(&t->k.mu);
	for (int i = 0; i < t->k.nev; i++) {
		assert_int_equal(t->k.ev[i].attr.config,
				 i % 2 ? EV(0xC0) : EV(0x76));
		/* one set's event at a time */
		if (i + 1 < t->k.nev)
			assert_false(t->k.ev[i].live);
	}
	pthread_mutex_unlock(&t->k.mu);
	assert_int_equal(pfm_getinfo_sets(t->fd, 0, si, sizeof(si)), 0);
	assert_true(si[0].set_runs >= 2);
	assert_true(si[1].set_runs >= 1);
	tc_free(t);
}

/* ---- refusals ---- */

static const struct {
	int line;
	int err;
	uint64_t sel;
	const char *msg;
} refuse_rows[] = {
	{ __LINE__, EACCES, EV(0x76) | USR | OS | EN, "perf_event_paranoid" },
	{ __LINE__, ENOENT, EV(0x7FF) | USR | EN, "event select" },
	{ __LINE__, EMFILE, EV(0x76) | USR | EN, "file descriptors" },
};

static void test_refused(void **state_)
{
	(void)state_;
	for (size_t r = 0; r < sizeof(refuse_rows) / sizeof(*refuse_rows);
	     r++) {
		struct tc *t = tc_new(AMD, 0, 0, NULL, NULL, 0);
		struct pmu_perfmon_info in = { .size = sizeof(in) };

		print_message("row at line %d\n", refuse_rows[r].line);
		write_pmc(t->fd, 0, 0, refuse_rows[r].sel);
		write_pmd(t->fd, 0, 0, 0, 0);
		attach_self(t->fd);
		t->k.fail_errno = refuse_rows[r].err;
		errno = 0;
		assert_int_equal(pfm_set_state(t->fd, 0, PFM_ST_START), -1);
		assert_int_equal(errno, refuse_rows[r].err);
		assert_string_equal(pmu_perfmon_error()->token, "pmc0");
		assert_non_null(strstr(pmu_perfmon_error()->message,
				       refuse_rows[r].msg));
		/* not started: a start the kernel takes works */
		t->k.fail_errno = 0;
		state(t->fd, PFM_ST_START);
		assert_int_equal(nev(t), 1);
		assert_int_equal(pmu_perfmon_info(t->fd, &in), 0);
		assert_int_equal(in.state, 2);
		state(t->fd, PFM_ST_STOP);
		tc_free(t);
	}
}

/* A pinned event the kernel could not keep on a counter reads 0 bytes:
 * the PMD read says its counter stopped rather than returning a stale
 * value silently. */
static void test_lost_counter(void **state_)
{
	struct tc *t = tc_new(AMD, 0, 0, NULL, NULL, 0);
	pfarg_pmr_t r = { .reg_num = 0 };

	(void)state_;
	write_pmc(t->fd, 0, 0, EV(0x76) | USR | EN);
	write_pmd(t->fd, 0, 0, 10, 0);
	attach_self(t->fd);
	state(t->fd, PFM_ST_START);
	set_count(t, 0, 5);
	assert_int_equal(read_pmd(t->fd, 0), 15);
	t->k.read_eof = true;
	errno = 0;
	assert_int_equal(pfm_read(t->fd, 0, PFM_RW_PMD, &r, sizeof(r)), -1);
	assert_int_equal(errno, EBUSY);
	assert_string_equal(pmu_perfmon_error()->token, "pmc0");
	assert_non_null(strstr(pmu_perfmon_error()->message, "counter"));
	/* and again: every read says so */
	errno = 0;
	assert_int_equal(pfm_read(t->fd, 0, PFM_RW_PMD, &r, sizeof(r)), -1);
	assert_int_equal(errno, EBUSY);
	t->k.read_eof = false;
	assert_int_equal(read_pmd(t->fd, 0), 15);
	state(t->fd, PFM_ST_STOP);
	tc_free(t);
}

static void test_feed(void **state_)
{
	struct tc *t = tc_new(INTEL, 4, 0, NULL, NULL, 0);

	(void)state_;
	errno = 0;
	assert_int_equal(pmu_perfmon_feed(t->fd, "100 cycles\n", 11), -1);
	assert_int_equal(errno, EOPNOTSUPP);
	assert_non_null(strstr(pmu_perfmon_error()->message, "runs by itself"));
	tc_free(t);
}

/* A CPU-wide context opens its events on the CPU, for every thread;
 * an overflow's message names the thread the sample found running. */
static void test_cpu_wide(void **state_)
{
	struct tc *t = tc_new(AMD, 0, PFM_FL_SYSTEM_WIDE, NULL, NULL, 0);
	cpu_set_t old, one;
	pfarg_msg_t m;
	int cpu;

	(void)state_;
	assert_int_equal(sched_getaffinity(0, sizeof(old), &old), 0);
	cpu = sched_getcpu();
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	write_pmc(t->fd, 0, 2, EV(0x76) | USR | OS | EN);
	write_pmd(t->fd, 0, 2, 0 - (uint64_t)100, PFM_REGFL_OVFL_NOTIFY);
	if (pfm_attach(t->fd, 0, cpu))
		fail_msg("attach CPU %d: %s", cpu, pmu_perfmon_error()->message);
	state(t->fd, PFM_ST_START);
	assert_int_equal(nev(t), 1);
	assert_int_equal(t->k.ev[0].pid, -1);
	assert_int_equal(t->k.ev[0].cpu, cpu);
	announce_of(t, 0, 0x7000, (uint32_t)cpu, 4242, 4343);
	next_msg(t->fd, &m);
	quiet(t, 0);
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_pmds[0], 1u << 2);
	/* perfmon2's fill-in: thread id as "pid", process id as "tid" */
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_pid, 4343);
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_tid, 4242);
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_cpu, cpu);
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_ip, 0x7000);
	state(t->fd, PFM_ST_STOP);
	assert_int_equal(sched_setaffinity(0, sizeof(old), &old), 0);
	tc_free(t);
}

/* ---- no PMU to program ---- */

static const struct {
	int line;
	struct pmu__perf_pfm_host h;
	int err;
	const char *msg;
} nopmu_rows[] = {
	{ __LINE__, { .has_pmu = false, .virtualized = true }, ENODEV,
	  "no hardware PMU" },
	{ __LINE__, { .has_pmu = false, .hybrid = true }, EOPNOTSUPP,
	  "hybrid" },
	{ __LINE__, { .has_pmu = true, .layout = PMU__PERF_PFM_NONE,
		      .what = "AuthenticAMD family 10h" }, EOPNOTSUPP,
	  "family 10h" },
	{ __LINE__, { .has_pmu = true, .layout = INTEL, .nctrs = 0,
		      .version = 0 }, EOPNOTSUPP, "architectural" },
};

static void test_no_pmu(void **state_)
{
	(void)state_;
	for (size_t r = 0; r < sizeof(nopmu_rows) / sizeof(*nopmu_rows); r++) {
		struct tc t;
		struct pmu_error err = { .size = sizeof(err) };

		print_message("row at line %d\n", nopmu_rows[r].line);
		memset(&t, 0, sizeof(t));
		assert_int_equal(create_on(&t, &nopmu_rows[r].h, 0, NULL, NULL,
					   0, &err), -nopmu_rows[r].err);
		assert_int_equal(err.code, -nopmu_rows[r].err);
		assert_non_null(strstr(err.message, nopmu_rows[r].msg));
		/* the error says what to do instead */
		assert_non_null(strstr(err.message, "pmu_perfmon_use"));
		assert_int_equal(t.k.nev, 0);
		pmu__driver_free(t.drv);
		pthread_mutex_destroy(&t.k.mu);
	}
}

/* This machine: the default PMU is perf's; without a hardware PMU
 * (perf has no "cpu" PMU) the context cannot be made, and says why. */
static void test_this_machine(void **state_)
{
	struct stat st;
	int fd;

	(void)state_;
	if (!stat("/sys/bus/event_source/devices/cpu", &st)) {
		skip();   /* needs a machine without a hardware PMU */
		return;
	}
	assert_int_equal(pmu_perfmon_use("perf", NULL), 0);
	errno = 0;
	fd = pfm_create(0, NULL);
	assert_int_equal(fd, -1);
	assert_true(errno == ENODEV || errno == EOPNOTSUPP);
	assert_non_null(strstr(pmu_perfmon_error()->message, "PMU"));
	assert_non_null(strstr(pmu_perfmon_error()->message,
			       "pmu_perfmon_use"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attr),
		cmocka_unit_test(test_reserved),
		cmocka_unit_test(test_enable),
		cmocka_unit_test(test_offsets),
		cmocka_unit_test(test_sampling),
		cmocka_unit_test(test_period_change),
		cmocka_unit_test(test_time_sets),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_lost_counter),
		cmocka_unit_test(test_feed),
		cmocka_unit_test(test_cpu_wide),
		cmocka_unit_test(test_no_pmu),
		cmocka_unit_test(test_this_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
