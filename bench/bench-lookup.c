/* SPDX-License-Identifier: MIT */
/*
 * Event name lookup among every model's events: each "model::EVENT" name
 * of every catalog model (libpfm4's, the seeds', the kernel's 83), the
 * model found by name and the event by name, in a shuffled order so that
 * neither hash nor cache is walked in table order.  Against libpfm4's
 * pfm_find_event() on the names of the models it has, measured in the
 * same run, medians of rounds compared; and against the goal of 200 ns
 * per lookup.  Then perf's names of the kernel's models ("EVENT.UMASK",
 * every umask of every event, the offcore families included) through
 * the vendor-name index, against the same goal; and every uncore event
 * name of the kernel's models through their uncore hash.  Calls internal
 * (pmu__) functions of libpmu.a.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib.h>

#include "bench.h"
#include "events/catalog.h"

#define ROUNDS 15

struct name {
	const char *model;
	const char *event;
	size_t mlen, elen;
	char full[160];
};

static struct name *collect(size_t *n)
{
	size_t nm, cap = 1024, k = 0;
	const struct pmu__catmodel *const *ms = pmu__catalog_models(&nm);
	struct name *v = malloc(cap * sizeof(*v));

	for (size_t i = 0; v && i < nm; i++)
		for (uint32_t e = 0; e < ms[i]->nevents; e++) {
			if (k == cap && !(v = realloc(v, (cap *= 2) *
						     sizeof(*v))))
				return NULL;
			v[k].model = ms[i]->name;
			v[k].event = pmu__ev_name(ms[i], &ms[i]->events[e]);
			v[k].mlen = strlen(v[k].model);
			v[k].elen = strlen(v[k].event);
			snprintf(v[k].full, sizeof(v[k].full), "%s::%s",
				 v[k].model, v[k].event);
			k++;
		}
	*n = k;
	return v;
}

/* "EVENT.UMASK" (or "EVENT") names of the models with a vendor-name
 * index. */
static struct name *collect_vendor(size_t *n)
{
	size_t nm, cap = 1024, k = 0;
	const struct pmu__catmodel *const *ms = pmu__catalog_models(&nm);
	struct name *v = malloc(cap * sizeof(*v));

	for (size_t i = 0; v && i < nm; i++) {
		const struct pmu__catmodel *m = ms[i];
		for (uint32_t e = 0; m->vhash && e < m->nevents; e++) {
			const struct pmu__event *ev = &m->events[e];
			const struct pmu__umask *u = pmu__event_umasks(m, ev);
			for (uint32_t j = 0; j < (ev->numasks ? ev->numasks : 1);
			     j++) {
				if (k == cap && !(v = realloc(v, (cap *= 2) *
							     sizeof(*v))))
					return NULL;
				v[k].model = m->name;
				v[k].mlen = strlen(m->name);
				/* A DEFAULT umask is the event's own name. */
				const char *un = ev->numasks ?
					pmu__um_name(m, &u[j]) : "";
				bool dfl = !strcmp(un, "DEFAULT");
				v[k].elen = (size_t)snprintf(v[k].full,
					sizeof(v[k].full), *un && !dfl ?
					"%s.%s" : "%s", pmu__ev_name(m, ev),
					un);
				v[k].event = NULL; /* the name is in full */
				k += v[k].elen < sizeof(v[k].full);
			}
		}
	}
	*n = k;
	return v;
}

