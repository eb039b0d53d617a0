/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <pmu/event.h>
#include <pmu/pmu.h>
#include <pmu/vendor.h>

#include "cmd.h"

struct list_args {
	const char *model, *pattern, *events_dir;
	bool lng, json, models, metrics;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: pmu list [--model M] [--long] [--json] "
		   "[--events-dir DIR] [PATTERN]\n"
		   "       pmu list --models [--json] [--events-dir DIR]\n"
		   "       pmu list --metrics [--model M] [--long] [--json] "
		   "[GROUP|PATTERN]\n\n"
		   "List this machine's events in perf list's sections "
		   "(software, tool, kernel\nPMU, raw, tracepoints, then "
		   "this CPU's kernel model), each with a\ndescription; or "
		   "a catalog model's, with unit masks and modifiers (a "
		   "kernel\nmodel's uncore events follow its core ones).\n"
		   "  -m, --model M  a catalog model instead of this "
		   "machine's events\n"
		   "  -l, --long     unit masks and modifiers too (uncore "
		   "events: perf's event\n                 string, deprecated "
		   "names)\n"
		   "  -j, --json     JSON: perf list -j's array; with "
		   "--model one object per\n                 event per line\n"
		   "      --models   list the models\n"
		   "      --metrics  list the model's metrics (pmu stat -M), "
		   "those of a\n"
		   "                 metric group or matching PATTERN\n"
		   "  -E, --events-dir DIR  also the models of a vendor event "
		   "directory\n"
		   "                 (DIR/mapfile.csv) and their full "
		   "descriptions\n"
		   "                 (default: $PMU_EVENTS_DIR)\n"
		   "PATTERN is a case-insensitive glob or substring.\n");
}

bool pmu_tool_list_match(const char *pat, const char *name)
{
	if (!pat)
		return true;
	if (strpbrk(pat, "*?["))
		return fnmatch(pat, name, FNM_CASEFOLD) == 0;
	return strcasestr(name, pat) != NULL;
}

/* Vendor text, when a vendor event directory has one, else ours. */
static const char *best_desc(size_t m, size_t e, size_t a,
			     const char *own)
{
	const char *v = pmu_catalog_vendor_desc(m, e, a);

	return v ? v : own ? own : "";
}

static void attrs_json(size_t m, size_t e, const struct pmu_event_info *ei)
{
	printf(", \"umasks\": [");
	size_t nu = 0, nm = 0;

	for (size_t a = 0; a < ei->nattrs; a++) {
		struct pmu_attr_info ai = { .size = sizeof(ai) };
		if (pmu_catalog_attr_info(m, e, a, &ai))
			continue;
		if (a == ei->numasks)
			printf("], \"modifiers\": [");
		printf("%s{\"name\": ", (a < ei->numasks ? nu++ : nm++) ?
		       ", " : "");
		pmu_tool_json_str(stdout, ai.name);
		if (ai.type == PMU_ATTR_UMASK)
			printf(", \"code\": \"0x%llx\", \"default\": %s",
			       (unsigned long long)ai.code,
			       ai.is_default ? "true" : "false");
		printf(", \"desc\": ");
		pmu_tool_json_str(stdout, ai.type == PMU_ATTR_UMASK ? best_desc(m, e, a, ai.desc)
						   : ai.desc);
		printf("}");
	}
	printf(ei->numasks == ei->nattrs ? "], \"modifiers\": []" : "]");
}

static void attrs_text(size_t m, size_t e, const struct pmu_event_info *ei)
{
	for (size_t a = 0; a < ei->nattrs; a++) {
		struct pmu_attr_info ai = { .size = sizeof(ai) };
		char lhs[96];
		if (pmu_catalog_attr_info(m, e, a, &ai))
			continue;
		if (ai.type == PMU_ATTR_UMASK)
			snprintf(lhs, sizeof(lhs), "%s 0x%02llx%s", ai.name,
				 (unsigned long long)ai.code,
				 ai.is_default ? " (default)" : "");
		else
			snprintf(lhs, sizeof(lhs), "%s=%s", ai.name,
				 ai.type == PMU_ATTR_MOD_INT ? "N" : "0|1");
		printf("    :%-36s %s\n", lhs, ai.type == PMU_ATTR_UMASK ?
		       best_desc(m, e, a, ai.desc) : ai.desc ? ai.desc : "");
	}
}

