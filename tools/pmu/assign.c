/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/assign.h>
#include <pmu/pmu.h>

#include "cmd.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: pmu assign --model M [--json] [-o CONTROL.json] "
		   "EVENT...\n\n"
		   "Place events on the hardware counters of a model, or show "
		   "the smallest set\nof them that cannot be counted together.\n"
		   "  -m, --model M     catalog or perfctr model (default: "
		   "host)\n"
		   "  -j, --json        JSON output\n"
		   "  -o, --output F    write a perfctr control file for "
		   "'pmu check' / 'pmu sim'\n");
}

static void ctr_str(char *b, size_t sz, int ctr)
{
	if (ctr >= PMU_ASSIGN_FIXED)
		snprintf(b, sz, "fixed%d", ctr - PMU_ASSIGN_FIXED);
	else
		snprintf(b, sz, "%d", ctr);
}

static void print_text(const struct pmu_assignment *a)
{
	if (a->control_model[0])
		printf("model %s (perfctr %s)\n", a->model, a->control_model);
	else
		printf("model %s\n", a->model);
	printf("%-8s %-40s %s\n", "counter", "event", "register values");
	for (size_t i = 0; i < a->nevents; i++) {
		const struct pmu_assigned_event *e = &a->ev[i];
		char c[16];
		ctr_str(c, sizeof(c), e->counter);
		printf("%-8s %-40s", c, e->event);
		/* A P4 counter takes two registers: name them, since
		 * 'pmu encode' lists libpfm4's order (ESCR first). */
		if (e->escr_msr && e->ncodes == 2)
			printf(" CCCR 0x%llx ESCR 0x%llx (MSR 0x%x)",
			       (unsigned long long)e->codes[0],
			       (unsigned long long)e->codes[1], e->escr_msr);
		else
			for (int k = 0; k < e->ncodes; k++)
				printf(" 0x%llx",
				       (unsigned long long)e->codes[k]);
		printf("\n");
	}
	if (a->note[0])
		printf("note: %s\n", a->note);
}

static void print_conflict(const struct pmu_assignment *a, bool json)
{
	if (json) {
		printf("{\"model\": ");
		pmu_tool_json_str(stdout, a->model);
		printf(", \"ok\": false, \"conflict\": [");
		for (size_t j = 0; j < a->nconflict; j++) {
			printf("%s", j ? ", " : "");
			pmu_tool_json_str(stdout, a->ev[a->conflict[j]].event);
		}
		printf("], \"reason\": ");
		pmu_tool_json_str(stdout, a->reason);
		printf("}\n");
		return;
	}
	printf("conflict: these %zu event(s) cannot be counted together on "
	       "%s:\n", a->nconflict, a->model);
	for (size_t j = 0; j < a->nconflict; j++)
		printf("  %s\n", a->ev[a->conflict[j]].event);
	printf("reason: %s\n", a->reason);
}

static void print_json(const struct pmu_assignment *a)
{
	printf("{\"model\": ");
	pmu_tool_json_str(stdout, a->model);
	printf(", \"control_model\": ");
	pmu_tool_json_str(stdout, a->control_model);
	printf(", \"ok\": true, \"events\": [");
	for (size_t i = 0; i < a->nevents; i++) {
		const struct pmu_assigned_event *e = &a->ev[i];
		char c[16];
		ctr_str(c, sizeof(c), e->counter);
		printf("%s{\"event\": ", i ? ", " : "");
		pmu_tool_json_str(stdout, e->event);
		printf(", \"name\": ");
		pmu_tool_json_str(stdout, e->name);
		printf(", \"counter\": \"%s\", \"codes\": [", c);
		for (int k = 0; k < e->ncodes; k++)
			printf("%s\"0x%llx\"", k ? ", " : "",
			       (unsigned long long)e->codes[k]);
		printf("]");
		if (e->escr_msr)
			printf(", \"escr_msr\": \"0x%x\"", e->escr_msr);
		printf("}");
	}
	printf("]");
	if (a->note[0]) {
		printf(", \"note\": ");
		pmu_tool_json_str(stdout, a->note);
	}
	printf("}\n");
}

static int write_control(const struct pmu_assignment *a, const char *path)
{
	char buf[4096];
	int len = pmu_assign_control_json(a, buf, sizeof(buf));
	FILE *f;

	if (len == -EPERM) {
		pmu_tool_err("not writing %s: %s", path, a->note);
		return EXIT_PMU_INPUT;
	}
	if (len < 0 || (size_t)len >= sizeof(buf)) {
		pmu_tool_err("model %s has no perfctr control form for these "
			     "events", a->model);
		return EXIT_PMU_INPUT;
	}
	if (!(f = fopen(path, "w"))) {
		pmu_tool_err("cannot write %s: %s", path, strerror(errno));
		return EXIT_PMU_INPUT;
	}
	fputs(buf, f);
	if (fclose(f)) {
		pmu_tool_err("cannot write %s: %s", path, strerror(errno));
		return EXIT_PMU_INPUT;
	}
	return 0;
}

struct args {
	const char *model, *output;
	bool json;
};

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct option lo[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "m:jo:h", lo, NULL)) != -1) {
		switch (c) {
		case 'm': a->model = optarg; break;
		case 'j': a->json = true; break;
		case 'o': a->output = optarg; break;
		case 'h': usage(stdout); return -1;
		default: usage(stderr); return EXIT_PMU_USAGE;
		}
	}
	if (optind >= argc) {
		pmu_tool_err("assign: no events given");
		usage(stderr);
		return EXIT_PMU_USAGE;
	}
	return 0;
}

int cmd_assign(int argc, char **argv)
{
	struct args a = { 0 };
	struct pmu_assign_opts opts = { .sz = sizeof(opts) };
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_assignment *res;
	int rc = parse_args(argc, argv, &a);

	if (rc)
		return rc < 0 ? 0 : rc;
	/* A broken vendor directory would otherwise just hide its models. */
	if (getenv("PMU_EVENTS_DIR") && *getenv("PMU_EVENTS_DIR") &&
	    (rc = pmu_tool_events_dir(getenv("PMU_EVENTS_DIR"))))
		return rc;
	if (!(res = calloc(1, sizeof(*res))))
		return EXIT_PMU_INPUT;
	res->size = sizeof(*res);
	opts.model = a.model;
	rc = pmu_assign((const char *const *)argv + optind, argc - optind,
			&opts, res, &err);
	if (rc == -ENOSPC) {
		print_conflict(res, a.json);
		rc = EXIT_PMU_INPUT;
	} else if (rc) {
		char note[320];
		if (!a.model && !pmu_tool_host_note(note, sizeof(note)))
			pmu_tool_err("assign: %s", note);
		pmu_tool_err("assign: %s%s", err.message[0] ? err.message
							    : pmu_strerror(rc),
			     rc == -EOPNOTSUPP && !a.model ?
			     "; choose one with --model (see 'pmu list "
			     "--models')" : "");
		rc = EXIT_PMU_INPUT;
	} else {
		if (a.json)
			print_json(res);
		else
			print_text(res);
		rc = a.output ? write_control(res, a.output) : 0;
	}
	free(res);
	return rc;
}
