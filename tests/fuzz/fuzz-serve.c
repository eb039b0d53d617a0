/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for what pmu serve parses and writes itself.  The first
 * byte picks:
 *   0  a listen address: one that parses is IPv4 or IPv6;
 *   1  an Accept header: the answer is a boolean, nothing more;
 *   2  label values (a cgroup's name is anyone's to choose): the
 *      exposition of series with those labels has exactly the lines it
 *      should, every one a comment or a sample of pmu's, in both
 *      formats: no value can start a line or a series of its own.
 */
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "../../tools/pmu/serve_parse.c"
#include "../../tools/pmu/serve_expo.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The exposition of two series, a metric and an event labelled with a
 * and b, in one format: its lines counted, each checked to be a
 * comment or a sample of pmu's. */
static size_t lines_of(const char *a, const char *b, bool om)
{
	struct serve_series x[2] = {
		{ .event = a, .cgroup = b, .pid = 0, .cpu = 3, .value = 7 },
		{ .event = b, .cgroup = a, .pid = 12, .cpu = -1, .value = 1 },
	};
	struct serve_metric m = { .name = a, .unit = b, .cgroup = b,
				  .cpu = -1, .value = 0.5 };
	struct serve_event e = { .name = b, .unit = a, .counted = false,
				 .reason = a, .desc = b };
	struct serve_snapshot s = { .series = x, .nseries = 2, .metrics = &m,
				    .nmetrics = 1, .events = &e, .nevents = 1,
				    .up = true };
	char *buf = NULL;
	size_t len = 0, lines = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f || serve_render(f, &s, om) || fclose(f))
		__builtin_trap();
	if (len != strlen(buf))
		__builtin_trap();   /* no NUL inside */
	for (char *p = buf, *nl; *p; p = nl + 1) {
		if (!(nl = strchr(p, '\n')))
			__builtin_trap();   /* ends with a newline */
		if (*p != '#' && strncmp(p, "pmu_", 4))
			__builtin_trap();
		lines++;
	}
	free(buf);
	return lines;
}

/* Whatever the labels hold, the exposition has the lines plain labels
 * give it: no value starts a line or a series of its own. */
static void exposition(const char *a, const char *b)
{
	for (int om = 0; om < 2; om++)
		if (lines_of(a, b, om) != lines_of("a", "b", om))
			__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sockaddr_storage sa;
	char *s;

	if (!size)
		return 0;
	if (!(s = malloc(size)))
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	switch (data[0] % 3) {
	case 0:
		if (!serve_parse_listen(s, &sa) && sa.ss_family != AF_INET &&
		    sa.ss_family != AF_INET6)
			__builtin_trap();
		break;
	case 1:
		(void)serve_wants_openmetrics(s);
		break;
	default: {
		char *half = memchr(s, '|', size - 1);

		if (half)
			*half = 0;
		exposition(s, half ? half + 1 : "");
	}
	}
	free(s);
	return 0;
}
