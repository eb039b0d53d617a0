/* SPDX-License-Identifier: MIT */
#ifndef PMU_TOOL_STAT_H
#define PMU_TOOL_STAT_H

#include <stdbool.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <sys/types.h>

#include <pmu/pmu.h>

enum stat_format { STAT_TEXT, STAT_CSV, STAT_JSON };

/* perf stat's default set on Linux 6.x (no frontend/backend stalls),
 * after its clock: task-clock, or cpu-clock system-wide. */
#define SYSTEM_EVENTS "context-switches,cpu-migrations," \
		      "page-faults,cycles,instructions,branches,branch-misses"
/* --emulate and --sim-model: the hardware events of that set (an
 * emulated or simulated PMU has no software events). */
#define EMU_DEFAULT_EVENTS "cycles,instructions,branches,branch-misses"

/* -G NAMES after the first `after` -e options. */
struct stat_cgroup_opt {
	size_t after;
	const char *names;
};

#define STAT_MAX_SETS 256

/* --set EVENTS (repeatable; -e after it adds to the last set) and
 * --switch POLICY. */
struct stat_set_opts {
	bool on;                   /* --set given */
	size_t first[STAT_MAX_SETS]; /* events[] index where set k+1 begins */
	size_t nfirst;
	const char *sw_arg;        /* --switch as given, NULL: none */
	struct pmu_switch_opts sw;
	char sw_event[256];
};

/* What the command line asked for. */
struct stat_opts {
	const char **events;       /* -e values, in order */
	size_t nevents;
	bool default_events;       /* no -e: perf's default set */
	int detailed;              /* -d repeated: 0..3 */
	bool null_run;             /* -n: no default events */
	bool transaction;          /* -T */
	struct stat_cgroup_opt *cgroups; /* -G, in order */
	size_t ncgroups;
	enum pmu_aggr_mode aggr;
	int cache_level;           /* --per-cache=LN, 0: the highest */
	long delay_ms;             /* -D: 0 none, -1 start disabled */
	long timeout_ms;           /* --timeout, 0 none */
	long interval_count;       /* --interval-count, 0 none */
	bool interval_clear;
	bool metric_only;
	int big_num;               /* -B 1, --no-big-num 0, default -1 */
	bool append;               /* --append (with -o) */
	enum pmu_target_kind target;
	pid_t *pids;               /* -p / -t lists, in the order given */
	size_t npids;
	const char *cpus;          /* -C */
	long interval_ms;          /* -I, 0 = off */
	uint64_t interval_insns;   /* -I Ni: guest instructions, 0 = off */
	const char *interval_arg;  /* -I as given */
	int repeat;                /* -r */
	enum stat_format format;
	const char *sep;           /* -x */
	const char *outfile;       /* -o */
	bool no_scale;
	bool no_merge;             /* --no-merge */
	bool regions;              /* --regions: the command's marked regions */
	bool per_rank;             /* --per-rank: an MPI job's rows per rank */
	bool verbose;
	const char **metrics;      /* -M values, in order */
	size_t nmetrics;
	bool metric_no_group;      /* --metric-no-group */
	const char *sim_model;     /* --sim-model: count a stream on it */
	const char *stream;        /* --stream */
	bool emulate;              /* --emulate: the command under the emulator */
	const char *emu_model;     /* --emulate-model */
	char *emu_settings;        /* --emulate-regions, --emulate-opt, -I */
	const char *emulated;      /* the model emulated, once known */
	char **argv;               /* the command, NULL when none */
	struct stat_set_opts sets; /* --set, --switch (stat_sets.c) */
};

/* -I in either unit. */
static inline bool stat_intervals(const struct stat_opts *o)
{
	return o->interval_ms || o->interval_insns;
}

/* perf's formats of derived figures. */
enum stat_mfmt {
	STAT_MF_RATE,              /* %8.3f */
	STAT_MF_PCT,               /* %7.2f%% */
	STAT_MF_IPC,               /* %7.2f and a space */
	STAT_MF_PCT5,              /* %5.2f%% */
	STAT_MF_WHOLE,             /* %8.0f */
};

