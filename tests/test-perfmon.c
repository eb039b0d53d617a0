/* SPDX-License-Identifier: MIT */
/*
 * pmu/perfmon.h as a perfmon2 program sees it: the seed's struct
 * layouts, the argument errors of every call, the descriptor (poll,
 * read, SIGIO, mmap, close), the pid/tid fill-in of messages and
 * samples from a second thread, random resets within their mask,
 * contexts not inherited by fork, attaching another process under
 * ptrace (and its end message), zombie contexts, system-wide contexts
 * and the P4 PEBS header.  The exact counting rules are in the
 * scenarios (tests/scenarios, tests/cli/scenarios.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include <pmu/perfmon.h>

#define P6_INST 0x4300c0u   /* EVNTSEL: INST_RETIRED, USR|OS, EN */

static int setup(void **state)
{
	(void)state;
	return pmu_perfmon_use("sim", "p6");
}

static void feed(int fd, const char *text)
{
	assert_int_equal(pmu_perfmon_feed(fd, text, strlen(text)), 0);
}

/* A self-attached P6 context sampling every `period` instructions in
 * PMD 0 (notifying), with the default format of `bufsz` bytes when
 * bufsz > 0. */
static int sampling_ctx(uint64_t period, size_t bufsz, uint32_t pmd_flags,
			uint64_t random_mask)
{
	pfm_dfl_smpl_arg_t arg = { .buf_size = bufsz };
	pfarg_pmr_t pc = { .reg_num = 0, .reg_value = P6_INST };
	pfarg_pmd_attr_t pd;
	int fd = bufsz ? pfm_create(PFM_FL_SMPL_FMT, NULL, "default", &arg,
				    sizeof(arg))
		       : pfm_create(0, NULL);

	assert_true(fd >= 0);
	memset(&pd, 0, sizeof(pd));
	pd.reg_value = pd.reg_short_reset = pd.reg_long_reset = 0 - period;
	pd.reg_flags = pmd_flags;
	pd.reg_random_mask = random_mask;
	assert_int_equal(pfm_write(fd, 0, PFM_RW_PMC, &pc, sizeof(pc)), 0);
	assert_int_equal(pfm_write(fd, 0, PFM_RW_PMD_ATTR, &pd, sizeof(pd)), 0);
	assert_int_equal(pfm_attach(fd, 0, gettid()), 0);
	assert_int_equal(pfm_set_state(fd, 0, PFM_ST_START), 0);
	return fd;
}

