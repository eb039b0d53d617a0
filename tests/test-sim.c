/* SPDX-License-Identifier: MIT */
/*
 * Register-level simulator: counter widths, write quirks, enables,
 * privilege filters, event matching, PPC freeze bits and the overflow
 * direction, interrupt delivery through LVTPC / PMXE.  Every expected
 * value below is worked out by hand from the seed rules.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "sim/sim.h"
#include "hwmodel/control.h"

#define MSR PMU_SIM_REG_MSR
#define SPR PMU_SIM_REG_SPR

enum op { END = 0, W, EV, CYC, USER, KERN, PMM0, PMM1 };

struct step {
	enum op op;
	uint32_t a;      /* W: address; EV: key */
	uint64_t b;      /* W: value; EV: count; CYC: count */
	uint32_t umask;  /* EV */
	enum pmu_sim_reg_kind kind;
};

struct check {
	enum pmu_sim_reg_kind kind;
	uint32_t addr;   /* 0 = end */
	uint64_t want;
};

struct row {
	int line;
	const char *model;
	struct step s[10];
	struct check c[4];
};

#define WM(a, v) { W, (a), (v), 0, MSR }
#define WS(a, v) { W, (a), (v), 0, SPR }
#define E(k, n) { EV, (k), (n), 0, 0 }
#define EU(k, u, n) { EV, (k), (n), (u), 0 }
#define C(n) { CYC, 0, (n), 0, 0 }
#define M(o) { o, 0, 0, 0, 0 }
#define RM(a, v) { MSR, (a), (v) }
#define RS(a, v) { SPR, (a), (v) }

#define P4_CRU_ESCR0 0x3B8u
#define P4_IQ_CCCR0  0x36Cu
#define P4_IQ_CTR0   0x30Cu
/* CCCR: ACTIVE_THREAD = 3, ESCR_SELECT = 4 (CRU_ESCR0), ENABLE. */
#define P4_CCCR      0x00039000u
/* ESCR: event 2, mask 1, T0_USR (the perfex example); T0_OS is bit 3. */
#define P4_ESCR_USR  0x04000204u
#define P4_ESCR_OS   0x04000208u
#define P4_KEY_CRU2  PMU_SIM_P4_KEY(P4_CRU_ESCR0, 2)

