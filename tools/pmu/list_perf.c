/* SPDX-License-Identifier: MIT */
/*
 * pmu list without --model: this machine's events in perf list's
 * sections and order (hardware, software, tool, hardware cache, kernel
 * PMU events, raw descriptors, tracepoints), then what perf does not
 * list here: the events of this CPU's kernel model (perf lists them
 * only where the core PMU exists) and of a vendor directory.  Every
 * entry has a description: the vendor's where one is read at run time,
 * else a short one of pmu's own or, for a tracepoint, its fields.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/event.h>
#include <pmu/host.h>
#include <pmu/pmu.h>
#include <pmu/vendor.h>

#include "cmd.h"

struct entry {
	const char *name;      /* "branch-instructions OR branches" */
	const char *desc;
};

static const struct entry hw_events[] = {
	{ "branch-instructions OR branches", "branch instructions retired" },
	{ "branch-misses", "mispredicted branch instructions retired" },
	{ "bus-cycles", "bus clock cycles" },
	{ "cache-misses", "cache misses (mostly of the last-level cache)" },
	{ "cache-references", "cache accesses (mostly of the last-level cache)" },
	{ "cpu-cycles OR cycles", "core clock cycles" },
	{ "instructions", "instructions retired" },
	{ "ref-cycles", "reference clock cycles, whatever the frequency" },
	{ "stalled-cycles-backend OR idle-cycles-backend",
	  "cycles the back end stalled" },
	{ "stalled-cycles-frontend OR idle-cycles-frontend",
	  "cycles without instructions issued" },
};

static const struct entry sw_events[] = {
	{ "alignment-faults", "unaligned accesses the kernel fixed up" },
	{ "bpf-output", "output of BPF programs (for sampling)" },
	{ "cgroup-switches", "context switches into another cgroup" },
	{ "context-switches OR cs", "context switches" },
	{ "cpu-clock", "time on a per-CPU clock, in nanoseconds" },
	{ "cpu-migrations OR migrations", "moves of a task to another CPU" },
	{ "dummy", "counts nothing (carries side records)" },
	{ "emulation-faults", "instructions the kernel emulated" },
	{ "major-faults", "page faults that waited for I/O" },
	{ "minor-faults", "page faults served without I/O" },
	{ "page-faults OR faults", "page faults" },
	{ "task-clock", "time the task ran, in nanoseconds" },
};

static const struct entry tool_events[] = {
	{ "duration_time", "wall-clock time of the run, in nanoseconds" },
	{ "user_time", "user CPU time of the command, in nanoseconds" },
	{ "system_time", "system CPU time of the command, in nanoseconds" },
};

/* The caches perf names, with the operations it lists for each. */
static const struct {
	const char *name, *what;
	unsigned ops;          /* 1 load, 2 store, 4 prefetch */
} caches[] = {
	{ "L1-dcache", "level 1 data cache", 7 },
	{ "L1-icache", "level 1 instruction cache", 5 },
	{ "LLC", "last-level cache", 7 },
	{ "dTLB", "data TLB", 7 },
	{ "iTLB", "instruction TLB", 1 },
	{ "branch", "branch prediction unit", 1 },
	{ "node", "local memory node", 7 },
};

static const char *const op_name[3] = { "load", "store", "prefetch" };

/* Does `name` (an event as a session names it, modifiers and all) name
 * entry `e` ("context-switches OR cs")? */
static bool names_entry(const char *e, const char *name)
{
	size_t n = strcspn(name, ":/");

	while (*e) {
		size_t k = strcspn(e, " ");

		if (k == n && !strncmp(e, name, n))
			return true;
		e += k;
		if (!strncmp(e, " OR ", 4))
			e += 4;
		else
			break;
	}
	return false;
}

const char *pmu_tool_event_desc(const char *name)
{
	static const struct { const struct entry *t; size_t n; } tabs[] = {
		{ hw_events, sizeof(hw_events) / sizeof(*hw_events) },
		{ sw_events, sizeof(sw_events) / sizeof(*sw_events) },
		{ tool_events, sizeof(tool_events) / sizeof(*tool_events) },
	};
	const char *model = pmu_event_host_model();
	ssize_t m, e;
	struct pmu_event_info ei = { .size = sizeof(ei) };
	char base[128];

	if (!name)
		return NULL;
	for (size_t t = 0; t < sizeof(tabs) / sizeof(*tabs); t++)
		for (size_t i = 0; i < tabs[t].n; i++)
			if (names_entry(tabs[t].t[i].name, name))
				return tabs[t].t[i].desc;
	/* an event of this machine's catalog model, without modifiers */
	snprintf(base, sizeof(base), "%.*s", (int)strcspn(name, ":"), name);
	if (model && (m = pmu_catalog_find(model)) >= 0 &&
	    (e = pmu_catalog_event_find((size_t)m, base)) >= 0 &&
	    !pmu_catalog_event_info((size_t)m, (size_t)e, &ei) && ei.desc &&
	    *ei.desc)
		return ei.desc;
	return NULL;
}

