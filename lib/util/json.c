/* SPDX-License-Identifier: MIT */
/*
 * Strict recursive-descent JSON reader with a depth limit.  Input comes
 * from users' files, so every failure names its line and column.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/json.h"

struct jp {
	const char *s;
	size_t len, pos;
	int depth;
	struct pmu_error *err;
	size_t mark;            /* line/col of `mark` are known: positions */
	int mark_line, mark_col;/* only grow, so counting resumes there */
	bool oom;               /* a failure was for memory, not the text */
};

static void pos_of(struct jp *p, size_t at, int *line, int *col)
{
	size_t i = 0;

	*line = 1;
	*col = 1;
	if (p->mark_line && p->mark <= at) {
		i = p->mark;
		*line = p->mark_line;
		*col = p->mark_col;
	}
	for (; i < at && i < p->len; i++) {
		if (p->s[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
	p->mark = i;
	p->mark_line = *line;
	p->mark_col = *col;
}

static struct pmu_json *fail(struct jp *p, const char *what)
{
	int line, col;

	pos_of(p, p->pos, &line, &col);
	pmu__error(p->err, -EINVAL, PMU_ERR_SYNTAX, NULL, (int)p->pos,
		   "line %d, column %d: %s", line, col, what);
	errno = EINVAL;
	return NULL;
}

static struct pmu_json *fail_oom(struct jp *p)
{
	int line, col;

	pos_of(p, p->pos, &line, &col);
	pmu__error(p->err, -ENOMEM, PMU_ERR_SYSTEM, NULL, (int)p->pos,
		   "line %d, column %d: out of memory", line, col);
	errno = ENOMEM;
	return NULL;
}

static void skip_ws(struct jp *p)
{
	while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos]) &&
	       p->s[p->pos])
		p->pos++;
}

static struct pmu_json *new_value(struct jp *p, enum pmu_json_type t)
{
	struct pmu_json *v = calloc(1, sizeof(*v));

	if (!v) {
		pmu__error(p->err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
			   "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	v->type = t;
	pos_of(p, p->pos, &v->line, &v->col);
	return v;
}

void pmu__json_free(struct pmu_json *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++) {
		pmu__json_free(v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	free(v);
}

static bool lit(struct jp *p, const char *word)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n))
		return false;
	p->pos += n;
	return true;
}

static struct pmu_json *parse_literal(struct jp *p)
{
	struct pmu_json *v;
	size_t at = p->pos;

	if (lit(p, "true") || lit(p, "false")) {
		p->pos = at;
		v = new_value(p, PMU_JSON_BOOL);
		if (v)
			v->b = lit(p, "true") || !lit(p, "false");
		return v;
	}
	if (lit(p, "null")) {
		p->pos = at;
		v = new_value(p, PMU_JSON_NULL);
		p->pos += 4;
		return v;
	}
	return fail(p, "unexpected character; expected a JSON value");
}

static size_t digits(struct jp *p)
{
	size_t n = 0;

	while (p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') {
		p->pos++;
		n++;
	}
	return n;
}

/* Grammar check; returns false on a malformed number. */
static bool scan_number(struct jp *p, bool *is_int)
{
	*is_int = true;
	if (p->pos < p->len && p->s[p->pos] == '-')
		p->pos++;
	if (p->pos < p->len && p->s[p->pos] == '0')
		p->pos++;
	else if (!digits(p))
		return false;
	if (p->pos < p->len && p->s[p->pos] == '.') {
		p->pos++;
		*is_int = false;
		if (!digits(p))
			return false;
	}
	if (p->pos < p->len && (p->s[p->pos] == 'e' || p->s[p->pos] == 'E')) {
		p->pos++;
		*is_int = false;
		if (p->pos < p->len && (p->s[p->pos] == '+' || p->s[p->pos] == '-'))
			p->pos++;
		if (!digits(p))
			return false;
	}
	return true;
}

static bool int_value(struct pmu_json *v, const char *s, size_t n)
{
	size_t i = 0;

	v->neg = s[0] == '-';
	i = v->neg;
	for (; i < n; i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (v->mag > (UINT64_MAX - d) / 10)
			return false;
		v->mag = v->mag * 10 + d;
	}
	if (v->neg && v->mag == 0)
		v->neg = false;
	v->real = v->neg ? -(double)v->mag : (double)v->mag;
	return true;
}

static struct pmu_json *parse_number(struct jp *p)
{
	size_t start = p->pos;
	struct pmu_json *v;
	char buf[64];
	bool is_int;

