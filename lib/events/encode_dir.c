/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "events/encode.h"
#include "events/jsondir.h"

/*
 * Encoding with a vendor directory given per call (opts->events_dir):
 * the directory is loaded for the call and freed after it; its models
 * are not registered with the catalog.
 */

static const struct pmu__catmodel *pick(const struct pmu__jsondir *jd,
				     const char *str, const char **rest,
				     const struct pmu_encode_opts *opts)
{
	const char *sep = strstr(str, "::");
	char name[PMU__JSONDIR_NAME_MAX], cpuid[64];
	const struct pmu__catmodel *m;

	*rest = str;
	if (sep) {
		snprintf(name, sizeof(name), "%.*s", (int)(sep - str), str);
		if ((m = pmu__jsondir_model(jd, name)))
			*rest = sep + 2;
		return m;
	}
	if (opts->model)
		return pmu__jsondir_model(jd, opts->model);
	if (pmu__jsondir_host_cpuid(cpuid, sizeof(cpuid)))
		return NULL;
	return pmu__jsondir_model(jd, cpuid);
}

int pmu__encode_dir(const char *dir, const char *str,
		    const struct pmu_encode_opts *opts, struct pmu_encoding *out,
		    struct pmu_error *err)
{
	struct pmu_encode_opts o = *opts;
	struct pmu__jsondir *jd;
	const struct pmu__catmodel *m;
	const char *rest;
	int rc;

	o.sz = sizeof(o);
	o.events_dir = NULL;
	if (!(jd = pmu__jsondir_load(dir, err)))
		return -errno;
	m = pick(jd, str, &rest, &o);
	rc = m ? pmu__encode(m, rest, &o, out, err)
	       : pmu_event_encode(str, &o, out, err);
	pmu__jsondir_free(jd);
	return rc;
}
