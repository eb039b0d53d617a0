/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profile/report.h"

/* ---- interned strings ---- */

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static int pool_grow(struct rpool *p)
{
	size_t cap = p->hcap ? 2 * p->hcap : 1024;
	uint32_t *h = malloc(cap * sizeof(*h));

	if (!h)
		return -ENOMEM;
	memset(h, 0xff, cap * sizeof(*h));
	for (size_t i = 0; i < p->n; i++) {
		size_t k = hash_str(p->s[i]) & (cap - 1);

		while (h[k] != UINT32_MAX)
			k = (k + 1) & (cap - 1);
		h[k] = (uint32_t)i;
	}
	free(p->hash);
	p->hash = h;
	p->hcap = cap;
	return 0;
}

uint32_t pmu__rpool_add(struct rpool *p, const char *s)
{
	size_t k;

	if (2 * (p->n + 1) > p->hcap && pool_grow(p))
		return 0;
	for (k = hash_str(s) & (p->hcap - 1); p->hash[k] != UINT32_MAX;
	     k = (k + 1) & (p->hcap - 1))
		if (!strcmp(p->s[p->hash[k]], s))
			return p->hash[k];
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 1024;
		char **v = realloc(p->s, cap * sizeof(*v));

		if (!v)
			return 0;
		p->s = v;
		p->cap = cap;
	}
	if (!(p->s[p->n] = strdup(s)))
		return 0;
	p->hash[k] = (uint32_t)p->n;
	return (uint32_t)p->n++;
}

const char *pmu__rpool_get(const struct rpool *p, uint32_t i)
{
	return i < p->n ? p->s[i] : "";
}

static void pool_free(struct rpool *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->s[i]);
	free(p->s);
	free(p->hash);
	memset(p, 0, sizeof(*p));
}

/* ---- call trees ---- */

int pmu__rtree_init(struct rtree *t)
{
	memset(t, 0, sizeof(*t));
	t->n = calloc(64, sizeof(*t->n));
	if (!t->n)
		return -ENOMEM;
	t->cap = 64;
	t->len = 1;
	return 0;
}

static void rtree_free(struct rtree *t)
{
	free(t->n);
	free(t->hash);
	memset(t, 0, sizeof(*t));
}

static size_t edge_hash(uint32_t parent, uint32_t name, uint32_t dso)
{
	uint64_t k = ((uint64_t)parent << 32 | name) ^ ((uint64_t)dso << 17);

	return (size_t)((k * 0x9E3779B97F4A7C15ULL) >> 20);
}

static int tree_rehash(struct rtree *t)
{
	size_t cap = t->hcap ? 2 * t->hcap : 1024;
	uint32_t *h = calloc(cap, sizeof(*h));

	if (!h)
		return -ENOMEM;
	for (uint32_t i = 1; i < t->len; i++) {
		size_t k = edge_hash(t->n[i].parent, t->n[i].name,
				     t->n[i].dso) & (cap - 1);

		while (h[k])
			k = (k + 1) & (cap - 1);
		h[k] = i;
	}
	free(t->hash);
	t->hash = h;
	t->hcap = cap;
	return 0;
}

static uint32_t child_of(struct rtree *t, uint32_t parent, uint32_t name,
			 uint32_t dso, uint8_t kind)
{
	size_t k;

	if (2 * (t->len + 1) > t->hcap && tree_rehash(t))
		return 0;
	for (k = edge_hash(parent, name, dso) & (t->hcap - 1); t->hash[k];
	     k = (k + 1) & (t->hcap - 1)) {
		struct rnode *c = &t->n[t->hash[k]];

		if (c->parent == parent && c->name == name && c->dso == dso)
			return t->hash[k];
	}
	if (t->len == t->cap) {
		struct rnode *v = realloc(t->n, 2 * t->cap * sizeof(*v));

		if (!v)
			return 0;
		t->n = v;
		t->cap *= 2;
	}
	uint32_t i = (uint32_t)t->len++;
	struct rnode *c = &t->n[i];

	memset(c, 0, sizeof(*c));
	c->name = name;
	c->dso = dso;
	c->kind = kind;
	c->parent = parent;
	/* appended last among its siblings: output keeps first-seen
	 * order, then sorts where it wants another */
	struct rnode *up = &t->n[parent];

	if (up->last_child)
		t->n[up->last_child].next_sibling = i;
	else
		up->first_child = i;
	up->last_child = i;
	t->hash[k] = i;
	return i;
}

