/* SPDX-License-Identifier: MIT */
#ifndef PMU_SIMPLE_H
#define PMU_SIMPLE_H

/*
 * The simplest PMU interface: claim the unit, start two event counters
 * plus the cycle counter, stop and read the counts, release.  This is
 * the Linux XScale kernel API (pmu_claim / pmu_start / pmu_stop /
 * pmu_release; <pmu/xscale.h> keeps those exact calls) with its global
 * state moved into a device handle.  A device is a small facade over a
 * session: on a simulated XScale the event numbers are its PMNC codes
 * and the register protocol is the API's own; on any other device
 * (another simulated model, or "perf": this machine, counting the
 * calling thread) the XScale events that have a generic equivalent
 * (instructions, branches, cache and TLB misses) count that.  See
 * docs/simple-api.md.
 *
 * A device is not thread-safe: use one per thread or serialise calls.
 */

#include <stddef.h>
#include <stdint.h>

#include <pmu/error.h>

#ifdef __cplusplus
extern "C" {
#endif

/* XScale event numbers (PMNC evtCount fields). */
#define PMU_XSC_EVT_ICACHE_MISS              0x00u
#define PMU_XSC_EVT_ICACHE_NO_DELIVER        0x01u
#define PMU_XSC_EVT_DATA_STALL               0x02u
#define PMU_XSC_EVT_ITLB_MISS                0x03u
#define PMU_XSC_EVT_DTLB_MISS                0x04u
#define PMU_XSC_EVT_BRANCH                   0x05u
#define PMU_XSC_EVT_BRANCH_MISS              0x06u
#define PMU_XSC_EVT_INSTRUCTION              0x07u
#define PMU_XSC_EVT_DCACHE_FULL_STALL        0x08u
#define PMU_XSC_EVT_DCACHE_FULL_STALL_CONTIG 0x09u
#define PMU_XSC_EVT_DCACHE_ACCESS            0x0Au
#define PMU_XSC_EVT_DCACHE_MISS              0x0Bu
#define PMU_XSC_EVT_DCACHE_WRITE_BACK        0x0Cu
#define PMU_XSC_EVT_PC_CHANGED               0x0Du
#define PMU_XSC_EVT_BCU_REQUEST              0x10u
#define PMU_XSC_EVT_BCU_FULL                 0x11u
#define PMU_XSC_EVT_BCU_DRAIN                0x12u
#define PMU_XSC_EVT_BCU_ECC_NO_ELOG          0x14u
#define PMU_XSC_EVT_BCU_1_BIT_ERR            0x15u
#define PMU_XSC_EVT_RMW                      0x16u

/*
 * Counts of one run.  Set `size = sizeof(struct pmu_simple_results)`
 * before pmu_simple_stop().  Each counter is 32 bits; the *_of fields
 * count its overflows (kept by the interrupt handler installed at
 * claim), so the full count is pmu_simple_count(x_of, x).
 */
struct pmu_simple_results {
	size_t size;
	uint32_t ccnt_of;
	uint32_t ccnt;          /* clock cycles */
	uint32_t pmn0_of;
	uint32_t pmn0;          /* event given as pmn0 to pmu_simple_start() */
	uint32_t pmn1_of;
	uint32_t pmn1;          /* event given as pmn1 */
};

struct pmu_simple;

/*
 * Open a device: "xscale1" (80200, the API's original target; also
 * NULL), "xscale2", any other simulated model ('pmu info
 * --list-models'), or "perf" for this machine.  Returns NULL and sets
 * errno (ENOENT for an unknown device, ENOMEM) with details in *err.
 */
PMU_API struct pmu_simple *pmu_simple_open(const char *device,
					   struct pmu_error *err);
PMU_API void pmu_simple_close(struct pmu_simple *dev);

/* Take the PMU (and install the overflow handler); a run left by an
 * earlier claimer is stopped.  Returns a claim id (1, 2, ... per
 * device) or -EBUSY. */
PMU_API int pmu_simple_claim(struct pmu_simple *dev);

/* Give it back: 0, or -EPERM when claim_id is not the current claim;
 * 0 as well when the PMU is not claimed at all. */
PMU_API int pmu_simple_release(struct pmu_simple *dev, int claim_id);

/*
 * Zero the results and start the cycle counter plus counters for events
 * pmn0 and pmn1 (PMU_XSC_EVT_*), all three with overflow interrupts.
 * On an XScale, event numbers are not checked (an unknown one simply
 * never counts).  Returns 0, -EOPNOTSUPP when the device cannot count
 * one of the three (an XScale event with no equivalent there, or no
 * hardware PMU on this machine), -ENOSPC when its counters cannot hold
 * the three at once.
 */
PMU_API int pmu_simple_start(struct pmu_simple *dev, uint32_t pmn0,
			     uint32_t pmn1);

/* Stop counting and store the counts and overflow counts in *res.
 * -EINVAL for a NULL or unsized res, -ENOSYS when no run was started. */
PMU_API int pmu_simple_stop(struct pmu_simple *dev,
			    struct pmu_simple_results *res);

/* The simulated program: n occurrences of the device's event `event`
 * (its own code: the XScale's PMNC code on an XScale), n clock cycles,
 * the program counter the interrupt handler would see.  -EOPNOTSUPP on
 * "perf", where the real program runs. */
PMU_API int pmu_simple_event(struct pmu_simple *dev, uint32_t event,
			     uint64_t n);
PMU_API int pmu_simple_cycles(struct pmu_simple *dev, uint64_t n);
PMU_API int pmu_simple_set_pc(struct pmu_simple *dev, uint64_t pc);

/* Register traffic and interrupts, for those checking the protocol. */
struct pmu_simple_stats {
	size_t size;
	uint64_t pmnc_writes;   /* writes of the main control register (PMNC) */
	uint64_t irqs;          /* PMU interrupts handled */
	uint64_t last_irq_pc;   /* PC at the last interrupt */
};

/* 0, -EINVAL (unsized st) or -EOPNOTSUPP on "perf". */
PMU_API int pmu_simple_stats(const struct pmu_simple *dev,
			     struct pmu_simple_stats *st);

/* Read a PMU register by its CP14 coordinates (mrc p14, 0, Rd, cCRn,
 * cCRm): e.g. (0, 0) is the first generation's PMNC.  0, -EINVAL, or
 * -EOPNOTSUPP on a device without CP14 registers. */
PMU_API int pmu_simple_reg_read(struct pmu_simple *dev, unsigned crn,
				unsigned crm, uint32_t *val);

/* Full 64-bit count of a counter from its overflow count and value. */
static inline uint64_t pmu_simple_count(uint32_t of, uint32_t value)
{
	return ((uint64_t)of << 32) + value;
}

/* Quotient of two full counts; 0.0 when the denominator is 0. */
static inline double pmu_simple_ratio(uint64_t num, uint64_t den)
{
	return den ? (double)num / (double)den : 0.0;
}

/* The ratios of the XScale PMU documentation's examples. */

/* start(INSTRUCTION, ICACHE_MISS): misses per instruction. */
static inline double
pmu_simple_icache_miss_rate(const struct pmu_simple_results *r)
{
	return pmu_simple_ratio(pmu_simple_count(r->pmn1_of, r->pmn1),
				pmu_simple_count(r->pmn0_of, r->pmn0));
}

/* start(INSTRUCTION, ...): cycles per instruction. */
static inline double pmu_simple_cpi(const struct pmu_simple_results *r)
{
	return pmu_simple_ratio(pmu_simple_count(r->ccnt_of, r->ccnt),
				pmu_simple_count(r->pmn0_of, r->pmn0));
}

/* start(DCACHE_ACCESS, DCACHE_MISS): misses per access. */
static inline double
pmu_simple_dcache_miss_rate(const struct pmu_simple_results *r)
{
	return pmu_simple_icache_miss_rate(r);
}

/* start(ICACHE_NO_DELIVER, ICACHE_MISS): stall cycles per miss. */
static inline double
pmu_simple_fetch_stall_per_miss(const struct pmu_simple_results *r)
{
	return pmu_simple_ratio(pmu_simple_count(r->pmn0_of, r->pmn0),
				pmu_simple_count(r->pmn1_of, r->pmn1));
}

/* start(ICACHE_NO_DELIVER, ...): fraction of cycles stalled on fetch. */
static inline double
pmu_simple_fetch_stall_fraction(const struct pmu_simple_results *r)
{
	return pmu_simple_ratio(pmu_simple_count(r->pmn0_of, r->pmn0),
				pmu_simple_count(r->ccnt_of, r->ccnt));
}

#ifdef __cplusplus
}
#endif
#endif
