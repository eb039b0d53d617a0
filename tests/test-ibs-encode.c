/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <pmu/ibs.h>

/* Register values derived by hand from the IbsFetchCtl/IbsOpCtl layouts:
 * MaxCnt = maxcnt >> 4 in bits 15:0, fetch En 48 / RandEn 57, op En 17 /
 * CntCtl 19. */
struct row {
	int line;
	const char *model;
	enum pmu_ibs_kind kind;
	uint32_t maxcnt;
	unsigned options;
	int rc;
	uint64_t ctl, perf_config;
	int pmc, pmd;
	const char *token;      /* named in the error */
};

static const struct row rows[] = {
	{ __LINE__, "fam10h", PMU_IBS_FETCH, 0xFFFF0, 0, 0,
	  (1ull << 48 | 0xFFFF), 0, 4, 4, NULL },
	{ __LINE__, "fam10h", PMU_IBS_FETCH, 0x10, PMU_IBS_RANDEN, 0,
	  0x201000000000001ull, 1ull << 57, 4, 4, NULL },
	{ __LINE__, "amd64_fam10h_barcelona", PMU_IBS_OP, 0x1000, 0, 0,
	  0x20100ull, 0, 5, 7, NULL },
	{ __LINE__, "amd64_fam19h_zen4", PMU_IBS_OP, 0x186A0, PMU_IBS_UOPS, 0,
	  0xA186Aull, 1ull << 19, 5, 7, NULL },
	/* Aliases and case: the same model as the full name. */
	{ __LINE__, "zen4", PMU_IBS_OP, 0x186A0, PMU_IBS_UOPS, 0,
	  0xA186Aull, 1ull << 19, 5, 7, NULL },
	{ __LINE__, "ZEN1", PMU_IBS_FETCH, 0x20, PMU_IBS_RANDEN, 0,
	  (1ull << 57 | 1ull << 48 | 0x2), 1ull << 57, 4, 4, NULL },
	{ __LINE__, "fam10h", PMU_IBS_OP, 0x1000, PMU_IBS_UOPS, -EOPNOTSUPP,
	  0, 0, 0, 0, "amd64_fam10h_barcelona" },
	{ __LINE__, "k8", PMU_IBS_OP, 0x1000, 0, -EOPNOTSUPP, 0, 0, 0, 0,
	  "amd64_k8_revb" },
	{ __LINE__, "fam10h", PMU_IBS_FETCH, 0x12345, 0, -EINVAL, 0, 0, 0, 0,
	  "0x12345" },
	{ __LINE__, "fam10h", PMU_IBS_FETCH, 0x100000, 0, -EINVAL, 0, 0, 0, 0,
	  "0x100000" },
	{ __LINE__, "fam10h", PMU_IBS_FETCH, 0, 0, -EINVAL, 0, 0, 0, 0, "0x0" },
	{ __LINE__, "fam10h", PMU_IBS_OP, 0x1000, 2, -EINVAL, 0, 0, 0, 0,
	  "0x2" },
	{ __LINE__, "amd64_k8_revg", PMU_IBS_FETCH, 0x1000, 0, -EOPNOTSUPP,
	  0, 0, 0, 0, "amd64_k8_revg" },
	{ __LINE__, "skl", PMU_IBS_OP, 0x1000, 0, -EOPNOTSUPP, 0, 0, 0, 0,
	  "skl" },
	{ __LINE__, "fam10h", (enum pmu_ibs_kind)7, 0x1000, 0, -EINVAL, 0, 0,
	  0, 0, NULL },
};

static void test_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct pmu_ibs_opts o = { .sz = sizeof(o), .model = r->model,
					  .sysfs_root = "/nonexistent" };
		struct pmu_ibs_config c = { .size = sizeof(c) };
		struct pmu_error err = { .size = sizeof(err) };
		int rc = pmu_ibs_setup(r->kind, r->maxcnt, r->options, &o, &c,
				       &err);
		if (rc != r->rc)
			fail_msg("line %d: rc %d, want %d", r->line, rc, r->rc);
		if (rc == 0 && (c.ctl != r->ctl || c.pmc != r->pmc ||
				c.pmd != r->pmd ||
				c.perf_config != r->perf_config ||
				c.sample_period != r->maxcnt ||
				c.perf_type_known))
			fail_msg("line %d: ctl 0x%llx pmc %d pmd %d", r->line,
				 (unsigned long long)c.ctl, c.pmc, c.pmd);
		if (rc && r->token && strcmp(err.token, r->token))
			fail_msg("line %d: token '%s', want '%s'", r->line,
				 err.token, r->token);
	}
}

/* The period the message suggests must itself be accepted. */
static void test_maxcnt_hint(void **state)
{
	static const struct { int line; uint32_t maxcnt; } t[] = {
		{ __LINE__, 0x8 }, { __LINE__, 0x1 }, { __LINE__, 0xF },
		{ __LINE__, 0x12345 }, { __LINE__, 0xFFFFF },
	};
	struct pmu_ibs_opts o = { .sz = sizeof(o), .model = "zen4",
				  .sysfs_root = "/nonexistent" };

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct pmu_ibs_config c = { .size = sizeof(c) };
		struct pmu_error err = { .size = sizeof(err) };
		const char *eg = NULL;
		unsigned long hint;
		if (pmu_ibs_setup(PMU_IBS_FETCH, t[i].maxcnt, 0, &o, &c,
				  &err) != -EINVAL ||
		    !(eg = strstr(err.message, "e.g. ")))
			fail_msg("line %d: no hint in '%s'", t[i].line,
				 err.message);
		hint = strtoul(eg + 5, NULL, 0);
		if (pmu_ibs_setup(PMU_IBS_FETCH, (uint32_t)hint, 0, &o, &c,
				  NULL))
			fail_msg("line %d: hint 0x%lx is rejected",
				 t[i].line, hint);
	}
}

/* The perf PMU type comes from sysfs when the dynamic PMU exists. */
static void test_sysfs_type(void **state)
{
	char dir[] = "/tmp/pmu-ibs-XXXXXX", path[256];
	struct pmu_ibs_opts o = { .sz = sizeof(o), .model = "zen4" };
	struct pmu_ibs_config c = { .size = sizeof(c) };
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/ibs_op", dir);
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "mkdir -p %s", path);
	assert_int_equal(system(cmd), 0);
	strcat(path, "/type");
	assert_non_null(f = fopen(path, "w"));
	fputs("11\n", f);
	fclose(f);
	o.sysfs_root = dir;
	o.model = "amd64_fam17h_zen2";
	assert_int_equal(pmu_ibs_setup(PMU_IBS_OP, 0x10000, 0, &o, &c, NULL), 0);
	assert_true(c.perf_type_known);
	assert_int_equal(c.perf_type, 11);
	assert_string_equal(c.perf_pmu, "ibs_op");
	assert_int_equal(c.npmds, 7);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_sysfs_type),
		cmocka_unit_test(test_maxcnt_hint),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
