/* SPDX-License-Identifier: MIT */
/*
 * Generates lib/events/tables/<model>.c from the installed libpfm4: event
 * names, codes, umask codes, default flags, precise flags and modifier
 * sets, plus umask groups and exclusivity found by encoding probes (the
 * library does not expose them directly).  Descriptions are not copied.
 *
 *   gen-events OUTDIR MODEL[:COUNTERS]...
 *
 * COUNTERS is the output of scripts/gen-events.py for the model (counter
 * masks from vendor event files); without it every event may use every
 * generic counter.  Models whose events, umasks and hash come out
 * identical (libpfm4 keeps some PMUs under two names) share one file,
 * named after the first of them, with one header per model.
 *
 * Output is a pure function of the libpfm4 tables, so regenerating with
 * the same libpfm4 gives the same file.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <perfmon/pfmlib.h>
#include <perfmon/pfmlib_perf_event.h>

#include "events/catalog.h"

#define MAXU 128

struct um {
	char name[64];
	char equiv[96];
	char desc[64];       /* our words; perf only */
	uint64_t code, cntmsk;
	int dfl, prec, grp, excl, omit;
	unsigned xflags;     /* PMU__UM_CODE_OVR, _LDLAT, _FETHR, _NOBITS */
};

struct ev {
	char name[96];
	char equiv[96];
	char desc[96];       /* our words; perf only */
	uint64_t code, code2, cntmsk;
	int prec, nu, perf_hv, hw_smpl, xreg;
	uint32_t modmsk;
	struct um u[MAXU];
};

static const char *const mod_names[PMU__MOD_NR] = {
	[PMU__MOD_K] = "k", [PMU__MOD_U] = "u", [PMU__MOD_E] = "e",
	[PMU__MOD_I] = "i", [PMU__MOD_C] = "c", [PMU__MOD_H] = "h",
	[PMU__MOD_G] = "g", [PMU__MOD_T] = "t", [PMU__MOD_INTX] = "intx",
	[PMU__MOD_INTXCP] = "intxcp", [PMU__MOD_LDLAT] = "ldlat",
	[PMU__MOD_FE_THRES] = "fe_thres", [PMU__MOD_CMPL] = "cmpl",
	[PMU__MOD_THR] = "thr",
};

static const char *model;
static const char *g_kind;

static const char *mod_kind(void)
{
	return g_kind;
}

/* Counter facts of the model (from gen-events.py), keyed by the
 * PERFEVTSEL bits that select what is counted. */
#define MAXFACTS 4096
#define SEL_BITS 0xffa4ffffull /* event, umask, edge, any, inv, cmask */
static struct { uint64_t key, mask; } facts[MAXFACTS];
static int nfacts, fact_generic, fact_fixed;

static void read_counters(const char *path)
{
	unsigned ev, um, cm, inv, edge, any;
	unsigned long long mask;
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		exit(1);
	}
	if (fscanf(f, "counters %d fixed %d", &fact_generic, &fact_fixed) != 2)
		fact_generic = fact_fixed = 0;
	while (nfacts < MAXFACTS &&
	       fscanf(f, "%x %x %u %u %u %u %llx", &ev, &um, &cm, &inv, &edge,
		      &any, &mask) == 7) {
		facts[nfacts].key = ev | (uint64_t)um << 8 |
				    (uint64_t)edge << 18 | (uint64_t)any << 21 |
				    (uint64_t)inv << 23 | (uint64_t)cm << 24;
		facts[nfacts++].mask = mask;
	}
	fclose(f);
}

static uint64_t fact_mask(uint64_t reg, uint64_t dfl)
{
	for (int i = 0; i < nfacts; i++)
		if (facts[i].key == (reg & SEL_BITS))
			return facts[i].mask;
	return dfl;
}

/* Counters of each umask (by its PERFEVTSEL bits, Intel layout) and of
 * the event (the union: where at least one of its umasks may go). */
static void set_cntmsk(struct ev *e, const pfm_pmu_info_t *pi, int intel)
{
	int n = fact_generic ? fact_generic : pi->num_cntrs;
	uint64_t dfl = n >= 64 ? ~0ull : (1ull << n) - 1;

	if (!strcmp(model, "perf") || !strcmp(model, "perf_raw"))
		dfl = 0;
	if (!intel || !nfacts) {
		e->cntmsk = dfl;
		for (int i = 0; i < e->nu; i++)
			e->u[i].cntmsk = dfl;
		return;
	}
	e->cntmsk = e->nu ? 0 : fact_mask(e->code & 0xffff, dfl);
	for (int i = 0; i < e->nu; i++) {
		uint64_t reg = (e->code & 0xffff) | e->u[i].code << 8;
		e->u[i].cntmsk = fact_mask(reg, dfl);
		e->cntmsk |= e->u[i].cntmsk;
	}
}

static int mod_bit(const char *name)
{
	for (int m = 0; m < PMU__MOD_NR; m++)
		if (mod_names[m] && !strcmp(mod_names[m], name))
			return m;
	fprintf(stderr, "gen-events: %s: unknown modifier %s\n", model, name);
	exit(1);
}

/* Encode "model::ev[:a[:b]]"; returns the libpfm status and fills the
 * umask names that appear in the fstr (only those listed in e). */
