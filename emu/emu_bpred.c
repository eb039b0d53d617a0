/* SPDX-License-Identifier: MIT */
/*
 * The branch predictor (docs/emulation.md):
 *  - conditional branches: gshare, 2^14 two-bit saturating counters
 *    indexed by the branch address xor a 14-bit global history of
 *    outcomes (or bimodal: the address alone); counters start weakly
 *    not-taken;
 *  - indirect jumps and calls: a 4096-entry table of last targets,
 *    indexed by the branch address;
 *  - returns: a 16-entry return stack; a call pushes its return address
 *    (the oldest entry goes when it is full), a return pops;
 *  - direct jumps and calls are always predicted right.
 */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"

#include "emu.h"

#define PHT_BITS 14
#define HIST_BITS 14
#define BTB_BITS 12
#define RAS_DEPTH 16

static UChar pht[1u << PHT_BITS];
static Addr btb[1u << BTB_BITS];
static Addr ras[RAS_DEPTH];
static UInt ras_top, ras_n;     /* next free slot; entries held */
static UWord hist;
static Bool gshare;

void emu_bpred_init(UInt kind)
{
	gshare = kind == PMU_EMU_BP_GSHARE;
	VG_(memset)(pht, 1, sizeof(pht));       /* weakly not taken */
	VG_(memset)(btb, 0, sizeof(btb));
	ras_top = ras_n = 0;
	hist = 0;
}

static inline UWord mix(Addr ip)
{
	return (UWord)ip ^ ((UWord)ip >> PHT_BITS);
}

static inline void count(UInt k)
{
	emu.kind[k]++;
	if (emu.irq_kinds & (1ull << k))
		emu.budget--;
}

static void mispredicted(UInt kind, Bool taken)
{
	count(kind);
	count(PMU_EMU_K_BR_MISP);
	if (taken)
		count(PMU_EMU_K_TAKEN_MISP);
}

VG_REGPARM(2) void emu_bpred_cond(Addr ip, UWord taken)
{
	UWord i = (mix(ip) ^ (gshare ? hist : 0)) & ((1u << PHT_BITS) - 1);
	UChar c = pht[i];
	Bool guess = c >= 2;

	if (taken && c < 3)
		pht[i] = c + 1;
	else if (!taken && c > 0)
		pht[i] = c - 1;
	hist = ((hist << 1) | (taken != 0)) & ((1u << HIST_BITS) - 1);
	if (guess != (taken != 0))
		mispredicted(PMU_EMU_K_COND_MISP, taken != 0);
}

VG_REGPARM(2) void emu_bpred_ind(Addr ip, Addr target)
{
	UWord i = mix(ip) & ((1u << BTB_BITS) - 1);

	if (btb[i] != target)
		mispredicted(PMU_EMU_K_IND_MISP, True);
	btb[i] = target;
}

VG_REGPARM(1) void emu_bpred_call(Addr ret_addr)
{
	if (ras_n == RAS_DEPTH)
		count(PMU_EMU_K_RAS_OVERFLOW);
	else
		ras_n++;
	ras[ras_top] = ret_addr;
	ras_top = (ras_top + 1) % RAS_DEPTH;
}

VG_REGPARM(1) void emu_bpred_ret(Addr target)
{
	Addr guess = 0;

	if (ras_n) {
		ras_top = (ras_top + RAS_DEPTH - 1) % RAS_DEPTH;
		guess = ras[ras_top];
		ras_n--;
	}
	if (guess != target)
		mispredicted(PMU_EMU_K_RET_MISP, True);
}
