/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "stat.h"

/* Events whose comment is a ratio to another event of the same run. */
struct ratio_rule {
	const char *event;
	const char *base;
	const char *unit;
	double factor;
	bool pct;
	enum stat_mfmt fmt;    /* perf's format of the figure; RATE: the
				  usual %7.2f%% or %8.3f */
};

static const struct ratio_rule ratio_rules[] = {
	{ .event = "instructions", .base = "cycles",
	  .unit = "insn per cycle", .factor = 1.0, .fmt = STAT_MF_IPC },
	{ .event = "branch-misses", .base = "branches",
	  .unit = "of all branches", .factor = 100.0, .pct = true },
	{ .event = "branch-misses", .base = "branch-instructions",
	  .unit = "of all branches", .factor = 100.0, .pct = true },
	{ .event = "cache-misses", .base = "cache-references",
	  .unit = "of all cache refs", .factor = 100.0, .pct = true },
	{ .event = "L1-dcache-load-misses", .base = "L1-dcache-loads",
	  .unit = "of all L1-dcache accesses", .factor = 100.0, .pct = true },
	{ .event = "LLC-load-misses", .base = "LLC-loads",
	  .unit = "of all LL-cache accesses", .factor = 100.0, .pct = true },
	{ .event = "stalled-cycles-frontend", .base = "cycles",
	  .unit = "frontend cycles idle", .factor = 100.0, .pct = true },
	{ .event = "stalled-cycles-backend", .base = "cycles",
	  .unit = "backend cycles idle", .factor = 100.0, .pct = true },
	/* -T: Intel TSX, as perf describes transactions */
	{ .event = "cpu/cycles-t/", .base = "cycles",
	  .unit = "transactional cycles", .factor = 100.0, .pct = true,
	  .fmt = STAT_MF_PCT5 },
	{ .event = "cpu/tx-start/", .base = "cpu/cycles-t/",
	  .unit = "cycles / transaction", .factor = -1.0, .fmt = STAT_MF_WHOLE },
	{ .event = "cpu/el-start/", .base = "cpu/cycles-t/",
	  .unit = "cycles / elision", .factor = -1.0, .fmt = STAT_MF_WHOLE },
};

#define NRULES (sizeof(ratio_rules) / sizeof(ratio_rules[0]))

/* Compare an event name without its ":mods" suffix against `base`. */
static bool name_is(const char *name, const char *base)
{
	size_t n = strlen(base);

	return !strncmp(name, base, n) && (name[n] == '\0' || name[n] == ':');
}

static bool is_clock(const char *name)
{
	return name_is(name, "task-clock") || name_is(name, "cpu-clock");
}

/* Figures pair events of the same cgroup only (-G), as perf's do. */
static bool same_cgroup(const struct stat_row *a, const struct stat_row *b)
{
	return a->cgroup == b->cgroup ||
	       (a->cgroup && b->cgroup && !strcmp(a->cgroup, b->cgroup));
}

static const struct stat_row *find_ok(const struct stat_row *rows, size_t n,
				      const char *base,
				      const struct stat_row *of)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].status == PMU_EVENT_OK &&
		    name_is(rows[i].name, base) && same_cgroup(&rows[i], of))
			return &rows[i];
	return NULL;
}

static const struct stat_row *find_clock(const struct stat_row *rows, size_t n,
					 const struct stat_row *of)
{
	const struct stat_row *r = find_ok(rows, n, "task-clock", of);

	return r ? r : find_ok(rows, n, "cpu-clock", of);
}

/* perf's aborted cycles: transactions begun but not committed. */
static bool apply_aborted(struct stat_row *r, const struct stat_row *rows,
			  size_t n)
{
	const struct stat_row *t = find_ok(rows, n, "cpu/cycles-t/", r);
	const struct stat_row *c = find_ok(rows, n, "cycles", r);
	double d;

	if (!name_is(r->name, "cpu/cycles-ct/") || !t || !c)
		return false;
	d = t->count - r->count;
	r->metric = c->count > 0 && d > 0 ? 100.0 * d / c->count : 0;
	r->metric_unit = "aborted cycles";
	r->metric_is_pct = true;
	r->metric_fmt = STAT_MF_PCT5;
	return true;
}

static bool apply_ratio(struct stat_row *r, const struct stat_row *rows,
			size_t n)
{
	for (size_t k = 0; k < NRULES; k++) {
		const struct ratio_rule *q = &ratio_rules[k];
		const struct stat_row *b;

		if (!name_is(r->name, q->event))
			continue;
		b = find_ok(rows, n, q->base, r);
		if (!b)
			continue;
		/* factor < 0: the inverse ratio (base per event) */
		if (q->factor < 0)
			r->metric = r->count > 0 ? b->count / r->count : 0;
		else
			r->metric = b->count > 0 ? q->factor * r->count /
						   b->count : 0;
		r->metric_unit = q->unit;
		r->metric_is_pct = q->pct;
		r->metric_fmt = q->fmt ? q->fmt : q->pct ? STAT_MF_PCT
							 : STAT_MF_RATE;
		return true;
	}
	return false;
}

/* perf's habit: counts per second of task-clock, with a K/M/G prefix. */
static void apply_rate(struct stat_row *r, const struct stat_row *clock)
{
	double secs = clock->count * 1e-9;
	double rate = secs > 0 ? r->count / secs : 0;

	r->metric_fmt = STAT_MF_RATE;
	if (name_is(r->name, "cycles") || name_is(r->name, "cpu-cycles")) {
		r->metric = secs > 0 ? rate / 1e9 : 0;
		r->metric_unit = "GHz";
		return;
	}
	r->metric_unit = "/sec";
	if (rate >= 1e9) {
		rate /= 1e9;
		r->metric_unit = "G/sec";
	} else if (rate >= 1e6) {
		rate /= 1e6;
		r->metric_unit = "M/sec";
	} else if (rate >= 1e3) {
		rate /= 1e3;
		r->metric_unit = "K/sec";
	}
	r->metric = rate;
}

void stat_metrics_compute(struct stat_row *rows, size_t n, double wall_ns)
{
	for (size_t i = 0; i < n; i++) {
		struct stat_row *r = &rows[i];
		const struct stat_row *clock = find_clock(rows, n, r);

		r->metric_unit = NULL;
		r->metric_is_pct = false;
		if (r->status != PMU_EVENT_OK)
			continue;
		if (is_clock(r->name)) {
			r->metric = wall_ns > 0 ? r->count / wall_ns : 0;
			r->metric_unit = "CPUs utilized";
			r->metric_fmt = STAT_MF_RATE;
		} else if (!apply_aborted(r, rows, n) &&
			   !apply_ratio(r, rows, n) && clock) {
			apply_rate(r, clock);
		}
	}
}

bool stat_metric_shown_alone(const struct stat_row *r)
{
	return r->metric_unit && !strstr(r->metric_unit, "/sec") &&
	       !strstr(r->metric_unit, "CPUs utilized");
}

void stat_metric_format(char *buf, size_t sz, const struct stat_row *r)
{
	switch (r->metric_fmt) {
	case STAT_MF_PCT:
		snprintf(buf, sz, "%7.2f%%", r->metric);
		break;
	case STAT_MF_IPC:
		snprintf(buf, sz, "%7.2f ", r->metric);
		break;
	case STAT_MF_PCT5:
		snprintf(buf, sz, "%5.2f%%", r->metric);
		break;
	case STAT_MF_WHOLE:
		snprintf(buf, sz, "%8.0f", r->metric);
		break;
	case STAT_MF_RATE:
		snprintf(buf, sz, "%8.3f", r->metric);
		break;
	}
}
