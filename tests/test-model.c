/* SPDX-License-Identifier: MIT */
/*
 * Model tables: lookup, pmu_desc sanity, and facts from the seeds
 * (seed-semantics §1.3, §1.4, §1.11, §3, §4, §5).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hwmodel/model.h"

static const char *const names[] = {
	"generic", "p5", "p5mmx", "mii", "wcc6", "p6", "pii", "piii", "pentm",
	"k7", "k8", "k8c", "fam10h", "vc3", "p4", "p4m2", "p4m3", "p4ht",
	"ppc604", "ppc604e", "ppc750", "ppc7400", "ppc7450", "xscale1", "xscale2",
};

static void test_find_all(void **state)
{
	(void)state;
	assert_int_equal(pmu__hwmodel_count(), sizeof(names) / sizeof(names[0]));
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct pmu_hwmodel *m = pmu__hwmodel_find(names[i]);

		if (!m || strcmp(m->name, names[i]))
			fail_msg("model %s not found", names[i]);
	}
	assert_null(pmu__hwmodel_find("p7"));
	assert_null(pmu__hwmodel_find(""));
	assert_null(pmu__hwmodel_find("P6"));
	assert_null(pmu__hwmodel_find(NULL));
	assert_null(pmu__hwmodel_at(pmu__hwmodel_count()));
	for (size_t i = 1; i < pmu__hwmodel_count(); i++)
		assert_true(strcmp(pmu__hwmodel_at(i - 1)->name,
				   pmu__hwmodel_at(i)->name) < 0);
}

static void check_regs(const struct pmu_hwmodel *m, const struct pmu_reg_desc *r,
		       unsigned n, bool pmd)
{
	for (unsigned i = 0; i < n; i++) {
		if (!r[i].name || !r[i].name[0])
			fail_msg("%s reg %u has no name", m->name, i);
		for (unsigned j = 0; j < i; j++)
			if (!strcmp(r[i].name, r[j].name) || r[i].addr == r[j].addr)
				fail_msg("%s: %s and %s clash", m->name,
					 r[i].name, r[j].name);
		/* defaults live only in bits the user cannot change */
		if (r[i].dfl_val & ~r[i].rsvd_msk)
			fail_msg("%s %s: dfl_val outside rsvd_msk", m->name, r[i].name);
		if (!pmd && r[i].width)
			fail_msg("%s %s: PMC with a width", m->name, r[i].name);
		if (pmd && (r[i].flags & PMU_REGF_COUNTER) != (r[i].width != 0))
			fail_msg("%s %s: counter flag vs width", m->name, r[i].name);
		/* a counter implements exactly its low `width` bits */
		if (r[i].width && r[i].rsvd_msk != ~((UINT64_C(1) << r[i].width) - 1))
			fail_msg("%s %s: rsvd_msk vs width", m->name, r[i].name);
	}
}

static void test_desc_sanity(void **state)
{
	(void)state;
	for (size_t i = 0; i < pmu__hwmodel_count(); i++) {
		const struct pmu_hwmodel *m = pmu__hwmodel_at(i);

		assert_true(m->nr_pmcs <= PMU_MODEL_MAX_PMCS);
		assert_true(m->nr_pmds <= PMU_MODEL_MAX_PMDS);
		assert_true(m->nr_ctrs <= m->nr_hw_ctrs);
		check_regs(m, m->pmcs, m->nr_pmcs, false);
		check_regs(m, m->pmds, m->nr_pmds, true);
		for (unsigned h = 0; h < m->nr_hw_ctrs; h++)
			if (!m->ctr_addr[h] && !(m->arch == PMU_ARCH_ARM))
				fail_msg("%s: counter %u has no address", m->name, h);
	}
}

/* perfctr facts per model (§1.3 cpu_type, libperfctr nrctrs, features). */
struct fact {
	int line;
	const char *name;
	enum pmu_arch arch;
	unsigned cpu_type, nr_ctrs, width;
	uint32_t features;
	enum pmu_check_family family;
	enum pmu_ovf_dir ovf;
};

