/* SPDX-License-Identifier: MIT */
#ifndef PMU_SIM_SIM_H
#define PMU_SIM_SIM_H

/*
 * Register-level simulator of one model's PMU.  Freestanding: no libc, no
 * allocation; the caller owns every byte (a `struct pmu__sim` is a plain
 * value, zero-initialised by pmu__sim_init).
 *
 * The machine is driven by an explicit event stream:
 *   pmu__sim_advance(sim, key, umask, n)   n occurrences of event `key`
 *   pmu__sim_cycles(sim, n)                n clock cycles pass
 *   pmu__sim_set_mode / set_pmm / set_ip / set_snapshot   CPU context
 * and programmed through its registers (MSR, PPC SPR, XScale CP14, the
 * x86 local-APIC LVTPC).  Counters count with the model's real width and
 * overflow rule; an overflow that is enabled to interrupt calls the
 * caller's interrupt callback synchronously, with the current PC, between
 * two events (the callback may read and write registers, but must not
 * feed events).
 *
 * Hot path: control-register writes recompute, per hardware counter, a
 * decoded configuration (`cfg`) and from it a small hash table mapping an
 * event key to the mask of counters it increments in each CPU context.
 * advance() is one hash probe plus one add per matching counter.
 *
 * Extensions (P4 PEBS, AMD IBS, XScale PMNC) live in their own files and
 * are attached with pmu__sim_attach(): the core calls them through a table
 * of function pointers only when they are attached, so the core links
 * without them.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwmodel/model.h"

/* Register address spaces for pmu__sim_reg_write/read. */
enum pmu_sim_reg_kind {
	PMU_SIM_REG_MSR = 0,    /* x86 wrmsr/rdmsr */
	PMU_SIM_REG_SPR = 1,    /* PPC mtspr/mfspr */
	PMU_SIM_REG_CP14 = 2,   /* XScale mcr/mrc p14, addr = PMU_CP14(crn, crm) */
	PMU_SIM_REG_APIC = 3,   /* x86 local APIC, byte offset (LVTPC 0x340) */
};

#define PMU_SIM_APIC_LVTPC       0x340u
#define PMU_SIM_LVT_MASKED       0x00010000u /* LVT mask bit */
#define PMU_SIM_LVT_VECTOR(v)    ((v) & 0xFFu)
#define PMU_SIM_PERFCTR_VECTOR   0xEEu       /* perfctr's LOCAL_PERFCTR_VECTOR */

/* CPU privilege mode of the events that follow. */
enum pmu_sim_mode {
	PMU_SIM_USER = 0,
	PMU_SIM_KERNEL = 1,
};

/*
 * CPU context index used by the dispatch masks: bit 0 = kernel mode,
 * bit 1 = PPC MSR[PMM] (the "mark" bit used by MMCR0 FCM0/FCM1).
 */
#define PMU_SIM_NCTX 4

/* Interrupt sources reported to the callback. */
enum pmu_sim_irq {
	PMU_SIM_IRQ_PMC = 1,      /* counter overflow (LVTPC, PPC PM exception, XScale IRQ) */
	PMU_SIM_IRQ_PEBS = 2,     /* P4 PEBS buffer reached its threshold */
	PMU_SIM_IRQ_IBS = 3,      /* AMD IBS sample ready */
	PMU_SIM_IRQ_TB = 4,       /* PPC time-base bit transition (TBEE) */
};

struct pmu__sim;

/* Called synchronously when an interrupt is delivered; `pc` = current IP. */
typedef void (*pmu__sim_irq_fn)(struct pmu__sim *sim, void *arg,
				enum pmu_sim_irq source, uint64_t pc);

/*
 * Register snapshot of the instruction that caused the current events,
 * used by sampling hardware (PEBS records, IBS data registers).
 * gpr[] in the P4 64-bit PEBS record order: rax rbx rcx rdx rsi rdi rbp
 * rsp r8..r15 (32-bit records use the low halves of the first eight).
 * aux[] carries extension-specific values named in the stream format
 * (e.g. IBS op data words); unused entries are 0.
 */
