/* SPDX-License-Identifier: MIT */
/* perf stat's output: the text table, -x CSV and --json, with perf's
 * field widths, prefixes of the aggregation modes and the cgroup column. */
#include <math.h>
#include <string.h>

#include "cmd.h"
#include "stat.h"

static const char *status_text(enum pmu_event_status st)
{
	return st == PMU_EVENT_NOT_SUPPORTED ? "<not supported>"
					     : "<not counted>";
}

static double pct_running(const struct stat_row *r)
{
	return r->enabled > 0 ? 100.0 * r->running / r->enabled : 100.0;
}

/* The percentage -x and --json print: perf divides whole nanoseconds
 * and keeps the whole part (76.00 for 76.28), as scripts read it. */
static double pct_running_whole(const struct stat_row *r)
{
	uint64_t run = (uint64_t)r->running, ena = (uint64_t)r->enabled;

	return ena && run != ena ? (double)(100 * run / ena) : 100.0;
}

/* A derived figure in -x: perf prints it as the text table does and
 * keeps the number alone (digits and the point, no padding or %). */
static void csv_metric(FILE *f, const struct stat_row *r, const char *sep)
{
	char buf[64], *v, *e;

	stat_metric_format(buf, sizeof(buf), r);
	for (v = buf; *v == ' '; v++)
		;
	e = v + (*v == '-');
	while ((*e >= '0' && *e <= '9') || *e == '.')
		e++;
	*e = '\0';
	fprintf(f, "%s%s%s", v, sep, r->metric_unit);
}

static bool has_unit(const struct stat_row *r)
{
	return r->unit && r->unit[0];
}

/* perf's rule: two decimals when the scale makes fractions (msec of a
 * ns clock, Joules), whole numbers otherwise (ns, counts). */
static bool fractional(const struct stat_row *r)
{
	return r->scale != floor(r->scale);
}

/* -B (perf's default in text): thousands' separators of the locale. */
static bool big_num(const struct stat_opts *o)
{
	return o->format == STAT_TEXT && o->big_num != 0;
}

static void print_command(FILE *f, char **argv)
{
	for (size_t i = 0; argv[i]; i++)
		fprintf(f, "%s%s", i ? " " : "", argv[i]);
}

static void print_ids(FILE *f, const char *what, const struct stat_opts *o)
{
	fprintf(f, "%s id '", what);
	for (size_t i = 0; i < o->npids; i++)
		fprintf(f, "%s%d", i ? "," : "", (int)o->pids[i]);
	fputc('\'', f);
}

void stat_out_header(FILE *f, const struct stat_opts *o)
{
	if (o->format != STAT_TEXT || stat_intervals(o))
		return;
	fputs("\n Performance counter stats for ", f);
	if (o->target == PMU_TARGET_PID)
		print_ids(f, "process", o);
	else if (o->target == PMU_TARGET_TID)
		print_ids(f, "thread", o);
	else if (o->target == PMU_TARGET_CPUS && o->cpus)
		fprintf(f, "'CPU(s) %s'", o->cpus);
	else if (o->target == PMU_TARGET_CPUS)
		fputs("'system wide'", f);
	else if (o->sim_model)
		fprintf(f, "'%s' on a simulated %s", o->stream, o->sim_model);
	else {
		fputc('\'', f);
		print_command(f, o->argv);
		fputc('\'', f);
	}
	if (o->emulated)
		fprintf(f, " on an emulated %s", o->emulated);
	if (o->repeat > 1)
		fprintf(f, " (%d runs)", o->repeat);
	fputs(":\n\n", f);
}

/* ---- the prefix naming a row's CPU, thread, core, socket... ---- */