static int probe(const struct ev *e, const char *a, const char *b,
		 int *present)
{
	char s[512], *fstr = NULL;
	pfm_pmu_encode_arg_t arg;
	int r;

	snprintf(s, sizeof(s), "%s::%s%s%s%s%s", model, e->name, a ? ":" : "",
		 a ? a : "", b ? ":" : "", b ? b : "");
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.fstr = &fstr;
	r = pfm_get_os_event_encoding(s, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &arg);
	if (r == PFM_SUCCESS && present) {
		for (int i = 0; i < e->nu; i++) {
			char pat[80];
			size_t n = (size_t)snprintf(pat, sizeof(pat), ":%s",
						    e->u[i].name);
			const char *p = fstr;
			present[i] = 0;
			while ((p = strstr(p, pat))) {
				if (p[n] == ':' || p[n] == '\0')
					present[i] = 1;
				p += n;
			}
		}
	}
	free(fstr);
	free(arg.codes);
	return r;
}

/* Encode "model::ev:u[:extra]" and return the status, codes and count. */
static int probe_codes(const struct ev *e, const char *u, const char *extra,
		       uint64_t *codes, int *count)
{
	char s[512];
	pfm_pmu_encode_arg_t arg;
	int r;

	snprintf(s, sizeof(s), "%s::%s:%s%s%s", model, e->name, u,
		 extra ? ":" : "", extra ? extra : "");
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	r = pfm_get_os_event_encoding(s, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &arg);
	*count = r == PFM_SUCCESS ? arg.count : 0;
	for (int i = 0; i < 2; i++)
		codes[i] = i < *count ? arg.codes[i] : 0;
	free(arg.codes);
	return r;
}

/*
 * Intel umasks whose behaviour the attribute info does not show: codes
 * that replace the event select, load-latency and front-end thresholds,
 * and events whose umask goes to a second register.
 */
static void infer_intel(struct ev *e)
{
	for (int i = 0; i < e->nu; i++) {
		struct um *u = &e->u[i];
		uint64_t c[2];
		int n, r;

		if (u->equiv[0] ||
		    probe_codes(e, u->name, NULL, c, &n) != PFM_SUCCESS)
			continue;
		if ((c[0] & 0xff) != (e->code & 0xff))
			u->xflags |= PMU__UM_CODE_OVR;
		if ((e->modmsk & PMU__MODBIT(PMU__MOD_LDLAT)) &&
		    probe_codes(e, u->name, "ldlat=7", c, &n) == PFM_SUCCESS &&
		    n == 2 && c[1] == 7)
			u->xflags |= PMU__UM_LDLAT;
		else if (n == 2)
			e->xreg = 1;
		if (!(e->modmsk & PMU__MODBIT(PMU__MOD_FE_THRES)))
			continue;
		r = probe_codes(e, u->name, "fe_thres=5", c, &n);
		if ((r == PFM_SUCCESS && ((c[1] >> 8) & 0xfff) == 5) ||
		    r == PFM_ERR_ATTR_SET)
			u->xflags |= PMU__UM_FETHR;
	}
}

/*
 * Intel umasks that carry a counter mask, invert, edge, any-thread or
 * transaction bit either fix it (libpfm4 refuses a modifier that
 * contradicts it) or only set it (a modifier ORs into it): a probe that
 * contradicts the bit tells which.
 */
static void infer_hardwired(struct ev *e)
{
	static const struct {
		uint64_t bits;       /* in the umask code (register >> 8) */
		int mod;
		unsigned flag;
	} f[] = {
		{ 0xff0000ull, PMU__MOD_C, PMU__UM_HW_C },
		{ 1ull << 15, PMU__MOD_I, PMU__UM_HW_I },
		{ 1ull << 10, PMU__MOD_E, PMU__UM_HW_E },
		{ 1ull << 13, PMU__MOD_T, PMU__UM_HW_T },
		{ 3ull << 24, PMU__MOD_INTX, PMU__UM_HW_TX },
	};

	for (int i = 0; i < e->nu; i++) {
		struct um *u = &e->u[i];
		for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
			char mod[32];
			uint64_t c[2];
			int n;

			if (u->equiv[0] || !(u->code & f[k].bits) ||
			    !(e->modmsk & PMU__MODBIT(f[k].mod)))
				continue;
			if (f[k].mod == PMU__MOD_C)
				snprintf(mod, sizeof(mod), "c=%llu",
					 (unsigned long long)
					 (((u->code >> 16) & 0xff) ^ 1));
			else
				snprintf(mod, sizeof(mod), "%s=0",
					 mod_names[f[k].mod]);
			if (probe_codes(e, u->name, mod, c, &n) ==
			    PFM_ERR_ATTR_SET)
				u->xflags |= f[k].flag;
		}
	}
}

/* netburst umasks that set no ESCR event-mask bit. */
static void infer_netburst(struct ev *e)
{
	for (int i = 0; i < e->nu; i++) {
		uint64_t c[2];
		int n;

		if (e->u[i].code < 16 &&
		    probe_codes(e, e->u[i].name, NULL, c, &n) == PFM_SUCCESS &&
		    !((c[0] >> (9 + e->u[i].code)) & 1))
			e->u[i].xflags |= PMU__UM_NOBITS;
	}
}

static int find(int *parent, int i)
{
	while (parent[i] != i)
		i = parent[i] = parent[parent[i]];
	return i;
}

/*
 * Groups: a umask given alone pulls in the defaults of every other group,
 * so the defaults missing from its fstr share its group.  Umasks of groups
 * without defaults end up together.
 */
/*
 * A default the event alone leaves out (bare[d] == 0) was excluded by a
 * default of an earlier group.  A witness is a umask that brings it back
 * (it replaces the excluding default); a umask that still lacks d when
 * given with the witness shares d's group.
 */
