/* SPDX-License-Identifier: MIT */
/*
 * Event-stream parser: one statement per line, tokens separated by blanks,
 * `#` to the end of the line is a comment.  Strict: unknown words, missing
 * or extra operands and out-of-range numbers are errors that name the
 * line, the column and the token.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/sim_stream.h"
#include "sim/ibs.h"
#include "util/error.h"

#define MAX_TOKENS 40

struct tok {
	const char *p;
	size_t n;
};

struct parser {
	const char *text;
	int line;
	struct tok t[MAX_TOKENS];
	int nt;
	uint32_t stack[PMU_STREAM_MAX_DEPTH];
	int depth;
	struct pmu__stream *s;
	struct pmu_error *err;
	int rc;                 /* error of new_op() */
};

static int perr(struct parser *ps, const struct tok *t, const char *what)
{
	char token[64];
	size_t n = t ? t->n : 0;
	int off = t ? (int)(t->p - ps->text) : -1;
	int col = 1;
	size_t k = 0;

	/* a NUL byte would end the quoted token; the message escapes the
	 * other bytes that are not text */
	for (size_t i = 0; i < n && k + 5 < sizeof(token); i++) {
		if (t->p[i])
			token[k++] = t->p[i];
		else
			k += (size_t)snprintf(token + k, 5, "\\x00");
	}
	token[k] = '\0';
	if (t)
		for (const char *q = t->p; q > ps->text && q[-1] != '\n'; q--)
			col++;
	if (!t)
		return pmu__error(ps->err, -EINVAL, PMU_ERR_SYNTAX, NULL, -1,
				  "line %d: %s", ps->line, what);
	return pmu__error(ps->err, -EINVAL, PMU_ERR_SYNTAX, token, off,
			  "line %d, column %d: %s '%s'", ps->line, col, what,
			  token);
}

