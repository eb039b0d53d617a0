/* SPDX-License-Identifier: MIT */
/*
 * Event sets of a session on the simulated PMU: perfmon2's sets inside
 * a monitoring context.  Every expectation follows from the stream fed
 * and the switch policy: simulated time is cycles (1 ns each), a TIME
 * set counts for exactly its timeout, an OVERFLOW set until its
 * designated event overflowed `count` times every `period`.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <pmu/pmu.h>

static struct pmu_session *sim_session(const char *model)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_session_opts so = { .sz = sizeof(so), .driver = "sim",
				       .model = model };
	struct pmu_session *s = pmu_session_new_opts(&so, &err);

	if (!s)
		fail_msg("%s", err.message);
	return s;
}

static void add(struct pmu_session *s, const char *ev, bool new_set)
{
	struct pmu_error err = { .size = sizeof(err) };

	if (new_set && pmu_session_add_set(s, &err) < 0)
		fail_msg("add_set: %s", err.message);
	if (pmu_session_add(s, ev, &err))
		fail_msg("add %s: %s", ev, err.message);
}

static void time_policy(struct pmu_session *s, uint64_t ns)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_switch_opts o = { .sz = sizeof(o), .kind = PMU_SWITCH_TIME,
				     .timeout_ns = ns };

	if (pmu_session_set_switch(s, -1, &o, &err))
		fail_msg("switch: %s", err.message);
}

static void open_start(struct pmu_session *s)
{
	struct pmu_error err = { .size = sizeof(err) };

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

static void info(struct pmu_session *s, size_t k, struct pmu_set_info *in)
{
	in->size = sizeof(*in);
	assert_int_equal(pmu_session_set_info(s, k, in), 0);
}

/* P6, 100-cycle turns, 10 passes of 30 instructions then 50 cycles:
 * instructions come at cycles 0, 50, ... 450.  Set 0 counts cycles
 * [0,100) [200,300) [400,500), set 1 [100,200) [300,400); a switch at
 * 500 makes set 1 active again.  Instructions of passes 0,1,4,5,8,9
 * fall in set 0, of passes 2,3,6,7 in set 1. */
static void test_time_exact(void **state)
{
	struct pmu_session *s = sim_session("p6");
	struct pmu_value v[3];
	struct pmu_set_info in0, in1;

	(void)state;
	add(s, "INST_RETIRED", false);
	add(s, "CPU_CLK_UNHALTED,INST_RETIRED", true);
	time_policy(s, 100);
	open_start(s);
	feed(s, "repeat 10 {\nevent 0xc0 30\ncycles 50\n}\n");
	assert_int_equal(pmu_session_stop(s), 0);
	v[0].size = sizeof(v[0]);
	assert_int_equal(pmu_session_read(s, v, 3), 3);
	info(s, 0, &in0);
	info(s, 1, &in1);
	assert_int_equal(in0.duration, 300);
	assert_int_equal(in1.duration, 200);
	assert_int_equal(in0.runs, 3);      /* the start, then 200, 400 */
	assert_int_equal(in1.runs, 3);      /* 100, 300, 500 */
	assert_int_equal(in1.timeout_left, 100);
	assert_int_equal(v[0].raw, 6 * 30);
	assert_int_equal(v[1].raw, 200);
	assert_int_equal(v[2].raw, 4 * 30);
	for (int i = 0; i < 3; i++)
		assert_int_equal(v[i].enabled, 500);
	assert_int_equal(v[0].running, 300);
	assert_int_equal(v[1].running, 200);
	/* the estimates: raw * 500 / running */
	assert_int_equal(v[0].scaled, 300);
	assert_int_equal(v[1].scaled, 500);
	assert_int_equal(v[2].scaled, 300);
	assert_int_equal(pmu_session_event_set(s, 2), 1);
	pmu_session_free(s);
}

