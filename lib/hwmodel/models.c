/* SPDX-License-Identifier: MIT */
/*
 * The model table.  Adding a CPU is adding an entry.  Entries are kept in
 * strcmp order of their names so lookup is a binary search; the unit
 * tests check the order.
 */
#include "hwmodel/desc.h"
#include "hwmodel/fs_util.h"
#include "hwmodel/model.h"

#define DESC(pfx) .pmcs = pmu__##pfx##_pmcs, \
	.nr_pmcs = PMU_FS_ARRAY_SIZE(pmu__##pfx##_pmcs)
#define DESC_D(pfx) .pmds = pmu__##pfx##_pmds, \
	.nr_pmds = PMU_FS_ARRAY_SIZE(pmu__##pfx##_pmds)

#define FEAT_ALL (PMU_FEAT_RDPMC | PMU_FEAT_RDTSC | PMU_FEAT_PCINT)
#define X86_TSC .arch = PMU_ARCH_X86, .ovf_dir = PMU_OVF_NEG_TO_NONNEG, \
	.tsc_kind = PMU_TSC_TSC, .tsc_addr = PMU_MSR_TSC

/* Pentium, Pentium MMX, Cyrix MII, WinChip C6: CESR + two counters. */
#define P5_REGS .nr_ctrs = 2, .nr_hw_ctrs = 2, .ctr_width = 40, \
	.ctr_addr = { 0x12, 0x13 }, .ctl_addr = { 0x11, 0x11 }, \
	.desc_name = "Intel P5", DESC_D(p5)
#define P5_CHECK(mask, cpl, notsc) .check = { .family = PMU_CHECK_P5_LIKE, \
	.p5 = { .allowed_mask = (mask), .cpl_check = (cpl), \
		.tsc_forbidden = (notsc) } }

/* PPro/PII/PIII/Pentium M. */
#define P6(nm, type, text, extra) { .name = nm, .desc = text, X86_TSC, \
	.catalog = nm, \
	.cpu_type = type, .features = FEAT_ALL, .nr_ctrs = 2, .nr_hw_ctrs = 2, \
	.ctr_width = 40, .emul_width = 31, \
	.check = { .family = PMU_CHECK_P6_LIKE, .p6 = { .max_ctrs = 2 } }, \
	.quirks = PMU_QUIRK_P6_GLOBAL_ENABLE_EVNTSEL0 | \
		  PMU_QUIRK_P6_WRITE_SIGN_EXTEND_31 | (extra), \
	.ctr_addr = { 0xC1, 0xC2 }, .ctl_addr = { 0x186, 0x187 }, \
	.desc_name = "Intel P6 processor family", DESC(p6), DESC_D(p6) }

/* K7/K8/Fam10h: four symmetric counters. */
#define K7_BASE X86_TSC, .features = FEAT_ALL, .nr_ctrs = 4, .nr_hw_ctrs = 4, \
	.ctr_width = 48, .emul_width = 47, \
	.check = { .family = PMU_CHECK_P6_LIKE, \
		   .p6 = { .max_ctrs = 4, .k7_enable = true } }, \
	.ctr_addr = { 0xC0010004, 0xC0010005, 0xC0010006, 0xC0010007 }, \
	.ctl_addr = { 0xC0010000, 0xC0010001, 0xC0010002, 0xC0010003 }
#define K8(nm, cat, type, text) { .name = nm, .desc = text, K7_BASE, \
	.catalog = cat, \
	.cpu_type = type, .desc_name = "AMD64 K8", DESC(k8), DESC_D(k8) }

/* Pentium 4: 18 counters, CCCR per counter, ESCRs shared by groups. */
#define P4_SEQ(base) { base, base + 1, base + 2, base + 3, base + 4, \
	base + 5, base + 6, base + 7, base + 8, base + 9, base + 10, base + 11, \
	base + 12, base + 13, base + 14, base + 15, base + 16, base + 17 }
#define P4_BASE X86_TSC, .features = FEAT_ALL, .nr_ctrs = 18, \
	.nr_hw_ctrs = 18, .ctr_width = 40, .emul_width = 39, \
	.ctr_addr = P4_SEQ(0x300), .ctl_addr = P4_SEQ(0x360), \
	.pmcs = pmu__p4_pmcs, .pmds = pmu__p4_pmds
#define P4_QUIRKS (PMU_QUIRK_P4_NEEDS_ENABLE_AND_ACTIVE_THREAD | \
	PMU_QUIRK_LVTPC_AUTOMASK)
#define P4_CHECK(ht_, model_) .check = { .family = PMU_CHECK_P4, \
	.p4 = { .ht = (ht_), .model = (model_) } }

