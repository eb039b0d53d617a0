/* SPDX-License-Identifier: MIT */
#ifndef PMU_REGION_REGION_H
#define PMU_REGION_REGION_H

/*
 * What the measured program writes (region.c) and pmu stat reads
 * (report.c): one text file per process image, DIR/regions.PID-IMAGE
 * (IMAGE: the image's start in ns, so that an exec's new image writes
 * a file of its own), written whole at exit or flush (a temporary file
 * renamed).  Fields are tab-separated; a
 * region name has its '%', tab, newline and other control bytes as %XX.
 *
 *	pmu-regions 1
 *	pid PID
 *	event NAME UNIT SCALE COUNTED     one per event, in order
 *	thread TID
 *	region NAME CALLS TIME EXCL_TIME OPEN INCL... EXCL...
 *	error TEXT
 *	end
 *
 * UNIT is "-" for none; COUNTED and OPEN are 0 or 1.
 */

#include <pmu/region.h>

#define PMU__REGION_MAGIC "pmu-regions 1"
#define PMU__REGION_NAME_MAX PMU_REGION_NAME_MAX
#define PMU__REGION_ENV_DIR "PMU_REGIONS"
#define PMU__REGION_ENV_EVENTS "PMU_REGIONS_EVENTS"
#define PMU__REGION_ENV_DRIVER "PMU_REGIONS_DRIVER"
#define PMU__REGION_ENV_MODEL "PMU_REGIONS_MODEL"

#endif
