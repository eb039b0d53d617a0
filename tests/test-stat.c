/* SPDX-License-Identifier: MIT */
/*
 * The counting engine (<pmu/stat.h>) over real sessions: the aggregates
 * of every mode partition the units, the sums of every mode equal the
 * session's own global reading once counting has stopped, a thread
 * target has no topology, and the statistics of repeated runs match the
 * textbook values.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <pmu/pmu.h>

/* A system-wide session of software events, counted a while, stopped. */
static struct pmu_session *counted_cpus(void)
{
	struct pmu_error err = { .size = sizeof(err) };
	PMU_OPTS(pmu_open_opts, oo, .target = PMU_TARGET_CPUS);
	struct pmu_session *s = pmu_session_new(NULL);
	volatile unsigned long x = 0;

	assert_non_null(s);
	assert_int_equal(pmu_session_add(s, "cpu-clock", NULL), 0);
	assert_int_equal(pmu_session_add(s, "context-switches", NULL), 0);
	if (pmu_session_open(s, &oo, &err)) {
		pmu_session_free(s);
		return NULL;
	}
	assert_int_equal(pmu_session_start(s), 0);
	for (unsigned long i = 0; i < 20000000; i++)
		x += i;
	usleep(2000);
	assert_int_equal(pmu_session_stop(s), 0);
	return s;
}

static const enum pmu_aggr_mode modes[] = {
	PMU_AGGR_GLOBAL, PMU_AGGR_CPU, PMU_AGGR_THREAD, PMU_AGGR_CORE,
	PMU_AGGR_SOCKET, PMU_AGGR_DIE, PMU_AGGR_NODE, PMU_AGGR_CACHE,
};

static void test_modes_partition_units(void **state)
{
	struct pmu_session *s = counted_cpus();
	size_t ne, nu;
	struct pmu_value *global;

	(void)state;
	if (!s)
		skip();   /* no system-wide counting here (not root?) */
	ne = pmu_session_nevents(s);
	nu = pmu_session_nunits(s);
	assert_true(nu >= 1);
	global = calloc(ne, sizeof(*global));
	global[0].size = sizeof(*global);
	assert_int_equal(pmu_session_read(s, global, ne), (ssize_t)ne);
	assert_true(global[0].raw > 0);

	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		struct pmu_error err = { .size = sizeof(err) };
		PMU_OPTS(pmu_stat_opts, o, .mode = modes[m]);
		struct pmu_stat *st = pmu_stat_new(s, &o, &err);
		size_t na, *units;
		struct pmu_value *v;
		int total = 0;

		if (!st)
			fail_msg("mode %d: %s", modes[m], err.message);
		na = pmu_stat_naggr(st);
		assert_true(na >= 1 && na <= nu);
		if (modes[m] == PMU_AGGR_GLOBAL)
			assert_int_equal(na, 1);
		if (modes[m] == PMU_AGGR_CPU || modes[m] == PMU_AGGR_THREAD)
			assert_int_equal(na, nu);
		/* every unit in exactly one aggregate; nr counts them */
		units = calloc(na, sizeof(*units));
		for (size_t u = 0; u < nu; u++) {
			ssize_t a = pmu_stat_unit_aggr(st, u);

			assert_true(a >= 0 && (size_t)a < na);
			units[a]++;
		}
		assert_int_equal(pmu_stat_unit_aggr(st, nu), -EINVAL);
		for (size_t a = 0; a < na; a++) {
			struct pmu_aggr ag = { .size = sizeof(ag) };

			assert_int_equal(pmu_stat_aggr(st, a, &ag), 0);
			assert_int_equal((size_t)ag.nr, units[a]);
			total += ag.nr;
			if (modes[m] == PMU_AGGR_CPU) {
				struct pmu_unit_info ui = { .size = sizeof(ui) };

				pmu_session_unit_info(s, a, &ui);
				assert_int_equal(ag.cpu, ui.cpu);
			} else {
				assert_int_equal(ag.cpu, -1);
			}
			if (modes[m] == PMU_AGGR_SOCKET)
				assert_true(ag.socket >= 0 && ag.core == -1);
			if (modes[m] == PMU_AGGR_CORE)
				assert_true(ag.core >= 0 && ag.socket >= 0);
			if (modes[m] == PMU_AGGR_CACHE)
				assert_true(ag.cache_level >= 1 &&
					    ag.cache_id >= 0);
		}
		assert_int_equal(total, (int)nu);
		assert_int_equal(pmu_stat_aggr(st, na, &(struct pmu_aggr){
					 .size = sizeof(struct pmu_aggr) }),
				 -EINVAL);
		/* the aggregates' sums are the global reading */
		v = calloc(na * ne, sizeof(*v));
		v[0].size = sizeof(*v);
		assert_int_equal(pmu_stat_read(st, v, na * ne - 1), -EINVAL);
		assert_int_equal(pmu_stat_read(st, v, na * ne),
				 (ssize_t)(na * ne));
		for (size_t i = 0; i < ne; i++) {
			uint64_t raw = 0, enabled = 0;

			for (size_t a = 0; a < na; a++) {
				raw += v[a * ne + i].raw;
				enabled += v[a * ne + i].enabled;
			}
			if (raw != global[i].raw || enabled != global[i].enabled)
				fail_msg("mode %d event %zu: %" PRIu64 " %" PRIu64
					 " summed, %" PRIu64 " %" PRIu64
					 " global", modes[m], i, raw, enabled,
					 global[i].raw, global[i].enabled);
			assert_false(pmu_stat_folded(st, i));
		}
		free(v);
		free(units);
		pmu_stat_free(st);
	}
	free(global);
	pmu_session_free(s);
}

