/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
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

/* perf stat's default set on Linux 6.x (no frontend/backend stalls). */
#define DEFAULT_EVENTS "task-clock,context-switches,cpu-migrations," \
		       "page-faults,cycles,instructions,branches,branch-misses"
/* --emulate: the hardware events of that set (an emulated PMU has no
 * software events). */
#define EMU_DEFAULT_EVENTS "cycles,instructions,branches,branch-misses"

/* Running mean and spread (Welford), so repeats need no sample arrays. */
struct stat_acc {
	unsigned n;
	double mean, m2;
	double running, enabled;
	bool not_supported;
};

/* Everything one `pmu stat` invocation keeps between runs. */
struct stat_ctx {
	const struct stat_opts *o;
	FILE *out;
	sigset_t child_mask;       /* signal mask the command starts with */
	struct pmu_session *s;     /* session of the current run */
	size_t n;
	struct pmu_value *cur, *prev;
	struct stat_row *rows;
	struct stat_acc *acc, elapsed;
	struct stat_sets *sets;    /* --set: per-set figures, else NULL */
	bool *hidden;
	size_t explain;            /* first hidden event, SIZE_MAX: none */
	double t0, last_ts;        /* CLOCK_MONOTONIC seconds */
	struct rusage ru;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void acc_add(struct stat_acc *a, double x)
{
	double d = x - a->mean;

