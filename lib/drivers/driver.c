/* SPDX-License-Identifier: MIT */
/* The drivers by name: what a session's `driver` option chooses. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/driver.h"
#include "drivers/emu_drv.h"
#include "drivers/perf.h"
#include "drivers/sim_drv.h"
#include "util/error.h"

static const struct pmu__driver_ops *const registry[] = {
	&pmu__perf_ops, &pmu__sim_ops, &pmu__emu_ops,
};

#define NDRIVERS (sizeof(registry) / sizeof(registry[0]))

/* Names of the drivers, for messages: "perf, sim, emu". */
static void driver_names(char *buf, size_t sz)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NDRIVERS && used < sz; i++)
		used += (size_t)snprintf(buf + used, sz - used, "%s%s",
					 i ? ", " : "", registry[i]->name);
}

const struct pmu__driver_ops *pmu__driver_find(const char *name)
{
	if (!name || !*name)
		return &pmu__perf_ops;
	for (size_t i = 0; i < NDRIVERS; i++)
		if (!strcmp(registry[i]->name, name))
			return registry[i];
	return NULL;
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
	const struct pmu__driver_ops *o = pmu__driver_find(name);
	char names[64];

	*out = NULL;
	if (o == &pmu__emu_ops)
		return pmu__emu_driver_new(model, settings, out, err);
	if (settings && *settings)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, settings, -1,
				  "emulator settings ('%s') only apply to the "
				  "emu driver", settings);
	if (o == &pmu__perf_ops) {
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
	if (o == &pmu__sim_ops)
		return pmu__sim_driver_new(model, out, err);
	driver_names(names, sizeof(names));
	return pmu__error(err, -ENOENT, PMU_ERR_USAGE, name, -1,
			  "unknown driver '%s' (drivers: %s)", name, names);
}

char *pmu__ev_user_only_name(const char *name)
{
	const char *c = strrchr(name, ':');
	size_t n = strlen(name);
	bool mods = false;
	char *out;

	/* the last ':' starts modifiers (not a "pmu::" or tracepoint
	 * separator) when only modifier letters follow it */
	if (c && c > name && c[-1] != ':' && c[1]) {
		mods = true;
		for (const char *q = c + 1; *q; q++)
			if (!strchr("ukhIGHpPSDWeb", *q))
				mods = false;
	}
	out = malloc(n + 3);
	if (out)
		snprintf(out, n + 3, "%s%s", name,
			 mods || (n && name[n - 1] == '/') ? "u" : ":u");
	return out;
}

void pmu__ev_sampling(const struct pmu__ev *e, struct perf_event_attr *a)
{
	if (e->flags & PMU__EV_PRECISE_MAX)
		a->precise_ip = 3;
	if (e->period) {
		a->freq = 0;
		a->sample_period = e->period;
	}
}

int pmu__ev_user_only(struct pmu__ev *e)
{
	char *n = pmu__ev_user_only_name(e->name);

	if (!n)
		return -ENOMEM;
	free(e->name);
	e->name = n;
	e->attr.exclude_kernel = 1;
	e->attr.exclude_hv = 1;
	return 0;
}

void pmu__user_only_said(const struct pmu__ev_state *st, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!st[i].user_only)
			continue;
		pmu__warn("kernel.perf_event_paranoid=%d: counting user "
			  "space only (events named :u), as perf does; "
			  "'sysctl kernel.perf_event_paranoid=1' or "
			  "CAP_PERFMON counts the kernel too", st[i].user_only);
		return;
	}
}

void pmu__ev_unsupported(struct pmu__ev_state *st, const char *fmt, ...)
{
	va_list ap;

	st->err = -EOPNOTSUPP;
	va_start(ap, fmt);
	vsnprintf(st->reason, sizeof(st->reason), fmt, ap);
	va_end(ap);
}