static void join_excluded(struct ev *e, int d, int *parent, int *joined)
{
	int present[MAXU], w = -1;

	for (int i = 0; i < e->nu && w < 0; i++)
		if (!e->u[i].dfl && !e->u[i].equiv[0] &&
		    probe(e, e->u[i].name, NULL, present) == PFM_SUCCESS &&
		    present[d])
			w = i;
	for (int i = 0; w >= 0 && i < e->nu; i++) {
		if (i == d || i == w ||
		    probe(e, e->u[i].name, NULL, present) != PFM_SUCCESS ||
		    present[d])
			continue;
		if (probe(e, e->u[i].name, e->u[w].name, present) ==
		    PFM_SUCCESS && !present[d]) {
			parent[find(parent, i)] = find(parent, d);
			joined[i] = 1;
		}
	}
}

static void infer_groups(struct ev *e)
{
	int parent[MAXU], present[MAXU], bare[MAXU], joined[MAXU];
	int nodfl = -1, g = 0, id[MAXU];

	if (probe(e, NULL, NULL, bare) != PFM_SUCCESS || !e->nu ||
	    strcmp(mod_kind(), "PMU__ENC_INTEL"))
		for (int i = 0; i < e->nu; i++)
			bare[i] = 1;
	for (int i = 0; i < e->nu; i++)
		parent[i] = i, joined[i] = 0;
	for (int i = 0; i < e->nu; i++) {
		if (probe(e, e->u[i].name, NULL, present) != PFM_SUCCESS)
			continue;
		for (int j = 0; j < e->nu; j++)
			if (j != i && e->u[j].dfl && !present[j] && bare[j]) {
				parent[find(parent, j)] = find(parent, i);
				joined[i] = 1;
			}
	}
	for (int d = 0; d < e->nu; d++)
		if (e->u[d].dfl && !bare[d])
			join_excluded(e, d, parent, joined);
	for (int i = 0; i < e->nu; i++) {
		if (joined[i] || e->u[i].dfl ||
		    probe(e, e->u[i].name, NULL, NULL) != PFM_SUCCESS)
			continue;
		if (nodfl < 0)
			nodfl = i;
		else
			parent[find(parent, i)] = find(parent, nodfl);
	}
	for (int i = 0; i < e->nu; i++)
		id[i] = -1;
	for (int i = 0; i < e->nu; i++) {
		int r = find(parent, i);
		if (id[r] < 0)
			id[r] = g++;
		e->u[i].grp = id[r];
	}
}

/*
 * Intel umasks that exclude the umasks (and defaults) of later groups.
 * The event alone shows it: a default missing from it was excluded by
 * the last default shown before its group.  Given alone, a umask of that
 * same group that still leaves the later default out excludes it too.
 */
static void infer_excl_gt(struct ev *e)
{
	int bare[MAXU], present[MAXU];

	if (probe(e, NULL, NULL, bare) != PFM_SUCCESS)
		return;
	for (int d = 0; d < e->nu; d++) {
		int x = -1;
		if (!e->u[d].dfl || bare[d])
			continue;
		for (int i = 0; i < e->nu; i++)
			if (e->u[i].dfl && bare[i] && e->u[i].grp < e->u[d].grp &&
			    (x < 0 || e->u[i].grp > e->u[x].grp))
				x = i;
		if (x < 0)
			continue;
		e->u[x].xflags |= PMU__UM_EXCL_GT;
		for (int i = 0; i < e->nu; i++)
			if (e->u[i].grp == e->u[x].grp && i != x &&
			    probe(e, e->u[i].name, NULL, present) ==
			    PFM_SUCCESS && !present[d])
				e->u[i].xflags |= PMU__UM_EXCL_GT;
	}
}

/*
 * A umask that combines with no other of its group (libpfm4's NCOMBO,
 * which it does not export).  Given three times, libpfm4 keeps it
 * twice (its pass over the list removes the second copy and steps past
 * the third), so it counts twice in its group: that fails exactly for
 * such a umask.  Where the umask alone fails, a umask that fails with
 * every other umask of its group is taken as one.
 */
static void infer_excl(struct ev *e)
{
	for (int i = 0; i < e->nu; i++) {
		int others = 0, fails = 0;
		char twice[160];

		/* Aliases expand to other umasks, so they prove nothing. */
		if (e->u[i].equiv[0])
			continue;
		if (probe(e, e->u[i].name, NULL, NULL) == PFM_SUCCESS) {
			snprintf(twice, sizeof(twice), "%s:%s", e->u[i].name,
				 e->u[i].name);
			e->u[i].excl = probe(e, twice, e->u[i].name, NULL) ==
				       PFM_ERR_FEATCOMB;
			continue;
		}
		for (int j = 0; j < e->nu; j++) {
			if (j == i || e->u[j].grp != e->u[i].grp ||
			    e->u[j].equiv[0])
				continue;
			others++;
			if (probe(e, e->u[i].name, e->u[j].name, NULL) ==
			    PFM_ERR_FEATCOMB)
				fails++;
		}
		e->u[i].excl = others && fails == others;
	}
}

static uint64_t perf_type_of(const struct ev *e)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	char s[256];

	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.attr = &attr;
	snprintf(s, sizeof(s), "%s::%s", model, e->name);
	if (pfm_get_os_event_encoding(s, PFM_PLM3, PFM_OS_PERF_EVENT, &arg))
		return 0;
	return attr.type;
}