static void test_layout(void **state)
{
	static const struct { int line; size_t got, want; } rows[] = {
		{ __LINE__, sizeof(pfarg_sinfo_t), 112 },
		{ __LINE__, sizeof(pfarg_pmr_t), 16 },
		{ __LINE__, offsetof(pfarg_pmr_t, reg_set), 2 },
		{ __LINE__, offsetof(pfarg_pmr_t, reg_flags), 4 },
		{ __LINE__, offsetof(pfarg_pmr_t, reg_value), 8 },
		{ __LINE__, sizeof(pfarg_pmd_attr_t), 208 },
		{ __LINE__, offsetof(pfarg_pmd_attr_t, reg_long_reset), 16 },
		{ __LINE__, offsetof(pfarg_pmd_attr_t, reg_short_reset), 24 },
		{ __LINE__, offsetof(pfarg_pmd_attr_t, reg_random_mask), 32 },
		{ __LINE__, offsetof(pfarg_pmd_attr_t, reg_smpl_pmds), 40 },
		{ __LINE__, offsetof(pfarg_pmd_attr_t, reg_reset_pmds), 80 },
		{ __LINE__, offsetof(pfarg_pmd_attr_t, reg_ovfl_swcnt), 120 },
		{ __LINE__, offsetof(pfarg_pmd_attr_t, reg_smpl_eventid), 128 },
		{ __LINE__, offsetof(pfarg_pmd_attr_t, reg_last_value), 136 },
		{ __LINE__, offsetof(pfarg_pmd_attr_t, reg_reserved), 144 },
		{ __LINE__, sizeof(pfarg_set_desc_t), 64 },
		{ __LINE__, offsetof(pfarg_set_desc_t, set_flags), 4 },
		{ __LINE__, offsetof(pfarg_set_desc_t, set_timeout), 8 },
		{ __LINE__, sizeof(pfarg_set_info_t), 104 },
		{ __LINE__, offsetof(pfarg_set_info_t, set_ovfl_pmds), 8 },
		{ __LINE__, offsetof(pfarg_set_info_t, set_runs), 48 },
		{ __LINE__, offsetof(pfarg_set_info_t, set_timeout), 56 },
		{ __LINE__, offsetof(pfarg_set_info_t, set_duration), 64 },
		{ __LINE__, sizeof(pfarg_ovfl_msg_t), 64 },
		{ __LINE__, offsetof(pfarg_ovfl_msg_t, msg_ovfl_pid), 4 },
		{ __LINE__, offsetof(pfarg_ovfl_msg_t, msg_active_set), 8 },
		{ __LINE__, offsetof(pfarg_ovfl_msg_t, msg_ovfl_cpu), 10 },
		{ __LINE__, offsetof(pfarg_ovfl_msg_t, msg_ovfl_tid), 12 },
		{ __LINE__, offsetof(pfarg_ovfl_msg_t, msg_ovfl_ip), 16 },
		{ __LINE__, offsetof(pfarg_ovfl_msg_t, msg_ovfl_pmds), 24 },
		{ __LINE__, sizeof(pfarg_msg_t), 64 },
		{ __LINE__, sizeof(pfm_dfl_smpl_arg_t), 64 },
		{ __LINE__, sizeof(pfm_dfl_smpl_hdr_t), 128 },
		{ __LINE__, offsetof(pfm_dfl_smpl_hdr_t, hdr_version), 40 },
		{ __LINE__, offsetof(pfm_dfl_smpl_hdr_t, hdr_buf_flags), 44 },
		{ __LINE__, sizeof(pfm_dfl_smpl_entry_t), 40 },
		{ __LINE__, offsetof(pfm_dfl_smpl_entry_t, ovfl_pmd), 4 },
		{ __LINE__, offsetof(pfm_dfl_smpl_entry_t, last_reset_val), 8 },
		{ __LINE__, offsetof(pfm_dfl_smpl_entry_t, ip), 16 },
		{ __LINE__, offsetof(pfm_dfl_smpl_entry_t, tstamp), 24 },
		{ __LINE__, offsetof(pfm_dfl_smpl_entry_t, cpu), 32 },
		{ __LINE__, offsetof(pfm_dfl_smpl_entry_t, set), 34 },
		{ __LINE__, offsetof(pfm_dfl_smpl_entry_t, tgid), 36 },
		{ __LINE__, sizeof(pfm_pebs_p4_smpl_hdr_t), 144 },
		{ __LINE__, offsetof(pfm_pebs_p4_smpl_hdr_t, ds), 72 },
		{ __LINE__, offsetof(pfm_ds_area_p4_t, pebs_cnt_reset), 64 },
		{ __LINE__, PFM_FL_NOTIFY_BLOCK, 0x01 },
		{ __LINE__, PFM_FL_SYSTEM_WIDE, 0x02 },
		{ __LINE__, PFM_FL_SMPL_FMT, 0x04 },
		{ __LINE__, PFM_FL_OVFL_NO_MSG, 0x80 },
		{ __LINE__, PFM_RW_PMD, 1 }, { __LINE__, PFM_RW_PMC, 2 },
		{ __LINE__, PFM_RW_PMD_ATTR, 3 },
		{ __LINE__, PFM_REGFL_OVFL_NOTIFY, 1 },
		{ __LINE__, PFM_REGFL_RANDOM, 2 },
		{ __LINE__, PFM_REGFL_NO_EMUL64, 4 },
		{ __LINE__, PFM_SETFL_OVFL_SWITCH, 1 },
		{ __LINE__, PFM_SETFL_TIME_SWITCH, 2 },
		{ __LINE__, PFM_ST_START, 1 }, { __LINE__, PFM_ST_STOP, 2 },
		{ __LINE__, PFM_ST_RESTART, 3 },
		{ __LINE__, PFM_MSG_OVFL, 1 }, { __LINE__, PFM_MSG_END, 2 },
		{ __LINE__, PFM_VERSION_MAJOR(0x20003), 2 },
		{ __LINE__, PFM_VERSION_MINOR(0x20003), 3 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(*rows); i++)
		if (rows[i].got != rows[i].want)
			fail_msg("line %d: %zu, want %zu", rows[i].line,
				 rows[i].got, rows[i].want);
}

#define EXPECT_ERR(call, e) do { \
	errno = 0; \
	assert_int_equal((call), -1); \
	assert_int_equal(errno, (e)); \
	assert_true(pmu_perfmon_error()->message[0] != '\0'); \
} while (0)

