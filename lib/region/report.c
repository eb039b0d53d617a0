/* SPDX-License-Identifier: MIT */
/* What measured programs wrote of their regions (region.h's format),
 * read back, merged by region name, with totals over threads. */
#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/region.h>

#include "region/nameidx.h"
#include "region/region.h"
#include "region/regtab.h"
#include "util/error.h"
#include "util/file.h"
#include "util/outstruct.h"

/* Region files are small; a larger one is not one. */
#define MAX_FILE (256u << 20)

struct rrow {
	pid_t pid, tid;
	int rank;                /* -1: not a job's */
	uint64_t calls, time, excl_time;
	bool open;
	uint64_t *incl, *excl;   /* [nev] */
};

struct rregion {
	char *name;
	struct rrow *rows;
	size_t n, cap;
	struct rrow total;       /* summed at load's end */
	uint64_t threads;
	struct rrow *rk;         /* per rank (sum of its rows), rank order */
	size_t nrk;
	uint64_t *rk_threads;    /* [nrk] */
};

struct pmu_region_report {
	struct pmu__rt_meta m;   /* the events, as the first file names them */
	bool have_events;
	struct rregion *reg;
	size_t nreg, capreg;
	char **errors;
	size_t nerr, caperr;
	struct pmu__nameidx idx; /* names to reg */
	size_t nranks;           /* an MPI job's files: regions.rank.R */
	int sent;                /* regions.sent: this rank's went to 0 */
};

/* A field's %XX escapes undone, in place. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		unsigned v;

		if (*s == '%' && sscanf(s + 1, "%2x", &v) == 1 &&
		    s[1] && s[2]) {
			*o++ = (char)v;
			s += 2;
		} else {
			*o++ = *s;
		}
	}
	*o = 0;
}

/* Split line into at most max tab-separated fields; their number. */
static size_t split(char *line, char **f, size_t max)
{
	size_t n = 0;

	while (n < max) {
		f[n++] = line;
		if (!(line = strchr(line, '\t')))
			break;
		*line++ = 0;
	}
	return n;
}

static int num(const char *s, uint64_t *out)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

static const char *reg_name(const void *arg, size_t k)
{
	return ((const struct pmu_region_report *)arg)->reg[k].name;
}

static struct rregion *region_of(struct pmu_region_report *r,
				 const char *name)
{
	ssize_t at = pmu__nameidx_find(&r->idx, name, reg_name, r);
	struct rregion *g;

	if (at >= 0)
		return &r->reg[at];
	if (r->nreg == r->capreg) {
		size_t cap = r->capreg ? r->capreg * 2 : 8;

		if (!(g = realloc(r->reg, cap * sizeof(*g))))
			return NULL;
		r->reg = g;
		r->capreg = cap;
	}
	g = &r->reg[r->nreg];
	memset(g, 0, sizeof(*g));
	if (!(g->name = strdup(name)))
		return NULL;
	if (pmu__nameidx_add(&r->idx, r->nreg, r->nreg + 1, reg_name, r)) {
		free(g->name);
		return NULL;
	}
	r->nreg++;
	return g;
}

