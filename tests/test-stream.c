/* SPDX-License-Identifier: MIT */
/* Event-stream parser (docs/stream-format.md): accepted statements and
 * the errors, which must name the line, the column and the token. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "drivers/sim_stream.h"

struct want_op {
	int kind;        /* 0 = end of list */
	uint32_t key, umask;
	uint64_t n;
};

struct row {
	int line;
	const char *text;
	struct want_op ops[5];
};

#define P4K(escr, sel) PMU_SIM_P4_KEY(escr, sel)

static const struct row ok_rows[] = {
	{ __LINE__, "event 0xc0 1000\n",
	  { { PMU_STREAM_EVENT, 0xC0, 0, 1000 } } },
	{ __LINE__, "event 0xC0\n", { { PMU_STREAM_EVENT, 0xC0, 0, 1 } } },
	{ __LINE__, "  event 46 5 umask=0x41   # comment\n",
	  { { PMU_STREAM_EVENT, 46, 0x41, 5 } } },
	{ __LINE__, "event 2 10 escr=0x3b8 umask=1",
	  { { PMU_STREAM_EVENT, P4K(0x3B8, 2), 1, 10 } } },
	{ __LINE__, "event 2 escr=0x3b9",
	  { { PMU_STREAM_EVENT, P4K(0x3B8, 2), 0, 1 } } },
	{ __LINE__, "cycles 5000\r\nmode kernel\nmode user\n",
	  { { PMU_STREAM_CYCLES, 0, 0, 5000 },
	    { PMU_STREAM_MODE, 0, 0, PMU_SIM_KERNEL },
	    { PMU_STREAM_MODE, 0, 0, PMU_SIM_USER } } },
	{ __LINE__, "ip 0xffffffffffffffff\npmm 1\n",
	  { { PMU_STREAM_IP, 0, 0, UINT64_MAX }, { PMU_STREAM_PMM, 0, 0, 1 } } },
	{ __LINE__, "sample\nsuspend\nresume\n",
	  { { PMU_STREAM_SAMPLE, 0, 0, 0 }, { PMU_STREAM_SUSPEND, 0, 0, 0 },
	    { PMU_STREAM_RESUME, 0, 0, 0 } } },
	{ __LINE__, "fetch 3\nop\n",
	  { { PMU_STREAM_EVENT, PMU_SIM_KEY_FETCH, 0, 3 },
	    { PMU_STREAM_EVENT, PMU_SIM_KEY_OP, 0, 1 } } },
	{ __LINE__, "wrmsr 0xc0011033 0x20010\n",
	  { { PMU_STREAM_REG, 0, 0, 0x20010 } } },
	{ __LINE__, "repeat 3 {\n event 1 2\n}\n",
	  { { PMU_STREAM_REPEAT, 0, 0, 3 }, { PMU_STREAM_EVENT, 1, 0, 2 },
	    { PMU_STREAM_END, 0, 0, 0 } } },
	{ __LINE__, "# only a comment\n\n\t\n", { { 0 } } },
	{ __LINE__, "", { { 0 } } },
};

static void test_accepted(void **unused)
{
	(void)unused;
	for (size_t i = 0; i < sizeof(ok_rows) / sizeof(ok_rows[0]); i++) {
		const struct row *r = &ok_rows[i];
		struct pmu_error err = { .size = sizeof(err) };
		struct pmu__stream s;
		size_t n = 0;
		int rc;

		rc = pmu__stream_parse(r->text, strlen(r->text), &s, &err);
		if (rc)
			fail_msg("line %d: rejected: %s", r->line, err.message);
		while (n < 5 && r->ops[n].kind)
			n++;
		if (s.nops != n)
			fail_msg("line %d: %zu ops, want %zu", r->line, s.nops, n);
		for (size_t k = 0; k < n; k++) {
			const struct pmu__stream_op *op = &s.ops[k];
			const struct want_op *w = &r->ops[k];

			if (op->kind != w->kind || op->key != w->key ||
			    op->umask != w->umask ||
			    (w->kind != PMU_STREAM_END && op->n != w->n))
				fail_msg("line %d: op %zu kind %d key 0x%x umask 0x%x"
					 " n %llu", r->line, k, op->kind, op->key,
					 op->umask, (unsigned long long)op->n);
		}
		pmu__stream_free(&s);
	}
}

/* Repeat ops point at each other. */
static void test_repeat_links(void **unused)
{
	const char *t = "repeat 2 {\nrepeat 3 {\ncycles 1\n}\nevent 1\n}\n";
	struct pmu__stream s;

	(void)unused;
	assert_int_equal(pmu__stream_parse(t, strlen(t), &s, NULL), 0);
	assert_int_equal(s.nops, 6);
	assert_int_equal(s.ops[0].jump, 5);
	assert_int_equal(s.ops[5].jump, 0);
	assert_int_equal(s.ops[1].jump, 3);
	assert_int_equal(s.ops[3].jump, 1);
	pmu__stream_free(&s);
}

