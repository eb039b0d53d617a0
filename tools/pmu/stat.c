/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "stat.h"
#include "stat_ctx.h"

/* What -d, -dd and -ddd add, as perf 6.1 adds them on x86. */
static const char *const detailed_sets[] = {
	"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
	"L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,"
	"iTLB-loads,iTLB-load-misses",
	"L1-dcache-prefetches,L1-dcache-prefetch-misses",
};

/* -T: perf's transaction events, without el-start and cycles-ct where
 * the core PMU has not both. */
#define TRANSACTION_EVENTS "task-clock,{instructions,cycles,cpu/cycles-t/," \
	"cpu/tx-start/,cpu/el-start/,cpu/cycles-ct/}"
#define TRANSACTION_LIMITED "task-clock,{instructions,cycles,cpu/cycles-t/," \
	"cpu/tx-start/,cpu/cycles-ct/}"



/* Compiler-style report: the message, the input, a caret under the token. */
static void report_parse_error(const char *input, const struct pmu_error *err)
{
	size_t len = strlen(input);

	pmu_tool_err("%s", err->message[0] ? err->message
					   : pmu_strerror(err->code));
	if (err->offset < 0 || (size_t)err->offset > len)
		return;
	fprintf(stderr, "  -e %s\n  %*s^", input, err->offset + 3, "");
	if (err->token[0] && !strncmp(input + err->offset, err->token,
				      strlen(err->token))) {
		for (size_t i = 1; i < strlen(err->token); i++)
			fputc('~', stderr);
	}
	fputc('\n', stderr);
}

static int add_list(struct pmu_session *s, const char *list)
{
	struct pmu_error err = { .size = sizeof(err) };

	if (pmu_session_add(s, list, &err) < 0) {
		report_parse_error(list, &err);
		return EXIT_PMU_INPUT;
	}
	return 0;
}

/* -T as perf sets it up: the full set where the core PMU has cycles-ct
 * and el-start, else the limited one; a PMU without them is said so. */
static int add_transaction(struct pmu_session *s)
{
	bool full = pmu_event_list_parse("cpu/cycles-ct/,cpu/el-start/", NULL,
					 NULL, 0, NULL) == 2;
	const char *set = full ? TRANSACTION_EVENTS : TRANSACTION_LIMITED;
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_host_info h = { .size = sizeof(h) };

	/* the events are the core PMU's sysfs aliases, as perf reads them:
	 * the host model's declarations do not stand in for them here */
	if (pmu_host_info(&h) == 0 && !h.has_hw_pmu) {
		fputs("Cannot set up transaction events\n", stderr);
		pmu_tool_err("-T: no core PMU ('cpu') in "
			     "/sys/bus/event_source/devices to count them on");
		return EXIT_PMU_INPUT;
	}
	if (pmu_session_add(s, set, &err) == 0)
		return 0;
	fputs("Cannot set up transaction events\n", stderr);
	report_parse_error(set, &err);
	return EXIT_PMU_INPUT;
}

/* The user's events and -M's, then (unless -n) perf's: -T's, or the
 * default set when neither -e nor -M was given, and -d's detailed sets. */
static int add_events(struct stat_ctx *c, size_t *ecount)
{
	const struct stat_opts *o = c->o;
	int rc = 0;

	for (size_t i = 0; !rc && i < o->nevents; i++) {
		rc = stat_sets_before_add(c->s, o, i);
		if (!rc)
			rc = add_list(c->s, o->events[i]);
		ecount[i] = pmu_session_nevents(c->s);
	}
	if (!rc)
		rc = stat_sets_after_add(c->s, o);
	/* -M's events: asked for by name, shown even where not supported */
	if (!rc && o->nmetrics && !c->mset)
		rc = stat_mset_new(&c->mset, o);
	if (!rc && c->mset)
		rc = stat_mset_add(c->mset, c->s);
	c->nuser = pmu_session_nevents(c->s);
	if (rc || o->null_run)
		return rc;
	if (o->transaction)
		return add_transaction(c->s);
	/* system-wide, the clock is the CPUs' (perf's rule: cpu-clock) */
	if (o->default_events)
		rc = add_list(c->s, o->emulate || o->sim_model ? EMU_DEFAULT_EVENTS :
			      o->target == PMU_TARGET_CPUS ?
			      "cpu-clock," SYSTEM_EVENTS : "task-clock,"
			      SYSTEM_EVENTS);
	for (int d = 0; !rc && d < o->detailed; d++)
		rc = add_list(c->s, detailed_sets[d]);
	return rc;
}

