/* SPDX-License-Identifier: MIT */
#ifndef PMU_EVENTS_STRBUF_H
#define PMU_EVENTS_STRBUF_H

#include <stddef.h>
#include <stdint.h>

/*
 * Bounded string builder over a caller buffer, always NUL-terminated;
 * output past the end is dropped.  Cheaper than snprintf on the encoding
 * path, which builds two full strings per event.
 */
struct pmu__sb {
	char *buf;
	size_t len, cap;
};

static inline void pmu__sb_init(struct pmu__sb *b, char *buf, size_t cap)
{
	b->buf = buf;
	b->len = 0;
	b->cap = cap;
	buf[0] = '\0';
}

/* Bounded copy, always NUL-terminated (sz > 0). */
void pmu__strlcpy(char *dst, const char *src, size_t sz);

/* Continue a string already in buf. */
void pmu__sb_resume(struct pmu__sb *b, char *buf, size_t cap);

/* Append n bytes of s (no NUL needed). */
static inline void pmu__sb_putn(struct pmu__sb *b, const char *s, size_t n)
{
	if (n >= b->cap - b->len)
		n = b->cap - b->len - 1;
	__builtin_memcpy(b->buf + b->len, s, n);
	b->len += n;
	b->buf[b->len] = '\0';
}

/* Append the first n (< 16) bytes of a 16-byte tag: one fixed-size copy
 * when there is room, which is the common case. */
static inline void pmu__sb_tag(struct pmu__sb *b, const char tag[16],
			       size_t n)
{
	if (b->cap - b->len > 16) {
		__builtin_memcpy(b->buf + b->len, tag, 16);
		b->len += n;
		b->buf[b->len] = '\0';
	} else {
		pmu__sb_putn(b, tag, n);
	}
}

static inline void pmu__sb_puts(struct pmu__sb *b, const char *s)
{
	pmu__sb_putn(b, s, __builtin_strlen(s));
}

static inline void pmu__sb_putc(struct pmu__sb *b, char c)
{
	pmu__sb_putn(b, &c, 1);
}

void pmu__sb_putu_slow(struct pmu__sb *b, uint64_t v);

/* Decimal; full strings mostly show single digits. */
static inline void pmu__sb_putu(struct pmu__sb *b, uint64_t v)
{
	if (v < 10 && b->len + 1 < b->cap) {
		b->buf[b->len++] = (char)('0' + v);
		b->buf[b->len] = '\0';
	} else {
		pmu__sb_putu_slow(b, v);
	}
}

void pmu__sb_putx(struct pmu__sb *b, uint64_t v);   /* 0x..., "0" for 0 */

#endif
