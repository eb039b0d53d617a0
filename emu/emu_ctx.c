/* SPDX-License-Identifier: MIT */
/*
 * Counter contexts: a simulated PMU of one model under perfctr's
 * low-level driver (the same code the sim driver runs), loaded with the
 * control pmu sent, fed the process's events through the rules.
 *
 * Feeding is lazy: instrumented code only adds to emu.kind[]; the
 * contexts are fed the difference when someone looks (a read, a record,
 * a region marker, a system call) or when an i-mode counter may be about
 * to overflow (emu.budget).  a-mode sums are 32-bit deltas folded into
 * 64 bits, so a context is fed at most 2^30 events between two folds.
 */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"

#include "emu.h"

#define SERVICE "pmu emu"
#define FOLD_EVERY (1ull << 30)

struct emu_state emu;

static struct emu_ctx *ctx_of(Int id)
{
	if (id < 0 || id >= EMU_MAX_CTX || !emu.ctx[id].used)
		return NULL;
	return &emu.ctx[id];
}

Bool emu_ctx_valid(Int id)
{
	return ctx_of(id) != NULL;
}

/* Samples a program has not taken yet: at most this many are kept. */
#define MAX_KEPT (1u << 20)

static void keep_sample(struct emu_ctx *c, UInt mask)
{
	struct pmu_emu_rec_sample *s;
	UInt max = emu.cfg.max_samples;

	if ((max && c->nkept >= max) || c->nsmp >= MAX_KEPT) {
		c->lost++;
		return;
	}
	c->nkept++;
	if (c->nsmp == c->smpcap) {
		UInt n = c->smpcap ? 2 * c->smpcap : 256;

		c->smp = VG_(realloc)("pmu.samples", c->smp, n * sizeof(*s));
		c->smpcap = n;
	}
	s = &c->smp[c->nsmp++];
	*s = emu.cur;
	s->h.type = PMU_EMU_REC_SAMPLE;
	s->h.size = sizeof(*s);
	s->h.pid = VG_(getpid)();
	s->h.tid = VG_(gettid)();
	s->mask = mask;
	/* context 0's samples go to pmu in batches */
	if (c == &emu.ctx[0] && emu.have_cfg && c->nsmp >= 64)
		emu_report_samples();
}

/* perfctr's interrupt handler as the per-process driver ran it: stop,
 * find the counters that overflowed, record, reload, go on. */
static void on_overflow(void *arg, uint64_t ip)
{
	struct emu_ctx *c = arg;
	UInt mask;

	(void)ip;
	pmu__perfctr_suspend(&c->pc, &c->st);
	mask = pmu__perfctr_identify_overflow(&c->pc, &c->st);
	c->irqs++;
	if (c->is_set)
		emu_sets_overflow(c, mask);
	else
		keep_sample(c, mask);
	pmu__perfctr_ireload(&c->pc, &c->st);
	pmu__perfctr_resume(&c->pc, &c->st);
}

static Bool rule_counts(const struct pmu_emu_rule *r,
			const struct pmu__sim_cfg *cfg)
{
	if (!(cfg->flags & PMU_SIM_CFG_ON) || cfg->key != r->key)
		return False;
	return !r->umask || !cfg->umask || (cfg->umask & r->umask);
}

static void fold(struct emu_ctx *c, ULong n)
{
	c->unsampled += n;
	if (c->unsampled < FOLD_EVERY)
		return;
	if (c->enabled && c->controlled)
		pmu__perfctr_sample(&c->pc, &c->st);
	c->unsampled = 0;
}

static void advance(struct emu_ctx *c, const struct pmu_emu_rule *r, ULong n)
{
	while (n) {
		ULong step = n < FOLD_EVERY ? n : FOLD_EVERY;

		pmu__sim_advance(&c->sim, r->key, r->umask, step);
		fold(c, step);
		n -= step;
	}
}

