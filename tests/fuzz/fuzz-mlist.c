/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for -M lists: metric names and metric groups, comma
 * separated, selected from a kernel model's metrics (Skylake's and Zen
 * 4's, which have metric groups, constraints and nested metrics).  A
 * list that selects metrics gives an event list, read by the event
 * parser as that model's; one that fails says why; nothing may crash
 * or leak.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/metric.h>

#include "events/evlist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const models[] = { "skylake", "amdzen4" };
	char *s = malloc(size + 1);

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	for (size_t m = 0; m < sizeof(models) / sizeof(models[0]); m++) {
		/* every byte zero but the fields (the padding after
		 * no_group is checked as a newer release's) */
		PMU_OPTS(pmu_metric_set_opts, o, .model = models[m],
			 .no_group = size & 1);
		struct pmu_error err = { .size = sizeof(err) };
		struct pmu_metric_set *ms = pmu_metric_set_new(s, &o, &err);

		if (!ms) {
			if (!err.message[0])
				__builtin_trap();
			continue;
		}
		/* the events it needs, read as that model's */
		const char *ev = pmu_metric_set_events(ms);
		struct pmu__parse_ctx ctx = { .core_model = models[m],
					      .host_names = true };
		struct pmu__evlist l = { 0 };

		if (ev && *ev)
			pmu__evlist_parse(&l, ev, &ctx, &err);
		pmu__evlist_clear(&l);
		(void)pmu_metric_set_count(ms);
		pmu_metric_set_free(ms);
	}
	free(s);
	return 0;
}
