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

/* perf stat's default set on Linux 6.x (no frontend/backend stalls),
 * after its clock: task-clock, or cpu-clock system-wide. */
#define SYSTEM_EVENTS "context-switches,cpu-migrations," \
		      "page-faults,cycles,instructions,branches,branch-misses"
/* --emulate and --sim-model: the hardware events of that set (an
 * emulated or simulated PMU has no software events). */
#define EMU_DEFAULT_EVENTS "cycles,instructions,branches,branch-misses"

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

/* Running mean and spread (Welford), so repeats need no sample arrays. */
struct stat_acc {
	struct pmu_runstat rs;
	double running, enabled;
	bool not_supported;
};

/* Everything one `pmu stat` invocation keeps between runs. */
struct stat_ctx {
	const struct stat_opts *o;
	FILE *out;
	sigset_t child_mask;       /* signal mask the command starts with */
	struct pmu_session *s;     /* session of the current run */
	size_t n;                  /* events */
	size_t nuser;              /* of which the user named (-e) */
	char **cgroup;             /* [ncg]: -G name of each event */
	size_t ncg;                /* events as added (sets add their
				      switch events at open, past these) */
	bool any_cgroup;
	struct pmu_stat *st;       /* the current run's aggregation */
	struct pmu_aggr *agg;      /* its aggregates */
	size_t nagg;
	struct pmu_value *cur, *prev; /* [nagg * n] */
	struct stat_row *rows;     /* [nagg * n] */
	struct stat_acc *acc;      /* runs, [nagg * n] */
	struct stat_acc *iacc;     /* intervals of -I -r, [nagg * n] */
	struct stat_acc elapsed;
	size_t *order;             /* [nagg]: --per-thread's sorted rows */
	struct stat_sets *sets;    /* --set: per-set figures, else NULL */
	bool *hidden;              /* [n] */
	size_t *copy_of;           /* [n]: the row an --switch overflow
				      copy counts in (itself for the others) */
	char **mname;              /* [n]: --no-merge's instance names */
	size_t explain;            /* first hidden event, SIZE_MAX: none */
	bool explained;            /* the run's notes were said */
	double t0, last_ts;        /* CLOCK_MONOTONIC seconds */
	double enable_at, stop_at; /* -D, --timeout deadlines; 0: none */
	long intervals;            /* printed so far */
	bool metric_header_done;
	bool timed_out;
	struct rusage ru;
	struct pmu_metric_set *mset; /* -M */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

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
static int make_session(struct stat_ctx *c)
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
	int rc = c->s ? 0 : make_session(c);

	return rc ? rc : open_target(c, child);
}

/* The hidden events' names, comma-separated, from the first one on. */
static void hidden_names(const struct stat_ctx *c, char *buf, size_t sz)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = c->explain; i < c->n && len + 1 < sz; i++) {
		int w;

		if (!c->hidden[i])
			continue;
		w = snprintf(buf + len, sz - len, "%s%s", len ? ", " : "",
			     pmu_session_event_name(c->s, i));
		len = w < 0 || (size_t)w >= sz - len ? sz - 1 : len + (size_t)w;
	}
}

static void explain_hidden(const struct stat_ctx *c)
{
	struct pmu_host_info h = { .size = sizeof(h) };
	const char *reason = pmu_session_event_reason(c->s, c->explain);
	char names[512];
	int err = 0;

	pmu_session_event_status(c->s, c->explain, &err);
	if (pmu_host_info(&h) < 0)
		h.has_hw_pmu = true;
	if (err == -EACCES || err == -EPERM)
		pmu_tool_err("hardware counters not shown: "
			     "kernel.perf_event_paranoid=%d forbids them; run "
			     "'sysctl kernel.perf_event_paranoid=2' or grant "
			     "CAP_PERFMON", h.paranoid);
	else if (!h.has_hw_pmu)
		pmu_tool_err("hardware counters not shown: this machine has no "
			     "hardware PMU (%s)", h.virtualized
			     ? "virtual machine; enable PMU passthrough / vPMU "
			       "in the hypervisor"
			     : "the kernel registered no CPU PMU driver");
	else {
		hidden_names(c, names, sizeof(names));
		pmu_tool_err("not shown: %s: this CPU's PMU does not count "
			     "%s (%s)", names, strchr(names, ',') ? "them"
			     : "it", reason ? reason : "the kernel refused it");
	}
}

/* --switch overflow:EVENT:N counts EVENT in every set, a copy each,
 * appended after the events pmu adds: the first copy of i's name, or i
 * itself. */
