/* SPDX-License-Identifier: MIT */
/*
 * The vendor event-directory loader: the hand-written fixture under
 * tests/fixtures/events (both mapfile layouts), error reporting on broken
 * directories written at run time, and every core event of the vendor
 * files in $PMU_SHARED/events, whose register value is computed here from
 * the record's own fields (EventCode, UMask, CounterMask, Invert,
 * EdgeDetect, AnyThread) and the PERF_CTL/PERFEVTSEL layout.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "events/encode.h"
#include "events/jsondir.h"
#include "util/json.h"

#define FIXTURE "tests/fixtures/events"

/* PERFEVTSEL / PERF_CTL bits. */
#define USR (1ull << 16)
#define OS (1ull << 17)
#define EDGE (1ull << 18)
#define INT (1ull << 20)
#define ANYT (1ull << 21)
#define EN (1ull << 22)
#define INV (1ull << 23)
#define BASE (USR | OS | INT | EN)

static struct pmu__jsondir *load_fixture(void)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu__jsondir *jd = pmu__jsondir_load(FIXTURE, &err);

	if (!jd)
		print_error("fixture: %s\n", err.message);
	assert_non_null(jd);
	return jd;
}

static int encode(const struct pmu__catmodel *m, const char *s, uint64_t *code)
{
	struct pmu_encode_opts o = { .sz = sizeof(o) };
	struct pmu_encoding enc = { .size = sizeof(enc) };
	struct pmu_error err = { .size = sizeof(err) };
	int rc = pmu__encode(m, s, &o, &enc, &err);

	*code = rc ? 0 : enc.codes[0];
	return rc;
}

static void test_fixture_models(void **state)
{
	struct pmu__jsondir *jd = load_fixture();

	(void)state;
	/* notthere/ and GONE/ are absent, the uncore row is not core. */
	assert_int_equal(pmu__jsondir_count(jd), 2);
	assert_string_equal(pmu__jsondir_model_at(jd, 0)->name, "tinyzen");
	assert_string_equal(pmu__jsondir_model_at(jd, 1)->name, "tiny");
	assert_int_equal(pmu__jsondir_model_at(jd, 0)->kind, PMU__ENC_AMD64);
	assert_int_equal(pmu__jsondir_model_at(jd, 1)->kind, PMU__ENC_INTEL);
	assert_null(pmu__jsondir_model_at(jd, 2));
	pmu__jsondir_free(jd);
}

static const struct {
	int line;
	const char *key, *model;
} lookups[] = {
	{ __LINE__, "AuthenticAMD-25-11", "tinyzen" },
	{ __LINE__, "AuthenticAMD-25-61-2", "tinyzen" },
	{ __LINE__, "AuthenticAMD-25-1", "tinyzen" },
	{ __LINE__, "AuthenticAMD-23-1", NULL },
	{ __LINE__, "AuthenticAMD-2", NULL },
	{ __LINE__, "GenuineIntel-6-5E", "tiny" },
	{ __LINE__, "GenuineIntel-6-4E-3", "tiny" },
	{ __LINE__, "GenuineIntel-6-55-3", "tiny" },
	{ __LINE__, "GenuineIntel-6-55-7", NULL },
	{ __LINE__, "GenuineIntel-6-5", NULL },
	{ __LINE__, "GenuineIntel-6-5EE", NULL },
	{ __LINE__, "GenuineIntel-6-8F", NULL },
	{ __LINE__, "xGenuineIntel-6-5E", NULL },
	{ __LINE__, "TINY", "tiny" },
	{ __LINE__, "tinyZen", "tinyzen" },
	{ __LINE__, "", NULL },
};

