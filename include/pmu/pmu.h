/* SPDX-License-Identifier: MIT */
#ifndef PMU_PMU_H
#define PMU_PMU_H

#define PMU_VERSION_MAJOR 0
#define PMU_VERSION_MINOR 1
#define PMU_VERSION_PATCH 0
#define PMU_VERSION_STRING "0.1.0"

#include <pmu/error.h>
#include <pmu/event.h>
#include <pmu/metric.h>
#include <pmu/assign.h>
#include <pmu/ibs.h>
#include <pmu/vendor.h>
#include <pmu/host.h>
#include <pmu/session.h>
#include <pmu/sample.h>
#include <pmu/model.h>
#include <pmu/simple.h>
#include <pmu/profile.h>
#include <pmu/sim.h>
#include <pmu/stat.h>
#include <pmu/region.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the library actually loaded, e.g. "0.1.0". */
PMU_API const char *pmu_version(void);

#ifdef __cplusplus
}
#endif
#endif
