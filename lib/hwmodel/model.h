/* SPDX-License-Identifier: MIT */
#ifndef PMU_HWMODEL_MODEL_H
#define PMU_HWMODEL_MODEL_H

/*
 * PMU models as data.  Freestanding: only <stdint.h>, <stddef.h>,
 * <stdbool.h> and <limits.h>; no libc, no allocation, no errno.h.
 *
 * A model describes one historical CPU's performance-monitoring hardware
 * twice: as perfctr saw it (cpu_type, features, counters, the control
 * check family and its parameters, register addresses per hardware
 * counter) and as perfmon2 described it (the logical PMU, `pmu_desc`:
 * PMC and PMD register descriptors).  Models never change at run time;
 * lookups return pointers into constant tables.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Linux errno values, negated by the functions that return them. */
#define PMU_EPERM      1
#define PMU_ENOENT     2
#define PMU_ESRCH      3
#define PMU_EBUSY      16
#define PMU_EEXIST     17
#define PMU_EINVAL     22
#define PMU_ENOSPC     28
#define PMU_ERANGE     34
#define PMU_ENOSYS     38
#define PMU_EOVERFLOW  75

/* perfctr's per-control array size (x86 ABI; PPC and ARM use a prefix). */
#define PMU_MAX_CTRS 18

/* Upper bounds of the pmu_desc arrays over every model (P4 has 65 PMCs). */
#define PMU_MODEL_MAX_PMCS 72
#define PMU_MODEL_MAX_PMDS 24

enum pmu_arch {
	PMU_ARCH_X86 = 1,
	PMU_ARCH_PPC = 2,
	PMU_ARCH_ARM = 3,
};

/* perfctr cpu_type numbers; each architecture has its own numbering. */
enum {
	PMU_CPU_X86_GENERIC = 0,
	PMU_CPU_X86_P5 = 1,
	PMU_CPU_X86_P5MMX = 2,
	PMU_CPU_X86_P6 = 3,
	PMU_CPU_X86_PII = 4,
	PMU_CPU_X86_PIII = 5,
	PMU_CPU_X86_CYRIX_MII = 6,
	PMU_CPU_X86_WINCHIP_C6 = 7,
	PMU_CPU_X86_WINCHIP_2 = 8,
	PMU_CPU_X86_AMD_K7 = 9,
	PMU_CPU_X86_VIA_C3 = 10,
	PMU_CPU_X86_P4 = 11,
	PMU_CPU_X86_P4M2 = 12,
	PMU_CPU_X86_AMD_K8 = 13,
	PMU_CPU_X86_PENTM = 14,
	PMU_CPU_X86_AMD_K8C = 15,
	PMU_CPU_X86_P4M3 = 16,
	PMU_CPU_X86_AMD_FAM10H = 19,

	PMU_CPU_PPC_GENERIC = 0,
	PMU_CPU_PPC_604 = 1,
	PMU_CPU_PPC_604E = 2,
	PMU_CPU_PPC_750 = 3,
	PMU_CPU_PPC_7400 = 4,
	PMU_CPU_PPC_7450 = 5,

	PMU_CPU_ARM_XSC1 = 1,
	PMU_CPU_ARM_XSC2 = 2,
};

/* perfctr cpu_features bits. */
#define PMU_FEAT_RDPMC 0x01u
#define PMU_FEAT_RDTSC 0x02u
#define PMU_FEAT_PCINT 0x04u

enum pmu_ovf_dir {
	PMU_OVF_NEG_TO_NONNEG = 0, /* x86, XScale: counter sign bit 1 -> 0 */
	PMU_OVF_NONNEG_TO_NEG = 1, /* PPC: MSB 0 -> 1 */
};

enum pmu_tsc_kind {
	PMU_TSC_NONE = 0, /* no usable time-stamp counter (WinChip) */
	PMU_TSC_TSC = 1,  /* x86 time-stamp counter, MSR 0x10 */
	PMU_TSC_TBL = 2,  /* PPC timebase lower */
	PMU_TSC_CCNT = 3, /* XScale clock counter */
};

/* Which perfctr check_control the model uses. */
enum pmu_check_family {
	PMU_CHECK_GENERIC = 0,
	PMU_CHECK_P5_LIKE = 1,
	PMU_CHECK_P6_LIKE = 2,
	PMU_CHECK_VC3 = 3,
	PMU_CHECK_P4 = 4,
	PMU_CHECK_PPC = 5,
	PMU_CHECK_XSCALE = 6,
};

/* How MMCR2 is checked on PPC. */
enum pmu_ppc_mmcr2_rule {
	PMU_PPC_MMCR2_MUST_BE_ZERO = 0, /* 604, 604e, 750 */
	PMU_PPC_MMCR2_RULE_ZERO = 0,    /* same, named like the next one */
	/* 7400, 7450: only THRESHMULT allowed (not named ..._THRESHMULT:
	 * that is the MMCR2 bit in control.h) */
	PMU_PPC_MMCR2_RULE_THRESHMULT = 1,
};

