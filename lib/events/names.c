/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "events/evparse.h"

#define HW(n, c) { .name = n, .type = PERF_TYPE_HARDWARE, .config = c }
#define SW(n, c) { .name = n, .type = PERF_TYPE_SOFTWARE, .config = c }
/* perf's tool events: a software dummy to the kernel, the value from
 * the session's own clocks */
#define TOOL(n, t) { .name = n, .type = PERF_TYPE_SOFTWARE, \
		     .config = PERF_COUNT_SW_DUMMY, .tool = t }
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Sorted case-insensitively (strcasecmp order) for the binary search. */
static const struct pmu__evname generic[] = {
	SW("alignment-faults", PERF_COUNT_SW_ALIGNMENT_FAULTS),
	SW("bpf-output", PERF_COUNT_SW_BPF_OUTPUT),
	HW("branch-instructions", PERF_COUNT_HW_BRANCH_INSTRUCTIONS),
	HW("branch-misses", PERF_COUNT_HW_BRANCH_MISSES),
	HW("branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS),
	HW("bus-cycles", PERF_COUNT_HW_BUS_CYCLES),
	HW("cache-misses", PERF_COUNT_HW_CACHE_MISSES),
	HW("cache-references", PERF_COUNT_HW_CACHE_REFERENCES),
	SW("cgroup-switches", PERF_COUNT_SW_CGROUP_SWITCHES),
	SW("context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES),
	{ .name = "cpu-clock", .type = PERF_TYPE_SOFTWARE,
	  .config = PERF_COUNT_SW_CPU_CLOCK, .clock = true },
	HW("cpu-cycles", PERF_COUNT_HW_CPU_CYCLES),
	SW("cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS),
	SW("cs", PERF_COUNT_SW_CONTEXT_SWITCHES),
	HW("cycles", PERF_COUNT_HW_CPU_CYCLES),
	SW("dummy", PERF_COUNT_SW_DUMMY),
	TOOL("duration_time", PMU__TOOL_DURATION),
	SW("emulation-faults", PERF_COUNT_SW_EMULATION_FAULTS),
	SW("faults", PERF_COUNT_SW_PAGE_FAULTS),
	HW("idle-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND),
	HW("idle-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND),
	HW("instructions", PERF_COUNT_HW_INSTRUCTIONS),
	SW("major-faults", PERF_COUNT_SW_PAGE_FAULTS_MAJ),
	SW("migrations", PERF_COUNT_SW_CPU_MIGRATIONS),
	SW("minor-faults", PERF_COUNT_SW_PAGE_FAULTS_MIN),
	SW("page-faults", PERF_COUNT_SW_PAGE_FAULTS),
	HW("ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES),
	HW("stalled-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND),
	HW("stalled-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND),
	TOOL("system_time", PMU__TOOL_SYSTEM),
	{ .name = "task-clock", .type = PERF_TYPE_SOFTWARE,
	  .config = PERF_COUNT_SW_TASK_CLOCK, .clock = true },
	TOOL("user_time", PMU__TOOL_USER),
};

struct cache_alias {
	const char *name;
	unsigned id;
};

/* Cache names and perf's aliases for them; sorted like `generic`. */
static const struct cache_alias caches[] = {
	{ "bpc", PERF_COUNT_HW_CACHE_BPU },
	{ "bpu", PERF_COUNT_HW_CACHE_BPU },
	{ "branch", PERF_COUNT_HW_CACHE_BPU },
	{ "branches", PERF_COUNT_HW_CACHE_BPU },
	{ "btb", PERF_COUNT_HW_CACHE_BPU },
	{ "d-tlb", PERF_COUNT_HW_CACHE_DTLB },
	{ "Data-TLB", PERF_COUNT_HW_CACHE_DTLB },
	{ "dTLB", PERF_COUNT_HW_CACHE_DTLB },
	{ "i-tlb", PERF_COUNT_HW_CACHE_ITLB },
	{ "Instruction-TLB", PERF_COUNT_HW_CACHE_ITLB },
	{ "iTLB", PERF_COUNT_HW_CACHE_ITLB },
	{ "l1-d", PERF_COUNT_HW_CACHE_L1D },
	{ "L1-data", PERF_COUNT_HW_CACHE_L1D },
	{ "L1-dcache", PERF_COUNT_HW_CACHE_L1D },
	{ "l1-i", PERF_COUNT_HW_CACHE_L1I },
	{ "L1-icache", PERF_COUNT_HW_CACHE_L1I },
	{ "L1-instruction", PERF_COUNT_HW_CACHE_L1I },
	{ "l1d", PERF_COUNT_HW_CACHE_L1D },
	{ "l1i", PERF_COUNT_HW_CACHE_L1I },
	{ "L2", PERF_COUNT_HW_CACHE_LL },
	{ "LLC", PERF_COUNT_HW_CACHE_LL },
	{ "node", PERF_COUNT_HW_CACHE_NODE },
};

/* A handful of entries each: a short scan is cheaper than any index. */
static const struct cache_alias cache_ops[] = {
	{ "load", PERF_COUNT_HW_CACHE_OP_READ },
	{ "loads", PERF_COUNT_HW_CACHE_OP_READ },
	{ "read", PERF_COUNT_HW_CACHE_OP_READ },
	{ "store", PERF_COUNT_HW_CACHE_OP_WRITE },
	{ "stores", PERF_COUNT_HW_CACHE_OP_WRITE },
	{ "write", PERF_COUNT_HW_CACHE_OP_WRITE },
	{ "prefetch", PERF_COUNT_HW_CACHE_OP_PREFETCH },
	{ "prefetches", PERF_COUNT_HW_CACHE_OP_PREFETCH },
	{ "speculative-read", PERF_COUNT_HW_CACHE_OP_PREFETCH },
	{ "speculative-load", PERF_COUNT_HW_CACHE_OP_PREFETCH },
};

static const struct cache_alias cache_results[] = {
	{ "refs", PERF_COUNT_HW_CACHE_RESULT_ACCESS },
	{ "reference", PERF_COUNT_HW_CACHE_RESULT_ACCESS },
	{ "ops", PERF_COUNT_HW_CACHE_RESULT_ACCESS },
	{ "access", PERF_COUNT_HW_CACHE_RESULT_ACCESS },
	{ "misses", PERF_COUNT_HW_CACHE_RESULT_MISS },
	{ "miss", PERF_COUNT_HW_CACHE_RESULT_MISS },
};

#define OPS(r, w, p) ((r) << PERF_COUNT_HW_CACHE_OP_READ | \
		      (w) << PERF_COUNT_HW_CACHE_OP_WRITE | \
		      (p) << PERF_COUNT_HW_CACHE_OP_PREFETCH)

/* Operations perf accepts per cache; the rest never count anything. */
static const unsigned cache_ops_valid[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = OPS(1, 1, 1),
	[PERF_COUNT_HW_CACHE_L1I] = OPS(1, 0, 1),
	[PERF_COUNT_HW_CACHE_LL] = OPS(1, 1, 1),
	[PERF_COUNT_HW_CACHE_DTLB] = OPS(1, 1, 1),
	[PERF_COUNT_HW_CACHE_ITLB] = OPS(1, 0, 0),
	[PERF_COUNT_HW_CACHE_BPU] = OPS(1, 0, 0),
	[PERF_COUNT_HW_CACHE_NODE] = OPS(1, 1, 1),
};

#define CACHE_NAMES(c) c "-loads", c "-load-misses", c "-stores", \
	c "-store-misses", c "-prefetches", c "-prefetch-misses"

/* What suggestions offer: canonical spellings only. */
static const char *const all_names[] = {
	"alignment-faults", "bpf-output", "branch-instructions",
	"branch-misses", "branches", "bus-cycles", "cache-misses",
	"cache-references", "cgroup-switches", "context-switches",
	"cpu-clock", "cpu-cycles", "cpu-migrations", "cs", "cycles", "dummy",
	"emulation-faults", "faults", "idle-cycles-backend",
	"idle-cycles-frontend", "instructions", "major-faults", "migrations",
	"minor-faults", "page-faults", "ref-cycles", "stalled-cycles-backend",
	"stalled-cycles-frontend", "task-clock",
	CACHE_NAMES("L1-dcache"), CACHE_NAMES("LLC"), CACHE_NAMES("dTLB"),
	CACHE_NAMES("node"),
	"L1-icache-loads", "L1-icache-load-misses", "L1-icache-prefetches",
	"L1-icache-prefetch-misses", "iTLB-loads", "iTLB-load-misses",
	"branch-loads", "branch-load-misses",
};

const char *const *pmu__evname_all(size_t *n)
{
	*n = ARRAY_LEN(all_names);
	return all_names;
}

static int tolower_ascii(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* strcasecmp of key[0..len) (as if NUL-terminated there) against name. */
static int cmp_key(const char *key, size_t len, const char *name)
{
	size_t i;

	for (i = 0; i < len && name[i]; i++) {
		int a = tolower_ascii((unsigned char)key[i]);
		int b = tolower_ascii((unsigned char)name[i]);

		if (a != b)
			return a - b;
	}
	if (i < len)
		return 1;
	return name[i] ? -1 : 0;
}

/* Binary search over an array of structs whose first member is the name. */
static const void *find_sorted(const void *base, size_t n, size_t stride,
			       const char *key, size_t len)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *elt = (const char *)base + mid * stride;
		int c = cmp_key(key, len, *(const char *const *)elt);

		if (c == 0)
			return elt;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

const struct pmu__evname *pmu__evname_find(const char *name, size_t len)
{
	return find_sorted(generic, ARRAY_LEN(generic), sizeof(generic[0]),
			   name, len);
}

/* Matches one of `tab` at the start of s[0..len), ending at '-' or len. */
static const struct cache_alias *match_part(const struct cache_alias *tab,
					    size_t n, const char *s,
					    size_t len, size_t *used)
{
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(tab[i].name);

		if (l <= len && (l == len || s[l] == '-') &&
		    strncasecmp(s, tab[i].name, l) == 0) {
			*used = l;
			return &tab[i];
		}
	}
	return NULL;
}

/* "-op-result", "-result", "-op", "-result-op" or "" after the cache name;
 * perf takes the op and the result in either order. */
static int parse_op_result(const char *s, size_t len, unsigned *op,
			   unsigned *res)
{
	bool have_op = false, have_res = false;

	*op = PERF_COUNT_HW_CACHE_OP_READ;
	*res = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	while (len > 0) {
		const struct cache_alias *a = NULL;
		size_t used = 0;

		if (s[0] != '-' || len == 1)
			return -ENOENT;
		s++, len--;
		if (!have_op &&
		    (a = match_part(cache_ops, ARRAY_LEN(cache_ops), s, len, &used))) {
			*op = a->id;
			have_op = true;
		} else if (!have_res &&
			   (a = match_part(cache_results, ARRAY_LEN(cache_results),
					   s, len, &used))) {
			*res = a->id;
			have_res = true;
		} else {
			return -ENOENT;
		}
		s += used, len -= used;
	}
	return 0;
}

int pmu__cache_parse(const char *name, size_t len, uint64_t *config)
{
	/* The cache name itself may contain '-': try every split point. */
	for (size_t cut = 1; cut <= len; cut++) {
		const struct cache_alias *c;
		unsigned op, res;

		if (cut < len && name[cut] != '-')
			continue;
		c = find_sorted(caches, ARRAY_LEN(caches), sizeof(caches[0]),
				name, cut);
		if (!c || parse_op_result(name + cut, len - cut, &op, &res))
			continue;
		if (!(cache_ops_valid[c->id] & (1u << op)))
			return -EOPNOTSUPP;
		*config = c->id | (uint64_t)op << 8 | (uint64_t)res << 16;
		return 0;
	}
	return -ENOENT;
}

static int check_sorted(const void *base, size_t n, size_t stride)
{
	for (size_t i = 1; i < n; i++) {
		const char *a = *(const char *const *)((const char *)base +
						       (i - 1) * stride);
		const char *b = *(const char *const *)((const char *)base +
						       i * stride);

		if (strcasecmp(a, b) >= 0)
			return -EINVAL;
	}
	return 0;
}

int pmu__evname_tables_check(void)
{
	if (check_sorted(generic, ARRAY_LEN(generic), sizeof(generic[0])))
		return -EINVAL;
	return check_sorted(caches, ARRAY_LEN(caches), sizeof(caches[0]));
}
