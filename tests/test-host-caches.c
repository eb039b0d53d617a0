/* SPDX-License-Identifier: MIT */
/*
 * This host's caches from sysfs (pmu__host_caches), on fake trees: the
 * level-1 instruction and data caches, the highest unified level as the
 * last level, K and M sizes, levels that cannot be modelled left out.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/host_caches.h"

struct idx { int level; const char *type, *size, *ways, *line; };

static char root[64];

static void put(int i, const char *name, const char *val)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/sys/devices/system/cpu/cpu0/cache/index%d",
		 root, i);
	for (char *s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0700);
		*s = '/';
	}
	mkdir(p, 0700);
	strcat(p, "/");
	strcat(p, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", val);
	fclose(f);
}

static void tree(const struct idx *x, int n)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(mkdir(root, 0700), 0);
	for (int i = 0; i < n; i++) {
		char lv[8];

		snprintf(lv, sizeof(lv), "%d", x[i].level);
		put(i, "level", lv);
		put(i, "type", x[i].type);
		put(i, "size", x[i].size);
		put(i, "ways_of_associativity", x[i].ways);
		put(i, "coherency_line_size", x[i].line);
	}
}

static void test_host_caches(void **state)
{
	static const struct idx three[] = {
		{ 1, "Data", "48K", "12", "64" },
		{ 1, "Instruction", "32K", "8", "64" },
		{ 2, "Unified", "2048K", "16", "64" },
		{ 3, "Unified", "30M", "12", "64" },
	};
	static const struct idx odd[] = {
		{ 1, "Instruction", "64K", "4", "64" },
		{ 1, "Data", "32K", "8", "64" },
		{ 2, "Unified", "1000K", "7", "64" },  /* not whole sets */
	};
	struct pmu__cache_geom i1, d1, ll;

	(void)state;
	snprintf(root, sizeof(root), "/tmp/pmu-caches.%d", (int)getpid());
	tree(three, 4);
	assert_int_equal(pmu__host_caches(root, &i1, &d1, &ll), 0);
	assert_int_equal(i1.size, 32768);
	assert_int_equal(i1.assoc, 8);
	assert_int_equal(d1.size, 49152);
	assert_int_equal(d1.assoc, 12);
	assert_int_equal(ll.size, 30u << 20);
	assert_int_equal(ll.assoc, 12);
	assert_int_equal(ll.line, 64);
	tree(odd, 3);
	assert_int_equal(pmu__host_caches(root, &i1, &d1, &ll), 0);
	assert_int_equal(i1.size, 65536);
	assert_int_equal(ll.size, 0);
	tree(three + 2, 2);
	assert_int_equal(pmu__host_caches(root, &i1, &d1, &ll), -ENOENT);
	tree(three, 0);
	assert_int_equal(pmu__host_caches(root, &i1, &d1, &ll), -ENOENT);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
		assert_int_equal(system(cmd), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_caches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
