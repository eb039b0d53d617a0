/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the event-stream parser.  Every input is parsed and the
 * parser's promises are checked (errors carry a message; repeat/end pairs
 * point at each other; snapshot indices are in range).  Inputs whose run
 * is small are then executed on a simulated P6 with an interrupt-mode
 * counter, which exercises the interpreter and the overflow handler.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/pmu.h>

#include "drivers/sim_stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define RUN_BUDGET 20000u

static const char control[] =
	"{\"tsc_on\": 1, \"nractrs\": 1, \"nrictrs\": 1, \"pmc_map\": [1, 0],"
	" \"evntsel\": [\"0x000300c0\", \"0x005300c0\"], \"ireset\": [0, -3]}";

static void check(const struct pmu__stream *s)
{
	if (s->pebs.has_buf_size && (s->pebs.buf_size < PMU_STREAM_PEBS_MIN_BUF ||
				     s->pebs.buf_size > PMU_STREAM_PEBS_MAX_BUF))
		abort();
	if (s->pebs.cnt_reset > PMU_STREAM_PEBS_CTR_MASK)
		abort();
	for (size_t i = 0; i < s->nops; i++) {
		const struct pmu__stream_op *op = &s->ops[i];

		if (op->kind == PMU_STREAM_REPEAT &&
		    (op->jump <= i || op->jump >= s->nops ||
		     s->ops[op->jump].kind != PMU_STREAM_END ||
		     s->ops[op->jump].jump != i))
			abort();
		if (op->kind == PMU_STREAM_SNAPSHOT && op->snap >= s->nsnaps)
			abort();
	}
}

/* Statements a run would execute, saturating at RUN_BUDGET + 1; events
 * with huge counts make a run slow (many overflows): treated as too big. */
static uint64_t cost(const struct pmu__stream *s)
{
	uint64_t mult[PMU_STREAM_MAX_DEPTH + 1] = { 1 }, total = 0;
	int d = 0;

	for (size_t i = 0; i < s->nops; i++) {
		const struct pmu__stream_op *op = &s->ops[i];

		if (op->kind == PMU_STREAM_EVENT && op->n > 100000)
			return RUN_BUDGET + 1;
		total += mult[d];
		if (total > RUN_BUDGET)
			return total;
		if (op->kind == PMU_STREAM_REPEAT) {
			uint64_t m = mult[d] * (op->n ? op->n : 1);

			mult[d + 1] = m > RUN_BUDGET ? RUN_BUDGET + 1 : m;
			d++;
		} else if (op->kind == PMU_STREAM_END) {
			d--;
		}
	}
	return total;
}

/* Without raw register writes both counters see the same events. */
static bool same_events(const struct pmu__stream *s)
{
	for (size_t i = 0; i < s->nops; i++)
		if (s->ops[i].kind == PMU_STREAM_REG)
			return false;
	return true;
}

static void run(const char *text, size_t len, bool same)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_control *c = pmu_control_parse(control, strlen(control), &err);
	struct pmu_sim *sim = pmu_sim_open(pmu_hwmodel_find("p6"), &err);
	struct pmu_sim_result r = { .size = sizeof(r) };

	if (!c || !sim || pmu_sim_control(sim, c, &err))
		abort();
	if (pmu_sim_run(sim, text, len, &err) == 0) {
		if (pmu_sim_result(sim, &r) || (same && r.pmc[0] != r.pmc[1]))
			abort();
	} else if (!err.message[0]) {
		abort();
	}
	pmu_sim_close(sim);
	pmu_control_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu__stream s;
	const char *text = (const char *)data;
	int rc = pmu__stream_parse(text, size, &s, &err);

	if (rc < 0) {
		if (err.code != rc || !err.message[0])
			abort();
	} else {
		check(&s);
		if (cost(&s) <= RUN_BUDGET)
			run(text, size, same_events(&s));
	}
	pmu__stream_free(&s);
	return 0;
}