/* Parameters of the control check, per family; unused parts stay zero. */
struct pmu_check_rules {
	enum pmu_check_family family;
	struct {
		uint16_t allowed_mask;  /* CESR half bits a user may set */
		bool cpl_check;         /* CPL field 0x00C0 must be non-zero */
		bool tsc_forbidden;     /* tsc_on must be 0 (WinChip C6) */
	} p5;
	struct {
		uint8_t max_ctrs;       /* 2 (P6) or 4 (K7/K8) */
		bool k7_enable;         /* EN in every evntsel (K7) vs PMC0 only */
	} p6;
	struct {
		bool ht;                /* HyperThreading CPU */
		uint8_t model;          /* CPUID model number */
	} p4;
	struct {
		uint8_t nr_pmcs;        /* 2, 4 or 6 */
		enum pmu_ppc_mmcr2_rule mmcr2;
		bool is_74xx;           /* FCECE/TRIGGER/PMXE need MMCR0 reload */
	} ppc;
	struct {
		uint8_t nr_ctrs;        /* 2 (XScale1) or 4 (XScale2) */
		uint8_t bus_events;     /* the 80200's bus unit and RMW
					   events (0x10-0x12, 0x14-0x16) */
	} xscale;
};

/* Behaviour a simulator has to reproduce; bits of pmu_model.quirks. */
#define PMU_QUIRK_P6_GLOBAL_ENABLE_EVNTSEL0    (1u << 0) /* EVNTSEL0.EN gates all */
#define PMU_QUIRK_P6_WRITE_SIGN_EXTEND_31      (1u << 1) /* wrmsr sign-extends bit 31 */
#define PMU_QUIRK_P5_CESR_PACKED               (1u << 2) /* one CESR holds both halves */
#define PMU_QUIRK_P4_NEEDS_ENABLE_AND_ACTIVE_THREAD (1u << 3)
#define PMU_QUIRK_PPC_MMCR0_FREEZE             (1u << 4) /* FC/FCECE/TRIGGER/PMXE */
#define PMU_QUIRK_XSCALE_PMNC                  (1u << 5) /* PMNC-style control */
#define PMU_QUIRK_HAS_IBS                      (1u << 6) /* AMD instruction sampling */
#define PMU_QUIRK_HT                           (1u << 7) /* two threads share the PMU */
#define PMU_QUIRK_RDMSR_COUNTERS               (1u << 8) /* no RDPMC: read via RDMSR */
#define PMU_QUIRK_VC3_TSC_ALIAS                (1u << 9) /* PERFCTR0 aliases the TSC */
#define PMU_QUIRK_PPC_PMXE_CLEARED_ON_PMI      (1u << 10) /* not on 604 */
#define PMU_QUIRK_XSCALE2_BANKS                (1u << 11) /* INTEN/FLAG/EVTSEL split */
#define PMU_QUIRK_P4_EXTENDED_CASCADE          (1u << 12) /* allowed (2.6.9: P4M2 only) */
#define PMU_QUIRK_P4_IQ_ESCR                   (1u << 13) /* IQ_ESCR0/1 exist (model <= 2) */
/* The CPU sets the LVTPC mask bit when it delivers a counter interrupt, so
 * the driver must unmask it again (P4 family, Pentium M). */
#define PMU_QUIRK_LVTPC_AUTOMASK               (1u << 14)

/*
 * One perfmon2-style logical register.  `addr` is the MSR number (x86),
 * the SPR number (PPC) or the CP14 register as (CRn << 8) | CRm (XScale).
 * rsvd_msk: set bits cannot be changed and read back as dfl_val's bits.
 * width: implemented bits of a counter PMD, 0 for anything else.
 */
struct pmu_reg_desc {
	const char *name;
	uint32_t addr;
	uint64_t dfl_val;
	uint64_t rsvd_msk;
	uint8_t width;
	uint8_t flags;          /* PMU_REGF_* */
};

#define PMU_REGF_COUNTER  0x01u /* PMD is a counter (has width) */
#define PMU_REGF_IBS      0x02u /* AMD IBS register */
#define PMU_REGF_NO_EMUL64 0x04u /* PMC accepts PFM_REGFL_NO_EMUL64 */

/* XScale CP14 register numbers in the (CRn << 8) | CRm encoding. */
#define PMU_CP14(crn, crm) (((uint32_t)(crn) << 8) | (uint32_t)(crm))