static const struct row rows[] = {
	/* P6: EVNTSEL0 = EN | OS | USR | event 0xC0. */
	{ __LINE__, "p6", { WM(0x186, 0x004300C0), E(0xC0, 100) },
	  { RM(0xC1, 100) } },
	/* P6 PMC1 alone: no global enable in EVNTSEL0, so it is idle. */
	{ __LINE__, "p6", { WM(0x187, 0x000300C0), E(0xC0, 100) },
	  { RM(0xC2, 0) } },
	/* ... and counts once EVNTSEL0 carries EN (PMC0 on another event). */
	{ __LINE__, "piii", { WM(0x187, 0x000300C0), WM(0x186, 0x00430079),
			      E(0xC0, 100) },
	  { RM(0xC2, 100), RM(0xC1, 0) } },
	/* Clearing EVNTSEL0.EN stops both counters. */
	{ __LINE__, "pii", { WM(0x186, 0x004300C0), WM(0x187, 0x000300C0),
			     E(0xC0, 7), WM(0x186, 0x000300C0), E(0xC0, 9) },
	  { RM(0xC1, 7), RM(0xC2, 7) } },
	/* USR only: kernel-mode events do not count. */
	{ __LINE__, "p6", { WM(0x186, 0x004100C0), M(KERN), E(0xC0, 4),
			    M(USER), E(0xC0, 5) },
	  { RM(0xC1, 5) } },
	/* OS only. */
	{ __LINE__, "p6", { WM(0x186, 0x004200C0), M(KERN), E(0xC0, 4),
			    M(USER), E(0xC0, 5) },
	  { RM(0xC1, 4) } },
	/* Unit mask 0x0F: umask 0x01 and "unspecified" count, 0x10 not. */
	{ __LINE__, "p6", { WM(0x186, 0x00430F2E), EU(0x2E, 0x01, 3),
			    EU(0x2E, 0x10, 4), EU(0x2E, 0, 5) },
	  { RM(0xC1, 8) } },
	/* Counter umask 0 matches every stream umask. */
	{ __LINE__, "p6", { WM(0x186, 0x0043002E), EU(0x2E, 0x40, 3) },
	  { RM(0xC1, 3) } },
	/* Other event codes do not count. */
	{ __LINE__, "p6", { WM(0x186, 0x004300C0), E(0xC1, 3), E(0xC4, 3) },
	  { RM(0xC1, 0) } },
	/* P6 counter writes sign-extend bit 31 into the 40-bit counter. */
	{ __LINE__, "p6", { WM(0xC1, 0x80000000), WM(0xC2, 0x17FFFFFFF) },
	  { RM(0xC1, 0xFF80000000), RM(0xC2, 0x7FFFFFFF) } },
	/* 40-bit wrap: 0xFFFFFFFFFF + 2 = 1. */
	{ __LINE__, "p6", { WM(0x186, 0x004300C0), WM(0xC1, 0xFFFFFFFF),
			    E(0xC0, 2) },
	  { RM(0xC1, 1) } },
	/* CPU_CLK_UNHALTED counts cycles; the TSC advances. */
	{ __LINE__, "p6", { WM(0x186, 0x00430079), C(1000), E(0x79, 5) },
	  { RM(0xC1, 1005), RM(0x10, 1000) } },
	/* K7: per-counter EN, no global gate; 48-bit writes kept whole. */
	{ __LINE__, "k7", { WM(0xC0010001, 0x004300C0),
			    WM(0xC0010000, 0x000300C0), E(0xC0, 6) },
	  { RM(0xC0010005, 6), RM(0xC0010004, 0) } },
	{ __LINE__, "k8", { WM(0xC0010004, 0x800000000000) },
	  { RM(0xC0010004, 0x800000000000) } },
	{ __LINE__, "k8c", { WM(0xC0010002, 0x00430076), C(300) },
	  { RM(0xC0010006, 300) } },
	/* fam10h: EventSelect[11:8] in EVNTSEL bits 35:32. */
	{ __LINE__, "fam10h", { WM(0xC0010000, 0x1004300E0), E(0x1E0, 3),
				E(0xE0, 4) },
	  { RM(0xC0010004, 3) } },
	/* P4: IQ_CCCR0 routes through CRU_ESCR0 (ESCR_SELECT 4). */
	{ __LINE__, "p4", { WM(P4_CRU_ESCR0, P4_ESCR_USR), WM(P4_IQ_CCCR0, P4_CCCR),
			    EU(P4_KEY_CRU2, 1, 10), M(KERN), EU(P4_KEY_CRU2, 1, 5) },
	  { RM(P4_IQ_CTR0, 10) } },
	{ __LINE__, "p4m2", { WM(P4_CRU_ESCR0, P4_ESCR_OS), WM(P4_IQ_CCCR0, P4_CCCR),
			      EU(P4_KEY_CRU2, 1, 10), M(KERN), EU(P4_KEY_CRU2, 1, 5) },
	  { RM(P4_IQ_CTR0, 5) } },
	/* ACTIVE_THREAD = 0: no count. */
	{ __LINE__, "p4", { WM(P4_CRU_ESCR0, P4_ESCR_USR),
			    WM(P4_IQ_CCCR0, 0x00009000), EU(P4_KEY_CRU2, 1, 10) },
	  { RM(P4_IQ_CTR0, 0) } },
	/* ENABLE clear: no count. */
	{ __LINE__, "p4", { WM(P4_CRU_ESCR0, P4_ESCR_USR),
			    WM(P4_IQ_CCCR0, 0x00038000), EU(P4_KEY_CRU2, 1, 10) },
	  { RM(P4_IQ_CTR0, 0) } },
	/* Event mask 1 does not intersect stream mask 2. */
	{ __LINE__, "p4", { WM(P4_CRU_ESCR0, P4_ESCR_USR), WM(P4_IQ_CCCR0, P4_CCCR),
			    EU(P4_KEY_CRU2, 2, 10), EU(P4_KEY_CRU2, 3, 1) },
	  { RM(P4_IQ_CTR0, 1) } },
	/* The other CRU ESCR of the pair names the same events (key). */
	{ __LINE__, "p4", { WM(0x3B9, P4_ESCR_USR), WM(0x36E, P4_CCCR),
			    EU(P4_KEY_CRU2, 1, 4) },
	  { RM(0x30E, 4) } },
	/* P5: CESR = half1 << 16 | half0; half0 event 0x16 CPL both,
	 * half1 event 0x16 CPL 3 (user) only. */
	{ __LINE__, "p5", { WM(0x11, 0x009600D6), E(0x16, 10), M(KERN),
			    E(0x16, 3) },
	  { RM(0x12, 13), RM(0x13, 10), RM(0x11, 0x009600D6) } },
	/* P5: a half with no CPL bit counts nothing. */
	{ __LINE__, "p5mmx", { WM(0x11, 0x00000016), E(0x16, 10) },
	  { RM(0x12, 0) } },
	/* MII: bit 10 is the 7th event bit: 0x04C5 selects event 0x45. */
	{ __LINE__, "mii", { WM(0x11, 0x000004C5), E(0x05, 2), E(0x45, 3) },
	  { RM(0x12, 3) } },
	/* PPC 750: PMC1SEL = 2 (<<6), PMC2SEL = 1 (cycles). */
	{ __LINE__, "ppc750", { WS(0x3B8, 0x00000081), E(2, 10), C(50) },
	  { RS(0x3B9, 10), RS(0x3BA, 50), RS(268, 50) } },
	/* FC freezes everything. */
	{ __LINE__, "ppc750", { WS(0x3B8, 0x80000080), E(2, 10) },
	  { RS(0x3B9, 0) } },
	/* FCS: frozen in supervisor; FCP: frozen in problem (user) state. */
	{ __LINE__, "ppc750", { WS(0x3B8, 0x40000080), M(KERN), E(2, 5),
				M(USER), E(2, 7) },
	  { RS(0x3B9, 7) } },
	{ __LINE__, "ppc604e", { WS(0x3B8, 0x20000080), M(KERN), E(2, 5),
				 M(USER), E(2, 7) },
	  { RS(0x3B9, 5) } },
	/* FCM1: frozen while MSR[PMM] = 1; FCM0: while it is 0. */
	{ __LINE__, "ppc7400", { WS(0x3B8, 0x10000080), M(PMM1), E(2, 5),
				 M(PMM0), E(2, 7) },
	  { RS(0x3B9, 7) } },
	{ __LINE__, "ppc7450", { WS(0x3B8, 0x08000080), M(PMM1), E(2, 5),
				 M(PMM0), E(2, 7) },
	  { RS(0x3B9, 5) } },
	/* MMCR1: PMC3SEL = 3 at bit 27; PMC6SEL = 4 at bit 11. */
	{ __LINE__, "ppc7450", { WS(0x3BC, 0x18002000), E(3, 4), E(4, 2) },
	  { RS(0x3BD, 4), RS(0x3B2, 2) } },
	/* Same event number on PMC1 and PMC2; umask 2 aims at PMC2. */
	{ __LINE__, "ppc750", { WS(0x3B8, 0x00000082), EU(2, 0x2, 6), E(2, 1) },
	  { RS(0x3B9, 1), RS(0x3BA, 7) } },
	/* Overflow is bit 31 becoming 1: PMC1CE | PMXE raise the PM
	 * exception once and the 750 clears PMXE. */
	{ __LINE__, "ppc750", { WS(0x3B9, 0x7FFFFFFE), WS(0x3B8, 0x04008080),
				E(2, 1), E(2, 3) },
	  { RS(0x3B9, 0x80000002), RS(0x3B8, 0x00008080) } },
	/* The 604 keeps PMXE. */
	{ __LINE__, "ppc604", { WS(0x3B9, 0x7FFFFFFF), WS(0x3B8, 0x04008080),
				E(2, 1) },
	  { RS(0x3B8, 0x04008080) } },
	/* TRIGGER: PMC2 frozen until PMC1's overflow (3rd event), which
	 * clears TRIGGER; PMC2 then counts the last 2. */
	{ __LINE__, "ppc7400", { WS(0x3B9, 0x7FFFFFFD), WS(0x3B8, 0x0000A082),
				 E(2, 5) },
	  { RS(0x3BA, 2), RS(0x3B9, 0x80000002), RS(0x3B8, 0x00008082) } },
	/* FCECE: the enabled condition sets FC; nothing counts after it. */
	{ __LINE__, "ppc7450", { WS(0x3B9, 0x7FFFFFFE), WS(0x3B8, 0x02008080),
				 E(2, 5) },
	  { RS(0x3B9, 0x80000000), RS(0x3B8, 0x82008080) } },
	/* Without PMC1CE an overflow is no condition: FCECE does nothing. */
	{ __LINE__, "ppc7450", { WS(0x3B9, 0x7FFFFFFE), WS(0x3B8, 0x02000080),
				 E(2, 5) },
	  { RS(0x3B9, 0x80000003), RS(0x3B8, 0x02000080) } },
	/* Event 0: the counter holds. */
	{ __LINE__, "ppc750", { WS(0x3B9, 42), WS(0x3B8, 0), E(0, 5), C(9) },
	  { RS(0x3B9, 42) } },
	/* VIA C3: PERFCTR0 is the TSC; EVNTSEL1 always counts. */
	{ __LINE__, "vc3", { WM(0x187, 0xC0), E(0xC0, 3), C(77) },
	  { RM(0xC2, 3), RM(0xC1, 77) } },
	/* WinChip C6 counters cannot be stopped: no CPL bits needed. */
	{ __LINE__, "wcc6", { WM(0x11, 0x00000012), E(0x12, 4), M(KERN),
			      E(0x12, 1) },
	  { RM(0x12, 5) } },
};

