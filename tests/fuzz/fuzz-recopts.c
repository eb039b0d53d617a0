/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for pmu record's command line: the input is the argument
 * vector after "record" (argv.h).  The answer must be one of the tool's
 * (go on, done, usage or input error); one that goes on has a command
 * or a target, a power-of-two -m and a stack size the kernel copies.
 */
#include "argv.h"

#include "../../tools/pmu/tool.c"
#include "../../tools/pmu/launch.c"
#include "../../tools/pmu/stat_emu.c"
#include "../../tools/pmu/record.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_argv a;
	struct rec_cli c = { .o = { .sz = sizeof(c.o),
				    .target = PMU_TARGET_CHILD },
			     .out = "perf.data" };
	int rc;

	if (fuzz_argv(&a, "record", data, size))
		return 0;
	fuzz_quiet(&a);
	rc = parse_args(a.argc, a.argv, &c);
	fuzz_loud(&a);
	if (rc != 0 && rc != -1 && rc != EXIT_PMU_USAGE && rc != EXIT_PMU_INPUT)
		abort();
	if (rc == 0 &&
	    ((!*c.argv && c.o.target == PMU_TARGET_CHILD) ||
	     (c.o.mmap_pages & (c.o.mmap_pages - 1)) ||
	     c.o.stack_size > 65528 || c.npids > size ||
	     (c.events && strlen(c.events) > 2 * size)))
		abort();
	free(c.events);
	free(c.pids);
	free(c.emu.settings);
	fuzz_argv_done(&a);
	return 0;
}
