/* SPDX-License-Identifier: MIT */
/*
 * What the emulator's observations are on each simulated model: feed
 * rules (an observed kind becomes one event code with a unit mask) and
 * the caches of the real processors, used as the emulated geometry when
 * a model is chosen.  Facts from the processors' manuals: event codes
 * and unit-mask bits, cache sizes, ways and line sizes.
 *
 * A model event that no rule feeds is not produced by the emulation, and
 * the driver reports it as not supported instead of counting zero.
 */
#include <stddef.h>
#include <string.h>

#include "drivers/emu_map.h"
#include "sim/sim.h"

#define NONE PMU_EMU_K_NONE
#define R(k, minus, key, umask) \
	{ PMU_EMU_K_##k, minus, 0, key, umask }
#define K(k) PMU_EMU_K_##k

/* AMD K8 and family 10h (their refill events carry the line's state). */
static const struct pmu_emu_rule amd_k8[] = {
	R(INSTR, NONE, 0xC0, 0),          /* retired instructions */
	R(INSTR, NONE, 0x80, 0),          /* instruction cache fetches */
	R(BR, NONE, 0xC2, 0),
	R(BR_MISP, NONE, 0xC3, 0),
	R(BR_TAKEN, NONE, 0xC4, 0),
	R(TAKEN_MISP, NONE, 0xC5, 0),
	R(BR_RET, NONE, 0xC8, 0),
	R(RET_MISP, NONE, 0xC9, 0),
	R(IND_MISP, NONE, 0xCA, 0),
	R(BR_RET, K(RET_MISP), 0x88, 0),  /* return stack hits */
	R(RAS_OVERFLOW, NONE, 0x89, 0),
	R(LOAD, NONE, 0x40, 0),           /* data cache accesses */
	R(STORE, NONE, 0x40, 0),
	R(D1_RMISS, NONE, 0x41, 0),       /* data cache misses */
	R(D1_WMISS, NONE, 0x41, 0),
	/* refills from L2 in state E (a read) or M (a write), or from the
	 * system when the LL missed too */
	R(D1_RMISS, K(LL_RMISS), 0x42, 0x04),
	R(D1_WMISS, K(LL_WMISS), 0x42, 0x10),
	R(LL_RMISS, NONE, 0x42, 0x01),
	R(LL_WMISS, NONE, 0x42, 0x01),
	R(LL_RMISS, NONE, 0x43, 0x04),    /* refills from system: E, M */
	R(LL_WMISS, NONE, 0x43, 0x10),
	R(I1_MISS, NONE, 0x7D, 0x01),     /* requests to L2: IC, DC */
	R(D1_RMISS, NONE, 0x7D, 0x02),
	R(D1_WMISS, NONE, 0x7D, 0x02),
	R(LL_IMISS, NONE, 0x7E, 0x01),    /* L2 misses: IC, DC */
	R(LL_RMISS, NONE, 0x7E, 0x02),
	R(LL_WMISS, NONE, 0x7E, 0x02),
	R(I1_MISS, NONE, 0x81, 0),        /* instruction cache misses */
	R(I1_MISS, K(LL_IMISS), 0x82, 0), /* ... refilled from L2 */
	R(LL_IMISS, NONE, 0x83, 0),       /* ... refilled from system */
};

/* AMD K7: no L2 request events; refills carry MOESI states. */
static const struct pmu_emu_rule amd_k7[] = {
	R(INSTR, NONE, 0xC0, 0),
	R(INSTR, NONE, 0x80, 0),
	R(BR, NONE, 0xC2, 0),
	R(BR_MISP, NONE, 0xC3, 0),
	R(BR_TAKEN, NONE, 0xC4, 0),
	R(TAKEN_MISP, NONE, 0xC5, 0),
	R(LOAD, NONE, 0x40, 0),
	R(STORE, NONE, 0x40, 0),
	R(D1_RMISS, NONE, 0x41, 0),
	R(D1_WMISS, NONE, 0x41, 0),
	R(D1_RMISS, K(LL_RMISS), 0x42, 0x04),
	R(D1_WMISS, K(LL_WMISS), 0x42, 0x10),
	R(LL_RMISS, NONE, 0x43, 0x04),
	R(LL_WMISS, NONE, 0x43, 0x10),
	R(I1_MISS, NONE, 0x81, 0),
};

/* P6 family: L2 requests carry the MESI state the L2 found (I: a miss);
 * bus reads carry the agent (0x20: any, so a counter that asks for its
 * own agent only also counts them). */
static const struct pmu_emu_rule intel_p6[] = {
	R(INSTR, NONE, 0xC0, 0),          /* INST_RETIRED */
	R(INSTR, NONE, 0xD0, 0),          /* INST_DECODED */
	R(INSTR, NONE, 0x80, 0),          /* IFU_IFETCH */
	R(BR, NONE, 0xC4, 0),             /* BR_INST_RETIRED */
	R(BR, NONE, 0xE0, 0),             /* BR_INST_DECODED */
	R(BR_MISP, NONE, 0xC5, 0),        /* BR_MISS_PRED_RETIRED */
	R(BR_TAKEN, NONE, 0xC9, 0),       /* BR_TAKEN_RETIRED */
	R(TAKEN_MISP, NONE, 0xCA, 0),     /* BR_MISS_PRED_TAKEN_RET */
	R(LOAD, NONE, 0x43, 0),           /* DATA_MEM_REFS */
	R(STORE, NONE, 0x43, 0),
	R(D1_RMISS, NONE, 0x45, 0),       /* DCU_LINES_IN */
	R(D1_WMISS, NONE, 0x45, 0),
	R(D1_WMISS, NONE, 0x46, 0),       /* DCU_M_LINES_IN */
	R(I1_MISS, NONE, 0x81, 0),        /* IFU_IFETCH_MISS */
	R(I1_MISS, K(LL_IMISS), 0x28, 0x4), /* L2_IFETCH: E, I */
	R(LL_IMISS, NONE, 0x28, 0x1),
	R(D1_RMISS, K(LL_RMISS), 0x29, 0x4), /* L2_LD */
	R(LL_RMISS, NONE, 0x29, 0x1),
	R(D1_WMISS, K(LL_WMISS), 0x2A, 0x4), /* L2_ST */
	R(LL_WMISS, NONE, 0x2A, 0x1),
	R(I1_MISS, K(LL_IMISS), 0x2E, 0x4), /* L2_RQSTS */
	R(D1_RMISS, K(LL_RMISS), 0x2E, 0x4),
	R(D1_WMISS, K(LL_WMISS), 0x2E, 0x4),
	R(LL_IMISS, NONE, 0x2E, 0x1),
	R(LL_RMISS, NONE, 0x2E, 0x1),
	R(LL_WMISS, NONE, 0x2E, 0x1),
	R(LL_IMISS, NONE, 0x24, 0),       /* L2_LINES_IN */
	R(LL_RMISS, NONE, 0x24, 0),
	R(LL_WMISS, NONE, 0x24, 0),
	R(LL_WMISS, NONE, 0x25, 0),       /* L2_M_LINES_INM */
	R(LL_IMISS, NONE, 0x68, 0x20),    /* BUS_TRAN_IFETCH */
	R(LL_WMISS, NONE, 0x66, 0x20),    /* BUS_TRAN_RFO */
	R(LL_IMISS, NONE, 0x65, 0x20),    /* BUS_TRAN_BRD */
	R(LL_RMISS, NONE, 0x65, 0x20),
};

/* P5, Pentium MMX, Cyrix MII. */
static const struct pmu_emu_rule intel_p5[] = {
	R(LOAD, NONE, 0x00, 0),           /* DATA_READ */
	R(STORE, NONE, 0x01, 0),          /* DATA_WRITE */
	R(D1_RMISS, NONE, 0x03, 0),       /* DATA_READ_MISS */
	R(D1_WMISS, NONE, 0x04, 0),       /* DATA_WRITE_MISS */
	R(INSTR, NONE, 0x0C, 0),          /* CODE_READ */
	R(I1_MISS, NONE, 0x0E, 0),        /* CODE_CACHE_MISS */
	R(BR, NONE, 0x12, 0),             /* BRANCHES */
	R(INSTR, NONE, 0x16, 0),          /* INSTRUCTIONS_EXECUTED */
	R(LOAD, NONE, 0x28, 0),           /* DATA_READ_OR_WRITE */
	R(STORE, NONE, 0x28, 0),
	R(D1_RMISS, NONE, 0x29, 0),       /* DATA_READ_MISS_OR_WRITE_MISS */
	R(D1_WMISS, NONE, 0x29, 0),
};

/* Pentium 4: keys name the ESCR pair (TBPU 0x3C2, CRU 0x3B8) and the
 * event select; unit masks are the ESCR event-mask bits. */
#define TBPU(sel) PMU_SIM_P4_KEY(0x3C2u, sel)
#define CRU(sel) PMU_SIM_P4_KEY(0x3B8u, sel)
static const struct pmu_emu_rule intel_p4[] = {
	R(INSTR, NONE, CRU(0x02), 0x1),   /* instr_retired: NBOGUSNTAG */
	R(BR_MISP, NONE, CRU(0x03), 0x1), /* mispred_branch_retired */
	/* retired_branch_type: CONDITIONAL 0x02, CALL 0x04, RETURN 0x08,
	 * INDIRECT 0x10 (returns, indirect calls and jumps); a branch of
	 * two types is one event with both bits */
	R(BR_COND, NONE, TBPU(0x04), 0x02),
	R(BR_CALL, K(BR_ICALL), TBPU(0x04), 0x04),
	R(BR_ICALL, NONE, TBPU(0x04), 0x14),
	R(BR_IND, K(BR_ICALL), TBPU(0x04), 0x10),
	R(BR_RET, NONE, TBPU(0x04), 0x18),
	/* retired_mispred_branch_type (a mispredicted indirect call counts
	 * as INDIRECT only) */
	R(COND_MISP, NONE, TBPU(0x05), 0x02),
	R(IND_MISP, NONE, TBPU(0x05), 0x10),
	R(RET_MISP, NONE, TBPU(0x05), 0x18),
};

static const struct pmu_emu_rule winchip[] = {
	R(CYCLES, NONE, 0x00, 0),         /* INTERNAL_CLOCKS */
	R(INSTR, NONE, 0x02, 0),          /* X86_INSTRUCTIONS */
	R(D1_RMISS, NONE, 0x47, 0),       /* DATA_READ_CACHE_MISSES */
	R(D1_WMISS, NONE, 0x4A, 0),       /* DATA_WRITE_CACHE_MISSES */
	R(I1_MISS, NONE, 0x63, 0),        /* INSTRUCTION_FETCH_CACHE_MISSES */
};

static const struct pmu_emu_rule via_c3[] = {
	R(INSTR, NONE, 0xC0, 0),          /* INSTRUCTIONS_EXECUTED */
};

static const struct pmu_emu_rule ppc[] = {
	R(INSTR, NONE, 0x02, 0),          /* INSTR_COMPLETED */
	R(INSTR, NONE, 0x04, 0),          /* INSTR_DISPATCHED */
};

static const struct pmu_emu_rule xscale[] = {
	R(I1_MISS, NONE, 0x00, 0),        /* ICACHE_MISS */
	R(BR, NONE, 0x05, 0),             /* BRANCH */
	R(BR_MISP, NONE, 0x06, 0),        /* BRANCH_MISS */
	R(INSTR, NONE, 0x07, 0),          /* INSTRUCTION */
	R(LOAD, NONE, 0x0A, 0),           /* DCACHE_ACCESS */
	R(STORE, NONE, 0x0A, 0),
	R(D1_RMISS, NONE, 0x0B, 0),       /* DCACHE_MISS */
	R(D1_WMISS, NONE, 0x0B, 0),
};

#define MAP(list, t) { list, t, sizeof(t) / sizeof(t[0]) }

static const struct {
	const char *models;          /* simulated model names */
	const struct pmu_emu_rule *r;
	size_t n;
} maps[] = {
	MAP("k8 k8c fam10h", amd_k8),
	MAP("k7", amd_k7),
	MAP("p6 pii piii pentm", intel_p6),
	MAP("p5 p5mmx mii", intel_p5),
	MAP("p4 p4ht p4m2 p4m3", intel_p4),
	MAP("wcc6", winchip),
	MAP("vc3", via_c3),
	MAP("ppc604 ppc604e ppc750 ppc7400 ppc7450", ppc),
	MAP("xscale1 xscale2", xscale),
};

static int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}