	a->n++;
	a->mean += d / a->n;
	a->m2 += d * (x - a->mean);
}

/* perf's noise figure: stddev of the mean, relative to the mean, in %. */
static double acc_noise_pct(const struct stat_acc *a)
{
	double sd;

	if (a->n < 2 || a->mean == 0)
		return 0;
	sd = sqrt(a->m2 / (a->n - 1) / a->n);
	return 100.0 * sd / fabs(a->mean);
}

static int verbose_print(enum pmu_log_level level, const char *fmt, va_list ap)
{
	size_t len = strlen(fmt);
	int r;

	fputs("pmu: ", stderr);
	r = vfprintf(stderr, fmt, ap);
	if (!len || fmt[len - 1] != '\n')
		fputc('\n', stderr);
	return r;
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

static int add_events(struct pmu_session *s, const struct stat_opts *o)
{
	struct pmu_error err = { .size = sizeof(err) };

	if (o->default_events) {
		const char *def = o->emulate ? EMU_DEFAULT_EVENTS
					     : DEFAULT_EVENTS;

		if (pmu_session_add(s, def, &err) < 0) {
			report_parse_error(def, &err);
			return EXIT_PMU_INPUT;
		}
		return 0;
	}
	for (size_t i = 0; i < o->nevents; i++) {
		int rc = stat_sets_before_add(s, o, i);

		if (rc)
			return rc;
		if (pmu_session_add(s, o->events[i], &err) < 0) {
			report_parse_error(o->events[i], &err);
			return EXIT_PMU_INPUT;
		}
	}
	return stat_sets_after_add(s, o);
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

static int open_session(struct stat_ctx *c, pid_t child)
{
	const struct stat_opts *o = c->o;
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_open_opts oo = { .sz = sizeof(oo), .target = o->target,
				    .pids = o->pids, .npids = o->npids,
				    .cpus = o->cpus };
	int rc;

	struct pmu_session_opts so = { .sz = sizeof(so), .driver = "sim",
				       .model = o->sim_model };

	if (o->emulate)
		stat_emu_session_opts(o, &so);
	/* --emulate: the session was made before the command started */
	if (!c->s)
		c->s = pmu_session_new_opts(o->sim_model || o->emulate ? &so
					    : NULL, &err);
	else if (o->emulate)
		goto open;
	if (!c->s) {
		pmu_tool_err("%s", err.message[0] ? err.message : strerror(errno));
		return EXIT_PMU_INPUT;
	}
	rc = add_events(c->s, o);
	if (rc)
		return rc;
	if (o->emulate)
		return 0;
open:
	if (o->sim_model) {
		oo.target = PMU_TARGET_SELF; /* the stream is the program */
	} else if (o->target == PMU_TARGET_CHILD) {
		oo.pid = child;
		oo.inherit = true;
	} else if (o->target == PMU_TARGET_PID) {
		oo.inherit = true;
	}
	if (pmu_session_open(c->s, &oo, &err) < 0)
		return report_open_error(o, &err);
	return 0;
}

static void explain_hidden(const struct pmu_session *s, size_t i)
{
	struct pmu_host_info h = { .size = sizeof(h) };
	const char *reason = pmu_session_event_reason(s, i);
	int err = 0;

	pmu_session_event_status(s, i, &err);
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
	else
		pmu_tool_err("hardware counters not shown: not supported by "
			     "this CPU (%s)", reason ? reason : "no reason given");
}

/* With the default set, events this machine cannot count are left out
 * (one line says why); events the user named are always shown, and so
 * is everything of a simulated run, whose PMU is chosen, not found. */
static void mark_hidden(struct stat_ctx *c)
{
	size_t first = SIZE_MAX;

	for (size_t i = 0; i < c->n; i++) {
		c->hidden[i] = c->o->default_events && !c->o->sim_model &&
			!c->o->emulate &&
			pmu_session_event_status(c->s, i, NULL) ==
				PMU_EVENT_NOT_SUPPORTED;
		if (c->hidden[i] && first == SIZE_MAX)
			first = i;
	}
	c->explain = first;
}

/* Said once, after the command started, so a failed exec is not buried. */
static void explain_once(struct stat_ctx *c)
{
	if (c->explain != SIZE_MAX)
		explain_hidden(c->s, c->explain);
	c->explain = SIZE_MAX;
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
	size_t n = c->n ? c->n : 1;

	c->cur = calloc(n, sizeof(*c->cur));
	c->prev = calloc(n, sizeof(*c->prev));
	c->rows = calloc(n, sizeof(*c->rows));
	c->acc = calloc(n, sizeof(*c->acc));
	c->hidden = calloc(n, sizeof(*c->hidden));
	if (!c->cur || !c->prev || !c->rows || !c->acc || !c->hidden) {
		pmu_tool_err("out of memory");
		return EXIT_PMU_INPUT;
	}
	for (size_t i = 0; i < n; i++)
		c->cur[i].size = c->prev[i].size = sizeof(struct pmu_value);
	return 0;
}

/* Open the next run's session; the first run also sizes the arrays. */
static int prepare_run(struct stat_ctx *c, pid_t child, bool first)
{
	int rc = open_session(c, child);

	if (rc)
		return rc;
	if (first) {
		c->n = pmu_session_nevents(c->s);
		rc = alloc_arrays(c);
		if (rc)
			return rc;
		c->sets = stat_sets_new(c->s, c->n);
	}
	mark_hidden(c);
	if (!first)
		c->explain = SIZE_MAX;
	if (c->o->verbose && first)
		verbose_events(c);
	memset(c->prev, 0, c->n * sizeof(*c->prev));
	return 0;
}

/* One row from a reading (or the difference of two readings). */
static void fill_row(struct stat_row *r, const struct stat_ctx *c, size_t i,
		     const struct pmu_value *v)
{
	const char *unit = pmu_session_event_unit(c->s, i, &r->scale);
	bool ns = pmu_session_event_status(c->s, i, NULL) ==
		PMU_EVENT_NOT_SUPPORTED;

	r->name = pmu_session_event_name(c->s, i);
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
}

static void print_rows(struct stat_ctx *c, size_t nrows, double wall_ns,
		       const double *ts)
{
	stat_metrics_compute(c->rows, nrows, wall_ns);
	for (size_t k = 0; k < nrows; k++)
		stat_out_row(c->out, c->o, &c->rows[k], ts);
	stat_sets_print(c->out, c->o, c->rows, nrows, ts);
	fflush(c->out);
}

static int read_values(struct stat_ctx *c)
{
	for (size_t i = 0; i < c->n; i++)
		c->cur[i].size = sizeof(struct pmu_value);
	int ret = c->n ? pmu_session_read(c->s, c->cur, c->n) : 0;

	if (ret < 0) {
		pmu_tool_err("cannot read counters: %s", strerror(-ret));
		return -1;
	}
	return 0;
}

/* -I: print what was counted since the previous tick. */
static void print_interval(struct stat_ctx *c)
{
	double now = now_s(), ts = now - c->t0;
	size_t k = 0;

	if (read_values(c) < 0)
		return;
	stat_sets_interval(c->sets, c->s);
	for (size_t i = 0; i < c->n; i++) {
		struct pmu_value d = c->cur[i];

		d.raw -= c->prev[i].raw;
		d.enabled -= c->prev[i].enabled;
		d.running -= c->prev[i].running;
		d.scaled = pmu_scale(d.raw, d.enabled, d.running);
		c->prev[i] = c->cur[i];
		if (c->hidden[i])
			continue;
		fill_row(&c->rows[k], c, i, &d);
		stat_sets_row_interval(c->sets, &c->rows[k++], c->s, i, &d);
	}
	print_rows(c, k, (now - c->last_ts) * 1e9, &ts);
	c->last_ts = now;
}

/* Fold the final reading of one run into the per-event accumulators. */
static void accumulate_run(struct stat_ctx *c)
{
	struct stat_row r;

	if (read_values(c) < 0)
		return;
	stat_sets_run_end(c->sets, c->s, c->cur);
	for (size_t i = 0; i < c->n; i++) {
		fill_row(&r, c, i, &c->cur[i]);
		if (r.status == PMU_EVENT_NOT_SUPPORTED)
			c->acc[i].not_supported = true;
		if (r.status != PMU_EVENT_OK)
			continue;
		acc_add(&c->acc[i], r.count);
		c->acc[i].running += r.running;
		c->acc[i].enabled += r.enabled;
	}
}

static void print_summary(struct stat_ctx *c, bool have_rusage)
{
	struct stat_times t = {
		.elapsed_s = c->elapsed.mean,
		.elapsed_noise_s = -1,
		.user_s = c->ru.ru_utime.tv_sec + c->ru.ru_utime.tv_usec * 1e-6,
		.sys_s = c->ru.ru_stime.tv_sec + c->ru.ru_stime.tv_usec * 1e-6,
		.have_rusage = have_rusage,
	};
	size_t k = 0;

	if (c->o->repeat > 1)
		t.elapsed_noise_s = c->elapsed.mean * acc_noise_pct(&c->elapsed) / 100;
	stat_out_header(c->out, c->o);
	for (size_t i = 0; i < c->n; i++) {
		struct stat_row *r = &c->rows[k];
		const struct stat_acc *a = &c->acc[i];
		struct pmu_value zero = { .size = sizeof(zero) };

		if (c->hidden[i])
			continue;
		fill_row(r, c, i, &zero);
		r->status = a->not_supported ? PMU_EVENT_NOT_SUPPORTED
			  : a->n ? PMU_EVENT_OK : PMU_EVENT_NOT_COUNTED;
		r->count = a->mean;
		r->running = a->n ? a->running / a->n : 0;
		r->enabled = a->n ? a->enabled / a->n : 0;
		r->show_running = !c->o->no_scale && a->n &&
				  a->running < a->enabled;
		r->noise_pct = c->o->repeat > 1 ? acc_noise_pct(a) : -1;
		stat_sets_row_summary(c->sets, r, c->s, i);
		k++;
	}
	print_rows(c, k, c->elapsed.mean * 1e9, NULL);
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

/* On a tick past the deadline, print an interval and move the deadline. */
static void interval_tick(struct stat_ctx *c, double *next)
{
	double step = c->o->interval_ms / 1000.0;
	double now = now_s();

	if (*next <= 0 || now < *next)
		return;
	print_interval(c);
	while (*next <= now)
		*next += step;
}

static void wait_set(sigset_t *set, bool with_child)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	if (with_child)
		sigaddset(set, SIGCHLD);
}

/* The command gets Ctrl-C from the terminal itself; a signal sent to pmu
 * alone (kill, si_code <= 0) is passed on so the command can stop. */
static int wait_child(struct stat_ctx *c, pid_t pid, int *status)
{
	double next = c->o->interval_ms ? c->t0 + c->o->interval_ms / 1000.0 : 0;
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
		sig = wait_signal(&set, next, &si);
		if ((sig == SIGINT || sig == SIGTERM) && si.si_code <= 0)
			kill(pid, sig);
		else if (sig == 0)
			interval_tick(c, &next);
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

/* No command: count until SIGINT/SIGTERM or until the process is gone. */
static void wait_target(struct stat_ctx *c)
{
	double next = c->o->interval_ms ? c->t0 + c->o->interval_ms / 1000.0 : 0;
	bool poll = c->o->target == PMU_TARGET_PID ||
		    c->o->target == PMU_TARGET_TID;
	sigset_t set;
	siginfo_t si;

	wait_set(&set, false);
	for (;;) {
		double deadline = next;
		int sig;

		if (poll && (deadline <= 0 || deadline > now_s() + 1))
			deadline = now_s() + 1;
		sig = wait_signal(&set, deadline, &si);
		if (sig == SIGINT || sig == SIGTERM)
			return;
		if (sig == 0) {
			interval_tick(c, &next);
			if (target_gone(c->o))
				return;
		}
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

static void finish_run(struct stat_ctx *c, double t0)
{
	double t1 = now_s();

	pmu_session_stop(c->s);
	if (c->o->interval_ms)
		print_interval(c);
	else
		accumulate_run(c);
	acc_add(&c->elapsed, t1 - t0);
}

/* --emulate: the session first, for the command line it runs. */
static int emu_prepare(struct stat_ctx *c, char ***cmd)
{
	int rc = open_session(c, 0);

	return rc ? rc : stat_emu_command((struct stat_opts *)c->o, c->s, cmd);
}

static int run_one(struct stat_ctx *c, bool first, int *status)
{
	struct launch l;
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
	if (c->o->target != PMU_TARGET_CHILD)
		pmu_session_start(c->s);
	if (first && c->o->interval_ms)
		stat_out_interval_header(c->out, c->o);
	c->t0 = c->last_ts = now_s();
	e = launch_release(&l);
	if (e == EPIPE)
		return report_early_death(c->o->argv[0], &l);
	if (e) {
		launch_abort(&l);
		return report_exec_error(c->o->argv[0], e);
	}
	explain_once(c);
	if (wait_child(c, l.pid, status) < 0) {
		pmu_tool_err("waiting for '%s': %s", c->o->argv[0], strerror(errno));
		return EXIT_PMU_INPUT;
	}
	finish_run(c, c->t0);
	return 0;
}

static int run_command(struct stat_ctx *c)
{
	int status = 0, rc;

	for (int i = 0; i < c->o->repeat; i++) {
		rc = run_one(c, i == 0, &status);
		if (rc)
			return rc;
	}
	if (!c->o->interval_ms)
		/* like perf: the command's own CPU times only when it alone
		 * was measured, once */
		print_summary(c, c->o->repeat == 1 &&
				 c->o->target == PMU_TARGET_CHILD);
	return exit_code(status);
}

static int run_target(struct stat_ctx *c)
{
	int rc = prepare_run(c, 0, true);

	if (rc)
		return rc;
	if (c->o->interval_ms)
		stat_out_interval_header(c->out, c->o);
	explain_once(c);
	pmu_session_start(c->s);
	c->t0 = c->last_ts = now_s();
	wait_target(c);
	finish_run(c, c->t0);
	if (!c->o->interval_ms)
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
		pmu_session_start(c->s);
		c->t0 = c->last_ts = now_s();
		if (pmu_session_feed(c->s, text, len, &err) < 0) {
			pmu_tool_err("%s: %s", c->o->stream, err.message);
			rc = EXIT_PMU_INPUT;
			break;
		}
		finish_run(c, c->t0);
	}
	free(text);
	if (!rc)
		print_summary(c, false);
	return rc;
}

/* What getopt_long returns for each option: the short letter, or a
 * value past any letter for options that have none. */
enum opt_id {
	OPT_EVENT = 'e', OPT_PID = 'p', OPT_TID = 't', OPT_ALL = 'a',
	OPT_CPU = 'C', OPT_INTERVAL = 'I', OPT_REPEAT = 'r', OPT_SEP = 'x',
	OPT_JSON = 'j', OPT_OUTPUT = 'o', OPT_VERBOSE = 'v', OPT_HELP = 'h',
	OPT_NO_SCALE = 256, OPT_SIM_MODEL, OPT_STREAM, OPT_SET, OPT_SWITCH,
	OPT_EMULATE, OPT_EMULATE_MODEL, OPT_EMULATE_REGIONS, OPT_EMULATE_OPT,
};

static const struct option long_opts[] = {
	{ "event", required_argument, NULL, OPT_EVENT },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "tid", required_argument, NULL, OPT_TID },
	{ "all-cpus", no_argument, NULL, OPT_ALL },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "interval-print", required_argument, NULL, OPT_INTERVAL },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "field-separator", required_argument, NULL, OPT_SEP },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "no-scale", no_argument, NULL, OPT_NO_SCALE },
	{ "sim-model", required_argument, NULL, OPT_SIM_MODEL },
	{ "stream", required_argument, NULL, OPT_STREAM },
	{ "emulate", no_argument, NULL, OPT_EMULATE },
	{ "emulate-model", required_argument, NULL, OPT_EMULATE_MODEL },
	{ "emulate-regions", no_argument, NULL, OPT_EMULATE_REGIONS },
	{ "emulate-opt", required_argument, NULL, OPT_EMULATE_OPT },
	{ "set", required_argument, NULL, OPT_SET },
	{ "switch", required_argument, NULL, OPT_SWITCH },
	{ "verbose", no_argument, NULL, OPT_VERBOSE },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fputs("usage: pmu stat [OPTIONS] [--] COMMAND [ARGS...]\n"
	      "       pmu stat [OPTIONS] -p PIDS | -t TIDS | -a [-C CPUS]\n"
	      "       pmu stat [OPTIONS] --sim-model MODEL --stream FILE\n"
	      "       pmu stat [OPTIONS] --emulate [--emulate-model M] [--] COMMAND...\n\n"
	      "Count events while COMMAND runs (or, without a command, on a\n"
	      "process, thread or CPUs until Ctrl-C) and print a perf-stat table.\n\n"
	      "  -e, --event EVENTS        events to count: comma list, {a,b} groups,\n"
	      "                            modifiers (:u :k ...), pmu/term=v/, sys:tracepoint;\n"
	      "                            repeatable (default: perf's default set)\n"
	      "  -p, --pid PID[,PID...]    count every thread of existing processes\n"
	      "  -t, --tid TID[,TID...]    count existing threads\n"
	      "  -a, --all-cpus            count system-wide on every CPU\n"
	      "  -C, --cpu CPUS            count system-wide on CPUS only, e.g. 0-3,5\n"
	      "  -I, --interval-print MS   print counts every MS milliseconds (>= 1)\n"
	      "  -r, --repeat N            run COMMAND N times, print means and spread\n"
	      "  -x, --field-separator SEP CSV output with separator SEP\n"
	      "  -j, --json                one JSON object per event and line\n"
	      "  -o, --output FILE         write the counts to FILE instead of stderr\n"
	      "      --no-scale            print raw counts, do not scale multiplexed events\n"
	      "      --sim-model MODEL     count on a simulated PMU ('pmu info --list-models')\n"
	      "      --stream FILE         ... the event stream FILE runs on it ('-': stdin;\n"
	      "                            docs/stream-format.md) instead of a COMMAND\n"
	      "      --emulate             run COMMAND under pmu's emulator and count on an\n"
	      "                            emulated PMU (no hardware PMU needed; valgrind)\n"
	      "      --emulate-model M     the model to emulate (default fam10h, with this\n"
	      "                            host's caches; a chosen model brings its own)\n"
	      "      --emulate-regions     count only between PMU_EMU_START/STOP (<pmu/emu.h>)\n"
	      "      --emulate-opt KEY=VAL emulator setting: I1=, D1=, LL=SIZE,ASSOC,LINE,\n"
	      "                            predictor=gshare|bimodal, costs=..., max-samples=N\n"
	      "      --set EVENTS          an event set: sets take turns counting (repeatable;\n"
	      "                            -e after it adds to the last set)\n"
	      "      --switch POLICY       when sets switch: time:MS of the command's running\n"
	      "                            time (default 4), or overflow:EVENT:N[:PERIOD]\n"
	      "                            (N overflows of EVENT every PERIOD, default 1000000)\n"
	      "  -v, --verbose             print library diagnostics and opened events\n"
	      "  -h, --help                print this help\n\n"
	      "Exit status: the command's own (128+N when killed by signal N),\n"
	      "1 for errors in pmu's input, 2 for usage errors. See pmu-stat(1).\n", f);
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("pmu: stat: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nRun 'pmu stat --help' for the options.\n", stderr);
	return EXIT_PMU_USAGE;
}

static bool parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
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
		return usage_error("CPU %s in -C '%s' does not exist: this "
				   "machine has CPUs 0-%ld", err->token, list,
				   ncpus - 1);
	if (err->kind == PMU_ERR_BAD_VALUE)
		return usage_error("bad CPU range in -C '%s': expected A-B "
				   "with A <= B", list);
	if (!list[0])
		return usage_error("empty CPU list for -C");
	if (!err->token[0] && (size_t)err->offset == strlen(list))
		return usage_error("bad CPU list '%s' for -C: trailing ','",
				   list);
	return usage_error("bad CPU list '%s' for -C at '%s': expected e.g. "
			   "0-3,5", list, list + err->offset);
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
		return usage_error("CPU %d in -C '%s' does not exist: this "
				   "machine has CPUs 0-%ld", top, list,
				   ncpus - 1);
	return 0;
}