static size_t switch_copy(const struct stat_ctx *c, size_t i)
{
	const char *name = pmu_session_event_name(c->s, i);

	for (size_t j = c->nuser; j < i; j++)
		if (!strcmp(pmu_session_event_name(c->s, j), name))
			return j;
	return i;
}

/* Events pmu adds (the default set, -d's) are left out of the text
 * table when this machine cannot count them (one line says why);
 * events the user named are always shown, and so is everything of a
 * simulated run, whose PMU is chosen, not found.  -x and --json keep
 * perf's rows and carry no prose. */
static void mark_hidden(struct stat_ctx *c)
{
	size_t first = SIZE_MAX;
	bool may_hide = !c->o->sim_model && !c->o->emulate &&
			c->o->format == STAT_TEXT;

	for (size_t i = 0; i < c->n; i++) {
		c->hidden[i] = may_hide && i >= c->nuser &&
			pmu_session_event_status(c->s, i, NULL) ==
				PMU_EVENT_NOT_SUPPORTED;
		if (c->hidden[i] && first == SIZE_MAX)
			first = i;
	}
	c->explain = first;
	for (size_t i = 0; i < c->n; i++)
		if (pmu_stat_folded(c->st, i))
			c->hidden[i] = true;
	/* (-x and --json keep a row per set's copy: their rows carry the
	 * set) */
	for (size_t i = 0; i < c->n; i++) {
		c->copy_of[i] = i < c->nuser ? i : switch_copy(c, i);
		if (c->o->format == STAT_TEXT && c->copy_of[i] != i)
			c->hidden[i] = true;
	}
}

/* A group larger than its PMU's counters is never counted: perf reads
 * it so too, and one line says which event did not fit. */
static void explain_no_room(const struct stat_ctx *c)
{
	for (size_t i = 0; c->s && i < c->n; i++) {
		int err = 0;

		if (pmu_session_event_status(c->s, i, &err) ==
		    PMU_EVENT_NOT_SUPPORTED && err == -ENOSPC)
			pmu_tool_err("%s: %s", pmu_session_event_name(c->s, i),
				     pmu_session_event_reason(c->s, i));
	}
}

/* A simulated or emulated PMU counts what its counters hold: events that
 * found none are <not counted>, and one line per reason says why and
 * how to count them all (sets that take turns). */
static void explain_no_counter(const struct stat_ctx *c)
{
	if (!c->s || c->o->format != STAT_TEXT ||
	    (!c->o->sim_model && !c->o->emulate))
		return;
	for (size_t i = 0; i < c->n; i++) {
		const char *why = pmu_session_event_reason(c->s, i);
		char names[512];
		size_t len = 0;
		bool first = true;

		if (pmu_session_event_status(c->s, i, NULL) !=
		    PMU_EVENT_NOT_COUNTED || !why || !*why)
			continue;
		/* said with the first event of its reason */
		for (size_t k = 0; k < i && first; k++)
			first = pmu_session_event_status(c->s, k, NULL) !=
				PMU_EVENT_NOT_COUNTED ||
				strcmp(why, pmu_session_event_reason(c->s, k) ?
					    pmu_session_event_reason(c->s, k) : "");
		if (!first)
			continue;
		names[0] = '\0';
		for (size_t k = i; k < c->n; k++) {
			const char *w = pmu_session_event_reason(c->s, k);
			int n;

			if (pmu_session_event_status(c->s, k, NULL) !=
			    PMU_EVENT_NOT_COUNTED || !w || strcmp(w, why))
				continue;
			n = snprintf(names + len, sizeof(names) - len, "%s%s",
				     len ? ", " : "",
				     pmu_session_event_name(c->s, k));
			len = n < 0 || (size_t)n >= sizeof(names) - len ?
			      sizeof(names) - 1 : len + (size_t)n;
		}
		pmu_tool_err("%s: not counted: %s; --set EVENTS --set EVENTS%s "
			     "counts them in sets that take turns", names, why,
			     c->o->emulate ? " --switch overflow:instructions:1:"
					     "100000" : "");
	}
}

/* Hardware events the user named, <not supported> because this machine
 * has no hardware PMU: one line says so, as for the default set's. */
