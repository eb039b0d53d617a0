/* SPDX-License-Identifier: MIT */
/* One name that stands for an event on several PMU instances (a bare
 * uncore event on uncore_cha_0..N): perf prints the instances as one
 * line, their counts and times summed, unless --no-merge asks for a line
 * per instance, named PMU/EVENT/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"

/* The first event of event i's merge id: where its instances add up. */
static size_t merge_head(struct pmu_session *s, size_t i)
{
	ssize_t id = pmu_session_event_merge(s, i);

	for (size_t j = 0; id > 0 && j < i; j++)
		if (pmu_session_event_merge(s, j) == id)
			return j;
	return i;
}

bool stat_merge_folded(struct pmu_session *s, const struct stat_opts *o,
		       size_t i)
{
	return !o->no_merge && merge_head(s, i) != i;
}

void stat_merge_hide(struct pmu_session *s, const struct stat_opts *o,
		     bool *hidden, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (stat_merge_folded(s, o, i))
			hidden[i] = true;
}

/* Each aggregate's instances summed into their first event; the others
 * are hidden.  Scaling sums: an instance multiplexed out part of the time
 * weighs in by its own share, as perf scales the merged line. */
void stat_merge_fold(struct pmu_session *s, const struct stat_opts *o,
		     struct pmu_value *cur, size_t nagg, size_t n)
{
	for (size_t i = 0; !o->no_merge && i < n; i++) {
		size_t h = merge_head(s, i);

		for (size_t a = 0; h != i && a < nagg; a++)
			stat_value_add(&cur[a * n + h], &cur[a * n + i]);
	}
}

/* --no-merge: "uncore_cha_0/foo/" for the instance of "foo" on
 * uncore_cha_0 ("uncore_cha_0/foo/u" for "foo:u"); NULL where the
 * event's own name stands (not merged, or no PMU name). */
char *stat_merge_name(struct pmu_session *s, const struct stat_opts *o,
		      size_t i)
{
	const char *name = pmu_session_event_name(s, i);
	const char *pmu = pmu_session_event_pmu(s, i);
	const char *colon;
	char *out = NULL;

	if (!o->no_merge || pmu_session_event_merge(s, i) <= 0 || !pmu ||
	    !name)
		return NULL;
	colon = strchr(name, ':');
	if (asprintf(&out, "%s/%.*s/%s", pmu,
		     (int)(colon ? (size_t)(colon - name) : strlen(name)), name,
		     colon ? colon + 1 : "") < 0)
		return NULL;
	return out;
}
