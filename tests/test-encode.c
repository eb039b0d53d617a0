/* SPDX-License-Identifier: MIT */
/*
 * Encoder unit tests: syntax, error classes, modifiers, defaults, model
 * selection and host detection.  Expected codes are built from the
 * PERF_CTL / PERFEVTSEL bit layout (USR 16, OS 17, E 18, INT 20, ANY 21,
 * EN 22, INV 23, CMASK 31:24, AMD event[11:8] at 35:32, GO 40, HO 41).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <pmu/event.h>

#include "events/catalog.h"
#include "events/detect.h"
#include "events/evlist.h"
#include "events/evparse.h"

#define USR (1ull << 16)
#define OS  (1ull << 17)
#define E   (1ull << 18)
#define INT (1ull << 20)
#define EN  (1ull << 22)
#define INV (1ull << 23)
#define CM(n) ((uint64_t)(n) << 24)
#define GO  (1ull << 40)
#define HO  (1ull << 41)
#define ON  (INT | EN)

struct row {
	int line;
	const char *model;   /* opts.model, NULL = env/host */
	const char *str;
	enum pmu_error_kind err;
	uint64_t code;       /* codes[0] when err == PMU_ERR_NONE */
	const char *token;   /* expected in err.token (NULL: not checked) */
};

static const struct row rows[] = {
	/* RETIRED_OPS is event 0xc1 on Zen4; u+k by default. */
	{ __LINE__, "zen4", "RETIRED_OPS", PMU_ERR_NONE, 0xc1 | ON | USR | OS, NULL },
	{ __LINE__, "zen4", "RETIRED_OPS:u", PMU_ERR_NONE, 0xc1 | ON | USR, NULL },
	{ __LINE__, "zen4", "retired_ops:K", PMU_ERR_NONE, 0xc1 | ON | OS, NULL },
	{ __LINE__, "zen4", "RETIRED_OPS:u=0:k=1", PMU_ERR_NONE, 0xc1 | ON | OS, NULL },
	{ __LINE__, "zen4", "RETIRED_OPS:e:i:c=3", PMU_ERR_NONE,
	  0xc1 | ON | USR | OS | E | INV | CM(3), NULL },
	{ __LINE__, "zen4", "RETIRED_OPS:c=0xff", PMU_ERR_NONE,
	  0xc1 | ON | USR | OS | CM(255), NULL },
	/* h alone is a privilege choice: no default u/k then. */
	{ __LINE__, "zen4", "RETIRED_OPS:h", PMU_ERR_NONE, 0xc1 | ON | HO, NULL },
	{ __LINE__, "zen4", "RETIRED_OPS:g", PMU_ERR_NONE,
	  0xc1 | ON | USR | OS | GO, NULL },
	{ __LINE__, NULL, "amd64_fam19h_zen4::RETIRED_OPS:u:u", PMU_ERR_NONE,
	  0xc1 | ON | USR, NULL },
	{ __LINE__, "zen4", "RETIRED_OPS:c=256", PMU_ERR_BAD_VALUE, 0, "c=256" },
	{ __LINE__, "zen4", "RETIRED_OPS:c", PMU_ERR_BAD_VALUE, 0, "c" },
	{ __LINE__, "zen4", "RETIRED_OPS:u=2", PMU_ERR_BAD_VALUE, 0, "u=2" },
	{ __LINE__, "zen4", "RETIRED_OPS:c=-1", PMU_ERR_BAD_VALUE, 0, NULL },
	{ __LINE__, "zen4", "RETIRED_OPS:u=0:u=1", PMU_ERR_REPEATED, 0, "u=1" },
	{ __LINE__, "zen4", "RETIRED_OPS:bogus", PMU_ERR_BAD_MODIFIER, 0, "bogus" },
	{ __LINE__, "zen4", "RETIRED_OPZ", PMU_ERR_UNKNOWN_EVENT, 0, "RETIRED_OPZ" },
	/* a trailing ':' opens an attribute without a name: libpfm4's
	 * "invalid attribute", not a malformed string */
	{ __LINE__, "zen4", "RETIRED_OPS:u:", PMU_ERR_BAD_MODIFIER, 0, NULL },
	{ __LINE__, "zen4", "", PMU_ERR_SYNTAX, 0, NULL },
	{ __LINE__, NULL, "nosuchpmu::X", PMU_ERR_UNKNOWN_PMU, 0, NULL },
	/* Intel: '.' separates, the event code carries no umask. */
	{ __LINE__, "skl", "INST_RETIRED.ANY_P", PMU_ERR_NONE,
	  0xc0 | ON | USR | OS, NULL },
	{ __LINE__, "skl", "INST_RETIRED:ANY_P:t", PMU_ERR_NONE,
	  0xc0 | ON | USR | OS | (1ull << 21), NULL },
	/* A raw umask byte replaces the table's umasks. */
	{ __LINE__, "zen4", "RETIRED_OPS:0x3", PMU_ERR_NONE,
	  0xc1 | 0x300 | ON | USR | OS, NULL },
	/* wider than the umask byte: libpfm4's "invalid attribute" */
	{ __LINE__, "zen4", "RETIRED_OPS:0x100", PMU_ERR_BAD_MODIFIER, 0,
	  NULL },
};

