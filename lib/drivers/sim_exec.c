/* SPDX-License-Identifier: MIT */
/*
 * Executing a parsed event stream on a struct pmu_sim, and reading the
 * results back.
 */
#include <errno.h>
#include <string.h>

#include <pmu/sim.h>

#include "drivers/sim_api.h"
#include "util/error.h"
#include "util/outstruct.h"

struct exec {
	struct pmu_sim *s;
	const struct pmu__stream *st;
	const struct pmu__sim_hooks *h;       /* NULL: perfctr directly */
	uint32_t left[PMU_STREAM_MAX_DEPTH];  /* repeat counters */
	int depth;
	uint64_t executed;
	struct pmu_error *err;
};

static int op_error(struct exec *x, const struct pmu__stream_op *op,
		    int code, const char *what)
{
	return pmu__error(x->err, code, PMU_ERR_BAD_VALUE, NULL, -1,
			  "line %d: %s", op->line, what);
}

static int do_suspend_resume(struct exec *x, const struct pmu__stream_op *op)
{
	struct pmu_sim *s = x->s;
	bool resume = op->kind == PMU_STREAM_RESUME;

	if (resume == s->running)
		return op_error(x, op, -EINVAL, resume ?
				"resume: the counters are already running" :
				"suspend: the counters are already suspended");
	if (x->h)
		return (resume ? x->h->resume : x->h->suspend)(x->h->arg);
	if (resume)
		pmu__perfctr_resume(&s->pc, &s->st);
	else
		pmu__perfctr_suspend(&s->pc, &s->st);
	s->running = resume;
	return 0;
}

static int do_reg(struct exec *x, const struct pmu__stream_op *op)
{
	int rc = pmu__sim_reg_write(&x->s->sim, op->reg_kind, op->addr, op->n);

	if (rc)
		return pmu__error(x->err, rc, PMU_ERR_BAD_VALUE, NULL, -1,
				  "line %d: register 0x%x does not exist on %s",
				  op->line, op->addr, x->s->model->name);
	return 0;
}

void pmu__sim_burst(struct pmu_sim *s, bool cycles, uint32_t code,
		    uint32_t umask, uint64_t n, const struct pmu__sim_hooks *h)
{
	uint64_t chunk = h && h->chunk ? h->chunk : n;

	while (n && !(h && h->cancel && h->cancel(h->arg))) {
		uint64_t k = n < chunk ? n : chunk;

		if (cycles && h && h->limit) {
			uint64_t lim = h->limit(h->arg);

			k = lim < k ? (lim ? lim : 1) : k;
		}
		/* time moves with each piece: a hook reads it */
		if (cycles) {
			s->cycles += k;
			pmu__sim_cycles(&s->sim, k);
		} else {
			s->events += k;
			pmu__sim_advance(&s->sim, code, umask, k);
		}
		n -= k;
		if (h && h->fed)
			h->fed(h->arg, k);
	}
}

/* Returns the index of the next op to run. */
static size_t do_repeat(struct exec *x, size_t i)
{
	const struct pmu__stream_op *op = &x->st->ops[i];

	if (op->kind == PMU_STREAM_REPEAT) {
		if (op->n == 0)
			return op->jump + 1;
		x->left[x->depth++] = (uint32_t)op->n;
		return i + 1;
	}
	if (--x->left[x->depth - 1] == 0) {
		x->depth--;
		return i + 1;
	}
	return op->jump + 1;
}

