/* SPDX-License-Identifier: MIT */
/* pmu stat: the rows of a run, an interval or the summary of runs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "stat.h"
#include "stat_ctx.h"


/* One row from a reading (or the difference of two readings). */
static void fill_row(struct stat_row *r, const struct stat_ctx *c, size_t a,
		     size_t i, const struct pmu_value *v)
{
	const char *unit = pmu_session_event_unit(c->s, i, &r->scale);
	bool ns = pmu_session_event_status(c->s, i, NULL) ==
		PMU_EVENT_NOT_SUPPORTED;

	r->agg = c->o->aggr == PMU_AGGR_GLOBAL ? NULL : &c->agg[a];
	r->cgroup = i < c->ncg ? c->cgroup[i] : NULL;
	r->cgroups = c->any_cgroup;
	r->name = c->mname[i] ? c->mname[i] : pmu_session_event_name(c->s, i);
	r->unit = unit ? unit : "";
	if (!unit || r->scale == 0)
		r->scale = 1.0;
	r->status = ns ? PMU_EVENT_NOT_SUPPORTED
		       : v->running ? PMU_EVENT_OK : PMU_EVENT_NOT_COUNTED;
	r->count = ns ? 0 : (double)(c->o->no_scale ? v->raw : v->scaled);
	r->running = ns ? 0 : (double)v->running;
	r->enabled = ns ? 0 : (double)v->enabled;
	r->show_running = !c->o->no_scale && r->status == PMU_EVENT_OK &&
			  v->running < v->enabled;
	r->noise_pct = -1;
	r->metric_unit = NULL;
	r->set = -1;
	r->folded = pmu_stat_folded(c->st, i);
	r->folded_switch = false;
}

/* --per-thread: an event's threads by count, largest first (ties in
 * thread order); system-wide, threads that counted nothing are left
 * out, as perf does. */
static size_t thread_order(struct stat_ctx *c, size_t i)
{
	size_t k = 0;

	for (size_t a = 0; a < c->nagg; a++) {
		const struct stat_row *r = &c->rows[a * c->n + i];
		size_t j = k;

		if (c->o->target == PMU_TARGET_CPUS &&
		    (r->status != PMU_EVENT_OK || r->count == 0))
			continue;
		while (j > 0 && c->rows[c->order[j - 1] * c->n + i].count <
				r->count)
			j--;
		memmove(&c->order[j + 1], &c->order[j], (k - j) * sizeof(*c->order));
		c->order[j] = a;
		k++;
	}
	return k;
}

static void print_metric_only(struct stat_ctx *c, const double *ts)
{
	/* intervals have theirs from interval_header() */
	if (!ts && !c->metric_header_done) {
		stat_out_metric_header(c->out, c->o, c->rows, c->n, ts);
		c->metric_header_done = true;
	}
	for (size_t a = 0; a < c->nagg; a++)
		stat_out_metric_line(c->out, c->o, &c->rows[a * c->n], c->n, ts);
}

/* Does event i count on CPU cpu?  Not an uncore event on a CPU outside
 * its PMU's cpumask: -A leaves those rows out, as perf does. */
static bool counts_on(struct stat_ctx *c, size_t i, int cpu)
{
	const char *mask = pmu_session_event_cpus(c->s, i);
	int cpus[256];
	ssize_t n;

	if (!mask || cpu < 0)
		return true;
	n = pmu_cpulist_parse(mask, cpus, 256, NULL);
	for (ssize_t k = 0; k < n && k < 256; k++)
		if (cpus[k] == cpu)
			return true;
	return n < 0;
}

/* -M: the metrics of aggregate a shown after its row i (i = n: those
 * shown after no row). */
static void print_mset(struct stat_ctx *c, size_t a, size_t i, double wall_ns)
{
	if (c->mset)
		stat_mset_print(c->out, c->o, c->mset, &c->rows[a * c->n], c->n,
				i, wall_ns);
}

/* Rows of every aggregate, in perf's order: per CPU and per thread
 * event by event, per core, socket... aggregate by aggregate. */
/* The copies of an --switch overflow event count one event, each while
 * its set has its turn: in the text table the first copy's row is the
 * event's, their raw counts and running times summed over the run's
 * time (each copy's own raw count stays for the sets' lines). */
