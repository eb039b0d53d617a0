/* SPDX-License-Identifier: MIT */
/*
 * A tracepoint's print fmt, run as perf runs it: the format string's
 * conversions, each given an argument that is a C expression over the
 * record's fields (REC->name): numbers, strings, casts, the unary,
 * binary and conditional operators, and the kernel's helpers
 * __get_str(), __print_flags() and __print_symbolic(); %pS and %ps name
 * a kernel function by the caller's symbols, %pI4, %pI6c, %pISpc, %pU
 * and %pM print an array field's bytes as the kernel does.  A print fmt
 * with another helper or conversion is not compiled: its records are
 * printed by field.
 *
 * The arguments are read as C reads them (precedence, casts to a
 * type's width and sign); a conversion prints its argument at its own
 * length (none: int, l: long, ll: long long, h: short, hh: char).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "profile/pd_trace.h"

#define MAX_DEPTH 256           /* parentheses nest up to about half */

enum op {
	E_NUM, E_STR, E_FIELD, E_CAST, E_NEG, E_NOT, E_BNOT, E_BIN, E_COND,
	E_FLAGS, E_SYMB, E_ELEM,
};

/* binary operators, by the characters that spell them */
enum bop {
	B_LOR, B_LAND, B_OR, B_XOR, B_AND, B_EQ, B_NE, B_LT, B_LE, B_GT,
	B_GE, B_SHL, B_SHR, B_ADD, B_SUB, B_MUL, B_DIV, B_MOD,
};

static const struct {
	const char *s;
	int prec;
} bops[] = {
	[B_LOR] = { "||", 1 }, [B_LAND] = { "&&", 2 }, [B_OR] = { "|", 3 },
	[B_XOR] = { "^", 4 }, [B_AND] = { "&", 5 }, [B_EQ] = { "==", 6 },
	[B_NE] = { "!=", 6 }, [B_LT] = { "<", 7 }, [B_LE] = { "<=", 7 },
	[B_GT] = { ">", 7 }, [B_GE] = { ">=", 7 }, [B_SHL] = { "<<", 8 },
	[B_SHR] = { ">>", 8 }, [B_ADD] = { "+", 9 }, [B_SUB] = { "-", 9 },
	[B_MUL] = { "*", 10 }, [B_DIV] = { "/", 10 }, [B_MOD] = { "%", 10 },
};

struct sym {
	uint64_t v;
	char *s;
};

struct expr {
	enum op op;
	enum bop bop;
	uint64_t num;
	bool sgn;               /* E_NUM, E_CAST: signed */
	unsigned size;          /* E_CAST: bytes, 0 unchanged; 9: bool */
	char *str;              /* E_STR; E_FLAGS: the delimiter */
	size_t field;           /* E_FIELD, E_ELEM (index: num) */
	struct expr *a, *b, *c;
	struct sym *sym;
	size_t nsym;
};

/* One conversion: the text before it, then its argument printed by
 * spec ("%-8" flags, width, precision), len and conv; conv 0 ends the
 * format with its text only. */
struct conv {
	char *text;
	size_t ntext;
	char spec[24];
	int len;                /* -2 hh, -1 h, 0, 1 l, 2 ll */
	char conv;
	char pext[5];           /* %pS %ps %pF %pf: a function's name;
				 * %pI4 %pI6 %pI6c %pISpc %pU %pM: an array
				 * field's bytes as an address; "": none */
	struct expr *arg;
};

struct pd_fmt {
	struct conv *c;
	size_t n;
};

/* ---- parsing ---- */

struct ps {
	const char *p;
	const struct pd_tp *tp;
	int depth;
	bool bad;
};

static void expr_free(struct expr *e)
{
	if (!e)
		return;
	expr_free(e->a);
	expr_free(e->b);
	expr_free(e->c);
	free(e->str);
	for (size_t i = 0; i < e->nsym; i++)
		free(e->sym[i].s);
	free(e->sym);
	free(e);
}

static struct expr *node(struct ps *s, enum op op)
{
	struct expr *e = calloc(1, sizeof(*e));

	if (!e)
		s->bad = true;
	else
		e->op = op;
	return e;
}

static void skip(struct ps *s)
{
	while (*s->p == ' ' || *s->p == '\t')
		s->p++;
}

static bool take_ch(struct ps *s, char c)
{
	skip(s);
	if (*s->p != c)
		return false;
	s->p++;
	return true;
}

static bool expect(struct ps *s, char c)
{
	if (!take_ch(s, c))
		s->bad = true;
	return !s->bad;
}

static bool ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

static size_t ident_len(const char *p)
{
	size_t n = 0;

	if (*p >= '0' && *p <= '9')
		return 0;
	while (ident_char(p[n]))
		n++;
	return n;
}

/* A C string literal at s->p, adjacent ones joined, its escapes made
 * bytes (control bytes '.' where one_line: a name printed any number of
 * times keeps a record on its line); NULL (and bad) when there is none. */