#define F(...) { __LINE__, __VA_ARGS__ }
#define X86 PMU_ARCH_X86
#define NEG PMU_OVF_NEG_TO_NONNEG
static const struct fact facts[] = {
	F("generic", X86, 0, 0, 0, 0x2, PMU_CHECK_GENERIC, NEG),
	F("p5", X86, 1, 2, 40, 0x2, PMU_CHECK_P5_LIKE, NEG),
	F("p5mmx", X86, 2, 2, 40, 0x3, PMU_CHECK_P5_LIKE, NEG),
	F("p6", X86, 3, 2, 40, 0x7, PMU_CHECK_P6_LIKE, NEG),
	F("pii", X86, 4, 2, 40, 0x7, PMU_CHECK_P6_LIKE, NEG),
	F("piii", X86, 5, 2, 40, 0x7, PMU_CHECK_P6_LIKE, NEG),
	F("mii", X86, 6, 2, 40, 0x3, PMU_CHECK_P5_LIKE, NEG),
	F("wcc6", X86, 7, 2, 40, 0x1, PMU_CHECK_P5_LIKE, NEG),
	F("k7", X86, 9, 4, 48, 0x7, PMU_CHECK_P6_LIKE, NEG),
	F("vc3", X86, 10, 1, 40, 0x3, PMU_CHECK_VC3, NEG),
	F("p4", X86, 11, 18, 40, 0x7, PMU_CHECK_P4, NEG),
	F("p4m2", X86, 12, 18, 40, 0x7, PMU_CHECK_P4, NEG),
	F("k8", X86, 13, 4, 48, 0x7, PMU_CHECK_P6_LIKE, NEG),
	F("pentm", X86, 14, 2, 40, 0x7, PMU_CHECK_P6_LIKE, NEG),
	F("k8c", X86, 15, 4, 48, 0x7, PMU_CHECK_P6_LIKE, NEG),
	F("p4m3", X86, 16, 18, 40, 0x7, PMU_CHECK_P4, NEG),
	F("ppc604", PMU_ARCH_PPC, 1, 2, 32, 0x7, PMU_CHECK_PPC, PMU_OVF_NONNEG_TO_NEG),
	F("ppc604e", PMU_ARCH_PPC, 2, 4, 32, 0x7, PMU_CHECK_PPC, PMU_OVF_NONNEG_TO_NEG),
	F("ppc750", PMU_ARCH_PPC, 3, 4, 32, 0x7, PMU_CHECK_PPC, PMU_OVF_NONNEG_TO_NEG),
	F("ppc7400", PMU_ARCH_PPC, 4, 4, 32, 0x7, PMU_CHECK_PPC, PMU_OVF_NONNEG_TO_NEG),
	F("ppc7450", PMU_ARCH_PPC, 5, 6, 32, 0x7, PMU_CHECK_PPC, PMU_OVF_NONNEG_TO_NEG),
	F("xscale1", PMU_ARCH_ARM, 1, 2, 32, 0x6, PMU_CHECK_XSCALE, NEG),
	F("xscale2", PMU_ARCH_ARM, 2, 4, 32, 0x6, PMU_CHECK_XSCALE, NEG),
};

static void test_perfctr_facts(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(facts) / sizeof(facts[0]); i++) {
		const struct fact *f = &facts[i];
		const struct pmu_hwmodel *m = pmu__hwmodel_find(f->name);

		if (!m || m->arch != f->arch || m->cpu_type != f->cpu_type ||
		    m->nr_ctrs != f->nr_ctrs || m->ctr_width != f->width ||
		    m->features != f->features || m->check.family != f->family ||
		    m->ovf_dir != f->ovf)
			fail_msg("line %d: %s facts differ", f->line, f->name);
	}
}

static const struct pmu_reg_desc *reg(const char *model, bool pmd, unsigned i)
{
	const struct pmu_hwmodel *m = pmu__hwmodel_find(model);

	assert_non_null(m);
	assert_true(i < (pmd ? m->nr_pmds : m->nr_pmcs));
	return pmd ? &m->pmds[i] : &m->pmcs[i];
}

struct reg_fact {
	int line;
	const char *model;
	bool pmd;
	unsigned index;
	const char *name;
	uint32_t addr;
};