static void explain_no_pmu(const struct stat_ctx *c)
{
	struct pmu_host_info h = { .size = sizeof(h) };
	char names[512];
	size_t len = 0;

	if (!c->s || c->o->format != STAT_TEXT || c->o->sim_model ||
	    c->o->emulate || pmu_host_info(&h) < 0 || h.has_hw_pmu)
		return;
	names[0] = '\0';
	for (size_t i = 0; i < c->nuser && i < c->n && len + 1 < sizeof(names);
	     i++) {
		const char *why = pmu_session_event_reason(c->s, i);
		int w;

		if (pmu_session_event_status(c->s, i, NULL) !=
		    PMU_EVENT_NOT_SUPPORTED || !why ||
		    !strstr(why, "no hardware PMU"))
			continue;
		w = snprintf(names + len, sizeof(names) - len, "%s%s",
			     len ? ", " : "", pmu_session_event_name(c->s, i));
		len = w < 0 || (size_t)w >= sizeof(names) - len
			      ? sizeof(names) - 1 : len + (size_t)w;
	}
	if (len)
		pmu_tool_err("%s: <not supported>: this machine has no hardware "
			     "PMU (%s)", names, h.virtualized
			     ? "virtual machine; enable PMU passthrough / vPMU "
			       "in the hypervisor"
			     : "the kernel registered no CPU PMU driver");
}

/* Said once, after the command started, so a failed exec is not buried. */
static void explain_once(struct stat_ctx *c)
{
	if (c->explain != SIZE_MAX)
		explain_hidden(c);
	if (!c->explained)
		explain_no_pmu(c);
	if (!c->explained) {
		explain_no_room(c);
		explain_no_counter(c);
	}
	c->explain = SIZE_MAX;
	c->explained = true;
}

static void verbose_events(const struct stat_ctx *c)
{
	for (size_t i = 0; i < c->n; i++) {
		const char *why = pmu_session_event_reason(c->s, i);
		int st = pmu_session_event_status(c->s, i, NULL);

		fprintf(stderr, "pmu: event %zu: %s (group %zd)%s%s\n", i,
			pmu_session_event_name(c->s, i),
			pmu_session_event_group(c->s, i),
			st == PMU_EVENT_NOT_SUPPORTED ? ": not supported: "
			: why && *why ? ": " : "", why ? why : "");
	}
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
	    !c->iacc || !c->order || !c->hidden || !c->copy_of || !c->mname) {
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
static int prepare_run(struct stat_ctx *c, pid_t child, bool first)
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
		mark_hidden(c);
	if (!first)
		c->explain = SIZE_MAX;
	if (c->o->verbose && first && c->s)
		verbose_events(c);
	memset(c->prev, 0, c->nagg * (c->n ? c->n : 1) * sizeof(*c->prev));
	stat_sets_run_start(c->sets);
	return 0;
}

static int read_values(struct stat_ctx *c)
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

/* One row from a reading (or the difference of two readings). */
static void fill_row(struct stat_row *r, const struct stat_ctx *c, size_t a,
		     size_t i, const struct pmu_value *v)
{
	const char *unit = pmu_session_event_unit(c->s, i, &r->scale);
	bool ns = pmu_session_event_status(c->s, i, NULL) ==
		PMU_EVENT_NOT_SUPPORTED;

	r->agg = c->o->aggr == PMU_AGGR_GLOBAL ? NULL : &c->agg[a];
	r->cgroup = i < c->ncg ? c->cgroup[i] : NULL;
	r->cgroups = c->any_cgroup;
	r->name = c->mname[i] ? c->mname[i] : pmu_session_event_name(c->s, i);
	r->unit = unit ? unit : "";
	if (!unit || r->scale == 0)
		r->scale = 1.0;
	r->status = ns ? PMU_EVENT_NOT_SUPPORTED
		       : v->running ? PMU_EVENT_OK : PMU_EVENT_NOT_COUNTED;
	r->count = ns ? 0 : (double)(c->o->no_scale ? v->raw : v->scaled);
	r->running = ns ? 0 : (double)v->running;
	r->enabled = ns ? 0 : (double)v->enabled;
	r->show_running = !c->o->no_scale && r->status == PMU_EVENT_OK &&
			  v->running < v->enabled;
	r->noise_pct = -1;
	r->metric_unit = NULL;
	r->set = -1;
	r->folded = pmu_stat_folded(c->st, i);
	r->folded_switch = false;
}

/* --per-thread: an event's threads by count, largest first (ties in
 * thread order); system-wide, threads that counted nothing are left
 * out, as perf does. */
static size_t thread_order(struct stat_ctx *c, size_t i)
{
	size_t k = 0;

	for (size_t a = 0; a < c->nagg; a++) {
		const struct stat_row *r = &c->rows[a * c->n + i];
		size_t j = k;

		if (c->o->target == PMU_TARGET_CPUS &&
		    (r->status != PMU_EVENT_OK || r->count == 0))
			continue;
		while (j > 0 && c->rows[c->order[j - 1] * c->n + i].count <
				r->count)
			j--;
		memmove(&c->order[j + 1], &c->order[j], (k - j) * sizeof(*c->order));
		c->order[j] = a;
		k++;
	}
	return k;
}

