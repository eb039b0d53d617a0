/* SPDX-License-Identifier: MIT */
#ifndef PMU_EVENTS_RESOLVE_H
#define PMU_EVENTS_RESOLVE_H

/*
 * The resolver: "pmu::EVENT" names of a perf-style event list, encoded
 * with the catalog model named "pmu" into the driver-neutral event
 * object.  Above the encoder, below the event-list parser that calls it.
 */

#include <pmu/error.h>

#include "drivers/driver.h"

/*
 * "pmu::EVENT..." -> the event's model, register codes and placement
 * spec, and its perf attribute where the model has a perf encoding
 * (else PMU__EV_NO_PERF).  Returns 0, -ENOENT when the pmu is not a
 * catalog model (the parser then reports an unknown PMU), or another
 * negative errno with *err filled.  Covers the built-in catalog and
 * $PMU_EVENTS_DIR models.
 */
int pmu__catalog_resolve(const char *pmu, const char *event,
			 struct pmu__ev *ev, struct pmu_error *err);

#endif
