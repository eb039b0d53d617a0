/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "events/catalog_seed.h"
#include "events/encode.h"

/*
 * The encoder of the seed models: an event and its unit masks and
 * modifiers as the register image a perfctr control takes.
 */

static uint32_t p5_half(const struct pmu__seed_info *si, uint64_t code,
			bool u, bool k)
{
	uint32_t half = (uint32_t)(code & 0x13F);

	/* The MII's seventh event bit sits above the pin-control bit. */
	if (si->half_mask & 0x400)
		half |= (uint32_t)(code & 0x40) << 4;
	return half | (k ? PMU__P5_CPL_OS : 0) | (u ? PMU__P5_CPL_USR : 0);
}

static uint32_t p6_evntsel(uint64_t code, uint64_t umask, const uint64_t *mods,
			   uint32_t modset, bool u, bool k)
{
	uint32_t v = (uint32_t)(code & 0xFF) | (uint32_t)(umask & 0xFF) << 8;

	v |= (u ? PMU__P6_USR : 0) | (k ? PMU__P6_OS : 0) | PMU__P6_EN;
	if ((modset & PMU__MODBIT(PMU__MOD_E)) && mods[PMU__MOD_E])
		v |= PMU__P6_EDGE;
	if ((modset & PMU__MODBIT(PMU__MOD_I)) && mods[PMU__MOD_I])
		v |= PMU__P6_INV;
	if (modset & PMU__MODBIT(PMU__MOD_C))
		v |= (uint32_t)(mods[PMU__MOD_C] & 0xFF) << 24;
	return v;
}

/* P6-family EVNTSEL, P5 CESR half and the others: the register image of
 * the event.  PowerPC: the PMCnSEL value, which must fit the selector of
 * at least one counter (PMC1's, the widest). */
static int seed_value(const struct pmu__catmodel *m,
		      const struct pmu__seed_info *si,
		      const struct pmu__event *ev, uint64_t umask, bool has_um,
		      const uint64_t *mods, uint32_t modset, uint32_t *val,
		      struct pmu_encoding *out, struct pmu_error *err)
{
	bool u = (modset & PMU__MODBIT(PMU__MOD_U)) && mods[PMU__MOD_U];
	bool k = (modset & PMU__MODBIT(PMU__MOD_K)) && mods[PMU__MOD_K];
	const char *name = pmu__ev_name(m, ev);

	/* Like a raw perfctr control, no privilege filter means both. */
	if (!u && !k)
		u = k = true;
	switch (si->family) {
	case PMU__SEED_P5:
		*val = p5_half(si, ev->code, u, k);
		return 0;
	case PMU__SEED_P6:
		*val = p6_evntsel(ev->code, umask, mods, modset, u, k);
		return 0;
	case PMU__SEED_PPC:
		/* RAW is only a carrier for the event number: without one
		 * it would select event 0, which holds the counter. */
		if ((ev->flags & PMU__EV_UMASK_REQ) && !has_um)
			return pmu__encode_fail(out, err, PMU_ERR_BAD_UMASK, name,
				"%s of %s needs the event number as a raw "
				"umask (%s:0xNN)", name, m->name, name);
		*val = (uint32_t)(has_um && (ev->flags & PMU__EV_UMASK_REQ) ?
				  umask : ev->code);
		if (*val > si->sel_max[0])
			return pmu__encode_fail(out, err, PMU_ERR_BAD_VALUE,
				name, "event number 0x%x of %s is above 0x%x, "
				"the largest any counter of %s selects (PMC1)",
				*val, name, si->sel_max[0], m->name);
		return 0;
	case PMU__SEED_VC3:
		*val = (uint32_t)(ev->code & 0x1FF);
		return 0;
	default:
		*val = (uint32_t)(ev->code & 0xFF);
		return 0;
	}
}

