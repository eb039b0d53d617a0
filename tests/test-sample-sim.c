/* SPDX-License-Identifier: MIT */
/*
 * Sampling sessions on the simulated PMU: the session is a perfmon2
 * context with the named format.  Every expectation follows from the
 * stream fed and the sampling settings: a leader sampling every P
 * events overflows at its P-th event, when the simulated program has
 * fed (events before it) cycles; the reset values are -P (short),
 * -L (long, after a restart), minus (random & mask) with RANDOM; the
 * default format keeps an entry only while the largest entry fits
 * (40 bytes + 8 per PMD of the model) and is full once it does not.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include <pmu/pmu.h>
#define PMU_PERFMON_NO_REDIRECT
#include <pmu/perfmon.h>

#define HDR 128u

static struct pmu_session *sim_session(const char *model, const char *ev)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_session_opts so = { .sz = sizeof(so), .driver = "sim",
				       .model = model };
	struct pmu_session *s = pmu_session_new_opts(&so, &err);

	if (!s)
		fail_msg("%s", err.message);
	if (pmu_session_add(s, ev, &err))
		fail_msg("add %s: %s", ev, err.message);
	return s;
}

static void sample_open(struct pmu_session *s,
			const struct pmu_sampling_opts *o)
{
	struct pmu_error err = { .size = sizeof(err) };

	if (pmu_session_sample(s, o, &err))
		fail_msg("sample: %s", err.message);
	if (pmu_session_open(s, NULL, &err))
		fail_msg("open: %s", err.message);
	assert_int_equal(pmu_session_start(s), 0);
}

static void feed(struct pmu_session *s, const char *text)
{
	struct pmu_error err = { .size = sizeof(err) };

	if (pmu_session_feed(s, text, strlen(text), &err))
		fail_msg("feed: %s", err.message);
}

/* `n` instructions, each followed by one cycle, at ip. */
static void feed_insns(struct pmu_session *s, uint64_t ip, unsigned n)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "ip %llu\nrepeat %u {\nevent 0xc0 1\n"
		 "cycles 1\n}\n", (unsigned long long)ip, n);
	feed(s, buf);
}

static const struct pmu_sample_hdr *hdr_of(struct pmu_session *s)
{
	size_t size = 0;
	const struct pmu_sample_hdr *h = pmu_session_buffer(s, &size);

	assert_non_null(h);
	assert_int_equal(size, h->hdr_buf_size);
	return h;
}

static const struct pmu_sample_entry *at_off(const struct pmu_sample_hdr *h,
					     size_t off)
{
	return (const void *)((const char *)h + off);
}

/* Entry k of a buffer whose entries carry `nvals` values. */
static const struct pmu_sample_entry *entry(const struct pmu_sample_hdr *h,
					    size_t k, size_t nvals)
{
	return (const void *)((const char *)h + HDR + k * (40 + 8 * nvals));
}

static uint64_t value(const struct pmu_sample_entry *e, size_t j)
{
	uint64_t v;

	memcpy(&v, (const char *)(e + 1) + 8 * j, 8);
	return v;
}

/* P6, {INST_RETIRED, CPU_CLK_UNHALTED} sampling every P instructions:
 * entry k at instruction k*P, with k*P - 1 cycles fed before it (the
 * cycle follows each instruction), at the ip the instruction ran at. */
