/* SPDX-License-Identifier: MIT */
/*
 * The perf driver against a fake kernel: every system call goes through
 * struct pmu__perf_sys, so each test scripts what "the kernel" answers and
 * checks what the driver asked of it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <pmu/pmu.h>

#include "drivers/perf.h"
#include "session/session.h"
#include "util/cpulist.h"

#define MAXFD 256
#define FD0 100

struct fk_open {
	struct perf_event_attr attr;
	pid_t pid;
	int cpu, group_fd, fd;
	unsigned long flags;
};

struct fk {
	struct fk_open op[MAXFD];
	int nop;                    /* attempts, failed ones included */
	int fail_at, fail_errno;    /* attempt index to fail, its errno */
	uint32_t fail_type;         /* fail every open of this attr.type */
	int fail_type_errno;
	int fail_member;            /* fail members (group_fd >= 0) too */
	bool reject_inherit_group;  /* old kernels: EINVAL */
	bool reject_members;        /* a group that never fits: EINVAL for
				       every member (group_fd >= 0) */
	pid_t gone[4];              /* threads that exited: ESRCH */
	int esrch_before;           /* opens before this index: ESRCH */
	uint32_t reject_guest_type; /* EINVAL for exclude_guest on this */
	bool reject_guest;
	uint64_t reject_config1;    /* EINVAL for these config1 bits */
	bool refuse_kernel;         /* EACCES unless exclude_kernel (an
				       unprivileged user, paranoid 2) */
	bool limit_precise;         /* EOPNOTSUPP above max_precise */
	unsigned max_precise;
	bool live[MAXFD];
	int nlive, nclose;
	uint64_t value[MAXFD], ena[MAXFD], run[MAXFD];
	bool reverse;               /* group read lists members backwards */
	int nread;
	struct { int fd; unsigned long req, arg; } io[MAXFD];
	int nio;
	bool give_pages;
	struct perf_event_mmap_page *page[MAXFD];
	int nmmap, nmunmap;
	uint64_t pmc[8], tsc;
	int nrdpmc, bump_lock_once;
};

static struct fk *FK(void *ctx)
{
	return ctx;
}

static int fk_open(void *ctx, struct perf_event_attr *a, pid_t pid, int cpu,
		   int group_fd, unsigned long flags)
{
	struct fk *k = FK(ctx);
	struct fk_open *o = &k->op[k->nop++];
	int fd = FD0 + k->nop - 1;

	*o = (struct fk_open){ *a, pid, cpu, group_fd, -1, flags };
	for (size_t g = 0; pid > 0 && g < 4; g++) {
		if (k->gone[g] == pid) {
			errno = ESRCH;
			return -1;
		}
	}
	if (k->nop - 1 < k->esrch_before) {
		errno = ESRCH;
		return -1;
	}
	if (k->reject_guest && a->type == k->reject_guest_type &&
	    a->exclude_guest) {
		errno = EINVAL;
		return -1;
	}
	if (k->refuse_kernel && !a->exclude_kernel) {
		errno = EACCES;
		return -1;
	}
	if (a->config1 & k->reject_config1) {
		errno = EINVAL;
		return -1;
	}
	if (k->limit_precise && a->precise_ip > k->max_precise) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (k->nop - 1 == k->fail_at) {
		errno = k->fail_errno;
		return -1;
	}
	if (k->fail_type_errno && a->type == k->fail_type &&
	    (group_fd < 0 || k->fail_member)) {
		errno = k->fail_type_errno;
		return -1;
	}
	if (k->reject_members && group_fd >= 0) {
		errno = EINVAL;
		return -1;
	}
	if (k->reject_inherit_group && a->inherit &&
	    (a->read_format & PERF_FORMAT_GROUP)) {
		errno = EINVAL;
		return -1;
	}
	o->fd = fd;
	k->live[fd - FD0] = true;
	k->nlive++;
	return fd;
}

static int fk_close(void *ctx, int fd)
{
	struct fk *k = FK(ctx);

	assert_true(fd >= FD0 && fd < FD0 + MAXFD && k->live[fd - FD0]);
	k->live[fd - FD0] = false;
	k->nlive--;
	k->nclose++;
	return 0;
}

static int fk_ioctl(void *ctx, int fd, unsigned long req, unsigned long arg)
{
	struct fk *k = FK(ctx);

	assert_true(k->live[fd - FD0]);
	if (req == PERF_EVENT_IOC_ID) {
		*(uint64_t *)arg = 5000 + (uint64_t)fd; /* ids unlike fds */
		return 0;
	}
	k->io[k->nio].fd = fd;
	k->io[k->nio].req = req;
	k->io[k->nio++].arg = arg;
	return 0;
}

static ssize_t fk_read(void *ctx, int fd, void *buf, size_t count)
{
	struct fk *k = FK(ctx);
	const struct fk_open *o = &k->op[fd - FD0];
	uint64_t *b = buf, m[MAXFD];
	size_t n = 0, i;

	k->nread++;
	if (!(o->attr.read_format & PERF_FORMAT_GROUP)) {
		assert_true(count >= 4 * 8);
		b[0] = k->value[fd - FD0];
		b[1] = k->ena[fd - FD0];
		b[2] = k->run[fd - FD0];
		b[3] = 5000 + (uint64_t)fd;
		return 4 * 8;
	}
	m[n++] = (uint64_t)fd;
	for (i = 0; i < (size_t)k->nop; i++)
		if (k->op[i].group_fd == fd && k->op[i].fd >= 0)
			m[n++] = (uint64_t)k->op[i].fd;
	assert_true(count >= (3 + 2 * n) * 8);
	b[0] = n;
	b[1] = k->ena[fd - FD0];
	b[2] = k->run[fd - FD0];
	for (i = 0; i < n; i++) {
		uint64_t f = m[k->reverse ? n - 1 - i : i];

		b[3 + 2 * i] = k->value[f - FD0];
		b[4 + 2 * i] = 5000 + f;
	}
	return (ssize_t)((3 + 2 * n) * 8);
}

static void *fk_mmap(void *ctx, size_t len, int fd)
{
	struct fk *k = FK(ctx);
	void *p;

	k->nmmap++;
	if (!k->give_pages)
		return MAP_FAILED;
	p = calloc(1, len);
	k->page[fd - FD0] = p;
	return p;
}

static int fk_munmap(void *ctx, void *addr, size_t len)
{
	FK(ctx)->nmunmap++;
	free(addr);
	return 0;
}

static unsigned long long fk_rdpmc(void *ctx, unsigned int idx)
{
	struct fk *k = FK(ctx);
	size_t i;

	k->nrdpmc++;
	if (k->bump_lock_once) {
		/* the kernel updated the page while we were reading it */
		k->bump_lock_once = 0;
		for (i = 0; i < MAXFD; i++)
			if (k->page[i])
				k->page[i]->lock += 2;
	}
	return k->pmc[idx];
}

static unsigned long long fk_rdtsc(void *ctx)
{
	return FK(ctx)->tsc;
}

struct fixture {
	struct fk k;
	struct pmu__perf_sys sys;
	struct pmu_session *s;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	f->k.fail_at = -1;
	f->sys = (struct pmu__perf_sys){ fk_open, fk_read, fk_ioctl, fk_mmap,
					 fk_munmap, fk_close, fk_rdpmc,
					 fk_rdtsc, &f->k, NULL, NULL, NULL };
	f->s = pmu__session_new_on(pmu__perf_driver_new(&f->sys), true, NULL);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	pmu_session_free(f->s);
	/* no descriptor and no page outlives the session */
	assert_int_equal(f->k.nlive, 0);
	assert_int_equal(f->k.nmunmap, f->k.give_pages ? f->k.nmmap : 0);
	free(f);
	return 0;
}

static struct perf_event_attr sw(uint64_t config)
{
	return (struct perf_event_attr){ .type = PERF_TYPE_SOFTWARE,
					 .size = sizeof(struct perf_event_attr),
					 .config = config };
}

static struct perf_event_attr hw(uint64_t config)
{
	return (struct perf_event_attr){ .type = PERF_TYPE_HARDWARE,
					 .size = sizeof(struct perf_event_attr),
					 .config = config };
}