static int set_cgroup(struct stat_ctx *c, size_t i, const char *name,
		      size_t len)
{
	struct pmu_error err = { .size = sizeof(err) };
	char buf[256];

	snprintf(buf, sizeof(buf), "%.*s", (int)len, name);
	if (pmu_session_set_cgroup(c->s, i, buf, &err) < 0)
		return stat_usage_error("%s", err.message);
	if (!c->cgroup[i] && !(c->cgroup[i] = strdup(buf))) {
		pmu_tool_err("out of memory");
		return EXIT_PMU_INPUT;
	}
	return 0;
}

/* perf's -G: one name for every event given before it that has none
 * yet, or one name per such event, in order. */
static int apply_one_cgroup(struct stat_ctx *c, size_t upto, const char *names)
{
	size_t nnames = 1, nfree = 0, i = 0;
	const char *p = names;
	int rc = 0;

	for (const char *q = names; *q; q++)
		nnames += *q == ',';
	for (size_t k = 0; k < upto; k++)
		nfree += !c->cgroup[k];
	if (nnames > nfree && (nnames > 1 || nfree == 0))
		return stat_usage_error("-G '%s' names more cgroups than there "
					"are events before it without one",
					names);
	for (; !rc && i < upto; i++) {
		if (c->cgroup[i])
			continue;
		rc = set_cgroup(c, i, p, strcspn(p, ","));
		if (nnames > 1 && !p[strcspn(p, ",")])
			break;
		if (nnames > 1)
			p += strcspn(p, ",") + 1;
	}
	return rc;
}

static int apply_cgroups(struct stat_ctx *c, const size_t *ecount)
{
	int rc = 0;

	for (size_t k = 0; !rc && k < c->o->ncgroups; k++)
		rc = apply_one_cgroup(c, ecount[c->o->cgroups[k].after - 1],
				      c->o->cgroups[k].names);
	for (size_t i = 0; i < c->ncg; i++)
		c->any_cgroup |= c->cgroup[i] != NULL;
	return rc;
}

/* Session-wide failures that pmu cannot work around; add the usual fix
 * when the library's message does not already give it. */
static int report_open_error(const struct stat_opts *o,
			     const struct pmu_error *err)
{
	const char *msg = err->message[0] ? err->message
					  : pmu_strerror(err->code);

	pmu_tool_err("%s", msg);
	if (err->kind == PMU_ERR_PERMISSION && !strstr(msg, "paranoid")) {
		struct pmu_host_info h = { .size = sizeof(h) };

		pmu_host_info(&h);
		pmu_tool_err("kernel.perf_event_paranoid is %d; lower it with "
			     "'sysctl kernel.perf_event_paranoid=%d' or grant "
			     "CAP_PERFMON", h.paranoid,
			     o->target == PMU_TARGET_CPUS ? 0 : 2);
	} else if ((err->code == -EMFILE || err->code == -ENFILE) &&
		   !strstr(msg, "ulimit")) {
		pmu_tool_err("raise the open file limit with 'ulimit -n'");
	}
	return err->kind == PMU_ERR_USAGE ? EXIT_PMU_USAGE : EXIT_PMU_INPUT;
}

/* -a --per-thread: every thread of the machine, as perf lists them. */
static pid_t *all_threads(size_t *n);