static void test_snapshot(void **unused)
{
	const char *t = "snapshot ip=0x401000 flags=0x246 eax=1 rbx=2 r15=15 "
			"data=0x1000 phys=0x2000 aux2=7\n";
	struct pmu__stream s;
	const struct pmu__sim_snapshot *sn;

	(void)unused;
	assert_int_equal(pmu__stream_parse(t, strlen(t), &s, NULL), 0);
	assert_int_equal(s.nops, 1);
	assert_int_equal(s.nsnaps, 1);
	sn = &s.snaps[s.ops[0].snap];
	assert_int_equal(sn->ip, 0x401000);
	assert_int_equal(sn->flags, 0x246);
	assert_int_equal(sn->gpr[0], 1);
	assert_int_equal(sn->gpr[1], 2);
	assert_int_equal(sn->gpr[15], 15);
	assert_int_equal(sn->gpr[2], 0);
	assert_int_equal(sn->data_addr, 0x1000);
	assert_int_equal(sn->phys_addr, 0x2000);
	assert_int_equal(sn->aux[2], 7);
	pmu__stream_free(&s);
}

/* The IBS words have names (docs/stream-format.md) besides aux0..4. */
static void test_snapshot_ibs_names(void **unused)
{
	const char *t = "snapshot op_data1=1 op_data2=2 op_data3=3 "
			"fetch_phys=0x4000 fetch_status=0x8000000000000 aux5=6\n";
	struct pmu__stream s;
	const struct pmu__sim_snapshot *sn;

	(void)unused;
	assert_int_equal(pmu__stream_parse(t, strlen(t), &s, NULL), 0);
	sn = &s.snaps[s.ops[0].snap];
	assert_int_equal(sn->aux[0], 1);
	assert_int_equal(sn->aux[1], 2);
	assert_int_equal(sn->aux[2], 3);
	assert_int_equal(sn->aux[3], 0x4000);
	assert_int_equal(sn->aux[4], 0x8000000000000ull);
	assert_int_equal(sn->aux[5], 6);
	pmu__stream_free(&s);
}

/* The `pebs` header statement: fields, -N for cnt_reset. */
static const struct pebs_row {
	int line;
	const char *text;
	bool buf, thres, reset;
	uint64_t buf_size, intr_thres, cnt_reset;
	size_t nops;
} pebs_rows[] = {
	{ __LINE__, "pebs buf_size=4000 intr_thres=90 cnt_reset=0xfffffffc18\n",
	  true, true, true, 4000, 90, 0xFFFFFFFC18ull, 0 },
	{ __LINE__, "# header\n\npebs cnt_reset=-1000\nevent 1\n",
	  false, false, true, 0, 0, 0xFFFFFFFC18ull, 1 },
	{ __LINE__, "pebs cnt_reset=-1099511627776\n",
	  false, false, true, 0, 0, 0, 0 },
	{ __LINE__, "pebs intr_thres=0 buf_size=400\n",
	  true, true, false, 400, 0, 0, 0 },
	{ __LINE__, "pebs\n", false, false, false, 0, 0, 0, 0 },
};

static void test_pebs_header(void **unused)
{
	(void)unused;
	for (size_t i = 0; i < sizeof(pebs_rows) / sizeof(pebs_rows[0]); i++) {
		const struct pebs_row *r = &pebs_rows[i];
		struct pmu__stream s;
		int rc = pmu__stream_parse(r->text, strlen(r->text), &s, NULL);
		const struct pmu__stream_pebs *p = &s.pebs;

		if (rc || !p->given || p->has_buf_size != r->buf ||
		    p->has_intr_thres != r->thres || p->has_cnt_reset != r->reset ||
		    p->buf_size != r->buf_size || p->intr_thres != r->intr_thres ||
		    p->cnt_reset != r->cnt_reset || s.nops != r->nops)
			fail_msg("line %d: pebs header parsed wrong (rc %d)",
				 r->line, rc);
		pmu__stream_free(&s);
	}
}

struct bad {
	int line;
	const char *text;
	const char *where;   /* "line L, column C" or "line L" */
	const char *token;
};