static void event_json(size_t m, size_t e, const char *model,
		       const struct pmu_event_info *ei)
{
	const char *vd = pmu_catalog_vendor_desc(m, e, PMU_CATALOG_EVENT);

	printf("{\"model\": ");
	pmu_tool_json_str(stdout, model);
	printf(", \"event\": ");
	pmu_tool_json_str(stdout, ei->name);
	printf(", \"code\": \"0x%llx\", \"counters\": \"0x%llx\", "
	       "\"desc\": ", (unsigned long long)ei->code,
	       (unsigned long long)ei->cntmsk);
	pmu_tool_json_str(stdout, ei->desc);
	if (vd) {
		printf(", \"long_desc\": ");
		pmu_tool_json_str(stdout, vd);
	}
	attrs_json(m, e, ei);
	printf("}\n");
}

static void event_text(size_t m, size_t e, const char *model,
		       const struct pmu_event_info *ei, bool lng)
{
	const char *vd = pmu_catalog_vendor_desc(m, e, PMU_CATALOG_EVENT);

	if (ei->desc && ei->desc[0])
		printf("%s::%-40s %s\n", model, ei->name, ei->desc);
	else
		printf("%s::%s\n", model, ei->name);
	if (!lng)
		return;
	if (vd)
		printf("    %s\n", vd);
	attrs_text(m, e, ei);
}

static void vendor_line(const char *model, const char *name, const char *d)
{
	if (d && *d)
		printf("%s::%-44s %s\n", model, name, d);
	else
		printf("%s::%s\n", model, name);
}

/* The kernel's models, as perf lists them: one line per vendor name
 * ("EVENT.UMASK", the bare EVENT for its DEFAULT record). */
static size_t vendor_lines(size_t m, size_t e, const char *model,
			   const struct pmu_event_info *ei, const char *pat)
{
	char name[192];
	size_t shown = 0;

	for (size_t a = 0; a < ei->numasks; a++) {
		struct pmu_attr_info ai = { .size = sizeof(ai) };
		if (pmu_catalog_attr_info(m, e, a, &ai))
			continue;
		if (!strcmp(ai.name, "DEFAULT"))
			snprintf(name, sizeof(name), "%s", ei->name);
		else
			snprintf(name, sizeof(name), "%s.%s", ei->name, ai.name);
		if (pmu_tool_list_match(pat, name)) {
			vendor_line(model, name, best_desc(m, e, a, ai.desc));
			shown++;
		}
	}
	if (!ei->numasks && pmu_tool_list_match(pat, ei->name)) {
		vendor_line(model, ei->name,
			    best_desc(m, e, PMU_CATALOG_EVENT, ei->desc));
		shown++;
	}
	return shown;
}

static void uncore_json(const char *model, const struct pmu_uncore_info *u,
			const char *desc)
{
	fputs("{\"model\": ", stdout);
	pmu_tool_json_str(stdout, model);
	fputs(", \"event\": ", stdout);
	pmu_tool_json_str(stdout, u->name);
	fputs(", \"pmu\": ", stdout);
	pmu_tool_json_str(stdout, u->pmu);
	fputs(", \"terms\": ", stdout);
	pmu_tool_json_str(stdout, u->terms);
	fputs(", \"scale_unit\": ", stdout);
	pmu_tool_json_str(stdout, u->scale_unit);
	printf(", \"per_pkg\": %s, \"deprecated\": %s",
	       u->per_pkg ? "true" : "false", u->deprecated ? "true" : "false");
	if (desc) {
		fputs(", \"vendor_desc\": ", stdout);
		pmu_tool_json_str(stdout, desc);
	}
	fputs("}\n", stdout);
}

/* The model's uncore events: the PMU they count on, and with --long the
 * event string perf would use.  Deprecated names only with --long or
 * --json, as perf hides them unless asked. */
