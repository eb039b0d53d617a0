/* SPDX-License-Identifier: MIT */
/*
 * `pmu sim` as a library: a simulated CPU, perfctr's driver on it, an
 * overflow handler that behaves like the per-process (vperfctr) driver,
 * and the interpreter of the event stream.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/sim.h>

#include "drivers/sim_api.h"
#include "util/error.h"

#define SERVICE "pmu sim"
#define MAX_IRQ_RECORDS 65536
#define MAX_IBS_RECORDS 65536
#define MAX_PEBS_RECORDS 65536
/* The default PEBS sample buffer: perfmon2's pebs32_p4 layout in 64 KiB
 * of simulated memory (the format's buf_size + 256) at a fixed linear
 * address; the handler is called when it is 90% full.  A stream's `pebs`
 * statement changes buf_size, intr_thres and cnt_reset. */
#define PEBS_MEM_BASE 0x00100000u
#define PEBS_DEFAULT_BUF ((64u << 10) - PMU_PEBS_FMT_ALIGN)

static void *grow(void *p, size_t *cap, size_t elem)
{
	size_t n = *cap ? 2 * *cap : 64;
	void *q = realloc(p, n * elem);

	if (q)
		*cap = n;
	return q;
}

static void record_irq(struct pmu_sim *s, uint64_t ip, uint32_t mask,
		       enum pmu_sim_irq src)
{
	s->nirqs++;
	for (unsigned i = 0; i < PMU_MAX_CTRS; i++)
		if (mask & (1u << i))
			s->overflows[i]++;
	if (s->nkept == MAX_IRQ_RECORDS)
		return;
	if (s->nkept == s->irqcap) {
		void *p = grow(s->irqs, &s->irqcap, sizeof(*s->irqs));

		if (!p)
			return; /* records are best effort; counts stay exact */
		s->irqs = p;
	}
	s->irqs[s->nkept++] = (struct pmu_sim_interrupt){
		.size = sizeof(struct pmu_sim_interrupt), .pc = ip, .mask = mask,
		.source = (enum pmu_sim_irq_source)src,
		.tsc = pmu__sim_rdtsc(&s->sim),
	};
}

static uint64_t rdmsr(struct pmu_sim *s, uint32_t msr)
{
	uint64_t v = 0;

	pmu__sim_rdmsr(&s->sim, msr, &v);
	return v;
}

static void keep_ibs(struct pmu_sim *s, const struct pmu_sim_ibs_sample *x)
{
	if (s->nibs == MAX_IBS_RECORDS)
		return;
	if (s->nibs == s->ibscap) {
		void *p = grow(s->ibs_s, &s->ibscap, sizeof(*s->ibs_s));

		if (!p)
			return;
		s->ibs_s = p;
	}
	s->ibs_s[s->nibs++] = *x;
}

/* Read the valid IBS sample(s), then re-arm by rewriting the control
 * register without its Val bit, as an IBS driver does. */
static void ibs_sample(struct pmu_sim *s)
{
	uint64_t fctl = rdmsr(s, PMU_MSR_IBS_FETCH_CTL);
	uint64_t octl = rdmsr(s, PMU_MSR_IBS_OP_CTL);
	struct pmu_sim_ibs_sample x;

	if (fctl & PMU_IBS_FETCH_VAL) {
		x = (struct pmu_sim_ibs_sample){ .size = sizeof(x), .ctl = fctl,
			.addr = rdmsr(s, PMU_MSR_IBS_FETCH_LINAD),
			.phys = rdmsr(s, PMU_MSR_IBS_FETCH_PHYSAD) };
		keep_ibs(s, &x);
		pmu__sim_wrmsr(&s->sim, PMU_MSR_IBS_FETCH_CTL,
			       fctl & ~PMU_IBS_FETCH_VAL);
	}
	if (octl & PMU_IBS_OP_VAL) {
		x = (struct pmu_sim_ibs_sample){ .size = sizeof(x), .op = true,
			.ctl = octl, .addr = rdmsr(s, PMU_MSR_IBS_OP_RIP),
			.data = { rdmsr(s, PMU_MSR_IBS_OP_DATA),
				  rdmsr(s, PMU_MSR_IBS_OP_DATA2),
				  rdmsr(s, PMU_MSR_IBS_OP_DATA3) },
			.dc_linad = rdmsr(s, PMU_MSR_IBS_DC_LINAD),
			.dc_physad = rdmsr(s, PMU_MSR_IBS_DC_PHYSAD) };
		keep_ibs(s, &x);
		pmu__sim_wrmsr(&s->sim, PMU_MSR_IBS_OP_CTL,
			       octl & ~PMU_IBS_OP_VAL);
	}
}

