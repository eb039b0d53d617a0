/* SPDX-License-Identifier: MIT */
/*
 * perf's metric expressions (MetricExpr).  perf's generator reads them
 * as Python expressions after turning every run of name characters that
 * starts with a letter into an event (tools/perf/pmu-events/metric.py),
 * and perf evaluates the tree it gets (tools/perf/util/expr.y); this
 * parser reads the same text the same way:
 *
 *   cond    := cmp [ "if" cmp "else" cond ]
 *   cmp     := bor [ ("<" | ">") bor ]          (below | ^ &, as Python)
 *   bor     := bxor { "|" bxor }
 *   bxor    := band { "^" band }
 *   band    := sum { "&" sum }
 *   sum     := term { ("+" | "-") term }
 *   term    := unary { ("*" | "/" | "%") unary }
 *   unary   := ("-" | "+") unary | primary
 *   primary := NUMBER | NAME | "#"NAME | "(" cond ")"
 *            | ("min" | "max" | "d_ratio") "(" cond "," cond ")"
 *            | ("source_count" | "has_event" | "strcmp_cpuid_str")
 *              "(" NAME ")"
 *
 * A NAME starts with a letter and runs to the next space, '-', '+', '*',
 * '/', '(', ')' or ',', a backslash taking the next character as it is
 * ("cpu@INST_RETIRED.ANY\,cmask\=1@"); "0x..." is a name too (perf's
 * lexer and the generator agree).  Chained comparisons and Python's
 * other operators are errors.  The tree is a node array; evaluation
 * walks it.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <pmu/metric.h>

#include "events/metric.h"
#include "util/error.h"

#define MAX_TEXT  (64u << 10)
#define MAX_NODES 65536u
#define MAX_DEPTH 200

struct parser {
	const char *s;
	size_t pos;
	struct pmu_metric_expr *e;
	struct pmu_error *err;
	int depth;
	int rc;
};

static int perr(struct parser *p, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int perr(struct parser *p, size_t at, const char *fmt, ...)
{
	char msg[200], tok[40];
	size_t n = strcspn(p->s + at, " ");
	va_list ap;

	if (p->rc)
		return p->rc;
	if (n >= sizeof(tok))
		n = sizeof(tok) - 1;
	memcpy(tok, p->s + at, n);
	tok[n] = '\0';
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	p->rc = pmu__error(p->err, -EINVAL, PMU_ERR_SYNTAX, tok,
			   at > 0x7fffffff ? -1 : (int)at,
			   "metric expression, offset %zu: %s", at, msg);
	return p->rc;
}

static int nomem(struct parser *p)
{
	if (!p->rc)
		p->rc = pmu__error(p->err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				   "out of memory");
	return p->rc;
}

static void skip_ws(struct parser *p)
{
	while (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
	       p->s[p->pos] == '\n' || p->s[p->pos] == '\r')
		p->pos++;
}

static bool is_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Characters that end a name (metric.py's [^-+/\* \\\(\),]). */
static bool ends_name(char c)
{
	return !c || strchr("-+/* \t\n\r(),", c) != NULL;
}

/* The name at p->pos, escapes removed; its raw length in *raw. */
static char *read_name(struct parser *p, size_t *raw)
{
	const char *s = p->s + p->pos;
	size_t i = 0, n = 0;
	char *out;

	while (!ends_name(s[i])) {
		if (s[i] == '\\' && s[i + 1])
			i++;
		i++;
	}
	*raw = i;
	if (!(out = malloc(i + 1)))
		return NULL;
	for (size_t k = 0; k < i; k++) {
		if (s[k] == '\\' && k + 1 < i)
			k++;
		out[n++] = s[k];
	}
	out[n] = '\0';
	return out;
}

