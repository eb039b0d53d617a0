/* SPDX-License-Identifier: MIT */
/*
 * Event encoding against libpfm4: initialisation plus encoding every event
 * of every model both know ("model::EVENT", default umasks), measured in
 * the same run, interleaved, medians compared.  Like for like: both give
 * the raw register codes and the full string (libpfm4 PFM_OS_NONE with
 * fstr, pmu with PMU_ENCODE_RAW_ONLY), and both fail on the same events.
 * libpfm4 encodes for one forced PMU per initialisation, so each model
 * costs it a pfm_initialize(); pmu's tables need no initialisation (its
 * one-time model-name index is built in the first round).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfmon/pfmlib.h>

#include <pmu/event.h>

#include "bench.h"

struct list {
	char name[32];
	char **ev;
	int n;
};

static bool pfm_has(const char *model)
{
	pfm_pmu_info_t pi;
	bool found = false;

	setenv("LIBPFM_FORCE_PMU", model, 1);
	if (pfm_initialize() != PFM_SUCCESS)
		return false;
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX && !found; p++) {
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		found = pfm_get_pmu_info(p, &pi) == PFM_SUCCESS &&
			!strcmp(pi.name, model) && pi.is_present;
	}
	pfm_terminate();
	return found;
}

/* Event strings of every model libpfm4 also has. */
static int build(struct list *l, int max)
{
	int n = 0;

	for (size_t m = 0; m < pmu_catalog_count() && n < max; m++) {
		struct pmu_catalog_info mi = { .size = sizeof(mi) };
		if (pmu_catalog_info(m, &mi) || !pfm_has(mi.name))
			continue;
		struct list *x = &l[n++];
		snprintf(x->name, sizeof(x->name), "%s", mi.name);
		x->n = 0;
		x->ev = calloc((size_t)mi.nevents, sizeof(*x->ev));
		for (size_t e = 0; e < mi.nevents; e++) {
			struct pmu_event_info ei = { .size = sizeof(ei) };
			size_t len;
			pmu_catalog_event_info(m, e, &ei);
			len = strlen(mi.name) + strlen(ei.name) + 3;
			x->ev[x->n] = malloc(len);
			snprintf(x->ev[x->n++], len, "%s::%s", mi.name, ei.name);
		}
	}
	return n;
}

static double run_pmu(const struct list *l, int n, int *ok)
{
	struct pmu_encode_opts opts = { .sz = sizeof(opts),
					.flags = PMU_ENCODE_RAW_ONLY };
	/* pmu_event_encode() resets the result itself: one buffer serves,
	 * as libpfm4's argument block is reset per call below. */
	struct pmu_encoding enc = { .size = sizeof(enc) };
	uint64_t t0 = bench_now_ns();

	*ok = 0;
	for (int i = 0; i < n; i++)
		for (int e = 0; e < l[i].n; e++)
			*ok += !pmu_event_encode(l[i].ev[e], &opts, &enc,
						 NULL);
	return (double)(bench_now_ns() - t0);
}

static double run_pfm(const struct list *l, int n, int *ok)
{
	uint64_t t0 = bench_now_ns();

	*ok = 0;
	for (int i = 0; i < n; i++) {
		setenv("LIBPFM_FORCE_PMU", l[i].name, 1);
		pfm_initialize();
		for (int e = 0; e < l[i].n; e++) {
			pfm_pmu_encode_arg_t arg;
			char *fstr = NULL;
			memset(&arg, 0, sizeof(arg));
			arg.size = sizeof(arg);
			arg.fstr = &fstr;
			*ok += pfm_get_os_event_encoding(l[i].ev[e],
				PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &arg) ==
				PFM_SUCCESS;
			free(fstr);
			free(arg.codes);
		}
		pfm_terminate();
	}
	return (double)(bench_now_ns() - t0);
}

int main(int argc, char **argv)
{
	struct list l[64];
	int rounds = 51, n, total = 0, ok_pmu = 0, ok_pfm = 0, opt;
	double a[101], b[101];

	while ((opt = getopt(argc, argv, "r:")) != -1) {
		if (opt != 'r' || (rounds = atoi(optarg)) < 1 || rounds > 101) {
			fprintf(stderr, "usage: bench-encode [-r ROUNDS]\n");
			return 2;
		}
	}
	n = build(l, 64);
	for (int i = 0; i < n; i++)
		total += l[i].n;
	for (int r = 0; r < rounds; r++) {
		a[r] = run_pmu(l, n, &ok_pmu);
		b[r] = run_pfm(l, n, &ok_pfm);
	}
	if (!n || ok_pmu != ok_pfm)
		fprintf(stderr, "bench-encode: %d models; pmu encoded %d, "
			"libpfm4 %d of %d events\n", n, ok_pmu, ok_pfm, total);
	char what[128];
	snprintf(what, sizeof(what), "init + encode %d events of %d models",
		 total, n);
	/* Goal: at least 10x faster, i.e. a ratio of at most 0.1. */
	bench_row(what, "ms", bench_median(a, (size_t)rounds) / 1e6,
		  "libpfm4", bench_median(b, (size_t)rounds) / 1e6, 0.1);
	for (int i = 0; i < n; i++) {
		for (int e = 0; e < l[i].n; e++)
			free(l[i].ev[e]);
		free(l[i].ev);
	}
	return 0;
}