/* Text: perf's widths, as wide as the interval header's column. */
static void prefix_text(FILE *f, const struct stat_opts *o,
			const struct pmu_aggr *a, int nr)
{
	switch (o->aggr) {
	case PMU_AGGR_CPU:
		fprintf(f, "CPU%-7d ", a->cpu);
		break;
	case PMU_AGGR_THREAD:
		fprintf(f, "%16s-%-8d ", a->comm, a->tid);
		break;
	case PMU_AGGR_CORE:
		fprintf(f, "S%d-D%d-C%-8d %4d ", a->socket, a->die, a->core, nr);
		break;
	case PMU_AGGR_DIE:
		fprintf(f, "S%d-D%-8d %4d ", a->socket, a->die, nr);
		break;
	case PMU_AGGR_SOCKET:
		fprintf(f, "S%-5d %4d ", a->socket, nr);
		break;
	case PMU_AGGR_NODE:
		fprintf(f, "N%-5d %4d ", a->node, nr);
		break;
	case PMU_AGGR_CACHE:
		fprintf(f, "S%d-D%d-L%d-ID%-8d %4d ", a->socket, a->die,
			a->cache_level, a->cache_id, nr);
		break;
	case PMU_AGGR_GLOBAL:
		break;
	}
}

/* The id as CSV and JSON spell it ("S0-D0-C1"). */
static void agg_id(char *buf, size_t sz, const struct stat_opts *o,
		   const struct pmu_aggr *a)
{
	switch (o->aggr) {
	case PMU_AGGR_CPU:
		snprintf(buf, sz, "%d", a->cpu);
		break;
	case PMU_AGGR_THREAD:
		snprintf(buf, sz, "%s-%d", a->comm, a->tid);
		break;
	case PMU_AGGR_CORE:
		snprintf(buf, sz, "S%d-D%d-C%d", a->socket, a->die, a->core);
		break;
	case PMU_AGGR_DIE:
		snprintf(buf, sz, "S%d-D%d", a->socket, a->die);
		break;
	case PMU_AGGR_SOCKET:
		snprintf(buf, sz, "S%d", a->socket);
		break;
	case PMU_AGGR_NODE:
		snprintf(buf, sz, "N%d", a->node);
		break;
	case PMU_AGGR_CACHE:
		snprintf(buf, sz, "S%d-D%d-L%d-ID%d", a->socket, a->die,
			 a->cache_level, a->cache_id);
		break;
	case PMU_AGGR_GLOBAL:
		buf[0] = '\0';
		break;
	}
}

static bool has_nr(const struct stat_opts *o)
{
	return o->aggr >= PMU_AGGR_CORE;
}

static void prefix_csv(FILE *f, const struct stat_opts *o,
		       const struct pmu_aggr *a, int nr)
{
	char id[64];

	if (o->aggr == PMU_AGGR_GLOBAL)
		return;
	agg_id(id, sizeof(id), o, a);
	fprintf(f, "%s%s%s", o->aggr == PMU_AGGR_CPU ? "CPU" : "", id,
		o->sep);
	if (has_nr(o))
		fprintf(f, "%d%s", nr, o->sep);
}

static const char *json_key(const struct stat_opts *o)
{
	static const char *const keys[] = {
		[PMU_AGGR_CPU] = "cpu", [PMU_AGGR_THREAD] = "thread",
		[PMU_AGGR_CORE] = "core", [PMU_AGGR_SOCKET] = "socket",
		[PMU_AGGR_DIE] = "die", [PMU_AGGR_NODE] = "node",
		[PMU_AGGR_CACHE] = "cache",
	};

	return keys[o->aggr];
}

static void prefix_json(FILE *f, const struct stat_opts *o,
			const struct pmu_aggr *a, int nr)
{
	char id[64];

	if (o->aggr == PMU_AGGR_GLOBAL)
		return;
	agg_id(id, sizeof(id), o, a);
	fprintf(f, "\"%s\" : ", json_key(o));
	pmu_tool_json_str(f, id);
	if (has_nr(o))
		fprintf(f, ", \"aggregate-number\" : %d", nr);
	fputs(", ", f);
}

/* perf counts a CPU it could not open an event on as the one CPU. */
static int row_nr(const struct stat_row *r)
{
	return r->status == PMU_EVENT_NOT_SUPPORTED ? 1 : r->agg->nr;
}

/* ---- interval headers ---- */

