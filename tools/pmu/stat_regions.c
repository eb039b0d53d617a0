/* SPDX-License-Identifier: MIT */
/*
 * pmu stat --regions: the command's libpmu counts its marked regions
 * (<pmu/region.h>) when the environment names a directory for them;
 * after the run their files are read (pmu_region_report_*) and printed
 * after the counts: per region a total over threads (inclusive and
 * exclusive), then one line per thread.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <pmu/pmu.h>

#include "cmd.h"
#include "stat.h"
#include "stat_ctx.h"

/* -e's events, as one comma list ("" for none). */
static char *user_events(const struct stat_opts *o)
{
	size_t len = 1;
	char *s, *p;

	for (size_t i = 0; i < o->nevents; i++)
		len += strlen(o->events[i]) + 1;
	if (!(s = p = malloc(len)))
		return NULL;
	*p = 0;
	for (size_t i = 0; i < o->nevents; i++)
		p += sprintf(p, "%s%s", i ? "," : "", o->events[i]);
	return s;
}

/* -M: where the metrics' events start among the command's events.  A
 * session of -e's events, never opened, takes the metrics' after them,
 * as the command's session will. */
static int metrics_base(struct stat_ctx *c, const char *user)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_session *s = pmu_session_new(&err);
	int rc;

	if (!s || (*user && pmu_session_add(s, user, &err))) {
		pmu_tool_err("--regions: %s", err.message);
		pmu_session_free(s);
		return EXIT_PMU_INPUT;
	}
	rc = stat_mset_add(c->regions_mset, s);
	c->regions_nev = pmu_session_nevents(s);
	pmu_session_free(s);
	return rc;
}

/* The events the command counts: -e's, else the default set; then
 * -M's metrics' (NULL on failure, after saying why: *rc the status). */
static char *region_events(struct stat_ctx *c, int *rc)
{
	const struct stat_opts *o = c->o;
	const char *mev;
	char *user, *out = NULL;

	*rc = EXIT_PMU_INPUT;
	if (!o->nevents && !o->nmetrics)
		return strdup(o->emulate ? EMU_DEFAULT_EVENTS
					 : "task-clock," SYSTEM_EVENTS);
	if (!(user = user_events(o)))
		return NULL;
	if (!o->nmetrics) {
		*rc = 0;
		return user;
	}
	if ((*rc = stat_mset_new(&c->regions_mset, o)) ||
	    (*rc = metrics_base(c, user))) {
		free(user);
		return NULL;
	}
	mev = pmu_metric_set_events(c->regions_mset);
	if (asprintf(&out, "%s%s%s", user, *user && *mev ? "," : "", mev) < 0)
		out = NULL;
	free(user);
	*rc = out ? 0 : EXIT_PMU_INPUT;
	return out;
}

/* The program `cmd` runs: itself with a '/', else the first in PATH. */
static bool find_program(const char *cmd, char *out, size_t len)
{
	const char *path = getenv("PATH");

	if (strchr(cmd, '/')) {
		snprintf(out, len, "%s", cmd);
		return access(out, X_OK) == 0;
	}
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");

		if (snprintf(out, len, "%.*s/%s", (int)n, n ? p : ".", cmd) <
		    (int)len && access(out, X_OK) == 0)
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

/* Does the program call one of names (among its dynamic symbols'
 * strings)? */
static bool calls_any(const char *cmd, const char *const *names, size_t n)
{
	char path[PATH_MAX];
	struct stat st;
	bool found = false;
	void *m;
	int fd;

	if (!find_program(cmd, path, sizeof(path)) ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !st.st_size ||
	    (m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd,
		      0)) == MAP_FAILED) {
		close(fd);
		return false;
	}
	for (size_t i = 0; !found && i < n; i++)
		found = memmem(m, (size_t)st.st_size, names[i],
			       strlen(names[i]) + 1) != NULL;
	munmap(m, (size_t)st.st_size);
	close(fd);
	return found;
}

/* A library of pmu's (libpmu-markers.so...): beside pmu (the build
 * tree) or in ../lib/pmu. */
static bool find_lib(const char *lib, char *out, size_t len)
{
	static const char *const rel[] = { "", "/../lib/pmu" };
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return false;
	exe[n] = 0;
	if (!(slash = strrchr(exe, '/')))
		return false;
	*slash = 0;
	for (size_t i = 0; i < sizeof(rel) / sizeof(*rel); i++)
		if (snprintf(out, len, "%s%s/%s", exe, rel[i], lib) <
		    (int)len && access(out, R_OK) == 0)
			return true;
	return false;
}

