/* SPDX-License-Identifier: MIT */
/*
 * perfctr's low-level driver on the simulator: 64-bit virtualisation of
 * 32-bit reads, i-mode overflow handling as vperfctr drives it, the
 * control-register cache, reservation, P6/P5/P4 control effects.
 * Expected values come from the seed rules, not from running the code.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sim/perfctr.h"
#include "sim/xscale.h"

struct rig {
	struct pmu__sim sim;
	struct pmu__perfctr pc;
	struct pmu__perfctr_state st;
	struct pmu__xscale xs;
	/* what the overflow handler saw */
	int nirq;
	uint32_t masks[64];
	uint64_t pcs[64];
	uint64_t mask_or;
};

static void rig_init(struct rig *r, const char *model)
{
	const struct pmu_hwmodel *m = pmu__hwmodel_find(model);

	memset(r, 0, sizeof(*r));
	assert_non_null(m);
	assert_int_equal(pmu__sim_init(&r->sim, m), 0);
	if (m->arch == PMU_ARCH_ARM)
		assert_int_equal(pmu__sim_xscale_attach(&r->sim, &r->xs), 0);
	assert_int_equal(pmu__perfctr_init(&r->pc, &r->sim, model), 0);
	assert_null(pmu__perfctr_reserve(&r->pc, "test"));
	pmu__perfctr_state_init(&r->st);
}

/* What vperfctr's overflow handler does, with an immediate iresume. */
static void vperfctr_handler(void *arg, uint64_t pc)
{
	struct rig *r = arg;
	uint32_t mask;

	pmu__perfctr_suspend(&r->pc, &r->st);
	mask = pmu__perfctr_identify_overflow(&r->pc, &r->st);
	if (r->nirq < 64) {
		r->masks[r->nirq] = mask;
		r->pcs[r->nirq] = pc;
	}
	r->mask_or |= mask;
	r->nirq++;
	pmu__perfctr_ireload(&r->pc, &r->st);
	pmu__perfctr_resume(&r->pc, &r->st);
}

static void test_reserve(void **unused)
{
	struct rig r;

	(void)unused;
	rig_init(&r, "p6");
	assert_string_equal(pmu__perfctr_reserve(&r.pc, "other"), "test");
	assert_int_equal(pmu__perfctr_release(&r.pc, "other"), -PMU_EPERM);
	assert_string_equal(pmu__perfctr_reserve(&r.pc, "other"), "test");
	assert_int_equal(pmu__perfctr_release(&r.pc, "test"), 0);
	assert_int_equal(pmu__perfctr_release(&r.pc, "test"), -PMU_EPERM);
	assert_null(pmu__perfctr_reserve(&r.pc, "other"));
	assert_string_equal(pmu__perfctr_reserve(&r.pc, "test"), "other");
	assert_int_equal(pmu__perfctr_init(&r.pc, &r.sim, "p7"), -PMU_ENOENT);
}

/* One a-mode counter per model counting `key` in user mode. */
struct acfg {
	const char *model;
	uint32_t map, evntsel, escr, mmcr0;
	uint32_t key, umask;
};

static const struct acfg acfgs[] = {
	{ "p6", 0, 0x004300C0, 0, 0, 0xC0, 0 },
	{ "k8", 2, 0x004300C0, 0, 0, 0xC0, 0 },
	{ "p4", 0x8000000C, 0x00039000, 0x04000204, 0,
	  PMU_SIM_P4_KEY(0x3B8, 2), 1 },
	{ "p5mmx", 1, 0x00D6, 0, 0, 0x16, 0 },
	{ "p5", 0, 0x00D6, 0, 0, 0x16, 0 },
	{ "ppc750", 0, 2, 0, 0, 2, 0 },
	{ "xscale1", 1, 7, 0, 0, 7, 0 },
	{ "xscale2", 3, 7, 0, 0, 7, 0 },
};

static const struct acfg *acfg_find(const char *model)
{
	for (size_t i = 0; i < sizeof(acfgs) / sizeof(acfgs[0]); i++)
		if (!strcmp(acfgs[i].model, model))
			return &acfgs[i];
	fail_msg("no config for %s", model);
	return NULL;
}

