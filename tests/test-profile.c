/* SPDX-License-Identifier: MIT */
/*
 * lib/profile without a kernel: a perf.data file written record by
 * record with the writer and read back through the public API (the
 * test's own records are the expected values), and the per-process
 * maps that MMAP records build, overlaps and forks included.
 */
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <pmu/pmu.h>

#include "profile/machine.h"
#include "profile/perfdata.h"
#include "profile/regs.h"

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_PERIOD)

static size_t trailer(unsigned char *p, uint32_t pid, uint32_t tid,
		      uint64_t time)
{
	uint64_t v = (uint64_t)tid << 32 | pid;

	memcpy(p, &v, 8);
	memcpy(p + 8, &time, 8);
	return 16;
}

static void put_comm(struct pd_writer *w, uint32_t pid, uint32_t tid,
		     const char *comm, uint64_t time)
{
	unsigned char r[64] = { 0 };
	struct perf_event_header *h = (void *)r;
	size_t at;

	h->type = PERF_RECORD_COMM;
	memcpy(r + 8, &pid, 4);
	memcpy(r + 12, &tid, 4);
	strcpy((char *)r + 16, comm);
	at = (16 + strlen(comm) + 1 + 7) & ~7u;
	at += trailer(r + at, pid, tid, time);
	h->size = (uint16_t)at;
	assert_int_equal(pmu__pd_write_data(w, r, at), 0);
}

static void put_sample(struct pd_writer *w, uint32_t pid, uint32_t tid,
		       uint64_t ip, uint64_t time, uint64_t period)
{
	uint64_t r[5];
	struct perf_event_header h = { PERF_RECORD_SAMPLE,
				       PERF_RECORD_MISC_USER, 40 };

	memcpy(&r[0], &h, 8);
	r[1] = ip;
	r[2] = (uint64_t)tid << 32 | pid;
	r[3] = time;
	r[4] = period;
	assert_int_equal(pmu__pd_write_data(w, r, sizeof(r)), 0);
}

/* A new file at path (a mkstemp() template) for one cpu-clock event of
 * id 77 sampling ST. */
static void clock_file(struct pd_writer *w, char *path)
{
	int fd = mkstemp(path);
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_CPU_CLOCK,
				     .sample_type = ST, .sample_id_all = 1,
				     .sample_period = 1000 };
	char *name = "cpu-clock";
	uint64_t id = 77;
	struct pmu_error err = { .size = sizeof(err) };

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(pmu__pd_write_open(w, path, 1, &a, &name, &err), 0);
	assert_int_equal(pmu__pd_write_ids(w, 0, &id, 1), 0);
}

/* Samples written out of time order come back sorted, with the command
 * of their thread at that time and their own period. */
static void test_roundtrip(void **state)
{
	static const struct {
		int line;
		uint32_t pid, tid;
		uint64_t time, period;
		const char *comm;   /* expected */
	} rows[] = {
		{ __LINE__, 10, 10, 300, 7, "after" },
		{ __LINE__, 10, 11, 100, 5, ":11" },     /* no COMM for it */
		{ __LINE__, 10, 10, 150, 3, "before" },
		{ __LINE__, 20, 20, 400, 1, "other" },
	};
	char path[] = "/tmp/pmu-test-profile-XXXXXX";
	struct pd_writer w;
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_profile_info info = { .size = sizeof(info) };
	struct pmu_sample s = { .size = sizeof(s) };
	struct pmu_profile *p;
	uint64_t last = 0;
	size_t n = 0;

	clock_file(&w, path);
	put_comm(&w, 10, 10, "before", 50);
	put_comm(&w, 10, 10, "after", 200);
	put_comm(&w, 20, 20, "other", 50);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		put_sample(&w, rows[i].pid, rows[i].tid, 0x1000 + i,
			   rows[i].time, rows[i].period);
	assert_int_equal(pmu__pd_write_feat_str(&w, PD_FEAT_HOSTNAME, "testhost"), 0);
	assert_int_equal(pmu__pd_write_finish(&w, &err), 0);
	pmu__pd_write_close(&w);

	p = pmu_profile_open(path, NULL, &err);
	assert_non_null(p);
	assert_int_equal(pmu_profile_info(p, &info), 0);
	assert_int_equal(info.nsamples, 4);
	assert_int_equal(info.total_period, 16);
	assert_string_equal(info.hostname, "testhost");
	assert_false(info.foreign_endian);
	assert_string_equal(pmu_profile_event_name(p, 0), "cpu-clock");
	while (pmu_profile_next(p, &s) > 0) {
		size_t k;

		for (k = 0; rows[k].time != s.time; k++)
			;
		print_message("row at line %d\n", rows[k].line);
		assert_true(s.time >= last);
		last = s.time;
		assert_int_equal(s.tid, rows[k].tid);
		assert_int_equal(s.period, rows[k].period);
		assert_string_equal(s.comm, rows[k].comm);
		assert_int_equal(s.nframes, 1);
		n++;
	}
	assert_int_equal(n, 4);
	pmu_profile_close(p);
	unlink(path);
}