static size_t list_uncore(size_t m, const char *model,
			  const struct list_args *a)
{
	size_t n = pmu_catalog_uncore_count(m), shown = 0;
	const char *vd;
	char pmu[80];

	for (size_t i = 0; i < n; i++) {
		struct pmu_uncore_info u = { .size = sizeof(u) };

		if (pmu_catalog_uncore_info(m, i, &u) ||
		    !pmu_tool_list_match(a->pattern, u.name) ||
		    (u.deprecated && !a->lng && !a->json))
			continue;
		shown++;
		vd = pmu_catalog_uncore_desc(m, i);
		if (a->json) {
			uncore_json(model, &u, vd);
			continue;
		}
		snprintf(pmu, sizeof(pmu), "[uncore PMU %s%s]", u.pmu,
			 u.deprecated ? ", deprecated" : "");
		vendor_line(model, u.name, pmu);
		if (a->lng && vd)
			printf("    %s\n", vd);
		if (a->lng)
			printf("    %s/%s/%s%s\n", u.pmu, u.terms,
			       *u.scale_unit ? "  scale unit " : "",
			       u.scale_unit);
	}
	return shown;
}

/* Returns how many events were printed. */
static size_t list_events(size_t m, const struct list_args *a)
{
	struct pmu_catalog_info mi = { .size = sizeof(mi) };
	size_t shown = 0;

	if (pmu_catalog_info(m, &mi))
		return 0;
	for (size_t e = 0; e < mi.nevents; e++) {
		struct pmu_event_info ei = { .size = sizeof(ei) };
		if (pmu_catalog_event_info(m, e, &ei))
			continue;
		if (mi.arch && !a->json && !a->lng) {
			shown += vendor_lines(m, e, mi.name, &ei, a->pattern);
			continue;
		}
		if (!pmu_tool_list_match(a->pattern, ei.name))
			continue;
		if (a->json)
			event_json(m, e, mi.name, &ei);
		else
			event_text(m, e, mi.name, &ei, a->lng);
		shown++;
	}
	return shown + list_uncore(m, mi.name, a);
}

static void join_aliases(const char *const *al, char *buf, size_t sz)
{
	size_t l = 0;

	buf[0] = '\0';
	for (size_t i = 0; al && al[i] && l < sz; i++) {
		int r = snprintf(buf + l, sz - l, "%s%s", i ? "," : "", al[i]);
		if (r < 0)
			break;
		l += (size_t)r;
	}
}

/* Patterns one a line -> "a, b" for the listing. */
static void join_lines(const char *s, char *buf, size_t sz)
{
	size_t l = 0;

	buf[0] = '\0';
	for (; s && *s && l + 3 < sz; s++) {
		if (*s == '\n') {
			buf[l++] = ',';
			buf[l++] = ' ';
		} else {
			buf[l++] = *s;
		}
	}
	buf[l < sz ? l : sz - 1] = '\0';
}

static void model_json(const struct pmu_catalog_info *mi, const char *al)
{
	char pat[1024];

	join_lines(mi->patterns, pat, sizeof(pat));
	printf("{\"model\": ");
	pmu_tool_json_str(stdout, mi->name);
	printf(", \"desc\": ");
	pmu_tool_json_str(stdout, mi->desc);
	printf(", \"aliases\": ");
	pmu_tool_json_str(stdout, al);
	printf(", \"events\": %zu, \"counters\": %zu, \"fixed\": %zu, "
	       "\"metrics\": %zu, \"host\": %s", mi->nevents, mi->ncounters,
	       mi->nfixed, mi->nmetrics, mi->is_host ? "true" : "false");
	if (mi->arch) {
		printf(", \"arch\": ");
		pmu_tool_json_str(stdout, mi->arch);
		printf(", \"pmu\": ");
		pmu_tool_json_str(stdout, mi->pmu ? mi->pmu : "");
		printf(", \"patterns\": ");
		pmu_tool_json_str(stdout, pat);
	}
	printf("}\n");
}

