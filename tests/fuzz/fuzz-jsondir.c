/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the vendor event-directory loader, without the file
 * system: the input is "MAPFILE\n%%\nJSON" (or JSON alone, loaded into
 * one AMD and one Intel model).  Whatever loads must give models whose
 * every event and umask encodes or fails with a message; whatever fails
 * must say why.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/encode.h"
#include "events/jsondir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char default_map[] =
	"Family-model,Version,Filename,EventType\n"
	"AuthenticAMD-25-[[:xdigit:]]+,v1,zen,core\n"
	"GenuineIntel-6-(4E|5E),V1,/X/events/x_core.json,core,,,\n";

static void encode_all(const struct pmu__jsondir *jd,
		       const struct pmu__catmodel *m)
{
	for (uint32_t e = 0; e < m->nevents; e++) {
		const struct pmu__event *ev = &m->events[e];
		struct pmu_encode_opts o = { .sz = sizeof(o) };
		char s[160];

		for (int u = -1; u < (int)ev->numasks; u++) {
			struct pmu_encoding enc = { .size = sizeof(enc) };
			struct pmu_error err = { .size = sizeof(err) };
			if (u < 0)
				snprintf(s, sizeof(s), "%s",
					 pmu__ev_name(m, ev));
			else
				snprintf(s, sizeof(s), "%s:%s",
					 pmu__ev_name(m, ev),
					 pmu__um_name(m,
						&pmu__event_umasks(m, ev)[u]));
			if (pmu__encode(m, s, &o, &enc, &err) && !err.message[0])
				abort();
			(void)pmu__jsondir_long_desc(jd, m, ev, u);
		}
		if (pmu__catmodel_event(m, pmu__ev_name(m, ev),
				     strlen(pmu__ev_name(m, ev))) == NULL)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data, *sep;
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu__jsondir *jd = pmu__jsondir_new();
	size_t maplen = 0, off = 0;
	int rc;

	if (!jd)
		return 0;
	sep = size >= 4 ? memmem(text, size, "\n%%\n", 4) : NULL;
	if (sep) {
		maplen = (size_t)(sep - text);
		off = maplen + 4;
	}
	rc = sep ? pmu__jsondir_add_map(jd, NULL, text, maplen, &err)
		 : pmu__jsondir_add_map(jd, NULL, default_map,
					strlen(default_map), &err);
	for (size_t i = 0; !rc && i < pmu__jsondir_count(jd); i++)
		rc = pmu__jsondir_add_events(jd, i, "input", text + off,
					     size - off, &err);
	if (!rc)
		rc = pmu__jsondir_finish(jd, &err);
	if (rc && !err.message[0])
		abort();
	for (size_t i = 0; !rc && i < pmu__jsondir_count(jd); i++)
		encode_all(jd, pmu__jsondir_model_at(jd, i));
	(void)pmu__jsondir_model(jd, "GenuineIntel-6-5E");
	(void)pmu__jsondir_model(jd, "AuthenticAMD-25-11");
	pmu__jsondir_free(jd);
	return 0;
}