	if (!scan_number(p, &is_int)) {
		return fail(p, "malformed number");
	}
	p->pos = start;
	v = new_value(p, is_int ? PMU_JSON_INT : PMU_JSON_REAL);
	if (!v)
		return NULL;
	scan_number(p, &is_int);
	if (is_int && !int_value(v, p->s + start, p->pos - start)) {
		pmu__json_free(v);
		p->pos = start;
		return fail(p, "integer does not fit in 64 bits");
	}
	if (!is_int) {
		size_t n = p->pos - start;

		if (n >= sizeof(buf))
			n = sizeof(buf) - 1;
		memcpy(buf, p->s + start, n);
		buf[n] = '\0';
		v->real = strtod(buf, NULL);
	}
	return v;
}

static int hex4(const char *s)
{
	int v = 0;

	for (int i = 0; i < 4; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9' ? c - '0' :
			c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

static size_t put_utf8(char *out, unsigned long cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* \uXXXX (with a following low surrogate when needed); p->pos is at 'u'. */
static bool unicode_escape(struct jp *p, char *out, size_t *n)
{
	int hi, lo;

	if (p->len - p->pos < 5 || (hi = hex4(p->s + p->pos + 1)) < 0)
		return false;
	p->pos += 5;
	if (hi >= 0xDC00 && hi <= 0xDFFF)
		return false;
	if (hi >= 0xD800 && hi <= 0xDBFF) {
		if (p->len - p->pos < 6 || p->s[p->pos] != '\\' ||
		    p->s[p->pos + 1] != 'u' ||
		    (lo = hex4(p->s + p->pos + 2)) < 0 || lo < 0xDC00 ||
		    lo > 0xDFFF)
			return false;
		p->pos += 6;
		*n += put_utf8(out + *n, 0x10000 + (((unsigned long)hi - 0xD800) << 10) +
					  ((unsigned long)lo - 0xDC00));
		return true;
	}
	if (hi == 0)
		return false; /* strings are C strings */
	*n += put_utf8(out + *n, (unsigned long)hi);
	return true;
}

static bool escape(struct jp *p, char *out, size_t *n)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e;

	if (p->pos >= p->len)
		return false;
	if (p->s[p->pos] == 'u')
		return unicode_escape(p, out, n);
	e = p->s[p->pos] ? strchr(from, p->s[p->pos]) : NULL;
	if (!e)
		return false;
	out[(*n)++] = to[e - from];
	p->pos++;
	return true;
}

/* p->pos is at the opening quote.  A string's text never outgrows its
 * quoted form (\uXXXX is at most 4 bytes of UTF-8), so that form's
 * length, found first, is all it takes: not the rest of the input. */
static char *parse_chars(struct jp *p, size_t *len)
{
	size_t start = ++p->pos, n = 0, end = start;
	char *out;

	while (end < p->len && p->s[end] != '"')
		end += p->s[end] == '\\' ? 2 : 1;
	if (end > p->len)
		end = p->len;
	out = malloc(end - start + 1);
	if (!out) {
		p->oom = true;
		return NULL;
	}
	while (p->pos < p->len && p->s[p->pos] != '"') {
		unsigned char c = (unsigned char)p->s[p->pos];

		if (c < 0x20)
			goto bad;
		if (c == '\\') {
			p->pos++;
			if (!escape(p, out, &n))
				goto bad;
			continue;
		}
		out[n++] = (char)c;
		p->pos++;
	}
	if (p->pos >= p->len)
		goto bad;
	p->pos++;
	out[n] = '\0';
	*len = n;
	return out;
bad:
	free(out);
	return NULL;
}

static struct pmu_json *parse_string(struct jp *p)
{
	struct pmu_json *v = new_value(p, PMU_JSON_STRING);

	if (!v)
		return NULL;
	v->str = parse_chars(p, &v->len);
	if (!v->str) {
		pmu__json_free(v);
		return p->oom ? fail_oom(p) : fail(p, "bad string (control "
					"character, escape or missing quote)");
	}
	return v;
}

static struct pmu_json *parse_value(struct jp *p);

/* Members go in arrays that double: a large array costs its size, not
 * a copy of itself a member. */
static bool push(struct pmu_json *c, struct pmu_json *item, char *key)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 4;
		struct pmu_json **items = realloc(c->items, cap * sizeof(*items));

		if (!items)
			return false;
		c->items = items;
		if (c->type == PMU_JSON_OBJECT) {
			char **keys = realloc(c->keys, cap * sizeof(*keys));

			if (!keys)
				return false;
			c->keys = keys;
		}
		c->cap = cap;
	}
	if (c->type == PMU_JSON_OBJECT)
		c->keys[c->n] = key;
	c->items[c->n++] = item;
	return true;
}