#define PMU_SIM_NGPR 16
#define PMU_SIM_NAUX 8
struct pmu__sim_snapshot {
	uint64_t ip;
	uint64_t flags;
	uint64_t gpr[PMU_SIM_NGPR];
	uint64_t data_addr;       /* linear data address (IBS DcLinAd) */
	uint64_t phys_addr;       /* physical data address (IBS DcPhysAd) */
	uint64_t aux[PMU_SIM_NAUX];
};

/* Event keys.  x86 P5/P6/K7/K8/VC3: the event code (K8/fam10h 12 bits);
 * P4: PMU_SIM_P4_KEY(escr msr, event select); PPC: PMCnSEL event number;
 * XScale: evtCount.  Pseudo events above 0xFFFFFF never match a counter's
 * programmed selection; extensions may react to them. */
#define PMU_SIM_P4_KEY(escr, sel) ((((uint32_t)(escr) & ~1u) << 8) | ((sel) & 0x3Fu))
#define PMU_SIM_KEY_FETCH 0x01000001u /* one instruction fetch (IBS fetch) */
#define PMU_SIM_KEY_OP    0x01000002u /* one dispatched op (IBS op) */
#define PMU_SIM_KEY_NONE  0xFFFFFFFFu /* empty hash slot; never fed */

/* Events that also count pmu__sim_cycles(): P6 CPU_CLK_UNHALTED, K7
 * "CPU clocks not halted", P4 global_power_events (FSB_ESCR, mask bit 0
 * RUNNING), PPC event 1 (processor cycles).  P5 and XScale PMN counters
 * have none (the XScale CCNT is the time-stamp counter). */
#define PMU_SIM_P6_CYCLES  0x79u
#define PMU_SIM_K7_CYCLES  0x76u
#define PMU_SIM_P4_CYCLES  PMU_SIM_P4_KEY(0x3A2u, 0x13u)
#define PMU_SIM_PPC_CYCLES 1u

/* Decoded configuration of one hardware counter (recomputed on writes). */
struct pmu__sim_cfg {
	uint32_t key;             /* event it counts */
	uint32_t umask;           /* unit mask / sub-event qualifier, 0 = any */
	uint8_t ctx;              /* bit c set: counts in context c */
	uint8_t flags;            /* PMU_SIM_CFG_* */
};

#define PMU_SIM_CFG_INT     0x01u /* overflow requests an interrupt */
#define PMU_SIM_CFG_CYCLES  0x02u /* counts pmu__sim_cycles() too */
#define PMU_SIM_CFG_ON      0x04u /* programmed with an event at all */

/* One slot of the event dispatch hash. */
struct pmu__sim_slot {
	uint32_t key;
	uint32_t mask[PMU_SIM_NCTX];  /* counters incremented, per context */
};

#define PMU_SIM_HASH_BITS 6
#define PMU_SIM_HASH_SIZE (1u << PMU_SIM_HASH_BITS)

/*
 * An extension attached to the core.  Every pointer may be NULL.
 *  reg_write/reg_read: return 1 if the register is the extension's (and
 *    was handled), 0 to let the core handle it.
 *  decode: called after the core decoded cfg[]; may rewrite cfg[]
 *    (XScale: decode PMNC/EVTSEL into cfg).  Counter values always live
 *    in sim->ctr[] (XScale PMN0..3 = ctr[0..3]) so the core counts them.
 *  on_overflow: counter `hw` just overflowed; return true if the
 *    extension consumed it (the core then raises nothing for it).
 *  on_armed: an event arrived for counter `hw` while bit hw of
 *    sim->armed is set; the core does not count that one event.
 *  on_event / on_cycles: every fed event / cycle batch while attached
 *    (IBS, XScale CCNT); may call pmu__sim_raise().
 */