struct out {
	const char *pat;
	bool json, first;
	bool lng;              /* --long: a tracepoint's fields too */
	size_t shown;
};

static void json_entry(struct out *o, const char *name, const char *type,
		       const char *desc, const char *unit,
		       const char *encoding)
{
	fputs(o->first ? "[\n{\n" : ",\n{\n", stdout);
	o->first = false;
	if (unit) {
		fputs("\t\"Unit\": ", stdout);
		pmu_tool_json_str(stdout, unit);
		fputs(",\n", stdout);
	}
	fputs("\t\"EventName\": ", stdout);
	pmu_tool_json_str(stdout, name);
	fputs(",\n\t\"EventType\": ", stdout);
	pmu_tool_json_str(stdout, type);
	fputs(",\n\t\"BriefDescription\": ", stdout);
	pmu_tool_json_str(stdout, desc ? desc : "");
	if (encoding) {
		fputs(",\n\t\"Encoding\": ", stdout);
		pmu_tool_json_str(stdout, encoding);
	}
	fputs("\n}", stdout);
}

/* One entry: perf's line, its description under it as perf prints a
 * vendor event's. */
static void entry(struct out *o, const char *name, const char *type,
		  const char *desc, const char *unit, const char *encoding)
{
	if (!pmu_tool_list_match(o->pat, name))
		return;
	o->shown++;
	if (o->json) {
		json_entry(o, name, type, desc, unit, encoding);
		return;
	}
	if (type)
		printf("  %-50s [%s]\n", name, type);
	else
		printf("  %s\n", name);
	if (desc && *desc)
		printf("       [%s]\n", desc);
}

static void list_table(struct out *o, const struct entry *t, size_t n,
		       const char *type)
{
	for (size_t i = 0; i < n; i++)
		entry(o, t[i].name, type, t[i].desc, NULL, NULL);
}

static void list_caches(struct out *o)
{
	char name[64], desc[128];

	for (size_t c = 0; c < sizeof(caches) / sizeof(caches[0]); c++)
		for (unsigned op = 0; op < 3; op++) {
			if (!(caches[c].ops & (1u << op)))
				continue;
			for (int miss = 0; miss < 2; miss++) {
				snprintf(name, sizeof(name), miss ? "%s-%s-misses"
					 : "%s-%ss", caches[c].name, op_name[op]);
				snprintf(desc, sizeof(desc), "%s %s%s",
					 caches[c].what, op_name[op],
					 miss ? " misses" : "s");
				entry(o, name, "Hardware cache event", desc,
				      NULL, NULL);
			}
		}
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of a directory's entries (not . and ..), sorted; with
 * dirs_only, of its subdirectories alone (a tracepoint is a directory,
 * "enable" and "filter" beside it are files). */
static char **dir_names(const char *path, bool dirs_only, size_t *n)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char **v = NULL, **nv;
	size_t cap = 0;

	*n = 0;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' ||
		    (dirs_only && e->d_type != DT_DIR && e->d_type != DT_UNKNOWN))
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			if (!(nv = realloc(v, cap * sizeof(*v))))
				break;
			v = nv;
		}
		if (!(v[*n] = strdup(e->d_name)))
			break;
		(*n)++;
	}
	if (d)
		closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), by_name);
	return v;
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* The kernel PMUs' event aliases of sysfs ("msr/tsc/"), with the
 * alias's terms as the description. */