static void test_call_errors(void **state)
{
	pfarg_pmr_t pc[2] = { { .reg_num = 0 }, { .reg_num = 1 } };
	pfarg_set_desc_t sd = { .set_id = 1 };
	pfarg_set_info_t si = { .set_id = 0 };
	pfm_dfl_smpl_arg_t arg = { .buf_size = 4096 };
	int p[2], fd = pfm_create(0, NULL);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(pipe(p), 0);
	EXPECT_ERR(pfm_write(fd, 1, PFM_RW_PMC, pc, sizeof(pc)), EINVAL);
	EXPECT_ERR(pfm_write(fd, 0, PFM_RW_PMC, pc, sizeof(pc) - 1), EINVAL);
	EXPECT_ERR(pfm_write(fd, 0, 9, pc, sizeof(pc)), EINVAL);
	EXPECT_ERR(pfm_write(fd, 0, PFM_RW_PMC, NULL, sizeof(pc)), EFAULT);
	/* PMD_ATTR records are 208 bytes: 2 pmr records are not one */
	EXPECT_ERR(pfm_write(fd, 0, PFM_RW_PMD_ATTR, pc, sizeof(pc)), EINVAL);
	EXPECT_ERR(pfm_read(fd, 2, PFM_RW_PMD, pc, sizeof(pc)), EINVAL);
	EXPECT_ERR(pfm_write(p[0], 0, PFM_RW_PMC, pc, sizeof(pc)), EBADF);
	EXPECT_ERR(pfm_write(-1, 0, PFM_RW_PMC, pc, sizeof(pc)), EBADF);
	EXPECT_ERR(pfm_attach(fd, 1, gettid()), EINVAL);
	EXPECT_ERR(pfm_set_state(fd, 1, PFM_ST_START), EINVAL);
	EXPECT_ERR(pfm_set_state(fd, 0, 7), EINVAL);
	EXPECT_ERR(pfm_create_sets(fd, 1, &sd, sizeof(sd)), EINVAL);
	EXPECT_ERR(pfm_create_sets(fd, 0, &sd, sizeof(sd) + 8), EINVAL);
	EXPECT_ERR(pfm_getinfo_sets(fd, 0, &si, sizeof(si) - 1), EINVAL);
	EXPECT_ERR(pfm_getinfo_sets(p[1], 0, &si, sizeof(si)), EBADF);
	EXPECT_ERR(pfm_create(0x100, NULL), EINVAL);
	EXPECT_ERR(pfm_create(PFM_FL_SMPL_FMT, NULL, "default", &arg,
			      sizeof(arg) - 8), EINVAL);
	EXPECT_ERR(pfm_create(PFM_FL_SMPL_FMT, NULL, NULL, &arg, sizeof(arg)),
		   EINVAL);
	EXPECT_ERR(pfm_create(PFM_FL_SMPL_FMT, NULL, "default", NULL,
			      sizeof(arg)), EINVAL);
	/* the error names what was wrong */
	EXPECT_ERR(pfm_create(PFM_FL_SMPL_FMT, NULL, "nosuch", &arg,
			      sizeof(arg)), EINVAL);
	assert_string_equal(pmu_perfmon_error()->token, "nosuch");
	/* mmap of a context without a buffer */
	errno = 0;
	assert_ptr_equal(mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0),
			 MAP_FAILED);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(close(fd), 0);
	/* closed: the descriptor is no context any more */
	EXPECT_ERR(pfm_set_state(fd, 0, PFM_ST_START), EBADF);
	close(p[0]);
	close(p[1]);
}

static void test_use(void **state)
{
	struct stat st;

	(void)state;
	EXPECT_ERR(pmu_perfmon_use("sim", "p99"), ENOENT);
	EXPECT_ERR(pmu_perfmon_use("nosuch", NULL), ENOENT);
	assert_int_equal(pmu_perfmon_use("perf", NULL), 0);
	/* this machine's PMU through perf: where perf has none, the error
	 * says so and how to choose a simulated one (contexts on a real
	 * PMU are tests/test-perfmon-perf.c's) */
	if (stat("/sys/bus/event_source/devices/cpu", &st)) {
		EXPECT_ERR(pfm_create(0, NULL), ENODEV);
		assert_non_null(strstr(pmu_perfmon_error()->message,
				       "no hardware PMU"));
		assert_non_null(strstr(pmu_perfmon_error()->message,
				       "pmu_perfmon_use"));
	}
	assert_int_equal(pmu_perfmon_use("sim", "k8"), 0);
	{
		struct pmu_perfmon_info in = { .size = sizeof(in) };
		pfarg_sinfo_t sif;
		int fd = pfm_create(0, &sif);

		assert_true(fd >= 0);
		assert_int_equal(pmu_perfmon_info(fd, &in), 0);
		assert_string_equal(in.model, "k8");
		assert_int_equal(in.width, 47);
		/* K8: PERFSEL0-3, PERFCTR0-3 */
		assert_int_equal(sif.sif_avail_pmcs[0], 0xf);
		assert_int_equal(sif.sif_avail_pmds[0], 0xf);
		assert_int_equal(sif.sif_avail_pmds[1], 0);
		close(fd);
	}
	assert_int_equal(pmu_perfmon_use("sim", "p6"), 0);
}

