/* SPDX-License-Identifier: MIT */
/*
 * pmu stat --emulate: the command runs under pmu's emulator and its
 * events are counted on an emulated model's PMU (the emu driver).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "stat.h"

/* One more "KEY=VALUE" token for the driver's settings. */
static int add_setting(char **settings, const char *tok)
{
	size_t have = *settings ? strlen(*settings) : 0;
	char *p = realloc(*settings, have + strlen(tok) + 2);

	if (!p) {
		pmu_tool_err("out of memory");
		return EXIT_PMU_INPUT;
	}
	*settings = p;
	if (have)
		p[have++] = ' ';
	strcpy(p + have, tok);
	return 0;
}

int emu_cli_option(struct emu_cli *e, const char *cmd, const char *name,
		   const char *val)
{
	e->emulate = true;
	if (!strcmp(name, "emulate"))
		return 0;
	if (!strcmp(name, "emulate-model")) {
		e->model = val;
		return 0;
	}
	if (!strcmp(name, "emulate-regions"))
		return add_setting(&e->settings, "regions");
	/* --emulate-opt KEY=VALUE: one token, no spaces */
	if (!val[0] || strpbrk(val, " \t")) {
		fprintf(stderr, "pmu: %s: bad --emulate-opt '%s': expected "
			"one KEY=VALUE without spaces\nRun 'pmu %s --help' "
			"for the options.\n", cmd, val, cmd);
		return EXIT_PMU_USAGE;
	}
	return add_setting(&e->settings, val);
}

int stat_emu_option(struct stat_opts *o, const char *name, const char *val)
{
	struct emu_cli e = { o->emulate, o->emu_model, o->emu_settings };
	int rc = emu_cli_option(&e, "stat", name, val);

	o->emulate = e.emulate;
	o->emu_model = e.model;
	o->emu_settings = e.settings;
	return rc;
}

static int usage_err(const char *msg)
{
	fprintf(stderr, "pmu: stat: %s\nRun 'pmu stat --help' for the "
		"options.\n", msg);
	return EXIT_PMU_USAGE;
}

/* Also asks for records every -I interval, so that intervals show the
 * command's counts as it runs, or (-I Ni) for its instruction
 * intervals. */
int stat_emu_check(struct stat_opts *o)
{
	char tok[48];

	if (o->sim_model || o->stream)
		return usage_err("--emulate runs a command on an emulated PMU, "
				 "--sim-model a stream on a simulated one: "
				 "choose one");
	if (o->target != PMU_TARGET_CHILD)
		return usage_err("--emulate counts the command it runs: drop "
				 "-p/-t/-a/-C");
	if (!o->argv)
		return usage_err("--emulate needs a COMMAND to run under the "
				 "emulator");
	if (o->interval_insns) {
		snprintf(tok, sizeof(tok), "report-insns=%llu",
			 (unsigned long long)o->interval_insns);
		return add_setting(&o->emu_settings, tok);
	}
	if (!o->interval_ms)
		return 0;
	snprintf(tok, sizeof(tok), "report-ms=%ld", o->interval_ms);
	return add_setting(&o->emu_settings, tok);
}

void stat_emu_session_opts(const struct stat_opts *o,
			   struct pmu_session_opts *so)
{
	*so = (struct pmu_session_opts){ .sz = sizeof(*so), .driver = "emu",
					 .model = o->emu_model,
					 .emu = o->emu_settings };
}

int stat_emu_command(struct stat_opts *o, struct pmu_session *s, char ***cmd)
{
	struct pmu_error err = { .size = sizeof(err) };

	o->emulated = pmu_session_model(s);
	if (pmu_session_command(s, o->argv, cmd, &err) < 0) {
		pmu_tool_err("%s", err.message[0] ? err.message
			     : strerror(-err.code));
		return EXIT_PMU_INPUT;
	}
	return 0;
}
