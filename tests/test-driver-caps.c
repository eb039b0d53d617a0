/* SPDX-License-Identifier: MIT */
/*
 * The driver interface: every driver of the registry has the common
 * operations, and each capability table it has is whole, since sessions
 * test a table, never one of its operations; the capability flags say
 * what the drivers do.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "drivers/driver.h"

/* Every pointer of a table of n function pointers is set. */
static void whole(const char *drv, const char *table, const void *t,
		  size_t size)
{
	void (*const *fn)(void) = t;

	if (!t)
		return;
	for (size_t i = 0; i < size / sizeof(*fn); i++)
		if (!fn[i])
			fail_msg("%s: table %s has no op %zu", drv, table, i);
}

#define WHOLE(o, t) whole((o)->name, #t, (o)->t, sizeof(*(o)->t))

static void test_tables(void **state)
{
	static const char *const names[] = { "perf", "sim", "emu" };

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		const struct pmu__driver_ops *o = pmu__driver_find(names[i]);

		assert_non_null(o);
		assert_string_equal(o->name, names[i]);
		assert_true(o->open && o->close && o->enable && o->disable &&
			    o->reset && o->read && o->destroy);
		WHOLE(o, units);
		WHOLE(o, hwmodel);
		WHOLE(o, regs);
		WHOLE(o, pfm);
		WHOLE(o, switching);
		WHOLE(o, buffer);
		WHOLE(o, guest);
		WHOLE(o, stream);
		/* a driver that counts a model says so, and has the table */
		assert_int_equal(!!(o->caps & PMU__DRV_HWMODEL), o->hwmodel != NULL);
	}
	assert_ptr_equal(pmu__driver_find(NULL), pmu__driver_find("perf"));
	assert_ptr_equal(pmu__driver_find(""), pmu__driver_find("perf"));
	assert_null(pmu__driver_find("perfx"));
	assert_true(pmu__driver_find("perf")->caps & PMU__DRV_CGROUP);
	assert_false(pmu__driver_find("sim")->caps & PMU__DRV_CGROUP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