/*
 * One-line descriptions of the perf events, written for this project and
 * keyed by what the event counts (attr.type and config), so that every
 * spelling of an event gets the same line.
 */
static const char *const hw_desc[] = {
	"core clock cycles",
	"instructions retired",
	"cache accesses (mostly the last-level cache)",
	"cache misses (mostly the last-level cache)",
	"branch instructions retired",
	"branch instructions mispredicted",
	"bus clock cycles",
	"cycles without instructions issued (front-end stalls)",
	"cycles the back end stalled",
	"reference clock cycles (not scaled with the frequency)",
};

static const char *const sw_desc[] = {
	"time on a per-CPU clock, in nanoseconds",
	"time the task was running, in nanoseconds",
	"page faults",
	"context switches",
	"moves of the task to another CPU",
	"page faults served without I/O",
	"page faults that waited for I/O",
	"alignment faults the kernel fixed up",
	"instructions the kernel emulated",
	"placeholder event that counts nothing",
	"output slots of BPF programs",
	"context switches into another cgroup",
};

static const char *const cache_name[] = {
	"level 1 data cache", "level 1 instruction cache", "last-level cache",
	"data TLB", "instruction TLB", "branch predictor",
	"local NUMA node memory",
};

static const char *const cache_op[] = { "load", "store", "prefetch" };

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static void perf_desc(struct ev *e)
{
	uint64_t c = e->code, id = c & 0xff, op = c >> 8 & 0xff,
		 res = c >> 16 & 0xff;

	if (e->code2 == PERF_TYPE_HARDWARE && c < NELEM(hw_desc))
		snprintf(e->desc, sizeof(e->desc), "%s", hw_desc[c]);
	else if (e->code2 == PERF_TYPE_SOFTWARE && c < NELEM(sw_desc))
		snprintf(e->desc, sizeof(e->desc), "%s", sw_desc[c]);
	else if (e->code2 != PERF_TYPE_HW_CACHE || id >= NELEM(cache_name))
		return;
	else if (e->nu)
		snprintf(e->desc, sizeof(e->desc), "%s: an operation and a "
			 "result as umasks", cache_name[id]);
	else if (op < NELEM(cache_op) && res <= 1)
		snprintf(e->desc, sizeof(e->desc), "%s %s%s", cache_name[id],
			 cache_op[op], res ? " misses" : op == 2 ? "es" : "s");
	for (int i = 0; i < e->nu; i++) {
		static const char *const um[][2] = {
			{ "READ", "loads (reads)" },
			{ "WRITE", "stores (writes)" },
			{ "PREFETCH", "prefetches" },
			{ "ACCESS", "all accesses" },
			{ "MISS", "misses only" },
		};
		for (size_t k = 0; k < NELEM(um); k++)
			if (!strcmp(e->u[i].name, um[k][0]))
				snprintf(e->u[i].desc, sizeof(e->u[i].desc),
					 "%s", um[k][1]);
	}
}

/*
 * perf cache events: an operation group and a result group, with the
 * defaults the event alone shows; aliases print their canonical name.
 */
static void perf_fixup(struct ev *e)
{
	char s[256], *fstr = NULL, *p;
	pfm_pmu_encode_arg_t arg;
	int present[MAXU];

	e->code2 = perf_type_of(e);
	for (int i = 0; i < e->nu; i++) {
		e->u[i].grp = e->u[i].code >= 0x10000 ||
			      !strcmp(e->u[i].name, "ACCESS");
		e->u[i].excl = 1;
	}
	if (e->nu && probe(e, NULL, NULL, present) == PFM_SUCCESS)
		for (int i = 0; i < e->nu; i++)
			e->u[i].dfl = present[i];
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.fstr = &fstr;
	snprintf(s, sizeof(s), "perf::%s", e->name);
	if (pfm_get_os_event_encoding(s, PFM_PLM3, PFM_OS_NONE, &arg) ==
	    PFM_SUCCESS) {
		/* Aliases without umasks ("L1-DCACHE-LOAD-MISSES") stand for
		 * an event with its umasks: keep them and the full config. */
		p = fstr + strlen("perf::");
		if (e->nu)
			p[strcspn(p, ":")] = '\0';
		else if (arg.count > 0)
			e->code = arg.codes[0];
		if (strcmp(p, e->name))
			snprintf(e->equiv, sizeof(e->equiv), "%s", p);
	}
	free(fstr);
	free(arg.codes);
	perf_desc(e);
}

/* Which perf_event modifiers libpfm4 offers for the event. */
static void read_perf_attrs(int idx, struct ev *e)
{
	pfm_event_info_t ei;

	memset(&ei, 0, sizeof(ei));
	ei.size = sizeof(ei);
	if (pfm_get_event_info(idx, PFM_OS_PERF_EVENT_EXT, &ei) != PFM_SUCCESS)
		return;
	for (int i = 0; i < ei.nattrs; i++) {
		pfm_event_attr_info_t ai;
		memset(&ai, 0, sizeof(ai));
		ai.size = sizeof(ai);
		pfm_get_event_attr_info(idx, i, PFM_OS_PERF_EVENT_EXT, &ai);
		if (ai.ctrl != PFM_ATTR_CTRL_PERF_EVENT)
			continue;
		if (!strcmp(ai.name, "h"))
			e->perf_hv = 1;
		else if (!strcmp(ai.name, "hw_smpl"))
			e->hw_smpl = 1;
		else if (!strcmp(ai.name, "precise"))
			e->prec = 1;
	}
}

/*
 * A group without default umask is either required (encoding without it
 * fails) or optional; try the event with a umask of another group only.
 */
