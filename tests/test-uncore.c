/* SPDX-License-Identifier: MIT */
/*
 * Uncore events of the kernel models: perf's rules for naming a unit's
 * PMU and matching its instances, the loader's records (the tinyzen
 * fixture), and the parser over a sysfs tree written here with PMU
 * instances.  Expected codes are the vendor records' own fields
 * (sapphirerapids UNC_CHA_CLOCKTICKS: EventCode 0x01;
 * UNC_CHA_TOR_INSERTS.IA_MISS: 0x35, UMask 0xc001fe01; skylakex
 * LLC_MISSES.MEM_READ: 0x4, UMask 0x3, ScaleUnit 64Bytes; amdzen4
 * l3_lookup_state.l3_miss: 0x04, UMask 0x01) put through the formats
 * this test declares.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <pmu/event.h>

#include "events/catalog.h"
#include "events/evlist.h"
#include "events/evparse.h"
#include "events/jsondir.h"

static char root[256];

static void put(const char *pmu, const char *rel, const char *text)
{
	char path[1024], dir[512];

	snprintf(dir, sizeof(dir), "%s/bus/event_source/devices/%s/format",
		 root, pmu);
	snprintf(path, sizeof(path), "mkdir -p '%s'", dir);
	assert_int_equal(system(path), 0);
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/%s", root,
		 pmu, rel);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

static void add_pmu(const char *pmu, int type, const char *umask_fmt)
{
	char t[16];

	snprintf(t, sizeof(t), "%d", type);
	put(pmu, "type", t);
	put(pmu, "format/event", "config:0-7");
	put(pmu, "format/umask", umask_fmt);
	put(pmu, "format/edge", "config:18");
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/pmu-uncore-XXXXXX");
	assert_non_null(mkdtemp(root));
	add_pmu("uncore_cha_10", 52, "config:8-15,32-63");
	add_pmu("uncore_cha_0", 50, "config:8-15,32-63");
	add_pmu("uncore_cha_2", 51, "config:8-15,32-63");
	add_pmu("uncore_chabox_0", 60, "config:8-15");
	add_pmu("uncore_imc_0", 70, "config:8-15");
	add_pmu("amd_l3", 30, "config:8-15");
	return 0;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static void test_pmu_match(void **state)
{
	static const struct {
		const char *pmu, *inst;
		bool match;
	} rows[] = {
		{ "uncore_cha", "uncore_cha", true },
		{ "uncore_cha", "uncore_cha_0", true },
		{ "uncore_cha", "uncore_cha_12", true },
		{ "uncore_cha", "uncore_cha_1f", false },  /* hex: > 2 digits */
		{ "uncore_cha", "uncore_cha_1f0", true },
		{ "cpum", "cpum_cf", false },
		{ "uncore_cha", "uncore_chabox_0", false },
		{ "uncore_cha", "uncore_cha_", false },
		{ "uncore_cha", "uncore_cha_x1", false },
		{ "uncore_imc", "uncore_imc_free_running_0", false },
		{ "uncore_imc_free_running", "uncore_imc_free_running_0", true },
		{ "amd_l3", "amd_l3", true },
		{ "amd_df", "amd_l3", false },
		{ "hisi_sccl,ddrc", "hisi_sccl1_ddrc0", true },
		{ "hisi_sccl,ddrc", "hisi_sccl3_ddrc12", true },
		{ "hisi_sccl,ddrc", "hisi_sccl1_hha0", false },
		{ "hisi_sccl,ddrc", "xhisi_sccl1_ddrc0", false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (pmu__uncore_pmu_match(rows[i].pmu, rows[i].inst) !=
		    rows[i].match)
			fail_msg("%s vs %s: expected %s", rows[i].pmu,
				 rows[i].inst, rows[i].match ? "match" : "none");
}