static void test_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct pmu_encode_opts o = { .sz = sizeof(o), .model = r->model };
		struct pmu_encoding e = { .size = sizeof(e) };
		struct pmu_error err = { .size = sizeof(err) };
		int ret = pmu_event_encode(r->str, &o, &e, &err);

		print_message("line %d: %s -> %d %s\n", r->line, r->str, ret,
			      pmu_error_kind_name(e.error));
		assert_int_equal(e.error, r->err);
		if (r->err == PMU_ERR_NONE) {
			assert_int_equal(ret, 0);
			assert_int_equal(e.ncodes, 1);
			assert_int_equal(e.codes[0], r->code);
			continue;
		}
		assert_true(ret < 0);
		assert_true(err.message[0] != '\0');
		if (r->token)
			assert_string_equal(err.token, r->token);
	}
}

/* The full string spells every modifier of the event out, in order. */
static void test_fstr(void **state)
{
	struct pmu_encode_opts o = { .sz = sizeof(o), .model = "zen4" };
	struct pmu_encoding e = { .size = sizeof(e) };

	(void)state;
	assert_int_equal(pmu_event_encode("RETIRED_OPS:u:c=2", &o, &e, NULL), 0);
	assert_string_equal(e.fstr, "amd64_fam19h_zen4::RETIRED_OPS"
			    ":k=0:u=1:e=0:i=0:c=2:h=0:g=0");
	assert_int_equal(e.perf.type, 4);
	assert_int_equal(e.perf.config, 0xc1 | CM(2));
	assert_int_equal(e.perf.exclude_kernel, 1);
	assert_int_equal(e.perf.exclude_user, 0);
}

/*
 * Two-register encodings.  netburst: ESCR = select << 25 | event-mask
 * bits << 9 | tag enable 4, tag bits 5+ | T0/T1 OS (3, 1) and USR (2, 0);
 * CCCR = enable 12 | ESCR select << 13 | both threads (3 << 16) |
 * compare 18 | complement 19 | threshold << 20 | edge 24.  Intel: a
 * second register for offcore response umasks and load latency.
 */
#define ESCR(sel, bits) ((uint64_t)(sel) << 25 | (uint64_t)(bits) << 9)
#define T_ALL 0xfull
#define CCCR(esel) (1ull << 12 | (uint64_t)(esel) << 13 | 3ull << 16)
#define CMP (1ull << 18)

struct row2 {
	int line;
	const char *str;
	unsigned flags;      /* opts.flags */
	enum pmu_error_kind err;
	int ncodes;
	uint64_t code0, code1;
	const char *fstr;    /* NULL: not checked */
};

