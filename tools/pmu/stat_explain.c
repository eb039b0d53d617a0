/* SPDX-License-Identifier: MIT */
/* pmu stat: what a run leaves out, and one note saying why. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "stat.h"
#include "stat_ctx.h"


/* The hidden events' names, comma-separated, from the first one on. */
static void hidden_names(const struct stat_ctx *c, char *buf, size_t sz)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = c->explain; i < c->n && len + 1 < sz; i++) {
		int w;

		if (!c->hidden[i])
			continue;
		w = snprintf(buf + len, sz - len, "%s%s", len ? ", " : "",
			     pmu_session_event_name(c->s, i));
		len = w < 0 || (size_t)w >= sz - len ? sz - 1 : len + (size_t)w;
	}
}

static void explain_hidden(const struct stat_ctx *c)
{
	struct pmu_host_info h = { .size = sizeof(h) };
	const char *reason = pmu_session_event_reason(c->s, c->explain);
	char names[512];
	int err = 0;

	pmu_session_event_status(c->s, c->explain, &err);
	if (pmu_host_info(&h) < 0)
		h.has_hw_pmu = true;
	if (err == -EACCES || err == -EPERM)
		pmu_tool_err("hardware counters not shown: "
			     "kernel.perf_event_paranoid=%d forbids them; run "
			     "'sysctl kernel.perf_event_paranoid=2' or grant "
			     "CAP_PERFMON", h.paranoid);
	else if (!h.has_hw_pmu)
		pmu_tool_err("hardware counters not shown: this machine has no "
			     "hardware PMU (%s)", h.virtualized
			     ? "virtual machine; enable PMU passthrough / vPMU "
			       "in the hypervisor"
			     : "the kernel registered no CPU PMU driver");
	else {
		hidden_names(c, names, sizeof(names));
		pmu_tool_err("not shown: %s: this CPU's PMU does not count "
			     "%s (%s)", names, strchr(names, ',') ? "them"
			     : "it", reason ? reason : "the kernel refused it");
	}
}

/* --switch overflow:EVENT:N counts EVENT in every set that lacks it, a
 * copy each, appended after the events pmu adds: the first event of i's
 * name (the user's own in another set, or an earlier copy), or i. */
static size_t switch_copy(const struct stat_ctx *c, size_t i)
{
	const char *name = pmu_session_event_name(c->s, i);

	for (size_t j = 0; j < i; j++)
		if (!strcmp(pmu_session_event_name(c->s, j), name))
			return j;
	return i;
}

/* Events pmu adds (the default set, -d's) are left out of the text
 * table when this machine cannot count them (one line says why);
 * events the user named are always shown, and so is everything of a
 * simulated run, whose PMU is chosen, not found.  -x and --json keep
 * perf's rows and carry no prose. */
void stat_mark_hidden(struct stat_ctx *c)
{
	size_t first = SIZE_MAX;
	bool may_hide = !c->o->sim_model && !c->o->emulate &&
			c->o->format == STAT_TEXT;

	for (size_t i = 0; i < c->n; i++) {
		c->hidden[i] = may_hide && i >= c->nuser &&
			pmu_session_event_status(c->s, i, NULL) ==
				PMU_EVENT_NOT_SUPPORTED;
		if (c->hidden[i] && first == SIZE_MAX)
			first = i;
	}
	c->explain = first;
	for (size_t i = 0; i < c->n; i++)
		if (pmu_stat_folded(c->st, i))
			c->hidden[i] = true;
	/* (-x and --json keep a row per set's copy: their rows carry the
	 * set) */
	for (size_t i = 0; i < c->n; i++) {
		c->copy_of[i] = i < c->nuser ? i : switch_copy(c, i);
		if (c->o->format == STAT_TEXT && c->copy_of[i] != i)
			c->hidden[i] = true;
	}
}

/* A group larger than its PMU's counters is never counted: perf reads
 * it so too, and one line says which event did not fit. */
static void explain_no_room(const struct stat_ctx *c)
{
	for (size_t i = 0; c->s && i < c->n; i++) {
		int err = 0;

		if (pmu_session_event_status(c->s, i, &err) ==
		    PMU_EVENT_NOT_SUPPORTED && err == -ENOSPC)
			pmu_tool_err("%s: %s", pmu_session_event_name(c->s, i),
				     pmu_session_event_reason(c->s, i));
	}
}