/* Preload `lib`, ahead of what LD_PRELOAD already holds; `what` says
 * what needs it when it is missing. */
static int preload(const char *name, const char *what)
{
	char lib[PATH_MAX], *v = NULL;
	const char *old = getenv("LD_PRELOAD");
	int ok;

	if (!find_lib(name, lib, sizeof(lib))) {
		pmu_tool_err("--regions: %s, but %s is not installed beside pmu",
			     what, name);
		return 0;
	}
	if (asprintf(&v, "%s%s%s", lib, old && *old ? ":" : "",
		     old ? old : "") < 0)
		return -ENOMEM;
	ok = !setenv("LD_PRELOAD", v, 1);
	free(v);
	return ok ? 0 : -errno;
}

/* A program built for PAPI's or LIKWID's markers gets pmu's in their
 * place; an MPI program gathers its ranks' regions to rank 0 at
 * MPI_Finalize. */
static int preload_markers(const char *cmd)
{
	static const char *const markers[] = {
		"PAPI_hl_region_begin", "likwid_markerStartRegion",
		"likwid_markerstartregion_",
	};
	static const char *const mpi[] = {
		"MPI_Finalize", "mpi_finalize_", "mpi_finalize__",
		"mpi_finalize", "MPI_FINALIZE", "mpi_finalize_f08_",
	};
	int ret = 0;

	if (calls_any(cmd, markers, sizeof(markers) / sizeof(*markers)))
		ret = preload("libpmu-markers.so", "the command calls PAPI's "
			      "or LIKWID's markers");
	if (!ret && calls_any(cmd, mpi, sizeof(mpi) / sizeof(*mpi)))
		ret = preload("libpmu-mpi.so", "the command is an MPI "
			      "program");
	return ret;
}

int stat_regions_prepare(struct stat_ctx *c)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = NULL, *ev;
	int ok, rc;

	if (!(ev = region_events(c, &rc)))
		return rc;
	if (asprintf(&dir, "%s/pmu-regions.XXXXXX",
		     tmp && *tmp ? tmp : "/tmp") < 0) {
		free(ev);
		pmu_tool_err("out of memory");
		return EXIT_PMU_INPUT;
	}
	if (!mkdtemp(dir)) {
		pmu_tool_err("cannot make a directory for the regions (%s): %s",
			     dir, strerror(errno));
		free(dir);
		free(ev);
		return EXIT_PMU_INPUT;
	}
	c->regions_dir = dir;
	ok = !setenv("PMU_REGIONS", dir, 1) &&
	     !setenv("PMU_REGIONS_EVENTS", ev, 1);
	if (ok && c->o->emulate)
		ok = !setenv("PMU_REGIONS_DRIVER", "emu", 1) &&
		     !setenv("PMU_REGIONS_MODEL", c->o->emulated ?
			     c->o->emulated : "", 1);
	free(ev);
	if (ok && preload_markers(c->o->argv[0]))
		ok = 0;
	if (!ok) {
		pmu_tool_err("cannot set the environment: %s", strerror(errno));
		return EXIT_PMU_INPUT;
	}
	return 0;
}

void stat_regions_cleanup(struct stat_ctx *c)
{
	DIR *d;
	struct dirent *e;

	if (!c->regions_dir)
		return;
	if ((d = opendir(c->regions_dir))) {
		while ((e = readdir(d))) {
			char *p = NULL;

			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			if (asprintf(&p, "%s/%s", c->regions_dir,
				     e->d_name) >= 0)
				unlink(p);
			free(p);
		}
		closedir(d);
	}
	rmdir(c->regions_dir);
	free(c->regions_dir);
	c->regions_dir = NULL;
}

/* The exclusive figure, after the '#' of a total's line. */
static void text_excl(FILE *f, const struct stat_opts *o, uint64_t v,
		      const char *unit, double scale)
{
	if (*unit)
		fprintf(f, o->big_num ? "%'14.2f %s" : "%14.2f %s",
			(double)v * scale, unit);
	else
		fprintf(f, o->big_num ? "%'14.0f" : "%14.0f", (double)v * scale);
	fputs(" exclusive\n", f);
}

