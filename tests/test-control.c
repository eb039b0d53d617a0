/* SPDX-License-Identifier: MIT */
/*
 * perfctr control validation: every rule of every family, accepted and
 * rejected, plus errno precedence and the derived register images.  The
 * expectations come from the rules in seed-semantics §1.2-1.4, 1.11, 1.12
 * worked out by hand (bit values in comments).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "hwmodel/control.h"
#include "hwmodel/model.h"

struct row {
	int line;
	const char *model;
	struct pmu_control c;
	int err;
	const char *rule;
	int counter;
	uint32_t cstatus;
};

#define OK(m, cs, ...) { .line = __LINE__, .model = (m), .c = { __VA_ARGS__ }, \
	.rule = "ok", .counter = -1, .cstatus = (cs) }
#define BAD(m, e, r, ctr, ...) { .line = __LINE__, .model = (m), \
	.c = { __VA_ARGS__ }, .err = -(e), .rule = (r), .counter = (ctr) }

/* P6 evntsel pieces: EN 0x400000, INT 0x100000, USR 0x10000, OS 0x20000. */
#define P6_EN_USR 0x004100C0u   /* INST_RETIRED, user, enabled */
#define P6_USR    0x000100C0u
#define P6_INT    0x00100000u
#define K7_SEL    0x004300C0u   /* user+os, enabled */
/* P4 CCCR: ACTIVE_THREAD=3 0x30000, ESCR_SELECT n<<13, ENABLE 0x1000. */
#define CCCR_SEL(n) (0x00031000u | ((uint32_t)(n) << 13))
#define CCCR_CRU  CCCR_SEL(4)   /* 0x39000: CRU_ESCR0/1 */
#define OVF_PMI   0x04000000u
#define ESCR_IR   0x04000204u   /* instr_retired, NBOGUSNTAG, T0_USR */
#define FAST(n)   (0x80000000u | (n))