static int step(struct exec *x, const struct pmu__stream_op *op)
{
	struct pmu__sim *sim = &x->s->sim;

	switch (op->kind) {
	case PMU_STREAM_EVENT:
	case PMU_STREAM_CYCLES:
		pmu__sim_burst(x->s, op->kind == PMU_STREAM_CYCLES, op->key,
			       op->umask, op->n, x->h);
		break;
	case PMU_STREAM_MODE:
		pmu__sim_set_mode(sim, (enum pmu_sim_mode)op->n);
		break;
	case PMU_STREAM_PMM:
		pmu__sim_set_pmm(sim, op->n != 0);
		break;
	case PMU_STREAM_IP:
		pmu__sim_set_ip(sim, op->n);
		break;
	case PMU_STREAM_SNAPSHOT:
		pmu__sim_set_snapshot(sim, &x->st->snaps[op->snap]);
		break;
	case PMU_STREAM_SAMPLE:
		if (x->h && x->h->sample)
			x->h->sample(x->h->arg);
		else if (!x->h && x->s->running)
			pmu__perfctr_sample(&x->s->pc, &x->s->st);
		break;
	case PMU_STREAM_SUSPEND:
	case PMU_STREAM_RESUME:
		return do_suspend_resume(x, op);
	case PMU_STREAM_REG:
		return do_reg(x, op);
	case PMU_STREAM_REGION:
		if (x->h && x->h->region) {
			int rc = x->h->region(x->h->arg, op->n != 0,
					      x->st->names[op->snap]);

			if (rc < 0)
				return pmu__error(x->err, rc, PMU_ERR_BAD_VALUE,
						  x->st->names[op->snap], -1,
						  "line %d: region %s %s: %s",
						  op->line, op->n ? "begin"
						  : "end", x->st->names[op->snap],
						  rc == -EINVAL ? "not the "
						  "innermost open region"
						  : pmu_strerror(rc));
		}
		break;
	default:
		break;
	}
	return 0;
}

static uint64_t overflow_work(const struct pmu__sim *sim)
{
	return sim->stats.overflows + sim->stats.irqs + sim->stats.irqs_masked;
}

static int execute(struct exec *x)
{
	struct pmu__sim *sim = &x->s->sim;
	size_t i = 0;
	int rc = 0;

	while (i < x->st->nops && !rc) {
		const struct pmu__stream_op *op = &x->st->ops[i];

		if (++x->executed > PMU_SIM_MAX_EXECUTED)
			return op_error(x, op, -E2BIG,
					"the stream runs too many statements");
		if (op->kind == PMU_STREAM_REPEAT || op->kind == PMU_STREAM_END) {
			i = do_repeat(x, i);
			continue;
		}
		rc = step(x, op);
		if (!rc && x->h && x->h->cancel && x->h->cancel(x->h->arg))
			return -ECANCELED;
		if (!rc && sim->halted)
			rc = op_error(x, op, -E2BIG, "counters overflow too often: "
				      "more than 10000000 overflows and interrupts in one run");
		i++;
	}
	return rc;
}

static int setup_pebs(struct exec *x)
{
	const struct pmu__stream_pebs *p = x->st->pebs.given ? &x->st->pebs : NULL;
	int rc = pmu__sim_run_setup_pebs(x->s, p);

	if (rc == -ENOSYS)
		return pmu__error(x->err, rc, PMU_ERR_BAD_VALUE, "pebs", -1,
				  "line %d: pebs: %s has no usable PEBS%s",
				  p->line, x->s->model->name,
				  x->s->model->quirks & PMU_QUIRK_HT ?
				  " (not with HyperThreading)" : "");
	if (rc)
		return pmu__error(x->err, rc, PMU_ERR_SYSTEM, "pebs", -1,
				  "cannot lay out the PEBS buffer");
	return 0;
}

/* The statements of a parsed stream, with the run's overflow budget. */
static int exec_bounded(struct exec *x)
{
	struct pmu__sim *sim = &x->s->sim;
	int rc;

	sim->budget = overflow_work(sim) + PMU_SIM_MAX_OVERFLOWS;
	sim->halted = false;
	rc = execute(x);
	sim->budget = 0;
	sim->halted = false;
	return rc;
}

int pmu__sim_exec(struct pmu_sim *s, const char *text, size_t len,
		  const struct pmu__sim_hooks *h, struct pmu_error *err)
{
	struct pmu__stream st;
	struct exec x = { .s = s, .st = &st, .h = h, .err = err };
	int rc = pmu__stream_parse(text, len, &st, err);

	if (!rc && st.pebs.given)
		rc = pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, "pebs", -1,
				"line %d: pebs: the buffer is set up by the "
				"session's sampling format, not by the stream",
				st.pebs.line);
	if (!rc)
		rc = exec_bounded(&x);
	pmu__stream_free(&st);
	return rc;
}