/* A region's name as text: control bytes (and, in -x output, '%' and
 * the separator's bytes) as %XX, so that a line stays one line with
 * its fields. */
static void put_name(FILE *f, const char *s, const char *sep)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f ||
		    (sep && (c == '%' || strchr(sep, c))))
			fprintf(f, "%%%02X", c);
		else
			fputc(c, f);
	}
}

/* Shown: what the user named, and what was counted. */
static bool shown(const struct stat_ctx *c, const struct pmu_region_report *r,
		  size_t i)
{
	return c->o->nevents || pmu_region_report_counted(r, i);
}

static void text_value(FILE *f, const struct stat_opts *o, uint64_t v,
		       const char *unit, double scale, bool counted)
{
	if (!counted)
		fprintf(f, "%18s %-4s", "<not supported>", "");
	else if (*unit)
		fprintf(f, o->big_num ? "%'18.2f %-4s" : "%18.2f %-4s",
			(double)v * scale, unit);
	else
		fprintf(f, o->big_num ? "%'18.0f %-4s" : "%18.0f %-4s",
			(double)v * scale, "");
}

/* -M's metrics of a region's total, from its inclusive counts over its
 * inclusive time: a line each in the text, an object each in -j, a row
 * each in -x (the metric in the event's field, its unit in the unit's). */
static void metric_lines(struct stat_ctx *c, const struct pmu_region_report *r,
			 const struct pmu_region_row *t)
{
	size_t nev = pmu_region_report_nevents(r);
	struct pmu_metric_set *ms = c->regions_mset;
	FILE *f = c->out;
	double *counts;

	if (!ms || nev != c->regions_nev ||
	    !(counts = calloc(nev + 1, sizeof(*counts))))
		return;
	for (size_t i = 0; i < nev; i++)
		counts[i] = pmu_region_report_counted(r, i) ? (double)t->incl[i]
							    : NAN;
	for (size_t m = 0; m < pmu_metric_set_count(ms); m++) {
		struct pmu_metric_value v = { .size = sizeof(v) };
		struct pmu_error err = { .size = sizeof(err) };
		const char *unit;

		if (pmu_metric_set_value(ms, m, counts, nev, (double)t->time_ns,
					 &v, &err))
			continue;
		unit = v.unit ? v.unit : "";
		if (c->o->format == STAT_TEXT) {
			fprintf(f, "%18s %-4s %-25s # ", "", "", "");
			if (isnan(v.value))
				fprintf(f, "%14s %s  %s\n", "<not supported>",
					unit, v.name);
			else
				fprintf(f, "%14.2f %s  %s\n", v.value, unit,
					v.name);
		} else if (c->o->format == STAT_JSON) {
			fputs("{\"region\" : ", f);
			pmu_tool_json_str(f, t->name);
			fputs(", \"metric\" : ", f);
			pmu_tool_json_str(f, v.name);
			if (isnan(v.value))
				fputs(", \"value\" : null", f);
			else
				fprintf(f, ", \"value\" : %.4f", v.value);
			fputs(", \"unit\" : ", f);
			pmu_tool_json_str(f, unit);
			fputs("}\n", f);
		} else {
			const char *sep = c->o->sep;

			put_name(f, t->name, sep);
			fprintf(f, "%sall%sall%s%llu%s", sep, sep, sep,
				(unsigned long long)t->calls, sep);
			if (isnan(v.value))
				fputs("<not supported>", f);
			else
				fprintf(f, "%.4f", v.value);
			fprintf(f, "%s%s%s%s%s%s\n", sep, unit, sep, v.name,
				sep, sep);
		}
	}
	free(counts);
}

/* A thread's or a rank's line after its first columns: each shown
 * event's inclusive count, and whether the region was left open. */
static void row_cells(struct stat_ctx *c, const struct pmu_region_report *r,
		      const struct pmu_region_row *w)
{
	FILE *f = c->out;

	for (size_t i = 0; i < pmu_region_report_nevents(r); i++) {
		const char *unit;
		double scale;

		if (!shown(c, r, i))
			continue;
		pmu_region_report_event(r, i, &unit, &scale);
		if (!pmu_region_report_counted(r, i))
			fprintf(f, " %18s", "<not supported>");
		else
			fprintf(f, *unit ? " %18.3f" : " %18.0f",
				(double)w->incl[i] * scale);
	}
	fputs(w->open_at_exit ? "  (open at exit)\n" : "\n", f);
}