static const struct row2 rows2[] = {
	/* global_power_events: ESCR select 0x13, CCCR ESCR select 6,
	 * default umask RUNNING (bit 0). */
	{ __LINE__, "netburst::global_power_events", 0, PMU_ERR_NONE, 2,
	  ESCR(0x13, 1) | T_ALL, CCCR(6),
	  "netburst::global_power_events:RUNNING:k=1:u=1:e=0:cmpl=0:thr=0" },
	{ __LINE__, "p4::global_power_events:RUNNING:u", 0, PMU_ERR_NONE, 2,
	  ESCR(0x13, 1) | 0x5, CCCR(6), NULL },
	{ __LINE__, "netburst::global_power_events:k:cmpl:e:thr=3", 0,
	  PMU_ERR_NONE, 2, ESCR(0x13, 1) | 0xa,
	  CCCR(6) | CMP | 1ull << 19 | 3ull << 20 | 1ull << 24,
	  "netburst::global_power_events:RUNNING:k=1:u=0:e=1:cmpl=1:thr=3" },
	/* Several event-mask bits; tag umasks set the tag bits. */
	{ __LINE__, "netburst::TC_deliver_mode:DB:DD", 0, PMU_ERR_NONE, 2,
	  ESCR(1, 3) | T_ALL, CCCR(1),
	  "netburst::TC_deliver_mode:DD:DB:k=1:u=1:e=0:cmpl=0:thr=0" },
	{ __LINE__, "netburst::packed_SP_uop:TAG0", 0, PMU_ERR_NONE, 2,
	  ESCR(8, 0) | 1u << 4 | 1u << 5 | T_ALL, CCCR(1), NULL },
	{ __LINE__, "netburst::TC_deliver_mode", 0, PMU_ERR_BAD_MODIFIER, 0, 0, 0,
	  NULL },
	{ __LINE__, "netburst::global_power_events:thr=16", 0,
	  PMU_ERR_BAD_VALUE, 0, 0, 0, NULL },
	{ __LINE__, "netburst::global_power_events:0x1", 0, PMU_ERR_BAD_MODIFIER, 0,
	  0, 0, NULL },
	/* Offcore response: the event's own umask stays in PERFEVTSEL. */
	{ __LINE__, "skl::OFFCORE_RESPONSE_0:DMND_DATA_RD", 0, PMU_ERR_NONE, 2,
	  0x1b7 | ON | USR | OS, 0x10001, NULL },
	{ __LINE__, "skl::MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=9", 0,
	  PMU_ERR_NONE, 2, 0x1cd | ON | USR | OS, 9, NULL },
	{ __LINE__, "skl::MEM_TRANS_RETIRED:ldlat=9", 0, PMU_ERR_BAD_MODIFIER, 0, 0,
	  0, NULL },
	/* Aliases print what they stand for. */
	{ __LINE__, "skl::BR_INST_RETIRED:COND", 0, PMU_ERR_NONE, 1,
	  0x1c4 | ON | USR | OS, 0,
	  "skl::BR_INST_RETIRED:CONDITIONAL:k=1:u=1:e=0:i=0:c=0:t=0:intx=0"
	  ":intxcp=0" },
	{ __LINE__, "skl::CYCLE_ACTIVITY:CYCLES_L2_MISS:c=2", 0,
	  PMU_ERR_REPEATED, 0, 0, 0, NULL },
	/* Raw-only: perf modifiers are unknown. */
	{ __LINE__, "zen4::RETIRED_OPS:precise=1", PMU_ENCODE_RAW_ONLY,
	  PMU_ERR_BAD_MODIFIER, 0, 0, 0, NULL },
	{ __LINE__, "zen4::RETIRED_OPS", PMU_ENCODE_RAW_ONLY, PMU_ERR_NONE, 1,
	  0xc1 | ON | USR | OS, 0, NULL },
};

static void test_rows2(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows2) / sizeof(rows2[0]); i++) {
		const struct row2 *r = &rows2[i];
		struct pmu_encode_opts o = { .sz = sizeof(o),
					     .flags = r->flags };
		struct pmu_encoding e = { .size = sizeof(e) };
		int ret = pmu_event_encode(r->str, &o, &e, NULL);

		print_message("line %d: %s\n", r->line, r->str);
		assert_int_equal(e.error, r->err);
		if (r->err != PMU_ERR_NONE) {
			assert_true(ret < 0);
			continue;
		}
		assert_int_equal(ret, 0);
		assert_int_equal(e.ncodes, r->ncodes);
		assert_int_equal(e.codes[0], r->code0);
		if (r->ncodes > 1)
			assert_int_equal(e.codes[1], r->code1);
		if (r->fstr)
			assert_string_equal(e.fstr, r->fstr);
		assert_int_equal(e.has_perf, !(r->flags & PMU_ENCODE_RAW_ONLY));
	}
}

