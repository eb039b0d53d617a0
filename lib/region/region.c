/* SPDX-License-Identifier: MIT */
/*
 * Region markers in the measured program (<pmu/region.h>).
 *
 * Off (no PMU_REGIONS in the environment): a marker tests one flag and
 * returns.  On: each thread opens a session of the events pmu stat
 * named on itself (PMU_TARGET_SELF) at its first marker, reads it at
 * every marker and keeps, per region, the calls, the inclusive and the
 * exclusive time and counts; a stack of open regions gives the
 * exclusive part (an inner region's inclusive span is taken from its
 * parent's).  A thread that ends closes what it left open; at exit the
 * process writes every thread's regions (region.h has the format).
 *
 * A forked child keeps the regions its thread had open, starting them
 * at the fork with counters of its own (the parent's belong to the
 * parent), and writes a file of its own.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <pmu/region.h>
#include <pmu/session.h>

#include "region/region.h"

enum { R_UNKNOWN, R_OFF, R_ON };

/* Errors kept per thread; more are counted. */
#define MAX_ERRORS 16

struct rent {                    /* one region of one thread */
	char name[PMU__REGION_NAME_MAX];
	const char *key;         /* the caller's pointer, for a fast match */
	uint64_t calls, time, excl_time;
	unsigned depth;          /* open instances (recursion) */
	bool open_at_exit;
	uint64_t *incl, *excl;   /* [nev] */
};

struct rframe {                  /* one open region */
	size_t ent;
	uint64_t t0, child_t;
	uint64_t *c0, *child;    /* [nev] */
};

struct rthread {
	struct rthread *next;
	pid_t pid, tid;
	struct pmu_session *s;
	struct pmu_value *vals;  /* [nev] read scratch */
	uint64_t *cur;           /* [nev] the last reading */
	uint64_t now;            /* its time */
	struct rent *ents;
	size_t nents, cap;
	struct rframe *stack;
	size_t depth, scap;
	char *errors[MAX_ERRORS];
	size_t nerr, more_err;
	bool ended;              /* the thread has ended */
};

static atomic_int state;
/* 0: off for sure (<pmu/region.h>'s markers test it inline). */
PMU_API int pmu_regions_enabled = 1;

/* At load: no PMU_REGIONS, no markers (a program that sets it later
 * calls the functions themselves). */
__attribute__((constructor)) static void look_at_load(void)
{
	const char *d = getenv(PMU__REGION_ENV_DIR);

	if (!d || !*d)
		pmu_regions_enabled = 0;
}
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t key;
static __thread struct rthread *me;
static struct rthread *threads;  /* every thread of this process */

/* The configuration, and the events as the first session gave them. */
static char *dir, *events, *driver, *model;
static size_t nev;               /* fixed by the first session */
static bool nev_known;
static char **ev_name, **ev_unit;
static double *ev_scale;
static bool *ev_counted;
static char *open_error;         /* why the first session failed */
static uint64_t image;           /* this process image's, in file names */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void free_thread(struct rthread *t)
{
	pmu_session_free(t->s);
	for (size_t i = 0; i < t->nents; i++) {
		free(t->ents[i].incl);
		free(t->ents[i].excl);
	}
	for (size_t i = 0; i < t->scap; i++) {
		free(t->stack[i].c0);
		free(t->stack[i].child);
	}
	for (size_t i = 0; i < t->nerr; i++)
		free(t->errors[i]);
	free(t->ents);
	free(t->stack);
	free(t->vals);
	free(t->cur);
	free(t);
}

/* An end that matched no begin: `top` is the innermost open region,
 * NULL when none is open. */
static void note_error(struct rthread *t, const char *name, const char *top)
{
	char *m = NULL;
	int r = top ? asprintf(&m, "end of region '%.127s' while '%s' is the "
			       "innermost open one (thread %d)", name, top,
			       (int)t->tid)
		    : asprintf(&m, "end of region '%.127s', which is not open "
			       "(thread %d)", name, (int)t->tid);

	if (t->nerr == MAX_ERRORS || r < 0) {
		if (r >= 0)
			free(m);
		t->more_err++;
		return;
	}
	t->errors[t->nerr++] = m;
}

static struct pmu_session *open_session(void);

/* Read the thread's counters into cur (and the time into now). */
static void sample(struct rthread *t)
{
	t->now = now_ns();
	if (!t->s || !nev)
		return;
	if (pmu_session_read(t->s, t->vals, nev) < 0)
		return;
	for (size_t i = 0; i < nev; i++)
		t->cur[i] = t->vals[i].status == PMU_EVENT_OK ? t->vals[i].scaled
							      : 0;
}

