/* SPDX-License-Identifier: MIT */
/*
 * Event-list parser.  Expected encodings come from <linux/perf_event.h>
 * constants (and the fake sysfs/tracefs trees under tests/fixtures), never
 * from the parser's own output.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <pmu/event.h>

#include "events/evlist.h"
#include "events/evparse.h"

#define FIX_SYSFS "tests/fixtures/sysfs"
#define FIX_TRACEFS "tests/fixtures/tracefs"

#define CHECK(line, input, cond)                                             \
	do {                                                                 \
		if (!(cond))                                                 \
			fail_msg("row at line %d ('%s'): %s", line, input,   \
				 #cond);                                     \
	} while (0)

#define CACHE(id, op, res)                                                   \
	(PERF_COUNT_HW_CACHE_##id | PERF_COUNT_HW_CACHE_OP_##op << 8 |        \
	 PERF_COUNT_HW_CACHE_RESULT_##res << 16)

static const struct pmu__parse_ctx fixture_ctx = {
	.sysfs_root = FIX_SYSFS,
	.tracefs_root = FIX_TRACEFS,
};

static bool have_fixtures(void)
{
	return access(FIX_SYSFS "/bus/event_source/devices/cpu/type", R_OK) == 0;
}

/* Parse one string that must succeed into a fresh list. */
static void parse_ok(struct pmu__evlist *l, int line, const char *str,
		     const struct pmu__parse_ctx *ctx)
{
	struct pmu_error err = { .size = sizeof(err) };
	int r;

	memset(l, 0, sizeof(*l));
	r = pmu__evlist_parse(l, str, ctx, &err);
	if (r != 0)
		fail_msg("row at line %d ('%s'): parse failed: %s", line, str,
			 err.message);
	CHECK(line, str, err.kind == PMU_ERR_NONE);
}

static void test_tables_sorted(void **state)
{
	(void)state;
	assert_int_equal(pmu__evname_tables_check(), 0);
}

struct name_row {
	int line;
	const char *str;
	uint32_t type;
	uint64_t config;
	bool is_hw;
	const char *unit;
	double scale;
};

#define HWR(s, c) { __LINE__, s, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c, true, "", 1.0 }
#define SWR(s, c) { __LINE__, s, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c, false, "", 1.0 }
#define CR(s, id, op, res) { __LINE__, s, PERF_TYPE_HW_CACHE, CACHE(id, op, res), true, "", 1.0 }

static const struct name_row name_rows[] = {
	HWR("cycles", CPU_CYCLES),
	HWR("cpu-cycles", CPU_CYCLES),
	HWR("instructions", INSTRUCTIONS),
	HWR("cache-references", CACHE_REFERENCES),
	HWR("cache-misses", CACHE_MISSES),
	HWR("branches", BRANCH_INSTRUCTIONS),
	HWR("branch-instructions", BRANCH_INSTRUCTIONS),
	HWR("branch-misses", BRANCH_MISSES),
	HWR("bus-cycles", BUS_CYCLES),
	HWR("stalled-cycles-frontend", STALLED_CYCLES_FRONTEND),
	HWR("idle-cycles-frontend", STALLED_CYCLES_FRONTEND),
	HWR("stalled-cycles-backend", STALLED_CYCLES_BACKEND),
	HWR("idle-cycles-backend", STALLED_CYCLES_BACKEND),
	HWR("ref-cycles", REF_CPU_CYCLES),
	HWR("CYCLES", CPU_CYCLES),
	HWR("Instructions", INSTRUCTIONS),
	{ __LINE__, "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
	  false, "msec", 1e-6 },
	{ __LINE__, "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK,
	  false, "msec", 1e-6 },
	SWR("page-faults", PAGE_FAULTS),
	SWR("faults", PAGE_FAULTS),
	SWR("context-switches", CONTEXT_SWITCHES),
	SWR("cs", CONTEXT_SWITCHES),
	SWR("cpu-migrations", CPU_MIGRATIONS),
	SWR("migrations", CPU_MIGRATIONS),
	SWR("minor-faults", PAGE_FAULTS_MIN),
	SWR("major-faults", PAGE_FAULTS_MAJ),
	SWR("alignment-faults", ALIGNMENT_FAULTS),
	SWR("emulation-faults", EMULATION_FAULTS),
	SWR("dummy", DUMMY),
	SWR("bpf-output", BPF_OUTPUT),
	SWR("cgroup-switches", CGROUP_SWITCHES),
	SWR("Page-Faults", PAGE_FAULTS),
	CR("L1-dcache-loads", L1D, READ, ACCESS),
	CR("L1-dcache-load-misses", L1D, READ, MISS),
	CR("L1-dcache-stores", L1D, WRITE, ACCESS),
	CR("L1-dcache-store-misses", L1D, WRITE, MISS),
	CR("L1-dcache-prefetches", L1D, PREFETCH, ACCESS),
	CR("L1-dcache-prefetch-misses", L1D, PREFETCH, MISS),
	CR("L1-dcache", L1D, READ, ACCESS),
	CR("L1-dcache-misses", L1D, READ, MISS),
	CR("L1-DCACHE-LOAD-MISSES", L1D, READ, MISS),
	CR("l1d-read-miss", L1D, READ, MISS),
	CR("L1-data-misses-stores", L1D, WRITE, MISS),
	CR("L1-icache-loads", L1I, READ, ACCESS),
	CR("L1-icache-load-misses", L1I, READ, MISS),
	CR("L1-icache-prefetches", L1I, PREFETCH, ACCESS),
	CR("L1-icache-prefetch-misses", L1I, PREFETCH, MISS),
	CR("l1i-speculative-read", L1I, PREFETCH, ACCESS),
	CR("LLC-loads", LL, READ, ACCESS),
	CR("LLC-load-misses", LL, READ, MISS),
	CR("LLC-stores", LL, WRITE, ACCESS),
	CR("LLC-store-misses", LL, WRITE, MISS),
	CR("LLC-prefetches", LL, PREFETCH, ACCESS),
	CR("LLC-prefetch-misses", LL, PREFETCH, MISS),
	CR("L2-write-refs", LL, WRITE, ACCESS),
	CR("dTLB-loads", DTLB, READ, ACCESS),
	CR("dTLB-load-misses", DTLB, READ, MISS),
	CR("dTLB-stores", DTLB, WRITE, ACCESS),
	CR("dTLB-store-misses", DTLB, WRITE, MISS),
	CR("dTLB-prefetches", DTLB, PREFETCH, ACCESS),
	CR("dTLB-prefetch-misses", DTLB, PREFETCH, MISS),
	CR("Data-TLB-load-miss", DTLB, READ, MISS),
	CR("iTLB-loads", ITLB, READ, ACCESS),
	CR("iTLB-load-misses", ITLB, READ, MISS),
	CR("i-tlb-misses", ITLB, READ, MISS),
	CR("branch-loads", BPU, READ, ACCESS),
	CR("branch-load-misses", BPU, READ, MISS),
	CR("bpu-misses", BPU, READ, MISS),
	CR("node-loads", NODE, READ, ACCESS),
	CR("node-load-misses", NODE, READ, MISS),
	CR("node-stores", NODE, WRITE, ACCESS),
	CR("node-store-misses", NODE, WRITE, MISS),
	CR("node-prefetches", NODE, PREFETCH, ACCESS),
	CR("node-prefetch-misses", NODE, PREFETCH, MISS),
	{ __LINE__, "r01c2", PERF_TYPE_RAW, 0x1c2, true, "", 1.0 },
	{ __LINE__, "rFFFFffffFFFFffff", PERF_TYPE_RAW, UINT64_MAX, true, "", 1.0 },
	{ __LINE__, "r0000000000000000001", PERF_TYPE_RAW, 1, true, "", 1.0 },
	{ __LINE__, "  cycles  ", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
	  true, "", 1.0 },
};

static void test_names(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(name_rows) / sizeof(name_rows[0]); i++) {
		const struct name_row *r = &name_rows[i];
		struct pmu__evlist l;
		const struct pmu__ev *d;

		parse_ok(&l, r->line, r->str, NULL);
		CHECK(r->line, r->str, l.n == 1);
		d = &l.ev[0];
		CHECK(r->line, r->str, d->attr.type == r->type);
		CHECK(r->line, r->str, d->attr.config == r->config);
		CHECK(r->line, r->str, d->attr.size == sizeof(d->attr));
		CHECK(r->line, r->str, ((d->flags & PMU__EV_HW) != 0) == r->is_hw);
		CHECK(r->line, r->str, !strcmp(d->unit, r->unit));
		CHECK(r->line, r->str, d->scale == r->scale);
		/* the name is what the user typed, without surrounding blanks */
		CHECK(r->line, r->str, strstr(r->str, d->name) &&
				       !strchr(d->name, ' '));
		CHECK(r->line, r->str, d->group == 0 && d->leader);
		pmu__evlist_clear(&l);
	}
}

struct mod_row {
	int line;
	const char *str;
	unsigned eu, ek, eh, eguest, ehost, precise, pinned;
	bool sample_read, precise_max;
	bool guest_default;  /* exclude_guest by default, not by :H */
};

