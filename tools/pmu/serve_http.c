/* SPDX-License-Identifier: MIT */
/*
 * pmu serve's HTTP side, on libmicrohttpd: loaded when pmu serve starts
 * (dlopen), so that the other commands never pay for it.  GET /metrics
 * (and HEAD) answers the snapshot; / a short page naming it; anything
 * else 404, other methods 405.  Requests are parsed by the library;
 * pmu's own parsing is the Accept header's media type and the listen
 * address.
 */
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "cmd.h"
#include "serve.h"

#ifdef HAVE_MICROHTTPD
#include <microhttpd.h>

#define LIB "libmicrohttpd.so.12"

struct mhd {
	struct MHD_Daemon *(*start)(unsigned int, uint16_t,
				    MHD_AcceptPolicyCallback, void *,
				    MHD_AccessHandlerCallback, void *, ...);
	void (*stop)(struct MHD_Daemon *);
	struct MHD_Response *(*from_buffer)(size_t, void *,
					    enum MHD_ResponseMemoryMode);
	enum MHD_Result (*add_header)(struct MHD_Response *, const char *,
				      const char *);
	enum MHD_Result (*queue)(struct MHD_Connection *, unsigned int,
				 struct MHD_Response *);
	void (*destroy)(struct MHD_Response *);
	const char *(*lookup)(struct MHD_Connection *, enum MHD_ValueKind,
			      const char *);
	const union MHD_DaemonInfo *(*info)(struct MHD_Daemon *,
					    enum MHD_DaemonInfoType, ...);
};

struct serve_http {
	void *dl;
	struct mhd f;
	struct MHD_Daemon *d;
	serve_get_fn get;
	void *arg;
};