static const char *interval_column(const struct stat_opts *o)
{
	static const char *const cols[] = {
		[PMU_AGGR_GLOBAL] = "",
		[PMU_AGGR_CPU] = "CPU        ",
		[PMU_AGGR_THREAD] = "            comm-pid      ",
		[PMU_AGGR_CORE] = "core            cpus ",
		[PMU_AGGR_SOCKET] = "socket cpus ",
		[PMU_AGGR_DIE] = "die          cpus ",
		[PMU_AGGR_NODE] = "node   cpus ",
		[PMU_AGGR_CACHE] = "cache                 cpus ",
	};

	return cols[o->aggr];
}

void stat_out_interval_header(FILE *f, const struct stat_opts *o)
{
	if (o->format != STAT_TEXT || o->metric_only)
		return;
	fprintf(f, "#   %s %s            counts unit events\n",
		o->interval_insns ? "instructions" : "        time",
		interval_column(o));
}

/* An interval's first column: seconds, or (-I Ni) the guest
 * instructions counted up to its end, 16 wide; then `after`. */
void stat_out_ts(FILE *f, const struct stat_opts *o, double ts,
		 const char *after)
{
	if (o->format == STAT_JSON)
		fprintf(f, o->interval_insns ? "\"interval\" : %.0f%s"
			: "\"interval\" : %.9f%s", ts, after);
	else
		fprintf(f, o->interval_insns ? "%16.0f%s" : "%16.9f%s", ts,
			after);
}

/* ---- one row ---- */

/* " # figure unit", 35 wide whatever the figure's format. */
static void text_metric(FILE *f, const struct stat_row *r)
{
	char val[64];

	if (!r->metric_unit) {
		fprintf(f, "%-35s", "");
		return;
	}
	stat_metric_format(val, sizeof(val), r);
	fprintf(f, " # %s %-*s", val, 31 - (int)strlen(val), r->metric_unit);
}

static void text_row(FILE *f, const struct stat_opts *o,
		     const struct stat_row *r, const double *ts)
{
	bool ok = r->status == PMU_EVENT_OK;

	if (ts)
		stat_out_ts(f, o, *ts, " ");
	if (r->agg)
		prefix_text(f, o, r->agg, row_nr(r));
	if (!ok)
		fprintf(f, "%18s", status_text(r->status));
	else if (big_num(o))
		fprintf(f, fractional(r) ? "%'18.2f" : "%'18.0f",
			r->count * r->scale);
	else
		fprintf(f, fractional(r) ? "%18.2f" : "%18.0f",
			r->count * r->scale);
	/* perf's widths: a row without a count has a narrower name
	 * column and a wider blank where the figure would be */
	fprintf(f, " %-4s %-*s", has_unit(r) ? r->unit : "", ok ? 32 : 25,
		r->name);
	/* once any event has a cgroup, every row has the column */
	if (r->cgroups)
		fprintf(f, " %s", r->cgroup ? r->cgroup : "");
	if (ok)
		text_metric(f, r);
	else
		fprintf(f, "%-35s", "");
	if (r->noise_pct > 0)
		fprintf(f, "  ( +-%6.2f%% )", r->noise_pct);
	if (r->show_running)
		fprintf(f, "  (%.2f%%)", pct_running(r));
	fputc('\n', f);
}

static void csv_row(FILE *f, const struct stat_opts *o,
		    const struct stat_row *r, const double *ts)
{
	const char *s = o->sep;

	if (ts)
		stat_out_ts(f, o, *ts, s);
	if (r->agg)
		prefix_csv(f, o, r->agg, row_nr(r));
	if (r->status != PMU_EVENT_OK)
		fputs(status_text(r->status), f);
	else
		fprintf(f, fractional(r) ? "%.2f" : "%.0f",
			r->count * r->scale);
	fprintf(f, "%s%s%s%s", s, has_unit(r) ? r->unit : "", s, r->name);
	if (r->cgroups)
		fprintf(f, "%s%s", s, r->cgroup ? r->cgroup : "");
	if (r->noise_pct >= 0)
		fprintf(f, "%s%.2f%%", s, r->noise_pct);
	fprintf(f, "%s%.0f%s%.2f%s", s, r->running, s, pct_running_whole(r), s);
	if (r->metric_unit)
		csv_metric(f, r, s);
	else
		fputs(s, f);
	stat_sets_csv(f, o, r);
	fputc('\n', f);
}

