/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "profile/dso_priv.h"
#include "profile/profile.h"
#include "util/outstruct.h"

#define CTX_MAX ((uint64_t)-4095) /* PERF_CONTEXT_MAX as u64 */
#define KERNEL_START 0xffff800000000000ULL

static struct pmu_frame *new_frame(struct pmu_profile *p)
{
	if (p->nfr == p->cap_fr) {
		size_t cap = p->cap_fr ? 2 * p->cap_fr : 64;
		struct pmu_frame *v = realloc(p->fr, cap * sizeof(*v));

		if (!v)
			return NULL;
		p->fr = v;
		p->cap_fr = cap;
	}
	memset(&p->fr[p->nfr], 0, sizeof(*p->fr));
	p->fr[p->nfr].size = sizeof(*p->fr);
	return &p->fr[p->nfr++];
}

static struct pmu__dso *kernel_dso(struct pmu_profile *p)
{
	if (!p->kernel)
		p->kernel = pmu__dso_get(p->dsos, "[kernel.kallsyms]", NULL, 0);
	return p->kernel;
}

const char *pmu__profile_ksym(void *ctx, uint64_t addr, uint64_t *off)
{
	struct pmu__dso *d = kernel_dso(ctx);
	const struct pmu__addr_info *a = d ? pmu__dso_resolve(d, addr) : NULL;

	if (!a || !a->sym)
		return NULL;
	*off = addr - a->sym->start;
	return a->sym->name;
}

/* The DSO and file address of ip in process pid. */
static struct pmu__dso *locate(struct pmu_profile *p, int pid, uint64_t ip,
			       bool kernel, uint64_t *addr)
{
	const struct pmu__map *m;
	struct pmu__dso *d;

	*addr = ip;
	if (kernel || ip >= KERNEL_START)
		return kernel_dso(p);
	m = pmu__machine_find(pmu__machine_proc(&p->m, pid), ip);
	if (m && pmu__dso_kind(m->dso) != PMU__DSO_ANON) {
		*addr = pmu__dso_map_addr(m->dso, ip, m->start, m->pgoff);
		return m->dso;
	}
	/* JIT code: anonymous memory described by /tmp/perf-PID.map */
	if ((d = pmu__dso_perfmap(p->dsos, pid)))
		return d;
	return m ? m->dso : NULL;
}

static void fill(struct pmu_frame *f, uint64_t ip, uint64_t addr,
		 struct pmu__dso *d, bool kernel)
{
	f->ip = ip;
	f->addr = addr;
	f->dso = d ? pmu__dso_name(d) : "[unknown]";
	f->dso_short = d ? pmu__dso_short(d) : "[unknown]";
	f->kind = kernel ? PMU_FRAME_KERNEL : PMU_FRAME_USER;
}

int pmu__profile_add_ip(struct pmu_profile *p, int pid, uint64_t ip,
			bool kernel, bool leaf)
{
	uint64_t addr;
	struct pmu__dso *d = locate(p, pid, ip, kernel, &addr);
	const struct pmu__addr_info *a = NULL;
	struct pmu_frame *f;

	kernel = kernel || ip >= KERNEL_START;
	if (d)
		a = pmu__dso_resolve(d, leaf || !addr ? addr : addr - 1);
	/* inlined functions first, innermost first */
	for (size_t k = 0; a && !p->no_inline && a->ninl > 1 &&
			   k + 1 < a->ninl; k++) {
		if (!(f = new_frame(p)))
			return -ENOMEM;
		fill(f, ip, addr, d, kernel);
		f->kind = PMU_FRAME_INLINED;
		f->sym = a->inl[k].func;
		f->srcfile = a->inl[k].file;
		f->line = a->inl[k].line;
		f->sym_off = a->sym ? addr - a->sym->start : 0;
	}
	if (!(f = new_frame(p)))
		return -ENOMEM;
	fill(f, ip, addr, d, kernel);
	if (a && a->sym) {
		f->sym = a->sym->name;
		f->sym_off = addr - a->sym->start;
	}
	if (a && a->ninl > 1 && !p->no_inline) {
		f->srcfile = a->inl[a->ninl - 1].file;
		f->line = a->inl[a->ninl - 1].line;
	} else if (a) {
		f->srcfile = a->file;
		f->line = a->line;
	}
	return 0;
}

/* arm64 frame-pointer chains: the kernel walks the frame records, and a
 * function that has not saved its return address (a leaf) has no
 * record, so its caller is missing; it is still in the link register,
 * which the sample carries.  Where the call-frame information of the
 * user chain's first address says so, that caller comes next, as perf
 * adds it.  Returns the frames added (0 or 1). */
static size_t leaf_caller(struct pmu_profile *p, int pid,
			  const struct pd_sample *s, uint64_t ip)
{
	uint64_t lr, addr;
	struct pmu__dso *d;

	if (!pmu__regs_get(s->user_mask, s->user_regs, pmu__regs_lr(p->arch),
			   &lr) || !lr || lr == ip)
		return 0;
	d = locate(p, pid, ip, false, &addr);
	if (!d || pmu__dso_kind(d) != PMU__DSO_FILE ||
	    !pmu__dso_ra_in_register(d, addr))
		return 0;
	pmu__profile_add_ip(p, pid, lr, false, false);
	return 1;
}

