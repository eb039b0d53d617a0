/* SPDX-License-Identifier: MIT */
#ifndef PMU_HWMODEL_CONTROL_H
#define PMU_HWMODEL_CONTROL_H

/*
 * perfctr's per-CPU control (struct perfctr_cpu_control, 2.6 ABI) and its
 * validation, perfctr_cpu_update_control().  Freestanding.
 *
 * Arrays are indexed by *virtual* counter (0 .. nractrs+nrictrs-1), as in
 * perfctr 2.6: evntsel[i] programs the hardware counter pmc_map[i].  The
 * same struct serves every architecture: PPC and ARM use only a prefix of
 * the arrays, x86 ignores `ppc`, non-P4 models ignore `p4`.
 */

#include <stdbool.h>
#include <stdint.h>

#include "hwmodel/model.h"

struct pmu_control {
	uint32_t tsc_on;
	uint32_t nractrs;               /* a-mode counters, first */
	uint32_t nrictrs;               /* i-mode counters, after them */
	uint32_t pmc_map[PMU_MAX_CTRS]; /* RDPMC number (P4: bit 31 = fast) */
	uint32_t evntsel[PMU_MAX_CTRS]; /* EVNTSEL / CESR half / CCCR / event code */
	struct {
		uint32_t escr[PMU_MAX_CTRS];
		uint32_t pebs_enable;
		uint32_t pebs_matrix_vert;
	} p4;
	int32_t ireset[PMU_MAX_CTRS];   /* i-mode start values */
	struct {
		uint32_t mmcr0;
		uint32_t mmcr2;
	} ppc;
	/* Not part of perfctr's struct: the mode the control is meant for
	 * (global-mode "gperfctr" vs per-thread).  Read by the public API;
	 * pmu__control_check takes it as an explicit argument. */
	uint32_t is_global;
};

/*
 * Outcome of a check.  On failure `err` is a negative PMU_E* value,
 * `rule` a short stable identifier ("p6.enable_bit_pmc0"), `counter` the
 * virtual counter index at fault (-1 when the rule is not per counter),
 * `field`/`value` the offending control field and its value, `message` a
 * constant human sentence.  On success err = 0, rule = "ok", and the
 * derived data below is filled.  The derived data is also partly filled
 * on failure (up to the faulty counter) and must then be ignored.
 */
struct pmu_control_result {
	int err;
	const char *rule;
	int counter;
	const char *field;              /* "evntsel", "pmc_map", ... or NULL */
	uint32_t value;
	const char *message;

	uint32_t cstatus;               /* 0 on failure (stopped) */
	/* per virtual counter */
	uint32_t hw_ctr[PMU_MAX_CTRS];  /* physical counter (flags masked) */
	uint32_t map[PMU_MAX_CTRS];     /* raw pmc_map (RDPMC operand) */
	uint32_t p4_escr_msr[PMU_MAX_CTRS]; /* P4: ESCR programmed by counter */
	int32_t start[PMU_MAX_CTRS];    /* i-mode: start = ireset; else 0 */
	/* control register images */
	uint32_t p5_cesr;               /* P5/MII/C6: MSR 0x11 value */
	uint32_t ppc_mmcr[3];           /* PPC: MMCR0, MMCR1, MMCR2 */
	uint32_t xsc_pmnc;              /* XScale1 PMNC (also XScale2 E bit) */
	uint32_t xsc_evtsel;            /* XScale2 EVTSEL */
	uint32_t xsc_inten;             /* XScale2 INTEN */
	uint32_t vc3_id;                /* VIA C3: evntsel (perfctr's cache id) */
};

/*
 * perfctr_cpu_update_control(): PCINT -> EPERM; the model's check_control;
 * check_ireset (x86: after check_control; PPC/ARM: before); cstatus; i-mode
 * start values.  Returns 0 or a negative PMU_E* errno (also in result->err).
 * `result` must not be NULL.
 */
int pmu__control_check(const struct pmu_hwmodel *model,
		       const struct pmu_control *control, bool is_global,
		       struct pmu_control_result *result);

/* perfctr_mk_cstatus(): computed in 32-bit unsigned, bit 0 of tsc_on only. */
static inline uint32_t pmu__mk_cstatus(uint32_t tsc_on, uint32_t nractrs,
				       uint32_t nrictrs)
{
	return (tsc_on << 31) | (nrictrs << 16) | ((nractrs + nrictrs) << 8) |
	       nractrs;
}