static void test_unit_pmu(void **state)
{
	static const struct {
		const char *unit, *pmu;
	} rows[] = {
		{ "CHA", "uncore_cha" },   { "iMC", "uncore_imc" },
		{ "CBOX", "uncore_cbox" }, { "QPI LL", "uncore_qpi" },
		{ "UPI LL", "uncore_upi" }, { "iMPH-U", "uncore_arb" },
		{ "L3PMC", "amd_l3" },     { "DFPMC", "amd_df" },
		{ "UMCPMC", "amd_umc" },   { "PAI-CRYPTO", "pai_crypto" },
		{ "hisi_sccl,ddrc", "hisi_sccl,ddrc" },
		{ "imc_free_running_0", "uncore_imc_free_running_0" },
		{ "cpu_core", NULL },      { "CPU-M-CF", NULL }, { NULL, NULL },
	};
	char buf[64];

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *got = pmu__uncore_unit_pmu(rows[i].unit, buf,
						       sizeof(buf));
		if (!rows[i].pmu)
			assert_null(got);
		else if (!got || strcmp(got, rows[i].pmu))
			fail_msg("unit %s: '%s', expected '%s'", rows[i].unit,
				 got ? got : "(null)", rows[i].pmu);
	}
}

/* The fixture's tinyzen model: its one L3PMC record, a dropped core
 * name, and what the loader made of the record. */
static void test_loader(void **state)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu__jsondir *jd = pmu__jsondir_load("tests/fixtures/events",
						     &err);
	const struct pmu__catmodel *m;
	const struct pmu__uevent *u;

	(void)state;
	assert_non_null(jd);
	m = pmu__jsondir_model(jd, "tinyzen");
	assert_non_null(m);
	assert_int_equal(m->nuncore, 1);
	u = pmu__uncore_find(m, "L3_LOOKUP_STATE.ALL_COHERENT_ACCESSES_TO_L3",
			     strlen("L3_LOOKUP_STATE.ALL_COHERENT_ACCESSES_TO_L3"));
	assert_non_null(u);
	assert_string_equal(pmu__ustr(m, u->name),
			    "l3_lookup_state.all_coherent_accesses_to_l3");
	assert_string_equal(pmu__ustr(m, u->pmu), "amd_l3");
	assert_string_equal(pmu__ustr(m, u->terms), "event=0x4,umask=0xff");
	assert_null(pmu__uncore_find(m, "ls_not_halted_cyc", 17));
	pmu__jsondir_free(jd);
}

static int parse(struct pmu__evlist *l, const char *model, const char *s,
		 struct pmu_error *err)
{
	struct pmu__parse_ctx ctx = { .sysfs_root = root, .core_model = model,
				      .host_names = true };

	memset(l, 0, sizeof(*l));
	return pmu__evlist_parse(l, s, &ctx, err);
}

static void test_expand(void **state)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu__evlist l;
	const uint32_t types[] = { 50, 51, 52 }; /* _0, _2, _10 */

	(void)state;
	assert_int_equal(parse(&l, "sapphirerapids", "UNC_CHA_CLOCKTICKS",
			       &err), 0);
	assert_int_equal(l.n, 3);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(l.ev[i].attr.type, types[i]);
		assert_int_equal(l.ev[i].attr.config, 0x01);
		assert_string_equal(l.ev[i].name, "UNC_CHA_CLOCKTICKS");
	}
	pmu__evlist_clear(&l);
	/* umask 0xc001fe01: low byte at 8-15, the rest from bit 32 */
	assert_int_equal(parse(&l, "sapphirerapids",
			       "unc_cha_tor_inserts.ia_miss", &err), 0);
	assert_int_equal(l.n, 3);
	assert_int_equal(l.ev[1].attr.config,
			 0x35 | 0x01ull << 8 | 0xc001feull << 32);
	pmu__evlist_clear(&l);
	/* an instance-less PMU name stands for every instance */
	assert_int_equal(parse(&l, "sapphirerapids", "uncore_cha/event=0x7/",
			       &err), 0);
	assert_int_equal(l.n, 3);
	assert_int_equal(l.ev[2].attr.type, 52);
	assert_int_equal(l.ev[2].attr.config, 0x7);
	pmu__evlist_clear(&l);
	/* the model's event as one instance's alias, with more terms */
	assert_int_equal(parse(&l, "sapphirerapids",
			       "uncore_cha_2/unc_cha_clockticks,edge/", &err), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.ev[0].attr.type, 51);
	assert_int_equal(l.ev[0].attr.config, 0x01 | 1u << 18);
	pmu__evlist_clear(&l);
	/* ScaleUnit 64Bytes */
	assert_int_equal(parse(&l, "skylakex", "llc_misses.mem_read", &err), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.ev[0].attr.type, 70);
	assert_int_equal(l.ev[0].attr.config, 0x4 | 0x3 << 8);
	assert_string_equal(l.ev[0].unit, "Bytes");
	assert_true(l.ev[0].scale == 64.0);
	pmu__evlist_clear(&l);
	/* a PMU without instances (AMD's L3) */
	assert_int_equal(parse(&l, "amdzen4", "l3_lookup_state.l3_miss", &err),
			 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.ev[0].attr.type, 30);
	assert_int_equal(l.ev[0].attr.config, 0x04 | 0x01 << 8);
	pmu__evlist_clear(&l);
}

