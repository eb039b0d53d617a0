/* SPDX-License-Identifier: MIT */
/*
 * pmu info: describe a simulated PMU model (perfmon2 pmu_desc style), or
 * this machine as perf sees it, or list the models.
 */
#include <dirent.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/pmu.h>

#include "cmd.h"

static void usage(FILE *f)
{
	fputs("usage: pmu info [--model MODEL] [--json]\n"
	      "       pmu info --list-models\n"
	      "\n"
	      "Without --model, describe this machine: CPU, the perf PMUs,\n"
	      "perf_event_paranoid, virtualization, the closest simulated model.\n"
	      "With --model, print the model's PMC and PMD registers.\n"
	      "\n"
	      "  -m, --model MODEL   a simulated model ('list' lists them)\n"
	      "  -l, --list-models   list the simulated models\n"
	      "  -j, --json          JSON output\n"
	      "  -h, --help          this help\n"
	      "\n"
	      "See pmu-info(1).\n", f);
}

static void print_regs_json(const struct pmu_hwmodel *m,
			    enum pmu_hwmodel_reg_kind kind, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		struct pmu_hwmodel_reg r = { .size = sizeof(r) };

		pmu_hwmodel_reg(m, kind, i, &r);
		printf("%s{\"index\": %zu, \"name\": ", i ? ", " : "", r.index);
		pmu_tool_json_str(stdout, r.name);
		printf(", \"addr\": \"0x%" PRIx32 "\", \"dfl_val\": \"0x%" PRIx64
		       "\", \"rsvd_msk\": \"0x%" PRIx64 "\", \"width\": %u}",
		       r.addr, r.dfl_val, r.rsvd_msk, r.width);
	}
}

static void print_regs_text(const struct pmu_hwmodel *m,
			    enum pmu_hwmodel_reg_kind kind, unsigned n)
{
	const char *pfx = kind == PMU_HWMODEL_PMC ? "pmc" : "pmd";

	for (unsigned i = 0; i < n; i++) {
		struct pmu_hwmodel_reg r = { .size = sizeof(r) };
		char idx[16];

		pmu_hwmodel_reg(m, kind, i, &r);
		snprintf(idx, sizeof(idx), "%s%u", pfx, i);
		printf("  %-6s %-18s 0x%-10" PRIx32 " 0x%-16" PRIx64
		       " 0x%-16" PRIx64 " %u\n", idx, r.name, r.addr,
		       r.dfl_val, r.rsvd_msk, r.width);
	}
}

/* perfctr_info_print's spelling: "rdpmc,rdtsc,pcint". */
static void print_features(unsigned f)
{
	static const char *const names[] = { "rdpmc", "rdtsc", "pcint" };
	const char *sep = "";

	printf("0x%x (", f);
	for (unsigned i = 0; i < 3; i++)
		if (f & (1u << i)) {
			printf("%s%s", sep, names[i]);
			sep = ",";
		}
	printf(")");
}

static void print_model_text(const struct pmu_hwmodel *m,
			     const struct pmu_hwmodel_info *in)
{
	printf("model %s: %s\n", in->name, in->desc);
	printf("  arch %s, perfctr cpu_type %u, features ", in->arch,
	       in->cpu_type);
	print_features(in->features);
	putchar('\n');
	if (in->nr_ctrs)
		printf("  %u counters, %u bits wide", in->nr_ctrs, in->ctr_width);
	else
		printf("  no programmable counters");
	if (in->emul_width)
		printf(" (64-bit emulation: %u bits)", in->emul_width);
	printf("; time stamp: %s\n", in->tsc);
	printf("  pmu_desc model \"%s\": %u PMCs, %u PMDs\n\n", in->pmu_name,
	       in->npmcs, in->npmds);
	printf("  %-6s %-18s %-12s %-18s %-18s %s\n", "reg", "name", "addr",
	       "dfl_val", "rsvd_msk", "width");
	print_regs_text(m, PMU_HWMODEL_PMC, in->npmcs);
	print_regs_text(m, PMU_HWMODEL_PMD, in->npmds);
}