static const struct bad bad_rows[] = {
	{ __LINE__, "evnt 1\n", "line 1, column 1", "evnt" },
	{ __LINE__, "cycles 10\nevent zz\n", "line 2, column 7", "zz" },
	{ __LINE__, "event 0x1000\n", "line 1, column 7", "0x1000" },
	{ __LINE__, "event 1 18446744073709551616\n", "line 1, column 9",
	  "18446744073709551616" },
	{ __LINE__, "event 1 9223372036854775808\n", "line 1, column 9",
	  "9223372036854775808" },
	{ __LINE__, "event 1 2 umask=0x10000\n", "line 1, column 17", "0x10000" },
	{ __LINE__, "event 1 2 color=3\n", "line 1, column 11", "color" },
	{ __LINE__, "event 0x40 escr=0x3b8\n", "line 1, column 7", "0x40" },
	{ __LINE__, "event 1 escr=0x300\n", "line 1, column 14", "0x300" },
	{ __LINE__, "event 1 2 3\n", "line 1, column 11", "3" },
	{ __LINE__, "event\n", "line 1, column 1", "event" },
	{ __LINE__, "cycles\n", "line 1, column 1", "cycles" },
	{ __LINE__, "cycles 1 2\n", "line 1, column 10", "2" },
	{ __LINE__, "cycles -1\n", "line 1, column 8", "-1" },
	{ __LINE__, "cycles 0x\n", "line 1, column 8", "0x" },
	{ __LINE__, "mode root\n", "line 1, column 6", "root" },
	{ __LINE__, "pmm 2\n", "line 1, column 5", "2" },
	{ __LINE__, "sample now\n", "line 1, column 8", "now" },
	{ __LINE__, "snapshot ip\n", "line 1, column 10", "ip" },
	{ __LINE__, "snapshot xmm0=1\n", "line 1, column 10", "xmm0" },
	{ __LINE__, "repeat 2\n", "line 1, column 1", "repeat" },
	{ __LINE__, "repeat 2 (\n", "line 1, column 10", "(" },
	{ __LINE__, "}\n", "line 1, column 1", "}" },
	{ __LINE__, "repeat 2 {\nevent 1\n", "line 2", "repeat" },
	{ __LINE__, "event 1\x01\n", "line 1, column 8", "\x01" },
	{ __LINE__, "wrmsr 0x186\n", "line 1, column 1", "wrmsr" },
	{ __LINE__, "wrmsr 0x100000000 0\n", "line 1, column 7", "0x100000000" },
	{ __LINE__, "snapshot op_data4=1\n", "line 1, column 10", "op_data4" },
	{ __LINE__, "event 1\npebs\n", "line 2, column 1", "pebs" },
	{ __LINE__, "pebs\npebs\n", "line 2, column 1", "pebs" },
	{ __LINE__, "pebs buf_size=399\n", "line 1, column 15", "399" },
	{ __LINE__, "pebs buf_size=67108865\n", "line 1, column 15", "67108865" },
	{ __LINE__, "pebs intr_thres=0x100000000\n", "line 1, column 17",
	  "0x100000000" },
	{ __LINE__, "pebs cnt_reset=0x10000000000\n", "line 1, column 16",
	  "0x10000000000" },
	{ __LINE__, "pebs cnt_reset=-1099511627777\n", "line 1, column 17",
	  "1099511627777" },
	{ __LINE__, "pebs cnt_reset=-0\n", "line 1, column 16", "-0" },
	{ __LINE__, "pebs cnt_reset=--1\n", "line 1, column 17", "-1" },
	{ __LINE__, "pebs size=1\n", "line 1, column 6", "size" },
	{ __LINE__, "pebs buf_size\n", "line 1, column 6", "buf_size" },
};

static void test_rejected(void **unused)
{
	(void)unused;
	for (size_t i = 0; i < sizeof(bad_rows) / sizeof(bad_rows[0]); i++) {
		const struct bad *b = &bad_rows[i];
		struct pmu_error err = { .size = sizeof(err) };
		struct pmu__stream s;
		int rc = pmu__stream_parse(b->text, strlen(b->text), &s, &err);

		if (rc != -EINVAL)
			fail_msg("line %d: rc %d", b->line, rc);
		if (!strstr(err.message, b->where))
			fail_msg("line %d: message '%s' lacks '%s'", b->line,
				 err.message, b->where);
		if (strcmp(err.token, b->token))
			fail_msg("line %d: token '%s' want '%s'", b->line,
				 err.token, b->token);
		pmu__stream_free(&s);
	}
}

/* Nesting deeper than the limit is refused. */
static void test_depth(void **unused)
{
	char text[1024] = "";
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu__stream s;

	(void)unused;
	for (int i = 0; i <= PMU_STREAM_MAX_DEPTH; i++)
		strcat(text, "repeat 1 {\n");
	assert_int_equal(pmu__stream_parse(text, strlen(text), &s, &err),
			 -EINVAL);
	assert_non_null(strstr(err.message, "nested too deeply"));
	pmu__stream_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted),
		cmocka_unit_test(test_repeat_links),
		cmocka_unit_test(test_snapshot),
		cmocka_unit_test(test_snapshot_ibs_names),
		cmocka_unit_test(test_pebs_header),
		cmocka_unit_test(test_rejected),
		cmocka_unit_test(test_depth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