static void test_mmap(void **state)
{
	int fd = sampling_ctx(100, 8192, PFM_REGFL_OVFL_NOTIFY, 0);
	const pfm_dfl_smpl_hdr_t *h;

	(void)state;
	errno = 0;
	assert_ptr_equal(mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED,
			      fd, 0), MAP_FAILED);
	assert_int_equal(errno, EACCES);
	assert_ptr_equal(mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 4096),
			 MAP_FAILED);
	assert_int_equal(errno, EINVAL);
	assert_ptr_equal(mmap(NULL, 3 * 4096, PROT_READ, MAP_SHARED, fd, 0),
			 MAP_FAILED);
	assert_int_equal(errno, EINVAL);
	h = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE, fd, 0);
	assert_true(h != MAP_FAILED);
	assert_int_equal(h->hdr_version, PFM_DFL_SMPL_VERSION);
	assert_int_equal(h->hdr_buf_size, 8192);
	assert_int_equal(h->hdr_count, 0);
	/* zero-copy: what the context writes later shows in the mapping */
	feed(fd, "event 0xc0 250\n");
	assert_int_equal(h->hdr_count, 2);
	munmap((void *)h, 8192);
	close(fd);
}

static void test_poll_read(void **state)
{
	int fd = sampling_ctx(100, 0, PFM_REGFL_OVFL_NOTIFY, 0);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	pfarg_msg_t m;

	(void)state;
	assert_int_equal(poll(&p, 1, 0), 0);
	feed(fd, "ip 0x4000\nevent 0xc0 100\n");
	assert_int_equal(poll(&p, 1, 0), 1);
	assert_true(p.revents & POLLIN);
	assert_int_equal(read(fd, &m, sizeof(m)), sizeof(m));
	assert_int_equal(m.type, PFM_MSG_OVFL);
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_pmds[0], 1);
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_ip, 0x4000);
	assert_int_equal(poll(&p, 1, 0), 0);
	fcntl(fd, F_SETFL, O_NONBLOCK);
	assert_int_equal(read(fd, &m, sizeof(m)), -1);
	assert_int_equal(errno, EAGAIN);
	close(fd);
}

static volatile sig_atomic_t sigio_seen;

static void on_sigio(int sig)
{
	(void)sig;
	sigio_seen++;
}

static void test_sigio(void **state)
{
	int fd = sampling_ctx(100, 0, PFM_REGFL_OVFL_NOTIFY, 0);
	struct sigaction sa = { .sa_handler = on_sigio }, old;

	(void)state;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGIO, &sa, &old), 0);
	assert_int_equal(fcntl(fd, F_SETOWN, getpid()), 0);
	assert_int_equal(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC), 0);
	sigio_seen = 0;
	feed(fd, "event 0xc0 99\n");
	assert_int_equal(sigio_seen, 0);
	feed(fd, "event 0xc0 1\n");
	for (int i = 0; i < 1000 && !sigio_seen; i++)
		usleep(1000);
	assert_int_equal(sigio_seen, 1);
	sigaction(SIGIO, &old, NULL);
	close(fd);
}

/* perfmon2 fills msg_ovfl_pid with the thread id and msg_ovfl_tid with
 * the process id; sample entries have pid = thread, tgid = process.
 * Only a thread that is not the main one tells them apart. */
struct who {
	pid_t tid;
	pfarg_msg_t m;
	pfm_dfl_smpl_entry_t e;
};

static void *monitored_thread(void *arg)
{
	struct who *w = arg;
	int fd = sampling_ctx(100, 4096, PFM_REGFL_OVFL_NOTIFY, 0);
	const char *h;

	w->tid = gettid();
	h = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	feed(fd, "event 0xc0 100\n");
	/* the default format resets and continues: no message; stop and
	 * look at the entry, then fill the buffer to get one */
	memcpy(&w->e, h + sizeof(pfm_dfl_smpl_hdr_t), sizeof(w->e));
	munmap((void *)h, 4096);
	close(fd);
	fd = sampling_ctx(100, 0, PFM_REGFL_OVFL_NOTIFY, 0);
	feed(fd, "event 0xc0 100\n");
	if (read(fd, &w->m, sizeof(w->m)) != sizeof(w->m))
		w->m.type = 0;
	close(fd);
	return NULL;
}

static void test_pid_tid(void **state)
{
	struct who w;
	pthread_t t;

	(void)state;
	memset(&w, 0, sizeof(w));
	assert_int_equal(pthread_create(&t, NULL, monitored_thread, &w), 0);
	pthread_join(t, NULL);
	assert_true(w.tid != getpid());
	assert_int_equal(w.m.type, PFM_MSG_OVFL);
	assert_int_equal(w.m.pfm_ovfl_msg.msg_ovfl_pid, w.tid);
	assert_int_equal(w.m.pfm_ovfl_msg.msg_ovfl_tid, getpid());
	assert_int_equal(w.e.pid, w.tid);
	assert_int_equal(w.e.tgid, getpid());
}

