/* SPDX-License-Identifier: MIT */
/*
 * pmu stat --set EVENTS ... [--switch POLICY]: events in sets that take
 * turns (the library's event sets).  perf's rows keep their meaning (the
 * value is the estimate for the whole run, (xx.xx%) the share of the run
 * the event's set was active); what sets add is printed beside them:
 * text lines per set after the rows, trailing -x fields, extra JSON keys.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "stat.h"

/* --switch overflow:EVENT:N without PERIOD: 1000000 counts per
 * overflow (1 ms of task-clock or cpu-clock, whose counts are ns). */
#define DEFAULT_PERIOD 1000000ull

/* A set's totals over the runs so far (-r), and its figures at the
 * last interval (-I). */
struct set_acc {
	double runs, active_ns;
	uint64_t prev_runs, prev_ns;
	double d_runs, d_ns;       /* of the interval being printed */
};

struct stat_sets {
	size_t nev, nsets;
	unsigned nruns;
	double *raw, *err2;        /* [nev]: sum of raw, of scaled_err^2 */
	struct set_acc *set;
};

/* ---- options ---- */

static int add_set(struct stat_opts *o, const char *val)
{
	struct stat_set_opts *so = &o->sets;

	if (!val[0])
		return stat_usage_error("empty event list for --set: give "
					"e.g. --set task-clock,page-faults");
	/* the first --set takes the events given before it, if none */
	if (o->nevents > 0) {
		if (so->nfirst + 1 >= STAT_MAX_SETS)
			return stat_usage_error("more than %d --set: too many "
						"event sets", STAT_MAX_SETS);
		so->first[so->nfirst++] = o->nevents;
	}
	so->on = true;
	o->events[o->nevents++] = val;
	return 0;
}

static bool parse_u64(const char *s, size_t len, uint64_t *out)
{
	char buf[32], *end;
	unsigned long long v;

	if (!len || len >= sizeof(buf) || s[0] == '-' || s[0] == '+')
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

static int switch_time(struct stat_opts *o, const char *arg, const char *ms)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(ms, &end);
	if (!ms[0] || *end || errno || !isfinite(v) || v <= 0 ||
	    v > 86400000.0)
		return stat_usage_error("bad MS '%s' in --switch '%s': "
					"expected the target's running time "
					"per turn in milliseconds, > 0 (e.g. "
					"4 or 0.5)", ms, arg);
	if (v < 0.01)
		return stat_usage_error("MS '%s' in --switch '%s' is too "
					"short: at least 0.01 (10 us, the "
					"kernel's shortest clock period)",
					ms, arg);
	o->sets.sw.kind = PMU_SWITCH_TIME;
	o->sets.sw.timeout_ns = (uint64_t)llround(v * 1e6);
	return 0;
}

/* EVENT:N[:PERIOD]: the event may itself hold ':' (modifiers), so the
 * numbers are taken from the right: PERIOD only when the last two
 * fields are both numbers. */
static int switch_overflow(struct stat_opts *o, const char *arg,
			   const char *rest)
{
	struct stat_set_opts *so = &o->sets;
	const char *last = strrchr(rest, ':'), *prev = NULL;
	uint64_t n = 0, period = DEFAULT_PERIOD, v;
	size_t evlen;

	if (!last)
		return stat_usage_error("bad --switch '%s': expected "
					"overflow:EVENT:N[:PERIOD] (N "
					"overflows of EVENT per turn)", arg);
	for (const char *q = rest; q < last; q++)
		if (*q == ':')
			prev = q;
	if (prev && parse_u64(prev + 1, (size_t)(last - prev - 1), &v) &&
	    parse_u64(last + 1, strlen(last + 1), &period)) {
		n = v;
		evlen = (size_t)(prev - rest);
	} else {
		if (!parse_u64(last + 1, strlen(last + 1), &n))
			return stat_usage_error("bad N '%s' in --switch '%s': "
						"expected a number of "
						"overflows >= 1",
						last + 1, arg);
		evlen = (size_t)(last - rest);
	}
	if (n == 0)
		return stat_usage_error("bad N '0' in --switch '%s': expected "
					"a number of overflows >= 1", arg);
	if (period == 0)
		return stat_usage_error("bad PERIOD '0' in --switch '%s': "
					"expected counts of the event per "
					"overflow >= 1", arg);
	if (evlen == 0 || evlen >= sizeof(so->sw_event))
		return stat_usage_error("bad EVENT in --switch '%s': expected "
					"overflow:EVENT:N[:PERIOD]", arg);
	memcpy(so->sw_event, rest, evlen);
	so->sw_event[evlen] = '\0';
	so->sw.kind = PMU_SWITCH_OVERFLOW;
	so->sw.event = so->sw_event;
	so->sw.count = n;
	so->sw.period = period;
	return 0;
}