static void list_sysfs(struct out *o)
{
	struct pmu_kernel_pmu *pmus = NULL;
	ssize_t np = pmu_kernel_pmus(NULL, 0);

	if (np > 0 && (pmus = calloc((size_t)np, sizeof(*pmus)))) {
		pmus[0].size = sizeof(*pmus);
		np = pmu_kernel_pmus(pmus, (size_t)np);
	}
	for (ssize_t p = 0; pmus && p < np; p++) {
		struct pmu_kernel_alias *al = NULL;
		ssize_t na = pmu_kernel_aliases(pmus[p].name, NULL, 0);

		if (na > 0 && (al = calloc((size_t)na, sizeof(*al)))) {
			al[0].size = sizeof(*al);
			na = pmu_kernel_aliases(pmus[p].name, al, (size_t)na);
		}
		for (ssize_t e = 0; al && e < na; e++) {
			char name[256], desc[400];

			snprintf(name, sizeof(name), "%s/%s/", pmus[p].name,
				 al[e].name);
			snprintf(desc, sizeof(desc), "%s PMU: %s", pmus[p].name,
				 al[e].terms);
			entry(o, name, "Kernel PMU event", desc, pmus[p].name,
			      name);
		}
		free(al);
	}
	free(pmus);
}

/* A tracepoint's fields, from its format file: "fields: a, b". */
static void tp_fields(const char *dir, char *buf, size_t sz)
{
	char path[700], line[512];
	size_t used = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/format", dir);
	buf[0] = '\0';
	if (!(f = fopen(path, "re")))
		return;
	while (fgets(line, sizeof(line), f) && used + 2 < sz) {
		char *p = strstr(line, "field:"), *semi, *name;

		if (!p || (semi = strchr(p, ';')) == NULL)
			continue;
		*semi = '\0';
		/* the last word of the declaration, before any [N] */
		name = strrchr(p, ' ');
		name = name ? name + 1 : p + 6;
		name[strcspn(name, "[")] = '\0';
		if (!strncmp(name, "common_", 7))
			continue;
		used += (size_t)snprintf(buf + used, sz - used, "%s%s",
					 used ? ", " : "fields: ", name);
	}
	fclose(f);
	if (!used)
		snprintf(buf, sz, "no fields");
}

/* sys:event names, sorted as whole strings (perf's order: "fib6:..."
 * before "fib:...") */
static void list_tracepoints(struct out *o)
{
	static const char *const roots[] = { "/sys/kernel/tracing/events",
					     "/sys/kernel/debug/tracing/events" };
	char path[600], desc[400];
	size_t ns = 0, ne, n = 0, cap = 0;
	char **sys = NULL, **all = NULL, **nv;
	const char *root = NULL;

	for (size_t r = 0; r < 2 && !ns; r++) {
		free_names(sys, ns);
		sys = dir_names(roots[r], true, &ns);
		root = roots[r];
	}
	for (size_t s = 0; s < ns; s++) {
		char **evs;

		snprintf(path, sizeof(path), "%s/%s", root, sys[s]);
		evs = dir_names(path, true, &ne);
		for (size_t e = 0; e < ne; e++) {
			char *name;

			if (asprintf(&name, "%s:%s", sys[s], evs[e]) < 0)
				break;
			if (!pmu_tool_list_match(o->pat, name)) {
				free(name);
				continue;
			}
			if (n == cap) {
				cap = cap ? 2 * cap : 256;
				if (!(nv = realloc(all, cap * sizeof(*all)))) {
					free(name);
					break;
				}
				all = nv;
			}
			all[n++] = name;
		}
		free_names(evs, ne);
	}
	free_names(sys, ns);
	if (n)
		qsort(all, n, sizeof(*all), by_name);
	for (size_t i = 0; i < n; i++) {
		char *colon = strchr(all[i], ':');

		snprintf(path, sizeof(path), "%s/%.*s/%s", root,
			 (int)(colon - all[i]), all[i], colon + 1);
		/* the fields are read from each tracepoint's format file,
		 * which the kernel writes out anew: only when asked */
		if (o->lng)
			tp_fields(path, desc, sizeof(desc));
		else
			snprintf(desc, sizeof(desc), "a tracepoint of the "
				 "kernel's %.*s subsystem",
				 (int)(colon - all[i]), all[i]);
		entry(o, all[i], "Tracepoint event", desc, NULL, NULL);
	}
	free_names(all, n);
}

/* An event of a kernel model without a vendor description: what it is
 * to the hardware. */
static void kernel_desc(const char *model, const char *name, char *buf,
			size_t sz)
{
	struct pmu_encoding enc = { .size = sizeof(enc) };
	char spec[256];

	snprintf(spec, sizeof(spec), "%s::%s", model, name);
	buf[0] = '\0';
	if (pmu_event_encode(spec, NULL, &enc, NULL) || !enc.has_perf)
		return;
	if (enc.perf.config1)
		snprintf(buf, sz, "raw config 0x%llx, config1 0x%llx",
			 (unsigned long long)enc.perf.config,
			 (unsigned long long)enc.perf.config1);
	else
		snprintf(buf, sz, "raw config 0x%llx",
			 (unsigned long long)enc.perf.config);
}

