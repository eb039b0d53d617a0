/* SPDX-License-Identifier: MIT */
/*
 * The cache model: split L1 (I1, D1) in front of a unified last level
 * (LL), each set-associative with LRU replacement and write-allocate,
 * the rules cachegrind simulates, so that the same geometry gives the
 * same misses:
 *  - a line's set is its block number (address / line size) modulo the
 *    number of sets; the block number is the tag;
 *  - an access that straddles lines touches each of them and is one
 *    miss if any of them missed;
 *  - an L1 miss accesses the LL with the same address and size; nothing
 *    is written back or invalidated (the LL does not enforce inclusion);
 *  - a read-modify-write of one location by one instruction is one read.
 * Sizes need not be powers of two (the set is a modulo then), so a host
 * cache of 12 ways or 30 MiB is modelled as it is.
 */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"

#include "emu.h"

struct cache {
	Bool present;
	UInt assoc;
	UInt line_bits;
	UWord nsets;
	UWord set_mask;          /* nsets - 1 when nsets is a power of two */
	Bool pow2;
	UWord *tags;             /* nsets * assoc, most recently used first */
};

static struct cache I1, D1, LL;
static struct pmu_emu_cache_geom geom[3];  /* I1, D1, LL */

static UInt log2_exact(UInt v)
{
	UInt b = 0;

	while ((1u << b) < v)
		b++;
	return b;
}

static void init_one(struct cache *c, const struct pmu_emu_cache_geom *g,
		     const HChar *who)
{
	VG_(memset)(c, 0, sizeof(*c));
	if (!g->size)
		return;          /* no such level: every access misses */
	c->present = True;
	c->assoc = g->assoc;
	c->line_bits = log2_exact(g->line);
	c->nsets = g->size / g->line / g->assoc;
	tl_assert(c->nsets > 0);
	c->pow2 = (c->nsets & (c->nsets - 1)) == 0;
	c->set_mask = c->nsets - 1;
	/* Zeroed tags match block 0 only, a block no program touches
	 * (the first page is never mapped): cachegrind starts alike. */
	c->tags = VG_(calloc)(who, c->nsets * c->assoc, sizeof(UWord));
}

void emu_cache_init(const struct pmu_emu_cache_geom *i1,
		    const struct pmu_emu_cache_geom *d1,
		    const struct pmu_emu_cache_geom *ll)
{
	geom[0] = *i1;
	geom[1] = *d1;
	geom[2] = *ll;
}

/* A level's tags are allocated when its counts are first needed (an LL
 * of a host can take tens of MiB); it starts empty then. */
void emu_cache_need(Bool i1, Bool d1, Bool ll)
{
	if (i1 && !I1.tags)
		init_one(&I1, &geom[0], "pmu.cache.i1");
	if (d1 && !D1.tags)
		init_one(&D1, &geom[1], "pmu.cache.d1");
	if (ll && !LL.tags)
		init_one(&LL, &geom[2], "pmu.cache.ll");
}

UInt emu_cache_i1_line_bits(void)
{
	UInt b = 0;

	while ((1u << b) < geom[0].line)
		b++;
	return b;
}

/* One line: True on a miss.  The hit path is the first comparison. */
static inline Bool line_ref(struct cache *c, UWord block)
{
	UWord set = c->pow2 ? block & c->set_mask : block % c->nsets;
	UWord *s = &c->tags[set * c->assoc];
	UInt i;
	Bool miss;

	if (s[0] == block)
		return False;
	for (i = 1; i < c->assoc && s[i] != block; i++)
		;
	miss = i == c->assoc;
	if (miss)
		i--;             /* the least recently used goes */
	for (; i > 0; i--)
		s[i] = s[i - 1];
	s[0] = block;
	return miss;
}

static inline Bool ref(struct cache *c, Addr a, UWord size)
{
	UWord b, last;
	Bool miss;

	if (!c->present)
		return True;
	b = a >> c->line_bits;
	last = (a + size - 1) >> c->line_bits;
	if (b == last)
		return line_ref(c, b);
	miss = False;
	for (; b <= last; b++)
		miss |= line_ref(c, b);
	return miss;
}

static inline void count(UInt k)
{
	emu.kind[k]++;
	if (emu.irq_kinds & (1ull << k))
		emu.budget--;
}

VG_REGPARM(2) void emu_cache_iref(Addr a, UWord size)
{
	if (!ref(&I1, a, size))
		return;
	count(PMU_EMU_K_I1_MISS);
	if (emu.llsim && ref(&LL, a, size))
		count(PMU_EMU_K_LL_IMISS);
}

VG_REGPARM(2) void emu_cache_dread(Addr a, UWord size)
{
	if (!ref(&D1, a, size))
		return;
	count(PMU_EMU_K_D1_RMISS);
	if (emu.llsim && ref(&LL, a, size))
		count(PMU_EMU_K_LL_RMISS);
}

VG_REGPARM(2) void emu_cache_dwrite(Addr a, UWord size)
{
	if (!ref(&D1, a, size))
		return;
	count(PMU_EMU_K_D1_WMISS);
	if (emu.llsim && ref(&LL, a, size))
		count(PMU_EMU_K_LL_WMISS);
}
