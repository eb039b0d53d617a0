/* SPDX-License-Identifier: MIT */
/*
 * AMD Family 10h IBS on the simulator.  Register layouts and behaviour
 * from seed-semantics section 4.3 (period = MaxCnt << 4; the N-th fetch
 * or op is tagged; Val set, counting stops, interrupt; re-arm by
 * rewriting the control register).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "hwmodel/model.h"
#include "sim/ibs.h"
#include "sim/sim.h"

#define MAX_TAGS 64

struct rig {
	struct pmu__sim sim;
	struct pmu__ibs ibs;
	bool rearm;             /* handler re-arms the unit that fired */
	unsigned tags;
	uint64_t tag_ip[MAX_TAGS];
	uint64_t fetch_ctl, op_ctl;
};

static uint64_t rd(struct rig *r, uint32_t msr)
{
	uint64_t v = 0;

	assert_int_equal(pmu__sim_rdmsr(&r->sim, msr, &v), 0);
	return v;
}

static void wr(struct rig *r, uint32_t msr, uint64_t v)
{
	assert_int_equal(pmu__sim_wrmsr(&r->sim, msr, v), 0);
}

/* Like a driver: find the unit with Val, read its address, re-arm. */
static void on_irq(struct pmu__sim *sim, void *arg, enum pmu_sim_irq src,
		   uint64_t pc)
{
	struct rig *r = arg;
	bool fetch;

	(void)sim;
	(void)pc;
	assert_int_equal(src, PMU_SIM_IRQ_IBS);
	fetch = rd(r, PMU_MSR_IBS_FETCH_CTL) & PMU_IBS_FETCH_VAL;
	if (r->tags < MAX_TAGS)
		r->tag_ip[r->tags] = rd(r, fetch ? PMU_MSR_IBS_FETCH_LINAD
					       : PMU_MSR_IBS_OP_RIP);
	r->tags++;
	if (r->rearm)
		wr(r, fetch ? PMU_MSR_IBS_FETCH_CTL : PMU_MSR_IBS_OP_CTL,
		   fetch ? r->fetch_ctl : r->op_ctl);
}

static void rig_init(struct rig *r, uint32_t seed, bool rearm)
{
	assert_int_equal(pmu__sim_init(&r->sim, pmu__hwmodel_find("fam10h")), 0);
	assert_int_equal(pmu__sim_ibs_attach(&r->sim, &r->ibs, seed), 0);
	pmu__sim_set_irq(&r->sim, on_irq, r);
	assert_int_equal(pmu__sim_reg_write(&r->sim, PMU_SIM_REG_APIC,
					    PMU_SIM_APIC_LVTPC,
					    PMU_SIM_PERFCTR_VECTOR), 0);
	r->rearm = rearm;
	r->tags = 0;
	r->fetch_ctl = r->op_ctl = 0;
}

static void fetch_one(struct rig *r, uint64_t ip)
{
	pmu__sim_set_ip(&r->sim, ip);
	pmu__sim_advance(&r->sim, PMU_SIM_KEY_FETCH, 0, 1);
}

/* Without RandEn the tagged fetches are exactly MaxCnt*16 apart. */
static void test_fetch_spacing(void **state)
{
	static const struct { int line; uint32_t maxcnt; unsigned n; } rows[] = {
		{ __LINE__, 0x1, 100 },     /* period 16 */
		{ __LINE__, 0x10, 1000 },   /* period 256 */
		{ __LINE__, 0x7, 500 },     /* period 112 */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct rig r;
		uint64_t period = (uint64_t)rows[i].maxcnt * 16;

		rig_init(&r, 1, true);
		r.fetch_ctl = PMU_IBS_FETCH_EN | rows[i].maxcnt;
		wr(&r, PMU_MSR_IBS_FETCH_CTL, r.fetch_ctl);
		for (unsigned k = 1; k <= rows[i].n; k++)
			fetch_one(&r, k);
		if (r.tags != rows[i].n / period)
			fail_msg("row at line %d: %u tags, want %llu", rows[i].line,
				 r.tags, (unsigned long long)(rows[i].n / period));
		for (unsigned t = 0; t < r.tags; t++)
			if (r.tag_ip[t] != (t + 1) * period)
				fail_msg("row at line %d: tag %u at fetch %llu",
					 rows[i].line, t,
					 (unsigned long long)r.tag_ip[t]);
	}
}

/* A batch of fetches gives the same tags as single ones. */
static void test_fetch_batch(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, 1, true);
	r.fetch_ctl = PMU_IBS_FETCH_EN | 0x10;
	wr(&r, PMU_MSR_IBS_FETCH_CTL, r.fetch_ctl);
	pmu__sim_advance(&r.sim, PMU_SIM_KEY_FETCH, 0, 256 * 5 + 100);
	assert_int_equal(r.tags, 5);
	assert_int_equal(r.ibs.fetch.last_gap, 256);
	/* 100 fetches into the next period: IbsFetchCnt = 100 >> 4. */
	assert_int_equal((rd(&r, PMU_MSR_IBS_FETCH_CTL) >> 16) & 0xFFFF, 6);
}

