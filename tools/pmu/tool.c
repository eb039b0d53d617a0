/* SPDX-License-Identifier: MIT */
/* What every subcommand of the tool shares: its messages and settings,
 * apart from main.c, which only dispatches to them. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "cmd.h"

void pmu_tool_err(const char *fmt, ...)
{
	va_list ap;

	fputs("pmu: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

bool pmu_tool_verbose;
const char *pmu_tool_self = "pmu";
