/* SPDX-License-Identifier: MIT */
/* pmu stat's command line: perf stat's options, checked together. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "stat.h"

/* What getopt_long returns for each option: the short letter, or a
 * value past any letter for options that have none. */
enum opt_id {
	OPT_EVENT = 'e', OPT_PID = 'p', OPT_TID = 't', OPT_ALL = 'a',
	OPT_CPU = 'C', OPT_INTERVAL = 'I', OPT_REPEAT = 'r', OPT_SEP = 'x',
	OPT_JSON = 'j', OPT_OUTPUT = 'o', OPT_VERBOSE = 'v', OPT_HELP = 'h',
	OPT_DETAILED = 'd', OPT_NO_AGGR = 'A', OPT_DELAY = 'D',
	OPT_BIG_NUM = 'B', OPT_NULL = 'n', OPT_TRANSACTION = 'T',
	OPT_CGROUP = 'G', OPT_METRICS = 'M',
	OPT_NO_SCALE = 256, OPT_SIM_MODEL, OPT_STREAM, OPT_PER_THREAD,
	OPT_PER_CORE, OPT_PER_SOCKET, OPT_PER_DIE, OPT_PER_NODE,
	OPT_PER_CACHE, OPT_TIMEOUT, OPT_NO_BIG_NUM, OPT_APPEND,
	OPT_METRIC_ONLY, OPT_INTERVAL_COUNT, OPT_INTERVAL_CLEAR,
	OPT_SET, OPT_SWITCH, OPT_EMULATE, OPT_EMULATE_MODEL,
	OPT_EMULATE_REGIONS, OPT_EMULATE_OPT, OPT_METRIC_NO_GROUP,
	OPT_NO_MERGE, OPT_REGIONS, OPT_PER_RANK,
};

static const struct option long_opts[] = {
	{ "event", required_argument, NULL, OPT_EVENT },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "tid", required_argument, NULL, OPT_TID },
	{ "all-cpus", no_argument, NULL, OPT_ALL },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "interval-print", required_argument, NULL, OPT_INTERVAL },
	{ "interval-count", required_argument, NULL, OPT_INTERVAL_COUNT },
	{ "interval-clear", no_argument, NULL, OPT_INTERVAL_CLEAR },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "field-separator", required_argument, NULL, OPT_SEP },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "json-output", no_argument, NULL, OPT_JSON },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "append", no_argument, NULL, OPT_APPEND },
	{ "detailed", no_argument, NULL, OPT_DETAILED },
	{ "no-aggr", no_argument, NULL, OPT_NO_AGGR },
	{ "per-thread", no_argument, NULL, OPT_PER_THREAD },
	{ "per-core", no_argument, NULL, OPT_PER_CORE },
	{ "per-socket", no_argument, NULL, OPT_PER_SOCKET },
	{ "per-die", no_argument, NULL, OPT_PER_DIE },
	{ "per-node", no_argument, NULL, OPT_PER_NODE },
	{ "per-cache", optional_argument, NULL, OPT_PER_CACHE },
	{ "delay", required_argument, NULL, OPT_DELAY },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "big-num", no_argument, NULL, OPT_BIG_NUM },
	{ "no-big-num", no_argument, NULL, OPT_NO_BIG_NUM },
	{ "null", no_argument, NULL, OPT_NULL },
	{ "transaction", no_argument, NULL, OPT_TRANSACTION },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ "metric-only", no_argument, NULL, OPT_METRIC_ONLY },
	{ "metrics", required_argument, NULL, OPT_METRICS },
	{ "metric-no-group", no_argument, NULL, OPT_METRIC_NO_GROUP },
	{ "no-scale", no_argument, NULL, OPT_NO_SCALE },
	{ "no-merge", no_argument, NULL, OPT_NO_MERGE },
	{ "sim-model", required_argument, NULL, OPT_SIM_MODEL },
	{ "stream", required_argument, NULL, OPT_STREAM },
	{ "emulate", no_argument, NULL, OPT_EMULATE },
	{ "emulate-model", required_argument, NULL, OPT_EMULATE_MODEL },
	{ "emulate-regions", no_argument, NULL, OPT_EMULATE_REGIONS },
	{ "regions", no_argument, NULL, OPT_REGIONS },
	{ "per-rank", no_argument, NULL, OPT_PER_RANK },
	{ "emulate-opt", required_argument, NULL, OPT_EMULATE_OPT },
	{ "set", required_argument, NULL, OPT_SET },
	{ "switch", required_argument, NULL, OPT_SWITCH },
	{ "verbose", no_argument, NULL, OPT_VERBOSE },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