/* The events as the first session named them. */
static int learn_events(struct pmu_session *s)
{
	size_t n = s ? pmu_session_nevents(s) : 0;

	ev_name = calloc(n + 1, sizeof(*ev_name));
	ev_unit = calloc(n + 1, sizeof(*ev_unit));
	ev_scale = calloc(n + 1, sizeof(*ev_scale));
	ev_counted = calloc(n + 1, sizeof(*ev_counted));
	if (!ev_name || !ev_unit || !ev_scale || !ev_counted)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		double scale = 1.0;
		const char *u = pmu_session_event_unit(s, i, &scale);
		int e;

		ev_name[i] = strdup(pmu_session_event_name(s, i));
		ev_unit[i] = strdup(u ? u : "");
		ev_scale[i] = scale;
		ev_counted[i] = pmu_session_event_status(s, i, &e) !=
				PMU_EVENT_NOT_SUPPORTED;
		if (!ev_name[i] || !ev_unit[i])
			return -ENOMEM;
	}
	nev = n;
	nev_known = true;
	return 0;
}

/* A session of `list` on the calling thread, started; NULL on failure
 * (*err says why).  *all: every event counts. */
static struct pmu_session *open_list(const char *list, struct pmu_error *err,
				     bool *all)
{
	struct pmu_session_opts so = { .sz = sizeof(so), .driver = driver,
				       .model = model };
	struct pmu_open_opts oo = { .sz = sizeof(oo),
				    .target = PMU_TARGET_SELF };
	struct pmu_session *s = pmu_session_new_opts(&so, err);

	if (s && (pmu_session_add(s, list, err) ||
		  pmu_session_open(s, &oo, err) || pmu_session_start(s))) {
		pmu_session_free(s);
		s = NULL;
	}
	*all = s != NULL;
	for (size_t i = 0; s && i < pmu_session_nevents(s); i++) {
		int e;

		if (pmu_session_event_status(s, i, &e) ==
		    PMU_EVENT_NOT_SUPPORTED)
			*all = false;
	}
	return s;
}

/* The calling thread's session (NULL when it cannot be had: the regions
 * still get calls and times).  One group where the events go together,
 * so that a marker reads them with one read(2). */
static struct pmu_session *open_session(void)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_session *s = NULL;
	char *group = NULL;
	bool all;

	if (!strchr(events, '{') && strchr(events, ',') &&
	    asprintf(&group, "{%s}", events) >= 0) {
		s = open_list(group, &err, &all);
		free(group);
		if (s && all)
			return s;
		pmu_session_free(s);
	}
	s = open_list(events, &err, &all);
	if (!s && !open_error && !nev_known &&
	    asprintf(&open_error, "cannot count '%s' in the program: %s",
		     events, err.message[0] ? err.message : "error") < 0)
		open_error = NULL;
	return s;
}

static void thread_end(void *p);
static void write_all(void);

static void child_after_fork(void)
{
	struct rthread *t = me, *next;

	/* the other threads are the parent's: not in this process */
	pthread_mutex_init(&lock, NULL);
	for (struct rthread *o = threads; o; o = next) {
		next = o->next;
		if (o != t)
			free_thread(o);
	}
	threads = t;
	if (!t)
		return;
	t->next = NULL;
	t->pid = getpid();
	t->tid = (pid_t)syscall(SYS_gettid);
	image = now_ns();
	/* the parent's counters count the parent: the child's own, from
	 * here (a marker of a forked child must not wait for a lock the
	 * parent's other threads held at the fork: the session is opened
	 * here, while this thread is the only one) */
	pmu_session_free(t->s);
	t->s = open_session();
	for (size_t i = 0; i < t->nents; i++) {
		struct rent *e = &t->ents[i];

		e->calls = e->time = e->excl_time = 0;
		memset(e->incl, 0, nev * sizeof(*e->incl));
		memset(e->excl, 0, nev * sizeof(*e->excl));
	}
	memset(t->cur, 0, nev * sizeof(*t->cur));
	sample(t);
	for (size_t d = 0; d < t->depth; d++) {
		struct rframe *f = &t->stack[d];

		f->t0 = t->now;
		f->child_t = 0;
		memcpy(f->c0, t->cur, nev * sizeof(*f->c0));
		memset(f->child, 0, nev * sizeof(*f->child));
	}
	for (size_t i = 0; i < t->nerr; i++)
		free(t->errors[i]);
	t->nerr = t->more_err = 0;
}

static char *env_dup(const char *name, const char *dflt)
{
	const char *v = getenv(name);

	return strdup(v && *v ? v : dflt);
}

