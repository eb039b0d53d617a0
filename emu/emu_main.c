/* SPDX-License-Identifier: MIT */
/*
 * The emulator's entry points: options, start-up, system calls, fork,
 * exit, and the client requests of <pmu/emu.h> and of the emu driver's
 * in-process sessions.
 */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_options.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_transtab.h"
#include "pub_tool_vkiscnums.h"

#include "emu.h"

UInt emu_min_line = 64;

static const HChar *clo_dir;

static Bool process_option(const HChar *arg)
{
	if VG_STR_CLO(arg, "--pmu-dir", clo_dir) {}
	else
		return False;
	return True;
}

static void usage(void)
{
	VG_(printf)("    --pmu-dir=DIR   the config and FIFO of the pmu command "
		    "that runs this tool\n"
		    "                    (started by 'pmu stat --emulate'; "
		    "see pmu-stat(1))\n");
}

static void debug_usage(void)
{
}

/* Without pmu (the program's own sessions only): the defaults pmu
 * would send for a host it knows nothing about. */
static void defaults(struct pmu_emu_config *c)
{
	VG_(memset)(c, 0, sizeof(*c));
	c->i1 = (struct pmu_emu_cache_geom){ 32768, 8, 64 };
	c->d1 = (struct pmu_emu_cache_geom){ 32768, 8, 64 };
	c->ll = (struct pmu_emu_cache_geom){ 8u << 20, 16, 64 };
	c->predictor = PMU_EMU_BP_GSHARE;
	c->costs = (struct pmu_emu_costs){ 1, 10, 100, 15, 200 };
}

static UInt min_line(const struct pmu_emu_config *c)
{
	UInt m = c->i1.line < c->d1.line ? c->i1.line : c->d1.line;

	if (c->ll.size && c->ll.line < m)
		m = c->ll.line;
	return m ? m : 64;
}

static void fail(const HChar *why)
{
	emu_report_error(why);
	VG_(fmsg)("pmu: %s\n", why);
	VG_(exit)(1);
}

static void post_clo_init(void)
{
	HChar why[256];
	Int rc;

	defaults(&emu.cfg);
	emu.dir = clo_dir;
	if (clo_dir && !emu_read_config(clo_dir, &emu.cfg, why, sizeof(why)))
		fail(why);
	emu.have_cfg = clo_dir != NULL;
	emu_min_line = min_line(&emu.cfg);
	emu_cache_init(&emu.cfg.i1, &emu.cfg.d1, &emu.cfg.ll);
	emu_bpred_init(emu.cfg.predictor);
	if (emu.have_cfg) {
		rc = emu_sets_open();
		if (rc != 0) {
			VG_(snprintf)(why, sizeof(why), "the emulated %s "
				      "refused the control (error %d)",
				      emu.cfg.ctx.model, -rc);
			fail(why);
		}
	}
	emu.next_insns = emu.cfg.report_insns;
	emu_update_needs();
	emu_report_task(PMU_EMU_TASK_START);
	emu.tick = 1 << 14;
	if (emu.cfg.report_ms)
		emu.next_report_ms = VG_(read_millisecond_timer)() +
				     emu.cfg.report_ms;
}

static void fini(Int exitcode)
{
	(void)exitcode;
	emu_report(PMU_EMU_WHY_EXIT);
}

static void pre_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs)
{
	(void)args; (void)nargs;
	emu.kind[PMU_EMU_K_SYSCALL]++;
	if (sysno == __NR_execve || sysno == __NR_execveat)
		emu_report(PMU_EMU_WHY_EXEC);
	if (emu.cycles) {
		/* a sample the kernel's cycles cause is the system call's */
		VG_(memset)(&emu.cur, 0, sizeof(emu.cur));
		emu.cur.ip = VG_(get_IP)(tid);
		emu.cur.icount = emu.kind[PMU_EMU_K_INSTR];
		emu_kernel_cycles(emu.cfg.costs.syscall);
	}
	if (emu.cfg.report_ms &&
	    VG_(read_millisecond_timer)() >= emu.next_report_ms)
		emu_report(PMU_EMU_WHY_TICK);
}

static void post_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs,
			 SysRes res)
{
	(void)tid; (void)sysno; (void)args; (void)nargs; (void)res;
}

/* The child counts its own events only, as perf's inherited counters
 * do: what the parent counted before the fork is the parent's. */