/* OVERFLOW: a turn ends at the 2nd overflow of INST_RETIRED every 100,
 * i.e. after 200 instructions; set 1 lacks the event, which is counted
 * for it beside its own.  1000 instructions: turns of 200 alternate,
 * 5 of them (set 0 three, set 1 two), the 5th switch making set 1
 * active when the last instruction is counted. */
static void test_overflow_turns(void **state)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_session *s = sim_session("p6");
	struct pmu_switch_opts o = { .sz = sizeof(o),
				     .kind = PMU_SWITCH_OVERFLOW,
				     .event = "INST_RETIRED", .period = 100,
				     .count = 2 };
	struct pmu_set_info in0, in1;
	struct pmu_value v[2];

	(void)state;
	add(s, "INST_RETIRED", false);
	add(s, "CPU_CLK_UNHALTED", true);
	if (pmu_session_set_switch(s, -1, &o, &err))
		fail_msg("%s", err.message);
	open_start(s);
	/* one cycle per instruction */
	feed(s, "repeat 1000 {\nevent 0xc0 1\ncycles 1\n}\n");
	pmu_session_stop(s);
	info(s, 0, &in0);
	info(s, 1, &in1);
	assert_int_equal(in0.runs, 3);
	assert_int_equal(in1.runs, 3);
	/* set 0's turns: instructions [0,200) [400,600) [800,1000);
	 * the cycle after each instruction belongs to the same turn but
	 * for the turn's last one, which follows the switch */
	assert_int_equal(in0.duration + in1.duration, 1000);
	assert_int_equal(in0.duration, 3 * 199 + 2);
	v[0].size = sizeof(v[0]);
	assert_int_equal(pmu_session_read(s, v, 2), 2);
	assert_int_equal(v[0].raw, 600);
	/* the designated event's last overflow is set 0's */
	assert_int_equal(in0.ovfl_mask, 1);
	pmu_session_free(s);
}

/* One standard error of the estimate from the spread of per-run rates:
 * set 0 counts 10 then 30 events in its two 100-cycle runs (rates 0.1,
 * 0.3 per ns: mean 0.2, sample variance 0.02, standard error of the
 * mean 0.1), and did not count for the other 200 ns of the run. */
static void test_scaled_err(void **state)
{
	struct pmu_session *s = sim_session("p6");
	struct pmu_value v[2];

	(void)state;
	add(s, "INST_RETIRED", false);
	add(s, "CPU_CLK_UNHALTED", true);
	time_policy(s, 100);
	open_start(s);
	feed(s, "event 0xc0 10\ncycles 200\nevent 0xc0 30\ncycles 200\n");
	pmu_session_stop(s);
	v[0].size = sizeof(v[0]);
	assert_int_equal(pmu_session_read(s, v, 2), 2);
	assert_int_equal(v[0].raw, 40);
	assert_int_equal(v[0].running, 200);
	assert_int_equal(v[0].enabled, 400);
	assert_int_equal(v[0].scaled_err, (uint64_t)llround(0.1 * 200));
	/* set 1's cycles: every run at 1 per ns, no spread */
	assert_int_equal(v[1].scaled_err, 0);
	pmu_session_free(s);
}

static void test_reset(void **state)
{
	struct pmu_session *s = sim_session("k8");
	struct pmu_set_info in;
	struct pmu_value v[2];

	(void)state;
	add(s, "RETIRED_INSTRUCTIONS", false);
	add(s, "CPU_CLK_UNHALTED", true);
	time_policy(s, 1000);
	open_start(s);
	feed(s, "event 0xc0 77\ncycles 2500\n");
	assert_int_equal(pmu_session_reset(s), 0);
	info(s, 1, &in);
	assert_int_equal(in.runs, 0);
	assert_int_equal(in.duration, 0);
	/* counting goes on from zero, set 0 first again */
	feed(s, "event 0xc0 5\ncycles 1500\n");
	pmu_session_stop(s);
	v[0].size = sizeof(v[0]);
	assert_int_equal(pmu_session_read(s, v, 2), 2);
	assert_int_equal(v[0].raw, 5);
	assert_int_equal(v[1].raw, 500);
	pmu_session_free(s);
}