static const struct mod_row mod_rows[] = {
	{ __LINE__, "cycles", 0, 0, 0, 1, 0, 0, 0, false, false, true },
	{ __LINE__, "cycles:u", 0, 1, 1, 1, 0, 0, 0, false, false, true },
	{ __LINE__, "cycles:k", 1, 0, 1, 0, 0, 0, 0, false, false, true },
	{ __LINE__, "cycles:h", 1, 1, 0, 0, 0, 0, 0, false, false, true },
	{ __LINE__, "cycles:uk", 0, 0, 1, 1, 0, 0, 0, false, false, true },
	{ __LINE__, "cycles:ku", 0, 0, 1, 1, 0, 0, 0, false, false, true },
	{ __LINE__, "cycles:ukh", 0, 0, 0, 1, 0, 0, 0, false, false, true },
	{ __LINE__, "cycles:G", 0, 0, 0, 0, 1, 0, 0, false, false, false },
	{ __LINE__, "cycles:H", 0, 0, 0, 1, 0, 0, 0, false, false, false },
	{ __LINE__, "cycles:GH", 0, 0, 0, 0, 0, 0, 0, false, false, false },
	{ __LINE__, "cycles:p", 0, 0, 0, 1, 0, 1, 0, false, false, true },
	{ __LINE__, "cycles:pp", 0, 0, 0, 1, 0, 2, 0, false, false, true },
	{ __LINE__, "cycles:ppp", 0, 0, 0, 1, 0, 3, 0, false, false, true },
	{ __LINE__, "cycles:upp", 0, 1, 1, 1, 0, 2, 0, false, false, true },
	{ __LINE__, "cycles:pku", 0, 0, 1, 1, 0, 1, 0, false, false, true },
	/* :P is the most precise level when sampling (test_sampling);
	 * counting asks for none, as perf stat does */
	{ __LINE__, "cycles:P", 0, 0, 0, 0, 0, 0, 0, false, true, true },
	{ __LINE__, "cycles:S", 0, 0, 0, 0, 0, 0, 0, true, false, true },
	{ __LINE__, "cycles:D", 0, 0, 0, 0, 0, 0, 1, false, false, true },
	{ __LINE__, "cs:uD", 0, 1, 1, 1, 0, 0, 1, false, false, true },
	{ __LINE__, "r1c2:kH", 1, 0, 1, 1, 0, 0, 0, false, false, false },
	{ __LINE__, "L1-dcache-load-misses:u", 0, 1, 1, 1, 0, 0, 0, false, false, true },
	{ __LINE__, "{cycles,cs}:u", 0, 1, 1, 1, 0, 0, 0, false, false, true },
	{ __LINE__, "{cycles:k}:u", 0, 0, 1, 1, 0, 0, 0, false, false, true },
	{ __LINE__, "{cycles:p}:S", 0, 0, 0, 1, 0, 1, 0, true, false, true },
	{ __LINE__, "cs:G", 0, 0, 0, 0, 1, 0, 0, false, false, false },
	{ __LINE__, "{cycles,cs}:G", 0, 0, 0, 0, 1, 0, 0, false, false, false },
	{ __LINE__, "{cycles,cs}:uH", 0, 1, 1, 1, 0, 0, 0, false, false, false },
	{ __LINE__, "{task-clock,cs}:k", 1, 0, 1, 1, 0, 0, 0, false, false, true },
	/* perf's quirks: :k, :h, :P, :S, :D, :I on the event itself leave
	 * guests in; :u and :p leave them out unless :G or :H is given */
	{ __LINE__, "cycles:kh", 1, 0, 0, 0, 0, 0, 0, false, false, true },
	{ __LINE__, "cycles:pk", 1, 0, 1, 1, 0, 1, 0, false, false, true },
	{ __LINE__, "cycles:uG", 0, 1, 1, 0, 1, 0, 0, false, false, false },
	{ __LINE__, "cycles:Gu", 0, 1, 1, 0, 1, 0, 0, false, false, false },
	{ __LINE__, "cycles:pH", 0, 0, 0, 1, 0, 1, 0, false, false, false },
	{ __LINE__, "{cycles:k}:D", 1, 0, 1, 0, 0, 0, 1, false, false, true },
	{ __LINE__, "{cycles,cs}:D", 0, 0, 0, 1, 0, 0, 1, false, false, true },
	{ __LINE__, "{cycles:G}:u", 0, 1, 1, 0, 1, 0, 0, false, false, false },
	{ __LINE__, "{cycles:G}:H", 0, 0, 0, 0, 0, 0, 0, false, false, false },
	/* model-specific events keep the catalog's (libpfm4's) setting:
	 * AMD's mg=0 default leaves guests out (test-encode-oracle checks
	 * the encoder's perf fields against libpfm4) */
	{ __LINE__, "amd64_fam19h_zen4::RETIRED_INSTRUCTIONS", 0, 0, 1, 1, 0, 0, 0,
	  false, false, false },
	/* mg alone: guests only (libpfm4: mg without mh excludes the host) */
	{ __LINE__, "amd64_fam19h_zen4::RETIRED_INSTRUCTIONS:mg=1", 0, 0, 1, 0,
	  1, 0, 0, false, false, false },
};

static void test_modifiers(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(mod_rows) / sizeof(mod_rows[0]); i++) {
		const struct mod_row *r = &mod_rows[i];
		struct pmu__evlist l;

		parse_ok(&l, r->line, r->str, NULL);
		CHECK(r->line, r->str, l.n >= 1);
		for (size_t k = 0; k < l.n; k++) {
			const struct perf_event_attr *a = &l.ev[k].attr;

			CHECK(r->line, r->str, a->exclude_user == r->eu);
			CHECK(r->line, r->str, a->exclude_kernel == r->ek);
			CHECK(r->line, r->str, a->exclude_hv == r->eh);
			CHECK(r->line, r->str, a->exclude_guest == r->eguest);
			CHECK(r->line, r->str, a->exclude_host == r->ehost);
			CHECK(r->line, r->str,
			      ((l.ev[k].flags & PMU__EV_GUEST_DEFAULT) != 0) == r->guest_default);
			CHECK(r->line, r->str, a->precise_ip == r->precise);
			CHECK(r->line, r->str, a->pinned == r->pinned);
			CHECK(r->line, r->str,
			      ((l.ev[k].flags & PMU__EV_SAMPLE_READ) != 0) == r->sample_read);
			CHECK(r->line, r->str,
			      ((l.ev[k].flags & PMU__EV_PRECISE_MAX) != 0) == r->precise_max);
		}
		pmu__evlist_clear(&l);
	}
}

struct group_row {
	int line;
	const char *str;
	int ngroups;
	const char *names;  /* event names, space-separated */
	const char *groups; /* group index per event */
	const char *leaders;
};

static const struct group_row group_rows[] = {
	{ __LINE__, "cs", 1, "cs", "0", "1" },
	{ __LINE__, "cs,faults", 2, "cs faults", "01", "11" },
	{ __LINE__, "{cs,faults}", 1, "cs faults", "00", "10" },
	{ __LINE__, " { cs , faults } , task-clock ", 2,
	  "cs faults task-clock", "001", "101" },
	/* names as perf prints them: as typed, without the group's
	 * modifiers (which still apply, see mod_rows) */
	{ __LINE__, "cycles,{cs,faults,migrations}:u,{task-clock}", 3,
	  "cycles cs faults migrations task-clock", "01112", "11001" },
	{ __LINE__, "{cs:k,faults}:u", 1, "cs:k faults", "00", "10" },
	{ __LINE__, "{r1,r2},{r3,r4}", 2, "r1 r2 r3 r4", "0011", "1010" },
};

static void check_names(int line, const char *str,
			const struct pmu__evlist *l, const char *names)
{
	char buf[256], *save = NULL, *tok;
	size_t k = 0;

	snprintf(buf, sizeof(buf), "%s", names);
	for (tok = strtok_r(buf, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save), k++) {
		CHECK(line, str, k < l->n);
		if (strcmp(l->ev[k].name, tok))
			fail_msg("row at line %d: event %zu is '%s', want '%s'",
				 line, k, l->ev[k].name, tok);
	}
	CHECK(line, str, k == l->n);
}

static void test_groups(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(group_rows) / sizeof(group_rows[0]); i++) {
		const struct group_row *r = &group_rows[i];
		struct pmu__evlist l;

		parse_ok(&l, r->line, r->str, NULL);
		CHECK(r->line, r->str, l.ngroups == r->ngroups);
		check_names(r->line, r->str, &l, r->names);
		for (size_t k = 0; k < l.n; k++) {
			CHECK(r->line, r->str, l.ev[k].group == r->groups[k] - '0');
			CHECK(r->line, r->str,
			      l.ev[k].leader == (r->leaders[k] == '1'));
		}
		pmu__evlist_clear(&l);
	}
}

/* A second parse appends with new group numbers; a failing one appends
 * nothing and leaves the list as it was. */
static void test_append_all_or_nothing(void **state)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu__evlist l = { 0 };

	(void)state;
	assert_int_equal(pmu__evlist_parse(&l, "{cs,faults}", NULL, &err), 0);
	assert_int_equal(pmu__evlist_parse(&l, "cycles,{migrations,dummy}",
					   NULL, &err), 0);
	assert_int_equal(l.n, 5);
	assert_int_equal(l.ngroups, 3);
	assert_int_equal(l.ev[2].group, 1);
	assert_int_equal(l.ev[3].group, 2);
	assert_true(l.ev[3].leader);
	assert_false(l.ev[4].leader);
	assert_int_equal(pmu__evlist_parse(&l, "cs,faults,bogus-event", NULL,
					   &err), -EINVAL);
	assert_int_equal(l.n, 5);
	assert_int_equal(l.ngroups, 3);
	assert_int_equal(err.index, 2);
	pmu__evlist_clear(&l);
	assert_null(l.ev);
	assert_int_equal(l.n, 0);
	pmu__evlist_clear(NULL);
}

struct err_row {
	int line;
	const char *str;
	enum pmu_error_kind kind;
	const char *token;
	int offset;
	const char *msg; /* substring of the message */
};