struct pmu_hwmodel {
	const char *name;       /* command-line name, e.g. "p6" */
	const char *desc;       /* one line */
	const char *catalog;    /* event catalog of its events, NULL if none */
	enum pmu_arch arch;
	unsigned cpu_type;      /* perfctr numbering of `arch` */
	uint32_t features;      /* PMU_FEAT_* */
	unsigned nr_ctrs;       /* perfctr_info_nrctrs */
	unsigned nr_hw_ctrs;    /* valid entries of ctr_addr/ctl_addr */
	unsigned ctr_width;     /* real counter width in bits */
	unsigned emul_width;    /* perfmon2 64-bit emulation width, 0 = none */
	enum pmu_ovf_dir ovf_dir;
	enum pmu_tsc_kind tsc_kind;
	uint32_t tsc_addr;      /* MSR 0x10, SPR 268 (TBL), CP14 CCNT */
	struct pmu_check_rules check;
	uint32_t quirks;        /* PMU_QUIRK_* */
	/* Per hardware counter (pmc_map value without flags): the counter's
	 * data register and the control register that configures it
	 * (EVNTSEL, CESR, CCCR, MMCR0/1, PMNC/EVTSEL). */
	uint32_t ctr_addr[PMU_MAX_CTRS];
	uint32_t ctl_addr[PMU_MAX_CTRS];
	/* perfmon2 logical PMU. */
	const char *desc_name;  /* pmu_desc/model */
	const struct pmu_reg_desc *pmcs;
	unsigned nr_pmcs;
	const struct pmu_reg_desc *pmds;
	unsigned nr_pmds;
};

/* Model by exact name, NULL if unknown (binary search of a sorted table). */
const struct pmu_hwmodel *pmu__hwmodel_find(const char *name);

/* Models in name order; NULL past the end. */
const struct pmu_hwmodel *pmu__hwmodel_at(size_t i);
size_t pmu__hwmodel_count(void);

/* Data / control register of hardware counter `hw` (flags masked off),
 * 0 when the model has no such counter. */
uint32_t pmu__hwmodel_ctr_addr(const struct pmu_hwmodel *m, unsigned hw);
uint32_t pmu__hwmodel_ctl_addr(const struct pmu_hwmodel *m, unsigned hw);

/* P4: ESCR MSR selected by CCCR.ESCR_SELECT `sel` for counter `pmc`,
 * 0 if that combination does not exist. */
uint32_t pmu__p4_escr_addr(unsigned pmc, unsigned sel);

/* Register constants the check rules and the simulator share. */
#define PMU_MSR_TSC            0x10u
#define PMU_MSR_P5_CESR        0x11u
#define PMU_MSR_P5_CTR0        0x12u
#define PMU_MSR_P6_EVNTSEL0    0x186u
#define PMU_MSR_P6_PERFCTR0    0xC1u
#define PMU_MSR_K7_EVNTSEL0    0xC0010000u
#define PMU_MSR_K7_PERFCTR0    0xC0010004u
#define PMU_MSR_P4_COUNTER0    0x300u
#define PMU_MSR_P4_CCCR0       0x360u
#define PMU_MSR_P4_ESCR0       0x3A0u
#define PMU_MSR_P4_IQ_ESCR0    0x3BAu
#define PMU_MSR_P4_IQ_ESCR1    0x3BBu
#define PMU_MSR_P4_PEBS_ENABLE 0x3F1u
#define PMU_MSR_P4_PEBS_MATRIX_VERT 0x3F2u
#define PMU_MSR_P4_MISC_ENABLE 0x1A0u
#define PMU_MSR_IBS_FETCH_CTL  0xC0011030u
#define PMU_MSR_IBS_OP_CTL     0xC0011033u

#define PMU_SPR_MMCR0 0x3B8u
#define PMU_SPR_PMC1  0x3B9u
#define PMU_SPR_PMC2  0x3BAu
#define PMU_SPR_SIA   0x3BBu
#define PMU_SPR_MMCR1 0x3BCu
#define PMU_SPR_PMC3  0x3BDu
#define PMU_SPR_PMC4  0x3BEu
#define PMU_SPR_MMCR2 0x3B0u
#define PMU_SPR_BAMR  0x3B7u
#define PMU_SPR_PMC5  0x3B1u
#define PMU_SPR_PMC6  0x3B2u
#define PMU_SPR_TBL   268u

/* XScale1 (CRm 0) and XScale2 (CRm 1 / 2) CP14 registers. */
#define PMU_CP14_XSC1_PMNC  PMU_CP14(0, 0)
#define PMU_CP14_XSC1_CCNT  PMU_CP14(1, 0)
#define PMU_CP14_XSC1_PMN0  PMU_CP14(2, 0)
#define PMU_CP14_XSC1_PMN1  PMU_CP14(3, 0)
#define PMU_CP14_XSC2_PMNC  PMU_CP14(0, 1)
#define PMU_CP14_XSC2_CCNT  PMU_CP14(1, 1)
#define PMU_CP14_XSC2_INTEN PMU_CP14(4, 1)
#define PMU_CP14_XSC2_FLAG  PMU_CP14(5, 1)
#define PMU_CP14_XSC2_EVTSEL PMU_CP14(8, 1)
#define PMU_CP14_XSC2_PMN(n) PMU_CP14((n), 2)

#endif