/* Rounds, as perf record writes them (each CPU's ring in turn, then a
 * FINISHED_ROUND): a record of the second round older than the first
 * round's last comes before it, and a third round's record older than
 * the second's last comes before that one too; ties keep file order. */
static void test_rounds(void **state)
{
	static const uint64_t times[][3] = {
		{ 100, 300, 0 },        /* round 1 (0: none) */
		{ 200, 500, 250 },      /* round 2: 200 and 250 before 300 */
		{ 400, 600, 0 },        /* round 3: 400 before 500 */
	};
	static const struct perf_event_header round = {
		PD_REC_FINISHED_ROUND, 0, 8 };
	char path[] = "/tmp/pmu-test-profile-XXXXXX";
	struct pd_writer w;
	uint64_t last = 0;
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_sample s = { .size = sizeof(s) };
	struct pmu_profile *p;
	size_t n = 0;

	(void)state;
	clock_file(&w, path);
	for (size_t r = 0; r < 3; r++) {
		for (size_t i = 0; i < 3 && times[r][i]; i++)
			put_sample(&w, 10, 10, 0x1000, times[r][i], 1);
		assert_int_equal(pmu__pd_write_data(&w, &round, 8), 0);
	}
	assert_int_equal(pmu__pd_write_finish(&w, &err), 0);
	pmu__pd_write_close(&w);
	p = pmu_profile_open(path, NULL, &err);
	assert_non_null(p);
	for (int pass = 0; pass < 2; pass++) {
		while (pmu_profile_next(p, &s) > 0) {
			assert_true(s.time >= last);
			last = s.time;
			n++;
		}
		assert_int_equal(n, 7 * (size_t)(pass + 1));
		/* the same again after a rewind */
		assert_int_equal(pmu_profile_rewind(p), 0);
		last = 0;
	}
	pmu_profile_close(p);
	unlink(path);
}

static void test_bad_files(void **state)
{
	static const struct {
		int line;
		const char *bytes;
		size_t len;
		const char *msg;
	} rows[] = {
		{ __LINE__, "", 0, "empty file" },
		{ __LINE__, "PERFILE", 7, "too short" },
		{ __LINE__, "NOTPERF!\x68\0\0\0\0\0\0\0", 16, "no PERFILE2" },
		{ __LINE__, "PERFFILE\x68\0\0\0\0\0\0\0", 16, "version 1" },
		/* a pipe-mode stream of no record: no event to read */
		{ __LINE__, "PERFILE2\x10\0\0\0\0\0\0\0", 16, "describes no event" },
		{ __LINE__, "PERFILE2\x68\0\0\0\0\0\0\0", 16, "header" },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char path[] = "/tmp/pmu-test-profile-XXXXXX";
		int fd = mkstemp(path);
		struct pmu_error err = { .size = sizeof(err) };

		print_message("row at line %d\n", rows[i].line);
		assert_int_equal(write(fd, rows[i].bytes, rows[i].len),
				 (ssize_t)rows[i].len);
		close(fd);
		assert_null(pmu_profile_open(path, NULL, &err));
		assert_non_null(strstr(err.message, rows[i].msg));
		assert_non_null(strstr(err.message, path));
		unlink(path);
	}
}

/* ---- maps ---- */

static const struct {
	int line;
	uint64_t start, len, pgoff;  /* the new mapping (dso "new") */
	struct { uint64_t start, end, pgoff; bool is_new; } want[4];
	size_t nwant;
} map_rows[] = {
	/* the old one is [0x1000, 0x5000) at offset 0 */
	{ __LINE__, 0x6000, 0x1000, 0, { { 0x1000, 0x5000, 0, false },
				     { 0x6000, 0x7000, 0, true } }, 2 },
	{ __LINE__, 0x0, 0x1000, 0, { { 0x0, 0x1000, 0, true },
				  { 0x1000, 0x5000, 0, false } }, 2 },
	{ __LINE__, 0x1000, 0x4000, 0x10, { { 0x1000, 0x5000, 0x10, true } }, 1 },
	{ __LINE__, 0x2000, 0x1000, 0, { { 0x1000, 0x2000, 0, false },
				     { 0x2000, 0x3000, 0, true },
				     { 0x3000, 0x5000, 0x2000, false } }, 3 },
	{ __LINE__, 0x4000, 0x2000, 0, { { 0x1000, 0x4000, 0, false },
				     { 0x4000, 0x6000, 0, true } }, 2 },
	{ __LINE__, 0x0, 0x2000, 0, { { 0x0, 0x2000, 0, true },
				  { 0x2000, 0x5000, 0x1000, false } }, 2 },
};

