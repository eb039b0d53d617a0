/* SPDX-License-Identifier: MIT */
/*
 * Detection of the kernel pmu-events model from the host identity: the
 * identifier perf would build on each architecture from the fixture
 * trees under tests/fixtures/hosts (the expected strings are the
 * fixtures' numbers in perf's formats: x86 "Vendor-Family-Model-Stepping"
 * with family decimal and model and stepping upper-case hex, arm64 the
 * MIDR as 0x and 16 hex digits, POWER the PVR as 0x and 8 hex digits,
 * s390 "Manufacturer,Type,Model,CF-version,authorization", RISC-V
 * "mvendorid-marchid-mimpid"), and the model the mapfiles' first
 * matching row names (the rows as the kernel's mapfile.csv files have
 * them; tests/cli/detect.sh checks every row of them).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <regex.h>
#include <stdbool.h>

#include <pmu/event.h>

#include "events/catalog.h"
#include "events/detect.h"
#include "util/cpuid.h"

#define FIX "tests/fixtures/hosts"

static const struct {
	int line;
	const char *root, *arch, *perf_id, *model;
} hosts[] = {
	{ __LINE__, "intel", "x86", "GenuineIntel-6-8F-8", "sapphirerapids" },
	{ __LINE__, "amd", "x86", "AuthenticAMD-25-11-1", "amdzen4" },
	/* MIDR r3p1 of a Neoverse N1 (part 0xd0c) */
	{ __LINE__, "arm64", "arm64", "0x00000000413fd0c1", "neoverse-n1" },
	{ __LINE__, "arm64-midr", "arm64", "0x00000000410fd4f0",
	  "neoverse-n2-v2" },
	{ __LINE__, "power9", "powerpc", "0x004e1202", "power9" },
	{ __LINE__, "s390", "s390", "IBM,3931,A01,3.7,002f", "cf_z16" },
	{ __LINE__, "riscv", "riscv", "0x489-0x8000000000000007-0x4210427",
	  "u74" },
};

static void test_hosts(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(hosts) / sizeof(hosts[0]); i++) {
		struct pmu__cpuid id;
		char root[256];
		const char *m;

		snprintf(root, sizeof(root), FIX "/%s", hosts[i].root);
		pmu__cpuid_read_at(root, &id);
		m = pmu__detect_kernel(id.arch, id.perf_id);
		if (strcmp(id.arch, hosts[i].arch) ||
		    strcmp(id.perf_id, hosts[i].perf_id) ||
		    !m || strcmp(m, hosts[i].model))
			fail_msg("line %d: arch '%s' id '%s' model %s", hosts[i].line,
				 id.arch, id.perf_id, m ? m : "(none)");
	}
}

/* Identifiers as perf builds them, and the row that must win. */
static const struct {
	int line;
	const char *arch, *id, *model;   /* model NULL: no row matches */
} ids[] = {
	/* this machine on the day the work was asked for: family 1Ah */
	{ __LINE__, "x86", "AuthenticAMD-26-2", "amdzen5" },
	{ __LINE__, "x86", "AuthenticAMD-26-2-0", "amdzen5" },
	/* zen3's row wins over zen4's only for the models it names */
	{ __LINE__, "x86", "AuthenticAMD-25-21-0", "amdzen3" },
	{ __LINE__, "x86", "AuthenticAMD-25-1-1", "amdzen3" },
	{ __LINE__, "x86", "AuthenticAMD-25-A0-1", "amdzen4" },
	{ __LINE__, "x86", "AuthenticAMD-23-31-0", "amdzen2" },
	{ __LINE__, "x86", "AuthenticAMD-23-8-2", "amdzen1" },
	/* a pattern with a stepping matches it */
	{ __LINE__, "x86", "GenuineIntel-6-55-4", "skylakex" },
	{ __LINE__, "x86", "GenuineIntel-6-55-B", "cascadelakex" },
	{ __LINE__, "x86", "GenuineIntel-6-A7-1", "rocketlake" },
	{ __LINE__, "x86", "GenuineIntel-6-9A-3", "alderlake" },
	{ __LINE__, "x86", "GenuineIntel-6-9AA-3", NULL },
	{ __LINE__, "x86", "xGenuineIntel-6-9A-3", NULL },
	{ __LINE__, "x86", "GenuineIntel-15-4-1", NULL },
	/* variant and revision of the MIDR do not count */
	{ __LINE__, "arm64", "0x00000000410fd493", "neoverse-n2-v2" },
	{ __LINE__, "arm64", "0x00000000420f1000", "cortex-a53" },
	{ __LINE__, "arm64", "0x00000000410fd990", NULL },
	{ __LINE__, "powerpc", "0x00800200", "power10" },
	{ __LINE__, "powerpc", "0x004e12020", NULL },
	{ __LINE__, "s390", "IBM,2964,NE1,3.1,0022", "cf_z13" },
	{ __LINE__, "riscv", "0x5b7-0x0-0x0", "c900-legacy" },
	/* an identifier of one architecture against another's rows */
	{ __LINE__, "arm64", "GenuineIntel-6-A7-1", NULL },
	{ __LINE__, "nosuch", "GenuineIntel-6-A7-1", NULL },
	{ __LINE__, "x86", "", NULL },
};