static void test_lookup(void **state)
{
	struct pmu__jsondir *jd = load_fixture();

	(void)state;
	for (size_t i = 0; i < sizeof(lookups) / sizeof(lookups[0]); i++) {
		const struct pmu__catmodel *m = pmu__jsondir_model(jd,
								lookups[i].key);
		const char *got = m ? m->name : "(none)";
		const char *want = lookups[i].model ? lookups[i].model
						    : "(none)";
		if (strcmp(got, want))
			fail_msg("line %d: %s -> %s, want %s", lookups[i].line,
				 lookups[i].key, got, want);
	}
	pmu__jsondir_free(jd);
}

static const struct {
	int line;
	const char *model, *event;
	int rc;
	uint64_t code;
} encodings[] = {
	{ __LINE__, "tinyzen", "ex_ret_instr", 0, 0xc0 | BASE },
	{ __LINE__, "tinyzen", "EX_RET_INSTR:u", 0, 0xc0 | USR | INT | EN },
	{ __LINE__, "tinyzen", "ls_dispatch.store_dispatch", 0,
	  0x29 | 0x02 << 8 | BASE },
	{ __LINE__, "tinyzen", "ls_dispatch:ld_dispatch", 0,
	  0x29 | 0x01 << 8 | BASE },
	{ __LINE__, "tinyzen", "ls_dispatch", -EINVAL, 0 },
	{ __LINE__, "tinyzen", "all_dispatches", 0, 0x29 | 0x07 << 8 | BASE },
	{ __LINE__, "tinyzen", "de_src_op_disp.all", 0,
	  0xaa | 1ull << 32 | 0x07 << 8 | BASE },
	{ __LINE__, "tinyzen", "l3_lookup_state", -ENOENT, 0 },
	{ __LINE__, "tinyzen", "ipc", -ENOENT, 0 },
	{ __LINE__, "tinyzen", "ls_not_halted_cyc", 0, 0x76 | BASE },
	{ __LINE__, "tiny", "INST_RETIRED.ANY_P", 0, 0xc0 | BASE },
	{ __LINE__, "tiny", "INST_RETIRED.PREC_DIST", 0,
	  0xc0 | 0x01 << 8 | BASE },
	{ __LINE__, "tiny", "INST_RETIRED_ANY", 0, 0x01 << 8 | BASE },
	/* The vendor's spellings of the split-off fixed-counter event and
	 * of a name with two dots; a later '.' may still separate a
	 * modifier. */
	{ __LINE__, "tiny", "INST_RETIRED.ANY", 0, 0x01 << 8 | BASE },
	{ __LINE__, "tiny", "inst_retired.any:u", 0,
	  0x01 << 8 | USR | INT | EN },
	{ __LINE__, "tiny", "INST_RETIRED.ANY.k", 0,
	  0x01 << 8 | OS | INT | EN },
	{ __LINE__, "tiny", "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE",
	  0, 0x9c | 0x01 << 8 | 4ull << 24 | BASE },
	{ __LINE__, "tiny", "INST_RETIRED.ANY_P.u", 0, 0xc0 | USR | INT | EN },
	{ __LINE__, "tiny", "CYCLE_ACTIVITY.STALLS_TOTAL", 0,
	  0xa3 | 0x04 << 8 | 4ull << 24 | BASE },
	{ __LINE__, "tiny", "UOPS_ISSUED.STALL_CYCLES", 0,
	  0x0e | 0x01 << 8 | 1ull << 24 | INV | BASE },
	{ __LINE__, "tiny", "CPU_CLK_UNHALTED.RING0_TRANS", 0,
	  0x3c | 1ull << 24 | EDGE | BASE },
	{ __LINE__, "tiny", "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV_CORE",
	  0, 0x9c | 0x01 << 8 | 4ull << 24 | BASE },
	{ __LINE__, "tiny", "OFFCORE_RESPONSE", -ENOENT, 0 },
	{ __LINE__, "tiny", "INST_RETIRED.NOPE", -EINVAL, 0 },
};

