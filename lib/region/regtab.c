/* SPDX-License-Identifier: MIT */
/*
 * One thread's regions (regtab.h): per region the calls, the inclusive
 * and exclusive time and counts; a stack of open regions gives the
 * exclusive part (an inner region's inclusive span is taken from its
 * parent's), and a region that recurses counts its outermost call's
 * span once inclusively.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "region/regtab.h"

uint64_t pmu__rt_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void pmu__rt_meta_free(struct pmu__rt_meta *m)
{
	for (size_t i = 0; m->name && i < m->n; i++) {
		free(m->name[i]);
		free(m->unit[i]);
	}
	free(m->name);
	free(m->unit);
	free(m->scale);
	free(m->counted);
	memset(m, 0, sizeof(*m));
}

int pmu__rt_meta_of(struct pmu__rt_meta *m, struct pmu_session *s)
{
	size_t n = s ? pmu_session_nevents(s) : 0;

	memset(m, 0, sizeof(*m));
	m->name = calloc(n + 1, sizeof(*m->name));
	m->unit = calloc(n + 1, sizeof(*m->unit));
	m->scale = calloc(n + 1, sizeof(*m->scale));
	m->counted = calloc(n + 1, sizeof(*m->counted));
	if (!m->name || !m->unit || !m->scale || !m->counted)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		double scale = 1.0;
		const char *u = pmu_session_event_unit(s, i, &scale);
		int e;

		m->n = i + 1;
		m->name[i] = strdup(pmu_session_event_name(s, i));
		m->unit[i] = strdup(u ? u : "");
		m->scale[i] = scale;
		m->counted[i] = pmu_session_event_status(s, i, &e) !=
				PMU_EVENT_NOT_SUPPORTED;
		if (!m->name[i] || !m->unit[i])
			return -ENOMEM;
	}
	return 0;
}

struct pmu__rt *pmu__rt_new(const struct pmu__rt_meta *m,
			    struct pmu_session *s, bool own_s)
{
	struct pmu__rt *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->m = m;
	t->s = s;
	t->own_s = own_s;
	t->vals = calloc(m->n + 1, sizeof(*t->vals));
	t->cur = calloc(m->n + 1, sizeof(*t->cur));
	if (!t->vals || !t->cur) {
		pmu__rt_free(t);
		return NULL;
	}
	for (size_t i = 0; i < m->n; i++)
		t->vals[i].size = sizeof(t->vals[i]);
	return t;
}

void pmu__rt_free(struct pmu__rt *t)
{
	if (!t)
		return;
	if (t->own_s)
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
	pmu__nameidx_free(&t->idx);
	free(t->ents);
	free(t->stack);
	free(t->vals);
	free(t->cur);
	free(t);
}

void pmu__rt_sample(struct pmu__rt *t)
{
	size_t n = t->m->n;

	t->now = pmu__rt_now_ns();
	if (!t->s || !n || pmu_session_read(t->s, t->vals, n) < 0)
		return;
	for (size_t i = 0; i < n; i++)
		t->cur[i] = t->vals[i].status == PMU_EVENT_OK ? t->vals[i].scaled
							      : 0;
}

/* An end that matched no begin: `top` is the innermost open region,
 * NULL when none is open. */
static void note_error(struct pmu__rt *t, const char *name, const char *top)
{
	char *m = NULL;
	int r = top ? asprintf(&m, "end of region '%.127s' while '%s' is the "
			       "innermost open one (thread %d)", name, top,
			       (int)t->tid)
		    : asprintf(&m, "end of region '%.127s', which is not open "
			       "(thread %d)", name, (int)t->tid);

	if (t->nerr == PMU__RT_MAX_ERRORS || r < 0) {
		if (r >= 0)
			free(m);
		t->more_err++;
		return;
	}
	t->errors[t->nerr++] = m;
}

static const char *ent_name(const void *arg, size_t i)
{
	return ((const struct pmu__rt *)arg)->ents[i].name;
}

/* The region of that name, by its name (never by the address it is at:
 * a caller's buffer may hold another name at the next marker). */
static ssize_t find(struct pmu__rt *t, const char *name)
{
	return pmu__nameidx_find(&t->idx, name, ent_name, t);
}

