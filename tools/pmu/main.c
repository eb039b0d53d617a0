/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <errno.h>
#include <string.h>

#include <pmu/pmu.h>

#include "cmd.h"

static const struct pmu_cmd commands[] = {
	{ "stat", cmd_stat, "count events for a command, process, thread or CPUs" },
	{ "list", cmd_list, "list models, events, unit masks and modifiers" },
	{ "encode", cmd_encode, "show the register codes and perf_event_attr of events" },
	{ "assign", cmd_assign, "place events on the counters of a model" },
	{ "info", cmd_info, "describe this machine or a simulated PMU model" },
	{ "check", cmd_check, "validate a perfctr control against a simulated model" },
	{ "sim", cmd_sim, "run an event stream or a perfmon2 scenario on a simulated PMU" },
	{ "record", cmd_record, "sample a command into a perf.data profile" },
	{ "report", cmd_report, "show where a profile's samples fell; export it" },
	{ "script", cmd_script, "print a profile's samples one per line" },
	{ "serve", cmd_serve, "export counters to Prometheus over HTTP (OpenMetrics)" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

/* The library's diagnostics: warnings always, the rest with -v. */
static int tool_log(enum pmu_log_level level, const char *fmt, va_list ap)
{
	size_t len = strlen(fmt);
	int r;

	if (level != PMU_LOG_WARN && !pmu_tool_verbose)
		return 0;
	fputs("pmu: ", stderr);
	r = vfprintf(stderr, fmt, ap);
	if (!len || fmt[len - 1] != '\n')
		fputc('\n', stderr);
	return r;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: pmu [--version] [--help] COMMAND [ARGS...]\n\n"
		   "Hardware performance monitoring on Linux perf_event.\n\n"
		   "Commands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nRun 'pmu COMMAND --help' for a command's options; "
		   "see pmu(1).\n");
}

/* What a command printed must have reached its file: a full disk or
 * a closed pipe is an error, not a silent success. */
static int flushed(int rc)
{
	if (fflush(stdout) || ferror(stdout)) {
		int e = errno ? errno : EIO;

		if (e != EPIPE)
			pmu_tool_err("writing standard output: %s",
				     strerror(e));
		return rc ? rc : EXIT_PMU_INPUT;
	}
	return rc;
}

static int run(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : NULL;

	if (!name) {
		usage(stderr);
		return EXIT_PMU_USAGE;
	}
	if (!strcmp(name, "--help") || !strcmp(name, "-h") ||
	    !strcmp(name, "help")) {
		if (!strcmp(name, "help") && argc > 2) {
			char *hargv[] = { argv[2], "--help", NULL };
			for (size_t i = 0; i < NCOMMANDS; i++)
				if (!strcmp(argv[2], commands[i].name))
					return commands[i].run(2, hargv);
		}
		usage(stdout);
		return 0;
	}
	if (!strcmp(name, "--version") || !strcmp(name, "-V")) {
		printf("pmu %s\n", pmu_version());
		return 0;
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	pmu_tool_err("'%s' is not a pmu command; see 'pmu --help'", name);
	return EXIT_PMU_USAGE;
}

int main(int argc, char **argv)
{
	pmu_set_print(tool_log);
	if (argc > 0 && argv[0])
		pmu_tool_self = argv[0];
	return flushed(run(argc, argv));
}