void stat_usage(FILE *f)
{
	fputs("usage: pmu stat [OPTIONS] [--] COMMAND [ARGS...]\n"
	      "       pmu stat [OPTIONS] -p PIDS | -t TIDS | -a [-C CPUS]\n"
	      "       pmu stat [OPTIONS] --sim-model MODEL --stream FILE\n"
	      "       pmu stat [OPTIONS] --emulate [--emulate-model M] [--] COMMAND...\n\n"
	      "Count events while COMMAND runs (or, without a command, on a\n"
	      "process, thread or CPUs until Ctrl-C) and print a perf-stat table.\n\n"
	      "  -e, --event EVENTS        events to count: comma list, {a,b} groups,\n"
	      "                            modifiers (:u :k ...), pmu/term=v/, sys:tracepoint,\n"
	      "                            sys:glob*, mem:ADDR[/LEN][:rwx] breakpoints;\n"
	      "                            repeatable (default: perf's default set)\n"
	      "  -d, --detailed            add perf's detailed sets (-dd, -ddd: more)\n"
	      "  -T, --transaction         perf's transaction events (Intel TSX)\n"
	      "  -n, --null                no default events: time the command only\n"
	      "  -G, --cgroup NAMES        count the events given so far only in these\n"
	      "                            cgroups (one for all, or one per event; needs -a)\n"
	      "  -p, --pid PID[,PID...]    count every thread of existing processes\n"
	      "  -t, --tid TID[,TID...]    count existing threads\n"
	      "  -a, --all-cpus            count system-wide on every CPU\n"
	      "  -C, --cpu CPUS            count system-wide on CPUS only, e.g. 0-3,5\n"
	      "  -A, --no-aggr             one figure per CPU (with -a/-C)\n"
	      "      --per-thread          one figure per thread (with -p/-t/-a)\n"
	      "      --per-core            one figure per core (with -a/-C)\n"
	      "      --per-socket          one figure per socket (with -a/-C)\n"
	      "      --per-die             one figure per die (with -a/-C)\n"
	      "      --per-node            one figure per NUMA node (with -a/-C)\n"
	      "      --per-cache[=LN]      one figure per cache of level N (default:\n"
	      "                            the last level; with -a/-C)\n"
	      "  -I, --interval-print MS   print counts every MS milliseconds (>= 1)\n"
	      "  -I Ni                     (--emulate) every N guest instructions of each\n"
	      "                            process, printed when COMMAND ends\n"
	      "      --interval-count N    ... N times only\n"
	      "      --interval-clear      clear the screen before each interval\n"
	      "  -r, --repeat N            run COMMAND N times, print means and spread\n"
	      "  -D, --delay MS            start counting MS ms after the command starts\n"
	      "                            (-1: never)\n"
	      "      --timeout MS          stop the command (or counting) after MS ms\n"
	      "                            (>= 10)\n"
	      "  -x, --field-separator SEP CSV output with separator SEP\n"
	      "  -j, --json                one JSON object per event and line\n"
	      "      --metric-only         print the derived figures only\n"
	      "  -M, --metrics NAMES       metrics and metric groups of this CPU's model\n"
	      "                            ('pmu list --metrics'), comma list; repeatable\n"
	      "      --metric-no-group     do not group the events of a metric\n"
	      "  -B, --big-num             thousands' separators (the default in text)\n"
	      "      --no-big-num          no thousands' separators\n"
	      "  -o, --output FILE         write the counts to FILE instead of stderr\n"
	      "      --append              append to the -o FILE\n"
	      "      --no-scale            print raw counts, do not scale multiplexed events\n"
	      "      --no-merge            one line per PMU instance of an event a name\n"
	      "                            stands for on several (uncore_cha_0..N), not\n"
	      "                            their sum\n"
	      "      --regions             also per region the COMMAND marks\n"
	      "                            (pmu_region_begin/end, <pmu/region.h>), per\n"
	      "                            thread: calls, time, inclusive and exclusive\n"
	      "                            counts of the -e events; an MPI job\n"
	      "                            (mpirun ... pmu stat --regions): one report\n"
	      "                            from rank 0, min/mean/max/sum over ranks\n"
	      "      --per-rank            ... and each rank's own rows\n"
	      "      --sim-model MODEL     count on a simulated PMU ('pmu info --list-models')\n"
	      "      --stream FILE         ... the event stream FILE runs on it ('-': stdin;\n"
	      "                            docs/stream-format.md) instead of a COMMAND\n"
	      "      --emulate             run COMMAND under pmu's emulator and count on an\n"
	      "                            emulated PMU (no hardware PMU needed; valgrind)\n"
	      "      --emulate-model M     the model to emulate (default: the one closest\n"
	      "                            to this CPU, 'pmu info' names it, else fam10h;\n"
	      "                            with this host's caches; a chosen model\n"
	      "                            brings its own)\n"
	      "      --emulate-regions     count only between PMU_EMU_START/STOP (<pmu/emu.h>)\n"
	      "      --emulate-opt KEY=VAL emulator setting: I1=, D1=, LL=SIZE,ASSOC,LINE,\n"
	      "                            predictor=gshare|bimodal, costs=..., max-samples=N\n"
	      "      --set EVENTS          an event set: sets take turns counting (repeatable;\n"
	      "                            -e after it adds to the last set)\n"
	      "      --switch POLICY       when sets switch: time:MS of the command's running\n"
	      "                            time (default 4), or overflow:EVENT:N[:PERIOD]\n"
	      "                            (N overflows of EVENT every PERIOD, default 1000000;\n"
	      "                            --emulate: overflow only, in guest events)\n"
	      "  -v, --verbose             print library diagnostics and opened events\n"
	      "  -h, --help                print this help\n\n"
	      "Exit status: the command's own (128+N when killed by signal N),\n"
	      "1 for errors in pmu's input, 2 for usage errors. See pmu-stat(1).\n", f);
}

