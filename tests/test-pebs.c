/* SPDX-License-Identifier: MIT */
/*
 * Pentium 4 PEBS on the simulator and perfmon2's pebs32_p4/pebs64_p4
 * sampling format.  Expected layouts and values are worked out by hand
 * from seed 002 (the structures) and seed-semantics section 3.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hwmodel/model.h"
#include "sim/pebs.h"
#include "sim/sim.h"

#define CRU_ESCR2    0x3CCu
#define IQ_CCCR4     0x370u
#define IQ_COUNTER4  0x310u
/* front_end_event (select 8), NBOGUS, T0_OS + T0_USR */
#define ESCR_FE      (0x08u << 25 | 1u << 9 | 0xCu)
/* ENABLE, ESCR_SELECT 5 (CRU_ESCR2), ACTIVE_THREAD 3 */
#define CCCR_IQ4     (0x1000u | 5u << 13 | 3u << 16)
#define KEY_FE       PMU_SIM_P4_KEY(CRU_ESCR2, 0x08)
#define CTR_MASK     ((1ull << 40) - 1)
#define GUARD        512

struct rig {
	struct pmu__sim sim;
	struct pmu__pebs pebs;
	struct pmu__pebs_buf buf;
	uint8_t arena[8192 + GUARD];
	bool restart;           /* handler restarts the buffer */
	unsigned irqs;
	uint64_t count_at_irq[32];
};

static void on_irq(struct pmu__sim *sim, void *arg, enum pmu_sim_irq src,
		   uint64_t pc)
{
	struct rig *r = arg;

	(void)pc;
	assert_int_equal(src, PMU_SIM_IRQ_PEBS);
	if (r->irqs < 32)
		r->count_at_irq[r->irqs] = pmu__pebs_fmt_count(&r->buf);
	r->irqs++;
	if (r->restart) {
		pmu__pebs_fmt_overflow(&r->buf);
		pmu__pebs_fmt_restart(&r->buf);
	}
	/* The P4 masks LVTPC when it delivers; the handler unmasks it. */
	assert_int_equal(pmu__sim_reg_write(sim, PMU_SIM_REG_APIC,
					    PMU_SIM_APIC_LVTPC,
					    PMU_SIM_PERFCTR_VECTOR), 0);
}

static void wr(struct rig *r, uint32_t msr, uint64_t v)
{
	assert_int_equal(pmu__sim_wrmsr(&r->sim, msr, v), 0);
}

static uint64_t rd(struct rig *r, uint32_t msr)
{
	uint64_t v = 0;

	assert_int_equal(pmu__sim_rdmsr(&r->sim, msr, &v), 0);
	return v;
}

/* A P4 with the format at linear `base`, `size` bytes of memory, PEBS
 * on IQ_COUNTER4 preset to -period. */
static void rig_init(struct rig *r, const char *model, bool mode64,
		     uint64_t base, size_t size,
		     const struct pmu__pebs_fmt_arg *arg, uint64_t period)
{
	memset(r, 0, sizeof(*r));
	memset(r->arena, 0xA5, sizeof(r->arena));
	assert_true(size <= sizeof(r->arena) - GUARD);
	r->buf = (struct pmu__pebs_buf){ .mem = r->arena, .size = size,
					 .base = base, .mode64 = mode64 };
	assert_int_equal(pmu__pebs_fmt_init(&r->buf, arg), 0);
	assert_int_equal(pmu__sim_init(&r->sim, pmu__hwmodel_find(model)), 0);
	assert_int_equal(pmu__sim_pebs_attach(&r->sim, &r->pebs, &r->buf), 0);
	pmu__sim_set_irq(&r->sim, on_irq, r);
	assert_int_equal(pmu__sim_reg_write(&r->sim, PMU_SIM_REG_APIC,
					    PMU_SIM_APIC_LVTPC,
					    PMU_SIM_PERFCTR_VECTOR), 0);
	wr(r, CRU_ESCR2, ESCR_FE);
	wr(r, IQ_COUNTER4, (0 - period) & CTR_MASK);
	wr(r, IQ_CCCR4, CCCR_IQ4);
	wr(r, PMU_MSR_DS_AREA, pmu__pebs_fmt_ds_addr(&r->buf));
	wr(r, PMU_MSR_P4_PEBS_ENABLE, 0x03000000u);
}

