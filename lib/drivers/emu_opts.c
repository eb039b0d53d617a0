/* SPDX-License-Identifier: MIT */
/*
 * The emulator's settings: a space-separated list of KEY=VALUE tokens
 * (docs/emulation.md), on top of the defaults: the caches of the model
 * when one was chosen, else this host's (sysfs), else cachegrind's usual
 * 32 KiB 8-way L1s and an 8 MiB 16-way LL.
 *
 *   I1=SIZE,ASSOC,LINE  D1=...  LL=... (LL=0: none)   sizes in bytes,
 *                                      or with a K or M suffix
 *   predictor=gshare|bimodal
 *   costs=INSTR,L1MISS,LLMISS,MISPREDICT,SYSCALL      cycles
 *   regions                            count between the markers only
 *   report-ms=N                        records every N ms (for -I)
 *   report-insns=N                     a snapshot every N guest
 *                                      instructions of each process
 *   max-samples=N                      per process (0: no limit)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/emu_drv.h"
#include "drivers/emu_map.h"
#include "util/error.h"
#include "util/host_caches.h"

#define MAX_TOKEN 128

static void defaults(const struct pmu_hwmodel *m, bool model_given,
		     struct emu_settings *s)
{
	struct pmu__cache_geom h[3];

	memset(s, 0, sizeof(*s));
	s->i1 = (struct pmu_emu_cache_geom){ 32768, 8, 64 };
	s->d1 = s->i1;
	s->ll = (struct pmu_emu_cache_geom){ 8u << 20, 16, 64 };
	s->predictor = PMU_EMU_BP_GSHARE;
	s->costs = (struct pmu_emu_costs){ 1, 10, 100, 15, 200 };
	if (model_given &&
	    !pmu__emu_hwmodel_caches(m->name, &s->i1, &s->d1, &s->ll))
		return;
	if (pmu__host_caches(NULL, &h[0], &h[1], &h[2]))
		return;
	s->i1 = (struct pmu_emu_cache_geom){ h[0].size, h[0].assoc, h[0].line };
	s->d1 = (struct pmu_emu_cache_geom){ h[1].size, h[1].assoc, h[1].line };
	if (h[2].size)
		s->ll = (struct pmu_emu_cache_geom){ h[2].size, h[2].assoc,
						     h[2].line };
}

static int bad(struct pmu_error *err, const char *tok, const char *why)
{
	return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, tok, -1,
			  "bad emulator setting '%s': %s", tok, why);
}

/* "32768", "32K", "8M" */
static bool size_val(const char *s, char **end, uint64_t *v)
{
	unsigned long long x;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	x = strtoull(s, end, 10);
	if (errno)
		return false;
	if (**end == 'K' || **end == 'k')
		x <<= 10, (*end)++;
	else if (**end == 'M' || **end == 'm')
		x <<= 20, (*end)++;
	*v = x;
	return x <= UINT32_MAX;
}

/* n comma-separated numbers, exactly */
static bool numbers(const char *s, uint64_t *v, int n)
{
	char *end;

	for (int i = 0; i < n; i++) {
		if (!size_val(s, &end, &v[i]))
			return false;
		if (i < n - 1 && *end != ',')
			return false;
		s = end + 1;
	}
	return *end == '\0';
}

static int cache(const char *tok, const char *val, bool may_be_none,
		 struct pmu_emu_cache_geom *g, struct pmu_error *err)
{
	uint64_t v[3];

	if (may_be_none && !strcmp(val, "0")) {
		*g = (struct pmu_emu_cache_geom){ 0, 0, 0 };
		return 0;
	}
	if (!numbers(val, v, 3))
		return bad(err, tok, "expected SIZE,ASSOC,LINE, e.g. "
			   "32768,8,64 (sizes in bytes, K or M)");
	if (v[2] < 16 || v[2] > 4096 || (v[2] & (v[2] - 1)))
		return bad(err, tok, "the line size must be a power of two "
			   "from 16 to 4096");
	if (!v[1] || !v[0] || v[0] % (v[1] * v[2]))
		return bad(err, tok, "the size must be a whole number of "
			   "sets of ASSOC lines");
	*g = (struct pmu_emu_cache_geom){ (uint32_t)v[0], (uint32_t)v[1],
					  (uint32_t)v[2] };
	return 0;
}

/* A count of guest instructions, 1 to 2^63 (no K/M: sizes are bytes). */
static int insns(const char *tok, const char *val, uint64_t *out,
		 struct pmu_error *err)
{
	unsigned long long x;
	char *end;

	if (*val < '0' || *val > '9')
		return bad(err, tok, "expected a number of instructions >= 1");
	errno = 0;
	x = strtoull(val, &end, 10);
	if (errno || *end || !x || x > INT64_MAX)
		return bad(err, tok, "expected a number of instructions from "
			   "1 to 2^63-1");
	*out = x;
	return 0;
}

static int one(const char *tok, struct emu_settings *s,
	       struct pmu_error *err)
{
	const char *eq = strchr(tok, '=');
	size_t klen = eq ? (size_t)(eq - tok) : strlen(tok);
	const char *val = eq ? eq + 1 : "";
	uint64_t v[5];

#define KEY(k) (klen == strlen(k) && !strncmp(tok, k, klen))
	if (KEY("I1"))
		return cache(tok, val, false, &s->i1, err);
	if (KEY("D1"))
		return cache(tok, val, false, &s->d1, err);
	if (KEY("LL"))
		return cache(tok, val, true, &s->ll, err);
	if (KEY("predictor")) {
		if (!strcmp(val, "gshare") || !strcmp(val, "bimodal")) {
			s->predictor = val[0] == 'g' ? PMU_EMU_BP_GSHARE
						     : PMU_EMU_BP_BIMODAL;
			return 0;
		}
		return bad(err, tok, "the predictors are gshare and bimodal");
	}
	if (KEY("costs")) {
		if (!numbers(val, v, 5))
			return bad(err, tok, "expected five cycle counts: "
				   "INSTR,L1MISS,LLMISS,MISPREDICT,SYSCALL");
		s->costs = (struct pmu_emu_costs){ (uint32_t)v[0],
			(uint32_t)v[1], (uint32_t)v[2], (uint32_t)v[3],
			(uint32_t)v[4] };
		return 0;
	}
	if (KEY("regions") && !eq) {
		s->regions = true;
		return 0;
	}
	if (KEY("report-insns"))
		return insns(tok, val, &s->report_insns, err);
	if (KEY("report-ms") || KEY("max-samples")) {
		if (!numbers(val, v, 1))
			return bad(err, tok, "expected a whole number");
		if (KEY("report-ms"))
			s->report_ms = (uint32_t)v[0];
		else
			s->max_samples = (uint32_t)v[0];
		return 0;
	}
#undef KEY
	return bad(err, tok, "the settings are I1=, D1=, LL=, predictor=, "
		   "costs=, regions, report-ms=, report-insns=, max-samples=");
}

int pmu__emu_settings(const struct pmu_hwmodel *m, bool model_given,
		      const char *text, struct emu_settings *s,
		      struct pmu_error *err)
{
	char tok[MAX_TOKEN];

	defaults(m, model_given, s);
	for (const char *p = text ? text : ""; *p;) {
		size_t n = strcspn(p, " \t");
		int rc;

		if (n >= sizeof(tok))
			return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE,
					  NULL, -1, "emulator setting too long: "
					  "'%.40s...'", p);
		if (n) {
			memcpy(tok, p, n);
			tok[n] = '\0';
			if ((rc = one(tok, s, err)))
				return rc;
		}
		p += n + (p[n] != '\0');
	}
	return 0;
}
