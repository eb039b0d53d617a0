/* SPDX-License-Identifier: MIT */
/*
 * The objects tests/api-probe.py's generated calls start from: a valid
 * value for every kind of argument of the public API.  Each call of the
 * probe runs in its own child process, so a factory may leave state
 * behind (files in the test's directory, open descriptors).
 */
#ifndef PMU_TEST_API_PROBE_H
#define PMU_TEST_API_PROBE_H

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <pmu/pmu.h>
#include <pmu/perfmon.h>
#include <pmu/xscale.h>

#include "profile/perfdata.h"

/* A control every model checks (docs/control-format.md). */
#define PROBE_CONTROL "{\"tsc_on\": 1, \"nractrs\": 1, \"pmc_map\": [0], " \
		      "\"evntsel\": [\"0x004300C0\"]}"
#define PROBE_STREAM "cycles 1000\nevent 0xc0 500\n"
#define PROBE_SCENARIO "model p6\npmc 0 0x4300c0\nattach self\nstart\n"

static char probe_dir[64];

/* What the factories and the calls return stays reachable: a leak
 * valgrind reports is the library's own. */
static void *volatile probe_kept[64];
static size_t probe_nkept;

static void *keep(const void *p)
{
	probe_kept[probe_nkept++ & 63] = (void *)(uintptr_t)p;
	return (void *)(uintptr_t)p;
}

static void probe_fail(const char *what)
{
	fprintf(stderr, "api-probe: cannot make %s: %s\n", what,
		strerror(errno));
	_exit(3);
}

/* Zeroed buffers, one per argument position so that no two arguments
 * alias; large enough for any element count the probe passes. */
static void *mk_buf(int k)
{
	static _Alignas(64) unsigned char b[8][1 << 16];

	memset(b[k & 7], 0, sizeof(b[0]));
	return b[k & 7];
}

/* A structure whose first member is its size (size or sz). */
static void *mk_sized(int k, size_t size)
{
	void *p = mk_buf(k);

	memcpy(p, &size, sizeof(size));
	return p;
}

static struct pmu_error *mk_err(void)
{
	static struct pmu_error e;

	memset(&e, 0, sizeof(e));
	e.size = sizeof(e);
	return &e;
}

static char *mk_path(const char *name)
{
	static char p[4][128];
	static int n;
	char *s = p[n++ & 3];

	snprintf(s, sizeof(p[0]), "%s/%s", probe_dir, name);
	return s;
}

static const char *mk_file_with(const char *name, const char *text)
{
	char *path = mk_path(name);
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		probe_fail(path);
	return path;
}

static FILE *mk_file(void)
{
	FILE *f = fopen("/dev/null", "w");

	if (!f)
		probe_fail("/dev/null");
	return keep(f);
}

static char *const *mk_argv(void)
{
	static char *argv[] = { "true", NULL };

	return argv;
}

static const char *const *mk_events(void)
{
	static const char *ev[] = { "cycles", "instructions" };

	return ev;
}

static void probe_line(void *arg, const char *line)
{
	(void)arg;
	(void)line;
}

/* Events added, not opened. */
static struct pmu_session *mk_session_new(void)
{
	struct pmu_session *s = pmu_session_new(mk_err());

	if (!s || pmu_session_add(s, "task-clock,page-faults", mk_err()) < 0)
		probe_fail("a session");
	return keep(s);
}

/* Counting this thread, started. */
static struct pmu_session *mk_session(void)
{
	struct pmu_session *s = mk_session_new();

	if (pmu_session_open(s, NULL, mk_err()) < 0 ||
	    pmu_session_start(s) < 0)
		probe_fail("an open session");
	return s;
}

/* The counting engine over an open session. */
static struct pmu_stat *mk_stat(void)
{
	struct pmu_stat *st = pmu_stat_new(mk_session(), NULL, mk_err());

	if (!st)
		probe_fail("a counting engine");
	return keep(st);
}

/* A recorder on an open session, a region begun. */
static struct pmu_region_recorder *mk_recorder(void)
{
	struct pmu_region_recorder *r =
		pmu_region_recorder_new(mk_session(), mk_err());