static void list_models(bool json)
{
	char note[320];
	bool cpu_known = pmu_tool_host_note(note, sizeof(note));

	for (size_t m = 0; m < pmu_catalog_count(); m++) {
		struct pmu_catalog_info mi = { .size = sizeof(mi) };
		char al[128];
		if (pmu_catalog_info(m, &mi))
			continue;
		join_aliases(mi.aliases, al, sizeof(al));
		if (json) {
			model_json(&mi, al);
		} else if (mi.patterns) {
			char pat[1024];
			join_lines(mi.patterns, pat, sizeof(pat));
			printf("%-24s %-40s %4zu events %3zu metrics  %s%s\n",
			       mi.name, mi.desc ? mi.desc : "", mi.nevents,
			       mi.nmetrics, pat, !mi.is_host ? "" :
			       cpu_known ? "  (this host)" :
			       "  (this host: no CPU catalog matched)");
		} else if (mi.hybrid) {
			printf("%-24s %-40s %4zu events %3zu metrics  (with "
			       "%s)\n", mi.name, mi.desc ? mi.desc : "",
			       mi.nevents, mi.nmetrics, mi.hybrid);
		} else {
			printf("%-24s %-34s %4zu events%s%s%s\n", mi.name,
			       mi.desc ? mi.desc : "", mi.nevents,
			       al[0] ? "  aka " : "", al, !mi.is_host ? "" :
			       cpu_known ? "  (this host)" :
			       "  (this host: no CPU catalog matched)");
		}
	}
}

/* Named events the kernel's dynamic PMUs publish in sysfs; returns
 * how many were printed. */
bool pmu_tool_host_note(char *buf, size_t sz)
{
	const char *env = getenv("PMU_EVENTS_MODEL"), *host;
	struct pmu_catalog_info mi = { .size = sizeof(mi) };
	char cpu[64] = "unknown CPU";
	ssize_t m = env && *env ? pmu_catalog_find(env) : -1;
	size_t l = 0;

	buf[0] = '\0';
	host = pmu_event_host_model();
	if (env && *env && (m < 0 || pmu_catalog_info((size_t)m, &mi) ||
			    strcasecmp(mi.name, host)))
		l = (size_t)snprintf(buf, sz, "PMU_EVENTS_MODEL='%s' names "
				     "no built-in model and is ignored; ", env);
	else if (m >= 0) {
		snprintf(buf, sz, "model %s, from PMU_EVENTS_MODEL", host);
		return true;
	}
	if (l >= sz)
		return false;
	pmu_events_host_cpuid(cpu, sizeof(cpu));
	if (strcmp(host, "perf")) {
		snprintf(buf + l, sz - l, "model %s, detected from this CPU "
			 "(%s)", host, cpu);
		return true;
	}
	snprintf(buf + l, sz - l, "no event catalog matches this CPU (%s): "
		 "names without 'pmu::' are perf's generic and software "
		 "events; choose a model with --model M, PMU_EVENTS_MODEL=M "
		 "or a 'model::' prefix (see 'pmu list --models')", cpu);
	return false;
}

int pmu_tool_events_dir(const char *dir)
{
	struct pmu_error err = { .size = sizeof(err) };
	int n = pmu_events_dir_check(dir, &err);

	if (n < 0) {
		pmu_tool_err("events directory: %s", err.message[0] ?
			     err.message : pmu_strerror(n));
		return EXIT_PMU_INPUT;
	}
	if (n == 0)
		pmu_tool_err("warning: %s/mapfile.csv names no core event "
			     "file that exists", dir);
	/* The library loads it once, on first use of the catalog. */
	if (setenv("PMU_EVENTS_DIR", dir, 1)) {
		pmu_tool_err("cannot set PMU_EVENTS_DIR");
		return EXIT_PMU_INPUT;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct list_args *a)
{
	static const struct option lo[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "long", no_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'j' },
		{ "models", no_argument, NULL, 'M' },
		{ "metrics", no_argument, NULL, 'X' },
		{ "events-dir", required_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "m:ljE:h", lo, NULL)) != -1) {
		switch (c) {
		case 'm': a->model = optarg; break;
		case 'l': a->lng = true; break;
		case 'j': a->json = true; break;
		case 'M': a->models = true; break;
		case 'X': a->metrics = true; break;
		case 'E': a->events_dir = optarg; break;
		case 'h': usage(stdout); return -1;
		default: usage(stderr); return EXIT_PMU_USAGE;
		}
	}
	if (optind < argc)
		a->pattern = argv[optind++];
	if (optind < argc) {
		pmu_tool_err("list: one PATTERN at most");
		return EXIT_PMU_USAGE;
	}
	return 0;
}

