/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <linux/perf_event.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "events/encode.h"

/* PERF_CTL / PERFEVTSEL bits shared by AMD and Intel. */
#define X86_USR      (1ull << 16)
#define X86_OS       (1ull << 17)
#define X86_EDGE     (1ull << 18)
#define X86_INT      (1ull << 20)
#define X86_ANY      (1ull << 21)
#define X86_EN       (1ull << 22)
#define X86_INV      (1ull << 23)
#define X86_CMASK_SH 24
#define AMD_GUEST    (1ull << 40)
#define AMD_HOST     (1ull << 41)
#define INTEL_INTX   (1ull << 32)
#define INTEL_INTXCP (1ull << 33)

/* Full strings spell modifiers out in the order k u e i c h g t ldlat
 * intx intxcp fe_thres: the enum's, except for ldlat. */
#define X86_MOD_BITS (PMU__MODBIT(PMU__MOD_FE_THRES + 1) - 1)
_Static_assert(PMU__MOD_K < PMU__MOD_U && PMU__MOD_U < PMU__MOD_E &&
	       PMU__MOD_E < PMU__MOD_I && PMU__MOD_I < PMU__MOD_C &&
	       PMU__MOD_C < PMU__MOD_H && PMU__MOD_H < PMU__MOD_G &&
	       PMU__MOD_G < PMU__MOD_T && PMU__MOD_T < PMU__MOD_INTX &&
	       PMU__MOD_INTX < PMU__MOD_INTXCP &&
	       PMU__MOD_INTXCP < PMU__MOD_LDLAT &&
	       PMU__MOD_LDLAT < PMU__MOD_FE_THRES,
	       "x86 full-string order follows the modifier enum");

#define LDLAT_DEFAULT 3   /* cycles, when a load-latency umask has none */
#define FETHR_DEFAULT 1   /* cycles, when a front-end umask has none */
#define FETHR_SH      8   /* front-end threshold within the umask value */
#define FETHR_MASK    (0xfffull << FETHR_SH)

/* What the umasks and modifiers add up to, before the register. */
struct x86_sel {
	uint16_t um[PMU__ENC_MAX_UMASKS * 2]; /* given + defaults, sorted */
	int nu;
	uint64_t evsel;      /* event select, bits 7:0 (and AMD 11:8) */
	uint64_t ucode;      /* umask bits, from bit 0 (may exceed 8 bits) */
	uint64_t ucode_user; /* those of umasks the string names */
	uint64_t ldlat, fethr;
	uint64_t xcode;      /* kernel models: second register value */
	bool ldlat_um, fethr_um, code_ovr, has_xcode;
	uint16_t again[PMU__ENC_MAX_UMASKS]; /* umasks libpfm4 keeps twice */
	int nagain;
};

/* Umasks of later groups than a "greater groups excluded" umask may not
 * be given; returns that group (255 when none). */
static unsigned max_group(const struct pmu__enc_req *r)
{
	const struct pmu__umask *u = pmu__event_umasks(r->m, r->ev);
	unsigned max = 255;

	for (int i = 0; i < r->nu; i++)
		if (u[r->um[i]].flags & PMU__UM_EXCL_GT)
			max = u[r->um[i]].grp;
	return max;
}

/* Default umasks of group g; false when the group has none and may not
 * be left empty.  A default excluding later groups lowers *max. */
static bool add_defaults(const struct pmu__enc_req *r, unsigned g,
			 struct x86_sel *x, unsigned *max)
{
	const struct pmu__umask *u = pmu__event_umasks(r->m, r->ev);
	bool found = false;

	for (int i = 0; i < r->ev->numasks; i++) {
		if (u[i].grp != g || !(u[i].flags & (PMU__UM_DFL |
						     PMU__UM_OMIT)))
			continue;
		found = true;
		if (!(u[i].flags & PMU__UM_DFL))
			continue;
		x->um[x->nu++] = (uint16_t)i;
		if (u[i].flags & PMU__UM_EXCL_GT)
			*max = g;
	}
	return found;
}