static void test_random_reset(void **state)
{
	const uint64_t period = 1000, mask = 0xff;
	int fd = sampling_ctx(period, 1 << 16, PFM_REGFL_RANDOM, mask);
	const pfm_dfl_smpl_hdr_t *h = mmap(NULL, 1 << 16, PROT_READ,
					   MAP_SHARED, fd, 0);
	const pfm_dfl_smpl_entry_t *e;
	uint64_t seen_low = 0, seen_high = 0, distinct = 0, prev = 0;

	(void)state;
	assert_true(h != MAP_FAILED);
	feed(fd, "event 0xc0 300000\n");
	assert_true(h->hdr_count > 200);
	e = (const void *)(h + 1);
	for (uint64_t i = 1; i < h->hdr_count; i++) {
		/* entry i saw the reset done after entry i-1 */
		uint64_t v = e[i].last_reset_val;
		uint64_t below = (0 - period) - v;

		if (below > mask)
			fail_msg("entry %llu: reset %llu below -%llu by %llu",
				 (unsigned long long)i, (unsigned long long)v,
				 (unsigned long long)period,
				 (unsigned long long)below);
		seen_low |= below < 0x40;
		seen_high |= below >= 0xc0;
		distinct += v != prev;
		prev = v;
	}
	assert_true(seen_low && seen_high);
	assert_true(distinct > 100);
	munmap((void *)h, 1 << 16);
	close(fd);
}

static void test_fork_not_inherited(void **state)
{
	int fd = sampling_ctx(100, 0, 0, 0);
	pid_t pid;
	int st;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		pfarg_pmr_t r = { .reg_num = 0 };
		int ok = pfm_read(fd, 0, PFM_RW_PMD, &r, sizeof(r)) == -1 &&
			 errno == EBADF;
		int fd2 = pfm_create(0, NULL);

		_exit(ok && fd2 >= 0 ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	close(fd);
}

/* A child stopped under this process's ptrace. */
static pid_t stopped_child(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		for (;;)
			pause();
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &st, WUNTRACED), pid);
	assert_true(WIFSTOPPED(st));
	return pid;
}

static bool wait_readable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1;
}

static void test_other_process(void **state)
{
	pfarg_pmr_t pc = { .reg_num = 0, .reg_value = P6_INST };
	pfarg_pmr_t pd = { .reg_num = 0 };
	struct pmu_perfmon_info in = { .size = sizeof(in) };
	pid_t pid = fork();
	pfarg_msg_t m;
	int fd, st;

	(void)state;
	/* a child this process does not trace cannot be attached */
	if (pid == 0) {
		pause();
		_exit(0);
	}
	fd = pfm_create(0, NULL);
	EXPECT_ERR(pfm_attach(fd, 0, pid), EBUSY);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	EXPECT_ERR(pfm_attach(fd, 0, pid), ESRCH);
	EXPECT_ERR(pfm_create(PFM_FL_NOTIFY_BLOCK | PFM_FL_SYSTEM_WIDE, NULL),
		   EINVAL);

	pid = stopped_child();
	assert_int_equal(pfm_attach(fd, 0, pid), 0);
	assert_int_equal(pfm_write(fd, 0, PFM_RW_PMC, &pc, sizeof(pc)), 0);
	assert_int_equal(pfm_write(fd, 0, PFM_RW_PMD, &pd, sizeof(pd)), 0);
	assert_int_equal(pfm_set_state(fd, 0, PFM_ST_START), 0);
	feed(fd, "event 0xc0 42\n");
	/* running again, it may not be looked at */
	assert_int_equal(ptrace(PTRACE_CONT, pid, NULL, NULL), 0);
	for (int i = 0; i < 2000; i++) {
		if (pfm_read(fd, 0, PFM_RW_PMD, &pd, sizeof(pd)) == -1)
			break;
		usleep(1000);
	}
	assert_int_equal(errno, EBUSY);
	assert_false(wait_readable(fd, 0));
	/* its end: a PFM_MSG_END, the context detached */
	kill(pid, SIGKILL);
	assert_true(wait_readable(fd, 10000));
	assert_int_equal(read(fd, &m, sizeof(m)), sizeof(m));
	assert_int_equal(m.type, PFM_MSG_END);
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_pid, 0);
	assert_int_equal(pmu_perfmon_info(fd, &in), 0);
	assert_int_equal(in.state, 1);
	/* the counts stay readable */
	assert_int_equal(pfm_read(fd, 0, PFM_RW_PMD, &pd, sizeof(pd)), 0);
	assert_int_equal(pd.reg_value, 42);
	waitpid(pid, &st, 0);
	close(fd);
}