static void control_amode(struct rig *r, const struct acfg *a)
{
	struct pmu_control *c = &r->st.control;

	c->tsc_on = 1;
	c->nractrs = 1;
	c->pmc_map[0] = a->map;
	c->evntsel[0] = a->evntsel;
	c->p4.escr[0] = a->escr;
	c->ppc.mmcr0 = a->mmcr0;
}

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * 2^40 events through counters read 32 bits at a time.  Sampling at
 * least once per 2^31 events must lose nothing; sampling after more than
 * 2^32 events loses whole multiples of 2^32 (the rows with fixed chunks
 * show the test can tell).
 */
static void test_virtualization(void **unused)
{
	static const struct {
		int line;
		const char *model;
		uint64_t total, chunk;   /* chunk 0 = random in [1, 2^31] */
		uint64_t want;
	} rows[] = {
		{ __LINE__, "p6", 1ull << 40, 0, 1ull << 40 },
		{ __LINE__, "k8", 1ull << 40, 0, 1ull << 40 },
		{ __LINE__, "p4", 1ull << 40, 0, 1ull << 40 },
		{ __LINE__, "p5mmx", 1ull << 40, 0, 1ull << 40 },
		{ __LINE__, "p5", 1ull << 36, 0, 1ull << 36 },
		{ __LINE__, "ppc750", 1ull << 40, 0, 1ull << 40 },
		{ __LINE__, "xscale1", 1ull << 38, 0, 1ull << 38 },
		{ __LINE__, "xscale2", 1ull << 38, 0, 1ull << 38 },
		{ __LINE__, "p6", 1ull << 31, 1ull << 31, 1ull << 31 },
		/* 3 chunks of 2^32 + 5: each sample sees only 5 */
		{ __LINE__, "p6", 3 * ((1ull << 32) + 5), (1ull << 32) + 5, 15 },
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct acfg *a = acfg_find(rows[i].model);
		uint64_t seed = 0x9E3779B97F4A7C15ull + i, left = rows[i].total;
		struct rig r;

		rig_init(&r, rows[i].model);
		control_amode(&r, a);
		if (pmu__perfctr_update_control(&r.pc, &r.st, false))
			fail_msg("line %d: control rejected: %s", rows[i].line,
				 r.st.check.rule);
		pmu__perfctr_resume(&r.pc, &r.st);
		while (left) {
			uint64_t n = rows[i].chunk ? rows[i].chunk
				   : 1 + xorshift(&seed) % (1ull << 31);

			if (n > left)
				n = left;
			pmu__sim_advance(&r.sim, a->key, a->umask, n);
			pmu__sim_cycles(&r.sim, n);
			pmu__perfctr_sample(&r.pc, &r.st);
			left -= n;
		}
		pmu__perfctr_suspend(&r.pc, &r.st);
		if (r.st.pmc[0].sum != rows[i].want)
			fail_msg("line %d: pmc sum %llu want %llu", rows[i].line,
				 (unsigned long long)r.st.pmc[0].sum,
				 (unsigned long long)rows[i].want);
		if (r.st.tsc_sum != rows[i].want)
			fail_msg("line %d: tsc sum %llu want %llu", rows[i].line,
				 (unsigned long long)r.st.tsc_sum,
				 (unsigned long long)rows[i].want);
	}
}

/* An i-mode counter (index 1) plus an a-mode counter (index 0) on the
 * same event; ireset = -period (PPC: 2^31 - period). */
static void control_imode(struct rig *r, const char *model, uint32_t period)
{
	struct pmu_control *c = &r->st.control;

	c->tsc_on = 1;
	c->nractrs = 1;
	c->nrictrs = 1;
	c->ireset[1] = -(int32_t)period;
	if (!strcmp(model, "p6") || !strcmp(model, "pentm")) {
		c->pmc_map[0] = 1;
		c->evntsel[0] = 0x000300C0;
		c->pmc_map[1] = 0;
		c->evntsel[1] = 0x005300C0;     /* EN INT OS USR */
	} else if (!strcmp(model, "k7")) {
		c->pmc_map[0] = 3;
		c->evntsel[0] = 0x004300C0;
		c->pmc_map[1] = 1;
		c->evntsel[1] = 0x005300C0;
	} else if (!strcmp(model, "p4") || !strcmp(model, "p4m3")) {
		c->pmc_map[0] = 0x8000000C;
		c->evntsel[0] = 0x00039000;
		c->p4.escr[0] = 0x0400020C;    /* T0_OS | T0_USR */
		c->pmc_map[1] = 0x8000000E;
		c->evntsel[1] = 0x04039000;    /* + OVF_PMI_T0 */
		c->p4.escr[1] = 0x0400020C;
	} else if (!strncmp(model, "ppc", 3)) {
		c->pmc_map[0] = 1;
		c->evntsel[0] = 2;
		c->pmc_map[1] = 0;
		c->evntsel[1] = 2;
		c->ppc.mmcr0 = PMU_PPC_MMCR0_PMXE;
		c->ireset[1] = (int32_t)(0x80000000u - period);
	} else { /* xscale */
		c->pmc_map[0] = 0;
		c->evntsel[0] = 7;
		c->pmc_map[1] = 1;
		c->evntsel[1] = 7;
	}
}

