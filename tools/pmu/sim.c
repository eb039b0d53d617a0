/* SPDX-License-Identifier: MIT */
/*
 * pmu sim: run an event stream on a simulated PMU under perfctr's
 * driver, or a scenario: a perfmon2 monitoring context on it.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/perfmon.h>
#include <pmu/pmu.h>
#include <pmu/sim.h>

#include "cmd.h"

#define MAX_STREAM_BYTES (64u << 20)

static void usage(FILE *f)
{
	fputs("usage: pmu sim --model MODEL --control CONTROL.json "
	      "--stream STREAM [--json]\n"
	      "       pmu sim --scenario SCENARIO [--model MODEL]\n"
	      "\n"
	      "Apply a perfctr control (docs/control-format.md) to a simulated\n"
	      "MODEL, feed it the event stream STREAM (docs/stream-format.md;\n"
	      "'-' reads standard input) and print the 64-bit sums, and for\n"
	      "interrupt-mode counters where the overflow handler ran.\n"
	      "\n"
	      "  -m, --model MODEL     simulated model ('pmu info --list-models')\n"
	      "  -c, --control FILE    perfctr control, JSON\n"
	      "  -s, --stream FILE     event stream\n"
	      "  -j, --json            JSON output (keys in docs/stream-format.md)\n"
	      "  -S, --scenario FILE   run a monitoring-context scenario\n"
	      "                        (docs/scenario-format.md): sets, sampling\n"
	      "                        formats, messages; prints what it reads\n"
	      "                        and checks its expectations\n"
	      "  -h, --help            this help\n"
	      "\n"
	      "Exit status: 0 done, 1 bad model, control, stream or scenario, or\n"
	      "an expectation of the scenario that did not hold, 2 usage "
	      "error.\nSee pmu-sim(1).\n", f);
}

static const char *source_name(enum pmu_sim_irq_source s)
{
	switch (s) {
	case PMU_SIM_SRC_PMC: return "pmc";
	case PMU_SIM_SRC_PEBS: return "pebs";
	case PMU_SIM_SRC_IBS: return "ibs";
	case PMU_SIM_SRC_TB: return "tb";
	default: return "unknown";
	}
}

static bool is_imode(const struct pmu_sim_result *r, unsigned i)
{
	return i >= r->nractrs;
}

static void print_text(const struct pmu_sim *s, const struct pmu_sim_result *r)
{
	printf("model       %s\n", r->model);
	printf("cstatus     0x%08x\n", r->cstatus);
	if (r->tsc_on)
		printf("tsc         %20llu\n", (unsigned long long)r->tsc);
	for (unsigned i = 0; i < r->nractrs + r->nrictrs; i++) {
		printf("pmc[%u]  %c  map 0x%08x %20llu", i,
		       is_imode(r, i) ? 'i' : 'a', r->pmc_map[i],
		       (unsigned long long)r->pmc[i]);
		if (is_imode(r, i))
			printf("  overflows %llu",
			       (unsigned long long)r->overflows[i]);
		putchar('\n');
	}
	printf("interrupts  %llu\n", (unsigned long long)r->interrupts);
	for (size_t i = 0; i < r->interrupts_kept; i++) {
		struct pmu_sim_interrupt it = { .size = sizeof(it) };

		pmu_sim_interrupt_at(s, i, &it);
		printf("  pc 0x%016llx  mask 0x%08x  %s\n",
		       (unsigned long long)it.pc, it.mask, source_name(it.source));
	}
	for (size_t i = 0; i < r->ibs_samples; i++) {
		struct pmu_sim_ibs_sample x = { .size = sizeof(x) };

		pmu_sim_ibs_at(s, i, &x);
		printf("  ibs %-5s ctl 0x%016llx  addr 0x%016llx\n",
		       x.op ? "op" : "fetch", (unsigned long long)x.ctl,
		       (unsigned long long)x.addr);
	}
	if (r->pebs_records || r->pebs_dropped)
		printf("pebs        %zu\n", r->pebs_records);
	if (r->pebs_dropped)
		printf("pebs-dropped %llu\n", (unsigned long long)r->pebs_dropped);
	for (size_t i = 0; i < r->pebs_records; i++) {
		struct pmu_sim_pebs_record p = { .size = sizeof(p) };

		pmu_sim_pebs_at(s, i, &p);
		printf("  pebs ip 0x%08llx  eflags 0x%08llx  eax 0x%08llx\n",
		       (unsigned long long)p.ip, (unsigned long long)p.flags,
		       (unsigned long long)p.regs[0]);
	}
}

static void json_interrupts(const struct pmu_sim *s,
			    const struct pmu_sim_result *r)
{
	printf("\"interrupts\": {\"count\": %llu, \"truncated\": %s, "
	       "\"records\": [", (unsigned long long)r->interrupts,
	       r->interrupts_kept < r->interrupts ? "true" : "false");
	for (size_t i = 0; i < r->interrupts_kept; i++) {
		struct pmu_sim_interrupt it = { .size = sizeof(it) };

		pmu_sim_interrupt_at(s, i, &it);
		printf("%s{\"pc\": \"0x%llx\", \"mask\": \"0x%x\", "
		       "\"source\": \"%s\", \"tsc\": %llu}", i ? ", " : "",
		       (unsigned long long)it.pc, it.mask,
		       source_name(it.source), (unsigned long long)it.tsc);
	}
	printf("]}, ");
}

static void json_ibs(const struct pmu_sim *s, const struct pmu_sim_result *r)
{
	printf("\"ibs\": [");
	for (size_t i = 0; i < r->ibs_samples; i++) {
		struct pmu_sim_ibs_sample x = { .size = sizeof(x) };

		pmu_sim_ibs_at(s, i, &x);
		printf("%s{\"kind\": \"%s\", \"ctl\": \"0x%llx\", "
		       "\"addr\": \"0x%llx\", \"phys\": \"0x%llx\", "
		       "\"data\": [\"0x%llx\", \"0x%llx\", \"0x%llx\"], "
		       "\"dc_linad\": \"0x%llx\", \"dc_physad\": \"0x%llx\"}",
		       i ? ", " : "", x.op ? "op" : "fetch",
		       (unsigned long long)x.ctl, (unsigned long long)x.addr,
		       (unsigned long long)x.phys,
		       (unsigned long long)x.data[0],
		       (unsigned long long)x.data[1],
		       (unsigned long long)x.data[2],
		       (unsigned long long)x.dc_linad,
		       (unsigned long long)x.dc_physad);
	}
	printf("], ");
}

static void json_pebs(const struct pmu_sim *s, const struct pmu_sim_result *r)
{
	printf("\"pebs\": [");
	for (size_t i = 0; i < r->pebs_records; i++) {
		struct pmu_sim_pebs_record p = { .size = sizeof(p) };

		pmu_sim_pebs_at(s, i, &p);
		printf("%s{\"ip\": \"0x%llx\", \"flags\": \"0x%llx\", \"regs\": [",
		       i ? ", " : "", (unsigned long long)p.ip,
		       (unsigned long long)p.flags);
		for (unsigned k = 0; k < 8; k++)
			printf("%s\"0x%llx\"", k ? ", " : "",
			       (unsigned long long)p.regs[k]);
		printf("]}");
	}
	printf("], ");
}

static void print_json(const struct pmu_sim *s, const struct pmu_sim_result *r)
{
	printf("{\"model\": \"%s\", \"cstatus\": \"0x%08x\", \"tsc_on\": %s, "
	       "\"tsc\": %llu, \"events\": %llu, \"cycles\": %llu, "
	       "\"counters\": [", r->model, r->cstatus,
	       r->tsc_on ? "true" : "false", (unsigned long long)r->tsc,
	       (unsigned long long)r->events, (unsigned long long)r->cycles);
	for (unsigned i = 0; i < r->nractrs + r->nrictrs; i++)
		printf("%s{\"index\": %u, \"mode\": \"%c\", \"map\": \"0x%x\", "
		       "\"sum\": %llu, \"overflows\": %llu}", i ? ", " : "", i,
		       is_imode(r, i) ? 'i' : 'a', r->pmc_map[i],
		       (unsigned long long)r->pmc[i],
		       (unsigned long long)r->overflows[i]);
	printf("], ");
	json_interrupts(s, r);
	json_ibs(s, r);
	json_pebs(s, r);
	printf("\"pebs_dropped\": %llu, ", (unsigned long long)r->pebs_dropped);
	printf("\"register_writes\": {\"control\": %llu, \"counter\": %llu}}\n",
	       (unsigned long long)r->control_writes,
	       (unsigned long long)r->counter_writes);
}

struct sim_args {
	const char *model, *control, *stream, *scenario;
	bool json;
};

static void put_line(void *arg, const char *line)
{
	(void)arg;
	puts(line);
}

static int run_scenario(const struct sim_args *a)
{
	struct pmu_error err = { .size = sizeof(err) };
	size_t len = 0;
	char *text = pmu_tool_slurp(a->scenario, MAX_STREAM_BYTES, &len);
	int rc;

	if (!text) {
		pmu_tool_err("sim: %s: %s", a->scenario, strerror(errno));
		return EXIT_PMU_INPUT;
	}
	rc = pmu_perfmon_scenario(text, len, a->model, put_line, NULL, &err);
	free(text);
	fflush(stdout);
	if (rc < 0) {
		pmu_tool_err("sim: %s: %s", a->scenario, err.message);
		return EXIT_PMU_INPUT;
	}
	if (rc > 0) {
		pmu_tool_err("sim: %s: %d expectation%s did not hold",
			     a->scenario, rc, rc == 1 ? "" : "s");
		return EXIT_PMU_INPUT;
	}
	return 0;
}

static int load_inputs(const struct sim_args *a, struct pmu_sim *s,
		       char **text, size_t *len)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_control *c = pmu_control_load(a->control, &err);
	int rc;

	if (!c) {
		/* a file that could not be read is named by the message */
		if (err.kind == PMU_ERR_SYSTEM)
			pmu_tool_err("sim: %s", err.message);
		else
			pmu_tool_err("sim: %s: %s", a->control, err.message);
		return EXIT_PMU_INPUT;
	}
	rc = pmu_sim_control(s, c, &err);
	pmu_control_free(c);
	if (rc) {
		pmu_tool_err("sim: %s: %s", a->control, err.message);
		return EXIT_PMU_INPUT;
	}
	if (!(*text = pmu_tool_slurp(a->stream, MAX_STREAM_BYTES, len))) {
		pmu_tool_err("sim: %s: %s", a->stream, strerror(errno));
		return EXIT_PMU_INPUT;
	}
	return 0;
}

