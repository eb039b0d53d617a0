/* SPDX-License-Identifier: MIT */
/*
 * Cost of the hot paths on a group of four software events counting the
 * calling thread, against the bare system calls and against PAPI:
 *
 *	read:       pmu_session_read()   vs one read() of the group leader
 *	                                 (PERF_FORMAT_GROUP)  vs PAPI_read()
 *	start+stop: pmu_session_start()+pmu_session_stop()  vs the pair of
 *	            ioctl(ENABLE|DISABLE, PERF_IOC_FLAG_GROUP) on the leader
 *
 *	group-cost [-i ITERATIONS] [-b BLOCK]
 *
 * The methods run in alternating blocks of BLOCK calls (the order rotates
 * every block); each block gives one per-call figure and the table shows
 * the median over blocks.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <pmu/pmu.h>

#ifdef HAVE_PAPI
#include <papi.h>
#endif

#include "bench.h"

#define NEV 4
#define GROUP "{task-clock,page-faults,context-switches,cpu-migrations}"

static const struct { uint32_t type; uint64_t config; } bare_events[NEV] = {
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
};

struct bench_ctx {
	struct pmu_session *s;
	struct pmu_value vals[NEV];
	int fds[NEV];
	/* header (nr, time_enabled, time_running) + {value, id} per event */
	uint64_t buf[3 + 2 * NEV];
	int papi_set;
	long long papi_vals[NEV];
	char papi_why[160];
};

/* A method runs `n` calls and returns the number that failed. */
typedef int (*method_fn)(struct bench_ctx *c, int n);

static int m_pmu_read(struct bench_ctx *c, int n)
{
	int bad = 0;

	for (int i = 0; i < n; i++)
		bad += pmu_session_read(c->s, c->vals, NEV) != NEV;
	return bad;
}

static int m_bare_read(struct bench_ctx *c, int n)
{
	int bad = 0;

	for (int i = 0; i < n; i++)
		bad += read(c->fds[0], c->buf, sizeof(c->buf)) !=
		       (ssize_t)sizeof(c->buf);
	return bad;
}

static int m_pmu_startstop(struct bench_ctx *c, int n)
{
	int bad = 0;

	for (int i = 0; i < n; i++) {
		bad += pmu_session_start(c->s) != 0;
		bad += pmu_session_stop(c->s) != 0;
	}
	return bad;
}

static int m_bare_startstop(struct bench_ctx *c, int n)
{
	int bad = 0;

	for (int i = 0; i < n; i++) {
		bad += ioctl(c->fds[0], PERF_EVENT_IOC_ENABLE,
			     PERF_IOC_FLAG_GROUP) != 0;
		bad += ioctl(c->fds[0], PERF_EVENT_IOC_DISABLE,
			     PERF_IOC_FLAG_GROUP) != 0;
	}
	return bad;
}

#ifdef HAVE_PAPI
static int m_papi_read(struct bench_ctx *c, int n)
{
	int bad = 0;

	for (int i = 0; i < n; i++)
		bad += PAPI_read(c->papi_set, c->papi_vals) != PAPI_OK;
	return bad;
}
#endif