static void snap_for(uint64_t k, struct pmu__sim_snapshot *sn)
{
	memset(sn, 0, sizeof(*sn));
	sn->ip = 0xFFFF800000400000ull + k;
	sn->flags = 0x200 + k;
	for (unsigned j = 0; j < PMU_SIM_NGPR; j++)
		sn->gpr[j] = 0xAAAA000000000000ull + k * 100 + j;
}

/* Feed events 1..n one at a time, the snapshot naming the event. */
static void feed(struct rig *r, uint64_t from, uint64_t to)
{
	for (uint64_t k = from; k <= to; k++) {
		struct pmu__sim_snapshot sn;

		snap_for(k, &sn);
		pmu__sim_set_snapshot(&r->sim, &sn);
		pmu__sim_advance(&r->sim, KEY_FE, 1, 1);
	}
}

/* Record i holds exactly the snapshot of event k (32-bit: low halves). */
static void check_record(struct rig *r, uint64_t i, uint64_t k, int line)
{
	uint64_t mask = r->buf.mode64 ? ~0ull : 0xFFFFFFFFull;
	unsigned nregs = r->buf.mode64 ? 16 : 8;
	struct pmu__sim_snapshot sn;
	struct pmu__pebs_rec rec;

	snap_for(k, &sn);
	pmu__pebs_fmt_record(&r->buf, i, &rec);
	if (rec.ip != (sn.ip & mask) || rec.flags != (sn.flags & mask))
		fail_msg("line %d: record %llu ip 0x%llx, want event %llu", line,
			 (unsigned long long)i, (unsigned long long)rec.ip,
			 (unsigned long long)k);
	for (unsigned j = 0; j < PMU_PEBS_MAX_REGS - 2; j++) {
		uint64_t want = j < nregs ? sn.gpr[j] & mask : 0;

		if (rec.regs[j] != want)
			fail_msg("line %d: record %llu reg %u = 0x%llx", line,
				 (unsigned long long)i, j,
				 (unsigned long long)rec.regs[j]);
	}
}