static const struct row rows[] = {
	/* --- common step: PCINT, cstatus encoding, tsc_on --- */
	OK("generic", 0x80000000, .tsc_on = 1),
	OK("generic", 0, .tsc_on = 0),
	OK("generic", 0, .tsc_on = 2),          /* only bit 0 of tsc_on counts */
	OK("generic", 0x80000000, .tsc_on = 3),
	BAD("generic", PMU_EINVAL, "generic.no_counters", -1, .nractrs = 1),
	BAD("generic", PMU_EPERM, "pcint.missing", -1, .nrictrs = 1),
	BAD("p5", PMU_EPERM, "pcint.missing", -1, .nrictrs = 1),
	BAD("vc3", PMU_EPERM, "pcint.missing", -1, .nrictrs = 1),
	BAD("wcc6", PMU_EPERM, "pcint.missing", -1, .nrictrs = 1, .tsc_on = 1),

	/* --- P5 / MII / C6 --- */
	OK("p5", 0x80000202, .tsc_on = 1, .nractrs = 2, .pmc_map = { 0, 1 },
	   .evntsel = { 0x0056, 0x00D6 }),
	OK("p5mmx", 0x101, .nractrs = 1, .evntsel = { 0x01C0 }),
	BAD("p5", PMU_EINVAL, "p5.nrctrs", -1, .nractrs = 3),
	BAD("p5", PMU_EPERM, "p5.evntsel_reserved", 0, .nractrs = 1,
	    .evntsel = { 0x0240 }),             /* bit 9 (PC) */
	BAD("p5", PMU_EPERM, "p5.evntsel_reserved", 0, .nractrs = 1,
	    .evntsel = { 0x0440 }),             /* bit 10: MII only */
	OK("mii", 0x101, .nractrs = 1, .evntsel = { 0x0440 }),
	BAD("mii", PMU_EPERM, "p5.evntsel_reserved", 0, .nractrs = 1,
	    .evntsel = { 0x0840 }),
	BAD("p5", PMU_EPERM, "p5.evntsel_reserved", 0, .nractrs = 1,
	    .evntsel = { 0x10040 }),            /* beyond the 16-bit half */
	BAD("p5", PMU_EINVAL, "p5.cpl_zero", 0, .nractrs = 1,
	    .evntsel = { 0x0016 }),
	BAD("mii", PMU_EINVAL, "p5.cpl_zero", 1, .nractrs = 2,
	    .pmc_map = { 0, 1 }, .evntsel = { 0x0056, 0x0016 }),
	/* reserved bits are tested before the CPL field */
	BAD("p5", PMU_EPERM, "p5.evntsel_reserved", 0, .nractrs = 1,
	    .evntsel = { 0x0200 }),
	BAD("p5", PMU_EINVAL, "p5.pmc_map", 0, .nractrs = 1,
	    .pmc_map = { 2 }, .evntsel = { 0x0056 }),
	BAD("p5", PMU_EINVAL, "p5.pmc_map", 1, .nractrs = 2,
	    .pmc_map = { 1, 1 }, .evntsel = { 0x0056, 0x0056 }),
	OK("wcc6", 0x101, .nractrs = 1, .evntsel = { 0x0016 }), /* no CPL rule */
	BAD("wcc6", PMU_EPERM, "p5.evntsel_reserved", 0, .nractrs = 1,
	    .evntsel = { 0x0100 }),
	BAD("wcc6", PMU_EINVAL, "c6.tsc_on", -1, .tsc_on = 1),
	BAD("wcc6", PMU_EINVAL, "c6.tsc_on", -1, .tsc_on = 2),
	/* tsc_on is tested before the counter count on C6 */
	BAD("wcc6", PMU_EINVAL, "c6.tsc_on", -1, .tsc_on = 1, .nractrs = 5),
	/* duplicates are found through a non-zero CESR half: a zero half
	 * (possible only without the CPL rule) does not mark its counter */
	OK("wcc6", 0x202, .nractrs = 2, .pmc_map = { 0, 0 },
	   .evntsel = { 0x0000, 0x0016 }),

	/* --- P6 family --- */
	OK("p6", 0x80000202, .tsc_on = 1, .nractrs = 2, .pmc_map = { 0, 1 },
	   .evntsel = { P6_EN_USR, P6_USR }),
	OK("pii", 0x80000202, .tsc_on = 1, .nractrs = 2, .pmc_map = { 1, 0 },
	   .evntsel = { P6_USR, P6_EN_USR }),
	OK("piii", 0x101, .nractrs = 1, .pmc_map = { 1 }, .evntsel = { P6_USR }),
	BAD("p6", PMU_EPERM, "p6.enable_bit_other", 1, .nractrs = 2,
	    .pmc_map = { 0, 1 }, .evntsel = { P6_EN_USR, P6_EN_USR }),
	BAD("pentm", PMU_EINVAL, "p6.enable_bit_pmc0", 0, .nractrs = 1,
	    .pmc_map = { 0 }, .evntsel = { P6_USR }),
	BAD("p6", PMU_EPERM, "p6.evntsel_reserved", 0, .nractrs = 1,
	    .evntsel = { P6_EN_USR | 0x00200000 }),     /* bit 21 */
	BAD("p6", PMU_EPERM, "p6.evntsel_reserved", 0, .nractrs = 1,
	    .evntsel = { P6_EN_USR | 0x00080000 }),     /* bit 19 */
	/* reserved (EPERM) is tested before the enable bit (EINVAL) */
	BAD("p6", PMU_EPERM, "p6.evntsel_reserved", 0, .nractrs = 1,
	    .evntsel = { P6_USR | 0x00200000 }),
	BAD("p6", PMU_EINVAL, "p6.cpl_zero", 0, .nractrs = 1,
	    .evntsel = { 0x004000C0 }),
	BAD("p6", PMU_EINVAL, "p6.int_amode", 0, .nractrs = 1,
	    .evntsel = { P6_EN_USR | P6_INT }),
	BAD("p6", PMU_EINVAL, "p6.int_imode", 0, .nrictrs = 1,
	    .evntsel = { P6_EN_USR }, .ireset = { -100 }),
	OK("p6", 0x80010100, .tsc_on = 1, .nrictrs = 1,
	   .evntsel = { P6_EN_USR | P6_INT }, .ireset = { -100 }),
	BAD("p6", PMU_EINVAL, "x86.ireset", 0, .nrictrs = 1,
	    .evntsel = { P6_EN_USR | P6_INT }, .ireset = { 0 }),
	BAD("p6", PMU_EINVAL, "x86.ireset", 1, .nractrs = 1, .nrictrs = 1,
	    .pmc_map = { 0, 1 }, .evntsel = { P6_EN_USR, P6_USR | P6_INT },
	    .ireset = { 0, 0x7fffffff }),
	/* x86: check_control before check_ireset */
	BAD("p6", PMU_EINVAL, "p6.int_imode", 0, .nrictrs = 1,
	    .evntsel = { P6_EN_USR }, .ireset = { 5 }),
	BAD("p6", PMU_EPERM, "p6.evntsel_reserved", 0, .nrictrs = 1,
	    .evntsel = { P6_EN_USR | P6_INT | 0x00200000 }, .ireset = { 5 }),
	BAD("p6", PMU_EINVAL, "p6.nrctrs", -1, .nractrs = 3),
	BAD("p6", PMU_EINVAL, "p6.nrctrs", -1, .nractrs = 1, .nrictrs = 2),
	BAD("p6", PMU_EINVAL, "p6.nrctrs", -1, .nractrs = 0xFFFFFFFFu,
	    .nrictrs = 1),                      /* sum wraps to 0 */
	BAD("p6", PMU_EINVAL, "p6.pmc_map", 0, .nractrs = 1, .pmc_map = { 2 },
	    .evntsel = { P6_USR }),
	BAD("p6", PMU_EINVAL, "p6.pmc_map", 1, .nractrs = 2, .pmc_map = { 0, 0 },
	    .evntsel = { P6_EN_USR, P6_EN_USR }),

	/* --- K7 / K8 / Fam10h --- */
	OK("k7", 0x80000404, .tsc_on = 1, .nractrs = 4,
	   .pmc_map = { 0, 1, 2, 3 }, .evntsel = { K7_SEL, K7_SEL, K7_SEL, K7_SEL }),
	BAD("k8", PMU_EINVAL, "k7.enable_bit", 2, .nractrs = 3,
	    .pmc_map = { 0, 1, 2 }, .evntsel = { K7_SEL, K7_SEL, 0x000300C0 }),
	BAD("k8c", PMU_EINVAL, "p6.nrctrs", -1, .nractrs = 5),
	BAD("fam10h", PMU_EINVAL, "p6.pmc_map", 0, .nractrs = 1,
	    .pmc_map = { 4 }, .evntsel = { K7_SEL }),
	OK("k8", 0x80010201, .tsc_on = 1, .nractrs = 1, .nrictrs = 1,
	   .pmc_map = { 3, 1 }, .evntsel = { K7_SEL, K7_SEL | P6_INT },
	   .ireset = { 0, -1 }),
	BAD("fam10h", PMU_EINVAL, "p6.int_amode", 0, .nractrs = 1,
	    .pmc_map = { 2 }, .evntsel = { K7_SEL | P6_INT }),
	BAD("k7", PMU_EPERM, "p6.evntsel_reserved", 0, .nractrs = 1,
	    .evntsel = { K7_SEL | 0x00080000 }),

	/* --- VIA C3 --- */
	OK("vc3", 0x80000101, .tsc_on = 1, .nractrs = 1, .pmc_map = { 1 },
	   .evntsel = { 0x1C0 }),
	BAD("vc3", PMU_EINVAL, "vc3.pmc_map", 0, .nractrs = 1, .pmc_map = { 0 },
	    .evntsel = { 0xC0 }),
	BAD("vc3", PMU_EPERM, "vc3.evntsel_reserved", 0, .nractrs = 1,
	    .pmc_map = { 1 }, .evntsel = { 0x200 }),
	BAD("vc3", PMU_EINVAL, "vc3.nrctrs", -1, .nractrs = 2),

	/* --- Pentium 4 --- */
	OK("p4", 0x80000101, .tsc_on = 1, .nractrs = 1, .pmc_map = { FAST(12) },
	   .evntsel = { CCCR_CRU }, .p4 = { .escr = { ESCR_IR } }),
	OK("p4m3", 0x80000101, .tsc_on = 1, .nractrs = 1, .pmc_map = { 12 },
	   .evntsel = { CCCR_CRU }, .p4 = { .escr = { ESCR_IR } }),
	OK("p4", 0x101, .nractrs = 1, .pmc_map = { 12 }, .evntsel = { CCCR_SEL(0) },
	   .p4 = { .escr = { ESCR_IR } }),       /* IQ_ESCR0 on model 1 */
	OK("p4m2", 0x101, .nractrs = 1, .pmc_map = { 14 },
	   .evntsel = { CCCR_SEL(0) }, .p4 = { .escr = { ESCR_IR } }),
	BAD("p4m3", PMU_EINVAL, "p4.iq_escr", 0, .nractrs = 1, .pmc_map = { 12 },
	    .evntsel = { CCCR_SEL(0) }, .p4 = { .escr = { ESCR_IR } }),
	BAD("p4", PMU_EPERM, "p4.cccr_reserved", 0, .nractrs = 1,
	    .pmc_map = { 12 }, .evntsel = { CCCR_CRU | 1 }),
	BAD("p4", PMU_EPERM, "p4.cccr_reserved", 0, .nractrs = 1,
	    .pmc_map = { 12 }, .evntsel = { CCCR_CRU | 0x80000000u }),  /* OVF */
	BAD("p4", PMU_EPERM, "p4.cccr_reserved", 0, .nrictrs = 1,
	    .pmc_map = { 12 }, .evntsel = { CCCR_CRU | OVF_PMI | 0x08000000u },
	    .ireset = { -5 }),                  /* OVF_PMI_T1 */
	BAD("p4", PMU_EPERM, "p4.extended_cascade_model", 0, .nractrs = 1,
	    .pmc_map = { 12 }, .evntsel = { CCCR_CRU | 0x800 }),
	OK("p4m2", 0x101, .nractrs = 1, .pmc_map = { 12 },
	   .evntsel = { CCCR_CRU | 0x800 }, .p4 = { .escr = { ESCR_IR } }),
	OK("p4m2", 0x101, .nractrs = 1, .pmc_map = { 17 },
	   .evntsel = { CCCR_CRU | 0x800 }, .p4 = { .escr = { ESCR_IR } }),
	BAD("p4m2", PMU_EPERM, "p4.extended_cascade_counter", 0, .nractrs = 1,
	    .pmc_map = { 13 }, .evntsel = { CCCR_CRU | 0x800 }),
	/* seed 000: "only permitted on P4 models >= 2, and for counters 12
	 * and 15-17" (perfctr 2.6.9 took model 3 out; the seed's text wins) */
	OK("p4m3", 0x101, .nractrs = 1, .pmc_map = { 12 },
	   .evntsel = { CCCR_CRU | 0x800 }, .p4 = { .escr = { ESCR_IR } }),
	OK("p4m3", 0x101, .nractrs = 1, .pmc_map = { 16 },
	   .evntsel = { CCCR_CRU | 0x800 }, .p4 = { .escr = { ESCR_IR } }),
	BAD("p4m3", PMU_EPERM, "p4.extended_cascade_counter", 0, .nractrs = 1,
	    .pmc_map = { 14 }, .evntsel = { CCCR_CRU | 0x800 }),
	BAD("p4", PMU_EINVAL, "p4.active_thread", 0, .nractrs = 1,
	    .pmc_map = { 12 }, .evntsel = { 0x00019000 }),
	OK("p4ht", 0x101, .nractrs = 1, .pmc_map = { 12 },
	   .evntsel = { 0x00019000 }, .p4 = { .escr = { ESCR_IR } }),
	BAD("p4", PMU_EINVAL, "p4.cccr_enable", 0, .nractrs = 1,
	    .pmc_map = { 12 }, .evntsel = { 0x00038000 }),
	OK("p4", 0x101, .nractrs = 1, .pmc_map = { 12 },
	   .evntsel = { 0x40038000 }, .p4 = { .escr = { ESCR_IR } }), /* CASCADE */
	BAD("p4", PMU_EINVAL, "p4.ovf_pmi_amode", 0, .nractrs = 1,
	    .pmc_map = { 12 }, .evntsel = { CCCR_CRU | OVF_PMI }),
	BAD("p4", PMU_EINVAL, "p4.ovf_pmi_imode", 0, .nrictrs = 1,
	    .pmc_map = { 12 }, .evntsel = { CCCR_CRU }, .ireset = { -5 }),
	OK("p4", 0x80010100, .tsc_on = 1, .nrictrs = 1, .pmc_map = { 12 },
	   .evntsel = { CCCR_CRU | OVF_PMI }, .p4 = { .escr = { ESCR_IR } },
	   .ireset = { -5 }),
	BAD("p4", PMU_EINVAL, "p4.force_ovf_ireset", 0, .nrictrs = 1,
	    .pmc_map = { 12 }, .evntsel = { CCCR_CRU | OVF_PMI | 0x02000000 },
	    .ireset = { -5 }),
	OK("p4", 0x10100, .nrictrs = 1, .pmc_map = { 12 },
	   .evntsel = { CCCR_CRU | OVF_PMI | 0x02000000 },
	   .p4 = { .escr = { ESCR_IR } }, .ireset = { -1 }),
	BAD("p4", PMU_EPERM, "p4.escr_reserved", 0, .nractrs = 1,
	    .pmc_map = { 12 }, .evntsel = { CCCR_CRU },
	    .p4 = { .escr = { ESCR_IR | 0x80000000u } }),
	BAD("p4", PMU_EINVAL, "p4.escr_cpl_t1", 0, .nractrs = 1,
	    .pmc_map = { 12 }, .evntsel = { CCCR_CRU },
	    .p4 = { .escr = { ESCR_IR | 1 } }),
	BAD("p4ht", PMU_EINVAL, "p4.escr_cpl_t1", 0, .nractrs = 1,
	    .pmc_map = { 12 }, .evntsel = { CCCR_CRU },
	    .p4 = { .escr = { ESCR_IR | 2 } }),
	OK("p4ht", 0x101, .nractrs = 1, .pmc_map = { 12 }, .evntsel = { CCCR_CRU },
	   .p4 = { .escr = { ESCR_IR | 2 } }, .is_global = 1),
	BAD("p4", PMU_EINVAL, "p4.escr_cpl_t1", 0, .nractrs = 1,
	    .pmc_map = { 12 }, .evntsel = { CCCR_CRU },
	    .p4 = { .escr = { ESCR_IR | 2 } }, .is_global = 1),
	BAD("p4", PMU_EINVAL, "p4.escr_select", 0, .nractrs = 1,
	    .pmc_map = { 12 }, .evntsel = { CCCR_SEL(7) }),
	BAD("p4", PMU_EINVAL, "p4.escr_select", 0, .nractrs = 1,
	    .pmc_map = { 14 }, .evntsel = { CCCR_SEL(3) }),   /* no SSU_ESCR1 */
	OK("p4", 0x101, .nractrs = 1, .pmc_map = { 16 }, .evntsel = { CCCR_SEL(3) }),
	BAD("p4", PMU_EINVAL, "p4.escr_select", 0, .nractrs = 1,
	    .pmc_map = { 4 }, .evntsel = { CCCR_SEL(3) }),
	BAD("p4", PMU_EINVAL, "p4.escr_select", 0, .nractrs = 1,
	    .pmc_map = { 8 }, .evntsel = { CCCR_SEL(4) }),
	OK("p4", 0x101, .nractrs = 1, .pmc_map = { 8 }, .evntsel = { CCCR_SEL(5) }),
	BAD("p4", PMU_EINVAL, "p4.pmc_map", 0, .nractrs = 1, .pmc_map = { 18 }),
	BAD("p4", PMU_EINVAL, "p4.pmc_map", 1, .nractrs = 2,
	    .pmc_map = { FAST(12), 12 }, .evntsel = { CCCR_CRU, CCCR_CRU }),
	BAD("p4", PMU_EINVAL, "p4.nrctrs", -1, .nractrs = 19),
	/* CCCR checks (EINVAL here) come before ESCR checks (EPERM) */
	BAD("p4", PMU_EINVAL, "p4.cccr_enable", 0, .nractrs = 1,
	    .pmc_map = { 12 }, .evntsel = { 0x00038000 },
	    .p4 = { .escr = { 0x80000000u } }),
	/* replay tagging */
	OK("p4", 0x101, .nractrs = 1, .pmc_map = { 12 }, .evntsel = { CCCR_CRU },
	   .p4 = { .escr = { ESCR_IR }, .pebs_enable = 0x01000001,
		   .pebs_matrix_vert = 1 }),
	BAD("p4", PMU_EPERM, "p4.pebs_no_counters", -1,
	    .p4 = { .pebs_enable = 0x01000001, .pebs_matrix_vert = 1 }),
	BAD("p4", PMU_EPERM, "p4.pebs_reserved", -1, .nractrs = 1,
	    .pmc_map = { 12 }, .evntsel = { CCCR_CRU },
	    .p4 = { .pebs_enable = 0x03000001, .pebs_matrix_vert = 1 }),
	BAD("p4", PMU_EINVAL, "p4.pebs_uop_tag", -1, .nractrs = 1,
	    .pmc_map = { 12 }, .evntsel = { CCCR_CRU },
	    .p4 = { .pebs_enable = 0x00000600, .pebs_matrix_vert = 1 }),
	BAD("p4", PMU_EINVAL, "p4.pebs_metric", -1, .nractrs = 1,
	    .pmc_map = { 12 }, .evntsel = { CCCR_CRU },
	    .p4 = { .pebs_enable = 0x01000000, .pebs_matrix_vert = 1 }),
	BAD("p4", PMU_EPERM, "p4.pmv_reserved", -1, .nractrs = 1,
	    .pmc_map = { 12 }, .evntsel = { CCCR_CRU },
	    .p4 = { .pebs_enable = 0x01000004, .pebs_matrix_vert = 5 }),
	BAD("p4", PMU_EINVAL, "p4.pmv_metric", -1, .nractrs = 1,
	    .pmc_map = { 12 }, .evntsel = { CCCR_CRU },
	    .p4 = { .pebs_enable = 0x01000200 }),
	BAD("p4", PMU_EPERM, "p4.pmv_without_pebs", -1,
	    .p4 = { .pebs_matrix_vert = 2 }),

	/* --- PowerPC --- */
	OK("ppc750", 0x80000202, .tsc_on = 1, .nractrs = 2, .pmc_map = { 0, 1 },
	   .evntsel = { 127, 63 }),
	BAD("ppc750", PMU_EINVAL, "ppc.event_range", 0, .nractrs = 1,
	    .pmc_map = { 0 }, .evntsel = { 128 }),
	BAD("ppc750", PMU_EINVAL, "ppc.event_range", 0, .nractrs = 1,
	    .pmc_map = { 1 }, .evntsel = { 64 }),
	BAD("ppc604e", PMU_EINVAL, "ppc.event_range", 1, .nractrs = 2,
	    .pmc_map = { 0, 2 }, .evntsel = { 1, 32 }),
	OK("ppc604e", 0x202, .nractrs = 2, .pmc_map = { 0, 3 }, .evntsel = { 1, 31 }),
	BAD("ppc7450", PMU_EINVAL, "ppc.event_range", 0, .nractrs = 1,
	    .pmc_map = { 4 }, .evntsel = { 32 }),
	OK("ppc7450", 0x101, .nractrs = 1, .pmc_map = { 5 }, .evntsel = { 63 }),
	BAD("ppc604", PMU_EINVAL, "ppc.nrctrs", -1, .nractrs = 3),
	BAD("ppc604", PMU_EINVAL, "ppc.pmc_map", 0, .nractrs = 1, .pmc_map = { 2 }),
	BAD("ppc750", PMU_EINVAL, "ppc.pmc_map", 1, .nractrs = 2,
	    .pmc_map = { 3, 3 }),
	BAD("ppc750", PMU_EINVAL, "ppc.mmcr2_nonzero", -1,
	    .ppc = { .mmcr2 = 0x80000000u }),
	OK("ppc7400", 0, .ppc = { .mmcr2 = 0x80000000u }),
	BAD("ppc7400", PMU_EINVAL, "ppc.mmcr2_reserved", -1,
	    .ppc = { .mmcr2 = 0x40000000u }),
	BAD("ppc7450", PMU_EINVAL, "ppc.mmcr2_reserved", -1,
	    .ppc = { .mmcr2 = 0x00000001u }),
	BAD("ppc750", PMU_EINVAL, "ppc.mmcr0_pmcsel", -1,
	    .ppc = { .mmcr0 = 0x00000001u }),
	BAD("ppc750", PMU_EINVAL, "ppc.mmcr0_pmcsel", -1,
	    .ppc = { .mmcr0 = 0x00001000u }),
	OK("ppc750", 0x80000000, .tsc_on = 1, .ppc = { .mmcr0 = 0x80000000u }),
	BAD("ppc750", PMU_EINVAL, "ppc.pmxe_without_imode", -1, .nractrs = 1,
	    .ppc = { .mmcr0 = 0x04000000u }),
	OK("ppc750", 0x10100, .nrictrs = 1, .ireset = { 0x7FFFFF00 }),
	OK("ppc750", 0x10100, .nrictrs = 1, .ireset = { 0 },
	   .ppc = { .mmcr0 = 0x04000000u }),
	BAD("ppc750", PMU_EINVAL, "ppc.ireset", 0, .nrictrs = 1,
	    .ireset = { -1 }),
	/* PPC: check_ireset runs before check_control */
	BAD("ppc750", PMU_EINVAL, "ppc.ireset", 0, .nrictrs = 1,
	    .evntsel = { 200 }, .ireset = { -1 }),
	BAD("ppc750", PMU_EINVAL, "ppc.imode_shared_enable", -1, .nractrs = 1,
	    .nrictrs = 1, .pmc_map = { 2, 1 }, .ireset = { 0, 10 }),
	OK("ppc750", 0x10201, .nractrs = 1, .nrictrs = 1, .pmc_map = { 1, 0 },
	   .ireset = { 0, 10 }),
	OK("ppc750", 0x20200, .nractrs = 0, .nrictrs = 2, .pmc_map = { 1, 2 },
	   .ireset = { 1, 2 }),
	/* 74xx: FCECE/TRIGGER/PMXE set the MMCR0 quirk bit 30 */
	OK("ppc7450", 0xC0000101, .tsc_on = 1, .nractrs = 1,
	   .ppc = { .mmcr0 = 0x02000000u }),
	OK("ppc7400", 0x40000101, .nractrs = 1, .ppc = { .mmcr0 = 0x00002000u }),
	OK("ppc750", 0x80000101, .tsc_on = 1, .nractrs = 1,
	   .ppc = { .mmcr0 = 0x02000000u }),
	OK("ppc7450", 0x40010100, .nrictrs = 1, .ireset = { 5 }),

	/* --- XScale --- */
	OK("xscale1", 0x80000202, .tsc_on = 1, .nractrs = 2, .pmc_map = { 0, 1 },
	   .evntsel = { 0x07, 0x00 }),
	BAD("xscale1", PMU_EINVAL, "xscale.event", 0, .nractrs = 1,
	    .evntsel = { 0x0E }),
	/* seed 004's 80200 statistics include the bus control unit's and
	 * RMW events (0x10-0x12, 0x14-0x16); 0x13 is none of them */
	OK("xscale1", 0x80000202, .tsc_on = 1, .nractrs = 2,
	   .pmc_map = { 0, 1 }, .evntsel = { 0x10, 0x16 }),
	OK("xscale1", 0x101, .nractrs = 1, .evntsel = { 0x14 }),
	BAD("xscale1", PMU_EINVAL, "xscale.event", 0, .nractrs = 1,
	    .evntsel = { 0x13 }),
	BAD("xscale1", PMU_EINVAL, "xscale.event", 0, .nractrs = 1,
	    .evntsel = { 0x17 }),
	/* the PXA cores have no such bus unit */
	BAD("xscale2", PMU_EINVAL, "xscale.event", 0, .nractrs = 1,
	    .evntsel = { 0x10 }),
	BAD("xscale2", PMU_EINVAL, "xscale.event", 1, .nractrs = 2,
	    .pmc_map = { 0, 1 }, .evntsel = { 0x0D, 0xFF }),
	BAD("xscale1", PMU_EINVAL, "xscale.nrctrs", -1, .nractrs = 3),
	OK("xscale2", 0x404, .nractrs = 4, .pmc_map = { 3, 2, 1, 0 }),
	BAD("xscale2", PMU_EINVAL, "xscale.pmc_map", 0, .nractrs = 1,
	    .pmc_map = { 4 }),
	BAD("xscale1", PMU_EINVAL, "xscale.pmc_map", 1, .nractrs = 2,
	    .pmc_map = { 1, 1 }),
	BAD("xscale1", PMU_EINVAL, "xscale.ireset", 0, .nrictrs = 1,
	    .ireset = { 0 }),
	/* ARM: check_ireset runs before check_control */
	BAD("xscale1", PMU_EINVAL, "xscale.ireset", 0, .nrictrs = 1,
	    .evntsel = { 0x20 }, .ireset = { 1 }),
	OK("xscale1", 0x10201, .nractrs = 1, .nrictrs = 1, .pmc_map = { 1, 0 },
	   .evntsel = { 0x0A, 0x0B }, .ireset = { 0, -1000 }),
};

