/* SPDX-License-Identifier: MIT */
/*
 * XScale PMU registers on the simulator.  Expected values come from the
 * PMNC / INTEN / FLAG / EVTSEL layouts of seed-semantics section 5.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "hwmodel/control.h"
#include "hwmodel/model.h"
#include "sim/sim.h"
#include "sim/xscale.h"

struct rig {
	struct pmu__sim sim;
	struct pmu__xscale xs;
	unsigned irqs;
	uint64_t irq_pc;
};

static void on_irq(struct pmu__sim *sim, void *arg, enum pmu_sim_irq src,
		   uint64_t pc)
{
	struct rig *r = arg;

	(void)sim;
	assert_int_equal(src, PMU_SIM_IRQ_PMC);
	r->irqs++;
	r->irq_pc = pc;
}

static void rig_init(struct rig *r, const char *model)
{
	const struct pmu_hwmodel *m = pmu__hwmodel_find(model);

	assert_non_null(m);
	assert_int_equal(pmu__sim_init(&r->sim, m), 0);
	assert_int_equal(pmu__sim_xscale_attach(&r->sim, &r->xs), 0);
	pmu__sim_set_irq(&r->sim, on_irq, r);
	r->irqs = 0;
	r->irq_pc = 0;
}

static void wr(struct rig *r, uint32_t addr, uint32_t v)
{
	assert_int_equal(pmu__sim_reg_write(&r->sim, PMU_SIM_REG_CP14, addr, v), 0);
}

static uint32_t rd(struct rig *r, uint32_t addr)
{
	uint64_t v = 0xDEAD;

	assert_int_equal(pmu__sim_reg_read(&r->sim, PMU_SIM_REG_CP14, addr, &v), 0);
	return (uint32_t)v;
}

/* PMNC: bits 7, 11, 28-31 write as 0; P and C act and read as 0; the
 * overflow flags are write-one-to-clear, so writing them sets nothing. */
static void test_pmnc_masks(void **state)
{
	static const struct { int line; uint32_t w, want; } rows[] = {
		{ __LINE__, 0x00000001, 0x00000001 },   /* E */
		{ __LINE__, 0x00000007, 0x00000001 },   /* E + P + C */
		{ __LINE__, 0x00000008, 0x00000008 },   /* D */
		{ __LINE__, 0x00000070, 0x00000070 },   /* interrupt enables */
		{ __LINE__, 0x00000080, 0x00000000 },   /* bit 7 */
		{ __LINE__, 0x00000700, 0x00000000 },   /* flags: W1C */
		{ __LINE__, 0x00000800, 0x00000000 },   /* bit 11 */
		{ __LINE__, 0x000FF000, 0x000FF000 },   /* evtCount0 */
		{ __LINE__, 0x0FF00000, 0x0FF00000 },   /* evtCount1 */
		{ __LINE__, 0xF0000000, 0x00000000 },   /* 28-31 */
		{ __LINE__, 0xFFFFFFFF, 0x0FFFF079 },
	};
	struct rig r;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint32_t got;

		rig_init(&r, "xscale1");
		wr(&r, PMU_CP14_XSC1_PMNC, rows[i].w);
		got = rd(&r, PMU_CP14_XSC1_PMNC);
		if (got != rows[i].want)
			fail_msg("row at line %d: PMNC 0x%x, want 0x%x",
				 rows[i].line, got, rows[i].want);
	}
}

/* PMN0/PMN1 count the events named by evtCount0/1; CCNT counts cycles. */
static void test_counting_gen1(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, "xscale1");
	wr(&r, PMU_CP14_XSC1_PMNC, 0x07 << 12 | 0x00 << 20 | PMU_XSC_PMNC_E);
	pmu__sim_advance(&r.sim, 0x07, 0, 100);
	pmu__sim_advance(&r.sim, 0x00, 0, 5);
	pmu__sim_advance(&r.sim, 0x0A, 0, 33);
	pmu__sim_cycles(&r.sim, 1000);
	assert_int_equal(rd(&r, PMU_CP14_XSC1_PMN0), 100);
	assert_int_equal(rd(&r, PMU_CP14_XSC1_PMN1), 5);
	assert_int_equal(rd(&r, PMU_CP14_XSC1_CCNT), 1000);
	assert_int_equal(pmu__sim_rdtsc(&r.sim), 1000);

	/* E clear: everything holds. */
	wr(&r, PMU_CP14_XSC1_PMNC, 0x07 << 12);
	pmu__sim_advance(&r.sim, 0x07, 0, 50);
	pmu__sim_cycles(&r.sim, 50);
	assert_int_equal(rd(&r, PMU_CP14_XSC1_PMN0), 100);
	assert_int_equal(rd(&r, PMU_CP14_XSC1_CCNT), 1000);

	/* P resets PMN0/PMN1, C resets CCNT. */
	wr(&r, PMU_CP14_XSC1_PMNC, PMU_XSC_PMNC_P);
	assert_int_equal(rd(&r, PMU_CP14_XSC1_PMN0), 0);
	assert_int_equal(rd(&r, PMU_CP14_XSC1_PMN1), 0);
	assert_int_equal(rd(&r, PMU_CP14_XSC1_CCNT), 1000);
	wr(&r, PMU_CP14_XSC1_PMNC, PMU_XSC_PMNC_C);
	assert_int_equal(rd(&r, PMU_CP14_XSC1_CCNT), 0);
}