void pmu__sim_run_drain_pebs(struct pmu_sim *s)
{
	const struct pmu__pebs_buf *b = &s->pebs.buf;
	uint64_t n;

	if (!s->pebs_mem)
		return;
	n = pmu__pebs_fmt_count(b);
	for (uint64_t i = 0; i < n && s->npebs < MAX_PEBS_RECORDS; i++) {
		struct pmu__pebs_rec rec;
		struct pmu_sim_pebs_record *r;

		if (s->npebs == s->pebscap) {
			void *p = grow(s->pebs_r, &s->pebscap, sizeof(*s->pebs_r));

			if (!p)
				break;
			s->pebs_r = p;
		}
		pmu__pebs_fmt_record(b, i, &rec);
		r = &s->pebs_r[s->npebs++];
		r->size = sizeof(*r);
		r->flags = rec.flags;
		r->ip = rec.ip;
		for (unsigned k = 0; k < 8; k++)
			r->regs[k] = rec.regs[k];
	}
	pmu__pebs_fmt_restart(b);
}

/* A sampling interrupt (IBS, PEBS threshold): read the samples, re-arm
 * the hardware and, where the CPU masked LVTPC on delivery, unmask it as
 * the driver's interrupt path does. */
static void on_sampling_irq(struct pmu_sim *s, uint64_t ip, enum pmu_sim_irq src)
{
	if (src == PMU_SIM_IRQ_IBS) {
		ibs_sample(s);
	} else {
		pmu__pebs_fmt_overflow(&s->pebs.buf);
		pmu__sim_run_drain_pebs(s);
	}
	if (s->model->quirks & PMU_QUIRK_LVTPC_AUTOMASK)
		pmu__sim_reg_write(&s->sim, PMU_SIM_REG_APIC, PMU_SIM_APIC_LVTPC,
				   PMU_SIM_PERFCTR_VECTOR);
	record_irq(s, ip, 0, src);
}

/* vperfctr's overflow handler, with the user's iresume folded in. */
static void on_overflow(void *arg, uint64_t ip)
{
	struct pmu_sim *s = arg;
	enum pmu_sim_irq src = s->pc.last_source;
	uint32_t mask;

	if (src == PMU_SIM_IRQ_IBS || src == PMU_SIM_IRQ_PEBS) {
		on_sampling_irq(s, ip, src);
		return;
	}
	pmu__perfctr_suspend(&s->pc, &s->st);
	mask = pmu__perfctr_identify_overflow(&s->pc, &s->st);
	record_irq(s, ip, mask, src);
	pmu__perfctr_ireload(&s->pc, &s->st);
	pmu__perfctr_resume(&s->pc, &s->st);
}

static int attach_pebs(struct pmu_sim *s)
{
	struct pmu__pebs_buf b;

	s->pebs_mem_size = PEBS_DEFAULT_BUF + PMU_PEBS_FMT_ALIGN;
	if (!(s->pebs_mem = calloc(1, s->pebs_mem_size)))
		return -ENOMEM;
	b = (struct pmu__pebs_buf){ .mem = s->pebs_mem,
				    .size = s->pebs_mem_size,
				    .base = PEBS_MEM_BASE, .mode64 = false };
	return pmu__sim_pebs_attach(&s->sim, &s->pebs, &b);
}

static int attach_extensions(struct pmu_sim *s)
{
	if (s->model->check.family == PMU_CHECK_P4 &&
	    !(s->model->quirks & PMU_QUIRK_HT))
		return attach_pebs(s);
	if (s->model->arch == PMU_ARCH_ARM)
		return pmu__sim_xscale_attach(&s->sim, &s->xs);
	if (s->model->quirks & PMU_QUIRK_HAS_IBS)
		return pmu__sim_ibs_attach(&s->sim, &s->ibs, 1);
	return 0;
}

struct pmu_sim *pmu_sim_open(const struct pmu_hwmodel *m, struct pmu_error *err)
{
	struct pmu_sim *s;
	int rc;