/* perf_event use of a netburst event: the event's index in place of the
 * ESCR select, privilege levels in the exclude bits. */
static void test_netburst_perf(void **state)
{
	struct pmu_encoding e = { .size = sizeof(e) };

	(void)state;
	assert_int_equal(pmu_event_encode("netburst::global_power_events:u",
					  NULL, &e, NULL), 0);
	assert_int_equal(e.perf.type, 4);
	assert_int_equal(e.perf.config,
			 (ESCR(24, 1) | T_ALL) << 32 | CCCR(6));
	assert_int_equal(e.perf.exclude_kernel, 1);
	assert_int_equal(e.perf.exclude_user, 0);
}

static void test_suggest(void **state)
{
	struct pmu_encode_opts o = { .sz = sizeof(o), .model = "zen4" };
	struct pmu_encoding e = { .size = sizeof(e) };
	struct pmu_error err = { .size = sizeof(err) };

	(void)state;
	assert_int_equal(pmu_event_encode("RETIRED_OPZ", &o, &e, &err), -ENOENT);
	assert_non_null(strstr(err.message, "RETIRED_OPS"));
}

/* Unknown pmu names: the nearest model name or alias is offered. */
static const struct {
	int line;
	const char *str;
	const char *near;    /* NULL: nothing is near enough */
} pmu_typos[] = {
	{ __LINE__, "zen44::RETIRED_OPS", "zen4" },
	{ __LINE__, "skylak::INST_RETIRED:ANY_P", "skylake" },
	{ __LINE__, "netbrust::global_power_events", "netburst" },
	{ __LINE__, "pcc7450::CYCLES", "ppc7450" },
	{ __LINE__, "p4m33::instr_completed", "p4m3" },
	{ __LINE__, "nosuchpmu::X", NULL },
};

static void test_suggest_pmu(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(pmu_typos) / sizeof(pmu_typos[0]); i++) {
		struct pmu_encoding e = { .size = sizeof(e) };
		struct pmu_error err = { .size = sizeof(err) };
		char want[64];

		print_message("line %d: %s\n", pmu_typos[i].line,
			      pmu_typos[i].str);
		assert_int_equal(pmu_event_encode(pmu_typos[i].str, NULL, &e,
						  &err), -ENOENT);
		assert_int_equal(e.error, PMU_ERR_UNKNOWN_PMU);
		assert_int_equal(err.kind, PMU_ERR_UNKNOWN_PMU);
		if (!pmu_typos[i].near) {
			assert_null(strstr(err.message, "did you mean"));
			continue;
		}
		snprintf(want, sizeof(want), "did you mean '%s'?",
			 pmu_typos[i].near);
		assert_non_null(strstr(err.message, want));
	}
}

/*
 * One name, one model: the perfctr model names are aliases of the libpfm4
 * models they are (p4: Pentium 4 models 0-1, p4m2/p4ht: model 2, all
 * libpfm4's netburst; p4m3: Prescott, netburst_p).  instr_completed
 * exists on Prescott only.
 */
static const struct {
	int line;
	const char *str;
	const char *pmu;     /* NULL: must fail with notfound */
} alias_rows[] = {
	{ __LINE__, "p4::global_power_events", "netburst" },
	{ __LINE__, "p4m2::global_power_events", "netburst" },
	{ __LINE__, "P4HT::global_power_events", "netburst" },
	{ __LINE__, "p4m3::global_power_events", "netburst_p" },
	{ __LINE__, "p4m3::instr_completed:NBOGUS", "netburst_p" },
	{ __LINE__, "p4::instr_completed:NBOGUS", NULL },
	{ __LINE__, "k7::RETIRED_INSTRUCTIONS", "amd64_k7" },
	{ __LINE__, "fam10h::RETIRED_INSTRUCTIONS", "amd64_fam10h_barcelona" },
};

