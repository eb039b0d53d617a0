/* SPDX-License-Identifier: MIT */
/*
 * pmu serve's exposition: a snapshot as Prometheus' text format (0.0.4)
 * or as OpenMetrics 1.0 (which adds # UNIT, an info type and # EOF, and
 * names a counter's family without its _total).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "serve.h"

void serve_label(FILE *f, const char *v)
{
	fputc('"', f);
	for (; v && *v; v++) {
		if (*v == '\\' || *v == '"')
			fputc('\\', f);
		if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
	fputc('"', f);
}

/* The family's head: # TYPE, # UNIT (OpenMetrics), # HELP.  A counter's
 * samples end in _total; Prometheus' format names the family so. */
static void head(FILE *f, bool om, const char *fam, const char *type,
		 const char *unit, const char *help)
{
	const char *suffix = !om && type[0] == 'c' ? "_total" : "";

	if (!om && type[0] == 'i') {   /* no info type there */
		type = "gauge";
		suffix = "_info";
	}
	fprintf(f, "# HELP %s%s %s\n", fam, suffix, help);
	fprintf(f, "# TYPE %s%s %s\n", fam, suffix, type);
	if (om && unit)
		fprintf(f, "# UNIT %s %s\n", fam, unit);
}

/* `pre` (",name=" or "{name=") and the label's value, escaped. */
static void label(FILE *f, const char *pre, const char *v)
{
	fputs(pre, f);
	serve_label(f, v);
}

/* {event="...",cgroup="...",pid="...",cpu="...",unit="..."} */
static void labels(FILE *f, const char *k0, const char *v0,
		   const char *cgroup, int pid, int cpu, const char *unit)
{
	fprintf(f, "{%s=", k0);
	serve_label(f, v0);
	if (cgroup)
		label(f, ",cgroup=", cgroup);
	if (pid > 0)
		fprintf(f, ",pid=\"%d\"", pid);
	if (cpu >= 0)
		fprintf(f, ",cpu=\"%d\"", cpu);
	if (unit && *unit)
		label(f, ",unit=", unit);
	fputc('}', f);
}

/* The shortest form that reads back as v. */
static void number(FILE *f, double v)
{
	char buf[40];

	if (isnan(v)) {
		fputs(" NaN\n", f);
		return;
	}
	if (isinf(v)) {
		fputs(v > 0 ? " +Inf\n" : " -Inf\n", f);
		return;
	}
	for (int p = 15; p <= 17; p++) {
		snprintf(buf, sizeof(buf), "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fprintf(f, " %s\n", buf);
}

/* Nanoseconds as seconds, exactly. */
static void seconds(FILE *f, uint64_t ns)
{
	fprintf(f, " %llu.%09llu\n", (unsigned long long)(ns / 1000000000u),
		(unsigned long long)(ns % 1000000000u));
}

/* The families of every series, one value of it each. */
enum what { COUNT, ENABLED, RUNNING };
static const struct {
	const char *fam, *unit, *help;
	enum what what;
} series_fams[] = {
	{ "pmu_event", NULL, "Events counted since pmu serve opened them, "
	  "scaled when multiplexed (raw units: clocks in ns).", COUNT },
	{ "pmu_event_enabled_seconds", "seconds",
	  "Time each event was enabled.", ENABLED },
	{ "pmu_event_running_seconds", "seconds",
	  "Time each event was on a counter: less than enabled when "
	  "multiplexed.", RUNNING },
};

int serve_render(FILE *f, const struct serve_snapshot *s, bool om)
{
	const struct {
		const char *fam, *type, *help;
		unsigned long long v;
	} health[] = {
		{ "pmu_up", "gauge",
		  "1 when every target was read on the last interval.", s->up },
		{ "pmu_targets", "gauge",
		  "Targets counted (the machine, cgroups or processes).",
		  s->targets },
		{ "pmu_errors", "counter",
		  "Errors opening or reading counters so far.", s->errors },
		{ "pmu_readings", "counter", "Readings of the counters so far.",
		  s->ticks },
		{ "pmu_scrapes", "counter", "Scrapes answered so far.",
		  s->scrapes },
	};

	for (size_t k = 0; k < sizeof(series_fams) / sizeof(*series_fams);
	     k++) {
		head(f, om, series_fams[k].fam, "counter", series_fams[k].unit,
		     series_fams[k].help);
		for (size_t i = 0; i < s->nseries; i++) {
			const struct serve_series *x = &s->series[i];

			fprintf(f, "%s_total", series_fams[k].fam);
			labels(f, "event", x->event, x->cgroup, x->pid, x->cpu,
			       NULL);
			if (series_fams[k].what == COUNT)
				fprintf(f, " %llu\n",
					(unsigned long long)x->value);
			else
				seconds(f, series_fams[k].what == ENABLED
						   ? x->enabled : x->running);
		}
	}
	head(f, om, "pmu_event_desc", "info", NULL,
	     "The events asked for: the unit of their raw counts, "
	     "whether this machine counts them, and what they count.");
	for (size_t i = 0; i < s->nevents; i++) {
		const struct serve_event *e = &s->events[i];

		label(f, "pmu_event_desc_info{event=", e->name);
		label(f, ",unit=", e->unit);
		fprintf(f, ",supported=\"%s\"", e->counted ? "true" : "false");
		if (!e->counted)
			label(f, ",reason=", e->reason);
		if (e->desc)
			label(f, ",description=", e->desc);
		fputs("} 1\n", f);
	}
	if (s->nmetrics) {
		head(f, om, "pmu_metric", "gauge", NULL,
		     "Derived metrics over the last reading interval (unit "
		     "label as pmu list shows it).");
		for (size_t i = 0; i < s->nmetrics; i++) {
			const struct serve_metric *m = &s->metrics[i];

			fputs("pmu_metric", f);
			labels(f, "metric", m->name, m->cgroup, m->pid, m->cpu,
			       m->unit);
			number(f, m->value);
		}
	}
	for (size_t k = 0; k < sizeof(health) / sizeof(*health); k++) {
		head(f, om, health[k].fam, health[k].type, NULL, health[k].help);
		fprintf(f, "%s%s %llu\n", health[k].fam,
			health[k].type[0] == 'c' ? "_total" : "", health[k].v);
	}
	head(f, om, "pmu_read_duration_seconds", "gauge", "seconds",
	     "Time the last reading of every counter took.");
	fputs("pmu_read_duration_seconds", f);
	seconds(f, s->read_ns);
	if (om)
		fputs("# EOF\n", f);
	return ferror(f) ? -EIO : 0;
}
