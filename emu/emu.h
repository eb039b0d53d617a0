/* SPDX-License-Identifier: MIT */
#ifndef PMU_EMU_EMU_H
#define PMU_EMU_EMU_H

/*
 * The emulator: a Valgrind tool that runs pmu's simulated PMU (lib/sim,
 * lib/hwmodel, unchanged) on what a real program does.  One process of the
 * program is one emulated CPU: its instructions, branches and memory
 * accesses go through the cache and branch-predictor models and become
 * events of the simulated model, fed to every counter context of the
 * process (context 0: the one pmu configured from outside; others: the
 * program's own sessions, opened with client requests).
 *
 * Valgrind runs one guest thread at a time, so this state needs no lock.
 */

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

#include "proto/emu.h"
#include "sim/perfctr.h"
#include "sim/ibs.h"
#include "sim/sim.h"
#include "sim/xscale.h"

#define EMU_MAX_CTX 8

/* One set of counters on one simulated PMU. */
struct emu_ctx {
	Bool used;
	Bool enabled;
	Bool controlled;         /* a control is loaded (cstatus != 0) */
	const struct pmu_hwmodel *m;
	struct pmu__sim sim;
	struct pmu__perfctr pc;
	struct pmu__perfctr_state st;
	struct pmu__xscale xs;
	struct pmu__ibs ibs;
	struct pmu_emu_context cfg;
	ULong unsampled;         /* fed since the a-mode sums were folded */
	UInt w[PMU_EMU_NKIND];   /* what one event of each kind adds to its
				    i-mode counters (the budget's weights) */
	ULong cycles_on;         /* simulated cycles while enabled */
	ULong instr_on;          /* guest instructions while enabled */
	Bool is_set;             /* an event set of pmu's (contexts
				    0..nsets-1): overflows switch, no samples */
	ULong irqs;
	/* context 0: what the last record reported */
	ULong reported[PMU_MAX_CTRS];
	ULong reported_tsc;
	/* samples kept for the program (contexts > 0) or the FIFO (0) */
	struct pmu_emu_rec_sample *smp;
	UInt nsmp, smpcap;
	ULong nkept;             /* samples taken (max-samples bounds it) */
	ULong lost;
};

struct emu_state {
	/* cumulative counts of what the program did (instrumented code
	 * adds to these directly) */
	ULong kind[PMU_EMU_NKIND];
	ULong fed[PMU_EMU_NKIND];     /* what contexts have been fed */
	ULong reported[PMU_EMU_NKIND];/* what the last record reported */
	ULong kind_mask;         /* kinds some rule (or the cost model) needs */
	Bool icache, dcache;     /* the instruction side (I1, and the LL it
				    shares) and the data side must run */
	Bool llsim;              /* LL misses are counted */
	Bool bpred;              /* the branch predictor must run */
	Bool cycles;             /* some context counts cycles */
	Bool precise;            /* some context has i-mode counters */
	Long budget;             /* irq-relevant events left before an
				    i-mode counter may overflow */
	ULong irq_kinds;         /* kinds that feed i-mode counters */
	Int tick;                /* superblocks until the next clock check */
	UInt next_report_ms;
	struct pmu_emu_config cfg;
	Bool have_cfg;           /* run under pmu: context 0 is pmu's */
	const HChar *dir;        /* --pmu-dir */
	struct emu_ctx ctx[EMU_MAX_CTX];
	/* event sets (emu_sets.c) and instruction intervals */
	UInt nsets, active;
	Bool switch_due;         /* the active set's turn just ended */
	ULong next_insns;        /* instructions at the next INSNS record */
	struct emu_set {
		ULong runs, turn_ovfl, turn_dur;
		ULong turn_sum[PMU_MAX_CTRS];
		ULong nrates;
		double rsum[PMU_MAX_CTRS], rsq[PMU_MAX_CTRS];
		/* what the last record reported */
		ULong rep_runs, rep_dur, rep_nrates;
		ULong rep_sum[PMU_MAX_CTRS];
		double rep_rsum[PMU_MAX_CTRS], rep_rsq[PMU_MAX_CTRS];
	} set[PMU_EMU_MAX_SETS];
	/* the sample being taken: what the overflow handler records */
	struct pmu_emu_rec_sample cur;
};

extern struct emu_state emu;

/* emu_cache.c: I1, D1 and LL, write-allocate LRU (cachegrind's rules). */
void emu_cache_init(const struct pmu_emu_cache_geom *i1,
		    const struct pmu_emu_cache_geom *d1,
		    const struct pmu_emu_cache_geom *ll);
void emu_cache_need(Bool i1, Bool d1, Bool ll);
UInt emu_cache_i1_line_bits(void);
VG_REGPARM(2) void emu_cache_iref(Addr a, UWord size);
VG_REGPARM(2) void emu_cache_dread(Addr a, UWord size);
VG_REGPARM(2) void emu_cache_dwrite(Addr a, UWord size);

/* emu_bpred.c: gshare or bimodal, an indirect-target table, a return
 * stack. */
void emu_bpred_init(UInt kind);
VG_REGPARM(2) void emu_bpred_cond(Addr ip, UWord taken);
VG_REGPARM(2) void emu_bpred_ind(Addr ip, Addr target);
VG_REGPARM(1) void emu_bpred_call(Addr ret_addr);
VG_REGPARM(1) void emu_bpred_ret(Addr target);

/* emu_ctx.c: counter contexts.  Context 0 is pmu's (from the config);
 * the program's own sessions get the others. */
extern UInt emu_weight[PMU_EMU_NKIND];
extern UInt emu_min_line;
Int emu_ctx_open(const struct pmu_emu_context *c, Bool enabled, Int first);
void emu_ctx_close(Int id);
Bool emu_ctx_valid(Int id);
void emu_ctx_enable(Int id);
void emu_ctx_disable(Int id);
void emu_ctx_reset(Int id);
void emu_ctx_read(Int id, struct pmu_emu_read *r);
UInt emu_ctx_take_samples(Int id, struct pmu_emu_rec_sample *out, UInt max);
void emu_flush(void);
void emu_kernel_cycles(ULong n);
void emu_recompute_budget(void);
/* Which kinds the contexts need; True when it changed. */
Bool emu_update_needs(void);

/* emu_sets.c: pmu's event sets, contexts 0..nsets-1. */
Int emu_sets_open(void);
Int emu_first_client(void);
void emu_sets_overflow(struct emu_ctx *c, UInt mask);
void emu_sets_switch(void);
void emu_sets_marker(Bool start);
void emu_sets_forked(void);
UInt emu_sets_records(struct pmu_emu_rec_set *out);
/* instruction intervals: records every report_insns instructions */
void emu_insns_check(void);
ULong emu_insns_distance(void);

/* emu_instr.c */
IRSB *emu_instrument(VgCallbackClosure *closure, IRSB *in,
		     const VexGuestLayout *layout,
		     const VexGuestExtents *vge,
		     const VexArchInfo *archinfo_host,
		     IRType gWordTy, IRType hWordTy);

/* emu_report.c: records on pmu's FIFO. */
void emu_report(UInt why);
void emu_report_error(const HChar *text);
void emu_report_samples(void);
/* For a context that samples: a process starts (enum pmu_emu_task),
 * and the executable file mappings of a range. */
void emu_report_task(UInt why);
void emu_report_map(Addr a, SizeT len);
Bool emu_read_config(const HChar *dir, struct pmu_emu_config *cfg,
		     HChar *why, SizeT whylen);

#endif
