/* SPDX-License-Identifier: MIT */
/* Fuzz target: arbitrary event strings through the catalog encoder. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/event.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmu_encode_opts o = { .sz = sizeof(o), .model = "zen4" };
	struct pmu_encoding e = { .size = sizeof(e) };
	struct pmu_error err = { .size = sizeof(err) };
	char *s = malloc(size + 1);

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	pmu_event_encode(s, &o, &e, &err);
	pmu_event_encode(s, NULL, &e, NULL);
	o.flags = PMU_ENCODE_RAW_ONLY;
	pmu_event_encode(s, &o, &e, &err);
	free(s);
	return 0;
}