/* {a,b} and {c}: three events, two groups. */
static void add_abc(struct pmu_session *s)
{
	struct perf_event_attr a = sw(PERF_COUNT_SW_TASK_CLOCK);
	struct perf_event_attr b = sw(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr c = sw(PERF_COUNT_SW_CONTEXT_SWITCHES);

	assert_int_equal(pmu__session_add_attr(s, "a", &a, true), 0);
	assert_int_equal(pmu__session_add_attr(s, "b", &b, false), 0);
	assert_int_equal(pmu__session_add_attr(s, "c", &c, true), 0);
}

static void test_open_attrs(void **state)
{
	struct fixture *f = *state;
	const uint64_t fmt = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			     PERF_FORMAT_TOTAL_TIME_ENABLED |
			     PERF_FORMAT_TOTAL_TIME_RUNNING;
	int i;

	add_abc(f->s);
	assert_int_equal(pmu_session_open(f->s, NULL, NULL), 0);
	assert_int_equal(f->k.nop, 3);
	for (i = 0; i < 3; i++) {
		const struct fk_open *o = &f->k.op[i];

		assert_int_equal(o->attr.read_format, fmt);
		assert_int_equal(o->pid, 0);
		assert_int_equal(o->cpu, -1);
		assert_int_equal(o->flags, PERF_FLAG_FD_CLOEXEC);
		assert_int_equal(o->attr.inherit, 0);
		assert_int_equal(o->attr.enable_on_exec, 0);
		assert_int_equal(o->attr.disabled, i != 1); /* leaders only */
	}
	assert_int_equal(f->k.op[0].group_fd, -1);
	assert_int_equal(f->k.op[1].group_fd, f->k.op[0].fd);
	assert_int_equal(f->k.op[2].group_fd, -1);
	assert_int_equal(pmu_session_event_group(f->s, 1), 0);
	assert_int_equal(pmu_session_event_group(f->s, 2), 1);
}

static void test_child_target(void **state)
{
	struct fixture *f = *state;
	struct pmu_open_opts o = PMU_OPTS_INIT(pmu_open_opts,
					       .target = PMU_TARGET_CHILD,
					       .pid = 4242);
	int i;

	add_abc(f->s);
	assert_int_equal(pmu_session_open(f->s, &o, NULL), 0);
	for (i = 0; i < 3; i++) {
		assert_int_equal(f->k.op[i].pid, 4242);
		assert_int_equal(f->k.op[i].attr.enable_on_exec, 1);
		assert_int_equal(f->k.op[i].attr.inherit, 1);
	}
	assert_int_equal(f->k.nmmap, 0); /* not our own thread */
}

/* Errors that fail the whole open, and leave nothing open behind. */
static void fake_proc_remove(const char *root);

/* A /proc holding only kernel.perf_event_paranoid, for the driver's
 * seam: what the driver makes of a refusal depends on it. */
static void fake_paranoid(char *root, size_t len, const char *value)
{
	char path[128];
	FILE *fp;

	snprintf(root, len, "/tmp/pmu-proc-XXXXXX");
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/sys", root);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/sys/kernel", root);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/sys/kernel/perf_event_paranoid", root);
	assert_non_null(fp = fopen(path, "w"));
	fprintf(fp, "%s\n", value);
	fclose(fp);
}

struct err_row {
	int line;
	int fail_at, err;
	enum pmu_target_kind target;
	enum pmu_error_kind kind;
	const char *msg;
};

static const struct err_row err_rows[] = {
	{ __LINE__, 0, EACCES, PMU_TARGET_SELF, PMU_ERR_PERMISSION,
	  "perf_event_paranoid" },
	{ __LINE__, 2, EPERM, PMU_TARGET_SELF, PMU_ERR_PERMISSION, "CAP_PERFMON" },
	{ __LINE__, 0, EACCES, PMU_TARGET_CPUS, PMU_ERR_PERMISSION,
	  "perf_event_paranoid <= 0" },
	{ __LINE__, 2, EMFILE, PMU_TARGET_SELF, PMU_ERR_RESOURCES,
	  "3 events × 1 threads need 3 descriptors" },
	{ __LINE__, 1, ENFILE, PMU_TARGET_SELF, PMU_ERR_RESOURCES, "ulimit -n" },
	{ __LINE__, 0, ESRCH, PMU_TARGET_TID, PMU_ERR_NO_TARGET,
	  "no such thread: 77" },
	{ __LINE__, 1, ENOSPC, PMU_TARGET_SELF, PMU_ERR_RESOURCES, "free counter" },
	{ __LINE__, 2, EBUSY, PMU_TARGET_SELF, PMU_ERR_RESOURCES, "busy" },
	{ __LINE__, 1, EIO, PMU_TARGET_SELF, PMU_ERR_SYSTEM, "cannot open 'b'" },
};

static void test_open_errors(void **state)
{
	size_t i;

	for (i = 0; i < sizeof(err_rows) / sizeof(err_rows[0]); i++) {
		const struct err_row *r = &err_rows[i];
		struct pmu_open_opts o = PMU_OPTS_INIT(pmu_open_opts,
						       .target = r->target,
						       .pid = 77, .cpus = "0");
		struct pmu_error err = { .size = sizeof(err) };
		struct fixture *f;
		char root[64];
		int ret;

		setup(state);
		f = *state;
		/* a setting where a refusal is not perf's paranoid fallback */
		fake_paranoid(root, sizeof(root), "1");
		f->sys.proc = root;
		f->k.fail_at = r->fail_at;
		f->k.fail_errno = r->err;
		add_abc(f->s);
		ret = pmu_session_open(f->s, &o, &err);
		fake_proc_remove(root);
		if (ret != -r->err || err.kind != r->kind ||
		    !strstr(err.message, r->msg) || f->k.nlive != 0 ||
		    err.code != ret)
			fail_msg("row at line %d: ret %d kind %d live %d '%s'",
				 r->line, ret, err.kind, f->k.nlive,
				 err.message);
		if (r->kind != PMU_ERR_NO_TARGET)
			assert_int_equal(err.index, r->fail_at);
		/* a failed session can be freed; start/read refuse */
		assert_int_equal(pmu_session_start(f->s), -EINVAL);
		teardown(state);
	}
}

/* Errors that only make the event (and its group) NOT_SUPPORTED. */
struct ns_row {
	int line;
	int err;
	bool member;          /* fail b (a group member) instead of a */
	const char *reason;   /* substring of the failing event's reason */
};

static const struct ns_row ns_rows[] = {
	{ __LINE__, ENOENT, false, "not supported by this CPU or kernel" },
	{ __LINE__, EOPNOTSUPP, false, "not supported" },
	{ __LINE__, ENODEV, false, "not supported" },
	{ __LINE__, ENXIO, true, "not supported" },
	{ __LINE__, EINVAL, true, "settings rejected" },
};

static void test_not_supported(void **state)
{
	size_t i;

	for (i = 0; i < sizeof(ns_rows) / sizeof(ns_rows[0]); i++) {
		const struct ns_row *r = &ns_rows[i];
		struct pmu_value v[3] = { { .size = sizeof(struct pmu_value) } };
		struct fixture *f;
		int e;

		setup(state);
		f = *state;
		f->k.fail_at = r->member ? 1 : 0;
		f->k.fail_errno = r->err;
		add_abc(f->s);
		assert_int_equal(pmu_session_open(f->s, NULL, NULL), 0);
		if (pmu_session_event_status(f->s, 0, &e) !=
			    PMU_EVENT_NOT_SUPPORTED || e != -r->err ||
		    pmu_session_event_status(f->s, 1, NULL) !=
			    PMU_EVENT_NOT_SUPPORTED ||
		    pmu_session_event_status(f->s, 2, NULL) != PMU_EVENT_OK ||
		    !strstr(pmu_session_event_reason(f->s, r->member),
			    r->reason))
			fail_msg("row at line %d: reason '%s'", r->line,
				 pmu_session_event_reason(f->s, r->member));
		if (r->member) /* the leader says which member failed */
			assert_non_null(strstr(pmu_session_event_reason(f->s, 0),
					       "group member 'b'"));
		assert_int_equal(f->k.nlive, 1); /* only c */
		assert_int_equal(pmu_session_read(f->s, v, 3), 3);
		assert_int_equal(v[0].status, PMU_EVENT_NOT_SUPPORTED);
		assert_int_equal(v[1].err, -r->err);
		assert_int_equal(f->k.nread, 1);
		teardown(state);
	}
}

/* A group the kernel refuses as a whole: a weak one ({...}:W) is counted
 * as groups of one, each read alone; a plain one is not counted. */
static void test_weak_group(void **state)
{
	static const char *const lists[] = {
		"{task-clock,page-faults,minor-faults}:W,context-switches",
		"{task-clock,page-faults,minor-faults},context-switches",
	};

	for (int w = 0; w < 2; w++) {
		struct pmu_value v[4];
		struct fixture *f;

		setup(state);
		f = *state;
		f->k.reject_members = true;
		assert_int_equal(pmu_session_add(f->s, lists[w], NULL), 0);
		assert_int_equal(pmu_session_open(f->s, NULL, NULL), 0);
		for (int i = 0; i < 4; i++)
			v[i].size = sizeof(v[i]);
		assert_int_equal(pmu_session_read(f->s, v, 4), 4);
		/* (the fake kernel's counters never ran: open, not counted) */
		for (int i = 0; i < 3; i++)
			assert_int_equal(v[i].status == PMU_EVENT_NOT_SUPPORTED,
					 w == 1);
		assert_int_not_equal(v[3].status, PMU_EVENT_NOT_SUPPORTED);
		if (!w) {
			/* the last attempt of each: alone, a leader, and
			 * read without PERF_FORMAT_GROUP */
			int live = 0;
			for (int i = 0; i < f->k.nop; i++) {
				const struct fk_open *o = &f->k.op[i];
				if (o->fd < 0 || !f->k.live[o->fd - FD0])
					continue;
				live++;
				assert_int_equal(o->group_fd, -1);
				assert_int_equal(o->attr.disabled, 1);
			}
			assert_int_equal(live, 4);
			assert_int_equal(f->k.nlive, 4);
		} else {
			assert_int_equal(f->k.nlive, 1);
		}
		teardown(state);
	}
}

/* A group of hardware events larger than the PMU's counters: the kernel
 * refuses the member that does not fit (EINVAL) and takes it alone.  As
 * perf reads it: that member not supported (-ENOSPC, saying so), the
 * others open but never counted. */