static int info_model(const char *name, bool json)
{
	const struct pmu_hwmodel *m = pmu_hwmodel_find(name);
	struct pmu_hwmodel_info in = { .size = sizeof(in) };

	if (!m) {
		pmu_tool_err("info: unknown model '%s'; models are:", name);
		pmu_tool_list_models(stderr);
		return EXIT_PMU_INPUT;
	}
	pmu_hwmodel_info(m, &in);
	if (!json) {
		print_model_text(m, &in);
		return 0;
	}
	printf("{\"model\": ");
	pmu_tool_json_str(stdout, in.name);
	printf(", \"pmcs\": [");
	print_regs_json(m, PMU_HWMODEL_PMC, in.npmcs);
	printf("], \"pmds\": [");
	print_regs_json(m, PMU_HWMODEL_PMD, in.npmds);
	printf("]}\n");
	return 0;
}

static int list_models(bool json)
{
	if (!json) {
		pmu_tool_list_models(stdout);
		return 0;
	}
	printf("[");
	for (size_t i = 0; i < pmu_hwmodel_count(); i++) {
		struct pmu_hwmodel_info in = { .size = sizeof(in) };

		pmu_hwmodel_info(pmu_hwmodel_at(i), &in);
		printf("%s{\"name\": ", i ? ", " : "");
		pmu_tool_json_str(stdout, in.name);
		printf(", \"description\": ");
		pmu_tool_json_str(stdout, in.desc);
		printf("}");
	}
	printf("]\n");
	return 0;
}

/* The kernel's PMUs and their types (NULL when there are none). */
static struct pmu_kernel_pmu *perf_pmus(size_t *n)
{
	struct pmu_kernel_pmu *v = NULL;
	ssize_t got = pmu_kernel_pmus(NULL, 0);

	*n = 0;
	if (got <= 0 || !(v = calloc((size_t)got, sizeof(*v))))
		return NULL;
	v[0].size = sizeof(*v);
	got = pmu_kernel_pmus(v, (size_t)got);
	*n = got > 0 ? (size_t)got : 0;
	return v;
}

static const char *model_name(const struct pmu_hwmodel *m)
{
	struct pmu_hwmodel_info in = { .size = sizeof(in) };

	if (!m || pmu_hwmodel_info(m, &in))
		return NULL;
	return in.name;
}

/* Family and model as pmu info always printed them: 0 when unknown. */
static unsigned known(int v)
{
	return v < 0 ? 0 : (unsigned)v;
}

/* An Arm processor's designer, by MIDR_EL1's implementer field. */
static const char *arm_implementer(unsigned imp)
{
	static const struct { unsigned code; const char *name; } tab[] = {
		{ 0x41, "Arm" }, { 0x42, "Broadcom" }, { 0x43, "Cavium" },
		{ 0x46, "Fujitsu" }, { 0x48, "HiSilicon" }, { 0x4e, "NVIDIA" },
		{ 0x50, "Applied Micro" }, { 0x51, "Qualcomm" },
		{ 0x61, "Apple" }, { 0x6d, "Microsoft" }, { 0xc0, "Ampere" },
	};

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (tab[i].code == imp)
			return tab[i].name;
	return "an unknown implementer";
}

static void host_text(const struct pmu_host_cpu *c,
		      const struct pmu_host_info *h,
		      const struct pmu_kernel_pmu *pmus, size_t n,
		      const char *closest)
{
	if (c->midr)
		printf("cpu: %s part %#x, variant %u, revision %u (MIDR "
		       "%#018llx)\n", arm_implementer((c->midr >> 24) & 0xff),
		       (unsigned)(c->midr >> 4) & 0xfff,
		       (unsigned)(c->midr >> 20) & 0xf, (unsigned)c->midr & 0xf,
		       (unsigned long long)c->midr);
	else
		printf("cpu: %s (vendor %s, family %u, model %u)\n",
		       c->name[0] ? c->name : "unknown",
		       c->vendor[0] ? c->vendor : "unknown", known(c->family),
		       known(c->model));
	printf("event model: %s\n", pmu_event_host_model());
	printf("virtualized: %s\n", h->virtualized ? "yes" : "no");
	printf("core PMU: %s\n", h->has_hw_pmu ? "yes" :
	       "no (hardware events such as cycles cannot be counted)");
	if (h->paranoid == PMU_PARANOID_UNKNOWN)
		printf("perf_event_paranoid: unknown\n");
	else
		printf("perf_event_paranoid: %d\n", h->paranoid);
	printf("perf PMUs:\n");
	for (size_t i = 0; i < n; i++)
		printf("  %-20s type %d\n", pmus[i].name, pmus[i].type);
	printf("closest simulated model: %s\n", closest ? closest : "none");
}