static int open_target(struct stat_ctx *c, pid_t child)
{
	const struct stat_opts *o = c->o;
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_open_opts oo = { .sz = sizeof(oo), .target = o->target,
				    .pids = o->pids, .npids = o->npids,
				    .cpus = o->cpus,
				    .start_stopped = o->delay_ms != 0 };
	pid_t *all = NULL;
	int rc;

	if (o->sim_model) {
		oo.target = PMU_TARGET_SELF; /* the stream is the program */
	} else if (o->target == PMU_TARGET_CHILD) {
		oo.pid = child;
		oo.inherit = true;
	} else if (o->target == PMU_TARGET_PID) {
		oo.inherit = true;
	} else if (o->aggr == PMU_AGGR_THREAD) {
		oo.target = PMU_TARGET_TID;
		oo.pids = all = all_threads(&oo.npids);
		oo.cpus = NULL;
		/* a thread may end, or be a zombie, by the open: perf
		 * leaves it out, and so does pmu */
		oo.skip_gone = true;
	}
	rc = pmu_session_open(c->s, &oo, &err);
	free(all);
	return rc < 0 ? report_open_error(o, &err) : 0;
}

/* The run's session and its events, with -G's cgroups; not open yet. */
int stat_make_session(struct stat_ctx *c)
{
	const struct stat_opts *o = c->o;
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_session_opts so = { .sz = sizeof(so), .driver = "sim",
				       .model = o->sim_model };
	size_t *ecount = calloc(o->nevents + 1, sizeof(*ecount));
	int rc;

	if (o->emulate)
		stat_emu_session_opts(o, &so);
	c->s = ecount ? pmu_session_new_opts(o->sim_model || o->emulate ? &so
					     : NULL, &err)
		      : NULL;
	if (!c->s) {
		free(ecount);
		pmu_tool_err("%s", err.message[0] ? err.message : strerror(errno));
		return EXIT_PMU_INPUT;
	}
	rc = add_events(c, ecount);
	if (!rc && !c->cgroup) {
		c->ncg = pmu_session_nevents(c->s);
		c->cgroup = calloc(c->ncg + 1, sizeof(*c->cgroup));
		rc = c->cgroup ? apply_cgroups(c, ecount) : EXIT_PMU_INPUT;
	} else if (!rc) {
		for (size_t i = 0; i < c->ncg; i++)
			if (c->cgroup[i])
				rc = rc ? rc : set_cgroup(c, i, c->cgroup[i],
							  strlen(c->cgroup[i]));
	}
	free(ecount);
	return rc;
}

static int open_session(struct stat_ctx *c, pid_t child)
{
	/* --emulate: made before the command started, for the command
	 * line the emulator runs */
	int rc = c->s ? 0 : stat_make_session(c);

	return rc ? rc : open_target(c, child);
}

static int alloc_arrays(struct stat_ctx *c)
{
	size_t n = c->n ? c->n : 1, m = n * (c->nagg ? c->nagg : 1);

	c->cur = calloc(m, sizeof(*c->cur));
	c->prev = calloc(m, sizeof(*c->prev));
	c->rows = calloc(m, sizeof(*c->rows));
	c->acc = calloc(m, sizeof(*c->acc));
	c->iacc = calloc(m, sizeof(*c->iacc));
	c->order = calloc(c->nagg ? c->nagg : 1, sizeof(*c->order));
	c->hidden = calloc(n, sizeof(*c->hidden));
	c->copy_of = calloc(n, sizeof(*c->copy_of));
	c->mname = calloc(n, sizeof(*c->mname));
	if (!c->cur || !c->prev || !c->rows || !c->acc ||
	    !c->iacc || !c->order || !c->hidden || !c->copy_of || !c->mname ||
	    stat_derive_alloc(&c->derive, n)) {
		pmu_tool_err("out of memory");
		return EXIT_PMU_INPUT;
	}
	for (size_t i = 0; i < m; i++)
		c->cur[i].size = c->prev[i].size = sizeof(struct pmu_value);
	return 0;
}

