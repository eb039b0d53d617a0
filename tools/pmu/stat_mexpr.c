/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "stat.h"

/*
 * pmu stat -M: the metrics of this CPU's kernel pmu-events model, their
 * events added to the session by the library (grouped as perf groups
 * them), their values printed as perf prints metrics: after the row of
 * the metric's first event, "#  value unit  name" in the text table,
 * the metric's value and "unit  name" as the last two fields in -x
 * output and as "metric-value"/"metric-unit" in --json.
 */

int stat_mset_new(struct pmu_metric_set **ms, const struct stat_opts *o)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_metric_set_opts mo = { .sz = sizeof(mo),
					  .no_group = o->metric_no_group };
	size_t len = 1;
	char *list;

	for (size_t i = 0; i < o->nmetrics; i++)
		len += strlen(o->metrics[i]) + 1;
	if (!(list = calloc(1, len))) {
		pmu_tool_err("out of memory");
		return EXIT_PMU_INPUT;
	}
	for (size_t i = 0; i < o->nmetrics; i++) {
		if (i)
			strcat(list, ",");
		strcat(list, o->metrics[i]);
	}
	*ms = pmu_metric_set_new(list, &mo, &err);
	free(list);
	if (*ms)
		return 0;
	pmu_tool_err("-M: %s", err.message[0] ? err.message
					      : pmu_strerror(err.code));
	return err.kind == PMU_ERR_USAGE ? EXIT_PMU_USAGE : EXIT_PMU_INPUT;
}

int stat_mset_add(struct pmu_metric_set *ms, struct pmu_session *s)
{
	struct pmu_error err = { .size = sizeof(err) };

	if (pmu_metric_set_add(ms, s, &err) == 0)
		return 0;
	if (*pmu_metric_set_events(ms))
		pmu_tool_err("-M: cannot add the metrics' events (%s): %s",
			     pmu_metric_set_events(ms), err.message);
	else
		pmu_tool_err("-M: %s", err.message);
	return EXIT_PMU_INPUT;
}

/* What the library reads: counts, NaN where an event is not supported,
 * 0 where it was not counted (perf reads those as 0).  The library sums
 * an event's instances; an instance already folded into the first's row
 * adds 0. */
static double *counts_of(const struct stat_row *rows, size_t n)
{
	double *v = calloc(n + 1, sizeof(*v));

	for (size_t i = 0; v && i < n; i++)
		v[i] = rows[i].folded ? 0 :
		       rows[i].status == PMU_EVENT_OK ? rows[i].count :
		       rows[i].status == PMU_EVENT_NOT_SUPPORTED ? NAN : 0;
	return v;
}

static void text_line(FILE *f, const struct stat_opts *o,
		      const struct pmu_metric_value *v, bool ns)
{
	/* the count, unit and event columns of the table (and the time) */
	fprintf(f, "%*s", stat_intervals(o) ? 17 + 56 : 56, "");
	if (ns)
		fprintf(f, " # %8s %s  %s (%s is not counted here)\n",
			"<not supported>", v->unit, v->name, v->missing);
	else
		fprintf(f, " # %8.1f %s  %s\n", v->value, v->unit, v->name);
}

static void csv_line(FILE *f, const struct stat_opts *o,
		     const struct pmu_metric_value *v, bool ns)
{
	/* empty count, unit, event, (variance,) run time and percentage */
	int fields = o->repeat > 1 ? 6 : 5;

	if (stat_intervals(o))
		fprintf(f, "%16s%s", "", o->sep);
	for (int i = 0; i < fields; i++)
		fputs(o->sep, f);
	if (ns)
		fprintf(f, "<not supported>%s%s  %s\n", o->sep, v->unit,
			v->name);
	else
		fprintf(f, "%.3f%s%s  %s\n", v->value, o->sep, v->unit,
			v->name);
}

static void json_line(FILE *f, const struct stat_opts *o,
		      const struct pmu_metric_value *v, bool ns)
{
	char unit[256];

	(void)o;
	snprintf(unit, sizeof(unit), "%s  %s", v->unit, v->name);
	fputs("{", f);
	if (ns || !isfinite(v->value))
		fputs("\"metric-value\" : null", f);
	else
		fprintf(f, "\"metric-value\" : %f", v->value);
	fputs(", \"metric-unit\" : ", f);
	pmu_tool_json_str(f, unit);
	if (ns) {
		fputs(", \"metric-status\" : \"<not supported>\", "
		      "\"metric-missing\" : ", f);
		pmu_tool_json_str(f, v->missing);
	}
	fputs("}\n", f);
}

void stat_mset_print(FILE *f, const struct stat_opts *o,
		     const struct pmu_metric_set *ms,
		     const struct stat_row *rows, size_t nrows, size_t k,
		     double wall_ns)
{
	double *counts = counts_of(rows, nrows);

	for (size_t i = 0; counts && i < pmu_metric_set_count(ms); i++) {
		struct pmu_metric_value v = { .size = sizeof(v) };
		struct pmu_error err = { .size = sizeof(err) };
		bool ns;

		if (pmu_metric_set_value(ms, i, counts, nrows, wall_ns, &v,
					 &err)) {
			if (k == nrows)
				pmu_tool_err("-M: %s", err.message);
			continue;
		}
		if ((v.leader < 0 ? nrows : (size_t)v.leader) != k)
			continue;
		/* a value perf could not compute either, for a reason */
		ns = isnan(v.value) && v.missing;
		if (o->format == STAT_JSON)
			json_line(f, o, &v, ns);
		else if (o->format == STAT_CSV)
			csv_line(f, o, &v, ns);
		else
			text_line(f, o, &v, ns);
	}
	free(counts);
}
