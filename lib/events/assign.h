/* SPDX-License-Identifier: MIT */
#ifndef PMU_EVENTS_ASSIGN_H
#define PMU_EVENTS_ASSIGN_H

/*
 * Counter assignment: which hardware counter counts which event.  The
 * solver works on candidates (counter, shared resource) per event so one
 * code path serves every model: plain counter masks (AMD, P6, P5),
 * fixed counters (Intel), PowerPC selector widths, and Pentium 4 where
 * each counter also ties up the ESCR its CCCR selects.
 */

#include <stdbool.h>
#include <stdint.h>

#include <pmu/assign.h>

#include "events/catalog.h"

#define PMU__ASG_MAX_CAND 24

struct pmu__asg_cand {
	uint8_t ctr;     /* generic 0..31, fixed PMU_ASSIGN_FIXED + n */
	uint16_t res;    /* P4: ESCR MSR the counter would use; 0 = none */
};

struct pmu__asg_req {
	int ncand;
	struct pmu__asg_cand cand[PMU__ASG_MAX_CAND]; /* preference order */
};

/*
 * Place the events of `mask` (bit i = req[i]); on success choice[i] is
 * the index of the candidate taken by event i.  Deterministic: events in
 * index order, candidates in preference order.  Returns true if all fit.
 */
bool pmu__assign_solve(const struct pmu__asg_req *req, int n, uint64_t mask,
		       int *choice);

/*
 * The smallest subset of req[0..n) that cannot be placed (first in
 * lexicographic order among the smallest).  Writes indices to set[] and
 * returns their count; 0 when everything fits.
 */
int pmu__assign_conflict(const struct pmu__asg_req *req, int n, int *set);

/*
 * Pentium 4 candidates of a netburst event: the counters of its ESCR
 * unit, each with the ESCR that the CCCR's ESCR_SELECT (`sel`) makes it
 * use.  Returns the count, 0 for an event whose unit is not known.
 */
int pmu__assign_p4_cands(const char *event, unsigned sel,
			 struct pmu__asg_req *req);

/* ESCR MSR used by P4 counter `ctr` with ESCR_SELECT `sel`, 0 if none. */
uint32_t pmu__p4_escr_msr(int ctr, unsigned sel);

#endif