static const struct err_row err_rows[] = {
	{ __LINE__, "", PMU_ERR_SYNTAX, "", 0, "empty" },
	{ __LINE__, "   ", PMU_ERR_SYNTAX, "", 3, "empty" },
	{ __LINE__, "cs,,faults", PMU_ERR_SYNTAX, "", 3, "empty event" },
	{ __LINE__, "cs,faults,", PMU_ERR_SYNTAX, "", 10, "empty event" },
	{ __LINE__, ",cs", PMU_ERR_SYNTAX, "", 0, "empty event" },
	{ __LINE__, "{cs,{faults}}", PMU_ERR_SYNTAX, "", 4, "nested" },
	{ __LINE__, "{cs,faults", PMU_ERR_SYNTAX, "", 0, "'}'" },
	{ __LINE__, "cs}", PMU_ERR_SYNTAX, "}", 2, "'}'" },
	{ __LINE__, "{}", PMU_ERR_SYNTAX, "", 1, "empty group" },
	{ __LINE__, "{cs,}", PMU_ERR_SYNTAX, "", 4, "empty event" },
	{ __LINE__, "{cs}x", PMU_ERR_SYNTAX, "x", 4, "unexpected 'x'" },
	{ __LINE__, "cs x", PMU_ERR_SYNTAX, "cs x", 0, "whitespace" },
	{ __LINE__, "cycles:", PMU_ERR_SYNTAX, "cycles:", 0, "missing modifier" },
	{ __LINE__, "cylces", PMU_ERR_UNKNOWN_EVENT, "cylces", 0, "did you mean 'cycles'" },
	{ __LINE__, "cs,instrutcions", PMU_ERR_UNKNOWN_EVENT, "instrutcions", 3,
	  "did you mean 'instructions'" },
	{ __LINE__, "cs, L1-dcache-load-mises", PMU_ERR_UNKNOWN_EVENT,
	  "L1-dcache-load-mises", 4, "'L1-dcache-load-misses'" },
	{ __LINE__, "task-clokc:u", PMU_ERR_UNKNOWN_EVENT, "task-clokc", 0,
	  "did you mean 'task-clock'" },
	{ __LINE__, "qwertyuiop", PMU_ERR_UNKNOWN_EVENT, "qwertyuiop", 0, "known:" },
	{ __LINE__, "rxyz", PMU_ERR_UNKNOWN_EVENT, "rxyz", 0, "unknown event" },
	{ __LINE__, "r", PMU_ERR_UNKNOWN_EVENT, "r", 0, "unknown event" },
	{ __LINE__, "r10000000000000000", PMU_ERR_BAD_VALUE, "r10000000000000000", 0,
	  "64 bits" },
	{ __LINE__, "iTLB-stores", PMU_ERR_UNKNOWN_EVENT, "iTLB-stores", 0, "iTLB" },
	{ __LINE__, "L1-icache-store-misses", PMU_ERR_UNKNOWN_EVENT,
	  "L1-icache-store-misses", 0, "" },
	{ __LINE__, "cycles:x", PMU_ERR_BAD_MODIFIER, "cycles:x", 0, "'x'" },
	{ __LINE__, "cs,cycles:uZ", PMU_ERR_BAD_MODIFIER, "cycles:uZ", 3, "'Z'" },
	{ __LINE__, "cycles:pppp", PMU_ERR_BAD_MODIFIER, "cycles:pppp", 0, "ppp" },
	/* perf: each modifier but p at most once */
	{ __LINE__, "page-faults:uu", PMU_ERR_REPEATED, "page-faults:uu", 0,
	  "'u' given twice" },
	{ __LINE__, "cs,page-faults:kuk", PMU_ERR_REPEATED, "page-faults:kuk", 3,
	  "'k' given twice" },
	{ __LINE__, "cycles:GG", PMU_ERR_REPEATED, "cycles:GG", 0, "'G'" },
	{ __LINE__, "cycles:PP", PMU_ERR_REPEATED, "cycles:PP", 0, "'P'" },
	{ __LINE__, "{cs,faults}:SS", PMU_ERR_REPEATED, "{cs,faults}:SS", 0,
	  "'S'" },
	{ __LINE__, "{cs,faults}:q", PMU_ERR_BAD_MODIFIER, "{cs,faults}:q", 0, "'q'" },
	{ __LINE__, "nosuch_pmu::RETIRED_INSTRUCTIONS", PMU_ERR_UNKNOWN_PMU,
	  "nosuch_pmu", 0, "model-specific event tables are not available" },
	{ __LINE__, "::x", PMU_ERR_SYNTAX, "::x", 0, "PMU name" },
	{ __LINE__, "/event=1/", PMU_ERR_SYNTAX, "/event=1/", 0, "PMU name" },
	{ __LINE__, ":u", PMU_ERR_SYNTAX, ":u", 0, "event name" },
};

static void check_err_row(const struct err_row *r,
			  const struct pmu__parse_ctx *ctx)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu__evlist l = { 0 };
	int rc = pmu__evlist_parse(&l, r->str, ctx, &err);

	CHECK(r->line, r->str, rc < 0);
	CHECK(r->line, r->str, rc == err.code);
	CHECK(r->line, r->str, l.n == 0 && l.ev == NULL);
	if (err.kind != r->kind)
		fail_msg("row at line %d: kind %s, want %s (%s)", r->line,
			 pmu_error_kind_name(err.kind),
			 pmu_error_kind_name(r->kind), err.message);
	if (strcmp(err.token, r->token) || err.offset != r->offset)
		fail_msg("row at line %d: token '%s' at %d, want '%s' at %d",
			 r->line, err.token, err.offset, r->token, r->offset);
	if (!strstr(err.message, r->msg))
		fail_msg("row at line %d: message '%s' lacks '%s'", r->line,
			 err.message, r->msg);
}

static void test_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(err_rows) / sizeof(err_rows[0]); i++)
		check_err_row(&err_rows[i], &fixture_ctx);
	/* a NULL error pointer is allowed */
	{
		struct pmu__evlist l = { 0 };

		assert_int_equal(pmu__evlist_parse(&l, "nope", NULL, NULL),
				 -EINVAL);
		assert_int_equal(pmu__evlist_parse(NULL, "cs", NULL, NULL),
				 -EINVAL);
	}
}

struct pmu_row {
	int line;
	const char *str;
	uint32_t type;
	uint64_t config, config1, config2, period;
	bool is_hw;
	const char *name, *unit;
	double scale;
};

static const struct pmu_row pmu_rows[] = {
	{ __LINE__, "msr/tsc/", 9, 0, 0, 0, 0, false, "msr/tsc/", "", 1.0 },
	{ __LINE__, "msr/TSC/", 9, 0, 0, 0, 0, false, "msr/TSC/", "", 1.0 },
	{ __LINE__, "msr/aperf/", 9, 1, 0, 0, 0, false, "msr/aperf/", "", 1.0 },
	{ __LINE__, "msr/event=0xffffffffffffffff/", 9, UINT64_MAX, 0, 0, 0,
	  false, "msr/event=0xffffffffffffffff/", "", 1.0 },
	{ __LINE__, "cpu/event=0xc0,umask=0x1/", 4, 0x1c0, 0, 0, 0, true,
	  "cpu/event=0xc0,umask=0x1/", "", 1.0 },
	/* event's bits 8-11 land in config bits 32-35 */
	{ __LINE__, "cpu/event=0xabc/", 4, 0xa000000bcULL, 0, 0, 0, true,
	  "cpu/event=0xabc/", "", 1.0 },
	{ __LINE__, "cpu/event=0x3c,edge,inv,cmask=2/", 4,
	  0x3c | 1u << 18 | 1u << 23 | 2u << 24, 0, 0, 0, true,
	  "cpu/event=0x3c,edge,inv,cmask=2/", "", 1.0 },
	{ __LINE__, "cpu/event=0x3c,edge=0/", 4, 0x3c, 0, 0, 0, true,
	  "cpu/event=0x3c,edge=0/", "", 1.0 },
	{ __LINE__, "cpu/mem-loads/", 4, 0x1cd, 3, 0, 0, true,
	  "cpu/mem-loads/", "", 1.0 },
	/* perf ORs a term's bits into the alias's: ldlat 3 | 30 */
	{ __LINE__, "cpu/mem-loads,ldlat=30/", 4, 0x1cd, 31, 0, 0, true,
	  "cpu/mem-loads,ldlat=30/", "", 1.0 },
	{ __LINE__, "cpu/cpu-cycles/u", 4, 0x3c, 0, 0, 0, true,
	  "cpu/cpu-cycles/u", "", 1.0 },
	{ __LINE__, "cpu/config=0x1234,config1=5,config2=6,period=1000/", 4,
	  0x1234, 5, 6, 1000, true,
	  "cpu/config=0x1234,config1=5,config2=6,period=1000/", "", 1.0 },
	{ __LINE__, "cpu/event=0x3c,name=my-cycles/", 4, 0x3c, 0, 0, 0, true,
	  "my-cycles", "", 1.0 },
	{ __LINE__, "cpu//", 4, 0, 0, 0, 0, true, "cpu//", "", 1.0 },
	{ __LINE__, "power/energy-pkg/", 23, 2, 0, 0, 0, false,
	  "power/energy-pkg/", "Joules", 2.3283064365386962890625e-10 },
	/* umask's 8 bits split over config 8-11 and 16-19 */
	{ __LINE__, "uncore_x/umask=0xa5/", 30, 0xa0500, 0, 0, 0, false,
	  "uncore_x/umask=0xa5/", "", 1.0 },
	{ __LINE__, "uncore_x/reads/", 30, 0x30f04, 0, 0x10, 0, false,
	  "uncore_x/reads/", "", 1.0 },
	{ __LINE__, "uncore_x/filter=0xffffffff/", 30, 0, 0, 0xffffffff, 0,
	  false, "uncore_x/filter=0xffffffff/", "", 1.0 },
	{ __LINE__, "software/config=3/", 1, 3, 0, 0, 0, false,
	  "software/config=3/", "", 1.0 },
};