static int pick_umasks(const struct pmu__enc_req *r, struct x86_sel *x,
		       struct pmu_encoding *out, struct pmu_error *err)
{
	const struct pmu__umask *u = pmu__event_umasks(r->m, r->ev);
	uint32_t given = 0, twice = 0, excl = 0;
	unsigned max = max_group(r);

	x->nu = 0;
	for (int i = 0; i < r->nu; i++) {
		unsigned g = u[r->um[i]].grp & 31;
		twice |= given & (1u << g);
		given |= 1u << g;
		if ((u[r->um[i]].flags & PMU__UM_EXCL) || g > max)
			excl |= 1u << g;
		if (g > max)
			twice |= 1u << g;
		x->um[x->nu++] = r->um[i];
	}
	/* a umask libpfm4's pass over the list keeps twice (repeated())
	 * counts twice in its group, and its full string names it twice */
	x->nagain = pmu__enc_kept_twice(r, x->again, PMU__ENC_MAX_UMASKS);
	for (int i = 0; i < x->nagain; i++)
		twice |= 1u << (u[x->again[i]].grp & 31);
	if (twice & excl)
		return pmu__encode_fail(out, err, PMU_ERR_CONFLICT,
			pmu__req_name(r), "%s: these umasks cannot be combined",
			pmu__req_name(r));
	if (r->has_raw)
		return 0;
	for (unsigned g = 0; g < r->ev->ngrp; g++) {
		if ((given & (1u << g)) || g > max)
			continue;
		if (!add_defaults(r, g, x, &max))
			return pmu__encode_fail(out, err, PMU_ERR_BAD_UMASK,
				pmu__req_name(r), "%s needs a umask; see "
				"'pmu list %s::%s'", pmu__req_name(r),
				r->m->name,
				pmu__req_name(r));
	}
	return 0;
}

static void sort_umasks(uint16_t *um, int nu)
{
	for (int i = 1; i < nu; i++)
		for (int j = i; j > 0 && um[j - 1] > um[j]; j--) {
			uint16_t t = um[j];
			um[j] = um[j - 1];
			um[j - 1] = t;
		}
}

/* Umask bits and event select.  Intel umasks the string names may
 * replace the select; defaults only add their umask bits (libpfm4). */
static int collect(const struct pmu__enc_req *r, struct x86_sel *x,
		   struct pmu_encoding *out, struct pmu_error *err)
{
	const struct pmu__umask *u = pmu__event_umasks(r->m, r->ev);

	x->evsel = r->ev->code & (r->m->kind == PMU__ENC_AMD64 ? 0xfff : 0xff);
	x->ucode_user = r->raw;
	/* pick_umasks() put the given umasks first, then the defaults. */
	for (int i = 0; i < r->nu; i++) {
		const struct pmu__umask *um = &u[x->um[i]];
		uint64_t c = um->code;
		if (um->flags & PMU__UM_CODE_OVR) {
			if (x->code_ovr && (c & 0xff) != x->evsel)
				return pmu__encode_fail(out, err,
					PMU_ERR_CONFLICT,
					pmu__um_name(r->m, um), "%s: "
					"umasks select different events",
					pmu__req_name(r));
			x->code_ovr = true;
			x->evsel = c & 0xff;
			c >>= 8;
		}
		x->ucode_user |= c;
		x->ldlat_um |= !!(um->flags & PMU__UM_LDLAT);
		x->fethr_um |= !!(um->flags & PMU__UM_FETHR);
	}
	x->ucode = x->ucode_user;
	for (int i = r->nu; i < x->nu; i++) {
		const struct pmu__umask *um = &u[x->um[i]];
		x->ucode |= um->flags & PMU__UM_CODE_OVR ? um->code >> 8
							 : um->code;
	}
	/* Vendor umasks are exclusive: at most one carries a value for
	 * the second register. */
	for (int i = 0; i < x->nu; i++)
		if (u[x->um[i]].flags & PMU__UM_XCODE) {
			x->xcode = u[x->um[i]].xcode;
			x->has_xcode = true;
		}
	return 0;
}

