/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "events/assign.h"

#define NCTR 64

static bool uses_res(const struct pmu__asg_req *req, int n, uint64_t mask)
{
	for (int i = 0; i < n; i++)
		if (mask >> i & 1)
			for (int k = 0; k < req[i].ncand; k++)
				if (req[i].cand[k].res)
					return true;
	return false;
}

/* Augmenting paths (Kuhn): polynomial when counters are the only shared
 * resource.  owner[c] = event holding counter c, or -1. */
static bool augment(const struct pmu__asg_req *req, int i, int *owner,
		    uint64_t *seen)
{
	/* A free counter first, so earlier events keep their places. */
	for (int k = 0; k < req[i].ncand; k++) {
		int c = req[i].cand[k].ctr;
		if (owner[c] < 0 && !(*seen >> c & 1)) {
			*seen |= 1ull << c;
			owner[c] = i;
			return true;
		}
	}
	for (int k = 0; k < req[i].ncand; k++) {
		int c = req[i].cand[k].ctr;
		if (*seen >> c & 1)
			continue;
		*seen |= 1ull << c;
		if (owner[c] < 0 || augment(req, owner[c], owner, seen)) {
			owner[c] = i;
			return true;
		}
	}
	return false;
}

static bool solve_matching(const struct pmu__asg_req *req, int n,
			   uint64_t mask, int *choice)
{
	int owner[NCTR];

	for (int c = 0; c < NCTR; c++)
		owner[c] = -1;
	for (int i = 0; i < n; i++) {
		uint64_t seen = 0;
		if ((mask >> i & 1) && !augment(req, i, owner, &seen))
			return false;
	}
	for (int c = 0; c < NCTR; c++)
		if (owner[c] >= 0 && choice)
			for (int k = 0; k < req[owner[c]].ncand; k++)
				if (req[owner[c]].cand[k].ctr == c)
					choice[owner[c]] = k;
	return true;
}

/* Counters and ESCRs must both be distinct: a small depth-first search
 * (at most 18 counters, a handful of candidates per event). */
struct bt {
	const struct pmu__asg_req *req;
	int n;
	uint64_t mask, used_ctr;
	uint16_t used_res[NCTR];
	int nres;
	int *choice;
};

static bool res_used(const struct bt *b, uint16_t r)
{
	for (int j = 0; j < b->nres; j++)
		if (b->used_res[j] == r)
			return true;
	return false;
}

static bool backtrack(struct bt *b, int i)
{
	while (i < b->n && !(b->mask >> i & 1))
		i++;
	if (i == b->n)
		return true;
	for (int k = 0; k < b->req[i].ncand; k++) {
		const struct pmu__asg_cand *c = &b->req[i].cand[k];
		if ((b->used_ctr >> c->ctr & 1) || (c->res && res_used(b, c->res)))
			continue;
		b->used_ctr |= 1ull << c->ctr;
		if (c->res)
			b->used_res[b->nres++] = c->res;
		b->choice[i] = k;
		if (backtrack(b, i + 1))
			return true;
		b->used_ctr &= ~(1ull << c->ctr);
		if (c->res)
			b->nres--;
	}
	return false;
}

bool pmu__assign_solve(const struct pmu__asg_req *req, int n, uint64_t mask,
		       int *choice)
{
	int scratch[64];
	struct bt b = { .req = req, .n = n, .mask = mask,
			.choice = choice ? choice : scratch };

	if (n > 64)
		return false;
	if (!uses_res(req, n, mask))
		return solve_matching(req, n, mask, choice);
	return backtrack(&b, 0);
}

/* Next k-combination of 0..n-1 in lexicographic order. */
static bool next_comb(int *idx, int k, int n)
{
	int i = k - 1;

	while (i >= 0 && idx[i] == n - k + i)
		i--;
	if (i < 0)
		return false;
	idx[i]++;
	for (int j = i + 1; j < k; j++)
		idx[j] = idx[j - 1] + 1;
	return true;
}

/* Drop events while the rest still conflicts: an irreducible set, used
 * when exhaustive search would take too long. */
static int shrink(const struct pmu__asg_req *req, int n, int *set)
{
	uint64_t mask = n >= 64 ? ~0ull : (1ull << n) - 1;
	int m = 0;

	for (int i = 0; i < n; i++)
		if (!pmu__assign_solve(req, n, mask & ~(1ull << i), NULL))
			mask &= ~(1ull << i);
	for (int i = 0; i < n; i++)
		if (mask >> i & 1)
			set[m++] = i;
	return m;
}

int pmu__assign_conflict(const struct pmu__asg_req *req, int n, int *set)
{
	uint64_t all = n >= 64 ? ~0ull : (1ull << n) - 1;
	long budget = 200000;
	int idx[64];

	if (n <= 0 || n > 64 || pmu__assign_solve(req, n, all, NULL))
		return 0;
	for (int k = 1; k <= n; k++) {
		for (int j = 0; j < k; j++)
			idx[j] = j;
		do {
			uint64_t mask = 0;
			for (int j = 0; j < k; j++)
				mask |= 1ull << idx[j];
			if (!pmu__assign_solve(req, n, mask, NULL)) {
				memcpy(set, idx, (size_t)k * sizeof(*set));
				return k;
			}
			if (--budget == 0)
				return shrink(req, n, set);
		} while (next_comb(idx, k, n));
	}
	return shrink(req, n, set);
}
