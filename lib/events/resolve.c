/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>

#include "events/catalog.h"
#include "events/encode.h"
#include "events/jsondir.h"
#include "events/resolve.h"
#include "util/error.h"

_Static_assert(__builtin_types_compatible_p(__typeof__(&pmu__catalog_resolve),
					    pmu__catalog_resolve_fn),
	       "pmu__catalog_resolve must match the catalog hook type");

/*
 * "pmu::EVENT" names from the perf-style parser: encode with the catalog
 * and hand back what perf_event_open needs.
 */
int pmu__catalog_resolve(const char *pmu, const char *event,
			 struct perf_event_attr *attr, struct pmu_error *err)
{
	struct pmu_encoding enc = { .size = sizeof(enc) };
	const struct pmu__model *m;
	int ret;

	pmu__jsondir_env_load();
	m = pmu__catalog_find(pmu, strlen(pmu));
	if (!m)
		return -ENOENT;
	ret = pmu__encode(m, event, NULL, &enc, err);
	if (ret)
		return ret == -ENOENT ? -EINVAL : ret;
	if (!enc.has_perf)
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED,
				  event, -1, "%s::%s has no perf_event "
				  "encoding", pmu, event);
	attr->type = enc.perf.type;
	attr->config = enc.perf.config;
	attr->config1 = enc.perf.config1;
	attr->config2 = enc.perf.config2;
	attr->exclude_user = enc.perf.exclude_user;
	attr->exclude_kernel = enc.perf.exclude_kernel;
	attr->exclude_hv = enc.perf.exclude_hv;
	attr->precise_ip = enc.perf.precise_ip & 3;
	return 0;
}
