/* SPDX-License-Identifier: MIT */
/*
 * Instrumentation: what each guest instruction does, added to the
 * process's counts (emu.kind[]) by the code VEX generates.
 *
 * Counts that are known when a superblock is translated (instructions,
 * branch instructions, loads and stores) are added in one step per
 * stretch of straight-line code, just before each exit and at the end:
 * the cheapest path for bursts.  The cache and branch-predictor models
 * run in helpers, and only for the kinds some counter needs.  When a
 * context samples (i-mode counters), every instruction ends with a check
 * of emu.budget, so that the counters are fed, and overflow, exactly at
 * the instruction that caused the event.
 *
 * What is counted follows cachegrind's rules where it has one, so that
 * the two agree: an instruction is an IMark; a conditional branch (Bc) is
 * a side exit of kind Boring, Call or Ret; an indirect branch (Bi) is a
 * superblock that ends in a Boring jump or a Call to a computed address;
 * a load and a store of one address, of one size, by one instruction
 * with nothing between them are one read (a modify); accesses larger
 * than the smallest line count as one line.
 */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"
#include "libvex_guest_amd64.h"

#include "emu.h"

/* What an instruction is, from its bytes (x86-64). */
enum cls { C_NONE, C_JCC, C_JMP, C_CALL, C_JMP_IND, C_CALL_IND, C_RET };

struct held {                    /* a read that a write may join */
	Bool valid;
	Int size;
	IRExpr *ea;
};

struct tr {
	IRSB *out;
	ULong pend[PMU_EMU_NKIND];   /* added at the next flush point */
	Bool dirty;                  /* precise: check the budget */
	struct held held;
	Bool iline_ok;               /* iline: the last I1 line referenced */
	UWord iline;
	Addr ip;
	UInt len;
	enum cls cls;
	IRExpr *daddr;               /* precise: first data address */
};

static Bool need(UInt k)
{
	return (emu.kind_mask >> k) & 1;
}

static enum cls classify(const UChar *p, UInt len)
{
	UInt i = 0;
	UChar b;

	for (; i < len; i++) {
		b = p[i];
		if (b != 0x66 && b != 0x67 && b != 0xF0 && b != 0xF2 &&
		    b != 0xF3 && b != 0x2E && b != 0x36 && b != 0x3E &&
		    b != 0x26 && b != 0x64 && b != 0x65)
			break;
	}
	if (i < len && (p[i] & 0xF0) == 0x40)
		i++;             /* REX */
	if (i >= len)
		return C_NONE;
	b = p[i];
	if ((b >= 0x70 && b <= 0x7F) || (b >= 0xE0 && b <= 0xE3))
		return C_JCC;    /* jcc, loop*, jrcxz */
	if (b == 0x0F && i + 1 < len && (p[i + 1] & 0xF0) == 0x80)
		return C_JCC;
	if (b == 0xE8)
		return C_CALL;
	if (b == 0xE9 || b == 0xEB)
		return C_JMP;
	if (b == 0xC3 || b == 0xC2 || b == 0xCB || b == 0xCA)
		return C_RET;
	if (b == 0xFF && i + 1 < len) {
		UInt reg = (p[i + 1] >> 3) & 7;

		if (reg == 2 || reg == 3)
			return C_CALL_IND;
		if (reg == 4 || reg == 5)
			return C_JMP_IND;
	}
	return C_NONE;
}

/* ---- IR building ---- */

static IRExpr *tmp(struct tr *t, IRType ty, IRExpr *e)
{
	IRTemp x = newIRTemp(t->out->tyenv, ty);

	addStmtToIRSB(t->out, IRStmt_WrTmp(x, e));
	return IRExpr_RdTmp(x);
}

/* *p += e (e: an I64 expression; sub: -=) */
static void add64(struct tr *t, void *p, IRExpr *e, Bool sub)
{
	IRExpr *a = mkIRExpr_HWord((HWord)p);
	IRExpr *old = tmp(t, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, a));
	IRExpr *nw = tmp(t, Ity_I64, IRExpr_Binop(sub ? Iop_Sub64 : Iop_Add64,
						  old, e));

	addStmtToIRSB(t->out, IRStmt_Store(Iend_LE, a, nw));
}