static void infer_omit(struct ev *e)
{
	for (int g = 0; g < e->nu; g++) {
		const char *other = NULL;
		int has = 0, dfl = 0;
		for (int i = 0; i < e->nu; i++) {
			if (e->u[i].grp == g) {
				has = 1;
				dfl |= e->u[i].dfl;
			} else if (!other) {
				other = e->u[i].name;
			}
		}
		if (!has || dfl || probe(e, other, NULL, NULL) != PFM_SUCCESS)
			continue;
		for (int i = 0; i < e->nu; i++)
			if (e->u[i].grp == g)
				e->u[i].omit = 1;
	}
}

static void read_event(int idx, struct ev *e)
{
	pfm_event_info_t ei;

	memset(&ei, 0, sizeof(ei));
	ei.size = sizeof(ei);
	pfm_get_event_info(idx, PFM_OS_NONE, &ei);
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", ei.name);
	if (ei.equiv && strcmp(model, "perf"))
		snprintf(e->equiv, sizeof(e->equiv), "%s", ei.equiv);
	e->code = ei.code;
	e->prec = ei.is_precise;
	for (int i = 0; i < ei.nattrs; i++) {
		pfm_event_attr_info_t ai;
		memset(&ai, 0, sizeof(ai));
		ai.size = sizeof(ai);
		pfm_get_event_attr_info(idx, i, PFM_OS_NONE, &ai);
		if (ai.type != PFM_ATTR_UMASK) {
			e->modmsk |= 1u << mod_bit(ai.name);
			continue;
		}
		if (e->nu == MAXU) {
			fprintf(stderr, "gen-events: too many umasks\n");
			exit(1);
		}
		struct um *u = &e->u[e->nu++];
		snprintf(u->name, sizeof(u->name), "%s", ai.name);
		if (ai.equiv)
			snprintf(u->equiv, sizeof(u->equiv), "%s", ai.equiv);
		u->code = ai.code;
		u->dfl = ai.is_dfl;
		u->prec = ai.is_precise;
	}
	read_perf_attrs(idx, e);
}

/* Where the emitters print. */
static FILE *out;

static void put_ident(const char *s)
{
	for (; *s; s++)
		fputc(isalnum((unsigned char)*s) ? *s : '_', out);
}

/* The table's string pool: every name once, in order of first use. */
static char *pool;
static size_t pool_len, pool_cap;

static uint32_t pool_add(const char *str)
{
	size_t n = strlen(str) + 1;

	if (!*str && pool_len)
		return 0;
	for (size_t off = 1; off < pool_len; off += strlen(pool + off) + 1)
		if (!strcmp(pool + off, str))
			return (uint32_t)off;
	if (pool_len + n > pool_cap) {
		pool_cap = (pool_len + n) * 2;
		pool = realloc(pool, pool_cap);
		if (!pool)
			exit(1);
	}
	memcpy(pool + pool_len, str, n);
	pool_len += n;
	return (uint32_t)(pool_len - n);
}

static void emit_pool(void)
{
	fprintf(out, "\t.strings =\n\t\t\"\\0\"");
	for (size_t off = 1; off < pool_len; off += strlen(pool + off) + 1)
		fprintf(out, "\n\t\t\"%s\\0\"", pool + off);
	fprintf(out, ",\n");
}

static void emit_hash(const struct ev *evs, int n, uint32_t size)
{
	uint32_t *slots = calloc(size, sizeof(*slots));

	for (int i = 0; i < n; i++) {
		uint32_t h = pmu__name_hash(evs[i].name, strlen(evs[i].name));
		uint32_t p = h;
		while (slots[p & (size - 1)])
			p++;
		slots[p & (size - 1)] = PMU__SLOT(i, h);
	}
	fprintf(out, "\t.hash = {");
	for (uint32_t i = 0; i < size; i++)
		fprintf(out, "%s%#x,", i % 8 ? " " : "\n\t\t", slots[i]);
	fprintf(out, "\n\t},\n");
	free(slots);
}

static void emit_umask(const struct ev *e, const struct um *u)
{
	/* One pool_add per statement: argument order is unspecified. */
	uint32_t name = pool_add(u->name);
	uint32_t desc = pool_add(u->desc);
	uint32_t equiv = pool_add(u->equiv);

	fprintf(out, "\t\t{ %u, %u, %u, 0", name, desc, equiv);
	if (u->dfl)
		fprintf(out, " | PMU__UM_DFL");
	if (u->excl)
		fprintf(out, " | PMU__UM_EXCL");
	if (u->prec)
		fprintf(out, " | PMU__UM_PREC");
	if (u->omit)
		fprintf(out, " | PMU__UM_OMIT");
	if (u->xflags & PMU__UM_CODE_OVR)
		fprintf(out, " | PMU__UM_CODE_OVR");
	if (u->xflags & PMU__UM_LDLAT)
		fprintf(out, " | PMU__UM_LDLAT");
	if (u->xflags & PMU__UM_FETHR)
		fprintf(out, " | PMU__UM_FETHR");
	if (u->xflags & PMU__UM_NOBITS)
		fprintf(out, " | PMU__UM_NOBITS");
	if (u->xflags & PMU__UM_EXCL_GT)
		fprintf(out, " | PMU__UM_EXCL_GT");
	if (u->xflags & PMU__UM_HW_C)
		fprintf(out, " | PMU__UM_HW_C");
	if (u->xflags & PMU__UM_HW_I)
		fprintf(out, " | PMU__UM_HW_I");
	if (u->xflags & PMU__UM_HW_E)
		fprintf(out, " | PMU__UM_HW_E");
	if (u->xflags & PMU__UM_HW_T)
		fprintf(out, " | PMU__UM_HW_T");
	if (u->xflags & PMU__UM_HW_TX)
		fprintf(out, " | PMU__UM_HW_TX");
	fprintf(out, ", %#llx, %#llx, %d }, /* %s */\n",
	       (unsigned long long)u->code,
	       (unsigned long long)(u->cntmsk != e->cntmsk ? u->cntmsk : 0),
	       u->grp, u->name);
}