static void apply(struct pmu__sim *s, const struct step *st, int line)
{
	switch (st->op) {
	case W:
		if (pmu__sim_reg_write(s, st->kind, st->a, st->b) != 0)
			fail_msg("line %d: write 0x%x failed", line, st->a);
		break;
	case EV:
		pmu__sim_advance(s, st->a, st->umask, st->b);
		break;
	case CYC:
		pmu__sim_cycles(s, st->b);
		break;
	case USER:
	case KERN:
		pmu__sim_set_mode(s, st->op == KERN ? PMU_SIM_KERNEL : PMU_SIM_USER);
		break;
	default:
		pmu__sim_set_pmm(s, st->op == PMM1);
		break;
	}
}

static void test_rows(void **unused)
{
	(void)unused;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		const struct pmu_hwmodel *m = pmu__hwmodel_find(r->model);
		struct pmu__sim s;

		if (!m)
			fail_msg("line %d: no model %s", r->line, r->model);
		assert_int_equal(pmu__sim_init(&s, m), 0);
		for (size_t k = 0; k < 10 && r->s[k].op != END; k++)
			apply(&s, &r->s[k], r->line);
		for (size_t k = 0; k < 4 && r->c[k].addr; k++) {
			uint64_t v = ~0ull;

			if (pmu__sim_reg_read(&s, r->c[k].kind, r->c[k].addr, &v))
				fail_msg("line %d: read 0x%x failed", r->line,
					 r->c[k].addr);
			if (v != r->c[k].want)
				fail_msg("line %d: reg 0x%x = 0x%llx, want 0x%llx",
					 r->line, r->c[k].addr,
					 (unsigned long long)v,
					 (unsigned long long)r->c[k].want);
		}
	}
}

