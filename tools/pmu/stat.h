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

/* What the command line asked for. */
struct stat_opts {
	const char **events;       /* -e values, in order */
	size_t nevents;
	bool default_events;       /* no -e: perf's default set */
	enum pmu_target_kind target;
	pid_t *pids;               /* -p / -t lists, in the order given */
	size_t npids;
	const char *cpus;          /* -C */
	long interval_ms;          /* -I, 0 = off */
	int repeat;                /* -r */
	enum stat_format format;
	const char *sep;           /* -x */
	const char *outfile;       /* -o */
	bool no_scale;
	bool verbose;
	const char *sim_model;     /* --sim-model: count a stream on it */
	const char *stream;        /* --stream */
	bool emulate;              /* --emulate: the command under the emulator */
	const char *emu_model;     /* --emulate-model */
	char *emu_settings;        /* --emulate-regions, --emulate-opt, -I */
	const char *emulated;      /* the model emulated, once known */
	char **argv;               /* the command, NULL when none */
};

/* One printed line: an event over a run, an interval or a mean of runs. */
struct stat_row {
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
	bool metric_is_pct;
};

/* Wall and CPU time of the measured command. */
struct stat_times {
	double elapsed_s;
	double elapsed_noise_s;    /* stddev of the mean; < 0: single run */
	double user_s, sys_s;
	bool have_rusage;
};

/* stat_metrics.c: fill metric fields of every row; wall_ns = elapsed. */
void stat_metrics_compute(struct stat_row *rows, size_t n, double wall_ns);

/* stat_output.c */
void stat_out_header(FILE *f, const struct stat_opts *o);
void stat_out_interval_header(FILE *f, const struct stat_opts *o);
void stat_out_row(FILE *f, const struct stat_opts *o,
		  const struct stat_row *r, const double *timestamp);
void stat_out_footer(FILE *f, const struct stat_opts *o,
		     const struct stat_times *t);

/* stat_emu.c: --emulate's options, checks and session. */
int stat_emu_option(struct stat_opts *o, const char *name, const char *val);
int stat_emu_check(struct stat_opts *o);
void stat_emu_session_opts(const struct stat_opts *o,
			   struct pmu_session_opts *so);
/* The command line of the child (*cmd, freed by the caller) for session
 * s, which the caller made with the options of stat_emu_session_opts;
 * 0 or an exit status after a message. */
int stat_emu_command(struct stat_opts *o, struct pmu_session *s, char ***cmd);

/* launch.c: fork a command that waits until released, then execs. */
struct launch {
	pid_t pid;
	int go_fd;    /* write end: one byte releases the child */
	int err_fd;   /* read end: errno of a failed exec, EOF on success */
};

int launch_prepare(struct launch *l, char **argv, const sigset_t *child_mask);
/* Returns 0 once the child has exec'd, else the exec errno (> 0);
 * EPIPE: the child died before its release and is left to reap. */
int launch_release(struct launch *l);
/* Kill (if still held) and reap a child that will not be measured. */
void launch_abort(struct launch *l);

#endif