static int add_error(struct pmu_region_report *r, const char *text)
{
	if (r->nerr == r->caperr) {
		size_t cap = r->caperr ? r->caperr * 2 : 8;
		char **e = realloc(r->errors, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		r->errors = e;
		r->caperr = cap;
	}
	if (!(r->errors[r->nerr] = strdup(text)))
		return -ENOMEM;
	r->nerr++;
	return 0;
}

/* *p holds n elements of size sz (unchanged when memory runs out). */
static int grow(void **p, size_t n, size_t sz)
{
	void *q = realloc(*p, n * sz);

	if (!q)
		return -ENOMEM;
	*p = q;
	return 0;
}

/* One "event" line: the first file sets the list, the others match it. */
static int event_line(struct pmu_region_report *r, char **f, size_t n,
		      size_t *seen, bool first)
{
	double scale;
	char *end;
	size_t i = (*seen)++;

	if (n != 5)
		return -1;
	unescape(f[1]);
	unescape(f[2]);
	scale = strtod(f[3], &end);
	if (*end || (strcmp(f[4], "0") && strcmp(f[4], "1")))
		return -1;
	if (!first)
		return i < r->m.n && !strcmp(r->m.name[i], f[1]) ? 0 : -2;
	if (grow((void **)&r->m.name, i + 1, sizeof(*r->m.name)) ||
	    grow((void **)&r->m.unit, i + 1, sizeof(*r->m.unit)) ||
	    grow((void **)&r->m.scale, i + 1, sizeof(*r->m.scale)) ||
	    grow((void **)&r->m.counted, i + 1, sizeof(*r->m.counted)))
		return -3;
	r->m.name[i] = strdup(f[1]);
	r->m.unit[i] = strdup(strcmp(f[2], "-") ? f[2] : "");
	r->m.scale[i] = scale;
	r->m.counted[i] = f[4][0] == '1';
	r->m.n = i + 1;
	return r->m.name[i] && r->m.unit[i] ? 0 : -3;
}

static int region_line(struct pmu_region_report *r, char **f, size_t n,
		       pid_t pid, pid_t tid, int rank)
{
	struct rregion *g;
	struct rrow row = { .pid = pid, .tid = tid, .rank = rank };
	uint64_t open;

	if (n != 6 + 2 * r->m.n || !*f[1] || num(f[2], &row.calls) ||
	    num(f[3], &row.time) || num(f[4], &row.excl_time) ||
	    num(f[5], &open) || open > 1)
		return -1;
	row.open = open;
	row.incl = calloc(r->m.n + 1, sizeof(*row.incl));
	row.excl = calloc(r->m.n + 1, sizeof(*row.excl));
	if (!row.incl || !row.excl)
		goto nomem;
	for (size_t i = 0; i < r->m.n; i++)
		if (num(f[6 + i], &row.incl[i]) ||
		    num(f[6 + r->m.n + i], &row.excl[i])) {
			free(row.incl);
			free(row.excl);
			return -1;
		}
	unescape(f[1]);
	if (!(g = region_of(r, f[1])))
		goto nomem;
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 4;
		struct rrow *rows = realloc(g->rows, cap * sizeof(*rows));

		if (!rows)
			goto nomem;
		g->rows = rows;
		g->cap = cap;
	}
	g->rows[g->n++] = row;
	return 0;
nomem:
	free(row.incl);
	free(row.excl);
	return -3;
}

static int bad(struct pmu_error *err, const char *path, size_t line,
	       const char *why)
{
	return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, path, -1,
			  "%s:%zu: %s", path, line, why);
}

/* One process's file. */
static int load_file(struct pmu_region_report *r, const char *path,
		     int rank, struct pmu_error *err)
{
	size_t len = 0, lineno = 0, seen = 0;
	char *text = pmu__read_file(path, MAX_FILE, &len), *line, *next;
	bool first = !r->have_events, ended = false;
	pid_t pid = 0, tid = -1;
	int ret = 0;

	if (!text)
		return pmu__error(err, -errno, PMU_ERR_SYSTEM, path, -1,
				  "%s: %s", path, strerror(errno));
	if (strlen(text) != len) {
		free(text);
		return bad(err, path, 1, "not a region file (a NUL byte)");
	}
	for (line = text; !ret && line && *line; line = next) {
		char *f[6 + 2 * 256 + 1];
		size_t n;
		uint64_t v;

		lineno++;
		if ((next = strchr(line, '\n')))
			*next++ = 0;
		else
			ret = bad(err, path, lineno, "the file ends in the "
				  "middle of a line (the program was killed?)");
		if (ret)
			break;
		if (lineno == 1) {
			if (strcmp(line, PMU__REGION_MAGIC))
				ret = bad(err, path, 1, "not a region file of "
					  "this version");
			continue;
		}
		if (ended) {
			ret = bad(err, path, lineno, "text after 'end'");
			break;
		}
		n = split(line, f, sizeof(f) / sizeof(*f));
		if (!strcmp(f[0], "pid") && n == 2 && !num(f[1], &v) && v &&
		    v <= INT32_MAX) {
			pid = (pid_t)v;
		} else if (!strcmp(f[0], "event") && tid < 0 && seen < 256) {
			int e = event_line(r, f, n, &seen, first);

			if (e == -2)
				ret = pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE,
						 path, -1, "%s: counts events "
						 "other than the first file's",
						 path);
			else if (e == -3)
				ret = pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM,
						 NULL, -1, "out of memory");
			else if (e)
				ret = bad(err, path, lineno, "a malformed "
					  "event line");
		} else if (!strcmp(f[0], "thread") && n == 2 &&
			   !num(f[1], &v) && v && v <= INT32_MAX && pid) {
			if (!first && seen != r->m.n)
				ret = pmu__error(err, -EINVAL,
						 PMU_ERR_BAD_VALUE, path, -1,
						 "%s: counts events other than "
						 "the first file's", path);
			r->have_events = true;
			first = false;
			tid = (pid_t)v;
		} else if (!strcmp(f[0], "region") && tid > 0) {
			int e = region_line(r, f, n, pid, tid, rank);

			if (e == -3)
				ret = pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM,
						 NULL, -1, "out of memory");
			else if (e)
				ret = bad(err, path, lineno, "a malformed "
					  "region line");
		} else if (!strcmp(f[0], "error") && n == 2) {
			unescape(f[1]);
			if (add_error(r, f[1]))
				ret = pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM,
						 NULL, -1, "out of memory");
		} else if (!strcmp(f[0], "end") && n == 1 && pid) {
			ended = true;
		} else {
			ret = bad(err, path, lineno, "a line of no known kind");
		}
	}
	if (!ret && !ended)
		ret = bad(err, path, lineno, "no 'end' line: the file is cut "
			  "short");
	if (!ret)
		r->have_events = true;
	free(text);
	return ret;
}