static void test_maps(void **state)
{
	for (size_t r = 0; r < sizeof(map_rows) / sizeof(map_rows[0]); r++) {
		struct pmu__dso_set *ds = pmu__dso_set_new(false);
		struct pmu__dso *old = pmu__dso_get(ds, "/old", NULL, 0);
		struct pmu__dso *nw = pmu__dso_get(ds, "/new", NULL, 0);
		struct pmu__machine m;
		const struct pmu__proc *p;

		print_message("row at line %d\n", map_rows[r].line);
		pmu__machine_init(&m, ds);
		assert_int_equal(pmu__machine_mmap(&m, 5, 0x1000, 0x4000, 0, old), 0);
		assert_int_equal(pmu__machine_mmap(&m, 5, map_rows[r].start,
						   map_rows[r].len,
						   map_rows[r].pgoff, nw), 0);
		p = pmu__machine_proc(&m, 5);
		assert_int_equal(p->n, map_rows[r].nwant);
		for (size_t i = 0; i < p->n; i++) {
			assert_int_equal(p->maps[i].start, map_rows[r].want[i].start);
			assert_int_equal(p->maps[i].end, map_rows[r].want[i].end);
			assert_int_equal(p->maps[i].pgoff, map_rows[r].want[i].pgoff);
			assert_ptr_equal(p->maps[i].dso,
					 map_rows[r].want[i].is_new ? nw : old);
		}
		/* lookups by bisection agree with the table */
		assert_null(pmu__machine_find(p, 0x7000));
		for (size_t i = 0; i < p->n; i++)
			assert_ptr_equal(pmu__machine_find(p, p->maps[i].end - 1),
					 &p->maps[i]);
		/* a forked process starts with a copy; its own maps are
		 * its own from then on */
		assert_int_equal(pmu__machine_fork(&m, 6, 5, 6, 5), 0);
		assert_int_equal(pmu__machine_proc(&m, 6)->n, map_rows[r].nwant);
		assert_int_equal(pmu__machine_mmap(&m, 6, 0x9000, 0x1000, 0, nw), 0);
		assert_int_equal(pmu__machine_proc(&m, 5)->n, map_rows[r].nwant);
		pmu__machine_free(&m);
		pmu__dso_set_free(ds);
	}
}

/* A sample with a user call chain: ip, tid, time, period, chain. */
static void put_chain(struct pd_writer *w, uint32_t pid, uint64_t time,
		      const uint64_t *chain, size_t n)
{
	uint64_t *r = malloc(8 * (7 + n));
	struct perf_event_header h = { PERF_RECORD_SAMPLE,
				       PERF_RECORD_MISC_USER,
				       (uint16_t)(8 * (7 + n)) };

	assert_true(n <= 8000);   /* a record's size is 16 bits */
	assert_non_null(r);
	memcpy(&r[0], &h, 8);
	r[1] = chain[0];
	r[2] = (uint64_t)pid << 32 | pid;
	r[3] = time;
	r[4] = 1;
	r[5] = n + 1;
	r[6] = PERF_CONTEXT_USER;
	memcpy(&r[7], chain, 8 * n);
	assert_int_equal(pmu__pd_write_data(w, r, 8 * (7 + n)), 0);
	free(r);
}

/* A new recording at path (a mkstemp template) of one cpu-clock event
 * sampling `st`, id 1, for the tests to fill. */
static void chain_file(struct pd_writer *w, char *path, uint64_t st)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_CPU_CLOCK,
				     .sample_type = st, .sample_id_all = 1,
				     .sample_period = 1 };
	char *name = "cpu-clock";
	struct pmu_error err = { .size = sizeof(err) };
	uint64_t id = 1;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(pmu__pd_write_open(w, path, 1, &a, &name, &err), 0);
	assert_int_equal(pmu__pd_write_ids(w, 0, &id, 1), 0);
}

/* A call-graph profile of more rows than the report's first allocation
 * (256): each sample's leaf and its two callers are new (so that rows
 * are also made after the sample's own), the callers above them the
 * same for all.  The
 * report keeps its rows in one array that grows as rows come; a row
 * found before its callers' rows were made must not be used through a
 * pointer into the old array (under ASan and valgrind this test reads
 * freed memory if it is).  Every report with children and a call graph,
 * and the exports that build the same rows. */
