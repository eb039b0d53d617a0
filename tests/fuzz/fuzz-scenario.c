/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for scenarios (docs/scenario-format.md): every input is
 * run; a malformed one must fail with a negative errno and a message, a
 * well-formed one returns its count of failed expectations.  Inputs
 * whose streams could run long (repeat blocks, big counts) are only
 * parsed up to their first 'run' block.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/perfmon.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Does a stream inside the input risk a long run? */
static bool heavy(const char *t, size_t n)
{
	size_t digits = 0;

	for (size_t i = 0; i < n; i++) {
		if (i + 6 <= n && memcmp(t + i, "repeat", 6) == 0)
			return true;
		digits = isdigit((unsigned char)t[i]) ? digits + 1 : 0;
		if (digits > 5)
			return true;
	}
	return false;
}

static void run(const char *text, size_t len)
{
	struct pmu_error err = { .size = sizeof(err) };
	int rc = pmu_perfmon_scenario(text, len, NULL, NULL, NULL, &err);

	if (rc < 0 && (err.code != rc || !err.message[0]))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *stop = NULL;

	if (heavy(text, size)) {
		/* keep what comes before the first stream */
		for (size_t i = 0; i + 3 <= size && !stop; i++)
			if (memcmp(text + i, "run", 3) == 0)
				stop = text + i;
		run(text, stop ? (size_t)(stop - text) : 0);
		return 0;
	}
	run(text, size);
	return 0;
}
