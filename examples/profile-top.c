/* SPDX-License-Identifier: MIT */
/*
 * The functions a perf.data profile spent its samples in, biggest
 * first, through libpmu's reading API:
 *
 *	profile-top [FILE] [N]      (default perf.data, 10)
 *
 * prints "PERCENT FUNCTION" lines.  Each sample counts its period for
 * its leaf function (inlined code counts for the function it was
 * inlined in, as perf report does).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/pmu.h>

struct fn {
	const char *name;
	unsigned long long period;
};

static int by_period(const void *a, const void *b)
{
	const struct fn *x = a, *y = b;

	return x->period < y->period ? 1 : x->period > y->period ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_sample s = { .size = sizeof(s) };
	struct pmu_frame f = { .size = sizeof(f) };
	struct pmu_profile *p;
	struct fn *fns = NULL;
	size_t nfns = 0, top = argc > 2 ? strtoul(argv[2], NULL, 10) : 10;
	unsigned long long total = 0;

	p = pmu_profile_open(argc > 1 ? argv[1] : "perf.data", NULL, &err);
	if (!p) {
		fprintf(stderr, "profile-top: %s\n", err.message);
		return 1;
	}
	while (pmu_profile_next(p, &s) > 0) {
		size_t i = 0, k;

		/* past the inlined frames of the leaf address */
		while (i + 1 < s.nframes && !pmu_profile_frame(p, i, &f) &&
		       f.kind == PMU_FRAME_INLINED)
			i++;
		pmu_profile_frame(p, i, &f);
		total += s.period;
		if (!f.sym)
			continue;
		for (k = 0; k < nfns && strcmp(fns[k].name, f.sym); k++)
			;
		if (k == nfns) {
			fns = realloc(fns, (nfns + 1) * sizeof(*fns));
			fns[nfns++] = (struct fn){ f.sym, 0 };
		}
		fns[k].period += s.period;
	}
	qsort(fns, nfns, sizeof(*fns), by_period);
	for (size_t k = 0; k < nfns && k < top; k++)
		printf("%6.2f%% %s\n", 100.0 * fns[k].period / (total ? total : 1),
		       fns[k].name);
	free(fns);
	pmu_profile_close(p);
	return 0;
}