static void test_group_no_room(void **state)
{
	struct fixture *f = *state;
	struct pmu_value v[3];
	int e = 0;

	f->k.reject_members = true;
	assert_int_equal(pmu_session_add(f->s, "{cycles,instructions},"
					 "task-clock", NULL), 0);
	assert_int_equal(pmu_session_open(f->s, NULL, NULL), 0);
	assert_int_equal(pmu_session_event_status(f->s, 0, NULL),
			 PMU_EVENT_NOT_COUNTED);
	assert_int_equal(pmu_session_event_status(f->s, 1, &e),
			 PMU_EVENT_NOT_SUPPORTED);
	assert_int_equal(e, -ENOSPC);
	assert_non_null(strstr(pmu_session_event_reason(f->s, 1),
			       "does not fit on the PMU's counters"));
	assert_non_null(strstr(pmu_session_event_reason(f->s, 0),
			       "'instructions' does not fit"));
	/* leader and refused member, again without the default
	 * exclude_guest, the member alone (then closed), task-clock */
	assert_int_equal(f->k.nop, 6);
	assert_int_equal(f->k.op[4].group_fd, -1);
	assert_int_equal(f->k.op[4].attr.config, PERF_COUNT_HW_INSTRUCTIONS);
	assert_int_equal(f->k.nlive, 1);
	for (int i = 0; i < 3; i++)
		v[i].size = sizeof(v[i]);
	assert_int_equal(pmu_session_read(f->s, v, 3), 3);
	assert_int_equal(v[0].status, PMU_EVENT_NOT_COUNTED);
	assert_int_equal(v[1].status, PMU_EVENT_NOT_SUPPORTED);
	/* (the fake kernel's counters never run: open, not counted) */
	assert_int_not_equal(v[2].status, PMU_EVENT_NOT_SUPPORTED);
}

/* cycles on a machine without a PMU: the reason names the cause. */
static void test_no_pmu_reason(void **state)
{
	struct fixture *f = *state;
	struct perf_event_attr c = hw(PERF_COUNT_HW_CPU_CYCLES);
	struct perf_event_attr t = sw(PERF_COUNT_SW_TASK_CLOCK);
	struct pmu_host_info h = { .size = sizeof(h) };

	f->k.fail_type = PERF_TYPE_HARDWARE;
	f->k.fail_type_errno = ENOENT;
	assert_int_equal(pmu__session_add_attr(f->s, "cycles", &c, true), 0);
	assert_int_equal(pmu__session_add_attr(f->s, "task-clock", &t, true), 0);
	c.precise_ip = 2;
	assert_int_equal(pmu__session_add_attr(f->s, "cycles:pp", &c, true), 0);
	assert_int_equal(pmu_session_open(f->s, NULL, NULL), 0);
	assert_int_equal(pmu_host_info(&h), 0);
	assert_int_equal(pmu_session_event_status(f->s, 0, NULL),
			 PMU_EVENT_NOT_SUPPORTED);
	assert_int_equal(pmu_session_event_status(f->s, 1, NULL), PMU_EVENT_OK);
	assert_string_equal(pmu_session_event_reason(f->s, 1), "");
	if (!h.has_hw_pmu)
		assert_non_null(strstr(pmu_session_event_reason(f->s, 0),
				       "no hardware PMU"));
	else
		assert_non_null(strstr(pmu_session_event_reason(f->s, 2),
				       "precise"));
}

/* What the parser decided reaches the kernel when counting, as perf
 * stat asks for it: :P no precise level (that is sampling's), :ppp
 * exactly 3, :S adds PERF_SAMPLE_READ. */
static void test_parser_flags_reach_kernel(void **state)
{
	struct fixture *f = *state;
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_host_info h = { .size = sizeof(h) };
	int i;

	f->k.limit_precise = true;
	f->k.max_precise = 1;
	assert_int_equal(pmu_session_add(f->s, "cycles:P,cycles:ppp,"
					 "{instructions,branches}:S", &err), 0);
	assert_int_equal(pmu_session_open(f->s, NULL, &err), 0);
	assert_int_equal(f->k.op[0].attr.config, PERF_COUNT_HW_CPU_CYCLES);
	assert_int_equal(f->k.op[0].attr.precise_ip, 0);
	assert_true(f->k.op[0].fd >= 0);
	assert_int_equal(f->k.op[1].attr.config, PERF_COUNT_HW_CPU_CYCLES);
	assert_int_equal(f->k.op[1].attr.precise_ip, 3);
	assert_int_equal(pmu_session_event_status(f->s, 0, NULL), PMU_EVENT_OK);
	assert_int_equal(pmu_session_event_status(f->s, 1, NULL),
			 PMU_EVENT_NOT_SUPPORTED);
	/* the reason speaks of this host: without a PMU, that comes first */
	assert_int_equal(pmu_host_info(&h), 0);
	assert_non_null(strstr(pmu_session_event_reason(f->s, 1),
			       h.has_hw_pmu ? "precise" : "no hardware PMU"));
	/* the :S group: both members ask the kernel for group reads */
	for (i = 2; i < f->k.nop; i++)
		assert_true(f->k.op[i].attr.sample_type & PERF_SAMPLE_READ);
	assert_int_equal(f->k.nop, 4);
	assert_false(f->k.op[0].attr.sample_type & PERF_SAMPLE_READ);
}

/* Fake counts for the fd of open attempt i. */
static void fk_set(struct fk *k, int i, uint64_t v, uint64_t ena, uint64_t run)
{
	k->value[i] = v;
	k->ena[i] = ena;
	k->run[i] = run;
}

struct mux_row {
	int line;
	uint64_t raw, ena, run, scaled;
	enum pmu_event_status status;
};

static const struct mux_row mux_rows[] = {
	{ __LINE__, 5, 3000, 1000, 15, PMU_EVENT_OK },
	{ __LINE__, 1000, 2000, 1000, 2000, PMU_EVENT_OK },
	{ __LINE__, 10, 4, 3, 13, PMU_EVENT_OK },
	{ __LINE__, 7, 7, 7, 7, PMU_EVENT_OK },
	{ __LINE__, 0, 500, 0, 0, PMU_EVENT_NOT_COUNTED },
	{ __LINE__, UINT64_MAX / 2, 3, 1, UINT64_MAX, PMU_EVENT_OK },
};

static void test_multiplexed_read(void **state)
{
	size_t i;

	for (i = 0; i < sizeof(mux_rows) / sizeof(mux_rows[0]); i++) {
		const struct mux_row *r = &mux_rows[i];
		struct pmu_value v[3] = { { .size = sizeof(struct pmu_value) } };
		struct fixture *f;

		setup(state);
		f = *state;
		add_abc(f->s);
		assert_int_equal(pmu_session_open(f->s, NULL, NULL), 0);
		/* group {a,b}: times come from the leader's read */
		fk_set(&f->k, 0, r->raw, r->ena, r->run);
		fk_set(&f->k, 1, r->raw + 1, 0, 0);
		fk_set(&f->k, 2, 9, 10, 10);
		memset(v, 0, sizeof(v));
		/* this release's layout (size 0 would mean the first one,
		 * PMU_VALUE_SIZE0, which test_value_size0 covers) */
		v[0].size = sizeof(v[0]);
		assert_int_equal(pmu_session_read(f->s, v, 3), 3);
		if (v[0].raw != r->raw || v[0].enabled != r->ena ||
		    v[0].running != r->run || v[0].scaled != r->scaled ||
		    v[0].status != r->status || v[1].raw != r->raw + 1 ||
		    v[1].running != r->run || v[2].scaled != 9 ||
		    v[0].size != sizeof(v[0]))
			fail_msg("row at line %d: raw %llu scaled %llu st %d",
				 r->line, (unsigned long long)v[0].raw,
				 (unsigned long long)v[0].scaled, v[0].status);
		assert_int_equal(f->k.nread, 2); /* one per group */
		teardown(state);
	}
}

/* vals[0].size == 0 is the first layout: elements PMU_VALUE_SIZE0
 * bytes apart, each given that size, nothing past it written. */
static void test_value_size0(void **state)
{
	struct fixture *f = *state;
	unsigned char buf[3 * PMU_VALUE_SIZE0 + 16];
	struct pmu_value first;

	add_abc(f->s);
	assert_int_equal(pmu_session_open(f->s, NULL, NULL), 0);
	fk_set(&f->k, 0, 100, 50, 25);
	fk_set(&f->k, 1, 7, 0, 0);
	fk_set(&f->k, 2, 9, 10, 10);
	memset(buf, 0xA5, sizeof(buf));
	memset(buf, 0, sizeof(size_t));
	assert_int_equal(pmu_session_read(f->s, (struct pmu_value *)(void *)buf,
					  3), 3);
	for (size_t i = 0; i < 3; i++) {
		memcpy(&first, buf + i * PMU_VALUE_SIZE0, PMU_VALUE_SIZE0);
		assert_int_equal(first.size, PMU_VALUE_SIZE0);
		assert_int_equal(first.raw, i == 0 ? 100 : i == 1 ? 7 : 9);
		assert_int_equal(first.status, PMU_EVENT_OK);
	}
	memcpy(&first, buf, PMU_VALUE_SIZE0);
	assert_int_equal(first.scaled, 200);
	for (size_t i = 3 * PMU_VALUE_SIZE0; i < sizeof(buf); i++)
		assert_int_equal(buf[i], 0xA5);
}