static int set_switch(struct stat_opts *o, const char *val)
{
	struct stat_set_opts *so = &o->sets;

	if (so->sw_arg)
		return stat_usage_error("--switch given twice ('%s', '%s'): "
					"give one policy", so->sw_arg, val);
	so->sw_arg = val;
	so->sw = (struct pmu_switch_opts){ .sz = sizeof(so->sw) };
	if (!strncmp(val, "time:", 5))
		return switch_time(o, val, val + 5);
	if (!strncmp(val, "overflow:", 9))
		return switch_overflow(o, val, val + 9);
	return stat_usage_error("bad --switch '%s': expected time:MS or "
		     "overflow:EVENT:N[:PERIOD]", val);
}

int stat_sets_opt(struct stat_opts *o, bool is_set, const char *val)
{
	return is_set ? add_set(o, val) : set_switch(o, val);
}

int stat_sets_check(const struct stat_opts *o)
{
	const struct stat_set_opts *so = &o->sets;

	if (so->sw_arg && (!so->on || so->nfirst == 0))
		return stat_usage_error("--switch '%s' switches between event "
					"sets: give two or more with --set",
					so->sw_arg);
	return 0;
}

/* ---- the session ---- */

int stat_sets_before_add(struct pmu_session *s, const struct stat_opts *o,
			 size_t i)
{
	struct pmu_error err = { .size = sizeof(err) };
	const struct stat_set_opts *so = &o->sets;

	for (size_t k = 0; k < so->nfirst; k++) {
		if (so->first[k] != i)
			continue;
		if (pmu_session_add_set(s, &err) < 0) {
			pmu_tool_err("%s", err.message);
			return EXIT_PMU_INPUT;
		}
	}
	return 0;
}

int stat_sets_after_add(struct pmu_session *s, const struct stat_opts *o)
{
	struct pmu_error err = { .size = sizeof(err) };

	if (!o->sets.sw_arg || pmu_session_set_switch(s, -1, &o->sets.sw,
						      &err) == 0)
		return 0;
	pmu_tool_err("--switch '%s': %s", o->sets.sw_arg,
		     err.message[0] ? err.message : pmu_strerror(err.code));
	return err.kind == PMU_ERR_USAGE ? EXIT_PMU_USAGE : EXIT_PMU_INPUT;
}

struct stat_sets *stat_sets_new(struct pmu_session *s, size_t nev)
{
	size_t nsets = pmu_session_nsets(s);
	struct stat_sets *t;

	if (nsets < 2)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->nev = nev;
	t->nsets = nsets;
	t->raw = calloc(nev + 1, sizeof(*t->raw));
	t->err2 = calloc(nev + 1, sizeof(*t->err2));
	t->set = calloc(nsets, sizeof(*t->set));
	if (!t->raw || !t->err2 || !t->set) {
		stat_sets_free(t);
		return NULL;
	}
	return t;
}

void stat_sets_free(struct stat_sets *t)
{
	if (!t)
		return;
	free(t->raw);
	free(t->err2);
	free(t->set);
	free(t);
}

static struct pmu_set_info set_info(struct pmu_session *s, size_t k)
{
	struct pmu_set_info in = { .size = sizeof(in) };

	if (pmu_session_set_info(s, k, &in) < 0)
		memset(&in.runs, 0, sizeof(in) - sizeof(in.size));
	return in;
}

void stat_sets_run_start(struct stat_sets *t)
{
	for (size_t k = 0; t && k < t->nsets; k++)
		t->set[k].prev_runs = t->set[k].prev_ns = 0;
}

void stat_sets_run_end(struct stat_sets *t, struct pmu_session *s,
		       const struct pmu_value *v)
{
	if (!t)
		return;
	t->nruns++;
	for (size_t i = 0; i < t->nev; i++) {
		double e = (double)v[i].scaled_err;

		t->raw[i] += (double)v[i].raw;
		t->err2[i] += e * e;
	}
	for (size_t k = 0; k < t->nsets; k++) {
		struct pmu_set_info in = set_info(s, k);

		t->set[k].runs += (double)in.runs;
		t->set[k].active_ns += (double)in.duration;
	}
}

void stat_sets_interval(struct stat_sets *t, struct pmu_session *s)
{
	for (size_t k = 0; t && k < t->nsets; k++) {
		struct pmu_set_info in = set_info(s, k);
		struct set_acc *a = &t->set[k];

		a->d_runs = (double)(in.runs - a->prev_runs);
		a->d_ns = (double)(in.duration - a->prev_ns);
		a->prev_runs = in.runs;
		a->prev_ns = in.duration;
	}
}

static size_t set_of(const struct stat_sets *t, const struct pmu_session *s,
		     size_t i)
{
	ssize_t k = pmu_session_event_set(s, i);

	return k >= 0 && (size_t)k < t->nsets ? (size_t)k : 0;
}