/* RandEn: every gap lies in (period - 16, period]; same seed, same gaps;
 * the gaps are not all equal. */
static void test_fetch_randen(void **state)
{
	uint64_t gaps[2][20];
	bool differ = false;

	(void)state;
	for (int run = 0; run < 2; run++) {
		struct rig r;

		rig_init(&r, 12345, true);
		r.fetch_ctl = PMU_IBS_FETCH_EN | PMU_IBS_RAND_EN | 0x4;
		wr(&r, PMU_MSR_IBS_FETCH_CTL, r.fetch_ctl);
		for (int t = 0; t < 20; t++) {
			unsigned before = r.tags;
			uint64_t n = 0;

			while (r.tags == before) {
				pmu__sim_advance(&r.sim, PMU_SIM_KEY_FETCH, 0, 1);
				n++;
			}
			gaps[run][t] = n;
			assert_true(n > 64 - 16 && n <= 64);
			if (gaps[run][t] != gaps[run][0])
				differ = true;
		}
	}
	for (int t = 0; t < 20; t++)
		assert_int_equal(gaps[0][t], gaps[1][t]);
	assert_true(differ);
}

/* After a tag: Val set, En kept, no counting and no interrupt until the
 * control register is written again. */
static void test_val_stops(void **state)
{
	struct rig r;
	uint64_t ctl;

	(void)state;
	rig_init(&r, 1, false);
	wr(&r, PMU_MSR_IBS_FETCH_CTL, PMU_IBS_FETCH_EN | 0x1);
	pmu__sim_advance(&r.sim, PMU_SIM_KEY_FETCH, 0, 16);
	assert_int_equal(r.tags, 1);
	ctl = rd(&r, PMU_MSR_IBS_FETCH_CTL);
	assert_true(ctl & PMU_IBS_FETCH_VAL);
	assert_true(ctl & PMU_IBS_FETCH_EN);
	assert_true(ctl & PMU_IBS_FETCH_COMP);
	pmu__sim_advance(&r.sim, PMU_SIM_KEY_FETCH, 0, 1000);
	assert_int_equal(r.tags, 1);
	/* Re-arm: Val clear, En set. */
	wr(&r, PMU_MSR_IBS_FETCH_CTL, PMU_IBS_FETCH_EN | 0x1);
	assert_false(rd(&r, PMU_MSR_IBS_FETCH_CTL) & PMU_IBS_FETCH_VAL);
	pmu__sim_advance(&r.sim, PMU_SIM_KEY_FETCH, 0, 15);
	assert_int_equal(r.tags, 1);
	pmu__sim_advance(&r.sim, PMU_SIM_KEY_FETCH, 0, 1);
	assert_int_equal(r.tags, 2);
	/* Masked LVTPC: the sample is taken, the interrupt is lost. */
	wr(&r, PMU_MSR_IBS_FETCH_CTL, PMU_IBS_FETCH_EN | 0x1);
	assert_int_equal(pmu__sim_reg_write(&r.sim, PMU_SIM_REG_APIC,
					    PMU_SIM_APIC_LVTPC,
					    PMU_SIM_LVT_MASKED), 0);
	pmu__sim_advance(&r.sim, PMU_SIM_KEY_FETCH, 0, 16);
	assert_int_equal(r.tags, 2);
	assert_true(rd(&r, PMU_MSR_IBS_FETCH_CTL) & PMU_IBS_FETCH_VAL);
	/* MaxCnt 0 or En clear: never tags. */
	wr(&r, PMU_MSR_IBS_FETCH_CTL, PMU_IBS_FETCH_EN);
	pmu__sim_advance(&r.sim, PMU_SIM_KEY_FETCH, 0, 1u << 20);
	wr(&r, PMU_MSR_IBS_FETCH_CTL, 0x1);
	pmu__sim_advance(&r.sim, PMU_SIM_KEY_FETCH, 0, 1u << 20);
	assert_int_equal(r.ibs.fetch.tags, 3);
}