static void test_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		const struct pmu_hwmodel *m = pmu__hwmodel_find(r->model);
		struct pmu_control_result res;
		int rc;

		if (!m)
			fail_msg("line %d: no model %s", r->line, r->model);
		rc = pmu__control_check(m, &r->c, r->c.is_global != 0, &res);
		if (rc != r->err || res.err != rc || strcmp(res.rule, r->rule) ||
		    res.counter != r->counter || res.cstatus != r->cstatus)
			fail_msg("line %d (%s): got %d %s counter %d cstatus 0x%x; "
				 "want %d %s counter %d cstatus 0x%x", r->line,
				 r->model, rc, res.rule, res.counter, res.cstatus,
				 r->err, r->rule, r->counter, r->cstatus);
		assert_non_null(res.message);
	}
}

/* Images a simulator programs: (model, control) -> registers. */
struct image_row {
	int line;
	const char *model;
	struct pmu_control c;
	uint32_t p5_cesr, mmcr0, mmcr1, mmcr2, pmnc, evtsel, inten;
};

#define IMG(m, ...) .line = __LINE__, .model = (m), .c = { __VA_ARGS__ }

static const struct image_row images[] = {
	/* CESR = half[pmc1] << 16 | half[pmc0] */
	{ IMG("p5", .nractrs = 2, .pmc_map = { 0, 1 }, .evntsel = { 0x56, 0xD6 }),
	  .p5_cesr = 0x00D60056 },
	{ IMG("mii", .nractrs = 1, .pmc_map = { 1 }, .evntsel = { 0x4C1 }),
	  .p5_cesr = 0x04C10000 },
	/* MMCR0 = mmcr0 | PMC1 << 6 | PMC2; MMCR1 = PMC3 << 27 | PMC4 << 22 ... */
	{ IMG("ppc750", .nractrs = 2, .pmc_map = { 0, 1 }, .evntsel = { 127, 63 }),
	  .mmcr0 = 0x1FFF },
	{ IMG("ppc750", .nractrs = 2, .pmc_map = { 2, 3 }, .evntsel = { 31, 1 },
	      .ppc = { .mmcr0 = 0x80000000u }),
	  .mmcr0 = 0x80000000u, .mmcr1 = 0xF8400000u },
	{ IMG("ppc7450", .nractrs = 2, .pmc_map = { 4, 5 }, .evntsel = { 3, 5 },
	      .ppc = { .mmcr2 = 0x80000000u }),
	  .mmcr1 = 0x00062800u, .mmcr2 = 0x80000000u },
	/* i-mode PMC1: PMXE 0x04000000 | PMC1CE 0x8000 */
	{ IMG("ppc750", .nrictrs = 1, .evntsel = { 2 }, .ireset = { 100 }),
	  .mmcr0 = 0x04008080u },
	/* i-mode PMC2: PMXE | PMCjCE 0x4000 */
	{ IMG("ppc604", .nrictrs = 1, .pmc_map = { 1 }, .evntsel = { 2 },
	      .ireset = { 100 }),
	  .mmcr0 = 0x04004002u },
	/* XScale1 PMNC = evt1 << 20 | evt0 << 12 | imask << 4 | E */
	{ IMG("xscale1", .nractrs = 1, .nrictrs = 1, .pmc_map = { 1, 0 },
	      .evntsel = { 0x0A, 0x0B }, .ireset = { 0, -1000 }),
	  .pmnc = 0x00A0B011 },
	{ IMG("xscale1", .nractrs = 1, .evntsel = { 0x07 }),
	  .pmnc = 0x0FF07001 },             /* unused PMN1 idles on 0xFF */
	/* XScale2: EVTSEL byte per PMN, INTEN = imask << 1 */
	{ IMG("xscale2", .nractrs = 2, .pmc_map = { 3, 0 }, .evntsel = { 5, 7 }),
	  .pmnc = 1, .evtsel = 0x05FFFF07 },
	{ IMG("xscale2", .nractrs = 1, .nrictrs = 1, .pmc_map = { 0, 2 },
	      .evntsel = { 1, 2 }, .ireset = { 0, -2 }),
	  .pmnc = 1, .evtsel = 0xFF02FF01, .inten = 0x08 },
};

