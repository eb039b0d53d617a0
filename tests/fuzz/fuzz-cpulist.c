/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for CPU lists: what -C takes and what sysfs cpumask and
 * online files hold ("0-3,5,7-8").  A list that parses is sorted,
 * without repeats and within PMU__CPU_MAX, and every CPU of it is found
 * in it; one that fails names its bad element; nothing may crash or
 * leak.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/cpulist.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu__cpulist l = { 0 };
	char *s = malloc(size + 1);

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (pmu__cpulist_parse(s, &l, &err) == 0) {
		for (size_t i = 0; i < l.n; i++)
			if (l.cpu[i] < 0 || l.cpu[i] > PMU__CPU_MAX ||
			    (i && l.cpu[i] <= l.cpu[i - 1]) ||
			    !pmu__cpulist_has(&l, l.cpu[i]))
				__builtin_trap();
		pmu__cpulist_free(&l);
	} else if (!err.message[0]) {
		__builtin_trap();   /* a failure says why */
	}
	free(s);
	return 0;
}