static void text_region(struct stat_ctx *c, const struct pmu_region_report *r,
			size_t k)
{
	FILE *f = c->out;
	const struct stat_opts *o = c->o;
	struct pmu_region_row t = { .size = sizeof(t) }, w = { .size = sizeof(w) };
	size_t nev = pmu_region_report_nevents(r), nrows;

	pmu_region_report_total(r, k, &t);
	fputs("\n Region '", f);
	put_name(f, t.name, NULL);
	fprintf(f, "' (%llu call%s in %llu thread%s)%s:\n\n",
		(unsigned long long)t.calls, t.calls == 1 ? "" : "s",
		(unsigned long long)t.threads, t.threads == 1 ? "" : "s",
		t.open_at_exit ? ", still open at exit" : "");
	text_value(f, o, t.time_ns, "msec", 1e-6, true);
	fprintf(f, " %-25s # ", "time");
	text_excl(f, o, t.excl_time_ns, "msec", 1e-6);
	for (size_t i = 0; i < nev; i++) {
		const char *unit;
		double scale;
		const char *name = pmu_region_report_event(r, i, &unit, &scale);
		bool counted = pmu_region_report_counted(r, i);

		if (!shown(c, r, i))
			continue;
		text_value(f, o, t.incl[i], unit, scale, counted);
		if (!counted) {
			fprintf(f, " %s\n", name);
			continue;
		}
		fprintf(f, " %-25s # ", name);
		text_excl(f, o, t.excl[i], unit, scale);
	}
	metric_lines(c, r, &t);
	nrows = pmu_region_report_nrows(r, k);
	fprintf(f, "\n %10s %10s %10s %14s", "pid", "thread", "calls",
		"time (msec)");
	for (size_t i = 0; i < nev; i++)
		if (shown(c, r, i))
			fprintf(f, " %18s", pmu_region_report_event(r, i, NULL,
								     NULL));
	fputc('\n', f);
	for (size_t j = 0; j < nrows; j++) {
		pmu_region_report_row(r, k, j, &w);
		fprintf(f, " %10d %10d %10llu %14.3f", (int)w.pid, (int)w.tid,
			(unsigned long long)w.calls, w.time_ns * 1e-6);
		row_cells(c, r, &w);
	}
}

/* -x: one line per region, thread (or "all") and event: region, pid,
 * thread, calls, inclusive value, unit, event, exclusive value, "open"
 * when the region was open at exit (else empty). */
static void csv_line(FILE *f, const char *sep, const struct pmu_region_row *w,
		     const char *event, const char *unit, double incl,
		     double excl, bool counted)
{
	put_name(f, w->name, sep);
	fputs(sep, f);
	if (w->tid)
		fprintf(f, "%d%s%d%s", (int)w->pid, sep, (int)w->tid, sep);
	else if (w->rank >= 0)
		fprintf(f, "rank%s%d%s", sep, w->rank, sep);
	else
		fprintf(f, "all%sall%s", sep, sep);
	fprintf(f, "%llu%s", (unsigned long long)w->calls, sep);
	if (counted)
		fprintf(f, "%.2f%s%s%s%s%s%.2f", incl, sep, unit, sep, event,
			sep, excl);
	else
		fprintf(f, "<not supported>%s%s%s%s%s", sep, unit, sep, event,
			sep);
	fprintf(f, "%s%s\n", sep, w->open_at_exit ? "open" : "");
}

static void json_line(FILE *f, const struct pmu_region_row *w,
		      const char *event, const char *unit, double incl,
		      double excl, bool counted)
{
	fputs("{\"region\" : ", f);
	pmu_tool_json_str(f, w->name);
	if (w->tid)
		fprintf(f, ", \"pid\" : %d, \"thread\" : %d", (int)w->pid,
			(int)w->tid);
	else if (w->rank >= 0)
		fprintf(f, ", \"rank\" : %d, \"pid\" : %d, \"threads\" : %llu",
			w->rank, (int)w->pid, (unsigned long long)w->threads);
	else
		fprintf(f, ", \"threads\" : %llu",
			(unsigned long long)w->threads);
	fprintf(f, ", \"calls\" : %llu, \"event\" : ",
		(unsigned long long)w->calls);
	pmu_tool_json_str(f, event);
	if (counted)
		fprintf(f, ", \"inclusive\" : %.2f, \"exclusive\" : %.2f",
			incl, excl);
	else
		fputs(", \"inclusive\" : \"<not supported>\"", f);
	fputs(", \"unit\" : ", f);
	pmu_tool_json_str(f, unit);
	fprintf(f, ", \"open-at-exit\" : %s}\n",
		w->open_at_exit ? "true" : "false");
}