/* Umasks that fix edge/invert/threshold bits (libpfm4's tables say
 * which; a vendor file's umasks fix all they carry): the string may
 * repeat them, not contradict them.  Bits a umask only sets take the
 * modifier ORed in. */
static int check_hardwired(const struct pmu__enc_req *r, uint64_t reg_um,
			   uint32_t hwflags)
{
	static const struct {
		enum pmu__mod m;
		uint64_t mask;
		int sh;
		uint32_t flag;
	} f[] = {
		{ PMU__MOD_E, X86_EDGE, 18, PMU__UM_HW_E },
		{ PMU__MOD_I, X86_INV, 23, PMU__UM_HW_I },
		{ PMU__MOD_C, 0xffull << X86_CMASK_SH, X86_CMASK_SH,
		  PMU__UM_HW_C },
		{ PMU__MOD_T, X86_ANY, 21, PMU__UM_HW_T },
		{ PMU__MOD_INTX, INTEL_INTX, 32, PMU__UM_HW_TX },
		{ PMU__MOD_INTXCP, INTEL_INTXCP, 33, PMU__UM_HW_TX },
	};

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if ((reg_um & f[i].mask) && (hwflags & f[i].flag) &&
		    (r->modset & PMU__MODBIT(f[i].m)) &&
		    r->mod[f[i].m] != (reg_um & f[i].mask) >> f[i].sh)
			return -1;
	return 0;
}

/* The fixed-bit flags of the umasks the string names. */
static uint32_t hardwired(const struct pmu__enc_req *r,
			  const struct x86_sel *x)
{
	const struct pmu__umask *u = pmu__event_umasks(r->m, r->ev);
	uint32_t all = PMU__UM_HW_C | PMU__UM_HW_I | PMU__UM_HW_E |
		       PMU__UM_HW_T | PMU__UM_HW_TX, f = 0;

	if (r->m->vendor_names)
		return all;
	for (int i = 0; i < r->nu; i++)
		f |= u[x->um[i]].flags & all;
	return f;
}

/* Second-register values: load latency and front-end thresholds. */
static int thresholds(const struct pmu__enc_req *r, struct x86_sel *x,
		      struct pmu_encoding *out, struct pmu_error *err)
{
	bool has_ldlat = r->modset & PMU__MODBIT(PMU__MOD_LDLAT);

	x->ldlat = r->mod[PMU__MOD_LDLAT];
	x->fethr = r->mod[PMU__MOD_FE_THRES];
	if (has_ldlat && !x->ldlat_um)
		return pmu__encode_fail(out, err, PMU_ERR_BAD_MODIFIER, "ldlat",
			"%s: ldlat needs a load-latency umask",
			pmu__req_name(r));
	if (x->ldlat_um && !x->ldlat)
		x->ldlat = LDLAT_DEFAULT;
	if (!x->fethr_um)
		return 0;
	uint64_t um_thr = (x->ucode & FETHR_MASK) >> FETHR_SH;
	if (um_thr) {
		if ((r->modset & PMU__MODBIT(PMU__MOD_FE_THRES)) &&
		    x->fethr != um_thr)
			return pmu__encode_fail(out, err, PMU_ERR_REPEATED,
				"fe_thres", "%s: the umask fixes fe_thres=%llu",
				pmu__req_name(r), (unsigned long long)um_thr);
		x->fethr = um_thr;
	} else if (!x->fethr) {
		x->fethr = FETHR_DEFAULT;
	}
	x->ucode = (x->ucode & ~FETHR_MASK) | x->fethr << FETHR_SH;
	return 0;
}