/* Members come back in an order other than the open order: map by id. */
static void test_read_maps_ids(void **state)
{
	struct fixture *f = *state;
	struct pmu_value v[3] = { { .size = sizeof(struct pmu_value) } };

	add_abc(f->s);
	assert_int_equal(pmu_session_open(f->s, NULL, NULL), 0);
	f->k.reverse = true;
	fk_set(&f->k, 0, 111, 1, 1);
	fk_set(&f->k, 1, 222, 0, 0);
	assert_int_equal(pmu_session_read(f->s, v, 2), 2); /* n < nevents */
	assert_int_equal(v[0].raw, 111);
	assert_int_equal(v[1].raw, 222);
	assert_int_equal(f->k.nread, 1); /* group {c} not needed */
}

static size_t online_cpus(void)
{
	struct pmu__cpulist l;
	size_t n;

	assert_int_equal(pmu__cpulist_online(&l), 0);
	n = l.n;
	pmu__cpulist_free(&l);
	return n;
}

/* Per-CPU values are summed; sums near 2^64 saturate instead of wrapping. */
static void test_cpus_sum_saturates(void **state)
{
	struct fixture *f = *state;
	struct pmu_open_opts o = PMU_OPTS_INIT(pmu_open_opts,
					       .target = PMU_TARGET_CPUS);
	size_t ncpu = online_cpus(), u;
	struct pmu_value v[3] = { { .size = sizeof(struct pmu_value) } };
	int i;

	if (ncpu < 2)
		skip();
	add_abc(f->s);
	assert_int_equal(pmu_session_open(f->s, &o, NULL), 0);
	assert_int_equal(f->k.nop, 3 * (int)ncpu);
	for (i = 0; i < f->k.nop; i++) {
		assert_int_equal(f->k.op[i].pid, -1);
		assert_int_equal(f->k.op[i].attr.inherit, 0);
	}
	for (u = 0; u < ncpu; u++)
		assert_int_equal(f->k.op[u * 2].cpu, (int)u); /* a, b per CPU */
	/* a: 2^63 on every CPU; b: 1 per CPU; c: 2^64-1 on CPU 0 only */
	for (i = 0; i < f->k.nop; i++) {
		uint64_t c = f->k.op[i].attr.config;

		if (c == PERF_COUNT_SW_TASK_CLOCK)
			fk_set(&f->k, i, (uint64_t)1 << 63, 100, 50);
		else if (c == PERF_COUNT_SW_PAGE_FAULTS)
			fk_set(&f->k, i, 1, 0, 0);
		else
			fk_set(&f->k, i, f->k.op[i].cpu ? 0 : UINT64_MAX, 100,
			       100);
	}
	assert_int_equal(pmu_session_read(f->s, v, 3), 3);
	assert_int_equal(v[0].raw, UINT64_MAX);
	assert_int_equal(v[0].scaled, UINT64_MAX);
	assert_int_equal(v[1].raw, ncpu);
	assert_int_equal(v[1].enabled, 100 * ncpu);
	assert_int_equal(v[1].scaled, 2 * ncpu);
	assert_int_equal(v[2].raw, UINT64_MAX);
	assert_int_equal(f->k.nread, 2 * (int)ncpu);
}

/* Sums that reach exactly 2^64 - 1 are still exact. */
static void test_cpus_sum_exact(void **state)
{
	struct fixture *f = *state;
	struct pmu_open_opts o = PMU_OPTS_INIT(pmu_open_opts,
					       .target = PMU_TARGET_CPUS,
					       .cpus = "0-1");
	struct perf_event_attr a = sw(PERF_COUNT_SW_CPU_CLOCK);
	struct pmu_value v = { .size = sizeof(v) };

	if (online_cpus() < 2)
		skip();
	assert_int_equal(pmu__session_add_attr(f->s, "cpu-clock", &a, true), 0);
	assert_int_equal(pmu_session_open(f->s, &o, NULL), 0);
	fk_set(&f->k, 0, (uint64_t)1 << 63, 10, 10);
	fk_set(&f->k, 1, ((uint64_t)1 << 63) - 1, 10, 10);
	assert_int_equal(pmu_session_read(f->s, &v, 1), 1);
	assert_int_equal(v.raw, UINT64_MAX);
	assert_int_equal(v.enabled, 20);
}

static void check_ioctls(const struct fk *k, unsigned long req, int first,
			 const int *leaders, int n)
{
	int i;

	assert_int_equal(k->nio - first, n);
	for (i = 0; i < n; i++) {
		assert_int_equal(k->io[first + i].fd, leaders[i]);
		assert_int_equal(k->io[first + i].req, req);
		assert_int_equal(k->io[first + i].arg, PERF_IOC_FLAG_GROUP);
	}
}

static void test_start_stop_reset(void **state)
{
	struct fixture *f = *state;
	struct perf_event_attr d = sw(PERF_COUNT_SW_DUMMY);
	int leaders[2];

	add_abc(f->s);
	/* a fourth, unsupported group gets no ioctl */
	f->k.fail_at = 3;
	f->k.fail_errno = ENOENT;
	assert_int_equal(pmu__session_add_attr(f->s, "d", &d, true), 0);
	assert_int_equal(pmu_session_open(f->s, NULL, NULL), 0);
	leaders[0] = f->k.op[0].fd;
	leaders[1] = f->k.op[2].fd;
	assert_int_equal(pmu_session_start(f->s), 0);
	check_ioctls(&f->k, PERF_EVENT_IOC_ENABLE, 0, leaders, 2);
	assert_int_equal(pmu_session_stop(f->s), 0);
	check_ioctls(&f->k, PERF_EVENT_IOC_DISABLE, 2, leaders, 2);
	assert_int_equal(pmu_session_reset(f->s), 0);
	check_ioctls(&f->k, PERF_EVENT_IOC_RESET, 4, leaders, 2);
	assert_int_equal(f->k.nread, 0);
}

/* A kernel that refuses group reads of inherited events. */
static void test_inherit_fallback(void **state)
{
	struct fixture *f = *state;
	struct pmu_open_opts o = PMU_OPTS_INIT(pmu_open_opts,
					       .target = PMU_TARGET_SELF,
					       .inherit = true);
	struct pmu_value v[3] = { { .size = sizeof(struct pmu_value) } };
	int i;

	f->k.reject_inherit_group = true;
	add_abc(f->s);
	assert_int_equal(pmu_session_open(f->s, &o, NULL), 0);
	assert_int_equal(f->k.nlive, 3);
	for (i = 0; i < 3; i++)
		assert_int_equal(pmu_session_event_status(f->s, (size_t)i, NULL),
				 PMU_EVENT_OK);
	assert_int_equal(f->k.nmmap, 0); /* inherit: no self-read page */
	for (i = 0; i < f->k.nop; i++)
		fk_set(&f->k, i, 10 + (uint64_t)i, 40, 20);
	assert_int_equal(pmu_session_read(f->s, v, 3), 3);
	/* each group's first attempt is refused: opens 1, 2 and 4 succeed */
	assert_int_equal(v[0].raw, 11);
	assert_int_equal(v[1].raw, 12);
	assert_int_equal(v[2].raw, 14);
	assert_int_equal(v[2].scaled, 28);
	assert_int_equal(f->k.nread, 3); /* one per event */
}

/* Where perf_event_paranoid > 1 keeps a user out of the kernel, events
 * that did not ask for kernel mode fall back to user space as perf's
 * do (named :u, said once); ":k" and a setting of 1 stay errors. */
static int nwarn;
static char warned[256];

static int count_warn(enum pmu_log_level l, const char *fmt, va_list ap)
{
	if (l == PMU_LOG_WARN) {
		nwarn++;
		vsnprintf(warned, sizeof(warned), fmt, ap);
	}
	return 0;
}

static void user_only_open(void **state, const char *paranoid,
			   const char *events, int want)
{
	struct fixture *f;
	char root[64];

	setup(state);
	f = *state;
	fake_paranoid(root, sizeof(root), paranoid);
	f->sys.proc = root;
	f->k.refuse_kernel = true;
	nwarn = 0;
	pmu_set_print(count_warn);
	assert_int_equal(pmu_session_add(f->s, events, NULL), 0);
	assert_int_equal(pmu_session_open(f->s, NULL, NULL), want);
	pmu_set_print(NULL);
	fake_proc_remove(root);
}

static void test_user_only_fallback(void **state)
{
	struct fixture *f;
	static const char *const names[] = { "task-clock:u", "page-faults:u",
					     "cs:u" };
	struct pmu_event_desc d = { .size = sizeof(d) };

	user_only_open(state, "2", "task-clock,{page-faults,cs}", 0);
	f = *state;
	for (size_t i = 0; i < 3; i++) {
		assert_string_equal(pmu_session_event_name(f->s, i), names[i]);
		assert_int_equal(pmu_session_event_status(f->s, i, NULL),
				 PMU_EVENT_OK);
	}
	assert_int_equal(pmu_session_event_desc(f->s, 1, &d), 0);
	assert_true(d.perf.exclude_kernel && d.perf.exclude_hv);
	assert_string_equal(d.name, "page-faults:u");
	for (int i = 0; i < f->k.nop; i++)
		if (f->k.op[i].fd >= 0)
			assert_true(f->k.op[i].attr.exclude_kernel &&
				    f->k.op[i].attr.exclude_hv);
	assert_int_equal(nwarn, 1);
	assert_non_null(strstr(warned, "perf_event_paranoid=2"));
	teardown(state);

	/* kernel mode asked for: no fallback, the kernel's refusal */
	user_only_open(state, "2", "page-faults:k", -EACCES);
	assert_int_equal(nwarn, 0);
	teardown(state);
	/* a setting that allows the kernel: the refusal is something else */
	user_only_open(state, "1", "task-clock", -EACCES);
	assert_int_equal(nwarn, 0);
	teardown(state);
}