static void cycles(struct emu_ctx *c, ULong n)
{
	if (c->enabled)
		c->cycles_on += n;
	while (n) {
		ULong step = n < FOLD_EVERY ? n : FOLD_EVERY;

		pmu__sim_cycles(&c->sim, step);
		fold(c, step);
		n -= step;
	}
}

static ULong cost(const ULong *d)
{
	const struct pmu_emu_costs *k = &emu.cfg.costs;

	return k->instr * d[PMU_EMU_K_INSTR] +
	       k->l1_miss * (d[PMU_EMU_K_I1_MISS] + d[PMU_EMU_K_D1_RMISS] +
			     d[PMU_EMU_K_D1_WMISS]) +
	       k->ll_miss * (d[PMU_EMU_K_LL_IMISS] + d[PMU_EMU_K_LL_RMISS] +
			     d[PMU_EMU_K_LL_WMISS]) +
	       k->mispredict * d[PMU_EMU_K_BR_MISP];
}

static void feed(struct emu_ctx *c, const ULong *d, ULong cyc)
{
	pmu__sim_set_ip(&c->sim, emu.cur.ip);
	if (c->enabled)
		c->instr_on += d[PMU_EMU_K_INSTR];
	for (UInt i = 0; i < c->cfg.nrules; i++) {
		const struct pmu_emu_rule *r = &c->cfg.rules[i];
		ULong n = d[r->kind];

		if (r->minus != PMU_EMU_K_NONE)
			n -= d[r->minus];
		if (n)
			advance(c, r, n);
	}
	if (cyc)
		cycles(c, cyc);
}

void emu_flush(void)
{
	ULong d[PMU_EMU_NKIND];
	Bool any = False;

	for (UInt k = 0; k < PMU_EMU_NKIND; k++) {
		d[k] = emu.kind[k] - emu.fed[k];
		emu.fed[k] = emu.kind[k];
		any |= d[k] != 0;
	}
	if (any) {
		ULong cyc = emu.cycles ? cost(d) : 0;

		d[PMU_EMU_K_CYCLES] = cyc;
		emu.kind[PMU_EMU_K_CYCLES] += cyc;
		emu.fed[PMU_EMU_K_CYCLES] = emu.kind[PMU_EMU_K_CYCLES];

		for (UInt i = 0; i < EMU_MAX_CTX; i++)
			if (emu.ctx[i].used)
				feed(&emu.ctx[i], d, cyc);
	}
	if (emu.switch_due)
		emu_sets_switch();
	emu_insns_check();
	if (emu.precise)
		emu_recompute_budget();
}

/* A system call: the kernel's share of the cycles, counted in kernel
 * mode (cycles:k), then back to user mode. */
void emu_kernel_cycles(ULong n)
{
	emu_flush();
	for (UInt i = 0; i < EMU_MAX_CTX; i++) {
		struct emu_ctx *c = &emu.ctx[i];

		if (!c->used)
			continue;
		pmu__sim_set_mode(&c->sim, PMU_SIM_KERNEL);
		cycles(c, n);
		pmu__sim_set_mode(&c->sim, PMU_SIM_USER);
	}
	if (emu.precise)
		emu_recompute_budget();
}

/* ---- what the contexts need ---- */

static ULong cost_kinds(void)
{
	return (1ull << PMU_EMU_K_INSTR) | (1ull << PMU_EMU_K_I1_MISS) |
	       (1ull << PMU_EMU_K_D1_RMISS) | (1ull << PMU_EMU_K_D1_WMISS) |
	       (1ull << PMU_EMU_K_LL_IMISS) | (1ull << PMU_EMU_K_LL_RMISS) |
	       (1ull << PMU_EMU_K_LL_WMISS) | (1ull << PMU_EMU_K_BR_MISP);
}

