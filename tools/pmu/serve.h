/* SPDX-License-Identifier: MIT */
#ifndef PMU_TOOL_SERVE_H
#define PMU_TOOL_SERVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * pmu serve: counters kept open, read every interval into a snapshot,
 * which each scrape is given as text (serve_expo.c renders it, in
 * Prometheus' text format or OpenMetrics).
 */

/* One reading of one event on one aggregate of one target. */
struct serve_series {
	const char *event;      /* the session's name for it */
	const char *cgroup;     /* label, NULL: none */
	int pid;                /* label, 0: none */
	int cpu;                /* label, -1: none */
	uint64_t value;         /* scaled for multiplexing */
	uint64_t enabled, running; /* ns */
};

/* One derived metric over the last interval. */
struct serve_metric {
	const char *name, *unit;
	const char *cgroup;
	int pid, cpu;
	double value;           /* NaN: not computable */
};

/* An event's facts, once per event. */
struct serve_event {
	const char *name;
	const char *unit;       /* of the raw count: "ns" for clocks, "" */
	bool counted;           /* false: not supported here */
	const char *reason;     /* why not, "" */
	const char *desc;       /* what it counts, NULL: not known */
};

struct serve_snapshot {
	struct serve_series *series;
	size_t nseries;
	struct serve_metric *metrics;
	size_t nmetrics;
	struct serve_event *events;
	size_t nevents;
	bool up;                /* every target read on the last tick */
	uint64_t errors;        /* errors so far (open, read, rescans) */
	uint64_t ticks;         /* readings so far */
	size_t targets;         /* targets counted */
	uint64_t read_ns;       /* the last tick's reading */
	uint64_t scrapes;       /* answered so far */
};

/* The snapshot as text: openmetrics (with # UNIT and # EOF) or
 * Prometheus' 0.0.4 format.  0, or -errno from the stream. */
int serve_render(FILE *f, const struct serve_snapshot *s, bool openmetrics);

/* A label value escaped as the formats want it (\\, \", \n). */
void serve_label(FILE *f, const char *v);

/* The HTTP side: serve `get` at ADDR:PORT until serve_http_stop. */
struct serve_http;
typedef char *(*serve_get_fn)(void *arg, bool openmetrics, size_t *len);
/* listen: "HOST:PORT", "[V6]:PORT" or ":PORT" (127.0.0.1).  NULL with a
 * message printed on failure (no libmicrohttpd, a bad address, a port
 * in use). */
struct serve_http *serve_http_start(const char *listen, serve_get_fn get,
				    void *arg, unsigned threads);
void serve_http_stop(struct serve_http *h);
/* The port it listens on (what port 0 became), -1 if unknown. */
int serve_http_port(struct serve_http *h);
/* Does an Accept header (NULL: none) ask for OpenMetrics? */
bool serve_wants_openmetrics(const char *accept);
/* "HOST:PORT" into a socket address; 0 or -EINVAL. */
struct sockaddr_storage;
int serve_parse_listen(const char *listen, struct sockaddr_storage *sa);

#endif