static void test_many_rows(void **state)
{
	static const struct {
		int line;
		enum pmu_report_format fmt;
		bool children;
		enum pmu_callgraph_order cg;
	} rows[] = {
		{ __LINE__, PMU_REPORT_STDIO, true, PMU_CALLGRAPH_CALLER },
		{ __LINE__, PMU_REPORT_STDIO, false, PMU_CALLGRAPH_CALLEE },
		{ __LINE__, PMU_REPORT_JSON, true, PMU_CALLGRAPH_CALLER },
		{ __LINE__, PMU_REPORT_SVG, true, PMU_CALLGRAPH_CALLER },
		{ __LINE__, PMU_REPORT_PPROF, false, PMU_CALLGRAPH_NONE },
		{ __LINE__, PMU_REPORT_FIREFOX, false, PMU_CALLGRAPH_NONE },
	};
	char path[] = "/tmp/pmu-test-rows-XXXXXX";
	struct pmu_error err = { .size = sizeof(err) };
	struct pd_writer w;
	const size_t nsamples = 700;

	(void)state;
	chain_file(&w, path, ST | PERF_SAMPLE_CALLCHAIN);
	put_comm(&w, 10, 10, "w", 1);
	for (size_t i = 0; i < nsamples; i++) {
		uint64_t chain[5] = { 0x10000 + 16 * i, 0x50000 + 16 * i,
				      0x60000 + 16 * i, 0x91000, 0x92000 };

		put_chain(&w, 10, 10 + i, chain, 5);
	}
	assert_int_equal(pmu__pd_write_finish(&w, &err), 0);
	pmu__pd_write_close(&w);
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		/* every branch drawn: each leaf is 1/700 of the total,
		 * below perf's 0.5% */
		struct pmu_report_opts o = { .sz = sizeof(o),
					     .children = rows[r].children,
					     .callgraph = rows[r].cg,
					     .callgraph_limit = -1 };
		struct pmu_profile *p = pmu_profile_open(path, NULL, &err);
		char *text = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&text, &len);

		print_message("row at line %d\n", rows[r].line);
		assert_non_null(p);
		assert_non_null(out);
		if (pmu_report_write(p, NULL, rows[r].fmt, out, &o, &err))
			fail_msg("row at line %d: %s", rows[r].line, err.message);
		fclose(out);
		assert_true(len > 0);
		/* the callers every sample has: each row's children cover
		 * all 700 samples */
		if (rows[r].fmt == PMU_REPORT_STDIO && rows[r].children)
			assert_non_null(strstr(text, "100.00%"));
		/* and every sample's leaf row its call graph */
		if (rows[r].fmt == PMU_REPORT_STDIO) {
			size_t graphs = 0;

			for (char *q = text; (q = strstr(q, "---")); q += 3)
				graphs++;
			if (graphs < nsamples)
				fail_msg("row at line %d: %zu call graphs for "
					 "%zu leaves", rows[r].line, graphs,
					 nsamples);
		}
		free(text);
		pmu_profile_close(p);
	}
	unlink(path);
}