static int run(const struct sim_args *a)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_sim_result r = { .size = sizeof(r) };
	const struct pmu_hwmodel *m = pmu_hwmodel_find(a->model);
	struct pmu_sim *s;
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (!m) {
		pmu_tool_err("sim: unknown model '%s'; see 'pmu info "
			     "--list-models'", a->model);
		return EXIT_PMU_INPUT;
	}
	if (!(s = pmu_sim_open(m, &err))) {
		pmu_tool_err("sim: %s", err.message);
		return EXIT_PMU_INPUT;
	}
	rc = load_inputs(a, s, &text, &len);
	if (!rc && pmu_sim_run(s, text, len, &err)) {
		pmu_tool_err("sim: %s: %s", a->stream, err.message);
		rc = EXIT_PMU_INPUT;
	}
	if (!rc) {
		pmu_sim_result(s, &r);
		if (a->json)
			print_json(s, &r);
		else
			print_text(s, &r);
	}
	free(text);
	pmu_sim_close(s);
	return rc;
}

int cmd_sim(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "control", required_argument, NULL, 'c' },
		{ "stream", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "scenario", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sim_args a = { 0 };
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":m:c:s:S:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'm': a.model = optarg; break;
		case 'c': a.control = optarg; break;
		case 's': a.stream = optarg; break;
		case 'j': a.json = true; break;
		case 'S': a.scenario = optarg; break;
		case 'h': usage(stdout); return 0;
		case ':':
			pmu_tool_err("sim: option '%s' needs a value",
				     argv[optind - 1]);
			return EXIT_PMU_USAGE;
		default:
			pmu_tool_err("sim: unknown option '%s'", argv[optind - 1]);
			usage(stderr);
			return EXIT_PMU_USAGE;
		}
	}
	if (a.scenario && optind == argc) {
		if (a.control || a.stream || a.json) {
			pmu_tool_err("sim: --scenario runs alone: no --control, "
				     "--stream or --json with it");
			return EXIT_PMU_USAGE;
		}
		return run_scenario(&a);
	}
	if (!a.model || !a.control || !a.stream || optind != argc) {
		pmu_tool_err(optind != argc ? "sim: unexpected argument '%s'"
			     : "sim: --model, --control and --stream are required%s",
			     optind != argc ? argv[optind] : "");
		usage(stderr);
		return EXIT_PMU_USAGE;
	}
	return run(&a);
}