static void test_zombie(void **state)
{
	struct pmu_perfmon_info in = { .size = sizeof(in) };
	pfarg_pmr_t pd = { .reg_num = 0 };
	pid_t pid = stopped_child();
	int fd = pfm_create(0, NULL), dup_fd, st;

	(void)state;
	assert_int_equal(pfm_write(fd, 0, PFM_RW_PMD, &pd, sizeof(pd)), 0);
	assert_int_equal(pfm_attach(fd, 0, pid), 0);
	dup_fd = dup(fd);
	assert_int_equal(close(fd), 0);
	assert_int_equal(pmu_perfmon_info(dup_fd, &in), 0);
	assert_int_equal(in.state, 4);
	EXPECT_ERR(pfm_read(dup_fd, 0, PFM_RW_PMD, &pd, sizeof(pd)), EINVAL);
	EXPECT_ERR(pfm_set_state(dup_fd, 0, PFM_ST_START), EINVAL);
	EXPECT_ERR(pfm_attach(dup_fd, 0, PFM_NO_TARGET), EINVAL);
	/* the thread's end frees it */
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	for (int i = 0; i < 5000 && pmu_perfmon_info(dup_fd, &in) == 0; i++)
		usleep(1000);
	EXPECT_ERR(pmu_perfmon_info(dup_fd, &in), EBADF);
	close(dup_fd);
}

static void test_system_wide(void **state)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t old, one;
	int fd = pfm_create(PFM_FL_SYSTEM_WIDE, NULL);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(sched_getaffinity(0, sizeof(old), &old), 0);
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		skip();
	EXPECT_ERR(pfm_attach(fd, 0, 100000), EINVAL);
	if (ncpu > 1)
		EXPECT_ERR(pfm_attach(fd, 0, 1), EINVAL);
	assert_int_equal(pfm_attach(fd, 0, 0), 0);
	sched_setaffinity(0, sizeof(old), &old);
	close(fd);
	/* blocking notification is not for self-monitoring */
	fd = pfm_create(PFM_FL_NOTIFY_BLOCK, NULL);
	assert_true(fd >= 0);
	EXPECT_ERR(pfm_attach(fd, 0, gettid()), EINVAL);
	close(fd);
}

/* ---- blocking notification ---- */

/* A thread of this process that the main thread monitors: it gives its
 * thread id, waits for a word ('f': feed `stream`, 'q': end), records
 * what the feed returned, says so and stays until told 'q' (so that
 * its context stays attached).  No cmocka assertion runs on it. */
struct fed_thread {
	pthread_t t;
	int fd;
	const char *stream;
	int to_main[2], to_thread[2];
	pid_t tid;
	int rc, err;
	atomic_bool done;
};

static void *fed_main(void *arg)
{
	struct fed_thread *f = arg;
	pid_t tid = gettid();
	char word = 0;

	f->rc = -2;
	if (write(f->to_main[1], &tid, sizeof(tid)) == sizeof(tid) &&
	    read(f->to_thread[0], &word, 1) == 1 && word == 'f') {
		f->rc = pmu_perfmon_feed(f->fd, f->stream, strlen(f->stream));
		f->err = errno;
		atomic_store(&f->done, true);
		if (write(f->to_main[1], "d", 1) == 1)
			(void)!read(f->to_thread[0], &word, 1);
	}
	atomic_store(&f->done, true);
	return NULL;
}

/* PMD 0 notifies every 100 instructions (no format: it saturates until
 * a restart), PMD 1 counts every instruction; blocking notification. */
static int blocking_ctx(void)
{
	pfarg_pmr_t pc[2] = { { .reg_num = 0, .reg_value = P6_INST },
			      { .reg_num = 1, .reg_value = P6_INST } };
	pfarg_pmd_attr_t pd[2];
	int fd = pfm_create(PFM_FL_NOTIFY_BLOCK, NULL);

	assert_true(fd >= 0);
	memset(pd, 0, sizeof(pd));
	pd[0].reg_value = pd[0].reg_short_reset = pd[0].reg_long_reset =
		0 - UINT64_C(100);
	pd[0].reg_flags = PFM_REGFL_OVFL_NOTIFY;
	pd[1].reg_num = 1;
	assert_int_equal(pfm_write(fd, 0, PFM_RW_PMC, pc, sizeof(pc)), 0);
	assert_int_equal(pfm_write(fd, 0, PFM_RW_PMD_ATTR, pd, sizeof(pd)), 0);
	return fd;
}