int stat_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("pmu: stat: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nRun 'pmu stat --help' for the options.\n", stderr);
	return EXIT_PMU_USAGE;
}

/* A whole number in [min, max]: 0 or -EINVAL (not one) / -ERANGE. */
static int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end)
		return -EINVAL;
	if (errno == ERANGE || v > max)
		return -ERANGE;
	if (v < min)
		return -EINVAL;
	*out = v;
	return 0;
}

/* A numeric option: "bad FLAG value 'V': expected WHAT", or out of
 * range past the largest value taken. */
static int numeric(const char *flag, const char *val, long min, long max,
		   const char *what, long *out)
{
	int r = parse_long(val, min, max, out);

	if (r == -ERANGE)
		return stat_usage_error("bad %s value '%s': out of range "
					"(at most %ld)", flag, val, max);
	if (r)
		return stat_usage_error("bad %s value '%s': expected %s",
					flag, val, what);
	return 0;
}

/* A CPU list the library refused, in the words of -C. */
static int cpu_list_error(const char *list, int rc,
			  const struct pmu_error *err, long ncpus)
{
	if (rc == -ENOMEM) {
		pmu_tool_err("out of memory");
		return EXIT_PMU_INPUT;
	}
	if (err->kind == PMU_ERR_NO_TARGET)
		return stat_usage_error("CPU %s in -C '%s' does not exist: "
					"this machine has CPUs 0-%ld",
					err->token, list, ncpus - 1);
	if (err->kind == PMU_ERR_BAD_VALUE)
		return stat_usage_error("bad CPU range in -C '%s': expected "
					"A-B with A <= B", list);
	if (!list[0])
		return stat_usage_error("empty CPU list for -C");
	if (!err->token[0] && (size_t)err->offset == strlen(list))
		return stat_usage_error("bad CPU list '%s' for -C: trailing "
					"','", list);
	return stat_usage_error("bad CPU list '%s' for -C at '%s': expected "
				"e.g. 0-3,5", list, list + err->offset);
}

/* "0-3,5": syntax and CPUs this machine has; the library checks which
 * are online. */