/* The aggregates of this run's units; later runs must have the same. */
static int build_aggregates(struct stat_ctx *c, bool first)
{
	PMU_OPTS(pmu_stat_opts, so, .mode = c->o->aggr,
		 .cache_level = c->o->cache_level, .no_merge = c->o->no_merge);
	struct pmu_error err = { .size = sizeof(err) };
	size_t nagg = 1, before = c->nagg;

	pmu_stat_free(c->st);
	c->st = NULL;
	free(c->agg);
	c->agg = NULL;
	if (c->s && !(c->st = pmu_stat_new(c->s, &so, &err))) {
		if (err.code == -ENOENT && c->o->aggr == PMU_AGGR_CACHE)
			pmu_tool_err("--per-cache: %s", err.message);
		else
			pmu_tool_err("%s", err.message);
		return EXIT_PMU_INPUT;
	}
	nagg = c->st ? pmu_stat_naggr(c->st) : 1;
	c->agg = calloc(nagg, sizeof(*c->agg));
	if (!c->agg) {
		pmu_tool_err("out of memory");
		return EXIT_PMU_INPUT;
	}
	for (size_t a = 0; c->st && a < nagg; a++) {
		c->agg[a].size = sizeof(c->agg[a]);
		pmu_stat_aggr(c->st, a, &c->agg[a]);
	}
	c->nagg = nagg;
	if (!first && nagg != before) {
		pmu_tool_err("the CPUs counted changed between runs");
		return EXIT_PMU_INPUT;
	}
	return 0;
}

/* --no-merge: the name of an instance of a merged event
 * ("uncore_cha_0/foo/"), NULL where the event's own name stands. */