static void fork_child(ThreadId tid)
{
	struct emu_ctx *c = &emu.ctx[0];
	struct pmu_emu_read now;

	(void)tid;
	emu_flush();
	for (UInt k = 0; k < PMU_EMU_NKIND; k++)
		emu.reported[k] = emu.kind[k];
	/* its instruction intervals count from the fork, as its counts do */
	if (emu.cfg.report_insns)
		emu.next_insns = emu.kind[PMU_EMU_K_INSTR] +
				 emu.cfg.report_insns;
	if (emu.precise)
		emu_recompute_budget();
	if (!c->used)
		return;
	c->nsmp = 0;             /* the parent's, sent by the parent */
	emu_report_task(PMU_EMU_TASK_FORK);
	emu_ctx_read(0, &now);
	for (UInt i = 0; i < PMU_MAX_CTRS; i++)
		c->reported[i] = now.sum[i];
	c->reported_tsc = now.tsc;
	c->nkept = 0;
	c->lost = 0;
	emu_sets_forked();
}

/* The code a process runs: its files mapped executable, at start-up
 * (the program, the dynamic loader) and later (libraries). */
static void new_mem(Addr a, SizeT len, Bool rr, Bool ww, Bool xx,
		    ULong di_handle)
{
	(void)rr; (void)ww; (void)di_handle;
	if (xx)
		emu_report_map(a, len);
}

static void mprotect_mem(Addr a, SizeT len, Bool rr, Bool ww, Bool xx)
{
	(void)rr; (void)ww;
	if (xx)
		emu_report_map(a, len);
}

/* ---- client requests ---- */

static void retranslate(void)
{
	if (emu_update_needs())
		VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff,
						 "pmu");
}

static Word req_open(const struct pmu_emu_open *o)
{
	Int id;

	if (!o || o->magic != PMU_EMU_MAGIC || o->size != sizeof(*o))
		return -PMU_EINVAL;
	id = emu_ctx_open(&o->ctx, False, emu_first_client());
	if (id >= 0)
		retranslate();
	return id;
}

static Bool client_request(ThreadId tid, UWord *a, UWord *ret)
{
	Int id = (Int)a[1];

	(void)tid;
	if ((a[0] & 0xffff0000u) != PMU_EMU_REQ_BASE)
		return False;
	*ret = 0;
	switch ((UInt)a[0]) {
	case PMU_EMU_REQ_START:
		emu_sets_marker(True);
		break;
	case PMU_EMU_REQ_STOP:
		emu_sets_marker(False);
		break;
	case PMU_EMU_REQ_PROBE:
		*ret = PMU_EMU_MAGIC;
		break;
	case PMU_EMU_REQ_OPEN:
		*ret = (UWord)req_open((const struct pmu_emu_open *)a[1]);
		break;
	default:
		if (id < emu_first_client() || !emu_ctx_valid(id)) {
			*ret = (UWord)(Word)-PMU_EINVAL;
			break;
		}
		switch ((UInt)a[0]) {
		case PMU_EMU_REQ_CLOSE:
			emu_ctx_close(id);
			emu_update_needs();
			break;
		case PMU_EMU_REQ_ENABLE:
			emu_ctx_enable(id);
			break;
		case PMU_EMU_REQ_DISABLE:
			emu_ctx_disable(id);
			break;
		case PMU_EMU_REQ_RESET:
			emu_ctx_reset(id);
			break;
		case PMU_EMU_REQ_READ:
			if (a[2])
				emu_ctx_read(id, (struct pmu_emu_read *)a[2]);
			break;
		case PMU_EMU_REQ_SAMPLES:
			*ret = a[2] ? emu_ctx_take_samples(id,
					(struct pmu_emu_rec_sample *)a[2],
					(UInt)a[3]) : 0;
			break;
		default:
			*ret = (UWord)(Word)-PMU_EINVAL;
			break;
		}
	}
	return True;
}

static void pre_clo_init(void)
{
	VG_(details_name)("pmu");
	VG_(details_version)(NULL);
	VG_(details_description)("the emulated PMU of pmu");
	VG_(details_copyright_author)("pmu's authors; MIT licence");
	VG_(details_bug_reports_to)("the pmu project");
	VG_(details_avg_translation_sizeB)(400);
	VG_(basic_tool_funcs)(post_clo_init, emu_instrument, fini);
	VG_(needs_command_line_options)(process_option, usage, debug_usage);
	VG_(needs_client_requests)(client_request);
	VG_(needs_syscall_wrapper)(pre_syscall, post_syscall);
	VG_(atfork)(NULL, NULL, fork_child);
	VG_(track_new_mem_startup)(new_mem);
	VG_(track_new_mem_mmap)(new_mem);
	VG_(track_change_mem_mprotect)(mprotect_mem);
}

VG_DETERMINE_INTERFACE_VERSION(pre_clo_init)