static void test_default_exact(void **state)
{
	const struct {
		int line;
		uint64_t period;
		unsigned n1, n2;   /* instructions at 0x1000, then 0x2000 */
	} rows[] = {
		{ __LINE__, 100, 250, 250 },
		{ __LINE__, 7, 30, 40 },
		{ __LINE__, 1, 3, 2 },
		{ __LINE__, 1000, 999, 0 },
	};

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct pmu_session *s = sim_session(
			"p6", "{INST_RETIRED,CPU_CLK_UNHALTED}");
		struct pmu_sampling_opts o = { .sz = sizeof(o),
					       .period = rows[r].period };
		const struct pmu_sample_hdr *h;
		uint64_t total = rows[r].n1 + rows[r].n2, P = rows[r].period;
		size_t idx[4];

		print_message("row at line %d\n", rows[r].line);
		sample_open(s, &o);
		feed_insns(s, 0x1000, rows[r].n1);
		if (rows[r].n2)
			feed_insns(s, 0x2000, rows[r].n2);
		h = hdr_of(s);
		assert_int_equal(h->hdr_version, 0x10000);
		assert_int_equal(h->hdr_count, total / P);
		assert_int_equal(h->hdr_cur_offs, HDR + total / P * 48);
		assert_int_equal(h->hdr_overflows, 0);
		assert_int_equal(pmu_session_sample_values(s, 0, idx, 4), 1);
		assert_int_equal(idx[0], 1);
		for (uint64_t k = 1; k <= total / P; k++) {
			const struct pmu_sample_entry *e = entry(h, k - 1, 1);

			assert_int_equal(pmu_session_sample_event(s, e), 0);
			assert_int_equal(e->ip,
					 k * P <= rows[r].n1 ? 0x1000 : 0x2000);
			assert_int_equal(value(e, 0), k * P - 1);
			assert_int_equal(e->tstamp, k * P - 1);
			assert_int_equal(e->last_reset_val, 0 - P);
			assert_int_equal(e->pid, (uint32_t)gettid());
			assert_int_equal(e->tgid, (uint32_t)getpid());
			assert_int_equal(e->set, 0);
		}
		pmu_session_free(s);
	}
}

/* A buffer of room for exactly `cap` one-value entries: the largest
 * entry on a P6 is 40 + 8 * 2 PMDs = 56 bytes, so 128 + 48 * cap + 55
 * takes cap entries and is full with the last one. */
static size_t buf_for(unsigned cap)
{
	return HDR + 48u * cap + 55u;
}

static void read_msg(int fd, uint64_t ip)
{
	pfarg_msg_t m;

	assert_int_equal(read(fd, &m, sizeof(m)), sizeof(m));
	assert_int_equal(m.type, PFM_MSG_OVFL);
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_ip, ip);
	/* perfmon2's fill-in: thread id in "pid", process in "tid" */
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_pid, (uint32_t)gettid());
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_tid, (uint32_t)getpid());
	assert_int_not_equal(m.pfm_ovfl_msg.msg_ovfl_pmds[0], 0);
}

static bool readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

/*
 * Full buffer, notification, restart, long reset: with room for 3
 * entries the 3rd fills the buffer (kept), the context masks (what is
 * fed then does not count), the descriptor polls readable with one
 * message; restart empties the buffer and resets the leader to -L, so
 * the next entry comes L counted instructions later, then every P.
 */
static void test_full_restart_long(void **state)
{
	const uint64_t P = 100, L = 250;
	struct pmu_session *s = sim_session("p6",
					    "{INST_RETIRED,CPU_CLK_UNHALTED}");
	struct pmu_sampling_opts o = { .sz = sizeof(o), .period = P,
				       .long_period = L,
				       .buf_size = buf_for(3) };
	struct pmu_sample_stats st = { .size = sizeof(st) };
	const struct pmu_sample_hdr *h;
	int fd;

	(void)state;
	sample_open(s, &o);
	fd = pmu_session_fd(s);
	assert_true(fd >= 0);
	assert_int_equal(pmu_session_restart(s), -EBUSY);
	feed_insns(s, 0x1000, 300);
	h = hdr_of(s);
	assert_int_equal(h->hdr_count, 3);
	assert_int_equal(h->hdr_overflows, 1);
	assert_true(readable(fd));
	feed_insns(s, 0x1000, 77);          /* masked: not counted */
	assert_int_equal(h->hdr_count, 3);
	read_msg(fd, 0x1000);
	assert_false(readable(fd));
	assert_int_equal(value(entry(h, 2, 1), 0), 299);
	assert_int_equal(pmu_session_restart(s), 0);
	assert_int_equal(pmu_session_restart(s), -EBUSY);
	assert_int_equal(h->hdr_count, 0);
	assert_int_equal(h->hdr_cur_offs, HDR);
	feed_insns(s, 0x2000, L + P - 1);
	assert_int_equal(h->hdr_count, 1);
	assert_int_equal(entry(h, 0, 1)->last_reset_val, 0 - L);
	assert_int_equal(entry(h, 0, 1)->ip, 0x2000);
	/* the cycle counter was masked with it: the L-th counted
	 * instruction after the restart, L - 1 counted cycles later */
	assert_int_equal(value(entry(h, 0, 1), 0), 299 + L - 1);
	feed_insns(s, 0x2000, 1);
	assert_int_equal(h->hdr_count, 2);
	assert_int_equal(entry(h, 1, 1)->last_reset_val, 0 - P);
	assert_int_equal(value(entry(h, 1, 1), 0), 299 + L + P - 1);
	assert_int_equal(pmu_session_sample_stats(s, &st), 0);
	assert_int_equal(st.samples, 5);
	assert_int_equal(st.full, 1);
	assert_int_equal(st.lost, 0);
	pmu_session_free(s);
}

