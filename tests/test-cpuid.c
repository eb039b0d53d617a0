/* SPDX-License-Identifier: MIT */
/*
 * Host identity from cpuinfo text and from fake trees under
 * tests/fixtures/hosts.  Expected values are the numbers written in each
 * fixture (MIDR_EL1 assembled by the architecture's field layout:
 * implementer 31:24, variant 23:20, architecture 19:16 = 0xF, part 15:4,
 * revision 3:0; PVR = the two halves cpuinfo prints after "pvr").
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <pmu/host.h>

#include "util/cpuid.h"

#define FIX "tests/fixtures/hosts"

struct row {
	int line;
	const char *root;       /* fixture tree under FIX */
	int rc;
	const char *vendor, *name;
	int family, model, stepping;
	uint64_t midr;
	uint32_t pvr;
	bool hypervisor;
	const char *cpuid;      /* pmu__cpuid_string(), NULL = -ENOENT */
};

static const struct row rows[] = {
	{ __LINE__, "intel", 0, "GenuineIntel", "Intel(R) Xeon(R) CPU @ 2.00GHz",
	  6, 143, 8, 0, 0, true, "GenuineIntel-6-8F" },
	{ __LINE__, "amd", 0, "AuthenticAMD", "AMD EPYC 9654 96-Core Processor",
	  25, 17, 1, 0, 0, false, "AuthenticAMD-25-11" },
	{ __LINE__, "arm64", 0, "", "", -1, -1, -1, 0x413fd0c1, 0, false, NULL },
	/* the register in sysfs wins over cpuinfo's decoded fields */
	{ __LINE__, "arm64-midr", 0, "", "", -1, -1, -1, 0x410fd4f0, 0, false,
	  NULL },
	/* POWER's "model" line is the machine, not an x86 model number */
	{ __LINE__, "power9", 0, "", "POWER9 (raw), altivec supported",
	  -1, -1, -1, 0, 0x004e1202, false, NULL },
	{ __LINE__, "missing", -ENOENT, "", "", -1, -1, -1, 0, 0, false, NULL },
};

static void check_row(const struct row *r, int rc, const struct pmu__cpuid *id)
{
	char s[64];
	int src = pmu__cpuid_string(id, s, sizeof(s));

	if (rc != r->rc || strcmp(id->vendor, r->vendor) ||
	    strcmp(id->name, r->name) || id->family != r->family ||
	    id->model != r->model || id->stepping != r->stepping ||
	    id->midr != r->midr || id->pvr != r->pvr ||
	    id->hypervisor != r->hypervisor ||
	    (r->cpuid ? src || strcmp(s, r->cpuid) : src != -ENOENT))
		fail_msg("row at line %d: rc %d vendor '%s' name '%s' %d/%d/%d "
			 "midr %#llx pvr %#x hv %d cpuid %d '%s'", r->line, rc,
			 id->vendor, id->name, id->family, id->model,
			 id->stepping, (unsigned long long)id->midr, id->pvr,
			 id->hypervisor, src, src ? "" : s);
}

static void test_fixture_trees(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmu__cpuid id;
		char root[256];
		int rc;

		snprintf(root, sizeof(root), FIX "/%s", rows[i].root);
		rc = pmu__cpuid_read_at(root, &id);
		check_row(&rows[i], rc, &id);
	}
}

struct text_row {
	int line;
	const char *text;
	int rc, family, model;
};

static const struct text_row text_rows[] = {
	/* "model name" before "model": the key must end at the colon */
	{ __LINE__, "vendor_id : GenuineIntel\nmodel name : X 9\n"
		    "cpu family : 6\nmodel : 94\n", 0, 6, 94 },
	{ __LINE__, "vendor_id\t: GenuineIntel\ncpu family\t: 15\n", 0, 15, -1 },
	{ __LINE__, "garbage", -ENOENT, -1, -1 },
	{ __LINE__, "", -ENOENT, -1, -1 },
	{ __LINE__, NULL, -ENOENT, -1, -1 },
};

static void test_text(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(text_rows) / sizeof(text_rows[0]); i++) {
		const struct text_row *r = &text_rows[i];
		struct pmu__cpuid id;
		int rc = pmu__cpuid_parse(r->text, &id);

		if (rc != r->rc || id.family != r->family || id.model != r->model)
			fail_msg("row at line %d: rc %d family %d model %d",
				 r->line, rc, id.family, id.model);
	}
}

/* The real host: read once, and the same as reading the files now. */
static void test_host(void **state)
{
	const struct pmu__cpuid *h = pmu__cpuid_host();
	struct pmu__cpuid now;

	(void)state;
	assert_non_null(h);
	assert_ptr_equal(pmu__cpuid_host(), h);
	if (pmu__cpuid_read_at(NULL, &now) == -EACCES)
		skip();
	assert_string_equal(h->vendor, now.vendor);
	assert_int_equal(h->family, now.family);
	assert_int_equal(h->model, now.model);
	assert_int_equal(h->midr, now.midr);
	assert_int_equal(h->pvr, now.pvr);
	assert_int_equal(h->hypervisor, now.hypervisor);
}

/* The public view is the host identity, and fills only what a smaller
 * (older) struct has. */
static void test_public(void **state)
{
	const struct pmu__cpuid *id = pmu__cpuid_host();
	struct pmu_host_cpu c = { .size = sizeof(c) };
	struct { struct pmu_host_cpu v; unsigned char fence[16]; } small;
	int rc = pmu_host_cpu(&c);

	(void)state;
	assert_int_equal(rc, id->vendor[0] || id->midr || id->pvr ? 0 : -ENOENT);
	assert_string_equal(c.vendor, id->vendor);
	assert_string_equal(c.name, id->name);
	assert_int_equal(c.family, id->family);
	assert_int_equal(c.model, id->model);
	assert_int_equal(c.midr, id->midr);
	memset(&small, 0x5a, sizeof(small));
	small.v.size = offsetof(struct pmu_host_cpu, name);
	pmu_host_cpu(&small.v);
	assert_string_equal(small.v.vendor, id->vendor);
	assert_int_equal(small.v.name[0], 0x5a);
	assert_int_equal(small.fence[0], 0x5a);
	c.size = 0;
	assert_int_equal(pmu_host_cpu(&c), -EINVAL);
	assert_int_equal(pmu_host_cpu(NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_trees),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_host),
		cmocka_unit_test(test_public),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
