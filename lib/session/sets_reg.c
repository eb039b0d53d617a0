/* SPDX-License-Identifier: MIT */
/* Event sets on a register-level (simulated) PMU: not yet. */
#include <errno.h>

#include "session/session.h"
#include "util/error.h"

int pmu__session_sets_reg_open(struct pmu_session *s, struct pmu_error *err)
{
	const char *model = pmu_session_model(s);

	return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED, NULL, -1,
			  "event sets on a simulated PMU (%s driver%s%s) are "
			  "not supported yet: count one set, or use the perf "
			  "driver", s->drv->ops->name, model ? ", model " : "",
			  model ? model : "");
}
