/* SPDX-License-Identifier: MIT */
/*
 * A recording's TRACING_DATA and a tracepoint record's text: formats
 * written here by hand, records built byte by byte, and the text each
 * must print: its print fmt, run as C reads it, or name=value where
 * that cannot be run.
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

/* The printk formats of the next tracing data made: kernel strings. */
static const char *printk_text = "";

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
	put_sized(x, printk_text, 4);   /* printk formats */
	put_u(x, 0, 8);                 /* saved cmdlines */
}

/* Kernel symbols of the tests: one function at 0x1000, 0x200 long. */
static const char *sym_name(void *ctx, uint64_t addr, uint64_t *off)
{
	(void)ctx;
	if (addr < 0x1000 || addr >= 0x1200)
		return NULL;
	*off = addr - 0x1000;
	return "sched_setaffinity";
}

static const struct pd_tp_syms test_syms = { sym_name, NULL, NULL };
static const struct pd_tp_syms *syms = &test_syms;

static char *print(const struct pd_tp *tp, const void *raw, size_t size)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	pmu__pd_trace_print(m, tp, raw, size, syms);
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
	/* __print_flags() without a table */
	"name: helper\nID: 8\nformat:\n" COMMON
	"\tfield:int state;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:char comm[8];\toffset:12;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"state=%s comm=%s\", __print_flags(REC->state, \"|\"), "
	"REC->comm\n",
	/* a number printed with %s */
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
	/* __print_flags() with no names: the bits as a number */
	s = print(pmu__pd_trace_find(&t, 8), r, sizeof(r));
	assert_string_equal(s, "state=0x5 comm=bash");
	free(s);
	/* a number given to %s: in hex, as perf prints a pointer */
	memcpy(r + 8, &n, 4);
	s = print(pmu__pd_trace_find(&t, 9), r, 12);
	assert_string_equal(s, "n=2a");
	free(s);
	assert_null(pmu__pd_trace_find(&t, 10));
	pmu__pd_trace_free(&t);
}

/* The record of the expression tests: each field's offset and value. */
#define REC_FIELDS \
	"\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n" \
	"\tfield:unsigned long b;\toffset:16;\tsize:8;\tsigned:0;\n" \
	"\tfield:char comm[8];\toffset:24;\tsize:8;\tsigned:0;\n" \
	"\tfield:__u8 ip4[4];\toffset:32;\tsize:4;\tsigned:0;\n" \
	"\tfield:__u8 ip6[16];\toffset:36;\tsize:16;\tsigned:0;\n" \
	"\tfield:unsigned long args[2];\toffset:56;\tsize:16;\tsigned:0;\n" \
	"\tfield:void * fn;\toffset:72;\tsize:8;\tsigned:0;\n" \
	"\tfield:__u8 sa[28];\toffset:80;\tsize:28;\tsigned:0;\n"
#define REC_SIZE 108

static void expr_record(unsigned char *r)
{
	int32_t a = -100;
	uint64_t b = 61ull << 22 | 0x80001, args[2] = { 7, 0x557e },
		 fn = 0x110c;
	static const unsigned char ip6[16] = { [10] = 0xff, [11] = 0xff,
					       [12] = 127, [15] = 1 };
	static const unsigned char sa[8] = { 2, 0, 0xaa, 0x6e, 127, 0, 0, 1 };

	memset(r, 0, REC_SIZE);
	memcpy(r + 8, &a, 4);
	memcpy(r + 16, &b, 8);
	memcpy(r + 24, "bash", 5);
	memcpy(r + 32, "\x7f\0\0\x01", 4);
	memcpy(r + 36, ip6, 16);
	memcpy(r + 56, args, 16);
	memcpy(r + 72, &fn, 8);
	memcpy(r + 80, sa, 8);
}

/* The text of the record under a print fmt of its fields. */
static char *run_fmt(const char *fmt, size_t size)
{
	char text[4096];
	const char *one[] = { text };
	struct pd_trace t = { 0 };
	unsigned char r[REC_SIZE];
	struct blob x;
	char *s;

	printk_text = "0x5000 : \"Start context switch\"\n"
		      "0x4000 : \"%s: done\\n\"\n"
		      "junk line\n";
	snprintf(text, sizeof(text), "name: e\nID: 50\nformat:\n" COMMON
		 REC_FIELDS "\nprint fmt: %s\n", fmt);
	struct pd_tp_syms with_strings = { sym_name, NULL, &t };

	tracing_data(&x, one, 1);
	assert_int_equal(pmu__pd_trace_parse(&t, x.b, x.n), 0);
	expr_record(r);
	syms = &with_strings;
	s = print(pmu__pd_trace_find(&t, 50), r, size);
	syms = &test_syms;
	pmu__pd_trace_free(&t);
	return s;
}

/* Print fmts as the kernel writes them, each with the text C (and the
 * kernel's own %p formats) gives. */