const struct pmu_emu_rule *pmu__emu_rules(const char *model, size_t *n)
{
	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++)
		if (in_list(maps[i].models, model)) {
			*n = maps[i].n;
			return maps[i].r;
		}
	*n = 0;
	return NULL;
}

/* The processors' own caches: L1 instruction, L1 data, last level
 * (size 0: none, every L1 miss goes to memory). */
#define G(s, a, l) { (s) << 10, a, l }
static const struct {
	const char *models;
	struct pmu_emu_cache_geom i1, d1, ll;
} caches[] = {
	{ "p5 p5mmx", G(8, 2, 32), G(8, 2, 32), G(0, 0, 0) },
	{ "mii", G(64, 4, 32), G(64, 4, 32), G(0, 0, 0) },
	{ "wcc6", G(32, 2, 32), G(32, 2, 32), G(0, 0, 0) },
	{ "p6", G(8, 4, 32), G(8, 2, 32), G(256, 4, 32) },
	{ "pii", G(16, 4, 32), G(16, 4, 32), G(512, 4, 32) },
	{ "piii", G(16, 4, 32), G(16, 4, 32), G(256, 8, 32) },
	{ "pentm", G(32, 8, 64), G(32, 8, 64), G(1024, 8, 64) },
	{ "vc3", G(64, 4, 32), G(64, 4, 32), G(64, 4, 32) },
	{ "k7", G(64, 2, 64), G(64, 2, 64), G(256, 16, 64) },
	{ "k8 k8c", G(64, 2, 64), G(64, 2, 64), G(1024, 16, 64) },
	{ "fam10h", G(64, 2, 64), G(64, 2, 64), G(2048, 32, 64) },
	/* the trace cache modelled as a 16 KiB instruction cache */
	{ "p4 p4ht p4m2", G(16, 8, 64), G(8, 4, 64), G(512, 8, 64) },
	{ "p4m3", G(16, 8, 64), G(16, 8, 64), G(1024, 8, 64) },
	{ "ppc604", G(16, 4, 32), G(16, 4, 32), G(0, 0, 0) },
	{ "ppc604e", G(32, 4, 32), G(32, 4, 32), G(0, 0, 0) },
	{ "ppc750", G(32, 8, 32), G(32, 8, 32), G(1024, 2, 64) },
	{ "ppc7400", G(32, 8, 32), G(32, 8, 32), G(2048, 2, 64) },
	{ "ppc7450", G(32, 8, 32), G(32, 8, 32), G(256, 8, 64) },
	{ "xscale1 xscale2", G(32, 32, 32), G(32, 32, 32), G(0, 0, 0) },
};

int pmu__emu_hwmodel_caches(const char *model,
			    struct pmu_emu_cache_geom *i1,
			    struct pmu_emu_cache_geom *d1,
			    struct pmu_emu_cache_geom *ll)
{
	for (size_t i = 0; i < sizeof(caches) / sizeof(caches[0]); i++)
		if (in_list(caches[i].models, model)) {
			*i1 = caches[i].i1;
			*d1 = caches[i].d1;
			*ll = caches[i].ll;
			return 0;
		}
	return -1;
}
