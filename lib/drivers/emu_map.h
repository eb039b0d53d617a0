/* SPDX-License-Identifier: MIT */
#ifndef PMU_DRIVERS_EMU_MAP_H
#define PMU_DRIVERS_EMU_MAP_H

#include <stddef.h>

#include "proto/emu.h"

/* The feed rules of simulated model `model` (NULL, *n = 0: none). */
const struct pmu_emu_rule *pmu__emu_rules(const char *model, size_t *n);

/* The caches of the processor `model` models; -1 when unknown. */
int pmu__emu_hwmodel_caches(const char *model,
			    struct pmu_emu_cache_geom *i1,
			    struct pmu_emu_cache_geom *d1,
			    struct pmu_emu_cache_geom *ll);

#endif
