/* SPDX-License-Identifier: MIT */
#ifndef PMU_EVENTS_CATALOG_KERNEL_H
#define PMU_EVENTS_CATALOG_KERNEL_H

/*
 * The models of the Linux kernel's pmu-events tree, generated into
 * lib/events/tables/kernel/ by scripts/gen-kernel-events.c: one table
 * per model and an index (index.c) that names them without touching
 * them, so that a model's table is read only when the model is used.
 */

#include <stddef.h>

#include "events/catalog.h"

/* Number of kernel models in the index. */
size_t pmu__ktable_count(void);

/* Name of kernel model i (no table is touched), or NULL past the end. */
const char *pmu__ktable_name(size_t i);

/* Table of kernel model i, or NULL past the end. */
const struct pmu__table *pmu__ktable(size_t i);

/* The mapfile core rows of every architecture, in the mapfiles' order:
 * the model they name, its architecture and its pattern (an offset into
 * the string returned through `patterns`). */
struct pmu__krow {
	uint16_t model;
	uint8_t arch;        /* enum pmu__arch */
	uint32_t pattern;
};

/* Set the uncore members of kernel model k (filled from its table). */
void pmu__kuncore_fill(size_t k, struct pmu__catmodel *m);

size_t pmu__ktable_rows(const struct pmu__krow **rows,
			const char **patterns);

#endif
