/* SPDX-License-Identifier: MIT */
/*
 * Generic hardware events on the simulated models.  Facts: the event
 * codes Linux's perf drivers give `cycles`, `instructions`, ... on these
 * processors (the P6, Pentium 4, K7/K8 and XScale event maps); models
 * perf never supported map the obvious event of their own catalog.
 * Where the model has no cycle event its time-stamp counter counts
 * cycles (P5: the TSC; XScale: CCNT).
 */
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "events/generic.h"

#define N_HW PERF_COUNT_HW_MAX

struct generic_map {
	const char *models;          /* space-separated catalog names */
	const char *ev[N_HW];
};

static const struct generic_map maps[] = {
	{ "p6 pii piii pentm", {
		[PERF_COUNT_HW_CPU_CYCLES] = "CPU_CLK_UNHALTED",
		[PERF_COUNT_HW_INSTRUCTIONS] = "INST_RETIRED",
		[PERF_COUNT_HW_CACHE_REFERENCES] = "L2_RQSTS",
		[PERF_COUNT_HW_CACHE_MISSES] = "L2_RQSTS:I",
		[PERF_COUNT_HW_BRANCH_INSTRUCTIONS] = "BR_INST_RETIRED",
		[PERF_COUNT_HW_BRANCH_MISSES] = "BR_MISS_PRED_RETIRED",
		[PERF_COUNT_HW_BUS_CYCLES] = "BUS_DRDY_CLOCKS" } },
	{ "amd64_k7 amd64_k8_revb amd64_k8_revc amd64_fam10h_barcelona", {
		[PERF_COUNT_HW_CPU_CYCLES] = "CPU_CLK_UNHALTED",
		[PERF_COUNT_HW_INSTRUCTIONS] = "RETIRED_INSTRUCTIONS",
		[PERF_COUNT_HW_CACHE_REFERENCES] = "INSTRUCTION_CACHE_FETCHES",
		[PERF_COUNT_HW_CACHE_MISSES] = "INSTRUCTION_CACHE_MISSES",
		[PERF_COUNT_HW_BRANCH_INSTRUCTIONS] =
			"RETIRED_BRANCH_INSTRUCTIONS",
		[PERF_COUNT_HW_BRANCH_MISSES] =
			"RETIRED_MISPREDICTED_BRANCH_INSTRUCTIONS" } },
	{ "netburst netburst_p", {
		[PERF_COUNT_HW_CPU_CYCLES] = "global_power_events:RUNNING",
		[PERF_COUNT_HW_INSTRUCTIONS] =
			"instr_retired:NBOGUSNTAG:BOGUSNTAG",
		[PERF_COUNT_HW_BRANCH_INSTRUCTIONS] = "retired_branch_type:"
			"CONDITIONAL:CALL:RETURN:INDIRECT",
		[PERF_COUNT_HW_BRANCH_MISSES] = "mispred_branch_retired" } },
	{ "p5 p5mmx mii", {
		[PERF_COUNT_HW_CPU_CYCLES] = PMU__GENERIC_TSC,
		[PERF_COUNT_HW_INSTRUCTIONS] = "INSTRUCTIONS_EXECUTED",
		[PERF_COUNT_HW_BRANCH_INSTRUCTIONS] = "BRANCHES" } },
	{ "wcc6", {
		[PERF_COUNT_HW_CPU_CYCLES] = "INTERNAL_CLOCKS",
		[PERF_COUNT_HW_INSTRUCTIONS] = "X86_INSTRUCTIONS" } },
	{ "vc3", {
		[PERF_COUNT_HW_CPU_CYCLES] = "INTERNAL_CLOCKS",
		[PERF_COUNT_HW_INSTRUCTIONS] = "INSTRUCTIONS_EXECUTED" } },
	{ "ppc604 ppc604e ppc750 ppc7400 ppc7450", {
		[PERF_COUNT_HW_CPU_CYCLES] = "CYCLES",
		[PERF_COUNT_HW_INSTRUCTIONS] = "INSTR_COMPLETED" } },
	{ "xscale1 xscale2", {
		[PERF_COUNT_HW_CPU_CYCLES] = PMU__GENERIC_TSC,
		[PERF_COUNT_HW_INSTRUCTIONS] = "INSTRUCTION",
		[PERF_COUNT_HW_CACHE_REFERENCES] = "DCACHE_ACCESS",
		[PERF_COUNT_HW_CACHE_MISSES] = "DCACHE_MISS",
		[PERF_COUNT_HW_BRANCH_INSTRUCTIONS] = "BRANCH",
		[PERF_COUNT_HW_BRANCH_MISSES] = "BRANCH_MISS" } },
	{ "generic", {
		[PERF_COUNT_HW_CPU_CYCLES] = PMU__GENERIC_TSC } },
};