static void test_encode(void **state)
{
	struct pmu__jsondir *jd = load_fixture();

	(void)state;
	for (size_t i = 0; i < sizeof(encodings) / sizeof(encodings[0]); i++) {
		const struct pmu__catmodel *m = pmu__jsondir_model(
			jd, encodings[i].model);
		uint64_t code;
		int rc;

		assert_non_null(m);
		rc = encode(m, encodings[i].event, &code);
		if (rc != encodings[i].rc || code != encodings[i].code)
			fail_msg("line %d: %s: rc %d code 0x%llx, want rc %d "
				 "code 0x%llx", encodings[i].line,
				 encodings[i].event, rc,
				 (unsigned long long)code, encodings[i].rc,
				 (unsigned long long)encodings[i].code);
	}
	pmu__jsondir_free(jd);
}

static const struct pmu__umask *umask_of(const struct pmu__catmodel *m,
					 const struct pmu__event *ev,
					 const char *name, int *idx)
{
	for (int i = 0; i < ev->numasks; i++)
		if (!strcmp(pmu__um_name(m, &pmu__event_umasks(m, ev)[i]),
			    name)) {
			*idx = i;
			return &pmu__event_umasks(m, ev)[i];
		}
	return NULL;
}

static void test_counters_and_descs(void **state)
{
	struct pmu__jsondir *jd = load_fixture();
	const struct pmu__catmodel *zen = pmu__jsondir_model(jd, "tinyzen");
	const struct pmu__catmodel *tiny = pmu__jsondir_model(jd, "tiny");
	const struct pmu__event *ev;
	const struct pmu__umask *u;
	int ui = -1;

	(void)state;
	assert_int_equal(zen->ncounters, 6);
	assert_int_equal(tiny->ncounters, 4);
	assert_int_equal(tiny->nfixed, 1);
	ev = pmu__catmodel_event(tiny, "INST_RETIRED_ANY", 16);
	assert_non_null(ev);
	assert_int_equal(ev->cntmsk, 1ull << 32);
	ev = pmu__catmodel_event(tiny, "inst_retired", 12);
	assert_non_null(ev);
	assert_int_equal(ev->cntmsk, 0xf);
	assert_true(ev->flags & PMU__EV_PREC);
	u = umask_of(tiny, ev, "PREC_DIST", &ui);
	assert_non_null(u);
	assert_int_equal(u->cntmsk, 0x2);
	assert_true(u->flags & PMU__UM_PREC);
	assert_string_equal(pmu__jsondir_long_desc(jd, tiny, ev, ui),
			    "Instructions retired, sampled with a precise "
			    "distribution.");
	assert_null(pmu__jsondir_long_desc(jd, tiny, ev, -1));
	assert_null(pmu__jsondir_long_desc(jd, tiny, ev, ev->numasks));
	ev = pmu__catmodel_event(zen, "ex_ret_instr", 12);
	assert_non_null(ev);
	assert_string_equal(pmu__str(zen, ev->desc), "Instructions the core retired.");
	assert_string_equal(pmu__jsondir_long_desc(jd, zen, ev, -1),
			    "Instructions retired, counted once each when "
			    "they leave the machine.");
	/* Without a long text the short one stands in. */
	ev = pmu__catmodel_event(zen, "ls_dispatch", 11);
	assert_non_null(umask_of(zen, ev, "store_dispatch", &ui));
	assert_string_equal(pmu__jsondir_long_desc(jd, zen, ev, ui),
			    "Store operations dispatched.");
	/* An event of another model is not looked up. */
	assert_null(pmu__jsondir_long_desc(jd, tiny, ev, -1));
	pmu__jsondir_free(jd);
}

/* pmu_encode_opts.events_dir: the directory's models first, then the
 * built-in catalog. */