struct pmu__sim_ext_ops {
	int (*reg_write)(struct pmu__sim *sim, void *st,
			 enum pmu_sim_reg_kind kind, uint32_t addr, uint64_t val);
	int (*reg_read)(struct pmu__sim *sim, void *st,
			enum pmu_sim_reg_kind kind, uint32_t addr, uint64_t *val);
	void (*decode)(struct pmu__sim *sim, void *st);
	bool (*on_overflow)(struct pmu__sim *sim, void *st, unsigned hw);
	void (*on_armed)(struct pmu__sim *sim, void *st, unsigned hw);
	void (*on_event)(struct pmu__sim *sim, void *st, uint32_t key,
			 uint32_t umask, uint64_t n);
	void (*on_cycles)(struct pmu__sim *sim, void *st, uint64_t n);
};

enum pmu_sim_ext_slot {
	PMU_SIM_EXT_PEBS = 0,
	PMU_SIM_EXT_IBS = 1,
	PMU_SIM_EXT_XSCALE = 2,
	PMU_SIM_NEXT = 3,
};

/* Statistics the tests look at (register traffic, interrupts). */
struct pmu__sim_stats {
	uint64_t ctl_writes;      /* writes to control registers */
	uint64_t ctr_writes;      /* writes to counter registers */
	uint64_t reg_reads;       /* register reads (rdmsr/mfspr/mrc/rdpmc) */
	uint64_t irqs;            /* interrupts delivered to the callback */
	uint64_t irqs_masked;     /* interrupts dropped: LVTPC masked / PMXE off */
	uint64_t overflows;       /* counter overflow transitions */
};

struct pmu__sim {
	const struct pmu_hwmodel *model;
	uint32_t quirks;          /* model->quirks, cached */
	uint32_t nr_hw;           /* hardware counters simulated */
	uint64_t wmask;           /* (1 << ctr_width) - 1 */
	uint64_t ovf_bias;        /* distance to overflow = ((bias - v) & wmask) + 1 */

	/* Architectural state. */
	uint64_t tsc;             /* TSC / TBL+TBU / free-running cycle count */
	uint64_t ctr[PMU_MAX_CTRS];   /* counter values, ctr_width bits */
	uint64_t ctl[PMU_MAX_CTRS];   /* EVNTSEL / CCCR / P5 CESR half */
	uint32_t p5_cesr;             /* P5: MSR 0x11 as written */
	uint32_t p4_escr[0x42];       /* P4: ESCR MSRs 0x3A0..0x3E1 */
	uint32_t p4_pebs_enable;      /* P4: MSR 0x3F1 */
	uint32_t p4_pebs_matrix_vert; /* P4: MSR 0x3F2 */
	uint32_t p4_misc_enable;      /* P4: IA32_MISC_ENABLE low word */
	uint32_t mmcr[3];             /* PPC: MMCR0, MMCR1, MMCR2 */
	uint32_t ppc_bamr;            /* PPC: BAMR (cleared by perfctr) */
	uint32_t ppc_sia;             /* PPC: SIA (PC of the last PM exception) */
	uint32_t lvtpc;               /* x86 APIC LVTPC */

	/* CPU context. */
	uint8_t mode;                 /* enum pmu_sim_mode */
	uint8_t pmm;                  /* PPC MSR[PMM] */
	uint8_t cur_ctx;              /* mode | pmm << 1 */
	struct pmu__sim_snapshot snap;

	/* Decoded configuration and dispatch. */
	struct pmu__sim_cfg cfg[PMU_MAX_CTRS];
	struct pmu__sim_slot hash[PMU_SIM_HASH_SIZE];
	uint32_t cyc_mask[PMU_SIM_NCTX]; /* counters counting cycles() */
	uint32_t um_ctrs;             /* counters with a non-zero umask */
	uint32_t armed;               /* extension-armed counters (on_armed) */
	uint32_t ovf_flags;           /* sticky per-counter overflow flags */

	/* Interrupt delivery. */
	pmu__sim_irq_fn irq;
	void *irq_arg;
	uint32_t in_irq;              /* nesting guard */

	/* Extensions. */
	const struct pmu__sim_ext_ops *ext[PMU_SIM_NEXT];
	void *ext_state[PMU_SIM_NEXT];
	uint32_t ext_mask;            /* bit per attached extension */
	uint32_t ev_hooks;            /* extensions with on_event */
	uint32_t cyc_hooks;           /* extensions with on_cycles */

