/* SPDX-License-Identifier: MIT */
/*
 * pmu serve: an exporter of counters for Prometheus.  The counters stay
 * open; a reading thread reads them every interval (the counting engine,
 * pmu_stat_read), computes the metrics over that interval and renders
 * the exposition in both formats; each scrape is handed a copy of the
 * latest text, so that scrapers never wait for the counters nor the
 * counters for them.  Targets: the machine (-a, the default), cgroups
 * (-G, or --per-cgroup: every cgroup of a subtree, followed as they come
 * and go) or processes (-p).
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <pmu/pmu.h>
#include <pmu/metric.h>
#include <pmu/session.h>
#include <pmu/stat.h>

#include "cmd.h"
#include "serve.h"

#define DEFAULT_LISTEN "127.0.0.1:9464"
#define DEFAULT_EVENTS "task-clock,context-switches,cpu-migrations," \
		       "page-faults,cycles,instructions,branches,branch-misses"
#define MAX_DEPTH 32

struct target {
	struct target *next;
	char *cgroup;              /* label (the path under the mount) */
	int pid;
	struct pmu_session *s;
	struct pmu_stat *st;
	struct pmu_metric_set *ms;
	size_t naggr, nev;
	struct pmu_aggr *aggr;     /* [naggr] */
	struct pmu_value *cur, *prev; /* [naggr * nev] */
	uint64_t t_prev;           /* when prev was read (ns) */
	bool seen;                 /* found by the last rescan */
};

struct serve {
	/* options */
	const char *events, *metrics, *cpus, *listen, *per_cgroup;
	char **cgroups;
	pid_t *pids;
	size_t ncgroups, npids;
	bool per_cpu, print, print_om;
	unsigned interval_ms, threads;
	/* state (the reading thread's) */
	struct target *targets;
	char mount[4096];          /* the cgroup hierarchy perf counts by */
	uint64_t errors, ticks;
	char last_err[512];
	/* the latest exposition (under lock) */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool stop;
	char *text[2];             /* [0] Prometheus 0.0.4, [1] OpenMetrics */
	size_t len[2];
	uint64_t scrapes;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void usage(FILE *f)
{
	fputs("usage: pmu serve [OPTIONS]\n"
	      "\n"
	      "Keep counters open and answer GET /metrics with them, in\n"
	      "Prometheus' text format or OpenMetrics (by the Accept header).\n"
	      "\n"
	      "  -e, --event LIST        events to count (perf's syntax; default:\n"
	      "                          perf stat's default events)\n"
	      "  -M, --metrics LIST      metrics or metric groups, as gauges over\n"
	      "                          each reading interval\n"
	      "  -a, --all-cpus          the whole machine (the default target)\n"
	      "  -C, --cpu LIST          only these CPUs (\"0-3,6\")\n"
	      "  -G, --cgroup LIST       these cgroups, one target each\n"
	      "      --per-cgroup[=DIR]  every cgroup under DIR (default /) of\n"
	      "                          the hierarchy perf counts by, followed\n"
	      "                          as cgroups come and go\n"
	      "  -p, --pid LIST          these processes, one target each\n"
	      "  -A, --per-cpu           one series per CPU (not with -p)\n"
	      "  -l, --listen ADDR:PORT  where to listen (default " DEFAULT_LISTEN
	      ";\n"
	      "                          :PORT is 127.0.0.1:PORT)\n"
	      "  -I, --interval MS       reading interval (default 1000, at\n"
	      "                          least 10)\n"
	      "      --threads N         HTTP threads (default 4)\n"
	      "      --print[=FORMAT]    read once after one interval, print the\n"
	      "                          exposition and exit (FORMAT: prometheus,\n"
	      "                          the default, or openmetrics)\n"
	      "  -h, --help              this text\n"
	      "\n"
	      "Stops on SIGINT or SIGTERM.  Series: pmu_event_total{event,...},\n"
	      "pmu_event_enabled_seconds_total, pmu_event_running_seconds_total,\n"
	      "pmu_metric{metric,...}, pmu_up; see pmu-serve(1).\n", f);
}

/* Split a comma list into an array (the list's own copy). */
static int split(const char *list, char ***out, size_t *n)
{
	char *copy = strdup(list), *save = NULL, *tok;
	char **v = NULL;

	*n = 0;
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char **nv = realloc(v, (*n + 1) * sizeof(*v));

		if (!nv || !(nv[*n] = strdup(tok))) {
			free(nv ? nv : v);
			free(copy);
			return -ENOMEM;
		}
		v = nv;
		(*n)++;
	}
	free(copy);
	*out = v;
	return 0;
}

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void target_free(struct target *t)
{
	if (!t)
		return;
	pmu_stat_free(t->st);
	pmu_metric_set_free(t->ms);
	pmu_session_free(t->s);
	free(t->aggr);
	free(t->cur);
	free(t->prev);
	free(t->cgroup);
	free(t);
}