static const struct {
	int line;
	const char *dir, *model, *event;
	int rc;
	uint64_t code;
} per_call[] = {
	{ __LINE__, FIXTURE, NULL, "tiny::CYCLE_ACTIVITY.STALLS_TOTAL", 0,
	  0xa3 | 0x04 << 8 | 4ull << 24 | BASE },
	{ __LINE__, FIXTURE, "tinyzen", "ls_dispatch.ld_dispatch", 0,
	  0x29 | 0x01 << 8 | BASE },
	{ __LINE__, FIXTURE, NULL, "amd64_k7::RETIRED_INSTRUCTIONS:u", 0,
	  0xc0 | USR | INT | EN },
	{ __LINE__, FIXTURE, NULL, "tiny::NOPE", -ENOENT, 0 },
	{ __LINE__, FIXTURE "/nowhere", NULL, "tiny::INST_RETIRED_ANY",
	  -ENOENT, 0 },
};

static void test_opts_events_dir(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(per_call) / sizeof(per_call[0]); i++) {
		struct pmu_encode_opts o = { .sz = sizeof(o),
					     .events_dir = per_call[i].dir,
					     .model = per_call[i].model };
		struct pmu_encoding enc = { .size = sizeof(enc) };
		struct pmu_error err = { .size = sizeof(err) };
		int rc = pmu_event_encode(per_call[i].event, &o, &enc, &err);
		uint64_t code = rc ? 0 : enc.codes[0];

		if (rc != per_call[i].rc || code != per_call[i].code)
			fail_msg("line %d: %s: rc %d (%s) code 0x%llx",
				 per_call[i].line, per_call[i].event, rc,
				 err.message, (unsigned long long)code);
	}
}

/* ---- broken directories ---- */

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (strchr(name, '/')) {
		char sub[512];
		snprintf(sub, sizeof(sub), "%s/%.*s", dir,
			 (int)(strrchr(name, '/') - name), name);
		mkdir(sub, 0755);
	}
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
}

static const char *const map1 =
	"Family-model,Version,Filename,EventType\n"
	"AuthenticAMD-25-[[:xdigit:]]+,v1,m,core\n";

static const struct {
	int line;
	const char *map, *file, *text;
	int rc;
	const char *msg;    /* substring of the message; NULL = success */
} broken[] = {
	{ __LINE__, NULL, NULL, NULL, -ENOENT, "mapfile.csv" },
	{ __LINE__, "Family-model,Version\nAuthenticAMD-25,v1\n", NULL, NULL,
	  -EINVAL, "line 2" },
	{ __LINE__, "Family-model\nAuthenticAMD-(1+)+,v1,m,core\n", NULL, NULL,
	  -EINVAL, "line 2: CPUID pattern" },
	{ __LINE__, "Family-model\nAuthenticAMD-1{2000},v1,m,core\n", NULL,
	  NULL, -EINVAL, "pattern too complex" },
	{ __LINE__, NULL, "m/a.json", "[{\"EventName\": \"x\",\n \"EventCode\": }]",
	  -EINVAL, "m/a.json: line 2" },
	{ __LINE__, NULL, "m/a.json", "\"text\"", -EINVAL, "neither" },
	{ __LINE__, NULL, "m/a.json", "[{\"EventName\": \"x\", \"EventCode\": "
	  "\"zz\"}]", -EINVAL, "EventCode" },
	{ __LINE__, NULL, "m/a.json", "[{\"EventName\": \"x\", \"EventCode\": "
	  "\"0x1000\"}]", -EINVAL, "EventCode" },
	{ __LINE__, NULL, "m/a.json", "[{\"EventName\": \"x\", \"EventCode\": "
	  "\"0x10\", \"UMask\": \"1z\"}]", -EINVAL, "UMask" },
	{ __LINE__, NULL, "m/a.json", "[{\"EventName\": \"a b\", "
	  "\"EventCode\": \"0x10\"}]", -EINVAL, "identifier" },
	{ __LINE__, NULL, "m/a.json", "[{\"EventName\": \"x.\", "
	  "\"EventCode\": \"0x10\"}]", -EINVAL, "identifier" },
	{ __LINE__, NULL, "m/a.json", "[1, {\"EventName\": \"x\", "
	  "\"EventCode\": 16}]", 0, NULL },
	{ __LINE__, NULL, "m/notes.txt", "not json", 0, NULL },
};