/* Register addresses that a model does not have fault. */
static void test_bad_registers(void **unused)
{
	static const struct {
		int line;
		const char *model;
		enum pmu_sim_reg_kind kind;
		uint32_t addr;
		int want;
	} bad[] = {
		{ __LINE__, "p6", MSR, 0x188, -PMU_EINVAL },
		{ __LINE__, "p6", SPR, 0x3B8, -PMU_ENOSYS },
		{ __LINE__, "p4", MSR, 0x3D0, -PMU_EINVAL }, /* ESCR gap */
		{ __LINE__, "p4", MSR, 0x3BF, -PMU_EINVAL }, /* no SSU_ESCR1 */
		{ __LINE__, "p4m3", MSR, 0x3BA, -PMU_EINVAL }, /* no IQ_ESCR0 */
		{ __LINE__, "p4", MSR, 0x3BA, 0 },
		{ __LINE__, "ppc604", SPR, 0x3BC, -PMU_EINVAL }, /* no MMCR1 */
		{ __LINE__, "ppc750", SPR, 0x3B0, -PMU_EINVAL }, /* no MMCR2 */
		{ __LINE__, "ppc7400", SPR, 0x3B0, 0 },
		{ __LINE__, "p5", MSR, 0x186, -PMU_EINVAL },
		{ __LINE__, "k7", PMU_SIM_REG_APIC, 0x350, -PMU_EINVAL },
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pmu__sim s;
		int got;

		assert_int_equal(pmu__sim_init(&s, pmu__hwmodel_find(bad[i].model)), 0);
		got = pmu__sim_reg_write(&s, bad[i].kind, bad[i].addr, 0);
		if (got != bad[i].want)
			fail_msg("line %d: got %d want %d", bad[i].line, got,
				 bad[i].want);
	}
}