/* "model::PATTERN" names the model in the pattern, as event strings do. */
static int split_pattern(struct list_args *a, char *buf, size_t sz)
{
	const char *sep = a->pattern ? strstr(a->pattern, "::") : NULL;

	if (!sep)
		return 0;
	if (a->model) {
		pmu_tool_err("list: give the model either with --model or as "
			     "'%s'", a->pattern);
		return EXIT_PMU_USAGE;
	}
	snprintf(buf, sz, "%.*s", (int)(sep - a->pattern), a->pattern);
	a->model = buf;
	a->pattern = sep[2] ? sep + 2 : NULL;
	return 0;
}

static int list_host(ssize_t m, const struct list_args *a)
{
	char note[320];
	ssize_t v = pmu_events_dir_host_model();
	int shown;

	pmu_tool_host_note(note, sizeof(note));
	shown = pmu_tool_list_perf(a->pattern, a->json, a->lng, m, v);
	/* Said when it explains something: a PMU_EVENTS_MODEL that is
	 * ignored, or a search that found nothing (which catalog stood for
	 * this CPU, if any); 'pmu list --models' marks the host's always. */
	if (strstr(note, "PMU_EVENTS_MODEL='") || (!shown && a->pattern))
		pmu_tool_err("list: %s", note);
	return 0;
}

/* A metric is listed when the pattern names one of its groups, or
 * matches its name. */
static bool metric_match(const char *pat, const struct pmu_metric_info *mi)
{
	const char *g = mi->groups;
	size_t n;

	if (!pat)
		return true;
	for (; *g; g += n + (g[n] == ';')) {
		n = strcspn(g, ";");
		if (strlen(pat) == n && !strncasecmp(g, pat, n))
			return true;
	}
	return pmu_tool_list_match(pat, mi->name);
}

/* A metric without the vendor's description: what it is computed from,
 * the names its expression reads (events, other metrics, #literals),
 * each once, in order. */