static ULong cost_weight(UInt k)
{
	const struct pmu_emu_costs *c = &emu.cfg.costs;

	switch (k) {
	case PMU_EMU_K_INSTR:
		return c->instr;
	case PMU_EMU_K_I1_MISS: case PMU_EMU_K_D1_RMISS:
	case PMU_EMU_K_D1_WMISS:
		return c->l1_miss;
	case PMU_EMU_K_LL_IMISS: case PMU_EMU_K_LL_RMISS:
	case PMU_EMU_K_LL_WMISS:
		return c->ll_miss;
	case PMU_EMU_K_BR_MISP:
		return c->mispredict;
	default:
		return 0;
	}
}

static Bool update_weights(void)
{
	Bool changed = False;

	emu.irq_kinds = 0;
	for (UInt k = 0; k < PMU_EMU_NKIND; k++) {
		UInt w = 0;

		for (UInt i = 0; i < EMU_MAX_CTX; i++)
			if (emu.ctx[i].used)
				w += emu.ctx[i].w[k];
		/* instruction intervals end exactly too: each instruction
		 * uses up budget (a flush that comes early only rechecks) */
		if (k == PMU_EMU_K_INSTR && emu.cfg.report_insns)
			w++;
		changed |= w != emu_weight[k];
		emu_weight[k] = w;
		if (w)
			emu.irq_kinds |= 1ull << k;
	}
	return changed;
}

Bool emu_update_needs(void)
{
	ULong mask = 1ull << PMU_EMU_K_INSTR;
	Bool weights;
	Bool cyc = False, precise = False, old_i = emu.icache,
	     old_d = emu.dcache, old_bpred = emu.bpred,
	     old_precise = emu.precise;
	ULong ll = (1ull << PMU_EMU_K_LL_IMISS) | (1ull << PMU_EMU_K_LL_RMISS) |
		   (1ull << PMU_EMU_K_LL_WMISS);
	ULong old_mask = emu.kind_mask;

	for (UInt i = 0; i < EMU_MAX_CTX; i++) {
		const struct emu_ctx *c = &emu.ctx[i];

		if (!c->used)
			continue;
		for (UInt r = 0; r < c->cfg.nrules; r++) {
			mask |= 1ull << c->cfg.rules[r].kind;
			if (c->cfg.rules[r].minus != PMU_EMU_K_NONE)
				mask |= 1ull << c->cfg.rules[r].minus;
		}
		cyc |= (c->cfg.flags & PMU_EMU_CFG_CYCLES) != 0;
		precise |= c->cfg.control.nrictrs != 0;
	}
	precise |= emu.cfg.report_insns != 0;
	cyc |= (mask >> PMU_EMU_K_CYCLES) & 1;
	if (cyc)
		mask |= cost_kinds();
	emu.cycles = cyc;
	emu.kind_mask = mask;
	/* The LL is shared: its misses need both sides; L1 misses of one
	 * side need that side only. */
	emu.llsim = (mask & ll) != 0;
	emu.icache = (mask & ll) || (mask & (1ull << PMU_EMU_K_I1_MISS));
	emu.dcache = (mask & ll) || (mask & ((1ull << PMU_EMU_K_D1_RMISS) |
					     (1ull << PMU_EMU_K_D1_WMISS)));
	emu.bpred = (mask >> PMU_EMU_FIRST_BPRED_KIND) != 0;
	emu_cache_need(emu.icache, emu.dcache, emu.llsim);
	emu.precise = precise;
	weights = update_weights();
	emu_recompute_budget();
	return weights || mask != old_mask || emu.icache != old_i || emu.dcache != old_d ||
	       emu.bpred != old_bpred || emu.precise != old_precise;
}

/* ---- the budget: events before an i-mode counter may overflow ---- */

UInt emu_weight[PMU_EMU_NKIND];

static ULong distance(const struct pmu__sim *s, UInt hw)
{
	return ((s->ovf_bias - s->ctr[hw]) & s->wmask) + 1;
}