static uint32_t imode_key(const char *model)
{
	if (!strncmp(model, "p4", 2))
		return PMU_SIM_P4_KEY(0x3B8, 2);
	if (!strncmp(model, "ppc", 3))
		return 2;
	if (!strncmp(model, "xscale", 6))
		return 7;
	return 0xC0;
}

static void imode_start(struct rig *r, const char *model, uint32_t period,
			int line)
{
	rig_init(r, model);
	control_imode(r, model, period);
	pmu__perfctr_set_ihandler(&r->pc, vperfctr_handler, r);
	if (pmu__perfctr_update_control(&r->pc, &r->st, false))
		fail_msg("line %d: control rejected: %s (%s)", line,
			 r->st.check.rule, r->st.check.message);
	pmu__perfctr_resume(&r->pc, &r->st);
}

/* Overflows counted == floor(events / period); no event lost. */
static void test_imode_counts(void **unused)
{
	static const struct {
		int line;
		const char *model;
		uint32_t period;
		uint64_t events;
	} rows[] = {
		{ __LINE__, "p6", 1000, 1234567 },
		{ __LINE__, "p6", 1, 1000 },
		{ __LINE__, "pentm", 7, 700 },
		{ __LINE__, "k7", 3, 100 },
		{ __LINE__, "k7", 0x7FFFFFFF, 0x100000000ull },
		{ __LINE__, "p4", 1000, 999 },
		{ __LINE__, "p4m3", 10, 100000 },
		{ __LINE__, "ppc750", 5, 1001 },
		{ __LINE__, "ppc7450", 100000, 1000000 },
		{ __LINE__, "xscale1", 9, 1000 },
		{ __LINE__, "xscale2", 64, 64 * 64 },
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct rig r;
		uint64_t want = rows[i].events / rows[i].period;

		imode_start(&r, rows[i].model, rows[i].period, rows[i].line);
		pmu__sim_advance(&r.sim, imode_key(rows[i].model), 0,
				 rows[i].events);
		pmu__perfctr_suspend(&r.pc, &r.st);
		if ((uint64_t)r.nirq != want)
			fail_msg("line %d: %d overflows, want %llu", rows[i].line,
				 r.nirq, (unsigned long long)want);
		if (want && r.mask_or != 2u)
			fail_msg("line %d: masks 0x%llx, want 0x2", rows[i].line,
				 (unsigned long long)r.mask_or);
		if (r.st.pmc[1].sum != rows[i].events ||
		    r.st.pmc[0].sum != rows[i].events)
			fail_msg("line %d: sums %llu/%llu want %llu", rows[i].line,
				 (unsigned long long)r.st.pmc[0].sum,
				 (unsigned long long)r.st.pmc[1].sum,
				 (unsigned long long)rows[i].events);
	}
}

/* The handler sees the PC of the event that overflowed. */
static void test_imode_pcs(void **unused)
{
	static const struct {
		int line;
		const char *model;
		uint32_t period;
	} rows[] = {
		{ __LINE__, "p6", 7 },
		{ __LINE__, "k7", 1 },
		{ __LINE__, "p4", 5 },
		{ __LINE__, "ppc750", 3 },
		{ __LINE__, "xscale1", 4 },
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct rig r;
		uint32_t key = imode_key(rows[i].model);
		int n = 40;

		imode_start(&r, rows[i].model, rows[i].period, rows[i].line);
		for (int k = 1; k <= n; k++) {
			pmu__sim_set_ip(&r.sim, 0x400000 + 4 * (uint64_t)k);
			pmu__sim_advance(&r.sim, key, 0, 1);
		}
		if (r.nirq != n / (int)rows[i].period)
			fail_msg("line %d: %d overflows", rows[i].line, r.nirq);
		for (int j = 0; j < r.nirq; j++) {
			/* the (j+1)-th overflow is event (j+1)*period */
			uint64_t want = 0x400000 + 4 * (uint64_t)(j + 1) *
					rows[i].period;

			if (r.pcs[j] != want || r.masks[j] != 2u)
				fail_msg("line %d: irq %d pc 0x%llx mask 0x%x",
					 rows[i].line, j,
					 (unsigned long long)r.pcs[j], r.masks[j]);
		}
	}
}

