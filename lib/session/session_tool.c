/* SPDX-License-Identifier: MIT */
/*
 * perf's tool events (duration_time, user_time, system_time): the
 * drivers open them as the software dummy they are to the kernel; their
 * values come from the session's own clock and from getrusage(2).
 */
#include <sys/resource.h>
#include <time.h>

#include "session/session.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* CPU time of what the session counts: the calling thread for a SELF
 * target; otherwise the children the caller reaped (a counted command
 * is one once it has been waited for, as for perf). */
static void cpu_times(const struct pmu_session *s, uint64_t *user,
		      uint64_t *sys)
{
	struct rusage ru;

	if (getrusage(s->tool.self ? RUSAGE_THREAD : RUSAGE_CHILDREN, &ru)) {
		*user = *sys = 0;
		return;
	}
	*user = (uint64_t)ru.ru_utime.tv_sec * 1000000000u +
		(uint64_t)ru.ru_utime.tv_usec * 1000u;
	*sys = (uint64_t)ru.ru_stime.tv_sec * 1000000000u +
	       (uint64_t)ru.ru_stime.tv_usec * 1000u;
}

void pmu__session_tool_open(struct pmu_session *s, bool self, bool running)
{
	s->tool.self = self;
	s->tool.dur = 0;
	s->tool.running = running;
	s->tool.t_on = running ? now_ns() : 0;
	cpu_times(s, &s->tool.user0, &s->tool.sys0);
}

void pmu__session_tool_start(struct pmu_session *s)
{
	if (!s->tool.running) {
		s->tool.running = true;
		s->tool.t_on = now_ns();
	}
}

void pmu__session_tool_stop(struct pmu_session *s)
{
	if (s->tool.running)
		s->tool.dur += now_ns() - s->tool.t_on;
	s->tool.running = false;
}

void pmu__session_tool_reset(struct pmu_session *s)
{
	s->tool.dur = 0;
	if (s->tool.running)
		s->tool.t_on = now_ns();
	cpu_times(s, &s->tool.user0, &s->tool.sys0);
}

/* As perf gives them: the value is also the time enabled and running,
 * so a zero reads as not counted. */
void pmu__session_tool_read(struct pmu_session *s, struct pmu__count *c,
			    size_t stride, size_t n)
{
	uint64_t user, sys, dur = s->tool.dur;

	if (s->tool.running)
		dur += now_ns() - s->tool.t_on;
	cpu_times(s, &user, &sys);
	user -= user < s->tool.user0 ? user : s->tool.user0;
	sys -= sys < s->tool.sys0 ? sys : s->tool.sys0;
	for (size_t i = 0; i < n && i < s->n; i++) {
		struct pmu__count *v = (struct pmu__count *)(void *)
				       ((char *)c + i * stride);
		uint64_t x;

		switch (s->ev[i].tool) {
		case PMU__TOOL_DURATION: x = dur; break;
		case PMU__TOOL_USER: x = user; break;
		case PMU__TOOL_SYSTEM: x = sys; break;
		default: continue;
		}
		v->raw = v->enabled = v->running = v->scaled = x;
		v->status = x ? PMU__COUNT_OK : PMU__COUNT_IDLE;
		v->err = 0;
		v->scaled_err = 0;
	}
}