static void test_header_layout(void **state)
{
	static const struct {
		int line;
		bool mode64;
		uint64_t base, buf_size, thres, cnt_reset;
		uint64_t start_offs, pbase, abs_max, intr_thres;
		unsigned ds_off;
	} rows[] = {
		{ __LINE__, true, 0x100000, 4096, 20, 0xFFFFFFF000ull,
		  112, 0x100100, 0x101101, 0x100C40, 72 },
		{ __LINE__, false, 0x8000, 1000, 7, 0xFFFFFFFF00ull,
		  152, 0x8100, 0x84E9, 0x8218, 64 },
		{ __LINE__, true, 0x10080, 720, 1, 5,
		  240, 0x10200, 0x104D1, 0x10290, 72 },
		{ __LINE__, false, 0x10010, 400, 0, 0,
		  0x88, 0x10100, 0x10291, 0x10100, 64 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		static uint8_t mem[1024];
		struct pmu__pebs_buf b = { mem, sizeof(mem), rows[i].base,
					   rows[i].mode64 };
		struct pmu__pebs_fmt_arg arg = { rows[i].cnt_reset,
						 rows[i].buf_size, rows[i].thres };
		uint64_t got[4];

		memset(mem, 0xFF, sizeof(mem));
		assert_int_equal(pmu__pebs_fmt_init(&b, &arg), 0);
		got[0] = pmu__pebs_fmt_hdr(&b, PMU_PEBS_HDR_START_OFFS);
		got[1] = pmu__pebs_fmt_ds(&b, PMU_DS_PEBS_BUF_BASE);
		got[2] = pmu__pebs_fmt_ds(&b, PMU_DS_PEBS_ABS_MAX);
		got[3] = pmu__pebs_fmt_ds(&b, PMU_DS_PEBS_INTR_THRES);
		if (got[0] != rows[i].start_offs || got[1] != rows[i].pbase ||
		    got[2] != rows[i].abs_max || got[3] != rows[i].intr_thres)
			fail_msg("row at line %d: offs 0x%llx base 0x%llx max "
				 "0x%llx thres 0x%llx", rows[i].line,
				 (unsigned long long)got[0],
				 (unsigned long long)got[1],
				 (unsigned long long)got[2],
				 (unsigned long long)got[3]);
		assert_int_equal(pmu__pebs_hdr_ds_off(rows[i].mode64),
				 rows[i].ds_off);
		assert_int_equal(pmu__pebs_fmt_ds(&b, PMU_DS_PEBS_INDEX),
				 rows[i].pbase);
		assert_int_equal(pmu__pebs_fmt_ds(&b, PMU_DS_PEBS_CNT_RESET),
				 rows[i].cnt_reset);
		assert_int_equal(pmu__pebs_fmt_hdr(&b, PMU_PEBS_HDR_VERSION),
				 0x10000);
		assert_int_equal(pmu__pebs_fmt_hdr(&b, PMU_PEBS_HDR_BUF_SIZE),
				 rows[i].buf_size);
		assert_int_equal(pmu__pebs_fmt_hdr(&b, PMU_PEBS_HDR_OVERFLOWS), 0);
		assert_int_equal(pmu__pebs_fmt_ds(&b, PMU_DS_BTS_BUF_BASE), 0);
		assert_int_equal(pmu__pebs_fmt_count(&b), 0);
	}
}

/* Exact byte offsets: the index field of each layout, little-endian. */
static void test_raw_offsets(void **state)
{
	static uint8_t mem[512];
	struct pmu__pebs_buf b64 = { mem, sizeof(mem), 0x1000, true };
	struct pmu__pebs_buf b32 = { mem, sizeof(mem), 0x1000, false };
	struct pmu__pebs_fmt_arg arg = { 0x1122334455ull, 1000, 2 };

	(void)state;
	assert_int_equal(pmu__pebs_fmt_init(&b64, &arg), 0);
	/* 64-bit: DS at 72, pebs_index at 72 + 0x28, cnt_reset at 72 + 0x40 */
	assert_int_equal(mem[72 + 0x28], 0x00);
	assert_int_equal(mem[72 + 0x29], 0x11);
	assert_int_equal(mem[72 + 0x40], 0x55);
	assert_int_equal(mem[72 + 0x44], 0x11);
	assert_int_equal(mem[24], 0x00);        /* version 0x00010000 */
	assert_int_equal(mem[26], 0x01);
	assert_int_equal(pmu__pebs_hdr_size(true), 144);
	memset(mem, 0, sizeof(mem));
	assert_int_equal(pmu__pebs_fmt_init(&b32, &arg), 0);
	/* 32-bit: DS at 64, pebs_index at 64 + 0x14, cnt_reset at 64 + 0x20 */
	assert_int_equal(mem[64 + 0x14], 0x00);
	assert_int_equal(mem[64 + 0x15], 0x11);
	assert_int_equal(mem[64 + 0x20], 0x55);
	assert_int_equal(mem[8], 1000 & 0xFF);  /* buf_size */
	assert_int_equal(mem[12], 152);         /* start_offs */
	assert_int_equal(mem[18], 0x01);        /* version */
	assert_int_equal(pmu__pebs_hdr_size(false), 104);
}

static void test_fmt_validation(void **state)
{
	static const struct {
		int line;
		bool mode64;
		uint64_t buf_size;
		size_t mem;
		int want;
	} rows[] = {
		{ __LINE__, true, 543, 1024, -PMU_EINVAL },  /* 144+144+256 */
		{ __LINE__, true, 544, 1024, 0 },
		{ __LINE__, false, 399, 1024, -PMU_EINVAL }, /* 104+40+256 */
		{ __LINE__, false, 400, 1024, 0 },
		{ __LINE__, true, 4096, 143, -PMU_EINVAL },  /* header outside */
		{ __LINE__, false, 0xFFFFFFFFull, 1024, -PMU_EINVAL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		static uint8_t mem[1024];
		struct pmu__pebs_buf b = { mem, rows[i].mem, 0x4000,
					   rows[i].mode64 };
		struct pmu__pebs_fmt_arg arg = { 0, rows[i].buf_size, 1 };
		int got = pmu__pebs_fmt_init(&b, &arg);

		if (got != rows[i].want)
			fail_msg("row at line %d: %d", rows[i].line, got);
	}
}

/* Records at every (period + 1)-th event: `period` to overflow, then the
 * next qualifying event is recorded; contents = the fed snapshots. */
static void test_records(void **state)
{
	static const struct { int line; bool mode64; uint64_t period, n; } rows[] = {
		{ __LINE__, true, 10, 100 },
		{ __LINE__, false, 10, 100 },
		{ __LINE__, true, 1, 20 },
		{ __LINE__, false, 25, 200 },
	};
	static struct rig r;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmu__pebs_fmt_arg arg = { (0 - rows[i].period), 4096, 1000 };
		uint64_t step = rows[i].period + 1, want = rows[i].n / step;

		rig_init(&r, "p4", rows[i].mode64, 0x200000, 4096 + 256, &arg,
			 rows[i].period);
		feed(&r, 1, rows[i].n);
		if (pmu__pebs_fmt_count(&r.buf) != want)
			fail_msg("row at line %d: %llu records, want %llu",
				 rows[i].line,
				 (unsigned long long)pmu__pebs_fmt_count(&r.buf),
				 (unsigned long long)want);
		for (uint64_t k = 0; k < want; k++)
			check_record(&r, k, (k + 1) * step, rows[i].line);
		/* The counter restarted from cnt_reset after the last one. */
		assert_int_equal(rd(&r, IQ_COUNTER4),
				 (0 - rows[i].period + rows[i].n % step) & CTR_MASK);
		assert_int_equal(r.irqs, 0);
		/* PEBS overflows do not flag the CCCR. */
		assert_int_equal(rd(&r, IQ_CCCR4) & 0x80000000u, 0);
	}
}

/* Only a qualifying event triggers the armed assist. */
static void test_qualifying_event(void **state)
{
	static struct rig r;
	struct pmu__pebs_fmt_arg arg = { (uint64_t)-4, 4096, 1000 };

	(void)state;
	rig_init(&r, "p4", true, 0x200000, 4096 + 256, &arg, 4);
	feed(&r, 1, 4);                       /* overflow: armed */
	assert_int_equal(pmu__pebs_fmt_count(&r.buf), 0);
	pmu__sim_advance(&r.sim, PMU_SIM_P4_KEY(CRU_ESCR2, 0x09), 1, 50);
	assert_int_equal(pmu__pebs_fmt_count(&r.buf), 0);
	feed(&r, 5, 5);
	assert_int_equal(pmu__pebs_fmt_count(&r.buf), 1);
	check_record(&r, 0, 5, __LINE__);
}

/* The interrupt comes when pebs_index reaches the threshold entry, and
 * on every later record until software restarts the buffer. */
static void test_threshold(void **state)
{
	static const struct {
		int line;
		bool restart;
		uint64_t thres;
		unsigned irqs;
		uint64_t first_at, left, slot0;
	} rows[] = {
		{ __LINE__, false, 3, 7, 3, 9, 11 },  /* records 3..9 */
		{ __LINE__, true, 3, 3, 3, 0, 77 },   /* at 3, 6, 9 */
		{ __LINE__, true, 4, 2, 4, 1, 99 },   /* at 4, 8; one left */
		{ __LINE__, false, 1, 9, 1, 9, 11 },
		{ __LINE__, false, 10, 0, 0, 9, 11 },
	};
	static struct rig r;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmu__pebs_fmt_arg arg = { (uint64_t)-10, 4096,
						 rows[i].thres };

		rig_init(&r, "p4", true, 0x200000, 4096 + 256, &arg, 10);
		r.restart = rows[i].restart;
		feed(&r, 1, 100);                 /* 9 records */
		if (r.irqs != rows[i].irqs ||
		    (r.irqs && r.count_at_irq[0] != rows[i].first_at) ||
		    pmu__pebs_fmt_count(&r.buf) != rows[i].left)
			fail_msg("row at line %d: %u irqs, first at %llu, %llu left",
				 rows[i].line, r.irqs,
				 (unsigned long long)r.count_at_irq[0],
				 (unsigned long long)pmu__pebs_fmt_count(&r.buf));
		if (rows[i].restart)
			assert_int_equal(pmu__pebs_fmt_hdr(&r.buf,
							   PMU_PEBS_HDR_OVERFLOWS),
					 rows[i].irqs);
		/* Restarting rewrites the buffer from its first slot. */
		check_record(&r, 0, rows[i].slot0, rows[i].line);
	}
}

