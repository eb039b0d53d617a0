/* SPDX-License-Identifier: MIT */
#ifndef PMU_TOOL_CMD_H
#define PMU_TOOL_CMD_H

/* Exit codes shared by every subcommand. */
enum {
	EXIT_PMU_INPUT = 1,  /* pmu's own input was wrong (event, file, pid) */
	EXIT_PMU_USAGE = 2,  /* bad option or option value */
};

struct pmu_cmd {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

/* Each subcommand lives in its own file. */
int cmd_stat(int argc, char **argv);

/* Print "pmu: <message>" to stderr. */
void pmu_tool_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