static void test_sysfs_pmus(void **state)
{
	(void)state;
	if (!have_fixtures())
		skip();
	for (size_t i = 0; i < sizeof(pmu_rows) / sizeof(pmu_rows[0]); i++) {
		const struct pmu_row *r = &pmu_rows[i];
		struct pmu__evlist l;
		const struct pmu__ev *d;

		parse_ok(&l, r->line, r->str, &fixture_ctx);
		CHECK(r->line, r->str, l.n == 1);
		d = &l.ev[0];
		CHECK(r->line, r->str, d->attr.type == r->type);
		if (d->attr.config != r->config)
			fail_msg("row at line %d: config %#llx, want %#llx",
				 r->line, (unsigned long long)d->attr.config,
				 (unsigned long long)r->config);
		CHECK(r->line, r->str, d->attr.config1 == r->config1);
		CHECK(r->line, r->str, d->attr.config2 == r->config2);
		/* period= is the recording's: counting leaves it out */
		CHECK(r->line, r->str, d->period == r->period);
		CHECK(r->line, r->str, d->attr.sample_period == 0);
		CHECK(r->line, r->str, ((d->flags & PMU__EV_HW) != 0) == r->is_hw);
		CHECK(r->line, r->str, !strcmp(d->name, r->name));
		CHECK(r->line, r->str, !strcmp(d->unit, r->unit));
		CHECK(r->line, r->str, d->scale == r->scale);
		pmu__evlist_clear(&l);
	}
}

static const struct err_row sysfs_err_rows[] = {
	{ __LINE__, "nopmu/event=1/", PMU_ERR_UNKNOWN_PMU, "nopmu", 0, "nopmu" },
	{ __LINE__, "../x/event=1/", PMU_ERR_UNKNOWN_PMU, "..", 0, "" },
	{ __LINE__, "cs,msr/tcs/", PMU_ERR_UNKNOWN_EVENT, "msr/tcs/", 3,
	  "did you mean 'msr/tsc/'" },
	{ __LINE__, "cpu/event=0x100000/", PMU_ERR_BAD_VALUE, "event", 4,
	  "12 bits" },
	{ __LINE__, "cpu/event=1,umask=0x100/", PMU_ERR_BAD_VALUE, "umask", 12,
	  "8 bits" },
	{ __LINE__, "uncore_x/umask=0x100/", PMU_ERR_BAD_VALUE, "umask", 9, "" },
	{ __LINE__, "msr/event=0x10000000000000000/", PMU_ERR_BAD_VALUE, "event", 4,
	  "64 bits" },
	{ __LINE__, "msr/config=0xffffffffffffffffff/", PMU_ERR_BAD_VALUE,
	  "config", 4, "64 bits" },
	{ __LINE__, "msr/event=zz/", PMU_ERR_BAD_VALUE, "event", 4, "number" },
	{ __LINE__, "cpu/event=1,foo=2/", PMU_ERR_BAD_MODIFIER, "foo", 12,
	  "umask" },
	{ __LINE__, "cpu/event=1,foo=2/", PMU_ERR_BAD_MODIFIER, "foo", 12,
	  "config1" },
	{ __LINE__, "cpu/event=1,,umask=1/", PMU_ERR_SYNTAX, "", 12, "empty term" },
	{ __LINE__, "cpu/event=1,/", PMU_ERR_SYNTAX, ",", 11, "empty term" },
	{ __LINE__, "cpu/event=1", PMU_ERR_SYNTAX, "cpu/event=1", 0, "closing '/'" },
	{ __LINE__, "cpu/=1/", PMU_ERR_SYNTAX, "=", 4, "term name" },
	{ __LINE__, "cpu/config/", PMU_ERR_SYNTAX, "config", 4, "needs a value" },
	{ __LINE__, "cpu/name=/", PMU_ERR_SYNTAX, "name", 4, "needs a value" },
	{ __LINE__, "cpu/event=1/x", PMU_ERR_BAD_MODIFIER, "cpu/event=1/x", 0, "'x'" },
	{ __LINE__, "uncore_x/broken/", PMU_ERR_BAD_MODIFIER, "nosuch", 9,
	  "broken" },
	{ __LINE__, "uncore_x/toobig/", PMU_ERR_BAD_VALUE, "event", 9, "toobig" },
	{ __LINE__, "uncore_x/bad=1/", PMU_ERR_SYSTEM, "bad", 9, "format" },
	/* a word that is neither an alias nor a term, and near nothing:
	 * the PMU's events and terms */
	{ __LINE__, "msr/bogus/", PMU_ERR_UNKNOWN_EVENT, "bogus", 4,
	  "unknown event or term 'bogus' for PMU 'msr' (its events: aperf, tsc; "
	  "its terms: event, config" },
	{ __LINE__, "uncore_x/zzz/", PMU_ERR_UNKNOWN_EVENT, "zzz", 9,
	  "its events: adir, broken, reads, toobig; its terms: bad, event, "
	  "filter, umask" },
};

static void test_sysfs_errors(void **state)
{
	(void)state;
	if (!have_fixtures())
		skip();
	for (size_t i = 0; i < sizeof(sysfs_err_rows) / sizeof(sysfs_err_rows[0]); i++)
		check_err_row(&sysfs_err_rows[i], &fixture_ctx);
}

struct tp_row {
	int line;
	const char *str;
	uint64_t id;
	unsigned eu, ek;
};

static const struct tp_row tp_rows[] = {
	{ __LINE__, "sched:sched_switch", 316, 0, 0 },
	{ __LINE__, "sched:sched_wakeup", 317, 0, 0 },
	{ __LINE__, "irq:irq_handler_entry:k", 100, 1, 0 },
	{ __LINE__, "sched:sched_switch:u", 316, 0, 1 },
	/* "cs" is a built-in event: "foo" is no modifier, so a tracepoint */
	{ __LINE__, "cs:foo", 555, 0, 0 },
};