static ssize_t add(struct pmu__rt *t, const char *name)
{
	struct pmu__rt_ent *e;

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
	e->incl = calloc(t->m->n + 1, sizeof(*e->incl));
	e->excl = calloc(t->m->n + 1, sizeof(*e->excl));
	if (!e->incl || !e->excl ||
	    pmu__nameidx_add(&t->idx, t->nents, t->nents + 1, ent_name, t)) {
		free(e->incl);
		free(e->excl);
		return -ENOMEM;
	}
	return (ssize_t)t->nents++;
}

static struct pmu__rt_frame *push(struct pmu__rt *t)
{
	if (t->depth == t->scap) {
		size_t cap = t->scap ? t->scap * 2 : 8;
		struct pmu__rt_frame *s = realloc(t->stack, cap * sizeof(*s));

		if (!s)
			return NULL;
		memset(s + t->scap, 0, (cap - t->scap) * sizeof(*s));
		t->stack = s;
		for (size_t i = t->scap; i < cap; i++) {
			s[i].c0 = calloc(t->m->n + 1, sizeof(*s[i].c0));
			s[i].child = calloc(t->m->n + 1, sizeof(*s[i].child));
			if (!s[i].c0 || !s[i].child)
				return NULL;
			t->scap = i + 1;
		}
	}
	return &t->stack[t->depth++];
}

int pmu__rt_begin(struct pmu__rt *t, const char *name)
{
	size_t n = t->m->n;
	struct pmu__rt_frame *f;
	ssize_t k;

	if ((k = find(t, name)) < 0 && (k = add(t, name)) < 0)
		return (int)k;
	if (!(f = push(t)))
		return -ENOMEM;
	t->ents[k].calls++;
	t->ents[k].depth++;
	f->ent = (size_t)k;
	f->child_t = 0;
	memset(f->child, 0, n * sizeof(*f->child));
	/* read last: the marker's own work stays outside the region */
	pmu__rt_sample(t);
	f->t0 = t->now;
	memcpy(f->c0, t->cur, n * sizeof(*f->c0));
	return 0;
}

