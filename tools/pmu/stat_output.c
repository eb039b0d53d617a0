/* SPDX-License-Identifier: MIT */
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

static bool has_unit(const struct stat_row *r)
{
	return r->unit && r->unit[0];
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
	if (o->format != STAT_TEXT || o->interval_ms)
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

void stat_out_interval_header(FILE *f, const struct stat_opts *o)
{
	if (o->format == STAT_TEXT)
		fputs("#           time             counts unit events\n", f);
}

static void text_metric(FILE *f, const struct stat_row *r)
{
	/* perf's widths: a blank metric column is as wide as a filled one,
	 * and narrower after <not counted>/<not supported> */
	if (!r->metric_unit) {
		fprintf(f, "%-*s", r->status == PMU_EVENT_OK ? 35 : 28, "");
		return;
	}
	if (r->metric_is_pct)
		fprintf(f, " # %7.2f%% %-23s", r->metric, r->metric_unit);
	else
		fprintf(f, " # %8.3f %-23s", r->metric, r->metric_unit);
}

static void text_row(FILE *f, const struct stat_opts *o,
		     const struct stat_row *r, const double *ts)
{
	if (ts)
		fprintf(f, "%16.9f ", *ts);
	if (r->status != PMU_EVENT_OK)
		fprintf(f, "%18s", status_text(r->status));
	else if (has_unit(r))
		fprintf(f, "%18.2f", r->count * r->scale);
	else
		fprintf(f, "%18.0f", r->count);
	fprintf(f, " %-4s %-32s", has_unit(r) ? r->unit : "", r->name);
	text_metric(f, r);
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
		fprintf(f, "%16.9f%s", *ts, s);
	if (r->status != PMU_EVENT_OK)
		fputs(status_text(r->status), f);
	else if (has_unit(r))
		fprintf(f, "%.2f", r->count * r->scale);
	else
		fprintf(f, "%.0f", r->count);
	fprintf(f, "%s%s%s%s", s, has_unit(r) ? r->unit : "", s, r->name);
	if (r->noise_pct >= 0)
		fprintf(f, "%s%.2f%%", s, r->noise_pct);
	fprintf(f, "%s%.0f%s%.2f%s", s, r->running, s, pct_running(r), s);
	if (r->metric_unit)
		fprintf(f, "%.3f%s%s", r->metric, s, r->metric_unit);
	else
		fputs(s, f);
	stat_sets_csv(f, o, r);
	fputc('\n', f);
}

static void json_row(FILE *f, const struct stat_row *r, const double *ts)
{
	fputc('{', f);
	if (ts)
		fprintf(f, "\"interval\" : %.9f, ", *ts);
	fputs("\"counter-value\" : ", f);
	if (r->status != PMU_EVENT_OK)
		pmu_tool_json_str(f, status_text(r->status));
	else
		fprintf(f, "\"%f\"", has_unit(r) ? r->count * r->scale : r->count);
	fputs(", \"unit\" : ", f);
	pmu_tool_json_str(f, has_unit(r) ? r->unit : "");
	fputs(", \"event\" : ", f);
	pmu_tool_json_str(f, r->name);
	if (r->noise_pct >= 0)
		fprintf(f, ", \"variance\" : %.2f", r->noise_pct);
	fprintf(f, ", \"event-runtime\" : %.0f, \"pcnt-running\" : %.2f",
		r->running, pct_running(r));
	fprintf(f, ", \"metric-value\" : %f, \"metric-unit\" : ",
		r->metric_unit && isfinite(r->metric) ? r->metric : 0.0);
	pmu_tool_json_str(f, r->metric_unit ? r->metric_unit : "");
	stat_sets_json(f, r);
	fputs("}\n", f);
}

void stat_out_row(FILE *f, const struct stat_opts *o,
		  const struct stat_row *r, const double *timestamp)
{
	if (o->format == STAT_JSON)
		json_row(f, r, timestamp);
	else if (o->format == STAT_CSV)
		csv_row(f, o, r, timestamp);
	else
		text_row(f, o, r, timestamp);
}

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
	if (o->format != STAT_TEXT || o->interval_ms)
		return;
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
