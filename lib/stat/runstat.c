/* SPDX-License-Identifier: MIT */
/* Statistics of repeated measurements: Welford's running mean and
 * spread, and perf stat's noise figure. */
#include <math.h>

#include <pmu/stat.h>

PMU_API void pmu_runstat_add(struct pmu_runstat *r, double x)
{
	double d;

	if (!r)
		return;
	d = x - r->mean;
	r->n++;
	r->mean += d / (double)r->n;
	r->m2 += d * (x - r->mean);
}

PMU_API double pmu_runstat_stddev(const struct pmu_runstat *r)
{
	return !r || r->n < 2 ? 0 : sqrt(r->m2 / (double)(r->n - 1));
}

PMU_API double pmu_runstat_noise_pct(const struct pmu_runstat *r)
{
	double sd;

	if (!r || r->n < 2 || r->mean == 0)
		return 0;
	sd = sqrt(r->m2 / (double)(r->n - 1) / (double)r->n);
	return 100.0 * sd / fabs(r->mean);
}