/* D: CCNT advances once every 64 cycles, remainders carry over. */
static void test_divider(void **state)
{
	static const struct { int line; uint64_t cycles; uint32_t want; } rows[] = {
		{ __LINE__, 63, 0 },
		{ __LINE__, 1, 1 },
		{ __LINE__, 1000, 16 },    /* 1064 / 64 = 16 rest 40 */
		{ __LINE__, 24, 17 },      /* 1088 = 17 * 64 */
		{ __LINE__, 6400, 117 },
	};
	struct rig r;

	(void)state;
	rig_init(&r, "xscale1");
	wr(&r, PMU_CP14_XSC1_PMNC, PMU_XSC_PMNC_E | PMU_XSC_PMNC_D |
	   PMU_XSC_PMNC_EVT0(0xFF) | PMU_XSC_PMNC_EVT1(0xFF));
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		pmu__sim_cycles(&r.sim, rows[i].cycles);
		if (rd(&r, PMU_CP14_XSC1_CCNT) != rows[i].want)
			fail_msg("row at line %d: CCNT %u, want %u", rows[i].line,
				 rd(&r, PMU_CP14_XSC1_CCNT), rows[i].want);
	}
}

/* Overflow sets the flag; the IRQ comes only with the matching enable;
 * writing the flag back clears it. */
static void test_overflow_gen1(void **state)
{
	static const struct {
		int line;
		uint32_t inten, preset;
		uint64_t n;
		uint32_t want_val, want_flags;
		unsigned want_irqs;
	} rows[] = {
		{ __LINE__, 0x10, 0xFFFFFFF0u, 0x10, 0, 0x100, 1 },
		{ __LINE__, 0x10, 0xFFFFFFF0u, 0x0F, 0xFFFFFFFFu, 0, 0 },
		{ __LINE__, 0x00, 0xFFFFFFF0u, 0x20, 0x10, 0x100, 0 },
		{ __LINE__, 0x20, 0xFFFFFFF0u, 0x20, 0x10, 0x100, 0 },
		{ __LINE__, 0x10, 0, 0x100000000ull * 2 + 3, 3, 0x100, 2 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct rig r;
		uint32_t flags;

		rig_init(&r, "xscale1");
		wr(&r, PMU_CP14_XSC1_PMN0, rows[i].preset);
		wr(&r, PMU_CP14_XSC1_PMNC, PMU_XSC_PMNC_E | rows[i].inten |
		   PMU_XSC_PMNC_EVT0(0x07) | PMU_XSC_PMNC_EVT1(0xFF));
		pmu__sim_set_ip(&r.sim, 0x8000 + i);
		pmu__sim_advance(&r.sim, 0x07, 0, rows[i].n);
		flags = rd(&r, PMU_CP14_XSC1_PMNC) & PMU_XSC_PMNC_OF_ALL;
		if (rd(&r, PMU_CP14_XSC1_PMN0) != rows[i].want_val ||
		    flags != rows[i].want_flags || r.irqs != rows[i].want_irqs)
			fail_msg("row at line %d: PMN0 0x%x flags 0x%x irqs %u",
				 rows[i].line, rd(&r, PMU_CP14_XSC1_PMN0), flags,
				 r.irqs);
		if (r.irqs)
			assert_int_equal(r.irq_pc, 0x8000 + i);
		/* Writing zeros keeps the flags, writing them clears them. */
		wr(&r, PMU_CP14_XSC1_PMNC, rd(&r, PMU_CP14_XSC1_PMNC) & ~0x700u);
		assert_int_equal(rd(&r, PMU_CP14_XSC1_PMNC) & 0x700u, flags);
		wr(&r, PMU_CP14_XSC1_PMNC, rd(&r, PMU_CP14_XSC1_PMNC));
		assert_int_equal(rd(&r, PMU_CP14_XSC1_PMNC) & 0x700u, 0);
	}
}

static void test_ccnt_overflow(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, "xscale1");
	wr(&r, PMU_CP14_XSC1_CCNT, 0xFFFFFFF6u);
	wr(&r, PMU_CP14_XSC1_PMNC, PMU_XSC_PMNC_E | PMU_XSC_PMNC_INTEN_CCNT |
	   PMU_XSC_PMNC_EVT0(0xFF) | PMU_XSC_PMNC_EVT1(0xFF));
	pmu__sim_cycles(&r.sim, 9);
	assert_int_equal(r.irqs, 0);
	pmu__sim_cycles(&r.sim, 11);
	assert_int_equal(rd(&r, PMU_CP14_XSC1_CCNT), 10);
	assert_int_equal(rd(&r, PMU_CP14_XSC1_PMNC) & 0x700u, 0x400u);
	assert_int_equal(r.irqs, 1);
	assert_int_equal(pmu__xscale_pending(&r.xs), PMU_XSC2_BIT_CCNT);
}