static const struct reg_fact reg_facts[] = {
	{ __LINE__, "p6", false, 0, "PERFEVTSEL0", 0x186 },
	{ __LINE__, "p6", true, 0, "PERFCTR0", 0xC1 },
	{ __LINE__, "k7", false, 0, "PERFSEL0", 0xC0010000 },
	{ __LINE__, "k8", true, 3, "PERFCTR3", 0xC0010007 },
	{ __LINE__, "p4", false, 31, "IQ_CCCR4", 0x370 },
	{ __LINE__, "p4", false, 0, "BPU_ESCR0", 0x3B2 },
	{ __LINE__, "p4", false, 23, "BPU_CCCR0", 0x360 },
	{ __LINE__, "p4", false, 32, "BPU_ESCR1", 0x3B3 },
	{ __LINE__, "p4", false, 53, "CRU_ESCR5", 0x3E1 },
	{ __LINE__, "p4", false, 62, "IQ_CCCR5", 0x371 },
	{ __LINE__, "p4", false, 63, "PEBS_MATRIX_VERT", 0x3F2 },
	{ __LINE__, "p4", false, 64, "PEBS_ENABLE", 0x3F1 },
	{ __LINE__, "p4", true, 8, "IQ_CTR4", 0x310 },
	{ __LINE__, "p4", true, 17, "IQ_CTR5", 0x311 },
	{ __LINE__, "p4ht", false, 31, "IQ_CCCR4", 0x370 },
	{ __LINE__, "fam10h", false, 4, "IBSFETCHCTL", 0xC0011030 },
	{ __LINE__, "fam10h", false, 5, "IBSOPCTL", 0xC0011033 },
	{ __LINE__, "fam10h", true, 4, "IBSFETCHCTL", 0xC0011030 },
	{ __LINE__, "fam10h", true, 7, "IBSOPCTL", 0xC0011033 },
	{ __LINE__, "fam10h", true, 13, "IBSDCPHYSAD", 0xC0011039 },
	{ __LINE__, "p5", false, 0, "CESR", 0x11 },
	{ __LINE__, "p5", true, 1, "CTR1", 0x13 },
	{ __LINE__, "ppc7450", true, 4, "PMC5", 0x3B1 },
	{ __LINE__, "ppc750", false, 0, "MMCR0", 0x3B8 },
	{ __LINE__, "xscale1", true, 0, "CCNT", 0x100 },
	{ __LINE__, "xscale2", false, 3, "EVTSEL", 0x801 },
};

static void test_register_facts(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(reg_facts) / sizeof(reg_facts[0]); i++) {
		const struct reg_fact *f = &reg_facts[i];
		const struct pmu_reg_desc *r = reg(f->model, f->pmd, f->index);

		if (strcmp(r->name, f->name) || r->addr != f->addr)
			fail_msg("line %d: %s %s%u is %s 0x%x", f->line, f->model,
				 f->pmd ? "pmd" : "pmc", f->index, r->name, r->addr);
	}
	assert_int_equal(pmu__hwmodel_find("p4")->nr_pmcs, 65);
	assert_int_equal(pmu__hwmodel_find("p4")->nr_pmds, 18);
	assert_int_equal(pmu__hwmodel_find("p4ht")->nr_pmcs, 32);
	assert_int_equal(pmu__hwmodel_find("p4ht")->nr_pmds, 9);
	assert_int_equal(pmu__hwmodel_find("fam10h")->nr_pmds, 14);
	/* P6 EVNTSEL: 63:32, 21 and 19 reserved (seed 000), INT forced on;
	 * EVNTSEL1 also reserves the global enable bit 22. */
	assert_int_equal(reg("p6", false, 0)->rsvd_msk, 0xFFFFFFFF00380000ull);
	assert_int_equal(reg("p6", false, 0)->dfl_val, 0x100000);
	assert_int_equal(reg("pentm", false, 1)->rsvd_msk, 0xFFFFFFFF00780000ull);
	/* K8 PERFSEL: bits 63:32, 21, 20 reserved; INT forced on */
	assert_int_equal(reg("k8", false, 0)->rsvd_msk, 0xFFFFFFFF00300000ull);
	assert_int_equal(reg("k8", false, 0)->dfl_val, 0x100000);
	assert_int_equal(reg("fam10h", false, 0)->rsvd_msk, 0xFFFFFCF000300000ull);
	/* IbsFetchCtl: only 57, 48, 15:0 writable; IbsOpCtl: 17, 15:0 */
	assert_int_equal(~reg("fam10h", false, 4)->rsvd_msk, 0x020100000000FFFFull);
	assert_int_equal(~reg("fam10h", false, 5)->rsvd_msk, 0x2FFFFull);
	/* P4 CCCR default OVF_PMI_T0 | ACTIVE_THREAD = 3 */
	assert_int_equal(reg("p4", false, 31)->dfl_val, 0x04030000);
	assert_int_equal(pmu__hwmodel_find("p6")->emul_width, 31);
	assert_int_equal(pmu__hwmodel_find("k8")->emul_width, 47);
}

struct escr_row { int line; unsigned pmc, sel; uint32_t msr; };