static int check_cpu_list(const char *list)
{
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	struct pmu_error err = { .size = sizeof(err) };
	ssize_t n = pmu_cpulist_parse(list, NULL, 0, &err);
	int *cpus, top;

	if (n < 0)
		return cpu_list_error(list, (int)n, &err, ncpus);
	cpus = malloc((size_t)n * sizeof(*cpus));
	if (!cpus) {
		pmu_tool_err("out of memory");
		return EXIT_PMU_INPUT;
	}
	pmu_cpulist_parse(list, cpus, (size_t)n, NULL);
	top = cpus[n - 1];
	free(cpus);
	if (top >= ncpus)
		return stat_usage_error("CPU %d in -C '%s' does not exist: "
					"this machine has CPUs 0-%ld", top,
					list, ncpus - 1);
	return 0;
}

static int set_target(struct stat_opts *o, enum pmu_target_kind t,
		      const char *flag)
{
	if (o->target != PMU_TARGET_CHILD && o->target != t)
		return stat_usage_error("%s cannot be combined with another "
					"target (-p, -t, -a/-C): choose one",
					flag);
	o->target = t;
	return 0;
}

/* "12,34": every token a whole number > 0; repeated options add up. */
static int set_pid(struct stat_opts *o, enum opt_id id, const char *val)
{
	const char *flag = id == OPT_PID ? "-p" : "-t";
	const char *what = id == OPT_PID ? "process" : "thread";
	size_t n = 1, len;
	pid_t *ids;
	int rc = set_target(o, id == OPT_PID ? PMU_TARGET_PID : PMU_TARGET_TID,
			    flag);

	if (rc)
		return rc;
	for (const char *q = val; *q; q++)
		n += *q == ',';
	ids = realloc(o->pids, (o->npids + n) * sizeof(*ids));
	if (!ids) {
		pmu_tool_err("out of memory");
		return EXIT_PMU_INPUT;
	}
	o->pids = ids;
	for (const char *q = val;; q += len + 1) {
		char tok[32];
		long v;

		len = strcspn(q, ",");
		if (len == 0)
			return stat_usage_error("empty %s id in %s '%s': "
						"expected %s ids > 0 separated "
						"by ','", what, flag, val, what);
		snprintf(tok, sizeof(tok), "%.*s", (int)len, q);
		rc = len >= sizeof(tok) ? -ERANGE : parse_long(tok, 1, INT_MAX, &v);
		if (rc == -ERANGE)
			return stat_usage_error("bad %s value '%.*s' in '%s': "
						"out of range (%s ids go up to "
						"%d)", flag, (int)len, q, val,
						what, INT_MAX);
		if (rc)
			return stat_usage_error("bad %s value '%.*s' in '%s': "
						"expected %s ids > 0 separated "
						"by ','", flag, (int)len, q, val,
						what);
		o->pids[o->npids++] = (pid_t)v;
		if (!q[len])
			return 0;
	}
}

/* -I MS, or -I Ni: every N guest instructions (--emulate). */
static int interval_opt(struct stat_opts *o, const char *val)
{
	size_t len = strlen(val);
	unsigned long long v;
	char *end;

	o->interval_arg = val;
	o->interval_ms = 0;
	o->interval_insns = 0;
	if (!len || val[len - 1] != 'i')
		return numeric("-I", val, 1, 86400000L, "a whole number of "
			       "milliseconds >= 1, or of guest instructions "
			       "with the suffix i (-I 1000000i, with --emulate)",
			       &o->interval_ms);
	errno = 0;
	v = val[0] >= '0' && val[0] <= '9' ? strtoull(val, &end, 10) : 0;
	if (!v || errno || end != val + len - 1 || v > INT64_MAX)
		return stat_usage_error("bad -I value '%s': expected a whole "
					"number of guest instructions from 1 to "
					"2^63-1 before the suffix i (e.g. "
					"1000000i)", val);
	o->interval_insns = v;
	return 0;
}

static int set_numeric(struct stat_opts *o, enum opt_id id, const char *val)
{
	long v;
	int rc;

	switch (id) {
	case OPT_INTERVAL:
		return interval_opt(o, val);
	case OPT_INTERVAL_COUNT:
		return numeric("--interval-count", val, 1, LONG_MAX,
			       "a number of intervals >= 1", &o->interval_count);
	case OPT_DELAY:
		rc = numeric("-D", val, -1, 86400000L, "milliseconds >= 0, "
			     "or -1 (never start)", &o->delay_ms);
		return rc;
	case OPT_TIMEOUT:
		return numeric("--timeout", val, 10, 86400000L, "a whole "
			       "number of milliseconds >= 10",
			       &o->timeout_ms);
	default:
		rc = numeric("-r", val, 1, 1000000L, "a number of runs >= 1",
			     &v);
		if (!rc)
			o->repeat = (int)v;
		return rc;
	}
}