static uint64_t x86_code(const struct pmu__enc_req *r, uint64_t evsel,
			 uint64_t ucode)
{
	bool amd = r->m->kind == PMU__ENC_AMD64;
	uint64_t v = evsel & 0xff;

	if (amd)
		v |= ((evsel >> 8) & 0xf) << 32 | (ucode & 0xff) << 8;
	else
		v |= ucode << 8;
	v |= X86_INT | X86_EN;
	if (pmu__encode_mod(r, PMU__MOD_U))
		v |= X86_USR;
	if (pmu__encode_mod(r, PMU__MOD_K))
		v |= X86_OS;
	if (pmu__encode_mod(r, PMU__MOD_E))
		v |= X86_EDGE;
	if (pmu__encode_mod(r, PMU__MOD_I))
		v |= X86_INV;
	if (pmu__encode_mod(r, PMU__MOD_T))
		v |= X86_ANY;
	v |= pmu__encode_mod(r, PMU__MOD_C) << X86_CMASK_SH;
	if (amd && pmu__encode_mod(r, PMU__MOD_H))
		v |= AMD_HOST;
	if (amd && pmu__encode_mod(r, PMU__MOD_G))
		v |= AMD_GUEST;
	if (pmu__encode_mod(r, PMU__MOD_INTX))
		v |= INTEL_INTX;
	if (pmu__encode_mod(r, PMU__MOD_INTXCP))
		v |= INTEL_INTXCP;
	return v;
}

/* Value a full string shows: on Intel, umasks may carry edge, invert,
 * any-thread and threshold bits, and the string shows the register. */
static uint64_t shown_mod(const struct pmu__enc_req *r, const struct x86_sel *x,
			  enum pmu__mod m, uint64_t v)
{
	if (r->m->kind != PMU__ENC_INTEL)
		return pmu__encode_mod(r, m);
	switch (m) {
	case PMU__MOD_E: return !!(v & X86_EDGE);
	case PMU__MOD_I: return !!(v & X86_INV);
	case PMU__MOD_T: return !!(v & X86_ANY);
	case PMU__MOD_C: return (v >> X86_CMASK_SH) & 0xff;
	case PMU__MOD_INTX: return !!(v & INTEL_INTX);
	case PMU__MOD_INTXCP: return !!(v & INTEL_INTXCP);
	case PMU__MOD_LDLAT: return x->ldlat;
	case PMU__MOD_FE_THRES: return x->fethr;
	default: return pmu__encode_mod(r, m);
	}
}

static void put_head(struct pmu__sb *b, const struct pmu__enc_req *r,
		     const struct x86_sel *x)
{
	const struct pmu__umask *u = pmu__event_umasks(r->m, r->ev);

	pmu__sb_puts(b, r->m->name);
	pmu__sb_putn(b, "::", 2);
	if (r->ev->name_len)
		pmu__sb_putn(b, pmu__req_name(r), r->ev->name_len);
	else
		pmu__sb_puts(b, pmu__req_name(r));
	for (int i = 0; i < x->nu; i++)
		for (int k = pmu__enc_named(x->again, x->nagain, x->um[i]);
		     k > 0; k--) {
			pmu__sb_putc(b, ':');
			pmu__sb_puts(b, pmu__um_name(r->m, &u[x->um[i]]));
		}
	if (r->has_raw) {
		pmu__sb_putc(b, ':');
		if (r->raw)
			pmu__sb_putx(b, r->raw);
		else
			pmu__sb_putn(b, "0x0", 3);
	}
}

/* ":name=" of each modifier, padded to 16 bytes for pmu__sb_tag(). */
#define MODTAG(s) { s, sizeof(s) - 1 }
static const struct { char s[16]; size_t n; } x86_tags[PMU__MOD_NR] = {
	[PMU__MOD_K] = MODTAG(":k="), [PMU__MOD_U] = MODTAG(":u="),
	[PMU__MOD_E] = MODTAG(":e="), [PMU__MOD_I] = MODTAG(":i="),
	[PMU__MOD_C] = MODTAG(":c="), [PMU__MOD_H] = MODTAG(":h="),
	[PMU__MOD_G] = MODTAG(":g="), [PMU__MOD_T] = MODTAG(":t="),
	[PMU__MOD_INTX] = MODTAG(":intx="),
	[PMU__MOD_INTXCP] = MODTAG(":intxcp="),
	[PMU__MOD_LDLAT] = MODTAG(":ldlat="),
	[PMU__MOD_FE_THRES] = MODTAG(":fe_thres="),
};

