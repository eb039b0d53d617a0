/* SPDX-License-Identifier: MIT */
/*
 * For the fuzz targets of the tool's command lines: the input as an
 * argument vector (split at NUL and newline bytes, after the command's
 * name), getopt's state of an earlier vector forgotten, and the help and
 * error messages sent to /dev/null for the call.
 */
#ifndef PMU_FUZZ_ARGV_H
#define PMU_FUZZ_ARGV_H

#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct fuzz_argv {
	char *buf;
	char **argv;
	int argc;
	int out, err;              /* stdout, stderr kept while quiet */
};

/* buf and argv allocated (free with fuzz_argv_done); 0, or -1 when out
 * of memory.  argv[0] is name. */
static inline int fuzz_argv(struct fuzz_argv *a, const char *name,
		     const uint8_t *data, size_t size)
{
	static char *reset[] = { "x", NULL };
	size_t n = 2;

	memset(a, 0, sizeof(*a));
	if (!(a->buf = malloc(size + 1)))
		return -1;
	memcpy(a->buf, data, size);
	a->buf[size] = 0;
	for (size_t i = 0; i < size; i++) {
		if (a->buf[i] == '\n')
			a->buf[i] = 0;
		n += !a->buf[i];
	}
	if (!(a->argv = calloc(n + 1, sizeof(*a->argv)))) {
		free(a->buf);
		return -1;
	}
	a->argv[a->argc++] = (char *)name;
	for (char *p = a->buf; p <= a->buf + size; p += strlen(p) + 1)
		a->argv[a->argc++] = p;
	/* as in a new process: glibc forgets a bundle left half read */
	optind = 0;
	getopt(1, reset, "");
	return 0;
}

static inline int fuzz_quiet_fd(int fd)
{
	int keep, null = open("/dev/null", O_WRONLY | O_CLOEXEC);

	fflush(fd == 1 ? stdout : stderr);
	keep = dup(fd);
	if (null >= 0) {
		dup2(null, fd);
		close(null);
	}
	return keep;
}

static inline void fuzz_loud_fd(int fd, int keep)
{
	fflush(fd == 1 ? stdout : stderr);
	if (keep >= 0) {
		dup2(keep, fd);
		close(keep);
	}
}

static inline void fuzz_quiet(struct fuzz_argv *a)
{
	a->out = fuzz_quiet_fd(1);
	a->err = fuzz_quiet_fd(2);
}

static inline void fuzz_loud(struct fuzz_argv *a)
{
	fuzz_loud_fd(2, a->err);
	fuzz_loud_fd(1, a->out);
}

static inline void fuzz_argv_done(struct fuzz_argv *a)
{
	free(a->argv);
	free(a->buf);
}

/* Whether p is one of the vector's own arguments. */
static inline int fuzz_argv_has(const struct fuzz_argv *a, const char *p)
{
	for (int i = 0; i < a->argc; i++)
		if (a->argv[i] == p)
			return 1;
	return 0;
}

#endif
