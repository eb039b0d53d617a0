/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the JSON reader and the control-file conversion: any
 * input either parses (and then converts or is rejected with a named
 * field) or fails with a positioned message; accepted controls are run
 * through every model's check.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/control_json.h"
#include "hwmodel/control.h"
#include "util/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_models(const struct pmu_control *c)
{
	for (size_t i = 0; i < pmu__hwmodel_count(); i++) {
		struct pmu_control_result r;
		int rc = pmu__control_check(pmu__hwmodel_at(i), c, c->is_global, &r);

		if (rc != r.err || !r.rule || !r.message || (rc && r.cstatus))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_json *root = pmu__json_parse((const char *)data, size, &err);
	struct pmu_control c;

	if (!root) {
		if (err.code >= 0 || !strstr(err.message, "line "))
			abort();
		return 0;
	}
	if (pmu__control_from_json(root, &c, &err) == 0)
		check_models(&c);
	else if (!err.token[0] || !strstr(err.message, "field '"))
		abort();
	pmu__json_free(root);
	return 0;
}
