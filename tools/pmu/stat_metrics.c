/* SPDX-License-Identifier: MIT */
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>

#include <pmu/event.h>

#include "stat.h"

/* Events whose comment is a ratio to another event of the same run:
 * generic events by kind (perf matches their type and config), the TSX
 * ones of -T by name. */
struct ratio_rule {
	enum stat_kind event, base;
	const char *event_name, *base_name;
	const char *unit;
	double factor;
	bool pct;
	enum stat_mfmt fmt;    /* perf's format of the figure; RATE: the
				  usual %7.2f%% or %8.3f */
};

static const struct ratio_rule ratio_rules[] = {
	{ STAT_K_INSTRUCTIONS, STAT_K_CYCLES,
	  .unit = "insn per cycle", .factor = 1.0, .fmt = STAT_MF_IPC },
	{ STAT_K_BRANCH_MISSES, STAT_K_BRANCHES,
	  .unit = "of all branches", .factor = 100.0, .pct = true },
	{ STAT_K_CACHE_MISSES, STAT_K_CACHE_REFS,
	  .unit = "of all cache refs", .factor = 100.0, .pct = true },
	{ STAT_K_L1D_LOAD_MISSES, STAT_K_L1D_LOADS,
	  .unit = "of all L1-dcache accesses", .factor = 100.0, .pct = true },
	{ STAT_K_L1I_LOAD_MISSES, STAT_K_L1I_LOADS,
	  .unit = "of all L1-icache accesses", .factor = 100.0, .pct = true },
	{ STAT_K_LLC_LOAD_MISSES, STAT_K_LLC_LOADS,
	  .unit = "of all LL-cache accesses", .factor = 100.0, .pct = true },
	{ STAT_K_DTLB_LOAD_MISSES, STAT_K_DTLB_LOADS,
	  .unit = "of all dTLB cache accesses", .factor = 100.0, .pct = true },
	{ STAT_K_ITLB_LOAD_MISSES, STAT_K_ITLB_LOADS,
	  .unit = "of all iTLB cache accesses", .factor = 100.0, .pct = true },
	{ STAT_K_STALLED_FRONTEND, STAT_K_CYCLES,
	  .unit = "frontend cycles idle", .factor = 100.0, .pct = true },
	{ STAT_K_STALLED_BACKEND, STAT_K_CYCLES,
	  .unit = "backend cycles idle", .factor = 100.0, .pct = true },
	/* -T: Intel TSX, as perf describes transactions */
	{ .event_name = "cpu/cycles-t/", .base = STAT_K_CYCLES,
	  .unit = "transactional cycles", .factor = 100.0, .pct = true,
	  .fmt = STAT_MF_PCT5 },
	{ .event_name = "cpu/tx-start/", .base_name = "cpu/cycles-t/",
	  .unit = "cycles / transaction", .factor = -1.0, .fmt = STAT_MF_WHOLE },
	{ .event_name = "cpu/el-start/", .base_name = "cpu/cycles-t/",
	  .unit = "cycles / elision", .factor = -1.0, .fmt = STAT_MF_WHOLE },
};

#define NRULES (sizeof(ratio_rules) / sizeof(ratio_rules[0]))

/* perf's contexts: the exclude bits of perf_event_attr it pairs on. */
#define CTX_USER   1u
#define CTX_KERNEL 2u
#define CTX_HV     4u
#define CTX_HOST   8u
#define CTX_IDLE   16u

/* A generic cache event's kind: read accesses and misses of a cache. */
static enum stat_kind cache_kind(uint64_t config)
{
	static const enum stat_kind by_cache[][2] = {
		[PERF_COUNT_HW_CACHE_L1D] = { STAT_K_L1D_LOADS, STAT_K_L1D_LOAD_MISSES },
		[PERF_COUNT_HW_CACHE_L1I] = { STAT_K_L1I_LOADS, STAT_K_L1I_LOAD_MISSES },
		[PERF_COUNT_HW_CACHE_LL] = { STAT_K_LLC_LOADS, STAT_K_LLC_LOAD_MISSES },
		[PERF_COUNT_HW_CACHE_DTLB] = { STAT_K_DTLB_LOADS, STAT_K_DTLB_LOAD_MISSES },
		[PERF_COUNT_HW_CACHE_ITLB] = { STAT_K_ITLB_LOADS, STAT_K_ITLB_LOAD_MISSES },
	};
	uint64_t id = config & 0xff, op = config >> 8 & 0xff,
		 res = config >> 16 & 0xff;