static void add_row(struct rrow *t, const struct rrow *w, size_t nev)
{
	t->calls += w->calls;
	t->time += w->time;
	t->excl_time += w->excl_time;
	t->open |= w->open;
	for (size_t i = 0; i < nev; i++) {
		t->incl[i] += w->incl[i];
		t->excl[i] += w->excl[i];
	}
}

static int new_row(struct rrow *t, size_t nev, int rank)
{
	memset(t, 0, sizeof(*t));
	t->rank = rank;
	t->incl = calloc(nev + 1, sizeof(*t->incl));
	t->excl = calloc(nev + 1, sizeof(*t->excl));
	return t->incl && t->excl ? 0 : -ENOMEM;
}

/* The total over every row, and (a job's) each rank's. */
static int total(struct pmu_region_report *r, struct rregion *g)
{
	if (new_row(&g->total, r->m.n, -1))
		return -ENOMEM;
	for (size_t j = 0; j < g->n; j++)
		add_row(&g->total, &g->rows[j], r->m.n);
	g->threads = g->n;
	if (!r->nranks)
		return 0;
	g->rk = calloc(g->n + 1, sizeof(*g->rk));
	g->rk_threads = calloc(g->n + 1, sizeof(*g->rk_threads));
	if (!g->rk || !g->rk_threads)
		return -ENOMEM;
	/* rows come in rank order: files are read so */
	for (size_t j = 0; j < g->n; j++) {
		const struct rrow *w = &g->rows[j];

		if (!g->nrk || g->rk[g->nrk - 1].rank != w->rank) {
			if (new_row(&g->rk[g->nrk], r->m.n, w->rank))
				return -ENOMEM;
			g->rk[g->nrk].pid = w->pid;
			g->nrk++;
		}
		add_row(&g->rk[g->nrk - 1], w, r->m.n);
		g->rk_threads[g->nrk - 1]++;
	}
	return 0;
}

static int region_file(const struct dirent *d)
{
	return !strncmp(d->d_name, "regions.", 8);
}

/* The number a file's name ends with: a process's, or a rank's. */
static long name_num(const char *name)
{
	const char *dot = strrchr(name, '.');

	return dot ? strtol(dot + 1, NULL, 10) : -1;
}

/* Files in the order of their processes (or ranks). */
static int by_pid(const struct dirent **a, const struct dirent **b)
{
	long x = name_num((*a)->d_name), y = name_num((*b)->d_name);

	return x < y ? -1 : x > y ? 1 : strcmp((*a)->d_name, (*b)->d_name);
}

/* regions.sent: "rank R of N". */
static int sent_rank(const char *dir)
{
	char path[4096];
	FILE *f;
	int rank = -1;

	snprintf(path, sizeof(path), "%s/regions.sent", dir);
	if ((f = fopen(path, "re"))) {
		if (fscanf(f, "rank %d", &rank) != 1 || rank < 0)
			rank = -1;
		fclose(f);
	}
	return rank;
}