static bool tok_is(const struct tok *t, const char *word)
{
	size_t n = strlen(word);

	return t->n == n && !memcmp(t->p, word, n);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decimal or 0x-hex, 64 bits, nothing else: 0, -EINVAL (not a number)
 * or -ERANGE (more than 64 bits). */
static int parse_u64(const char *p, size_t n, uint64_t *out)
{
	unsigned base = 10;
	uint64_t v = 0;

	if (n > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
		n -= 2;
	}
	if (n == 0)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		int d = hexval(p[i]);

		if (d < 0 || (unsigned)d >= base)
			return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t d = (uint64_t)hexval(p[i]);

		if (v > (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

static int num(struct parser *ps, const struct tok *t, uint64_t max,
	       uint64_t *out)
{
	int r = parse_u64(t->p, t->n, out);

	if (r == -ERANGE)
		return perr(ps, t, "number out of range (more than 64 bits)");
	if (r)
		return perr(ps, t, "not a number (decimal or 0x-hex)");
	if (*out > max)
		return perr(ps, t, "number out of range");
	return 0;
}

/* Split "key=value"; the value token points after '='. */
static bool split_kv(const struct tok *t, struct tok *key, struct tok *val)
{
	const char *eq = memchr(t->p, '=', t->n);

	if (!eq)
		return false;
	key->p = t->p;
	key->n = (size_t)(eq - t->p);
	val->p = eq + 1;
	val->n = t->n - key->n - 1;
	return true;
}

static struct pmu__stream_op *new_op(struct parser *ps, enum pmu__stream_kind k)
{
	struct pmu__stream *s = ps->s;
	struct pmu__stream_op *op;

	if (s->nops == PMU_STREAM_MAX_OPS) {
		ps->rc = pmu__error(ps->err, -EINVAL, PMU_ERR_BAD_VALUE, NULL,
				    -1, "line %d: more than %u statements",
				    ps->line, PMU_STREAM_MAX_OPS);
		return NULL;
	}
	if (s->nops == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		void *p = realloc(s->ops, cap * sizeof(*s->ops));

		if (!p) {
			ps->rc = pmu__error(ps->err, -ENOMEM, PMU_ERR_SYSTEM,
					    NULL, -1, "out of memory");
			return NULL;
		}
		s->ops = p;
		s->cap = cap;
	}
	op = &s->ops[s->nops++];
	memset(op, 0, sizeof(*op));
	op->kind = (uint8_t)k;
	op->line = ps->line;
	return op;
}

#define NEW_OP(ps, k, op) \
	do { if (!((op) = new_op((ps), (k)))) return (ps)->rc; } while (0)

static int want_args(struct parser *ps, int min, int max)
{
	if (ps->nt - 1 < min)
		return perr(ps, &ps->t[0], "missing operand after");
	if (ps->nt - 1 > max)
		return perr(ps, &ps->t[max + 1], "unexpected");
	return 0;
}

static int event_opt(struct parser *ps, const struct tok *t, uint64_t *umask,
		     uint64_t *escr)
{
	struct tok k, v;

	if (!split_kv(t, &k, &v))
		return perr(ps, t, "expected umask=N or escr=N, got");
	if (tok_is(&k, "umask"))
		return num(ps, &v, 0xFFFF, umask);
	if (tok_is(&k, "escr")) {
		int err = num(ps, &v, 0x3E1, escr);

		if (!err && *escr < 0x3A0)
			return perr(ps, &v, "ESCR address outside 0x3a0-0x3e1:");
		return err;
	}
	return perr(ps, &k, "unknown event option");
}

/* event CODE [N] [umask=U] [escr=ADDR] */
static int st_event(struct parser *ps)
{
	uint64_t code, n = 1, umask = 0, escr = 0;
	struct pmu__stream_op *op;
	int err, i = 2;

	if ((err = want_args(ps, 1, 4)) || (err = num(ps, &ps->t[1], 0xFFF, &code)))
		return err;
	if (ps->nt > 2 && !memchr(ps->t[2].p, '=', ps->t[2].n)) {
		if ((err = num(ps, &ps->t[2], INT64_MAX, &n)))
			return err;
		i = 3;
	}
	for (; i < ps->nt; i++)
		if ((err = event_opt(ps, &ps->t[i], &umask, &escr)))
			return err;
	if (escr && code > 0x3F)
		return perr(ps, &ps->t[1], "P4 event select is 6 bits:");
	NEW_OP(ps, PMU_STREAM_EVENT, op);
	op->key = escr ? PMU_SIM_P4_KEY(escr, code) : (uint32_t)code;
	op->umask = (uint32_t)umask;
	op->n = n;
	return 0;
}

/* fetch [N] / op [N]: IBS pseudo events */
static int st_pseudo(struct parser *ps, uint32_t key)
{
	struct pmu__stream_op *op;
	uint64_t n = 1;
	int err;

	if ((err = want_args(ps, 0, 1)))
		return err;
	if (ps->nt == 2 && (err = num(ps, &ps->t[1], INT64_MAX, &n)))
		return err;
	NEW_OP(ps, PMU_STREAM_EVENT, op);
	op->key = key;
	op->n = n;
	return 0;
}

static int st_value(struct parser *ps, enum pmu__stream_kind k, uint64_t max)
{
	struct pmu__stream_op *op;
	uint64_t v;
	int err;

	if ((err = want_args(ps, 1, 1)) || (err = num(ps, &ps->t[1], max, &v)))
		return err;
	NEW_OP(ps, k, op);
	op->n = v;
	return 0;
}

static int st_mode(struct parser *ps)
{
	struct pmu__stream_op *op;
	int err, kernel;

	if ((err = want_args(ps, 1, 1)))
		return err;
	if (tok_is(&ps->t[1], "user"))
		kernel = 0;
	else if (tok_is(&ps->t[1], "kernel"))
		kernel = 1;
	else
		return perr(ps, &ps->t[1], "mode is 'user' or 'kernel', not");
	NEW_OP(ps, PMU_STREAM_MODE, op);
	op->n = kernel ? PMU_SIM_KERNEL : PMU_SIM_USER;
	return 0;
}

static int st_plain(struct parser *ps, enum pmu__stream_kind k)
{
	struct pmu__stream_op *op;
	int err;

	if ((err = want_args(ps, 0, 0)))
		return err;
	NEW_OP(ps, k, op);
	return 0;
}

/* wrmsr / mtspr / mcr ADDR VALUE */
static int st_reg(struct parser *ps, enum pmu_sim_reg_kind kind)
{
	struct pmu__stream_op *op;
	uint64_t addr, v;
	int err;

	if ((err = want_args(ps, 2, 2)) ||
	    (err = num(ps, &ps->t[1], UINT32_MAX, &addr)) ||
	    (err = num(ps, &ps->t[2], UINT64_MAX, &v)))
		return err;
	NEW_OP(ps, PMU_STREAM_REG, op);
	op->reg_kind = (uint8_t)kind;
	op->addr = (uint32_t)addr;
	op->n = v;
	return 0;
}

/* Names of the IBS words aux0..aux4 (the index is the aux slot). */
static const char *const ibs_aux[5] = {
	[PMU_IBS_AUX_OP_DATA] = "op_data1",
	[PMU_IBS_AUX_OP_DATA2] = "op_data2",
	[PMU_IBS_AUX_OP_DATA3] = "op_data3",
	[PMU_IBS_AUX_FETCH_PHYS] = "fetch_phys",
	[PMU_IBS_AUX_FETCH_STATUS] = "fetch_status",
};

static uint64_t *snap_field(struct pmu__sim_snapshot *sn, const struct tok *k)
{
	static const char *const gpr[2][8] = {
		{ "eax", "ebx", "ecx", "edx", "esi", "edi", "ebp", "esp" },
		{ "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp" },
	};
	char name[8];

	for (int i = 0; i < 8; i++)
		if (tok_is(k, gpr[0][i]) || tok_is(k, gpr[1][i]))
			return &sn->gpr[i];
	for (int i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "r%d", 8 + i);
		if (tok_is(k, name))
			return &sn->gpr[8 + i];
		snprintf(name, sizeof(name), "aux%d", i);
		if (tok_is(k, name))
			return &sn->aux[i];
	}
	for (int i = 0; i < 5; i++)
		if (tok_is(k, ibs_aux[i]))
			return &sn->aux[i];
	if (tok_is(k, "ip"))
		return &sn->ip;
	if (tok_is(k, "flags"))
		return &sn->flags;
	if (tok_is(k, "data"))
		return &sn->data_addr;
	if (tok_is(k, "phys"))
		return &sn->phys_addr;
	return NULL;
}

static struct pmu__sim_snapshot *new_snap(struct parser *ps)
{
	struct pmu__stream *s = ps->s;

	if (s->nsnaps == s->snapcap) {
		size_t cap = s->snapcap ? 2 * s->snapcap : 16;
		void *p = realloc(s->snaps, cap * sizeof(*s->snaps));

		if (!p)
			return NULL;
		s->snaps = p;
		s->snapcap = cap;
	}
	memset(&s->snaps[s->nsnaps], 0, sizeof(s->snaps[0]));
	return &s->snaps[s->nsnaps++];
}

/* snapshot ip=.. flags=.. eax=.. data=..: unnamed fields are 0. */
static int st_snapshot(struct parser *ps)
{
	struct pmu__sim_snapshot *sn;
	struct pmu__stream_op *op;
	int err;

	if (ps->nt - 1 > PMU_SIM_NGPR + PMU_SIM_NAUX + 4)
		return perr(ps, &ps->t[0], "too many fields after");
	if (!(sn = new_snap(ps)))
		return pmu__error(ps->err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	for (int i = 1; i < ps->nt; i++) {
		struct tok k, v;
		uint64_t *f;

		if (!split_kv(&ps->t[i], &k, &v))
			return perr(ps, &ps->t[i], "expected field=value, got");
		if (!(f = snap_field(sn, &k)))
			return perr(ps, &k, "unknown snapshot field");
		if ((err = num(ps, &v, UINT64_MAX, f)))
			return err;
	}
	NEW_OP(ps, PMU_STREAM_SNAPSHOT, op);
	op->snap = (uint32_t)(ps->s->nsnaps - 1);
	return 0;
}

/* cnt_reset=V or cnt_reset=-N: a 40-bit counter value, -N meaning the
 * value that overflows after N events. */
static int pebs_reset(struct parser *ps, const struct tok *v, uint64_t *out)
{
	struct tok mag = *v;
	int err;

	if (mag.n && mag.p[0] == '-') {
		mag.p++;
		mag.n--;
	}
	if ((err = num(ps, &mag, PMU_STREAM_PEBS_CTR_MASK + (mag.p != v->p), out)))
		return err;
	if (mag.p != v->p) {
		if (*out == 0)
			return perr(ps, v, "cnt_reset=-N needs N > 0:");
		*out = (0 - *out) & PMU_STREAM_PEBS_CTR_MASK;
	}
	return 0;
}

static int pebs_field(struct parser *ps, const struct tok *t)
{
	struct pmu__stream_pebs *pb = &ps->s->pebs;
	struct tok k, v;
	int err;

	if (!split_kv(t, &k, &v))
		return perr(ps, t, "expected field=value, got");
	if (tok_is(&k, "buf_size")) {
		if ((err = num(ps, &v, PMU_STREAM_PEBS_MAX_BUF, &pb->buf_size)))
			return err;
		if (pb->buf_size < PMU_STREAM_PEBS_MIN_BUF)
			return perr(ps, &v, "PEBS buf_size is at least 400 bytes, not");
		pb->has_buf_size = true;
	} else if (tok_is(&k, "intr_thres")) {
		pb->has_intr_thres = true;
		return num(ps, &v, UINT32_MAX, &pb->intr_thres);
	} else if (tok_is(&k, "cnt_reset")) {
		pb->has_cnt_reset = true;
		return pebs_reset(ps, &v, &pb->cnt_reset);
	} else {
		return perr(ps, &k, "unknown pebs field");
	}
	return 0;
}

/* pebs [buf_size=B] [intr_thres=N] [cnt_reset=V]: a header statement. */
static int st_pebs(struct parser *ps)
{
	int err;

	if (ps->s->pebs.given)
		return perr(ps, &ps->t[0], "only one pebs statement is allowed:");
	if (ps->s->nops)
		return perr(ps, &ps->t[0],
			    "pebs must come before the first other statement:");
	if ((err = want_args(ps, 0, 3)))
		return err;
	ps->s->pebs.given = true;
	ps->s->pebs.line = ps->line;
	for (int i = 1; i < ps->nt; i++)
		if ((err = pebs_field(ps, &ps->t[i])))
			return err;
	return 0;
}

/* repeat N { */
static int st_repeat(struct parser *ps)
{
	struct pmu__stream_op *op;
	uint64_t n;
	int err;

	if ((err = want_args(ps, 2, 2)) ||
	    (err = num(ps, &ps->t[1], UINT32_MAX, &n)))
		return err;
	if (!tok_is(&ps->t[2], "{"))
		return perr(ps, &ps->t[2], "expected '{', got");
	if (ps->depth == PMU_STREAM_MAX_DEPTH)
		return perr(ps, &ps->t[0], "repeat nested too deeply:");
	NEW_OP(ps, PMU_STREAM_REPEAT, op);
	op->n = n;
	ps->stack[ps->depth++] = (uint32_t)(ps->s->nops - 1);
	return 0;
}

static int st_close(struct parser *ps)
{
	struct pmu__stream_op *op;
	uint32_t open;
	int err;

	if ((err = want_args(ps, 0, 0)))
		return err;
	if (ps->depth == 0)
		return perr(ps, &ps->t[0], "no open repeat for");
	open = ps->stack[--ps->depth];
	NEW_OP(ps, PMU_STREAM_END, op);
	op->jump = open;
	ps->s->ops[open].jump = (uint32_t)(ps->s->nops - 1);
	return 0;
}

/* region begin NAME / region end NAME: a marked region of the stream
 * (the session's region callback, if any, reads its counters there). */
static int st_region(struct parser *ps)
{
	struct pmu__stream_op *op;
	const struct tok *name = &ps->t[2];
	bool begin;
	int err;

	if ((err = want_args(ps, 2, 2)))
		return err;
	begin = tok_is(&ps->t[1], "begin");
	if (!begin && !tok_is(&ps->t[1], "end"))
		return perr(ps, &ps->t[1], "expected 'begin' or 'end', got");
	if (name->n >= PMU_STREAM_REGION_NAME_MAX)
		return perr(ps, name, "a region name is at most 127 bytes:");
	if (ps->s->nnames == ps->s->namecap) {
		size_t cap = ps->s->namecap ? ps->s->namecap * 2 : 8;
		char **v = realloc(ps->s->names, cap * sizeof(*v));

		if (!v)
			return pmu__error(ps->err, -ENOMEM, PMU_ERR_SYSTEM, NULL,
					  -1, "out of memory");
		ps->s->names = v;
		ps->s->namecap = cap;
	}
	if (!(ps->s->names[ps->s->nnames] = strndup(name->p, name->n)))
		return pmu__error(ps->err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	NEW_OP(ps, PMU_STREAM_REGION, op);
	op->n = begin;
	op->snap = (uint32_t)ps->s->nnames++;
	return 0;
}

static int statement(struct parser *ps)
{
	const struct tok *w = &ps->t[0];

	if (tok_is(w, "event"))
		return st_event(ps);
	if (tok_is(w, "cycles"))
		return st_value(ps, PMU_STREAM_CYCLES, INT64_MAX);
	if (tok_is(w, "mode"))
		return st_mode(ps);
	if (tok_is(w, "pmm"))
		return st_value(ps, PMU_STREAM_PMM, 1);
	if (tok_is(w, "ip"))
		return st_value(ps, PMU_STREAM_IP, UINT64_MAX);
	if (tok_is(w, "snapshot"))
		return st_snapshot(ps);
	if (tok_is(w, "sample"))
		return st_plain(ps, PMU_STREAM_SAMPLE);
	if (tok_is(w, "suspend"))
		return st_plain(ps, PMU_STREAM_SUSPEND);
	if (tok_is(w, "resume"))
		return st_plain(ps, PMU_STREAM_RESUME);
	if (tok_is(w, "fetch"))
		return st_pseudo(ps, PMU_SIM_KEY_FETCH);
	if (tok_is(w, "op"))
		return st_pseudo(ps, PMU_SIM_KEY_OP);
	if (tok_is(w, "wrmsr"))
		return st_reg(ps, PMU_SIM_REG_MSR);
	if (tok_is(w, "mtspr"))
		return st_reg(ps, PMU_SIM_REG_SPR);
	if (tok_is(w, "mcr"))
		return st_reg(ps, PMU_SIM_REG_CP14);
	if (tok_is(w, "repeat"))
		return st_repeat(ps);
	if (tok_is(w, "pebs"))
		return st_pebs(ps);
	if (tok_is(w, "}"))
		return st_close(ps);
	if (tok_is(w, "region"))
		return st_region(ps);
	return perr(ps, w, "unknown statement");
}

/* Tokens of one line [p, end); stops at '#'. */
static int tokenize(struct parser *ps, const char *p, const char *end)
{
	ps->nt = 0;
	while (p < end && *p != '#') {
		const char *start;

		if (*p == ' ' || *p == '\t' || *p == '\r') {
			p++;
			continue;
		}
		start = p;
		while (p < end && *p != ' ' && *p != '\t' && *p != '\r' &&
		       *p != '#')
			p++;
		if (ps->nt == MAX_TOKENS) {
			struct tok t = { start, (size_t)(p - start) };

			return perr(ps, &t, "too many tokens at");
		}
		ps->t[ps->nt].p = start;
		ps->t[ps->nt++].n = (size_t)(p - start);
	}
	return 0;
}

static int check_bytes(struct parser *ps, const char *p, const char *end)
{
	for (const char *q = p; q < end; q++) {
		unsigned char c = (unsigned char)*q;

		if (c == 0 || (c < 0x20 && c != '\t' && c != '\r') || c >= 0x7F) {
			struct tok t = { q, 1 };

			return perr(ps, &t, "unexpected byte");
		}
	}
	return 0;
}

int pmu__stream_parse(const char *text, size_t len, struct pmu__stream *s,
		      struct pmu_error *err)
{
	struct parser ps = { .text = text, .s = s, .err = err };
	const char *p = text, *end = text + len;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	pmu__error_clear(err);
	while (p < end && !rc) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		ps.line++;
		rc = check_bytes(&ps, p, eol);
		if (!rc)
			rc = tokenize(&ps, p, eol);
		if (!rc && ps.nt)
			rc = statement(&ps);
		p = nl ? nl + 1 : end;
	}
	if (!rc && ps.depth)
		rc = pmu__error(err, -EINVAL, PMU_ERR_SYNTAX, "repeat", -1,
				"line %d: repeat opened on line %d is not closed",
				ps.line, s->ops[ps.stack[ps.depth - 1]].line);
	return rc;
}

void pmu__stream_free(struct pmu__stream *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nnames; i++)
		free(s->names[i]);
	free(s->names);
	free(s->ops);
	free(s->snaps);
	memset(s, 0, sizeof(*s));
}
