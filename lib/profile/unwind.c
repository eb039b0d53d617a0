/* SPDX-License-Identifier: MIT */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/dso_priv.h"
#include "profile/profile.h"

/*
 * DWARF call chains: a sample of --call-graph dwarf carries the user
 * registers and a copy of the top of the user stack; libdwfl unwinds
 * them with the call-frame information of the files the process had
 * mapped (reported to it as offline modules at their load addresses).
 * One Dwfl per process, rebuilt when its maps change.
 */

#define MAX_FRAMES 256

/* DWARF's x86-64 registers (rax rdx rcx rbx rsi rdi rbp rsp r8-r15
 * rip) by perf's numbers (ax bx cx dx si di bp sp ip ... r8-r15 at 16).
 * On arm64 both number x0-x30 and sp alike (0-31); perf's pc (32) is
 * given to libdwfl apart. */
static const int perf_of_dwarf[17] = { 0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18,
				       19, 20, 21, 22, 23, 8 };
#define ARM64_NREGS 32

struct uw {
	Dwfl *dwfl;
	int pid;
	const struct pmu__proc *proc;
	size_t nmaps;
	uint64_t first_start;
	bool attached;
	/* the sample being unwound */
	struct pmu_profile *p;
	const struct pd_sample *s;
	int tid;
	bool done_thread;
	size_t nframes;
};

static uint64_t reg(const struct pd_sample *s, int perf_reg, bool *ok)
{
	uint64_t v = 0;

	if (!pmu__regs_get(s->user_mask, s->user_regs, perf_reg, &v))
		*ok = false;
	return v;
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct uw *u = arg;

	(void)dwfl;
	if (u->done_thread)
		return 0;
	u->done_thread = true;
	*thread_argp = u;
	return u->tid;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			void *arg)
{
	struct uw *u = arg;
	bool ok = true;
	uint64_t sp = reg(u->s, pmu__regs_sp(u->p->arch), &ok);

	(void)dwfl;
	if (!ok || addr < sp || addr - sp + 8 > u->s->stack_dyn)
		return false;
	memcpy(result, u->s->stack + (addr - sp), 8);
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct uw *u = arg;
	Dwarf_Word regs[ARM64_NREGS], pc;
	bool ok = true;

	switch (u->p->arch) {
	case PMU__REGS_X86_64:
		for (int d = 0; d < 17; d++)
			regs[d] = reg(u->s, perf_of_dwarf[d], &ok);
		return ok && dwfl_thread_state_registers(thread, 0, 17, regs);
	case PMU__REGS_ARM64:
		for (int d = 0; d < ARM64_NREGS; d++)
			regs[d] = reg(u->s, d, &ok);
		pc = reg(u->s, pmu__regs_pc(PMU__REGS_ARM64), &ok);
		if (!ok || !dwfl_thread_state_registers(thread, 0, ARM64_NREGS,
							regs))
			return false;
		dwfl_thread_state_register_pc(thread, pc);
		return true;
	default:
		return false;
	}
}

static const Dwfl_Thread_Callbacks thread_cbs = {
	.next_thread = next_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

static char *debuginfo_path;
/* libdw's own finders, filled once it is loaded */
static Dwfl_Callbacks dwfl_cbs = { .debuginfo_path = &debuginfo_path };

/* Whether an earlier map of the process is of the same file. */
static bool reported(const struct pmu__proc *pr, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (pr->maps[k].dso == pr->maps[i].dso)
			return true;
	return false;
}

/* Each ELF object once, at its real load bias, from its map of the
 * lowest file offset: the address it starts at less the file address
 * it holds (its load segments say which: a data segment's map is not
 * at start - offset).  perf records the data segments and the data
 * files a process maps too (with --call-graph dwarf): those are not
 * modules, and a second module over the same object would overlap
 * the first. */
static void report_maps(struct uw *u)
{
	const struct pmu__proc *pr = u->proc;

	dwfl_report_begin(u->dwfl);
	for (size_t i = 0; i < pr->n; i++) {
		const struct pmu__map *m = &pr->maps[i];

		if (reported(pr, i) || !pmu__dso_is_elf(m->dso))
			continue;
		for (size_t k = i + 1; k < pr->n; k++)
			if (pr->maps[k].dso == m->dso &&
			    pr->maps[k].pgoff < m->pgoff)
				m = &pr->maps[k];
		dwfl_report_elf(u->dwfl, pmu__dso_short(m->dso),
				pmu__dso_name(m->dso), -1,
				pmu__dso_load_bias(m->dso, m->start, m->pgoff),
				false);
	}
	dwfl_report_end(u->dwfl, NULL, NULL);
}

static bool prepare(struct uw *u, struct pmu_profile *p, int pid)
{
	const struct pmu__proc *pr = pmu__machine_proc(&p->m, pid);

	if (!pr)
		return false;
	if (u->dwfl && u->pid == pid && u->proc == pr && u->nmaps == pr->n &&
	    (!pr->n || u->first_start == pr->maps[0].start))
		return u->attached;
	if (u->dwfl)
		dwfl_end(u->dwfl);
	if (pmu__elfutils_load())
		return false;
	dwfl_cbs.find_elf = dwfl_build_id_find_elf;
	dwfl_cbs.find_debuginfo = dwfl_standard_find_debuginfo;
	u->dwfl = dwfl_begin(&dwfl_cbs);
	u->pid = pid;
	u->proc = pr;
	u->nmaps = pr->n;
	u->first_start = pr->n ? pr->maps[0].start : 0;
	u->attached = false;
	if (!u->dwfl)
		return false;
	report_maps(u);
	u->attached = dwfl_attach_state(u->dwfl, NULL, pid, &thread_cbs, u);
	return u->attached;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct uw *u = arg;
	Dwarf_Addr pc;
	bool act = false;

	if (!dwfl_frame_pc(state, &pc, &act) || !pc)
		return DWARF_CB_ABORT;
	pmu__profile_add_ip(u->p, u->pid, pc, false, act);
	/* as deep as the kernel's chains are followed (perf's rule too),
	 * never past MAX_FRAMES */
	return ++u->nframes < MAX_FRAMES && u->nframes < u->p->max_stack ?
		       DWARF_CB_OK : DWARF_CB_ABORT;
}

size_t pmu__unwind(struct pmu_profile *p, int pid, int tid,
		   const struct pd_sample *s)
{
	struct uw *u = p->unwind;

	if (!u && !(u = p->unwind = calloc(1, sizeof(*u))))
		return 0;
	if (!prepare(u, p, pid))
		return 0;
	u->p = p;
	u->s = s;
	u->tid = tid;
	u->done_thread = false;
	u->nframes = 0;
	if (dwfl_getthread_frames(u->dwfl, tid, frame_cb, u) && !u->nframes)
		p->stack_err++;
	return u->nframes;
}

void pmu__unwind_free(struct pmu_profile *p)
{
	struct uw *u = p ? p->unwind : NULL;

	if (!u)
		return;
	if (u->dwfl)
		dwfl_end(u->dwfl);
	free(u);
	p->unwind = NULL;
}
