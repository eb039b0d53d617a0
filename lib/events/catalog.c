/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "events/catalog.h"
#include "events/catalog_kernel.h"
#include "events/catalog_seed.h"
#include "util/error.h"
#include "util/nearest.h"

#define BUILTIN(X) \
	X(amd64_k7) X(amd64_k8_revb) X(amd64_k8_revc) X(amd64_k8_revd) \
	X(amd64_k8_reve) X(amd64_k8_revf) X(amd64_k8_revg) \
	X(amd64_fam10h_barcelona) X(amd64_fam17h_zen1) X(amd64_fam17h_zen2) \
	X(amd64_fam19h_zen3) X(amd64_fam19h_zen4) X(skl) X(icl) X(spr) \
	X(netburst) X(netburst_p) X(perf) X(perf_raw)

#define DECLARE(n) const struct pmu__table *pmu__table_##n(void);
BUILTIN(DECLARE)
#undef DECLARE

#define COUNT(n) +1
enum { NBUILTIN_ = 0 BUILTIN(COUNT) };
#undef COUNT

/*
 * The built-in models, filled once from their tables.  The tables are
 * relocation-free read-only data; only these few structs hold pointers,
 * and they are set up on first use instead of by the dynamic loader.
 */
static struct pmu__catmodel builtin_m[NBUILTIN_];
static const char *builtin_aliases[NBUILTIN_][PMU__TABLE_ALIASES + 1];
static const struct pmu__catmodel *builtin[NBUILTIN_];
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

void pmu__table_model(const struct pmu__table *t, struct pmu__catmodel *m,
		      const char **aliases)
{
	const char *base = (const char *)t;

	memset(m, 0, sizeof(*m));
	m->strings = base + t->strings;
	m->name = pmu__str(m, t->name);
	m->desc = pmu__str(m, t->desc);
	m->kind = (enum pmu__enc_kind)t->kind;
	m->modmsk = t->modmsk;
	m->ncounters = t->ncounters;
	m->nfixed = t->nfixed;
	m->perf_type = t->perf_type;
	m->events = (const struct pmu__event *)(const void *)(base + t->events);
	m->nevents = t->nevents;
	m->umasks = (const struct pmu__umask *)(const void *)(base + t->umasks);
	m->numasks = t->numasks;
	if (t->hash_size) {
		m->hash = (const uint32_t *)(const void *)(base + t->hash);
		m->hash_size = t->hash_size;
	}
	m->arch = (enum pmu__arch)t->arch;
	m->vendor_names = t->arch != PMU__ARCH_NONE;
	m->pmu = pmu__str(m, t->pmu);
	m->patterns = pmu__str(m, t->patterns);
	m->hybrid = pmu__str(m, t->hybrid);
	m->twin = pmu__str(m, t->twin);
	if (t->nmetrics) {
		m->metrics = (const struct pmu__metric *)(const void *)
			     (base + t->metrics);
		m->nmetrics = t->nmetrics;
	}
	if (t->vhash_size) {
		m->vhash = (const uint32_t *)(const void *)(base + t->vhash);
		m->vhash_size = t->vhash_size;
	}
	if (!aliases)
		return;
	for (size_t a = 0; a < PMU__TABLE_ALIASES && t->aliases[a]; a++)
		*aliases++ = pmu__str(m, t->aliases[a]);
	*aliases = NULL;
}

static bool strpool_reserve(struct pmu__strpool *p, size_t need)
{
	size_t cap = p->cap ? p->cap : 4096;
	char *b;

	if (need > UINT32_MAX)
		return false;
	if (need <= p->cap)
		return true;
	while (cap < need)
		cap *= 2;
	if (!(b = realloc(p->buf, cap)))
		return false;
	p->buf = b;
	p->cap = cap;
	return true;
}

uint32_t pmu__strpool_add(struct pmu__strpool *p, const char *s)
{
	size_t n = s ? strlen(s) + 1 : 0;

	if (!s || p->failed)
		return 0;
	/* One byte more for the pool's leading empty string (offset 0). */
	if (!strpool_reserve(p, p->len + n + !p->len)) {
		p->failed = true;
		return 0;
	}
	if (!p->len)
		p->buf[p->len++] = '\0';
	memcpy(p->buf + p->len, s, n);
	p->len += n;
	return (uint32_t)(p->len - n);
}

static void fill_builtin(void)
{
	const struct pmu__table *const t[NBUILTIN_] = {
#define CALL(n) pmu__table_##n(),
		BUILTIN(CALL)
#undef CALL
	};

	for (size_t i = 0; i < NBUILTIN_; i++) {
		pmu__table_model(t[i], &builtin_m[i], builtin_aliases[i]);
		builtin_m[i].aliases = builtin_aliases[i];
		builtin[i] = &builtin_m[i];
	}
}

#define NBUILTIN ((size_t)NBUILTIN_)
/* Room for the kernel's models and a vendor directory's on top. */
#define MAXKERNEL 256
#define MAXMODELS 640