/* Note an error: counted, and said once until another one comes. */
static void note(struct serve *sv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note(struct serve *sv, const char *fmt, ...)
{
	char msg[sizeof(sv->last_err)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sv->errors++;
	if (strcmp(msg, sv->last_err)) {
		pmu_tool_err("serve: %s", msg);
		snprintf(sv->last_err, sizeof(sv->last_err), "%s", msg);
	}
}

/* The events (and metrics' events) added to a new session. */
static struct pmu_session *new_session(struct serve *sv,
				       struct pmu_metric_set **ms,
				       struct pmu_error *err)
{
	struct pmu_session *s = pmu_session_new(err);

	*ms = NULL;
	if (!s)
		return NULL;
	if (sv->events && pmu_session_add(s, sv->events, err))
		goto fail;
	if (sv->metrics &&
	    (!(*ms = pmu_metric_set_new(sv->metrics, NULL, err)) ||
	     pmu_metric_set_add(*ms, s, err)))
		goto fail;
	return s;
fail:
	pmu_metric_set_free(*ms);
	*ms = NULL;
	pmu_session_free(s);
	return NULL;
}

/* A target counting: the machine (cgroup and pid unset), a cgroup or a
 * process.  NULL with *err. */
static struct target *target_open(struct serve *sv, const char *cgroup,
				  int pid, struct pmu_error *err)
{
	struct target *t = calloc(1, sizeof(*t));
	PMU_OPTS(pmu_open_opts, oo, .target = PMU_TARGET_CPUS,
		 .cpus = sv->cpus);
	PMU_OPTS(pmu_stat_opts, so, .mode = sv->per_cpu ? PMU_AGGR_CPU
							 : PMU_AGGR_GLOBAL);
	size_t n;

	if (!t || (cgroup && !(t->cgroup = strdup(cgroup)))) {
		target_free(t);
		pmu_tool_err("serve: out of memory");
		return NULL;
	}
	t->pid = pid;
	if (pid) {
		oo.target = PMU_TARGET_PID;
		oo.pid = pid;
		oo.cpus = NULL;
	}
	if (!(t->s = new_session(sv, &t->ms, err)))
		goto fail;
	t->nev = pmu_session_nevents(t->s);
	for (size_t i = 0; cgroup && i < t->nev; i++)
		if (pmu_session_set_cgroup(t->s, i, cgroup, err))
			goto fail;
	if (pmu_session_open(t->s, &oo, err) || pmu_session_start(t->s))
		goto fail;
	if (!(t->st = pmu_stat_new(t->s, &so, err)))
		goto fail;
	t->naggr = pmu_stat_naggr(t->st);
	n = t->naggr * t->nev;
	t->aggr = calloc(t->naggr, sizeof(*t->aggr));
	t->cur = calloc(n + 1, sizeof(*t->cur));
	t->prev = calloc(n + 1, sizeof(*t->prev));
	if (!t->aggr || !t->cur || !t->prev) {
		err->code = -ENOMEM;
		snprintf(err->message, sizeof(err->message), "out of memory");
		goto fail;
	}
	for (size_t a = 0; a < t->naggr; a++) {
		t->aggr[a].size = sizeof(t->aggr[a]);
		pmu_stat_aggr(t->st, a, &t->aggr[a]);
	}
	for (size_t i = 0; i < n; i++)
		t->cur[i].size = t->prev[i].size = sizeof(t->cur[i]);
	t->t_prev = now_ns();
	return t;
fail:
	target_free(t);
	return NULL;
}

/* Targets in the order found (the exposition's order). */
static void add_target(struct serve *sv, struct target *t)
{
	struct target **p = &sv->targets;

	while (*p)
		p = &(*p)->next;
	*p = t;
}

static struct target *find_cgroup(struct serve *sv, const char *label)
{
	for (struct target *t = sv->targets; t; t = t->next)
		if (t->cgroup && !strcmp(t->cgroup, label))
			return t;
	return NULL;
}

/* One cgroup found by a rescan: kept, or opened. */
static void found_cgroup(struct serve *sv, const char *label)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct target *t = find_cgroup(sv, label);

	if (t) {
		t->seen = true;
		return;
	}
	if (!(t = target_open(sv, label, 0, &err))) {
		/* gone between the directory walk and the open: not an
		 * error, it is simply not there any more */
		if (err.code != -ENOENT)
			note(sv, "cgroup %s: %s", label, err.message);
		return;
	}
	t->seen = true;
	add_target(sv, t);
}

/* Every directory under path (label: its name in the hierarchy). */
static void walk(struct serve *sv, const char *path, const char *label,
		 int depth)
{
	DIR *d;
	struct dirent *e;

	found_cgroup(sv, label);
	if (depth >= MAX_DEPTH || !(d = opendir(path)))
		return;
	while ((e = readdir(d))) {
		char *sub = NULL, *sublabel = NULL;

		if (e->d_name[0] == '.' ||
		    (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN))
			continue;
		if (asprintf(&sub, "%s/%s", path, e->d_name) >= 0 &&
		    asprintf(&sublabel, "%s%s%s", label,
			     strcmp(label, "/") ? "/" : "", e->d_name) >= 0) {
			struct stat st;

			if (!stat(sub, &st) && S_ISDIR(st.st_mode))
				walk(sv, sub, sublabel, depth + 1);
		}
		free(sub);
		free(sublabel);
	}
	closedir(d);
}

/* --per-cgroup: the subtree now; targets of vanished cgroups dropped. */
static void rescan(struct serve *sv)
{
	char *root = NULL;
	const char *dir = sv->per_cgroup;

	for (struct target *t = sv->targets; t; t = t->next)
		t->seen = false;
	if (asprintf(&root, "%s%s%s", sv->mount, *dir == '/' ? "" : "/",
		     strcmp(dir, "/") ? dir : "") >= 0) {
		char label[4096];

		snprintf(label, sizeof(label), "%s%s", *dir == '/' ? "" : "/",
			 dir);
		/* "/a/" and "/a" are one cgroup */
		for (size_t n = strlen(label); n > 1 && label[n - 1] == '/';)
			label[--n] = 0;
		walk(sv, root, label, 0);
	}
	free(root);
	for (struct target **p = &sv->targets; *p;) {
		struct target *t = *p;

		if (!t->seen) {
			*p = t->next;
			target_free(t);
		} else {
			p = &t->next;
		}
	}
}

/* Growable arrays of the snapshot. */
static int grow(void **v, size_t *cap, size_t n, size_t elem)
{
	void *nv;

	if (n < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : 64;
	if (!(nv = realloc(*v, *cap * elem)))
		return -ENOMEM;
	*v = nv;
	return 0;
}

/* Read target t into the snapshot; -errno on a failed read. */
static int read_target(struct serve *sv, struct target *t,
		       struct serve_snapshot *sn, size_t *cs, size_t *cm)
{
	size_t nev = t->nev, n = t->naggr * nev;
	uint64_t now = now_ns();
	double dur = (double)(now - t->t_prev);
	double *counts = calloc(nev + 1, sizeof(*counts));
	struct pmu_value *swap;
	ssize_t r;

	if (!counts)
		return -ENOMEM;
	swap = t->prev;
	t->prev = t->cur;
	t->cur = swap;
	for (size_t i = 0; i < n; i++)
		t->cur[i].size = sizeof(t->cur[i]);
	if ((r = pmu_stat_read(t->st, t->cur, n)) < 0) {
		/* keep the last good reading */
		swap = t->prev;
		t->prev = t->cur;
		t->cur = swap;
		free(counts);
		return (int)r;
	}
	t->t_prev = now;
	for (size_t a = 0; a < t->naggr; a++) {
		int cpu = sv->per_cpu ? t->aggr[a].cpu : -1;

		for (size_t i = 0; i < nev; i++) {
			const struct pmu_value *v = &t->cur[a * nev + i];
			const struct pmu_value *p = &t->prev[a * nev + i];
			struct serve_series *x;

			counts[i] = v->status == PMU_EVENT_NOT_SUPPORTED ? NAN
				    : v->status == PMU_EVENT_OK &&
						  v->scaled >= p->scaled
					    ? (double)(v->scaled - p->scaled)
					    : 0;
			if (v->status == PMU_EVENT_NOT_SUPPORTED ||
			    pmu_stat_folded(t->st, i))
				continue;
			if (grow((void **)&sn->series, cs, sn->nseries,
				 sizeof(*sn->series)))
				goto nomem;
			x = &sn->series[sn->nseries++];
			*x = (struct serve_series){
				.event = pmu_session_event_name(t->s, i),
				.cgroup = t->cgroup, .pid = t->pid, .cpu = cpu,
				.value = v->status == PMU_EVENT_OK ? v->scaled : 0,
				.enabled = v->enabled, .running = v->running };
		}
		for (size_t k = 0; t->ms && k < pmu_metric_set_count(t->ms);
		     k++) {
			struct pmu_metric_value mv = { .size = sizeof(mv) };
			struct pmu_error err = { .size = sizeof(err) };
			struct serve_metric *m;

			if (pmu_metric_set_value(t->ms, k, counts, nev, dur, &mv,
						 &err))
				continue;
			if (grow((void **)&sn->metrics, cm, sn->nmetrics,
				 sizeof(*sn->metrics)))
				goto nomem;
			m = &sn->metrics[sn->nmetrics++];
			*m = (struct serve_metric){
				.name = mv.name, .unit = mv.unit,
				.cgroup = t->cgroup, .pid = t->pid, .cpu = cpu,
				.value = mv.value };
		}
	}
	free(counts);
	return 0;
nomem:
	free(counts);
	return -ENOMEM;
}

/* The events' facts, from a live target's session. */
static void describe(struct serve *sv, struct serve_snapshot *sn)
{
	struct target *t = sv->targets;

	if (!t)
		return;
	sn->events = calloc(t->nev + 1, sizeof(*sn->events));
	if (!sn->events)
		return;
	for (size_t i = 0; i < t->nev; i++) {
		struct serve_event *e = &sn->events[sn->nevents];
		double scale;
		const char *u = pmu_session_event_unit(t->s, i, &scale);
		int err;

		if (pmu_stat_folded(t->st, i))
			continue;
		e->name = pmu_session_event_name(t->s, i);
		/* raw counts: a clock's are ns whatever perf prints */
		e->unit = u && (!strcmp(u, "msec") || !strcmp(u, "ns")) ? "ns"
			  : u ? u : "";
		e->counted = pmu_session_event_status(t->s, i, &err) !=
			     PMU_EVENT_NOT_SUPPORTED;
		e->reason = e->counted ? "" : pmu_session_event_reason(t->s, i);
		e->desc = pmu_tool_event_desc(e->name);
		if (!e->reason)
			e->reason = "";
		sn->nevents++;
	}
}

/* Render one format into a malloc'd text. */
static char *render(const struct serve_snapshot *sn, bool om, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	if (serve_render(f, sn, om) | fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* One reading of every target, rendered; the texts swapped in. */
static void tick(struct serve *sv)
{
	struct serve_snapshot sn = { 0 };
	size_t cs = 0, cm = 0;
	uint64_t t0 = now_ns();
	char *text[2];
	size_t len[2];
	bool up = true;
	uint64_t e0 = sv->errors;

	if (sv->per_cgroup)
		rescan(sv);
	for (struct target *t = sv->targets; t; t = t->next) {
		int r = read_target(sv, t, &sn, &cs, &cm);

		if (r) {
			up = false;
			note(sv, "reading %s%s: %s",
			     t->cgroup ? "cgroup " : t->pid ? "process" : "the machine",
			     t->cgroup ? t->cgroup : "", strerror(-r));
		}
		sn.targets++;
	}
	sv->ticks++;
	describe(sv, &sn);
	pthread_mutex_lock(&sv->lock);
	sn.scrapes = sv->scrapes;
	pthread_mutex_unlock(&sv->lock);
	/* a failed open (a new cgroup's) is a failed reading too */
	sn.up = up && sv->errors == e0;
	sn.errors = sv->errors;
	sn.ticks = sv->ticks;
	sn.read_ns = now_ns() - t0;
	text[0] = render(&sn, false, &len[0]);
	text[1] = render(&sn, true, &len[1]);
	free(sn.series);
	free(sn.metrics);
	free(sn.events);
	if (!text[0] || !text[1]) {
		free(text[0]);
		free(text[1]);
		note(sv, "out of memory rendering the exposition");
		return;
	}
	pthread_mutex_lock(&sv->lock);
	for (int i = 0; i < 2; i++) {
		free(sv->text[i]);
		sv->text[i] = text[i];
		sv->len[i] = len[i];
	}
	pthread_mutex_unlock(&sv->lock);
}

static char *get(void *arg, bool om, size_t *len)
{
	struct serve *sv = arg;
	char *copy = NULL;

	pthread_mutex_lock(&sv->lock);
	sv->scrapes++;
	if (sv->text[om] && (copy = malloc(sv->len[om] + 1))) {
		memcpy(copy, sv->text[om], sv->len[om] + 1);
		*len = sv->len[om];
	}
	pthread_mutex_unlock(&sv->lock);
	return copy;
}

static void *reader(void *arg)
{
	struct serve *sv = arg;
	struct timespec until;

	clock_gettime(CLOCK_MONOTONIC, &until);
	pthread_mutex_lock(&sv->lock);
	while (!sv->stop) {
		until.tv_nsec += (long)(sv->interval_ms % 1000) * 1000000L;
		until.tv_sec += sv->interval_ms / 1000 +
				until.tv_nsec / 1000000000L;
		until.tv_nsec %= 1000000000L;
		while (!sv->stop &&
		       pthread_cond_timedwait(&sv->wake, &sv->lock, &until) !=
			       ETIMEDOUT)
			;
		if (sv->stop)
			break;
		pthread_mutex_unlock(&sv->lock);
		tick(sv);
		pthread_mutex_lock(&sv->lock);
	}
	pthread_mutex_unlock(&sv->lock);
	return NULL;
}

/* The targets the options name, opened; an exit code on failure. */
static int open_targets(struct serve *sv)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_metric_set *ms;
	struct pmu_session *s;

	/* the event list first, whatever the targets: its errors name
	 * the token */
	if (!(s = new_session(sv, &ms, &err))) {
		pmu_tool_err("serve: %s", err.message);
		return EXIT_PMU_INPUT;
	}
	pmu_metric_set_free(ms);
	pmu_session_free(s);
	if (sv->per_cgroup || sv->ncgroups) {
		if (pmu_cgroup_root(sv->mount, sizeof(sv->mount))) {
			pmu_tool_err("serve: no cgroup hierarchy with perf_event "
				     "is mounted (a cgroup2 mount, or cgroup v1 "
				     "with the perf_event controller)");
			return EXIT_PMU_INPUT;
		}
	}
	if (sv->per_cgroup) {
		struct stat st;
		char *root = NULL;
		int bad = asprintf(&root, "%s/%s", sv->mount, sv->per_cgroup) < 0 ||
			  stat(root, &st) || !S_ISDIR(st.st_mode);

		free(root);
		if (bad) {
			pmu_tool_err("serve: --per-cgroup '%s': no such cgroup "
				     "under %s", sv->per_cgroup, sv->mount);
			return EXIT_PMU_INPUT;
		}
		/* the cgroups at the first reading, once listening: out of
		 * descriptors, the server still starts and says so */
		return 0;
	}
	for (size_t i = 0; i < sv->ncgroups || i < sv->npids ||
			   (!sv->ncgroups && !sv->npids && i < 1); i++) {
		struct target *t;
		int pid = sv->npids ? sv->pids[i] : 0;

		t = target_open(sv, sv->ncgroups ? sv->cgroups[i] : NULL, pid,
				&err);
		if (!t) {
			pmu_tool_err("serve: %s", err.message);
			return EXIT_PMU_INPUT;
		}
		add_target(sv, t);
	}
	return 0;
}

static int parse(struct serve *sv, int argc, char **argv)
{
	enum { O_PER_CGROUP = 256, O_THREADS, O_PRINT };
	static const struct option opts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "metrics", required_argument, NULL, 'M' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "cgroup", required_argument, NULL, 'G' },
		{ "per-cgroup", optional_argument, NULL, O_PER_CGROUP },
		{ "pid", required_argument, NULL, 'p' },
		{ "per-cpu", no_argument, NULL, 'A' },
		{ "listen", required_argument, NULL, 'l' },
		{ "interval", required_argument, NULL, 'I' },
		{ "threads", required_argument, NULL, O_THREADS },
		{ "print", optional_argument, NULL, O_PRINT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;
	char *end;
	unsigned long v;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":e:M:aC:G:p:Al:I:h", opts,
				NULL)) != -1) {
		switch (c) {
		case 'e': sv->events = optarg; break;
		case 'M': sv->metrics = optarg; break;
		case 'a': break;
		case 'C': sv->cpus = optarg; break;
		case 'G':
			free_list(sv->cgroups, sv->ncgroups);
			if (split(optarg, &sv->cgroups, &sv->ncgroups) ||
			    !sv->ncgroups) {
				pmu_tool_err("serve: -G '%s': no cgroup named",
					     optarg);
				return EXIT_PMU_USAGE;
			}
			break;
		case O_PER_CGROUP: sv->per_cgroup = optarg ? optarg : "/"; break;
		case 'p':
			sv->npids = 0;     /* the last -p counts */
			if ((rc = pmu_tool_parse_ids("-p", optarg, &sv->pids,
						     &sv->npids)))
				return rc;
			if (!sv->npids) {
				pmu_tool_err("serve: -p '%s': no process named",
					     optarg);
				return EXIT_PMU_USAGE;
			}
			break;
		case 'A': sv->per_cpu = true; break;
		case 'l': sv->listen = optarg; break;
		case 'I':
		case O_THREADS:
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (!*optarg || *end || errno || *optarg == '-' ||
			    (c == 'I' && (v < 10 || v > 3600000)) ||
			    (c == O_THREADS && (v < 1 || v > 256))) {
				pmu_tool_err("serve: %s '%s': %s",
					     c == 'I' ? "--interval" : "--threads",
					     optarg,
					     c == 'I' ? "not a number of "
							"milliseconds from 10 "
							"to 3600000"
						      : "not a number of threads "
							"from 1 to 256");
				return EXIT_PMU_USAGE;
			}
			if (c == 'I')
				sv->interval_ms = (unsigned)v;
			else
				sv->threads = (unsigned)v;
			break;
		case O_PRINT:
			sv->print = true;
			if (!optarg || !strcmp(optarg, "prometheus"))
				break;
			if (strcmp(optarg, "openmetrics")) {
				pmu_tool_err("serve: --print='%s': the formats "
					     "are prometheus and openmetrics",
					     optarg);
				return EXIT_PMU_USAGE;
			}
			sv->print_om = true;
			break;
		case 'h': usage(stdout); return -1;
		case ':':
			pmu_tool_err("serve: option '%s' needs a value",
				     argv[optind - 1]);
			return EXIT_PMU_USAGE;
		default:
			pmu_tool_err("serve: unknown option '%s'",
				     argv[optind - 1]);
			usage(stderr);
			return EXIT_PMU_USAGE;
		}
	}
	if (optind != argc) {
		pmu_tool_err("serve: unexpected argument '%s' (pmu serve runs "
			     "no command)", argv[optind]);
		return EXIT_PMU_USAGE;
	}
	if ((!!sv->per_cgroup + !!sv->ncgroups + !!sv->npids) > 1) {
		pmu_tool_err("serve: give one of -G, --per-cgroup and -p");
		return EXIT_PMU_USAGE;
	}
	if (sv->npids && (sv->per_cpu || sv->cpus)) {
		pmu_tool_err("serve: %s counts on CPUs: not with -p",
			     sv->per_cpu ? "--per-cpu" : "-C");
		return EXIT_PMU_USAGE;
	}
	if (!sv->events && !sv->metrics)
		sv->events = DEFAULT_EVENTS;
	return 0;
}