static void host_json(const struct pmu_host_cpu *c,
		      const struct pmu_host_info *h,
		      const struct pmu_kernel_pmu *pmus, size_t n,
		      const char *closest)
{
	printf("{\"cpu\": {\"vendor\": ");
	pmu_tool_json_str(stdout, c->vendor);
	printf(", \"family\": %u, \"model\": %u, \"name\": ",
	       known(c->family), known(c->model));
	pmu_tool_json_str(stdout, c->name);
	if (c->midr)
		printf(", \"midr\": \"%#018llx\"", (unsigned long long)c->midr);
	printf("}, \"event_model\": ");
	pmu_tool_json_str(stdout, pmu_event_host_model());
	printf(", \"virtualized\": %s, \"core_pmu\": %s, ",
	       h->virtualized ? "true" : "false", h->has_hw_pmu ? "true" : "false");
	if (h->paranoid == PMU_PARANOID_UNKNOWN)
		printf("\"perf_event_paranoid\": null, \"perf_pmus\": [");
	else
		printf("\"perf_event_paranoid\": %d, \"perf_pmus\": [", h->paranoid);
	for (size_t i = 0; i < n; i++) {
		printf("%s{\"name\": ", i ? ", " : "");
		pmu_tool_json_str(stdout, pmus[i].name);
		printf(", \"type\": %d}", pmus[i].type);
	}
	printf("], \"closest_model\": ");
	if (closest)
		pmu_tool_json_str(stdout, closest);
	else
		printf("null");
	printf("}\n");
}

static int info_host(bool json)
{
	struct pmu_host_info h = { .size = sizeof(h) };
	struct pmu_host_cpu c = { .size = sizeof(c) };
	struct pmu_kernel_pmu *pmus;
	size_t n;
	const char *closest;

	pmu_host_cpu(&c);
	if (pmu_host_info(&h) < 0) {
		h.paranoid = PMU_PARANOID_UNKNOWN;
		h.has_hw_pmu = false;
		h.virtualized = false;
	}
	/* as --emulate's default: $PMU_CPUID stands for the CPU */
	closest = model_name(pmu_hwmodel_host());
	pmus = perf_pmus(&n);
	if (json)
		host_json(&c, &h, pmus, n, closest);
	else
		host_text(&c, &h, pmus, n, closest);
	free(pmus);
	return 0;
}

int cmd_info(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "list-models", no_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *model = NULL;
	bool json = false, list = false;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":m:ljh", opts, NULL)) != -1) {
		switch (c) {
		case 'm': model = optarg; break;
		case 'l': list = true; break;
		case 'j': json = true; break;
		case 'h': usage(stdout); return 0;
		case ':':
			pmu_tool_err("info: option '%s' needs a value", argv[optind - 1]);
			return EXIT_PMU_USAGE;
		default:
			pmu_tool_err("info: unknown option '%s'", argv[optind - 1]);
			usage(stderr);
			return EXIT_PMU_USAGE;
		}
	}
	if (optind != argc) {
		pmu_tool_err("info: unexpected argument '%s'", argv[optind]);
		usage(stderr);
		return EXIT_PMU_USAGE;
	}
	if (list || (model && !strcmp(model, "list")))
		return list_models(json);
	return model ? info_model(model, json) : info_host(json);
}