/* One event of a model's listing under its heading (printed with the
 * model's first event listed): the vendor's description, else the
 * table's (own), else its raw code (what `spec` encodes to). */
static void model_entry(struct out *o, const char *model, size_t before,
			const char *name, const char *spec, const char *vendor,
			const char *own)
{
	char raw[96];
	const char *d = vendor && *vendor ? vendor : own && *own ? own : NULL;

	if (!pmu_tool_list_match(o->pat, name))
		return;
	if (!o->json && o->shown == before)
		printf("\n%s:\n", model);
	if (!d) {
		kernel_desc(model, spec, raw, sizeof(raw));
		d = raw;
	}
	entry(o, name, NULL, d, model, NULL);
}

/* A kernel model's events by perf's names ("EVENT.UMASK", the bare
 * EVENT for its DEFAULT record or when it has no umasks); a
 * libpfm4-named model's as MODEL::EVENT (its umasks with pmu list
 * --model M --long). */
static void list_model(struct out *o, ssize_t m)
{
	struct pmu_catalog_info mi = { .size = sizeof(mi) };
	char name[192], full[256];
	size_t before = o->shown;

	if (m < 0 || pmu_catalog_info((size_t)m, &mi))
		return;
	for (size_t e = 0; e < mi.nevents; e++) {
		struct pmu_event_info ei = { .size = sizeof(ei) };

		if (pmu_catalog_event_info((size_t)m, e, &ei))
			continue;
		if (!mi.arch) {
			snprintf(full, sizeof(full), "%s::%s", mi.name, ei.name);
			model_entry(o, mi.name, before, full, ei.name,
				    pmu_catalog_vendor_desc((size_t)m, e,
							    PMU_CATALOG_EVENT),
				    ei.desc);
			continue;
		}
		if (!ei.numasks)
			model_entry(o, mi.name, before, ei.name, ei.name,
				    pmu_catalog_vendor_desc((size_t)m, e,
							    PMU_CATALOG_EVENT),
				    NULL);
		for (size_t a = 0; a < ei.numasks; a++) {
			struct pmu_attr_info ai = { .size = sizeof(ai) };

			if (pmu_catalog_attr_info((size_t)m, e, a, &ai))
				continue;
			if (!strcmp(ai.name, "DEFAULT"))
				snprintf(name, sizeof(name), "%s", ei.name);
			else
				snprintf(name, sizeof(name), "%s.%s", ei.name,
					 ai.name);
			model_entry(o, mi.name, before, name, name,
				    pmu_catalog_vendor_desc((size_t)m, e, a),
				    NULL);
		}
	}
}

int pmu_tool_list_perf(const char *pattern, bool json, bool lng,
		       ssize_t model, ssize_t vendor)
{
	struct pmu_host_info h = { .size = sizeof(h) };
	struct out o = { .pat = pattern, .json = json, .first = true,
			 .lng = lng };
	/* as perf: hardware events where there is hardware to count them */
	bool hw = pmu_host_info(&h) == 0 && h.has_hw_pmu;

	if (hw)
		list_table(&o, hw_events, sizeof(hw_events) / sizeof(hw_events[0]),
			   "Hardware event");
	list_table(&o, sw_events, sizeof(sw_events) / sizeof(sw_events[0]),
		   "Software event");
	list_table(&o, tool_events,
		   sizeof(tool_events) / sizeof(tool_events[0]), "Tool event");
	if (hw)
		list_caches(&o);
	list_sysfs(&o);
	entry(&o, "rNNN", "Raw hardware event descriptor",
	      "the core PMU's raw config, in hex (see man pmu-list)", NULL,
	      NULL);
	entry(&o, "cpu/t1=v1[,t2=v2,t3 ...]/modifier",
	      "Raw hardware event descriptor",
	      "a PMU's format terms and values (see man pmu-list)", NULL, NULL);
	entry(&o, "mem:<addr>[/len][:access]", "Hardware breakpoint",
	      "accesses (r, w, rw or x) to len bytes at addr, counted by a "
	      "debug register (see man pmu-list)", NULL, NULL);
	list_tracepoints(&o);
	list_model(&o, model);
	if (vendor >= 0 && vendor != model)
		list_model(&o, vendor);
	if (json)
		puts(o.first ? "[]" : "\n]");
	return (int)(o.shown > 0);
}
