/* SPDX-License-Identifier: MIT */
/*
 * JSON strings out: quotes, backslashes and control characters escaped,
 * and text that is not UTF-8 (a command or symbol name is whatever bytes
 * a program chose) replaced by U+FFFD per bad byte, so that every JSON
 * reader takes the file.  Header-only: the library's writers and the
 * tool's use it alike.
 */
#ifndef PMU_UTIL_JSONSTR_H
#define PMU_UTIL_JSONSTR_H

#include <stddef.h>
#include <stdio.h>

/* The length of the well-formed UTF-8 sequence at p (1 to 4), or 0:
 * no overlong forms, no surrogates, nothing above U+10FFFF. */
static inline size_t pmu__utf8_len(const unsigned char *p)
{
	unsigned c = p[0];
	size_t n;
	unsigned lo = 0x80, hi = 0xbf;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

/* s as well-formed UTF-8 into out (room for 3 * strlen(s) + 1 bytes):
 * each byte that is not part of a well-formed sequence becomes U+FFFD.
 * Returns the length written. */
static inline size_t pmu__utf8_copy(const char *s, char *out)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;

	while (*p) {
		size_t n = pmu__utf8_len(p);

		if (!n) {
			out[o++] = (char)0xef;
			out[o++] = (char)0xbf;
			out[o++] = (char)0xbd;
			p++;
			continue;
		}
		for (size_t i = 0; i < n; i++)
			out[o++] = (char)p[i];
		p += n;
	}
	out[o] = '\0';
	return o;
}

static inline void pmu__json_fputs(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (p && *p) {
		size_t n = pmu__utf8_len(p);

		if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p);
		} else if (!n) {
			fputs("\\ufffd", f);
			n = 1;
		} else {
			fwrite(p, 1, n, f);
		}
		p += n ? n : 1;
	}
	fputc('"', f);
}

#endif
