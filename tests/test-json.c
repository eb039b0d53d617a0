/* SPDX-License-Identifier: MIT */
/* The JSON reader and the control-file conversion. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "drivers/control_json.h"
#include "util/json.h"

struct parse_row {
	int line;
	const char *text;
	bool ok;
	const char *msg;        /* substring of the error message */
};

static const struct parse_row parse_rows[] = {
	{ __LINE__, "{}", true, NULL },
	{ __LINE__, " [1, -2, 3.5, \"x\", true, false, null] ", true, NULL },
	{ __LINE__, "{\"a\": {\"b\": [[]]}}", true, NULL },
	{ __LINE__, "\"\\u00e9\\ud83d\\ude00\\n\"", true, NULL },
	{ __LINE__, "", false, "line 1, column 1: unexpected end" },
	{ __LINE__, "{\"a\": 1,}", false, "line 1, column 9: expected a string key" },
	{ __LINE__, "{\n  \"a\": tru\n}", false, "line 2, column 8" },
	{ __LINE__, "[1 2]", false, "expected ',' or ']'" },
	{ __LINE__, "{\"a\" 1}", false, "expected ':'" },
	{ __LINE__, "{\"a\": 1, \"a\": 2}", false, "duplicate key" },
	{ __LINE__, "01", false, "trailing characters" },
	{ __LINE__, "-", false, "malformed number" },
	{ __LINE__, "1.", false, "malformed number" },
	{ __LINE__, "18446744073709551616", false, "does not fit" },
	{ __LINE__, "\"abc", false, "bad string" },
	{ __LINE__, "\"a\tb\"", false, "bad string" },
	{ __LINE__, "\"\\ud800\"", false, "bad string" },
	{ __LINE__, "\"\\u0000\"", false, "bad string" },
	{ __LINE__, "\"\\x\"", false, "bad string" },
	{ __LINE__, "{} {}", false, "trailing characters" },
	{ __LINE__, "nul", false, "expected a JSON value" },
};

static void test_parse(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(parse_rows) / sizeof(parse_rows[0]); i++) {
		const struct parse_row *r = &parse_rows[i];
		struct pmu_error err = { .size = sizeof(err) };
		struct pmu_json *v = pmu__json_parse(r->text, strlen(r->text), &err);

		if (!!v != r->ok)
			fail_msg("line %d: ok=%d, error '%s'", r->line, !!v, err.message);
		if (!v && !strstr(err.message, r->msg))
			fail_msg("line %d: message '%s' lacks '%s'", r->line,
				 err.message, r->msg);
		if (!v && err.code != -EINVAL)
			fail_msg("line %d: code %d", r->line, err.code);
		pmu__json_free(v);
	}
}

static void test_depth_limit(void **state)
{
	char deep[2 * (PMU_JSON_MAX_DEPTH + 2)];
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_json *v;
	size_t n = PMU_JSON_MAX_DEPTH + 1;

	(void)state;
	memset(deep, '[', n);
	memset(deep + n, ']', n);
	v = pmu__json_parse(deep, 2 * n, &err);
	assert_null(v);
	assert_non_null(strstr(err.message, "nesting too deep"));
	v = pmu__json_parse(deep + 1, 2 * n - 2, &err);   /* exactly the limit */
	assert_non_null(v);
	pmu__json_free(v);
}

