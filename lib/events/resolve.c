/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/catalog.h"
#include "events/encode.h"
#include "events/jsondir.h"
#include "events/resolve.h"
#include "util/error.h"

static int set_spec(struct pmu__ev *ev, const char *model, const char *event)
{
	size_t n = strlen(model) + strlen(event) + 3;

	free(ev->spec);
	ev->spec = malloc(n);
	if (!ev->spec)
		return -ENOMEM;
	snprintf(ev->spec, n, "%s::%s", model, event);
	return 0;
}

static void set_attr(struct perf_event_attr *attr,
		     const struct pmu_encoding *enc)
{
	attr->type = enc->perf.type;
	attr->config = enc->perf.config;
	attr->config1 = enc->perf.config1;
	attr->config2 = enc->perf.config2;
	attr->exclude_user = enc->perf.exclude_user;
	attr->exclude_kernel = enc->perf.exclude_kernel;
	attr->exclude_hv = enc->perf.exclude_hv;
	/* what the encoding decided for guests and host (the model's mg/mh
	 * or perf's default) is what is opened, as pmu encode shows it */
	attr->exclude_host = enc->perf.exclude_host;
	attr->exclude_guest = enc->perf.exclude_guest;
	attr->precise_ip = enc->perf.precise_ip & 3;
	attr->sample_period = enc->sample_period;
}

int pmu__catalog_resolve(const char *pmu, const char *event,
			 struct pmu__ev *ev, struct pmu_error *err)
{
	struct pmu_encoding enc = { .size = sizeof(enc) };
	const struct pmu__catmodel *m;
	int ret;

	pmu__jsondir_env_load();
	m = pmu__catalog_find(pmu, strlen(pmu));
	if (!m)
		return -ENOENT;
	ret = pmu__encode(m, event, NULL, &enc, err);
	/* an unknown event of a known model is a parse error, as an
	 * unknown generic name is: the same errno in both places */
	if (ret)
		return pmu__error_recode(err, ret == -ENOENT ? -EINVAL : ret);
	snprintf(ev->model, sizeof(ev->model), "%s", m->name);
	ev->ncodes = enc.ncodes < PMU__EV_MAX_CODES ? enc.ncodes
						    : PMU__EV_MAX_CODES;
	memcpy(ev->codes, enc.codes, sizeof(ev->codes[0]) * (size_t)ev->ncodes);
	ev->flags |= PMU__EV_HW;
	if (set_spec(ev, m->name, event))
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	/* a register-level model only (P6, XScale...): simulated drivers
	 * count it, perf cannot */
	if (!enc.has_perf)
		ev->flags |= PMU__EV_NO_PERF;
	else
		set_attr(&ev->attr, &enc);
	return 0;
}