static void emit_umasks(const struct ev *evs, int n)
{
	fprintf(out, "\t.umasks = {\n");
	for (int i = 0; i < n; i++)
		for (int j = 0; j < evs[i].nu; j++)
			emit_umask(&evs[i], &evs[i].u[j]);
	fprintf(out, "\t\t{ 0 }\n\t},\n");
}

static void emit_events(const struct ev *evs, int n)
{
	uint32_t u0 = 0;

	fprintf(out, "\t.events = {\n");
	for (int i = 0; i < n; i++) {
		const struct ev *e = &evs[i];
		int ngrp = 0;
		uint32_t name = pool_add(e->name);
		uint32_t desc = pool_add(e->desc);
		uint32_t equiv = pool_add(e->equiv);
		for (int j = 0; j < e->nu; j++)
			if (e->u[j].grp + 1 > ngrp)
				ngrp = e->u[j].grp + 1;
		fprintf(out, "\t\t{ %u, %u, %u, %#x, 0%s%s%s%s, %u, %d, %d, %zu, "
		       "%#llx, %#llx, %#llx }, /* %s */\n",
		       name, desc, equiv, e->modmsk,
		       e->prec ? " | PMU__EV_PREC" : "",
		       e->perf_hv ? " | PMU__EV_PERF_HV" : "",
		       e->hw_smpl ? " | PMU__EV_HW_SMPL" : "",
		       e->xreg ? " | PMU__EV_XREG" : "", u0, e->nu, ngrp,
		       strlen(e->name),
		       (unsigned long long)e->code,
		       (unsigned long long)e->code2,
		       (unsigned long long)e->cntmsk, e->name);
		u0 += (uint32_t)e->nu;
	}
	fprintf(out, "\t},\n");
}

static int pmu_of(const char *name, pfm_pmu_info_t *pi)
{
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		memset(pi, 0, sizeof(*pi));
		pi->size = sizeof(*pi);
		if (pfm_get_pmu_info(p, pi) == PFM_SUCCESS &&
		    !strcmp(pi->name, name))
			return p;
	}
	return -1;
}

/* What libpfm4 does not say about a model, in our words. */
struct meta {
	const char *name, *desc, *kind, *aliases;
};

static const struct meta metas[] = {
	{ "amd64_k7", "AMD K7", "PMU__ENC_AMD64", "k7" },
	{ "amd64_k8_revb", "AMD K8 revision B", "PMU__ENC_AMD64", "k8" },
	{ "amd64_k8_revc", "AMD K8 revision C", "PMU__ENC_AMD64", "k8c" },
	{ "amd64_k8_revd", "AMD K8 revision D", "PMU__ENC_AMD64", NULL },
	{ "amd64_k8_reve", "AMD K8 revision E", "PMU__ENC_AMD64", NULL },
	{ "amd64_k8_revf", "AMD K8 revision F", "PMU__ENC_AMD64", NULL },
	{ "amd64_k8_revg", "AMD K8 revision G", "PMU__ENC_AMD64", NULL },
	{ "amd64_fam10h_barcelona", "AMD family 10h Barcelona",
	  "PMU__ENC_AMD64", "fam10h" },
	{ "amd64_fam17h_zen1", "AMD Zen1", "PMU__ENC_AMD64", "zen1" },
	{ "amd64_fam17h_zen2", "AMD Zen2", "PMU__ENC_AMD64", "zen2" },
	{ "amd64_fam19h_zen3", "AMD Zen3", "PMU__ENC_AMD64", "zen3" },
	{ "amd64_fam19h_zen4", "AMD Zen4", "PMU__ENC_AMD64", "zen4" },
	/* The kernel's directory names (skylake, icelake, sapphirerapids)
	 * name the kernel's models of these CPUs. */
	{ "skl", "Intel Skylake", "PMU__ENC_INTEL", NULL },
	{ "icl", "Intel Ice Lake", "PMU__ENC_INTEL", NULL },
	{ "spr", "Intel Sapphire Rapids", "PMU__ENC_INTEL", NULL },
	/* The perfctr model names: p4 (models 0-1), p4m2 and p4ht (model
	 * 2) are the original Pentium 4, p4m3 is Prescott (model 3 on). */
	{ "netburst", "Intel Pentium 4", "PMU__ENC_NETBURST",
	  "p4,p4m2,p4ht" },
	{ "netburst_p", "Intel Pentium 4 with Prescott events",
	  "PMU__ENC_NETBURST", "p4m3" },
	{ "perf", "Linux perf_event generic and software events",
	  "PMU__ENC_PERF", NULL },
	{ "perf_raw", "Linux perf_event raw events", "PMU__ENC_PERF_RAW",
	  NULL },
};

static const struct meta *meta_of(const char *name)
{
	for (size_t i = 0; i < sizeof(metas) / sizeof(metas[0]); i++)
		if (!strcmp(metas[i].name, name))
			return &metas[i];
	return NULL;
}