static void test_images(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(images) / sizeof(images[0]); i++) {
		const struct image_row *r = &images[i];
		struct pmu_control_result res;

		if (pmu__control_check(pmu__hwmodel_find(r->model), &r->c, false,
				       &res))
			fail_msg("line %d: rejected by %s", r->line, res.rule);
		if (res.p5_cesr != r->p5_cesr || res.ppc_mmcr[0] != r->mmcr0 ||
		    res.ppc_mmcr[1] != r->mmcr1 || res.ppc_mmcr[2] != r->mmcr2 ||
		    res.xsc_pmnc != r->pmnc || res.xsc_evtsel != r->evtsel ||
		    res.xsc_inten != r->inten)
			fail_msg("line %d: cesr %x mmcr %x/%x/%x pmnc %x evtsel %x "
				 "inten %x", r->line, res.p5_cesr, res.ppc_mmcr[0],
				 res.ppc_mmcr[1], res.ppc_mmcr[2], res.xsc_pmnc,
				 res.xsc_evtsel, res.xsc_inten);
	}
}

/* Per-counter derived data: hardware counter, raw map, ESCR, start. */
static void test_per_counter(void **state)
{
	struct pmu_control c = {
		.tsc_on = 1, .nractrs = 2, .nrictrs = 1,
		.pmc_map = { FAST(12), 0, 16 },
		.evntsel = { CCCR_CRU, CCCR_SEL(7), CCCR_SEL(1) | OVF_PMI },
		.p4 = { .escr = { ESCR_IR, 0, 0 } },
		.ireset = { 0, 0, -77 },
	};
	struct pmu_control_result r;

	(void)state;
	assert_int_equal(pmu__control_check(pmu__hwmodel_find("p4"), &c, false, &r), 0);
	assert_int_equal(r.hw_ctr[0], 12);
	assert_int_equal(r.map[0], FAST(12));
	assert_int_equal(r.p4_escr_msr[0], 0x3B8);  /* CRU_ESCR0 */
	assert_int_equal(r.p4_escr_msr[1], 0x3A0);  /* BSU_ESCR0 */
	assert_int_equal(r.p4_escr_msr[2], 0x3CA);  /* ALF_ESCR0 (16 as 13) */
	assert_int_equal(r.start[2], -77);
	assert_int_equal(r.start[0], 0);
	assert_int_equal(r.cstatus, 0x80010302);
}