static void print_metric_only(struct stat_ctx *c, const double *ts)
{
	/* intervals have theirs from interval_header() */
	if (!ts && !c->metric_header_done) {
		stat_out_metric_header(c->out, c->o, c->rows, c->n, ts);
		c->metric_header_done = true;
	}
	for (size_t a = 0; a < c->nagg; a++)
		stat_out_metric_line(c->out, c->o, &c->rows[a * c->n], c->n, ts);
}

/* Does event i count on CPU cpu?  Not an uncore event on a CPU outside
 * its PMU's cpumask: -A leaves those rows out, as perf does. */
static bool counts_on(struct stat_ctx *c, size_t i, int cpu)
{
	const char *mask = pmu_session_event_cpus(c->s, i);
	int cpus[256];
	ssize_t n;

	if (!mask || cpu < 0)
		return true;
	n = pmu_cpulist_parse(mask, cpus, 256, NULL);
	for (ssize_t k = 0; k < n && k < 256; k++)
		if (cpus[k] == cpu)
			return true;
	return n < 0;
}

/* -M: the metrics of aggregate a shown after its row i (i = n: those
 * shown after no row). */
static void print_mset(struct stat_ctx *c, size_t a, size_t i, double wall_ns)
{
	if (c->mset)
		stat_mset_print(c->out, c->o, c->mset, &c->rows[a * c->n], c->n,
				i, wall_ns);
}

/* Rows of every aggregate, in perf's order: per CPU and per thread
 * event by event, per core, socket... aggregate by aggregate. */
/* The copies of an --switch overflow event count one event, each while
 * its set has its turn: in the text table the first copy's row is the
 * event's, their raw counts and running times summed over the run's
 * time (each copy's own raw count stays for the sets' lines). */
static void fold_switch_rows(struct stat_ctx *c)
{
	size_t n = c->n;

	for (size_t a = 0; c->sets && c->o->format == STAT_TEXT && a < c->nagg;
	     a++)
		for (size_t i = c->nuser; i < n; i++) {
			size_t h = c->copy_of[i];
			struct stat_row *to = &c->rows[a * n + h];
			const struct stat_row *r = &c->rows[a * n + i];

			if (h == i)
				continue;
			if (!to->folded_switch) {
				to->count = to->status == PMU_EVENT_OK ? to->raw : 0;
				to->folded_switch = true;
			}
			if (r->status == PMU_EVENT_OK) {
				to->count += r->raw;
				to->status = PMU_EVENT_OK;
			}
			to->running += r->running;
			if (r->enabled > to->enabled)
				to->enabled = r->enabled;
			to->show_running = !c->o->no_scale &&
					   to->running < to->enabled;
		}
}

static void print_rows(struct stat_ctx *c, double wall_ns, const double *ts)
{
	enum pmu_aggr_mode m = c->o->aggr;
	size_t n = c->n;

	fold_switch_rows(c);

	for (size_t a = 0; a < c->nagg; a++)
		stat_metrics_compute(c->st, &c->rows[a * n], n, wall_ns);
	if (c->o->metric_only) {
		/* the sets' lines are about counts, which this leaves out */
		print_metric_only(c, ts);
	} else if (m == PMU_AGGR_CPU || m == PMU_AGGR_THREAD) {
		for (size_t i = 0; i < n; i++) {
			size_t k = m == PMU_AGGR_THREAD ? thread_order(c, i)
							 : c->nagg;

			for (size_t j = 0; !c->hidden[i] && j < k; j++) {
				size_t a = m == PMU_AGGR_THREAD ? c->order[j] : j;

				if (m == PMU_AGGR_CPU &&
				    !counts_on(c, i, c->agg[a].cpu))
					continue;
				stat_out_row(c->out, c->o, &c->rows[a * n + i], ts);
				print_mset(c, a, i, wall_ns);
			}
		}
		for (size_t a = 0; c->mset && a < c->nagg; a++)
			print_mset(c, a, n, wall_ns);
	} else {
		for (size_t a = 0; a < c->nagg; a++) {
			for (size_t i = 0; i < n; i++) {
				if (c->hidden[i])
					continue;
				stat_out_row(c->out, c->o,
					     &c->rows[a * n + i], ts);
				print_mset(c, a, i, wall_ns);
			}
			print_mset(c, a, n, wall_ns);
		}
		/* --set: one aggregate (the options check it) */
		stat_sets_print(c->out, c->o, c->rows, n, ts);
	}
	fflush(c->out);
}