static int set_format(struct stat_opts *o, enum opt_id id, const char *val)
{
	enum stat_format f = id == OPT_JSON ? STAT_JSON : STAT_CSV;

	if (o->format != STAT_TEXT && o->format != f)
		return stat_usage_error("-x and -j/--json both given: choose "
					"one output format");
	if (id == OPT_SEP && !val[0])
		return stat_usage_error("empty separator for -x: give e.g. "
					"-x ,");
	o->format = f;
	/* perf's spelling of a tab */
	if (id == OPT_SEP)
		o->sep = strcmp(val, "\\t") ? val : "\t";
	return 0;
}

static int set_aggr(struct stat_opts *o, enum opt_id id, const char *val)
{
	static const enum pmu_aggr_mode modes[] = {
		[OPT_PER_THREAD - OPT_PER_THREAD] = PMU_AGGR_THREAD,
		[OPT_PER_CORE - OPT_PER_THREAD] = PMU_AGGR_CORE,
		[OPT_PER_SOCKET - OPT_PER_THREAD] = PMU_AGGR_SOCKET,
		[OPT_PER_DIE - OPT_PER_THREAD] = PMU_AGGR_DIE,
		[OPT_PER_NODE - OPT_PER_THREAD] = PMU_AGGR_NODE,
		[OPT_PER_CACHE - OPT_PER_THREAD] = PMU_AGGR_CACHE,
	};
	long lvl;

	o->aggr = id == OPT_NO_AGGR ? PMU_AGGR_CPU
				    : modes[id - OPT_PER_THREAD];
	if (id != OPT_PER_CACHE || !val)
		return 0;
	/* "L2", "l3" or "3", as newer perf takes it */
	if (parse_long(val + (val[0] == 'L' || val[0] == 'l'), 1, 9, &lvl))
		return stat_usage_error("bad --per-cache value '%s': expected "
					"a cache level such as L2 or L3", val);
	o->cache_level = (int)lvl;
	return 0;
}

static int add_cgroup(struct stat_opts *o, const char *val)
{
	struct stat_cgroup_opt *c;

	if (o->nevents == 0)
		return stat_usage_error("-G '%s' comes before any -e: give the "
					"events the cgroups apply to first",
					val);
	c = realloc(o->cgroups, (o->ncgroups + 1) * sizeof(*c));
	if (!c) {
		pmu_tool_err("out of memory");
		return EXIT_PMU_INPUT;
	}
	o->cgroups = c;
	c[o->ncgroups++] = (struct stat_cgroup_opt){ .after = o->nevents,
						     .names = val };
	return 0;
}

static int apply_flag(struct stat_opts *o, enum opt_id id)
{
	switch (id) {
	case OPT_DETAILED: o->detailed += o->detailed < 3; break;
	case OPT_NULL: o->null_run = true; break;
	case OPT_TRANSACTION: o->transaction = true; break;
	case OPT_BIG_NUM: o->big_num = 1; break;
	case OPT_NO_BIG_NUM: o->big_num = 0; break;
	case OPT_APPEND: o->append = true; break;
	case OPT_METRIC_ONLY: o->metric_only = true; break;
	case OPT_METRIC_NO_GROUP: o->metric_no_group = true; break;
	case OPT_INTERVAL_CLEAR: o->interval_clear = true; break;
	case OPT_NO_SCALE: o->no_scale = true; break;
	case OPT_NO_MERGE: o->no_merge = true; break;
	case OPT_REGIONS: o->regions = true; break;
	case OPT_PER_RANK: o->per_rank = true; break;
	case OPT_VERBOSE: o->verbose = true; break;
	default: stat_usage(stdout); return -1;
	}
	return 0;
}

static const char *long_name(int val);