static void test_tracepoints(void **state)
{
	struct pmu__evlist l;

	(void)state;
	if (!have_fixtures())
		skip();
	for (size_t i = 0; i < sizeof(tp_rows) / sizeof(tp_rows[0]); i++) {
		const struct tp_row *r = &tp_rows[i];

		parse_ok(&l, r->line, r->str, &fixture_ctx);
		CHECK(r->line, r->str, l.n == 1);
		CHECK(r->line, r->str, l.ev[0].attr.type == PERF_TYPE_TRACEPOINT);
		CHECK(r->line, r->str, l.ev[0].attr.config == r->id);
		CHECK(r->line, r->str, l.ev[0].attr.exclude_user == r->eu);
		CHECK(r->line, r->str, l.ev[0].attr.exclude_kernel == r->ek);
		CHECK(r->line, r->str, !(l.ev[0].flags & PMU__EV_HW));
		/* perf prints a tracepoint as sys:name, without modifiers */
		CHECK(r->line, r->str, !strncmp(l.ev[0].name, r->str,
						strlen(l.ev[0].name)));
		CHECK(r->line, r->str, strchr(l.ev[0].name, ':') ==
				       strrchr(l.ev[0].name, ':'));
		pmu__evlist_clear(&l);
	}
	/* a valid modifier string wins over a same-named tracepoint */
	parse_ok(&l, __LINE__, "cs:u", &fixture_ctx);
	assert_int_equal(l.ev[0].attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(l.ev[0].attr.exclude_kernel, 1);
	pmu__evlist_clear(&l);
}

static const struct err_row tp_err_rows[] = {
	{ __LINE__, "sched:sched_swtich", PMU_ERR_UNKNOWN_EVENT,
	  "sched:sched_swtich", 0, "did you mean 'sched:sched_switch'" },
	{ __LINE__, "nosys:noevent", PMU_ERR_UNKNOWN_EVENT, "nosys:noevent", 0,
	  "unknown event" },
	{ __LINE__, "sched:../../x", PMU_ERR_UNKNOWN_PMU, "sched:..", 0, "" },
	{ __LINE__, "sched:", PMU_ERR_SYNTAX, "", 6, "tracepoint name" },
	{ __LINE__, "sched:sched_switch:q", PMU_ERR_BAD_MODIFIER,
	  "sched:sched_switch:q", 0, "'q'" },
};

static void test_tracepoint_errors(void **state)
{
	(void)state;
	if (!have_fixtures())
		skip();
	for (size_t i = 0; i < sizeof(tp_err_rows) / sizeof(tp_err_rows[0]); i++)
		check_err_row(&tp_err_rows[i], &fixture_ctx);
}

/* Tokens that stand for several events: tracepoint globs and bare
 * aliases.  Expected ids and types are the fixture files' contents. */
struct expand_row {
	int line;
	const char *str;
	const char *names;     /* printed names, space-separated, in order */
	const char *groups;    /* group index per event */
	const char *leaders;
	uint32_t type;         /* of every event */
	uint64_t config;       /* of the first */
};

static const struct expand_row expand_rows[] = {
	/* tracepoint globs: every match, sys:name, modifiers applied */
	{ __LINE__, "sched:sched_sw*", "sched:sched_switch", "0", "1",
	  PERF_TYPE_TRACEPOINT, 316 },
	{ __LINE__, "irq:*:k", "irq:irq_handler_entry", "0", "1",
	  PERF_TYPE_TRACEPOINT, 100 },
	{ __LINE__, "s?hed:sched_switch", "sched:sched_switch", "0", "1",
	  PERF_TYPE_TRACEPOINT, 316 },
	/* outside braces each match is a group of its own, inside one */
	{ __LINE__, "cs,sched:sched_[sw]*", "cs sched:sched_switch sched:sched_wakeup",
	  "012", "111", 0, 0 },
	{ __LINE__, "{sched:sched_[sw]*},cs", "sched:sched_switch sched:sched_wakeup cs",
	  "001", "101", 0, 0 },
	/* a bare alias of one PMU, printed as typed */
	{ __LINE__, "tsc", "tsc", "0", "1", 9, 0 },
	{ __LINE__, "aperf:u", "aperf:u", "0", "1", 9, 1 },
	/* in any case, as perf matches aliases (INST_RETIRED is arm64's
	 * inst_retired) */
	{ __LINE__, "TSC", "TSC", "0", "1", 9, 0 },
	{ __LINE__, "APerf:u", "APerf:u", "0", "1", 9, 1 },
	/* an alias two PMUs publish: one event each, sorted by PMU;
	 * uncore_x's reads is event=0x04 (bits 0-7), umask=0x3f (bits 8-11
	 * then 16-19): 0x04 | 0xf << 8 | 0x3 << 16 */
	{ __LINE__, "reads", "reads reads", "01", "11", 30, 0x30f04 },
	/* inside braces, one group per PMU: a group is scheduled on one
	 * PMU, and perf regroups such a group so */
	{ __LINE__, "{reads}:u", "reads reads", "01", "11", 30, 0x30f04 },
};

static void check_expand_row(const struct expand_row *r)
{
	struct pmu__evlist l;

	parse_ok(&l, r->line, r->str, &fixture_ctx);
	check_names(r->line, r->str, &l, r->names);
	for (size_t k = 0; k < l.n; k++) {
		CHECK(r->line, r->str, l.ev[k].group == r->groups[k] - '0');
		CHECK(r->line, r->str, l.ev[k].leader == (r->leaders[k] == '1'));
		if (r->type && strchr(r->str, ',') == NULL &&
		    strcmp(r->str, "reads") && strcmp(r->str, "{reads}:u"))
			CHECK(r->line, r->str, l.ev[k].attr.type == r->type);
	}
	if (r->type)
		CHECK(r->line, r->str, l.ev[0].attr.type == r->type &&
				       l.ev[0].attr.config == r->config);
	pmu__evlist_clear(&l);
}

static void test_expansions(void **state)
{
	struct pmu__evlist l;

	(void)state;
	if (!have_fixtures())
		skip();
	for (size_t i = 0; i < sizeof(expand_rows) / sizeof(expand_rows[0]); i++)
		check_expand_row(&expand_rows[i]);
	/* the second PMU of "reads": uncore_y, type 31, event=0x05 */
	parse_ok(&l, __LINE__, "reads", &fixture_ctx);
	assert_int_equal(l.ev[1].attr.type, 31);
	assert_int_equal(l.ev[1].attr.config, 5);
	pmu__evlist_clear(&l);
	/* a glob's modifiers reach every match */
	parse_ok(&l, __LINE__, "sched:*:u", &fixture_ctx);
	assert_int_equal(l.n, 2);
	for (size_t k = 0; k < l.n; k++)
		assert_int_equal(l.ev[k].attr.exclude_kernel, 1);
	pmu__evlist_clear(&l);
}

static const struct err_row expand_err_rows[] = {
	{ __LINE__, "sched:nomatch*", PMU_ERR_UNKNOWN_EVENT, "sched:nomatch*", 0,
	  "no tracepoint matches 'sched:nomatch*'" },
	{ __LINE__, "cs,no*:x", PMU_ERR_UNKNOWN_EVENT, "no*:x", 3,
	  "no tracepoint matches" },
	{ __LINE__, "sched:sched_s*:q", PMU_ERR_BAD_MODIFIER,
	  "sched:sched_switch:q", 0, "'q'" },
	{ __LINE__, "tsc:uu", PMU_ERR_REPEATED, "msr/tsc/:uu", 0, "'u'" },
};

static void test_expansion_errors(void **state)
{
	(void)state;
	if (!have_fixtures())
		skip();
	for (size_t i = 0; i < sizeof(expand_err_rows) / sizeof(expand_err_rows[0]); i++)
		check_err_row(&expand_err_rows[i], &fixture_ctx);
}

/* perf's tool events: a software dummy to the kernel, ns, the tool id. */
static void test_tool_events(void **state)
{
	static const struct { const char *name; uint8_t tool; } tools[] = {
		{ "duration_time", PMU__TOOL_DURATION },
		{ "user_time", PMU__TOOL_USER },
		{ "system_time", PMU__TOOL_SYSTEM },
	};
	struct pmu__evlist l;

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		parse_ok(&l, __LINE__, tools[i].name, NULL);
		assert_int_equal(l.ev[0].tool, tools[i].tool);
		assert_int_equal(l.ev[0].attr.type, PERF_TYPE_SOFTWARE);
		assert_int_equal(l.ev[0].attr.config, PERF_COUNT_SW_DUMMY);
		assert_string_equal(l.ev[0].unit, "ns");
		assert_true(l.ev[0].scale == 1.0);
		pmu__evlist_clear(&l);
	}
	parse_ok(&l, __LINE__, "cycles", NULL);
	assert_int_equal(l.ev[0].tool, PMU__TOOL_NONE);
	pmu__evlist_clear(&l);
}

/*
 * Every way the event-list parser can fail, one row per place in
 * evlist.c that reports an error (out of memory aside): the return value
 * is err->code, the kind is set and the message says something, and
 * nothing is appended.  Fixtures: uncore_x's "bad" format file is
 * malformed, its events/adir a directory; tracefs's bad:notnum has an id
 * that is no number.
 */
#define X50 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
#define X300 X50 X50 X50 X50 X50 X50   /* past NAME_MAX and a term's 255 */

struct path_row {
	int line;
	const char *str;
	enum pmu_error_kind kind;
	const char *model;     /* the context's default model, or NULL */
	bool no_tracefs;       /* a tracefs root that does not exist */
};

static const struct path_row path_rows[] = {
	/* fail_empty, fail_syntax */
	{ __LINE__, "", PMU_ERR_SYNTAX, NULL, false },
	{ __LINE__, "cs,", PMU_ERR_SYNTAX, NULL, false },
	{ __LINE__, "cs,,x", PMU_ERR_SYNTAX, NULL, false },
	{ __LINE__, "{}", PMU_ERR_SYNTAX, NULL, false },
	{ __LINE__, "{cs,}", PMU_ERR_SYNTAX, NULL, false },
	{ __LINE__, "cs}", PMU_ERR_SYNTAX, NULL, false },
	{ __LINE__, "cs,}", PMU_ERR_SYNTAX, NULL, false },
	{ __LINE__, "{cs,{x}}", PMU_ERR_SYNTAX, NULL, false },
	{ __LINE__, "{cs", PMU_ERR_SYNTAX, NULL, false },
	{ __LINE__, "{cs}x", PMU_ERR_SYNTAX, NULL, false },
	{ __LINE__, "{cs}:u k", PMU_ERR_SYNTAX, NULL, false },
	{ __LINE__, "c s", PMU_ERR_SYNTAX, NULL, false },
	/* modifiers: missing, repeated, too many p, unknown */
	{ __LINE__, "cs:", PMU_ERR_SYNTAX, NULL, false },
	{ __LINE__, "cs:uu", PMU_ERR_REPEATED, NULL, false },
	{ __LINE__, "cs:pppp", PMU_ERR_BAD_MODIFIER, NULL, false },
	{ __LINE__, "{cs}:z", PMU_ERR_BAD_MODIFIER, NULL, false },
	/* names: unknown with and without near names, raw, cache */
	{ __LINE__, "cylces", PMU_ERR_UNKNOWN_EVENT, NULL, false },
	{ __LINE__, "qwertyuiopasdf", PMU_ERR_UNKNOWN_EVENT, NULL, false },
	{ __LINE__, "r10000000000000000", PMU_ERR_BAD_VALUE, NULL, false },
	{ __LINE__, "iTLB-stores", PMU_ERR_UNKNOWN_EVENT, NULL, false },
	{ __LINE__, ":u", PMU_ERR_SYNTAX, NULL, false },
	/* a default model: its own message, its own refusal */
	{ __LINE__, "INST_RETIRD", PMU_ERR_UNKNOWN_EVENT, "p6", false },
	{ __LINE__, "INST_RETIRED:c=999", PMU_ERR_BAD_VALUE, "p6", false },
	/* tracepoints: no name, unknown, unreadable id, globs */
	{ __LINE__, "sched:", PMU_ERR_SYNTAX, NULL, false },
	{ __LINE__, "nosys:noevent", PMU_ERR_UNKNOWN_EVENT, NULL, false },
	{ __LINE__, "sched:nope:u", PMU_ERR_UNKNOWN_EVENT, NULL, false },
	{ __LINE__, "bad:notnum", PMU_ERR_SYSTEM, NULL, false },
	{ __LINE__, "sched:nomatch*", PMU_ERR_UNKNOWN_EVENT, NULL, false },
	{ __LINE__, "s*:x", PMU_ERR_SYSTEM, NULL, true },
	{ __LINE__, "sched:" X300 "*", PMU_ERR_UNKNOWN_EVENT, NULL, false },
	{ __LINE__, "sched:sched_s*:q", PMU_ERR_BAD_MODIFIER, NULL, false },
	/* dynamic PMUs: names, slashes, terms, values, aliases */
	{ __LINE__, "/x/", PMU_ERR_SYNTAX, NULL, false },
	{ __LINE__, "cpu/event=1", PMU_ERR_SYNTAX, NULL, false },
	{ __LINE__, "../x/", PMU_ERR_UNKNOWN_PMU, NULL, false },
	{ __LINE__, "nopmu/x/", PMU_ERR_UNKNOWN_PMU, NULL, false },
	{ __LINE__, "cpu/=1/", PMU_ERR_SYNTAX, NULL, false },
	{ __LINE__, "cpu/event=1,/", PMU_ERR_SYNTAX, NULL, false },
	{ __LINE__, "cpu/event=1,,umask=1/", PMU_ERR_SYNTAX, NULL, false },
	{ __LINE__, "cpu/event=1," X300 "=1/", PMU_ERR_SYNTAX, NULL, false },
	{ __LINE__, "cpu/config/", PMU_ERR_SYNTAX, NULL, false },
	{ __LINE__, "msr/config=zz/", PMU_ERR_BAD_VALUE, NULL, false },
	{ __LINE__, "msr/config=0x10000000000000000/", PMU_ERR_BAD_VALUE, NULL, false },
	{ __LINE__, "cpu/event=1,foo=2/", PMU_ERR_BAD_MODIFIER, NULL, false },
	{ __LINE__, "msr/tcs/", PMU_ERR_UNKNOWN_EVENT, NULL, false },
	{ __LINE__, "uncore_x/broken/", PMU_ERR_BAD_MODIFIER, NULL, false },
	{ __LINE__, "uncore_x/bad=1/", PMU_ERR_SYSTEM, NULL, false },
	{ __LINE__, "cpu/event=zz/", PMU_ERR_BAD_VALUE, NULL, false },
	{ __LINE__, "cpu/event=0x100000/", PMU_ERR_BAD_VALUE, NULL, false },
	{ __LINE__, "uncore_x/adir/", PMU_ERR_SYSTEM, NULL, false },
	{ __LINE__, "cpu/event=1/x", PMU_ERR_BAD_MODIFIER, NULL, false },
	/* catalogs: no name, unknown model, the encoder's own refusals */
	{ __LINE__, "::x", PMU_ERR_SYNTAX, NULL, false },
	{ __LINE__, "zen44::RETIRED_OPS", PMU_ERR_UNKNOWN_PMU, NULL, false },
	{ __LINE__, "zen4::RETIRED_OPZ", PMU_ERR_UNKNOWN_EVENT, NULL, false },
	{ __LINE__, "zen4::RETIRED_OPS:c=999", PMU_ERR_BAD_VALUE, NULL, false },
	{ __LINE__, "zen4::ibs_op", PMU_ERR_SYNTAX, NULL, false },
	/* IBS set-ups: the encoder's classes, as pmu encode gives them */
	{ __LINE__, "zen4::ibs_op:maxcnt=16:maxcnt=32", PMU_ERR_REPEATED, NULL,
	  false },
	{ __LINE__, "zen4::ibs_op:maxcnt=16:cnt_ctl=2", PMU_ERR_BAD_VALUE, NULL,
	  false },
	{ __LINE__, "fam10h::ibs_op:maxcnt=16:cnt_ctl", PMU_ERR_BAD_MODIFIER,
	  NULL, false },
	{ __LINE__, "k8::ibs_op:maxcnt=16", PMU_ERR_UNKNOWN_EVENT, NULL, false },
	{ __LINE__, "zen44::ibs_op:maxcnt=16", PMU_ERR_UNKNOWN_PMU, NULL, false },
	{ __LINE__, "ibs_fetch:maxcnt=16", PMU_ERR_UNKNOWN_EVENT, "p6", false },
	/* aliases: the expansion's own refusal */
	{ __LINE__, "tsc:uu", PMU_ERR_REPEATED, NULL, false },
	/* list syntax after a member */
	{ __LINE__, "cs x,y", PMU_ERR_SYNTAX, NULL, false },
	{ __LINE__, "{cs} {x}", PMU_ERR_SYNTAX, NULL, false },
};