static int set_target(struct stat_opts *o, enum pmu_target_kind t,
		      const char *flag)
{
	if (o->target != PMU_TARGET_CHILD && o->target != t)
		return usage_error("%s cannot be combined with another target "
				   "(-p, -t, -a/-C): choose one", flag);
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
			return usage_error("empty %s id in %s '%s': expected %s "
					   "ids > 0 separated by ','", what,
					   flag, val, what);
		snprintf(tok, sizeof(tok), "%.*s", (int)len, q);
		if (len >= sizeof(tok) || !parse_long(tok, 1, INT_MAX, &v))
			return usage_error("bad %s value '%.*s' in '%s': expected "
					   "%s ids > 0 separated by ','", flag,
					   (int)len, q, val, what);
		o->pids[o->npids++] = (pid_t)v;
		if (!q[len])
			return 0;
	}
}

static int set_numeric(struct stat_opts *o, enum opt_id id, const char *val)
{
	long v;

	if (id == OPT_INTERVAL) {
		if (!parse_long(val, 1, 86400000L, &v))
			return usage_error("bad -I value '%s': expected a whole "
					   "number of milliseconds >= 1", val);
		o->interval_ms = v;
	} else {
		if (!parse_long(val, 1, 1000000L, &v))
			return usage_error("bad -r value '%s': expected a number "
					   "of runs >= 1", val);
		o->repeat = (int)v;
	}
	return 0;
}