static IRExpr *c64(ULong v)
{
	return IRExpr_Const(IRConst_U64(v));
}

static IRExpr *widen(struct tr *t, IRExpr *guard)
{
	return tmp(t, Ity_I64, IRExpr_Unop(Iop_1Uto64, guard));
}

static void call(struct tr *t, const HChar *name, void *fn, IRExpr **args,
		 Int regparms, IRExpr *guard)
{
	IRDirty *d = unsafeIRDirty_0_N(regparms, name,
				       VG_(fnptr_to_fnentry)(fn), args);

	if (guard)
		d->guard = guard;
	addStmtToIRSB(t->out, IRStmt_Dirty(d));
}

/* ---- counts ---- */

static void bump(struct tr *t, UInt k, ULong n)
{
	t->pend[k] += n;
	if (emu_weight[k])
		t->dirty = True;
}

/* A count only known at run time: *guard* (I64, 0 or 1) of kind k. */
static void bump_dyn(struct tr *t, UInt k, IRExpr *one)
{
	if (!need(k))
		return;
	add64(t, &emu.kind[k], one, False);
	if (emu.precise && emu_weight[k]) {
		add64(t, &emu.budget, emu_weight[k] == 1 ? one :
		      tmp(t, Ity_I64, IRExpr_Binop(Iop_Mul64, one,
						   c64(emu_weight[k]))), True);
		t->dirty = True;
	}
}

static void flush_pend(struct tr *t)
{
	ULong w = 0;

	for (UInt k = 0; k < PMU_EMU_NKIND; k++) {
		if (!t->pend[k])
			continue;
		if (need(k)) {
			add64(t, &emu.kind[k], c64(t->pend[k]), False);
			w += (ULong)emu_weight[k] * t->pend[k];
		}
		t->pend[k] = 0;
	}
	if (emu.precise && w)
		add64(t, &emu.budget, c64(w), True);
}

/* ---- samples: the precise path ---- */

static VG_REGPARM(3) void precise(Addr ip, Addr daddr, UChar *gs)
{
	const VexGuestAMD64State *g = (const VexGuestAMD64State *)gs;

	emu.cur.ip = ip;
	emu.cur.data_addr = daddr;
	/* the PEBS record's order */
	emu.cur.gpr[0] = g->guest_RAX;
	emu.cur.gpr[1] = g->guest_RBX;
	emu.cur.gpr[2] = g->guest_RCX;
	emu.cur.gpr[3] = g->guest_RDX;
	emu.cur.gpr[4] = g->guest_RSI;
	emu.cur.gpr[5] = g->guest_RDI;
	emu.cur.gpr[6] = g->guest_RBP;
	emu.cur.gpr[7] = g->guest_RSP;
	emu.cur.gpr[8] = g->guest_R8;
	emu.cur.gpr[9] = g->guest_R9;
	emu.cur.gpr[10] = g->guest_R10;
	emu.cur.gpr[11] = g->guest_R11;
	emu.cur.gpr[12] = g->guest_R12;
	emu.cur.gpr[13] = g->guest_R13;
	emu.cur.gpr[14] = g->guest_R14;
	emu.cur.gpr[15] = g->guest_R15;
	emu.cur.icount = emu.kind[PMU_EMU_K_INSTR];
	emu_flush();
}

/* The end of an instruction (or the point where control may leave it):
 * counts in, and when sampling, the budget checked. */