static void test_every_error_path(void **state)
{
	(void)state;
	if (!have_fixtures())
		skip();
	for (size_t i = 0; i < sizeof(path_rows) / sizeof(path_rows[0]); i++) {
		const struct path_row *r = &path_rows[i];
		struct pmu__parse_ctx ctx = fixture_ctx;
		struct pmu_error err = { .size = sizeof(err) };
		struct pmu__evlist l = { 0 };
		int rc;

		ctx.default_model = r->model;
		if (r->no_tracefs)
			ctx.tracefs_root = "/nonexistent-tracefs";
		rc = pmu__evlist_parse(&l, r->str, &ctx, &err);
		if (rc >= 0 || rc != err.code || err.kind != r->kind ||
		    !err.message[0] || l.n || l.ev)
			fail_msg("row at line %d ('%.40s'): rc %d, code %d, kind "
				 "%s (want %s), message '%s', %zu events",
				 r->line, r->str, rc, err.code,
				 pmu_error_kind_name(err.kind),
				 pmu_error_kind_name(r->kind), err.message, l.n);
	}
	/* no list, no string: a usage error, with the same agreement */
	{
		struct pmu_error err = { .size = sizeof(err) };
		struct pmu__evlist l = { 0 };

		int rc = pmu__evlist_parse(NULL, "cs", NULL, &err);

		assert_int_equal(rc, err.code);
		assert_int_equal(err.kind, PMU_ERR_USAGE);
		rc = pmu__evlist_parse(&l, NULL, NULL, &err);
		assert_int_equal(rc, err.code);
		assert_int_equal(err.kind, PMU_ERR_USAGE);
	}
}

/* An IBS set-up in a list: the event a session samples (the control
 * value, perfmon2's PMC5 and PMD7.. of seed 003's IBS op registers, 7
 * of them), of the model that encoded it; described as the encoder
 * gives it, the control value alone.  IbsOpCtl by hand: MaxCnt =
 * 0x1000 >> 4, En bit 17, CntCtl bit 19. */
static void test_ibs_event(void **state)
{
	const uint64_t ctl = 0x100 | 1 << 17 | 1 << 19;
	struct pmu_encode_opts o = { .sz = sizeof(o), .model = "zen4" };
	struct pmu_event_desc d[1] = { { .size = sizeof(d[0]) } };
	struct pmu__evlist l;

	(void)state;
	if (!have_fixtures())
		skip();
	parse_ok(&l, __LINE__, "zen4::ibs_op:maxcnt=0x1000:cnt_ctl",
		 &fixture_ctx);
	assert_int_equal(l.n, 1);
	assert_true(l.ev[0].flags & PMU__EV_IBS);
	assert_true(l.ev[0].flags & PMU__EV_NO_PERF); /* no ibs_op in sysfs */
	assert_string_equal(l.ev[0].model, "amd64_fam19h_zen4");
	assert_int_equal(l.ev[0].ncodes, 4);
	assert_int_equal(l.ev[0].codes[0], ctl);
	assert_int_equal(l.ev[0].codes[1], 5);
	assert_int_equal(l.ev[0].codes[2], 7);
	assert_int_equal(l.ev[0].codes[3], 7);
	pmu__evlist_clear(&l);
	assert_int_equal(pmu_event_list_parse("ibs_op:maxcnt=0x1000:cnt_ctl",
					      &o, d, 1, NULL), 1);
	assert_string_equal(d[0].pmu, "amd64_fam19h_zen4");
	assert_string_equal(d[0].event, "ibs_op");
	assert_int_equal(d[0].ncodes, 1);
	assert_int_equal(d[0].codes[0], ctl);
	assert_int_equal(d[0].sample_period, 0x1000);
}

/* pmu_event_list_parse(): the parser's events through the public API.
 * Expected values are <linux/perf_event.h> constants and, for the zen4
 * event, its PERF_CTL by hand: event 0xc1 | USR (16) | INT (20) | EN (22). */
static void test_list_parse(void **state)
{
	struct pmu_encode_opts o = { .sz = sizeof(o), .model = "zen4" };
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_event_desc d[4];
	unsigned char older[sizeof(d[0]) * 2];
	/* an older struct: ended before pmu, rounded as a struct is */
	size_t small = (offsetof(struct pmu_event_desc, pmu) + 7) & ~(size_t)7;

	(void)state;
	assert_int_equal(pmu_event_list_parse("cycles:u,{cs,page-faults}:k",
					      NULL, NULL, 0, &err), 3);
	memset(d, 0, sizeof(d));
	d[0].size = sizeof(d[0]);
	assert_int_equal(pmu_event_list_parse("cycles:u,{cs,page-faults}:k",
					      NULL, d, 4, &err), 3);
	assert_string_equal(d[0].name, "cycles:u");
	assert_string_equal(d[0].pmu, "hardware");
	assert_int_equal(d[0].perf.type, PERF_TYPE_HARDWARE);
	assert_int_equal(d[0].perf.exclude_kernel, 1);
	assert_string_equal(d[1].name, "cs");
	assert_int_equal(d[1].perf.config, PERF_COUNT_SW_CONTEXT_SWITCHES);
	assert_int_equal(d[1].perf.exclude_user, 1);
	assert_int_equal(d[2].group, 1);
	assert_true(d[1].leader && !d[2].leader);
	assert_true(d[1].has_perf && d[1].fstr[0] == '\0' && d[1].ncodes == 0);
	/* too short an array: the count of the whole list, the first filled */
	memset(d, 0, sizeof(d));
	d[0].size = sizeof(d[0]);
	assert_int_equal(pmu_event_list_parse("cs,faults,cycles", NULL, d, 1,
					      NULL), 3);
	assert_string_equal(d[0].name, "cs");
	assert_string_equal(d[1].name, "");
	/* a catalog event, bare names of opts->model */
	memset(d, 0, sizeof(d));
	d[0].size = sizeof(d[0]);
	assert_int_equal(pmu_event_list_parse("amd64_fam19h_zen4::RETIRED_OPS:u,"
					      "RETIRED_OPS", &o, d, 4, &err), 2);
	assert_string_equal(d[0].pmu, "amd64_fam19h_zen4");
	assert_string_equal(d[0].event, "RETIRED_OPS");
	assert_int_equal(d[0].ncodes, 1);
	assert_int_equal(d[0].codes[0], 0xc1 | 1 << 16 | 1 << 20 | 1 << 22);
	assert_non_null(strstr(d[0].fstr, "RETIRED_OPS:k=0:u=1"));
	assert_string_equal(d[1].event, "RETIRED_OPS");
	/* errors as pmu_session_add gives them */
	assert_int_equal(pmu_event_list_parse("cs,cyclez", NULL, d, 4, &err),
			 -EINVAL);
	assert_int_equal(err.code, -EINVAL);
	assert_int_equal(err.kind, PMU_ERR_UNKNOWN_EVENT);
	assert_int_equal(err.offset, 3);
	/* an older, smaller element: filled that far, never further */
	memset(older, 0xa5, sizeof(older));
	((struct pmu_event_desc *)(void *)older)->size = small;
	assert_int_equal(pmu_event_list_parse("cs,faults", NULL,
		(struct pmu_event_desc *)(void *)older, 2, NULL), 2);
	assert_string_equal((char *)older + offsetof(struct pmu_event_desc,
						     name), "cs");
	assert_string_equal((char *)older + small + offsetof(struct pmu_event_desc,
							     name), "faults");
	assert_int_equal(older[2 * small], 0xa5);
	d[0].size = 0;
	assert_int_equal(pmu_event_list_parse("cs", NULL, d, 1, &err), -EINVAL);
	assert_int_equal(err.kind, PMU_ERR_USAGE);
	d[0].size = small + 1;
	assert_int_equal(pmu_event_list_parse("cs", NULL, d, 1, &err), -EINVAL);
}