static const struct escr_row escr_rows[] = {
	{ __LINE__, 0, 0, 0x3B2 }, { __LINE__, 2, 0, 0x3B3 },
	{ __LINE__, 1, 7, 0x3A0 }, { __LINE__, 3, 6, 0x3A3 },
	{ __LINE__, 4, 0, 0x3C0 }, { __LINE__, 6, 1, 0x3C5 },
	{ __LINE__, 5, 2, 0x3C2 }, { __LINE__, 7, 3, 0 },
	{ __LINE__, 8, 0, 0x3A6 }, { __LINE__, 10, 5, 0x3A9 },
	{ __LINE__, 9, 4, 0 },     { __LINE__, 11, 3, 0x3B1 },
	{ __LINE__, 12, 0, 0x3BA }, { __LINE__, 14, 0, 0x3BB },
	{ __LINE__, 13, 3, 0x3BE }, { __LINE__, 15, 3, 0 },
	{ __LINE__, 16, 4, 0x3B8 }, { __LINE__, 17, 4, 0x3B9 },
	{ __LINE__, 16, 6, 0x3E0 }, { __LINE__, 17, 6, 0x3E1 },
	{ __LINE__, 15, 5, 0x3CD }, { __LINE__, 12, 7, 0 },
	{ __LINE__, 18, 0, 0 },     { __LINE__, 0, 8, 0 },
};

static void test_p4_escr_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(escr_rows) / sizeof(escr_rows[0]); i++) {
		const struct escr_row *r = &escr_rows[i];
		uint32_t got = pmu__p4_escr_addr(r->pmc, r->sel);

		if (got != r->msr)
			fail_msg("line %d: pmc %u sel %u -> 0x%x", r->line, r->pmc,
				 r->sel, got);
	}
}

static void test_counter_addresses(void **state)
{
	const struct pmu_hwmodel *p5 = pmu__hwmodel_find("p5");
	const struct pmu_hwmodel *p4 = pmu__hwmodel_find("p4");
	const struct pmu_hwmodel *k7 = pmu__hwmodel_find("k7");
	const struct pmu_hwmodel *ppc = pmu__hwmodel_find("ppc7450");

	(void)state;
	assert_int_equal(pmu__hwmodel_ctl_addr(p5, 1), 0x11);
	assert_int_equal(pmu__hwmodel_ctr_addr(p5, 1), 0x13);
	assert_int_equal(pmu__hwmodel_ctr_addr(p5, 2), 0);
	assert_int_equal(pmu__hwmodel_ctr_addr(p4, 17), 0x311);
	assert_int_equal(pmu__hwmodel_ctl_addr(p4, 12), 0x36C);
	assert_int_equal(pmu__hwmodel_ctl_addr(k7, 3), 0xC0010003);
	assert_int_equal(pmu__hwmodel_ctr_addr(ppc, 5), 0x3B2);
	assert_int_equal(pmu__hwmodel_ctl_addr(ppc, 2), 0x3BC);
	assert_int_equal(pmu__hwmodel_ctr_addr(pmu__hwmodel_find("vc3"), 1), 0xC2);
}

/* Which CPUs mask LVTPC themselves when they deliver a PMI (seed-semantics
 * §1.6: "On P4 and Pentium M the LVTPC entry is re-armed"). */
static const struct { int line; const char *name; bool automask; } lvt_rows[] = {
	{ __LINE__, "p4", true },     { __LINE__, "p4m2", true },
	{ __LINE__, "p4m3", true },   { __LINE__, "p4ht", true },
	{ __LINE__, "pentm", true },  { __LINE__, "p6", false },
	{ __LINE__, "pii", false },   { __LINE__, "piii", false },
	{ __LINE__, "k7", false },    { __LINE__, "k8", false },
	{ __LINE__, "k8c", false },   { __LINE__, "fam10h", false },
	{ __LINE__, "p5", false },    { __LINE__, "vc3", false },
	{ __LINE__, "generic", false }, { __LINE__, "ppc7450", false },
	{ __LINE__, "xscale1", false },
};

static void test_lvtpc_automask_quirk(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(lvt_rows) / sizeof(lvt_rows[0]); i++) {
		const struct pmu_hwmodel *m = pmu__hwmodel_find(lvt_rows[i].name);

		if (!m || ((m->quirks & PMU_QUIRK_LVTPC_AUTOMASK) != 0) !=
			      lvt_rows[i].automask)
			fail_msg("line %d: %s LVTPC auto-mask quirk wrong",
				 lvt_rows[i].line, lvt_rows[i].name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find_all),
		cmocka_unit_test(test_desc_sanity),
		cmocka_unit_test(test_perfctr_facts),
		cmocka_unit_test(test_register_facts),
		cmocka_unit_test(test_p4_escr_table),
		cmocka_unit_test(test_counter_addresses),
		cmocka_unit_test(test_lvtpc_automask_quirk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
