/* SPDX-License-Identifier: MIT */
/* The encoders' shared ground: failing, and the modifiers in effect. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "events/encreq.h"
#include "util/error.h"

int pmu__encode_fail(struct pmu_encoding *out, struct pmu_error *err,
		     enum pmu_error_kind e, const char *token,
		     const char *fmt, ...)
{
	int code = e == PMU_ERR_UNKNOWN_EVENT || e == PMU_ERR_UNKNOWN_PMU
		   ? -ENOENT : -EINVAL;
	char msg[400];
	va_list ap;

	if (out)
		out->error = e;
	/* Callers that only want the class pay no formatting. */
	if (!err)
		return code;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return pmu__error(err, code, e, token, -1, "%s", msg);
}

void pmu__encode_resolve(struct pmu__enc_req *r)
{
	const uint32_t plm = PMU__MODBIT(PMU__MOD_U) | PMU__MODBIT(PMU__MOD_K) |
			     PMU__MODBIT(PMU__MOD_H);

	memset(r->eff, 0, sizeof(r->eff));
	for (uint32_t b = r->modset; b; b &= b - 1) {
		int m = __builtin_ctz(b);
		r->eff[m] = r->mod[m];
	}
	/* The default privilege levels apply only when none is given. */
	if (r->modset & plm)
		return;
	r->eff[PMU__MOD_U] = !!(r->dfl_plm & PMU_PLM_USER);
	r->eff[PMU__MOD_K] = !!(r->dfl_plm & PMU_PLM_KERNEL);
	r->eff[PMU__MOD_H] = !!(r->dfl_plm & PMU_PLM_HV);
}
