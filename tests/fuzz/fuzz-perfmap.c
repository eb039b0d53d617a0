/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for JIT symbol maps (/tmp/perf-PID.map): a file any
 * process may write, read when its samples are reported.  The input is
 * written as this process's map and read through the DSO set; addresses
 * taken from the input are looked up.  Lines that parse give symbols,
 * the rest are skipped; nothing may crash, hang or leak.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "profile/dso.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int pid = (int)getpid();
	struct pmu__dso_set *s;
	struct pmu__dso *d;
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", pid);
	if (!(f = fopen(path, "w")))
		return 0;
	if (size && fwrite(data, 1, size, f) != size) {
		fclose(f);
		unlink(path);
		return 0;
	}
	fclose(f);
	s = pmu__dso_set_new(false);
	if (s && (d = pmu__dso_perfmap(s, pid))) {
		/* addresses of the input's own numbers, and the edges */
		uint64_t probe[8] = { 0, 1, 0x1000, UINT64_MAX };

		for (size_t i = 0; i < 4 && 8 * (i + 1) <= size; i++)
			memcpy(&probe[4 + i], data + 8 * i, 8);
		for (size_t i = 0; i < 8; i++) {
			const struct pmu__addr_info *a = pmu__dso_resolve(d, probe[i]);

			/* a symbol found covers the address, and has a name */
			if (a->sym && (a->sym->start > a->addr ||
				       a->sym->end <= a->addr || !a->sym->name))
				__builtin_trap();
		}
	}
	pmu__dso_set_free(s);
	unlink(path);
	return 0;
}
