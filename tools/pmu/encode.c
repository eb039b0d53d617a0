/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <pmu/event.h>
#include <pmu/ibs.h>
#include <pmu/pmu.h>

#include "cmd.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: pmu encode [--model M] [--json] [--events-dir DIR] "
		   "EVENT...\n\n"
		   "Show the raw register codes, full string and "
		   "perf_event_attr of events.\n"
		   "  -m, --model M  model for events without a 'pmu::' "
		   "prefix (default: host)\n"
		   "  -j, --json     one JSON object per event per line\n"
		   "  -E, --events-dir DIR  vendor event files to resolve names "
		   "from\n"
		   "                 (default: $PMU_EVENTS_DIR)\n"
		   "EVENT is anything 'pmu stat -e' takes (cycles:u, "
		   "{a,b}, msr/tsc/,\n"
		   "sched:sched_switch, r01c2...), [pmu::]NAME[:UMASK...]"
		   "[:mod=val...] of\n"
		   "a catalog model, or an AMD IBS set-up:\n"
		   "  [pmu::]ibs_fetch:maxcnt=N[:randen]   "
		   "[pmu::]ibs_op:maxcnt=N[:cnt_ctl]\n"
		   "(N a multiple of 16 up to 0xffff0; pmu a family 10h or "
		   "later AMD model).\n");
}

static void print_codes(const struct pmu_event_desc *d, bool json)
{
	for (int i = 0; i < d->ncodes; i++)
		printf(json ? "%s\"0x%llx\"" : "%s0x%llx",
		       json ? (i ? ", " : "") : " ",
		       (unsigned long long)d->codes[i]);
	if (!json && !d->ncodes)
		printf(" -");
}

static void print_json(const char *ev, const struct pmu_event_desc *d)
{
	const struct pmu_encoding_perf *p = &d->perf;

	printf("{\"event\": ");
	pmu_tool_json_str(stdout, ev);
	printf(", \"pmu\": ");
	pmu_tool_json_str(stdout, d->pmu);
	printf(", \"group\": %d, \"codes\": [", d->group);
	print_codes(d, true);
	printf("], \"fstr\": ");
	pmu_tool_json_str(stdout, d->fstr);
	if (d->has_perf)
		printf(", \"perf\": {\"type\": %u, \"config\": \"0x%llx\", "
		       "\"config1\": \"0x%llx\", \"config2\": \"0x%llx\", "
		       "\"exclude_user\": %d, \"exclude_kernel\": %d, "
		       "\"exclude_hv\": %d, \"exclude_host\": %d, "
		       "\"exclude_guest\": %d, \"precise_ip\": %d, "
		       "\"sample_period\": %llu}",
		       p->type, (unsigned long long)p->config,
		       (unsigned long long)p->config1,
		       (unsigned long long)p->config2, p->exclude_user,
		       p->exclude_kernel, p->exclude_hv, p->exclude_host,
		       p->exclude_guest, p->precise_ip,
		       (unsigned long long)d->sample_period);
	printf("}\n");
}

static void print_text(const char *ev, const struct pmu_event_desc *d)
{
	const struct pmu_encoding_perf *p = &d->perf;

	printf("%s\n  pmu    %s\n  codes ", ev, d->pmu);
	print_codes(d, false);
	printf("\n  fstr   %s\n", d->fstr[0] ? d->fstr : "-");
	if (!d->has_perf)
		return;
	printf("  perf   type=%u config=0x%llx config1=0x%llx "
	       "exclude_user=%d exclude_kernel=%d exclude_hv=%d "
	       "exclude_host=%d exclude_guest=%d precise_ip=%d",
	       p->type, (unsigned long long)p->config,
	       (unsigned long long)p->config1, p->exclude_user,
	       p->exclude_kernel, p->exclude_hv, p->exclude_host,
	       p->exclude_guest, p->precise_ip);
	if (p->config2)
		printf(" config2=0x%llx", (unsigned long long)p->config2);
	if (d->sample_period)
		printf(" sample_period=%llu",
		       (unsigned long long)d->sample_period);
	if (d->pinned || d->exclusive || d->exclude_idle)
		printf(" pinned=%d exclusive=%d exclude_idle=%d", d->pinned,
		       d->exclusive, d->exclude_idle);
	if (d->tool)
		printf(" (a tool event: pmu stat measures it)");
	putchar('\n');
}

/* ---- AMD IBS: the encoding plus where perfmon2 put the registers ---- */

static int ibs_kind(const char *event)
{
	if (!strcasecmp(event, "ibs_fetch"))
		return PMU_IBS_FETCH;
	return !strcasecmp(event, "ibs_op") ? PMU_IBS_OP : -1;
}

