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
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <pmu/region.h>
#include <pmu/session.h>

#include "region/region.h"
#include "region/regtab.h"

enum { R_UNKNOWN, R_OFF, R_ON };

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
static __thread struct pmu__rt *me;
static struct pmu__rt *threads;  /* every thread of this process */

/* The configuration, and the events as the first session gave them. */
static char *dir, *events, *driver, *model;
static struct pmu__rt_meta meta;
static bool meta_known;
static char *open_error;         /* why the first session failed */
static uint64_t image;           /* this process image's, in file names */

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
	if (!s && !open_error && !meta_known &&
	    asprintf(&open_error, "cannot count '%s' in the program: %s",
		     events, err.message[0] ? err.message : "error") < 0)
		open_error = NULL;
	return s;
}

static void thread_end(void *p);
static void write_all(void);

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static void child_after_fork(void)
{
	struct pmu__rt *t = me, *next;

	/* the other threads are the parent's: not in this process */
	pthread_mutex_init(&lock, NULL);
	for (struct pmu__rt *o = threads; o; o = next) {
		next = o->next;
		if (o != t)
			pmu__rt_free(o);
	}
	threads = t;
	if (!t)
		return;
	t->next = NULL;
	t->pid = getpid();
	t->tid = gettid_();
	image = pmu__rt_now_ns();
	/* the parent's counters count the parent: the child's own, from
	 * here (a marker of a forked child must not wait for a lock the
	 * parent's other threads held at the fork: the session is opened
	 * here, while this thread is the only one) */
	pmu_session_free(t->s);
	t->s = open_session();
	if (t->s && pmu_session_nevents(t->s) != meta.n) {
		pmu_session_free(t->s);
		t->s = NULL;
	}
	pmu__rt_restart(t);
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
	image = pmu__rt_now_ns();
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
static struct pmu__rt *self(void)
{
	struct pmu__rt *t = me;
	struct pmu_session *s;

	if (t)
		return t;
	pthread_mutex_lock(&lock);
	s = open_session();
	if (!meta_known) {
		if (pmu__rt_meta_of(&meta, s)) {
			pthread_mutex_unlock(&lock);
			pmu_session_free(s);
			return NULL;
		}
		meta_known = true;
	}
	if (s && pmu_session_nevents(s) != meta.n) {
		pmu_session_free(s);   /* cannot happen: one event list */
		s = NULL;
	}
	if (!(t = pmu__rt_new(&meta, s, true))) {
		pthread_mutex_unlock(&lock);
		pmu_session_free(s);
		return NULL;
	}
	t->pid = getpid();
	t->tid = gettid_();
	t->next = threads;
	threads = t;
	pthread_mutex_unlock(&lock);
	me = t;
	pthread_setspecific(key, t);
	return t;
}

/* A marker: its name checked, op on the calling thread's regions. */
static int marker(const char *name, int (*op)(struct pmu__rt *, const char *))
{
	struct pmu__rt *t;

	if (!on())
		return 0;
	if (!name || !*name)
		return -EINVAL;
	if (!(t = self()))
		return -ENOMEM;
	return op(t, name);
}

PMU_API int(pmu_region_begin)(const char *name)
{
	return marker(name, pmu__rt_begin);
}

PMU_API int(pmu_region_end)(const char *name)
{
	return marker(name, pmu__rt_end);
}

PMU_API bool pmu_region_active(void)
{
	return on();
}

static void thread_end(void *p)
{
	struct pmu__rt *t = p;

	pmu__rt_sample(t);
	pthread_mutex_lock(&lock);
	pmu__rt_close_open(t);
	pmu_session_free(t->s);
	t->s = NULL;
	t->ended = true;
	pthread_mutex_unlock(&lock);
	me = NULL;
}

static int write_file(bool snap)
{
	char name[64];

	/* a file per process image: an exec's new image (same pid) must
	 * not write over what the old one flushed */
	snprintf(name, sizeof(name), "regions.%d-%llu", (int)getpid(),
		 (unsigned long long)image);
	return pmu__rt_write_file(dir, name, &meta, getpid(), open_error,
				  threads, snap);
}

PMU_API int pmu_region_flush(void)
{
	int ret;

	if (!on())
		return 0;
	if (me)
		pmu__rt_sample(me);
	pthread_mutex_lock(&lock);
	ret = meta_known ? write_file(true) : 0;
	pthread_mutex_unlock(&lock);
	return ret;
}

PMU_API int pmu_region_reset(void)
{
	if (!on())
		return 0;
	if (me)
		pmu__rt_sample(me);
	pthread_mutex_lock(&lock);
	for (struct pmu__rt *t = threads; t; t = t->next)
		pmu__rt_forget(t);
	pthread_mutex_unlock(&lock);
	return 0;
}

/* At exit: what is open ends at each thread's last reading (the calling
 * thread's now), and the file is written. */
static void write_all(void)
{
	if (atomic_load(&state) != R_ON || !meta_known)
		return;
	if (me)
		pmu__rt_sample(me);
	pthread_mutex_lock(&lock);
	for (struct pmu__rt *t = threads; t; t = t->next)
		pmu__rt_close_open(t);
	(void)write_file(false);
	pthread_mutex_unlock(&lock);
}
