/* SPDX-License-Identifier: MIT */
#ifndef PMU_VENDOR_H
#define PMU_VENDOR_H

/*
 * Vendor event files read at run time, without a rebuild: a directory in
 * the Linux kernel's pmu-events layout (mapfile.csv + one directory of
 * JSON lists per CPU) or in Intel's perfmon layout (mapfile.csv + JSON
 * files with an "Events" list).  Name it with $PMU_EVENTS_DIR: its models
 * then join the catalog (pmu_catalog_count() and friends, pmu_event_encode,
 * "pmu::EVENT" strings in event lists), and the vendors' full
 * descriptions become available.  pmu_encode_opts.events_dir names a
 * directory for one encoding call instead.
 */

#include <stddef.h>
#include <sys/types.h>

#include <pmu/error.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Load `dir` and report what it holds: the number of models (core event
 * files that exist) or a negative errno with *err naming the file and,
 * for malformed JSON, the line and column.  Nothing is kept.
 */
PMU_API int pmu_events_dir_check(const char *dir, struct pmu_error *err);

/* As `umask` of pmu_catalog_vendor_desc: the event itself. */
#define PMU_CATALOG_EVENT ((size_t)-1)

/*
 * The vendor's full description of an event (umask PMU_CATALOG_EVENT)
 * or of one of its umasks (the attribute index of pmu_catalog_attr_info)
 * of catalog model `model`, from the $PMU_EVENTS_DIR files: for models
 * loaded from there directly, for built-in models from the vendor model
 * of the same CPU (events matched by name, else by code).  NULL when
 * there is none.
 */
PMU_API const char *pmu_catalog_vendor_desc(size_t model, size_t event,
					    size_t umask);

/*
 * The vendor's description of metric `metric` of catalog model `model`
 * (pmu_catalog_metric_info()), from the $PMU_EVENTS_DIR files of that
 * model; NULL when there is none.
 */
PMU_API const char *pmu_catalog_metric_desc(size_t model, size_t metric);
/* The same for uncore event i of a model (pmu_catalog_uncore_info()). */
PMU_API const char *pmu_catalog_uncore_desc(size_t model, size_t i);

/*
 * Catalog index of the $PMU_EVENTS_DIR model whose mapfile pattern
 * matches this host's CPUID (kernel form "Vendor-Family-Model", family
 * decimal, model hex), or -ENOENT.
 */
PMU_API ssize_t pmu_events_dir_host_model(void);

/*
 * This host's CPU in the mapfile's form, "Vendor-Family-Model" (family
 * decimal, model hex: "AuthenticAMD-25-11"), into buf; 0 or -ENOENT when
 * /proc/cpuinfo does not say.
 */
PMU_API int pmu_events_host_cpuid(char *buf, size_t sz);

#ifdef __cplusplus
}
#endif
#endif
