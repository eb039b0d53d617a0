/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "util/nearest.h"

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

/* Short tokens are near everything short, so they get less slack. */
unsigned pmu__near_limit(const char *token)
{
	size_t len = strlen(token);

	return len < 4 ? 1 : len < 9 ? 2 : 3;
}

void pmu__nearest_init(struct pmu__nearest *n, const char *typed,
		       unsigned limit)
{
	n->typed = typed;
	n->bound = (limit ? limit : pmu__near_limit(typed)) + 1;
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
