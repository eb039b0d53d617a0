/* SPDX-License-Identifier: MIT */
/*
 * The perf.data reader on arbitrary bytes: open, every sample with its
 * frames, and the reports and exports that walk them, with children and
 * both call-graph orders (text, JSON, folded, flame graph, script,
 * pprof, Firefox Profiler).  Files named by the input are never opened.
 */
#include <stdint.h>
#include <stdio.h>

#include <pmu/pmu.h>

struct pmu_profile *pmu__profile_open_mem(const void *buf, size_t len,
					  struct pmu_error *err);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_profile *p = pmu__profile_open_mem(data, size, &err);
	struct pmu_sample s = { .size = sizeof(s) };
	struct pmu_frame f = { .size = sizeof(f) };
	struct pmu_report_opts o = { .sz = sizeof(o), .children = true,
				     .callgraph = PMU_CALLGRAPH_CALLER };
	static const enum pmu_report_format fmts[] = {
		PMU_REPORT_STDIO, PMU_REPORT_JSON, PMU_REPORT_FOLDED,
		PMU_REPORT_SVG, PMU_REPORT_SCRIPT, PMU_REPORT_PPROF,
		PMU_REPORT_FIREFOX,
	};
	FILE *null;

	if (!p)
		return 0;
	while (pmu_profile_next(p, &s) > 0)
		for (size_t i = 0; i < s.nframes; i++)
			pmu_profile_frame(p, i, &f);
	null = fopen("/dev/null", "w");
	for (size_t i = 0; null && i < sizeof(fmts) / sizeof(fmts[0]); i++)
		pmu_report_write(p, NULL, fmts[i], null, &o, &err);
	/* the other order, without children */
	o.children = false;
	o.callgraph = PMU_CALLGRAPH_CALLEE;
	if (null)
		pmu_report_write(p, NULL, PMU_REPORT_STDIO, null, &o, &err);
	if (null)
		fclose(null);
	pmu_profile_close(p);
	return 0;
}