/* A group of events on several instances: one group per instance, as
 * perf regroups it (the kernel schedules a group on one PMU). */
static void test_group(void **state)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu__evlist l;
	const uint32_t types[] = { 50, 51, 52 };

	(void)state;
	assert_int_equal(parse(&l, "sapphirerapids",
			       "{unc_cha_clockticks,unc_cha_tor_inserts.ia_miss}"
			       ",task-clock", &err), 0);
	assert_int_equal(l.n, 7);
	for (size_t g = 0; g < 3; g++) {
		const struct pmu__ev *a = &l.ev[2 * g], *b = &l.ev[2 * g + 1];

		assert_int_equal(a->attr.type, types[g]);
		assert_int_equal(b->attr.type, types[g]);
		assert_int_equal(a->group, (int)g);
		assert_int_equal(b->group, (int)g);
		assert_true(a->leader && !b->leader);
		assert_int_equal(a->attr.config, 0x01);
		assert_string_equal(b->name, "unc_cha_tor_inserts.ia_miss");
		/* each name's instances share one merge id */
		assert_int_equal(a->merge, l.ev[0].merge);
		assert_int_equal(b->merge, l.ev[1].merge);
	}
	assert_int_not_equal(l.ev[0].merge, l.ev[1].merge);
	assert_int_equal(l.ev[6].group, 3);
	assert_int_equal(l.ngroups, 4);
	pmu__evlist_clear(&l);
}

static void test_errors(void **state)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu__evlist l;

	(void)state;
	/* the model knows it, this "machine" has no uncore_iio */
	assert_int_not_equal(parse(&l, "sapphirerapids",
				   "unc_iio_clockticks", &err), 0);
	assert_int_equal(err.kind, PMU_ERR_NOT_SUPPORTED);
	assert_string_equal(err.token, "unc_iio_clockticks");
	assert_non_null(strstr(err.message, "uncore_iio"));
	assert_non_null(strstr(err.message, "sapphirerapids"));
	assert_int_equal(l.n, 0);
	/* an event of another unit given as this PMU's alias */
	assert_int_not_equal(parse(&l, "sapphirerapids",
				   "uncore_imc_0/unc_cha_clockticks/", &err), 0);
	assert_non_null(strstr(err.message, "uncore_cha"));
	assert_string_equal(err.token, "unc_cha_clockticks");
	/* a model without the event: unknown, as before */
	assert_int_not_equal(parse(&l, "amdzen4", "unc_cha_clockticks", &err),
			     0);
	assert_int_equal(err.kind, PMU_ERR_UNKNOWN_EVENT);
	/* a modifier error names the token typed, not an instance */
	assert_int_not_equal(parse(&l, "sapphirerapids", "unc_cha_clockticks:",
				   &err), 0);
	assert_string_equal(err.token, "unc_cha_clockticks:");
	assert_int_not_equal(parse(&l, "sapphirerapids",
				   "unc_cha_clockticks:x", &err), 0);
	assert_int_equal(err.kind, PMU_ERR_BAD_MODIFIER);
	assert_string_equal(err.token, "unc_cha_clockticks:x");
	/* no instance at all */
	assert_int_not_equal(parse(&l, "sapphirerapids", "uncore_m2m/event=1/",
				   &err), 0);
	assert_int_equal(err.kind, PMU_ERR_UNKNOWN_PMU);
}