void stat_sets_row_interval(const struct stat_sets *t, struct stat_row *r,
			    const struct pmu_session *s, size_t i,
			    const struct pmu_value *d)
{
	size_t k;

	if (!t)
		return;
	k = set_of(t, s, i);
	r->set = (int)k;
	r->raw = (double)d->raw;
	r->err = -1; /* a standard error is the whole run's */
	r->set_runs = t->set[k].d_runs;
	r->set_active_ns = t->set[k].d_ns;
}

/* Over -r runs: means, and the standard error of the mean of the runs'
 * estimates (independent: sqrt of the summed variances over N). */
void stat_sets_row_summary(const struct stat_sets *t, struct stat_row *r,
			   const struct pmu_session *s, size_t i)
{
	double n;
	size_t k;

	if (!t)
		return;
	n = t->nruns ? t->nruns : 1;
	k = set_of(t, s, i);
	r->set = (int)k;
	r->raw = t->raw[i] / n;
	r->err = sqrt(t->err2[i]) / n;
	r->set_runs = t->set[k].runs / n;
	r->set_active_ns = t->set[k].active_ns / n;
}

/* ---- output ---- */

static void text_raw(FILE *f, const struct stat_row *r)
{
	bool unit = r->unit && r->unit[0];
	double v = unit ? r->raw * r->scale : r->raw;
	double pct = r->count > 0 ? 100.0 * r->err / r->count : 0;

	fprintf(f, "%s: raw %.*f%s%s", r->name, unit ? 2 : 0, v,
		unit ? " " : "", unit ? r->unit : "");
	if (r->err >= 0)
		fprintf(f, ", +- %.*f (%.2f%%)", unit ? 2 : 0,
			unit ? r->err * r->scale : r->err, pct);
}

/* After perf's rows, which stay as they are, a line per set and under
 * it one per event with what the row's estimate was made of:
 *
 *	   set 1: 12 runs, 40.12 msec active
 *	          page-faults: raw 618, +- 21 (3.40%)
 */
void stat_sets_print(FILE *f, const struct stat_opts *o,
		     const struct stat_row *rows, size_t n, const double *ts)
{
	int last = -1, nsets = 0;

	if (o->format != STAT_TEXT || !n || rows[0].set < 0)
		return;
	for (size_t j = 0; j < n; j++)
		if (rows[j].set >= nsets)
			nsets = rows[j].set + 1;
	/* set by set: an --switch overflow event, counted by every set,
	 * comes after the sets' own events but is listed in each */
	for (int k = 0; k < nsets; k++)
	for (size_t j = 0; j < n; j++) {
		const struct stat_row *r = &rows[j];

		if (r->set != k)
			continue;
		if (r->set != last) {
			if (ts)
				stat_out_ts(f, o, *ts, " ");
			if (o->emulate) /* guest instructions, not time */
				fprintf(f, "   set %d: %.0f runs, %.0f "
					"instructions active\n", r->set,
					r->set_runs, r->set_active_ns);
			else
				fprintf(f, "   set %d: %.0f runs, %.2f msec "
					"active\n", r->set, r->set_runs,
					r->set_active_ns * 1e-6);
			last = r->set;
		}
		if (r->status == PMU_EVENT_NOT_SUPPORTED)
			continue;
		if (ts)
			stat_out_ts(f, o, *ts, " ");
		fputs("          ", f);
		text_raw(f, r);
		fputc('\n', f);
	}
}

/* Trailing fields after perf's own (which keep their places): set, raw,
 * set runs, set active ns, standard error (empty for -I rows). */
void stat_sets_csv(FILE *f, const struct stat_opts *o,
		   const struct stat_row *r)
{
	const char *s = o->sep;
	bool unit = r->unit && r->unit[0];

	if (r->set < 0)
		return;
	fprintf(f, "%s%d%s%.*f%s%.0f%s%.0f%s", s, r->set, s, unit ? 2 : 0,
		unit ? r->raw * r->scale : r->raw, s, r->set_runs, s,
		r->set_active_ns, s);
	if (r->err >= 0)
		fprintf(f, "%.*f", unit ? 2 : 0,
			unit ? r->err * r->scale : r->err);
}

void stat_sets_json(FILE *f, const struct stat_row *r, bool emulated)
{
	bool unit = r->unit && r->unit[0];

	if (r->set < 0)
		return;
	fprintf(f, ", \"set\" : %d, \"raw\" : %f, \"set-runs\" : %.0f, "
		"\"set-active-%s\" : %.0f", r->set,
		unit ? r->raw * r->scale : r->raw, r->set_runs,
		emulated ? "instructions" : "ns", r->set_active_ns);
	if (r->err >= 0)
		fprintf(f, ", \"stderr\" : %f",
			unit ? r->err * r->scale : r->err);
}