static void test_values(void **state)
{
	const char *t = "{\"s\": \"a\\\"b\", \"n\": -9223372036854775808,"
			" \"h\": \"0xFFFFFFFFFFFFFFFF\", \"u\": 18446744073709551615,"
			" \"bad\": \"0x\", \"neg\": \"-12\"}";
	struct pmu_json *v = pmu__json_parse(t, strlen(t), NULL);
	int64_t i;
	uint64_t u;

	(void)state;
	assert_non_null(v);
	assert_string_equal(pmu__json_get(v, "s")->str, "a\"b");
	assert_int_equal(pmu__json_int64(pmu__json_get(v, "n"), &i), 0);
	assert_true(i == INT64_MIN);
	assert_int_equal(pmu__json_uint64(pmu__json_get(v, "h"), &u), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(pmu__json_int64(pmu__json_get(v, "h"), &i), -ERANGE);
	assert_int_equal(pmu__json_uint64(pmu__json_get(v, "u"), &u), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(pmu__json_uint64(pmu__json_get(v, "bad"), &u), -EINVAL);
	assert_int_equal(pmu__json_int64(pmu__json_get(v, "neg"), &i), 0);
	assert_int_equal(i, -12);
	assert_int_equal(pmu__json_uint64(pmu__json_get(v, "neg"), &u), -ERANGE);
	assert_int_equal(pmu__json_int64(pmu__json_get(v, "s"), &i), -EINVAL);
	assert_null(pmu__json_get(v, "missing"));
	pmu__json_free(v);
}

struct ctl_row {
	int line;
	const char *text;
	const char *token;      /* NULL: accepted */
	int index;
	const char *msg;
};

static const struct ctl_row ctl_rows[] = {
	{ __LINE__, "{}", NULL, -1, NULL },
	{ __LINE__, "{\"tsc_on\": 1, \"nractrs\": \"0x2\", \"pmc_map\": [0, 1],"
		    " \"evntsel\": [\"0x004100C0\", 65728], \"is_global\": true}",
	  NULL, -1, NULL },
	{ __LINE__, "{\"bogus\": 1}", "bogus", -1, "unknown field" },
	{ __LINE__, "{\"p4\": {\"escr\": [], \"pebs\": 1}}", "p4.pebs", -1,
	  "unknown field" },
	{ __LINE__, "{\"ppc\": {\"mmcr1\": 1}}", "ppc.mmcr1", -1, "unknown field" },
	{ __LINE__, "{\"evntsel\": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}",
	  "evntsel", -1, "more than 18" },
	{ __LINE__, "{\"evntsel\": [0, 4294967296]}", "evntsel[1]", 1,
	  "out of 32-bit" },
	{ __LINE__, "{\"pmc_map\": [-1]}", "pmc_map[0]", 0, "out of 32-bit" },
	{ __LINE__, "{\"ireset\": [0, -2147483649]}", "ireset[1]", 1,
	  "out of 32-bit" },
	{ __LINE__, "{\"ireset\": [-2147483648, \"0xFFFFFFFF\"]}", NULL, -1, NULL },
	{ __LINE__, "{\"tsc_on\": 1.5}", "tsc_on", -1, "expected an integer" },
	{ __LINE__, "{\"tsc_on\": \"one\"}", "tsc_on", -1, "not a number" },
	{ __LINE__, "{\"p4\": {\"pebs_enable\": \"0x100000000\"}}",
	  "p4.pebs_enable", -1, "out of 32-bit" },
	{ __LINE__, "{\"p4\": []}", "p4", -1, "expected an object" },
	{ __LINE__, "{\"evntsel\": 5}", "evntsel", -1, "expected an array" },
	{ __LINE__, "[1]", "(top level)", -1, "JSON object" },
	{ __LINE__, "{\"nractrs\": 1,\n \"evntsel\": [true]}", "evntsel[0]", 0,
	  "line 2, column 14" },
};

static void test_control(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(ctl_rows) / sizeof(ctl_rows[0]); i++) {
		const struct ctl_row *r = &ctl_rows[i];
		struct pmu_error err = { .size = sizeof(err) };
		struct pmu_control c;
		int rc = pmu__control_parse(r->text, strlen(r->text), &c, &err);

		if ((rc == 0) != (r->token == NULL))
			fail_msg("line %d: rc %d '%s'", r->line, rc, err.message);
		if (!r->token)
			continue;
		if (strcmp(err.token, r->token) || err.index != r->index ||
		    !strstr(err.message, r->msg))
			fail_msg("line %d: token '%s' index %d message '%s'",
				 r->line, err.token, err.index, err.message);
	}
}

static void test_control_values(void **state)
{
	const char *t = "{\"tsc_on\": 1, \"nractrs\": 1, \"nrictrs\": 1,"
			" \"pmc_map\": [\"0x8000000C\", 13], \"evntsel\": [1, 2],"
			" \"ireset\": [0, \"0xFFFFFFF0\"], \"p4\": {\"escr\": [3],"
			" \"pebs_enable\": \"0x01000001\", \"pebs_matrix_vert\": 1},"
			" \"ppc\": {\"mmcr0\": 7, \"mmcr2\": 8}, \"is_global\": 1}";
	struct pmu_control c;

	(void)state;
	assert_int_equal(pmu__control_parse(t, strlen(t), &c, NULL), 0);
	assert_int_equal(c.tsc_on, 1);
	assert_int_equal(c.pmc_map[0], 0x8000000C);
	assert_int_equal(c.pmc_map[1], 13);
	assert_int_equal(c.pmc_map[2], 0);
	assert_int_equal(c.ireset[1], -16);
	assert_int_equal(c.p4.escr[0], 3);
	assert_int_equal(c.p4.pebs_enable, 0x01000001);
	assert_int_equal(c.p4.pebs_matrix_vert, 1);
	assert_int_equal(c.ppc.mmcr0, 7);
	assert_int_equal(c.ppc.mmcr2, 8);
	assert_int_equal(c.is_global, 1);
}

/* A document of many strings, as a large control file or event file is:
 * 200000 strings in 5 MB.  The reader's memory must grow with the
 * document (a few times its size), not with strings x document (each
 * string given room for the whole rest of the input needed about
 * 200000 x 2.5 MB).  Checked in a child under a data limit of 512 MB;
 * a document too large for the limit says "out of memory", not that
 * the text is bad.  (Not under ASan or valgrind, whose own allocators
 * do not keep to a data limit.) */
#if defined(__SANITIZE_ADDRESS__)
#define NO_LIMITS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_LIMITS 1
#endif
#endif

#ifndef NO_LIMITS
static char *many_strings(size_t n, size_t *len)
{
	char *s = malloc(n * 26 + 16), *q = s;

	assert_non_null(s);
	*q++ = '[';
	for (size_t i = 0; i < n; i++)
		q += sprintf(q, "%s\"string number %08zu\"", i ? "," : "", i);
	*q++ = ']';
	*len = (size_t)(q - s);
	return s;
}

static int parse_limited(const char *doc, size_t len, rlim_t limit,
			 char *msg, size_t msz)
{
	int fd[2], status = 0;
	pid_t pid;

	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit r = { limit, limit };
		struct pmu_error err = { .size = sizeof(err) };
		struct pmu_json *j;

		close(fd[0]);
		if (setrlimit(RLIMIT_DATA, &r))
			_exit(3);
		j = pmu__json_parse(doc, len, &err);
		if (!j && write(fd[1], err.message, strlen(err.message)) < 0)
			_exit(4);
		_exit(j ? 0 : errno == ENOMEM ? 1 : 2);
	}
	close(fd[1]);
	memset(msg, 0, msz);
	if (read(fd[0], msg, msz - 1) < 0)
		msg[0] = '\0';
	close(fd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

#endif

static void test_memory(void **state)
{
	(void)state;
#ifdef NO_LIMITS
	skip();
#else
	size_t len;
	char *doc, msg[256];

	if (getenv("LD_PRELOAD") || getenv("VALGRIND_LIB") ||
	    getenv("RUNNING_UNDER_VALGRIND"))
		skip();
	doc = many_strings(200000, &len);
	/* within 512 MB: the whole tree */
	assert_int_equal(parse_limited(doc, len, (rlim_t)512 << 20, msg,
				       sizeof(msg)), 0);
	/* within 1 MB: out of memory, said so */
	assert_int_equal(parse_limited(doc, len, (rlim_t)1 << 20, msg,
				       sizeof(msg)), 1);
	assert_non_null(strstr(msg, "out of memory"));
	free(doc);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_depth_limit),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_control),
		cmocka_unit_test(test_control_values),
		cmocka_unit_test(test_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