int pmu__rtree_add(struct rtree *t, const uint32_t *names, const uint32_t *dsos,
	      const uint8_t *kinds, size_t n, uint64_t period, bool in_base)
{
	uint32_t at = 0;

	if (in_base)
		t->n[0].base_total += period;
	else
		t->n[0].total += period;
	for (size_t i = 0; i < n; i++) {
		at = child_of(t, at, names[i], dsos[i], kinds[i]);
		if (!at)
			return -ENOMEM;
		if (in_base)
			t->n[at].base_total += period;
		else
			t->n[at].total += period;
	}
	if (!in_base)
		t->n[at].self += period;
	return 0;
}

static size_t pc_slot(const void *k, uint32_t tag, size_t cap)
{
	uint64_t h = ((uint64_t)(uintptr_t)k ^ ((uint64_t)tag << 48)) *
		     0x9E3779B97F4A7C15ULL;

	return (size_t)(h >> 20) & (cap - 1);
}

static int pc_grow(struct pcache *c)
{
	struct pcache n = { .cap = c->cap ? 2 * c->cap : 4096 };

	n.key = calloc(n.cap, sizeof(*n.key));
	n.tag = malloc(n.cap * sizeof(*n.tag));
	n.val = malloc(n.cap * sizeof(*n.val));
	if (!n.key || !n.tag || !n.val) {
		free(n.key);
		free(n.tag);
		free(n.val);
		return -ENOMEM;
	}
	for (size_t i = 0; i < c->cap; i++) {
		if (!c->key[i])
			continue;
		size_t k = pc_slot(c->key[i], c->tag[i], n.cap);

		while (n.key[k])
			k = (k + 1) & (n.cap - 1);
		n.key[k] = c->key[i];
		n.tag[k] = c->tag[i];
		n.val[k] = c->val[i];
	}
	n.n = c->n;
	free(c->key);
	free(c->tag);
	free(c->val);
	*c = n;
	return 0;
}

bool pmu__report_cached(struct report *r, const void *s, uint32_t tag,
		   uint32_t *id)
{
	const struct pcache *c = &r->pc;

	if (!c->cap)
		return false;
	for (size_t k = pc_slot(s, tag, c->cap); c->key[k];
	     k = (k + 1) & (c->cap - 1))
		if (c->key[k] == s && c->tag[k] == tag) {
			*id = c->val[k];
			return true;
		}
	return false;
}

void pmu__report_cache(struct report *r, const void *s, uint32_t tag, uint32_t id)
{
	struct pcache *c = &r->pc;
	size_t k;

	if (2 * (c->n + 1) > c->cap && pc_grow(c))
		return;
	for (k = pc_slot(s, tag, c->cap); c->key[k];
	     k = (k + 1) & (c->cap - 1))
		if (c->key[k] == s && c->tag[k] == tag)
			break;
	if (!c->key[k])
		c->n++;
	c->key[k] = s;
	c->tag[k] = tag;
	c->val[k] = id;
}

uint32_t pmu__report_intern(struct report *r, const char *s, uint32_t tag,
		       const char *label)
{
	uint32_t v;

	if (pmu__report_cached(r, s, tag, &v))
		return v;
	v = pmu__rpool_add(&r->pool, label ? label : s);
	pmu__report_cache(r, s, tag, v);
	return v;
}

void pmu__report_free(struct report *r)
{
	free(r->pc.key);
	free(r->pc.tag);
	free(r->pc.val);
	for (size_t i = 0; i < r->nrows; i++)
		if (r->rows[i].chains) {
			rtree_free(r->rows[i].chains);
			free(r->rows[i].chains);
		}
	free(r->rows);
	free(r->rhash);
	free(r->stack);
	free(r->stack_frame);
	rtree_free(&r->tree);
	pool_free(&r->pool);
}
