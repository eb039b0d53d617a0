/* SPDX-License-Identifier: MIT */
/* pmu check: validate a perfctr control file against a simulated model. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <pmu/pmu.h>

#include "cmd.h"

static void usage(FILE *f)
{
	fputs("usage: pmu check --model MODEL [--json] CONTROL.json\n"
	      "\n"
	      "Validate a perfctr control (docs/control-format.md) the way\n"
	      "perfctr's update_control does on MODEL.\n"
	      "\n"
	      "  -m, --model MODEL   simulated model (see 'pmu info --list-models')\n"
	      "  -j, --json          print the verdict as JSON\n"
	      "  -h, --help          this help\n"
	      "\n"
	      "Exit status: 0 accepted, 1 rejected or bad input, 2 usage error.\n"
	      "See pmu-check(1).\n", f);
}

static const char *errno_name(int code)
{
	switch (-code) {
	case EPERM: return "EPERM";
	case EINVAL: return "EINVAL";
	case EBUSY: return "EBUSY";
	case ENOSYS: return "ENOSYS";
	case ENOENT: return "ENOENT";
	default: return "EUNKNOWN";
	}
}

static void print_verdict(const struct pmu_check_result *r, bool json)
{
	if (json && r->ok) {
		printf("{\"ok\": true, \"cstatus\": \"0x%08x\"}\n", r->cstatus);
	} else if (json) {
		printf("{\"ok\": false, \"errno\": \"%s\", \"rule\": ",
		       errno_name(r->code));
		pmu_tool_json_str(stdout, r->rule);
		printf(", \"counter\": %d, \"message\": ", r->counter);
		pmu_tool_json_str(stdout, r->message);
		printf("}\n");
	} else if (r->ok) {
		printf("ok cstatus=0x%08x\n", r->cstatus);
	} else {
		printf("pmu check: rejected: %s (%s): %s", errno_name(r->code),
		       r->rule, r->message);
		if (r->counter >= 0)
			printf(" [counter %d]", r->counter);
		if (r->field[0])
			printf(" [%s=0x%08x]", r->field, r->value);
		printf("\n");
	}
}

void pmu_tool_list_models(FILE *f)
{
	for (size_t i = 0; i < pmu_hwmodel_count(); i++) {
		struct pmu_hwmodel_info info = { .size = sizeof(info) };

		if (pmu_hwmodel_info(pmu_hwmodel_at(i), &info) == 0)
			fprintf(f, "  %-8s %s\n", info.name, info.desc);
	}
}

static int run(const char *model, const char *path, bool json)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_check_result res = { .size = sizeof(res) };
	const struct pmu_hwmodel *m = pmu_hwmodel_find(model);
	struct pmu_control *c;

	if (!m) {
		pmu_tool_err("check: unknown model '%s'; models are:", model);
		pmu_tool_list_models(stderr);
		return EXIT_PMU_INPUT;
	}
	c = pmu_control_load(path, &err);
	if (!c) {
		if (err.kind == PMU_ERR_SYSTEM)
			pmu_tool_err("check: %s", err.message);
		else
			pmu_tool_err("check: %s: %s", path, err.message);
		return EXIT_PMU_INPUT;
	}
	pmu_control_check(m, c, &res);
	pmu_control_free(c);
	print_verdict(&res, json);
	return res.ok ? 0 : EXIT_PMU_INPUT;
}

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *model = NULL;
	bool json = false;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":m:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'm': model = optarg; break;
		case 'j': json = true; break;
		case 'h': usage(stdout); return 0;
		case ':':
			pmu_tool_err("check: option '%s' needs a value", argv[optind - 1]);
			return EXIT_PMU_USAGE;
		default:
			pmu_tool_err("check: unknown option '%s'", argv[optind - 1]);
			usage(stderr);
			return EXIT_PMU_USAGE;
		}
	}
	if (!model || optind != argc - 1) {
		pmu_tool_err(!model ? "check: --model is required"
				    : "check: exactly one CONTROL.json file is required");
		usage(stderr);
		return EXIT_PMU_USAGE;
	}
	return run(model, argv[optind], json);
}