static char *string_lit(struct ps *s, size_t *len, bool one_line)
{
	size_t cap = 16, n = 0;
	char *out = malloc(cap);

	if (!out) {
		s->bad = true;
		return NULL;
	}
	skip(s);
	if (*s->p != '"')
		s->bad = true;
	while (!s->bad && *s->p == '"') {
		for (s->p++; *s->p && *s->p != '"'; s->p++) {
			char c = *s->p;

			if (c == '\\' && s->p[1]) {
				c = *++s->p;
				c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
			}
			if (one_line && (unsigned char)c < 0x20)
				c = '.';
			if (n + 2 > cap) {
				char *v = realloc(out, cap *= 2);

				if (!v) {
					s->bad = true;
					break;
				}
				out = v;
			}
			out[n++] = c;
		}
		if (*s->p != '"')
			s->bad = true;
		else
			s->p++;
		skip(s);
	}
	if (s->bad) {
		free(out);
		return NULL;
	}
	out[n] = '\0';
	*len = n;
	return out;
}

/* A parenthesised type at s->p (past the '('), as a cast: its width in
 * bytes (0: unchanged, 9: bool) and sign.  False, s->p unmoved, when
 * the parentheses hold something else. */
static bool cast_type(struct ps *s, unsigned *size, bool *sgn)
{
	static const struct {
		const char *w;
		unsigned size;
		int sgn;        /* 1 signed, 0 unsigned, -1 as the rest says */
	} words[] = {
		{ "char", 1, -1 }, { "short", 2, -1 }, { "int", 4, -1 },
		{ "long", 8, -1 }, { "unsigned", 0, 0 }, { "signed", 0, 1 },
		{ "bool", 9, 0 }, { "_Bool", 9, 0 }, { "u8", 1, 0 },
		{ "u16", 2, 0 }, { "u32", 4, 0 }, { "u64", 8, 0 },
		{ "s8", 1, 1 }, { "s16", 2, 1 }, { "s32", 4, 1 },
		{ "s64", 8, 1 }, { "__u8", 1, 0 }, { "__u16", 2, 0 },
		{ "__u32", 4, 0 }, { "__u64", 8, 0 }, { "__s8", 1, 1 },
		{ "__s16", 2, 1 }, { "__s32", 4, 1 }, { "__s64", 8, 1 },
		{ "size_t", 8, 0 }, { "ssize_t", 8, 1 }, { "loff_t", 8, 1 },
		{ "pid_t", 4, 1 }, { "gfp_t", 4, 0 }, { "umode_t", 2, 0 },
		{ "dev_t", 4, 0 }, { "const", 0, -1 }, { "volatile", 0, -1 },
		{ "void", 0, -1 },
	};
	const char *p = s->p;
	unsigned sz = 0;
	int sign = -1, nword = 0;
	bool ptr = false, agg = false;

	for (;;) {
		size_t n, k;

		while (*p == ' ')
			p++;
		if (*p == ')')
			break;
		if (*p == '*') {
			ptr = true;
			p++;
			continue;
		}
		if (ptr || !(n = ident_len(p)))
			return false;
		if ((n == 6 && (!strncmp(p, "struct", 6))) ||
		    (n == 4 && !strncmp(p, "enum", 4)) ||
		    (n == 5 && !strncmp(p, "union", 5))) {
			p += n;
			while (*p == ' ')
				p++;
			if (!(n = ident_len(p)))
				return false;
			agg = true;
		} else {
			for (k = 0; k < sizeof(words) / sizeof(words[0]); k++)
				if (strlen(words[k].w) == n &&
				    !strncmp(p, words[k].w, n))
					break;
			if (k < sizeof(words) / sizeof(words[0])) {
				/* "long long" and "long int" stay 8 */
				if (words[k].size && !(sz == 8 && words[k].size == 4))
					sz = words[k].size;
				if (words[k].sgn >= 0)
					sign = words[k].sgn;
			} else if (n < 2 || strncmp(p + n - 2, "_t", 2)) {
				return false;   /* a name, not a type */
			}
		}
		nword++;
		p += n;
	}
	if (!nword || (agg && !ptr))
		return false;
	if (ptr) {
		sz = 8;
		sign = 0;
	} else if (!sz && sign >= 0) {
		sz = 4;                 /* "unsigned", "signed" */
	}
	*size = sz;
	*sgn = sign != 0;
	s->p = p + 1;
	return true;
}

static struct expr *cond(struct ps *s);
static struct expr *unary(struct ps *s);

/* The field named by the n bytes at name, or -1. */
static ssize_t field_at(const struct pd_tp *tp, const char *name, size_t n)
{
	for (size_t i = 0; n && i < tp->nfield; i++)
		if (strlen(tp->field[i].name) == n &&
		    !strncmp(tp->field[i].name, name, n))
			return (ssize_t)i;
	return -1;
}

