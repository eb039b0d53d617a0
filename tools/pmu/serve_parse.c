/* SPDX-License-Identifier: MIT */
/*
 * What pmu serve parses itself: the listen address and the media type
 * a scraper's Accept header asks for (the HTTP requests are
 * libmicrohttpd's).  Fuzzed by tests/fuzz/fuzz-serve.c.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "serve.h"

/* Does the Accept header ask for OpenMetrics? */
bool serve_wants_openmetrics(const char *accept)
{
	for (const char *p = accept; p && *p;) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		while (n && (*p == ' ' || *p == '\t'))
			p++, n--;
		if (n >= 28 && !strncasecmp(p, "application/openmetrics-text", 28))
			return true;
		p = end ? end + 1 : p + n;
	}
	return false;
}

int serve_parse_listen(const char *listen, struct sockaddr_storage *sa)
{
	char host[256];
	const char *colon, *port;
	char *end;
	unsigned long p;

	memset(sa, 0, sizeof(*sa));
	if (!listen || !*listen)
		return -EINVAL;
	if (listen[0] == '[') {
		const char *close = strchr(listen, ']');

		if (!close || close[1] != ':' ||
		    (size_t)(close - listen - 1) >= sizeof(host))
			return -EINVAL;
		memcpy(host, listen + 1, (size_t)(close - listen - 1));
		host[close - listen - 1] = 0;
		port = close + 2;
	} else {
		if (!(colon = strrchr(listen, ':')) ||
		    (size_t)(colon - listen) >= sizeof(host))
			return -EINVAL;
		memcpy(host, listen, (size_t)(colon - listen));
		host[colon - listen] = 0;
		port = colon + 1;
		if (!*host)
			strcpy(host, "127.0.0.1");
	}
	errno = 0;
	p = strtoul(port, &end, 10);
	if (!*port || *end || errno || p > 65535 || *port == '-' ||
	    *port == '+' || *port == ' ')
		return -EINVAL;
	if (listen[0] == '[') {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)sa;

		a->sin6_family = AF_INET6;
		a->sin6_port = htons((uint16_t)p);
		return inet_pton(AF_INET6, host, &a->sin6_addr) == 1 ? 0
								     : -EINVAL;
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)sa;

		a->sin_family = AF_INET;
		a->sin_port = htons((uint16_t)p);
		if (!strcmp(host, "localhost"))
			strcpy(host, "127.0.0.1");
		return inet_pton(AF_INET, host, &a->sin_addr) == 1 ? 0
								   : -EINVAL;
	}
}