static uint32_t add_node(struct parser *p, enum pmu__mop op, uint32_t a,
			 uint32_t b, uint32_t c)
{
	struct pmu_metric_expr *e = p->e;

	if (p->rc)
		return 0;
	if (e->nn == MAX_NODES) {
		p->rc = pmu__error(p->err, -E2BIG, PMU_ERR_BAD_VALUE, NULL, -1,
				   "metric expression larger than %u nodes",
				   MAX_NODES);
		return 0;
	}
	if (e->nn == e->cap) {
		size_t cap = e->cap ? e->cap * 2 : 32;
		struct pmu__mnode *n = realloc(e->n, cap * sizeof(*n));
		if (!n) {
			nomem(p);
			return 0;
		}
		e->n = n;
		e->cap = cap;
	}
	e->n[e->nn] = (struct pmu__mnode){ .op = (uint8_t)op, .a = a, .b = b,
					   .c = c };
	return (uint32_t)e->nn++;
}

/* Index of s in a string list (added when new; takes s). */
static int intern(char ***list, size_t *n, char *s, uint32_t *idx)
{
	char **l;

	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*list)[i], s)) {
			free(s);
			*idx = (uint32_t)i;
			return 0;
		}
	if (!(l = realloc(*list, (*n + 1) * sizeof(*l)))) {
		free(s);
		return -ENOMEM;
	}
	*list = l;
	l[*n] = s;
	*idx = (uint32_t)(*n)++;
	return 0;
}

static uint32_t parse_cond(struct parser *p);

static bool accept(struct parser *p, char c)
{
	skip_ws(p);
	if (p->s[p->pos] != c)
		return false;
	p->pos++;
	return true;
}

static void expect(struct parser *p, char c)
{
	if (!accept(p, c))
		perr(p, p->pos, "expected '%c'", c);
}

/* Is the word at the cursor this keyword (a whole name)? */
static bool at_word(struct parser *p, const char *w)
{
	size_t n = strlen(w);

	skip_ws(p);
	return !strncmp(p->s + p->pos, w, n) && ends_name(p->s[p->pos + n]);
}

static uint32_t parse_number(struct parser *p)
{
	const char *s = p->s + p->pos;
	size_t i = 0;
	char *end;
	double v;
	uint32_t n;

	while (is_digit(s[i]))
		i++;
	if (s[i] == '.')
		for (i++; is_digit(s[i]); i++)
			;
	if ((s[i] == 'e' || s[i] == 'E') &&
	    (is_digit(s[i + 1]) || ((s[i + 1] == '-' || s[i + 1] == '+') &&
				    is_digit(s[i + 2]))))
		for (i += 2; is_digit(s[i]); i++)
			;
	if (is_letter(s[i]) || s[i] == '_')
		return perr(p, p->pos, "bad number"), 0;
	v = strtod(s, &end);
	if (end != s + i)
		return perr(p, p->pos, "bad number"), 0;
	p->pos += i;
	n = add_node(p, PMU__M_NUM, 0, 0, 0);
	if (!p->rc)
		p->e->n[n].num = v;
	return n;
}

/* A NAME (an identifier's value), or the argument of a function that
 * takes a name: `list` says which list it goes to. */
static uint32_t parse_id(struct parser *p, enum pmu__mop op)
{
	size_t raw;
	char *name;
	uint32_t idx, n;
	int rc;

	skip_ws(p);
	if (!is_letter(p->s[p->pos]) &&
	    (p->s[p->pos] != '0' || (p->s[p->pos + 1] | 0x20) != 'x'))
		return perr(p, p->pos, "expected a name"), 0;
	if (!(name = read_name(p, &raw)))
		return nomem(p), 0;
	p->pos += raw;
	if (op == PMU__M_ID || op == PMU__M_SRC)
		rc = intern(&p->e->ids, &p->e->nids, name, &idx);
	else
		rc = intern(&p->e->args, &p->e->nargs, name, &idx);
	if (rc)
		return nomem(p), 0;
	n = add_node(p, op, 0, 0, 0);
	if (!p->rc)
		p->e->n[n].id = idx;
	return n;
}

static uint32_t parse_literal(struct parser *p)
{
	size_t at = p->pos, raw;
	char *name, *lit;
	uint32_t idx, n;

	p->pos++;
	if (!is_letter(p->s[p->pos]))
		return perr(p, at, "'#' needs a name after it"), 0;
	if (!(name = read_name(p, &raw)))
		return nomem(p), 0;
	p->pos += raw;
	lit = malloc(strlen(name) + 2);
	if (!lit) {
		free(name);
		return nomem(p), 0;
	}
	lit[0] = '#';
	strcpy(lit + 1, name);
	free(name);
	if (intern(&p->e->lits, &p->e->nlits, lit, &idx))
		return nomem(p), 0;
	n = add_node(p, PMU__M_LIT, 0, 0, 0);
	if (!p->rc)
		p->e->n[n].id = idx;
	return n;
}

