/* SPDX-License-Identifier: MIT */
/*
 * pmu's event sets inside the emulator: one context per set (contexts
 * 0..nsets-1), exactly one enabled.  A set's turn ends when its
 * designated counter, an i-mode counter, has overflowed `count` times:
 * the overflow happens at the exact instruction (the budget of
 * emu_ctx.c), so the switch does too, and a run repeats exactly.
 * Durations are the guest instructions each set counted.
 *
 * Also here: records every report_insns guest instructions (-I in
 * instructions), exact by the same budget.
 */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"

#include "emu.h"

static Bool begun;          /* the first turn has begun */

static void read_ctx(UInt k, struct pmu_emu_read *r)
{
	emu_ctx_read((Int)k, r);
}

static void begin_turn(UInt k)
{
	struct emu_set *s = &emu.set[k];
	struct pmu_emu_read now;

	read_ctx(k, &now);
	s->runs++;
	s->turn_ovfl = 0;
	s->turn_dur = emu.ctx[k].instr_on;
	for (UInt i = 0; i < PMU_MAX_CTRS; i++)
		s->turn_sum[i] = now.sum[i];
	begun = True;
}

/* Set k's rates over the turn that ends (count per instruction). */
static void end_turn(UInt k)
{
	struct emu_set *s = &emu.set[k];
	struct pmu_emu_read now;
	ULong dur = emu.ctx[k].instr_on - s->turn_dur;

	if (!dur)
		return;
	read_ctx(k, &now);
	for (UInt i = 0; i < now.nctrs; i++) {
		double r = (double)(now.sum[i] - s->turn_sum[i]) / (double)dur;

		s->rsum[i] += r;
		s->rsq[i] += r * r;
	}
	s->nrates++;
}

Int emu_sets_open(void)
{
	const struct pmu_emu_config *cfg = &emu.cfg;
	Bool on = !(cfg->ctx.flags & PMU_EMU_CFG_REGIONS);
	UInt n = cfg->nsets > 1 ? cfg->nsets : 1;
	Int rc;

	if (cfg->nsets > PMU_EMU_MAX_SETS)
		return -PMU_EINVAL;
	for (UInt k = 0; k < n; k++) {
		rc = emu_ctx_open(k ? &cfg->set_ctx[k - 1] : &cfg->ctx,
				  on && k == 0, (Int)k);
		if (rc < 0)
			return rc;
		if (n == 1)
			return 0;
		if (!cfg->sw[k].count || cfg->sw[k].ovfl_ctr >= PMU_MAX_CTRS)
			return -PMU_EINVAL;
		emu.ctx[k].is_set = True;
	}
	emu.nsets = n;
	if (on)
		begin_turn(0);
	return 0;
}

/* The program's own contexts come after pmu's. */
Int emu_first_client(void)
{
	return emu.nsets > 1 ? (Int)emu.nsets : 1;
}

void emu_sets_overflow(struct emu_ctx *c, UInt mask)
{
	UInt k = (UInt)(c - emu.ctx);

	if (k != emu.active || !(mask & (1u << emu.cfg.sw[k].ovfl_ctr)))
		return;
	if (++emu.set[k].turn_ovfl >= emu.cfg.sw[k].count)
		emu.switch_due = True;
}

/* At the end of a feed whose last instruction ended a turn. */
void emu_sets_switch(void)
{
	UInt k = emu.active;

	emu.switch_due = False;
	end_turn(k);
	emu_ctx_disable((Int)k);
	emu.active = (k + 1) % emu.nsets;
	begin_turn(emu.active);
	emu_ctx_enable((Int)emu.active);
}

/* Region markers act on the active set; its turn goes on. */
void emu_sets_marker(Bool start)
{
	if (emu.nsets <= 1) {
		if (start)
			emu_ctx_enable(0);
		else
			emu_ctx_disable(0);
		return;
	}
	if (start && !begun)
		begin_turn(emu.active);
	if (start)
		emu_ctx_enable((Int)emu.active);
	else
		emu_ctx_disable((Int)emu.active);
}

/* A forked child reports its own counts only: what came before is its
 * parent's.  Its rotation goes on from where the parent's was. */
void emu_sets_forked(void)
{
	struct pmu_emu_read now;

	for (UInt k = 0; k < emu.nsets && emu.nsets > 1; k++) {
		struct emu_set *s = &emu.set[k];

		read_ctx(k, &now);
		s->rep_runs = s->runs;
		s->rep_dur = emu.ctx[k].instr_on;
		s->rep_nrates = s->nrates;
		for (UInt i = 0; i < PMU_MAX_CTRS; i++) {
			s->rep_sum[i] = now.sum[i];
			s->rep_rsum[i] = s->rsum[i];
			s->rep_rsq[i] = s->rsq[i];
		}
	}
}

/* Each set's deltas since the last record into out[0..nsets). */
UInt emu_sets_records(struct pmu_emu_rec_set *out)
{
	struct pmu_emu_read now;

	if (emu.nsets <= 1)
		return 0;
	for (UInt k = 0; k < emu.nsets; k++) {
		struct emu_set *s = &emu.set[k];
		struct pmu_emu_rec_set *r = &out[k];

		read_ctx(k, &now);
		VG_(memset)(r, 0, sizeof(*r));
		r->h.type = PMU_EMU_REC_SET;
		r->h.size = sizeof(*r);
		r->set = k;
		r->nctrs = now.nctrs;
		r->runs = s->runs - s->rep_runs;
		r->duration = emu.ctx[k].instr_on - s->rep_dur;
		r->nrates = s->nrates - s->rep_nrates;
		s->rep_runs = s->runs;
		s->rep_dur = emu.ctx[k].instr_on;
		s->rep_nrates = s->nrates;
		for (UInt i = 0; i < now.nctrs; i++) {
			r->sum[i] = now.sum[i] - s->rep_sum[i];
			r->rsum[i] = s->rsum[i] - s->rep_rsum[i];
			r->rsq[i] = s->rsq[i] - s->rep_rsq[i];
			s->rep_sum[i] = now.sum[i];
			s->rep_rsum[i] = s->rsum[i];
			s->rep_rsq[i] = s->rsq[i];
		}
	}
	return emu.nsets;
}

/* ---- instruction intervals ---- */

ULong emu_insns_distance(void)
{
	ULong n = emu.kind[PMU_EMU_K_INSTR];

	if (!emu.cfg.report_insns)
		return ~0ull;
	return emu.next_insns > n ? emu.next_insns - n : 1;
}

void emu_insns_check(void)
{
	ULong n = emu.kind[PMU_EMU_K_INSTR];

	if (!emu.cfg.report_insns || n < emu.next_insns)
		return;
	while (emu.next_insns <= n)
		emu.next_insns += emu.cfg.report_insns;
	emu_report(PMU_EMU_WHY_INSNS);
}