static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

const char *pmu__generic_spec(const char *model, uint64_t hw_config)
{
	if (!model || hw_config >= N_HW)
		return NULL;
	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++)
		if (in_list(maps[i].models, model))
			return maps[i].ev[hw_config];
	return NULL;
}

/*
 * Generic cache events (PERF_TYPE_HW_CACHE: cache | op << 8 | result <<
 * 16).  Facts: Linux's AMD table for K7 to family 10h and its XScale
 * tables; the P5 family, which perf never supported, maps the obvious
 * events of its own catalog.  Linux has no cache events for the P6
 * family or the Pentium 4, and neither has this table.
 */
#define HC(c, op, res) ((c) | (PERF_COUNT_HW_CACHE_OP_##op << 8) | \
			(PERF_COUNT_HW_CACHE_RESULT_##res << 16))
#define L1D PERF_COUNT_HW_CACHE_L1D
#define L1I PERF_COUNT_HW_CACHE_L1I
#define LL PERF_COUNT_HW_CACHE_LL
#define BPU PERF_COUNT_HW_CACHE_BPU

struct cache_map {
	const char *models;
	struct { uint64_t config; const char *ev; } ev[10];
};

static const struct cache_map cache_maps[] = {
	{ "amd64_k8_revb amd64_k8_revc amd64_fam10h_barcelona", {
		{ HC(L1D, READ, ACCESS), "DATA_CACHE_ACCESSES" },
		{ HC(L1D, READ, MISS), "DATA_CACHE_MISSES" },
		{ HC(L1I, READ, ACCESS), "INSTRUCTION_CACHE_FETCHES" },
		{ HC(L1I, READ, MISS), "INSTRUCTION_CACHE_MISSES" },
		{ HC(LL, READ, ACCESS), "REQUESTS_TO_L2:INSTRUCTIONS:DATA" },
		{ HC(LL, READ, MISS), "L2_CACHE_MISS:INSTRUCTIONS:DATA" },
		{ HC(BPU, READ, ACCESS), "RETIRED_BRANCH_INSTRUCTIONS" },
		{ HC(BPU, READ, MISS),
		  "RETIRED_MISPREDICTED_BRANCH_INSTRUCTIONS" } } },
	{ "amd64_k7", {
		{ HC(L1D, READ, ACCESS), "DATA_CACHE_ACCESSES" },
		{ HC(L1D, READ, MISS), "DATA_CACHE_MISSES" },
		{ HC(L1I, READ, ACCESS), "INSTRUCTION_CACHE_FETCHES" },
		{ HC(L1I, READ, MISS), "INSTRUCTION_CACHE_MISSES" },
		{ HC(BPU, READ, ACCESS), "RETIRED_BRANCH_INSTRUCTIONS" },
		{ HC(BPU, READ, MISS),
		  "RETIRED_MISPREDICTED_BRANCH_INSTRUCTIONS" } } },
	{ "p5 p5mmx mii", {
		{ HC(L1D, READ, ACCESS), "DATA_READ" },
		{ HC(L1D, READ, MISS), "DATA_READ_MISS" },
		{ HC(L1D, WRITE, ACCESS), "DATA_WRITE" },
		{ HC(L1D, WRITE, MISS), "DATA_WRITE_MISS" },
		{ HC(L1I, READ, ACCESS), "CODE_READ" },
		{ HC(L1I, READ, MISS), "CODE_CACHE_MISS" },
		{ HC(BPU, READ, ACCESS), "BRANCHES" } } },
	{ "xscale1 xscale2", {
		{ HC(L1D, READ, ACCESS), "DCACHE_ACCESS" },
		{ HC(L1D, READ, MISS), "DCACHE_MISS" },
		{ HC(L1D, WRITE, ACCESS), "DCACHE_ACCESS" },
		{ HC(L1D, WRITE, MISS), "DCACHE_MISS" },
		{ HC(L1I, READ, MISS), "ICACHE_MISS" },
		{ HC(BPU, READ, ACCESS), "BRANCH" },
		{ HC(BPU, READ, MISS), "BRANCH_MISS" } } },
};

const char *pmu__generic_cache_spec(const char *model, uint64_t config)
{
	if (!model)
		return NULL;
	for (size_t i = 0; i < sizeof(cache_maps) / sizeof(cache_maps[0]); i++) {
		if (!in_list(cache_maps[i].models, model))
			continue;
		for (size_t j = 0; j < 10 && cache_maps[i].ev[j].ev; j++)
			if (cache_maps[i].ev[j].config == config)
				return cache_maps[i].ev[j].ev;
		return NULL;
	}
	return NULL;
}
