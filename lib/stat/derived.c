/* SPDX-License-Identifier: MIT */
/*
 * perf stat's derived figures (<pmu/stat.h>).  A rule table rather than
 * metric expressions: expressions name events, and these pair events by
 * what they count, their context and their cgroup, as perf does.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>

#include <pmu/event.h>
#include <pmu/stat.h>

#include "stat/stat.h"

/* Events whose figure is a ratio to another event of the same run:
 * generic events by kind (perf matches their type and config), the TSX
 * ones of -T by name. */
struct ratio_rule {
	enum pmu__kind event, base;
	const char *event_name, *base_name;
	const char *unit;
	double factor;
	bool pct;
	enum pmu_derived_fmt fmt; /* 0 (RATE): the usual %7.2f%% or %8.3f */
};

static const struct ratio_rule ratio_rules[] = {
	{ PMU__K_INSTRUCTIONS, PMU__K_CYCLES,
	  .unit = "insn per cycle", .factor = 1.0, .fmt = PMU_DERIVED_IPC },
	{ PMU__K_BRANCH_MISSES, PMU__K_BRANCHES,
	  .unit = "of all branches", .factor = 100.0, .pct = true },
	{ PMU__K_CACHE_MISSES, PMU__K_CACHE_REFS,
	  .unit = "of all cache refs", .factor = 100.0, .pct = true },
	{ PMU__K_L1D_LOAD_MISSES, PMU__K_L1D_LOADS,
	  .unit = "of all L1-dcache accesses", .factor = 100.0, .pct = true },
	{ PMU__K_L1I_LOAD_MISSES, PMU__K_L1I_LOADS,
	  .unit = "of all L1-icache accesses", .factor = 100.0, .pct = true },
	{ PMU__K_LLC_LOAD_MISSES, PMU__K_LLC_LOADS,
	  .unit = "of all LL-cache accesses", .factor = 100.0, .pct = true },
	{ PMU__K_DTLB_LOAD_MISSES, PMU__K_DTLB_LOADS,
	  .unit = "of all dTLB cache accesses", .factor = 100.0, .pct = true },
	{ PMU__K_ITLB_LOAD_MISSES, PMU__K_ITLB_LOADS,
	  .unit = "of all iTLB cache accesses", .factor = 100.0, .pct = true },
	{ PMU__K_STALLED_FRONTEND, PMU__K_CYCLES,
	  .unit = "frontend cycles idle", .factor = 100.0, .pct = true },
	{ PMU__K_STALLED_BACKEND, PMU__K_CYCLES,
	  .unit = "backend cycles idle", .factor = 100.0, .pct = true },
	/* -T: Intel TSX, as perf describes transactions */
	{ .event_name = "cpu/cycles-t/", .base = PMU__K_CYCLES,
	  .unit = "transactional cycles", .factor = 100.0, .pct = true,
	  .fmt = PMU_DERIVED_PCT5 },
	{ .event_name = "cpu/tx-start/", .base_name = "cpu/cycles-t/",
	  .unit = "cycles / transaction", .factor = -1.0,
	  .fmt = PMU_DERIVED_WHOLE },
	{ .event_name = "cpu/el-start/", .base_name = "cpu/cycles-t/",
	  .unit = "cycles / elision", .factor = -1.0,
	  .fmt = PMU_DERIVED_WHOLE },
};

#define NRULES (sizeof(ratio_rules) / sizeof(ratio_rules[0]))

/* perf's contexts: the exclude bits of perf_event_attr it pairs on. */
#define CTX_USER   1u
#define CTX_KERNEL 2u
#define CTX_HV     4u
#define CTX_HOST   8u
#define CTX_IDLE   16u