static const struct {
	const char *name;
	enum pmu__mop op;
	bool two;            /* two expressions, else one name */
} funcs[] = {
	{ "min", PMU__M_MIN, true }, { "max", PMU__M_MAX, true },
	{ "d_ratio", PMU__M_DRATIO, true },
	{ "source_count", PMU__M_SRC, false },
	{ "has_event", PMU__M_HAS, false },
	{ "strcmp_cpuid_str", PMU__M_CPUID, false },
};

static uint32_t parse_func(struct parser *p, size_t f)
{
	uint32_t a, b;

	p->pos += strlen(funcs[f].name);
	expect(p, '(');
	if (!funcs[f].two) {
		a = parse_id(p, funcs[f].op);
		expect(p, ')');
		return a;
	}
	a = parse_cond(p);
	expect(p, ',');
	b = parse_cond(p);
	expect(p, ')');
	return add_node(p, funcs[f].op, a, b, 0);
}

static uint32_t parse_primary(struct parser *p)
{
	char c;

	skip_ws(p);
	c = p->s[p->pos];
	if (c == '(') {
		uint32_t n;
		p->pos++;
		n = parse_cond(p);
		expect(p, ')');
		return n;
	}
	if (c == '#')
		return parse_literal(p);
	if (c == '0' && (p->s[p->pos + 1] == 'x' || p->s[p->pos + 1] == 'X'))
		return parse_id(p, PMU__M_ID);
	if (is_digit(c) || (c == '.' && is_digit(p->s[p->pos + 1])))
		return parse_number(p);
	if (!is_letter(c))
		return perr(p, p->pos, c ? "unexpected '%c'" :
			    "unexpected end%c", c ? c : '.'), 0;
	for (size_t f = 0; f < sizeof(funcs) / sizeof(funcs[0]); f++)
		if (at_word(p, funcs[f].name))
			return parse_func(p, f);
	if (at_word(p, "if") || at_word(p, "else"))
		return perr(p, p->pos, "'if'/'else' where a value belongs"), 0;
	return parse_id(p, PMU__M_ID);
}

static uint32_t parse_unary(struct parser *p)
{
	uint32_t n;

	if (++p->depth > MAX_DEPTH) {
		p->depth--;
		return perr(p, p->pos, "nested more than %d deep", MAX_DEPTH), 0;
	}
	if (accept(p, '-'))
		n = add_node(p, PMU__M_NEG, parse_unary(p), 0, 0);
	else if (accept(p, '+'))
		n = parse_unary(p);
	else
		n = parse_primary(p);
	p->depth--;
	return n;
}

/* Python's operators perf does not have, where an operator may follow. */
static bool foreign_op(struct parser *p)
{
	const char *s = p->s + p->pos;

	return !strncmp(s, "**", 2) || !strncmp(s, "//", 2) ||
	       !strncmp(s, "<<", 2) || !strncmp(s, ">>", 2) ||
	       !strncmp(s, "<=", 2) || !strncmp(s, ">=", 2) ||
	       !strncmp(s, "==", 2) || !strncmp(s, "!=", 2);
}

/* Left-associative levels: ops[i] makes codes[i]. */
static uint32_t parse_level(struct parser *p, int level);

static const struct {
	const char *ops;
	enum pmu__mop codes[3];
} levels[] = {
	{ "|", { PMU__M_OR } },
	{ "^", { PMU__M_XOR } },
	{ "&", { PMU__M_AND } },
	{ "+-", { PMU__M_ADD, PMU__M_SUB } },
	{ "*/%", { PMU__M_MUL, PMU__M_DIV, PMU__M_MOD } },
};

#define NLEVELS (int)(sizeof(levels) / sizeof(levels[0]))

