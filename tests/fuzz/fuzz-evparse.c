/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the event-list parser: every input is parsed against
 * the machine's sysfs/tracefs and against the fake trees of the unit
 * tests, and the parser's promises are checked (errors append nothing,
 * successes give named, contiguous groups).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/evlist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct pmu__evlist *l, int rc,
		  const struct pmu_error *err)
{
	if (rc < 0) {
		if (l->n != 0 || err->code != rc || !err->message[0])
			abort();
		return;
	}
	if (rc != 0 || err->code != 0)
		abort();
	for (size_t i = 0; i < l->n; i++) {
		const struct pmu__ev *d = &l->ev[i];

		if (!d->name || d->attr.size != sizeof(d->attr))
			abort();
		if (i > 0 && d->group != l->ev[i - 1].group + !!d->leader)
			abort();
		if (d->group >= l->ngroups)
			abort();
	}
}

static void parse_with(const char *s, const struct pmu__parse_ctx *ctx)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu__evlist l = { 0 };
	int rc = pmu__evlist_parse(&l, s, ctx, &err);

	check(&l, rc, &err);
	pmu__evlist_clear(&l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *fix = getenv("PMU_FIXTURES");
	char sysfs[512], tracefs[512];
	struct pmu__parse_ctx ctx = { .sysfs_root = sysfs,
				      .tracefs_root = tracefs };
	const char *near[4];
	char *s = malloc(size + 1);

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	snprintf(sysfs, sizeof(sysfs), "%s/sysfs", fix ? fix : "tests/fixtures");
	snprintf(tracefs, sizeof(tracefs), "%s/tracefs",
		 fix ? fix : "tests/fixtures");
	parse_with(s, NULL);
	parse_with(s, &ctx);
	/* perf's names of a kernel model: its core and uncore events */
	ctx.core_model = "sapphirerapids";
	ctx.host_names = true;
	parse_with(s, &ctx);
	if (pmu__event_suggest(s, NULL, near, 4) > 4)
		abort();
	free(s);
	return 0;
}
