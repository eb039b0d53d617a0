/* SPDX-License-Identifier: MIT */
/*
 * "Data Cache Efficiency", the second worked example of the Linux XScale
 * PMU documentation, built against <pmu/xscale.h>; the lines between the
 * markers are the documentation's own (see xscale-doc-icache.c).
 *
 * Measured: 50,000 D-cache accesses with 5,000 misses in 200,000 cycles.
 */
#include <stdio.h>

#include <pmu/xscale.h>

static struct pmu_results results;

static void measured_code(void)
{
	struct pmu_simple *cpu = pmu_xscale_device();

	for (int i = 0; i < 50; i++) {
		pmu_simple_event(cpu, EVT_DCACHE_ACCESS, 1000);
		pmu_simple_event(cpu, EVT_DCACHE_MISS, 100);
		pmu_simple_event(cpu, EVT_INSTRUCTION, 3000); /* not counted */
		pmu_simple_cycles(cpu, 4000);
	}
}

int main(void)
{
	u32 dcache_miss_rage;
	int id = pmu_claim();

	if (id < 0) {
		fprintf(stderr, "pmu_claim: %d\n", id);
		return 1;
	}
	/* --- the documentation's example --- */
	pmu_start(EVT_DCACHE_ACCESS, EVT_DCACHE_MISS);
	measured_code();
	pmu_stop(&results);

	dcache_miss_rage = results.pmn1 / results.pmn0;
	/* --- end of the example --- */

	printf("ccnt %u pmn0 %u pmn1 %u\n", results.ccnt, results.pmn0,
	       results.pmn1);
	printf("dcache_miss_rage %u (exact %.6f)\n", dcache_miss_rage,
	       (double)results.pmn1 / results.pmn0);
	return pmu_release(id) ? 1 : 0;
}
