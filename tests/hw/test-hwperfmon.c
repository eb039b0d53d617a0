/* SPDX-License-Identifier: MIT */
/*
 * perfmon2 on this machine's PMU, through real overflow interrupts: a
 * monitoring context on the perf driver (pfm_create with the host's
 * counters as PMC/PMD pairs) sampling in perfmon2's default format with
 * notifications, and a session sampling into the same format
 * (pmu_session_sample).  The work is a loop of known length: 2
 * instructions an iteration, and under QEMU's -icount a cycle each, so
 * that every count is known; on a real PMU the cycles are whatever they
 * are and the checks use what was counted.  Skips, saying why, without
 * a PMU whose event selects the perf driver knows.
 */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "hwloop.h"

#include <pmu/perfmon.h>
#include <pmu/pmu.h>

#define PERIOD 1000000
#define N 20000000ul          /* iterations: 2N instructions */
#define ENTRIES 4             /* entries the buffer holds, then notifies */


/* Event selects of the host's counting of user-mode cycles and
 * instructions, enabled (EN), with the interrupt the model forces. */
struct host_sel {
	uint64_t cycles, insns;
	const char *why_not;
};

static struct host_sel host_sel(const pfarg_sinfo_t *sif)
{
	struct host_sel h = { 0 };

	(void)sif;
#if defined(__aarch64__)
	/* PMEVTYPER: event, P (bit 31: not at EL1); EN at bit 22 */
	h.cycles = 0x11 | 1ull << 31 | 1ull << 22;
	h.insns = 0x08 | 1ull << 31 | 1ull << 22;
#elif defined(__x86_64__)
	/* PERFEVTSEL: event 0x76 (AMD) / 0x3c (Intel), USR, EN */
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	bool amd = false;

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "AuthenticAMD"))
			amd = true;
	if (f)
		fclose(f);
	h.cycles = (amd ? 0x76 : 0x3c) | 1ull << 16 | 1ull << 22;
	h.insns = 0xc0 | 1ull << 16 | 1ull << 22;
#else
	h.why_not = "the perf driver's monitoring contexts know x86-64 and "
		    "arm64 event selects";
#endif
	return h;
}

static char why_skip[512];

static int probe(void **state)
{
	pfarg_sinfo_t sif;
	int fd;

	(void)state;
	if (pmu_perfmon_use("perf", NULL)) {
		snprintf(why_skip, sizeof(why_skip), "%s",
			 pmu_perfmon_error()->message);
		return 0;
	}
	fd = pfm_create(0, &sif);
	if (fd < 0) {
		snprintf(why_skip, sizeof(why_skip), "no monitoring context "
			 "on this machine's PMU: %.400s",
			 pmu_perfmon_error()->message);
		return 0;
	}
	close(fd);
	if (__builtin_popcountll(sif.sif_avail_pmds[0]) < 2)
		snprintf(why_skip, sizeof(why_skip), "the host's logical PMU "
			 "has fewer than 2 counters");
	return 0;
}

#define NEED() do { if (why_skip[0]) { \
	print_message("# skipped: %s\n", why_skip); skip(); } } while (0)

struct walk {
	uint64_t n, last_ip, last_insns, min_gap, max_gap;
};

/* The default format's entries: 40 bytes, then the smpl_pmds' values
 * (here one: the instructions at the sample). */
static void walk(const pfm_dfl_smpl_hdr_t *hdr, struct walk *w)
{
	const char *p = (const char *)(hdr + 1);

	for (uint64_t i = 0; i < hdr->hdr_count; i++) {
		const pfm_dfl_smpl_entry_t *e = (const void *)p;
		uint64_t insns;

		memcpy(&insns, e + 1, sizeof(insns));
		assert_int_equal(e->ovfl_pmd, 0);
		assert_int_equal(e->tgid, getpid());
		if (w->n) {
			uint64_t gap = insns - w->last_insns;

			if (!w->min_gap || gap < w->min_gap)
				w->min_gap = gap;
			if (gap > w->max_gap)
				w->max_gap = gap;
		}
		w->last_insns = insns;
		w->last_ip = e->ip;
		w->n++;
		p += sizeof(*e) + sizeof(uint64_t);
	}
}

/* PMC0 counts user cycles and overflows every PERIOD, sampling PMD1's
 * user instructions into the buffer; each time the buffer fills, a
 * notification, a walk of the entries, a restart. */