/* Second generation: EVTSEL bytes, INTEN, FLAG (W1C), four PMNs, ID. */
static void test_gen2(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, "xscale2");
	assert_int_equal(rd(&r, PMU_CP14_XSC2_PMNC) >> 24, PMU_XSC2_PMNC_ID);
	wr(&r, PMU_CP14_XSC2_EVTSEL, 0x0B0A0700u);  /* PMN3..0 = B A 7 0 */
	wr(&r, PMU_CP14_XSC2_INTEN, 0xFFu);
	assert_int_equal(rd(&r, PMU_CP14_XSC2_INTEN), 0x1Fu);
	wr(&r, PMU_CP14_XSC2_PMN(2), 0xFFFFFFFFu);
	wr(&r, PMU_CP14_XSC2_PMNC, PMU_XSC_PMNC_E);
	pmu__sim_advance(&r.sim, 0x07, 0, 7);
	pmu__sim_advance(&r.sim, 0x00, 0, 1);
	pmu__sim_advance(&r.sim, 0x0A, 0, 2);
	pmu__sim_advance(&r.sim, 0x0B, 0, 3);
	pmu__sim_cycles(&r.sim, 77);
	assert_int_equal(rd(&r, PMU_CP14_XSC2_PMN(0)), 1);
	assert_int_equal(rd(&r, PMU_CP14_XSC2_PMN(1)), 7);
	assert_int_equal(rd(&r, PMU_CP14_XSC2_PMN(2)), 1);  /* wrapped */
	assert_int_equal(rd(&r, PMU_CP14_XSC2_PMN(3)), 3);
	assert_int_equal(rd(&r, PMU_CP14_XSC2_CCNT), 77);
	assert_int_equal(rd(&r, PMU_CP14_XSC2_FLAG), PMU_XSC2_BIT_PMN(2));
	assert_int_equal(r.irqs, 1);
	wr(&r, PMU_CP14_XSC2_FLAG, 0);
	assert_int_equal(rd(&r, PMU_CP14_XSC2_FLAG), PMU_XSC2_BIT_PMN(2));
	wr(&r, PMU_CP14_XSC2_FLAG, PMU_XSC2_BIT_PMN(2));
	assert_int_equal(rd(&r, PMU_CP14_XSC2_FLAG), 0);
	/* P resets all four PMNs, C the CCNT; neither reads back. */
	wr(&r, PMU_CP14_XSC2_PMNC, PMU_XSC_PMNC_E | PMU_XSC_PMNC_P |
	   PMU_XSC_PMNC_C);
	for (unsigned n = 0; n < 4; n++)
		assert_int_equal(rd(&r, PMU_CP14_XSC2_PMN(n)), 0);
	assert_int_equal(rd(&r, PMU_CP14_XSC2_CCNT), 0);
	assert_int_equal(rd(&r, PMU_CP14_XSC2_PMNC) & 0xFFu, PMU_XSC_PMNC_E);
}

/* Registers of the other generation do not exist. */
static void test_addresses(void **state)
{
	struct rig r;
	uint64_t v;

	(void)state;
	rig_init(&r, "xscale1");
	assert_true(pmu__sim_reg_read(&r.sim, PMU_SIM_REG_CP14,
				      PMU_CP14_XSC2_EVTSEL, &v) < 0);
	rig_init(&r, "xscale2");
	assert_true(pmu__sim_reg_write(&r.sim, PMU_SIM_REG_CP14,
				       PMU_CP14_XSC1_PMN1, 1) < 0);
	assert_int_equal(pmu__sim_xscale_attach(&r.sim, NULL), -PMU_EINVAL);
	assert_int_equal(pmu__sim_init(&r.sim, pmu__hwmodel_find("p6")), 0);
	assert_int_equal(pmu__sim_xscale_attach(&r.sim, &r.xs), -PMU_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pmnc_masks),
		cmocka_unit_test(test_counting_gen1),
		cmocka_unit_test(test_divider),
		cmocka_unit_test(test_overflow_gen1),
		cmocka_unit_test(test_ccnt_overflow),
		cmocka_unit_test(test_gen2),
		cmocka_unit_test(test_addresses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