static void fold_switch_rows(struct stat_ctx *c)
{
	size_t n = c->n;

	for (size_t a = 0; c->sets && c->o->format == STAT_TEXT && a < c->nagg;
	     a++)
		for (size_t i = c->nuser; i < n; i++) {
			size_t h = c->copy_of[i];
			struct stat_row *to = &c->rows[a * n + h];
			const struct stat_row *r = &c->rows[a * n + i];

			if (h == i)
				continue;
			if (!to->folded_switch) {
				to->count = to->status == PMU_EVENT_OK ? to->raw : 0;
				to->folded_switch = true;
			}
			if (r->status == PMU_EVENT_OK) {
				to->count += r->raw;
				to->status = PMU_EVENT_OK;
			}
			to->running += r->running;
			if (r->enabled > to->enabled)
				to->enabled = r->enabled;
			to->show_running = !c->o->no_scale &&
					   to->running < to->enabled;
		}
}

static void print_rows(struct stat_ctx *c, double wall_ns, const double *ts)
{
	enum pmu_aggr_mode m = c->o->aggr;
	size_t n = c->n;

	fold_switch_rows(c);

	for (size_t a = 0; a < c->nagg; a++)
		stat_metrics_compute(c->st, &c->derive, &c->rows[a * n], n,
				     wall_ns);
	if (c->o->metric_only) {
		/* the sets' lines are about counts, which this leaves out */
		print_metric_only(c, ts);
	} else if (m == PMU_AGGR_CPU || m == PMU_AGGR_THREAD) {
		for (size_t i = 0; i < n; i++) {
			size_t k = m == PMU_AGGR_THREAD ? thread_order(c, i)
							 : c->nagg;

			for (size_t j = 0; !c->hidden[i] && j < k; j++) {
				size_t a = m == PMU_AGGR_THREAD ? c->order[j] : j;

				if (m == PMU_AGGR_CPU &&
				    !counts_on(c, i, c->agg[a].cpu))
					continue;
				stat_out_row(c->out, c->o, &c->rows[a * n + i], ts);
				print_mset(c, a, i, wall_ns);
			}
		}
		for (size_t a = 0; c->mset && a < c->nagg; a++)
			print_mset(c, a, n, wall_ns);
	} else {
		for (size_t a = 0; a < c->nagg; a++) {
			for (size_t i = 0; i < n; i++) {
				if (c->hidden[i])
					continue;
				stat_out_row(c->out, c->o,
					     &c->rows[a * n + i], ts);
				print_mset(c, a, i, wall_ns);
			}
			print_mset(c, a, n, wall_ns);
		}
		/* --set: one aggregate (the options check it) */
		stat_sets_print(c->out, c->o, c->rows, n, ts);
	}
	fflush(c->out);
}

/* perf's headers of -I: before the first interval and every 25th, or
 * before each one after clearing the screen (--interval-clear). */
static void interval_header(struct stat_ctx *c, const double *ts)
{
	if (c->intervals % 25 && !c->o->interval_clear)
		return;
	if (c->o->interval_clear) {
		/* as perf clears it: on the terminal of stdout */
		fputs("\033[H\033[2J\n", stdout);
		fflush(stdout);
	}
	if (c->o->metric_only)
		stat_out_metric_header(c->out, c->o, c->rows, c->n, ts);
	else
		stat_out_interval_header(c->out, c->o);
}

/* The reading in c->cur less the previous one, printed at ts (seconds,
 * or guest instructions for -I Ni) over wall_ns. */
static void show_interval(struct stat_ctx *c, double ts, double wall_ns)
{
	size_t n = c->n;

	for (size_t k = 0; k < c->nagg * n; k++) {
		struct pmu_value d;

		pmu_value_delta(&c->cur[k], &c->prev[k], &d);
		c->prev[k] = c->cur[k];
		fill_row(&c->rows[k], c, k / (n ? n : 1), k % (n ? n : 1), &d);
		stat_sets_row_interval(c->sets, &c->rows[k], c->s, k % n, &d);
		/* -I -r: perf's spread of the intervals seen so far */
		if (c->o->repeat > 1 && c->rows[k].status == PMU_EVENT_OK)
			pmu_runstat_add(&c->iacc[k].rs, c->rows[k].count);
		if (c->o->repeat > 1)
			c->rows[k].noise_pct = pmu_runstat_noise_pct(&c->iacc[k].rs);
	}
	for (size_t a = 0; a < c->nagg; a++)
		stat_metrics_compute(c->st, &c->derive, &c->rows[a * n], n,
				     wall_ns);
	interval_header(c, &ts);
	print_rows(c, wall_ns, &ts);
	c->intervals++;
}