static void lines_of(struct stat_ctx *c, const struct pmu_region_report *r,
		     const struct pmu_region_row *w)
{
	bool json = c->o->format == STAT_JSON;
	size_t nev = pmu_region_report_nevents(r);

	if (json)
		json_line(c->out, w, "time", "msec", w->time_ns * 1e-6,
			  w->excl_time_ns * 1e-6, true);
	else
		csv_line(c->out, c->o->sep, w, "time", "msec",
			 w->time_ns * 1e-6, w->excl_time_ns * 1e-6, true);
	for (size_t i = 0; i < nev; i++) {
		const char *unit;
		double scale;
		const char *name = pmu_region_report_event(r, i, &unit, &scale);
		bool counted = pmu_region_report_counted(r, i);

		if (!shown(c, r, i))
			continue;
		if (json)
			json_line(c->out, w, name, unit,
				  (double)w->incl[i] * scale,
				  (double)w->excl[i] * scale, counted);
		else
			csv_line(c->out, c->o->sep, w, name, unit,
				 (double)w->incl[i] * scale,
				 (double)w->excl[i] * scale, counted);
	}
}

static void machine_region(struct stat_ctx *c,
			   const struct pmu_region_report *r, size_t k)
{
	struct pmu_region_row w = { .size = sizeof(w) };

	pmu_region_report_total(r, k, &w);
	lines_of(c, r, &w);
	metric_lines(c, r, &w);
	for (size_t j = 0; j < pmu_region_report_nrows(r, k); j++) {
		pmu_region_report_row(r, k, j, &w);
		lines_of(c, r, &w);
	}
}

/* Figure j of region k's ranks: 0 the time, 1 + i event i. */
static void figure(const struct pmu_region_report *r, size_t j,
		   const char **name, const char **unit, double *scale)
{
	if (!j) {
		*name = "time";
		*unit = "msec";
		*scale = 1e-6;
		return;
	}
	*name = pmu_region_report_event(r, j - 1, unit, scale);
}

/* An MPI job's region: the spread over ranks of each figure, then (with
 * --per-rank) each rank's total. */
static void text_ranks(struct stat_ctx *c, const struct pmu_region_report *r,
		       size_t k)
{
	FILE *f = c->out;
	struct pmu_region_row t = { .size = sizeof(t) }, w = { .size = sizeof(w) };
	struct pmu_region_spread sp = { .size = sizeof(sp) };
	size_t nev = pmu_region_report_nevents(r);

	pmu_region_report_total(r, k, &t);
	pmu_region_report_spread(r, k, 0, &sp);
	fputs("\n Region '", f);
	put_name(f, t.name, NULL);
	fprintf(f, "' (%llu calls in %llu threads of %zu rank%s)%s:\n\n",
		(unsigned long long)t.calls, (unsigned long long)t.threads,
		sp.nranks, sp.nranks == 1 ? "" : "s",
		t.open_at_exit ? ", still open at exit" : "");
	fprintf(f, " %-26s %14s %14s %14s %14s %s\n", "", "sum", "min", "mean",
		"max", "rank of max");
	for (size_t j = 0; j <= nev; j++) {
		const char *name, *unit;
		double scale;
		char label[64];

		if (j && !shown(c, r, j - 1))
			continue;
		figure(r, j, &name, &unit, &scale);
		snprintf(label, sizeof(label), *unit ? "%s (%s)" : "%s", name,
			 unit);
		if (j && !pmu_region_report_counted(r, j - 1)) {
			fprintf(f, " %-26s %14s\n", label, "<not supported>");
			continue;
		}
		pmu_region_report_spread(r, k, j, &sp);
		fprintf(f, *unit ? " %-26s %14.3f %14.3f %14.3f %14.3f %6d\n"
				 : " %-26s %14.0f %14.0f %14.1f %14.0f %6d\n",
			label, sp.sum * scale, sp.min * scale, sp.mean * scale,
			sp.max * scale, sp.max_rank);
	}
	metric_lines(c, r, &t);
	if (!c->o->per_rank)
		return;
	fprintf(f, "\n %6s %10s %8s %10s %14s", "rank", "pid", "threads",
		"calls", "time (msec)");
	for (size_t i = 0; i < nev; i++)
		if (shown(c, r, i))
			fprintf(f, " %18s", pmu_region_report_event(r, i, NULL,
								     NULL));
	fputc('\n', f);
	for (size_t q = 0; q < pmu_region_report_nrank_rows(r, k); q++) {
		pmu_region_report_rank_row(r, k, q, &w);
		fprintf(f, " %6d %10d %8llu %10llu %14.3f", w.rank, (int)w.pid,
			(unsigned long long)w.threads,
			(unsigned long long)w.calls, w.time_ns * 1e-6);
		row_cells(c, r, &w);
	}
}

