/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <pmu/assign.h>

#include "events/catalog_seed.h"

struct out {
	char *buf;
	size_t sz, len;
};

static void put(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	size_t room = o->len < o->sz ? o->sz - o->len : 0;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(o->buf ? o->buf + o->len : NULL, room, fmt, ap);
	va_end(ap);
	if (r > 0)
		o->len += (size_t)r;
}

static void put_array(struct out *o, const char *key,
		      const struct pmu_assignment *a, int which)
{
	put(o, "  \"%s\": [", key);
	for (size_t i = 0; i < a->nevents; i++) {
		const struct pmu_assigned_event *e = &a->ev[i];
		if (which < 0)
			put(o, "%s%d", i ? ", " : "", e->counter);
		else
			put(o, "%s\"0x%llx\"", i ? ", " : "",
			    (unsigned long long)e->codes[which]);
	}
	put(o, "]");
}

/* An event perfctr's driver would refuse (the note of pmu_assign()). */
static bool refused(const struct pmu_assignment *a)
{
	const struct pmu__seed_info *si =
		pmu__seed_info(pmu__seed_model_find(a->control_model));

	if (a->note[0])
		return true;
	for (size_t i = 0; si && i < a->nevents; i++)
		if (!pmu__seed_ctl_accepts(si, a->ev[i].codes[0]))
			return true;
	return false;
}

static bool control_ok(const struct pmu_assignment *a)
{
	if (!a || !a->control_model[0] || a->nconflict || a->nevents <= 0)
		return false;
	for (size_t i = 0; i < a->nevents; i++)
		if (a->ev[i].counter < 0 ||
		    a->ev[i].counter >= PMU_ASSIGN_FIXED ||
		    a->ev[i].codes[0] > 0xFFFFFFFFull ||
		    a->ev[i].codes[1] > 0xFFFFFFFFull)
			return false;
	return true;
}

PMU_API int pmu_assign_control_json(const struct pmu_assignment *a,
				    char *buf, size_t sz)
{
	struct out o = { .buf = buf, .sz = sz };
	bool p4 = a && !strncmp(a->model, "netburst", 8);
	bool ppc = a && !strncmp(a->control_model, "ppc", 3);
	/* The WinChip C6 driver refuses a control with the TSC on. */
	int tsc = a && strcmp(a->control_model, "wcc6") ? 1 : 0;

	if (!control_ok(a))
		return -EINVAL;
	if (refused(a))
		return -EPERM;
	if (buf && sz)
		buf[0] = '\0';
	put(&o, "{\n  \"tsc_on\": %d,\n  \"nractrs\": %zu,\n  \"nrictrs\": 0,\n",
	    tsc, a->nevents);
	put_array(&o, "pmc_map", a, -1);
	put(&o, ",\n");
	put_array(&o, "evntsel", a, 0);
	if (p4) {
		put(&o, ",\n  \"p4\": {\n  ");
		put_array(&o, "escr", a, 1);
		put(&o, "\n  }");
	}
	if (ppc)
		put(&o, ",\n  \"ppc\": { \"mmcr0\": 0, \"mmcr2\": 0 }");
	put(&o, "\n}\n");
	return (int)o.len;
}