/* The few names a format may hold that perf knows by value. */
static bool known_name(const char *name, size_t n, uint64_t *v)
{
	static const struct {
		const char *name;
		uint64_t v;
	} known[] = {
		{ "HI_SOFTIRQ", 0 }, { "TIMER_SOFTIRQ", 1 },
		{ "NET_TX_SOFTIRQ", 2 }, { "NET_RX_SOFTIRQ", 3 },
		{ "BLOCK_SOFTIRQ", 4 }, { "IRQ_POLL_SOFTIRQ", 5 },
		{ "TASKLET_SOFTIRQ", 6 }, { "SCHED_SOFTIRQ", 7 },
		{ "HRTIMER_SOFTIRQ", 8 }, { "RCU_SOFTIRQ", 9 },
		{ "HRTIMER_NORESTART", 0 }, { "HRTIMER_RESTART", 1 },
	};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strlen(known[i].name) == n && !strncmp(known[i].name, name, n)) {
			*v = known[i].v;
			return true;
		}
	return false;
}

/* A __print_symbolic() entry whose value is a bare name (an enum the
 * kernel did not turn into a number): it never matches, as with perf
 * (in __print_flags() such a name is 0, as anywhere else). */
static bool bare_name(struct ps *s)
{
	const char *p = (skip(s), s->p);
	size_t n = ident_len(p);
	uint64_t v;

	if (!n || known_name(p, n, &v))
		return false;
	p += n;
	while (*p == ' ')
		p++;
	if (*p != ',')
		return false;
	s->p = p;
	return true;
}

/* { VALUE, "name" }, ... to the closing parenthesis; an entry whose name
 * is NULL ((void *)0, the kernel's end of a table) is left out. */
static void sym_list(struct ps *s, struct expr *e)
{
	while (!s->bad && take_ch(s, ',')) {
		struct expr *v = NULL;
		struct sym *ns;
		bool never;
		size_t n;

		if (!expect(s, '{'))
			return;
		never = e->op == E_SYMB && bare_name(s);
		if (!never && !(v = cond(s)))
			return;
		if (v && v->op != E_NUM) {   /* a constant, folded */
			expr_free(v);
			s->bad = true;
			return;
		}
		if (!(ns = realloc(e->sym, (e->nsym + 1) * sizeof(*ns)))) {
			expr_free(v);
			s->bad = true;
			return;
		}
		e->sym = ns;
		ns[e->nsym].v = v ? v->num : 0;
		expr_free(v);
		if (!expect(s, ','))
			return;
		skip(s);
		if (*s->p == '"') {
			if (!(ns[e->nsym].s = string_lit(s, &n, true)))
				return;
			if (never)
				free(ns[e->nsym].s);
			else
				e->nsym++;
		} else {
			/* no name: must be a null pointer */
			if (!(v = cond(s)))
				return;
			if (v->op != E_NUM || v->num) {
				expr_free(v);
				s->bad = true;
				return;
			}
			expr_free(v);
		}
		expect(s, '}');
	}
}

/* NAME( ... ): the helpers perf runs */
static struct expr *call(struct ps *s, const char *name, size_t n)
{
	struct expr *e = NULL;
	size_t len;

#define IS(lit) (n == sizeof(lit) - 1 && !strncmp(name, lit, n))
	if (IS("__get_str")) {
		size_t k = (skip(s), ident_len(s->p));
		ssize_t i = field_at(s->tp, s->p, k);

		if (i < 0 || !s->tp->field[i].str || !(e = node(s, E_FIELD)))
			goto bad;
		e->field = (size_t)i;
		s->p += k;
	} else if (IS("__print_flags") || IS("__print_flags_u64")) {
		if (!(e = node(s, E_FLAGS)) || !(e->a = cond(s)) ||
		    !expect(s, ',') || !(e->str = string_lit(s, &len, true)))
			goto bad;
		sym_list(s, e);
	} else if (IS("__print_symbolic") || IS("__print_symbolic_u64")) {
		if (!(e = node(s, E_SYMB)) || !(e->a = cond(s)))
			goto bad;
		sym_list(s, e);
	} else if (IS("__builtin_expect")) {
		struct expr *hint;

		if (!(e = cond(s)) || !expect(s, ',') || !(hint = cond(s)))
			goto bad;
		expr_free(hint);
	} else {
		goto bad;
	}
#undef IS
	if (expect(s, ')'))
		return e;
bad:
	s->bad = true;
	expr_free(e);
	return NULL;
}

/* A number; its suffixes U and L; a character constant. */
static struct expr *number(struct ps *s)
{
	struct expr *e = node(s, E_NUM);
	char *end;

	if (!e)
		return NULL;
	e->sgn = true;
	if (*s->p == '\'') {
		if (!s->p[1] || s->p[2] != '\'') {
			s->bad = true;
			free(e);
			return NULL;
		}
		e->num = (uint64_t)(unsigned char)s->p[1];
		s->p += 3;
		return e;
	}
	errno = 0;
	e->num = strtoull(s->p, &end, 0);
	if (errno || end == s->p) {
		s->bad = true;
		free(e);
		return NULL;
	}
	for (s->p = end; strchr("uUlL", *s->p) && *s->p; s->p++)
		if (*s->p == 'u' || *s->p == 'U')
			e->sgn = false;
	if (ident_char(*s->p)) {
		s->bad = true;
		free(e);
		return NULL;
	}
	return e;
}