/* RANDOM: each reset is -P - (random & mask); the distance between two
 * entries is the reset that led to the second. */
static void test_random(void **state)
{
	const uint64_t P = 50, mask = 0xf;
	struct pmu_session *s = sim_session("p6",
					    "{INST_RETIRED,CPU_CLK_UNHALTED}");
	struct pmu_sampling_opts o = { .sz = sizeof(o), .period = P,
				       .random_mask = mask };
	const struct pmu_sample_hdr *h;
	bool varied = false;

	(void)state;
	sample_open(s, &o);
	feed_insns(s, 0x1000, 2000);
	h = hdr_of(s);
	assert_true(h->hdr_count >= 2000 / (P + mask));
	assert_true(h->hdr_count <= 2000 / P);
	/* the first period is the value written, without randomness */
	assert_int_equal(entry(h, 0, 1)->last_reset_val, 0 - P);
	assert_int_equal(value(entry(h, 0, 1), 0), P - 1);
	for (size_t k = 1; k < h->hdr_count; k++) {
		uint64_t d = 0 - entry(h, k, 1)->last_reset_val;

		assert_true(d >= P && d <= P + mask);
		assert_int_equal(value(entry(h, k, 1), 0) -
				 value(entry(h, k - 1, 1), 0), d);
		varied |= d != 0 - entry(h, 1, 1)->last_reset_val;
	}
	assert_true(varied);
	pmu_session_free(s);
}

static volatile sig_atomic_t got_sigio;

/* The notification by SIGIO: the descriptor with F_SETOWN and O_ASYNC. */
static void test_sigio(void **state)
{
	struct pmu_session *s = sim_session("k8", "RETIRED_INSTRUCTIONS");
	struct pmu_sampling_opts o = { .sz = sizeof(o), .period = 10,
				       .buf_size = HDR + 40 + 8 * 4 };
	struct timespec ts = { .tv_sec = 10 };
	sigset_t set, old;
	int fd;

	(void)state;
	sample_open(s, &o);
	fd = pmu_session_fd(s);
	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	assert_int_equal(sigprocmask(SIG_BLOCK, &set, &old), 0);
	assert_int_equal(fcntl(fd, F_SETOWN, getpid()), 0);
	assert_int_equal(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC), 0);
	feed(s, "ip 0x4000\nevent 0xc0 9\n");
	assert_false(readable(fd));
	/* the 10th fills the one-entry buffer */
	feed(s, "event 0xc0 1\n");
	assert_int_equal(sigtimedwait(&set, NULL, &ts), SIGIO);
	read_msg(fd, 0x4000);
	sigprocmask(SIG_SETMASK, &old, NULL);
	pmu_session_free(s);
}

/* PEBS through a session (seed-semantics 3): front_end_event on
 * IQ_COUNTER4 at -P, each record N+1 qualifying events after the
 * previous one; the threshold record interrupts, the format counts an
 * overflow and notifies; restart empties the buffer. */
