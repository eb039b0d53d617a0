/* SPDX-License-Identifier: MIT */
/* pmu stat: the run loop - the command, deadlines, signals. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cmd.h"
#include "stat.h"
#include "stat_ctx.h"


/* Wait for one of `set` until `deadline` (0: forever); 0 on timeout. */
static int wait_signal(const sigset_t *set, double deadline, siginfo_t *si)
{
	struct timespec ts;
	double left;
	int sig;

	memset(si, 0, sizeof(*si));
	if (deadline <= 0)
		return sigwaitinfo(set, si);
	left = deadline - stat_now_s();
	if (left < 0)
		left = 0;
	ts.tv_sec = (time_t)left;
	ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
	sig = sigtimedwait(set, si, &ts);
	return sig < 0 && errno == EAGAIN ? 0 : sig;
}

void stat_wait_set(sigset_t *set, bool with_child)
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
	c->t0 = c->last_ts = stat_now_s();
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
	double now = stat_now_s(), step = c->o->interval_ms / 1000.0;

	if (c->enable_at > 0 && now >= c->enable_at)
		enable_counting(c, next);
	if (c->stop_at > 0 && now >= c->stop_at) {
		c->stop_at = 0;
		c->timed_out = true;
		return true;
	}
	if (c->enable_at <= 0 && *next > 0 && now >= *next) {
		stat_print_interval(c);
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

	stat_wait_set(&set, true);
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

	stat_wait_set(&set, false);
	for (;;) {
		double deadline = next_deadline(c, next);
		int sig;

		if (poll && (deadline <= 0 || deadline > stat_now_s() + 1))
			deadline = stat_now_s() + 1;
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
	double t1 = stat_now_s();
	int rc = 0;

	if (c->s)
		pmu_session_stop(c->s);
	if (c->o->interval_ms)
		stat_print_interval(c);
	else if (c->o->interval_insns)
		rc = c->s ? stat_print_marks(c) : 0;
	else
		stat_accumulate_run(c);
	pmu_runstat_add(&c->elapsed.rs, t1 - t0);
	return rc;
}

/* Counting starts at the command's exec, after -D's delay, or (-D -1)
 * never; elapsed time counts from the start, as perf's does. */
static void arm_run(struct stat_ctx *c)
{
	const struct stat_opts *o = c->o;

	c->t0 = c->last_ts = stat_now_s();
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
	int rc = stat_make_session(c);

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
	if (c->o->regions && !c->regions_dir &&
	    (rc = stat_regions_prepare(c))) {
		free(cmd);
		return rc;
	}
	rc = launch_prepare(&l, cmd ? cmd : c->o->argv, &c->child_mask);
	free(cmd);
	if (rc < 0) {
		pmu_tool_err("cannot start '%s': %s", c->o->argv[0], strerror(-rc));
		return EXIT_PMU_INPUT;
	}
	rc = stat_prepare_run(c, l.pid, first);
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
		stat_explain_once(c);
	if (wait_child(c, l.pid, status) < 0) {
		pmu_tool_err("waiting for '%s': %s", c->o->argv[0], strerror(errno));
		return EXIT_PMU_INPUT;
	}
	/* known now that the command has ended, as perf learns it */
	if ((e = launch_exec_result(&l)))
		return report_exec_error(c->o->argv[0], e);
	stat_explain_once(c);
	say_signal(c, *status);
	return finish_run(c, c->t0) ? EXIT_PMU_INPUT : 0;
}

int stat_run_command(struct stat_ctx *c)
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
		stat_print_summary(c, c->o->repeat == 1 &&
				 c->o->target == PMU_TARGET_CHILD);
	if (c->o->regions && (rc = stat_regions_print(c)))
		return rc;
	/* stopped at --timeout as asked: a success, as for perf */
	return c->timed_out ? 0 : exit_code(status);
}

int stat_run_target(struct stat_ctx *c)
{
	int rc = stat_prepare_run(c, 0, true);

	if (rc)
		return rc;
	stat_explain_once(c);
	arm_run(c);
	wait_target(c);
	finish_run(c, c->t0);
	if (!stat_intervals(c->o))
		stat_print_summary(c, false);
	return 0;
}

/* A stream is at most this large, as for 'pmu sim'. */
#define MAX_STREAM_BYTES (64u << 20)

/* --sim-model: the stream, run on the simulated model as the command
 * would run (-r times), then the same table. */
int stat_run_stream(struct stat_ctx *c)
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
		rc = stat_prepare_run(c, 0, i == 0);
		if (rc)
			break;
		if (c->s)
			pmu_session_start(c->s);
		c->t0 = c->last_ts = stat_now_s();
		if (c->o->regions && c->s && (rc = stat_regions_record(c)))
			break;
		if (c->s && pmu_session_feed(c->s, text, len, &err) < 0) {
			pmu_tool_err("%s: %s", c->o->stream, err.message);
			rc = EXIT_PMU_INPUT;
			break;
		}
		stat_explain_once(c);
		finish_run(c, c->t0);
		if (c->o->regions && (rc = stat_regions_recorded(c)))
			break;
	}
	free(text);
	if (!rc)
		stat_print_summary(c, false);
	if (!rc && c->o->regions)
		rc = stat_regions_print(c);
	return rc;
}