static char *instance_name(const struct stat_ctx *c, size_t i)
{
	const char *own = pmu_session_event_name(c->s, i);
	ssize_t len = pmu_stat_event_name(c->st, i, NULL, 0);
	char *buf;

	if (len < 0 || !own || (!c->o->no_merge))
		return NULL;
	if (!(buf = malloc((size_t)len + 1)))
		return NULL;
	pmu_stat_event_name(c->st, i, buf, (size_t)len + 1);
	if (!strcmp(buf, own)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Open the next run's session; the first run also sizes the arrays. */
int stat_prepare_run(struct stat_ctx *c, pid_t child, bool first)
{
	int rc = 0;

	/* -n alone times the command: nothing to count */
	if (!(c->o->null_run && !c->o->nevents))
		rc = open_session(c, child);
	if (rc)
		return rc;
	rc = build_aggregates(c, first);
	if (rc)
		return rc;
	if (first) {
		c->n = c->s ? pmu_session_nevents(c->s) : 0;
		rc = alloc_arrays(c);
		if (rc)
			return rc;
		c->sets = c->s ? stat_sets_new(c->s, c->n) : NULL;
		for (size_t i = 0; c->s && i < c->n; i++)
			c->mname[i] = instance_name(c, i);
	}
	if (c->s)
		stat_mark_hidden(c);
	if (!first)
		c->explain = SIZE_MAX;
	if (c->o->verbose && first && c->s)
		stat_verbose_events(c);
	memset(c->prev, 0, c->nagg * (c->n ? c->n : 1) * sizeof(*c->prev));
	stat_sets_run_start(c->sets);
	return 0;
}

int stat_read_values(struct stat_ctx *c)
{
	size_t n = c->n;
	ssize_t ret;

	if (!c->s || !n)
		return 0;
	ret = pmu_stat_read(c->st, c->cur, c->nagg * n);
	if (ret < 0) {
		pmu_tool_err("cannot read counters: %s", strerror((int)-ret));
		return -1;
	}
	return 0;
}

/* Every thread of the machine (NULL when it cannot be listed). */
static pid_t *all_threads(size_t *n)
{
	pid_t *v = NULL;
	ssize_t got = pmu_host_threads(0, NULL, 0);

	*n = 0;
	/* threads come and go: room for some more, until they fit */
	while (got >= 0) {
		size_t room = (size_t)got + 64;
		pid_t *nv = realloc(v, room * sizeof(*v));

		if (!nv)
			break;
		v = nv;
		got = pmu_host_threads(0, v, room);
		if (got >= 0 && (size_t)got <= room) {
			*n = (size_t)got;
			return v;
		}
	}
	free(v);
	return NULL;
}

static void ctx_free(struct stat_ctx *c)
{
	stat_regions_cleanup(c);
	pmu_region_recorder_free(c->recorder);
	pmu_region_report_free(c->regions_report);
	pmu_metric_set_free(c->regions_mset);
	pmu_metric_set_free(c->mset);
	pmu_session_free(c->s);
	stat_sets_free(c->sets);
	for (size_t i = 0; c->cgroup && i < c->ncg; i++)
		free(c->cgroup[i]);
	free(c->cgroup);
	pmu_stat_free(c->st);
	free(c->agg);
	free(c->cur);
	free(c->prev);
	free(c->rows);
	free(c->acc);
	free(c->iacc);
	free(c->order);
	free(c->hidden);
	free(c->copy_of);
	stat_derive_free(&c->derive);
	for (size_t i = 0; c->mname && i < c->n; i++)
		free(c->mname[i]);
	free(c->mname);
	if (c->out && c->out != stderr)
		fclose(c->out);
	c->out = NULL;
}

/* -o's file: every count written, or an error naming it. */
static int close_output(struct stat_ctx *c, int rc)
{
	FILE *f = c->out;

	c->out = NULL;
	if (!f || f == stderr)
		return rc;
	if (ferror(f) | fclose(f)) {
		pmu_tool_err("cannot write -o '%s': %s", c->o->outfile,
			     strerror(errno ? errno : EIO));
		return rc ? rc : EXIT_PMU_INPUT;
	}
	return rc;
}

/* -o FILE (--append: at its end), with perf's line saying when. */
static int open_output(struct stat_ctx *c)
{
	const struct stat_opts *o = c->o;
	time_t now;

	/* the screen it clears is the counts' terminal (perf's rule) */
	if (o->interval_clear && (o->outfile || !isatty(STDERR_FILENO))) {
		pmu_tool_err("--interval-clear clears the terminal the counts "
			     "are printed on, and %s: drop --interval-clear",
			     o->outfile ? "-o writes them to a file"
					: "standard error is not a terminal");
		return EXIT_PMU_USAGE;
	}
	if (!o->outfile)
		return 0;
	now = time(NULL);
	c->out = fopen(o->outfile, o->append ? "a" : "w");
	if (!c->out) {
		pmu_tool_err("cannot write -o '%s': %s", o->outfile,
			     strerror(errno));
		c->out = stderr;
		return EXIT_PMU_INPUT;
	}
	fprintf(c->out, "# started on %s\n", ctime(&now));
	return 0;
}

/* Whether the locale the environment names for numbers may group
 * digits: C, POSIX and C.<charset> never do, and loading them (as
 * setlocale would) costs every run files and memory for nothing. */
static bool numeric_locale_groups(void)
{
	static const char *const vars[] = { "LC_ALL", "LC_NUMERIC", "LANG" };

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);

		if (!v || !*v)
			continue;
		return strcmp(v, "C") && strcmp(v, "POSIX") &&
		       strncmp(v, "C.", 2);
	}
	return false;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_opts o = { 0 };
	struct stat_ctx c = { .o = &o, .out = stderr, .explain = SIZE_MAX };
	sigset_t block;
	int rc;

	/* Line buffering: one write per line instead of one per field. */
	setvbuf(stderr, NULL, _IOLBF, 0);
	rc = stat_parse_args(&o, argc, argv);
	if (!rc)
		rc = open_output(&c);
	if (rc) {
		stat_opts_free(&o);
		ctx_free(&c);
		return rc < 0 ? 0 : rc;
	}
	/* -B, perf's default in the text table: the locale's separators;
	 * a locale without any prints the same digits, without the cost */
	if (o.format == STAT_TEXT && o.big_num != 0 && numeric_locale_groups())
		setlocale(LC_NUMERIC, "");
	else
		o.big_num = 0;
	if (o.verbose)
		pmu_tool_verbose = true;
	/* Signals are taken synchronously; the command starts with pmu's
	 * original mask.  An inherited "SIGCHLD ignored" would make the
	 * kernel reap the command unseen and send no SIGCHLD at all. */
	signal(SIGCHLD, SIG_DFL);
	stat_wait_set(&block, true);
	sigprocmask(SIG_BLOCK, &block, &c.child_mask);
	rc = o.sim_model ? stat_run_stream(&c)
	     : o.argv ? stat_run_command(&c) : stat_run_target(&c);
	rc = close_output(&c, rc);
	ctx_free(&c);
	stat_opts_free(&o);
	return rc;
}