static void test_pebs(void **state)
{
	const struct {
		int line;
		const char *fmt;
		unsigned recsz;
	} rows[] = {
		{ __LINE__, "pebs32_p4", 40 },
		{ __LINE__, "pebs64_p4", 144 },
	};

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct pmu_session *s = sim_session(
			"p4", "netburst::front_end_event:NBOGUS");
		struct pmu_sampling_opts o = { .sz = sizeof(o),
					       .format = rows[r].fmt,
					       .period = 10, .intr_thres = 3,
					       .buf_size = 256 + 1000 };
		struct pmu_sample_stats st = { .size = sizeof(st) };
		const pfm_pebs_p4_smpl_hdr_t *h;
		const unsigned char *rec;
		uint64_t ip;
		size_t size;

		print_message("row at line %d\n", rows[r].line);
		sample_open(s, &o);
		feed(s, "snapshot ip=0x401000 eax=7\n"
			"event 8 40 escr=0x3cc umask=1\n");
		h = pmu_session_buffer(s, &size);
		assert_non_null(h);
		assert_int_equal(size, 1256);
		rec = (const unsigned char *)(h + 1) + h->start_offs;
		if (rows[r].recsz == 40) {
			/* the 32-bit header: 104 bytes, DS area at 64 */
			const uint32_t *ds = (const void *)((const char *)h + 64);
			uint32_t so;

			/* u64 overflows, u32 buf_size, u32 start_offs */
			memcpy(&so, (const char *)h + 12, 4);
			rec = (const unsigned char *)h + 104 + so;
			assert_int_equal(ds[5] - ds[4], 3 * 40);
			assert_int_equal(*(const uint64_t *)(const void *)h, 1);
		} else {
			assert_int_equal(h->overflows, 1);
			assert_int_equal(h->ds.pebs_index - h->ds.pebs_buf_base,
					 3 * 144);
		}
		ip = 0;
		/* after (E|R)FLAGS: the linear IP, 4 or 8 bytes */
		if (rows[r].recsz == 40)
			memcpy(&ip, rec + 4, 4);
		else
			memcpy(&ip, rec + 8, 8);
		assert_int_equal(ip, 0x401000);
		assert_true(readable(pmu_session_fd(s)));
		assert_int_equal(pmu_session_sample_stats(s, &st), 0);
		assert_int_equal(st.samples, 3);
		assert_int_equal(st.full, 1);
		assert_int_equal(pmu_session_restart(s), 0);
		/* 33 more: records at 11, 22, 33 */
		feed(s, "event 8 33 escr=0x3cc umask=1\n");
		assert_int_equal(pmu_session_sample_stats(s, &st), 0);
		assert_int_equal(st.samples, 6);
		assert_int_equal(st.full, 2);
		pmu_session_free(s);
	}
}

/* AMD IBS through a session (fam10h): an IBS set-up samples on its
 * control PMD, every tag of the unit an entry whose values are the data
 * registers, filled from the stream's snapshot.  Fetch counts fetches
 * (a tag every MaxCnt << 4 = 256 of them), op without cnt_ctl cycles. */
static void test_ibs(void **state)
{
	const struct {
		int line;
		const char *ev, *stream;
		unsigned pmd, nvals, count;
		uint64_t vals[6];
	} rows[] = {
		{ __LINE__, "ibs_fetch:maxcnt=0x100",
		  "snapshot ip=0x401000 fetch_phys=0x7f000\nfetch 1000\n",
		  4, 2, 3, { 0x401000, 0x7f000 } },
		{ __LINE__, "fam10h::ibs_op:maxcnt=0x200",
		  "snapshot ip=0x402000 op_data1=5 op_data2=6 op_data3=7 "
		  "data=0x1234 phys=0x5678\ncycles 1100\n",
		  7, 6, 2, { 0x402000, 5, 6, 7, 0x1234, 0x5678 } },
	};

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct pmu_session *s = sim_session("fam10h", rows[r].ev);
		struct pmu_sampling_opts o = { .sz = sizeof(o),
					       .format = "ibs" };
		const struct pmu_sample_hdr *h;
		size_t idx[2];

		print_message("row at line %d\n", rows[r].line);
		sample_open(s, &o);
		feed(s, rows[r].stream);
		h = hdr_of(s);
		assert_int_equal(h->hdr_count, rows[r].count);
		assert_int_equal(pmu_session_sample_values(s, 0, idx, 2), 0);
		for (size_t k = 0; k < rows[r].count; k++) {
			const struct pmu_sample_entry *e =
				entry(h, k, rows[r].nvals);

			assert_int_equal(e->ovfl_pmd, rows[r].pmd);
			assert_int_equal(pmu_session_sample_event(s, e), 0);
			for (size_t j = 0; j < rows[r].nvals; j++)
				assert_int_equal(value(e, j), rows[r].vals[j]);
		}
		pmu_session_free(s);
	}
}

