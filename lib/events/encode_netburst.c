/* SPDX-License-Identifier: MIT */
/*
 * Pentium 4 (netburst): an event is an ESCR (what to count, for which
 * thread and privilege level) plus a CCCR (which ESCR feeds the counter,
 * threshold logic).  The table keeps the CCCR's ESCR select in bits 15:8
 * of the event code and the ESCR event select in bits 7:0; umask codes
 * are bit numbers of the ESCR event mask (16-19: tag bits).
 */
#include <linux/perf_event.h>
#include <string.h>

#include "events/encode.h"

/* ESCR */
#define ESCR_T1_USR      (1ull << 0)
#define ESCR_T1_OS       (1ull << 1)
#define ESCR_T0_USR      (1ull << 2)
#define ESCR_T0_OS       (1ull << 3)
#define ESCR_TAG_EN      (1ull << 4)
#define ESCR_TAG_SH      5
#define ESCR_EMASK_SH    9
#define ESCR_EVSEL_SH    25
#define ESCR_EVSEL_MASK  (0x3full << ESCR_EVSEL_SH)
/* CCCR */
#define CCCR_ENABLE      (1ull << 12)
#define CCCR_ESCR_SH     13
#define CCCR_ACTIVE_BOTH (3ull << 16)  /* count for either thread */
#define CCCR_COMPARE     (1ull << 18)
#define CCCR_COMPLEMENT  (1ull << 19)
#define CCCR_THR_SH      20
#define CCCR_EDGE        (1ull << 24)

static uint64_t plm_bits(bool usr, bool os)
{
	return (usr ? ESCR_T0_USR | ESCR_T1_USR : 0) |
	       (os ? ESCR_T0_OS | ESCR_T1_OS : 0);
}

/* ESCR bits of umask bit number `bit`: bits 0-15 select event mask
 * bits, 16-19 tag bits (with the tag enable). */
static uint64_t umask_bits(uint64_t bit)
{
	if (bit < 16)
		return 1ull << (ESCR_EMASK_SH + bit);
	return ESCR_TAG_EN | 1ull << (ESCR_TAG_SH + ((bit - 16) & 3));
}

/* ESCR bits of the chosen umasks, or of the default one. */
static int event_mask(const struct pmu__enc_req *r, uint64_t *mask,
		      uint16_t *um, int *nu)
{
	const struct pmu__umask *u = pmu__event_umasks(r->m, r->ev);

	*mask = 0;
	*nu = r->nu;
	for (int i = 0; i < r->nu; i++) {
		um[i] = r->um[i];
		if (!(u[r->um[i]].flags & PMU__UM_NOBITS))
			*mask |= umask_bits(u[r->um[i]].code);
	}
	if (*nu)
		return 0;
	for (int i = 0; i < r->ev->numasks; i++)
		if (u[i].flags & PMU__UM_DFL) {
			um[(*nu)++] = (uint16_t)i;
			*mask = umask_bits(u[i].code);
			return 0;
		}
	return -1;
}

static uint64_t cccr_of(const struct pmu__enc_req *r)
{
	uint64_t c = CCCR_ENABLE | CCCR_ACTIVE_BOTH |
		     ((r->ev->code >> 8) & 7) << CCCR_ESCR_SH;
	uint64_t thr = pmu__encode_mod(r, PMU__MOD_THR);

	/* Edge, complement and threshold act through the comparator. */
	if (pmu__encode_mod(r, PMU__MOD_E))
		c |= CCCR_COMPARE | CCCR_EDGE;
	if (pmu__encode_mod(r, PMU__MOD_CMPL))
		c |= CCCR_COMPARE | CCCR_COMPLEMENT;
	if (thr)
		c |= CCCR_COMPARE | (thr & 15) << CCCR_THR_SH;
	return c;
}