/* Close the innermost open region at the last reading. */
static void pop(struct pmu__rt *t)
{
	struct pmu__rt_frame *f = &t->stack[--t->depth];
	struct pmu__rt_ent *e = &t->ents[f->ent];
	uint64_t time = t->now - f->t0;

	if (--e->depth == 0)
		e->time += time;
	e->excl_time += time > f->child_t ? time - f->child_t : 0;
	for (size_t i = 0; i < t->m->n; i++) {
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

int pmu__rt_end(struct pmu__rt *t, const char *name)
{
	const char *top;

	/* read first: the marker's own work stays outside the region */
	pmu__rt_sample(t);
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

void pmu__rt_close_open(struct pmu__rt *t)
{
	while (t->depth) {
		t->ents[t->stack[t->depth - 1].ent].open_at_exit = true;
		pop(t);
	}
}

void pmu__rt_forget(struct pmu__rt *t)
{
	size_t n = t->m->n;

	for (size_t i = 0; i < t->nents; i++) {
		struct pmu__rt_ent *e = &t->ents[i];

		/* an instance open across goes on as a call of the new part */
		e->calls = e->depth;
		e->time = e->excl_time = 0;
		e->open_at_exit = false;
		memset(e->incl, 0, n * sizeof(*e->incl));
		memset(e->excl, 0, n * sizeof(*e->excl));
	}
	for (size_t d = 0; d < t->depth; d++) {
		struct pmu__rt_frame *f = &t->stack[d];

		f->t0 = t->now;
		f->child_t = 0;
		memcpy(f->c0, t->cur, n * sizeof(*f->c0));
		memset(f->child, 0, n * sizeof(*f->child));
	}
	for (size_t i = 0; i < t->nerr; i++)
		free(t->errors[i]);
	t->nerr = t->more_err = 0;
}

void pmu__rt_restart(struct pmu__rt *t)
{
	memset(t->cur, 0, t->m->n * sizeof(*t->cur));
	pmu__rt_sample(t);
	pmu__rt_forget(t);
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

static void write_head(FILE *f, const struct pmu__rt_meta *m, pid_t pid,
		       const char *error)
{
	fprintf(f, PMU__REGION_MAGIC "\npid\t%d\n", (int)pid);
	for (size_t i = 0; i < m->n; i++) {
		fputs("event\t", f);
		put_name(f, m->name[i]);
		fputc('\t', f);
		if (*m->unit[i])
			put_name(f, m->unit[i]);
		else
			fputc('-', f);
		fprintf(f, "\t%.17g\t%d\n", m->scale[i], m->counted[i]);
	}
	if (error) {
		fputs("error\t", f);
		put_name(f, error);
		fputc('\n', f);
	}
}

static void write_lines(FILE *f, const struct pmu__rt *t)
{
	size_t n = t->m->n;

	fprintf(f, "thread\t%d\n", (int)t->tid);
	for (size_t i = 0; i < t->nents; i++) {
		const struct pmu__rt_ent *e = &t->ents[i];

		if (!e->calls)   /* entered before a reset only */
			continue;
		fputs("region\t", f);
		put_name(f, e->name);
		fprintf(f, "\t%llu\t%llu\t%llu\t%d",
			(unsigned long long)e->calls,
			(unsigned long long)e->time,
			(unsigned long long)e->excl_time, e->open_at_exit);
		for (size_t j = 0; j < n; j++)
			fprintf(f, "\t%llu", (unsigned long long)e->incl[j]);
		for (size_t j = 0; j < n; j++)
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

static void free_copy(struct pmu__rt *s)
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

static uint64_t *dup_counts(const uint64_t *v, size_t n)
{
	uint64_t *c = malloc((n + 1) * sizeof(*c));

	if (c)
		memcpy(c, v, n * sizeof(*c));
	return c;
}

/* A copy of t's regions with what is open closed at its last reading,
 * flagged, t going on as it was (what a flush writes).  -ENOMEM. */
static int copy_closed(const struct pmu__rt *t, struct pmu__rt *s)
{
	size_t n = t->m->n;

	*s = (struct pmu__rt){ .m = t->m, .tid = t->tid, .cur = t->cur,
			       .now = t->now, .nerr = t->nerr,
			       .more_err = t->more_err };
	memcpy(s->errors, t->errors, sizeof(s->errors));
	s->ents = calloc(t->nents + 1, sizeof(*s->ents));
	s->stack = calloc(t->depth + 1, sizeof(*s->stack));
	if (!s->ents || !s->stack)
		return -ENOMEM;
	for (size_t i = 0; i < t->nents; i++) {
		s->ents[i] = t->ents[i];
		s->ents[i].incl = dup_counts(t->ents[i].incl, n);
		s->ents[i].excl = dup_counts(t->ents[i].excl, n);
		s->nents = i + 1;
		if (!s->ents[i].incl || !s->ents[i].excl)
			return -ENOMEM;
	}
	for (size_t d = 0; d < t->depth; d++) {
		s->stack[d] = t->stack[d];
		s->stack[d].c0 = dup_counts(t->stack[d].c0, n);
		s->stack[d].child = dup_counts(t->stack[d].child, n);
		s->scap = d + 1;
		if (!s->stack[d].c0 || !s->stack[d].child)
			return -ENOMEM;
		s->depth = d + 1;
	}
	pmu__rt_close_open(s);
	return 0;
}

static void write_thread(FILE *f, const struct pmu__rt *t, bool snap)
{
	struct pmu__rt s;

	if (!snap) {
		write_lines(f, t);
		return;
	}
	if (!copy_closed(t, &s))
		write_lines(f, &s);
	free_copy(&s);
}

/* Oldest thread first (the list is newest first): regions come out in
 * the order they were first entered. */
static void write_threads(FILE *f, const struct pmu__rt *t, bool snap)
{
	if (!t)
		return;
	write_threads(f, t->next, snap);
	write_thread(f, t, snap);
}

int pmu__rt_write_file(const char *dir, const char *name,
		       const struct pmu__rt_meta *m, pid_t pid,
		       const char *error, const struct pmu__rt *threads,
		       bool snap)
{
	char *path = NULL, *tmp = NULL;
	FILE *f;
	int ret = 0;

	if (asprintf(&path, "%s/%s", dir, name) < 0 ||
	    asprintf(&tmp, "%s/.%s.tmp", dir, name) < 0) {
		free(path);
		return -ENOMEM;
	}
	if (!(f = fopen(tmp, "we"))) {
		ret = -errno;
		goto out;
	}
	write_head(f, m, pid, error);
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
