/* SPDX-License-Identifier: MIT */
/*
 * The three measurements of the XScale PMU documentation, on a simulated
 * XScale: I-cache efficiency, D-cache efficiency, instruction fetch
 * latency.  The "workload" is a fixed mix of events fed to the simulator.
 */
#include <stdio.h>

#include <pmu/pmu.h>

struct feed {
	uint32_t event;
	uint64_t n;
};

/* Start ev0/ev1, feed the workload and the cycles, stop. */
static int measure(struct pmu_simple *dev, uint32_t ev0, uint32_t ev1,
		   const struct feed *work, size_t nwork, uint64_t cycles,
		   struct pmu_simple_results *res)
{
	int rc;

	if ((rc = pmu_simple_start(dev, ev0, ev1)) < 0)
		return rc;
	for (size_t i = 0; i < nwork; i++)
		pmu_simple_event(dev, work[i].event, work[i].n);
	pmu_simple_cycles(dev, cycles);
	res->size = sizeof(*res);
	return pmu_simple_stop(dev, res);
}

int main(void)
{
	static const struct feed work[] = {
		{ PMU_XSC_EVT_INSTRUCTION, 2000000 },
		{ PMU_XSC_EVT_ICACHE_MISS, 12000 },
		{ PMU_XSC_EVT_ICACHE_NO_DELIVER, 300000 },
		{ PMU_XSC_EVT_DCACHE_ACCESS, 700000 },
		{ PMU_XSC_EVT_DCACHE_MISS, 35000 },
	};
	const size_t nwork = sizeof(work) / sizeof(work[0]);
	struct pmu_simple *dev = pmu_simple_open("xscale1", NULL);
	struct pmu_simple_results res;
	int id, rc = 1;

	if (!dev) {
		perror("pmu_simple_open");
		return 1;
	}
	if ((id = pmu_simple_claim(dev)) < 0)
		goto out;
	if (measure(dev, PMU_XSC_EVT_INSTRUCTION, PMU_XSC_EVT_ICACHE_MISS,
		    work, nwork, 3000000, &res) < 0)
		goto out;
	printf("icache miss rate      %.6f\n", pmu_simple_icache_miss_rate(&res));
	printf("cycles per instr      %.6f\n", pmu_simple_cpi(&res));
	if (measure(dev, PMU_XSC_EVT_DCACHE_ACCESS, PMU_XSC_EVT_DCACHE_MISS,
		    work, nwork, 3000000, &res) < 0)
		goto out;
	printf("dcache miss rate      %.6f\n", pmu_simple_dcache_miss_rate(&res));
	if (measure(dev, PMU_XSC_EVT_ICACHE_NO_DELIVER, PMU_XSC_EVT_ICACHE_MISS,
		    work, nwork, 3000000, &res) < 0)
		goto out;
	printf("fetch stall per miss  %.6f\n", pmu_simple_fetch_stall_per_miss(&res));
	printf("fetch stall fraction  %.6f\n", pmu_simple_fetch_stall_fraction(&res));
	rc = pmu_simple_release(dev, id) < 0;
out:
	if (rc)
		fprintf(stderr, "xscale-ratios: PMU call failed\n");
	pmu_simple_close(dev);
	return rc;
}