/* One printed line: an event over a run, an interval or a mean of runs. */
struct stat_row {
	const struct pmu_aggr *agg; /* NULL: the global figure */
	const char *cgroup;        /* -G name of the event, NULL: none */
	bool cgroups;              /* some event has a cgroup (CSV column) */
	const char *name;
	const char *unit;          /* "" when the event has none */
	double scale;              /* raw count -> unit */
	enum pmu_event_status status;
	double count;              /* scaled (or raw) event count */
	double running, enabled;   /* ns */
	double noise_pct;          /* relative stddev of the mean; < 0: none */
	bool show_running;         /* print (xx.xx%) */
	double metric;
	const char *metric_unit;   /* NULL: no derived figure */
	enum stat_mfmt metric_fmt; /* how the text table prints it */
	bool metric_is_pct;
	/* event sets (stat_sets.c): set < 0 when the run has none */
	int set;
	double raw;                /* unscaled count */
	double err;                /* one standard error of count; < 0: none */
	double set_runs, set_active_ns;
	bool folded;               /* an instance merged into an earlier
				      row's count (that row holds it) */
	bool folded_switch;        /* --switch overflow copies summed in */
};

/* Wall and CPU time of the measured command. */
struct stat_times {
	double elapsed_s;
	double elapsed_noise_s;    /* stddev of the mean; < 0: single run */
	double user_s, sys_s;
	bool have_rusage;
};

/* stat_regions.c: --regions.  Before the run: a directory for the
 * command's region files, and the environment that tells the command's
 * libpmu to count (0, or an exit status after saying why); after it:
 * the regions printed (0, or an exit status), the directory removed. */
struct stat_ctx;
int stat_regions_prepare(struct stat_ctx *c);
/* --sim-model --stream: the stream's region statements, recorded on the
 * run's session (before the feed), then kept as the run's report. */
int stat_regions_record(struct stat_ctx *c);
int stat_regions_recorded(struct stat_ctx *c);
int stat_regions_print(struct stat_ctx *c);
void stat_regions_cleanup(struct stat_ctx *c);

/* stat_metrics.c: fill metric fields of every row (one aggregate's, of
 * st's session); wall_ns = elapsed.  The figures go through arrays of
 * one aggregate's events, allocated once a run (stat_derive_alloc: 0,
 * or -1 out of memory). */
struct stat_derive {
	double *counts;
	enum pmu_event_status *status;
	const char **cgroups;
	struct pmu_derived *d;
};
int stat_derive_alloc(struct stat_derive *b, size_t n);
void stat_derive_free(struct stat_derive *b);
void stat_metrics_compute(struct pmu_stat *st, struct stat_derive *b,
			  struct stat_row *rows, size_t n, double wall_ns);
/* What --metric-only shows: perf leaves out the per-second rates and
 * CPUs utilized. */
bool stat_metric_shown_alone(const struct stat_row *r);
/* A row's derived figure as the text table prints it. */
void stat_metric_format(char *buf, size_t sz, const struct stat_row *r);

/* stat_mexpr.c: -M, the catalog's metrics.  Build the set from the -M
 * lists (0, or an exit status after saying why), add its events to a
 * session, print the metrics shown on row k (k = nrows: those on no
 * row) after that row. */
struct pmu_metric_set;
int stat_mset_new(struct pmu_metric_set **ms, const struct stat_opts *o);
int stat_mset_add(struct pmu_metric_set *ms, struct pmu_session *s);
void stat_mset_print(FILE *f, const struct stat_opts *o,
		     const struct pmu_metric_set *ms,
		     const struct stat_row *rows, size_t nrows, size_t k,
		     double wall_ns);

/* stat_output.c */
void stat_out_header(FILE *f, const struct stat_opts *o);
void stat_out_interval_header(FILE *f, const struct stat_opts *o);
void stat_out_ts(FILE *f, const struct stat_opts *o, double ts,
		 const char *after);
void stat_out_row(FILE *f, const struct stat_opts *o,
		  const struct stat_row *r, const double *timestamp);
void stat_out_footer(FILE *f, const struct stat_opts *o,
		     const struct stat_times *t);
/* --metric-only: the line of metric names, then one line of values per
 * aggregate (rows[0..n) of one aggregate each time). */
void stat_out_metric_header(FILE *f, const struct stat_opts *o,
			    const struct stat_row *rows, size_t n,
			    const double *timestamp);