static void rm_tree(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		print_error("cannot remove %s\n", dir);
}

static void test_broken(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
		char dir[] = "/tmp/pmu-jsondir-XXXXXX";
		struct pmu_error err = { .size = sizeof(err) };
		struct pmu__jsondir *jd;
		int rc = 0;

		assert_non_null(mkdtemp(dir));
		if (broken[i].map || broken[i].file)
			put(dir, "mapfile.csv", broken[i].map ? broken[i].map
							      : map1);
		if (broken[i].file)
			put(dir, broken[i].file, broken[i].text);
		jd = pmu__jsondir_load(dir, &err);
		if (!jd)
			rc = -errno;
		rm_tree(dir);
		if (rc != broken[i].rc || (broken[i].msg &&
		    !strstr(err.message, broken[i].msg)))
			fail_msg("line %d: rc %d (%s), want %d (%s)",
				 broken[i].line, rc, err.message, broken[i].rc,
				 broken[i].msg ? broken[i].msg : "");
		pmu__jsondir_free(jd);
	}
}

/* A model with more records than any vendor core file is refused: its
 * build would be quadratic (and umask counts are 16 bits). */
static void test_too_many_records(void **state)
{
	char dir[] = "/tmp/pmu-jsondir-XXXXXX";
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu__jsondir *jd;
	size_t cap = 1u << 20, len = 0;
	char *text = malloc(cap);
	int rc = 0;

	(void)state;
	assert_non_null(text);
	len += (size_t)snprintf(text, cap, "[");
	for (int k = 0; k <= 8192; k++)
		len += (size_t)snprintf(text + len, cap - len, "%s{\"EventName\":"
					" \"E%d\", \"EventCode\": \"0x%x\"}",
					k ? "," : "", k, k & 0xff);
	snprintf(text + len, cap - len, "]");
	assert_non_null(mkdtemp(dir));
	put(dir, "mapfile.csv", map1);
	put(dir, "m/a.json", text);
	free(text);
	jd = pmu__jsondir_load(dir, &err);
	if (!jd)
		rc = -errno;
	rm_tree(dir);
	pmu__jsondir_free(jd);
	assert_int_equal(rc, -E2BIG);
	assert_non_null(strstr(err.message, "more than 8192"));
}

/* ---- the vendor files ---- */

static uint64_t num(const struct pmu_json *o, const char *key)
{
	const struct pmu_json *v = pmu__json_get(o, key);

	if (!v)
		return 0;
	if (v->type == PMU_JSON_STRING)
		return strtoull(v->str, NULL, 0);
	return v->mag;
}

static uint64_t expected(const struct pmu_json *o, bool intel)
{
	uint64_t code = num(o, "EventCode"), um = num(o, "UMask");

	if (!intel)
		return (code & 0xff) | (code >> 8 & 0xf) << 32 |
		       (um & 0xff) << 8 | BASE;
	return (code & 0xff) | (um & 0xff) << 8 | BASE |
	       (num(o, "EdgeDetect") ? EDGE : 0) |
	       (num(o, "AnyThread") ? ANYT : 0) |
	       (num(o, "Invert") ? INV : 0) | (num(o, "CounterMask") & 0xff) << 24;
}

static bool countable(const struct pmu_json *o)
{
	return pmu__json_get(o, "EventName") && pmu__json_get(o, "EventCode") &&
	       !pmu__json_get(o, "Unit") && !num(o, "MSRIndex") &&
	       !num(o, "MSRValue");
}

/* The vendor name exactly as the vendor spells it: dots within the name
 * ("A.B.C") and names the loader split off into an event of their own
 * (INST_RETIRED.ANY) must both resolve. */
static int encode_vendor(const struct pmu__catmodel *m, const char *name,
			 uint64_t *code)
{
	return encode(m, name, code);
}