static void settle(struct tr *t)
{
	IRExpr *b, *guard;
	IRDirty *d;

	flush_pend(t);
	if (!emu.precise || !t->dirty)
		return;
	t->dirty = False;
	b = tmp(t, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64,
					mkIRExpr_HWord((HWord)&emu.budget)));
	guard = tmp(t, Ity_I1, IRExpr_Binop(Iop_CmpLE64S, b, c64(0)));
	d = unsafeIRDirty_0_N(3, "pmu_precise",
			      VG_(fnptr_to_fnentry)(&precise),
			      mkIRExprVec_3(mkIRExpr_HWord(t->ip),
					    t->daddr ? t->daddr
						     : mkIRExpr_HWord(0),
					    IRExpr_GSPTR()));
	d->guard = guard;
	d->nFxState = 1;
	d->fxState[0].fx = Ifx_Read;
	d->fxState[0].offset = offsetof(VexGuestAMD64State, guest_RAX);
	d->fxState[0].size = 16 * sizeof(ULong);
	d->fxState[0].nRepeats = 0;
	d->fxState[0].repeatLen = 0;
	addStmtToIRSB(t->out, IRStmt_Dirty(d));
}

/* ---- data accesses ---- */

static Int dsize(Int size)
{
	return size > (Int)emu_min_line ? (Int)emu_min_line : size;
}

static void data(struct tr *t, Bool write, IRExpr *ea, Int size,
		 IRExpr *guard)
{
	UInt k = write ? PMU_EMU_K_STORE : PMU_EMU_K_LOAD;

	if (!t->daddr)
		t->daddr = ea;
	if (!need(k))
		;                /* only the address, for a sample */
	else if (guard)
		bump_dyn(t, k, widen(t, guard));
	else
		bump(t, k, 1);
	if (!emu.dcache)
		return;
	call(t, write ? "pmu_dwrite" : "pmu_dread",
	     write ? (void *)&emu_cache_dwrite : (void *)&emu_cache_dread,
	     mkIRExprVec_2(ea, mkIRExpr_HWord((HWord)dsize(size))), 2, guard);
	if (emu.precise)
		t->dirty = True;
}

static void release_held(struct tr *t)
{
	if (t->held.valid)
		data(t, False, t->held.ea, t->held.size, NULL);
	t->held.valid = False;
}

/* Data accesses are seen for memory events and the data cache, and
 * when sampling: a sample carries its instruction's data address. */
static Bool tracked(void)
{
	return need(PMU_EMU_K_LOAD) || need(PMU_EMU_K_STORE) || emu.dcache ||
	       emu.precise;
}

static void read_ev(struct tr *t, IRExpr *ea, Int size)
{
	if (!tracked())
		return;
	release_held(t);
	t->held = (struct held){ True, size, ea };
}

static void write_ev(struct tr *t, IRExpr *ea, Int size)
{
	if (!tracked())
		return;
	if (t->held.valid && t->held.size == size && eqIRAtom(t->held.ea, ea)) {
		/* a modify: one read, and nothing more joins it */
		t->held.valid = False;
		data(t, False, ea, size, NULL);
		return;
	}
	release_held(t);
	data(t, True, ea, size, NULL);
}

static void guarded_ev(struct tr *t, Bool write, IRExpr *ea, Int size,
		       IRExpr *guard)
{
	if (!tracked())
		return;
	release_held(t);
	data(t, write, ea, size, guard);
}

static void dirty_ev(struct tr *t, const IRDirty *d)
{
	Int size;

	if (d->mFx == Ifx_None)
		return;
	size = dsize(d->mSize);
	if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify)
		read_ev(t, d->mAddr, size);
	if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify)
		write_ev(t, d->mAddr, size);
}

static void cas_ev(struct tr *t, const IRCAS *cas, IRTypeEnv *env)
{
	Int size = sizeofIRType(typeOfIRExpr(env, cas->dataLo));

	if (cas->dataHi)
		size *= 2;
	size = dsize(size);
	read_ev(t, cas->addr, size);
	write_ev(t, cas->addr, size);
}

/* ---- instructions and branches ---- */

static void end_instr(struct tr *t)
{
	release_held(t);
	if (t->cls == C_CALL || t->cls == C_CALL_IND) {
		if (emu.bpred)
			call(t, "pmu_bp_call", &emu_bpred_call,
			     mkIRExprVec_1(mkIRExpr_HWord(t->ip + t->len)), 1,
			     NULL);
		t->cls = C_NONE; /* pushed once */
	}
	settle(t);
}