static void shuffle(struct name *v, size_t n)
{
	uint32_t x = 2463534242u;

	for (size_t i = n; i > 1; i--) {
		size_t j;
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		j = x % i;
		struct name t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}

/* ns per lookup of the whole list, once. */
static double pmu_round(const struct name *v, size_t n, size_t *found)
{
	uint64_t t0 = bench_now_ns();

	*found = 0;
	for (size_t i = 0; i < n; i++) {
		const struct pmu__catmodel *m =
			pmu__catalog_find(v[i].model, v[i].mlen);
		*found += m && pmu__catmodel_event(m, v[i].event, v[i].elen);
	}
	return (double)(bench_now_ns() - t0) / (double)n;
}

/* The same with vendor names: model by name, then the name's index. */
static double vendor_round(const struct name *v, size_t n, size_t *found)
{
	uint64_t t0 = bench_now_ns();
	int um;

	*found = 0;
	for (size_t i = 0; i < n; i++) {
		const struct pmu__catmodel *m =
			pmu__catalog_find(v[i].model, v[i].mlen);
		*found += m && pmu__catmodel_vname(m, v[i].full, v[i].elen,
						   &um);
	}
	return (double)(bench_now_ns() - t0) / (double)n;
}

static double pfm_round(char **names, size_t n, size_t *found)
{
	uint64_t t0 = bench_now_ns();

	*found = 0;
	for (size_t i = 0; i < n; i++)
		*found += pfm_find_event(names[i]) >= 0;
	return (double)(bench_now_ns() - t0) / (double)n;
}

/* The names libpfm4 knows with every PMU active (LIBPFM_ENCODE_INACTIVE
 * lets it find events of PMUs this machine does not have). */
static char **pfm_names(const struct name *v, size_t n, size_t *k)
{
	char **out = calloc(n + 1, sizeof(*out));

	*k = 0;
	for (size_t i = 0; out && i < n; i++)
		if (pfm_find_event(v[i].full) >= 0)
			out[(*k)++] = (char *)v[i].full;
	return out;
}

/* Every "EVENT.UMASK" of the kernel's models. */
static int vendor_bench(void)
{
	double t[ROUNDS];
	size_t n, found = 0;
	struct name *v = collect_vendor(&n);
	char what[160];

	if (!v)
		return 1;
	/* Model by model first (a user's names are of one model), each
	 * model's names in random order; then all of them shuffled. */
	for (size_t a = 0, b; a < n; a = b) {
		for (b = a; b < n && v[b].model == v[a].model; b++)
			;
		shuffle(v + a, b - a);
	}
	for (int pass = 0; pass < 2; pass++) {
		for (int r = 0; r < ROUNDS; r++)
			t[r] = vendor_round(v, n, &found);
		if (found != n) {
			fprintf(stderr, "bench-lookup: %zu of %zu vendor names "
				"not found\n", n - found, n);
			free(v);
			return 1;
		}
		snprintf(what, sizeof(what), "perf name lookup (EVENT.UMASK), "
			 "%zu names of the kernel's models, %s, against the "
			 "200 ns goal", n, pass ? "all models shuffled" :
			 "model by model");
		bench_row(what, "ns", bench_median(t, ROUNDS), "goal", 200.0,
			  1.0);
		shuffle(v, n);
	}
	free(v);
	return 0;
}

/* Every uncore event name of the kernel's models, model found by name
 * then the name through the model's uncore hash. */
static double uncore_round(const struct name *v, size_t n, size_t *found)
{
	uint64_t t0 = bench_now_ns();

	*found = 0;
	for (size_t i = 0; i < n; i++) {
		const struct pmu__catmodel *m =
			pmu__catalog_find(v[i].model, v[i].mlen);
		*found += m && pmu__uncore_find(m, v[i].event, v[i].elen);
	}
	return (double)(bench_now_ns() - t0) / (double)n;
}

static int uncore_bench(void)
{
	size_t nm, cap = 1024, n = 0, found = 0;
	const struct pmu__catmodel *const *ms = pmu__catalog_models(&nm);
	struct name *v = malloc(cap * sizeof(*v));
	double t[ROUNDS];
	char what[160];

	for (size_t i = 0; v && i < nm; i++)
		for (uint32_t k = 0; k < ms[i]->nuncore; k++) {
			const struct pmu__uevent *u = pmu__uncore_at(ms[i], k);
			if (n == cap && !(v = realloc(v, (cap *= 2) *
						     sizeof(*v))))
				return 1;
			v[n].model = ms[i]->name;
			v[n].mlen = strlen(ms[i]->name);
			v[n].event = pmu__ustr(ms[i], u->name);
			v[n].elen = strlen(v[n].event);
			n++;
		}
	if (!v)
		return 1;
	shuffle(v, n);
	for (int r = 0; r < ROUNDS; r++)
		t[r] = uncore_round(v, n, &found);
	if (found != n) {
		fprintf(stderr, "bench-lookup: %zu of %zu uncore names not "
			"found\n", n - found, n);
		free(v);
		return 1;
	}
	snprintf(what, sizeof(what), "uncore name lookup, %zu names of the "
		 "kernel's models shuffled, against the 200 ns goal", n);
	bench_row(what, "ns", bench_median(t, ROUNDS), "goal", 200.0, 1.0);
	free(v);
	return 0;
}

int main(void)
{
	double tp[ROUNDS], tl[ROUNDS];
	size_t n, np, fp = 0, fl = 0;
	struct name *v = collect(&n);
	char **pn;

	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	if (!v || pfm_initialize() != PFM_SUCCESS) {
		fprintf(stderr, "bench-lookup: cannot set up\n");
		return 1;
	}
	shuffle(v, n);
	pn = pfm_names(v, n, &np);
	for (int r = 0; r < ROUNDS; r++) {
		tp[r] = pmu_round(v, n, &fp);
		tl[r] = pfm_round(pn, np, &fl);
	}
	if (fp != n) {
		fprintf(stderr, "bench-lookup: %zu of %zu names not found\n",
			n - fp, n);
		return 1;
	}
	char what[160];
	snprintf(what, sizeof(what), "event name lookup, %zu names of all "
		 "models (pmu) / %zu of libpfm4's", n, np);
	bench_row(what, "ns", bench_median(tp, ROUNDS),
		  "libpfm4 pfm_find_event", bench_median(tl, ROUNDS), 1.0);
	bench_row("event name lookup against the 200 ns goal", "ns",
		  bench_median(tp, ROUNDS), "goal", 200.0, 1.0);
	free(pn);
	free(v);
	return vendor_bench() || uncore_bench();
}