/* perf 6.1 prints a counted row that has no derived figure with the
 * unit of a figure it never found, "(null)"; later perf leaves the
 * metric out, as pmu does.  An uncounted row has the unit "". */
static bool json_has_metric(const struct stat_row *r)
{
	return r->metric_unit || r->status != PMU_EVENT_OK;
}

static void json_row(FILE *f, const struct stat_opts *o,
		     const struct stat_row *r, const double *ts)
{
	fputc('{', f);
	if (ts)
		stat_out_ts(f, o, *ts, ", ");
	if (r->agg)
		prefix_json(f, o, r->agg, row_nr(r));
	fputs("\"counter-value\" : ", f);
	if (r->status != PMU_EVENT_OK)
		pmu_tool_json_str(f, status_text(r->status));
	else
		fprintf(f, "\"%f\"", r->count * r->scale);
	fputs(", \"unit\" : ", f);
	pmu_tool_json_str(f, has_unit(r) ? r->unit : "");
	fputs(", \"event\" : ", f);
	pmu_tool_json_str(f, r->name);
	if (r->cgroup) {
		fputs(", \"cgroup\" : ", f);
		pmu_tool_json_str(f, r->cgroup);
	}
	if (r->noise_pct >= 0)
		fprintf(f, ", \"variance\" : %.2f", r->noise_pct);
	fprintf(f, ", \"event-runtime\" : %.0f, \"pcnt-running\" : %.2f",
		r->running, pct_running_whole(r));
	if (json_has_metric(r)) {
		fprintf(f, ", \"metric-value\" : %f, \"metric-unit\" : ",
			r->metric_unit && isfinite(r->metric) ? r->metric : 0.0);
		pmu_tool_json_str(f, r->metric_unit ? r->metric_unit : "");
	}
	stat_sets_json(f, r, o->emulate);
	fputs("}\n", f);
}

void stat_out_row(FILE *f, const struct stat_opts *o,
		  const struct stat_row *r, const double *timestamp)
{
	if (o->format == STAT_JSON)
		json_row(f, o, r, timestamp);
	else if (o->format == STAT_CSV)
		csv_row(f, o, r, timestamp);
	else
		text_row(f, o, r, timestamp);
}

/* ---- --metric-only ---- */

/* perf's widths: a column of at least 20, the prefix's width blank in
 * the header line. */
#define METRIC_ONLY_LEN 20

static const int metric_header_lens[] = {
	[PMU_AGGR_GLOBAL] = 0, [PMU_AGGR_CPU] = 6, [PMU_AGGR_THREAD] = 24,
	[PMU_AGGR_CORE] = 18, [PMU_AGGR_SOCKET] = 6, [PMU_AGGR_DIE] = 12,
	[PMU_AGGR_NODE] = 6, [PMU_AGGR_CACHE] = 24,
};

static const char *const metric_header_csv[] = {
	[PMU_AGGR_GLOBAL] = "", [PMU_AGGR_CPU] = "cpu,",
	[PMU_AGGR_THREAD] = "comm-pid,", [PMU_AGGR_CORE] = "core,cpus,",
	[PMU_AGGR_SOCKET] = "socket,cpus", [PMU_AGGR_DIE] = "die,cpus",
	[PMU_AGGR_NODE] = "node,", [PMU_AGGR_CACHE] = "cache,cpus,",
};

/* The column name: ratios "of all ..." are named with their event. */
static void metric_name(char *buf, size_t sz, const struct stat_row *r)
{
	if (!strncmp(r->metric_unit, "of all", 6))
		snprintf(buf, sz, "%s %s", r->name, r->metric_unit);
	else
		snprintf(buf, sz, "%s", r->metric_unit);
}

static void metric_value(char *buf, size_t sz, const struct stat_row *r)
{
	stat_metric_format(buf, sz, r);
}