static void test_user_only_names(void **state)
{
	static const char *const rows[][2] = {
		{ "cycles", "cycles:u" },
		{ "cycles:pp", "cycles:ppu" },
		{ "cpu/event=0x3c/", "cpu/event=0x3c/u" },
		{ "sched:sched_switch", "sched:sched_switch:u" },
		{ "zen4::RETIRED_OPS", "zen4::RETIRED_OPS:u" },
		{ "INST_RETIRED.ANY", "INST_RETIRED.ANY:u" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char *n = pmu__ev_user_only_name(rows[i][0]);

		assert_string_equal(n, rows[i][1]);
		free(n);
	}
}

/* A PMU that refuses exclude_guest (as msr does): counted without it
 * when it was only the default, not when :H asked for it. */
struct guest_row {
	int line;
	const char *events;
	enum pmu_event_status status[2];
	int nop;           /* opens asked of the kernel, refused ones too */
	unsigned eguest;   /* exclude_guest of the last open */
};

static const struct guest_row guest_rows[] = {
	{ __LINE__, "task-clock", { PMU_EVENT_OK }, 2, 0 },
	{ __LINE__, "task-clock:u", { PMU_EVENT_OK }, 2, 0 },
	{ __LINE__, "task-clock:k", { PMU_EVENT_OK }, 1, 0 },
	{ __LINE__, "task-clock:G", { PMU_EVENT_OK }, 1, 0 },
	{ __LINE__, "task-clock:H", { PMU_EVENT_NOT_SUPPORTED }, 1, 1 },
	{ __LINE__, "{task-clock,cs}", { PMU_EVENT_OK, PMU_EVENT_OK }, 3, 0 },
	{ __LINE__, "{task-clock:H,cs}",
	  { PMU_EVENT_NOT_SUPPORTED, PMU_EVENT_NOT_SUPPORTED }, 1, 1 },
	{ __LINE__, "{task-clock,cs:H}",
	  { PMU_EVENT_NOT_SUPPORTED, PMU_EVENT_NOT_SUPPORTED }, 3, 1 },
};

static void check_guest_row(void **state, const struct guest_row *r)
{
	struct fixture *f;
	size_t i, n;

	setup(state);
	f = *state;
	f->k.reject_guest = true;
	f->k.reject_guest_type = PERF_TYPE_SOFTWARE;
	if (pmu_session_add(f->s, r->events, NULL) ||
	    pmu_session_open(f->s, NULL, NULL))
		fail_msg("row at line %d: cannot open", r->line);
	n = strchr(r->events, ',') ? 2 : 1;
	for (i = 0; i < n; i++)
		if (pmu_session_event_status(f->s, i, NULL) != r->status[i])
			fail_msg("row at line %d: event %zu status", r->line, i);
	if (f->k.nop != r->nop ||
	    f->k.op[f->k.nop - 1].attr.exclude_guest != r->eguest)
		fail_msg("row at line %d: %d opens, exclude_guest %d", r->line,
			 f->k.nop, f->k.op[f->k.nop - 1].attr.exclude_guest);
	teardown(state);
}

static void test_guest_fallback(void **state)
{
	for (size_t i = 0; i < sizeof(guest_rows) / sizeof(guest_rows[0]); i++)
		check_guest_row(state, &guest_rows[i]);
}

#define CAP_RDPMC (1ULL << 2)
#define CAP_TIME (1ULL << 3)
#define CAP_TIME_SHORT (1ULL << 5)

/* {x,y} on this thread with fake pages, counters on hardware indexes. */
static struct perf_event_mmap_page **mmap_setup(struct fixture *f)
{
	struct perf_event_attr x = hw(PERF_COUNT_HW_CPU_CYCLES);
	struct perf_event_attr y = hw(PERF_COUNT_HW_INSTRUCTIONS);
	struct perf_event_mmap_page **pg = &f->k.page[0];

	f->k.give_pages = true;
	assert_int_equal(pmu__session_add_attr(f->s, "x", &x, true), 0);
	assert_int_equal(pmu__session_add_attr(f->s, "y", &y, false), 0);
	assert_int_equal(pmu_session_open(f->s, NULL, NULL), 0);
	assert_int_equal(f->k.nmmap, 2);
	pg[0]->capabilities = CAP_RDPMC;
	pg[0]->index = 1;
	pg[0]->pmc_width = 48;
	pg[0]->offset = 1000;
	pg[0]->time_enabled = 500;
	pg[0]->time_running = 200;
	f->k.pmc[0] = 0xFFFFFFFFFFF0ULL;       /* -16 in 48 bits */
	pg[1]->capabilities = CAP_RDPMC;
	pg[1]->index = 2;
	pg[1]->pmc_width = 48;
	pg[1]->time_enabled = 500;
	pg[1]->time_running = 200;
	f->k.pmc[1] = 0xABCD000000000010ULL;   /* junk above bit 47 */
	return pg;
}

static void fake_proc_remove(const char *root);

/* A sysfs and /proc of an arm64 machine: armv8_pmuv3 (type 8) declares
 * the rdpmc format term, kernel.perf_user_access is `access`. */
static void fake_uread_make(char *root, size_t len, const char *access)
{
	static const char *const dirs[] = {
		"sys", "sys/bus", "sys/bus/event_source",
		"sys/bus/event_source/devices",
		"sys/bus/event_source/devices/armv8_pmuv3",
		"sys/bus/event_source/devices/armv8_pmuv3/format",
		"proc", "proc/sys", "proc/sys/kernel",
	};
	const struct { const char *path, *text; } files[] = {
		{ "sys/bus/event_source/devices/armv8_pmuv3/type", "8\n" },
		{ "sys/bus/event_source/devices/armv8_pmuv3/format/rdpmc",
		  "config1:1\n" },
		{ "proc/sys/kernel/perf_user_access", access },
	};
	char path[512];

	snprintf(root, len, "/tmp/pmu-uread-XXXXXX");
	assert_non_null(mkdtemp(root));
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		assert_int_equal(mkdir(path, 0700), 0);
	}
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		FILE *fp;

		snprintf(path, sizeof(path), "%s/%s", root, files[i].path);
		assert_non_null(fp = fopen(path, "w"));
		fputs(files[i].text, fp);
		fclose(fp);
	}
}

/* Where a PMU must be asked for user-space reads (arm64: config1's rdpmc
 * bit, allowed by kernel.perf_user_access), a session on the calling
 * thread asks for its hardware events; not for software events, not
 * where the sysctl is 0, not without the mmap page; and a kernel that
 * refuses the request gets the event without it. */
static const struct uread_row {
	int line;
	const char *access;
	bool no_mmap;
	uint64_t reject;
	uint64_t want[4];      /* config1 of the last open of each event */
	int nop;
} uread_rows[] = {
	{ __LINE__, "1\n", false, 0, { 2, 2, 2, 0 }, 4 },
	{ __LINE__, "0\n", false, 0, { 0, 0, 0, 0 }, 4 },
	{ __LINE__, "1\n", true, 0, { 0, 0, 0, 0 }, 4 },
	/* refused: each group of one opens again without the bit */
	{ __LINE__, "1\n", false, 2, { 0, 0, 0, 0 }, 7 },
};

static void test_uread_request(void **state)
{
	for (size_t i = 0; i < sizeof(uread_rows) / sizeof(uread_rows[0]); i++) {
		const struct uread_row *r = &uread_rows[i];
		struct perf_event_attr ev[4] = {
			hw(PERF_COUNT_HW_CPU_CYCLES), hw(0x8), hw(0x11),
			sw(PERF_COUNT_SW_TASK_CLOCK) };
		struct pmu_open_opts o = PMU_OPTS_INIT(pmu_open_opts,
						       .no_mmap_read = r->no_mmap);
		char root[64], sys[96], proc[96];
		struct fixture *f;

		ev[1].type = PERF_TYPE_RAW;
		ev[2].type = 8;
		fake_uread_make(root, sizeof(root), r->access);
		snprintf(sys, sizeof(sys), "%s/sys", root);
		snprintf(proc, sizeof(proc), "%s/proc", root);
		setup(state);
		f = *state;
		f->sys.sysfs = sys;
		f->sys.proc = proc;
		f->k.reject_config1 = r->reject;
		for (int k = 0; k < 4; k++)
			assert_int_equal(pmu__session_add_attr(f->s, "e", &ev[k],
							       true), 0);
		assert_int_equal(pmu_session_open(f->s, &o, NULL), 0);
		if (f->k.nop != r->nop)
			fail_msg("row at line %d: %d opens", r->line, f->k.nop);
		for (int k = 0; k < 4; k++) {
			const struct fk_open *last = NULL;

			for (int j = 0; j < f->k.nop; j++)
				if (f->k.op[j].attr.type == ev[k].type &&
				    f->k.op[j].attr.config == ev[k].config)
					last = &f->k.op[j];
			if (!last || last->attr.config1 != r->want[k] ||
			    pmu_session_event_status(f->s, (size_t)k, NULL) !=
				    PMU_EVENT_OK)
				fail_msg("row at line %d: event %d config1 %#llx",
					 r->line, k, last ? (unsigned long long)
					 last->attr.config1 : 0ull);
		}
		teardown(state);
		fake_proc_remove(root);
	}
}