/* A name the kernel left in the format (an enum without
 * TRACE_DEFINE_ENUM, a kernel variable): one perf knows by its value,
 * every other one 0, as perf reads them. */
static struct expr *bare(struct ps *s, const char *name, size_t n)
{
	struct expr *e = node(s, E_NUM);

	if (!e)
		return NULL;
	e->sgn = true;
	known_name(name, n, &e->num);      /* else 0, as node() left it */
	return e;
}

/* REC->array[INDEX]: an element, its index a constant. */
static struct expr *element(struct ps *s, struct expr *e)
{
	const struct pd_tp_field *f = &s->tp->field[e->field];
	struct expr *ix;

	s->p++;
	if (!f->count || f->str || !(ix = cond(s))) {
		s->bad = true;
		free(e);
		return NULL;
	}
	e->op = E_ELEM;
	e->num = ix->num;
	if (ix->op != E_NUM || ix->num >= f->count || !expect(s, ']')) {
		s->bad = true;
		expr_free(ix);
		free(e);
		return NULL;
	}
	expr_free(ix);
	return e;
}

static struct expr *primary(struct ps *s)
{
	struct expr *e;
	size_t n;

	skip(s);
	if ((*s->p >= '0' && *s->p <= '9') || *s->p == '\'')
		return number(s);
	if (*s->p == '"') {
		if (!(e = node(s, E_STR)) || !(e->str = string_lit(s, &n, true))) {
			expr_free(e);
			return NULL;
		}
		return e;
	}
	if (!strncmp(s->p, "REC->", 5)) {
		ssize_t i;

		s->p += 5;
		n = ident_len(s->p);
		if ((i = field_at(s->tp, s->p, n)) < 0 ||
		    !(e = node(s, E_FIELD))) {
			s->bad = true;
			return NULL;
		}
		e->field = (size_t)i;
		s->p += n;
		skip(s);
		if (*s->p == '[')
			return element(s, e);
		/* a member of a struct field: not run */
		if (*s->p == '.' || !strncmp(s->p, "->", 2)) {
			s->bad = true;
			free(e);
			return NULL;
		}
		return e;
	}
	if ((n = ident_len(s->p))) {
		const char *name = s->p;

		s->p += n;
		if (take_ch(s, '('))
			return call(s, name, n);
		return bare(s, name, n);
	}
	s->bad = true;
	return NULL;
}

/* Constants folded as the expression is read, so that the values of
 * __print_flags() and __print_symbolic() tables are numbers. */
static int eval_num(const struct expr *e, uint64_t *v, bool *sgn);

static struct expr *fold(struct expr *e)
{
	uint64_t v;
	bool sgn;

	if (!e || e->op == E_NUM || e->op == E_STR || e->op == E_FIELD ||
	    e->op == E_FLAGS || e->op == E_SYMB || e->op == E_COND)
		return e;
	if ((e->a && e->a->op != E_NUM) || (e->b && e->b->op != E_NUM))
		return e;
	if (eval_num(e, &v, &sgn))
		return e;           /* e.g. a division by 0: left to run */
	expr_free(e->a);
	expr_free(e->b);
	e->a = e->b = NULL;
	e->op = E_NUM;
	e->num = v;
	e->sgn = sgn;
	return e;
}

static struct expr *unary(struct ps *s)
{
	struct expr *e = NULL;
	enum op op;

	if (++s->depth > MAX_DEPTH) {
		s->bad = true;
		return NULL;
	}
	skip(s);
	switch (*s->p) {
	case '-': op = E_NEG; break;
	case '!': op = E_NOT; break;
	case '~': op = E_BNOT; break;
	case '+': s->p++; e = unary(s); goto out;
	case '(': {
		unsigned size;
		bool sgn;

		s->p++;
		if (cast_type(s, &size, &sgn)) {
			if ((e = node(s, E_CAST))) {
				e->size = size;
				e->sgn = sgn;
				if (!(e->a = unary(s))) {
					free(e);
					e = NULL;
				}
			}
		} else if ((e = cond(s)) && !expect(s, ')')) {
			expr_free(e);
			e = NULL;
		}
		goto out;
	}
	default:
		e = primary(s);
		goto out;
	}
	s->p++;
	if ((e = node(s, op)) && !(e->a = unary(s))) {
		free(e);
		e = NULL;
	}
out:
	s->depth--;
	return fold(e);
}

/* The binary operator at p (the longest spelling), or -1. */
static int peek_bop(const char *p)
{
	int best = -1;
	size_t blen = 0;

	for (int i = 0; i < (int)(sizeof(bops) / sizeof(bops[0])); i++) {
		size_t n = strlen(bops[i].s);

		if (n > blen && !strncmp(p, bops[i].s, n)) {
			best = i;
			blen = n;
		}
	}
	return best;
}

static struct expr *binary(struct ps *s, int minprec)
{
	struct expr *lhs = unary(s);