int pmu_sim_run(struct pmu_sim *s, const char *text, size_t len,
		struct pmu_error *err)
{
	struct pmu__stream st;
	struct exec x = { .s = s, .st = &st, .err = err };
	int rc;

	pmu__error_clear(err);
	if (!s || (!text && len))
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  !s ? "no simulator" : "no stream");
	if (!s->controlled)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "no control loaded");
	rc = pmu__stream_parse(text, len, &st, err);
	if (!rc)
		rc = setup_pebs(&x);
	if (!rc) {
		s->ctl_base = s->sim.stats.ctl_writes;
		s->ctr_base = s->sim.stats.ctr_writes;
		pmu__perfctr_resume(&s->pc, &s->st);
		s->running = true;
		rc = exec_bounded(&x);
		if (s->running)
			pmu__perfctr_suspend(&s->pc, &s->st);
		s->running = false;
		pmu__sim_run_drain_pebs(s);
	}
	pmu__stream_free(&st);
	return rc;
}

static void fill_result(const struct pmu_sim *s, struct pmu_sim_result *r)
{
	uint32_t cs = s->st.cstatus;

	r->model = s->model->name;
	r->cstatus = cs;
	r->tsc_on = pmu__cstatus_has_tsc(cs);
	r->tsc = s->st.tsc_sum;
	r->nractrs = pmu__cstatus_nractrs(cs);
	r->nrictrs = pmu__cstatus_nrctrs(cs) - r->nractrs;
	for (unsigned i = 0; i < pmu__cstatus_nrctrs(cs) && i < PMU_MAX_CTRS; i++) {
		r->pmc[i] = s->st.pmc[i].sum;
		r->pmc_map[i] = s->st.pmc[i].map;
		r->overflows[i] = s->overflows[i];
	}
	r->interrupts = s->nirqs;
	r->interrupts_kept = s->nkept;
	r->ibs_samples = s->nibs;
	r->pebs_records = s->npebs;
	r->pebs_dropped = s->pebs.dropped;
	r->events = s->events;
	r->cycles = s->cycles;
	r->control_writes = s->sim.stats.ctl_writes - s->ctl_base;
	r->counter_writes = s->sim.stats.ctr_writes - s->ctr_base;
}

int pmu_sim_result(const struct pmu_sim *s, struct pmu_sim_result *r)
{
	struct pmu_sim_result o = { .size = sizeof(o) };

	if (!s || !pmu__out_ok(r, r ? r->size : 0))
		return -EINVAL;
	fill_result(s, &o);
	PMU__OUT(r, &o);
	return 0;
}

int pmu_sim_interrupt_at(const struct pmu_sim *s, size_t i,
			 struct pmu_sim_interrupt *out)
{
	if (!s || !pmu__out_ok(out, out ? out->size : 0))
		return -EINVAL;
	if (i >= s->nkept)
		return -ERANGE;
	PMU__OUT(out, &s->irqs[i]);
	return 0;
}

int pmu_sim_ibs_at(const struct pmu_sim *s, size_t i,
		   struct pmu_sim_ibs_sample *out)
{
	if (!s || !pmu__out_ok(out, out ? out->size : 0))
		return -EINVAL;
	if (i >= s->nibs)
		return -ERANGE;
	PMU__OUT(out, &s->ibs_s[i]);
	return 0;
}

int pmu_sim_pebs_at(const struct pmu_sim *s, size_t i,
		    struct pmu_sim_pebs_record *out)
{
	if (!s || !pmu__out_ok(out, out ? out->size : 0))
		return -EINVAL;
	if (i >= s->npebs)
		return -ERANGE;
	PMU__OUT(out, &s->pebs_r[i]);
	return 0;
}