static void init(void)
{
	const char *d = getenv(PMU__REGION_ENV_DIR);

	if (!d || !*d) {
		atomic_store(&state, R_OFF);
		return;
	}
	dir = strdup(d);
	image = now_ns();
	events = env_dup(PMU__REGION_ENV_EVENTS, "task-clock");
	if (getenv(PMU__REGION_ENV_DRIVER))
		driver = env_dup(PMU__REGION_ENV_DRIVER, "perf");
	if (getenv(PMU__REGION_ENV_MODEL))
		model = env_dup(PMU__REGION_ENV_MODEL, "");
	if (!dir || !events || pthread_key_create(&key, thread_end) ||
	    atexit(write_all) ||
	    pthread_atfork(NULL, NULL, child_after_fork)) {
		atomic_store(&state, R_OFF);
		return;
	}
	atomic_store(&state, R_ON);
}

static bool on(void)
{
	int st = atomic_load_explicit(&state, memory_order_relaxed);

	if (__builtin_expect(st == R_OFF, 1))
		return false;
	if (st == R_UNKNOWN)
		pthread_once(&once, init);
	return atomic_load(&state) == R_ON;
}

/* The calling thread's state, made at its first marker. */
static struct rthread *self(void)
{
	struct rthread *t = me;

	if (t)
		return t;
	if (!(t = calloc(1, sizeof(*t))))
		return NULL;
	t->pid = getpid();
	t->tid = (pid_t)syscall(SYS_gettid);
	pthread_mutex_lock(&lock);
	t->s = open_session();
	if (!nev_known && learn_events(t->s)) {
		pthread_mutex_unlock(&lock);
		free_thread(t);
		return NULL;
	}
	if (t->s && pmu_session_nevents(t->s) != nev) {
		pmu_session_free(t->s);   /* cannot happen: one event list */
		t->s = NULL;
	}
	t->vals = calloc(nev + 1, sizeof(*t->vals));
	t->cur = calloc(nev + 1, sizeof(*t->cur));
	if (!t->vals || !t->cur) {
		pthread_mutex_unlock(&lock);
		free_thread(t);
		return NULL;
	}
	for (size_t i = 0; i < nev; i++)
		t->vals[i].size = sizeof(t->vals[i]);
	t->next = threads;
	threads = t;
	pthread_mutex_unlock(&lock);
	me = t;
	pthread_setspecific(key, t);
	return t;
}

/* The region of that name: the entry last found at the same address
 * first (a string literal, usually), checked, for the name at an
 * address may change (a caller's buffer). */
static ssize_t find(struct rthread *t, const char *name)
{
	for (size_t i = 0; i < t->nents; i++)
		if (t->ents[i].key == name &&
		    !strncmp(t->ents[i].name, name, PMU__REGION_NAME_MAX - 1))
			return (ssize_t)i;
	for (size_t i = 0; i < t->nents; i++)
		if (!strncmp(t->ents[i].name, name, PMU__REGION_NAME_MAX - 1)) {
			t->ents[i].key = name;
			return (ssize_t)i;
		}
	return -1;
}

static ssize_t add(struct rthread *t, const char *name)
{
	struct rent *e;

	if (t->nents == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 8;

		if (!(e = realloc(t->ents, cap * sizeof(*e))))
			return -ENOMEM;
		t->ents = e;
		t->cap = cap;
	}
	e = &t->ents[t->nents];
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->key = name;
	e->incl = calloc(nev + 1, sizeof(*e->incl));
	e->excl = calloc(nev + 1, sizeof(*e->excl));
	if (!e->incl || !e->excl) {
		free(e->incl);
		free(e->excl);
		return -ENOMEM;
	}
	return (ssize_t)t->nents++;
}

static struct rframe *push(struct rthread *t)
{
	if (t->depth == t->scap) {
		size_t cap = t->scap ? t->scap * 2 : 8;
		struct rframe *s = realloc(t->stack, cap * sizeof(*s));

		if (!s)
			return NULL;
		memset(s + t->scap, 0, (cap - t->scap) * sizeof(*s));
		t->stack = s;
		for (size_t i = t->scap; i < cap; i++) {
			s[i].c0 = calloc(nev + 1, sizeof(*s[i].c0));
			s[i].child = calloc(nev + 1, sizeof(*s[i].child));
			if (!s[i].c0 || !s[i].child)
				return NULL;
			t->scap = i + 1;
		}
	}
	return &t->stack[t->depth++];
}

/* A marker's name checked, and the calling thread's state. */
static int marker_thread(const char *name, struct rthread **t)
{
	if (!name || !*name)
		return -EINVAL;
	return (*t = self()) ? 0 : -ENOMEM;
}