/* A model as read from libpfm4 (in a child process, see read_model). */
struct model {
	const struct meta *meta;
	struct ev *evs;
	int n, ncounters, nfixed;
	int group;           /* index of the first model with the same rows */
};

/* Header field of model i of a file: the first keeps the plain "t". */
static void header_field(char *buf, size_t size, int i)
{
	if (i)
		snprintf(buf, size, "t%d", i);
	else
		snprintf(buf, size, "t");
}

/* Offset of array f from header i: positive, as the headers come first. */
static void put_offset(const char *f, int i)
{
	char t[16];

	header_field(t, sizeof(t), i);
	if (i)
		fprintf(out, "\t\t.%s = offsetof(struct tab, %s) -\n"
			"\t\t\toffsetof(struct tab, %s),\n", f, f, t);
	else
		fprintf(out, "\t\t.%s = offsetof(struct tab, %s),\n", f, f);
}

/* The pool offsets of a model's own strings, added first so that they
 * lead the pool. */
struct hdr_strings {
	uint32_t name, desc, aliases[PMU__TABLE_ALIASES + 1];
};

static void header_strings(const struct meta *m, struct hdr_strings *hs)
{
	char al[128], *tok, *save = NULL;
	int k = 0;

	hs->name = pool_add(m->name);
	hs->desc = pool_add(m->desc);
	snprintf(al, sizeof(al), "%s", m->aliases ? m->aliases : "");
	for (tok = strtok_r(al, ",", &save); tok && k < PMU__TABLE_ALIASES;
	     tok = strtok_r(NULL, ",", &save))
		hs->aliases[k++] = pool_add(tok);
	hs->aliases[k] = 0;
}

static void emit_struct(const struct model *md, int nmodels, uint32_t hsize)
{
	uint32_t nu = 0;

	for (int i = 0; i < md->n; i++)
		nu += (uint32_t)md->evs[i].nu;
	fprintf(out, "struct tab {\n\tstruct pmu__table t;\n");
	for (int i = 1; i < nmodels; i++)
		fprintf(out, "\tstruct pmu__table t%d;\n", i);
	fprintf(out, "\tstruct pmu__event events[%d];\n"
	       "\tstruct pmu__umask umasks[%u];\n\tuint32_t hash[%u];\n"
	       "\tchar strings[STRINGS_SIZE];\n};\n\n", md->n, nu + 1, hsize);
	fprintf(out, "static const struct tab tab = {\n");
}

static void emit_header(const struct model *md, int i,
			const struct hdr_strings *hs, uint32_t hsize)
{
	const struct meta *m = md->meta;
	uint32_t all = 0, nu = 0;
	char t[16];

	for (int k = 0; k < md->n; k++) {
		all |= md->evs[k].modmsk;
		nu += (uint32_t)md->evs[k].nu;
	}
	header_field(t, sizeof(t), i);
	fprintf(out, "\t.%s = {\n\t\t.name = %u,\n\t\t.desc = %u,\n"
	       "\t\t.aliases = {", t, hs->name, hs->desc);
	for (int k = 0; hs->aliases[k]; k++)
		fprintf(out, " %u,", hs->aliases[k]);
	fprintf(out, " 0 },\n\t\t.kind = %s,\n\t\t.modmsk = %#x,\n"
	       "\t\t.ncounters = %d,\n\t\t.nfixed = %d,\n"
	       "\t\t.perf_type = %u,\n\t\t.nevents = %d,\n"
	       "\t\t.numasks = %u,\n\t\t.hash_size = %u,\n",
	       m->kind, all, md->ncounters, md->nfixed,
	       strcmp(m->kind, "PMU__ENC_PERF") ? 4u : 0u, md->n, nu, hsize);
	put_offset("events", i);
	put_offset("umasks", i);
	put_offset("hash", i);
	put_offset("strings", i);
	fprintf(out, "\t},\n");
}

static void emit_accessor(const char *name, int i)
{
	char t[16];

	header_field(t, sizeof(t), i);
	fprintf(out, "const struct pmu__table *pmu__table_");
	put_ident(name);
	fprintf(out, "(void);\nconst struct pmu__table *pmu__table_");
	put_ident(name);
	fprintf(out, "(void)\n{\n\treturn &tab.%s;\n}\n", t);
}

/* One file for the models of group g (members in models[] order). */
static void emit_table(FILE *dst, const struct model *models, int nmodels,
		       int g)
{
	const struct model *md = &models[g], *mem[8];
	struct hdr_strings hs[8];
	uint32_t hsize = 16;
	int k = 0;

	for (int i = g; i < nmodels; i++) {
		if (models[i].group != g)
			continue;
		if (k == 8) {
			fprintf(stderr, "gen-events: too many equal models\n");
			exit(1);
		}
		mem[k++] = &models[i];
	}
	while (hsize < (uint32_t)md->n * 2)
		hsize <<= 1;
	/* The pool is complete only after the rows: print them to a buffer,
	 * then the pool's size ahead of them. */
	char *body = NULL;
	size_t blen = 0;
	out = open_memstream(&body, &blen);
	if (!out)
		exit(1);
	pool_len = 0;
	pool_add("");
	for (int i = 0; i < k; i++)
		header_strings(mem[i]->meta, &hs[i]);
	emit_struct(md, k, hsize);
	for (int i = 0; i < k; i++)
		emit_header(mem[i], i, &hs[i], hsize);
	emit_events(md->evs, md->n);
	emit_umasks(md->evs, md->n);
	emit_hash(md->evs, md->n, hsize);
	emit_pool();
	fprintf(out, "};\n\n");
	for (int i = 0; i < k; i++)
		emit_accessor(mem[i]->meta->name, i);
	fclose(out);
	out = dst;
	fprintf(out, "/* SPDX-License-Identifier: MIT */\n"
	       "/* Generated by scripts/gen-events.c from libpfm4; "
	       "do not edit. */\n#include \"events/catalog.h\"\n\n");
	fprintf(out, "#define STRINGS_SIZE %zu\n\n%s", pool_len, body);
	free(body);
}

