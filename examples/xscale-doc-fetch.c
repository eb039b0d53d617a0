/* SPDX-License-Identifier: MIT */
/*
 * "Instruction Fetch Latency", the third worked example of the Linux
 * XScale PMU documentation, built against <pmu/xscale.h>; the lines
 * between the markers are the documentation's own (see
 * xscale-doc-icache.c).
 *
 * Measured: 30,000 cycles without instruction delivery caused by 1,000
 * I-cache misses, in 120,000 cycles.
 */
#include <stdio.h>

#include <pmu/xscale.h>

static struct pmu_results results;

static void measured_code(void)
{
	struct pmu_simple *cpu = pmu_xscale_device();

	for (int i = 0; i < 10; i++) {
		pmu_simple_event(cpu, EVT_ICACHE_NO_DELIVER, 3000);
		pmu_simple_event(cpu, EVT_ICACHE_MISS, 100);
		pmu_simple_cycles(cpu, 12000);
	}
}

int main(void)
{
	u32 average_stall_waiting_for_instruction_fetch;
	u32 percent_stall_cycles_due_to_instruction_fetch;
	int id = pmu_claim();

	if (id < 0) {
		fprintf(stderr, "pmu_claim: %d\n", id);
		return 1;
	}
	/* --- the documentation's example --- */
	pmu_start(EVT_ICACHE_NO_DELIVER, EVT_ICACHE_MISS);
	measured_code();
	pmu_stop(&results);

	average_stall_waiting_for_instruction_fetch =
		results.pmn0 / results.pmn1;

	percent_stall_cycles_due_to_instruction_fetch =
		results.pmn0 / results.ccnt;
	/* --- end of the example --- */

	printf("ccnt %u pmn0 %u pmn1 %u\n", results.ccnt, results.pmn0,
	       results.pmn1);
	printf("average_stall_waiting_for_instruction_fetch %u (exact %.6f)\n",
	       average_stall_waiting_for_instruction_fetch,
	       (double)results.pmn0 / results.pmn1);
	printf("percent_stall_cycles_due_to_instruction_fetch %u "
	       "(exact %.6f)\n", percent_stall_cycles_due_to_instruction_fetch,
	       (double)results.pmn0 / results.ccnt);
	return pmu_release(id) ? 1 : 0;
}