static void test_mmap_rdpmc(void **state)
{
	struct fixture *f = *state;
	struct pmu_value v[2] = { { .size = sizeof(struct pmu_value) } };

	mmap_setup(f);
	assert_int_equal(pmu_session_read(f->s, v, 2), 2);
	assert_int_equal(v[0].raw, 984);       /* 1000 - 16 */
	assert_int_equal(v[1].raw, 16);
	assert_int_equal(v[0].enabled, 500);
	assert_int_equal(v[0].running, 200);
	assert_int_equal(v[0].scaled, 2460);   /* 984 * 500 / 200 */
	assert_int_equal(f->k.nread, 0);
	assert_int_equal(f->k.nrdpmc, 2);
}

/* The page changed during the read: the reader must go round again. */
static void test_mmap_lock_retry(void **state)
{
	struct fixture *f = *state;
	struct pmu_value v[2] = { { .size = sizeof(struct pmu_value) } };

	mmap_setup(f);
	f->k.bump_lock_once = 1;
	assert_int_equal(pmu_session_read(f->s, v, 2), 2);
	assert_int_equal(f->k.nrdpmc, 3);
	assert_int_equal(v[0].raw, 984);
	assert_int_equal(f->k.nread, 0);
}

/* A counter not on a register (index 0) sends the group to read(2). */
static void test_mmap_fallback(void **state)
{
	struct fixture *f = *state;
	struct perf_event_mmap_page **pg;
	struct pmu_value v[2] = { { .size = sizeof(struct pmu_value) } };

	pg = mmap_setup(f);
	pg[1]->index = 0;
	fk_set(&f->k, 0, 77, 9, 9);
	fk_set(&f->k, 1, 88, 0, 0);
	assert_int_equal(pmu_session_read(f->s, v, 2), 2);
	assert_int_equal(f->k.nread, 1);
	assert_int_equal(v[0].raw, 77);
	assert_int_equal(v[1].raw, 88);
	pg[1]->index = 2;
	pg[0]->capabilities = 0; /* rdpmc not allowed */
	assert_int_equal(pmu_session_read(f->s, v, 2), 2);
	assert_int_equal(f->k.nread, 2);
}

struct time_row {
	int line;
	uint64_t caps;
	uint32_t mult;
	uint16_t shift;
	uint64_t offset, cycles, mask, tsc;
	uint64_t delta;      /* worked out by hand */
};

static const struct time_row time_rows[] = {
	/* quot 5000, rem 1: -1000 + 5000*3 + (1*3 >> 1) */
	{ __LINE__, CAP_TIME, 3, 1, (uint64_t)-1000, 0, 0, 10001, 14001 },
	/* shift 0: offset + tsc * mult */
	{ __LINE__, CAP_TIME, 2, 0, 7, 0, 0, 100, 207 },
	/* short: cyc = 10000 + ((0x12345 - 10000) & 0xff) = 10053 */
	{ __LINE__, CAP_TIME | CAP_TIME_SHORT, 2, 0, 0, 10000, 0xff, 0x12345,
	  20106 },
	/* shift 10: quot 3, rem 5; 3*1024 + (5*1024 >> 10) */
	{ __LINE__, CAP_TIME, 1024, 10, 0, 0, 0, 3 * 1024 + 5, 3077 },
};

static void test_mmap_time(void **state)
{
	size_t i;

	for (i = 0; i < sizeof(time_rows) / sizeof(time_rows[0]); i++) {
		const struct time_row *r = &time_rows[i];
		struct perf_event_mmap_page **pg;
		struct pmu_value v[2] = { { .size = sizeof(struct pmu_value) } };
		struct fixture *f;
		int k;

		setup(state);
		f = *state;
		pg = mmap_setup(f);
		for (k = 0; k < 2; k++) {
			pg[k]->capabilities = CAP_RDPMC | r->caps;
			pg[k]->time_mult = r->mult;
			pg[k]->time_shift = r->shift;
			pg[k]->time_offset = r->offset;
			pg[k]->time_cycles = r->cycles;
			pg[k]->time_mask = r->mask;
		}
		f->k.tsc = r->tsc;
		assert_int_equal(pmu_session_read(f->s, v, 2), 2);
		if (v[0].enabled != 500 + r->delta ||
		    v[0].running != 200 + r->delta ||
		    v[1].enabled != 500 + r->delta || f->k.nread != 0)
			fail_msg("row at line %d: enabled %llu running %llu",
				 r->line, (unsigned long long)v[0].enabled,
				 (unsigned long long)v[0].running);
		teardown(state);
	}
}

static void test_no_mmap_read(void **state)
{
	struct fixture *f = *state;
	struct pmu_open_opts o = PMU_OPTS_INIT(pmu_open_opts,
					       .no_mmap_read = true);
	struct perf_event_attr x = hw(PERF_COUNT_HW_CPU_CYCLES);

	f->k.give_pages = true;
	assert_int_equal(pmu__session_add_attr(f->s, "x", &x, true), 0);
	assert_int_equal(pmu_session_open(f->s, &o, NULL), 0);
	assert_int_equal(f->k.nmmap, 0);
}

/* Software events never get a page: the kernel never sets an index. */
static void test_no_mmap_software(void **state)
{
	struct fixture *f = *state;
	struct perf_event_attr x = hw(PERF_COUNT_HW_CPU_CYCLES);
	struct perf_event_attr t = sw(PERF_COUNT_SW_TASK_CLOCK);

	f->k.give_pages = true;
	add_abc(f->s);
	assert_int_equal(pmu__session_add_attr(f->s, "x", &x, true), 0);
	assert_int_equal(pmu__session_add_attr(f->s, "t", &t, false), 0);
	assert_int_equal(pmu__session_add_attr(f->s, "y", &x, true), 0);
	assert_int_equal(pmu_session_open(f->s, NULL, NULL), 0);
	assert_int_equal(f->k.nmmap, 1); /* only the all-hardware {y} */
}

struct other_read {
	struct pmu_session *s;
	struct pmu_value v[2];
	int ret;
};

static void *read_elsewhere(void *arg)
{
	struct other_read *r = arg;

	r->v[0].size = sizeof(r->v[0]);
	r->ret = pmu_session_read(r->s, r->v, 2);
	return NULL;
}

/* rdpmc reads the counter of the CPU the caller runs on: from a thread
 * other than the one counted, the page's index names someone else's
 * counter, so only read(2) gives the counted thread's values. */