PMU_API int(pmu_region_begin)(const char *name)
{
	struct rthread *t;
	struct rframe *f;
	ssize_t k;

	if (!on())
		return 0;
	if ((k = marker_thread(name, &t)))
		return (int)k;
	if ((k = find(t, name)) < 0 && (k = add(t, name)) < 0)
		return (int)k;
	if (!(f = push(t)))
		return -ENOMEM;
	t->ents[k].calls++;
	t->ents[k].depth++;
	f->ent = (size_t)k;
	f->child_t = 0;
	memset(f->child, 0, nev * sizeof(*f->child));
	/* read last: the marker's own work stays outside the region */
	sample(t);
	f->t0 = t->now;
	memcpy(f->c0, t->cur, nev * sizeof(*f->c0));
	return 0;
}

/* Close the innermost open region at the last reading. */
static void pop(struct rthread *t)
{
	struct rframe *f = &t->stack[--t->depth];
	struct rent *e = &t->ents[f->ent];
	uint64_t time = t->now - f->t0;

	if (--e->depth == 0)
		e->time += time;
	e->excl_time += time > f->child_t ? time - f->child_t : 0;
	for (size_t i = 0; i < nev; i++) {
		uint64_t d = t->cur[i] - f->c0[i];

		if (t->cur[i] < f->c0[i])
			d = 0;
		if (e->depth == 0)
			e->incl[i] += d;
		e->excl[i] += d > f->child[i] ? d - f->child[i] : 0;
		if (t->depth)
			t->stack[t->depth - 1].child[i] += d;
	}
	if (t->depth)
		t->stack[t->depth - 1].child_t += time;
}

PMU_API int(pmu_region_end)(const char *name)
{
	struct rthread *t;
	const char *top;
	int ret;

	if (!on())
		return 0;
	if ((ret = marker_thread(name, &t)))
		return ret;
	/* read first: the marker's own work stays outside the region */
	sample(t);
	if (!t->depth) {
		note_error(t, name, NULL);
		return -EINVAL;
	}
	top = t->ents[t->stack[t->depth - 1].ent].name;
	if (strncmp(top, name, PMU__REGION_NAME_MAX - 1)) {
		note_error(t, name, top);
		return -EINVAL;
	}
	pop(t);
	return 0;
}

PMU_API bool pmu_region_active(void)
{
	return on();
}

/* What is still open ends at the last reading, flagged. */
static void close_open(struct rthread *t)
{
	while (t->depth) {
		t->ents[t->stack[t->depth - 1].ent].open_at_exit = true;
		pop(t);
	}
}

static void thread_end(void *p)
{
	struct rthread *t = p;

	sample(t);
	pthread_mutex_lock(&lock);
	close_open(t);
	pmu_session_free(t->s);
	t->s = NULL;
	t->ended = true;
	pthread_mutex_unlock(&lock);
	me = NULL;
}

/* %XX for '%', control bytes and DEL; the rest as it is. */
static void put_name(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '%' || c < 0x20 || c == 0x7f)
			fprintf(f, "%%%02X", c);
		else
			fputc(c, f);
	}
}

static void write_thread(FILE *f, const struct rthread *t)
{
	fprintf(f, "thread\t%d\n", (int)t->tid);
	for (size_t i = 0; i < t->nents; i++) {
		const struct rent *e = &t->ents[i];

		fputs("region\t", f);
		put_name(f, e->name);
		fprintf(f, "\t%llu\t%llu\t%llu\t%d",
			(unsigned long long)e->calls,
			(unsigned long long)e->time,
			(unsigned long long)e->excl_time, e->open_at_exit);
		for (size_t j = 0; j < nev; j++)
			fprintf(f, "\t%llu", (unsigned long long)e->incl[j]);
		for (size_t j = 0; j < nev; j++)
			fprintf(f, "\t%llu", (unsigned long long)e->excl[j]);
		fputc('\n', f);
	}
	for (size_t i = 0; i < t->nerr; i++) {
		fputs("error\t", f);
		put_name(f, t->errors[i]);
		fputc('\n', f);
	}
	if (t->more_err)
		fprintf(f, "error\t%zu more region errors in thread %d\n",
			t->more_err, (int)t->tid);
}

/* A copy of t's regions with what is open closed at its last reading,
 * flagged (what a flush writes, t going on as it was).  -ENOMEM. */
