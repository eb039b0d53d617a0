/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "events/catalog.h"

/*
 * The vendor-name index of models built from vendor files: perf's event
 * names ("EVENT.UMASK.MORE") map to one event and one umask in one
 * probe, whatever the size of the event's umask family (an offcore
 * response event has over a thousand).  Keys are the names with '.' as
 * '_', hashed without case, so "A.B.C", "a.b_c" and "A_B_C" meet.
 */

#define VNAME_MAX 192

static bool is_default(const struct pmu__catmodel *m,
		       const struct pmu__umask *u)
{
	return (u->flags & PMU__UM_DFL) && !strcmp(pmu__um_name(m, u),
						   "DEFAULT");
}

/* The key of (ev, u) into buf: "EVENT" or "EVENT_UMASK"; its length, or
 * 0 when too long. */
static size_t key_of(const struct pmu__catmodel *m, const struct pmu__event *ev,
		     const struct pmu__umask *u, char *buf)
{
	const char *e = pmu__ev_name(m, ev), *un;
	size_t n = strlen(e), k;

	if (n >= VNAME_MAX)
		return 0;
	memcpy(buf, e, n);
	if (!u || is_default(m, u))
		return n;
	un = pmu__um_name(m, u);
	k = strlen(un);
	if (n + 1 + k >= VNAME_MAX)
		return 0;
	buf[n] = '_';
	memcpy(buf + n + 1, un, k);
	return n + 1 + k;
}

static void normalize(char *buf, const char *s, size_t n)
{
	char *end = buf + n;

	memcpy(buf, s, n);
	for (char *p = buf; (p = memchr(p, '.', (size_t)(end - p))); p++)
		*p = '_';
}

static int put(uint32_t *slots, uint32_t size, const char *key, size_t n,
	       uint32_t val)
{
	uint32_t p = pmu__name_hash(key, n);

	for (uint32_t k = 0; k < size; k++, p++)
		if (!slots[p & (size - 1)]) {
			slots[p & (size - 1)] = val;
			return 0;
		}
	return -EINVAL;
}

uint32_t pmu__catmodel_vnames(const struct pmu__catmodel *m)
{
	uint32_t n = 0;

	for (uint32_t e = 0; e < m->nevents; e++)
		n += m->events[e].numasks ? m->events[e].numasks : 1;
	return n;
}

int pmu__catmodel_vindex(const struct pmu__catmodel *m, uint32_t *slots,
		      uint32_t size)
{
	char key[VNAME_MAX];

	if (!size || (size & (size - 1)) ||
	    size <= 2 * pmu__catmodel_vnames(m) ||
	    m->nevents > PMU__SLOT_MAX_EVENTS)
		return -EINVAL;
	memset(slots, 0, size * sizeof(*slots));
	for (uint32_t e = 0; e < m->nevents; e++) {
		const struct pmu__event *ev = &m->events[e];
		const struct pmu__umask *u = pmu__event_umasks(m, ev);
		size_t n;

		if (!ev->numasks && (n = key_of(m, ev, NULL, key)) &&
		    put(slots, size, key, n, e + 1))
			return -EINVAL;
		for (uint32_t k = 0; k < ev->numasks && k < 0xfffe; k++)
			if ((n = key_of(m, ev, &u[k], key)) &&
			    put(slots, size, key, n, (e + 1) |
				(is_default(m, &u[k]) ? 0 : (k + 1) << 16)))
				return -EINVAL;
	}
	return 0;
}

/* Is want (n bytes, '.' already '_') the key of (ev, u)?  Compared in
 * place: no copy of the key. */
static bool key_eq(const struct pmu__catmodel *m, const struct pmu__event *ev,
		   const struct pmu__umask *u, const char *want, size_t n)
{
	const char *e = pmu__ev_name(m, ev), *un;
	size_t el = ev->name_len ? ev->name_len : strlen(e);

	if (!u || is_default(m, u))
		return el == n && pmu__name_eq_n(e, want, n);
	if (n <= el + 1 || want[el] != '_' || !pmu__name_eq_n(e, want, el))
		return false;
	un = pmu__um_name(m, u);
	n -= el + 1;
	return !strncasecmp(un, want + el + 1, n) && !un[n];
}

const struct pmu__event *pmu__catmodel_vname(const struct pmu__catmodel *m,
					  const char *name, size_t n,
					  int *um)
{
	char want[VNAME_MAX];
	uint32_t h, mask;

	if (!m->vhash || !m->vhash_size || !n || n >= VNAME_MAX)
		return NULL;
	normalize(want, name, n);
	h = pmu__name_hash(want, n);
	mask = m->vhash_size - 1;
	for (uint32_t p = 0; p < m->vhash_size; p++) {
		uint32_t slot = m->vhash[(h + p) & mask], e, u;
		const struct pmu__event *ev;

		if (!slot)
			return NULL;
		e = (slot & 0xffff) - 1;
		u = slot >> 16;
		if (e >= m->nevents)
			continue;
		ev = &m->events[e];
		if (key_eq(m, ev, u ? &pmu__event_umasks(m, ev)[u - 1] : NULL,
			   want, n)) {
			*um = u ? (int)u - 1 : -1;
			return ev;
		}
	}
	return NULL;
}