/* The thread started, attached to fd and monitoring started. */
static void start_fed(struct fed_thread *f, int fd, const char *stream)
{
	memset(f, 0, sizeof(*f));
	f->fd = fd;
	f->stream = stream;
	assert_int_equal(pipe(f->to_main), 0);
	assert_int_equal(pipe(f->to_thread), 0);
	assert_int_equal(pthread_create(&f->t, NULL, fed_main, f), 0);
	assert_int_equal(read(f->to_main[0], &f->tid, sizeof(f->tid)),
			 sizeof(f->tid));
	assert_int_equal(pfm_attach(fd, 0, f->tid), 0);
	assert_int_equal(pfm_set_state(fd, 0, PFM_ST_START), 0);
}

static void tell(struct fed_thread *f, char word)
{
	assert_int_equal(write(f->to_thread[1], &word, 1), 1);
}

/* Until its feed has returned. */
static void wait_fed(struct fed_thread *f)
{
	char c;

	assert_int_equal(read(f->to_main[0], &c, 1), 1);
	assert_true(atomic_load(&f->done));
}

static void end_fed(struct fed_thread *f)
{
	tell(f, 'q');
	pthread_join(f->t, NULL);
	assert_true(atomic_load(&f->done));
	close(f->to_main[0]);
	close(f->to_main[1]);
	close(f->to_thread[0]);
	close(f->to_thread[1]);
}

static uint64_t pmd_value(int fd, unsigned i)
{
	pfarg_pmr_t r = { .reg_num = (uint16_t)i };

	assert_int_equal(pfm_read(fd, 0, PFM_RW_PMD, &r, sizeof(r)), 0);
	return r.reg_value;
}

/* The next message: PMD 0's overflow in thread tid. */
static void expect_ovfl(int fd, pid_t tid)
{
	pfarg_msg_t m;

	assert_true(wait_readable(fd, 10000));
	assert_int_equal(read(fd, &m, sizeof(m)), sizeof(m));
	assert_int_equal(m.type, PFM_MSG_OVFL);
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_pmds[0], 1);
	assert_int_equal(m.pfm_ovfl_msg.msg_ovfl_pid, tid);
}

static void test_notify_block(void **state)
{
	struct fed_thread f;
	int fd = blocking_ctx();
	pfarg_msg_t m;

	(void)state;
	start_fed(&f, fd, "event 0xc0 250\n");
	EXPECT_ERR(pfm_set_state(fd, 0, PFM_ST_RESTART), EBUSY);
	tell(&f, 'f');
	for (uint64_t k = 1; k <= 2; k++) {
		expect_ovfl(fd, f.tid);
		/* the thread stopped at the overflowing instruction:
		 * nothing after it ran, PMD 0 waits for its reset */
		assert_int_equal(pmd_value(fd, 1), 100 * k);
		assert_int_equal(pmd_value(fd, 0), 0);
		assert_false(atomic_load(&f.done));
		/* its feed is still under way */
		EXPECT_ERR(pmu_perfmon_feed(fd, "event 0xc0 1\n", 13), EBUSY);
		assert_int_equal(pfm_set_state(fd, 0, PFM_ST_RESTART), 0);
	}
	wait_fed(&f);
	assert_int_equal(f.rc, 0);
	/* no notification left to restart */
	EXPECT_ERR(pfm_set_state(fd, 0, PFM_ST_RESTART), EBUSY);
	/* the counts whole */
	assert_int_equal(pmd_value(fd, 1), 250);
	assert_int_equal(pmd_value(fd, 0), 0 - UINT64_C(100) + 50);
	/* the thread's end: the last message */
	end_fed(&f);
	assert_true(wait_readable(fd, 10000));
	assert_int_equal(read(fd, &m, sizeof(m)), sizeof(m));
	assert_int_equal(m.type, PFM_MSG_END);
	close(fd);
}

static void test_notify_block_detach(void **state)
{
	struct pmu_perfmon_info in = { .size = sizeof(in) };
	struct fed_thread f;
	int fd = blocking_ctx(), dup_fd;

	(void)state;
	/* detached while it waits: the feed ends there */
	start_fed(&f, fd, "event 0xc0 250\n");
	tell(&f, 'f');
	expect_ovfl(fd, f.tid);
	assert_int_equal(pfm_attach(fd, 0, PFM_NO_TARGET), 0);
	assert_int_equal(pmd_value(fd, 1), 100);
	close(fd);
	wait_fed(&f);
	assert_int_equal(f.rc, -1);
	assert_int_equal(f.err, ECANCELED);
	end_fed(&f);

	/* closed while it waits: the same, the context a zombie freed
	 * by the thread's end */
	fd = blocking_ctx();
	start_fed(&f, fd, "event 0xc0 250\n");
	tell(&f, 'f');
	expect_ovfl(fd, f.tid);
	dup_fd = dup(fd);
	assert_int_equal(close(fd), 0);
	wait_fed(&f);
	assert_int_equal(f.rc, -1);
	assert_int_equal(f.err, ECANCELED);
	end_fed(&f);
	for (int i = 0; i < 5000 && pmu_perfmon_info(dup_fd, &in) == 0; i++)
		usleep(1000);
	EXPECT_ERR(pmu_perfmon_info(dup_fd, &in), EBADF);
	close(dup_fd);
}