static inline __attribute__((always_inline)) void
put_mod(struct pmu__sb *b, enum pmu__mod m, uint64_t v)
{
	size_t n = x86_tags[m].n;

	/* Most values are one digit: tag and digit in one step. */
	if (v < 10 && b->cap - b->len > 17) {
		char *p = b->buf + b->len;
		__builtin_memcpy(p, x86_tags[m].s, 16);
		p[n] = (char)('0' + v);
		p[n + 1] = '\0';
		b->len += n + 1;
		return;
	}
	pmu__sb_tag(b, x86_tags[m].s, n);
	pmu__sb_putu(b, v);
}

static void x86_fstr(const struct pmu__enc_req *r, const struct x86_sel *x,
		     uint64_t v, struct pmu_encoding *out)
{
	struct pmu__sb f, p;

	pmu__sb_init(&f, out->fstr, sizeof(out->fstr));
	put_head(&f, r, x);
	/* Both strings start alike. */
	if (!r->raw_only)
		memcpy(out->perf_fstr, out->fstr, f.len + 1);
	p.buf = out->perf_fstr;
	p.len = f.len;
	p.cap = sizeof(out->perf_fstr);
	/* The modifiers in x86_order: bit order, but ldlat before intx. */
	uint32_t msk = r->ev->modmsk & X86_MOD_BITS;
	while (msk) {
		enum pmu__mod m = (enum pmu__mod)__builtin_ctz(msk);
		if ((m == PMU__MOD_INTX || m == PMU__MOD_INTXCP) &&
		    (msk & PMU__MODBIT(PMU__MOD_LDLAT)))
			m = PMU__MOD_LDLAT;
		msk &= ~PMU__MODBIT(m);
		uint64_t val = shown_mod(r, x, m, v);
		put_mod(&f, m, val);
		if (!r->raw_only && m != PMU__MOD_U && m != PMU__MOD_K &&
		    m != PMU__MOD_H)
			put_mod(&p, m, val);
	}
}

/* Counters every chosen umask may use; fixed counters count their one
 * event only, without edge, invert, threshold or transaction filters. */
static uint64_t x86_cntmsk(const struct pmu__enc_req *r,
			   const struct x86_sel *x, uint64_t v)
{
	const struct pmu__umask *u = pmu__event_umasks(r->m, r->ev);
	uint64_t msk = r->ev->cntmsk;

	for (int i = 0; i < x->nu; i++)
		if (u[x->um[i]].cntmsk)
			msk &= u[x->um[i]].cntmsk;
	if (r->has_raw || (v & (X86_EDGE | X86_INV | 0xffull << X86_CMASK_SH |
				INTEL_INTX | INTEL_INTXCP)))
		msk &= 0xffffffffull;
	return msk;
}

/* Register codes: PERFEVTSEL, then the offcore/front-end umask or the
 * load-latency threshold when the event uses a second register. */
static int x86_codes(const struct pmu__enc_req *r, struct x86_sel *x,
		     struct pmu_encoding *out, struct pmu_error *err)
{
	bool intel = r->m->kind == PMU__ENC_INTEL;
	bool xreg = intel && (r->ev->flags & PMU__EV_XREG);
	uint64_t um1 = intel ? (r->ev->code >> 8) & 0xff : 0, v;
	int ret;