/* kernel.perf_event_max_stack as the test reads it (127 without it). */
static unsigned machine_max_stack(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_stack", "r");
	unsigned v = 0;

	if (f) {
		if (fscanf(f, "%u", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v ? v : 127;
}

/* A call chain is followed max_stack addresses deep from the sample's
 * own, as perf report follows it: the machine's kernel limit by
 * default, the caller's when given.  A chain of thousands of addresses
 * (a hostile or damaged file) costs no more than that. */
/* Every format says what it is; one that shows one profile refuses a
 * comparison rather than drop the base silently. */
static void test_format_info(void **state)
{
	static const char *const names[] = {
		"stdio", "json", "folded", "svg", "pprof", "firefox", "script",
	};
	char path[] = "/tmp/pmu-test-fmt-XXXXXX";
	struct pmu_error err = { .size = sizeof(err) };
	struct pd_writer w;
	struct pmu_profile *p;

	(void)state;
	for (int f = 0; f < 7; f++) {
		struct pmu_report_format_info fi = { .size = sizeof(fi) };

		assert_int_equal(pmu_report_format_info(f, &fi), 0);
		assert_string_equal(fi.name, names[f]);
		/* the exports to other tools carry every frame */
		assert_int_equal(fi.frames, f == PMU_REPORT_FOLDED ||
				 f == PMU_REPORT_SVG || f == PMU_REPORT_PPROF ||
				 f == PMU_REPORT_FIREFOX);
		assert_int_equal(fi.binary, f == PMU_REPORT_PPROF);
	}
	assert_int_equal(pmu_report_format_info(7, &(struct
			 pmu_report_format_info){ .size = 64 }), -EINVAL);
	assert_int_equal(pmu_report_format_info(PMU_REPORT_JSON, NULL),
			 -EINVAL);

	chain_file(&w, path, ST | PERF_SAMPLE_CALLCHAIN);
	put_comm(&w, 10, 10, "w", 1);
	put_chain(&w, 10, 10, (uint64_t[2]){ 0x10000, 0x91000 }, 2);
	assert_int_equal(pmu__pd_write_finish(&w, &err), 0);
	pmu__pd_write_close(&w);
	p = pmu_profile_open(path, NULL, &err);
	assert_non_null(p);
	for (int f = 0; f < 7; f++) {
		struct pmu_report_format_info fi = { .size = sizeof(fi) };
		char *text = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&text, &len);
		int rc;

		pmu_report_format_info(f, &fi);
		pmu_profile_rewind(p);
		rc = pmu_report_write(p, p, f, out, NULL, &err);
		fclose(out);
		free(text);
		if (fi.diff)
			assert_int_equal(rc, 0);
		else
			assert_true(rc == -EINVAL &&
				    strstr(err.message, "not a comparison"));
	}
	pmu_profile_close(p);
	unlink(path);
}

static void test_max_stack(void **state)
{
	static const struct {
		int line;
		unsigned max_stack;   /* 0: the default */
		size_t chain;
	} rows[] = {
		{ __LINE__, 10, 4000 },
		{ __LINE__, 10, 7 },
		{ __LINE__, 1, 4000 },
		{ __LINE__, 0, 4000 },
		{ __LINE__, 0, 5 },
		{ __LINE__, 5000, 4000 },
	};
	struct pmu_error err = { .size = sizeof(err) };

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		char path[] = "/tmp/pmu-test-maxstack-XXXXXX";
		uint64_t *chain = calloc(rows[r].chain, sizeof(*chain));
		unsigned limit = rows[r].max_stack ? rows[r].max_stack
						   : machine_max_stack();
		size_t want = rows[r].chain < limit ? rows[r].chain : limit;
		struct pmu_profile_opts po = { .sz = sizeof(po),
					       .no_lines = true,
					       .max_stack = rows[r].max_stack };
		struct pmu_sample s = { .size = sizeof(s) };
		struct pd_writer w;
		struct pmu_profile *p;

		assert_non_null(chain);
		for (size_t i = 0; i < rows[r].chain; i++)
			chain[i] = 0x10000 + 16 * i;
		chain_file(&w, path, ST | PERF_SAMPLE_CALLCHAIN);
		put_comm(&w, 10, 10, "w", 1);
		put_chain(&w, 10, 10, chain, rows[r].chain);
		assert_int_equal(pmu__pd_write_finish(&w, &err), 0);
		pmu__pd_write_close(&w);
		p = pmu_profile_open(path, &po, &err);
		assert_non_null(p);
		assert_int_equal(pmu_profile_next(p, &s), 1);
		if (s.nframes != want)
			fail_msg("row at line %d: %zu frames, want %zu",
				 rows[r].line, s.nframes, want);
		/* the frames kept are the leaf's end of the chain */
		struct pmu_frame fr = { .size = sizeof(fr) };

		assert_int_equal(pmu_profile_frame(p, 0, &fr), 0);
		assert_int_equal(fr.ip, chain[0]);
		assert_int_equal(pmu_profile_frame(p, want - 1, &fr), 0);
		assert_int_equal(fr.ip, chain[want - 1]);
		pmu_profile_close(p);
		unlink(path);
		free(chain);
	}
}

/* A function at a known address of this program, for samples. */
__attribute__((noinline)) int profile_target(int x);
__attribute__((noinline)) int profile_target(int x)
{
	return x * 3 + 1;
}

/* The r-xp mapping of this program holding `addr`, as the kernel's
 * MMAP record would describe it. */
static void own_mapping(uintptr_t addr, uint64_t *start, uint64_t *len,
			uint64_t *pgoff, char *path, size_t psz)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi, off;
		char perm[8];
		int n = 0;

		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %n", &lo, &hi, perm,
			   &off, &n) < 4 || addr < lo || addr >= hi)
			continue;
		*start = lo;
		*len = hi - lo;
		*pgoff = off;
		line[strcspn(line, "\n")] = 0;
		snprintf(path, psz, "%s", line + n);
		fclose(f);
		return;
	}
	fclose(f);
	fail_msg("no mapping holds %#lx", (unsigned long)addr);
}

/* A sample taken in the kernel (a page fault, a system call): the first
 * user address of its chain is where user space was interrupted, not a
 * return address, so it is looked up where it is (a fault on a
 * function's first instruction is in that function).  A user-context
 * address in the kernel's half is an unknown user frame, not a kernel
 * one. */