	while (lhs && !s->bad) {
		struct expr *e;
		int op;

		skip(s);
		op = peek_bop(s->p);
		if (op < 0 || bops[op].prec < minprec)
			break;
		s->p += strlen(bops[op].s);
		if (!(e = node(s, E_BIN))) {
			expr_free(lhs);
			return NULL;
		}
		e->bop = (enum bop)op;
		e->a = lhs;
		if (!(e->b = binary(s, bops[op].prec + 1))) {
			expr_free(e);
			return NULL;
		}
		lhs = fold(e);
	}
	if (s->bad) {
		expr_free(lhs);
		return NULL;
	}
	return lhs;
}

static struct expr *cond(struct ps *s)
{
	struct expr *c, *e;

	if (++s->depth > MAX_DEPTH) {
		s->bad = true;
		return NULL;
	}
	c = binary(s, 1);
	if (c && take_ch(s, '?')) {
		if (!(e = node(s, E_COND))) {
			expr_free(c);
			c = NULL;
		} else {
			e->a = c;
			if (!(e->b = cond(s)) || !expect(s, ':') ||
			    !(e->c = cond(s))) {
				expr_free(e);
				e = NULL;
			}
			c = e;
		}
	}
	s->depth--;
	if (s->bad) {
		expr_free(c);
		return NULL;
	}
	return c;
}

/* ---- the format string ---- */

void pmu__pd_fmt_free(struct pd_fmt *f)
{
	for (size_t i = 0; f && i < f->n; i++) {
		free(f->c[i].text);
		expr_free(f->c[i].arg);
	}
	if (f)
		free(f->c);
	free(f);
}

static int add_conv(struct pd_fmt *f, const char *text, size_t ntext)
{
	struct conv *v = realloc(f->c, (f->n + 1) * sizeof(*v));

	if (!v)
		return -1;
	f->c = v;
	memset(&v[f->n], 0, sizeof(v[f->n]));
	if (!(v[f->n].text = malloc(ntext + 1)))
		return -1;
	memcpy(v[f->n].text, text, ntext);
	v[f->n].text[ntext] = '\0';
	v[f->n].ntext = ntext;
	f->n++;
	return 0;
}

/* The conversions of the format string fs, with the text between. */
static int split_format(struct pd_fmt *f, const char *fs, size_t len)
{
	size_t start = 0, i = 0;

	while (i < len) {
		struct conv *c;
		size_t k = i + 1, sp = 0;
		bool ext = false;
		int l = 0;

		if (fs[i] != '%') {
			i++;
			continue;
		}
		if (fs[k] == '%') {     /* "%%": one '%' of the text */
			if (add_conv(f, fs + start, i + 1 - start))
				return -1;
			f->c[f->n - 1].conv = '%';
			start = i = k + 1;
			continue;
		}
		if (add_conv(f, fs + start, i - start))
			return -1;
		c = &f->c[f->n - 1];
		c->spec[sp++] = '%';
		while (k < len && strchr("-+ #0123456789.", fs[k]) && fs[k] &&
		       sp < sizeof(c->spec) - 1)
			c->spec[sp++] = fs[k++];
		if (k < len && strchr("-+ #0123456789.", fs[k]) && fs[k])
			return -1;          /* a spec too long */
		if (fs[k] == 'h') {
			l = fs[k + 1] == 'h' ? -2 : -1;
			k += fs[k + 1] == 'h' ? 2 : 1;
		} else if (fs[k] == 'l') {
			l = fs[k + 1] == 'l' ? 2 : 1;
			k += fs[k + 1] == 'l' ? 2 : 1;
		} else if (fs[k] == 'L' || fs[k] == 'q' || fs[k] == 'j') {
			l = 2;
			k++;
		} else if (fs[k] == 'z' || fs[k] == 't') {
			l = 1;
			k++;
		}
		if (k >= len || !strchr("diuxXocsp", fs[k]) || !fs[k])
			return -1;
		/* the kernel's own %p extensions: a function's symbol
		 * (%pS %ps %pF %pf) and the plain pointers (%pK %px) are
		 * run; addresses, UUIDs (%pI4, %pU...) are not */
		if (fs[k] == 'p' && k + 1 < len && ident_char(fs[k + 1])) {
			static const char *const known[] = {
				"S", "s", "F", "f", "K", "x", "I4", "I6",
				"I6c", "ISpc", "U", "M",
			};
			size_t e = k + 1, nk = sizeof(known) / sizeof(known[0]);

			while (e < len && ident_char(fs[e]))
				e++;
			for (size_t j = 0; j < nk && !ext; j++)
				if (strlen(known[j]) == e - k - 1 &&
				    !strncmp(fs + k + 1, known[j], e - k - 1))
					ext = true;
			if (!ext)
				return -1;
			if (fs[k + 1] != 'K' && fs[k + 1] != 'x')
				memcpy(c->pext, fs + k + 1, e - k - 1);
			k = e - 1;
		}
		c->spec[sp] = '\0';
		c->len = l;
		c->conv = ext ? 'p' : fs[k];
		start = i = k + 1;
	}
	return add_conv(f, fs + start, len - start);
}

