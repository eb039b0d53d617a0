/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/file.h"

static char *read_stream(FILE *f, size_t max, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = NULL, *p;

	for (;;) {
		if (cap > max)
			cap = max;
		if (!(p = realloc(buf, cap + 2)))
			goto fail;
		buf = p;
		/* one byte past `cap` tells a file of exactly `max` bytes
		 * from a larger one */
		n += fread(buf + n, 1, cap + 1 - n, f);
		if (ferror(f)) {
			errno = errno ? errno : EIO;
			goto fail;
		}
		if (n <= cap)
			break;
		if (cap == max) {
			errno = EFBIG;
			goto fail;
		}
		cap *= 2;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	free(buf);
	return NULL;
}

char *pmu__read_file(const char *path, size_t max, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf;
	int e;

	if (!f)
		return NULL;
	errno = 0;
	buf = read_stream(f, max, len);
	e = errno;
	fclose(f);
	errno = e;
	return buf;
}