static int read_u64_file(const char *path, uint64_t *v)
{
	FILE *f = fopen(path, "r");
	unsigned long long x;
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "%llu", &x);
	fclose(f);
	*v = x;
	return n == 1 ? 0 : -1;
}

/* The machine's own sysfs and tracefs, where they exist. */
static void test_real_machine(void **state)
{
	struct pmu__evlist l;
	uint64_t type, id;
	int done = 0;

	(void)state;
	if (read_u64_file("/sys/bus/event_source/devices/msr/type", &type) == 0) {
		parse_ok(&l, __LINE__, "msr/tsc/", NULL);
		assert_int_equal(l.ev[0].attr.type, type);
		assert_int_equal(l.ev[0].attr.config, 0);
		pmu__evlist_clear(&l);
		done++;
	}
	if (read_u64_file("/sys/kernel/tracing/events/sched/sched_switch/id", &id) == 0 ||
	    read_u64_file("/sys/kernel/debug/tracing/events/sched/sched_switch/id", &id) == 0) {
		parse_ok(&l, __LINE__, "sched:sched_switch", NULL);
		assert_int_equal(l.ev[0].attr.type, PERF_TYPE_TRACEPOINT);
		assert_int_equal(l.ev[0].attr.config, id);
		pmu__evlist_clear(&l);
		done++;
	}
	if (!done)
		skip();
}

struct fmt_row {
	int line;
	const char *text;
	int rc, field;
	uint64_t mask;
};

static const struct fmt_row fmt_rows[] = {
	{ __LINE__, "config:0-7", 0, 0, 0xff },
	{ __LINE__, "config:0-7,21", 0, 0, 0x2000ff },
	{ __LINE__, "config1:0-63", 0, 1, UINT64_MAX },
	{ __LINE__, "config2:5", 0, 2, 0x20 },
	{ __LINE__, "config:8-11,16-19", 0, 0, 0xf0f00 },
	{ __LINE__, "config:63", 0, 0, 1ULL << 63 },
	{ __LINE__, "config3:0-7", -EINVAL, 0, 0 },
	{ __LINE__, "config:7-0", -EINVAL, 0, 0 },
	{ __LINE__, "config:0-64", -EINVAL, 0, 0 },
	{ __LINE__, "config:", -EINVAL, 0, 0 },
	{ __LINE__, "config:1,", -EINVAL, 0, 0 },
	{ __LINE__, "config:1-", -EINVAL, 0, 0 },
	{ __LINE__, "config 0-7", -EINVAL, 0, 0 },
	{ __LINE__, "config:99999999999999999999999", -EINVAL, 0, 0 },
};

static void test_format_parse(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(fmt_rows) / sizeof(fmt_rows[0]); i++) {
		const struct fmt_row *r = &fmt_rows[i];
		struct pmu__format f = { 0 };
		int rc = pmu__format_parse(r->text, &f);

		CHECK(r->line, r->text, rc == r->rc);
		if (rc == 0) {
			CHECK(r->line, r->text, f.field == r->field);
			CHECK(r->line, r->text, f.mask == r->mask);
		}
	}
}

static void test_format_apply(void **state)
{
	struct pmu__format f = { .field = 1, .mask = 0xf0f0 };
	struct perf_event_attr a = { .config1 = 0xffff0000 };

	(void)state;
	assert_int_equal(pmu__format_apply(&f, 0xa5, &a), 0);
	assert_int_equal(a.config1, 0xffffa050);
	assert_int_equal(pmu__format_apply(&f, 0x100, &a), -ERANGE);
	assert_int_equal(a.config1, 0xffffa050);
	/* perf's rule: bits are ORed in, never cleared */
	assert_int_equal(pmu__format_apply(&f, 0, &a), 0);
	assert_int_equal(a.config1, 0xffffa050);
	assert_int_equal(pmu__format_apply(&f, 0x5a, &a), 0);
	assert_int_equal(a.config1, 0xfffff0f0);
}

/* What an event asks for when it samples: :P the most precise level,
 * a period= term its own period over the recording's frequency. */
static void test_sampling(void **state)
{
	static const struct {
		int line;
		const char *str;
		unsigned precise;
		uint64_t period;     /* 0: the recording's */
	} rows[] = {
		{ __LINE__, "cycles:P", 3, 0 },
		{ __LINE__, "cycles:pp", 2, 0 },
		{ __LINE__, "cycles", 0, 0 },
		{ __LINE__, "cpu/event=0x3c,period=5000/", 0, 5000 },
		{ __LINE__, "cpu/event=0x3c,period=10,period=20/P", 3, 20 },
	};

	(void)state;
	if (!have_fixtures())
		skip();
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmu__evlist l;
		struct perf_event_attr a = { .freq = 1, .sample_freq = 4000 };

		parse_ok(&l, rows[i].line, rows[i].str, &fixture_ctx);
		CHECK(rows[i].line, rows[i].str, l.ev[0].attr.precise_ip ==
			      (rows[i].precise == 3 ? 0 : rows[i].precise));
		a.precise_ip = l.ev[0].attr.precise_ip;
		pmu__ev_sampling(&l.ev[0], &a);
		CHECK(rows[i].line, rows[i].str, a.precise_ip == rows[i].precise);
		if (rows[i].period)
			CHECK(rows[i].line, rows[i].str, !a.freq &&
			      a.sample_period == rows[i].period);
		else
			CHECK(rows[i].line, rows[i].str, a.freq &&
			      a.sample_freq == 4000);
		pmu__evlist_clear(&l);
	}
}

struct dist_row {
	int line;
	const char *a, *b;
	unsigned d;
};

static const struct dist_row dist_rows[] = {
	{ __LINE__, "", "", 0 },
	{ __LINE__, "cycles", "cycles", 0 },
	{ __LINE__, "cylces", "cycles", 1 },
	{ __LINE__, "CYCLES", "cycles", 0 },
	{ __LINE__, "cycle", "cycles", 1 },
	{ __LINE__, "kitten", "sitting", 3 },
	{ __LINE__, "", "abc", 3 },
	{ __LINE__, "ca", "abc", 3 },
};

