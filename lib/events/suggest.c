/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "events/evparse.h"

#define MAX_LEN 127
#define FAR 1000u

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static unsigned min3(unsigned a, unsigned b, unsigned c)
{
	unsigned m = a < b ? a : b;

	return m < c ? m : c;
}

unsigned pmu__edit_distance(const char *a, const char *b)
{
	/* Three rolling rows: transpositions look two rows back. */
	unsigned rows[3][MAX_LEN + 2];
	size_t la = strlen(a), lb = strlen(b);

	if (la > MAX_LEN || lb > MAX_LEN)
		return FAR;
	for (size_t j = 0; j <= lb; j++)
		rows[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned *cur = rows[i % 3], *prev = rows[(i - 1) % 3];
		unsigned *prev2 = rows[(i + 1) % 3];

		cur[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = lower((unsigned char)a[i - 1]);
			int cb = lower((unsigned char)b[j - 1]);
			unsigned cost = ca != cb;

			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1,
				      prev[j - 1] + cost);
			if (i > 1 && j > 1 &&
			    ca == lower((unsigned char)b[j - 2]) &&
			    lower((unsigned char)a[i - 2]) == cb &&
			    prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
	}
	return rows[la % 3][lb];
}

/* How far a name may be from what was typed and still be offered: short
 * tokens are near everything short, so they get less slack. */
static unsigned cutoff(const char *token)
{
	size_t len = strlen(token);

	return len < 4 ? 1 : len < 9 ? 2 : 3;
}

void pmu__nearest_init(struct pmu__nearest *n, const char *typed,
		       unsigned limit)
{
	n->typed = typed;
	n->bound = (limit ? limit : cutoff(typed)) + 1;
	n->best = NULL;
}

void pmu__nearest_offer(struct pmu__nearest *n, const char *cand)
{
	unsigned d = pmu__edit_distance(n->typed, cand);

	if (d < n->bound) {
		n->bound = d;
		n->best = cand;
	}
}

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
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (pmu__sysfs_path(path, sizeof(path), root, "", "") ||
	    !(d = opendir(path)))
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			offer_pmu_aliases(c, token, root, de->d_name);
	closedir(d);
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

size_t pmu__event_suggest_ex(const char *token,
			     const struct pmu__parse_ctx *ctx,
			     struct pmu__suggestion *out, size_t max)
{
	struct collector c = { .out = out, .max = max, .limit = cutoff(token) };

	offer_static(&c, token);
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
	struct collector c = { .out = tmp, .limit = cutoff(token) };
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