static int open_bare(struct bench_ctx *c)
{
	for (int i = 0; i < NEV; i++) {
		struct perf_event_attr attr;

		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = bare_events[i].type;
		attr.config = bare_events[i].config;
		attr.disabled = i == 0;
		attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
				   PERF_FORMAT_TOTAL_TIME_ENABLED |
				   PERF_FORMAT_TOTAL_TIME_RUNNING;
		c->fds[i] = (int)syscall(SYS_perf_event_open, &attr, 0, -1,
					 i ? c->fds[0] : -1, 0);
		if (c->fds[i] < 0) {
			perror("group-cost: perf_event_open");
			return -1;
		}
	}
	return ioctl(c->fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
}

static int open_pmu(struct bench_ctx *c)
{
	struct pmu_error err = { .size = sizeof(err) };

	c->s = pmu_session_new(&err);
	if (!c->s || pmu_session_add(c->s, GROUP, &err) ||
	    pmu_session_open(c->s, NULL, &err) || pmu_session_start(c->s)) {
		fprintf(stderr, "group-cost: libpmu: %s\n",
			err.message[0] ? err.message : strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < NEV; i++)
		c->vals[i].size = sizeof(c->vals[i]);
	return 0;
}

#ifdef HAVE_PAPI
static const char *const papi_names[NEV] = {
	"perf::TASK-CLOCK", "perf::PAGE-FAULTS",
	"perf::CONTEXT-SWITCHES", "perf::CPU-MIGRATIONS",
};

/* PAPI needs a core PMU known to its libpfm4 to enable the perf_event
 * component at all; on machines without one its reason is reported. */
static int open_papi(struct bench_ctx *c)
{
	const PAPI_component_info_t *ci;
	int rc;

	c->papi_set = PAPI_NULL;
	rc = PAPI_library_init(PAPI_VER_CURRENT);
	if (rc != PAPI_VER_CURRENT) {
		snprintf(c->papi_why, sizeof(c->papi_why), "PAPI_library_init: %s",
			 PAPI_strerror(rc));
		return -1;
	}
	ci = PAPI_get_component_info(0);
	if (ci && ci->disabled) {
		snprintf(c->papi_why, sizeof(c->papi_why),
			 "perf_event component disabled: %.90s",
			 ci->disabled_reason);
		return -1;
	}
	rc = PAPI_create_eventset(&c->papi_set);
	for (int i = 0; i < NEV && rc == PAPI_OK; i++)
		rc = PAPI_add_named_event(c->papi_set, papi_names[i]);
	if (rc == PAPI_OK)
		rc = PAPI_start(c->papi_set);
	if (rc != PAPI_OK) {
		snprintf(c->papi_why, sizeof(c->papi_why), "%s",
			 PAPI_strerror(rc));
		return -1;
	}
	return 0;
}
#else
static int open_papi(struct bench_ctx *c)
{
	snprintf(c->papi_why, sizeof(c->papi_why), "built without PAPI");
	return -1;
}
#endif

/*
 * Runs the methods in alternating blocks, rotating which goes first, and
 * stores each block's per-call ns in res[m][block].
 */
static int run_blocks(struct bench_ctx *c, const method_fn *m, size_t nm,
		      int blocks, int block, double **res)
{
	for (size_t k = 0; k < nm; k++)
		if (m[k](c, block)) /* warm-up */
			return -1;
	for (int b = 0; b < blocks; b++) {
		for (size_t j = 0; j < nm; j++) {
			size_t k = ((size_t)b + j) % nm;
			uint64_t t0 = bench_now_ns();

			if (m[k](c, block))
				return -1;
			res[k][b] = (double)(bench_now_ns() - t0) / block;
		}
	}
	return 0;
}

/* Allocates result rows, runs, and leaves medians in med[0..nm). */
static int measure(struct bench_ctx *c, const method_fn *m, size_t nm,
		   int blocks, int block, double *med)
{
	double *res[3] = { 0 };
	int rc = -1;

	for (size_t k = 0; k < nm; k++)
		if (!(res[k] = calloc((size_t)blocks, sizeof(double))))
			goto out;
	if (run_blocks(c, m, nm, blocks, block, res)) {
		fprintf(stderr, "group-cost: a measured call failed\n");
		goto out;
	}
	for (size_t k = 0; k < nm; k++)
		med[k] = bench_median(res[k], (size_t)blocks);
	rc = 0;
out:
	for (size_t k = 0; k < nm; k++)
		free(res[k]);
	return rc;
}

static int bench_read(struct bench_ctx *c, bool papi, int blocks, int block)
{
	method_fn m[3] = { m_pmu_read, m_bare_read, NULL };
	double med[3];
	char what[96];

#ifdef HAVE_PAPI
	m[2] = m_papi_read;
#endif
	if (measure(c, m, papi ? 3 : 2, blocks, block, med))
		return -1;
	snprintf(what, sizeof(what), "read of a 4-event group, median per call "
		 "(%d x %d calls)", blocks, block);
	bench_row(what, "ns", med[0], "bare read()", med[1], 1.05);
	if (papi)
		bench_row(what, "ns", med[0], "PAPI_read()", med[2], 0);
	else
		bench_row_na(what, "ns", med[0], "PAPI_read()", c->papi_why);
	return 0;
}

static int bench_startstop(struct bench_ctx *c, int blocks, int block)
{
	const method_fn m[2] = { m_pmu_startstop, m_bare_startstop };
	double med[2];
	char what[96];

	if (measure(c, m, 2, blocks, block, med))
		return -1;
	snprintf(what, sizeof(what), "start+stop of a 4-event group, median "
		 "per pair (%d x %d pairs)", blocks, block);
	bench_row(what, "ns", med[0], "bare ioctl pair", med[1], 1.1);
	return 0;
}

int main(int argc, char **argv)
{
	struct bench_ctx c = { .fds = { -1, -1, -1, -1 } };
	int iterations = 200000, block = 1000, opt, rc = 1;
	bool papi = false;

	while ((opt = getopt(argc, argv, "i:b:")) != -1) {
		switch (opt) {
		case 'i': iterations = atoi(optarg); break;
		case 'b': block = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: group-cost [-i ITERATIONS] "
				"[-b BLOCK]\n");
			return 2;
		}
	}
	if (block < 1 || iterations < block) {
		fprintf(stderr, "group-cost: need ITERATIONS >= BLOCK >= 1\n");
		return 2;
	}
	if (open_pmu(&c) || open_bare(&c))
		goto out;
	papi = open_papi(&c) == 0;
	if (bench_read(&c, papi, iterations / block, block) ||
	    bench_startstop(&c, iterations / block, block))
		goto out;
	rc = 0;
out:
	pmu_session_free(c.s);
	for (int i = NEV - 1; i >= 0; i--)
		if (c.fds[i] >= 0)
			close(c.fds[i]);
#ifdef HAVE_PAPI
	if (papi) {
		PAPI_stop(c.papi_set, c.papi_vals);
		PAPI_cleanup_eventset(c.papi_set);
		PAPI_destroy_eventset(&c.papi_set);
	}
#endif
	return rc;
}