static int apply_opt(struct stat_opts *o, enum opt_id id, const char *val)
{
	switch (id) {
	case OPT_EVENT:
		o->events[o->nevents++] = val;
		return 0;
	case OPT_METRICS:
		o->metrics[o->nmetrics++] = val;
		return 0;
	case OPT_CGROUP:
		return add_cgroup(o, val);
	case OPT_PID:
	case OPT_TID:
		return set_pid(o, id, val);
	case OPT_CPU:
		o->cpus = val;
		__attribute__((fallthrough)); /* -C implies system-wide */
	case OPT_ALL:
		return set_target(o, PMU_TARGET_CPUS, id == OPT_CPU ? "-C" : "-a");
	case OPT_INTERVAL: case OPT_REPEAT: case OPT_INTERVAL_COUNT:
	case OPT_DELAY: case OPT_TIMEOUT:
		return set_numeric(o, id, val);
	case OPT_SEP:
	case OPT_JSON:
		return set_format(o, id, val);
	case OPT_NO_AGGR: case OPT_PER_THREAD: case OPT_PER_CORE:
	case OPT_PER_SOCKET: case OPT_PER_DIE: case OPT_PER_NODE:
	case OPT_PER_CACHE:
		return set_aggr(o, id, val);
	case OPT_OUTPUT:
		o->outfile = val;
		return 0;
	case OPT_SIM_MODEL:
		o->sim_model = val;
		return 0;
	case OPT_STREAM:
		o->stream = val;
		return 0;
	case OPT_EMULATE: case OPT_EMULATE_MODEL: case OPT_EMULATE_REGIONS:
	case OPT_EMULATE_OPT:
		return stat_emu_option(o, long_name(id), val);
	case OPT_SET:
	case OPT_SWITCH:
		return stat_sets_opt(o, id == OPT_SET, val);
	default:
		return apply_flag(o, id);
	}
}

/* The short options of long_opts, for getopt_long: "+" ends the
 * options at the command (as perf does: "pmu stat -e x cmd -flag"), ":"
 * reports a missing value as ':' so that the messages are ours. */
static void short_opts(char *buf)
{
	char *p = buf;

	*p++ = '+';
	*p++ = ':';
	*p = '\0';
	for (const struct option *lo = long_opts; lo->name; lo++) {
		if (lo->val >= 256 || strchr(buf, lo->val))
			continue;
		*p++ = (char)lo->val;
		if (lo->has_arg == required_argument)
			*p++ = ':';
		*p = '\0';
	}
	*p = '\0';
}

static const char *long_name(int val)
{
	for (const struct option *lo = long_opts; lo->name; lo++)
		if (lo->val == val)
			return lo->name;
	return "?";
}

/* What getopt_long refused (c is '?' or ':') in `arg`, the argument it
 * was reading, in the words pmu stat has always used. */
static int option_error(int c, const char *arg)
{
	bool is_long = arg[0] == '-' && arg[1] == '-';

	if (c == ':' && is_long)
		return stat_usage_error("option '--%s' needs a value",
					long_name(optopt));
	if (c == ':')
		return stat_usage_error("option '-%c' needs a value", optopt);
	/* a known long option (optopt set) given a value it does not take */
	if (is_long && optopt)
		return stat_usage_error("option '--%s' takes no value",
					long_name(optopt));
	if (is_long)
		return stat_usage_error("unknown option '%s'", arg);
	return stat_usage_error("unknown option '-%c' in '%s'", optopt, arg);
}

/* A simulated run counts its stream: nothing else to target. */
static int check_sim(const struct stat_opts *o)
{
	if (!o->sim_model != !o->stream)
		return stat_usage_error("--sim-model and --stream go together: "
					"the stream is the program the "
					"simulated PMU counts");
	if (o->argv)
		return stat_usage_error("--stream is what runs on --sim-model; "
					"drop the command '%s'", o->argv[0]);
	if (o->target != PMU_TARGET_CHILD)
		return stat_usage_error("--sim-model counts its stream, not a "
					"process, thread or CPU: drop "
					"-p/-t/-a/-C");
	if (o->interval_ms)
		return stat_usage_error("-I needs a run that takes time; a "
					"stream is counted at once: drop -I");
	if (o->aggr != PMU_AGGR_GLOBAL || o->ncgroups || o->delay_ms ||
	    o->timeout_ms)
		return stat_usage_error("a simulated PMU is one CPU counting "
					"its stream: drop -A/--per-*, -G, "
					"-D and --timeout");
	return 0;
}

