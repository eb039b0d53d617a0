/* SPDX-License-Identifier: MIT */
/*
 * User-space reads on PMUs that must be asked for them.  On arm64 an
 * event's counter is readable at EL0 only when the event asked (the bit
 * its PMU's sysfs format term `rdpmc` names, config1:1) and the kernel
 * allows it (kernel.perf_user_access = 1); its mmap page then gives the
 * counter's index and width as x86's does.  Elsewhere no PMU declares the
 * term and nothing changes.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/perf_priv.h"
#include "util/sysfs_pmus.h"

#define DEVICES "/bus/event_source/devices"

/* PMUs that declare the term: their type and the config1 bit. */
struct uread_pmu {
	uint32_t type;
	uint64_t bit;
};

static int read_line(const char *path, char *buf, size_t sz)
{
	FILE *f = fopen(path, "re");
	int ok = f && fgets(buf, (int)sz, f) != NULL;

	if (f)
		fclose(f);
	return ok ? 0 : -1;
}

static bool user_access_allowed(const struct pmu__perf *p)
{
	char path[256], v[16];

	snprintf(path, sizeof(path), "%s/sys/kernel/perf_user_access",
		 p->sys->proc ? p->sys->proc : "/proc");
	return !read_line(path, v, sizeof(v)) && v[0] == '1';
}

static const char *sysfs(const struct pmu__perf *p)
{
	return p->sys->sysfs ? p->sys->sysfs : "/sys";
}

/* "config1:N" (one bit of config1), the only form the kernel declares. */
static uint64_t term_bit(const struct pmu__perf *p, const char *pmu)
{
	char path[512], v[32];
	unsigned n;

	snprintf(path, sizeof(path), "%s" DEVICES "/%s/format/rdpmc",
		 sysfs(p), pmu);
	if (read_line(path, v, sizeof(v)) ||
	    sscanf(v, "config1:%u", &n) != 1 || n > 63 ||
	    strchr(v, '-') || strchr(v, ','))
		return 0;
	return UINT64_C(1) << n;
}

static size_t find_pmus(const struct pmu__perf *p, struct uread_pmu *out,
			size_t max)
{
	char **names;
	size_t np = 0, n = 0;

	if (pmu__sysfs_pmus(sysfs(p), NULL, NULL, &names, &np))
		return 0;
	for (size_t i = 0; i < np && n < max; i++) {
		char path[512], v[32];
		uint64_t bit = term_bit(p, names[i]);

		snprintf(path, sizeof(path), "%s" DEVICES "/%s/type", sysfs(p),
			 names[i]);
		if (!bit || read_line(path, v, sizeof(v)))
			continue;
		out[n++] = (struct uread_pmu){
			.type = (uint32_t)strtoul(v, NULL, 10), .bit = bit };
	}
	pmu__strv_free(names, np);
	return n;
}

/* The bit event attr a asks with: generic hardware, cache and raw
 * events go to the core PMU (the first that declares the term). */
static uint64_t bit_for(const struct perf_event_attr *a,
			const struct uread_pmu *u, size_t n)
{
	if (!n)
		return 0;
	if (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE ||
	    a->type == PERF_TYPE_RAW)
		return u[0].bit;
	for (size_t k = 0; k < n; k++)
		if (u[k].type == a->type)
			return u[k].bit;
	return 0;
}

void pmu__perf_uread_request(struct pmu__perf *p)
{
	struct uread_pmu u[8];
	size_t n;

	if (!user_access_allowed(p) || !(n = find_pmus(p, u, 8)))
		return;
	for (size_t g = 0; g < p->ngrp; g++) {
		struct perf_group *gr = &p->grp[g];

		for (size_t k = 0; k < gr->nev; k++) {
			struct perf_event_attr *a = &p->attr[gr->first + k];
			uint64_t bit = bit_for(a, u, n);

			if (!bit || (a->config1 & bit) || a->sample_period ||
			    (p->ev[gr->first + k].flags & PMU__EV_NOTIFY))
				continue;
			a->config1 |= bit;
			gr->uread = true;
		}
	}
}

/* The kernel refused the group so: ask no more (read(2) reads it). */
bool pmu__perf_uread_drop(struct pmu__perf *p, struct perf_group *g)
{
	struct uread_pmu u[8];
	size_t n = g->uread ? find_pmus(p, u, 8) : 0;

	if (!g->uread)
		return false;
	for (size_t k = 0; k < g->nev; k++)
		p->attr[g->first + k].config1 &= ~bit_for(&p->attr[g->first + k],
							 u, n);
	g->uread = false;
	return true;
}