static void test_edit_distance(void **state)
{
	char longer[200];

	(void)state;
	for (size_t i = 0; i < sizeof(dist_rows) / sizeof(dist_rows[0]); i++) {
		const struct dist_row *r = &dist_rows[i];

		CHECK(r->line, r->a, pmu__edit_distance(r->a, r->b) == r->d);
		CHECK(r->line, r->a, pmu__edit_distance(r->b, r->a) == r->d);
	}
	memset(longer, 'a', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	assert_true(pmu__edit_distance(longer, "a") > 100);
}

static void test_suggest(void **state)
{
	const char *out[4];
	size_t n;

	(void)state;
	n = pmu__event_suggest("cylces", NULL, out, 4);
	assert_true(n >= 1);
	assert_string_equal(out[0], "cycles");
	n = pmu__event_suggest("contxt-switches", NULL, out, 4);
	assert_true(n >= 1);
	assert_string_equal(out[0], "context-switches");
	assert_int_equal(pmu__event_suggest("zzzzzzzzzzzz", NULL, out, 4), 0);
	assert_int_equal(pmu__event_suggest("cylces", NULL, out, 0), 0);
	n = pmu__event_suggest("LLC-load-mises", NULL, out, 1);
	assert_int_equal(n, 1);
	assert_string_equal(out[0], "LLC-load-misses");
}

/*
 * perf's syntax of a kernel pmu-events model's events.  Expected configs
 * come from the vendor records (EventCode, UMask, CounterMask, MSRValue
 * as the rows' comments give them) deposited through the core PMU's
 * format as the kernel declares it: Intel event 0-7, umask 8-15, edge
 * 18, inv 23, cmask 24-31, offcore_rsp/ldlat/frontend config1; AMD event
 * 0-7 and 32-35, umask 8-15, cmask 24-31; arm64 event 0-15.  Without a
 * sysfs PMU (the root below has none) those formats stand in; with the
 * fixture's "cpu" PMU its own type and formats count.
 */
#define NO_SYSFS "tests/fixtures/sysfs/none"

struct kern_row {
	int line;
	const char *model, *str;
	uint64_t config, config1;
	unsigned eu, ek, eh, eg, pip;
	int n;                  /* events made (2: both core types) */
	const char *name;       /* of the first */
};

static const struct kern_row kern_rows[] = {
	/* ls_dispatch.ld_st_dispatch: EventCode 0x29, UMask 0x04 */
	{ __LINE__, "amdzen5", "ls_dispatch.ld_st_dispatch", 0x429, 0,
	  0, 0, 0, 1, 0, 1, "ls_dispatch.ld_st_dispatch" },
	{ __LINE__, "amdzen5", "LS_DISPATCH.LD_ST_DISPATCH", 0x429, 0,
	  0, 0, 0, 1, 0, 1, "LS_DISPATCH.LD_ST_DISPATCH" },
	/* perf's modifiers after the vendor name */
	{ __LINE__, "amdzen5", "ls_dispatch.ld_st_dispatch:u", 0x429, 0,
	  0, 1, 1, 1, 0, 1, "ls_dispatch.ld_st_dispatch:u" },
	{ __LINE__, "amdzen5", "ls_dispatch.ld_st_dispatch:kpp", 0x429, 0,
	  1, 0, 1, 1, 2, 1, "ls_dispatch.ld_st_dispatch:kpp" },
	/* ex_no_retire.load_not_complete: EventCode 0xd6, UMask 0x02 */
	{ __LINE__, "amdzen5", "cpu/event=0xd6,umask=0x2/", 0x2d6, 0,
	  0, 0, 0, 1, 0, 1, "cpu/event=0xd6,umask=0x2/" },
	/* event bits 11:8 go to config 35:32 */
	{ __LINE__, "amdzen5", "cpu/event=0x1aa,umask=0xff/", 0x10000ffaaull,
	  0, 0, 0, 0, 1, 0, 1, "cpu/event=0x1aa,umask=0xff/" },
	{ __LINE__, "amdzen5", "cpu/ls_dispatch.ld_st_dispatch,cmask=2/",
	  0x2000429, 0, 0, 0, 0, 1, 0, 1,
	  "cpu/ls_dispatch.ld_st_dispatch,cmask=2/" },
	/* INST_RETIRED.ANY: perf spells the fixed counter's event 0xc0 */
	{ __LINE__, "rocketlake", "INST_RETIRED.ANY", 0xc0, 0,
	  0, 0, 0, 1, 0, 1, "INST_RETIRED.ANY" },
	/* OCR.DEMAND_DATA_RD.ANY_RESPONSE: 0xb7, 0x01, MSRValue 0x10001 */
	{ __LINE__, "rocketlake", "ocr.demand_data_rd.any_response", 0x1b7,
	  0x10001, 0, 0, 0, 1, 0, 1, "ocr.demand_data_rd.any_response" },
	/* MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4: 0xcd, 0x01, ldlat 4 */
	{ __LINE__, "rocketlake", "mem_trans_retired.load_latency_gt_4:p",
	  0x1cd, 4, 0, 0, 0, 1, 1, 1,
	  "mem_trans_retired.load_latency_gt_4:p" },
	/* UOPS_ISSUED.STALL_CYCLES: 0x0e, 0x01, CounterMask 1, Invert */
	{ __LINE__, "rocketlake", "UOPS_ISSUED.STALL_CYCLES", 0x180010e, 0,
	  0, 0, 0, 1, 0, 1, "UOPS_ISSUED.STALL_CYCLES" },
	{ __LINE__, "rocketlake", "cpu/topdown-retiring/", 0x8000, 0,
	  0, 0, 0, 1, 0, 1, "cpu/topdown-retiring/" },
	/* DTLB_LOAD_MISSES.STLB_HIT: EventCode 0x08, UMask 0x20 */
	{ __LINE__, "rocketlake",
	  "cpu/DTLB_LOAD_MISSES.STLB_HIT,cmask=1/", 0x1002008, 0,
	  0, 0, 0, 1, 0, 1, "cpu/DTLB_LOAD_MISSES.STLB_HIT,cmask=1/" },
	/* the libpfm4-named model of the same CPU: either naming, with
	 * that model's own privilege levels (libpfm4 excludes AMD's
	 * hypervisor level unless "h" is given, and guests unless "mg"
	 * is: its fstr ends ":mg=0:mh=1") */
	{ __LINE__, "amdzen4", "RETIRED_INSTRUCTIONS", 0xc0, 0,
	  0, 0, 1, 1, 0, 1, "RETIRED_INSTRUCTIONS" },
	/* both core types of a hybrid part */
	{ __LINE__, "alderlake", "INST_RETIRED.ANY", 0xc0, 0,
	  0, 0, 0, 1, 0, 2, "cpu_core/INST_RETIRED.ANY/" },
	{ __LINE__, "alderlake", "cpu_atom/INST_RETIRED.ANY/", 0xc0, 0,
	  0, 0, 0, 1, 0, 1, "cpu_atom/INST_RETIRED.ANY/" },
	/* arm64: L1D_CACHE_REFILL is the standard event 0x03 */
	{ __LINE__, "neoverse-n1", "l1d_cache_refill", 0x3, 0,
	  0, 0, 0, 1, 0, 1, "l1d_cache_refill" },
	{ __LINE__, "neoverse-n1", "armv8_pmuv3_0/event=0x11/", 0x11, 0,
	  0, 0, 0, 1, 0, 1, "armv8_pmuv3_0/event=0x11/" },
};

static void test_kernel_syntax(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(kern_rows) / sizeof(kern_rows[0]); i++) {
		const struct kern_row *r = &kern_rows[i];
		struct pmu__parse_ctx ctx = { .sysfs_root = NO_SYSFS,
					      .core_model = r->model };
		const struct perf_event_attr *a;
		struct pmu__evlist l;

		parse_ok(&l, r->line, r->str, &ctx);
		a = &l.ev[0].attr;
		if ((int)l.n != r->n || a->config != r->config ||
		    a->config1 != r->config1 || a->exclude_user != r->eu ||
		    a->exclude_kernel != r->ek || a->exclude_hv != r->eh ||
		    a->exclude_guest != r->eg || a->precise_ip != r->pip ||
		    strcmp(l.ev[0].name, r->name))
			fail_msg("row at line %d: n %zu config %#llx/%#llx "
				 "u%d k%d h%d g%d p%d name %s", r->line, l.n,
				 (unsigned long long)a->config,
				 (unsigned long long)a->config1, a->exclude_user,
				 a->exclude_kernel, a->exclude_hv,
				 a->exclude_guest, a->precise_ip, l.ev[0].name);
		CHECK(r->line, r->str, a->type == PERF_TYPE_RAW);
		CHECK(r->line, r->str, l.ev[0].flags & PMU__EV_HW);
		if (r->n == 2)
			CHECK(r->line, r->str, l.ev[1].group != l.ev[0].group &&
			      !strncmp(l.ev[1].name, "cpu_atom/", 9));
		pmu__evlist_clear(&l);
	}
}

static const struct err_row kern_err_rows[] = {
	{ __LINE__, "ls_dispatch.nosuch", PMU_ERR_UNKNOWN_EVENT,
	  "ls_dispatch.nosuch", 0, "unknown event" },
	{ __LINE__, "ls_dispatch.ld_st_dispatch:q", PMU_ERR_BAD_MODIFIER,
	  "ls_dispatch.ld_st_dispatch:q", 0, "'q'" },
	{ __LINE__, "cpu/event=0x1000/", PMU_ERR_BAD_VALUE, "event", 4,
	  "12 bits" },
	{ __LINE__, "cpu/nosuchterm=1/", PMU_ERR_BAD_MODIFIER, "nosuchterm", 4,
	  "event, umask, edge, inv, cmask" },
	{ __LINE__, "cpu_core/event=0x3c/", PMU_ERR_UNKNOWN_PMU, "cpu_core", 0,
	  "" },
};

static void test_kernel_syntax_errors(void **state)
{
	const struct pmu__parse_ctx ctx = { .sysfs_root = NO_SYSFS,
					    .core_model = "amdzen5" };
	const struct pmu__parse_ctx hyb = { .sysfs_root = NO_SYSFS,
					    .core_model = "alderlake" };
	const struct err_row grp = { __LINE__, "{INST_RETIRED.ANY,cycles}",
				     PMU_ERR_CONFLICT, "INST_RETIRED.ANY", 1,
				     "cpu_core/INST_RETIRED.ANY/" };

	(void)state;
	for (size_t i = 0; i < sizeof(kern_err_rows) / sizeof(kern_err_rows[0]);
	     i++)
		check_err_row(&kern_err_rows[i], &ctx);
	check_err_row(&grp, &hyb);
}

/* A sysfs core PMU decides type and formats; the vendor names remain
 * its aliases. */
static void test_kernel_with_sysfs(void **state)
{
	const struct pmu__parse_ctx ctx = { .sysfs_root = FIX_SYSFS,
					    .core_model = "rocketlake" };
	struct pmu__evlist l;

	(void)state;
	if (!have_fixtures())
		skip();
	parse_ok(&l, __LINE__, "cpu/inst_retired.any_p/", &ctx);
	assert_int_equal(l.ev[0].attr.type, 4);
	assert_int_equal(l.ev[0].attr.config, 0xc0);
	pmu__evlist_clear(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables_sorted),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_modifiers),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_append_all_or_nothing),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_sysfs_pmus),
		cmocka_unit_test(test_sysfs_errors),
		cmocka_unit_test(test_tracepoints),
		cmocka_unit_test(test_tracepoint_errors),
		cmocka_unit_test(test_expansions),
		cmocka_unit_test(test_expansion_errors),
		cmocka_unit_test(test_tool_events),
		cmocka_unit_test(test_list_parse),
		cmocka_unit_test(test_every_error_path),
		cmocka_unit_test(test_ibs_event),
		cmocka_unit_test(test_real_machine),
		cmocka_unit_test(test_format_parse),
		cmocka_unit_test(test_format_apply),
		cmocka_unit_test(test_sampling),
		cmocka_unit_test(test_edit_distance),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_kernel_syntax),
		cmocka_unit_test(test_kernel_syntax_errors),
		cmocka_unit_test(test_kernel_with_sysfs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