static void metric_from(const char *expr, char *buf, size_t sz)
{
	static const char *const funcs[] = { "d_ratio", "min", "max", "if",
					     "else", "duration_time", NULL };
	size_t used = 0;

	buf[0] = '\0';
	for (const char *p = expr; *p && used + 1 < sz;) {
		const char *q = p;
		char name[128];
		bool skip = false;
		int w;

		if (!(*p == '_' || *p == '#' ||
		      ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z'))) {
			p++;
			continue;
		}
		/* a name, with perf's escapes (cpu@EVENT\,cmask\=1@) */
		while (*q) {
			if (*q == '\\' && q[1])
				q += 2;
			else if (strchr("_.#@", *q) ||
				 ((*q | 0x20) >= 'a' && (*q | 0x20) <= 'z') ||
				 (*q >= '0' && *q <= '9'))
				q++;
			else
				break;
		}
		snprintf(name, sizeof(name), "%.*s", (int)(q - p), p);
		p = q;
		for (size_t f = 0; funcs[f] && !skip; f++)
			skip = !strcmp(name, funcs[f]);
		if (skip || strstr(buf, name))
			continue;
		w = snprintf(buf + used, sz - used, "%s%s",
			     used ? ", " : "computed from ", name);
		used = w < 0 || (size_t)w >= sz - used ? sz - 1 : used + (size_t)w;
	}
	if (!used)
		snprintf(buf, sz, "a constant");
}

static void metric_line(size_t m, size_t x, const char *model,
			const struct pmu_metric_info *mi, bool lng, bool json)
{
	const char *desc = pmu_catalog_metric_desc(m, x);
	const char *unit = pmu_metric_unit(mi->unit, NULL);
	char own[400];

	if (json) {
		printf("{\"model\": ");
		pmu_tool_json_str(stdout, model);
		printf(", \"metric\": ");
		pmu_tool_json_str(stdout, mi->name);
		printf(", \"groups\": ");
		pmu_tool_json_str(stdout, mi->groups);
		printf(", \"unit\": ");
		pmu_tool_json_str(stdout, mi->unit);
		printf(", \"expr\": ");
		pmu_tool_json_str(stdout, mi->expr);
		if (desc) {
			printf(", \"desc\": ");
			pmu_tool_json_str(stdout, desc);
		}
		printf("}\n");
		return;
	}
	printf("%-44s %-12s %s\n", mi->name, *unit ? unit : "-",
	       mi->groups);
	if (!desc || !*desc) {
		metric_from(mi->expr, own, sizeof(own));
		desc = own;
	}
	printf("    [%s]\n", desc);
	if (lng)
		printf("    = %s\n", mi->expr);
}

static void list_model_metrics(size_t m, const struct list_args *a)
{
	struct pmu_catalog_info ci = { .size = sizeof(ci) };

	if (pmu_catalog_info(m, &ci))
		return;
	for (size_t x = 0; x < pmu_catalog_metric_count(m); x++) {
		struct pmu_metric_info mi = { .size = sizeof(mi) };
		if (!pmu_catalog_metric_info(m, x, &mi) &&
		    metric_match(a->pattern, &mi))
			metric_line(m, x, ci.name, &mi, a->lng, a->json);
	}
}

/* The metrics of the model (the host's by default) and of its hybrid
 * sibling. */
static int list_metrics(const struct list_args *a)
{
	const char *name = a->model ? a->model : pmu_event_host_model();
	struct pmu_catalog_info ci = { .size = sizeof(ci) };
	ssize_t m = pmu_catalog_find(name), h;

	if (m < 0 || pmu_catalog_info((size_t)m, &ci)) {
		pmu_tool_err("list: unknown model '%s'; see 'pmu list "
			     "--models'", name);
		return EXIT_PMU_INPUT;
	}
	if (!ci.nmetrics && !ci.hybrid) {
		pmu_tool_err("list: model %s has no metrics (the kernel's "
			     "pmu-events models have them)", ci.name);
		return EXIT_PMU_INPUT;
	}
	if (!a->json)
		pmu_tool_err("list: metrics of %s%s%s", ci.name,
			     ci.hybrid ? " and " : "",
			     ci.hybrid ? ci.hybrid : "");
	list_model_metrics((size_t)m, a);
	if (ci.hybrid && (h = pmu_catalog_find(ci.hybrid)) >= 0)
		list_model_metrics((size_t)h, a);
	return 0;
}

int cmd_list(int argc, char **argv)
{
	struct list_args a = { 0 };
	char mbuf[64];
	int rc = parse_args(argc, argv, &a);
	ssize_t m;

	if (rc || (rc = split_pattern(&a, mbuf, sizeof(mbuf))))
		return rc < 0 ? 0 : rc;
	if (!a.events_dir)
		a.events_dir = getenv("PMU_EVENTS_DIR");
	if (a.events_dir && *a.events_dir &&
	    (rc = pmu_tool_events_dir(a.events_dir)))
		return rc;
	if (a.models) {
		list_models(a.json);
		return 0;
	}
	if (a.metrics)
		return list_metrics(&a);
	if (!a.model)
		return list_host(pmu_catalog_find(pmu_event_host_model()), &a);
	if ((m = pmu_catalog_find(a.model)) < 0) {
		const char *near = pmu_catalog_suggest(a.model);
		pmu_tool_err("list: unknown model '%s'%s%s%s; see 'pmu list "
			     "--models'", a.model,
			     near ? " (did you mean '" : "", near ? near : "",
			     near ? "'?)" : "");
		return EXIT_PMU_INPUT;
	}
	list_events((size_t)m, &a);
	return 0;
}
