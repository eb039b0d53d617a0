/* SPDX-License-Identifier: MIT */
/* The encoders' bounded string builder. */
#include <string.h>

#include "events/strbuf.h"

void pmu__strlcpy(char *dst, const char *src, size_t sz)
{
	size_t n = strlen(src);

	if (n >= sz)
		n = sz - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

void pmu__sb_resume(struct pmu__sb *b, char *buf, size_t cap)
{
	b->buf = buf;
	b->cap = cap;
	b->len = strnlen(buf, cap);
}

void pmu__sb_putu_slow(struct pmu__sb *b, uint64_t v)
{
	char tmp[24];
	int i = (int)sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	pmu__sb_putn(b, tmp + i, sizeof(tmp) - (size_t)i);
}

void pmu__sb_putx(struct pmu__sb *b, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[24];
	int i = (int)sizeof(tmp) - 1;

	tmp[i] = '\0';
	if (!v) {
		pmu__sb_putc(b, '0');
		return;
	}
	do {
		tmp[--i] = digits[v & 15];
		v >>= 4;
	} while (v);
	tmp[--i] = 'x';
	tmp[--i] = '0';
	pmu__sb_putn(b, tmp + i, sizeof(tmp) - 1 - (size_t)i);
}