#define PPC_BASE .arch = PMU_ARCH_PPC, .ovf_dir = PMU_OVF_NONNEG_TO_NEG, \
	.tsc_kind = PMU_TSC_TBL, .tsc_addr = PMU_SPR_TBL, .ctr_width = 32, \
	.features = FEAT_ALL
#define PPC_CHECK(n, rule, x74) .check = { .family = PMU_CHECK_PPC, \
	.ppc = { .nr_pmcs = (n), .mmcr2 = (rule), .is_74xx = (x74) } }
#define PPC_CTRS { PMU_SPR_PMC1, PMU_SPR_PMC2, PMU_SPR_PMC3, PMU_SPR_PMC4, \
	PMU_SPR_PMC5, PMU_SPR_PMC6 }
#define PPC_CTLS { PMU_SPR_MMCR0, PMU_SPR_MMCR0, PMU_SPR_MMCR1, \
	PMU_SPR_MMCR1, PMU_SPR_MMCR1, PMU_SPR_MMCR1 }
#define PPC_QUIRKS (PMU_QUIRK_PPC_MMCR0_FREEZE | PMU_QUIRK_PPC_PMXE_CLEARED_ON_PMI)

#define XSC_BASE .arch = PMU_ARCH_ARM, .ovf_dir = PMU_OVF_NEG_TO_NONNEG, \
	.tsc_kind = PMU_TSC_CCNT, .ctr_width = 32, \
	.features = PMU_FEAT_RDTSC | PMU_FEAT_PCINT