/*
 * Built-in tables first, then the seed models (both set up on first
 * use), then the kernel's pmu-events models, each filled from its table
 * only when it is first used (a model name lookup touches no table),
 * then the models their loader registers at run time.  The count is
 * published after the slots it covers are written, and slots below a
 * published count never change: readers need no lock.
 */
static const struct pmu__catmodel *all[MAXMODELS];
static size_t nstatic, kfirst, nkernel;
static _Atomic size_t nall;
static atomic_flag registered = ATOMIC_FLAG_INIT;
static pthread_once_t all_once = PTHREAD_ONCE_INIT;

static struct pmu__catmodel kmodels[MAXKERNEL];
static const char *kaliases[MAXKERNEL][PMU__TABLE_ALIASES + 1];
static _Atomic(const struct pmu__catmodel *) kslot[MAXKERNEL];
static pthread_mutex_t kmutex = PTHREAD_MUTEX_INITIALIZER;

static void init_all(void)
{
	size_t ns = 0, n = 0;
	const struct pmu__catmodel *const *seed = pmu__seed_models(&ns);

	pthread_once(&builtin_once, fill_builtin);
	for (size_t i = 0; i < NBUILTIN; i++)
		all[n++] = builtin[i];
	for (size_t i = 0; i < ns && n < MAXMODELS; i++)
		all[n++] = seed[i];
	kfirst = n;
	nkernel = pmu__ktable_count();
	if (nkernel > MAXKERNEL)
		nkernel = MAXKERNEL;
	nstatic = n + nkernel;
	atomic_store_explicit(&nall, nstatic, memory_order_release);
}

/* Kernel model k, filled from its table on first use. */
static const struct pmu__catmodel *kernel_model(size_t k)
{
	const struct pmu__catmodel *m =
		atomic_load_explicit(&kslot[k], memory_order_acquire);

	if (m)
		return m;
	pthread_mutex_lock(&kmutex);
	m = atomic_load_explicit(&kslot[k], memory_order_relaxed);
	if (!m) {
		pmu__table_model(pmu__ktable(k), &kmodels[k], kaliases[k]);
		pmu__kuncore_fill(k, &kmodels[k]);
		kmodels[k].aliases = kaliases[k];
		m = &kmodels[k];
		atomic_store_explicit(&kslot[k], m, memory_order_release);
	}
	pthread_mutex_unlock(&kmutex);
	return m;
}

size_t pmu__catalog_count(void)
{
	pthread_once(&all_once, init_all);
	return atomic_load_explicit(&nall, memory_order_acquire);
}

const struct pmu__catmodel *pmu__catalog_at(size_t i)
{
	size_t n = pmu__catalog_count();

	if (i >= n)
		return NULL;
	if (i >= kfirst && i < kfirst + nkernel)
		return kernel_model(i - kfirst);
	return all[i];
}

static const char *catalog_name_at(size_t i)
{
	size_t n = pmu__catalog_count();

	if (i >= n)
		return NULL;
	if (i >= kfirst && i < kfirst + nkernel)
		return pmu__ktable_name(i - kfirst);
	return all[i]->name;
}

static pthread_once_t kall_once = PTHREAD_ONCE_INIT;

static void fill_kernel(void)
{
	for (size_t k = 0; k < nkernel; k++)
		all[kfirst + k] = kernel_model(k);
}

const struct pmu__catmodel *const *pmu__catalog_models(size_t *n)
{
	pthread_once(&all_once, init_all);
	/* Whoever wants every model pays for filling every one. */
	pthread_once(&kall_once, fill_kernel);
	*n = atomic_load_explicit(&nall, memory_order_acquire);
	return all;
}

int pmu__catalog_register(const struct pmu__catmodel *const *ms, size_t n)
{
	size_t k;

	pthread_once(&all_once, init_all);
	if (atomic_flag_test_and_set(&registered))
		return -EBUSY;
	k = nstatic;
	for (size_t i = 0; i < n && k < MAXMODELS; i++)
		all[k++] = ms[i];
	atomic_store_explicit(&nall, k, memory_order_release);
	return 0;
}

bool pmu__name_caseeq(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
		if (x != y && ((x | 0x20) != (y | 0x20) ||
			       (unsigned)((x | 0x20) - 'a') > 'z' - 'a'))
			return false;
	}
	return true;
}

/* a (NUL-terminated) equals the n bytes of b, ignoring ASCII case. */
static bool name_eq(const char *a, const char *b, size_t n)
{
	/* Names are mostly typed as the tables spell them. */
	if (!strncmp(a, b, n))
		return a[n] == '\0';
	for (size_t i = 0; i < n; i++)
		if (!a[i] || !pmu__name_caseeq(a + i, b + i, 1))
			return false;
	return a[n] == '\0';
}

/* Hash of built-in model names and aliases and of the kernel models'
 * names, filled once: each entry has its name's length and hash, so
 * that a probe compares bytes only for the right name.  Entries name a
 * catalog index, so that a lookup fills only the model it finds. */
