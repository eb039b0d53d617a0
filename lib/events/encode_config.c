/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>

#include "events/encode.h"

/*
 * Kernel pmu-events models of arm64, POWER, s390 and RISC-V: the core
 * PMUs' sysfs formats put the whole event code in config (arm64
 * "event=config:0-15", POWER "event=config:0-49", s390 cpum_cf
 * "event=config:0-63", RISC-V "event=config:0-47"), so the register
 * code and the perf config are the event's code; privilege levels are
 * perf's exclude bits.  A vendor name with dots selects one record of
 * a family (its umask holds that record's whole code).
 */

static int pick(const struct pmu__enc_req *r, int *chosen,
		struct pmu_encoding *out, struct pmu_error *err)
{
	const struct pmu__umask *u = pmu__event_umasks(r->m, r->ev);

	*chosen = -1;
	if (r->has_raw)
		return pmu__encode_fail(out, err, PMU_ERR_BAD_UMASK,
			pmu__req_name(r), "%s takes no raw umask: its code "
			"is the whole config", pmu__req_name(r));
	if (r->nu > 1)
		return pmu__encode_fail(out, err, PMU_ERR_CONFLICT,
			pmu__req_name(r), "%s: these umasks cannot be "
			"combined", pmu__req_name(r));
	if (r->nu == 1) {
		*chosen = r->um[0];
		return 0;
	}
	for (int i = 0; i < r->ev->numasks; i++)
		if (u[i].flags & PMU__UM_DFL)
			*chosen = i;
	if (*chosen < 0 && r->ev->numasks)
		return pmu__encode_fail(out, err, PMU_ERR_BAD_UMASK,
			pmu__req_name(r), "%s needs a umask; see 'pmu list "
			"%s::%s'", pmu__req_name(r), r->m->name,
			pmu__req_name(r));
	return 0;
}

static void put_mods(struct pmu__sb *b, const struct pmu__enc_req *r)
{
	pmu__sb_puts(b, ":k=");
	pmu__sb_putu(b, pmu__encode_mod(r, PMU__MOD_K));
	pmu__sb_puts(b, ":u=");
	pmu__sb_putu(b, pmu__encode_mod(r, PMU__MOD_U));
}

int pmu__encode_config(const struct pmu__enc_req *r, struct pmu_encoding *out,
		       struct pmu_error *err)
{
	const struct pmu__umask *u = pmu__event_umasks(r->m, r->ev);
	uint64_t config = r->ev->code;
	struct pmu__sb b;
	size_t head;
	int chosen, ret = pick(r, &chosen, out, err);

	if (ret)
		return ret;
	pmu__sb_init(&b, out->fstr, sizeof(out->fstr));
	pmu__sb_puts(&b, r->m->name);
	pmu__sb_putn(&b, "::", 2);
	pmu__sb_puts(&b, pmu__req_name(r));
	if (chosen >= 0) {
		config = u[chosen].code;
		pmu__sb_putc(&b, ':');
		pmu__sb_puts(&b, pmu__um_name(r->m, &u[chosen]));
	}
	head = b.len;
	put_mods(&b, r);
	out->ncodes = 1;
	out->codes[0] = config;
	out->cntmsk = r->ev->cntmsk;
	if (r->raw_only)
		return 0;
	memcpy(out->perf_fstr, out->fstr, head);
	out->perf_fstr[head] = '\0';
	pmu__encode_perf_common(r, false, out);
	out->perf.type = r->m->perf_type;
	out->perf.config = config;
	/* perf_event modifiers have no register bits: no raw codes. */
	if (r->pmodset)
		out->ncodes = 0;
	pmu__encode_perf_fstr(r, false, out);
	return 0;
}