static bool bytes_conv(const struct conv *c);

struct pd_fmt *pmu__pd_fmt_compile(const struct pd_tp *tp)
{
	struct ps s = { .tp = tp };
	struct pd_fmt *f;
	char *fs;
	size_t len;

	if (!tp || !tp->fmt)
		return NULL;
	s.p = tp->fmt;
	if (!(fs = string_lit(&s, &len, false)))
		return NULL;
	if (!(f = calloc(1, sizeof(*f))) || split_format(f, fs, len)) {
		free(fs);
		pmu__pd_fmt_free(f);
		return NULL;
	}
	free(fs);
	for (size_t i = 0; i < f->n && !s.bad; i++) {
		if (!f->c[i].conv || f->c[i].conv == '%')
			continue;
		if (expect(&s, ','))
			f->c[i].arg = cond(&s);
		/* an address's bytes: an array field itself */
		if (!s.bad && bytes_conv(&f->c[i]) &&
		    (f->c[i].arg->op != E_FIELD ||
		     !tp->field[f->c[i].arg->field].count))
			s.bad = true;
	}
	skip(&s);
	if (s.bad || *s.p) {        /* arguments left over, or too few */
		pmu__pd_fmt_free(f);
		return NULL;
	}
	return f;
}

/* ---- running it on a record ---- */

struct val {
	bool str;
	uint64_t n;
	bool sgn;
	const char *s;
	size_t slen;
	char *own;              /* a string made here, freed after use */
};

struct run {
	const struct pd_tp *tp;
	const unsigned char *raw;
	size_t size;
};

static void val_done(struct val *v)
{
	free(v->own);
	v->own = NULL;
}

static int eval(const struct run *r, const struct expr *e, struct val *v);

static uint64_t cast_to(uint64_t n, unsigned size, bool sgn)
{
	if (size == 9)
		return n != 0;
	if (size && size < 8) {
		uint64_t m = (1ull << (8 * size)) - 1;

		n &= m;
		if (sgn && (n >> (8 * size - 1)) & 1)
			n |= ~m;
	}
	return n;
}

static int binop(enum bop op, uint64_t a, uint64_t b, bool sgn, uint64_t *out)
{
	int64_t sa = (int64_t)a, sb = (int64_t)b;

	switch (op) {
	case B_OR: *out = a | b; break;
	case B_XOR: *out = a ^ b; break;
	case B_AND: *out = a & b; break;
	case B_EQ: *out = a == b; break;
	case B_NE: *out = a != b; break;
	case B_LT: *out = sgn ? sa < sb : a < b; break;
	case B_LE: *out = sgn ? sa <= sb : a <= b; break;
	case B_GT: *out = sgn ? sa > sb : a > b; break;
	case B_GE: *out = sgn ? sa >= sb : a >= b; break;
	case B_SHL: *out = b >= 64 ? 0 : a << b; break;
	case B_SHR:
		if (b >= 64)
			*out = sgn && sa < 0 ? ~0ull : 0;
		else
			*out = sgn && sa < 0 ? ~(~a >> b) : a >> b;
		break;
	case B_ADD: *out = a + b; break;
	case B_SUB: *out = a - b; break;
	case B_MUL: *out = a * b; break;
	case B_DIV:
	case B_MOD:
		if (!b || (sgn && sa == INT64_MIN && sb == -1))
			return -1;
		if (op == B_DIV)
			*out = sgn ? (uint64_t)(sa / sb) : a / b;
		else
			*out = sgn ? (uint64_t)(sa % sb) : a % b;
		break;
	default:
		return -1;
	}
	return 0;
}

static int eval_num_r(const struct run *r, const struct expr *e, uint64_t *n,
		      bool *sgn)
{
	struct val v = { 0 };
	int rc = eval(r, e, &v);

	if (!rc && v.str)
		rc = -1;
	*n = v.n;
	*sgn = v.sgn;
	val_done(&v);
	return rc;
}

static int eval_num(const struct expr *e, uint64_t *v, bool *sgn)
{
	return eval_num_r(NULL, e, v, sgn);
}

/* __print_flags(): each flag set, by name, joined by the delimiter; bits
 * no name covers as 0x...; 0 by the name of 0, if there is one. */
static char *flags_text(const struct expr *e, uint64_t val)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	bool any = false;

	if (!m)
		return NULL;
	for (size_t i = 0; i < e->nsym; i++) {
		uint64_t fv = e->sym[i].v;

		if (!val && !fv) {
			fputs(e->sym[i].s, m);
			break;
		}
		if (fv && (val & fv) == fv) {
			fprintf(m, "%s%s", any ? e->str : "", e->sym[i].s);
			any = true;
			val &= ~fv;
		}
	}
	if (val)
		fprintf(m, "%s0x%" PRIx64, any ? e->str : "", val);
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static char *symbolic_text(const struct expr *e, uint64_t val)
{
	char *t = NULL;

	for (size_t i = 0; i < e->nsym; i++)
		if (e->sym[i].v == val)
			return strdup(e->sym[i].s);
	if (asprintf(&t, "0x%" PRIx64, val) < 0)
		return NULL;
	return t;
}

