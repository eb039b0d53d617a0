/* SPDX-License-Identifier: MIT */
#ifndef PMU_XSCALE_H
#define PMU_XSCALE_H

/*
 * The Linux XScale PMU API exactly as its documentation gives it:
 * pmu_claim(), pmu_start(pmn0, pmn1), pmu_stop(&results),
 * pmu_release(id), the EVT_* event names and struct pmu_results, so
 * that programs written for it build and run unchanged.  The one PMU
 * those calls use is a simulated XScale (80200) that libpmu creates on
 * first use; the program's own work is simulated by feeding that
 * device (pmu_xscale_device() with the pmu_simple_* calls of
 * <pmu/simple.h>).  Calls are serialised; the API had one PMU and so
 * does this header.
 *
 * Not included by <pmu/pmu.h>: it defines short names (u32, EVT_*,
 * pmu_start...) that only a program written for this API expects.
 */

#include <stdint.h>

#include <pmu/simple.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t u32;

#define EVT_ICACHE_MISS              0x00
#define EVT_ICACHE_NO_DELIVER        0x01
#define EVT_ICACHE_DATA_STALL        0x02
#define EVT_ITLB_MISS                0x03
#define EVT_DTLB_MISS                0x04
#define EVT_BRANCH                   0x05
#define EVT_BRANCH_MISS              0x06
#define EVT_INSTRUCTION              0x07
#define EVT_DCACHE_FULL_STALL        0x08
#define EVT_DCACHE_FULL_STALL_CONTIG 0x09
#define EVT_DCACHE_ACCESS            0x0A
#define EVT_DCACHE_MISS              0x0B
#define EVT_DCACHE_WRITE_BACK        0x0C
#define EVT_PC_CHANGED               0x0D
#define EVT_BCU_REQUEST              0x10
#define EVT_BCU_FULL                 0x11
#define EVT_BCU_DRAIN                0x12
#define EVT_BCU_ECC_NO_ELOG          0x14
#define EVT_BCU_1_BIT_ERR            0x15
#define EVT_RMW                      0x16
/* The kernel header's spellings of two of them. */
#define EVT_DATA_STALL               EVT_ICACHE_DATA_STALL
#define EVT_DCACE_WRITE_BACK         EVT_DCACHE_WRITE_BACK

/* The documentation's field order (docs/decisions.md). */
struct pmu_results {
	u32 ccnt;       /* Clock Counter Register */
	u32 ccnt_of;
	u32 pmn0;       /* Performance Counter Register 0 */
	u32 pmn0_of;
	u32 pmn1;       /* Performance Counter Register 1 */
	u32 pmn1_of;
};

/* A claim id (1, 2, ...), or -EBUSY while claimed (-ENOMEM if the
 * simulated PMU cannot be created). */
PMU_API int pmu_claim(void);

/* Start CCNT, PMN0 and PMN1 counting events pmn0 and pmn1.  0. */
PMU_API int pmu_start(u32 pmn0, u32 pmn1);

/* Stop and store all six fields; -ENOSYS when nothing was started. */
PMU_API int pmu_stop(struct pmu_results *results);

/* 0, or -EPERM for a claim id that is not the current one. */
PMU_API int pmu_release(int claim_id);

/* The device behind the calls above, to feed it the simulated
 * program's events and cycles (NULL if it cannot be created). */
PMU_API struct pmu_simple *pmu_xscale_device(void);

#ifdef __cplusplus
}
#endif
#endif
