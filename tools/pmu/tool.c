/* SPDX-License-Identifier: MIT */
/* What every subcommand of the tool shares: its messages and settings,
 * apart from main.c, which only dispatches to them. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int pmu_tool_parse_ids(const char *opt, const char *arg, pid_t **ids,
		       size_t *n)
{
	char *dup = strdup(arg), *save = NULL, *tok;
	int rc = 0;

	if (!dup) {
		pmu_tool_err("out of memory");
		return EXIT_PMU_INPUT;
	}
	for (tok = strtok_r(dup, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long v = strtol(tok, &end, 10);
		pid_t *more;

		if (*end || v <= 0 || v > INT32_MAX) {
			pmu_tool_err("%s '%s': not a process or thread id (a "
				     "number from 1 to %d)", opt, tok,
				     INT32_MAX);
			rc = EXIT_PMU_USAGE;
		} else if (!(more = realloc(*ids, (*n + 1) * sizeof(*more)))) {
			pmu_tool_err("out of memory");
			rc = EXIT_PMU_INPUT;
		} else {
			*ids = more;
			(*ids)[(*n)++] = (pid_t)v;
		}
	}
	free(dup);
	return rc;
}