void stat_out_metric_line(FILE *f, const struct stat_opts *o,
			  const struct stat_row *rows, size_t n,
			  const double *timestamp);

/* stat_opts.c: the command line; 0 to go on, -1 when done (--help),
 * else an exit status (after a message). */
int stat_parse_args(struct stat_opts *o, int argc, char **argv);
void stat_opts_free(struct stat_opts *o);
void stat_usage(FILE *f);
int stat_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* --emulate, --emulate-model, --emulate-regions, --emulate-opt (stat
 * and record): what they ask for. */
struct emu_cli {
	bool emulate;
	const char *model;
	char *settings;          /* "KEY=VALUE ...", allocated */
};

int emu_cli_option(struct emu_cli *e, const char *cmd, const char *name,
		   const char *val);

/* stat_emu.c: --emulate's options, checks and session. */
int stat_emu_option(struct stat_opts *o, const char *name, const char *val);
int stat_emu_check(struct stat_opts *o);
void stat_emu_session_opts(const struct stat_opts *o,
			   struct pmu_session_opts *so);
/* The command line of the child (*cmd, freed by the caller) for session
 * s, which the caller made with the options of stat_emu_session_opts;
 * 0 or an exit status after a message. */
int stat_emu_command(struct stat_opts *o, struct pmu_session *s, char ***cmd);
/* stat_sets.c: event sets (--set, --switch). */
struct stat_sets;
/* --set (is_set) or --switch; 0 or an exit status after a message. */
int stat_sets_opt(struct stat_opts *o, bool is_set, const char *val);
/* What --set/--switch need of the other options. */
int stat_sets_check(const struct stat_opts *o);
/* Before events[i] is added: start its set if it begins one. */
int stat_sets_before_add(struct pmu_session *s, const struct stat_opts *o,
			 size_t i);
/* After every event is added: the switch policy. */
int stat_sets_after_add(struct pmu_session *s, const struct stat_opts *o);
/* Bookkeeping of a run of several sets (NULL otherwise: every call below
 * accepts NULL and then does nothing). */
struct stat_sets *stat_sets_new(struct pmu_session *s, size_t nev);
void stat_sets_free(struct stat_sets *t);
/* A run begins (-r): its intervals count from its session's start. */
void stat_sets_run_start(struct stat_sets *t);
void stat_sets_run_end(struct stat_sets *t, struct pmu_session *s,
		       const struct pmu_value *v);
void stat_sets_interval(struct stat_sets *t, struct pmu_session *s);
void stat_sets_row_interval(const struct stat_sets *t, struct stat_row *r,
			    const struct pmu_session *s, size_t i,
			    const struct pmu_value *d);
void stat_sets_row_summary(const struct stat_sets *t, struct stat_row *r,
			   const struct pmu_session *s, size_t i);
/* Text: a line per set after the rows; -x and --json: extra fields. */
void stat_sets_print(FILE *f, const struct stat_opts *o,
		     const struct stat_row *rows, size_t n, const double *ts);
void stat_sets_csv(FILE *f, const struct stat_opts *o,
		   const struct stat_row *r);
void stat_sets_json(FILE *f, const struct stat_row *r, bool emulated);

/* launch.c: fork a command that waits until released, then execs. */
struct launch {
	pid_t pid;
	int go_fd;    /* write end: one byte releases the child */
	int err_fd;   /* read end: errno of a failed exec, EOF on success */
	bool out_to_err; /* the command's stdout is pmu's stderr (set
			    before launch_prepare) */
};

int launch_prepare(struct launch *l, char **argv, const sigset_t *child_mask);
/* Returns 0 once the child has exec'd, else the exec errno (> 0);
 * EPIPE: the child died before its release and is left to reap. */
int launch_release(struct launch *l);
/* The release alone: 0, or an errno (EPIPE as above).  Whether the exec
 * worked is launch_exec_result()'s, once the child has ended: waiting
 * for it at the exec would wake the caller there, and on one CPU take
 * the CPU from the command just as its counting starts. */
int launch_go(struct launch *l);
/* After the child ended: the errno of its exec, or 0 when it ran. */
int launch_exec_result(struct launch *l);
/* Kill (if still held) and reap a child that will not be measured. */
void launch_abort(struct launch *l);

#endif