static uint32_t parse_level(struct parser *p, int level)
{
	uint32_t lhs;

	if (level == NLEVELS)
		return parse_unary(p);
	lhs = parse_level(p, level + 1);
	for (;;) {
		const char *op;

		skip_ws(p);
		if (foreign_op(p))
			return perr(p, p->pos, "operator '%.2s' is not one of "
				    "perf's", p->s + p->pos), 0;
		if (!p->s[p->pos] ||
		    !(op = strchr(levels[level].ops, p->s[p->pos])))
			return lhs;
		p->pos++;
		lhs = add_node(p, levels[level].codes[op - levels[level].ops],
			       lhs, parse_level(p, level + 1), 0);
		if (p->rc)
			return 0;
	}
}

static uint32_t parse_cmp(struct parser *p)
{
	uint32_t lhs = parse_level(p, 0), n;
	char c;

	skip_ws(p);
	c = p->s[p->pos];
	if (c != '<' && c != '>')
		return lhs;
	p->pos++;
	n = add_node(p, c == '<' ? PMU__M_LT : PMU__M_GT, lhs,
		     parse_level(p, 0), 0);
	skip_ws(p);
	if (p->s[p->pos] == '<' || p->s[p->pos] == '>')
		return perr(p, p->pos, "chained comparison"), 0;
	return n;
}

static uint32_t parse_cond(struct parser *p)
{
	uint32_t t, c, f;

	if (++p->depth > MAX_DEPTH) {
		p->depth--;
		return perr(p, p->pos, "nested more than %d deep", MAX_DEPTH), 0;
	}
	t = parse_cmp(p);
	if (!p->rc && at_word(p, "if")) {
		p->pos += 2;
		c = parse_cmp(p);
		if (!at_word(p, "else")) {
			p->depth--;
			return perr(p, p->pos, "'if' without 'else'"), 0;
		}
		p->pos += 4;
		f = parse_cond(p);
		t = add_node(p, PMU__M_SELECT, t, c, f);
	}
	p->depth--;
	return t;
}

PMU_API void pmu_metric_expr_free(struct pmu_metric_expr *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->nids; i++)
		free(e->ids[i]);
	for (size_t i = 0; i < e->nargs; i++)
		free(e->args[i]);
	for (size_t i = 0; i < e->nlits; i++)
		free(e->lits[i]);
	free(e->ids);
	free(e->args);
	free(e->lits);
	free(e->n);
	free(e);
}

PMU_API struct pmu_metric_expr *pmu_metric_expr_parse(const char *text,
						      struct pmu_error *err)
{
	struct parser p = { .s = text, .err = err };
	int e = EINVAL;

	pmu__error_clear(err);
	if (!text) {
		pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
			   "no metric expression given");
		errno = EINVAL;
		return NULL;
	}
	if (strlen(text) > MAX_TEXT) {
		pmu__error(err, -E2BIG, PMU_ERR_BAD_VALUE, NULL, -1,
			   "metric expression longer than %u bytes", MAX_TEXT);
		errno = E2BIG;
		return NULL;
	}
	if (!(p.e = calloc(1, sizeof(*p.e)))) {
		errno = ENOMEM;
		return NULL;
	}
	p.e->root = parse_cond(&p);
	skip_ws(&p);
	if (!p.rc && text[p.pos])
		perr(&p, p.pos, "unexpected '%c'", text[p.pos]);
	if (!p.rc)
		return p.e;
	e = -p.rc;
	pmu_metric_expr_free(p.e);
	errno = e;
	return NULL;
}

PMU_API size_t pmu_metric_expr_nids(const struct pmu_metric_expr *e)
{
	return e ? e->nids : 0;
}

PMU_API const char *pmu_metric_expr_id(const struct pmu_metric_expr *e,
				       size_t i)
{
	return e && i < e->nids ? e->ids[i] : NULL;
}

PMU_API ssize_t pmu_metric_id_event(const char *id, char *buf, size_t sz)
{
	size_t n = id ? strlen(id) : 0;

	if (!buf && sz)
		return -EINVAL;
	if (!id || n >= sz)
		return -ENAMETOOLONG;
	for (size_t i = 0; i <= n; i++)
		buf[i] = id[i] == '@' ? '/' : id[i];
	return (ssize_t)n;
}