/* perf's headers of -I: before the first interval and every 25th, or
 * before each one after clearing the screen (--interval-clear). */
static void interval_header(struct stat_ctx *c, const double *ts)
{
	if (c->intervals % 25 && !c->o->interval_clear)
		return;
	if (c->o->interval_clear) {
		/* as perf clears it: on the terminal of stdout */
		fputs("\033[H\033[2J\n", stdout);
		fflush(stdout);
	}
	if (c->o->metric_only)
		stat_out_metric_header(c->out, c->o, c->rows, c->n, ts);
	else
		stat_out_interval_header(c->out, c->o);
}

/* The reading in c->cur less the previous one, printed at ts (seconds,
 * or guest instructions for -I Ni) over wall_ns. */
static void show_interval(struct stat_ctx *c, double ts, double wall_ns)
{
	size_t n = c->n;

	for (size_t k = 0; k < c->nagg * n; k++) {
		struct pmu_value d;

		pmu_value_delta(&c->cur[k], &c->prev[k], &d);
		c->prev[k] = c->cur[k];
		fill_row(&c->rows[k], c, k / (n ? n : 1), k % (n ? n : 1), &d);
		stat_sets_row_interval(c->sets, &c->rows[k], c->s, k % n, &d);
		/* -I -r: perf's spread of the intervals seen so far */
		if (c->o->repeat > 1 && c->rows[k].status == PMU_EVENT_OK)
			pmu_runstat_add(&c->iacc[k].rs, c->rows[k].count);
		if (c->o->repeat > 1)
			c->rows[k].noise_pct = pmu_runstat_noise_pct(&c->iacc[k].rs);
	}
	for (size_t a = 0; a < c->nagg; a++)
		stat_metrics_compute(c->st, &c->rows[a * n], n, wall_ns);
	interval_header(c, &ts);
	print_rows(c, wall_ns, &ts);
	c->intervals++;
}

/* -I: print what was counted since the previous tick. */
static void print_interval(struct stat_ctx *c)
{
	double now = now_s();

	if (c->o->interval_count && c->intervals >= c->o->interval_count)
		return;
	if (read_values(c) < 0)
		return;
	stat_sets_interval(c->sets, c->s);
	show_interval(c, now - c->t0, (now - c->last_ts) * 1e9);
	c->last_ts = now;
}

/* -I Ni, the command ended: each instruction interval, at the guest
 * instructions counted up to its end; no wall time, so that runs print
 * the same.  -1 when the emulator's intervals cannot be had. */
static int print_marks(struct stat_ctx *c)
{
	ssize_t nm = pmu_session_nmarks(c->s), ret = 0;
	uint64_t insns = 0;

	if (nm == -E2BIG)
		pmu_tool_err("-I '%s': more than 65536 instruction intervals: "
			     "give a larger number", c->o->interval_arg);
	else if (nm < 0)
		pmu_tool_err("-I '%s': no instruction intervals: %s",
			     c->o->interval_arg, strerror((int)-nm));
	for (ssize_t k = 0; ret >= 0 && k < nm; k++) {
		if (c->o->interval_count && c->intervals >= c->o->interval_count)
			break;
		for (size_t i = 0; i < c->n; i++)
			c->cur[i] = (struct pmu_value){
				.size = sizeof(struct pmu_value),
				.status = PMU_EVENT_NOT_COUNTED };
		ret = pmu_session_read_mark(c->s, (size_t)k, &insns, c->cur,
					    c->n);
		if (ret < 0)
			pmu_tool_err("cannot read instruction interval %zd: %s",
				     k + 1, strerror((int)-ret));
		else
			show_interval(c, (double)insns, 0);
	}
	return nm < 0 || ret < 0 ? -1 : 0;
}

/* Fold the final reading of one run into the accumulators. */
static void accumulate_run(struct stat_ctx *c)
{
	struct stat_row r;

	if (read_values(c) < 0)
		return;
	stat_sets_run_end(c->sets, c->s, c->cur);
	for (size_t k = 0; c->n && k < c->nagg * c->n; k++) {
		fill_row(&r, c, k / c->n, k % c->n, &c->cur[k]);
		if (r.status == PMU_EVENT_NOT_SUPPORTED)
			c->acc[k].not_supported = true;
		if (r.status != PMU_EVENT_OK)
			continue;
		pmu_runstat_add(&c->acc[k].rs, r.count);
		c->acc[k].running += r.running;
		c->acc[k].enabled += r.enabled;
	}
}