static void test_cstatus_helpers(void **state)
{
	uint32_t cs = pmu__mk_cstatus(1, 2, 3);

	(void)state;
	assert_int_equal(cs, 0x80030502);
	assert_true(pmu__cstatus_has_tsc(cs));
	assert_int_equal(pmu__cstatus_nractrs(cs), 2);
	assert_int_equal(pmu__cstatus_nrctrs(cs), 5);
	assert_int_equal(pmu__cstatus_has_ictrs(cs), 0x30000);  /* masked value */
	assert_int_equal(pmu__cstatus_enabled(cs), cs);
	assert_int_equal(pmu__mk_cstatus(2, 1, 0), 0x101);
	assert_false(pmu__cstatus_has_tsc(pmu__mk_cstatus(2, 0, 0)));
	assert_int_equal(pmu__cstatus_enabled(pmu__mk_cstatus(2, 0, 0)), 0);
	assert_int_equal(pmu__cstatus_has_ictrs(pmu__mk_cstatus(1, 4, 0)), 0);
}

/* A rejected control leaves cstatus 0 even after a partial image. */
static void test_failure_stops(void **state)
{
	struct pmu_control c = {
		.tsc_on = 1, .nractrs = 2, .pmc_map = { 0, 1 },
		.evntsel = { P6_EN_USR, P6_EN_USR },
	};
	struct pmu_control_result r;

	(void)state;
	assert_int_equal(pmu__control_check(pmu__hwmodel_find("p6"), &c, false, &r),
			 -PMU_EPERM);
	assert_int_equal(r.cstatus, 0);
	assert_string_equal(r.field, "evntsel");
	assert_int_equal(r.value, P6_EN_USR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_images),
		cmocka_unit_test(test_per_counter),
		cmocka_unit_test(test_cstatus_helpers),
		cmocka_unit_test(test_failure_stops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