static void test_expressions(void **state)
{
	static const struct {
		int line;
		const char *fmt, *want;
	} cases[] = {
		/* a cast to the width and sign of its type */
		{ __LINE__, "\"dfd: 0x%08lx\", ((unsigned long)(REC->a))",
		  "dfd: 0xffffffffffffff9c" },
		{ __LINE__, "\"%x %x\", (unsigned char)REC->a, (u16)REC->a",
		  "9c ff9c" },
		{ __LINE__, "\"%d\", (bool)REC->a + (int)(s8)0x80", "-127" },
		/* a conversion's own length */
		{ __LINE__, "\"%d %u %x %hx %hhd %ld\", REC->a, REC->a, REC->a, "
			    "REC->a, REC->a, REC->a",
		  "-100 4294967196 ffffff9c ff9c -100 -100" },
		/* C's precedence: & binds after | inside the parentheses */
		{ __LINE__, "\"%lu\", REC->b & (0x00040000 | 0x00080000)",
		  "524288" },
		{ __LINE__, "\"flags=%s\", __print_flags(REC->b & (0x00040000 | "
			    "0x00080000 | 0x00100000 | 0x00200000), \"|\", "
			    "{ 0x00040000, \"M\" }, { 0x00080000, \"D\" }, "
			    "{ 0x00100000, \"P\" }, { 0x00200000, \"I\" })",
		  "flags=D" },
		{ __LINE__, "\"%lu %lu\", REC->b & 0x0003FFFF, REC->b >> 22",
		  "1 61" },
		/* operators, signed and unsigned */
		{ __LINE__, "\"%s %d %d %d %d\", REC->a < 0 ? \"neg\" : \"pos\", "
			    "-7 / 2, 1 << 3 >> 1, -7 % 3, !REC->a + ~0",
		  "neg -3 4 -1 -1" },
		{ __LINE__, "\"%d %d\", REC->b > -1, (long)REC->b > -1",
		  "0 1" },
		{ __LINE__, "\"%d %d\", 0 && 1 / 0, 1 || REC->a", "0 1" },
		/* flags: bits left over in hex; 0 by its own name; NULL
		 * names end a table; a bare name is 0 */
		{ __LINE__, "\"%s\", __print_flags(0x13, \"|\", { 1, \"A\" }, "
			    "{ 2, \"B\" }, { 0, ((void *)0) })",
		  "A|B|0x10" },
		{ __LINE__, "\"%s\", __print_flags(0, \"|\", { SOME_ENUM, \"Z\" })",
		  "Z" },
		/* symbols: a match, none (hex), a bare name never matches;
		 * the names perf knows by value */
		{ __LINE__, "\"%s %s %s\", __print_symbolic(REC->a, { 1, \"one\" }, "
			    "{ -100, \"m100\" }), __print_symbolic(3, { 1, \"x\" }),"
			    " __print_symbolic(0, { SOME_ENUM, \"E\" })",
		  "m100 0x3 0x0" },
		{ __LINE__, "\"%s\", __print_symbolic(9, { RCU_SOFTIRQ, \"RCU\" })",
		  "RCU" },
		/* an array's elements */
		{ __LINE__, "\"NR %ld (%lx, %lx)\", REC->a, REC->args[0], "
			    "REC->args[1]",
		  "NR -100 (7, 557e)" },
		/* strings: widths, literals joined, escapes */
		{ __LINE__, "\"%s|%-6s|%6s|\" \"%%\\t\", REC->comm, REC->comm, "
			    "\"ab\"",
		  "bash|bash  |    ab|%\t" },
		/* the kernel's %p formats */
		{ __LINE__, "\"%pS %ps %pF %p %p %px\", REC->fn, REC->fn, "
			    "(void *)REC->fn, REC->fn, 0, REC->fn",
		  "sched_setaffinity+0x10c sched_setaffinity "
		  "sched_setaffinity+0x10c 0x110c (nil) 0x110c" },
		{ __LINE__, "\"%pS\", 0x5000", "0x5000" },
		{ __LINE__, "\"%pI4 %pI6c %pISpc\", REC->ip4, REC->ip6, REC->sa",
		  "127.0.0.1 ::ffff:127.0.0.1 127.0.0.1:43630" },
		{ __LINE__, "\"%pI6 %pM\", REC->ip6, REC->ip6",
		  "0000:0000:0000:0000:0000:ffff:7f00:0001 00:00:00:00:00:00" },
		{ __LINE__, "\"%pU\", REC->ip6",
		  "00000000-0000-0000-0000-ffff7f000001" },
		{ __LINE__, "\"%c%c\", 'x', 7", "x." },
		/* a kernel string's address: the string, from the
		 * recording's printk formats, else the address */
		{ __LINE__, "\"%s|%s|%s\", 0x5000, 0x4000, 0x6000",
		  "Start context switch|%s: done\\n|6000" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = run_fmt(cases[i].fmt, REC_SIZE);

		print_message("case at line %d\n", cases[i].line);
		assert_string_equal(s, cases[i].want);
		free(s);
	}
}

/* What cannot be run prints the fields, name=value: a helper or a %p
 * format not run, a name not a field, arguments too few or too many, a
 * division by zero, a record too short for a field, nesting too deep. */
static void test_not_run(void **state)
{
	static const char *const fmts[] = {
		"\"%s\", __print_hex(REC->comm, 4)",
		"\"%pB\", REC->fn",
		"\"%d\", REC->nosuch",
		"\"%d %d\", REC->a",
		"\"%d\", REC->a, REC->a",
		"\"%d\", 1 / (REC->a + 100)",
		"\"%d\", REC->args[2]",
		"\"%pI4\", REC->a",
		"\"%d\", REC->comm + 1",
		"\"%d\", ((((((((((((((((((((((((((((((((((((((((((((((((((((("
		"((((((((((((((((1))))))))))))))))))))))))))))))))))))))))))))"
		"))))))))))))))))))))))))",
		"\"%d",
		"\"%d\", (",
		"no string at all",
	};
	(void)state;
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		char *s = run_fmt(fmts[i], REC_SIZE);

		print_message("fmt %s\n", fmts[i]);
		assert_true(!strncmp(s, "a=-100 b=", 9));
		free(s);
	}
	/* a record too short for the field named: by field, those held */
	{
		char *s = run_fmt("\"%s\", REC->comm", 20);

		assert_string_equal(s, "a=-100");
		free(s);
	}
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
		cmocka_unit_test(test_expressions),
		cmocka_unit_test(test_not_run),
		cmocka_unit_test(test_not_tracing_data),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
