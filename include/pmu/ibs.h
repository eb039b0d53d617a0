/* SPDX-License-Identifier: MIT */
#ifndef PMU_IBS_H
#define PMU_IBS_H

/*
 * AMD Instruction-Based Sampling set-up: the IbsFetchCtl / IbsOpCtl
 * register value, where perfmon2 placed it (PMC/PMD indices) and the
 * perf_event form (the ibs_fetch / ibs_op dynamic PMUs).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmu/error.h>

#ifdef __cplusplus
extern "C" {
#endif

enum pmu_ibs_kind {
	PMU_IBS_FETCH = 0,      /* instruction fetch sampling */
	PMU_IBS_OP = 1,         /* execution (op) sampling */
};

/* Options (per kind). */
#define PMU_IBS_RANDEN 0x1u     /* fetch: randomize the low 4 bits of the
				   start count (IbsRandEn) */
#define PMU_IBS_UOPS   0x1u     /* op: count dispatched ops instead of
				   cycles (IbsOpCntCtl; Fam10h RevC and
				   later) */

#define PMU_IBS_MAXCNT_MAX 0xFFFF0u /* 20-bit period, low 4 bits zero */

/* Register bits. */
#define PMU_IBS_FETCH_EN     (1ull << 48)
#define PMU_IBS_FETCH_VAL    (1ull << 49)
#define PMU_IBS_FETCH_RANDEN (1ull << 57)
#define PMU_IBS_OP_EN        (1ull << 17)
#define PMU_IBS_OP_VAL       (1ull << 18)
#define PMU_IBS_OP_CNTCTL    (1ull << 19)

#define PMU_IBS_FETCH_CTL_MSR 0xC0011030u
#define PMU_IBS_OP_CTL_MSR    0xC0011033u

struct pmu_ibs_opts {
	size_t sz;              /* sizeof(struct pmu_ibs_opts) */
	const char *model;      /* catalog model or alias ("fam10h",
				   "amd64_fam19h_zen4"); NULL = this host */
	const char *sysfs_root; /* where to read the perf PMU type; NULL =
				   "/sys" */
};
#define pmu_ibs_opts__last_field sysfs_root

struct pmu_ibs_config {
	size_t size;            /* sizeof(struct pmu_ibs_config) */
	enum pmu_ibs_kind kind;
	uint64_t ctl;           /* IbsFetchCtl / IbsOpCtl value (MaxCnt
				   field = maxcnt >> 4, En set) */
	uint32_t msr;           /* its MSR address */
	int pmc;                /* perfmon2 PMC index (fetch 4, op 5) */
	int pmd;                /* perfmon2 PMD index of the control PMD
				   (fetch 4, op 7) */
	int npmds;              /* PMDs of this kind starting at pmd
				   (fetch 3, op 7) */
	/* perf_event form */
	char perf_pmu[16];      /* "ibs_fetch" / "ibs_op" */
	bool perf_type_known;   /* the PMU exists in sysfs */
	uint32_t perf_type;     /* attr.type from sysfs (when known) */
	uint64_t perf_config;   /* rand_en (bit 57) / cnt_ctl (bit 19) */
	uint64_t sample_period; /* = maxcnt, a multiple of 16 */
};

/*
 * Check and encode one IBS set-up.  maxcnt is the sampling period (a
 * 20-bit value whose low 4 bits are zero, at least 16); options are
 * PMU_IBS_RANDEN for fetch or PMU_IBS_UOPS for op.  Returns 0, -EINVAL
 * (bad value or option, named in *err) or -EOPNOTSUPP (the model has no
 * IBS, or no op counting mode).
 */
PMU_API int pmu_ibs_setup(enum pmu_ibs_kind kind, uint32_t maxcnt,
			  unsigned options, const struct pmu_ibs_opts *opts,
			  struct pmu_ibs_config *out, struct pmu_error *err);

#ifdef __cplusplus
}
#endif
#endif
