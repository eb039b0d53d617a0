/* SPDX-License-Identifier: MIT */
#include <errno.h>

#include "util/error.h"
#include "util/opts.h"

int pmu__opts_check(const void *opts, size_t user_sz, size_t known_sz,
		    const char *type, struct pmu_error *err)
{
	const unsigned char *p = opts;

	if (user_sz < sizeof(size_t))
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, type, -1,
				  "struct %s: sz is %zu; set it to "
				  "sizeof(struct %s) (PMU_OPTS_INIT does)",
				  type, user_sz, type);
	for (size_t i = known_sz; i < user_sz; i++)
		if (p[i])
			return pmu__error(err, -EINVAL, PMU_ERR_USAGE, type, -1,
					  "struct %s: byte %zu is set, but "
					  "this libpmu knows only the first "
					  "%zu bytes (built against a newer "
					  "libpmu, or padding left unset? "
					  "PMU_OPTS() zeroes it)", type, i,
					  known_sz);
	return 0;
}