/* A generic cache event's kind: read accesses and misses of a cache. */
static enum pmu__kind cache_kind(uint64_t config)
{
	static const enum pmu__kind by_cache[][2] = {
		[PERF_COUNT_HW_CACHE_L1D] = { PMU__K_L1D_LOADS,
					      PMU__K_L1D_LOAD_MISSES },
		[PERF_COUNT_HW_CACHE_L1I] = { PMU__K_L1I_LOADS,
					      PMU__K_L1I_LOAD_MISSES },
		[PERF_COUNT_HW_CACHE_LL] = { PMU__K_LLC_LOADS,
					     PMU__K_LLC_LOAD_MISSES },
		[PERF_COUNT_HW_CACHE_DTLB] = { PMU__K_DTLB_LOADS,
					       PMU__K_DTLB_LOAD_MISSES },
		[PERF_COUNT_HW_CACHE_ITLB] = { PMU__K_ITLB_LOADS,
					       PMU__K_ITLB_LOAD_MISSES },
	};
	uint64_t id = config & 0xff, op = config >> 8 & 0xff,
		 res = config >> 16 & 0xff;

	if (id >= sizeof(by_cache) / sizeof(by_cache[0]) ||
	    op != PERF_COUNT_HW_CACHE_OP_READ ||
	    res > PERF_COUNT_HW_CACHE_RESULT_MISS || config >> 24)
		return PMU__K_OTHER;
	return by_cache[id][res];
}

static enum pmu__kind hw_kind(uint64_t config)
{
	switch (config) {
	case PERF_COUNT_HW_CPU_CYCLES: return PMU__K_CYCLES;
	case PERF_COUNT_HW_INSTRUCTIONS: return PMU__K_INSTRUCTIONS;
	case PERF_COUNT_HW_BRANCH_INSTRUCTIONS: return PMU__K_BRANCHES;
	case PERF_COUNT_HW_BRANCH_MISSES: return PMU__K_BRANCH_MISSES;
	case PERF_COUNT_HW_CACHE_REFERENCES: return PMU__K_CACHE_REFS;
	case PERF_COUNT_HW_CACHE_MISSES: return PMU__K_CACHE_MISSES;
	case PERF_COUNT_HW_STALLED_CYCLES_FRONTEND:
		return PMU__K_STALLED_FRONTEND;
	case PERF_COUNT_HW_STALLED_CYCLES_BACKEND:
		return PMU__K_STALLED_BACKEND;
	default: return PMU__K_OTHER;
	}
}

void pmu__stat_evkind(const struct pmu_session *s, size_t i,
		      struct pmu__evkind *out)
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
		out->kind = PMU__K_CLOCK;
}

/* Compare an event name without its ":mods" suffix against `base`. */
static bool name_is(const char *name, const char *base)
{
	size_t n = strlen(base);

	return name && !strncmp(name, base, n) &&
	       (name[n] == '\0' || name[n] == ':');
}

/* Figures pair events of the same cgroup only, and ratios (not rates)
 * events of the same context, as perf's do. */
static bool paired(const struct pmu__drow *a, const struct pmu__drow *b, bool any_ctx)
{
	return (any_ctx || a->ev.ctx == b->ev.ctx) &&
	       (a->cgroup == b->cgroup ||
		(a->cgroup && b->cgroup && !strcmp(a->cgroup, b->cgroup)));
}

static const struct pmu__drow *find_ok(const struct pmu__drow *rows, size_t n,
				  enum pmu__kind kind, const char *name,
				  const struct pmu__drow *of)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].ok &&
		    (name ? name_is(rows[i].name, name)
			  : rows[i].ev.kind == kind) &&
		    paired(&rows[i], of, kind == PMU__K_CLOCK))
			return &rows[i];
	return NULL;
}

/* perf's aborted cycles: transactions begun but not committed. */
static bool apply_aborted(const struct pmu__drow *r, const struct pmu__drow *rows,
			  size_t n, struct pmu_derived *d)
{
	const struct pmu__drow *t = find_ok(rows, n, 0, "cpu/cycles-t/", r);
	const struct pmu__drow *c = find_ok(rows, n, PMU__K_CYCLES, NULL, r);
	double diff;

	if (!name_is(r->name, "cpu/cycles-ct/") || !t || !c)
		return false;
	diff = t->count - r->count;
	d->value = c->count > 0 && diff > 0 ? 100.0 * diff / c->count : 0;
	d->unit = "aborted cycles";
	d->pct = true;
	d->fmt = PMU_DERIVED_PCT5;
	return true;
}

