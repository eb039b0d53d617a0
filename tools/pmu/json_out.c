/* SPDX-License-Identifier: MIT */
#include <stdio.h>

#include "cmd.h"
#include "util/jsonstr.h"

void pmu_tool_json_str(FILE *f, const char *s)
{
	pmu__json_fputs(f, s);
}