static int load(struct serve_http *h)
{
	static const char *const names[] = {
		"MHD_start_daemon", "MHD_stop_daemon",
		"MHD_create_response_from_buffer", "MHD_add_response_header",
		"MHD_queue_response", "MHD_destroy_response",
		"MHD_lookup_connection_value", "MHD_get_daemon_info",
	};
	void **slot = (void **)(void *)&h->f;

	if (!(h->dl = dlopen(LIB, RTLD_NOW | RTLD_LOCAL))) {
		pmu_tool_err("serve: cannot load %s (%s): pmu serve's HTTP "
			     "server is libmicrohttpd (Debian package "
			     "libmicrohttpd12)", LIB, dlerror());
		return -1;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (!(slot[i] = dlsym(h->dl, names[i]))) {
			pmu_tool_err("serve: %s has no %s", LIB, names[i]);
			return -1;
		}
	return 0;
}

static enum MHD_Result answer(struct serve_http *h, struct MHD_Connection *c,
			      unsigned status, const char *type, char *body,
			      size_t len, enum MHD_ResponseMemoryMode mode)
{
	struct MHD_Response *r = h->f.from_buffer(len, body, mode);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	h->f.add_header(r, "Content-Type", type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		h->f.add_header(r, "Allow", "GET, HEAD");
	ret = h->f.queue(c, status, r);
	h->f.destroy(r);
	return ret;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c,
			      const char *url, const char *method,
			      const char *version, const char *data,
			      size_t *size, void **state)
{
	static char page[] = "<html><head><title>pmu serve</title></head>"
			     "<body><p>pmu serve: counters at "
			     "<a href=\"/metrics\">/metrics</a></p></body></html>\n";
	static char missing[] = "not found: pmu serve answers /metrics\n";
	static char method_msg[] = "pmu serve answers GET and HEAD only\n";
	static char fail[] = "pmu serve: out of memory\n";
	struct serve_http *h = cls;
	const char *text = "text/plain; charset=utf-8";
	bool om;
	char *body;
	size_t len;

	(void)version;
	(void)data;
	/* the first call sees the headers; answer on the second, once any
	 * body (which nothing here wants) has been read */
	if (!*state) {
		*state = h;
		return MHD_YES;
	}
	*size = 0;
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return answer(h, c, MHD_HTTP_METHOD_NOT_ALLOWED, text,
			      method_msg, sizeof(method_msg) - 1,
			      MHD_RESPMEM_PERSISTENT);
	if (!strcmp(url, "/"))
		return answer(h, c, MHD_HTTP_OK, "text/html; charset=utf-8",
			      page, sizeof(page) - 1, MHD_RESPMEM_PERSISTENT);
	if (strcmp(url, "/metrics"))
		return answer(h, c, MHD_HTTP_NOT_FOUND, text, missing,
			      sizeof(missing) - 1, MHD_RESPMEM_PERSISTENT);
	om = serve_wants_openmetrics(h->f.lookup(c, MHD_HEADER_KIND, "Accept"));
	if (!(body = h->get(h->arg, om, &len)))
		return answer(h, c, MHD_HTTP_INTERNAL_SERVER_ERROR, text, fail,
			      sizeof(fail) - 1, MHD_RESPMEM_PERSISTENT);
	return answer(h, c, MHD_HTTP_OK,
		      om ? "application/openmetrics-text; version=1.0.0; "
			   "charset=utf-8"
			 : "text/plain; version=0.0.4; charset=utf-8",
		      body, len, MHD_RESPMEM_MUST_FREE);
}

#endif

#ifndef HAVE_MICROHTTPD
struct serve_http *serve_http_start(const char *listen, serve_get_fn get,
				    void *arg, unsigned threads)
{
	(void)listen;
	(void)get;
	(void)arg;
	(void)threads;
	pmu_tool_err("serve: this pmu was built without libmicrohttpd's "
		     "header (Debian package libmicrohttpd-dev): it has no "
		     "HTTP server; --print still works");
	return NULL;
}

void serve_http_stop(struct serve_http *h)
{
	(void)h;
}

int serve_http_port(struct serve_http *h)
{
	(void)h;
	return -1;
}
#else
struct serve_http *serve_http_start(const char *listen, serve_get_fn get,
				    void *arg, unsigned threads)
{
	struct serve_http *h = calloc(1, sizeof(*h));
	struct sockaddr_storage sa;
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL |
			 MHD_USE_ERROR_LOG;
	int e;

	if (!h) {
		pmu_tool_err("serve: out of memory");
		return NULL;
	}
	h->get = get;
	h->arg = arg;
	if (serve_parse_listen(listen, &sa)) {
		pmu_tool_err("serve: --listen '%s': not HOST:PORT (an IPv4 "
			     "address or localhost, [IPv6], and a port from 0 "
			     "to 65535)", listen);
		free(h);
		return NULL;
	}
	if (load(h)) {
		serve_http_stop(h);
		return NULL;
	}
	if (sa.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	errno = 0;
	h->d = h->f.start(flags, 0, NULL, NULL, handle, h,
			  MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
			  MHD_OPTION_THREAD_POOL_SIZE, threads,
			  MHD_OPTION_CONNECTION_LIMIT, 512u,
			  MHD_OPTION_CONNECTION_TIMEOUT, 30u,
			  MHD_OPTION_END);
	if (!h->d) {
		e = errno;
		pmu_tool_err("serve: cannot listen on %s: %s", listen,
			     e ? strerror(e) : "the HTTP server did not start");
		serve_http_stop(h);
		return NULL;
	}
	return h;
}

int serve_http_port(struct serve_http *h)
{
	const union MHD_DaemonInfo *i = h && h->d
		? h->f.info(h->d, MHD_DAEMON_INFO_BIND_PORT) : NULL;

	return i ? i->port : -1;
}

void serve_http_stop(struct serve_http *h)
{
	if (!h)
		return;
	if (h->d)
		h->f.stop(h->d);
	if (h->dl)
		dlclose(h->dl);
	free(h);
}
#endif
