/* SPDX-License-Identifier: MIT */
#ifndef PMU_EVENTS_GENERIC_H
#define PMU_EVENTS_GENERIC_H

#include <stdint.h>

/* The spec that stands for the model's time-stamp counter. */
#define PMU__GENERIC_TSC "TSC"

/*
 * The event of catalog model `model` that a generic hardware event
 * (PERF_COUNT_HW_*) means on it, as a placement spec ("p6::INST_RETIRED"),
 * PMU__GENERIC_TSC when the model's time-stamp counter counts it, or
 * NULL when the model has no such event.  What perf's kernel drivers
 * map each generic event to on those processors.
 */
const char *pmu__generic_spec(const char *model, uint64_t hw_config);

/* The same for a generic cache event (PERF_TYPE_HW_CACHE config). */
const char *pmu__generic_cache_spec(const char *model, uint64_t config);

#endif