static int snapshot(const struct rthread *t, struct rthread *s)
{
	*s = (struct rthread){ .tid = t->tid, .cur = t->cur, .now = t->now,
			       .nerr = 0 };
	s->ents = calloc(t->nents + 1, sizeof(*s->ents));
	s->stack = calloc(t->depth + 1, sizeof(*s->stack));
	if (!s->ents || !s->stack)
		return -ENOMEM;
	for (size_t i = 0; i < t->nents; i++) {
		s->ents[i] = t->ents[i];
		s->ents[i].incl = malloc((nev + 1) * sizeof(uint64_t));
		s->ents[i].excl = malloc((nev + 1) * sizeof(uint64_t));
		s->nents = i + 1;
		if (!s->ents[i].incl || !s->ents[i].excl)
			return -ENOMEM;
		memcpy(s->ents[i].incl, t->ents[i].incl, nev * sizeof(uint64_t));
		memcpy(s->ents[i].excl, t->ents[i].excl, nev * sizeof(uint64_t));
	}
	for (size_t d = 0; d < t->depth; d++) {
		s->stack[d] = t->stack[d];
		s->stack[d].c0 = malloc((nev + 1) * sizeof(uint64_t));
		s->stack[d].child = malloc((nev + 1) * sizeof(uint64_t));
		s->scap = d + 1;
		if (!s->stack[d].c0 || !s->stack[d].child)
			return -ENOMEM;
		memcpy(s->stack[d].c0, t->stack[d].c0, nev * sizeof(uint64_t));
		memcpy(s->stack[d].child, t->stack[d].child,
		       nev * sizeof(uint64_t));
		s->depth = d + 1;
	}
	close_open(s);
	return 0;
}

static void free_snapshot(struct rthread *s)
{
	for (size_t i = 0; i < s->nents; i++) {
		free(s->ents[i].incl);
		free(s->ents[i].excl);
	}
	for (size_t d = 0; d < s->scap; d++) {
		free(s->stack[d].c0);
		free(s->stack[d].child);
	}
	free(s->ents);
	free(s->stack);
}

/* Oldest thread first (the list is newest first): regions come out in
 * the order they were first entered.  A flush writes snapshots. */
static void write_threads(FILE *f, const struct rthread *t, bool snap)
{
	struct rthread s;

	if (!t)
		return;
	write_threads(f, t->next, snap);
	if (!snap) {
		write_thread(f, t);
		return;
	}
	if (!snapshot(t, &s)) {
		/* the errors are the thread's own */
		memcpy(s.errors, t->errors, sizeof(s.errors));
		s.nerr = t->nerr;
		s.more_err = t->more_err;
		write_thread(f, &s);
	}
	free_snapshot(&s);
}

static int write_file(bool snap)
{
	char *path = NULL, *tmp = NULL;
	FILE *f;
	int ret = 0;

	/* a file per process image: an exec's new image (same pid) must
	 * not write over what the old one flushed */
	if (asprintf(&path, "%s/regions.%d-%llu", dir, (int)getpid(),
		     (unsigned long long)image) < 0 ||
	    asprintf(&tmp, "%s/.regions.%d-%llu.tmp", dir, (int)getpid(),
		     (unsigned long long)image) < 0) {
		free(path);
		return -ENOMEM;
	}
	if (!(f = fopen(tmp, "we"))) {
		ret = -errno;
		goto out;
	}
	fprintf(f, PMU__REGION_MAGIC "\npid\t%d\n", (int)getpid());
	for (size_t i = 0; i < nev; i++) {
		fputs("event\t", f);
		put_name(f, ev_name[i]);
		fputc('\t', f);
		if (*ev_unit[i])
			put_name(f, ev_unit[i]);
		else
			fputc('-', f);
		fprintf(f, "\t%.17g\t%d\n", ev_scale[i], ev_counted[i]);
	}
	if (open_error) {
		fputs("error\t", f);
		put_name(f, open_error);
		fputc('\n', f);
	}
	write_threads(f, threads, snap);
	fputs("end\n", f);
	if (fclose(f))
		ret = -errno;
	else if (rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
out:
	free(path);
	free(tmp);
	return ret;
}

PMU_API int pmu_region_flush(void)
{
	struct rthread *t;
	int ret;

	if (!on())
		return 0;
	if ((t = me))
		sample(t);
	pthread_mutex_lock(&lock);
	ret = nev_known ? write_file(true) : 0;
	pthread_mutex_unlock(&lock);
	return ret;
}

/* At exit: what is open ends at each thread's last reading (the calling
 * thread's now), and the file is written. */
static void write_all(void)
{
	if (atomic_load(&state) != R_ON || !nev_known)
		return;
	if (me)
		sample(me);
	pthread_mutex_lock(&lock);
	for (struct rthread *t = threads; t; t = t->next)
		close_open(t);
	(void)write_file(false);
	pthread_mutex_unlock(&lock);
}