/* Add to w[] what one event of each kind adds to i-mode counter hw. */
static void weigh(const struct emu_ctx *c, UInt hw, UInt *w)
{
	const struct pmu__sim_cfg *cfg = &c->sim.cfg[hw];

	for (UInt r = 0; r < c->cfg.nrules; r++)
		if (rule_counts(&c->cfg.rules[r], cfg))
			w[c->cfg.rules[r].kind]++;
	if (cfg->flags & PMU_SIM_CFG_CYCLES)
		for (UInt k = 0; k < PMU_EMU_NKIND; k++)
			w[k] += cost_weight(k);
}

/* The weights of a context's i-mode counters, known once its control
 * is loaded, whether it counts yet or not: code translated before it
 * is enabled must already check the budget.  The control registers are
 * written at resume, so the counters are resumed and suspended once
 * (which changes no count) to decode them. */
static void context_weights(struct emu_ctx *c)
{
	UInt na, n;

	VG_(memset)(c->w, 0, sizeof(c->w));
	if (!c->controlled || !c->st.control.nrictrs)
		return;
	pmu__perfctr_resume(&c->pc, &c->st);
	na = pmu__cstatus_nractrs(c->st.cstatus);
	n = pmu__cstatus_nrctrs(c->st.cstatus);
	for (UInt v = na; v < n; v++)
		weigh(c, c->st.hw[v], c->w);
	pmu__perfctr_suspend(&c->pc, &c->st);
}

void emu_recompute_budget(void)
{
	ULong best = emu_insns_distance();

	for (UInt i = 0; emu.precise && i < EMU_MAX_CTX; i++) {
		const struct emu_ctx *c = &emu.ctx[i];
		UInt na, n;

		if (!c->used || !c->controlled || !c->enabled)
			continue;
		na = pmu__cstatus_nractrs(c->st.cstatus);
		n = pmu__cstatus_nrctrs(c->st.cstatus);
		for (UInt v = na; v < n; v++) {
			ULong d = distance(&c->sim, c->st.hw[v]);

			if (d < best)
				best = d;
		}
	}
	emu.budget = best > (1ull << 62) ? (Long)(1ull << 62) : (Long)best;
}

/* ---- open, close, enable ... ---- */

static Int load(struct emu_ctx *c)
{
	int rc;

	if (pmu__perfctr_reserve(&c->pc, SERVICE))
		return -PMU_EBUSY;
	c->st.control = c->cfg.control;
	if (!c->st.control.nractrs && !c->st.control.nrictrs &&
	    !c->st.control.tsc_on)
		return 0;        /* nothing to count: nothing to load */
	rc = pmu__perfctr_update_control(&c->pc, &c->st, False);
	if (rc)
		return rc;
	c->controlled = c->st.cstatus != 0;
	context_weights(c);
	return 0;
}

static Int init_ctx(struct emu_ctx *c, const struct pmu_emu_context *cfg)
{
	HChar name[sizeof(cfg->model) + 1];
	Int rc;

	VG_(memcpy)(name, cfg->model, sizeof(cfg->model));
	name[sizeof(cfg->model)] = 0;
	c->m = pmu__hwmodel_find(name);
	if (!c->m || cfg->nrules > PMU_EMU_MAX_RULES)
		return -PMU_EINVAL;
	for (UInt r = 0; r < cfg->nrules; r++)
		if (cfg->rules[r].kind >= PMU_EMU_NKIND ||
		    (cfg->rules[r].minus != PMU_EMU_K_NONE &&
		     cfg->rules[r].minus >= PMU_EMU_NKIND))
			return -PMU_EINVAL;
	c->cfg = *cfg;
	rc = pmu__sim_init(&c->sim, c->m);
	if (!rc && c->m->arch == PMU_ARCH_ARM)
		rc = pmu__sim_xscale_attach(&c->sim, &c->xs);
	if (!rc)
		rc = pmu__perfctr_init(&c->pc, &c->sim, c->m->name);
	if (rc)
		return rc;
	pmu__perfctr_set_ihandler(&c->pc, on_overflow, c);
	pmu__perfctr_state_init(&c->st);
	return load(c);
}