/* P6: a control using only PMC1 is valid but counts nothing, because
 * the global enable lives in EVNTSEL0. */
static void test_p6_global_enable(void **unused)
{
	struct rig r;
	struct pmu_control *c;

	(void)unused;
	rig_init(&r, "p6");
	c = &r.st.control;
	c->nractrs = 1;
	c->pmc_map[0] = 1;
	c->evntsel[0] = 0x000300C0;
	assert_int_equal(pmu__perfctr_update_control(&r.pc, &r.st, false), 0);
	pmu__perfctr_resume(&r.pc, &r.st);
	pmu__sim_advance(&r.sim, 0xC0, 0, 100);
	pmu__perfctr_suspend(&r.pc, &r.st);
	assert_int_equal(r.st.pmc[0].sum, 0);

	c->nractrs = 2;
	c->pmc_map[1] = 0;
	c->evntsel[1] = 0x00430079;
	assert_int_equal(pmu__perfctr_update_control(&r.pc, &r.st, false), 0);
	pmu__perfctr_resume(&r.pc, &r.st);
	pmu__sim_advance(&r.sim, 0xC0, 0, 100);
	pmu__sim_cycles(&r.sim, 50);
	pmu__perfctr_suspend(&r.pc, &r.st);
	assert_int_equal(r.st.pmc[0].sum, 100);
	assert_int_equal(r.st.pmc[1].sum, 50);
}

/* P5: both halves land in one CESR, counter 1 in the high half. */
static void test_p5_cesr(void **unused)
{
	struct rig r;
	struct pmu_control *c;
	uint64_t cesr = 0;

	(void)unused;
	rig_init(&r, "p5mmx");
	c = &r.st.control;
	c->nractrs = 2;
	c->pmc_map[0] = 1;
	c->evntsel[0] = 0x0096;   /* event 0x16, CPL 3 */
	c->pmc_map[1] = 0;
	c->evntsel[1] = 0x0056;   /* event 0x16, CPL 0-2 */
	assert_int_equal(pmu__perfctr_update_control(&r.pc, &r.st, false), 0);
	pmu__perfctr_resume(&r.pc, &r.st);
	assert_int_equal(pmu__sim_rdmsr(&r.sim, 0x11, &cesr), 0);
	assert_int_equal(cesr, 0x00960056);
	pmu__sim_advance(&r.sim, 0x16, 0, 11);
	pmu__sim_set_mode(&r.sim, PMU_SIM_KERNEL);
	pmu__sim_advance(&r.sim, 0x16, 0, 4);
	pmu__perfctr_suspend(&r.pc, &r.st);
	assert_int_equal(r.st.pmc[0].sum, 11);
	assert_int_equal(r.st.pmc[1].sum, 4);
}

/* P4: ACTIVE_THREAD must be 3 on a non-HT CPU (else EINVAL and the
 * state stays stopped); a valid control counts through its ESCR. */
static void test_p4_control(void **unused)
{
	struct rig r;

	(void)unused;
	rig_init(&r, "p4");
	control_amode(&r, acfg_find("p4"));
	r.st.control.evntsel[0] = 0x00019000;  /* ACTIVE_THREAD = 1 */
	assert_int_equal(pmu__perfctr_update_control(&r.pc, &r.st, false),
			 -PMU_EINVAL);
	assert_int_equal(r.st.cstatus, 0);
	r.st.control.evntsel[0] = 0x00039000;
	assert_int_equal(pmu__perfctr_update_control(&r.pc, &r.st, false), 0);
	pmu__perfctr_resume(&r.pc, &r.st);
	pmu__sim_advance(&r.sim, PMU_SIM_P4_KEY(0x3B8, 2), 1, 10);
	pmu__sim_set_mode(&r.sim, PMU_SIM_KERNEL);
	pmu__sim_advance(&r.sim, PMU_SIM_P4_KEY(0x3B8, 2), 1, 10);
	pmu__perfctr_suspend(&r.pc, &r.st);
	assert_int_equal(r.st.pmc[0].sum, 10);   /* T0_USR only */
}

