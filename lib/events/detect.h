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

/* The kernel pmu-events model for a CPU identifier in perf's form of
 * architecture `arch` ("x86", "arm64", "powerpc", "s390", "riscv"; see
 * struct pmu__cpuid.perf_id), by the mapfiles' first matching row, or
 * NULL. */
const char *pmu__detect_kernel(const char *arch, const char *id);

#endif