Int emu_ctx_open(const struct pmu_emu_context *cfg, Bool enabled, Int first)
{
	Int id, rc;

	for (id = first; id < EMU_MAX_CTX && emu.ctx[id].used; id++)
		;
	if (id == EMU_MAX_CTX)
		return -PMU_ENOSPC;
	emu_flush();             /* what came before is not its business */
	VG_(memset)(&emu.ctx[id], 0, sizeof(emu.ctx[id]));
	rc = init_ctx(&emu.ctx[id], cfg);
	if (rc) {
		VG_(memset)(&emu.ctx[id], 0, sizeof(emu.ctx[id]));
		return rc;
	}
	emu.ctx[id].used = True;
	if (enabled)
		emu_ctx_enable(id);
	return id;
}

void emu_ctx_close(Int id)
{
	struct emu_ctx *c = ctx_of(id);

	if (!c)
		return;
	emu_flush();
	if (c->controlled && c->enabled)
		pmu__perfctr_suspend(&c->pc, &c->st);
	pmu__perfctr_release(&c->pc, SERVICE);
	pmu__perfctr_exit(&c->pc);
	if (c->smp)
		VG_(free)(c->smp);
	VG_(memset)(c, 0, sizeof(*c));
}

void emu_ctx_enable(Int id)
{
	struct emu_ctx *c = ctx_of(id);

	if (!c || c->enabled)
		return;
	emu_flush();
	if (c->controlled)
		pmu__perfctr_resume(&c->pc, &c->st);
	c->enabled = True;
	c->unsampled = 0;
	if (emu.precise)
		emu_recompute_budget();
}

void emu_ctx_disable(Int id)
{
	struct emu_ctx *c = ctx_of(id);

	if (!c || !c->enabled)
		return;
	emu_flush();
	if (c->controlled)
		pmu__perfctr_suspend(&c->pc, &c->st);
	c->enabled = False;
	if (emu.precise)
		emu_recompute_budget();
}

void emu_ctx_reset(Int id)
{
	struct emu_ctx *c = ctx_of(id);

	if (!c)
		return;
	emu_flush();
	if (c->controlled) {
		if (c->enabled)
			pmu__perfctr_sample(&c->pc, &c->st);
		c->st.tsc_sum = 0;
		for (UInt i = 0; i < PMU_MAX_CTRS; i++)
			c->st.pmc[i].sum = 0;
	}
	c->cycles_on = 0;
	c->nsmp = 0;
	c->nkept = 0;
	c->lost = 0;
}

void emu_ctx_read(Int id, struct pmu_emu_read *r)
{
	struct emu_ctx *c = ctx_of(id);
	UInt n;

	VG_(memset)(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	if (!c)
		return;
	emu_flush();
	n = c->controlled ? pmu__cstatus_nrctrs(c->st.cstatus) : 0;
	r->nctrs = n;
	for (UInt i = 0; i < n; i++)
		r->sum[i] = c->enabled ? pmu__perfctr_read_pmc(&c->pc, &c->st, i)
				       : c->st.pmc[i].sum;
	if (c->controlled && pmu__cstatus_has_tsc(c->st.cstatus))
		r->tsc = c->enabled ? pmu__perfctr_read_tsc(&c->pc, &c->st)
				    : c->st.tsc_sum;
	r->cycles = c->cycles_on;
	for (UInt k = 0; k < PMU_EMU_NKIND; k++)
		r->kind[k] = emu.kind[k];
	r->samples = c->nsmp;
	r->irqs = c->irqs;
}

UInt emu_ctx_take_samples(Int id, struct pmu_emu_rec_sample *out, UInt max)
{
	struct emu_ctx *c = ctx_of(id);
	UInt n;

	if (!c)
		return 0;
	n = c->nsmp < max ? c->nsmp : max;
	VG_(memcpy)(out, c->smp, n * sizeof(*out));
	VG_(memmove)(c->smp, c->smp + n, (c->nsmp - n) * sizeof(*out));
	c->nsmp -= n;
	return n;
}