static void test_kernel_then_user(void **state)
{
	char path[] = "/tmp/pmu-test-kuser-XXXXXX", exe[256];
	uintptr_t target = (uintptr_t)profile_target;
	uint64_t start = 0, len = 0, pgoff = 0, r[16];
	unsigned char m[400] = { 0 };
	struct perf_event_header h = { PERF_RECORD_MMAP, PERF_RECORD_MISC_USER,
				       0 };
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_sample smp = { .size = sizeof(smp) };
	struct pmu_frame f = { .size = sizeof(f) };
	struct pmu_profile *p;
	struct pd_writer w;
	uint32_t pid = 10;
	uint64_t v;
	size_t at;

	(void)state;
	assert_int_equal(profile_target(1), 4);
	own_mapping(target, &start, &len, &pgoff, exe, sizeof(exe));
	chain_file(&w, path, ST | PERF_SAMPLE_CALLCHAIN);
	put_comm(&w, 10, 10, "k", 1);
	memcpy(m + 8, &pid, 4);
	memcpy(m + 12, &pid, 4);
	memcpy(m + 16, &start, 8);
	memcpy(m + 24, &len, 8);
	memcpy(m + 32, &pgoff, 8);
	strcpy((char *)m + 40, exe);
	at = (40 + strlen(exe) + 1 + 7) & ~(size_t)7;
	at += trailer(m + at, 10, 10, 2);
	h.size = (uint16_t)at;
	memcpy(m, &h, 8);
	assert_int_equal(pmu__pd_write_data(&w, m, at), 0);
	/* ip, tid, time, period, nr, chain */
	h = (struct perf_event_header){ PERF_RECORD_SAMPLE,
					PERF_RECORD_MISC_KERNEL, 8 * 11 };
	memcpy(&r[0], &h, 8);
	r[1] = 0xffffffff81000010ull;
	r[2] = (uint64_t)10 << 32 | 10;
	r[3] = 5;
	r[4] = 1;
	r[5] = 5;
	r[6] = PERF_CONTEXT_KERNEL;
	r[7] = 0xffffffff81000010ull;
	r[8] = PERF_CONTEXT_USER;
	r[9] = target;
	r[10] = 0xffff900000001234ull;
	assert_int_equal(pmu__pd_write_data(&w, r, 8 * 11), 0);
	assert_int_equal(pmu__pd_write_finish(&w, &err), 0);
	pmu__pd_write_close(&w);

	assert_non_null(p = pmu_profile_open(path, NULL, &err));
	assert_int_equal(pmu_profile_next(p, &smp), 1);
	assert_int_equal(smp.nframes, 3);
	assert_int_equal(pmu_profile_frame(p, 1, &f), 0);
	assert_int_equal(f.kind, PMU_FRAME_USER);
	assert_non_null(f.sym);
	assert_string_equal(f.sym, "profile_target");
	assert_int_equal(f.sym_off, 0);
	assert_int_equal(pmu_profile_frame(p, 2, &f), 0);
	assert_int_equal(f.kind, PMU_FRAME_USER);
	assert_string_equal(f.dso, "[unknown]");
	v = f.ip;
	assert_int_equal(v, 0xffff900000001234ull);
	pmu_profile_close(p);
	unlink(path);
}

/* An address past the kernel's text, before the first module's: no
 * symbol, as perf finds none (the last kernel symbol does not reach
 * across the gap: _einittext+0xec99b83 is not a name). */
static void test_past_kernel_text(void **state)
{
	FILE *k = fopen("/proc/kallsyms", "r");
	char line[512], path[] = "/tmp/pmu-test-ktext-XXXXXX";
	unsigned long long last = 0, mod = 0;
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_sample smp = { .size = sizeof(smp) };
	struct pmu_frame f = { .size = sizeof(f) };
	struct perf_event_header h = { PERF_RECORD_SAMPLE,
				       PERF_RECORD_MISC_KERNEL, 40 };
	struct pmu_profile *p;
	struct pd_writer w;
	uint64_t r[5], ip;

	(void)state;
	while (k && fgets(line, sizeof(line), k) && !mod) {
		unsigned long long addr;
		char type;

		if (sscanf(line, "%llx %c", &addr, &type) != 2 ||
		    !strchr("tTwW", type))
			continue;
		if (strchr(line, '['))
			mod = addr;
		else
			last = addr;
	}
	if (k)
		fclose(k);
	if (!last || !mod || mod <= last + (2u << 20)) {
		print_message("no gap between kernel and module text to "
			      "probe (kallsyms hidden, or no modules)\n");
		skip();
	}
	ip = last + (1u << 20);
	chain_file(&w, path, ST);
	memcpy(&r[0], &h, 8);
	r[1] = ip;
	r[2] = (uint64_t)10 << 32 | 10;
	r[3] = 5;
	r[4] = 1;
	assert_int_equal(pmu__pd_write_data(&w, r, sizeof(r)), 0);
	assert_int_equal(pmu__pd_write_finish(&w, &err), 0);
	pmu__pd_write_close(&w);
	assert_non_null(p = pmu_profile_open(path, NULL, &err));
	assert_int_equal(pmu_profile_next(p, &smp), 1);
	assert_int_equal(pmu_profile_frame(p, 0, &f), 0);
	assert_int_equal(f.kind, PMU_FRAME_KERNEL);
	if (f.sym)
		fail_msg("%#llx, 1 MiB past the last kernel symbol, named %s+%#llx",
			 (unsigned long long)ip, f.sym,
			 (unsigned long long)f.sym_off);
	pmu_profile_close(p);
	unlink(path);
}