static const struct pmu_hwmodel models[] = {
	{ .name = "fam10h", .desc = "AMD Family 10h (four counters, IBS)",
	  .catalog = "amd64_fam10h_barcelona",
	  K7_BASE, .cpu_type = PMU_CPU_X86_AMD_FAM10H,
	  .quirks = PMU_QUIRK_HAS_IBS,
	  .desc_name = "AMD64 Fam10h", DESC(fam10h), DESC_D(fam10h) },
	{ .name = "generic", .desc = "x86 with a TSC and no usable counters",
	  X86_TSC, .cpu_type = PMU_CPU_X86_GENERIC,
	  .features = PMU_FEAT_RDTSC,
	  .check = { .family = PMU_CHECK_GENERIC }, .desc_name = "generic" },
	K8("k7", "amd64_k7", PMU_CPU_X86_AMD_K7, "AMD K7 Athlon"),
	K8("k8", "amd64_k8_revb", PMU_CPU_X86_AMD_K8,
	   "AMD K8 Athlon 64 / Opteron"),
	K8("k8c", "amd64_k8_revc", PMU_CPU_X86_AMD_K8C,
	   "AMD K8 revision C and later"),
	{ .name = "mii", .desc = "Cyrix 6x86MX / MII",
	  .catalog = "mii", X86_TSC,
	  .cpu_type = PMU_CPU_X86_CYRIX_MII,
	  .features = PMU_FEAT_RDPMC | PMU_FEAT_RDTSC, P5_REGS,
	  P5_CHECK(0x05FF, true, false), .quirks = PMU_QUIRK_P5_CESR_PACKED,
	  DESC(mii) },
	{ .name = "p4", .desc = "Intel Pentium 4 (models 0-1)",
	  .catalog = "netburst", P4_BASE,
	  .cpu_type = PMU_CPU_X86_P4, P4_CHECK(false, 1),
	  .quirks = P4_QUIRKS | PMU_QUIRK_P4_IQ_ESCR,
	  .desc_name = "Intel Pentium 4", .nr_pmcs = PMU_P4_NPMCS,
	  .nr_pmds = PMU_P4_NPMDS },
	{ .name = "p4ht", .desc = "Intel Pentium 4 model 2 with HyperThreading",
	  .catalog = "netburst",
	  P4_BASE, .cpu_type = PMU_CPU_X86_P4M2, P4_CHECK(true, 2),
	  .quirks = P4_QUIRKS | PMU_QUIRK_HT | PMU_QUIRK_P4_IQ_ESCR |
		    PMU_QUIRK_P4_EXTENDED_CASCADE,
	  .desc_name = "Intel Pentium 4 (HyperThreading)",
	  .nr_pmcs = PMU_P4HT_NPMCS, .nr_pmds = PMU_P4HT_NPMDS },
	{ .name = "p4m2", .desc = "Intel Pentium 4 model 2",
	  .catalog = "netburst", P4_BASE,
	  .cpu_type = PMU_CPU_X86_P4M2, P4_CHECK(false, 2),
	  .quirks = P4_QUIRKS | PMU_QUIRK_P4_IQ_ESCR |
		    PMU_QUIRK_P4_EXTENDED_CASCADE,
	  .desc_name = "Intel Pentium 4", .nr_pmcs = PMU_P4_NPMCS,
	  .nr_pmds = PMU_P4_NPMDS },
	{ .name = "p4m3", .desc = "Intel Pentium 4 model 3 and later",
	  .catalog = "netburst_p", P4_BASE,
	  .cpu_type = PMU_CPU_X86_P4M3, P4_CHECK(false, 3),
	  .quirks = P4_QUIRKS | PMU_QUIRK_P4_EXTENDED_CASCADE,
	  .desc_name = "Intel Pentium 4", .nr_pmcs = PMU_P4_NPMCS,
	  .nr_pmds = PMU_P4_NPMDS },
	{ .name = "p5", .desc = "Intel Pentium (P5)",
	  .catalog = "p5", X86_TSC,
	  .cpu_type = PMU_CPU_X86_P5, .features = PMU_FEAT_RDTSC, P5_REGS,
	  P5_CHECK(0x01FF, true, false),
	  .quirks = PMU_QUIRK_P5_CESR_PACKED | PMU_QUIRK_RDMSR_COUNTERS,
	  DESC(p5) },
	{ .name = "p5mmx", .desc = "Intel Pentium MMX",
	  .catalog = "p5mmx", X86_TSC,
	  .cpu_type = PMU_CPU_X86_P5MMX,
	  .features = PMU_FEAT_RDPMC | PMU_FEAT_RDTSC, P5_REGS,
	  P5_CHECK(0x01FF, true, false), .quirks = PMU_QUIRK_P5_CESR_PACKED,
	  DESC(p5) },
	P6("p6", PMU_CPU_X86_P6, "Intel Pentium Pro", 0),
	P6("pentm", PMU_CPU_X86_PENTM, "Intel Pentium M",
	   PMU_QUIRK_LVTPC_AUTOMASK),
	P6("pii", PMU_CPU_X86_PII, "Intel Pentium II", 0),
	P6("piii", PMU_CPU_X86_PIII, "Intel Pentium III", 0),
	{ .name = "ppc604", .desc = "PowerPC 604",
	  .catalog = "ppc604", PPC_BASE,
	  .cpu_type = PMU_CPU_PPC_604, .nr_ctrs = 2, .nr_hw_ctrs = 2,
	  PPC_CHECK(2, PMU_PPC_MMCR2_RULE_ZERO, false),
	  .quirks = PMU_QUIRK_PPC_MMCR0_FREEZE, .ctr_addr = PPC_CTRS,
	  .ctl_addr = PPC_CTLS, .desc_name = "PowerPC 604",
	  DESC(ppc604), DESC_D(ppc604) },
	{ .name = "ppc604e", .desc = "PowerPC 604e",
	  .catalog = "ppc604e", PPC_BASE,
	  .cpu_type = PMU_CPU_PPC_604E, .nr_ctrs = 4, .nr_hw_ctrs = 4,
	  PPC_CHECK(4, PMU_PPC_MMCR2_RULE_ZERO, false),
	  .quirks = PPC_QUIRKS, .ctr_addr = PPC_CTRS, .ctl_addr = PPC_CTLS,
	  .desc_name = "PowerPC 604e", DESC(ppc604e), DESC_D(ppc604e) },
	{ .name = "ppc7400", .desc = "PowerPC 7400/7410 (G4)",
	  .catalog = "ppc7400", PPC_BASE,
	  .cpu_type = PMU_CPU_PPC_7400, .nr_ctrs = 4, .nr_hw_ctrs = 4,
	  PPC_CHECK(4, PMU_PPC_MMCR2_RULE_THRESHMULT, true),
	  .quirks = PPC_QUIRKS, .ctr_addr = PPC_CTRS, .ctl_addr = PPC_CTLS,
	  .desc_name = "PowerPC 7400", DESC(ppc7400), DESC_D(ppc7400) },
	{ .name = "ppc7450", .desc = "PowerPC 745x (G4+)",
	  .catalog = "ppc7450", PPC_BASE,
	  .cpu_type = PMU_CPU_PPC_7450, .nr_ctrs = 6, .nr_hw_ctrs = 6,
	  PPC_CHECK(6, PMU_PPC_MMCR2_RULE_THRESHMULT, true),
	  .quirks = PPC_QUIRKS, .ctr_addr = PPC_CTRS, .ctl_addr = PPC_CTLS,
	  .desc_name = "PowerPC 7450", DESC(ppc7450), DESC_D(ppc7450) },
	{ .name = "ppc750", .desc = "PowerPC 750 (G3)",
	  .catalog = "ppc750", PPC_BASE,
	  .cpu_type = PMU_CPU_PPC_750, .nr_ctrs = 4, .nr_hw_ctrs = 4,
	  PPC_CHECK(4, PMU_PPC_MMCR2_RULE_ZERO, false),
	  .quirks = PPC_QUIRKS, .ctr_addr = PPC_CTRS, .ctl_addr = PPC_CTLS,
	  .desc_name = "PowerPC 750", DESC(ppc750), DESC_D(ppc750) },
	{ .name = "vc3", .desc = "VIA C3 (one counter)",
	  .catalog = "vc3", X86_TSC,
	  .cpu_type = PMU_CPU_X86_VIA_C3,
	  .features = PMU_FEAT_RDPMC | PMU_FEAT_RDTSC, .nr_ctrs = 1,
	  .nr_hw_ctrs = 2, .ctr_width = 40,
	  .check = { .family = PMU_CHECK_VC3 },
	  .quirks = PMU_QUIRK_VC3_TSC_ALIAS,
	  .ctr_addr = { 0xC1, 0xC2 }, .ctl_addr = { 0, 0x187 },
	  .desc_name = "VIA C3", DESC(vc3), DESC_D(vc3) },
	{ .name = "wcc6", .desc = "IDT/Centaur WinChip C6",
	  .catalog = "wcc6",
	  .arch = PMU_ARCH_X86, .ovf_dir = PMU_OVF_NEG_TO_NONNEG,
	  .tsc_kind = PMU_TSC_NONE,
	  .cpu_type = PMU_CPU_X86_WINCHIP_C6, .features = PMU_FEAT_RDPMC,
	  P5_REGS, P5_CHECK(0x00FF, false, true),
	  .quirks = PMU_QUIRK_P5_CESR_PACKED, DESC(c6) },
	{ .name = "xscale1", .desc = "Intel XScale core 1 (80200)",
	  .catalog = "xscale1", XSC_BASE,
	  .cpu_type = PMU_CPU_ARM_XSC1, .nr_ctrs = 2, .nr_hw_ctrs = 2,
	  .tsc_addr = PMU_CP14_XSC1_CCNT,
	  .check = { .family = PMU_CHECK_XSCALE,
		     .xscale = { .nr_ctrs = 2, .bus_events = 1 } },
	  .quirks = PMU_QUIRK_XSCALE_PMNC,
	  .ctr_addr = { PMU_CP14_XSC1_PMN0, PMU_CP14_XSC1_PMN1 },
	  .ctl_addr = { PMU_CP14_XSC1_PMNC, PMU_CP14_XSC1_PMNC },
	  .desc_name = "XScale1", DESC(xsc1), DESC_D(xsc1) },
	{ .name = "xscale2", .desc = "Intel XScale core 2 (PXA27x, IOP)",
	  .catalog = "xscale2",
	  XSC_BASE, .cpu_type = PMU_CPU_ARM_XSC2, .nr_ctrs = 4,
	  .nr_hw_ctrs = 4, .tsc_addr = PMU_CP14_XSC2_CCNT,
	  .check = { .family = PMU_CHECK_XSCALE, .xscale = { .nr_ctrs = 4 } },
	  .quirks = PMU_QUIRK_XSCALE_PMNC | PMU_QUIRK_XSCALE2_BANKS,
	  .ctr_addr = { PMU_CP14_XSC2_PMN(0), PMU_CP14_XSC2_PMN(1),
			PMU_CP14_XSC2_PMN(2), PMU_CP14_XSC2_PMN(3) },
	  .ctl_addr = { PMU_CP14_XSC2_EVTSEL, PMU_CP14_XSC2_EVTSEL,
			PMU_CP14_XSC2_EVTSEL, PMU_CP14_XSC2_EVTSEL },
	  .desc_name = "XScale2", DESC(xsc2), DESC_D(xsc2) },
};

const struct pmu_hwmodel *pmu__hwmodel_find(const char *name)
{
	size_t lo = 0, hi = PMU_FS_ARRAY_SIZE(models);

	if (!name)
		return NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = pmu__fs_strcmp(name, models[mid].name);

		if (c == 0)
			return &models[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

size_t pmu__hwmodel_count(void)
{
	return PMU_FS_ARRAY_SIZE(models);
}

const struct pmu_hwmodel *pmu__hwmodel_at(size_t i)
{
	return i < PMU_FS_ARRAY_SIZE(models) ? &models[i] : NULL;
}

uint32_t pmu__hwmodel_ctr_addr(const struct pmu_hwmodel *m, unsigned hw)
{
	return hw < m->nr_hw_ctrs ? m->ctr_addr[hw] : 0;
}

uint32_t pmu__hwmodel_ctl_addr(const struct pmu_hwmodel *m, unsigned hw)
{
	return hw < m->nr_hw_ctrs ? m->ctl_addr[hw] : 0;
}
