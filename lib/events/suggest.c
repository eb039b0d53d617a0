/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "events/catalog.h"
#include "events/evlist.h"
#include "events/evparse.h"
#include "util/sysfs_pmus.h"

struct collector {
	struct pmu__suggestion *out;
	size_t max, n;
	unsigned limit;
};

/* Keep the `max` nearest, sorted by distance, earlier candidates first on
 * ties, no duplicates. */
static void offer(struct collector *c, const char *name, unsigned dist)
{
	size_t pos;

	if (dist > c->limit || c->max == 0)
		return;
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->out[i].name, name))
			return;
	for (pos = c->n; pos > 0 && c->out[pos - 1].dist > dist; pos--)
		;
	if (pos >= c->max)
		return;
	if (c->n < c->max)
		c->n++;
	memmove(&c->out[pos + 1], &c->out[pos],
		(c->n - 1 - pos) * sizeof(c->out[0]));
	snprintf(c->out[pos].name, sizeof(c->out[pos].name), "%s", name);
	c->out[pos].dist = dist;
}

static void offer_static(struct collector *c, const char *token)
{
	size_t n;
	const char *const *names = pmu__evname_all(&n);

	for (size_t i = 0; i < n; i++)
		offer(c, names[i], pmu__edit_distance(token, names[i]));
}

static void offer_pmu_aliases(struct collector *c, const char *token,
			      const char *root, const char *pmu)
{
	char path[PATH_MAX], full[128];
	struct dirent *de;
	DIR *d;

	if (pmu__sysfs_path(path, sizeof(path), root, pmu, "events") ||
	    !(d = opendir(path)))
		return;
	while ((de = readdir(d))) {
		unsigned d1, d2;

		/* dotted names are sidecars (.unit, .scale) or hidden */
		if (strchr(de->d_name, '.'))
			continue;
		if ((size_t)snprintf(full, sizeof(full), "%s/%s/", pmu,
				     de->d_name) >= sizeof(full))
			continue;
		d1 = pmu__edit_distance(token, de->d_name);
		d2 = pmu__edit_distance(token, full);
		offer(c, full, d1 < d2 ? d1 : d2);
	}
	closedir(d);
}

static void offer_sysfs(struct collector *c, const char *token,
			const char *root)
{
	char **names;
	size_t n = 0;

	if (pmu__sysfs_pmus(root, NULL, NULL, &names, &n))
		return;
	for (size_t i = 0; i < n; i++)
		offer_pmu_aliases(c, token, root, names[i]);
	pmu__strv_free(names, n);
}

static void offer_tracepoints(struct collector *c, const char *token,
			      const char *root)
{
	const char *colon = strchr(token, ':');
	char path[PATH_MAX], sys[NAME_MAX + 1], full[128];
	struct dirent *de;
	size_t slen;
	DIR *d;

	if (!colon || !root || (slen = (size_t)(colon - token)) > NAME_MAX ||
	    !pmu__name_is_safe(token, slen))
		return;
	memcpy(sys, token, slen);
	sys[slen] = '\0';
	if ((size_t)snprintf(path, sizeof(path), "%s/events/%s", root, sys) >=
	    sizeof(path) || !(d = opendir(path)))
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' ||
		    (size_t)snprintf(full, sizeof(full), "%s:%s", sys,
				     de->d_name) >= sizeof(full))
			continue;
		offer(c, full, pmu__edit_distance(token, full));
	}
	closedir(d);
}

static void offer_lower(struct collector *c, const char *token, char *name)
{
	for (char *q = name; *q; q++)
		*q = (char)tolower((unsigned char)*q);
	offer(c, name, pmu__edit_distance(token, name));
}

/* perf's names of the parse's kernel model: "event.umask" as perf lists
 * them (lower case), the bare event for its DEFAULT, and its uncore
 * events. */
static void offer_kernel_model(struct collector *c, const char *token,
			       const struct pmu__catmodel *m)
{
	char name[160];

	if (!m || !m->vendor_names)
		return;
	for (uint32_t e = 0; e < m->nevents; e++) {
		const struct pmu__event *ev = &m->events[e];
		const struct pmu__umask *u = pmu__event_umasks(m, ev);

		for (uint32_t j = 0; j < (ev->numasks ? ev->numasks : 1); j++) {
			const char *un = ev->numasks ? pmu__um_name(m, &u[j])
						     : "";
			bool bare = !*un || !strcmp(un, "DEFAULT");

			if ((size_t)snprintf(name, sizeof(name), bare ? "%s" :
					     "%s.%s", pmu__ev_name(m, ev), un) <
			    sizeof(name))
				offer_lower(c, token, name);
		}
	}
	for (uint32_t i = 0; i < m->nuncore; i++) {
		const char *u = pmu__ustr(m, pmu__uncore_at(m, i)->name);

		offer(c, u, pmu__edit_distance(token, u));
	}
}

size_t pmu__event_suggest_ex(const char *token,
			     const struct pmu__parse_ctx *ctx,
			     const struct pmu__catmodel *m,
			     struct pmu__suggestion *out, size_t max)
{
	struct collector c = { .out = out, .max = max, .limit = pmu__near_limit(token) };

	offer_static(&c, token);
	offer_kernel_model(&c, token, m);
	offer_sysfs(&c, token, ctx ? ctx->sysfs_root : NULL);
	offer_tracepoints(&c, token,
			  pmu__tracefs_root(ctx ? ctx->tracefs_root : NULL));
	return c.n;
}

/* Only the built-in names: their strings are static, as the contract
 * promises; sysfs and tracefs names need pmu__event_suggest_ex. */
size_t pmu__event_suggest(const char *token, const struct pmu__parse_ctx *ctx,
			  const char **out, size_t max)
{
	struct pmu__suggestion tmp[8];
	struct collector c = { .out = tmp, .limit = pmu__near_limit(token) };
	size_t n, k = 0;
	const char *const *names = pmu__evname_all(&n);

	(void)ctx;
	c.max = max < 8 ? max : 8;
	offer_static(&c, token);
	for (size_t i = 0; i < c.n; i++)
		for (size_t j = 0; j < n; j++)
			if (!strcmp(tmp[i].name, names[j])) {
				out[k++] = names[j];
				break;
			}
	return k;
}
