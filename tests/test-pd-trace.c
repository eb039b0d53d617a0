/* SPDX-License-Identifier: MIT */
/*
 * A recording's TRACING_DATA and a tracepoint record's text: formats
 * written here by hand, records built byte by byte, and the text each
 * must print (its print fmt where that is plain, else name=value).
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

#include "profile/pd_trace.h"

struct blob {
	unsigned char b[4096];
	size_t n;
};

static void put(struct blob *x, const void *p, size_t n)
{
	assert_true(x->n + n <= sizeof(x->b));
	memcpy(x->b + x->n, p, n);
	x->n += n;
}

static void put_u(struct blob *x, uint64_t v, size_t width)
{
	put(x, &v, width);   /* little-endian host, as the files are */
}

static void put_sized(struct blob *x, const char *s, size_t width)
{
	put_u(x, strlen(s), width);
	put(x, s, strlen(s));
}

#define COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* One system "t" holding the given formats. */
static void tracing_data(struct blob *x, const char *const *fmt, size_t n)
{
	static const unsigned char magic[] = { 23, 8, 68 };

	x->n = 0;
	put(x, magic, sizeof(magic));
	put(x, "tracing", 7);
	put(x, "0.6", 4);
	put_u(x, 0, 1);                 /* little-endian */
	put_u(x, 8, 1);                 /* long size */
	put_u(x, 4096, 4);              /* page size */
	put(x, "header_page", 12);
	put_sized(x, "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n",
		  8);
	put(x, "header_event", 13);
	put_sized(x, "# none\n", 8);
	put_u(x, 0, 4);                 /* ftrace's own formats */
	put_u(x, 1, 4);                 /* systems */
	put(x, "t", 2);
	put_u(x, n, 4);
	for (size_t i = 0; i < n; i++)
		put_sized(x, fmt[i], 8);
	put_u(x, 0, 4);                 /* kallsyms */
	put_u(x, 0, 4);                 /* printk */
	put_u(x, 0, 8);                 /* saved cmdlines */
}

static char *print(const struct pd_tp *tp, const void *raw, size_t size)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	pmu__pd_trace_print(m, tp, raw, size);
	fclose(m);
	return buf;
}

static const char *const formats[] = {
	/* plain: a __data_loc string, signed, hex, %%, an escape */
	"name: plain\nID: 7\nformat:\n" COMMON
	"\tfield:__data_loc char[] path;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:int delta;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned long mask;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"path=%s delta=%d mask=%lx 100%% \\\"q\\\"\", "
	"__get_str(path), REC->delta, REC->mask\n",
	/* not plain: a helper the printer does not run */
	"name: helper\nID: 8\nformat:\n" COMMON
	"\tfield:int state;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:char comm[8];\toffset:12;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"state=%s comm=%s\", __print_flags(REC->state, \"|\"), "
	"REC->comm\n",
	/* plain, but a number printed with %s: taken by field */
	"name: mismatch\nID: 9\nformat:\n" COMMON
	"\tfield:int n;\toffset:8;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"n=%s\", REC->n\n",
};

/* The first n formats, read. */
static void load(struct pd_trace *t, size_t n)
{
	struct blob x;

	tracing_data(&x, formats, n);
	assert_int_equal(pmu__pd_trace_parse(t, x.b, x.n), 0);
	assert_int_equal(t->ntp, n);
}

/* A record of "plain": path "/bin/x", delta -3, mask 0xbeef. */
static size_t plain_record(unsigned char *r)
{
	uint32_t loc = 7u << 16 | 24;
	int32_t delta = -3;
	uint64_t mask = 0xbeef;

	memset(r, 0, 40);
	memcpy(r + 8, &loc, 4);
	memcpy(r + 12, &delta, 4);
	memcpy(r + 16, &mask, 8);
	memcpy(r + 24, "/bin/x", 7);
	return 31;
}

static void test_plain(void **state)
{
	struct pd_trace t = { 0 };
	unsigned char r[40];
	size_t n = plain_record(r);
	char *s;

	(void)state;
	load(&t, 3);
	assert_string_equal(pmu__pd_trace_find(&t, 7)->name, "plain");
	assert_string_equal(pmu__pd_trace_find(&t, 7)->sys, "t");
	s = print(pmu__pd_trace_find(&t, 7), r, n);
	assert_string_equal(s, "path=/bin/x delta=-3 mask=beef 100% \"q\"");
	free(s);
	/* the same record twice: the format is not used up */
	s = print(pmu__pd_trace_find(&t, 7), r, n);
	assert_string_equal(s, "path=/bin/x delta=-3 mask=beef 100% \"q\"");
	free(s);
	pmu__pd_trace_free(&t);
}

/* A record too short for a field of the print fmt is printed by field,
 * the fields it holds only. */
static void test_short_record(void **state)
{
	struct pd_trace t = { 0 };
	unsigned char r[40];
	char *s;

	(void)state;
	plain_record(r);
	load(&t, 1);
	s = print(pmu__pd_trace_find(&t, 7), r, 16);
	assert_string_equal(s, "path= delta=-3");
	free(s);
	pmu__pd_trace_free(&t);
}

static void test_not_plain(void **state)
{
	struct pd_trace t = { 0 };
	unsigned char r[20] = { 0 };
	int32_t st = 5, n = 42;
	char *s;

	(void)state;
	memcpy(r + 8, &st, 4);
	memcpy(r + 12, "bash", 5);
	load(&t, 3);
	s = print(pmu__pd_trace_find(&t, 8), r, sizeof(r));
	assert_string_equal(s, "state=5 comm=bash");
	free(s);
	memcpy(r + 8, &n, 4);
	s = print(pmu__pd_trace_find(&t, 9), r, 12);
	assert_string_equal(s, "n=42");
	free(s);
	assert_null(pmu__pd_trace_find(&t, 10));
	pmu__pd_trace_free(&t);
}

static void test_not_tracing_data(void **state)
{
	struct pd_trace t = { 0 };
	struct blob x;

	(void)state;
	tracing_data(&x, formats, 1);
	x.b[3] = 'T';
	assert_int_equal(pmu__pd_trace_parse(&t, x.b, x.n), -EINVAL);
	pmu__pd_trace_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_short_record),
		cmocka_unit_test(test_not_plain),
		cmocka_unit_test(test_not_tracing_data),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
