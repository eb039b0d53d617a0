/* SPDX-License-Identifier: MIT */
/* The drivers by name: what a session's `driver` option chooses. */
#include <errno.h>
#include <string.h>

#include "drivers/driver.h"
#include "drivers/emu_drv.h"
#include "drivers/perf.h"
#include "drivers/sim_drv.h"
#include "util/error.h"

const char *pmu__driver_names(void)
{
	return "perf, sim, emu";
}

int pmu__driver_new(const char *name, const char *model,
		    struct pmu__drv **out, struct pmu_error *err)
{
	return pmu__driver_new_with(name, model, NULL, out, err);
}

int pmu__driver_new_with(const char *name, const char *model,
			 const char *settings, struct pmu__drv **out,
			 struct pmu_error *err)
{
	*out = NULL;
	if (name && !strcmp(name, "emu"))
		return pmu__emu_driver_new(model, settings, out, err);
	if (settings && *settings)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, settings, -1,
				  "emulator settings ('%s') only apply to the "
				  "emu driver", settings);
	if (!name || !*name || !strcmp(name, "perf")) {
		if (model && *model)
			return pmu__error(err, -EINVAL, PMU_ERR_USAGE, model, -1,
					  "the perf driver counts this "
					  "machine's PMU: a model ('%s') only "
					  "applies to the sim and emu drivers",
					  model);
		*out = pmu__perf_driver_new(NULL);
		if (!*out)
			return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL,
					  -1, "out of memory");
		return 0;
	}
	if (!strcmp(name, "sim"))
		return pmu__sim_driver_new(model, out, err);
	return pmu__error(err, -ENOENT, PMU_ERR_USAGE, name, -1,
			  "unknown driver '%s' (drivers: %s)", name,
			  pmu__driver_names());
}
