/* SPDX-License-Identifier: MIT */
#ifndef PMU_ASSIGN_H
#define PMU_ASSIGN_H

/*
 * Counter assignment: place a list of events on the hardware counters of
 * a model (per-event counter masks, Intel fixed counters, Pentium 4
 * ESCR/CCCR pairing, PowerPC per-counter event ranges), or name the
 * smallest set of events that cannot be counted together.
 */

#include <stddef.h>
#include <stdint.h>

#include <pmu/error.h>
#include <pmu/event.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMU_ASSIGN_MAX_EVENTS 32
#define PMU_ASSIGN_FIXED 32     /* counter numbers >= this are fixed
				   counters: PMU_ASSIGN_FIXED + n */

struct pmu_assign_opts {
	size_t sz;              /* sizeof(struct pmu_assign_opts) */
	const char *model;      /* catalog model, alias or perfctr model
				   name; NULL = pmu_event_host_model() */
	unsigned dfl_plm;       /* as in pmu_encode_opts */
};
#define pmu_assign_opts__last_field dfl_plm

struct pmu_assigned_event {
	char event[128];        /* the string as given */
	char name[64];          /* canonical event name */
	int counter;            /* hardware counter, -1 if not placed */
	uint64_t cntmsk;        /* counters the event may use */
	int ncodes;
	uint64_t codes[PMU_ENCODE_MAX_CODES]; /* register values for this
				   counter: EVNTSEL (P6: EN only on PMC0; INT
				   clear), CESR half (P5), PMCnSEL (PPC), event
				   (XScale); P4: CCCR then ESCR; Intel fixed
				   counter n: its IA32_FIXED_CTR_CTRL field
				   (OS, USR, ANY) shifted to bits 4n..4n+3;
				   others: the encoding */
	uint32_t escr_msr;      /* P4: the ESCR this counter uses */
};

struct pmu_assignment {
	size_t size;            /* sizeof(struct pmu_assignment) */
	char model[32];         /* resolved catalog model */
	char control_model[32]; /* perfctr model name for a control file,
				   "" if the model has none */
	size_t nevents;
	struct pmu_assigned_event ev[PMU_ASSIGN_MAX_EVENTS];
	size_t nconflict;       /* > 0 when the events do not fit */
	size_t conflict[PMU_ASSIGN_MAX_EVENTS]; /* indices into ev[] */
	char reason[256];
	char note[256];         /* set when the events fit but a perfctr
				   control of them would be refused (an
				   event the driver does not take) or
				   would count nothing (P6: PMC1 alone,
				   no global enable): why;
				   pmu_assign_control_json() then fails */
};

/*
 * Assign `n` event strings ("EVENT[:UMASK][:mod=val]", optionally with a
 * "pmu::" prefix naming the same model).  Returns 0 when every event has
 * a counter; -ENOSPC when they cannot be placed together (out->conflict
 * lists the smallest such set, out->reason says why); -ENOENT / -EINVAL
 * for unknown models or events (*err names the token); -E2BIG for more
 * than PMU_ASSIGN_MAX_EVENTS events.
 */
PMU_API int pmu_assign(const char *const *events, size_t n,
		       const struct pmu_assign_opts *opts,
		       struct pmu_assignment *out, struct pmu_error *err);

/*
 * Write a perfctr control (JSON, docs/control-format.md) for a complete
 * assignment on a perfctr model: a-mode counters in event order, TSC on
 * where the model allows it.  Returns the length written (as snprintf)
 * or -EINVAL when the assignment is incomplete or has no control form,
 * -EPERM when perfctr's driver would refuse it or it would count
 * nothing (out->note says why).
 */
PMU_API int pmu_assign_control_json(const struct pmu_assignment *a,
				    char *buf, size_t sz);

#ifdef __cplusplus
}
#endif
#endif