static void test_aliases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(alias_rows) / sizeof(alias_rows[0]);
	     i++) {
		struct pmu_encoding e = { .size = sizeof(e) };
		int rc = pmu_event_encode(alias_rows[i].str, NULL, &e, NULL);

		print_message("line %d: %s\n", alias_rows[i].line,
			      alias_rows[i].str);
		if (!alias_rows[i].pmu) {
			assert_int_equal(e.error, PMU_ERR_UNKNOWN_EVENT);
			continue;
		}
		assert_int_equal(rc, 0);
		assert_string_equal(e.pmu, alias_rows[i].pmu);
	}
}

/*
 * perf events: every one has a one-line description, and every spelling
 * of an event (CYCLES, CPU-CYCLES) the same one; their modifiers are the
 * perf_event ones, "h" only where perf_event takes it (not software
 * events), as libpfm4's perf layer offers them.
 */
static void test_perf_info(void **state)
{
	int m = pmu_catalog_find("perf");
	struct pmu_catalog_info mi = { .size = sizeof(mi) };
	struct pmu_event_info a = { .size = sizeof(a) }, b = a;
	struct pmu_attr_info ai = { .size = sizeof(ai) };
	static const char *const hw[] = { "u", "k", "h", "mg", "mh" };
	static const char *const sw[] = { "u", "k", "mg", "mh" };

	(void)state;
	assert_true(m >= 0);
	assert_int_equal(pmu_catalog_info(m, &mi), 0);
	for (size_t ev = 0; ev < mi.nevents; ev++) {
		assert_int_equal(pmu_catalog_event_info(m, ev, &a), 0);
		if (!a.desc[0] || strchr(a.desc, '\n') || strlen(a.desc) > 70)
			fail_msg("perf::%s: description '%s'", a.name, a.desc);
	}
	assert_int_equal(pmu_catalog_event_info(m, pmu_catalog_event_find(m,
			 "CYCLES"), &a), 0);
	assert_int_equal(pmu_catalog_event_info(m, pmu_catalog_event_find(m,
			 "PERF_COUNT_HW_CPU_CYCLES"), &b), 0);
	assert_string_equal(a.desc, b.desc);
	assert_int_equal(a.nattrs, 5);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(pmu_catalog_attr_info(m, pmu_catalog_event_find(m,
				 "CYCLES"), i, &ai), 0);
		assert_string_equal(ai.name, hw[i]);
		assert_int_equal(ai.type, PMU_ATTR_MOD_BOOL);
	}
	int tc = pmu_catalog_event_find(m, "TASK-CLOCK");
	assert_int_equal(pmu_catalog_event_info(m, tc, &a), 0);
	assert_int_equal(a.nattrs, 4);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(pmu_catalog_attr_info(m, tc, i, &ai), 0);
		assert_string_equal(ai.name, sw[i]);
	}
	assert_int_equal(pmu_catalog_attr_info(m, tc, 4, &ai), -ENOENT);
}

struct drow {
	int line;
	const char *cpuinfo;
	const char *model;
};

#define CPU(v, f, m) "processor\t: 0\nvendor_id\t: " v "\ncpu family\t: " \
	f "\nmodel\t\t: " m "\nmodel name\t: Some CPU 9\n"

static const struct drow drows[] = {
	{ __LINE__, CPU("AuthenticAMD", "25", "17"), "amd64_fam19h_zen4" },
	{ __LINE__, CPU("AuthenticAMD", "25", "1"), "amd64_fam19h_zen3" },
	{ __LINE__, CPU("AuthenticAMD", "25", "97"), "amd64_fam19h_zen4" },
	{ __LINE__, CPU("AuthenticAMD", "23", "1"), "amd64_fam17h_zen1" },
	{ __LINE__, CPU("AuthenticAMD", "23", "49"), "amd64_fam17h_zen2" },
	{ __LINE__, CPU("AuthenticAMD", "16", "2"), "amd64_fam10h_barcelona" },
	{ __LINE__, CPU("AuthenticAMD", "6", "2"), "amd64_k7" },
	{ __LINE__, CPU("GenuineIntel", "6", "94"), "skl" },
	{ __LINE__, CPU("GenuineIntel", "6", "126"), "icl" },
	{ __LINE__, CPU("GenuineIntel", "6", "143"), "spr" },
	{ __LINE__, CPU("GenuineIntel", "15", "4"), "netburst_p" },
	{ __LINE__, CPU("GenuineIntel", "6", "1"), NULL },
	{ __LINE__, CPU("HygonGenuine", "24", "0"), NULL },
	{ __LINE__, "garbage", NULL },
};

