/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

/* Whole file (or stdin for "-"), NUL-terminated; NULL with errno. */
char *pmu_tool_slurp(const char *path, size_t max, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 4096, n = 0;
	char *buf = NULL, *p;

	if (!f)
		return NULL;
	for (;;) {
		if (!(p = realloc(buf, cap + 1)))
			goto fail;
		buf = p;
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		if (cap >= max) {
			errno = EFBIG;
			goto fail;
		}
		cap *= 2;
	}
	if (ferror(f))
		goto fail;
	if (f != stdin)
		fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	if (f != stdin)
		fclose(f);
	free(buf);
	return NULL;
}