static uint64_t ctl_writes_of_resume(struct rig *r)
{
	uint64_t before = r->sim.stats.ctl_writes;

	pmu__perfctr_resume(&r->pc, &r->st);
	pmu__perfctr_suspend(&r->pc, &r->st);
	return r->sim.stats.ctl_writes - before;
}

/* The per-CPU cache: same state again writes nothing; another state
 * writes only the registers that differ. */
static void test_write_cache(void **unused)
{
	static const struct {
		int line;
		const char *model;
		uint32_t evntsel[2][2];
		uint32_t escr[2][2];
		uint64_t first, again, other;
	} rows[] = {
		/* two EVNTSELs; then only EVNTSEL1 changes */
		{ __LINE__, "p6", { { 0x004300C0, 0x000300C4 },
				    { 0x004300C0, 0x000300C5 } },
		  { { 0 } }, 2, 0, 1 },
		/* identical control under a new id: nothing to write */
		{ __LINE__, "k8", { { 0x004300C0, 0x004300C4 },
				    { 0x004300C0, 0x004300C4 } },
		  { { 0 } }, 2, 0, 0 },
		/* P4 counters 12 and 14 (CRU_ESCR0 / CRU_ESCR1): ESCR + CCCR
		 * each; then only one ESCR differs */
		{ __LINE__, "p4", { { 0x00039000, 0x00039000 },
				    { 0x00039000, 0x00039000 } },
		  { { 0x04000204, 0x04000208 }, { 0x04000204, 0x0400020C } },
		  4, 0, 1 },
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct rig r;
		struct pmu_control *c;
		uint64_t w;

		rig_init(&r, rows[i].model);
		c = &r.st.control;
		c->nractrs = 2;
		for (int k = 0; k < 2; k++) {
			c->pmc_map[k] = strcmp(rows[i].model, "p4") ? (uint32_t)k
					: 0x8000000Cu + 2 * (uint32_t)k;
			c->evntsel[k] = rows[i].evntsel[0][k];
			c->p4.escr[k] = rows[i].escr[0][k];
		}
		assert_int_equal(pmu__perfctr_update_control(&r.pc, &r.st, 0), 0);
		if ((w = ctl_writes_of_resume(&r)) != rows[i].first)
			fail_msg("line %d: first resume wrote %llu", rows[i].line,
				 (unsigned long long)w);
		if ((w = ctl_writes_of_resume(&r)) != rows[i].again)
			fail_msg("line %d: second resume wrote %llu",
				 rows[i].line, (unsigned long long)w);
		for (int k = 0; k < 2; k++) {
			c->evntsel[k] = rows[i].evntsel[1][k];
			c->p4.escr[k] = rows[i].escr[1][k];
		}
		assert_int_equal(pmu__perfctr_update_control(&r.pc, &r.st, 0), 0);
		if ((w = ctl_writes_of_resume(&r)) != rows[i].other)
			fail_msg("line %d: other state wrote %llu", rows[i].line,
				 (unsigned long long)w);
	}
}

/* P4 auto-masks LVTPC on a PMI; identify_overflow re-arms it, so every
 * overflow is delivered.  Without the re-arm only the first would be. */
static void test_lvtpc_rearm(void **unused)
{
	struct rig r;
	uint64_t lvt = 0;

	(void)unused;
	imode_start(&r, "p4", 10, __LINE__);
	pmu__sim_advance(&r.sim, PMU_SIM_P4_KEY(0x3B8, 2), 0, 100);
	assert_int_equal(r.nirq, 10);
	assert_int_equal(r.sim.stats.irqs_masked, 0);
	pmu__sim_reg_read(&r.sim, PMU_SIM_REG_APIC, PMU_SIM_APIC_LVTPC, &lvt);
	assert_int_equal(lvt, PMU_SIM_PERFCTR_VECTOR);
}

/* cstatus encoding through update_control. */
static void test_cstatus(void **unused)
{
	struct rig r;

	(void)unused;
	imode_start(&r, "k7", 10, __LINE__);
	/* tsc_on<<31 | nrictrs<<16 | (nractrs+nrictrs)<<8 | nractrs */
	assert_int_equal(r.st.cstatus, 0x80010201u);
	assert_int_equal(pmu__cstatus_nrctrs(r.st.cstatus), 2);
	assert_int_equal(pmu__cstatus_has_ictrs(r.st.cstatus), 0x10000);
}