static void test_errors(void **state)
{
	struct pmu_error err = { .size = sizeof(err) };
	PMU_OPTS(pmu_stat_opts, bad_mode, .mode = (enum pmu_aggr_mode)42);
	PMU_OPTS(pmu_stat_opts, bad_level, .mode = PMU_AGGR_CACHE,
		 .cache_level = -2);
	PMU_OPTS(pmu_stat_opts, no_level, .mode = PMU_AGGR_CACHE,
		 .cache_level = 9);
	PMU_OPTS(pmu_stat_opts, socket, .mode = PMU_AGGR_SOCKET);
	PMU_OPTS(pmu_open_opts, self);
	struct pmu_session *s;
	char name[64];

	(void)state;
	assert_null(pmu_stat_new(NULL, NULL, &err));
	assert_int_equal(err.code, -EINVAL);
	s = counted_cpus();
	if (s) {
		assert_null(pmu_stat_new(s, &bad_mode, &err));
		assert_non_null(strstr(err.message, "42"));
		assert_null(pmu_stat_new(s, &bad_level, &err));
		assert_int_equal(err.code, -EINVAL);
		assert_null(pmu_stat_new(s, &no_level, &err));
		assert_int_equal(errno, ENOENT);
		assert_non_null(strstr(err.message, "no cache of level 9"));
		pmu_session_free(s);
	}
	/* the calling thread: one unit, no CPU to find a socket of */
	s = pmu_session_new(NULL);
	assert_int_equal(pmu_session_add(s, "task-clock", NULL), 0);
	assert_int_equal(pmu_session_open(s, &self, &err), 0);
	assert_null(pmu_stat_new(s, &socket, &err));
	assert_non_null(strstr(err.message, "cannot tell which CPUs"));
	{
		struct pmu_stat *st = pmu_stat_new(s, NULL, &err);

		assert_non_null(st);
		assert_int_equal(pmu_stat_naggr(st), 1);
		assert_int_equal(pmu_stat_event_name(st, 0, name, sizeof(name)),
				 (ssize_t)strlen("task-clock"));
		assert_string_equal(name, "task-clock");
		/* cut, terminated, the full length returned */
		assert_int_equal(pmu_stat_event_name(st, 0, name, 5), 10);
		assert_string_equal(name, "task");
		assert_int_equal(pmu_stat_event_name(st, 1, name, 5), -EINVAL);
		pmu_stat_free(st);
	}
	pmu_session_free(s);
}

/* perf's derived figures on a simulated P6: pairs by kind, status and
 * cgroup, units and formats as perf prints them. */