/* A misspelt perf name of the model gets the model's nearest names, core
 * (as perf lists them) and uncore alike. */
static void test_suggest(void **state)
{
	static const struct {
		const char *model, *typed, *want;
	} rows[] = {
		{ "amdzen5", "ls_dispach.ld_st_dispatch",
		  "'ls_dispatch.ld_st_dispatch'" },
		{ "amdzen4", "l3_lookup_state.l3_mis",
		  "'l3_lookup_state.l3_miss'" },
		{ "sapphirerapids", "unc_cha_clocktick", "'unc_cha_clockticks'" },
		{ "sapphirerapids", "inst_retird.any", "'inst_retired.any'" },
	};
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu__evlist l;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_int_not_equal(parse(&l, rows[i].model, rows[i].typed,
					   &err), 0);
		assert_int_equal(err.kind, PMU_ERR_UNKNOWN_EVENT);
		if (!strstr(err.message, "did you mean") ||
		    !strstr(err.message, rows[i].want))
			fail_msg("%s on %s: '%s' lacks %s", rows[i].typed,
				 rows[i].model, err.message, rows[i].want);
	}
}

/* pmu_event_list_parse (pmu encode) with a kernel model: its uncore
 * names are known as such, even where this machine lacks the PMU. */
static void test_list_parse(void **state)
{
	struct pmu_encode_opts o = { .sz = sizeof(o), .model = "sapphirerapids" };
	struct pmu_error err = { .size = sizeof(err) };

	(void)state;
	if (access("/sys/bus/event_source/devices/uncore_cha_0", F_OK) == 0 ||
	    access("/sys/bus/event_source/devices/uncore_cha", F_OK) == 0)
		skip();
	assert_true(pmu_event_list_parse("unc_cha_clockticks", &o, NULL, 0,
					 &err) < 0);
	assert_int_equal(err.kind, PMU_ERR_NOT_SUPPORTED);
	assert_non_null(strstr(err.message, "uncore event of sapphirerapids"));
	assert_non_null(strstr(err.message, "uncore_cha"));
}

/* The public listing: name order, lookups, a record's fields. */
static void test_api(void **state)
{
	ssize_t m = pmu_catalog_find("sapphirerapids");
	struct pmu_uncore_info u = { .size = sizeof(u) };
	char prev[128] = "";
	size_t n;
	ssize_t i;

	(void)state;
	assert_true(m >= 0);
	n = pmu_catalog_uncore_count((size_t)m);
	assert_true(n > 1000);
	for (size_t k = 0; k < n; k++) {
		assert_int_equal(pmu_catalog_uncore_info((size_t)m, k, &u), 0);
		assert_true(strcmp(prev, u.name) < 0);
		snprintf(prev, sizeof(prev), "%s", u.name);
	}
	assert_int_equal(pmu_catalog_uncore_info((size_t)m, n, &u), -ENOENT);
	i = pmu_catalog_uncore_find((size_t)m, "UNC_CHA_CLOCKTICKS");
	assert_true(i >= 0);
	assert_int_equal(pmu_catalog_uncore_info((size_t)m, (size_t)i, &u), 0);
	assert_string_equal(u.name, "unc_cha_clockticks");
	assert_string_equal(u.pmu, "uncore_cha");
	assert_string_equal(u.terms, "event=0x1");
	assert_true(u.per_pkg);
	assert_int_equal(pmu_catalog_uncore_find((size_t)m, "no_such_event"),
			 -ENOENT);
	/* a libpfm4 model has none */
	m = pmu_catalog_find("amd64_fam19h_zen3");
	assert_true(m >= 0);
	assert_int_equal(pmu_catalog_uncore_count((size_t)m), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pmu_match),
		cmocka_unit_test(test_unit_pmu),
		cmocka_unit_test(test_loader),
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_list_parse),
		cmocka_unit_test(test_api),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
