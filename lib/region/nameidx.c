/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "region/nameidx.h"
#include "region/region.h"

/* FNV-1a over the bytes a name keeps. */
static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; s[i] && i < PMU__REGION_NAME_MAX - 1; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

ssize_t pmu__nameidx_find(const struct pmu__nameidx *x, const char *name,
			  pmu__name_at_fn at, const void *arg)
{
	size_t mask = x->cap - 1;

	if (!x->cap)
		return -1;
	for (size_t k = hash(name) & mask;; k = (k + 1) & mask) {
		uint32_t v = x->slot[k];

		if (!v)
			return -1;
		if (!strncmp(at(arg, v - 1), name, PMU__REGION_NAME_MAX - 1))
			return (ssize_t)(v - 1);
	}
}

static void put(uint32_t *slot, size_t cap, uint32_t h, size_t i)
{
	size_t k = h & (cap - 1);

	while (slot[k])
		k = (k + 1) & (cap - 1);
	slot[k] = (uint32_t)(i + 1);
}

int pmu__nameidx_add(struct pmu__nameidx *x, size_t i, size_t n,
		     pmu__name_at_fn at, const void *arg)
{
	if (n > UINT32_MAX - 1)
		return -ENOMEM;
	/* at most half full: probes stay short */
	if (2 * n > x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 16;
		uint32_t *slot;

		while (2 * n > cap)
			cap *= 2;
		if (!(slot = calloc(cap, sizeof(*slot))))
			return -ENOMEM;
		for (size_t j = 0; j < n; j++)
			if (j != i)
				put(slot, cap, hash(at(arg, j)), j);
		free(x->slot);
		x->slot = slot;
		x->cap = cap;
	}
	put(x->slot, x->cap, hash(at(arg, i)), i);
	return 0;
}

void pmu__nameidx_free(struct pmu__nameidx *x)
{
	free(x->slot);
	x->slot = NULL;
	x->cap = 0;
}
