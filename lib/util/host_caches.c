/* SPDX-License-Identifier: MIT */
/* This host's cache geometry, from sysfs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/file.h"
#include "util/host_caches.h"

#define INDEX_DIR "%s/sys/devices/system/cpu/cpu0/cache/index%d/%s"

static int attr(const char *root, int idx, const char *name, char *buf,
		size_t len)
{
	char path[512];
	size_t n = 0;
	char *text;

	snprintf(path, sizeof(path), INDEX_DIR, root, idx, name);
	text = pmu__read_file(path, 256, &n);
	if (!text)
		return -1;
	while (n && (text[n - 1] == '\n' || text[n - 1] == ' '))
		text[--n] = '\0';
	snprintf(buf, len, "%s", text);
	free(text);
	return 0;
}

static uint32_t number(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (end == s)
		return 0;
	if (*end == 'K')
		v <<= 10;
	else if (*end == 'M')
		v <<= 20;
	return v > UINT32_MAX ? 0 : (uint32_t)v;
}

/* One index directory: its level, type and geometry; -1 past the end. */
static int one(const char *root, int idx, int *level, char *type,
	       size_t tlen, struct pmu__cache_geom *g)
{
	char lv[32], sz[32], ways[32], line[32];

	if (attr(root, idx, "level", lv, sizeof(lv)) ||
	    attr(root, idx, "type", type, tlen))
		return -1;
	if (attr(root, idx, "size", sz, sizeof(sz)) ||
	    attr(root, idx, "ways_of_associativity", ways, sizeof(ways)) ||
	    attr(root, idx, "coherency_line_size", line, sizeof(line)))
		sz[0] = ways[0] = line[0] = '\0';
	*level = atoi(lv);
	*g = (struct pmu__cache_geom){ number(sz), number(ways), number(line) };
	return 0;
}

static int usable(const struct pmu__cache_geom *g)
{
	return g->size && g->assoc && g->line &&
	       g->size % ((uint64_t)g->assoc * g->line) == 0;
}

int pmu__host_caches(const char *root, struct pmu__cache_geom *i1,
		     struct pmu__cache_geom *d1, struct pmu__cache_geom *ll)
{
	int best = 0, level;
	char type[32];
	struct pmu__cache_geom g;

	memset(i1, 0, sizeof(*i1));
	memset(d1, 0, sizeof(*d1));
	memset(ll, 0, sizeof(*ll));
	for (int idx = 0; idx < 16; idx++) {
		if (one(root ? root : "", idx, &level, type, sizeof(type), &g))
			break;
		if (!usable(&g))
			continue;
		if (level == 1 && !strcmp(type, "Instruction"))
			*i1 = g;
		else if (level == 1 && !strcmp(type, "Data"))
			*d1 = g;
		else if (level > 1 && level > best &&
			 !strcmp(type, "Unified")) {
			*ll = g;
			best = level;
		}
	}
	return i1->size && d1->size ? 0 : -ENOENT;
}
