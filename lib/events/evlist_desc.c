/* SPDX-License-Identifier: MIT */
/*
 * pmu_event_list_parse(): the event-list parser's events described for
 * programs (and for `pmu encode`), so that every string pmu_session_add()
 * takes can be shown as the perf_event_attr it opens.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <pmu/event.h>

#include "events/catalog.h"
#include "events/evlist.h"
#include "events/evparse.h"
#include "util/error.h"
#include "util/opts.h"
#include "util/outstruct.h"
#include "util/sysfs_pmus.h"

/* The sysfs PMU whose type is `type`; the perf names of the fixed
 * types when sysfs does not list one. */
static void pmu_of_type(uint32_t type, char *buf, size_t sz)
{
	static const char *const fixed[] = {
		[PERF_TYPE_HARDWARE] = "hardware", [PERF_TYPE_SOFTWARE] = "software",
		[PERF_TYPE_TRACEPOINT] = "tracepoint",
		[PERF_TYPE_HW_CACHE] = "hw_cache", [PERF_TYPE_RAW] = "raw",
		[PERF_TYPE_BREAKPOINT] = "breakpoint",
	};
	char **names;
	size_t n = 0;

	snprintf(buf, sz, "%s", type < sizeof(fixed) / sizeof(fixed[0])
		 ? fixed[type] : "?");
	/* generic hardware and cache events go to the core PMU, but perf
	 * names them by their own types */
	if (type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE ||
	    pmu__sysfs_pmus(NULL, NULL, NULL, &names, &n))
		return;
	for (size_t i = 0; i < n; i++) {
		uint32_t t;

		if (pmu__sysfs_pmu_type(NULL, names[i], &t) == 0 && t == type) {
			snprintf(buf, sz, "%.*s", (int)sz - 1, names[i]);
			break;
		}
	}
	pmu__strv_free(names, n);
}

static void perf_fields(const struct perf_event_attr *a,
			struct pmu_encoding_perf *p)
{
	p->type = a->type;
	p->config = a->config;
	p->config1 = a->config1;
	p->config2 = a->config2;
	p->exclude_user = a->exclude_user;
	p->exclude_kernel = a->exclude_kernel;
	p->exclude_hv = a->exclude_hv;
	p->exclude_host = a->exclude_host;
	p->exclude_guest = a->exclude_guest;
	p->precise_ip = a->precise_ip;
}

/* What the catalog made of it: the spec re-encoded gives the event's
 * name and full string (the codes are the parser's). */
static void catalog_fields(const struct pmu__ev *e, struct pmu_event_desc *d)
{
	struct pmu_encoding enc = { .size = sizeof(enc) };

	snprintf(d->pmu, sizeof(d->pmu), "%s", e->model);
	/* an IBS set-up's code is its control value, as the encoder gives
	 * it; the PMC and PMDs after it are the session's */
	d->ncodes = e->flags & PMU__EV_IBS ? 1 : e->ncodes;
	memcpy(d->codes, e->codes, sizeof(d->codes[0]) * (size_t)e->ncodes);
	if (e->spec && pmu_event_encode(e->spec, NULL, &enc, NULL) == 0) {
		snprintf(d->event, sizeof(d->event), "%s", enc.event);
		snprintf(d->fstr, sizeof(d->fstr), "%s", enc.fstr);
		/* an IBS period is the encoding's even where perf cannot
		 * open it (no ibs_op PMU in sysfs) */
		d->sample_period = enc.sample_period;
	}
}

void pmu__evlist_describe(const struct pmu__ev *e, struct pmu_event_desc *d)
{
	memset(d, 0, sizeof(*d));
	d->size = sizeof(*d);
	snprintf(d->name, sizeof(d->name), "%s", e->name ? e->name : "");
	d->group = e->group;
	d->leader = e->leader;
	snprintf(d->unit, sizeof(d->unit), "%s", e->unit);
	d->scale = e->scale;
	d->has_perf = !(e->flags & PMU__EV_NO_PERF);
	perf_fields(&e->attr, &d->perf);
	d->sample_period = e->period ? e->period : e->attr.sample_period;
	d->pinned = e->attr.pinned;
	d->exclusive = e->attr.exclusive;
	d->exclude_idle = e->attr.exclude_idle;
	d->sample_read = !!(e->flags & PMU__EV_SAMPLE_READ);
	d->tool = e->tool != PMU__TOOL_NONE;
	if (e->model[0])
		catalog_fields(e, d);
	else
		pmu_of_type(e->attr.type, d->pmu, sizeof(d->pmu));
}

PMU_API ssize_t pmu_event_list_parse(const char *list,
				     const struct pmu_encode_opts *opts,
				     struct pmu_event_desc *out, size_t n,
				     struct pmu_error *err)
{
	const char *model = PMU__OPTS_GET(opts, model, NULL);
	struct pmu__parse_ctx ctx = { 0 };
	struct pmu__evlist l = { 0 };
	size_t stride = out && n ? out[0].size : 0;
	int ret = PMU__OPTS_CHECK(opts, pmu_encode_opts, err);

	if (ret)
		return ret;
	if (!out && n)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "pmu_event_list_parse: out is NULL, n is "
				  "%zu (0 to count only)", n);
	/* the size of some release's struct: aligned, never garbage */
	if (out && n && (!pmu__out_ok(out, stride) || stride > 65536 ||
			 stride % _Alignof(struct pmu_event_desc)))
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "pmu_event_list_parse: set out[0].size");
	ctx.default_model = model ? model : pmu_event_host_model();
	if (ctx.default_model) {
		/* a kernel model's names are perf's, read with perf's
		 * syntax as pmu stat reads them ("NAME:u", "cpu/NAME/"),
		 * its uncore events too */
		const struct pmu__catmodel *m = pmu__catalog_find(
			ctx.default_model, strlen(ctx.default_model));

		if (m && m->arch != PMU__ARCH_NONE) {
			ctx.core_model = ctx.default_model;
			ctx.host_names = true;
			ctx.model_only = model != NULL;
			ctx.default_model = NULL;
		}
	}
	ret = pmu__evlist_parse(&l, list, &ctx, err);
	if (ret)
		return ret;
	for (size_t i = 0; i < l.n && i < n; i++) {
		struct pmu_event_desc d, *dst = (struct pmu_event_desc *)
					(void *)((char *)out + i * stride);

		pmu__evlist_describe(&l.ev[i], &d);
		dst->size = stride;
		PMU__OUT(dst, &d);
	}
	ret = (int)l.n;
	pmu__evlist_clear(&l);
	return ret;
}