/* A simulated or emulated PMU counts what its counters hold: events that
 * found none are <not counted>, and one line per reason says why and
 * how to count them all (sets that take turns). */
static void explain_no_counter(const struct stat_ctx *c)
{
	if (!c->s || c->o->format != STAT_TEXT ||
	    (!c->o->sim_model && !c->o->emulate))
		return;
	for (size_t i = 0; i < c->n; i++) {
		const char *why = pmu_session_event_reason(c->s, i);
		char names[512];
		size_t len = 0;
		bool first = true;

		if (pmu_session_event_status(c->s, i, NULL) !=
		    PMU_EVENT_NOT_COUNTED || !why || !*why)
			continue;
		/* said with the first event of its reason */
		for (size_t k = 0; k < i && first; k++)
			first = pmu_session_event_status(c->s, k, NULL) !=
				PMU_EVENT_NOT_COUNTED ||
				strcmp(why, pmu_session_event_reason(c->s, k) ?
					    pmu_session_event_reason(c->s, k) : "");
		if (!first)
			continue;
		names[0] = '\0';
		for (size_t k = i; k < c->n; k++) {
			const char *w = pmu_session_event_reason(c->s, k);
			int n;

			if (pmu_session_event_status(c->s, k, NULL) !=
			    PMU_EVENT_NOT_COUNTED || !w || strcmp(w, why))
				continue;
			n = snprintf(names + len, sizeof(names) - len, "%s%s",
				     len ? ", " : "",
				     pmu_session_event_name(c->s, k));
			len = n < 0 || (size_t)n >= sizeof(names) - len ?
			      sizeof(names) - 1 : len + (size_t)n;
		}
		pmu_tool_err("%s: not counted: %s; --set EVENTS --set EVENTS%s "
			     "counts them in sets that take turns", names, why,
			     c->o->emulate ? " --switch overflow:instructions:1:"
					     "100000" : "");
	}
}

/* Hardware events the user named, <not supported> because this machine
 * has no hardware PMU: one line says so, as for the default set's. */
static void explain_no_pmu(const struct stat_ctx *c)
{
	struct pmu_host_info h = { .size = sizeof(h) };
	char names[512];
	size_t len = 0;

	if (!c->s || c->o->format != STAT_TEXT || c->o->sim_model ||
	    c->o->emulate)
		return;
	names[0] = '\0';
	for (size_t i = 0; i < c->nuser && i < c->n && len + 1 < sizeof(names);
	     i++) {
		const char *why = pmu_session_event_reason(c->s, i);
		int w;

		if (pmu_session_event_status(c->s, i, NULL) !=
		    PMU_EVENT_NOT_SUPPORTED || !why ||
		    !strstr(why, "no hardware PMU"))
			continue;
		w = snprintf(names + len, sizeof(names) - len, "%s%s",
			     len ? ", " : "", pmu_session_event_name(c->s, i));
		len = w < 0 || (size_t)w >= sizeof(names) - len
			      ? sizeof(names) - 1 : len + (size_t)w;
	}
	/* the host's figures only when there is something to explain:
	 * reading them is a fifth of a plain run's instructions */
	if (len && pmu_host_info(&h) >= 0 && !h.has_hw_pmu)
		pmu_tool_err("%s: <not supported>: this machine has no hardware "
			     "PMU (%s)", names, h.virtualized
			     ? "virtual machine; enable PMU passthrough / vPMU "
			       "in the hypervisor"
			     : "the kernel registered no CPU PMU driver");
}

/* Said once, after the command started, so a failed exec is not buried. */
void stat_explain_once(struct stat_ctx *c)
{
	if (c->explain != SIZE_MAX)
		explain_hidden(c);
	if (!c->explained)
		explain_no_pmu(c);
	if (!c->explained) {
		explain_no_room(c);
		explain_no_counter(c);
	}
	c->explain = SIZE_MAX;
	c->explained = true;
}

void stat_verbose_events(const struct stat_ctx *c)
{
	for (size_t i = 0; i < c->n; i++) {
		const char *why = pmu_session_event_reason(c->s, i);
		int st = pmu_session_event_status(c->s, i, NULL);

		fprintf(stderr, "pmu: event %zu: %s (group %zd)%s%s\n", i,
			pmu_session_event_name(c->s, i),
			pmu_session_event_group(c->s, i),
			st == PMU_EVENT_NOT_SUPPORTED ? ": not supported: "
			: why && *why ? ": " : "", why ? why : "");
	}
}