/* A set that does not fit the PMU counts what fits and says why the
 * rest cannot: three events on the P6's two counters. */
static void test_set_too_big(void **state)
{
	struct pmu_session *s = sim_session("p6");
	struct pmu_value v[4];
	int e;

	(void)state;
	add(s, "INST_RETIRED", false);
	add(s, "{CPU_CLK_UNHALTED,INST_RETIRED,BR_INST_RETIRED}", true);
	open_start(s);
	feed(s, "event 0xc0 10\ncycles 10\n");
	v[0].size = sizeof(v[0]);
	assert_int_equal(pmu_session_read(s, v, 4), 4);
	assert_int_equal(pmu_session_event_status(s, 1, &e),
			 PMU_EVENT_NOT_COUNTED);
	assert_non_null(strstr(pmu_session_event_reason(s, 1), "counter"));
	assert_int_equal(v[1].status, PMU_EVENT_NOT_COUNTED);
	assert_int_equal(v[0].status, PMU_EVENT_OK);
	pmu_session_free(s);
}

/* XScale: set 0 on PMN0 (instructions, raw 0x07), set 1 the clock
 * counter and PMN0 on the data-cache access event (0x0a). */
static void test_xscale(void **state)
{
	struct pmu_session *s = sim_session("xscale1");
	struct pmu_value v[3];

	(void)state;
	add(s, "r07", false);
	add(s, "cycles,r0a", true);
	time_policy(s, 100);
	open_start(s);
	feed(s, "repeat 4 {\nevent 7 3\nevent 0x0a 2\ncycles 50\n}\n");
	pmu_session_stop(s);
	v[0].size = sizeof(v[0]);
	assert_int_equal(pmu_session_read(s, v, 3), 3);
	/* passes 0,1 in set 0, 2,3 in set 1 (switch at cycle 100) */
	assert_int_equal(v[0].raw, 6);
	assert_int_equal(v[1].raw, 100);
	assert_int_equal(v[2].raw, 4);
	pmu_session_free(s);
}

/* Pentium 4: ESCR and CCCR pairs come from perfctr's control, so each
 * set's events count on their own counters. */
static void test_p4(void **state)
{
	struct pmu_session *s = sim_session("p4");
	struct pmu_value v[2];

	(void)state;
	add(s, "instr_retired:nbogusntag", false);
	add(s, "global_power_events:running", true);
	time_policy(s, 1000);
	open_start(s);
	feed(s, "event 2 100 escr=0x3b8 umask=1\ncycles 1500\n"
		"event 2 40 escr=0x3b8 umask=1\n");
	pmu_session_stop(s);
	v[0].size = sizeof(v[0]);
	assert_int_equal(pmu_session_read(s, v, 2), 2);
	/* set 0 counts [0,1000) and again from 2000; set 1 [1000,1500] */
	assert_int_equal(v[0].raw, 100);
	assert_int_equal(v[1].raw, 500);
	pmu_session_free(s);
}

static void test_errors(void **state)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_session *s = sim_session("p6");
	struct pmu_open_opts oo = { .sz = sizeof(oo),
				    .target = PMU_TARGET_PID, .pid = 1 };

	(void)state;
	add(s, "INST_RETIRED", false);
	add(s, "CPU_CLK_UNHALTED", true);
	assert_int_equal(pmu_session_open(s, &oo, &err), -EINVAL);
	assert_non_null(strstr(err.message, "simulated"));
	pmu_session_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time_exact),
		cmocka_unit_test(test_overflow_turns),
		cmocka_unit_test(test_scaled_err),
		cmocka_unit_test(test_reset),
		cmocka_unit_test(test_set_too_big),
		cmocka_unit_test(test_xscale),
		cmocka_unit_test(test_p4),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