static bool ibs_print(const char *ev, const struct pmu_event_desc *d,
		      bool json)
{
	int kind = d->ncodes ? ibs_kind(d->event) : -1;
	uint64_t optbit = kind == PMU_IBS_FETCH ? PMU_IBS_FETCH_RANDEN
						: PMU_IBS_OP_CNTCTL;
	struct pmu_ibs_opts io = { .sz = sizeof(io), .model = d->pmu };
	struct pmu_ibs_config c = { .size = sizeof(c) };
	char type[16] = "null";
	int last;

	if (kind < 0 || pmu_ibs_setup((enum pmu_ibs_kind)kind,
				      (uint32_t)d->sample_period,
				      (d->codes[0] & optbit) ? 1u : 0u, &io, &c,
				      NULL))
		return false;
	last = c.pmd + c.npmds - 1;
	if (c.perf_type_known)
		snprintf(type, sizeof(type), "%u", c.perf_type);
	if (!json) {
		printf("%s\n  pmu    %s\n  codes  0x%llx\n  fstr   %s\n"
		       "  regs   %s MSR 0x%x, perfmon2 PMC%d, PMD%d..PMD%d\n"
		       "  perf   pmu=%s type=%s config=0x%llx "
		       "sample_period=%llu\n", ev, d->pmu,
		       (unsigned long long)c.ctl, d->fstr, kind ==
		       PMU_IBS_FETCH ? "IbsFetchCtl" : "IbsOpCtl", c.msr,
		       c.pmc, c.pmd, last, c.perf_pmu,
		       c.perf_type_known ? type : "(not in sysfs)",
		       (unsigned long long)c.perf_config,
		       (unsigned long long)c.sample_period);
		return true;
	}
	printf("{\"event\": ");
	pmu_tool_json_str(stdout, ev);
	printf(", \"pmu\": \"%s\", \"codes\": [\"0x%llx\"], \"fstr\": ",
	       d->pmu, (unsigned long long)c.ctl);
	pmu_tool_json_str(stdout, d->fstr);
	printf(", \"msr\": \"0x%x\", \"pmc\": %d, \"pmds\": [%d, %d], "
	       "\"perf\": {\"pmu\": \"%s\", \"type\": %s, \"config\": "
	       "\"0x%llx\", \"sample_period\": %llu}}\n", c.msr, c.pmc,
	       c.pmd, last, c.perf_pmu, type,
	       (unsigned long long)c.perf_config,
	       (unsigned long long)c.sample_period);
	return true;
}

/* A name without "pmu::" that is not found, on a CPU no catalog knows:
 * say so, or the user is left wondering why RETIRED_OPS is unknown. */
static void host_hint(const char *ev, const struct pmu_encode_opts *opts,
		      enum pmu_error_kind cls)
{
	static bool said;   /* once per run, not once per event */
	char note[320];

	if (said || cls != PMU_ERR_UNKNOWN_EVENT || strstr(ev, "::") ||
	    opts->model)
		return;
	said = true;
	if (!pmu_tool_host_note(note, sizeof(note)))
		pmu_tool_err("%s", note);
}

static int encode_fail(const char *ev, const struct pmu_encode_opts *opts,
		       const struct pmu_error *err, bool json)
{
	host_hint(ev, opts, err->kind);
	if (json) {
		printf("{\"event\": ");
		pmu_tool_json_str(stdout, ev);
		printf(", \"error\": \"%s\", \"message\": ",
		       pmu_error_kind_name(err->kind));
		pmu_tool_json_str(stdout, err->message);
		printf("}\n");
	}
	pmu_tool_err("%s", err->message[0] ? err->message
					   : pmu_strerror(err->code));
	return 1;
}

/* One argument, read by the parser pmu stat -e uses: a list gives one
 * answer per event, each under its own name. */
static int encode_one(const char *ev, const struct pmu_encode_opts *opts,
		      bool json)
{
	struct pmu_error err = { .size = sizeof(err) };
	ssize_t n = pmu_event_list_parse(ev, opts, NULL, 0, &err);
	struct pmu_event_desc *d;

	if (n < 0)
		return encode_fail(ev, opts, &err, json);
	d = calloc((size_t)n, sizeof(*d));
	if (!d) {
		pmu_tool_err("out of memory");
		return 1;
	}
	d[0].size = sizeof(*d);
	n = pmu_event_list_parse(ev, opts, d, (size_t)n, &err);
	for (ssize_t i = 0; i < n; i++) {
		const char *name = n == 1 ? ev : d[i].name;

		if (ibs_print(name, &d[i], json))
			continue;
		if (json)
			print_json(name, &d[i]);
		else
			print_text(name, &d[i]);
	}
	free(d);
	return n < 0 ? encode_fail(ev, opts, &err, json) : 0;
}

int cmd_encode(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "json", no_argument, NULL, 'j' },
		{ "events-dir", required_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pmu_encode_opts opts = { .sz = sizeof(opts) };
	bool json = false;
	int c, rc = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+m:jE:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			opts.model = optarg;
			break;
		case 'E':
			if ((rc = pmu_tool_events_dir(optarg)))
				return rc;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_PMU_USAGE;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return EXIT_PMU_USAGE;
	}
	/* Checked after the options: --events-dir may add the model. */
	if (opts.model && pmu_catalog_find(opts.model) < 0) {
		const char *near = pmu_catalog_suggest(opts.model);
		pmu_tool_err("unknown model '%s'%s%s%s; see 'pmu list "
			     "--models'", opts.model,
			     near ? " (did you mean '" : "", near ? near : "",
			     near ? "'?)" : "");
		return EXIT_PMU_INPUT;
	}
	for (int i = optind; i < argc; i++)
		rc |= encode_one(argv[i], &opts, json);
	fflush(stdout);
	return rc ? EXIT_PMU_INPUT : 0;
}
