/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/pmu.h>

#include "cmd.h"

enum { OPT_STDIO = 256, OPT_SORT, OPT_CHILDREN, OPT_NO_CHILDREN, OPT_LIMIT,
       OPT_COMM, OPT_DSO, OPT_TID, OPT_JSON, OPT_FOLDED, OPT_FLAME,
       OPT_PPROF, OPT_FIREFOX, OPT_DIFF, OPT_NO_INLINE, OPT_NO_LINES,
       OPT_NO_KERNEL, OPT_TITLE, OPT_INLINE, OPT_MAX_STACK };

struct rep_cli {
	struct pmu_report_opts o;
	const char *in;
	enum pmu_report_format fmt;
	const char *out;        /* file of an export, NULL: stdout */
	int children;           /* -1: by the file */
	bool cg_set, cg_order_set, diff, no_inline, no_lines, inline_on;
	unsigned max_stack;     /* 0: the machine's */
	const char *files[2];
};

static void usage(FILE *f, bool script)
{
	if (script) {
		fprintf(f,
"usage: pmu script [-i FILE] [-F FIELDS] [--comm C] [--dso D] [--tid T]\n"
"\n"
"Print a profile's samples one per line (call chains below), as perf\n"
"script does.\n"
"\n"
"  -i, --input FILE     profile to read (default perf.data; -: stdin)\n"
"  -F, --fields LIST    comm,pid,tid,cpu,time,period,event,ip,sym,symoff,\n"
"                       dso,srcline,trace (default comm,tid,time,period,\n"
"                       event,ip,sym,symoff,dso; for tracepoints\n"
"                       comm,tid,cpu,time,event,trace)\n"
"      --comm LIST      only these commands\n"
"      --dso LIST       only samples in these DSOs\n"
"      --tid TID        only this thread\n"
"      --inline         inlined-function frames (read from DWARF)\n"
"      --no-inline      no inlined-function frames\n"
"      --max-stack N    follow call chains N addresses deep (default:\n"
"                       kernel.perf_event_max_stack, 127)\n"
"  -h, --help           this help\n");
		return;
	}
	fprintf(f,
"usage: pmu report [-i FILE] [OPTIONS]\n"
"       pmu report --diff BASE NEW [OPTIONS]\n"
"\n"
"Where the samples of a profile (perf.data, written by pmu or perf record)\n"
"fell: overhead per command, DSO, symbol or source line, call graphs,\n"
"and exports.\n"
"\n"
"  -i, --input FILE         profile to read (default perf.data; -: stdin)\n"
"      --stdio              text output (the default)\n"
"  -s, --sort KEYS          comm,dso,sym (default); also pid, tid,\n"
"                           srcline, event\n"
"      --children           rows also count time spent in callees\n"
"      --no-children        rows count only their own samples\n"
"  -g, --call-graph LIST    perf's: caller, callee or none, a limit in\n"
"                           percent (default 0.5): graph,0.5,caller\n"
"      --percent-limit P    hide rows below P percent\n"
"      --comm LIST          only these commands\n"
"      --dso LIST           only samples in these DSOs\n"
"      --tid TID            only this thread\n"
"      --json               rows as JSON\n"
"      --folded             folded stacks (comm;root;...;leaf period)\n"
"      --flamegraph FILE    interactive SVG flame graph\n"
"      --pprof FILE         pprof profile.proto, gzipped\n"
"      --firefox FILE       Firefox Profiler JSON\n"
"      --title TEXT         flame graph title\n"
"      --diff               compare two profiles: BASE NEW\n"
"      --inline             inlined-function frames in text and JSON\n"
"                           (exports have them unless --no-inline)\n"
"      --no-inline          no inlined-function frames\n"
"      --no-srcline         skip DWARF (no source lines, no inlines)\n"
"      --no-kernel          leave kernel frames out of stacks\n"
"      --max-stack N        follow call chains N addresses deep (default:\n"
"                           kernel.perf_event_max_stack, 127)\n"
"  -h, --help               this help\n"
"\n"
"Exit status: 0, 1 for a bad or unreadable profile, 2 for bad usage.\n");
}

