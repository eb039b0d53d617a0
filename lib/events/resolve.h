/* SPDX-License-Identifier: MIT */
#ifndef PMU_EVENTS_RESOLVE_H
#define PMU_EVENTS_RESOLVE_H

/*
 * The resolver: "pmu::EVENT" names of a perf-style event list, encoded
 * with the catalog model named "pmu" and handed back as what
 * perf_event_open needs.  Above the encoder, below the event-list parser
 * that calls it.
 */

#include <linux/perf_event.h>

#include <pmu/error.h>

/*
 * Hook for catalogs of model-specific events ("amd64_fam19h_zen4::X"):
 * given the pmu and the rest of the token, fill *attr.  Returns 0, or
 * -ENOENT when the pmu is not known (the parser then reports unknown PMU),
 * or another negative errno with *err filled.
 */
typedef int (*pmu__catalog_resolve_fn)(const char *pmu, const char *event,
					struct perf_event_attr *attr,
					struct pmu_error *err);

/* The hook over the built-in catalog and $PMU_EVENTS_DIR models. */
int pmu__catalog_resolve(const char *pmu, const char *event,
			 struct perf_event_attr *attr, struct pmu_error *err);

#endif