static inline bool pmu__cstatus_has_tsc(uint32_t cs)
{
	return (int32_t)cs < 0;
}

static inline unsigned pmu__cstatus_nractrs(uint32_t cs)
{
	return cs & 0x7F;
}

static inline unsigned pmu__cstatus_nrctrs(uint32_t cs)
{
	return (cs >> 8) & 0x7F;
}

/* Returns the masked value, not 0/1, exactly as perfctr does. */
static inline uint32_t pmu__cstatus_has_ictrs(uint32_t cs)
{
	return cs & (0x7Fu << 16);
}

static inline uint32_t pmu__cstatus_enabled(uint32_t cs)
{
	return cs;
}

/* PPC driver-private cstatus bit: MMCR0 must be saved/reloaded. */
#define PMU_CSTATUS_PPC_MMCR0_QUIRK (1u << 30)

/* Register bits used by the checks (and by the simulator). */
#define PMU_P5_CESR_CPL            0x00C0u
#define PMU_P6_EVNTSEL_RESERVED    0x00280000u
#define PMU_P6_EVNTSEL_ENABLE      0x00400000u
#define PMU_P6_EVNTSEL_INT         0x00100000u
#define PMU_P6_EVNTSEL_CPL         0x00030000u
#define PMU_VC3_EVNTSEL1_ALLOWED   0x000001FFu
#define PMU_VC3_EVNTSEL1_CLEAR     0x00070079u

#define PMU_P4_FAST_RDPMC          0x80000000u
#define PMU_P4_CCCR_OVF            0x80000000u
#define PMU_P4_CCCR_CASCADE        0x40000000u
#define PMU_P4_CCCR_OVF_PMI_T1     0x08000000u
#define PMU_P4_CCCR_OVF_PMI_T0     0x04000000u
#define PMU_P4_CCCR_FORCE_OVF      0x02000000u
#define PMU_P4_CCCR_EDGE           0x01000000u
#define PMU_P4_CCCR_ACTIVE_THREAD  0x00030000u
#define PMU_P4_CCCR_ESCR_SELECT(c) (((c) >> 13) & 7u)
#define PMU_P4_CCCR_ENABLE         0x00001000u
#define PMU_P4_CCCR_EXTENDED_CASCADE 0x00000800u
#define PMU_P4_CCCR_RESERVED       0xB80007FFu
#define PMU_P4_ESCR_RESERVED       0x80000000u
#define PMU_P4_ESCR_CPL_T0         0x0000000Cu
#define PMU_P4_ESCR_CPL_T1         0x00000003u
#define PMU_P4_PE_ALLOWED          0x01000607u
#define PMU_P4_PE_UOP_TAG          0x01000000u
#define PMU_P4_PE_REPLAY_TAG_BITS  0x00000607u
#define PMU_P4_PMV_ALLOWED         0x00000003u

#define PMU_PPC_MMCR0_FC           0x80000000u
#define PMU_PPC_MMCR0_FCS          0x40000000u
#define PMU_PPC_MMCR0_FCP          0x20000000u
#define PMU_PPC_MMCR0_FCM1         0x10000000u
#define PMU_PPC_MMCR0_FCM0         0x08000000u
#define PMU_PPC_MMCR0_PMXE         0x04000000u
#define PMU_PPC_MMCR0_FCECE        0x02000000u
#define PMU_PPC_MMCR0_TBSEL        0x01800000u
#define PMU_PPC_MMCR0_TBEE         0x00400000u
#define PMU_PPC_MMCR0_THRESHOLD    0x003F0000u
#define PMU_PPC_MMCR0_PMC1CE       0x00008000u
#define PMU_PPC_MMCR0_PMCJCE       0x00004000u
#define PMU_PPC_MMCR0_TRIGGER      0x00002000u
#define PMU_PPC_MMCR0_PMC1SEL      0x00001FC0u
#define PMU_PPC_MMCR0_PMC2SEL      0x0000003Fu
#define PMU_PPC_MMCR2_THRESHMULT   0x80000000u
#define PMU_PPC_MMCR2_SMCNTEN      0x40000000u
#define PMU_PPC_MMCR2_SMINTEN      0x20000000u

#define PMU_XSC_PMNC_E             0x001u
#define PMU_XSC_PMNC_P             0x002u
#define PMU_XSC_PMNC_C             0x004u
#define PMU_XSC_PMNC_D             0x008u
#define PMU_XSC_MAX_EVENT          0x0Du

#endif