/* The kernel's call chain: context markers say whose addresses
 * follow; the first address is the sampled ip itself, and so is the
 * first user address after kernel ones (where user space was
 * interrupted: a fault, a system call), looked up where it is, not as
 * a return address.  A user-context address in the kernel's half is a
 * frame-pointer walk gone astray: unknown, not a kernel frame.
 * Returns the number of addresses. */
static size_t add_chain(struct pmu_profile *p, int pid,
			const struct pd_sample *s, bool kernel)
{
	bool user_seen = false;
	size_t n = 0;

	for (uint64_t i = 0; i < s->nr_ips && n < p->max_stack; i++) {
		uint64_t ip = s->ips[i];

		if (ip >= CTX_MAX) {
			kernel = ip == (uint64_t)PERF_CONTEXT_KERNEL;
			continue;
		}
		if (!kernel && ip >= KERNEL_START) {
			struct pmu_frame *f = new_frame(p);

			if (!f)
				return n;
			fill(f, ip, ip, NULL, false);
		} else {
			pmu__profile_add_ip(p, pid, ip, kernel,
					    n == 0 || (!kernel && !user_seen));
		}
		n++;
		if (!kernel && !user_seen) {
			user_seen = true;
			n += leaf_caller(p, pid, s, ip);
		}
	}
	return n;
}

static void build_frames(struct pmu_profile *p, const struct pd_sample *s)
{
	bool kernel = (s->misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
		      PERF_RECORD_MISC_KERNEL;
	/* --call-graph dwarf: the kernel's chain stops at user space, the
	 * copy of the user stack goes on from there */
	bool dwarf = s->stack && s->user_regs && s->stack_dyn;
	size_t n = 0;
	int pid = (int)s->pid;

	p->nfr = 0;
	if (s->ips)
		n = add_chain(p, pid, s, kernel);
	if (dwarf)
		n += pmu__unwind(p, pid, (int)s->tid, s);
	if (!n)
		pmu__profile_add_ip(p, pid, s->ip, kernel, true);
}

static const char *comm_of(struct pmu_profile *p, int pid, int tid)
{
	struct pmu__thread *t = pmu__machine_thread(&p->m, pid, tid);

	if (t && t->comm)
		return t->comm;
	/* the idle task has no COMM record: perf names it */
	if (pid == 0 && tid == 0)
		return "swapper";
	snprintf(p->comm_buf, sizeof(p->comm_buf), ":%d", tid);
	return p->comm_buf;
}

int pmu_profile_next(struct pmu_profile *p, struct pmu_sample *out)
{
	const struct perf_event_header *h;
	struct pd_sample s;
	struct pmu_sample o = { .size = sizeof(o) };

	if (!p || !pmu__out_ok(out, out ? out->size : 0))
		return -EINVAL;
	while ((h = pmu__profile_next_record(p))) {
		if (h->type != PERF_RECORD_SAMPLE) {
			pmu__profile_on_record(p, h);
			continue;
		}
		if (pmu__pd_sample_parse(&p->f, h, &s))
			continue; /* counted in the file's problems */
		build_frames(p, &s);
		p->raw = s.raw;
		p->raw_size = s.raw_size;
		o.event = s.attr;
		o.pid = s.pid;
		o.tid = s.tid;
		o.cpu = (p->f.attr[s.attr].attr.sample_type & PERF_SAMPLE_CPU) ?
			s.cpu : (uint32_t)-1;
		o.time = s.time;
		o.period = s.period;
		o.ip = s.ip;
		o.kernel = (s.misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
			   PERF_RECORD_MISC_KERNEL;
		o.comm = comm_of(p, (int)s.pid, (int)s.tid);
		o.nframes = p->nfr;
		PMU__OUT(out, &o);
		return 1;
	}
	return 0;
}

int pmu_profile_frame(struct pmu_profile *p, size_t i, struct pmu_frame *f)
{
	if (!p || i >= p->nfr || !pmu__out_ok(f, f ? f->size : 0))
		return -EINVAL;
	PMU__OUT(f, &p->fr[i]);
	return 0;
}

/* For the report code: the frames in place. */
const struct pmu_frame *pmu__profile_frames(const struct pmu_profile *p,
					    size_t *n);
const struct pmu_frame *pmu__profile_frames(const struct pmu_profile *p,
					    size_t *n)
{
	*n = p->nfr;
	return p->fr;
}

int pmu_profile_dso(struct pmu_profile *p, size_t i, const char **path,
		    const char **problem)
{
	struct pmu__dso_set *s = p ? p->dsos : NULL;

	if (!s || i >= s->n)
		return -ENOENT;
	/* either answer may be the only one wanted */
	if (path)
		*path = pmu__dso_name(s->dso[i]);
	if (problem)
		*problem = pmu__dso_problem(s->dso[i]);
	return 0;
}
