/* SPDX-License-Identifier: MIT */
#ifndef PMU_DRIVERS_PFM_HW_H
#define PMU_DRIVERS_PFM_HW_H

/*
 * A PMU as perfmon2's contexts see it: numbered PMC and PMD registers
 * (the model's pmu_desc), an interrupt, a clock.  The context engine
 * (lib/perfmon/pfm_*.c) keeps the logical state -- sets, 64-bit virtual
 * counters, resets, formats -- and moves the active set in and out of
 * the hardware through these calls; a driver that can be programmed at
 * register level provides them (driver op pfm_hw).
 *
 * Hardware images: the engine writes PMC values with their enable bits
 * as the user wrote them (monitoring started) or as stopped(); counter
 * PMDs as the engine formed them (upper bits set so the counter
 * interrupts when the emulated low part wraps).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmu/error.h>

#include "hwmodel/model.h"

#define PMU__PFM_BV 5   /* u64 words of a register bit vector (320 bits) */

struct pmu__pfm_hw;

/* Where a simulated CPU sees a context's PEBS buffer. */
#define PMU__PFM_PEBS_BASE UINT64_C(0x10000000)

/* What the hardware calls back into the engine with. */
struct pmu__pfm_hw_cb {
	/* A PMU interrupt at program counter ip (synchronous: between two
	 * events of the simulated program). */
	void (*irq)(void *arg, uint64_t ip);
	/* Simulated time passed (the engine checks its timer). */
	void (*tick)(void *arg);
	/* ns until the engine's timer expires, UINT64_MAX when none is
	 * armed: time is fed in pieces no longer than this. */
	uint64_t (*deadline)(void *arg);
	/* The engine's lock, for hardware whose interrupts arrive on a
	 * thread of its own (the perf driver's monitor): the three calls
	 * above are made under it.  Such a thread only ever tries it, so
	 * the engine may stop the thread while it holds the lock. */
	bool (*trylock)(void);
	void (*unlock)(void);
	/* After an interrupt or a piece of time: true when the program
	 * being fed must stop where it is (a blocked monitored thread's
	 * context was detached or closed).  NULL: never. */
	bool (*cancelled)(void *arg);
	void *arg;
};

struct pmu__pfm_hw_ops {
	void (*set_callbacks)(struct pmu__pfm_hw *h,
			      const struct pmu__pfm_hw_cb *cb);
	void (*write_pmc)(struct pmu__pfm_hw *h, unsigned i, uint64_t v);
	void (*write_pmd)(struct pmu__pfm_hw *h, unsigned i, uint64_t v);
	uint64_t (*read_pmd)(struct pmu__pfm_hw *h, unsigned i);
	/* PMC i's value v with monitoring stopped (enable bits off) */
	uint64_t (*stopped)(const struct pmu__pfm_hw *h, unsigned i,
			    uint64_t v);
	/* The counter PMDs that must interrupt on overflow (models whose
	 * interrupt enables are per counter bits the user does not own). */
	void (*irq_enable)(struct pmu__pfm_hw *h, const uint64_t *pmds);
	/* OR into bv the PMDs of `watch` that overflowed in hardware since
	 * the last call, and forget them; `emul` are the 64-bit emulated
	 * counters (an overflow shows as bit `width` flipping). */
	void (*pending)(struct pmu__pfm_hw *h, const uint64_t *watch,
			const uint64_t *emul, unsigned width, uint64_t *bv);
	/* Re-arm an interrupting PMD that is not a counter (AMD IBS). */
	void (*rearm)(struct pmu__pfm_hw *h, unsigned pmd);
	/* The end of an interrupt's handling (LVTPC, PMXE re-enabled). */
	void (*irq_done)(struct pmu__pfm_hw *h);
	uint64_t (*now)(const struct pmu__pfm_hw *h);     /* ns */
	/* The CPU the simulated program runs on. */
	int (*cpu)(const struct pmu__pfm_hw *h);
	/* Hand the PEBS hardware its buffer: `size` bytes at `mem`
	 * (perfmon2's pebs format layout), which the simulated CPU sees
	 * at linear address PMU__PFM_PEBS_BASE.  -ENOSYS without PEBS. */
	int (*pebs_buffer)(struct pmu__pfm_hw *h, void *mem, size_t size,
			   bool mode64, struct pmu_error *err);
	/* Run `len` bytes of event stream as the monitored program. */
	int (*feed)(struct pmu__pfm_hw *h, const char *text, size_t len,
		    struct pmu_error *err);

	/* Optional (NULL: nothing to do), for a PMU that counts a real
	 * program rather than one the engine feeds. */

	/* What the context monitors from now on: thread tid (cpu -1), CPU
	 * cpu (tid -1), or nothing (both -1: detached). */
	void (*target)(struct pmu__pfm_hw *h, int tid, int cpu);
	/* The engine armed its timer: deadline() is finite now and tick()
	 * is due when it has passed (time that passes by itself). */
	void (*timer)(struct pmu__pfm_hw *h);
	/* The first refusal of what the engine programmed since the last
	 * call (a kernel may refuse an event): 0, or its negative errno
	 * with *err naming the register. */
	int (*take_error)(struct pmu__pfm_hw *h, struct pmu_error *err);
	/* The thread the last interrupt found running (for CPU-wide
	 * contexts); false when not known. */
	bool (*task)(const struct pmu__pfm_hw *h, uint32_t *tid,
		     uint32_t *pid);
};

struct pmu__pfm_hw {
	const struct pmu__pfm_hw_ops *ops;
	const struct pmu_hwmodel *model;
};

/*
 * The width perfmon2 emulates 64-bit counters over: one bit less than
 * the hardware on x86 (the model's emul_width), bit 31 on PowerPC (its
 * counters interrupt when the MSB becomes 1), the whole 32 bits on
 * XScale (overflow flags).  Models without a counter interrupt (P5,
 * MII, WinChip, VIA C3) keep the hardware width; wraps are seen when
 * the counters are read.  The host's PMUs through perf (x86 and Armv8
 * alike) have 64-bit counters, which perf virtualises.
 */
static inline unsigned pmu__pfm_width(const struct pmu_hwmodel *m)
{
	if (m->emul_width)
		return m->emul_width;
	if (m->arch == PMU_ARCH_PPC)
		return 31;
	if (m->arch == PMU_ARCH_ARM && m->ctr_width < 64)
		return 32;
	return m->ctr_width ? m->ctr_width : 64;
}

/* Does the model raise counter overflow interrupts at all? */
static inline bool pmu__pfm_has_irq(const struct pmu_hwmodel *m)
{
	return (m->features & PMU_FEAT_PCINT) != 0;
}

#endif