/* perf's rules for the aggregation modes and cgroups. */
static int check_aggr(const struct stat_opts *o)
{
	bool cpus = o->target == PMU_TARGET_CPUS;

	if (o->aggr == PMU_AGGR_THREAD && !cpus &&
	    o->target != PMU_TARGET_PID && o->target != PMU_TARGET_TID)
		return stat_usage_error("--per-thread counts the threads of "
					"-p, -t or -a: give one of them");
	if (o->aggr != PMU_AGGR_GLOBAL && o->aggr != PMU_AGGR_THREAD &&
	    !cpus)
		return stat_usage_error("-A and --per-core/socket/die/node/"
					"cache give figures of CPUs: count "
					"system-wide with -a or -C");
	if (o->ncgroups && !cpus)
		return stat_usage_error("-G counts what runs in a cgroup on "
					"each CPU: count system-wide with -a "
					"or -C");
	return 0;
}

static int check_output(const struct stat_opts *o)
{
	if (o->big_num == 1 && o->format == STAT_CSV)
		return stat_usage_error("-B goes with the text table, not -x: "
					"drop one");
	if ((o->interval_count || o->interval_clear) && !stat_intervals(o))
		return stat_usage_error("--interval-count and --interval-clear "
					"go with -I: give -I MS");
	if (o->interval_insns && !o->emulate)
		return stat_usage_error("-I '%s' counts guest instructions, "
					"which only --emulate sees: add "
					"--emulate or give -I in milliseconds",
					o->interval_arg);
	return 0;
}

/* The option of an aggregation mode, as given. */
static const char *aggr_flag(enum pmu_aggr_mode m)
{
	static const char *const flags[] = {
		[PMU_AGGR_CPU] = "-A", [PMU_AGGR_THREAD] = "--per-thread",
		[PMU_AGGR_CORE] = "--per-core",
		[PMU_AGGR_SOCKET] = "--per-socket",
		[PMU_AGGR_DIE] = "--per-die", [PMU_AGGR_NODE] = "--per-node",
		[PMU_AGGR_CACHE] = "--per-cache",
	};

	return flags[m] ? flags[m] : "?";
}

/* Event sets are read whole (each event scaled over the time of every
 * set), and the events of -d and -T would all join the last set. */
static int check_sets(const struct stat_opts *o)
{
	if (!o->sets.on)
		return 0;
	if (o->aggr != PMU_AGGR_GLOBAL)
		return stat_usage_error("--set and %s cannot be combined: "
					"event sets are counted as one figure "
					"per event, not per CPU or thread; "
					"drop one", aggr_flag(o->aggr));
	if (o->detailed || o->transaction)
		return stat_usage_error("--set and %s cannot be combined: name "
					"the events of %s in a --set of their "
					"own", o->detailed ? "-d" : "-T",
					o->detailed ? "-d" : "-T");
	return 0;
}

/* The emulator counts the command from its exec to its end, on models
 * without Intel's TSX. */
static int check_emulate(struct stat_opts *o)
{
	if (o->delay_ms)
		return stat_usage_error("--emulate and -D cannot be combined: "
					"the emulated PMU counts the command "
					"from its start (count a part of it "
					"with --emulate-regions)");
	if (o->sets.on && o->sets.sw.kind != PMU_SWITCH_OVERFLOW)
		return stat_usage_error("--emulate with --set switches after "
					"guest events, never by time, so that "
					"runs repeat: give --switch "
					"overflow:EVENT:N[:PERIOD]%s%s%s",
					o->sets.sw_arg ? " (not '" : "",
					o->sets.sw_arg ? o->sets.sw_arg : "",
					o->sets.sw_arg ? "')" : "");
	if (o->sets.on && o->interval_insns)
		return stat_usage_error("--set cannot be combined with -I '%s' "
					"yet: instruction intervals are not "
					"kept per event set; drop one",
					o->interval_arg);
	if (o->transaction)
		return stat_usage_error("--emulate and -T cannot be combined: "
					"the emulated models have no "
					"transactional memory events");
	if (o->null_run && !o->nevents)
		return stat_usage_error("--emulate and -n cannot be combined "
					"without -e: nothing to count on the "
					"emulated PMU; give events with -e");
	return stat_emu_check(o);
}