struct irqlog {
	int n;
	uint64_t pc[8];
	enum pmu_sim_irq src[8];
};

static void on_irq(struct pmu__sim *s, void *arg, enum pmu_sim_irq src,
		   uint64_t pc)
{
	struct irqlog *l = arg;

	(void)s;
	if (l->n < 8) {
		l->pc[l->n] = pc;
		l->src[l->n] = src;
	}
	l->n++;
}

/* Feed `total` single events with ip = 0x1000 + k. */
static void feed_ips(struct pmu__sim *s, uint32_t key, int total)
{
	for (int k = 0; k < total; k++) {
		pmu__sim_set_ip(s, 0x1000 + (uint64_t)k);
		pmu__sim_advance(s, key, 0, 1);
	}
}

/* P6: INT bit + LVTPC.  Masked LVTPC (reset value) drops the PMI. */
static void test_p6_interrupt(void **unused)
{
	struct pmu__sim s;
	struct irqlog log = { 0 };

	(void)unused;
	assert_int_equal(pmu__sim_init(&s, pmu__hwmodel_find("p6")), 0);
	pmu__sim_set_irq(&s, on_irq, &log);
	pmu__sim_wrmsr(&s, 0xC1, (uint64_t)-3);      /* -3: 3 events */
	pmu__sim_wrmsr(&s, 0x186, 0x005300C0);       /* EN INT OS USR */
	feed_ips(&s, 0xC0, 3);
	assert_int_equal(log.n, 0);
	assert_int_equal(s.stats.irqs_masked, 1);
	assert_int_equal(s.stats.overflows, 1);

	pmu__sim_reg_write(&s, PMU_SIM_REG_APIC, PMU_SIM_APIC_LVTPC, 0xEE);
	pmu__sim_wrmsr(&s, 0xC1, (uint64_t)-2);
	feed_ips(&s, 0xC0, 4);   /* overflow at the 2nd event: ip 0x1001 */
	assert_int_equal(log.n, 1);
	assert_int_equal(log.pc[0], 0x1001);
	assert_int_equal(log.src[0], PMU_SIM_IRQ_PMC);
	/* P6 does not auto-mask: a second overflow interrupts again. */
	pmu__sim_wrmsr(&s, 0xC1, (uint64_t)-1);
	feed_ips(&s, 0xC0, 1);
	assert_int_equal(log.n, 2);
	assert_int_equal(log.pc[1], 0x1000);
}

