/* SPDX-License-Identifier: MIT */
#ifndef PMU_EVENTS_EVPARSE_H
#define PMU_EVENTS_EVPARSE_H

/*
 * Internal pieces of the event-list parser, split by what they know about:
 * names.c (built-in generic names), sysfs_pmu.c (dynamic PMUs),
 * tracepoint.c, suggest.c, and the catalog resolver (resolve.h).
 * evlist.c ties them together.
 */

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events/resolve.h"
#include "util/nearest.h"

#define PMU__SYSFS_DEFAULT "/sys"

struct pmu__parse_ctx;     /* events/evlist.h */

/* A built-in generic hardware or software event. */
struct pmu__evname {
	const char *name;
	uint32_t type;     /* PERF_TYPE_HARDWARE or PERF_TYPE_SOFTWARE */
	uint64_t config;
	bool clock;        /* counts nanoseconds, shown in msec */
	uint8_t tool;      /* PMU__TOOL_*: measured by the session, not
			      counted by a PMU */
};

/*
 * Built-in names match case-insensitively ("CYCLES", "L1-DCACHE-LOADS"):
 * perf's own names are case-sensitive, but there is no pair of built-in
 * names that differ only in case, so accepting both costs nothing and
 * spares users a round trip.  The event keeps the spelling the user typed.
 */
const struct pmu__evname *pmu__evname_find(const char *name, size_t len);

/* Generic cache event "L1-dcache-load-misses" -> PERF_TYPE_HW_CACHE config.
 * Returns 0, -ENOENT (not a cache name) or -EOPNOTSUPP (a cache name with
 * an operation that cache does not have, e.g. "iTLB-stores"). */
int pmu__cache_parse(const char *name, size_t len, uint64_t *config);

/* Every built-in name a user may type (generic, software, canonical cache
 * names), for suggestions and listings. */
const char *const *pmu__evname_all(size_t *n);

/* 0 if the lookup tables are sorted as the binary searches assume. */
int pmu__evname_tables_check(void);

/* ---- sysfs dynamic PMUs ---- */

/* Where a format term's bits go: attr field (0 = config, 1 = config1,
 * 2 = config2) and the bit mask (ranges may be split). */
struct pmu__format {
	int field;
	uint64_t mask;
};

/* Parse a format file's text ("config:0-7,21", "config1:0-63"). */
int pmu__format_parse(const char *text, struct pmu__format *f);

/* Deposit `val` into the format's bits, low bits first; -ERANGE when `val`
 * needs more bits than the format has. */
int pmu__format_apply(const struct pmu__format *f, uint64_t val,
		      struct perf_event_attr *attr);

/* Safe for use as one path component of a sysfs or tracefs lookup. */
bool pmu__name_is_safe(const char *name, size_t len);

/* Read a small text file into buf (NUL-terminated, trailing whitespace
 * dropped).  Returns the length or a negative errno. */
int pmu__read_small(const char *path, char *buf, size_t sz);

/* <root>/bus/event_source/devices/<pmu>/<rel> (rel may be ""). */
int pmu__sysfs_path(char *buf, size_t sz, const char *root, const char *pmu,
		    const char *rel);

int pmu__sysfs_pmu_type(const char *root, const char *pmu, uint32_t *type);
int pmu__sysfs_format(const char *root, const char *pmu, const char *term,
		      struct pmu__format *f);

/* An event alias from events/<name> with its .unit/.scale sidecars. */
struct pmu__alias {
	char terms[256];
	char unit[16];
	double scale;
};
int pmu__sysfs_alias(const char *root, const char *pmu, const char *name,
		     struct pmu__alias *a);

/* The sysfs PMUs that stand for `pmu` as perf matches them (itself, or
 * its instances "pmu_N": pmu__uncore_pmu_match()), in natural order
 * (malloc'd; free with pmu__strv_free()); 0 with *n == 0 when none. */
int pmu__sysfs_instances(const char *root, const char *pmu, char ***out,
			 size_t *n);

/* Comma-separated list of the format terms of a pmu (for messages). */
void pmu__sysfs_format_list(const char *root, const char *pmu, char *buf,
			    size_t sz);
/* The event aliases a PMU's sysfs directory declares, the same way. */
void pmu__sysfs_alias_list(const char *root, const char *pmu, char *buf,
			   size_t sz);

/* ---- the core PMU of a kernel pmu-events model (evlist_core.c) ---- */

struct pmu__catmodel;

/* The kernel model of the parse (ctx->core_model, else the host's when
 * ctx->host_names), or NULL. */
const struct pmu__catmodel *pmu__core_host(const struct pmu__parse_ctx *ctx);

/* That model, or its hybrid sibling, when `pmu` is its core PMU. */
const struct pmu__catmodel *pmu__core_model(const struct pmu__parse_ctx *ctx,
					 const char *pmu);

/* A format term, event alias or the list of terms of the core PMU as the
 * kernel declares them (for when sysfs lacks the PMU); -ENOENT. */
int pmu__core_format(const struct pmu__catmodel *m, const char *term,
		     struct pmu__format *f);
int pmu__core_alias(const struct pmu__catmodel *m, const char *name,
		    struct pmu__alias *a);
void pmu__core_format_list(const struct pmu__catmodel *m, char *buf, size_t sz);

/* ---- tracepoints ---- */

/* Id of tracepoint sys:name; -ENOENT when not found anywhere. */
int pmu__tracepoint_id(const char *tracefs_root, const char *sys,
		       const char *name, uint64_t *id);

/* The tracefs mount to use: the given one, else the first default that
 * exists, else NULL. */
const char *pmu__tracefs_root(const char *tracefs_root);

/* ---- tokens that stand for several events ---- */

/* What a token expands to: the event strings to parse, in order, and
 * the name each is printed with. */
struct pmu__expansion {
	char **text;
	char **name;
	size_t n, cap;
};

int pmu__expansion_add(struct pmu__expansion *x, const char *text,
		       const char *name);
void pmu__expansion_free(struct pmu__expansion *x);

/* Every tracepoint sys:name whose subsystem matches sys_glob and name
 * matches name_glob (fnmatch), in directory order as perf lists them;
 * each parsed as "sys:name" + mods (":u" or ""), printed "sys:name".
 * 0 with x->n == 0 when none matches; a negative errno when tracefs
 * cannot be read. */
int pmu__tracepoint_expand(const char *tracefs_root, const char *sys_glob,
			   const char *name_glob, const char *mods,
			   struct pmu__expansion *x);

/* Every PMU publishing an event alias `name` (the bare "tsc" of
 * msr/tsc/), sorted by PMU name: each parsed as "pmu/name/" + mods,
 * printed as `token`.  0 with x->n == 0 when no PMU has it. */
int pmu__sysfs_alias_expand(const char *root, const char *name,
			    const char *mods, const char *token,
			    struct pmu__expansion *x);

/* ---- suggestions ---- */

struct pmu__suggestion {
	char name[128];
	unsigned dist;
};

/* Like pmu__event_suggest, also considering sysfs aliases ("msr/tsc/"),
 * the tracepoints of the token's subsystem and perf's names of kernel
 * model m (may be NULL); fills caller storage. */
size_t pmu__event_suggest_ex(const char *token,
			     const struct pmu__parse_ctx *ctx,
			     const struct pmu__catmodel *m,
			     struct pmu__suggestion *out, size_t max);

#endif