/* -x and -j of a job's region: a line per figure with its spread over
 * the ranks (region, "ranks", N, calls, figure, unit, sum, min, mean,
 * max, rank of the max), then with --per-rank the ranks' rows as the
 * threads' are printed, "rank" and the rank in place of pid and thread. */
static void machine_ranks(struct stat_ctx *c,
			  const struct pmu_region_report *r, size_t k)
{
	FILE *f = c->out;
	const char *sep = c->o->sep;
	bool json = c->o->format == STAT_JSON;
	struct pmu_region_row t = { .size = sizeof(t) }, w = { .size = sizeof(w) };
	struct pmu_region_spread sp = { .size = sizeof(sp) };
	size_t nev = pmu_region_report_nevents(r);

	pmu_region_report_total(r, k, &t);
	for (size_t j = 0; j <= nev; j++) {
		const char *name, *unit;
		double scale;

		if (j && (!shown(c, r, j - 1) ||
			  !pmu_region_report_counted(r, j - 1)))
			continue;
		figure(r, j, &name, &unit, &scale);
		pmu_region_report_spread(r, k, j, &sp);
		if (json) {
			fputs("{\"region\" : ", f);
			pmu_tool_json_str(f, t.name);
			fprintf(f, ", \"ranks\" : %zu, \"calls\" : %llu, "
				"\"event\" : ", sp.nranks,
				(unsigned long long)t.calls);
			pmu_tool_json_str(f, name);
			fputs(", \"unit\" : ", f);
			pmu_tool_json_str(f, unit);
			fprintf(f, ", \"sum\" : %.2f, \"min\" : %.2f, "
				"\"mean\" : %.2f, \"max\" : %.2f, "
				"\"min-rank\" : %d, \"max-rank\" : %d}\n",
				sp.sum * scale, sp.min * scale, sp.mean * scale,
				sp.max * scale, sp.min_rank, sp.max_rank);
			continue;
		}
		put_name(f, t.name, sep);
		fprintf(f, "%sranks%s%zu%s%llu%s%s%s%s%s%.2f%s%.2f%s%.2f%s%.2f%s%d\n",
			sep, sep, sp.nranks, sep, (unsigned long long)t.calls,
			sep, name, sep, unit, sep, sp.sum * scale, sep,
			sp.min * scale, sep, sp.mean * scale, sep,
			sp.max * scale, sep, sp.max_rank);
	}
	metric_lines(c, r, &t);
	for (size_t q = 0; c->o->per_rank &&
			   q < pmu_region_report_nrank_rows(r, k); q++) {
		pmu_region_report_rank_row(r, k, q, &w);
		lines_of(c, r, &w);
	}
}

int stat_regions_record(struct stat_ctx *c)
{
	struct pmu_error err = { .size = sizeof(err) };

	pmu_region_recorder_free(c->recorder);
	if ((c->recorder = pmu_region_recorder_new(c->s, &err)))
		return 0;
	pmu_tool_err("--regions: %s", err.message);
	return EXIT_PMU_INPUT;
}

int stat_regions_recorded(struct stat_ctx *c)
{
	struct pmu_error err = { .size = sizeof(err) };

	pmu_region_report_free(c->regions_report);
	c->regions_report = pmu_region_recorder_report(c->recorder, &err);
	pmu_region_recorder_free(c->recorder);
	c->recorder = NULL;
	if (c->regions_report)
		return 0;
	pmu_tool_err("--regions: %s", err.message);
	return EXIT_PMU_INPUT;
}