static void test_mmap_other_thread(void **state)
{
	struct fixture *f = *state;
	struct other_read r = { .s = f->s };
	pthread_t t;

	mmap_setup(f);
	fk_set(&f->k, 0, 77, 9, 9);
	fk_set(&f->k, 1, 88, 9, 9);
	assert_int_equal(pthread_create(&t, NULL, read_elsewhere, &r), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(r.ret, 2);
	assert_int_equal(f->k.nrdpmc, 0);
	assert_int_equal(f->k.nread, 1);
	assert_int_equal(r.v[0].raw, 77);
	assert_int_equal(r.v[1].raw, 88);
	/* the counted thread itself still takes the fast path */
	assert_int_equal(pmu_session_read(f->s, r.v, 2), 2);
	assert_int_equal(f->k.nrdpmc, 2);
	assert_int_equal(r.v[0].raw, 984);
}

/*
 * A fake /proc: process 100 has threads 100 and 101, process 200 has
 * threads 200-202.  101 is listed too, as /proc shows a thread's id as a
 * (hidden) process directory with the whole task list.
 */
static const char *const fake_tasks[] = {
	"100/task/100", "100/task/101", "101/task/100", "101/task/101",
	"200/task/200", "200/task/201", "200/task/202",
};

static void fake_proc_make(char *root, size_t len)
{
	size_t i;

	snprintf(root, len, "/tmp/pmu-proc-XXXXXX");
	assert_non_null(mkdtemp(root));
	for (i = 0; i < sizeof(fake_tasks) / sizeof(fake_tasks[0]); i++) {
		char path[256], *slash;

		snprintf(path, sizeof(path), "%s/%s", root, fake_tasks[i]);
		/* mkdir -p: every prefix, then the leaf */
		for (slash = strchr(path + strlen(root) + 1, '/'); slash;
		     slash = strchr(slash + 1, '/')) {
			*slash = '\0';
			mkdir(path, 0700);
			*slash = '/';
		}
		assert_int_equal(mkdir(path, 0700), 0);
	}
}

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void fake_proc_remove(const char *root)
{
	assert_int_equal(nftw(root, rm_entry, 8, FTW_DEPTH | FTW_PHYS), 0);
}

/* How many opens went to thread `tid`. */
static int opens_of(const struct fk *k, pid_t tid)
{
	int i, n = 0;

	for (i = 0; i < k->nop; i++)
		n += k->op[i].pid == tid;
	return n;
}

/* Every thread of every listed process, each once, counted together. */
static void test_pid_list(void **state)
{
	struct fixture *f = *state;
	const pid_t pids[] = { 200, 100, 101, 200 };
	struct pmu_open_opts o = PMU_OPTS_INIT(pmu_open_opts,
					       .target = PMU_TARGET_PID,
					       .pids = pids, .npids = 4);
	const pid_t want[] = { 100, 101, 200, 201, 202 };
	uint64_t want_raw[3] = { 0 };
	struct pmu_value v[3] = { { .size = sizeof(struct pmu_value) } };
	char root[64];
	int i;

	fake_proc_make(root, sizeof(root));
	f->sys.proc = root;
	add_abc(f->s);
	assert_int_equal(pmu_session_open(f->s, &o, NULL), 0);
	fake_proc_remove(root);
	assert_int_equal(f->k.nop, 3 * 5);
	for (i = 0; i < 5; i++)
		assert_int_equal(opens_of(&f->k, want[i]), 3);
	for (i = 0; i < f->k.nop; i++) {
		uint64_t c = f->k.op[i].attr.config;

		fk_set(&f->k, i, (uint64_t)i + 1, 10, 10);
		/* a, b, c are task-clock, page-faults, context-switches */
		want_raw[c == PERF_COUNT_SW_TASK_CLOCK ? 0 :
			 c == PERF_COUNT_SW_PAGE_FAULTS ? 1 : 2] += (uint64_t)i + 1;
	}
	assert_int_equal(pmu_session_read(f->s, v, 3), 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(v[i].raw, want_raw[i]);
		assert_int_equal(v[i].enabled, 5 * 10);
	}
}

/* Each unit read alone: the thread's own values, its id, the process
 * it was listed through and its name from /proc. */
static void test_read_unit(void **state)
{
	struct fixture *f = *state;
	const pid_t pids[] = { 200, 100 };
	struct pmu_open_opts o = PMU_OPTS_INIT(pmu_open_opts,
					       .target = PMU_TARGET_PID,
					       .pids = pids, .npids = 2);
	const pid_t want[] = { 100, 101, 200, 201, 202 };
	struct pmu_value v[3] = { { .size = sizeof(struct pmu_value) } };
	struct pmu_unit_info ui = { .size = sizeof(ui) };
	uint64_t sum = 0;
	char root[64], path[128];
	FILE *c;
	int i;

	fake_proc_make(root, sizeof(root));
	snprintf(path, sizeof(path), "%s/200/task/201/comm", root);
	assert_non_null(c = fopen(path, "w"));
	fputs("worker\n", c);
	fclose(c);
	f->sys.proc = root;
	add_abc(f->s);
	assert_int_equal(pmu_session_open(f->s, &o, NULL), 0);
	assert_int_equal(pmu_session_nunits(f->s), 5);
	for (i = 0; i < f->k.nop; i++)
		fk_set(&f->k, i, 1000 * (uint64_t)f->k.op[i].pid + 1 +
		       f->k.op[i].attr.config, 10, 5);
	for (size_t u = 0; u < 5; u++) {
		assert_int_equal(pmu_session_unit_info(f->s, u, &ui), 0);
		assert_int_equal(ui.tid, want[u]);
		assert_int_equal(ui.cpu, -1);
		assert_int_equal(ui.pid, want[u] < 200 ? 100 : 200);
		assert_string_equal(ui.comm, want[u] == 201 ? "worker" : "");
		assert_int_equal(pmu_session_read_unit(f->s, u, v, 3), 3);
		for (int e = 0; e < 3; e++) {
			uint64_t cfg = e == 0 ? PERF_COUNT_SW_TASK_CLOCK
				     : e == 1 ? PERF_COUNT_SW_PAGE_FAULTS
					      : PERF_COUNT_SW_CONTEXT_SWITCHES;

			assert_int_equal(v[e].raw, 1000 * (uint64_t)want[u] + 1 + cfg);
			assert_int_equal(v[e].scaled, 2 * v[e].raw);
		}
		sum += v[0].raw;
	}
	assert_int_equal(pmu_session_read(f->s, v, 3), 3);
	assert_int_equal(v[0].raw, sum);
	assert_int_equal(pmu_session_unit_info(f->s, 5, &ui), -EINVAL);
	assert_int_equal(pmu_session_read_unit(f->s, 5, v, 3), -EINVAL);
	fake_proc_remove(root);
}

/* A cgroup event: its directory's descriptor where the pid goes, with
 * PERF_FLAG_PID_CGROUP, on every CPU; others keep pid -1.  Only
 * system-wide targets take one. */
static void test_cgroup_events(void **state)
{
	struct fixture *f = *state;
	struct pmu_open_opts o = PMU_OPTS_INIT(pmu_open_opts,
					       .target = PMU_TARGET_CPUS,
					       .cpus = "0");
	struct pmu_open_opts self = PMU_OPTS_INIT(pmu_open_opts);
	struct pmu_error err = { .size = sizeof(err) };
	char dir[] = "/tmp/pmu-cg-XXXXXX";

	assert_non_null(mkdtemp(dir));
	add_abc(f->s);
	f->s->ev[1].cgroup = strdup(dir);
	assert_int_equal(pmu_session_open(f->s, &self, &err), -EINVAL);
	assert_int_equal(err.kind, PMU_ERR_USAGE);
	assert_non_null(strstr(err.message, "system-wide"));
	assert_int_equal(pmu_session_open(f->s, &o, &err), 0);
	assert_int_equal(f->k.nop, 3);
	assert_int_equal(f->k.op[0].pid, -1);
	assert_false(f->k.op[0].flags & PERF_FLAG_PID_CGROUP);
	assert_true(f->k.op[1].pid >= 0);
	assert_true(f->k.op[1].flags & PERF_FLAG_PID_CGROUP);
	assert_int_equal(f->k.op[1].cpu, 0);
	assert_int_equal(f->k.op[2].pid, -1);
	pmu_session_free(f->s);
	f->s = NULL;
	rmdir(dir);
	/* a directory that is gone: named */
	f->s = pmu__session_new_on(pmu__perf_driver_new(&f->sys), true, NULL);
	add_abc(f->s);
	f->s->ev[0].cgroup = strdup(dir);
	assert_int_equal(pmu_session_open(f->s, &o, &err), -ENOENT);
	assert_int_equal(err.kind, PMU_ERR_NO_TARGET);
	assert_non_null(strstr(err.message, dir));
}

/* An uncore event (cpus set: its PMU's cpumask) opens only on those CPUs
 * of a CPU target, its group with it; sums skip the other CPUs; a CPU
 * list without them leaves it not supported; a task target refuses it. */
static void test_uncore_cpumask(void **state)
{
	struct fixture *f = *state;
	struct pmu_open_opts o = PMU_OPTS_INIT(pmu_open_opts,
					       .target = PMU_TARGET_CPUS,
					       .cpus = "0-1");
	struct pmu_open_opts only0 = PMU_OPTS_INIT(pmu_open_opts,
						   .target = PMU_TARGET_CPUS,
						   .cpus = "0");
	struct pmu_open_opts self = PMU_OPTS_INIT(pmu_open_opts);
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_value v[3] = { { .size = sizeof(struct pmu_value) } };
	int i;

	if (online_cpus() < 2)
		skip();
	add_abc(f->s);                    /* {a, b}, c */
	f->s->ev[0].cpus = strdup("1");   /* the leader's mask decides */
	assert_int_equal(pmu_session_open(f->s, &self, &err), -EINVAL);
	assert_int_equal(err.kind, PMU_ERR_NOT_SUPPORTED);
	assert_string_equal(err.token, "a");
	assert_non_null(strstr(err.message, "not per task"));
	assert_int_equal(f->k.nop, 0);
	assert_int_equal(pmu_session_open(f->s, &o, &err), 0);
	/* a and b on CPU 1 only, c on both */
	assert_int_equal(f->k.nop, 4);
	for (i = 0; i < f->k.nop; i++) {
		uint64_t c = f->k.op[i].attr.config;

		if (c != PERF_COUNT_SW_CONTEXT_SWITCHES)
			assert_int_equal(f->k.op[i].cpu, 1);
		fk_set(&f->k, i, 10 + (uint64_t)i, 100, 100);
	}
	assert_int_equal(pmu_session_read(f->s, v, 3), 3);
	assert_int_equal(v[0].status, PMU_EVENT_OK);
	assert_int_equal(v[0].enabled, 100);  /* one CPU's time, not two */
	assert_int_equal(v[2].enabled, 200);
	/* CPU 0 alone: nothing of a there */
	v[0].size = sizeof(struct pmu_value);
	assert_int_equal(pmu_session_read_unit(f->s, 0, v, 3), 3);
	assert_int_equal(v[0].raw, 0);
	assert_int_equal(v[0].running, 0);
	assert_int_equal(pmu_session_stop(f->s), 0);
	pmu__session_close(f->s);
	/* -C 0: none of its CPUs; a and b not counted, saying which CPUs */
	f->k.nop = 0;
	assert_int_equal(pmu_session_open(f->s, &only0, &err), 0);
	assert_int_equal(f->k.nop, 1);
	assert_int_equal(pmu_session_event_status(f->s, 0, NULL),
			 PMU_EVENT_NOT_SUPPORTED);
	assert_int_equal(pmu_session_event_status(f->s, 1, NULL),
			 PMU_EVENT_NOT_SUPPORTED);
	assert_non_null(strstr(pmu_session_event_reason(f->s, 0),
			       "only on CPUs 1"));
	assert_int_equal(pmu_session_event_status(f->s, 2, NULL), PMU_EVENT_OK);
}

/* Listed threads, each once; one that does not exist fails the open. */
static void test_tid_list(void **state)
{
	struct fixture *f = *state;
	const pid_t tids[] = { 12, 11, 12 };
	struct pmu_open_opts o = PMU_OPTS_INIT(pmu_open_opts,
					       .target = PMU_TARGET_TID,
					       .pids = tids, .npids = 3);
	struct pmu_error err = { .size = sizeof(err) };

	add_abc(f->s);
	assert_int_equal(pmu_session_open(f->s, &o, NULL), 0);
	assert_int_equal(f->k.nop, 3 * 2);
	assert_int_equal(opens_of(&f->k, 11), 3);
	assert_int_equal(opens_of(&f->k, 12), 3);
	pmu_session_free(f->s);
	f->s = pmu__session_new_on(pmu__perf_driver_new(&f->sys), true, NULL);
	add_abc(f->s);
	f->k.gone[0] = 12;
	assert_int_equal(pmu_session_open(f->s, &o, &err), -ESRCH);
	assert_int_equal(err.kind, PMU_ERR_NO_TARGET);
	assert_string_equal(err.token, "12");
	assert_non_null(strstr(err.message, "no such thread: 12"));
	assert_int_equal(f->k.nlive, 0);
	/* a list of every thread of the machine leaves such a thread out
	 * (it ended, or is a zombie) and counts the others */
	pmu_session_free(f->s);
	f->s = pmu__session_new_on(pmu__perf_driver_new(&f->sys), true, NULL);
	add_abc(f->s);
	o.skip_gone = true;
	f->k.nop = 0;
	assert_int_equal(pmu_session_open(f->s, &o, &err), 0);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(pmu_session_event_status(f->s, i, NULL),
				 PMU_EVENT_OK);
	assert_int_equal(f->k.nlive, 3);     /* thread 11's three events */
	assert_int_equal(pmu_session_nunits(f->s), 2);
}

/* Threads that answered ESRCH in an attempt given up for a fallback
 * were opened by the next one: process 100 has not vanished. */
static void test_pid_retry_forgets_gone(void **state)
{
	struct fixture *f = *state;
	const pid_t pids[] = { 100, 200 };
	struct pmu_open_opts o = PMU_OPTS_INIT(pmu_open_opts,
					       .target = PMU_TARGET_PID,
					       .pids = pids, .npids = 2,
					       .inherit = true);
	struct pmu_error err = { .size = sizeof(err) };
	char root[64];

	fake_proc_make(root, sizeof(root));
	f->sys.proc = root;
	f->k.reject_inherit_group = true;
	f->k.esrch_before = 2;
	add_abc(f->s);
	assert_int_equal(pmu_session_open(f->s, &o, &err), 0);
	fake_proc_remove(root);
	/* the first attempt: 100 and 101 gone, then 200 refused */
	assert_int_equal(f->k.op[0].pid, 100);
	assert_int_equal(f->k.op[1].pid, 101);
	assert_int_equal(f->k.nlive, 3 * 5);
}

/* Processes that are missing, or whose threads all exit before they are
 * opened, fail the open and name the process; a few exited threads do
 * not. */
struct vanish_row {
	int line;
	pid_t pids[3];
	pid_t gone[4];
	int ret;
	const char *token;   /* NULL: success */
	int live;            /* descriptors open after success */
};

static const struct vanish_row vanish_rows[] = {
	{ __LINE__, { 100, 200 }, { 201 }, 0, NULL, 3 * 4 },
	{ __LINE__, { 100, 200 }, { 200, 201, 202 }, -ESRCH, "200", 0 },
	{ __LINE__, { 100, 200 }, { 100, 101 }, -ESRCH, "100", 0 },
	{ __LINE__, { 101, 200 }, { 100, 101 }, -ESRCH, "101", 0 },
	{ __LINE__, { 100, 101 }, { 100 }, 0, NULL, 3 * 1 },
	{ __LINE__, { 200 }, { 200, 201, 202 }, -ESRCH, "200", 0 },
	{ __LINE__, { 100, 300 }, { 0 }, -ESRCH, "300", 0 },
};

static void check_vanish_row(void **state, const struct vanish_row *r,
			     const char *root)
{
	struct pmu_open_opts o = PMU_OPTS_INIT(pmu_open_opts,
					       .target = PMU_TARGET_PID,
					       .pids = r->pids);
	struct pmu_error err = { .size = sizeof(err) };
	struct fixture *f;
	int ret;

	while (o.npids < 3 && r->pids[o.npids])
		o.npids++;
	setup(state);
	f = *state;
	f->sys.proc = root;
	memcpy(f->k.gone, r->gone, sizeof(f->k.gone));
	add_abc(f->s);
	ret = pmu_session_open(f->s, &o, &err);
	if (ret != r->ret || f->k.nlive != r->live ||
	    (r->token && (err.kind != PMU_ERR_NO_TARGET ||
			  strcmp(err.token, r->token) ||
			  !strstr(err.message, "no such process"))))
		fail_msg("row at line %d: ret %d live %d token '%s' '%s'",
			 r->line, ret, f->k.nlive, err.token, err.message);
	teardown(state);
}

static void test_pid_vanished(void **state)
{
	char root[64];
	size_t i;

	fake_proc_make(root, sizeof(root));
	for (i = 0; i < sizeof(vanish_rows) / sizeof(vanish_rows[0]); i++)
		check_vanish_row(state, &vanish_rows[i], root);
	fake_proc_remove(root);
}

/* Bad lists are usage errors; callers built against the struct without
 * pids (a smaller sz) keep the single pid. */
static void test_pid_list_usage(void **state)
{
	struct fixture *f = *state;
	const pid_t bad[] = { 11, 0 };
	struct pmu_open_opts o = PMU_OPTS_INIT(pmu_open_opts,
					       .target = PMU_TARGET_TID,
					       .pids = bad, .npids = 2);
	struct pmu_error err = { .size = sizeof(err) };

	add_abc(f->s);
	assert_int_equal(pmu_session_open(f->s, &o, &err), -EINVAL);
	assert_int_equal(err.kind, PMU_ERR_USAGE);
	assert_string_equal(err.token, "0");
	o.target = PMU_TARGET_SELF;
	o.npids = 1;
	assert_int_equal(pmu_session_open(f->s, &o, &err), -EINVAL);
	assert_int_equal(err.kind, PMU_ERR_USAGE);
	o.target = PMU_TARGET_TID;
	o.pids = NULL;
	assert_int_equal(pmu_session_open(f->s, &o, &err), -EINVAL);
	assert_int_equal(f->k.nop, 0);
	o.sz = offsetof(struct pmu_open_opts, pids);
	o.pid = 77;
	o.pids = bad;
	assert_int_equal(pmu_session_open(f->s, &o, &err), 0);
	assert_int_equal(f->k.nop, 3);
	assert_int_equal(opens_of(&f->k, 77), 3);
}

/* Misuse is refused with a usage error, not a crash. */
static void test_usage(void **state)
{
	struct fixture *f = *state;
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_value v = { .size = sizeof(v) };

	assert_int_equal(pmu_session_open(f->s, NULL, &err), -EINVAL);
	assert_int_equal(err.kind, PMU_ERR_USAGE);
	assert_int_equal(pmu_session_read(f->s, &v, 1), -EINVAL);
	add_abc(f->s);
	assert_int_equal(pmu_session_open(f->s, NULL, &err), 0);
	assert_int_equal(pmu_session_open(f->s, NULL, &err), -EBUSY);
	assert_int_equal(pmu_session_add(f->s, "cycles", &err), -EBUSY);
	assert_int_equal(err.kind, PMU_ERR_USAGE);
	assert_int_equal(pmu_session_read(f->s, NULL, 0), 0);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_open_attrs),
		T(test_child_target),
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_not_supported),
		cmocka_unit_test(test_weak_group),
		T(test_group_no_room),
		cmocka_unit_test(test_uread_request),
		T(test_no_pmu_reason),
		cmocka_unit_test(test_multiplexed_read),
		T(test_value_size0),
		T(test_read_maps_ids),
		T(test_cpus_sum_saturates),
		T(test_cpus_sum_exact),
		T(test_start_stop_reset),
		T(test_inherit_fallback),
		T(test_parser_flags_reach_kernel),
		T(test_mmap_rdpmc),
		T(test_mmap_lock_retry),
		T(test_mmap_fallback),
		cmocka_unit_test(test_mmap_time),
		T(test_no_mmap_read),
		T(test_no_mmap_software),
		T(test_mmap_other_thread),
		T(test_pid_list),
		T(test_tid_list),
		T(test_read_unit),
		T(test_cgroup_events),
		T(test_uncore_cpumask),
		cmocka_unit_test(test_pid_vanished),
		T(test_pid_retry_forgets_gone),
		cmocka_unit_test(test_guest_fallback),
		cmocka_unit_test(test_user_only_fallback),
		cmocka_unit_test(test_user_only_names),
		T(test_pid_list_usage),
		T(test_usage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