static int set_format(struct stat_opts *o, enum opt_id id, const char *val)
{
	enum stat_format f = id == OPT_JSON ? STAT_JSON : STAT_CSV;

	if (o->format != STAT_TEXT && o->format != f)
		return usage_error("-x and -j/--json both given: choose one "
				   "output format");
	if (id == OPT_SEP && !val[0])
		return usage_error("empty separator for -x: give e.g. -x ,");
	o->format = f;
	if (id == OPT_SEP)
		o->sep = val;
	return 0;
}

static const char *long_name(int val);

static int apply_opt(struct stat_opts *o, enum opt_id id, const char *val)
{
	switch (id) {
	case OPT_EVENT:
		o->events[o->nevents++] = val;
		return 0;
	case OPT_PID:
	case OPT_TID:
		return set_pid(o, id, val);
	case OPT_CPU:
		o->cpus = val;
		__attribute__((fallthrough)); /* -C implies system-wide */
	case OPT_ALL:
		return set_target(o, PMU_TARGET_CPUS, id == OPT_CPU ? "-C" : "-a");
	case OPT_INTERVAL:
	case OPT_REPEAT:
		return set_numeric(o, id, val);
	case OPT_SEP:
	case OPT_JSON:
		return set_format(o, id, val);
	case OPT_OUTPUT:
		o->outfile = val;
		return 0;
	case OPT_NO_SCALE:
		o->no_scale = true;
		return 0;
	case OPT_SIM_MODEL:
		o->sim_model = val;
		return 0;
	case OPT_STREAM:
		o->stream = val;
		return 0;
	case OPT_EMULATE:
	case OPT_EMULATE_MODEL:
	case OPT_EMULATE_REGIONS:
	case OPT_EMULATE_OPT:
		return stat_emu_option(o, long_name(id), val);
	case OPT_VERBOSE:
		o->verbose = true;
		return 0;
	case OPT_SET:
	case OPT_SWITCH:
		return stat_sets_opt(o, id == OPT_SET, val);
	case OPT_HELP:
		usage(stdout);
		return -1;
	}
	return 0;
}

