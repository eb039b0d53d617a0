/* SPDX-License-Identifier: MIT */
/*
 * Prints what the event-list parser makes of its arguments, one line per
 * event, so shell tests can compare it with other tools:
 *   evdump [--sysfs DIR] [--tracefs DIR] [--core-model M] [--host names]
 *          LIST...
 * (--host names: bare names of the host's kernel model, $PMU_CPUID's
 * when set, as pmu stat reads them)
 */
#include <stdio.h>
#include <string.h>

#include "events/evlist.h"

static void dump(const struct pmu__ev *d)
{
	const struct perf_event_attr *a = &d->attr;

	printf("name=%s type=%u config=%#llx config1=%#llx config2=%#llx "
	       "exclude_user=%d exclude_kernel=%d exclude_hv=%d "
	       "exclude_guest=%d exclude_host=%d precise_ip=%d pinned=%d "
	       "exclusive=%d exclude_idle=%d sample_period=%llu "
	       "group=%d leader=%d unit=%s scale=%g is_hw=%d\n",
	       d->name, a->type, (unsigned long long)a->config,
	       (unsigned long long)a->config1, (unsigned long long)a->config2,
	       a->exclude_user, a->exclude_kernel, a->exclude_hv,
	       a->exclude_guest, a->exclude_host, a->precise_ip, a->pinned,
	       a->exclusive, a->exclude_idle,
	       (unsigned long long)a->sample_period,
	       d->group, d->leader, d->unit[0] ? d->unit : "-", d->scale,
	       (d->flags & PMU__EV_HW) != 0);
}

int main(int argc, char **argv)
{
	struct pmu__parse_ctx ctx = { 0 };
	struct pmu__evlist l = { 0 };
	struct pmu_error err = { .size = sizeof(err) };
	int i, rc = 0;

	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--sysfs"))
			ctx.sysfs_root = argv[i + 1];
		else if (!strcmp(argv[i], "--tracefs"))
			ctx.tracefs_root = argv[i + 1];
		else if (!strcmp(argv[i], "--host") &&
			 !strcmp(argv[i + 1], "names"))
			ctx.host_names = true; /* the host's kernel model */
		else if (!strcmp(argv[i], "--core-model")) {
			ctx.core_model = argv[i + 1];
			ctx.host_names = true;
		}
		else
			break;
	}
	for (; i < argc; i++) {
		if (pmu__evlist_parse(&l, argv[i], &ctx, &err) < 0) {
			fprintf(stderr, "error: kind=%s token=%s offset=%d: %s\n",
				pmu_error_kind_name(err.kind), err.token,
				err.offset, err.message);
			rc = 1;
		}
	}
	for (size_t k = 0; k < l.n; k++)
		dump(&l.ev[k]);
	pmu__evlist_clear(&l);
	return rc;
}