static void print_summary(struct stat_ctx *c, bool have_rusage)
{
	struct stat_times t = {
		.elapsed_s = c->elapsed.rs.mean,
		.elapsed_noise_s = -1,
		.user_s = c->ru.ru_utime.tv_sec + c->ru.ru_utime.tv_usec * 1e-6,
		.sys_s = c->ru.ru_stime.tv_sec + c->ru.ru_stime.tv_usec * 1e-6,
		.have_rusage = have_rusage,
	};
	/* perf shows the spread of each figure only for the global ones */
	bool noise = c->o->repeat > 1 && c->o->aggr == PMU_AGGR_GLOBAL;

	if (c->o->repeat > 1)
		t.elapsed_noise_s = c->elapsed.rs.mean * pmu_runstat_noise_pct(&c->elapsed.rs) / 100;
	stat_out_header(c->out, c->o);
	for (size_t k = 0; c->n && k < c->nagg * c->n; k++) {
		struct stat_row *r = &c->rows[k];
		const struct stat_acc *a = &c->acc[k];
		struct pmu_value zero = { .size = sizeof(zero) };

		fill_row(r, c, k / c->n, k % c->n, &zero);
		r->status = a->not_supported ? PMU_EVENT_NOT_SUPPORTED
			  : a->rs.n ? PMU_EVENT_OK : PMU_EVENT_NOT_COUNTED;
		r->count = a->rs.mean;
		r->running = a->rs.n ? a->running / a->rs.n : 0;
		r->enabled = a->rs.n ? a->enabled / a->rs.n : 0;
		r->show_running = !c->o->no_scale && a->rs.n &&
				  a->running < a->enabled;
		r->noise_pct = noise ? pmu_runstat_noise_pct(&a->rs) : -1;
		stat_sets_row_summary(c->sets, r, c->s, k % c->n);
	}
	print_rows(c, c->elapsed.rs.mean * 1e9, NULL);
	stat_out_footer(c->out, c->o, &t);
	fflush(c->out);
}

/* Wait for one of `set` until `deadline` (0: forever); 0 on timeout. */
static int wait_signal(const sigset_t *set, double deadline, siginfo_t *si)
{
	struct timespec ts;
	double left;
	int sig;

	memset(si, 0, sizeof(*si));
	if (deadline <= 0)
		return sigwaitinfo(set, si);
	left = deadline - now_s();
	if (left < 0)
		left = 0;
	ts.tv_sec = (time_t)left;
	ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
	sig = sigtimedwait(set, si, &ts);
	return sig < 0 && errno == EAGAIN ? 0 : sig;
}

static void wait_set(sigset_t *set, bool with_child)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	if (with_child)
		sigaddset(set, SIGCHLD);
}

/* -D: counting starts now; intervals and elapsed time count from here. */
static void enable_counting(struct stat_ctx *c, double *next)
{
	if (c->s)
		pmu_session_start(c->s);
	if (c->o->format == STAT_TEXT)
		fputs("Events enabled\n", stderr);
	c->enable_at = 0;
	c->t0 = c->last_ts = now_s();
	if (c->o->interval_ms)
		*next = c->t0 + c->o->interval_ms / 1000.0;
}

/* The earliest of the interval tick, the -D start and the timeout. */
static double next_deadline(const struct stat_ctx *c, double tick)
{
	double d = c->enable_at > 0 ? c->enable_at : tick;

	if (c->enable_at > 0 && tick > 0 && tick < d)
		d = tick;
	if (c->stop_at > 0 && (d <= 0 || c->stop_at < d))
		d = c->stop_at;
	return d;
}

/* Past a deadline: start counting, print an interval, or (returns true)
 * the timeout has come. */
static bool deadlines(struct stat_ctx *c, double *next)
{
	double now = now_s(), step = c->o->interval_ms / 1000.0;

	if (c->enable_at > 0 && now >= c->enable_at)
		enable_counting(c, next);
	if (c->stop_at > 0 && now >= c->stop_at) {
		c->stop_at = 0;
		c->timed_out = true;
		return true;
	}
	if (c->enable_at <= 0 && *next > 0 && now >= *next) {
		print_interval(c);
		while (*next <= now)
			*next += step;
	}
	return false;
}

/* The command gets Ctrl-C from the terminal itself; a signal sent to pmu
 * alone (kill, si_code <= 0) is passed on so the command can stop. */