	struct pmu__sim_stats stats;

	/* Bound on a run: once overflows plus interrupts (delivered or
	 * not) exceed `budget` (0 = no bound), `halted` is set and events
	 * and cycles stop counting until the caller clears it. */
	uint64_t budget;
	bool halted;
};

/* Initialise `sim` for `model` (all counters and controls at reset values,
 * LVTPC masked, user mode).  Returns 0 or -PMU_EINVAL. */
int pmu__sim_init(struct pmu__sim *sim, const struct pmu_hwmodel *model);

/* Interrupt callback (NULL: interrupts are counted and dropped). */
void pmu__sim_set_irq(struct pmu__sim *sim, pmu__sim_irq_fn fn, void *arg);

/* Attach an extension; `state` is caller memory owned by the extension. */
int pmu__sim_attach(struct pmu__sim *sim, enum pmu_sim_ext_slot slot,
		    const struct pmu__sim_ext_ops *ops, void *state);

/* Register access.  Returns 0, or -PMU_EINVAL for an address the model
 * does not have (like a #GP on wrmsr), -PMU_ENOSYS for a register space
 * the model's architecture does not have. */
int pmu__sim_reg_write(struct pmu__sim *sim, enum pmu_sim_reg_kind kind,
		       uint32_t addr, uint64_t val);
int pmu__sim_reg_read(struct pmu__sim *sim, enum pmu_sim_reg_kind kind,
		      uint32_t addr, uint64_t *val);

static inline int pmu__sim_wrmsr(struct pmu__sim *s, uint32_t msr, uint64_t v)
{
	return pmu__sim_reg_write(s, PMU_SIM_REG_MSR, msr, v);
}

static inline int pmu__sim_rdmsr(struct pmu__sim *s, uint32_t msr, uint64_t *v)
{
	return pmu__sim_reg_read(s, PMU_SIM_REG_MSR, msr, v);
}

/* x86 RDPMC: P4 honours the fast bit (31: low 32 bits only).  Returns 0
 * or -PMU_EINVAL for a counter the model lacks.  On PPC and XScale the
 * index is the hardware counter number (PMCn+1 / PMNn). */
int pmu__sim_rdpmc(struct pmu__sim *sim, uint32_t idx, uint64_t *val);

/* The time-stamp counter (TSC, PPC TBL, XScale CCNT), full value. */
uint64_t pmu__sim_rdtsc(const struct pmu__sim *sim);

/* Event stream. */
void pmu__sim_advance(struct pmu__sim *sim, uint32_t key, uint32_t umask,
		      uint64_t n);
void pmu__sim_cycles(struct pmu__sim *sim, uint64_t n);
void pmu__sim_set_mode(struct pmu__sim *sim, enum pmu_sim_mode mode);
void pmu__sim_set_pmm(struct pmu__sim *sim, bool pmm);
void pmu__sim_set_ip(struct pmu__sim *sim, uint64_t ip);
void pmu__sim_set_snapshot(struct pmu__sim *sim,
			   const struct pmu__sim_snapshot *snap);

/* For extensions: deliver an interrupt through the model's path (LVTPC
 * mask and auto-mask on x86, PMXE on PPC); and recompute cfg/dispatch
 * after changing registers behind the core's back. */
void pmu__sim_raise(struct pmu__sim *sim, enum pmu_sim_irq source);
void pmu__sim_reconfigure(struct pmu__sim *sim);

/* Counter value helpers for extensions: write `val` to hardware counter
 * `hw` with the model's width (no sign extension). */
void pmu__sim_set_ctr(struct pmu__sim *sim, unsigned hw, uint64_t val);

/* What a write of counter register `hw` does (x86 MSR, PPC SPR): the
 * P6 sign-extends bit 31; counted in the register statistics. */
void pmu__sim_write_ctr(struct pmu__sim *sim, unsigned hw, uint64_t val);

#endif