/* The files of dir: every one (after: a rank's own files only, what
 * its process marked after sending the rest). */
static struct pmu_region_report *load_dir(const char *dir, bool after,
					  struct pmu_error *err)
{
	struct pmu_region_report *r;
	struct dirent **names = NULL;
	int n, ret = 0;
	bool any = false;

	pmu__error_clear(err);
	if (!dir) {
		pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
			   "no directory given");
		errno = EINVAL;
		return NULL;
	}
	n = scandir(dir, &names, region_file, by_pid);
	if (n < 0) {
		ret = pmu__error(err, -errno, PMU_ERR_SYSTEM, dir, -1, "%s: %s",
				 dir, strerror(errno));
		errno = -ret;
		return NULL;
	}
	if (!(r = calloc(1, sizeof(*r))))
		ret = pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				 "out of memory");
	/* an MPI job's: the ranks' files, which hold every process's
	 * regions; another rank's: a note saying they went to rank 0 */
	for (int i = 0; r && i < n; i++) {
		if (!strncmp(names[i]->d_name, "regions.rank.", 13))
			r->nranks++;
		if (!strcmp(names[i]->d_name, "regions.sent"))
			r->sent = sent_rank(dir);
	}
	if (r && !r->nranks)
		r->sent = r->sent > 0 ? r->sent : -1;
	else if (r)
		r->sent = -1;
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		bool rank = !strncmp(name, "regions.rank.", 13);
		bool note = !strcmp(name, "regions.sent");
		/* a rank's own file holds what it marked after sending */
		bool own = !rank && !note;
		bool take = after ? own && (r->nranks || r->sent >= 0)
				  : !note && (!r->nranks || rank) && r->sent < 0;
		char *path = NULL;

		if (!ret && take && asprintf(&path, "%s/%s", dir, name) < 0)
			ret = pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
					 "out of memory");
		if (!ret && path)
			ret = load_file(r, path, rank ? (int)name_num(name) : -1,
					err);
		any |= path != NULL;
		free(path);
		free(names[i]);
	}
	free(names);
	if (!ret && after && r->nreg == 0 && !r->nerr)
		ret = pmu__error(err, -ENOENT, PMU_ERR_SYSTEM, dir, -1,
				 "%s: no region marked after the rank's were "
				 "sent", dir);
	else if (!ret && !any && (!r->nranks && r->sent < 0))
		ret = pmu__error(err, -ENOENT, PMU_ERR_SYSTEM, dir, -1,
				 "%s: no region file: the program marked no "
				 "region, or was not linked with libpmu", dir);
	for (size_t k = 0; !ret && k < r->nreg; k++)
		if (total(r, &r->reg[k]))
			ret = pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
					 "out of memory");
	if (ret) {
		pmu_region_report_free(r);
		errno = -ret;
		return NULL;
	}
	if (after)
		r->sent = -1, r->nranks = 0;
	return r;
}

PMU_API struct pmu_region_report *pmu_region_report_load(
	const char *dir, struct pmu_error *err)
{
	return load_dir(dir, false, err);
}

PMU_API struct pmu_region_report *pmu_region_report_load_after(
	const char *dir, struct pmu_error *err)
{
	return load_dir(dir, true, err);
}

static void free_row(struct rrow *w)
{
	free(w->incl);
	free(w->excl);
}

static void free_region(struct rregion *g)
{
	for (size_t j = 0; j < g->n; j++)
		free_row(&g->rows[j]);
	for (size_t j = 0; j < g->nrk; j++)
		free_row(&g->rk[j]);
	free_row(&g->total);
	free(g->rows);
	free(g->rk);
	free(g->rk_threads);
	free(g->name);
}

PMU_API void pmu_region_report_free(struct pmu_region_report *r)
{
	if (!r)
		return;
	pmu__rt_meta_free(&r->m);
	for (size_t k = 0; k < r->nreg; k++)
		free_region(&r->reg[k]);
	pmu__nameidx_free(&r->idx);
	for (size_t i = 0; i < r->nerr; i++)
		free(r->errors[i]);
	free(r->errors);
	free(r->reg);
	free(r);
}

PMU_API size_t pmu_region_report_nevents(const struct pmu_region_report *r)
{
	return r ? r->m.n : 0;
}

