/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for pmu stat's command line: the input is the argument
 * vector after "stat" (argv.h).  Every option value goes through the
 * parsers and the checks of combinations; the answer must be one of the
 * tool's (go on, done, usage or input error), and one that goes on
 * holds only what the vector gave.
 */
#include "argv.h"

#include "../../tools/pmu/tool.c"
#include "../../tools/pmu/stat_opts.c"
#include "../../tools/pmu/stat_sets.c"
#include "../../tools/pmu/stat_emu.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the sets' printing, never reached by parsing */
void stat_out_ts(FILE *f, const struct stat_opts *o, double ts,
		 const char *after)
{
	(void)f, (void)o, (void)ts, (void)after;
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_argv a;
	struct stat_opts o = { 0 };
	int rc;

	if (fuzz_argv(&a, "stat", data, size))
		return 0;
	fuzz_quiet(&a);
	rc = stat_parse_args(&o, a.argc, a.argv);
	fuzz_loud(&a);
	if (rc != 0 && rc != -1 && rc != EXIT_PMU_USAGE && rc != EXIT_PMU_INPUT)
		abort();
	if (rc == 0) {
		if (o.nevents >= (size_t)a.argc || o.nmetrics >= (size_t)a.argc ||
		    o.ncgroups >= (size_t)a.argc || o.npids > size || o.repeat < 1 ||
		    (o.argv && (o.argv <= a.argv || o.argv >= a.argv + a.argc)))
			abort();
		for (size_t i = 0; i < o.nevents; i++)
			if (!fuzz_argv_has(&a, o.events[i]) &&
			    !(o.events[i] > a.buf && o.events[i] <= a.buf + size))
				abort();
		if (o.outfile && !(o.outfile >= a.buf && o.outfile <= a.buf + size))
			abort();
	}
	stat_opts_free(&o);
	fuzz_argv_done(&a);
	return 0;
}
