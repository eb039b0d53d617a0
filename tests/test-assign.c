/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include <pmu/assign.h>

#include "events/assign.h"
#include "hwmodel/control.h"

int pmu__control_parse(const char *text, size_t len, struct pmu_control *c,
		       struct pmu_error *err);

#define MAXEV 10
#define END -99
#define F0 PMU_ASSIGN_FIXED

/* Expected counters (or conflict indices) and register values, derived
 * by hand from the event tables and the perfctr register layouts. */
struct row {
	int line;
	const char *model;
	const char *ev[MAXEV];
	int rc;
	int ctr[MAXEV];        /* rc == 0: counter of each event */
	uint64_t code[MAXEV];  /* rc == 0: codes[0] of each event */
	int conflict[MAXEV];   /* rc == -ENOSPC: smallest set, END-ended */
};

static const struct row rows[] = {
	{ __LINE__, "p6", { "INST_RETIRED", "CPU_CLK_UNHALTED:u" }, 0,
	  { 0, 1 }, { 0x4300c0, 0x010079 }, { END } },
	/* FLOPS only on PMC0 pushes the first event to PMC1 (no EN there) */
	{ __LINE__, "p6", { "DATA_MEM_REFS", "FLOPS:k" }, 0,
	  { 1, 0 }, { 0x030043, 0x4200c1 }, { END } },
	{ __LINE__, "p6", { "FLOPS", "FP_COMP_OPS_EXE" }, -ENOSPC,
	  { 0 }, { 0 }, { 0, 1, END } },
	{ __LINE__, "p6", { "INST_RETIRED", "MUL", "DIV", "UOPS_RETIRED" },
	  -ENOSPC, { 0 }, { 0 }, { 1, 2, END } },
	{ __LINE__, "p6", { "INST_RETIRED", "UOPS_RETIRED", "BR_INST_RETIRED" },
	  -ENOSPC, { 0 }, { 0 }, { 0, 1, 2, END } },
	{ __LINE__, "p6", { "L2_RQSTS:M:E:c=2" }, 0, { 0 },
	  { 0x02430c2e }, { END } },
	{ __LINE__, "pentm", { "BR_INST_EXEC:u", "EMON_EST_TRANS:FREQ" }, 0,
	  { 0, 1 }, { 0x410088, 0x030258 }, { END } },
	{ __LINE__, "p5mmx", { "TAKEN_BRANCHES", "RETURNS" }, 0, { 1, 0 },
	  { 0xf2, 0xf9 }, { END } },
	{ __LINE__, "p5", { "BUS_CYCLE_DURATION:u" }, 0, { 0 }, { 0x198 },
	  { END } },
	{ __LINE__, "p5mmx", { "TAKEN_BRANCHES", "PREDICTED_RETURNS" },
	  -ENOSPC, { 0 }, { 0 }, { 0, 1, END } },
	{ __LINE__, "vc3", { "INSTRUCTIONS_EXECUTED" }, 0, { 1 }, { 0xc0 },
	  { END } },
	{ __LINE__, "ppc7450", { "CYCLES", "RAW:0x45", "RAW:0x30" }, 0,
	  { 1, 0, 5 }, { 0x1, 0x45, 0x30 }, { END } },
	{ __LINE__, "ppc7450", { "CYCLES", "RAW:0x45", "RAW:0x46" }, -ENOSPC,
	  { 0 }, { 0 }, { 1, 2, END } },
	{ __LINE__, "ppc604", { "INSTR_COMPLETED", "RAW:0x40" }, 0, { 1, 0 },
	  { 0x2, 0x40 }, { END } },
	{ __LINE__, "ppc750", { "RAW:0x40", "RAW:0x41" }, -ENOSPC, { 0 },
	  { 0 }, { 0, 1, END } },
	{ __LINE__, "xscale1", { "INSTRUCTION", "DCACHE_MISS" }, 0, { 0, 1 },
	  { 0x7, 0xb }, { END } },
	{ __LINE__, "xscale1", { "INSTRUCTION", "DCACHE_MISS", "BRANCH" },
	  -ENOSPC, { 0 }, { 0 }, { 0, 1, 2, END } },
	{ __LINE__, "xscale2", { "INSTRUCTION", "DCACHE_MISS", "BRANCH" }, 0,
	  { 0, 1, 2 }, { 0x7, 0xb, 0x5 }, { END } },
	/* K7 raw encodings keep EN; counting clears INT (bit 20) */
	{ __LINE__, "k7", { "RETIRED_INSTRUCTIONS:u" }, 0, { 0 }, { 0x4100c0 },
	  { END } },
	{ __LINE__, "k7", { "RETIRED_INSTRUCTIONS", "RETIRED_INSTRUCTIONS:u",
	  "RETIRED_INSTRUCTIONS:k", "CPU_CLK_UNHALTED", "CPU_CLK_UNHALTED:u" },
	  -ENOSPC, { 0 }, { 0 }, { 0, 1, 2, 3, 4, END } },
	/* Skylake: three fixed counters, then the four generic ones;
	 * fixed-counter values are IA32_FIXED_CTR_CTRL fields (OS|USR). */
	{ __LINE__, "skl", { "INST_RETIRED:ANY_P", "UNHALTED_CORE_CYCLES",
	  "UNHALTED_REFERENCE_CYCLES", "BR_INST_RETIRED:ALL_BRANCHES",
	  "BR_MISP_RETIRED:ALL_BRANCHES", "LONGEST_LAT_CACHE:MISS",
	  "LONGEST_LAT_CACHE:REFERENCE" }, 0,
	  { F0, F0 + 1, F0 + 2, 0, 1, 2, 3 },
	  { 0x3, 0x30, 0x300, 0x4300c4, 0x4300c5, 0x43412e, 0x434f2e },
	  { END } },
	{ __LINE__, "skl", { "INST_RETIRED:ANY_P", "UNHALTED_CORE_CYCLES",
	  "UNHALTED_REFERENCE_CYCLES", "BR_INST_RETIRED:ALL_BRANCHES",
	  "BR_MISP_RETIRED:ALL_BRANCHES", "LONGEST_LAT_CACHE:MISS",
	  "LONGEST_LAT_CACHE:REFERENCE", "L2_RQSTS:MISS",
	  "L2_RQSTS:REFERENCES" }, -ENOSPC, { 0 }, { 0 },
	  { 3, 4, 5, 6, 7, END } },
	{ __LINE__, "skl", { "INST_RETIRED:ANY_P:u" }, 0, { F0 }, { 0x2 },
	  { END } },
	/* PREC_DIST narrows INST_RETIRED to counter 1 */
	{ __LINE__, "skl", { "INST_RETIRED:PREC_DIST", "INST_RETIRED:ANY_P" },
	  0, { 1, F0 }, { 0x4301c0, 0x3 }, { END } },
	{ __LINE__, "skl", { "INST_RETIRED:PREC_DIST",
	  "BR_INST_RETIRED:ALL_BRANCHES", "INST_RETIRED:PREC_DIST:u" },
	  -ENOSPC, { 0 }, { 0 }, { 0, 2, END } },
	{ __LINE__, "skl", { "UNHALTED_REFERENCE_CYCLES",
	  "UNHALTED_REFERENCE_CYCLES:k" }, -ENOSPC, { 0 }, { 0 },
	  { 0, 1, END } },
	/* TOTAL_CYCLES stands for PREC_DIST:i=1:c=10 but is counted on
	 * 0,2,3 (SKL event file), not on PREC_DIST's counter 1 */
	{ __LINE__, "skl", { "INST_RETIRED:TOTAL_CYCLES" }, 0, { 0 },
	  { 0x0ac301c0 }, { END } },
	{ __LINE__, "skl", { "INST_RETIRED:PREC_DIST",
	  "INST_RETIRED:TOTAL_CYCLES" }, 0, { 1, 0 },
	  { 0x4301c0, 0x0ac301c0 }, { END } },
	/* a fixed counter has no edge, inv, cmask or in_tx filters */
	{ __LINE__, "skl", { "INST_RETIRED:ANY_P:c=2" }, 0, { 0 },
	  { 0x024300c0 }, { END } },
	{ __LINE__, "skl", { "UNHALTED_CORE_CYCLES:i=1:c=1" }, 0, { 0 },
	  { 0x01c3003c }, { END } },
	{ __LINE__, "skl", { "INST_RETIRED:ANY_P:e=1:c=1" }, 0, { 0 },
	  { 0x014700c0 }, { END } },
	{ __LINE__, "skl", { "INST_RETIRED:ANY_P:intx=1" }, 0, { 0 },
	  { 0x1004300c0ull }, { END } },
	/* any-thread is a fixed-counter field (bit 2) */
	{ __LINE__, "skl", { "INST_RETIRED:ANY_P:t=1" }, 0, { F0 },
	  { 0x7 }, { END } },
	/* Pentium 4: codes[0] is the CCCR (enable, ESCR select, both
	 * threads active); FSB_ESCR0 serves counter 0, CRU_ESCR0 counter 12 */
	{ __LINE__, "p4", { "global_power_events:RUNNING",
	  "instr_retired:NBOGUSNTAG" }, 0, { 0, 12 }, { 0x3d000, 0x39000 },
	  { END } },
	/* three CRU_ESCR0/1 users for two ESCRs */
	{ __LINE__, "p4", { "instr_retired:NBOGUSNTAG", "uops_retired:NBOGUS",
	  "global_power_events:RUNNING", "mispred_branch_retired:BOGUS" },
	  -ENOSPC, { 0 }, { 0 }, { 0, 1, 3, END } },
	{ __LINE__, "p6", { "NO_SUCH_EVENT" }, -ENOENT, { 0 }, { 0 }, { END } },
	{ __LINE__, "no_such_model", { "X" }, -ENOENT, { 0 }, { 0 }, { END } },
};