/* The short options of long_opts, for getopt_long: "+" ends the
 * options at the command (as perf does: "pmu stat -e x cmd -flag"), ":"
 * reports a missing value as ':' so that the messages are ours. */
static void short_opts(char *buf)
{
	char *p = buf;

	*p++ = '+';
	*p++ = ':';
	for (const struct option *lo = long_opts; lo->name; lo++) {
		if (lo->val >= 256)
			continue;
		*p++ = (char)lo->val;
		if (lo->has_arg == required_argument)
			*p++ = ':';
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
		return usage_error("option '--%s' needs a value",
				   long_name(optopt));
	if (c == ':')
		return usage_error("option '-%c' needs a value", optopt);
	/* a known long option (optopt set) given a value it does not take */
	if (is_long && optopt)
		return usage_error("option '--%s' takes no value",
				   long_name(optopt));
	if (is_long)
		return usage_error("unknown option '%s'", arg);
	return usage_error("unknown option '-%c' in '%s'", optopt, arg);
}

/* A simulated run counts its stream: nothing else to target. */
static int check_sim(const struct stat_opts *o)
{
	if (!o->sim_model != !o->stream)
		return usage_error("--sim-model and --stream go together: the "
				   "stream is the program the simulated PMU "
				   "counts");
	if (o->argv)
		return usage_error("--stream is what runs on --sim-model; "
				   "drop the command '%s'", o->argv[0]);
	if (o->target != PMU_TARGET_CHILD)
		return usage_error("--sim-model counts its stream, not a "
				   "process, thread or CPU: drop -p/-t/-a/-C");
	if (o->interval_ms)
		return usage_error("-I needs a run that takes time; a stream "
				   "is counted at once: drop -I");
	return 0;
}

static int check_combination(struct stat_opts *o)
{
	int rc = o->emulate ? stat_emu_check(o) : 0;

	if (!rc)
		rc = stat_sets_check(o);

	if (rc)
		return rc;
	if (o->sim_model || o->stream)
		return check_sim(o);
	if (!o->argv && o->target == PMU_TARGET_CHILD) {
		usage(stderr);
		return usage_error("nothing to count: give a COMMAND or a "
				   "target (-p PID, -t TID, -a)");
	}
	if (o->repeat > 1 && !o->argv)
		return usage_error("-r %d repeats a COMMAND: give one after --",
				   o->repeat);
	if (o->repeat > 1 && o->interval_ms)
		return usage_error("-r and -I cannot be combined: drop one");
	if (o->cpus)
		return check_cpu_list(o->cpus);
	return 0;
}

/* Returns 0 to go on, -1 when done (help), or an exit status. */
static int parse_args(struct stat_opts *o, int argc, char **argv)
{
	char optstring[2 * (sizeof(long_opts) / sizeof(long_opts[0])) + 3];
	int c, rc;

	o->events = calloc((size_t)argc + 1, sizeof(*o->events));
	if (!o->events)
		return EXIT_PMU_INPUT;
	o->repeat = 1;
	o->sep = ",";
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
	o->default_events = o->nevents == 0;
	return check_combination(o);
}

static void ctx_free(struct stat_ctx *c)
{
	pmu_session_free(c->s);
	stat_sets_free(c->sets);
	free(c->cur);
	free(c->prev);
	free(c->rows);
	free(c->acc);
	free(c->hidden);
	if (c->out && c->out != stderr)
		fclose(c->out);
}

int cmd_stat(int argc, char **argv)
{
	struct stat_opts o = { 0 };
	struct stat_ctx c = { .o = &o, .out = stderr };
	sigset_t block;
	int rc;

	/* Line buffering: one write per line instead of one per field. */
	setvbuf(stderr, NULL, _IOLBF, 0);
	rc = parse_args(&o, argc, argv);
	if (rc) {
		free(o.events);
		free(o.pids);
		free(o.emu_settings);
		return rc < 0 ? 0 : rc;
	}
	if (o.outfile && !(c.out = fopen(o.outfile, "w"))) {
		pmu_tool_err("cannot write -o '%s': %s", o.outfile, strerror(errno));
		free(o.events);
		free(o.pids);
		free(o.emu_settings);
		return EXIT_PMU_INPUT;
	}
	if (o.verbose)
		pmu_set_print(verbose_print);
	/* Signals are taken synchronously; the command starts with pmu's
	 * original mask.  An inherited "SIGCHLD ignored" would make the
	 * kernel reap the command unseen and send no SIGCHLD at all. */
	signal(SIGCHLD, SIG_DFL);
	wait_set(&block, true);
	sigprocmask(SIG_BLOCK, &block, &c.child_mask);
	rc = o.sim_model ? run_stream(&c)
	     : o.argv ? run_command(&c) : run_target(&c);
	ctx_free(&c);
	free(o.events);
	free(o.pids);
	free(o.emu_settings);
	return rc;
}