PMU_API const char *pmu_region_report_event(
	const struct pmu_region_report *r, size_t i, const char **unit,
	double *scale)
{
	if (!r || i >= r->m.n)
		return NULL;
	if (unit)
		*unit = r->m.unit[i];
	if (scale)
		*scale = r->m.scale[i];
	return r->m.name[i];
}

PMU_API bool pmu_region_report_counted(const struct pmu_region_report *r,
				       size_t i)
{
	return r && i < r->m.n && r->m.counted[i];
}

PMU_API size_t pmu_region_report_nregions(const struct pmu_region_report *r)
{
	return r ? r->nreg : 0;
}

static int fill(const struct rregion *g, const struct rrow *w,
		uint64_t threads, struct pmu_region_row *out)
{
	struct pmu_region_row row = {
		.size = sizeof(row), .name = g->name, .pid = w->pid,
		.tid = w->tid, .rank = w->rank, .calls = w->calls,
		.threads = threads,
		.time_ns = w->time, .excl_time_ns = w->excl_time,
		.open_at_exit = w->open, .incl = w->incl, .excl = w->excl,
	};

	if (!out || !pmu__out_ok(out, out->size))
		return -EINVAL;
	PMU__OUT(out, &row);
	return 0;
}

PMU_API int pmu_region_report_total(const struct pmu_region_report *r,
				    size_t k, struct pmu_region_row *out)
{
	if (!r || k >= r->nreg)
		return -EINVAL;
	return fill(&r->reg[k], &r->reg[k].total, r->reg[k].threads, out);
}

PMU_API size_t pmu_region_report_nrows(const struct pmu_region_report *r,
				       size_t k)
{
	return r && k < r->nreg ? r->reg[k].n : 0;
}

PMU_API int pmu_region_report_row(const struct pmu_region_report *r,
				  size_t k, size_t j,
				  struct pmu_region_row *out)
{
	if (!r || k >= r->nreg || j >= r->reg[k].n)
		return -EINVAL;
	return fill(&r->reg[k], &r->reg[k].rows[j], 1, out);
}

PMU_API size_t pmu_region_report_nerrors(const struct pmu_region_report *r)
{
	return r ? r->nerr : 0;
}

PMU_API const char *pmu_region_report_error(
	const struct pmu_region_report *r, size_t i)
{
	return r && i < r->nerr ? r->errors[i] : NULL;
}

PMU_API size_t pmu_region_report_nranks(const struct pmu_region_report *r)
{
	return r ? r->nranks : 0;
}

PMU_API int pmu_region_report_sent(const struct pmu_region_report *r)
{
	return r ? r->sent : -1;
}

PMU_API size_t pmu_region_report_nrank_rows(const struct pmu_region_report *r,
					    size_t k)
{
	return r && k < r->nreg ? r->reg[k].nrk : 0;
}

PMU_API int pmu_region_report_rank_row(const struct pmu_region_report *r,
				       size_t k, size_t q,
				       struct pmu_region_row *out)
{
	if (!r || k >= r->nreg || q >= r->reg[k].nrk)
		return -EINVAL;
	return fill(&r->reg[k], &r->reg[k].rk[q], r->reg[k].rk_threads[q],
		    out);
}

PMU_API int pmu_region_report_spread(const struct pmu_region_report *r,
				     size_t k, size_t figure,
				     struct pmu_region_spread *out)
{
	struct pmu_region_spread sp = { .size = sizeof(sp) };
	const struct rregion *g;

	if (!r || k >= r->nreg || figure > r->m.n || !out ||
	    !pmu__out_ok(out, out->size))
		return -EINVAL;
	g = &r->reg[k];
	for (size_t q = 0; q < g->nrk; q++) {
		const struct rrow *w = &g->rk[q];
		double v = figure ? (double)w->incl[figure - 1] : (double)w->time;

		if (!q || v < sp.min) {
			sp.min = v;
			sp.min_rank = w->rank;
		}
		if (!q || v > sp.max) {
			sp.max = v;
			sp.max_rank = w->rank;
		}
		sp.sum += v;
	}
	sp.nranks = g->nrk;
	sp.mean = g->nrk ? sp.sum / (double)g->nrk : 0;
	PMU__OUT(out, &sp);
	return 0;
}