	if (!r || pmu_region_recorder_begin(r, "r"))
		probe_fail("a region recorder");
	return keep(r);
}

/* A region report: one process's file, one thread, one region. */
static struct pmu_region_report *mk_region_report(void)
{
	static char *dir;
	struct pmu_region_report *r;

	if (!dir) {
		dir = strdup(mk_path("regions"));
		if (!dir || (mkdir(dir, 0700) && errno != EEXIST))
			probe_fail("a region directory");
		mk_file_with("regions/regions.1",
			     "pmu-regions 1\npid\t1\n"
			     "event\ttask-clock\tmsec\t1e-06\t1\n"
			     "thread\t1\nregion\tr\t1\t5\t5\t0\t4\t4\n"
			     "end\n");
	}
	if (!(r = pmu_region_report_load(dir, mk_err())))
		probe_fail("a region report");
	return keep(r);
}

static const struct pmu_hwmodel *mk_hwmodel(void)
{
	const struct pmu_hwmodel *m = pmu_hwmodel_find("p6");

	if (!m)
		probe_fail("the p6 model");
	return m;
}

static struct pmu_control *mk_control(void)
{
	struct pmu_control *c = pmu_control_parse(PROBE_CONTROL,
						  strlen(PROBE_CONTROL),
						  mk_err());

	if (!c)
		probe_fail("a control");
	return keep(c);
}

/* Controlled and run: results, no interrupts. */
static struct pmu_sim *mk_sim(void)
{
	struct pmu_sim *sim = pmu_sim_open(mk_hwmodel(), mk_err());

	if (!sim || pmu_sim_control(sim, mk_control(), mk_err()) < 0 ||
	    pmu_sim_run(sim, PROBE_STREAM, strlen(PROBE_STREAM), mk_err()) < 0)
		probe_fail("a simulator");
	return keep(sim);
}

static struct pmu_simple *mk_simple(void)
{
	struct pmu_simple *d = pmu_simple_open("xscale1", mk_err());

	if (!d)
		probe_fail("an XScale device");
	return keep(d);
}

static struct pmu_metric_expr *mk_expr(void)
{
	struct pmu_metric_expr *e = pmu_metric_expr_parse("a + b * 2",
							   mk_err());

	if (!e)
		probe_fail("an expression");
	return keep(e);
}

static struct pmu_metric_set *mk_mset(void)
{
	struct pmu_metric_set_opts o = { .sz = sizeof(o), .model = "amdzen4" };
	struct pmu_metric_set *m =
		pmu_metric_set_new("branch_misprediction_ratio", &o, mk_err());

	if (!m)
		probe_fail("a metric set");
	return keep(m);
}

static int mk_pfm_fd(void)
{
	int fd;

	if (pmu_perfmon_use("sim", "p6") < 0)
		probe_fail("a simulated perfmon PMU");
	fd = pfm_create(0, NULL);
	if (fd < 0)
		probe_fail("a perfmon context");
	return fd;
}

/* A recording of three samples of one thread, read up to its first
 * sample. */