void stat_out_metric_header(FILE *f, const struct stat_opts *o,
			    const struct stat_row *rows, size_t n,
			    const double *timestamp)
{
	char name[256];

	if (o->format == STAT_JSON)
		return;
	if (o->format == STAT_TEXT) {
		fprintf(f, "%s%*s", timestamp ? "#           time " : "",
			metric_header_lens[o->aggr], "");
	} else {
		fprintf(f, "%s%s", timestamp ? "time," : "",
			metric_header_csv[o->aggr]);
	}
	for (size_t i = 0; i < n; i++) {
		if (!stat_metric_shown_alone(&rows[i]))
			continue;
		metric_name(name, sizeof(name), &rows[i]);
		if (o->format == STAT_TEXT)
			fprintf(f, "%*s ", METRIC_ONLY_LEN, name);
		else
			fprintf(f, "%s%s", name, o->sep);
	}
	fputc('\n', f);
}

void stat_out_metric_line(FILE *f, const struct stat_opts *o,
			  const struct stat_row *rows, size_t n,
			  const double *ts)
{
	char name[256], val[64], text[64];
	const char *v;
	bool first = true;

	if (o->format == STAT_JSON)
		fputc('{', f);
	if (ts)
		stat_out_ts(f, o, *ts, o->format == STAT_JSON ? ", "
			    : o->format == STAT_CSV ? o->sep : " ");
	if (n && rows[0].agg) {
		if (o->format == STAT_TEXT)
			prefix_text(f, o, rows[0].agg, rows[0].agg->nr);
		else if (o->format == STAT_CSV)
			prefix_csv(f, o, rows[0].agg, rows[0].agg->nr);
		else
			prefix_json(f, o, rows[0].agg, rows[0].agg->nr);
	}
	for (size_t i = 0; i < n; i++) {
		const struct stat_row *r = &rows[i];
		size_t w;

		if (!stat_metric_shown_alone(r))
			continue;
		metric_name(name, sizeof(name), r);
		metric_value(text, sizeof(text), r);
		memcpy(val, text, sizeof(val));
		w = strlen(name) > METRIC_ONLY_LEN ? strlen(name) + 1
						   : METRIC_ONLY_LEN;
		/* CSV and JSON take the number alone, as perf's */
		for (v = val; *v == ' '; v++)
			;
		val[v - val + strspn(v, "0123456789.-")] = '\0';
		if (o->format == STAT_TEXT)
			fprintf(f, "%*s ", (int)w, text);
		else if (o->format == STAT_CSV)
			fprintf(f, "%s%s", v, o->sep);
		else
			fprintf(f, "%s\"%s\" : \"%s\"", first ? "" : ", ",
				name, v);
		first = false;
	}
	fputs(o->format == STAT_JSON ? "}\n\n" : "\n", f);
}

/* ---- the end ---- */

/* perf's rule: two digits beyond the spread's first significant one. */
static int noise_precision(double sd)
{
	if (!(sd > 0))
		return 9;
	return sd > 1 ? 2 : (int)ceil(-log10(sd)) + 2;
}

void stat_out_footer(FILE *f, const struct stat_opts *o,
		     const struct stat_times *t)
{
	if (o->format != STAT_TEXT || stat_intervals(o))
		return;
	/* a null run has no table to set the times apart from */
	if (!o->null_run)
		fputc('\n', f);
	if (t->elapsed_noise_s >= 0) {
		double pct = t->elapsed_s > 0
			? 100.0 * t->elapsed_noise_s / t->elapsed_s : 0;
		int prec = noise_precision(t->elapsed_noise_s);

		fprintf(f, "%18.*f +- %.*f seconds time elapsed  ( +-%6.2f%% )\n",
			prec, t->elapsed_s, prec, t->elapsed_noise_s, pct);
	} else {
		fprintf(f, "%18.9f seconds time elapsed\n", t->elapsed_s);
	}
	fputc('\n', f);
	if (t->have_rusage)
		fprintf(f, "%18.9f seconds user\n%18.9f seconds sys\n\n\n",
			t->user_s, t->sys_s);
}