/* P4: CCCR.OVF is set; OVF_PMI_T0 raises the PMI and LVTPC auto-masks. */
static void test_p4_interrupt(void **unused)
{
	struct pmu__sim s;
	struct irqlog log = { 0 };
	uint64_t v;

	(void)unused;
	assert_int_equal(pmu__sim_init(&s, pmu__hwmodel_find("p4")), 0);
	pmu__sim_set_irq(&s, on_irq, &log);
	pmu__sim_reg_write(&s, PMU_SIM_REG_APIC, PMU_SIM_APIC_LVTPC, 0xEE);
	pmu__sim_wrmsr(&s, P4_CRU_ESCR0, P4_ESCR_USR);
	pmu__sim_wrmsr(&s, P4_IQ_CTR0, 0xFFFFFFFFFFull - 1);  /* -2 in 40 bits */
	pmu__sim_wrmsr(&s, P4_IQ_CCCR0, P4_CCCR | PMU_P4_CCCR_OVF_PMI_T0);
	for (int k = 0; k < 2; k++) {
		pmu__sim_set_ip(&s, 0x2000 + (uint64_t)k);
		pmu__sim_advance(&s, P4_KEY_CRU2, 1, 1);
	}
	assert_int_equal(log.n, 1);
	assert_int_equal(log.pc[0], 0x2001);
	pmu__sim_rdmsr(&s, P4_IQ_CCCR0, &v);
	assert_true(v & PMU_P4_CCCR_OVF);
	pmu__sim_reg_read(&s, PMU_SIM_REG_APIC, PMU_SIM_APIC_LVTPC, &v);
	assert_int_equal(v, 0xEE | PMU_SIM_LVT_MASKED);
	/* Masked now: the next overflow is not delivered. */
	pmu__sim_wrmsr(&s, P4_IQ_CTR0, 0xFFFFFFFFFFull);
	pmu__sim_advance(&s, P4_KEY_CRU2, 1, 1);
	assert_int_equal(log.n, 1);
	assert_int_equal(s.stats.irqs_masked, 1);
}

/* P6 family and K7: after one delivered PMI, is LVTPC masked?  Only the
 * Pentium M masks it itself (seed-semantics §1.6). */
static const struct { int line; const char *model; uint32_t ctr, sel;
		      bool masked; } automask_rows[] = {
	{ __LINE__, "p6", 0xC1, 0x186, false },
	{ __LINE__, "pii", 0xC1, 0x186, false },
	{ __LINE__, "piii", 0xC1, 0x186, false },
	{ __LINE__, "pentm", 0xC1, 0x186, true },
	{ __LINE__, "k7", 0xC0010004, 0xC0010000, false },
	{ __LINE__, "k8c", 0xC0010004, 0xC0010000, false },
};

