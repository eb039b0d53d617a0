/* SPDX-License-Identifier: MIT */
/*
 * Wall time and peak memory of two commands, run alternately:
 *
 *	exec-cost [-n RUNS] [-w WARMUP] [-g TIME_GOAL] [-m RSS_GOAL]
 *	          -l LABEL -a "CMD A..." -p PEER -b "CMD B..."
 *
 * Each run is fork + exec + wait4 with stdout and stderr on /dev/null.
 * Wall time is taken around fork..wait4; peak memory is the waited
 * child's ru_maxrss (the largest resident set of the process and of the
 * descendants it waited for), measured the same way for both commands.
 * Commands are split on blanks; they need no shell quoting.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

#define MAX_ARGS 64

struct cmd {
	char *argv[MAX_ARGS];
	double *wall_us;
	double *rss_kib;
};

static int split_cmd(char *line, struct cmd *c)
{
	size_t n = 0;

	for (char *tok = strtok(line, " \t"); tok; tok = strtok(NULL, " \t")) {
		if (n + 1 >= MAX_ARGS)
			return -1;
		c->argv[n++] = tok;
	}
	c->argv[n] = NULL;
	return n ? 0 : -1;
}

static void child_exec(char **argv)
{
	int null = open("/dev/null", O_RDWR);

	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
	}
	execvp(argv[0], argv);
	_exit(127);
}

/* One run; returns the exit status or -1. */
static int run_once(struct cmd *c, double *wall_us, double *rss_kib)
{
	struct rusage ru;
	uint64_t t0 = bench_now_ns();
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0)
		child_exec(c->argv);
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR)
			return -1;
	*wall_us = (double)(bench_now_ns() - t0) / 1e3;
	*rss_kib = (double)ru.ru_maxrss;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* One run that must succeed; says which command failed and how. */
static int run_checked(struct cmd *c, double *wall_us, double *rss_kib)
{
	int rc = run_once(c, wall_us, rss_kib);

	if (rc)
		fprintf(stderr, "exec-cost: '%s' failed: %s %d\n", c->argv[0],
			rc < 0 ? "error" : "exit status", rc < 0 ? errno : rc);
	return rc;
}

static int run_pair(struct cmd *a, struct cmd *b, int runs, int warmup)
{
	double w, r;

	for (int i = 0; i < warmup; i++)
		if (run_checked(a, &w, &r) || run_checked(b, &w, &r))
			return -1;
	/* Alternate which command goes first so drift hits both alike. */
	for (int i = 0; i < runs; i++) {
		struct cmd *first = i % 2 ? b : a, *second = i % 2 ? a : b;

		if (run_checked(first, &first->wall_us[i], &first->rss_kib[i]) ||
		    run_checked(second, &second->wall_us[i],
				&second->rss_kib[i]))
			return -1;
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: exec-cost [-n RUNS] [-w WARMUP] [-g TIME_GOAL] "
		"[-m RSS_GOAL] -l LABEL -a CMD -p PEER -b CMD\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct cmd a = { 0 }, b = { 0 };
	char *cmd_a = NULL, *cmd_b = NULL;
	const char *label = "command", *peer = "peer";
	double time_goal = 0, rss_goal = 0;
	char what[160];
	int runs = 200, warmup = 5, opt, rc = 1;

	while ((opt = getopt(argc, argv, "n:w:g:m:l:a:p:b:")) != -1) {
		switch (opt) {
		case 'n': runs = atoi(optarg); break;
		case 'w': warmup = atoi(optarg); break;
		case 'g': time_goal = atof(optarg); break;
		case 'm': rss_goal = atof(optarg); break;
		case 'l': label = optarg; break;
		case 'a': cmd_a = optarg; break;
		case 'p': peer = optarg; break;
		case 'b': cmd_b = optarg; break;
		default: usage();
		}
	}
	if (!cmd_a || !cmd_b || runs < 1 || warmup < 0 ||
	    split_cmd(cmd_a, &a) || split_cmd(cmd_b, &b))
		usage();
	a.wall_us = calloc((size_t)runs, sizeof(double));
	a.rss_kib = calloc((size_t)runs, sizeof(double));
	b.wall_us = calloc((size_t)runs, sizeof(double));
	b.rss_kib = calloc((size_t)runs, sizeof(double));
	if (!a.wall_us || !a.rss_kib || !b.wall_us || !b.rss_kib)
		goto out;
	if (run_pair(&a, &b, runs, warmup))
		goto out;
	snprintf(what, sizeof(what), "%s: wall time, median of %d", label, runs);
	bench_row(what, "us", bench_median(a.wall_us, (size_t)runs), peer,
		  bench_median(b.wall_us, (size_t)runs), time_goal);
	snprintf(what, sizeof(what), "%s: peak RSS, median of %d", label, runs);
	bench_row(what, "KiB", bench_median(a.rss_kib, (size_t)runs), peer,
		  bench_median(b.rss_kib, (size_t)runs), rss_goal);
	rc = 0;
out:
	free(a.wall_us); free(a.rss_kib); free(b.wall_us); free(b.rss_kib);
	return rc;
}