/* Append to a bounded string; truncation just stops appending. */
__attribute__((format(printf, 4, 5)))
static void put(char *buf, size_t sz, size_t *l, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (*l >= sz)
		return;
	va_start(ap, fmt);
	r = vsnprintf(buf + *l, sz - *l, fmt, ap);
	va_end(ap);
	if (r > 0)
		*l += (size_t)r;
}

/*
 * The full string of a seed encoding, in libpfm4's style: every unit mask
 * in effect (by name, else raw 0xNN) and every modifier of the model with
 * its value, so that encoding it again gives the same register value.
 * Modifiers always carry "=value", which makes the P6 modifiers e and i
 * distinct from the MESI unit masks E and I.
 */
static void seed_fstr(const struct pmu__catmodel *m,
		      const struct pmu__event *ev,
		      const uint64_t *uc, size_t nu, const uint64_t *mods,
		      uint32_t modset, char *buf, size_t sz)
{
	const struct pmu__umask *um = pmu__event_umasks(m, ev);
	bool uk = modset & (PMU__MODBIT(PMU__MOD_U) | PMU__MODBIT(PMU__MOD_K));
	size_t l = 0;

	put(buf, sz, &l, "%s::%s", m->name, pmu__ev_name(m, ev));
	for (size_t i = 0; i < nu; i++) {
		int k = 0;
		while (k < ev->numasks && um[k].code != uc[i])
			k++;
		if (k < ev->numasks)
			put(buf, sz, &l, ":%s", pmu__um_name(m, &um[k]));
		else
			put(buf, sz, &l, ":0x%llx", (unsigned long long)uc[i]);
	}
	for (uint16_t k = 0; nu == 0 && k < ev->numasks; k++)
		if (um[k].flags & PMU__UM_DFL)
			put(buf, sz, &l, ":%s", pmu__um_name(m, &um[k]));
	for (int i = 0; i < PMU__MOD_NR; i++) {
		const struct pmu__moddesc *d = pmu__mod_desc(m->kind, i);
		uint64_t v = (modset & PMU__MODBIT(i)) ? mods[i] : 0;
		if (!d || !(m->modmsk & PMU__MODBIT(i)))
			continue;
		/* No privilege filter counts both, as the register does. */
		if (!uk && (i == PMU__MOD_U || i == PMU__MOD_K))
			v = 1;
		put(buf, sz, &l, ":%s=%llu", d->name, (unsigned long long)v);
	}
}

int pmu__seed_encode(const struct pmu__catmodel *m, const struct pmu__event *ev,
		     const uint64_t *umask_codes, size_t nu,
		     const uint64_t *mods, uint32_t modset,
		     struct pmu_encoding *out, struct pmu_error *err)
{
	const struct pmu__seed_info *si = pmu__seed_info(m);
	static const uint64_t nomods[PMU__MOD_NR];
	uint64_t umask = 0;
	uint32_t val = 0;
	int rc;

	if (!si || !ev || !out)
		return -EINVAL;
	for (size_t i = 0; i < nu; i++)
		umask |= umask_codes[i];
	/* No unit mask given: the event's defaults, as the catalog marks. */
	for (uint16_t i = 0; nu == 0 && i < ev->numasks; i++)
		if (pmu__event_umasks(m, ev)[i].flags & PMU__UM_DFL)
			umask |= pmu__event_umasks(m, ev)[i].code;
	rc = seed_value(m, si, ev, umask, nu > 0, mods ? mods : nomods,
			mods ? modset : 0, &val, out, err);
	if (rc)
		return rc;
	out->ncodes = 1;
	out->codes[0] = val;
	out->has_perf = false;
	if (!out->pmu[0])
		snprintf(out->pmu, sizeof(out->pmu), "%s", m->name);
	if (!out->event[0])
		snprintf(out->event, sizeof(out->event), "%s", pmu__ev_name(m, ev));
	if (!out->fstr[0])
		seed_fstr(m, ev, umask_codes, nu, mods ? mods : nomods,
			  mods ? modset : 0, out->fstr, sizeof(out->fstr));
	return 0;
}