	if (intel && !xreg && (x->ucode_user >> 8) && r->modset &&
	    check_hardwired(r, x->ucode_user << 8, hardwired(r, x)))
		return pmu__encode_fail(out, err, PMU_ERR_REPEATED,
			pmu__req_name(r),
			"%s: a modifier contradicts its umask",
			pmu__req_name(r));
	if (intel && (ret = thresholds(r, x, out, err)))
		return ret;
	v = x86_code(r, x->evsel, xreg ? um1 : x->ucode | um1);
	out->ncodes = 1;
	out->codes[0] = v;
	if (xreg || x->ldlat_um) {
		out->ncodes = 2;
		out->codes[1] = xreg ? x->ucode : x->ldlat;
	} else if (x->has_xcode) {
		out->ncodes = 2;
		out->codes[1] = x->xcode;
	}
	/* Intel: an edge is the crossing of a threshold, so it needs one
	 * (libpfm4's rule; vendor files have edge events without one, which
	 * perf takes as they are). */
	if (intel && !r->m->vendor_names && (v & X86_EDGE) &&
	    !(v >> X86_CMASK_SH & 0xff))
		return pmu__encode_fail(out, err, PMU_ERR_BAD_MODIFIER, "e",
			"%s: edge detect needs a threshold (c=N)",
			pmu__req_name(r));
	return 0;
}

static void x86_perf(const struct pmu__enc_req *r, uint64_t v,
		     struct pmu_encoding *out);

int pmu__encode_x86(const struct pmu__enc_req *r, struct pmu_encoding *out,
		    struct pmu_error *err)
{
	struct x86_sel x;
	uint64_t v;
	int ret;

	/* Only the scalars need clearing; um[] is filled as it grows. */
	memset(&x.nu, 0, sizeof(x) - offsetof(struct x86_sel, nu));
	/* A raw umask fills the umask byte, or, for the offcore response
	 * events (whose umasks go to a second register), that register
	 * whole; the front-end events take only a byte. */
	if (r->has_raw && r->raw > 0xff &&
	    !(r->m->kind == PMU__ENC_INTEL && (r->ev->flags & PMU__EV_XREG) &&
	      !(r->ev->modmsk & PMU__MODBIT(PMU__MOD_FE_THRES))))
		return pmu__encode_fail(out, err, PMU_ERR_BAD_MODIFIER,
			pmu__req_name(r), "%s: raw umask 0x%llx is wider than "
			"the umask's 8 bits", pmu__req_name(r),
			(unsigned long long)r->raw);
	/* the response register's value: 38 bits, as libpfm4 takes it */
	if (r->has_raw && r->raw > 0x3fffffffffULL)
		return pmu__encode_fail(out, err, PMU_ERR_BAD_MODIFIER,
			pmu__req_name(r), "%s: raw umask 0x%llx is wider than "
			"the response register's 38 bits (at most "
			"0x3fffffffff)", pmu__req_name(r),
			(unsigned long long)r->raw);
	ret = pick_umasks(r, &x, out, err);
	if (ret)
		return ret;
	ret = collect(r, &x, out, err);
	if (!ret)
		ret = x86_codes(r, &x, out, err);
	if (ret)
		return ret;
	/* Full strings list umasks in table order. */
	sort_umasks(x.um, x.nu);
	v = out->codes[0];
	out->cntmsk = x86_cntmsk(r, &x, v);
	x86_fstr(r, &x, v, out);
	if (r->raw_only)
		return 0;
	x86_perf(r, v, out);
	return 0;
}

/* perf_event_attr fields and the perf full string. */
static void x86_perf(const struct pmu__enc_req *r, uint64_t v,
		     struct pmu_encoding *out)
{
	bool hv = r->ev->flags & PMU__EV_PERF_HV;
	/* A model with a privilege "h" excludes the hypervisor unless asked,
	 * even where perf_event use does not let one ask. */
	pmu__encode_perf_common(r, r->ev->modmsk & PMU__MODBIT(PMU__MOD_H),
				out);
	/* Without a perf "h", perf_event use has no "h" at all. */
	if (!hv && (r->modset & PMU__MODBIT(PMU__MOD_H)))
		out->has_perf = false;
	out->perf.type = PERF_TYPE_RAW;
	out->perf.config = v & ~(X86_USR | X86_OS | X86_INT | X86_EN);
	if (r->m->kind == PMU__ENC_AMD64)
		out->perf.config &= ~(AMD_GUEST | AMD_HOST);
	if (out->ncodes == 2)
		out->perf.config1 = out->codes[1];
	/* perf_event modifiers have no register bits: no raw codes. */
	if (r->pmodset)
		out->ncodes = 0;
	pmu__encode_perf_fstr(r, hv, out);
}