static int wait_child(struct stat_ctx *c, pid_t pid, int *status)
{
	double next = c->o->interval_ms && c->enable_at <= 0
		? c->t0 + c->o->interval_ms / 1000.0 : 0;
	sigset_t set;
	siginfo_t si;

	wait_set(&set, true);
	for (;;) {
		pid_t r = wait4(pid, status, WNOHANG, &c->ru);
		int sig;

		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -1;
		sig = wait_signal(&set, next_deadline(c, next), &si);
		if ((sig == SIGINT || sig == SIGTERM) && si.si_code <= 0)
			kill(pid, sig);
		else if (sig == 0 && deadlines(c, &next))
			kill(pid, SIGTERM);
	}
}

/* Like perf, counting goes on while any listed process or thread lives. */
static bool target_gone(const struct stat_opts *o)
{
	if (o->target != PMU_TARGET_PID && o->target != PMU_TARGET_TID)
		return false;
	for (size_t i = 0; i < o->npids; i++)
		if (kill(o->pids[i], 0) == 0 || errno != ESRCH)
			return false;
	return true;
}

/* No command: count until SIGINT/SIGTERM, the timeout, the last
 * interval of --interval-count, or until the process is gone. */
static void wait_target(struct stat_ctx *c)
{
	double next = c->o->interval_ms && c->enable_at <= 0
		? c->t0 + c->o->interval_ms / 1000.0 : 0;
	bool poll = c->o->target == PMU_TARGET_PID ||
		    c->o->target == PMU_TARGET_TID;
	sigset_t set;
	siginfo_t si;

	wait_set(&set, false);
	for (;;) {
		double deadline = next_deadline(c, next);
		int sig;

		if (poll && (deadline <= 0 || deadline > now_s() + 1))
			deadline = now_s() + 1;
		sig = wait_signal(&set, deadline, &si);
		if (sig == SIGINT || sig == SIGTERM)
			return;
		if (sig != 0)
			continue;
		if (deadlines(c, &next) || target_gone(c->o))
			return;
		if (c->o->interval_count && c->intervals >= c->o->interval_count)
			return;
	}
}

static int exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return EXIT_PMU_INPUT;
}

static int report_exec_error(const char *cmd, int e)
{
	if (e == ENOENT)
		pmu_tool_err("%s: command not found", cmd);
	else
		pmu_tool_err("%s: cannot run: %s", cmd, strerror(e));
	return e == ENOENT ? 127 : 126;
}

/* Something killed the command while pmu was still setting up: say
 * so, and exit as the command did. */