/* abs_max stops the buffer: no record at or past it, no wrap-around. */
static void test_full_buffer(void **state)
{
	static struct rig r;
	struct pmu__pebs_fmt_arg arg = { (uint64_t)-10, 5 * 144, 1000 };

	(void)state;
	rig_init(&r, "p4", true, 0x200000, 4096, &arg, 10);
	feed(&r, 1, 100);
	assert_int_equal(pmu__pebs_fmt_count(&r.buf), 5);
	assert_int_equal(r.pebs.written, 5);
	assert_int_equal(r.pebs.dropped, 4);
	for (uint64_t k = 0; k < 5; k++)
		check_record(&r, k, (k + 1) * 11, __LINE__);
	/* Nothing beyond the fifth record was touched. */
	assert_int_equal(r.arena[256 + 5 * 144], 0xA5);
	/* Restart: the buffer fills again from its base. */
	pmu__pebs_fmt_restart(&r.buf);
	feed(&r, 101, 121);
	assert_int_equal(pmu__pebs_fmt_count(&r.buf), 2);
	check_record(&r, 0, 110, __LINE__);
	check_record(&r, 1, 121, __LINE__);
}

/* A record must end at or below abs_max: exactly two fit below
 * base + 2 * 144, one below base + 2 * 144 - 1. */