/* Object member "key": value; returns false with the error filled. */
static bool parse_member(struct jp *p, struct pmu_json *obj)
{
	struct pmu_json *item;
	size_t klen, kpos;
	char *key;

	skip_ws(p);
	kpos = p->pos;
	if (p->pos >= p->len || p->s[p->pos] != '"')
		return fail(p, "expected a string key"), false;
	key = parse_chars(p, &klen);
	if (!key)
		return (p->oom ? fail_oom(p) : fail(p, "bad key string")), false;
	if (pmu__json_get(obj, key)) {
		free(key);
		p->pos = kpos;
		return fail(p, "duplicate key"), false;
	}
	skip_ws(p);
	if (p->pos >= p->len || p->s[p->pos] != ':') {
		free(key);
		return fail(p, "expected ':' after key"), false;
	}
	p->pos++;
	item = parse_value(p);
	if (!item) {
		free(key);
		return false;
	}
	if (push(obj, item, key))
		return true;
	free(key);
	pmu__json_free(item);
	return fail_oom(p), false;
}

static bool parse_element(struct jp *p, struct pmu_json *arr)
{
	struct pmu_json *item = parse_value(p);

	if (!item)
		return false;
	if (push(arr, item, NULL))
		return true;
	pmu__json_free(item);
	return fail_oom(p), false;
}

static struct pmu_json *parse_container(struct jp *p, bool is_obj)
{
	char close = is_obj ? '}' : ']';
	struct pmu_json *c;

	if (++p->depth > PMU_JSON_MAX_DEPTH)
		return fail(p, "nesting too deep");
	c = new_value(p, is_obj ? PMU_JSON_OBJECT : PMU_JSON_ARRAY);
	if (!c)
		return NULL;
	p->pos++;
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == close) {
		p->pos++;
		p->depth--;
		return c;
	}
	for (;;) {
		if (!(is_obj ? parse_member(p, c) : parse_element(p, c)))
			break;
		skip_ws(p);
		if (p->pos < p->len && p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->pos < p->len && p->s[p->pos] == close) {
			p->pos++;
			p->depth--;
			return c;
		}
		fail(p, is_obj ? "expected ',' or '}'" : "expected ',' or ']'");
		break;
	}
	pmu__json_free(c);
	return NULL;
}

static struct pmu_json *parse_value(struct jp *p)
{
	char c;

	skip_ws(p);
	if (p->pos >= p->len)
		return fail(p, "unexpected end of input");
	c = p->s[p->pos];
	if (c == '{' || c == '[')
		return parse_container(p, c == '{');
	if (c == '"')
		return parse_string(p);
	if (c == '-' || (c >= '0' && c <= '9'))
		return parse_number(p);
	return parse_literal(p);
}

struct pmu_json *pmu__json_parse(const char *text, size_t len,
				 struct pmu_error *err)
{
	struct jp p = { .s = text, .len = len, .err = err };
	struct pmu_json *v;

	pmu__error_clear(err);
	v = parse_value(&p);
	if (!v)
		return NULL;
	skip_ws(&p);
	if (p.pos < p.len) {
		pmu__json_free(v);
		return fail(&p, "trailing characters after the value");
	}
	return v;
}

const struct pmu_json *pmu__json_get(const struct pmu_json *obj,
				     const char *key)
{
	if (!obj || obj->type != PMU_JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return obj->items[i];
	return NULL;
}

/* Magnitude and sign of an integer or numeric string. */
static int number_of(const struct pmu_json *v, bool *neg, uint64_t *mag)
{
	const char *s;
	char *end;

	if (v->type == PMU_JSON_INT) {
		*neg = v->neg;
		*mag = v->mag;
		return 0;
	}
	if (v->type != PMU_JSON_STRING)
		return -EINVAL;
	s = v->str;
	*neg = *s == '-';
	s += *neg;
	if (!*s || !strchr("0123456789", *s))
		return -EINVAL;
	errno = 0;
	*mag = strtoull(s, &end, (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10);
	if (*end || end == s)
		return -EINVAL;
	if ((s[1] == 'x' || s[1] == 'X') && !s[2])
		return -EINVAL;
	return errno == ERANGE ? -ERANGE : 0;
}

int pmu__json_int64(const struct pmu_json *v, int64_t *out)
{
	bool neg;
	uint64_t mag;
	int err = number_of(v, &neg, &mag);

	if (err)
		return err;
	if (neg ? mag > (uint64_t)INT64_MAX + 1 : mag > (uint64_t)INT64_MAX)
		return -ERANGE;
	*out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
	return 0;
}

int pmu__json_uint64(const struct pmu_json *v, uint64_t *out)
{
	bool neg;
	uint64_t mag;
	int err = number_of(v, &neg, &mag);

	if (err)
		return err;
	if (neg && mag)
		return -ERANGE;
	*out = mag;
	return 0;
}