/* Names as perf 6.1 shows them: a versioned definition by its .symtab
 * name, version included (perf shows __libc_start_main@@GLIBC_2.34),
 * a PLT slot of a C++ function demangled (pmu::target@plt).
 * tests/workload/libnames.c. */
static void test_symbol_names(void **state)
{
	char lib[4096];
	ssize_t n = readlink("/proc/self/exe", lib, sizeof(lib) - 32);
	struct pmu__dso_set *ds;
	struct pmu__dso *d;
	const struct pmu__addr_info *a;
	Dl_info info;
	void *h, *fn;
	bool plt = false;

	(void)state;
	assert_true(n > 0);
	lib[n] = '\0';
	strcpy(strrchr(lib, '/') + 1, "libnames.so");
	if (!(h = dlopen(lib, RTLD_NOW))) {
		print_message("%s: %s\n", lib, dlerror());
		skip();
	}
	assert_non_null(fn = dlsym(h, "names_versioned"));
	assert_true(dladdr(fn, &info) != 0);
	ds = pmu__dso_set_new(false);
	d = pmu__dso_get(ds, lib, NULL, 0);
	a = pmu__dso_resolve(d, (uint64_t)((uintptr_t)fn -
					   (uintptr_t)info.dli_fbase));
	assert_non_null(a->sym);
	assert_string_equal(a->sym->name, "names_versioned@@PMU_1");
	/* every slot of the (small) library's PLT */
	for (uint64_t addr = 0; addr < 0x3000 && !plt; addr += 4) {
		a = pmu__dso_resolve(d, addr);
		plt = a->sym && !strcmp(a->sym->name, "pmu::target@plt");
	}
	if (!plt)
		fail_msg("no PLT slot named pmu::target@plt in %s", lib);
	pmu__dso_set_free(ds);
	dlclose(h);
}

/* The finished recording at path written out in fmt, as text (freed
 * by the caller); the file is removed. */
static char *report_of(struct pd_writer *w, const char *path,
		       enum pmu_report_format fmt)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_report_opts o = { .sz = sizeof(o) };
	struct pmu_profile *p;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	assert_int_equal(pmu__pd_write_finish(w, &err), 0);
	pmu__pd_write_close(w);
	assert_non_null(p = pmu_profile_open(path, NULL, &err));
	assert_non_null(out = open_memstream(&text, &len));
	if (pmu_report_write(p, NULL, fmt, out, &o, &err))
		fail_msg("%s", err.message);
	fclose(out);
	pmu_profile_close(p);
	unlink(path);
	return text;
}

/* Every thread of a profile gets its own thread in the Firefox export,
 * however many (1,500 here), each with only its own samples. */
static void test_firefox_threads(void **state)
{
	char path[] = "/tmp/pmu-test-ffthreads-XXXXXX";
	struct pd_writer w;
	char *text, *q;
	size_t threads = 0;
	const uint32_t n = 1500;

	(void)state;
	chain_file(&w, path, ST | PERF_SAMPLE_CALLCHAIN);
	for (uint32_t t = 0; t < n; t++) {
		uint64_t chain[2] = { 0x10000 + 16 * t, 0x20000 };
		uint64_t r[9];
		struct perf_event_header h = { PERF_RECORD_SAMPLE,
					       PERF_RECORD_MISC_USER, 72 };

		memcpy(&r[0], &h, 8);
		r[1] = chain[0];
		r[2] = (uint64_t)(100 + t) << 32 | 100;
		r[3] = 10 + t;
		r[4] = 1;
		r[5] = 3;
		r[6] = PERF_CONTEXT_USER;
		memcpy(&r[7], chain, 16);
		assert_int_equal(pmu__pd_write_data(&w, r, sizeof(r)), 0);
	}
	text = report_of(&w, path, PMU_REPORT_FIREFOX);
	for (q = text; (q = strstr(q, "\"tid\":\"")); q++)
		threads++;
	if (threads != n)
		fail_msg("%zu threads of %u", threads, n);
	/* each thread: one sample, so one stack of two frames */
	assert_null(strstr(text, "\"samples\":{\"weightType\":\"samples\","
				 "\"weight\":null,\"stack\":[0,"));
	free(text);
}