static const struct option report_opts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "stdio", no_argument, NULL, OPT_STDIO },
	{ "sort", required_argument, NULL, 's' },
	{ "children", no_argument, NULL, OPT_CHILDREN },
	{ "no-children", no_argument, NULL, OPT_NO_CHILDREN },
	{ "call-graph", required_argument, NULL, 'g' },
	{ "percent-limit", required_argument, NULL, OPT_LIMIT },
	{ "comm", required_argument, NULL, OPT_COMM },
	{ "dso", required_argument, NULL, OPT_DSO },
	{ "tid", required_argument, NULL, OPT_TID },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "folded", no_argument, NULL, OPT_FOLDED },
	{ "flamegraph", required_argument, NULL, OPT_FLAME },
	{ "pprof", required_argument, NULL, OPT_PPROF },
	{ "firefox", required_argument, NULL, OPT_FIREFOX },
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "diff", no_argument, NULL, OPT_DIFF },
	{ "inline", no_argument, NULL, OPT_INLINE },
	{ "no-inline", no_argument, NULL, OPT_NO_INLINE },
	{ "no-srcline", no_argument, NULL, OPT_NO_LINES },
	{ "no-kernel", no_argument, NULL, OPT_NO_KERNEL },
	{ "max-stack", required_argument, NULL, OPT_MAX_STACK },
	{ "fields", required_argument, NULL, 'F' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int set_fmt(struct rep_cli *c, enum pmu_report_format f,
		   const char *out)
{
	if (c->fmt != PMU_REPORT_STDIO && c->fmt != f) {
		pmu_tool_err("report: give one of --json, --folded, "
			     "--flamegraph, --pprof, --firefox");
		return EXIT_PMU_USAGE;
	}
	c->fmt = f;
	c->out = out;
	return 0;
}

/* perf's -g: a comma list of the mode (graph; none), a limit in
 * percent, the order (caller, callee) and the printing (function,
 * percent), in any order: "caller", "graph,0.5,caller", "none". */
static int parse_graph(struct rep_cli *c, const char *arg)
{
	char *dup = strdup(arg), *save = NULL, *tok;
	int rc = 0;

	if (!dup) {
		pmu_tool_err("out of memory");
		return EXIT_PMU_INPUT;
	}
	c->cg_set = true;
	c->cg_order_set = false;
	for (tok = strtok_r(dup, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		char *end;
		double v = strtod(tok, &end);

		if (!strcmp(tok, "caller")) {
			c->o.callgraph = PMU_CALLGRAPH_CALLER;
			c->cg_order_set = true;
		} else if (!strcmp(tok, "callee")) {
			c->o.callgraph = PMU_CALLGRAPH_CALLEE;
			c->cg_order_set = true;
		} else if (!strcmp(tok, "none")) {
			c->o.callgraph = PMU_CALLGRAPH_NONE;
			c->cg_order_set = true;
		} else if (!strcmp(tok, "graph") || !strcmp(tok, "function") ||
			   !strcmp(tok, "percent")) {
			continue;
		} else if (end != tok && !*end && v >= 0 && v <= 100) {
			c->o.callgraph_limit = v > 0 ? v : -1;
		} else {
			pmu_tool_err("-g: '%s' in '%s' is not graph, caller, "
				     "callee, none or a limit in percent "
				     "(flat, fractal, folded, address and "
				     "period are perf's, not pmu's)", tok, arg);
			rc = EXIT_PMU_USAGE;
		}
	}
	free(dup);
	return rc;
}

static int parse_num(const char *arg, const char *opt, double *v)
{
	char *end;

	*v = strtod(arg, &end);
	if (*end || end == arg || *v < 0) {
		pmu_tool_err("%s: '%s' is not a number >= 0", opt, arg);
		return EXIT_PMU_USAGE;
	}
	return 0;
}

static int parse_opt(int opt, struct rep_cli *c)
{
	double v;

	switch (opt) {
	case 'i': c->in = optarg; return 0;
	case OPT_STDIO: return 0;
	case 's': c->o.sort = optarg; return 0;
	case OPT_CHILDREN: c->children = 1; return 0;
	case OPT_NO_CHILDREN: c->children = 0; return 0;
	case 'g': return parse_graph(c, optarg);
	case OPT_LIMIT:
		if (parse_num(optarg, "--percent-limit", &v))
			return EXIT_PMU_USAGE;
		c->o.percent_limit = v;
		return 0;
	case OPT_COMM: c->o.comm = optarg; return 0;
	case OPT_DSO: c->o.dso = optarg; return 0;
	case OPT_TID:
		if (parse_num(optarg, "--tid", &v) || v != (pid_t)v) {
			pmu_tool_err("--tid: '%s' is not a thread id", optarg);
			return EXIT_PMU_USAGE;
		}
		c->o.tid = (pid_t)v;
		return 0;
	case OPT_JSON: return set_fmt(c, PMU_REPORT_JSON, NULL);
	case OPT_FOLDED: return set_fmt(c, PMU_REPORT_FOLDED, NULL);
	case OPT_FLAME: return set_fmt(c, PMU_REPORT_SVG, optarg);
	case OPT_PPROF: return set_fmt(c, PMU_REPORT_PPROF, optarg);
	case OPT_FIREFOX: return set_fmt(c, PMU_REPORT_FIREFOX, optarg);
	case OPT_TITLE: c->o.title = optarg; return 0;
	case OPT_DIFF: c->diff = true; return 0;
	case OPT_NO_INLINE: c->no_inline = true; return 0;
	case OPT_INLINE: c->inline_on = true; return 0;
	case OPT_NO_LINES: c->no_lines = true; return 0;
	case OPT_NO_KERNEL: c->o.no_kernel = true; return 0;
	case OPT_MAX_STACK:
		if (parse_num(optarg, "--max-stack", &v))
			return EXIT_PMU_USAGE;
		if (v < 1 || v > 1000000 || v != (unsigned)v) {
			pmu_tool_err("--max-stack: '%s' is not a depth from 1 "
				     "to 1000000", optarg);
			return EXIT_PMU_USAGE;
		}
		c->max_stack = (unsigned)v;
		return 0;
	case 'F': c->o.fields = optarg; return 0;
	default: return EXIT_PMU_USAGE;
	}
}

static int parse_args(int argc, char **argv, struct rep_cli *c, bool script)
{
	int opt, rc;

	optind = 1;
	while ((opt = getopt_long(argc, argv, script ? "i:F:h" : "i:s:g:h",
				  report_opts, NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout, script);
			return -1;
		}
		if (opt == '?') {
			usage(stderr, script);
			return EXIT_PMU_USAGE;
		}
		if ((rc = parse_opt(opt, c)))
			return rc;
	}
	if (c->diff) {
		if (argc - optind != 2) {
			pmu_tool_err("report: --diff takes two files, BASE NEW");
			return EXIT_PMU_USAGE;
		}
		c->files[0] = argv[optind];
		c->files[1] = argv[optind + 1];
		struct pmu_report_format_info fi = { .size = sizeof(fi) };

		if (!pmu_report_format_info(c->fmt, &fi) && !fi.diff) {
			pmu_tool_err("report: --diff writes text, --json, "
				     "--folded or --flamegraph");
			return EXIT_PMU_USAGE;
		}
	} else if (optind < argc) {
		pmu_tool_err("report: unexpected argument '%s'", argv[optind]);
		return EXIT_PMU_USAGE;
	}
	return 0;
}

/* DWARF is read only where its answers are shown: source lines, and
 * inlined frames in exports and wherever --inline asks for them (perf
 * report and script leave them out unless asked, too). */
static bool wants_lines(const struct rep_cli *c)
{
	struct pmu_report_format_info fi = { .size = sizeof(fi) };

	if (c->no_lines)
		return false;
	if (c->inline_on)
		return true;
	if (c->o.sort && strstr(c->o.sort, "srcline"))
		return true;
	if (c->o.fields && strstr(c->o.fields, "srcline"))
		return true;
	return !c->no_inline && !pmu_report_format_info(c->fmt, &fi) &&
	       fi.frames;
}

static struct pmu_profile *open_profile(const struct rep_cli *c,
					const char *path)
{
	bool lines = wants_lines(c);
	struct pmu_profile_opts po = { .sz = sizeof(po),
				       .no_lines = !lines,
				       .no_inline = c->no_inline,
				       .max_stack = c->max_stack };
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_profile_info in = { .size = sizeof(in) };
	struct pmu_profile *p = pmu_profile_open(path, &po, &err);

	if (!p) {
		pmu_tool_err("%s", err.message);
		return NULL;
	}
	pmu_profile_info(p, &in);
	if (in.foreign_endian)
		pmu_tool_err("%s: written on a machine of the other byte "
			     "order; symbols are looked up here", path);
	if (in.truncated)
		pmu_tool_err("%s: the file is cut short (the recording did "
			     "not finish?); reporting what is there", path);
	if (in.corrupt)
		pmu_tool_err("%s: a record makes no sense; reporting the "
			     "records before it", path);
	if (in.unknown_records)
		pmu_tool_err("%s: %" PRIu64 " records of types pmu does not "
			     "know were skipped", path, in.unknown_records);
	if (in.lost)
		pmu_tool_err("%s: %" PRIu64 " samples were lost while "
			     "recording (%" PRIu64 " LOST records)", path,
			     in.lost, in.nlost_records);
	if (!in.nsamples)
		pmu_tool_err("%s: the profile has no samples", path);
	return p;
}

static void dso_problems(struct pmu_profile *p)
{
	const char *path, *why;

	for (size_t i = 0; !pmu_profile_dso(p, i, &path, &why); i++)
		if (why && path[0] == '/')
			pmu_tool_err("%s: %s", path, why);
}

static void defaults(struct rep_cli *c, struct pmu_profile *p)
{
	struct pmu_profile_info in = { .size = sizeof(in) };

	pmu_profile_info(p, &in);
	/* perf's habits: with call chains, children, shown as callers'
	 * graphs (callees' without children) */
	c->o.children = c->children < 0 ? in.callchains : c->children;
	if (!c->cg_set || !c->cg_order_set)
		c->o.callgraph = !in.callchains ? PMU_CALLGRAPH_NONE :
				 c->o.children ? PMU_CALLGRAPH_CALLER :
						 PMU_CALLGRAPH_CALLEE;
	if (!in.callchains)
		c->o.callgraph = PMU_CALLGRAPH_NONE;
}

static int write_out(struct rep_cli *c, struct pmu_profile *p,
		     struct pmu_profile *base)
{
	struct pmu_error err = { .size = sizeof(err) };
	const char *inputs[3] = { c->in, c->files[0], c->files[1] };
	struct pmu_outfile out = { 0 };
	FILE *f = stdout;
	int ret;

	if (c->out) {
		if ((ret = pmu_tool_outfile_open(&out, c->out, inputs, 3)))
			return ret;
		f = out.f;
	}
	ret = pmu_report_write(p, base, c->fmt, f, &c->o, &err);
	if (c->out) {
		/* a failed export leaves what the file held */
		int rc = pmu_tool_outfile_close(&out, ret == 0);

		if (rc && !ret)
			return rc;    /* it said why */
	}
	if (ret) {
		pmu_tool_err("%s", err.message[0] ? err.message :
			     strerror(-ret));
		return err.kind == PMU_ERR_USAGE ? EXIT_PMU_USAGE :
						   EXIT_PMU_INPUT;
	}
	dso_problems(p);
	return 0;
}

static int run(struct rep_cli *c)
{
	struct pmu_profile *p, *base = NULL;
	int rc;

	if (c->diff && !(base = open_profile(c, c->files[0])))
		return EXIT_PMU_INPUT;
	p = open_profile(c, c->diff ? c->files[1] : c->in);
	if (!p) {
		pmu_profile_close(base);
		return EXIT_PMU_INPUT;
	}
	defaults(c, p);
	if (c->diff) {
		c->o.children = false;
		c->o.callgraph = PMU_CALLGRAPH_NONE;
	}
	rc = write_out(c, p, base);
	pmu_profile_close(p);
	pmu_profile_close(base);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct rep_cli c = { .o = { .sz = sizeof(c.o) }, .in = "perf.data",
			     .children = -1 };
	int rc = parse_args(argc, argv, &c, false);

	return rc < 0 ? 0 : rc ? rc : run(&c);
}

int cmd_script(int argc, char **argv)
{
	struct rep_cli c = { .o = { .sz = sizeof(c.o) }, .in = "perf.data",
			     .children = 0, .fmt = PMU_REPORT_SCRIPT };
	int rc = parse_args(argc, argv, &c, true);

	if (rc)
		return rc < 0 ? 0 : rc;
	c.cg_set = true;
	return run(&c);
}
