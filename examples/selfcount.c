/* SPDX-License-Identifier: MIT */
/* Count this thread's task-clock, page-faults and context switches. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <pmu/pmu.h>

static void work(void)
{
	size_t n = 64 * 4096, i;
	volatile char *buf = malloc(n);

	for (i = 0; buf && i < n; i += 4096)
		buf[i] = (char)i;
	free((void *)buf);
	usleep(1000);
}

int main(void)
{
	struct pmu_error err = { .size = sizeof(err) };
	/* the element size this program was built with: values are read
	 * in that layout (0 would mean the first one) */
	struct pmu_value v[3] = { { .size = sizeof(struct pmu_value) } };
	struct pmu_session *s = pmu_session_new(&err);
	int i, n;

	if (!s || pmu_session_add(s, "task-clock,page-faults,context-switches",
				  &err) < 0 ||
	    pmu_session_open(s, NULL, &err) < 0) {
		fprintf(stderr, "selfcount: %s\n", err.message);
		pmu_session_free(s);
		return 1;
	}
	pmu_session_start(s);
	for (i = 0; i < 10; i++)
		work();
	pmu_session_stop(s);
	n = pmu_session_read(s, v, 3);
	for (i = 0; i < n; i++) {
		double scale = 1.0;
		const char *unit = pmu_session_event_unit(s, (size_t)i, &scale);

		if (v[i].status != PMU_EVENT_OK)
			printf("%20s  %s\n", "<not counted>",
			       pmu_session_event_name(s, (size_t)i));
		else
			printf("%20.2f %-5s %s\n", (double)v[i].scaled * scale,
			       unit, pmu_session_event_name(s, (size_t)i));
	}
	pmu_session_free(s);
	return n < 0;
}
