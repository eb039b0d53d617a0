/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for what pmu reads from a PMU's sysfs directory: a format
 * file and an event alias.  The input's first line is the format of
 * term "event", the rest the alias "a" (terms the parser expands); both
 * are written into a private sysfs tree and read by the event parser
 * as "fz/a/", "fz/event=1,a/u" and "fz/a,event=0x3/".  Whatever is
 * read parses or fails with a message; nothing may crash or leak.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "events/evlist.h"
#include "events/evparse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char root[64];

static bool put(const char *rel, const void *data, size_t n)
{
	char path[256];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/bus/event_source/devices/fz/%s", root,
		 rel);
	if (!(f = fopen(path, "w")))
		return false;
	ok = !n || fwrite(data, 1, n, f) == n;
	return fclose(f) == 0 && ok;
}

static void untree(void)
{
	static const char *const files[] = { "/format/event", "/format/umask",
		"/events/a", "/type", "/format", "/events", "" };
	static const char *const dirs[] = { "/bus/event_source/devices",
		"/bus/event_source", "/bus", "" };
	char path[256];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path),
			 "%s/bus/event_source/devices/fz%s", root, files[i]);
		remove(path);
	}
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", root, dirs[i]);
		remove(path);
	}
}

static bool tree(void)
{
	static const char *const dirs[] = { "", "/bus", "/bus/event_source",
		"/bus/event_source/devices", "/bus/event_source/devices/fz",
		"/bus/event_source/devices/fz/format",
		"/bus/event_source/devices/fz/events" };
	char path[256];

	if (root[0])
		return true;
	snprintf(root, sizeof(root), "/tmp/pmu-fuzz-sysfs-%d", (int)getpid());
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", root, dirs[i]);
		mkdir(path, 0700);
	}
	atexit(untree);
	return put("type", "42\n", 3) && put("format/umask", "config:8-15\n", 12);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const lists[] = { "fz/a/", "fz/event=1,a/u",
					     "fz/a,event=0x3/" };
	const uint8_t *nl = memchr(data, '\n', size);
	size_t first = nl ? (size_t)(nl - data) : size;
	struct pmu__parse_ctx ctx = { 0 };
	struct pmu__format f;
	char *fmt;

	if (!tree())
		return 0;
	/* the format text alone, as the parser's helper reads it */
	if ((fmt = malloc(first + 1))) {
		memcpy(fmt, data, first);
		fmt[first] = '\0';
		if (pmu__format_parse(fmt, &f) == 0) {
			struct perf_event_attr a = { 0 };

			pmu__format_apply(&f, 1, &a);
			pmu__format_apply(&f, UINT64_MAX, &a);
		}
		free(fmt);
	}
	if (!put("format/event", data, first) ||
	    !put("events/a", nl ? nl + 1 : data + size,
		 nl ? size - first - 1 : 0))
		return 0;
	ctx.sysfs_root = root;
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		struct pmu__evlist l = { 0 };
		struct pmu_error err = { .size = sizeof(err) };

		if (pmu__evlist_parse(&l, lists[i], &ctx, &err) < 0 &&
		    !err.message[0])
			__builtin_trap();   /* a failure must say why */
		pmu__evlist_clear(&l);
	}
	return 0;
}