static int eval(const struct run *r, const struct expr *e, struct val *v)
{
	uint64_t a, b;
	bool sa, sb;

	memset(v, 0, sizeof(*v));
	switch (e->op) {
	case E_NUM:
		v->n = e->num;
		v->sgn = e->sgn;
		return 0;
	case E_STR:
		v->str = true;
		v->s = e->str;
		v->slen = strlen(e->str);
		return 0;
	case E_FIELD: {
		const struct pd_tp_field *f;

		if (!r)
			return -1;
		f = &r->tp->field[e->field];
		if (!pmu__pd_field_in(f, r->size))
			return -1;
		if (f->str) {
			const unsigned char *p;

			if (pmu__pd_field_str(f, r->raw, r->size, &p, &v->slen))
				return -1;
			v->str = true;
			v->s = (const char *)p;
			return 0;
		}
		if (f->size > 8)
			return -1;
		v->n = pmu__pd_trace_num(r->raw + f->offset, f->size,
					 f->is_signed);
		v->sgn = f->is_signed;
		return 0;
	}
	case E_ELEM: {
		const struct pd_tp_field *f;
		unsigned esz, off;

		if (!r)
			return -1;
		f = &r->tp->field[e->field];
		esz = f->size / f->count;
		off = f->offset + (unsigned)e->num * esz;
		if (!esz || esz > 8 || off > r->size || esz > r->size - off)
			return -1;
		v->n = pmu__pd_trace_num(r->raw + off, esz, f->is_signed);
		v->sgn = f->is_signed;
		return 0;
	}
	case E_CAST:
		if (eval_num_r(r, e->a, &a, &sa))
			return -1;
		v->n = cast_to(a, e->size, e->sgn);
		v->sgn = e->size ? e->sgn : sa;
		return 0;
	case E_NEG:
	case E_NOT:
	case E_BNOT:
		if (eval_num_r(r, e->a, &a, &sa))
			return -1;
		v->n = e->op == E_NEG ? 0 - a : e->op == E_NOT ? !a : ~a;
		v->sgn = e->op == E_NOT ? true : sa;
		return 0;
	case E_BIN:
		if (eval_num_r(r, e->a, &a, &sa))
			return -1;
		if (e->bop == B_LOR || e->bop == B_LAND) {
			v->sgn = true;
			if ((e->bop == B_LOR) == (a != 0)) {
				v->n = e->bop == B_LOR;
				return 0;
			}
			if (eval_num_r(r, e->b, &b, &sb))
				return -1;
			v->n = b != 0;
			return 0;
		}
		if (eval_num_r(r, e->b, &b, &sb))
			return -1;
		v->sgn = e->bop >= B_EQ && e->bop <= B_GE ? true : sa && sb;
		/* a shift keeps its left operand's type */
		if (e->bop == B_SHL || e->bop == B_SHR)
			v->sgn = sa;
		return binop(e->bop, a, b, (e->bop == B_SHR) ? sa : sa && sb,
			     &v->n);
	case E_COND:
		if (eval_num_r(r, e->a, &a, &sa))
			return -1;
		return eval(r, a ? e->b : e->c, v);
	case E_FLAGS:
	case E_SYMB:
		if (eval_num_r(r, e->a, &a, &sa))
			return -1;
		v->own = e->op == E_FLAGS ? flags_text(e, a)
					  : symbolic_text(e, a);
		if (!v->own)
			return -1;
		v->str = true;
		v->s = v->own;
		v->slen = strlen(v->own);
		return 0;
	}
	return -1;
}