void pmu__encode_perf_common(const struct pmu__enc_req *r, bool hv,
			     struct pmu_encoding *out)
{
	bool perf = r->m->kind == PMU__ENC_PERF ||
		    r->m->kind == PMU__ENC_PERF_RAW;
	uint64_t u, k, h;

	if (perf) {
		struct pmu__enc_req q = *r;
		q.modset = 0;
		for (int i = 0; i < 3; i++)
			if (r->pmodset & (1u << i)) {
				static const enum pmu__mod map[3] = {
					PMU__MOD_U, PMU__MOD_K, PMU__MOD_H };
				q.mod[map[i]] = r->pmod[i];
				q.modset |= PMU__MODBIT(map[i]);
			}
		pmu__encode_resolve(&q);
		u = pmu__encode_mod(&q, PMU__MOD_U);
		k = pmu__encode_mod(&q, PMU__MOD_K);
		h = pmu__encode_mod(&q, PMU__MOD_H);
	} else {
		u = pmu__encode_mod(r, PMU__MOD_U);
		k = pmu__encode_mod(r, PMU__MOD_K);
		h = pmu__encode_mod(r, PMU__MOD_H);
	}
	out->has_perf = true;
	out->perf.exclude_user = !u;
	out->perf.exclude_kernel = !k;
	out->perf.exclude_hv = hv && !h;
	/* libpfm4 takes mg/mh/excl as present-or-not, whatever the value;
	 * with neither, host only. */
	bool mg = r->pmodset & (1u << PMU__PMOD_MG);
	bool mh = r->pmodset & (1u << PMU__PMOD_MH);
	out->perf.exclude_guest = !mg;
	out->perf.exclude_host = (mg || mh) && !mh;
	out->perf.precise_ip = (uint8_t)r->pmod[PMU__PMOD_PRECISE];
	/* Hardware-buffer sampling is asked for as the lowest precision,
	 * whatever precise= says (libpfm4's rule). */
	if (r->pmod[PMU__PMOD_HW_SMPL])
		out->perf.precise_ip = 1;
}

enum { PT_U, PT_K, PT_H, PT_PRECISE, PT_EXCL, PT_MG, PT_MH, PT_HW_SMPL };
static const struct { char s[16]; size_t n; } perf_tags[] = {
	[PT_U] = MODTAG(":u="), [PT_K] = MODTAG(":k="), [PT_H] = MODTAG(":h="),
	[PT_PRECISE] = MODTAG(":precise="), [PT_EXCL] = MODTAG(":excl="),
	[PT_MG] = MODTAG(":mg="), [PT_MH] = MODTAG(":mh="),
	[PT_HW_SMPL] = MODTAG(":hw_smpl="),
};

static void put_flag(struct pmu__sb *b, int t, uint64_t v)
{
	pmu__sb_tag(b, perf_tags[t].s, perf_tags[t].n);
	pmu__sb_putu(b, v);
}

void pmu__encode_perf_fstr(const struct pmu__enc_req *r, bool hv,
			   struct pmu_encoding *out)
{
	struct pmu__sb b;

	pmu__sb_resume(&b, out->perf_fstr, sizeof(out->perf_fstr));
	put_flag(&b, PT_U, !out->perf.exclude_user);
	put_flag(&b, PT_K, !out->perf.exclude_kernel);
	if (hv)
		put_flag(&b, PT_H, !out->perf.exclude_hv);
	if (r->ev->flags & PMU__EV_PREC)
		put_flag(&b, PT_PRECISE, out->perf.precise_ip);
	put_flag(&b, PT_EXCL, r->pmod[PMU__PMOD_EXCL]);
	put_flag(&b, PT_MG, !out->perf.exclude_guest);
	put_flag(&b, PT_MH, !out->perf.exclude_host);
	if (r->ev->flags & PMU__EV_HW_SMPL)
		put_flag(&b, PT_HW_SMPL, out->perf.precise_ip);
}