	if (id >= sizeof(by_cache) / sizeof(by_cache[0]) ||
	    op != PERF_COUNT_HW_CACHE_OP_READ ||
	    res > PERF_COUNT_HW_CACHE_RESULT_MISS || config >> 24)
		return STAT_K_OTHER;
	return by_cache[id][res];
}

static enum stat_kind hw_kind(uint64_t config)
{
	switch (config) {
	case PERF_COUNT_HW_CPU_CYCLES: return STAT_K_CYCLES;
	case PERF_COUNT_HW_INSTRUCTIONS: return STAT_K_INSTRUCTIONS;
	case PERF_COUNT_HW_BRANCH_INSTRUCTIONS: return STAT_K_BRANCHES;
	case PERF_COUNT_HW_BRANCH_MISSES: return STAT_K_BRANCH_MISSES;
	case PERF_COUNT_HW_CACHE_REFERENCES: return STAT_K_CACHE_REFS;
	case PERF_COUNT_HW_CACHE_MISSES: return STAT_K_CACHE_MISSES;
	case PERF_COUNT_HW_STALLED_CYCLES_FRONTEND: return STAT_K_STALLED_FRONTEND;
	case PERF_COUNT_HW_STALLED_CYCLES_BACKEND: return STAT_K_STALLED_BACKEND;
	default: return STAT_K_OTHER;
	}
}

void stat_evinfo_of(const struct pmu_session *s, size_t i,
		    struct stat_evinfo *out)
{
	struct pmu_event_desc d = { .size = sizeof(d) };
	const struct pmu_encoding_perf *a = &d.perf;

	memset(out, 0, sizeof(*out));
	if (pmu_session_event_desc(s, i, &d) || !d.has_perf)
		return;
	out->ctx = (a->exclude_user ? CTX_USER : 0) |
		   (a->exclude_kernel ? CTX_KERNEL : 0) |
		   (a->exclude_hv ? CTX_HV : 0) |
		   (a->exclude_host ? CTX_HOST : 0) |
		   (d.exclude_idle ? CTX_IDLE : 0);
	if (a->type == PERF_TYPE_HARDWARE)
		out->kind = hw_kind(a->config);
	else if (a->type == PERF_TYPE_HW_CACHE)
		out->kind = cache_kind(a->config);
	else if (a->type == PERF_TYPE_SOFTWARE &&
		 (a->config == PERF_COUNT_SW_TASK_CLOCK ||
		  a->config == PERF_COUNT_SW_CPU_CLOCK) && !d.tool)
		out->kind = STAT_K_CLOCK;
}

/* Compare an event name without its ":mods" suffix against `base`. */
static bool name_is(const char *name, const char *base)
{
	size_t n = strlen(base);

	return !strncmp(name, base, n) && (name[n] == '\0' || name[n] == ':');
}

/* Figures pair events of the same cgroup only, and ratios (not rates)
 * events of the same context, as perf's do. */
static bool paired(const struct stat_row *a, const struct stat_row *b,
		   bool any_ctx)
{
	return (any_ctx || a->ev.ctx == b->ev.ctx) &&
	       (a->cgroup == b->cgroup ||
		(a->cgroup && b->cgroup && !strcmp(a->cgroup, b->cgroup)));
}

static const struct stat_row *find_ok(const struct stat_row *rows, size_t n,
				      enum stat_kind kind, const char *name,
				      const struct stat_row *of)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].status == PMU_EVENT_OK &&
		    (name ? name_is(rows[i].name, name)
			  : rows[i].ev.kind == kind) &&
		    paired(&rows[i], of, kind == STAT_K_CLOCK))
			return &rows[i];
	return NULL;
}

/* The clock of an event's rate: task-clock or cpu-clock, whatever
 * privilege levels either counts (perf's rates ignore them). */
static const struct stat_row *find_clock(const struct stat_row *rows, size_t n,
					 const struct stat_row *of)
{
	return find_ok(rows, n, STAT_K_CLOCK, NULL, of);
}

/* perf's aborted cycles: transactions begun but not committed. */
static bool apply_aborted(struct stat_row *r, const struct stat_row *rows,
			  size_t n)
{
	const struct stat_row *t = find_ok(rows, n, 0, "cpu/cycles-t/", r);
	const struct stat_row *c = find_ok(rows, n, STAT_K_CYCLES, NULL, r);
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

		if (q->event_name ? !name_is(r->name, q->event_name)
				  : r->ev.kind != q->event)
			continue;
		b = find_ok(rows, n, q->base, q->base_name, r);
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
	if (r->ev.kind == STAT_K_CYCLES) {
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
		if (r->ev.kind == STAT_K_CLOCK) {
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