static void test_default_format(void **state)
{
	pfarg_sinfo_t sif;
	pfm_dfl_smpl_arg_t arg = { 0 };
	pfarg_pmr_t pc[2] = { { 0 } };
	pfarg_pmd_attr_t pd[2] = { { 0 } };
	pfm_dfl_smpl_hdr_t *hdr;
	struct host_sel hs;
	struct walk w = { 0 };
	uint64_t notes = 0, npmds;
	int fd;

	(void)state;
	NEED();
	assert_true((fd = pfm_create(0, &sif)) >= 0);
	close(fd);
	hs = host_sel(&sif);
	if (hs.why_not) {
		print_message("# skipped: %s\n", hs.why_not);
		skip();
	}
	npmds = (uint64_t)__builtin_popcountll(sif.sif_avail_pmds[0]);
	arg.buf_size = sizeof(pfm_dfl_smpl_hdr_t) +
		       ENTRIES * (sizeof(pfm_dfl_smpl_entry_t) + 8) +
		       sizeof(pfm_dfl_smpl_entry_t) + 8 * npmds - 1;
	fd = pfm_create(PFM_FL_SMPL_FMT, NULL, PFM_DFL_SMPL_NAME, &arg,
			sizeof(arg));
	if (fd < 0)
		fail_msg("pfm_create: %s", pmu_perfmon_error()->message);
	hdr = mmap(NULL, arg.buf_size, PROT_READ, MAP_PRIVATE, fd, 0);
	assert_true(hdr != MAP_FAILED);
	pc[0].reg_num = 0;
	pc[0].reg_value = hs.cycles;
	pc[1].reg_num = 1;
	pc[1].reg_value = hs.insns;
	pd[0].reg_num = 0;
	pd[0].reg_value = pd[0].reg_long_reset = pd[0].reg_short_reset =
		(uint64_t)-PERIOD;
	pd[0].reg_flags = PFM_REGFL_OVFL_NOTIFY;
	pd[0].reg_smpl_pmds[0] = 1u << 1;
	pd[1].reg_num = 1;
	if (pfm_write(fd, 0, PFM_RW_PMC, pc, sizeof(pc)) ||
	    pfm_write(fd, 0, PFM_RW_PMD_ATTR, pd, sizeof(pd)) ||
	    pfm_attach(fd, 0, gettid()) || pfm_set_state(fd, 0, PFM_ST_START))
		fail_msg("programming the context: %s",
			 pmu_perfmon_error()->message);
	for (int chunk = 0; chunk < 40; chunk++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		pfarg_msg_t msg;

		hw_loop(N / 40);
		/* the monitor thread takes the interrupts: give it time */
		if (poll(&p, 1, 50) != 1)
			continue;
		assert_int_equal(read(fd, &msg, sizeof(msg)), sizeof(msg));
		assert_int_equal(msg.type, PFM_MSG_OVFL);
		assert_int_equal(msg.pfm_ovfl_msg.msg_ovfl_pmds[0], 1);
		notes++;
		walk(hdr, &w);
		assert_int_equal(pfm_set_state(fd, 0, PFM_ST_RESTART), 0);
	}
	assert_int_equal(pfm_set_state(fd, 0, PFM_ST_STOP), 0);
	walk(hdr, &w);
	{
		pfarg_pmd_attr_t r[2] = { { .reg_num = 0 }, { .reg_num = 1 } };

		assert_int_equal(pfm_read(fd, 0, PFM_RW_PMD_ATTR, r, sizeof(r)),
				 0);
		print_message("# %llu samples, %llu notifications, "
			      "instructions between samples %llu..%llu, "
			      "PMD1 %llu\n", (unsigned long long)w.n,
			      (unsigned long long)notes,
			      (unsigned long long)w.min_gap,
			      (unsigned long long)w.max_gap,
			      (unsigned long long)r[1].reg_value);
		/* the user instructions: the loop's, and the little
		 * around it that ran with the counters on */
		assert_true(r[1].reg_value >= 2 * N);
		assert_true(r[1].reg_value < 2 * N + N / 10);
	}
	/* a sample every PERIOD cycles, the loop's 2N cycles or more: at
	 * least 2N / PERIOD - 1 of them, all within the loop's function */
	assert_true(w.n >= 2 * N / PERIOD - 1);
	assert_true(notes >= w.n / (ENTRIES + 1) - 1);
	assert_true(notes > 0);
	munmap(hdr, arg.buf_size);
	close(fd);
}

/* A session sampling on this PMU: every PERIOD user cycles an entry in
 * the default format, with the group's instructions as its value. */
static void test_session_sample(void **state)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_sampling_opts o = { .sz = sizeof(o), .period = PERIOD,
				       .buf_size = 1 << 20 };
	struct pmu_sample_stats st = { .size = sizeof(st) };
	const struct pmu_sample_hdr *h;
	struct pmu_session *s;
	size_t size = 0;

	(void)state;
	NEED();
	s = pmu_session_new(&err);
	assert_non_null(s);
	assert_int_equal(pmu_session_add(s, "{cycles:u,instructions:u}", &err),
			 0);
	if (pmu_session_sample(s, &o, &err) ||
	    pmu_session_open(s, NULL, &err))
		fail_msg("sampling session: %s", err.message);
	h = pmu_session_buffer(s, &size);
	assert_non_null(h);
	assert_int_equal(pmu_session_start(s), 0);
	hw_loop(N);
	assert_int_equal(pmu_session_stop(s), 0);
	pmu_session_sample_poll(s, 0);
	assert_int_equal(pmu_session_sample_stats(s, &st), 0);
	print_message("# session: %llu samples, %llu lost, %llu entries\n",
		      (unsigned long long)st.samples,
		      (unsigned long long)st.lost,
		      (unsigned long long)h->hdr_count);
	assert_true(st.samples >= 2 * N / PERIOD - 1);
	assert_int_equal(st.lost, 0);
	assert_int_equal(h->hdr_count, st.samples);
	pmu_session_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_format),
		cmocka_unit_test(test_session_sample),
	};

	return cmocka_run_group_tests(tests, probe, NULL);
}