	pmu__error_clear(err);
	if (!m) {
		pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1, "no model");
		errno = EINVAL;
		return NULL;
	}
	if (!(s = calloc(1, sizeof(*s)))) {
		pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	s->model = m;
	if ((rc = pmu__sim_init(&s->sim, m)) || (rc = attach_extensions(s)) ||
	    (rc = pmu__perfctr_init(&s->pc, &s->sim, m->name))) {
		pmu__error(err, rc, PMU_ERR_USAGE, m->name, -1,
			   "cannot simulate model %s", m->name);
		free(s->pebs_mem);
		free(s);
		errno = -rc;
		return NULL;
	}
	pmu__perfctr_set_ihandler(&s->pc, on_overflow, s);
	pmu__perfctr_state_init(&s->st);
	return s;
}

void pmu_sim_close(struct pmu_sim *s)
{
	if (!s)
		return;
	pmu__perfctr_release(&s->pc, SERVICE);
	pmu__perfctr_exit(&s->pc);
	free(s->irqs);
	free(s->ibs_s);
	free(s->pebs_r);
	free(s->pebs_mem);
	free(s);
}

static const char *errno_name(int code)
{
	switch (-code) {
	case EPERM:
		return "EPERM";
	case EINVAL:
		return "EINVAL";
	case EBUSY:
		return "EBUSY";
	default:
		return "error";
	}
}

/* The simulated memory holds buf_size + 256 bytes, what the kernel
 * format allocates; the hardware keeps its pointer to it. */
static int pebs_memory(struct pmu_sim *s, uint64_t buf_size)
{
	size_t want = (size_t)buf_size + PMU_PEBS_FMT_ALIGN;
	uint8_t *mem;

	if (want == s->pebs_mem_size)
		return 0;
	if (!(mem = calloc(1, want)))
		return -ENOMEM;
	free(s->pebs_mem);
	s->pebs_mem = mem;
	s->pebs_mem_size = want;
	s->pebs.buf.mem = mem;
	s->pebs.buf.size = want;
	return 0;
}

/* Without a cnt_reset the counter reloads with IQ_COUNTER4's ireset. */
static uint64_t default_cnt_reset(const struct pmu_sim *s)
{
	const struct pmu_control *c = &s->st.control;
	unsigned n = pmu__cstatus_nrctrs(s->st.cstatus);
	uint64_t v = 0;

	for (unsigned i = pmu__cstatus_nractrs(s->st.cstatus); i < n; i++)
		if (s->st.hw[i] == PMU_P4_PEBS_HW_CTR)
			v = (uint64_t)(int64_t)c->ireset[i] & s->sim.wmask;
	return v;
}

int pmu__sim_run_setup_pebs(struct pmu_sim *s, const struct pmu__stream_pebs *p)
{
	struct pmu__pebs_fmt_arg arg = { .buf_size = PEBS_DEFAULT_BUF };
	int rc;

	if (!s->pebs_mem)
		return p ? -ENOSYS : 0;
	if (p && p->has_buf_size)
		arg.buf_size = p->buf_size;
	arg.intr_thres = p && p->has_intr_thres ? p->intr_thres :
			 arg.buf_size / PMU_PEBS_REC32_SIZE * 9 / 10;
	arg.cnt_reset = p && p->has_cnt_reset ? p->cnt_reset :
			default_cnt_reset(s);
	if ((rc = pebs_memory(s, arg.buf_size)) ||
	    (rc = pmu__pebs_fmt_init(&s->pebs.buf, &arg)))
		return rc;
	pmu__sim_wrmsr(&s->sim, PMU_MSR_DS_AREA,
		       pmu__pebs_fmt_ds_addr(&s->pebs.buf));
	return 0;
}

int pmu_sim_control(struct pmu_sim *s, const struct pmu_control *c,
		    struct pmu_error *err)
{
	const char *owner;
	int rc;

	pmu__error_clear(err);
	if (!s || !c)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  !s ? "no simulator" : "no control");
	if (s->running)
		return pmu__error(err, -EBUSY, PMU_ERR_USAGE, NULL, -1,
				  "counters are running");
	owner = pmu__perfctr_reserve(&s->pc, SERVICE);
	if (owner && strcmp(owner, SERVICE))
		return pmu__error(err, -EBUSY, PMU_ERR_RESOURCES, owner, -1,
				  "PMU reserved by %s", owner);
	s->st.control = *c;
	rc = pmu__perfctr_update_control(&s->pc, &s->st, c->is_global != 0);
	if (rc) {
		rc = pmu__error(err, rc, PMU_ERR_BAD_VALUE, s->st.check.rule, -1,
				"control rejected: %s (%s): %s", errno_name(rc),
				s->st.check.rule, s->st.check.message);
		pmu__error_index(err, s->st.check.counter);
		return rc;
	}
	s->controlled = true;
	return 0;
}