static int nev(const struct row *r)
{
	int n = 0;

	while (n < MAXEV && r->ev[n])
		n++;
	return n;
}

static void check_row(const struct row *r, const struct pmu_assignment *a,
		      int rc)
{
	int n = nev(r);

	if (rc != r->rc)
		fail_msg("line %d: rc %d, want %d", r->line, rc, r->rc);
	if (rc == 0)
		for (int i = 0; i < n; i++)
			if (a->ev[i].counter != r->ctr[i] ||
			    a->ev[i].codes[0] != r->code[i])
				fail_msg("line %d: event %d on %d = 0x%llx, want "
					 "%d = 0x%llx", r->line, i,
					 a->ev[i].counter,
					 (unsigned long long)a->ev[i].codes[0],
					 r->ctr[i],
					 (unsigned long long)r->code[i]);
	if (rc == -ENOSPC) {
		int k = 0;
		while (r->conflict[k] != END)
			k++;
		if (a->nconflict != (size_t)k || !a->reason[0])
			fail_msg("line %d: conflict of %zu, want %d", r->line,
				 a->nconflict, k);
		for (int j = 0; j < k; j++)
			if (a->conflict[j] != (size_t)r->conflict[j])
				fail_msg("line %d: conflict[%d] = %zu, want %d",
					 r->line, j, a->conflict[j],
					 r->conflict[j]);
	}
}