int cmd_serve(int argc, char **argv)
{
	struct serve sv = { .listen = DEFAULT_LISTEN, .interval_ms = 1000,
			    .threads = 4 };
	struct serve_http *http = NULL;
	pthread_t th;
	sigset_t sigs;
	int rc, sig;

	pthread_mutex_init(&sv.lock, NULL);
	pthread_cond_init(&sv.wake, NULL);
	if ((rc = parse(&sv, argc, argv)))
		goto out;
	if ((rc = open_targets(&sv)))
		goto out;
	/* the signals wait for the main thread alone */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (sv.print) {
		struct timespec d = { sv.interval_ms / 1000,
				      (long)(sv.interval_ms % 1000) * 1000000L };

		tick(&sv);
		nanosleep(&d, NULL);
		tick(&sv);
		if (fwrite(sv.text[sv.print_om], 1, sv.len[sv.print_om],
			   stdout) != sv.len[sv.print_om] ||
		    fflush(stdout)) {
			pmu_tool_err("serve: --print: writing standard output: "
				     "%s", strerror(errno));
			rc = EXIT_PMU_INPUT;
		}
		goto out;
	}
	if (!(http = serve_http_start(sv.listen, get, &sv, sv.threads))) {
		rc = EXIT_PMU_INPUT;
		goto out;
	}
	tick(&sv);                 /* the first scrape finds zeros */
	if (pthread_create(&th, NULL, reader, &sv)) {
		pmu_tool_err("serve: cannot start the reading thread");
		rc = EXIT_PMU_INPUT;
		goto out;
	}
	{
		/* the port the system chose for port 0, in the address */
		char where[300];
		const char *colon = strrchr(sv.listen, ':');
		int port = serve_http_port(http);

		snprintf(where, sizeof(where), "%.*s:%d",
			 (int)(colon - sv.listen), sv.listen, port);
		if (where[0] == ':')
			snprintf(where, sizeof(where), "127.0.0.1:%d", port);
		fprintf(stderr, "pmu serve: listening on %s, reading every %u "
			"ms\n", port >= 0 ? where : sv.listen, sv.interval_ms);
	}
	while (sigwait(&sigs, &sig) == 0 && sig == SIGHUP)
		;
	pthread_mutex_lock(&sv.lock);
	sv.stop = true;
	pthread_cond_signal(&sv.wake);
	pthread_mutex_unlock(&sv.lock);
	pthread_join(th, NULL);
	rc = 0;
out:
	serve_http_stop(http);
	while (sv.targets) {
		struct target *t = sv.targets;

		sv.targets = t->next;
		target_free(t);
	}
	free_list(sv.cgroups, sv.ncgroups);
	free(sv.pids);
	free(sv.text[0]);
	free(sv.text[1]);
	pthread_mutex_destroy(&sv.lock);
	pthread_cond_destroy(&sv.wake);
	return rc < 0 ? 0 : rc;
}
