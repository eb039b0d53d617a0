/* SPDX-License-Identifier: MIT */
#ifndef PMU_EVENTS_EVLIST_H
#define PMU_EVENTS_EVLIST_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmu/error.h>

#include "drivers/driver.h"

/*
 * The result of parsing a perf-style event list: driver-neutral event
 * objects (drivers/driver.h) that the session hands to whichever driver
 * it holds.  The event layer never touches file descriptors.
 */
struct pmu__evlist {
	struct pmu__ev *ev;
	size_t n, cap;
	int ngroups;
	uint32_t nmerge;   /* the last merge id handed out (pmu__ev.merge):
			      parses appending to one list keep them
			      distinct */
};

/* Where the parser looks up dynamic PMUs and tracepoints (tests point
 * these at fake trees).  NULL members mean the real locations. */
struct pmu__parse_ctx {
	const char *sysfs_root;   /* default "/sys" */
	const char *tracefs_root; /* default "/sys/kernel/tracing", then
				     "/sys/kernel/debug/tracing" */
	const char *default_model; /* catalog model whose events may be
				      named bare ("INST_RETIRED"), after
				      the generic names; NULL: none */
	bool host_names;          /* perf's syntax of the host's kernel
				      pmu-events model: its events named
				      bare ("ls_dispatch.ld_st_dispatch"),
				      as core PMU terms ("cpu/NAME/"), and
				      its core PMU's formats where sysfs
				      lacks the PMU */
	const char *core_model;   /* that model by name instead of the
				      host's (tests, simulated CPUs) */
	bool model_only;          /* core_model's own events alone, not
				      also the other core type's of a
				      hybrid part (a model the user named) */
};

/*
 * Parse `str` and append its events to `l`.  On error nothing is appended,
 * a negative errno is returned and *err names the offending token (with
 * its byte offset in `str`) and suggests near names for unknown events.
 * Accepts: comma lists; {a,b} groups with an optional group modifier
 * ("{a,b}:u"); generic hardware and cache events; software events;
 * tracepoints sys:name; dynamic PMUs pmu/term=val,.../ with sysfs format
 * and event aliases; raw rHEX; modifiers :u :k :h :G :H :p :pp :ppp :P :S :D
 * (and combinations "ukp"); names of the form pmu::EVENT go to the event
 * catalog resolver (unknown PMU until one is registered).
 */
int pmu__evlist_parse(struct pmu__evlist *l, const char *str,
		      const struct pmu__parse_ctx *ctx, struct pmu_error *err);

/* One event as pmu_event_list_parse() describes it (a whole struct of
 * this library's size). */
struct pmu_event_desc;
void pmu__evlist_describe(const struct pmu__ev *e, struct pmu_event_desc *d);

/* Free every event; l may be reused afterwards. Accepts NULL. */
void pmu__evlist_clear(struct pmu__evlist *l);

/*
 * Names a user could have meant, for "did you mean" messages: fills
 * out[0..max) with the nearest known names to `token` (edit distance),
 * returns how many.  The strings are static or owned by a cache.
 */
size_t pmu__event_suggest(const char *token, const struct pmu__parse_ctx *ctx,
			  const char **out, size_t max);

#endif