static void ifetch(struct tr *t)
{
	UInt lb = emu_cache_i1_line_bits();
	UWord first = t->ip >> lb, last = (t->ip + t->len - 1) >> lb;

	/* The line the previous instruction left most recently used is a
	 * hit that changes nothing: only other lines need the model. */
	if (t->iline_ok && first == t->iline && last == t->iline)
		return;
	call(t, "pmu_iref", &emu_cache_iref,
	     mkIRExprVec_2(mkIRExpr_HWord(t->ip), mkIRExpr_HWord(t->len)), 2,
	     NULL);
	t->iline_ok = True;
	t->iline = last;
	if (emu.precise)
		t->dirty = True;
}

static void imark(struct tr *t, const IRStmt *st)
{
	end_instr(t);
	t->ip = (Addr)st->Ist.IMark.addr;
	t->len = st->Ist.IMark.len ? st->Ist.IMark.len : VG_MIN_INSTR_SZB;
	t->daddr = NULL;
	t->cls = classify((const UChar *)t->ip, t->len);
	bump(t, PMU_EMU_K_INSTR, 1);
	if (emu.icache)
		ifetch(t);
	switch (t->cls) {
	case C_JCC:
		bump(t, PMU_EMU_K_BR, 1);
		break;
	case C_CALL:
	case C_CALL_IND:
		bump(t, PMU_EMU_K_BR_CALL, 1);
		/* fall through */
	case C_JMP:
	case C_JMP_IND:
		bump(t, PMU_EMU_K_BR, 1);
		bump(t, PMU_EMU_K_BR_TAKEN, 1);
		break;
	case C_RET:
		bump(t, PMU_EMU_K_BR, 1);
		bump(t, PMU_EMU_K_BR_RET, 1);
		bump(t, PMU_EMU_K_BR_TAKEN, 1);
		break;
	case C_NONE:
		break;
	}
}

static void side_exit(struct tr *t, const IRStmt *st)
{
	IRJumpKind jk = st->Ist.Exit.jk;
	Addr target = (Addr)st->Ist.Exit.dst->Ico.U64;
	IRExpr *taken;

	release_held(t);
	if (jk != Ijk_Boring && jk != Ijk_Call && jk != Ijk_Ret) {
		settle(t);
		return;
	}
	bump(t, PMU_EMU_K_BR_COND, 1);
	if (t->cls == C_JCC && (need(PMU_EMU_K_BR_TAKEN) || emu.bpred)) {
		/* VEX may invert a branch, exiting to the fall-through */
		taken = widen(t, st->Ist.Exit.guard);
		if (target == t->ip + t->len)
			taken = tmp(t, Ity_I64,
				    IRExpr_Binop(Iop_Xor64, taken, c64(1)));
		bump_dyn(t, PMU_EMU_K_BR_TAKEN, taken);
		if (emu.bpred)
			call(t, "pmu_bp_cond", &emu_bpred_cond,
			     mkIRExprVec_2(mkIRExpr_HWord(t->ip), taken), 2,
			     NULL);
		if (emu.precise)
			t->dirty = True;
	}
	settle(t);
}

static void sb_end(struct tr *t, IRSB *in)
{
	IRJumpKind jk = in->jumpkind;
	Bool computed = in->next->tag == Iex_RdTmp;

	end_instr(t);
	if ((jk == Ijk_Boring || jk == Ijk_Call) && computed) {
		bump(t, PMU_EMU_K_BR_IND, 1);
		if (jk == Ijk_Call)
			bump(t, PMU_EMU_K_BR_ICALL, 1);
		if (emu.bpred)
			call(t, "pmu_bp_ind", &emu_bpred_ind,
			     mkIRExprVec_2(mkIRExpr_HWord(t->ip), in->next), 2,
			     NULL);
	} else if (jk == Ijk_Ret && computed && emu.bpred) {
		call(t, "pmu_bp_ret", &emu_bpred_ret,
		     mkIRExprVec_1(in->next), 1, NULL);
	}
	if (emu.bpred && emu.precise)
		t->dirty = True;
	settle(t);
}

/* ---- clock checks for periodic records ---- */

