/* SPDX-License-Identifier: MIT */
#ifndef PMU_EVENTS_EVLIST_H
#define PMU_EVENTS_EVLIST_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

#include <pmu/error.h>

/*
 * The result of parsing a perf-style event list: what the session layer
 * opens.  The event layer never touches file descriptors.
 */
struct pmu__evdesc {
	char *name;        /* canonical, as printed: "cycles:u", "msr/tsc/",
			      "sched:sched_switch", "r01c2" */
	struct perf_event_attr attr; /* type, config, config1/2, exclude_*,
					precise_ip, exclude_guest/host; the
					session adds read_format, disabled,
					inherit, enable_on_exec */
	int group;         /* group index; events outside braces are groups
			      of one; events of a group are contiguous */
	bool leader;       /* first event of its group */
	char unit[16];     /* "msec" for task-clock/cpu-clock, sysfs .unit */
	double scale;      /* multiply raw by this to get `unit` (1.0 default;
			      1e-6 for the ns clocks shown in msec) */
	bool is_hw;        /* needs a hardware PMU (generic hw/cache/raw/cpu) */
	bool precise_max;  /* :P, the highest precise_ip the kernel takes;
			      attr.precise_ip starts at 3, the session may
			      lower it */
	bool sample_read;  /* :S, sample by reading the group (records add
			      PERF_SAMPLE_READ) */
	bool guest_default; /* no :G or :H: attr.exclude_guest, if set, is
			       perf's default (no modifiers, :u, :p), and a
			       PMU that refuses it may count without it */
};

struct pmu__evlist {
	struct pmu__evdesc *ev;
	size_t n, cap;
	int ngroups;
};

/* Where the parser looks up dynamic PMUs and tracepoints (tests point
 * these at fake trees).  NULL members mean the real locations. */
struct pmu__parse_ctx {
	const char *sysfs_root;   /* default "/sys" */
	const char *tracefs_root; /* default "/sys/kernel/tracing", then
				     "/sys/kernel/debug/tracing" */
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