/* pmu script's layout is perf's: an event that records call chains
 * prints a frame per line after its sample's line, even a chain of one
 * frame (a reader of perf script's text would otherwise take the
 * one-line sample for a sample without a chain). */
static void test_script_chain_layout(void **state)
{
	char path[] = "/tmp/pmu-test-script-XXXXXX";
	uint64_t one[1] = { 0x10000 }, three[3] = { 0x10010, 0x50000, 0x60000 };
	struct pd_writer w;
	char *text, *q;
	size_t blocks = 0, frames = 0;

	(void)state;
	chain_file(&w, path, ST | PERF_SAMPLE_CALLCHAIN);
	put_comm(&w, 10, 10, "w", 1);
	put_chain(&w, 10, 10, one, 1);
	put_chain(&w, 10, 11, three, 3);
	text = report_of(&w, path, PMU_REPORT_SCRIPT);
	/* two samples, each a block: its line ending at ": ", its frames
	 * indented, a blank line */
	for (q = text; (q = strstr(q, ": \n\t")); q++)
		blocks++;
	for (q = text; (q = strstr(q, "\n\t")); q++)
		frames++;
	if (blocks != 2 || frames != 4)
		fail_msg("%zu blocks, %zu frame lines:\n%s", blocks, frames, text);
	free(text);
}

/* The registers a sample carries, by the recording machine: perf's
 * numbers (asm/perf_regs.h) and masks. */
static void test_regs(void **state)
{
	static const struct {
		int line;
		const char *machine;
		enum pmu__regs_arch arch;
		uint64_t dwarf, fp;
		int sp, pc, lr;
	} rows[] = {
		{ __LINE__, "x86_64", PMU__REGS_X86_64, 0xff0fff, 0, 7, 8, -1 },
		{ __LINE__, "aarch64", PMU__REGS_ARM64, 0x1ffffffffull,
		  1ull << 30, 31, 32, 30 },
		{ __LINE__, "arm64", PMU__REGS_ARM64, 0x1ffffffffull,
		  1ull << 30, 31, 32, 30 },
		{ __LINE__, "riscv64", PMU__REGS_NONE, 0, 0, -1, -1, -1 },
		{ __LINE__, "", PMU__REGS_NONE, 0, 0, -1, -1, -1 },
	};
	/* lr and pc of a sample holding x29, lr, sp, pc (bits 29-32) */
	const uint64_t regs[4] = { 0x29, 0x30, 0x31, 0x32 };
	uint64_t v = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		enum pmu__regs_arch a = pmu__regs_arch(rows[i].machine);

		if (a != rows[i].arch || pmu__regs_dwarf_mask(a) != rows[i].dwarf ||
		    pmu__regs_fp_mask(a) != rows[i].fp ||
		    pmu__regs_sp(a) != rows[i].sp ||
		    pmu__regs_pc(a) != rows[i].pc ||
		    pmu__regs_lr(a) != rows[i].lr)
			fail_msg("row at line %d", rows[i].line);
	}
	assert_true(pmu__regs_get(0xfull << 29, regs, 30, &v));
	assert_int_equal(v, 0x30);
	assert_true(pmu__regs_get(0xfull << 29, regs, 32, &v));
	assert_int_equal(v, 0x32);
	assert_false(pmu__regs_get(0xfull << 29, regs, 28, &v));
	assert_false(pmu__regs_get(0xfull << 29, NULL, 30, &v));
	assert_false(pmu__regs_get(~0ull, regs, -1, &v));
	/* this machine's own */
	assert_int_not_equal(pmu__regs_arch(NULL), PMU__REGS_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_rounds),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_maps),
		cmocka_unit_test(test_regs),
		cmocka_unit_test(test_many_rows),
		cmocka_unit_test(test_script_chain_layout),
		cmocka_unit_test(test_kernel_then_user),
		cmocka_unit_test(test_past_kernel_text),
		cmocka_unit_test(test_symbol_names),
		cmocka_unit_test(test_firefox_threads),
		cmocka_unit_test(test_max_stack),
		cmocka_unit_test(test_format_info),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