static void netburst_fstr(const struct pmu__enc_req *r, const uint16_t *um,
			  int nu, uint64_t escr, uint64_t cccr, char *buf,
			  size_t sz)
{
	const struct pmu__umask *u = pmu__event_umasks(r->m, r->ev);
	uint16_t again[PMU__ENC_MAX_UMASKS];
	int na = pmu__enc_kept_twice(r, again, PMU__ENC_MAX_UMASKS);
	struct pmu__sb b;

	pmu__sb_init(&b, buf, sz);
	pmu__sb_puts(&b, r->m->name);
	pmu__sb_puts(&b, "::");
	pmu__sb_puts(&b, pmu__req_name(r));
	for (int i = 0; i < nu; i++)
		for (int k = pmu__enc_named(again, na, um[i]); k > 0; k--) {
			pmu__sb_putc(&b, ':');
			pmu__sb_puts(&b, pmu__um_name(r->m, &u[um[i]]));
		}
	pmu__sb_puts(&b, ":k=");
	pmu__sb_putu(&b, !!(escr & ESCR_T0_OS));
	pmu__sb_puts(&b, ":u=");
	pmu__sb_putu(&b, !!(escr & ESCR_T0_USR));
	pmu__sb_puts(&b, ":e=");
	pmu__sb_putu(&b, !!(cccr & CCCR_EDGE));
	pmu__sb_puts(&b, ":cmpl=");
	pmu__sb_putu(&b, !!(cccr & CCCR_COMPLEMENT));
	pmu__sb_puts(&b, ":thr=");
	pmu__sb_putu(&b, (cccr >> CCCR_THR_SH) & 15);
}

/*
 * perf_event use: the kernel's P4 driver takes ESCR:CCCR as one config,
 * with the event's index in its own event list (the same order as
 * libpfm4's, hence as our table) in place of the event select, and the
 * privilege levels from the exclude bits, so the ESCR keeps the
 * defaults.
 */
static void netburst_perf(const struct pmu__enc_req *r, const uint16_t *um,
			  int nu, uint64_t escr, uint64_t cccr,
			  struct pmu_encoding *out)
{
	uint64_t idx = (uint64_t)(r->ev - r->m->events);

	escr &= ~(ESCR_EVSEL_MASK | plm_bits(true, true));
	escr |= idx << ESCR_EVSEL_SH |
		plm_bits(r->dfl_plm & PMU_PLM_USER, r->dfl_plm & PMU_PLM_KERNEL);
	pmu__encode_perf_common(r, false, out);
	out->perf.type = PERF_TYPE_RAW;
	out->perf.config = escr << 32 | cccr;
	netburst_fstr(r, um, nu, escr, cccr, out->perf_fstr,
		      sizeof(out->perf_fstr));
	pmu__encode_perf_fstr(r, false, out);
}

int pmu__encode_netburst(const struct pmu__enc_req *r,
			 struct pmu_encoding *out, struct pmu_error *err)
{
	uint16_t um[PMU__ENC_MAX_UMASKS];
	uint64_t mask, escr, cccr;
	int nu;

	if (event_mask(r, &mask, um, &nu))
		return pmu__encode_fail(out, err, PMU_ERR_BAD_MODIFIER,
			pmu__req_name(r),
			"%s needs a umask; see 'pmu list %s::%s'",
			pmu__req_name(r), r->m->name, pmu__req_name(r));
	escr = (r->ev->code & 0x3f) << ESCR_EVSEL_SH |
	       mask |
	       plm_bits(pmu__encode_mod(r, PMU__MOD_U),
			pmu__encode_mod(r, PMU__MOD_K));
	cccr = cccr_of(r);
	out->ncodes = r->pmodset ? 0 : 2;
	out->codes[0] = escr;
	out->codes[1] = cccr;
	out->cntmsk = r->ev->cntmsk;
	netburst_fstr(r, um, nu, escr, cccr, out->fstr, sizeof(out->fstr));
	if (!r->raw_only)
		netburst_perf(r, um, nu, escr, cccr, out);
	return 0;
}