#define NAME_SLOTS 1024u
static struct name_slot {
	const char *s;
	uint32_t idx;                /* catalog index + 1; 0: empty */
	uint32_t len, hash;
} name_slots[NAME_SLOTS];
static pthread_once_t names_once = PTHREAD_ONCE_INIT;
_Static_assert((NBUILTIN * (PMU__TABLE_ALIASES + 1) + MAXKERNEL) <=
	       NAME_SLOTS / 2, "the model-name hash stays at most half full");

static void add_name(const char *s, size_t idx)
{
	uint32_t len = (uint32_t)strlen(s), h = pmu__name_hash(s, len), p = h;

	while (name_slots[p & (NAME_SLOTS - 1)].idx)
		p++;
	name_slots[p & (NAME_SLOTS - 1)] = (struct name_slot){
		.s = s, .idx = (uint32_t)idx + 1, .len = len, .hash = h };
}

static void index_names(void)
{
	pthread_once(&all_once, init_all);
	for (size_t i = 0; i < NBUILTIN; i++) {
		const struct pmu__catmodel *m = builtin[i];
		add_name(m->name, i);
		for (size_t a = 0; m->aliases && m->aliases[a]; a++)
			add_name(m->aliases[a], i);
	}
	for (size_t k = 0; k < nkernel; k++)
		add_name(pmu__ktable_name(k), kfirst + k);
}

/* Catalog index of a built-in or kernel model, or -1. */
static ssize_t hashed_find(const char *name, size_t n)
{
	uint32_t h = pmu__name_hash(name, n);

	pthread_once(&names_once, index_names);
	for (uint32_t p = 0; p < NAME_SLOTS; p++) {
		const struct name_slot *e = &name_slots[(h + p) &
							(NAME_SLOTS - 1)];
		if (!e->idx)
			return -1;
		if (e->hash == h && e->len == n &&
		    pmu__name_eq_n(e->s, name, n))
			return (ssize_t)e->idx - 1;
	}
	return -1;
}

ssize_t pmu__catalog_find_index(const char *name, size_t n)
{
	/* The built-in and kernel tables need no registry: try them
	 * first. */
	ssize_t b = hashed_find(name, n);
	size_t na = pmu__catalog_count();

	if (b >= 0)
		return b;
	for (size_t i = NBUILTIN; i < na; i++)
		if (name_eq(catalog_name_at(i), name, n))
			return (ssize_t)i;
	return -1;
}

const struct pmu__catmodel *pmu__catalog_find(const char *name, size_t n)
{
	ssize_t i = pmu__catalog_find_index(name, n);

	return i < 0 ? NULL : pmu__catalog_at((size_t)i);
}

const char *pmu__catalog_suggest(const char *name, size_t n)
{
	size_t na = pmu__catalog_count();
	struct pmu__nearest near;
	char typed[128];

	if (n >= sizeof(typed))
		return NULL;
	memcpy(typed, name, n);
	typed[n] = '\0';
	pmu__nearest_init(&near, typed, 0);
	for (size_t i = 0; i < na; i++) {
		pmu__nearest_offer(&near, catalog_name_at(i));
		/* Only tables have aliases; their models are filled. */
		if (i < kfirst)
			for (size_t a = 0; all[i]->aliases &&
			     all[i]->aliases[a]; a++)
				pmu__nearest_offer(&near, all[i]->aliases[a]);
	}
	return near.best;
}

static bool event_is(const struct pmu__catmodel *m, const struct pmu__event *ev,
		     const char *name, size_t n)
{
	const char *s = pmu__ev_name(m, ev);

	if (!ev->name_len)
		return name_eq(s, name, n);
	return ev->name_len == n && pmu__name_eq_n(s, name, n);
}

const struct pmu__event *pmu__catmodel_event(const struct pmu__catmodel *m,
					  const char *name, size_t n)
{
	if (!m->hash || !m->hash_size) {
		for (uint32_t i = 0; i < m->nevents; i++)
			if (event_is(m, &m->events[i], name, n))
				return &m->events[i];
		return NULL;
	}
	uint32_t mask = m->hash_size - 1, h = pmu__name_hash(name, n);
	uint32_t tag = h & 0xffff0000u;
	for (uint32_t probe = 0; probe < m->hash_size; probe++) {
		uint32_t slot = m->hash[(h + probe) & mask];
		if (!slot)
			return NULL;
		if ((slot & 0xffff0000u) == tag &&
		    event_is(m, &m->events[(slot & 0xffff) - 1], name, n))
			return &m->events[(slot & 0xffff) - 1];
	}
	return NULL;
}

int pmu__catmodel_index(const struct pmu__catmodel *m, uint32_t *slots,
		     uint32_t size)
{
	if (!size || (size & (size - 1)) || size <= m->nevents ||
	    m->nevents > PMU__SLOT_MAX_EVENTS)
		return -EINVAL;
	memset(slots, 0, size * sizeof(*slots));
	for (uint32_t i = 0; i < m->nevents; i++) {
		const char *s = pmu__ev_name(m, &m->events[i]);
		uint32_t h = pmu__name_hash(s, strlen(s)), p = h;
		while (slots[p & (size - 1)])
			p++;
		slots[p & (size - 1)] = PMU__SLOT(i, h);
	}
	return 0;
}
