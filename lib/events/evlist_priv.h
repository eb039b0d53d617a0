/* SPDX-License-Identifier: MIT */
#ifndef PMU_EVENTS_EVLIST_PRIV_H
#define PMU_EVENTS_EVLIST_PRIV_H

/*
 * What the parts of the event-list parser share: evlist.c (events,
 * groups, lists), evlist_mods.c (modifiers and numbers),
 * evlist_names.c (built-in names, raw codes, tracepoints) and
 * evlist_pmu.c (pmu/term=value/ events and uncore events).
 */

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <pmu/event.h>
#include <pmu/metric.h>

#include "events/catalog.h"
#include "events/encode.h"
#include "events/evlist.h"
#include "events/evparse.h"
#include "events/ibs.h"
#include "util/error.h"
#include "util/sysfs_pmus.h"

#define MODS_HELP "u k h G H p pp ppp P S D I e W b"
#define KNOWN_HELP "known: generic hardware, cache and software events, " \
	"tracepoints sys:name, pmu/term=value/ and rHEX raw codes"

struct parser {
	const char *str;
	const struct pmu__parse_ctx *ctx;
	struct pmu_error *err;
	struct pmu__evlist out;
	int group;
	bool in_group;         /* parsing the members of {...} */
	char model_msg[512];   /* the default model's "no event X (did you
				  mean Y)", for a name nothing else knows */
};

/* One event as it is being built: the descriptor plus what the name
 * still needs. */
struct evbuild {
	struct pmu__ev d;
	const char *text;      /* the token, NUL-terminated */
	size_t off;            /* its byte offset in the input */
	bool own_mods;         /* the token carried modifiers */
	bool named;            /* name= term gave the name */
	uint64_t cfg[3];       /* config=, config1=, config2= (the last
				  given of each), under the format terms'
				  bits, as perf sets them */
	const struct pmu__catmodel *core; /* pmu/.../ is this kernel model's
					  core PMU (its events are terms) */
	bool no_sysfs;         /* ... and sysfs lacks it: the formats
				  and aliases the kernel declares */
	const struct pmu__catmodel *twin; /* a bare name of a hybrid part:
					  the other core type has it too */
	const char *print;     /* printed name when not the token's own */
	size_t name_len;       /* else the token's first name_len bytes
				  (0: all of it) */
};

const char *pmu__evl_sysfs_root(const struct parser *p);

const char *pmu__evl_tracefs_root(const struct parser *p);

/* Fill the error for the event being parsed; tok[0..toklen) is copied so
 * callers can name a slice of the input. */
int pmu__evl_fail(struct parser *p, int code, enum pmu_error_kind kind,
		  const char *tok, size_t toklen, size_t off, const char *fmt,
		  ...) PMU__PRINTF(7, 8);

int pmu__evl_fail_syntax(struct parser *p, size_t off, const char *what);

int pmu__evl_unknown_event(struct parser *p, const char *name, size_t len,
			   size_t off);

/* Whether token t stands for several events (x->n > 0 then), or for
 * itself (x->n == 0). */
int pmu__evl_expand(struct parser *p, const char *t, size_t off,
		    struct pmu__expansion *x);

/* Apply mods[0..len) to d; `tok` is the whole event token for messages. */
int pmu__evl_apply_mods(struct parser *p, struct pmu__ev *d, const char *mods,
			size_t len, const char *tok, size_t off);

bool pmu__evl_mods_valid(const char *mods);

unsigned pmu__evl_hexval(char c);

/* Decimal or 0x-hex, the whole string, no wrap-around. */
int pmu__evl_parse_u64(const char *s, uint64_t *v);

int pmu__evl_tracepoint_error(struct parser *p, const char *name, size_t len,
			      size_t off, int r);

/* Does the name part (up to ':') alone encode for m? */
bool pmu__evl_name_encodes(const struct pmu__catmodel *m, const char *t,
			   size_t n);

/*
 * perf's syntax for a kernel model: the whole vendor name is the event
 * and what follows ':' are perf's modifiers ("inst_retired.any:uppp");
 * a name that is not a whole event keeps the catalog's own syntax
 * ("LS_DISPATCH:LD_ST_DISPATCH:u").  The other core type of a hybrid
 * part that knows the name counts it too, as perf counts it on both.
 */
int pmu__evl_resolve_kernel(struct parser *p, struct evbuild *b,
			    const struct pmu__catmodel *m);

int pmu__evl_resolve_default(struct parser *p, struct evbuild *b);

/* A name without '/' or "::": built-in, raw, the default model's, or
 * a tracepoint. */
int pmu__evl_parse_named(struct parser *p, struct evbuild *b);
/* "mem:ADDR[/LEN][:rwx][:MODS]": a hardware breakpoint. */
int pmu__evl_parse_breakpoint(struct parser *p, struct evbuild *b);

const struct pmu__uevent *pmu__evl_uncore_event(const struct parser *p,
						const char *name, size_t n,
						const struct pmu__catmodel **mp);

/* "pmu/terms/", "pmu/terms/:mods" or "pmu/terms/mods". */
int pmu__evl_parse_pmu_event(struct parser *p, struct evbuild *b);

/* "pmu::EVENT...": model-specific tables, through the catalog hook. */
int pmu__evl_parse_catalog(struct parser *p, struct evbuild *b,
			   const char *dcolon);

#endif