/* Event sets switched by time: each set's leaders sample while the set
 * counts, entries name their set.  P6, 1000-cycle turns, an instruction
 * then a cycle at a time: set 0 counts instructions [0,1000), set 1
 * [1000,2000), ...; each leader every 100 of its own. */
static void test_sets(void **state)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_session *s = sim_session("p6", "INST_RETIRED");
	struct pmu_switch_opts sw = { .sz = sizeof(sw),
				      .kind = PMU_SWITCH_TIME,
				      .timeout_ns = 1000 };
	struct pmu_sampling_opts o = { .sz = sizeof(o), .period = 100 };
	const struct pmu_sample_hdr *h;
	size_t off = HDR, idx[2];

	(void)state;
	assert_true(pmu_session_add_set(s, &err) == 1);
	assert_int_equal(pmu_session_add(s, "{INST_RETIRED,CPU_CLK_UNHALTED}",
					 &err), 0);
	assert_int_equal(pmu_session_set_switch(s, -1, &sw, &err), 0);
	sample_open(s, &o);
	feed_insns(s, 0x1000, 4000);
	h = hdr_of(s);
	assert_int_equal(h->hdr_count, 40);
	for (uint64_t k = 0; k < 40; k++) {
		const struct pmu_sample_entry *e = at_off(h, off);
		ssize_t ev = pmu_session_sample_event(s, e);
		uint64_t turn = k / 10, set = turn % 2;
		ssize_t nv;

		assert_int_equal(e->set, set);
		assert_int_equal(ev, set ? 1 : 0);
		nv = pmu_session_sample_values(s, (size_t)ev, idx, 2);
		assert_int_equal(nv, set);
		/* the set's cycles counter: its own turns only */
		if (set)
			assert_int_equal(value(e, 0),
					 turn / 2 * 1000 + (k % 10 + 1) * 100 - 1);
		off += 40 + 8 * (size_t)nv;
	}
	assert_int_equal(off, h->hdr_cur_offs);
	pmu_session_free(s);

	/* overflow switching would reset the counters samples come from */
	s = sim_session("p6", "INST_RETIRED");
	sw = (struct pmu_switch_opts){ .sz = sizeof(sw),
				       .kind = PMU_SWITCH_OVERFLOW,
				       .event = "INST_RETIRED", .period = 10,
				       .count = 1 };
	assert_true(pmu_session_add_set(s, &err) == 1);
	assert_int_equal(pmu_session_add(s, "CPU_CLK_UNHALTED", &err), 0);
	assert_int_equal(pmu_session_set_switch(s, -1, &sw, &err), 0);
	assert_int_equal(pmu_session_sample(s, &o, &err), 0);
	assert_int_equal(pmu_session_open(s, NULL, &err), -EOPNOTSUPP);
	assert_non_null(strstr(err.message, "by time only"));
	pmu_session_free(s);
}

/* IBS set-ups in event lists: what is wrong is named. */
static void test_ibs_parse(void **state)
{
	const struct {
		int line;
		const char *model, *ev, *token, *says;
	} rows[] = {
		{ __LINE__, "fam10h", "ibs_op", "ibs_op", "needs maxcnt" },
		{ __LINE__, "fam10h", "ibs_op:maxcnt=0x101", "ibs_op:maxcnt=0x101",
		  "multiple of 16" },
		{ __LINE__, "fam10h", "ibs_op:maxcnt=0x1000000",
		  "ibs_op:maxcnt=0x1000000", "out of range" },
		{ __LINE__, "fam10h", "ibs_fetch:maxcnt=16:cnt_ctl",
		  "ibs_fetch:maxcnt=16:cnt_ctl", "no setting 'cnt_ctl'" },
		{ __LINE__, "fam10h", "ibs_op:maxcnt=zz", "ibs_op:maxcnt=zz",
		  "takes a number" },
		{ __LINE__, "p6", "ibs_fetch:maxcnt=16", "ibs_fetch:maxcnt=16",
		  "no instruction-based sampling" },
	};

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct pmu_error err = { .size = sizeof(err) };
		struct pmu_session_opts so = { .sz = sizeof(so),
					       .driver = "sim",
					       .model = rows[r].model };
		struct pmu_session *s = pmu_session_new_opts(&so, &err);

		print_message("row at line %d\n", rows[r].line);
		assert_non_null(s);
		assert_true(pmu_session_add(s, rows[r].ev, &err) < 0);
		assert_string_equal(err.token, rows[r].token);
		if (!strstr(err.message, rows[r].says))
			fail_msg("'%s' does not say '%s'", err.message,
				 rows[r].says);
		pmu_session_free(s);
	}
}