static VG_REGPARM(0) void tick(void)
{
	emu.tick = 1 << 14;
	if (VG_(read_millisecond_timer)() >= emu.next_report_ms)
		emu_report(PMU_EMU_WHY_TICK);
}

static void tick_check(struct tr *t)
{
	IRExpr *a = mkIRExpr_HWord((HWord)&emu.tick);
	IRExpr *old = tmp(t, Ity_I32, IRExpr_Load(Iend_LE, Ity_I32, a));
	IRExpr *nw = tmp(t, Ity_I32, IRExpr_Binop(Iop_Sub32, old,
					IRExpr_Const(IRConst_U32(1))));

	addStmtToIRSB(t->out, IRStmt_Store(Iend_LE, a, nw));
	call(t, "pmu_tick", &tick, mkIRExprVec_0(), 0,
	     tmp(t, Ity_I1, IRExpr_Binop(Iop_CmpLT32S, nw,
					 IRExpr_Const(IRConst_U32(0)))));
}

/* ---- the superblock ---- */

static void stmt(struct tr *t, IRSB *in, IRStmt *st)
{
	switch (st->tag) {
	case Ist_IMark:
		imark(t, st);
		break;
	case Ist_WrTmp:
		if (st->Ist.WrTmp.data->tag == Iex_Load)
			read_ev(t, st->Ist.WrTmp.data->Iex.Load.addr,
				sizeofIRType(st->Ist.WrTmp.data->Iex.Load.ty));
		break;
	case Ist_Store:
		write_ev(t, st->Ist.Store.addr,
			 sizeofIRType(typeOfIRExpr(in->tyenv,
						   st->Ist.Store.data)));
		break;
	case Ist_StoreG: {
		const IRStoreG *g = st->Ist.StoreG.details;

		guarded_ev(t, True, g->addr,
			   sizeofIRType(typeOfIRExpr(in->tyenv, g->data)),
			   g->guard);
		break;
	}
	case Ist_LoadG: {
		const IRLoadG *g = st->Ist.LoadG.details;
		IRType ty = Ity_INVALID, wide = Ity_INVALID;

		typeOfIRLoadGOp(g->cvt, &wide, &ty);
		guarded_ev(t, False, g->addr, sizeofIRType(ty), g->guard);
		break;
	}
	case Ist_Dirty:
		dirty_ev(t, st->Ist.Dirty.details);
		break;
	case Ist_CAS:
		cas_ev(t, st->Ist.CAS.details, in->tyenv);
		break;
	case Ist_LLSC:
		if (!st->Ist.LLSC.storedata) {
			read_ev(t, st->Ist.LLSC.addr, sizeofIRType(
				typeOfIRTemp(in->tyenv, st->Ist.LLSC.result)));
			release_held(t);
		} else {
			write_ev(t, st->Ist.LLSC.addr, sizeofIRType(
				typeOfIRExpr(in->tyenv, st->Ist.LLSC.storedata)));
		}
		break;
	case Ist_Exit:
		side_exit(t, st);
		break;
	default:
		break;
	}
	addStmtToIRSB(t->out, st);
}

IRSB *emu_instrument(VgCallbackClosure *closure, IRSB *in,
		     const VexGuestLayout *layout,
		     const VexGuestExtents *vge,
		     const VexArchInfo *archinfo_host,
		     IRType gWordTy, IRType hWordTy)
{
	struct tr t;
	Int i = 0;

	(void)closure; (void)layout; (void)vge; (void)archinfo_host;
	if (gWordTy != Ity_I64 || hWordTy != Ity_I64)
		VG_(tool_panic)("pmu: only amd64 guests are emulated");
	VG_(memset)(&t, 0, sizeof(t));
	t.out = deepCopyIRSBExceptStmts(in);
	for (; i < in->stmts_used && in->stmts[i]->tag != Ist_IMark; i++)
		addStmtToIRSB(t.out, in->stmts[i]);
	if (emu.cfg.report_ms)
		tick_check(&t);
	for (; i < in->stmts_used; i++)
		stmt(&t, in, in->stmts[i]);
	sb_end(&t, in);
	return t.out;
}