/* -I: print what was counted since the previous tick. */
void stat_print_interval(struct stat_ctx *c)
{
	double now = stat_now_s();

	if (c->o->interval_count && c->intervals >= c->o->interval_count)
		return;
	if (stat_read_values(c) < 0)
		return;
	stat_sets_interval(c->sets, c->s);
	show_interval(c, now - c->t0, (now - c->last_ts) * 1e9);
	c->last_ts = now;
}

/* -I Ni, the command ended: each instruction interval, at the guest
 * instructions counted up to its end; no wall time, so that runs print
 * the same.  -1 when the emulator's intervals cannot be had. */
int stat_print_marks(struct stat_ctx *c)
{
	ssize_t nm = pmu_session_nmarks(c->s), ret = 0;
	uint64_t insns = 0;

	if (nm == -E2BIG)
		pmu_tool_err("-I '%s': more than 65536 instruction intervals: "
			     "give a larger number", c->o->interval_arg);
	else if (nm < 0)
		pmu_tool_err("-I '%s': no instruction intervals: %s",
			     c->o->interval_arg, strerror((int)-nm));
	for (ssize_t k = 0; ret >= 0 && k < nm; k++) {
		if (c->o->interval_count && c->intervals >= c->o->interval_count)
			break;
		for (size_t i = 0; i < c->n; i++)
			c->cur[i] = (struct pmu_value){
				.size = sizeof(struct pmu_value),
				.status = PMU_EVENT_NOT_COUNTED };
		ret = pmu_session_read_mark(c->s, (size_t)k, &insns, c->cur,
					    c->n);
		if (ret < 0)
			pmu_tool_err("cannot read instruction interval %zd: %s",
				     k + 1, strerror((int)-ret));
		else
			show_interval(c, (double)insns, 0);
	}
	return nm < 0 || ret < 0 ? -1 : 0;
}

/* Fold the final reading of one run into the accumulators. */
void stat_accumulate_run(struct stat_ctx *c)
{
	struct stat_row r;

	if (stat_read_values(c) < 0)
		return;
	stat_sets_run_end(c->sets, c->s, c->cur);
	for (size_t k = 0; c->n && k < c->nagg * c->n; k++) {
		fill_row(&r, c, k / c->n, k % c->n, &c->cur[k]);
		if (r.status == PMU_EVENT_NOT_SUPPORTED)
			c->acc[k].not_supported = true;
		if (r.status != PMU_EVENT_OK)
			continue;
		pmu_runstat_add(&c->acc[k].rs, r.count);
		c->acc[k].running += r.running;
		c->acc[k].enabled += r.enabled;
	}
}

void stat_print_summary(struct stat_ctx *c, bool have_rusage)
{
	struct stat_times t = {
		.elapsed_s = c->elapsed.rs.mean,
		.elapsed_noise_s = -1,
		.user_s = c->ru.ru_utime.tv_sec + c->ru.ru_utime.tv_usec * 1e-6,
		.sys_s = c->ru.ru_stime.tv_sec + c->ru.ru_stime.tv_usec * 1e-6,
		.have_rusage = have_rusage,
	};
	/* perf shows the spread of each figure only for the global ones */
	bool noise = c->o->repeat > 1 && c->o->aggr == PMU_AGGR_GLOBAL;

	if (c->o->repeat > 1)
		t.elapsed_noise_s = c->elapsed.rs.mean * pmu_runstat_noise_pct(&c->elapsed.rs) / 100;
	stat_out_header(c->out, c->o);
	for (size_t k = 0; c->n && k < c->nagg * c->n; k++) {
		struct stat_row *r = &c->rows[k];
		const struct stat_acc *a = &c->acc[k];
		struct pmu_value zero = { .size = sizeof(zero) };

		fill_row(r, c, k / c->n, k % c->n, &zero);
		r->status = a->not_supported ? PMU_EVENT_NOT_SUPPORTED
			  : a->rs.n ? PMU_EVENT_OK : PMU_EVENT_NOT_COUNTED;
		r->count = a->rs.mean;
		r->running = a->rs.n ? a->running / a->rs.n : 0;
		r->enabled = a->rs.n ? a->enabled / a->rs.n : 0;
		r->show_running = !c->o->no_scale && a->rs.n &&
				  a->running < a->enabled;
		r->noise_pct = noise ? pmu_runstat_noise_pct(&a->rs) : -1;
		stat_sets_row_summary(c->sets, r, c->s, k % c->n);
	}
	print_rows(c, c->elapsed.rs.mean * 1e9, NULL);
	stat_out_footer(c->out, c->o, &t);
	fflush(c->out);
}
