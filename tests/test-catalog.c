/* SPDX-License-Identifier: MIT */
/*
 * The catalog's registry: built-in and seed models first, the models of
 * $PMU_EVENTS_DIR (tests/fixtures/events: "tinyzen" and "tiny", in its
 * mapfile's order) after them once their loader has registered them.
 * The catalog never fetches them itself, so before the loader runs it
 * does not know them.  One process, one $PMU_EVENTS_DIR: the tests run
 * in order and build on each other.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <pmu/pmu.h>

#include "events/catalog.h"
#include "events/jsondir.h"

#define FIXTURE "tests/fixtures/events"

static size_t nstatic;
static const struct pmu__catmodel *first_static, *last_static;

static void test_before_loading(void **state)
{
	const struct pmu__catmodel *const *ms = pmu__catalog_models(&nstatic);

	(void)state;
	assert_true(nstatic >= 19 + 16);   /* libpfm4 tables, seed models */
	first_static = ms[0];
	last_static = ms[nstatic - 1];
	/* the catalog does not load the directory on its own */
	assert_null(pmu__catalog_find("tiny", 4));
	assert_null(pmu__catalog_find("tinyzen", 7));
}

static void test_after_loading(void **state)
{
	const struct pmu__catmodel *const *ms;
	size_t n;

	(void)state;
	pmu__jsondir_env_load();
	ms = pmu__catalog_models(&n);
	assert_int_equal(n, nstatic + 2);
	/* earlier indices keep their models */
	assert_ptr_equal(ms[0], first_static);
	assert_ptr_equal(ms[nstatic - 1], last_static);
	assert_string_equal(ms[nstatic]->name, "tinyzen");
	assert_string_equal(ms[nstatic + 1]->name, "tiny");
	assert_ptr_equal(pmu__catalog_find("TINY", 4), ms[nstatic + 1]);
	/* one registration per process */
	assert_int_equal(pmu__catalog_register(ms, 1), -EBUSY);
	assert_ptr_equal(pmu__catalog_models(&n), ms);
	assert_int_equal(n, nstatic + 2);
}

/* The public entry points see them, by name and by index. */
static void test_entry_points(void **state)
{
	struct pmu_encoding e = { .size = sizeof(e) };
	struct pmu_catalog_info mi = { .size = sizeof(mi) };

	(void)state;
	assert_int_equal(pmu_catalog_count(), (int)nstatic + 2);
	assert_int_equal(pmu_catalog_find("tiny"), (int)nstatic + 1);
	assert_int_equal(pmu_catalog_info((int)nstatic, &mi), 0);
	assert_string_equal(mi.name, "tinyzen");
	assert_int_equal(pmu_event_encode("tiny::INST_RETIRED.ANY", NULL, &e,
					  NULL), 0);
	assert_string_equal(e.pmu, "tiny");
	setenv("PMU_EVENTS_MODEL", "tinyzen", 1);
	assert_string_equal(pmu_event_host_model(), "tinyzen");
	unsetenv("PMU_EVENTS_MODEL");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_before_loading),
		cmocka_unit_test(test_after_loading),
		cmocka_unit_test(test_entry_points),
	};

	setenv("PMU_EVENTS_DIR", FIXTURE, 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