static void test_derive(void **state)
{
	struct pmu_error err = { .size = sizeof(err) };
	PMU_OPTS(pmu_session_opts, so, .driver = "sim", .model = "p6");
	struct pmu_session *s = pmu_session_new_opts(&so, &err);
	double counts[4] = { 1000, 2500, 400, 10 };  /* cyc ins br miss */
	enum pmu_event_status st4[4] = { PMU_EVENT_OK, PMU_EVENT_OK,
					 PMU_EVENT_OK, PMU_EVENT_OK };
	const char *cg[4] = { "a", "a", "a", "b" };
	struct pmu_derived d[4] = { { .size = sizeof(d[0]) } };
	struct pmu_stat *st;

	(void)state;
	assert_non_null(s);
	assert_int_equal(pmu_session_add(s,
		"cycles,instructions,branches,branch-misses", &err), 0);
	assert_int_equal(pmu_session_open(s, NULL, &err), 0);
	st = pmu_stat_new(s, NULL, &err);
	assert_non_null(st);
	assert_int_equal(pmu_stat_derive(st, counts, st4, NULL, 0, d), 0);
	/* cycles: no clock in the run, so no GHz */
	assert_null(d[0].unit);
	assert_string_equal(d[1].unit, "insn per cycle");
	assert_true(fabs(d[1].value - 2.5) < 1e-12);
	assert_int_equal(d[1].fmt, PMU_DERIVED_IPC);
	assert_null(d[2].unit);
	assert_string_equal(d[3].unit, "of all branches");
	assert_true(d[3].pct && fabs(d[3].value - 2.5) < 1e-12);
	assert_int_equal(d[3].fmt, PMU_DERIVED_PCT);
	/* cycles not counted: no IPC; another cgroup: no pairing */
	st4[0] = PMU_EVENT_NOT_COUNTED;
	d[0].size = sizeof(d[0]);
	assert_int_equal(pmu_stat_derive(st, counts, st4, cg, 0, d), 0);
	assert_null(d[1].unit);
	assert_null(d[3].unit);
	/* an unsized output, a missing array */
	d[0].size = 0;
	assert_int_equal(pmu_stat_derive(st, counts, st4, NULL, 0, d), -EINVAL);
	d[0].size = sizeof(d[0]);
	assert_int_equal(pmu_stat_derive(st, NULL, st4, NULL, 0, d), -EINVAL);
	pmu_stat_free(st);
	pmu_session_free(s);
}

static void test_value_add(void **state)
{
	struct pmu_value a = { .size = sizeof(a), .raw = 100, .enabled = 10,
			       .running = 5,
			       .status = PMU_EVENT_NOT_COUNTED };
	struct pmu_value b = { .size = sizeof(b), .raw = 300, .enabled = 10,
			       .running = 10, .status = PMU_EVENT_OK };

	(void)state;
	pmu_value_add(&a, &b);
	assert_int_equal(a.raw, 400);
	assert_int_equal(a.enabled, 20);
	assert_int_equal(a.running, 15);
	/* 400 * 20 / 15, exactly */
	assert_int_equal(a.scaled, 533);
	assert_int_equal(a.status, PMU_EVENT_OK);
	b.status = PMU_EVENT_NOT_COUNTED;
	pmu_value_add(&a, &b);
	assert_int_equal(a.status, PMU_EVENT_OK);
	/* an interval: now less before, rescaled on its own times */
	{
		struct pmu_value now = { .size = sizeof(now), .raw = 1000,
					 .enabled = 100, .running = 50,
					 .status = PMU_EVENT_OK };
		struct pmu_value before = { .size = sizeof(before), .raw = 400,
					    .enabled = 40, .running = 30 };
		struct pmu_value d;

		pmu_value_delta(&now, &before, &d);
		assert_int_equal(d.raw, 600);
		assert_int_equal(d.enabled, 60);
		assert_int_equal(d.running, 20);
		assert_int_equal(d.scaled, 1800);
		assert_int_equal(d.status, PMU_EVENT_OK);
	}
}

static void test_runstat(void **state)
{
	static const double xs[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct pmu_runstat r = { 0 };

	(void)state;
	assert_true(pmu_runstat_stddev(&r) == 0);
	assert_true(pmu_runstat_noise_pct(&r) == 0);
	for (size_t i = 0; i < 8; i++)
		pmu_runstat_add(&r, xs[i]);
	assert_int_equal(r.n, 8);
	assert_true(fabs(r.mean - 5) < 1e-12);
	/* sample variance 32 / 7 */
	assert_true(fabs(pmu_runstat_stddev(&r) - sqrt(32.0 / 7)) < 1e-12);
	assert_true(fabs(pmu_runstat_noise_pct(&r) -
			 100 * sqrt(32.0 / 7 / 8) / 5) < 1e-9);
	/* a zero mean has no relative noise */
	r = (struct pmu_runstat){ 0 };
	pmu_runstat_add(&r, -1);
	pmu_runstat_add(&r, 1);
	assert_true(pmu_runstat_noise_pct(&r) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modes_partition_units),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_derive),
		cmocka_unit_test(test_value_add),
		cmocka_unit_test(test_runstat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