/* The regions of the run: the command's files, or what the stream's
 * statements recorded. */
static struct pmu_region_report *load(struct stat_ctx *c, int *rc)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_region_report *r;

	*rc = 0;
	if (c->regions_report) {
		r = c->regions_report;
		c->regions_report = NULL;
		return r;
	}
	if (!c->regions_dir)
		return NULL;
	r = pmu_region_report_load(c->regions_dir, &err);
	if (!r && err.code == -ENOENT)
		/* no marker ran: say so, the counts above stand */
		pmu_tool_err("--regions: '%s' wrote no regions: it marked none "
			     "(pmu_region_begin in a program linked with libpmu, "
			     "<pmu/region.h>), or ended before it could write "
			     "them (a signal, _exit(), an exec without "
			     "pmu_region_flush())", c->o->argv[0]);
	else if (!r) {
		pmu_tool_err("--regions: %s", err.message);
		*rc = EXIT_PMU_INPUT;
	}
	return r;
}

/* What rank `rank` of an MPI job marked after MPI_Finalize: its own,
 * printed by its own pmu stat (MPI could not carry it to rank 0); in
 * -x and -j its threads' rows (which a job's report never has). */
static void print_after(struct stat_ctx *c, int rank)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_region_report *r;
	size_t n;

	if (!c->regions_dir ||
	    !(r = pmu_region_report_load_after(c->regions_dir, &err))) {
		if (err.code && err.code != -ENOENT)
			pmu_tool_err("--regions: %s", err.message);
		return;
	}
	n = pmu_region_report_nregions(r);
	if (c->o->format == STAT_TEXT)
		fprintf(c->out, "\n Regions of rank %d after MPI_Finalize (its "
			"own, not gathered):\n", rank);
	for (size_t k = 0; k < n; k++) {
		struct pmu_region_row w = { .size = sizeof(w) };

		if (c->o->format == STAT_TEXT) {
			text_region(c, r, k);
			continue;
		}
		for (size_t j = 0; j < pmu_region_report_nrows(r, k); j++) {
			pmu_region_report_row(r, k, j, &w);
			lines_of(c, r, &w);
		}
	}
	if (c->o->format == STAT_TEXT)
		fputc('\n', c->out);
	for (size_t i = 0; i < pmu_region_report_nerrors(r); i++)
		pmu_tool_err("--regions: rank %d: %s", rank,
			     pmu_region_report_error(r, i));
	pmu_region_report_free(r);
}

int stat_regions_print(struct stat_ctx *c)
{
	const char *what = c->o->argv ? c->o->argv[0] : c->o->stream;
	struct pmu_region_report *r;
	size_t n;
	int rc;

	if (!(r = load(c, &rc)))
		return rc;
	if (pmu_region_report_sent(r) >= 0) {
		int rank = pmu_region_report_sent(r);

		/* another rank of an MPI job: rank 0 prints the job's */
		if (c->o->format == STAT_TEXT)
			fprintf(c->out, "\n Regions of rank %d: gathered to rank "
				"0, which reports the job's.\n", rank);
		print_after(c, rank);
		if (c->o->format == STAT_TEXT)
			fputc('\n', c->out);
		pmu_region_report_free(r);
		return 0;
	}
	n = pmu_region_report_nregions(r);
	if (!n && !c->o->argv)
		pmu_tool_err("--regions: '%s' marks no region (statements "
			     "region begin NAME ... region end NAME)", what);
	if (c->o->format == STAT_TEXT && n)
		fprintf(c->out, "\n Regions of '%s'%s:\n", what,
			pmu_region_report_nranks(r) ? ", every rank" : "");
	for (size_t k = 0; k < n; k++) {
		bool ranks = pmu_region_report_nranks(r) > 0;

		if (c->o->format == STAT_TEXT)
			(ranks ? text_ranks : text_region)(c, r, k);
		else
			(ranks ? machine_ranks : machine_region)(c, r, k);
	}
	if (c->o->format == STAT_TEXT && n)
		fputc('\n', c->out);
	for (size_t i = 0; i < pmu_region_report_nerrors(r); i++)
		pmu_tool_err("--regions: %s", pmu_region_report_error(r, i));
	if (pmu_region_report_nranks(r))
		print_after(c, 0);
	pmu_region_report_free(r);
	return 0;
}