static void test_lvtpc_automask(void **unused)
{
	(void)unused;
	for (size_t i = 0; i < sizeof(automask_rows) / sizeof(automask_rows[0]); i++) {
		struct pmu__sim s;
		struct irqlog log = { 0 };
		uint64_t v = 0;

		assert_int_equal(pmu__sim_init(&s, pmu__hwmodel_find(automask_rows[i].model)), 0);
		pmu__sim_set_irq(&s, on_irq, &log);
		pmu__sim_reg_write(&s, PMU_SIM_REG_APIC, PMU_SIM_APIC_LVTPC, 0xEE);
		pmu__sim_wrmsr(&s, automask_rows[i].ctr, (uint64_t)-1);
		pmu__sim_wrmsr(&s, automask_rows[i].sel, 0x005300C0);
		feed_ips(&s, 0xC0, 1);
		pmu__sim_reg_read(&s, PMU_SIM_REG_APIC, PMU_SIM_APIC_LVTPC, &v);
		if (log.n != 1 || v != (0xEE | (automask_rows[i].masked ?
						 PMU_SIM_LVT_MASKED : 0)))
			fail_msg("line %d: %s: %d PMIs, LVTPC 0x%llx",
				 automask_rows[i].line, automask_rows[i].model,
				 log.n, (unsigned long long)v);
	}
}

/* Bulk advance stops at every overflow: floor(n / period) interrupts. */
static void on_irq_reload(struct pmu__sim *s, void *arg, enum pmu_sim_irq src,
			  uint64_t pc)
{
	int *n = arg;

	(void)src;
	(void)pc;
	(*n)++;
	pmu__sim_wrmsr(s, 0xC0010004, (uint64_t)-1000); /* reload -1000 */
}

static void test_bulk_overflows(void **unused)
{
	struct pmu__sim s;
	int n = 0;
	uint64_t v;

	(void)unused;
	assert_int_equal(pmu__sim_init(&s, pmu__hwmodel_find("k8")), 0);
	pmu__sim_set_irq(&s, on_irq_reload, &n);
	pmu__sim_reg_write(&s, PMU_SIM_REG_APIC, PMU_SIM_APIC_LVTPC, 0xEE);
	pmu__sim_wrmsr(&s, 0xC0010004, (uint64_t)-1000);
	pmu__sim_wrmsr(&s, 0xC0010000, 0x005300C0);
	pmu__sim_advance(&s, 0xC0, 0, 1234567);
	assert_int_equal(n, 1234);
	pmu__sim_rdmsr(&s, 0xC0010004, &v);
	/* 567 events since the last reload of -1000. */
	assert_int_equal(v, (0xFFFFFFFFFFFFull - 1000 + 1 + 567) & 0xFFFFFFFFFFFFull);
}

/* RDPMC: P4 fast bit returns 32 bits; P5 has no RDPMC. */
static void test_rdpmc(void **unused)
{
	struct pmu__sim s;
	uint64_t v = 0;

	(void)unused;
	assert_int_equal(pmu__sim_init(&s, pmu__hwmodel_find("p4")), 0);
	pmu__sim_wrmsr(&s, P4_IQ_CTR0, 0xAB12345678ull);
	assert_int_equal(pmu__sim_rdpmc(&s, 12, &v), 0);
	assert_int_equal(v, 0xAB12345678ull);
	assert_int_equal(pmu__sim_rdpmc(&s, 12 | 0x80000000u, &v), 0);
	assert_int_equal(v, 0x12345678u);
	assert_int_equal(pmu__sim_rdpmc(&s, 18, &v), -PMU_EINVAL);
	assert_int_equal(pmu__sim_init(&s, pmu__hwmodel_find("p5")), 0);
	assert_int_equal(pmu__sim_rdpmc(&s, 0, &v), -PMU_ENOSYS);
	assert_int_equal(pmu__sim_init(&s, pmu__hwmodel_find("p5mmx")), 0);
	assert_int_equal(pmu__sim_rdpmc(&s, 1, &v), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_bad_registers),
		cmocka_unit_test(test_p6_interrupt),
		cmocka_unit_test(test_p4_interrupt),
		cmocka_unit_test(test_lvtpc_automask),
		cmocka_unit_test(test_bulk_overflows),
		cmocka_unit_test(test_rdpmc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