/* Data registers of a tagged fetch and of a tagged op. */
static void test_data_registers(void **state)
{
	struct pmu__sim_snapshot sn = {
		.ip = 0x401234, .data_addr = 0x7fff0010,
		.phys_addr = 0xABCD000123456ull,
		.aux = { 0x0000002A00100020ull, 0x21, 0x20083, 0x12345000,
			 0x0008002A00000000ull },
	};
	struct rig r;

	(void)state;
	rig_init(&r, 1, false);
	pmu__sim_set_snapshot(&r.sim, &sn);
	wr(&r, PMU_MSR_IBS_FETCH_CTL, PMU_IBS_FETCH_EN | 0x2);
	wr(&r, PMU_MSR_IBS_OP_CTL, PMU_IBS_OP_EN | PMU_IBS_OP_CNT_CTL | 0x3);
	pmu__sim_advance(&r.sim, PMU_SIM_KEY_FETCH, 0, 32);
	pmu__sim_advance(&r.sim, PMU_SIM_KEY_OP, 0, 48);
	assert_int_equal(r.tags, 2);
	assert_int_equal(rd(&r, PMU_MSR_IBS_FETCH_LINAD), 0x401234);
	assert_int_equal(rd(&r, PMU_MSR_IBS_FETCH_PHYSAD), 0x12345000);
	/* status: latency 0x2A, IcMiss (51); Comp, PhyAddrValid, Val, En. */
	assert_int_equal(rd(&r, PMU_MSR_IBS_FETCH_CTL),
			 0x0000002A00000000ull | 1ull << 51 | 1ull << 50 |
			 1ull << 52 | 1ull << 49 | 1ull << 48 | 2u << 16 | 0x2);
	assert_int_equal(rd(&r, PMU_MSR_IBS_OP_RIP), 0x401234);
	assert_int_equal(rd(&r, PMU_MSR_IBS_OP_DATA), 0x0000002A00100020ull);
	assert_int_equal(rd(&r, PMU_MSR_IBS_OP_DATA2), 0x21);
	assert_int_equal(rd(&r, PMU_MSR_IBS_OP_DATA3), 0x20083);
	assert_int_equal(rd(&r, PMU_MSR_IBS_DC_LINAD), 0x7fff0010);
	assert_int_equal(rd(&r, PMU_MSR_IBS_DC_PHYSAD), 0xBCD000123456ull);
	assert_int_equal(rd(&r, PMU_MSR_IBS_OP_CTL),
			 48ull << 32 | PMU_IBS_OP_VAL | PMU_IBS_OP_EN |
			 PMU_IBS_OP_CNT_CTL | 0x3);
}

/* IbsOpCntCtl selects what the op counter counts. */
static void test_op_count_source(void **state)
{
	static const struct {
		int line;
		uint64_t ctl;
		uint64_t cycles, ops;
		unsigned want;
	} rows[] = {
		{ __LINE__, PMU_IBS_OP_EN | 0x1, 160, 0, 10 },
		{ __LINE__, PMU_IBS_OP_EN | 0x1, 0, 160, 0 },
		{ __LINE__, PMU_IBS_OP_EN | PMU_IBS_OP_CNT_CTL | 0x1, 160, 0, 0 },
		{ __LINE__, PMU_IBS_OP_EN | PMU_IBS_OP_CNT_CTL | 0x1, 0, 160, 10 },
		{ __LINE__, PMU_IBS_OP_EN | 0x100, 0x1000 * 3 - 1, 0, 2 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct rig r;

		rig_init(&r, 1, true);
		r.op_ctl = rows[i].ctl;
		wr(&r, PMU_MSR_IBS_OP_CTL, r.op_ctl);
		pmu__sim_cycles(&r.sim, rows[i].cycles);
		pmu__sim_advance(&r.sim, PMU_SIM_KEY_OP, 0, rows[i].ops);
		if (r.tags != rows[i].want)
			fail_msg("row at line %d: %u tags, want %u", rows[i].line,
				 r.tags, rows[i].want);
	}
}

/* Reserved bits do not stick; the count fields come from the counter. */
static void test_reserved_bits(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, 1, false);
	wr(&r, PMU_MSR_IBS_OP_CTL, ~0ull & ~PMU_IBS_OP_EN);
	assert_int_equal(rd(&r, PMU_MSR_IBS_OP_CTL), 0xCFFFFull);
	wr(&r, PMU_MSR_IBS_FETCH_CTL, ~0ull & ~PMU_IBS_FETCH_EN);
	assert_int_equal(rd(&r, PMU_MSR_IBS_FETCH_CTL),
			 0x03FEFFFF0000FFFFull);
	wr(&r, PMU_MSR_IBS_CTL, ~0ull);
	assert_int_equal(rd(&r, PMU_MSR_IBS_CTL), 0x10F);
	/* Models without IBS reject the attach and the MSRs. */
	assert_int_equal(pmu__sim_init(&r.sim, pmu__hwmodel_find("k8")), 0);
	assert_int_equal(pmu__sim_ibs_attach(&r.sim, &r.ibs, 1), -PMU_EINVAL);
	assert_int_equal(pmu__sim_wrmsr(&r.sim, PMU_MSR_IBS_OP_CTL, 0),
			 -PMU_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fetch_spacing),
		cmocka_unit_test(test_fetch_batch),
		cmocka_unit_test(test_fetch_randen),
		cmocka_unit_test(test_val_stops),
		cmocka_unit_test(test_data_registers),
		cmocka_unit_test(test_op_count_source),
		cmocka_unit_test(test_reserved_bits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
