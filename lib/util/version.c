/* SPDX-License-Identifier: MIT */
#include <pmu/pmu.h>

PMU_API const char *pmu_version(void)
{
	return PMU_VERSION_STRING;
}
