/* SPDX-License-Identifier: MIT */
/* What the files of pmu stat share: one invocation's state between its
 * runs, and the calls from one file to another (stat.c: sessions and
 * aggregates; stat_explain.c: what a run leaves out and why;
 * stat_print.c: rows, intervals and summaries; stat_run.c: the run
 * loop, waiting and signals). */
#ifndef PMU_TOOL_STAT_CTX_H
#define PMU_TOOL_STAT_CTX_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

#include "stat.h"

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
	struct stat_derive derive; /* [n]: the derived figures' arrays */
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
	char *regions_dir;         /* --regions: the command's region files */
	struct pmu_metric_set *regions_mset; /* --regions -M: the metrics */
	size_t regions_nev;        /* events the command counts for them */
	struct pmu_region_recorder *recorder; /* --stream's regions */
	struct pmu_region_report *regions_report; /* ... once recorded */
};

static inline double stat_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The run's session and its events, with -G's cgroups; not open yet. */
int stat_make_session(struct stat_ctx *c);

/* Open the next run's session; the first run also sizes the arrays. */
int stat_prepare_run(struct stat_ctx *c, pid_t child, bool first);

/* Read every aggregate into c->cur; -1 after saying why. */
int stat_read_values(struct stat_ctx *c);

/* Events pmu adds (the default set, -d's) are left out of the text
 * table when this machine cannot count them (one line says why);
 * events the user named are always shown, and so is everything of a
 * simulated run, whose PMU is chosen, not found.  -x and --json keep
 * perf's rows and carry no prose. */
void stat_mark_hidden(struct stat_ctx *c);

/* Said once, after the command started, so a failed exec is not buried. */
void stat_explain_once(struct stat_ctx *c);

/* -v: each event as it was opened. */
void stat_verbose_events(const struct stat_ctx *c);

/* -I: print what was counted since the previous tick. */
void stat_print_interval(struct stat_ctx *c);

/* -I Ni, the command ended: each instruction interval, at the guest
 * instructions counted up to its end; no wall time, so that runs print
 * the same.  -1 when the emulator's intervals cannot be had. */
int stat_print_marks(struct stat_ctx *c);

/* Fold the final reading of one run into the accumulators. */
void stat_accumulate_run(struct stat_ctx *c);

/* The table of the runs (their means), with the footer. */
void stat_print_summary(struct stat_ctx *c, bool have_rusage);

/* The signals a run waits for (SIGCHLD too with a command). */
void stat_wait_set(sigset_t *set, bool with_child);

/* The runs: of a command, of existing processes, threads or CPUs, or
 * (--sim-model) of a stream on a simulated PMU; an exit status. */
int stat_run_command(struct stat_ctx *c);
int stat_run_target(struct stat_ctx *c);
int stat_run_stream(struct stat_ctx *c);

#endif