static void test_abs_max_edge(void **state)
{
	static const struct { int line; uint64_t extra; int64_t adj; uint64_t want; } rows[] = {
		{ __LINE__, 2, 0, 2 },
		{ __LINE__, 2, -1, 1 },
		{ __LINE__, 2, 1, 2 },
		{ __LINE__, 0, 0, 0 },
		{ __LINE__, 0, 143, 0 },
		{ __LINE__, 0, 144, 1 },
	};
	static struct rig r;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmu__pebs_fmt_arg arg = { (uint64_t)-10, 4096, 1000 };
		uint64_t base;

		rig_init(&r, "p4", true, 0x200000, 4096 + 256, &arg, 10);
		base = pmu__pebs_fmt_ds(&r.buf, PMU_DS_PEBS_BUF_BASE);
		pmu__pebs_fmt_set_ds(&r.buf, PMU_DS_PEBS_ABS_MAX,
				     base + rows[i].extra * 144 + rows[i].adj);
		feed(&r, 1, 100);
		if (pmu__pebs_fmt_count(&r.buf) != rows[i].want)
			fail_msg("row at line %d: %llu records", rows[i].line,
				 (unsigned long long)pmu__pebs_fmt_count(&r.buf));
	}
}

/* The kernel's abs_max (base + buf_size + 1) may lie past the memory when
 * the header is not 256-aligned; records never go outside the memory. */