/* One conversion's text into m, by a spec made of the format's own
 * flags, width and precision (checked as it was split), a length and
 * a conversion of this file's choosing. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static int print_conv(FILE *m, const struct conv *c, const struct val *v,
		      const struct pd_tp_syms *ks)
{
	char spec[40];
	uint64_t n = v->n;

	if (c->conv == 's' && !v->str) {
		/* a pointer to a string in the kernel: the string, when the
		 * recording has it (printk formats), else its address, as
		 * perf prints them */
		const char *k = ks ? pmu__pd_trace_kstr(ks->trace, n) : NULL;

		snprintf(spec, sizeof(spec), k ? "%ss" : "%sllx", c->spec);
		if (k)
			fprintf(m, spec, k);
		else
			fprintf(m, spec, (unsigned long long)n);
		return 0;
	}
	if (c->conv == 's') {
		char *t;

		if (!(t = malloc(v->slen + 1)))
			return -1;
		/* a record stays one line: no control bytes */
		for (size_t i = 0; i < v->slen; i++)
			t[i] = (unsigned char)v->s[i] >= 0x20 && v->s[i] != 0x7f
				       ? v->s[i] : '.';
		t[v->slen] = '\0';
		snprintf(spec, sizeof(spec), "%ss", c->spec);
		fprintf(m, spec, t);
		free(t);
		return 0;
	}
	if (v->str)
		return -1;
	if (c->conv == 'p') {
		const char *name = NULL;
		uint64_t off = 0;

		if (c->pext[0] && ks && ks->name)
			name = ks->name(ks->ctx, n, &off);
		if (!name && !n && !c->pext[0])
			fputs("(nil)", m);      /* as printf's %p */
		else if (!name)
			fprintf(m, "0x%llx", (unsigned long long)n);
		else if (c->pext[0] == 'S' || c->pext[0] == 'F')
			fprintf(m, "%s+0x%llx", name, (unsigned long long)off);
		else
			fputs(name, m);
		return 0;
	}
	if (c->conv == 'c') {
		unsigned char ch = (unsigned char)n;

		snprintf(spec, sizeof(spec), "%sc", c->spec);
		fprintf(m, spec, ch >= 0x20 && ch < 0x7f ? ch : '.');
		return 0;
	}
	/* the argument at the conversion's length, as printf takes it */
	snprintf(spec, sizeof(spec), "%sll%c", c->spec, c->conv);
	if (c->conv == 'd' || c->conv == 'i') {
		long long x = c->len == -2 ? (signed char)n
			    : c->len == -1 ? (short)n
			    : c->len == 0 ? (int)n : (long long)n;

		fprintf(m, spec, x);
	} else {
		unsigned long long x = c->len == -2 ? (unsigned char)n
				     : c->len == -1 ? (unsigned short)n
				     : c->len == 0 ? (unsigned)n
						   : (unsigned long long)n;

		fprintf(m, spec, x);
	}
	return 0;
}
#pragma GCC diagnostic pop

/* The kernel's %p formats of bytes (an array field's): IPv4 and IPv6
 * addresses, a sockaddr with its port, a UUID, a MAC address; -1 when
 * the field is too short for it. */
static int print_bytes(FILE *m, const char *ext, const unsigned char *b,
		       size_t n)
{
	char t[INET6_ADDRSTRLEN];

	if (!strcmp(ext, "I4") && n >= 4) {
		fprintf(m, "%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
	} else if (!strcmp(ext, "I6c") && n >= 16) {
		fputs(inet_ntop(AF_INET6, b, t, sizeof(t)) ? t : "?", m);
	} else if (!strcmp(ext, "I6") && n >= 16) {
		for (int i = 0; i < 16; i += 2)
			fprintf(m, "%s%02x%02x", i ? ":" : "", b[i], b[i + 1]);
	} else if (!strcmp(ext, "ISpc") && n >= 2) {
		unsigned fam = b[0] | (unsigned)b[1] << 8;   /* host order */
		unsigned port = n >= 4 ? (unsigned)b[2] << 8 | b[3] : 0;

		if (fam == AF_INET && n >= 8)
			fprintf(m, "%u.%u.%u.%u:%u", b[4], b[5], b[6], b[7], port);
		else if (fam == AF_INET6 && n >= 24 &&
			 inet_ntop(AF_INET6, b + 8, t, sizeof(t)))
			fprintf(m, "[%s]:%u", t, port);
		else
			return -1;
	} else if (!strcmp(ext, "U") && n >= 16) {
		for (int i = 0; i < 16; i++)
			fprintf(m, "%s%02x", i == 4 || i == 6 || i == 8 ||
				i == 10 ? "-" : "", b[i]);
	} else if (!strcmp(ext, "M") && n >= 6) {
		for (int i = 0; i < 6; i++)
			fprintf(m, "%s%02x", i ? ":" : "", b[i]);
	} else {
		return -1;
	}
	return 0;
}

/* Whether c prints an array field's bytes rather than a number. */
static bool bytes_conv(const struct conv *c)
{
	return c->conv == 'p' && (c->pext[0] == 'I' || c->pext[0] == 'U' ||
				  c->pext[0] == 'M');
}

int pmu__pd_fmt_print(FILE *o, const struct pd_tp *tp, const struct pd_fmt *f,
		      const void *raw, size_t size, const struct pd_tp_syms *ks)
{
	struct run r = { tp, raw, size };
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	int rc = 0;

	if (!f || !raw || !(m = open_memstream(&buf, &len)))
		return -1;
	for (size_t i = 0; i < f->n && !rc; i++) {
		const struct conv *c = &f->c[i];
		struct val v;

		fwrite(c->text, 1, c->ntext, m);
		if (!c->conv || c->conv == '%')
			continue;
		if (bytes_conv(c)) {
			const struct pd_tp_field *fl = &tp->field[c->arg->field];

			rc = !pmu__pd_field_in(fl, size) ? -1 :
			     print_bytes(m, c->pext, (const unsigned char *)raw +
					 fl->offset, fl->size);
			continue;
		}
		if (!(rc = eval(&r, c->arg, &v)))
			rc = print_conv(m, c, &v, ks);
		val_done(&v);
	}
	if (fclose(m))
		rc = -1;
	if (!rc)
		fwrite(buf, 1, len, o);
	free(buf);
	return rc;
}