/* PPC: i-mode counters make update_control put PMXE into the MMCR0 image
 * even when the control's mmcr0 leaves it out; the PM exception clears
 * PMXE (all but the 604) and ireload must set it again, or only the
 * first overflow of the run is ever delivered. */
static void test_ppc_pmxe_reload(void **unused)
{
	static const struct {
		int line;
		const char *model;
		uint32_t mmcr0;
		uint32_t period;
		uint64_t events;
	} rows[] = {
		{ __LINE__, "ppc7450", 0, 10, 100 },
		{ __LINE__, "ppc7450", PMU_PPC_MMCR0_PMXE, 10, 100 },
		{ __LINE__, "ppc750", 0, 10, 100 },
		{ __LINE__, "ppc7400", 0, 7, 71 },
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct rig r;
		uint64_t want = rows[i].events / rows[i].period;

		rig_init(&r, rows[i].model);
		control_imode(&r, rows[i].model, rows[i].period);
		r.st.control.ppc.mmcr0 = rows[i].mmcr0;
		pmu__perfctr_set_ihandler(&r.pc, vperfctr_handler, &r);
		if (pmu__perfctr_update_control(&r.pc, &r.st, false))
			fail_msg("line %d: control rejected: %s", rows[i].line,
				 r.st.check.rule);
		pmu__perfctr_resume(&r.pc, &r.st);
		pmu__sim_advance(&r.sim, 2, 0, rows[i].events);
		pmu__perfctr_suspend(&r.pc, &r.st);
		if ((uint64_t)r.nirq != want)
			fail_msg("line %d: %d overflows delivered, want %llu",
				 rows[i].line, r.nirq, (unsigned long long)want);
	}
}

/*
 * iresume loads an i-mode counter with its start value in the low 32
 * bits and all ones above them, whatever the sign of the start value.
 * A counter that overflowed while its interrupt was lost (LVTPC masked)
 * keeps a non-negative start; after a forced reload it must again be
 * 2^32 - start events away from the next overflow, not 2^width.
 */
static void test_iresume_high_bits(void **unused)
{
	static const struct {
		int line;
		const char *model;
		uint32_t msr;           /* counter of virtual index 1 */
		uint64_t want;
	} rows[] = {
		/* 48 bits: high 16 bits ones */
		{ __LINE__, "k7", 0xC0010005, 0xFFFF00000005ull },
		/* 40 bits: high 8 bits ones */
		{ __LINE__, "p4", 0x30E, 0xFF00000005ull },
		/* P6 ignores the high half and sign-extends bit 31 */
		{ __LINE__, "p6", 0xC1, 0x0000000005ull },
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct rig r;
		uint64_t v = 0;

		imode_start(&r, rows[i].model, 4, rows[i].line);
		/* the interrupt is lost: the counter runs past zero */
		pmu__sim_reg_write(&r.sim, PMU_SIM_REG_APIC, PMU_SIM_APIC_LVTPC,
				   PMU_SIM_LVT_MASKED | PMU_SIM_PERFCTR_VECTOR);
		pmu__sim_advance(&r.sim, imode_key(rows[i].model), 0, 9);
		pmu__perfctr_suspend(&r.pc, &r.st);
		assert_int_equal(r.nirq, 0);
		assert_int_equal(r.st.pmc[1].start, 5);
		pmu__perfctr_ireload(&r.pc, &r.st);
		pmu__perfctr_resume(&r.pc, &r.st);
		assert_int_equal(pmu__sim_rdmsr(&r.sim, rows[i].msr, &v), 0);
		if (v != rows[i].want)
			fail_msg("line %d: counter reloaded as 0x%llx",
				 rows[i].line, (unsigned long long)v);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reserve),
		cmocka_unit_test(test_virtualization),
		cmocka_unit_test(test_imode_counts),
		cmocka_unit_test(test_imode_pcs),
		cmocka_unit_test(test_p6_global_enable),
		cmocka_unit_test(test_p5_cesr),
		cmocka_unit_test(test_p4_control),
		cmocka_unit_test(test_write_cache),
		cmocka_unit_test(test_lvtpc_rearm),
		cmocka_unit_test(test_cstatus),
		cmocka_unit_test(test_ppc_pmxe_reload),
		cmocka_unit_test(test_iresume_high_bits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