static void test_ids(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		const char *m = pmu__detect_kernel(ids[i].arch, ids[i].id);
		const char *want = ids[i].model ? ids[i].model : "(none)";

		if (strcmp(m ? m : "(none)", want))
			fail_msg("line %d: %s -> %s, want %s", ids[i].line,
				 ids[i].id, m ? m : "(none)", want);
	}
}

/* The identifier's form says its architecture ($PMU_CPUID). */
static void test_env(void **state)
{
	(void)state;
	setenv("PMU_CPUID", "AuthenticAMD-26-2", 1);
	unsetenv("PMU_EVENTS_MODEL");
	assert_string_equal(pmu_event_host_model(), "amdzen5");
}

/* The filter before compiling a mapfile pattern never refuses an id the
 * pattern matches at its start: every pattern of every model against
 * identifiers of every x86 family and model, POWER and s390 ones, and
 * hand-made patterns of each shape the filter reads. */
static void test_pattern_filter(void **state)
{
	static const char *const extra[] = {
		"GenuineIntel-6-(1A|1E)", "^GenuineIntel-6-55-[01234]",
		"AuthenticAMD-23-([12][0-9A-F]|[0-9A-F])", "a|GenuineIntel",
		"GenuineIntel-6-5*", "GenuineIntelx?-6", "Genuine[I]ntel",
		"(GenuineIntel)-6", "GenuineIntel-6-{1}", "\\GenuineIntel",
		"004[bcd][[:xdigit:]]{4}$", "^IBM.*", "0x004e.*",
	};
	const char *idv[4096 + 3072 + 8];
	char buf[4096 + 3072][32];
	size_t nid = 0, checked = 0;
	regex_t re;
	regmatch_t m;

	(void)state;
	for (int model = 0; model < 256; model++)
		for (int step = 0; step < 16; step++) {
			snprintf(buf[nid], sizeof(buf[nid]),
				 "GenuineIntel-6-%X-%X", model, step);
			idv[nid] = buf[nid];
			nid++;
		}
	for (int fam = 15; fam <= 26; fam++)
		for (int model = 0; model < 256; model++) {
			snprintf(buf[nid], sizeof(buf[nid]),
				 "AuthenticAMD-%d-%X-0", fam, model);
			idv[nid] = buf[nid];
			nid++;
		}
	idv[nid++] = "0x004e1202";
	idv[nid++] = "0x00800200";
	idv[nid++] = "IBM,3931,A01,3.7,002f";
	idv[nid++] = "IBM,8561,703,T01,3.6,002f";
	idv[nid++] = "HygonGenuine-24-0-0";
	for (size_t mdl = 0; mdl <= pmu_catalog_count(); mdl++) {
		struct pmu_catalog_info ci = { .size = sizeof(ci) };
		const char *p;
		char pat[512];

		if (mdl < pmu_catalog_count() &&
		    (pmu_catalog_info(mdl, &ci) || !ci.patterns))
			continue;
		for (size_t e = 0; mdl == pmu_catalog_count() &&
				   e < sizeof(extra) / sizeof(*extra); e++) {
			if (regcomp(&re, extra[e], REG_EXTENDED))
				continue;
			for (size_t i = 0; i < nid; i++)
				if (!regexec(&re, idv[i], 1, &m, 0) &&
				    m.rm_so == 0) {
					checked++;
					assert_true(pmu__pattern_may_match(
						extra[e], idv[i]));
				}
			regfree(&re);
		}
		for (p = ci.patterns; p && *p; p += strcspn(p, "\n"),
		     p += *p == '\n') {
			snprintf(pat, sizeof(pat), "%.*s", (int)strcspn(p, "\n"),
				 p);
			if (regcomp(&re, pat, REG_EXTENDED))
				continue;
			for (size_t i = 0; i < nid; i++) {
				bool hit = !regexec(&re, idv[i], 1, &m, 0) &&
					   m.rm_so == 0;

				if (hit) {
					checked++;
					assert_true(pmu__pattern_may_match(
						pat, idv[i]));
				}
			}
			regfree(&re);
		}
	}
	/* and the filter does filter */
	assert_false(pmu__pattern_may_match("GenuineIntel-6-55-[01234]",
					    "AuthenticAMD-25-11-1"));
	assert_true(pmu__pattern_may_match("GenuineIntel-6-5*",
					   "GenuineIntel-6-"));
	assert_true(checked > 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hosts),
		cmocka_unit_test(test_ids),
		cmocka_unit_test(test_env),
		/* last: it reads the catalogs, which fixes the host model */
		cmocka_unit_test(test_pattern_filter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
