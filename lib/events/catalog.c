/* SPDX-License-Identifier: MIT */
#include <errno.h>

#include "events/evparse.h"

_Static_assert(__builtin_types_compatible_p(__typeof__(&pmu__catalog_resolve),
					    pmu__catalog_resolve_fn),
	       "pmu__catalog_resolve must match the catalog hook type");

/*
 * Resolve "pmu::EVENT[:UMASK...]" from model-specific event tables.  No
 * table is built in yet, so every pmu is unknown; a catalog plugs in here
 * by looking `pmu` up in its tables and encoding `event` into *attr
 * (type, config, config1), returning -ENOENT only for pmus it lacks.
 */
int pmu__catalog_resolve(const char *pmu, const char *event,
			 struct perf_event_attr *attr, struct pmu_error *err)
{
	(void)pmu;
	(void)event;
	(void)attr;
	(void)err;
	return -ENOENT;
}