static void test_abs_max_clamped(void **state)
{
	static struct rig r;
	struct pmu__pebs_fmt_arg arg = { (uint64_t)-10, 720, 1000 };
	size_t size = 720 + 256;

	(void)state;
	rig_init(&r, "p4", true, 0x10080, size, &arg, 10);
	assert_int_equal(pmu__pebs_fmt_ds(&r.buf, PMU_DS_PEBS_ABS_MAX),
			 0x104D1);
	feed(&r, 1, 100);
	/* 0x10200 + 4 * 144 = 0x10440 <= 0x10450 (end); a fifth would end
	 * at 0x104D0, inside abs_max but past the memory. */
	assert_int_equal(pmu__pebs_fmt_count(&r.buf), 4);
	assert_int_equal(r.pebs.dropped, 5);
	for (size_t i = size; i < size + GUARD; i++)
		assert_int_equal(r.arena[i], 0xA5);
}

/* No PEBS: disabled, PEBS unavailable in MISC_ENABLE, HyperThreading.
 * Then the overflow is an ordinary one and sets CCCR.OVF. */
static void test_not_enabled(void **state)
{
	static const struct {
		int line;
		const char *model;
		uint32_t pebs_enable, misc;
	} rows[] = {
		{ __LINE__, "p4", 0, 0 },
		{ __LINE__, "p4", 0x02000000u, 0 },          /* bit 25 only */
		{ __LINE__, "p4m3", 0x03000000u, 0x1000u },
		{ __LINE__, "p4ht", 0x03000000u, 0 },
	};
	static struct rig r;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmu__pebs_fmt_arg arg = { (uint64_t)-10, 4096, 1 };

		rig_init(&r, rows[i].model, true, 0x200000, 4096 + 256, &arg, 10);
		wr(&r, PMU_MSR_P4_PEBS_ENABLE, rows[i].pebs_enable);
		wr(&r, PMU_MSR_P4_MISC_ENABLE, rows[i].misc);
		feed(&r, 1, 30);
		if (pmu__pebs_fmt_count(&r.buf) != 0 || r.irqs != 0 ||
		    !(rd(&r, IQ_CCCR4) & 0x80000000u))
			fail_msg("row at line %d: %llu records, %u irqs",
				 rows[i].line,
				 (unsigned long long)pmu__pebs_fmt_count(&r.buf),
				 r.irqs);
	}
}

static void test_attach(void **state)
{
	static struct rig r;
	struct pmu__pebs_buf b = { r.arena, 64, 0, true };

	(void)state;
	assert_int_equal(pmu__sim_init(&r.sim, pmu__hwmodel_find("p6")), 0);
	assert_int_equal(pmu__sim_pebs_attach(&r.sim, &r.pebs, &b), -PMU_EINVAL);
	assert_int_equal(pmu__sim_init(&r.sim, pmu__hwmodel_find("p4")), 0);
	assert_int_equal(pmu__sim_pebs_attach(&r.sim, &r.pebs, &b), 0);
	wr(&r, PMU_MSR_DS_AREA, 0x1234);
	assert_int_equal(rd(&r, PMU_MSR_DS_AREA), 0x1234);
	/* Memory access outside the buffer: loads 0, stores refused. */
	assert_int_equal(pmu__pebs_load(&b, 60, 8), 0);
	assert_int_equal(pmu__pebs_store(&b, 60, 8, 1), -PMU_EINVAL);
	assert_int_equal(pmu__pebs_store(&b, 56, 8, 0x0102), 0);
	assert_int_equal(pmu__pebs_load(&b, 56, 8), 0x0102);
	assert_int_equal(r.arena[56], 0x02);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_layout),
		cmocka_unit_test(test_raw_offsets),
		cmocka_unit_test(test_fmt_validation),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_qualifying_event),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_full_buffer),
		cmocka_unit_test(test_abs_max_edge),
		cmocka_unit_test(test_abs_max_clamped),
		cmocka_unit_test(test_not_enabled),
		cmocka_unit_test(test_attach),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