static void test_detect(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(drows) / sizeof(drows[0]); i++) {
		const char *m = pmu__detect_model(drows[i].cpuinfo);
		print_message("line %d\n", drows[i].line);
		if (!drows[i].model)
			assert_null(m);
		else
			assert_string_equal(m, drows[i].model);
	}
}

static void test_env(void **state)
{
	struct pmu_encoding e = { .size = sizeof(e) };

	(void)state;
	setenv("PMU_EVENTS_MODEL", "k8", 1);
	assert_string_equal(pmu_event_host_model(), "amd64_k8_revb");
	assert_int_equal(pmu_event_encode("CPU_CLK_UNHALTED", NULL, &e, NULL), 0);
	assert_string_equal(e.pmu, "amd64_k8_revb");
	assert_int_equal(e.codes[0], 0x76 | ON | USR | OS);
	unsetenv("PMU_EVENTS_MODEL");
}

static void test_iterate(void **state)
{
	struct pmu_catalog_info mi = { .size = sizeof(mi) };
	struct pmu_event_info ei = { .size = sizeof(ei) };
	struct pmu_attr_info ai = { .size = sizeof(ai) };
	int m, ev, dfl = 0;

	(void)state;
	assert_true(pmu_catalog_count() >= 19);
	m = pmu_catalog_find("amd64_fam19h_zen4");
	assert_true(m >= 0);
	assert_int_equal(pmu_catalog_find("ZEN4"), m);
	assert_int_equal(pmu_catalog_info(m, &mi), 0);
	assert_string_equal(mi.aliases[0], "zen4");
	ev = pmu_catalog_event_find(m, "ls_dispatch");
	assert_true(ev >= 0);
	assert_int_equal(pmu_catalog_event_info(m, ev, &ei), 0);
	assert_int_equal(ei.code, 0x29);
	assert_true(ei.numasks > 0 && ei.nattrs > ei.numasks);
	for (size_t a = 0; a < ei.numasks; a++) {
		assert_int_equal(pmu_catalog_attr_info(m, ev, a, &ai), 0);
		assert_int_equal(ai.type, PMU_ATTR_UMASK);
		dfl += ai.is_default;
	}
	assert_int_equal(pmu_catalog_attr_info(m, ev, ei.numasks, &ai), 0);
	assert_string_equal(ai.name, "k");
	assert_int_equal(pmu_catalog_attr_info(m, ev, ei.nattrs, &ai), -ENOENT);
	assert_int_equal(pmu_catalog_find("nope"), -ENOENT);
	(void)dfl;
}

/* Every built-in model's name hash finds each of its events. */
static void test_hash(void **state)
{
	size_t n;
	const struct pmu__catmodel *const *ms = pmu__catalog_models(&n);

	(void)state;
	for (size_t i = 0; i < n; i++)
		for (uint32_t j = 0; j < ms[i]->nevents; j++) {
			const char *s = pmu__ev_name(ms[i], &ms[i]->events[j]);
			assert_ptr_equal(pmu__catmodel_event(ms[i], s, strlen(s)),
					 &ms[i]->events[j]);
		}
}

/* "pmu::EVENT" in a perf-style event list goes through the catalog. */
static void test_evlist(void **state)
{
	struct pmu__evlist l = { 0 };
	struct pmu_error err = { .size = sizeof(err) };

	(void)state;
	assert_int_equal(pmu__evlist_parse(&l, "amd64_fam19h_zen4::RETIRED_OPS:c=1",
					   NULL, &err), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.ev[0].attr.type, 4);
	assert_int_equal(l.ev[0].attr.config, 0xc1 | CM(1));
	pmu__evlist_clear(&l);
	assert_true(pmu__evlist_parse(&l, "zen4::NOPE", NULL, &err) < 0);
	pmu__evlist_clear(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_fstr),
		cmocka_unit_test(test_rows2),
		cmocka_unit_test(test_netburst_perf),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_suggest_pmu),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_perf_info),
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_env),
		cmocka_unit_test(test_iterate),
		cmocka_unit_test(test_hash),
		cmocka_unit_test(test_evlist),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