static void test_rows(void **state)
{
	static struct pmu_assignment a;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmu_assign_opts o = { .sz = sizeof(o),
					     .model = rows[i].model };
		struct pmu_error err = { .size = sizeof(err) };
		a.size = sizeof(a);
		int rc = pmu_assign(rows[i].ev, nev(&rows[i]), &o, &a, &err);
		check_row(&rows[i], &a, rc);
	}
}

/* The ESCR table of the Pentium 4 (perfctr's select table). */
static void test_p4_escr(void **state)
{
	static const struct { int line, ctr; unsigned sel; uint32_t msr; } t[] = {
		{ __LINE__, 12, 4, 0x3B8 }, { __LINE__, 14, 4, 0x3B9 },
		{ __LINE__, 16, 5, 0x3CC }, { __LINE__, 17, 5, 0x3CD },
		{ __LINE__, 13, 3, 0x3BE }, { __LINE__, 14, 3, 0 },
		{ __LINE__, 4, 1, 0x3C4 },  { __LINE__, 6, 1, 0x3C5 },
		{ __LINE__, 8, 5, 0x3A8 },  { __LINE__, 0, 7, 0x3A0 },
		{ __LINE__, 3, 6, 0x3A3 },  { __LINE__, 4, 3, 0 },
		{ __LINE__, 18, 0, 0 },     { __LINE__, 9, 4, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (pmu__p4_escr_msr(t[i].ctr, t[i].sel) != t[i].msr)
			fail_msg("line %d: ESCR of counter %d sel %u", t[i].line,
				 t[i].ctr, t[i].sel);
}

/* Three CRU_ESCR0/1 users cannot share two ESCRs, whatever the counters. */
static void test_p4_escr_conflict(void **state)
{
	struct pmu__asg_req req[3];
	int choice[3], set[3];

	(void)state;
	assert_int_equal(pmu__assign_p4_cands("instr_retired", 4, &req[0]), 6);
	pmu__assign_p4_cands("uops_retired", 4, &req[1]);
	pmu__assign_p4_cands("mispred_branch_retired", 4, &req[2]);
	assert_true(pmu__assign_solve(req, 2, 3, choice));
	assert_int_not_equal(req[0].cand[choice[0]].res,
			     req[1].cand[choice[1]].res);
	assert_false(pmu__assign_solve(req, 3, 7, choice));
	assert_int_equal(pmu__assign_conflict(req, 3, set), 3);
	/* branch_retired uses CRU_ESCR2/3: it fits next to two CRU0/1 users */
	pmu__assign_p4_cands("branch_retired", 5, &req[2]);
	assert_true(pmu__assign_solve(req, 3, 7, choice));
	assert_int_equal(pmu__assign_p4_cands("BSQ_allocation", 7, &req[0]), 2);
	assert_int_equal(req[0].cand[0].res, 0x3A0);
	assert_int_equal(pmu__assign_p4_cands("no_such", 1, &req[0]), 0);
}

/* The control written for a P6 assignment passes perfctr's checks. */
static void test_control_roundtrip(void **state)
{
	static const char *ev[] = { "DATA_MEM_REFS", "FLOPS" };
	static struct pmu_assignment a = { .size = sizeof(a) };
	struct pmu_assign_opts o = { .sz = sizeof(o), .model = "p6" };
	struct pmu_control c;
	char buf[1024];
	int len;

	(void)state;
	assert_int_equal(pmu_assign(ev, 2, &o, &a, NULL), 0);
	len = pmu_assign_control_json(&a, buf, sizeof(buf));
	assert_true(len > 0 && (size_t)len < sizeof(buf));
	memset(&c, 0, sizeof(c));
	assert_int_equal(pmu__control_parse(buf, (size_t)len, &c, NULL), 0);
	assert_int_equal(c.nractrs, 2);
	assert_int_equal(c.pmc_map[0], 1);
	assert_int_equal(c.evntsel[0], 0x030043);
	assert_int_equal(c.evntsel[1], 0x4300c1);
	assert_int_equal(pmu_assign_control_json(&a, NULL, 0), len);
	a.nconflict = 1;
	assert_int_equal(pmu_assign_control_json(&a, buf, sizeof(buf)),
			 -EINVAL);
}

/*
 * XScale: the 80200 bus events (0x10-0x16) are among the statistics seed
 * 004 lists for a counter, so they are assigned and make a control like
 * the core's events (later perfctr drivers took only 0x00-0x0D; the
 * seed's text wins).
 */
static void test_xscale_bus_events(void **state)
{
	static const char *bus[] = { "INSTRUCTION", "BCU_REQUEST" };
	static const char *rmw[] = { "RMW", "BCU_1_BIT_ERR" };
	static struct pmu_assignment a = { .size = sizeof(a) };
	struct pmu_assign_opts o = { .sz = sizeof(o), .model = "xscale1" };
	char buf[1024];

	(void)state;
	assert_int_equal(pmu_assign(bus, 2, &o, &a, NULL), 0);
	assert_int_equal(a.ev[1].counter, 1);
	assert_int_equal(a.ev[1].codes[0], 0x10);
	assert_string_equal(a.note, "");
	assert_true(pmu_assign_control_json(&a, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "\"0x10\""));   /* evntsel */
	/* EVT_RMW 0x16 and EVT_BCU_1_BIT_ERR 0x15 */
	assert_int_equal(pmu_assign(rmw, 2, &o, &a, NULL), 0);
	assert_int_equal(a.ev[0].codes[0], 0x16);
	assert_int_equal(a.ev[1].codes[0], 0x15);
	assert_true(pmu_assign_control_json(&a, buf, sizeof(buf)) > 0);
}

/*
 * P6: EVNTSEL0 bit 22 enables both counters (seed-semantics 1.4), so an
 * event that only PMC1 counts, alone, makes a control that perfctr takes
 * but that counts nothing: noted, and no control is written.  With a
 * second event on PMC0 it is fine.
 */
static void test_p6_pmc1_alone(void **state)
{
	static const char *alone[] = { "MUL" };
	static const char *pair[] = { "MUL", "INST_RETIRED" };
	static struct pmu_assignment a = { .size = sizeof(a) };
	struct pmu_assign_opts o = { .sz = sizeof(o), .model = "p6" };
	char buf[1024];

	(void)state;
	assert_int_equal(pmu_assign(alone, 1, &o, &a, NULL), 0);
	assert_int_equal(a.ev[0].counter, 1);
	assert_non_null(strstr(a.note, "MUL"));
	assert_int_equal(pmu_assign_control_json(&a, buf, sizeof(buf)),
			 -EPERM);
	assert_int_equal(pmu_assign(pair, 2, &o, &a, NULL), 0);
	assert_int_equal(a.ev[1].counter, 0);
	assert_string_equal(a.note, "");
	assert_true(pmu_assign_control_json(&a, buf, sizeof(buf)) > 0);
}

/* Pentium 4: the ESCR of each placed event, thread 1 bits cleared, and
 * the control written from it. */
static void test_p4_control(void **state)
{
	static const char *ev[] = { "global_power_events:RUNNING",
				    "instr_retired:NBOGUSNTAG:u" };
	static struct pmu_assignment a = { .size = sizeof(a) };
	struct pmu_assign_opts o = { .sz = sizeof(o), .model = "p4" };
	struct pmu_control c;
	char buf[1024];
	int len;

	(void)state;
	assert_int_equal(pmu_assign(ev, 2, &o, &a, NULL), 0);
	assert_string_equal(a.control_model, "p4");
	/* event select << 25 | event mask << 9 | T0_OS (bit 3) | T0_USR */
	assert_int_equal(a.ev[0].codes[1], 0x13ull << 25 | 1 << 9 | 0xc);
	assert_int_equal(a.ev[0].escr_msr, 0x3a2);
	assert_int_equal(a.ev[1].codes[1], 0x02ull << 25 | 1 << 9 | 0x4);
	assert_int_equal(a.ev[1].escr_msr, 0x3b8);
	len = pmu_assign_control_json(&a, buf, sizeof(buf));
	assert_true(len > 0 && (size_t)len < sizeof(buf));
	memset(&c, 0, sizeof(c));
	assert_int_equal(pmu__control_parse(buf, (size_t)len, &c, NULL), 0);
	assert_int_equal(c.nractrs, 2);
	assert_int_equal(c.pmc_map[1], 12);
	assert_int_equal(c.evntsel[0], 0x3d000);
	assert_int_equal(c.p4.escr[1], 0x4000204);
}

/* How fast subsets can be tried (printed, never asserted). */
static void test_speed(void **state)
{
	struct pmu__asg_req req[8];
	struct timespec t0, t1;
	int choice[8], placed = 0, iters = 200000;

	(void)state;
	for (int i = 0; i < 8; i++) {
		req[i].ncand = 4;
		for (int k = 0; k < 4; k++)
			req[i].cand[k] = (struct pmu__asg_cand){ (uint8_t)((i + k) % 6), 0 };
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int it = 0; it < iters; it++)
		placed += pmu__assign_solve(req, 8, (uint64_t)(it & 0xFF), choice);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("# assign: %d subset solves in %.1f ms (%d placed)\n", iters,
	       (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e6, placed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_p4_escr),
		cmocka_unit_test(test_p4_escr_conflict),
		cmocka_unit_test(test_control_roundtrip),
		cmocka_unit_test(test_p4_control),
		cmocka_unit_test(test_xscale_bus_events),
		cmocka_unit_test(test_p6_pmc1_alone),
		cmocka_unit_test(test_speed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