/* The regions are those of one run of a command. */
static int check_regions(const struct stat_opts *o)
{
	if (o->per_rank && !o->regions)
		return stat_usage_error("--per-rank prints the ranks' rows of "
					"--regions: give --regions too");
	if (!o->regions)
		return 0;
	if (!o->argv && !o->stream)
		return stat_usage_error("--regions reads the regions a COMMAND "
					"marks: give one after -- (or a --stream "
					"with region statements)");
	if (o->repeat > 1)
		return stat_usage_error("--regions and -r cannot be combined "
					"yet: the regions of one run are "
					"reported; drop -r");
	if (o->sets.on)
		return stat_usage_error("--regions and --set cannot be "
					"combined: the program's own counters "
					"for its regions count every event at "
					"once; drop --set");
	if (o->ncgroups)
		return stat_usage_error("--regions and -G cannot be combined: "
					"a region counts its own thread");
	return 0;
}

/* -M's metrics are printed after their events' rows, computed from one
 * count of each event over the whole run. */
static int check_metrics(const struct stat_opts *o)
{
	const char *other = o->sets.on ? "--set" : o->emulate ? "--emulate"
			    : o->metric_only ? "--metric-only" : NULL;

	if (!o->nmetrics || !other)
		return 0;
	if (o->metric_only)
		return stat_usage_error("-M and --metric-only cannot be "
					"combined yet: -M prints each metric "
					"after its events' rows; drop "
					"--metric-only");
	return stat_usage_error("-M and %s cannot be combined: %s", other,
				o->sets.on ? "a metric's events are counted "
				"together, not in sets taking turns"
				: "the metrics are those of this CPU's model, "
				"not of the emulated one");
}

static int check_combination(struct stat_opts *o)
{
	int rc = check_output(o);

	if (!rc)
		rc = check_metrics(o);
	if (!rc)
		rc = check_regions(o);

	if (!rc && o->emulate)
		rc = check_emulate(o);
	if (!rc)
		rc = stat_sets_check(o);
	if (!rc)
		rc = check_sets(o);
	if (rc)
		return rc;
	if (o->sim_model || o->stream)
		return check_sim(o);
	if (o->argv && !o->argv[0][0])
		return stat_usage_error("the command is an empty string: give "
					"the program to run");
	if (!o->argv && o->target == PMU_TARGET_CHILD) {
		stat_usage(stderr);
		return stat_usage_error("nothing to count: give a COMMAND or "
					"a target (-p PID, -t TID, -a)");
	}
	if (o->repeat > 1 && !o->argv)
		return stat_usage_error("-r %d repeats a COMMAND: give one "
					"after --", o->repeat);
	rc = check_aggr(o);
	if (!rc && o->cpus)
		rc = check_cpu_list(o->cpus);
	return rc;
}

/* Returns 0 to go on, -1 when done (help), or an exit status. */
int stat_parse_args(struct stat_opts *o, int argc, char **argv)
{
	char optstring[2 * (sizeof(long_opts) / sizeof(long_opts[0])) + 3];
	int c, rc;

	o->events = calloc((size_t)argc + 1, sizeof(*o->events));
	o->metrics = calloc((size_t)argc + 1, sizeof(*o->metrics));
	if (!o->events || !o->metrics)
		return EXIT_PMU_INPUT;
	o->repeat = 1;
	o->sep = ",";
	o->big_num = -1;
	o->target = PMU_TARGET_CHILD;
	short_opts(optstring);
	optind = 1;
	opterr = 0;
	for (;;) {
		/* optind before the call names the argument being read, also
		 * within a bundle such as "-ae". */
		int at = optind;

		c = getopt_long(argc, argv, optstring, long_opts, NULL);
		if (c == -1)
			break;
		rc = c == '?' || c == ':' ? option_error(c, argv[at])
					  : apply_opt(o, (enum opt_id)c, optarg);
		if (rc)
			return rc;
	}
	o->argv = optind < argc ? argv + optind : NULL;
	o->default_events = o->nevents == 0 && o->nmetrics == 0 &&
			    !o->null_run;
	return check_combination(o);
}

void stat_opts_free(struct stat_opts *o)
{
	free(o->events);
	free(o->metrics);
	free(o->pids);
	free(o->cgroups);
	free(o->emu_settings);
}