/* Read model name's rows from libpfm4 and write them to f (runs in a
 * child: libpfm4 is initialised once per process, for one forced PMU). */
static int read_rows(const char *name, const char *counters, FILE *f)
{
	const struct meta *meta = meta_of(name);
	pfm_pmu_info_t pi;
	struct ev *evs;
	int p, n = 0, nc[2];

	model = name;
	if (counters)
		read_counters(counters);
	if (!meta) {
		fprintf(stderr, "gen-events: %s: no description\n", model);
		return 1;
	}
	g_kind = meta->kind;
	setenv("LIBPFM_FORCE_PMU", model, 1);
	if (pfm_initialize() != PFM_SUCCESS || (p = pmu_of(model, &pi)) < 0) {
		fprintf(stderr, "gen-events: %s: not in libpfm4\n", model);
		return 1;
	}
	evs = calloc((size_t)pi.nevents + 1, sizeof(*evs));
	for (int i = pi.first_event; i != -1; i = pfm_get_event_next(i)) {
		struct ev *e = &evs[n++];
		read_event(i, e);
		infer_groups(e);
		infer_excl(e);
		infer_omit(e);
		if (!strcmp(model, "perf"))
			perf_fixup(e);
		if (!strcmp(meta->kind, "PMU__ENC_INTEL")) {
			infer_intel(e);
			infer_excl_gt(e);
			infer_hardwired(e);
		}
		if (!strcmp(meta->kind, "PMU__ENC_NETBURST"))
			infer_netburst(e);
		set_cntmsk(e, &pi, !strcmp(meta->kind, "PMU__ENC_INTEL"));
	}
	nc[0] = fact_generic ? fact_generic : pi.num_cntrs;
	nc[1] = fact_generic ? fact_fixed : pi.num_fixed_cntrs;
	if (fwrite(&n, sizeof(n), 1, f) != 1 ||
	    fwrite(nc, sizeof(nc), 1, f) != 1 ||
	    fwrite(evs, sizeof(*evs), (size_t)n, f) != (size_t)n ||
	    fflush(f))
		return 1;
	free(evs);
	return 0;
}

static void read_model(char *arg, struct model *md)
{
	char *counters = strchr(arg, ':');
	FILE *f = tmpfile();
	int st, nc[2];
	pid_t pid;

	if (counters)
		*counters++ = '\0';
	if (!f || (pid = fork()) < 0)
		exit(1);
	if (!pid)
		_exit(read_rows(arg, counters, f));
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
		exit(1);
	rewind(f);
	md->meta = meta_of(arg);
	if (fread(&md->n, sizeof(md->n), 1, f) != 1 ||
	    fread(nc, sizeof(nc), 1, f) != 1)
		exit(1);
	md->ncounters = nc[0];
	md->nfixed = nc[1];
	md->evs = calloc((size_t)md->n + 1, sizeof(*md->evs));
	if (!md->evs ||
	    fread(md->evs, sizeof(*md->evs), (size_t)md->n, f) != (size_t)md->n)
		exit(1);
	fclose(f);
}

/* Rows are zero-filled before they are read, so equal rows compare equal
 * bytewise; equal rows give equal umasks and hash too. */
static int same_rows(const struct model *a, const struct model *b)
{
	return a->n == b->n && !strcmp(a->meta->kind, b->meta->kind) &&
	       !memcmp(a->evs, b->evs, sizeof(*a->evs) * (size_t)a->n);
}

static void write_group(const char *dir, const struct model *models,
			int nmodels, int g)
{
	char path[4096], tmp[4100];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.c", dir, models[g].meta->name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		perror(tmp);
		exit(1);
	}
	emit_table(f, models, nmodels, g);
	if (fclose(f) || rename(tmp, path)) {
		perror(path);
		exit(1);
	}
	/* Later members have no file of their own any more. */
	for (int i = g + 1; i < nmodels; i++) {
		if (models[i].group != g)
			continue;
		snprintf(path, sizeof(path), "%s/%s.c", dir,
			 models[i].meta->name);
		unlink(path);
	}
}

int main(int argc, char **argv)
{
	struct model *models;
	int nmodels = argc - 2;

	if (argc < 3) {
		fprintf(stderr, "usage: gen-events OUTDIR MODEL[:COUNTERS]...\n");
		return 2;
	}
	models = calloc((size_t)nmodels, sizeof(*models));
	if (!models)
		return 1;
	for (int i = 0; i < nmodels; i++) {
		read_model(argv[i + 2], &models[i]);
		models[i].group = i;
		for (int j = 0; j < i; j++)
			if (models[j].group == j &&
			    same_rows(&models[j], &models[i])) {
				models[i].group = j;
				break;
			}
	}
	for (int i = 0; i < nmodels; i++)
		if (models[i].group == i)
			write_group(argv[1], models, nmodels, i);
	for (int i = 0; i < nmodels; i++)
		free(models[i].evs);
	free(models);
	return 0;
}