static bool apply_ratio(const struct pmu__drow *r, const struct pmu__drow *rows,
			size_t n, struct pmu_derived *d)
{
	for (size_t k = 0; k < NRULES; k++) {
		const struct ratio_rule *q = &ratio_rules[k];
		const struct pmu__drow *b;

		if (q->event_name ? !name_is(r->name, q->event_name)
				  : r->ev.kind != q->event)
			continue;
		b = find_ok(rows, n, q->base, q->base_name, r);
		if (!b)
			continue;
		/* factor < 0: the inverse ratio (base per event) */
		if (q->factor < 0)
			d->value = r->count > 0 ? b->count / r->count : 0;
		else
			d->value = b->count > 0 ? q->factor * r->count /
						  b->count : 0;
		d->unit = q->unit;
		d->pct = q->pct;
		d->fmt = q->fmt ? q->fmt : q->pct ? PMU_DERIVED_PCT
						  : PMU_DERIVED_RATE;
		return true;
	}
	return false;
}

/* perf's habit: counts per second of task-clock, with a K/M/G prefix. */
static void apply_rate(const struct pmu__drow *r, const struct pmu__drow *clock,
		       struct pmu_derived *d)
{
	double secs = clock->count * 1e-9;
	double rate = secs > 0 ? r->count / secs : 0;

	d->fmt = PMU_DERIVED_RATE;
	if (r->ev.kind == PMU__K_CYCLES) {
		d->value = secs > 0 ? rate / 1e9 : 0;
		d->unit = "GHz";
		return;
	}
	d->unit = "/sec";
	if (rate >= 1e9) {
		rate /= 1e9;
		d->unit = "G/sec";
	} else if (rate >= 1e6) {
		rate /= 1e6;
		d->unit = "M/sec";
	} else if (rate >= 1e3) {
		rate /= 1e3;
		d->unit = "K/sec";
	}
	d->value = rate;
}

PMU_API int pmu_stat_derive(struct pmu_stat *st, const double *counts,
			    const enum pmu_event_status *status,
			    const char *const *cgroups, double wall_ns,
			    struct pmu_derived *out)
{
	struct pmu__drow *rows;
	size_t n, esz;

	if (!st || (st->nevents && (!counts || !status || !out)))
		return -EINVAL;
	n = st->nevents;
	if (!n)
		return 0;
	if ((esz = out[0].size) <= sizeof(size_t))
		return -EINVAL;
	rows = st->rows;
	for (size_t i = 0; i < n; i++) {
		rows[i].cgroup = cgroups ? cgroups[i] : NULL;
		rows[i].count = counts[i];
		rows[i].ok = status[i] == PMU_EVENT_OK;
	}
	for (size_t i = 0; i < n; i++) {
		struct pmu_derived d = { .size = sizeof(d) };
		const struct pmu__drow *r = &rows[i];
		const struct pmu__drow *clock = find_ok(rows, n, PMU__K_CLOCK,
							NULL, r);
		size_t m = esz < sizeof(d) ? esz : sizeof(d);

		if (!r->ok) {
			/* nothing to say */
		} else if (r->ev.kind == PMU__K_CLOCK) {
			d.value = wall_ns > 0 ? r->count / wall_ns : 0;
			d.unit = "CPUs utilized";
			d.fmt = PMU_DERIVED_RATE;
		} else if (!apply_aborted(r, rows, n, &d) &&
			   !apply_ratio(r, rows, n, &d) && clock) {
			apply_rate(r, clock, &d);
		}
		memcpy((char *)out + i * esz + sizeof(size_t),
		       (const char *)&d + sizeof(size_t), m - sizeof(size_t));
	}
	return 0;
}