static int report_early_death(const char *cmd, struct launch *l)
{
	int status = 0;
	pid_t r;

	while ((r = waitpid(l->pid, &status, 0)) < 0 && errno == EINTR)
		;
	l->pid = -1;
	if (r < 0) {
		pmu_tool_err("%s: died before it started", cmd);
		return EXIT_PMU_INPUT;
	}
	if (WIFSIGNALED(status))
		pmu_tool_err("%s: killed by signal %d (%s) before it started",
			     cmd, WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		pmu_tool_err("%s: exited with status %d before it started",
			     cmd, exit_code(status));
	return exit_code(status);
}

static int finish_run(struct stat_ctx *c, double t0)
{
	double t1 = now_s();
	int rc = 0;

	if (c->s)
		pmu_session_stop(c->s);
	if (c->o->interval_ms)
		print_interval(c);
	else if (c->o->interval_insns)
		rc = c->s ? print_marks(c) : 0;
	else
		accumulate_run(c);
	pmu_runstat_add(&c->elapsed.rs, t1 - t0);
	return rc;
}

/* Counting starts at the command's exec, after -D's delay, or (-D -1)
 * never; elapsed time counts from the start, as perf's does. */
static void arm_run(struct stat_ctx *c)
{
	const struct stat_opts *o = c->o;

	c->t0 = c->last_ts = now_s();
	c->enable_at = o->delay_ms > 0 ? c->t0 + o->delay_ms / 1000.0 : 0;
	c->stop_at = o->timeout_ms ? c->t0 + o->timeout_ms / 1000.0 : 0;
	if (o->delay_ms && o->format == STAT_TEXT)
		fputs("Events disabled\n", stderr);
	if (!o->delay_ms && c->s && (!o->argv || o->target != PMU_TARGET_CHILD))
		pmu_session_start(c->s);
}

/* perf names a command a signal ended, as the shell would. */
static void say_signal(const struct stat_ctx *c, int status)
{
	if (WIFSIGNALED(status) && c->o->format == STAT_TEXT)
		fprintf(stderr, "%s: %s\n", c->o->argv[0],
			strsignal(WTERMSIG(status)));
}

/* --emulate: the session first, for the command line it runs. */
static int emu_prepare(struct stat_ctx *c, char ***cmd)
{
	int rc = make_session(c);

	return rc ? rc : stat_emu_command((struct stat_opts *)c->o, c->s, cmd);
}

static int run_one(struct stat_ctx *c, bool first, int *status)
{
	struct launch l = { .pid = -1, .go_fd = -1, .err_fd = -1 };
	char **cmd = NULL;
	int rc, e;

	pmu_session_free(c->s);
	c->s = NULL;
	if (c->o->emulate && (rc = emu_prepare(c, &cmd))) {
		free(cmd);
		return rc;
	}
	rc = launch_prepare(&l, cmd ? cmd : c->o->argv, &c->child_mask);
	free(cmd);
	if (rc < 0) {
		pmu_tool_err("cannot start '%s': %s", c->o->argv[0], strerror(-rc));
		return EXIT_PMU_INPUT;
	}
	rc = prepare_run(c, l.pid, first);
	if (rc) {
		launch_abort(&l);
		return rc;
	}
	arm_run(c);
	e = launch_go(&l);
	if (e == EPIPE)
		return report_early_death(c->o->argv[0], &l);
	if (e)
		return report_exec_error(c->o->argv[0], e);
	/* intervals print as the command runs: their notes first */
	if (stat_intervals(c->o))
		explain_once(c);
	if (wait_child(c, l.pid, status) < 0) {
		pmu_tool_err("waiting for '%s': %s", c->o->argv[0], strerror(errno));
		return EXIT_PMU_INPUT;
	}
	/* known now that the command has ended, as perf learns it */
	if ((e = launch_exec_result(&l)))
		return report_exec_error(c->o->argv[0], e);
	explain_once(c);
	say_signal(c, *status);
	return finish_run(c, c->t0) ? EXIT_PMU_INPUT : 0;
}

static int run_command(struct stat_ctx *c)
{
	int status = 0, rc;

	for (int i = 0; i < c->o->repeat; i++) {
		rc = run_one(c, i == 0, &status);
		if (rc)
			return rc;
	}
	if (!stat_intervals(c->o))
		/* like perf: the command's own CPU times only when it alone
		 * was measured, once */
		print_summary(c, c->o->repeat == 1 &&
				 c->o->target == PMU_TARGET_CHILD);
	/* stopped at --timeout as asked: a success, as for perf */
	return c->timed_out ? 0 : exit_code(status);
}

static int run_target(struct stat_ctx *c)
{
	int rc = prepare_run(c, 0, true);

	if (rc)
		return rc;
	explain_once(c);
	arm_run(c);
	wait_target(c);
	finish_run(c, c->t0);
	if (!stat_intervals(c->o))
		print_summary(c, false);
	return 0;
}

/* A stream is at most this large, as for 'pmu sim'. */
#define MAX_STREAM_BYTES (64u << 20)

/* --sim-model: the stream, run on the simulated model as the command
 * would run (-r times), then the same table. */
static int run_stream(struct stat_ctx *c)
{
	struct pmu_error err = { .size = sizeof(err) };
	size_t len = 0;
	char *text = pmu_tool_slurp(c->o->stream, MAX_STREAM_BYTES, &len);
	int rc = 0;

	if (!text) {
		pmu_tool_err("cannot read --stream '%s': %s", c->o->stream,
			     errno == EFBIG ? "larger than 64 MiB"
					    : strerror(errno));
		return EXIT_PMU_INPUT;
	}
	for (int i = 0; !rc && i < c->o->repeat; i++) {
		pmu_session_free(c->s);
		c->s = NULL;
		rc = prepare_run(c, 0, i == 0);
		if (rc)
			break;
		if (c->s)
			pmu_session_start(c->s);
		c->t0 = c->last_ts = now_s();
		if (c->s && pmu_session_feed(c->s, text, len, &err) < 0) {
			pmu_tool_err("%s: %s", c->o->stream, err.message);
			rc = EXIT_PMU_INPUT;
			break;
		}
		explain_once(c);
		finish_run(c, c->t0);
	}
	free(text);
	if (!rc)
		print_summary(c, false);
	return rc;
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
	wait_set(&block, true);
	sigprocmask(SIG_BLOCK, &block, &c.child_mask);
	rc = o.sim_model ? run_stream(&c)
	     : o.argv ? run_command(&c) : run_target(&c);
	rc = close_output(&c, rc);
	ctx_free(&c);
	stat_opts_free(&o);
	return rc;
}