static const char *mk_profile_path(void)
{
	static char *path;
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD,
		.sample_id_all = 1, .sample_period = 1000,
	};
	char *name = "cpu-clock";
	struct pd_writer w;
	uint64_t id = 1;

	if (path)
		return path;
	path = mk_path("probe.data");
	if (pmu__pd_write_open(&w, path, 1, &a, &name, mk_err()) < 0 ||
	    pmu__pd_write_ids(&w, 0, &id, 1) < 0)
		probe_fail(path);
	{	/* the samples fall in a mapping of a file */
		unsigned char m[96] = { 0 };
		struct perf_event_header h = { PERF_RECORD_MMAP,
					       PERF_RECORD_MISC_USER, 0 };
		uint32_t pid = 7;
		uint64_t v[3] = { 0x400000, 0x10000, 0 }, time = 50;
		uint64_t idt = (uint64_t)7 << 32 | 7;
		size_t at = 8;

		memcpy(m + at, &pid, 4);
		memcpy(m + at + 4, &pid, 4);
		memcpy(m + at + 8, v, sizeof(v));
		at += 8 + sizeof(v);
		strcpy((char *)m + at, "/nonexistent/probe.so");
		at = (at + strlen("/nonexistent/probe.so") + 1 + 7) & ~(size_t)7;
		memcpy(m + at, &idt, 8);
		memcpy(m + at + 8, &time, 8);
		at += 16;
		h.size = (uint16_t)at;
		memcpy(m, &h, sizeof(h));
		if (pmu__pd_write_data(&w, m, at) < 0)
			probe_fail(path);
	}
	for (uint64_t i = 0; i < 3; i++) {
		uint64_t r[5];
		struct perf_event_header h = { PERF_RECORD_SAMPLE,
					       PERF_RECORD_MISC_USER, 40 };

		memcpy(&r[0], &h, 8);
		r[1] = 0x401000 + i;
		r[2] = (uint64_t)7 << 32 | 7;
		r[3] = 100 + i;
		r[4] = 1000;
		if (pmu__pd_write_data(&w, r, sizeof(r)) < 0)
			probe_fail(path);
	}
	if (pmu__pd_write_finish(&w, mk_err()) < 0)
		probe_fail(path);
	pmu__pd_write_close(&w);
	return path;
}

static struct pmu_profile *mk_profile(void)
{
	struct pmu_profile *p = pmu_profile_open(mk_profile_path(), NULL,
						 mk_err());
	struct pmu_sample s = { .size = sizeof(s) };

	if (!p || pmu_profile_next(p, &s) < 0)
		probe_fail("a profile");
	return keep(p);
}

static const struct pmu_record_opts *mk_record_opts(void)
{
	static pid_t self;
	static struct pmu_record_opts o;

	self = getpid();
	memset(&o, 0, sizeof(o));
	o.sz = sizeof(o);
	o.events = "task-clock";
	o.target = PMU_TARGET_TID;
	o.pids = &self;
	o.npids = 1;
	o.mmap_pages = 1;
	return &o;
}

static struct pmu_record *mk_record(void)
{
	struct pmu_record *r = pmu_record_open(mk_path("rec.data"),
					       mk_record_opts(), mk_err());

	if (!r)
		probe_fail("a recording");
	return keep(r);
}

/* ---- running the calls ---- */

struct probe_call {
	const char *text;      /* the call, as C */
	void (*fn)(void);
};

struct probe_fn {
	const char *name;
	const struct probe_call *calls;
	size_t ncalls;
};

/* Each call in a child of its own: it must return, whatever it
 * returns; a signal, a sanitizer's report or a hang is a failure. */
static void probe_run(void **state)
{
	const struct probe_fn *f = *state;
	int bad = 0;

	for (size_t i = 0; i < f->ncalls; i++) {
		int st;
		pid_t pid;

		fflush(NULL);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			/* the test runner's handlers would catch a crash
			 * and go on running tests in this child */
			static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE,
						    SIGILL, SIGABRT, SIGALRM };

			for (size_t k = 0; k < sizeof(sigs) / sizeof(sigs[0]); k++)
				signal(sigs[k], SIG_DFL);
			alarm(20);
			f->calls[i].fn();
			fflush(NULL);
			_exit(0);
		}
		assert_int_equal(waitpid(pid, &st, 0), pid);
		if (WIFSIGNALED(st)) {
			fprintf(stderr, "%s: signal %d (%s)\n", f->calls[i].text,
				WTERMSIG(st), strsignal(WTERMSIG(st)));
			bad++;
		} else if (WEXITSTATUS(st) != 0) {
			fprintf(stderr, "%s: exit %d\n", f->calls[i].text,
				WEXITSTATUS(st));
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

static int probe_setup(void **state)
{
	(void)state;
	strcpy(probe_dir, "/tmp/pmu-api-probe-XXXXXX");
	/* and the calls' files (a recording's default perf.data) go there */
	if (!mkdtemp(probe_dir) || chdir(probe_dir) != 0)
		return -1;
	return 0;
}

static int probe_teardown(void **state)
{
	char cmd[128];

	(void)state;
	if (chdir("/") != 0)
		return -1;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", probe_dir);
	return system(cmd) == 0 ? 0 : -1;
}

#endif