static void test_notify_block_other_feeder(void **state)
{
	struct fed_thread f;
	int fd = blocking_ctx();

	(void)state;
	/* the main thread feeds the program of the thread it monitors:
	 * it does not wait for its own restart */
	start_fed(&f, fd, NULL);
	feed(fd, "event 0xc0 250\n");
	expect_ovfl(fd, f.tid);
	/* masked from the overflow on, as without blocking */
	assert_int_equal(pmd_value(fd, 1), 100);
	assert_int_equal(pfm_set_state(fd, 0, PFM_ST_RESTART), 0);
	assert_int_equal(pfm_attach(fd, 0, PFM_NO_TARGET), 0);
	end_fed(&f);
	assert_int_equal(f.rc, -2);
	close(fd);
}

static void test_pebs64_header(void **state)
{
	/* the pebs-p4 scenario's programming, with 144-byte records */
	pfm_pebs_p4_smpl_arg_t arg = { .cnt_reset = 0xFFFFFFFFF6ull,
				       .buf_size = 4096, .intr_thres = 3 };
	pfarg_pmr_t pc[3] = {
		{ .reg_num = 21, .reg_value = 0x1000020c },
		{ .reg_num = 31, .reg_value = 0xb000,
		  .reg_flags = PFM_REGFL_NO_EMUL64 },
		{ .reg_num = 64, .reg_value = 0x03000000 },
	};
	pfarg_pmd_attr_t pd = { .reg_num = 8, .reg_value = -10ull,
				.reg_long_reset = -10ull,
				.reg_flags = PFM_REGFL_OVFL_NOTIFY };
	const pfm_pebs_p4_smpl_hdr_t *h;
	const uint64_t *rec;
	int fd;

	(void)state;
	assert_int_equal(pmu_perfmon_use("sim", "p4"), 0);
	fd = pfm_create(PFM_FL_SMPL_FMT, NULL, "pebs64_p4", &arg, sizeof(arg));
	assert_true(fd >= 0);
	assert_int_equal(pfm_write(fd, 0, PFM_RW_PMC, pc, sizeof(pc)), 0);
	assert_int_equal(pfm_write(fd, 0, PFM_RW_PMD_ATTR, &pd, sizeof(pd)), 0);
	assert_int_equal(pfm_attach(fd, 0, gettid()), 0);
	assert_int_equal(pfm_set_state(fd, 0, PFM_ST_START), 0);
	feed(fd, "snapshot ip=0x401000 rax=7 r15=9\n"
		 "event 8 40 escr=0x3cc umask=1\n");
	h = mmap(NULL, 4096 + 256, PROT_READ, MAP_SHARED, fd, 0);
	assert_true(h != MAP_FAILED);
	assert_int_equal(h->version, PFM_PEBS_P4_SMPL_VERSION);
	assert_int_equal(h->buf_size, 4096);
	assert_int_equal(h->overflows, 1);
	/* records start on the 256-byte boundary after the header */
	assert_int_equal((sizeof(*h) + h->start_offs) % 256, 0);
	assert_int_equal(h->ds.pebs_index - h->ds.pebs_buf_base, 3 * 144);
	assert_int_equal(h->ds.pebs_intr_thres - h->ds.pebs_buf_base, 3 * 144);
	assert_int_equal(h->ds.pebs_cnt_reset, 0xFFFFFFFFF6ull);
	rec = (const uint64_t *)(const void *)((const char *)(h + 1) +
					       h->start_offs);
	/* RFLAGS, RIP, RAX ... R15 */
	assert_int_equal(rec[1], 0x401000);
	assert_int_equal(rec[2], 7);
	assert_int_equal(rec[17], 9);
	munmap((void *)h, 4096 + 256);
	close(fd);
	assert_int_equal(pmu_perfmon_use("sim", "p6"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_call_errors),
		cmocka_unit_test(test_use),
		cmocka_unit_test(test_mmap),
		cmocka_unit_test(test_poll_read),
		cmocka_unit_test(test_sigio),
		cmocka_unit_test(test_pid_tid),
		cmocka_unit_test(test_random_reset),
		cmocka_unit_test(test_fork_not_inherited),
		cmocka_unit_test(test_other_process),
		cmocka_unit_test(test_zombie),
		cmocka_unit_test(test_system_wide),
		cmocka_unit_test(test_notify_block),
		cmocka_unit_test(test_notify_block_detach),
		cmocka_unit_test(test_notify_block_other_feeder),
		cmocka_unit_test(test_pebs64_header),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