static bool seen_before(const struct pmu_json *recs, size_t k)
{
	const char *n = pmu__json_get(recs->items[k], "EventName")->str;

	for (size_t j = 0; j < k; j++) {
		const struct pmu_json *e = pmu__json_get(recs->items[j],
							 "EventName");
		if (e && e->type == PMU_JSON_STRING && !strcmp(e->str, n))
			return true;
	}
	return false;
}

static int check_file(const struct pmu__catmodel *m, const char *path,
		      bool intel, int *checked)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_json *root;
	const struct pmu_json *recs;
	char *text = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "r");
	int bad = 0;

	assert_non_null(f);
	assert_int_equal(getdelim(&text, &len, '\0', f) > 0, 1);
	fclose(f);
	root = pmu__json_parse(text, strlen(text), &err);
	free(text);
	assert_non_null(root);
	recs = intel ? pmu__json_get(root, "Events") : root;
	for (size_t k = 0; k < recs->n; k++) {
		const struct pmu_json *o = recs->items[k];
		uint64_t code;
		if (!countable(o) || seen_before(recs, k))
			continue;
		const char *name = pmu__json_get(o, "EventName")->str;
		if (encode_vendor(m, name, &code) || code != expected(o, intel)) {
			if (bad++ < 5)
				print_message("# %s: %s 0x%llx, want 0x%llx\n",
					      m->name, name,
					      (unsigned long long)code,
					      (unsigned long long)
					      expected(o, intel));
		}
		++*checked;
	}
	pmu__json_free(root);
	return bad;
}

static const struct {
	const char *sub, *model, *files[12];
	bool intel;
} vendor[] = {
	{ "amd", "amdzen4", { "amdzen4/branch.json", "amdzen4/cache.json",
	  "amdzen4/core.json", "amdzen4/floating-point.json",
	  "amdzen4/memory.json", "amdzen4/other.json",
	  "amdzen4/pipeline.json" }, false },
	{ "intel", "skylake", { "SKL/skylake_core.json" }, true },
	{ "intel", "icelake", { "ICL/icelake_core.json" }, true },
	{ "intel", "sapphirerapids", { "SPR/sapphirerapids_core.json" }, true },
};

static int check_vendor_dir(const char *dir, const char *sub, int *checked)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu__jsondir *jd = pmu__jsondir_load(dir, &err);
	char path[600];
	int bad = 0;

	if (!jd)
		fail_msg("%s: %s", dir, err.message);
	for (size_t v = 0; v < sizeof(vendor) / sizeof(vendor[0]); v++) {
		const struct pmu__catmodel *m;
		if (strcmp(vendor[v].sub, sub))
			continue;
		m = pmu__jsondir_model(jd, vendor[v].model);
		assert_non_null(m);
		for (int f = 0; vendor[v].files[f]; f++) {
			snprintf(path, sizeof(path), "%s/%s", dir,
				 vendor[v].files[f]);
			bad += check_file(m, path, vendor[v].intel, checked);
		}
	}
	pmu__jsondir_free(jd);
	return bad;
}

static void test_vendor_files(void **state)
{
	const char *shared = getenv("PMU_SHARED");
	static const char *const subs[] = { "amd", "intel" };
	int bad = 0, checked = 0;

	(void)state;
	if (!shared || !*shared || access(shared, F_OK)) {
		print_message("# SKIP: no vendor event files: the shared "
			      "reference directory (PMU_SHARED=%s) is not "
			      "there\n", shared ? shared : "");
		skip();
	}
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		char dir[512];
		snprintf(dir, sizeof(dir), "%s/events/%s", shared, subs[i]);
		bad += check_vendor_dir(dir, subs[i], &checked);
	}
	print_message("# %d vendor events checked, %d wrong\n", checked, bad);
	assert_int_equal(bad, 0);
	assert_true(checked > 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_models),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_encode),
		cmocka_unit_test(test_counters_and_descs),
		cmocka_unit_test(test_opts_events_dir),
		cmocka_unit_test(test_broken),
		cmocka_unit_test(test_too_many_records),
		cmocka_unit_test(test_vendor_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