static void test_errors(void **state)
{
	const struct {
		int line;
		const char *model, *ev;
		struct pmu_sampling_opts o;
		int at_sample, at_open;
		const char *says;
	} rows[] = {
		{ __LINE__, "p6", "INST_RETIRED",
		  { .sz = sizeof(struct pmu_sampling_opts), .format = "bogus" },
		  -EINVAL, 0, "bogus" },
		{ __LINE__, "p6", "INST_RETIRED",
		  { .sz = sizeof(struct pmu_sampling_opts), .freq = 1000 },
		  -EINVAL, 0, "freq" },
		{ __LINE__, "p6", "INST_RETIRED",
		  { .sz = sizeof(struct pmu_sampling_opts),
		    .extra = PMU_SAMPLE_CALLCHAIN },
		  -EINVAL, 0, "extra" },
		{ __LINE__, "p6", "INST_RETIRED",
		  { .sz = sizeof(struct pmu_sampling_opts), .period = 1,
		    .freq = 1 },
		  -EINVAL, 0, "not both" },
		{ __LINE__, "p6", "INST_RETIRED",
		  { .sz = sizeof(struct pmu_sampling_opts),
		    .format = "pebs32_p4" },
		  0, -EINVAL, "PEBS" },
		{ __LINE__, "p6", "INST_RETIRED",
		  { .sz = sizeof(struct pmu_sampling_opts), .format = "ibs" },
		  0, -EINVAL, "IBS" },
		{ __LINE__, "p6", "INST_RETIRED",
		  { .sz = sizeof(struct pmu_sampling_opts), .buf_size = 100 },
		  0, -EINVAL, "buf_size" },
		{ __LINE__, "fam10h", "{ibs_fetch:maxcnt=16,RETIRED_INSTRUCTIONS}",
		  { .sz = sizeof(struct pmu_sampling_opts), .format = "ibs" },
		  0, -EINVAL, "alone" },
		{ __LINE__, "p4", "netburst::front_end_event:NBOGUS,"
		  "netburst::execution_event:NBOGUS0",
		  { .sz = sizeof(struct pmu_sampling_opts),
		    .format = "pebs64_p4" },
		  0, -EINVAL, "one group" },
		{ __LINE__, "p4", "netburst::instr_retired:NBOGUSNTAG",
		  { .sz = sizeof(struct pmu_sampling_opts),
		    .format = "pebs32_p4" },
		  0, -EINVAL, "IQ_COUNTER4" },
	};

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct pmu_error err = { .size = sizeof(err) };
		struct pmu_session *s = sim_session(rows[r].model, rows[r].ev);
		int ret;

		print_message("row at line %d\n", rows[r].line);
		ret = pmu_session_sample(s, &rows[r].o, &err);
		assert_int_equal(ret, rows[r].at_sample);
		if (!ret) {
			ret = pmu_session_open(s, NULL, &err);
			assert_int_equal(ret, rows[r].at_open);
		}
		if (!strstr(err.message, rows[r].says))
			fail_msg("'%s' does not say '%s'", err.message,
				 rows[r].says);
		pmu_session_free(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_exact),
		cmocka_unit_test(test_full_restart_long),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_sigio),
		cmocka_unit_test(test_pebs),
		cmocka_unit_test(test_ibs),
		cmocka_unit_test(test_ibs_parse),
		cmocka_unit_test(test_sets),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
