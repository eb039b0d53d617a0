/* SPDX-License-Identifier: MIT */
#ifndef PMU_EVENTS_DETECT_H
#define PMU_EVENTS_DETECT_H

/*
 * Host detection: the catalog model that describes this machine's CPU
 * (pmu_event_host_model()), from the identity in util/cpuid.h.
 */

/* Model name for a /proc/cpuinfo text (vendor, family, model), or NULL;
 * exposed so tests can feed fixtures. */
const char *pmu__detect_model(const char *cpuinfo);

#endif
