/* SPDX-License-Identifier: MIT */
#ifndef PMU_PROFILE_PROFILE_H
#define PMU_PROFILE_PROFILE_H

#include <pmu/profile.h>

#include "profile/dso.h"
#include "profile/machine.h"
#include "profile/perfdata.h"
#include "profile/regs.h"

/* A record's place in time order. */
struct pmu__rec_ref {
	uint64_t time;
	uint64_t off;
};

struct pmu_profile {
	struct pd_file f;
	struct pmu__dso_set *dsos;
	struct pmu__machine m;
	bool no_lines, no_inline;
	unsigned max_stack;           /* addresses kept of a chain */
	struct pmu__rec_ref *order;   /* records read, in time order: */
	size_t norder, cur, cap_order;
	size_t nemit;                 /* ... [cur, nemit) due, the rest held */
	uint64_t seen_max;            /* the latest time read so far */
	uint64_t round_limit;         /* seen_max at the last round's end */
	uint64_t scan;                /* file offset of the next round */
	uint64_t last_time;
	/* counted at open */
	uint64_t nsamples, lost, nlost, total_period, nunknown;
	uint64_t lost_rec, lost_smpl;  /* summed from LOST, LOST_SAMPLES */
	bool has_lost_smpl;
	bool callchains;
	/* the current sample */
	const unsigned char *raw;     /* its tracepoint record (RAW) */
	uint32_t raw_size;
	struct pmu_frame *fr;
	size_t nfr, cap_fr;
	struct pmu__dso *kernel;
	enum pmu__regs_arch arch;     /* of the recording machine: its
					 samples' registers */
	uint64_t stack_err;           /* DWARF unwinds that failed */
	void *unwind;                 /* unwinder state (unwind.c) */
	char comm_buf[24];            /* ":TID" for a thread without COMM */
};

/* Frames of one address of the current sample; leaf: the sampled ip
 * (callers are looked up at ip - 1, inside their call instruction). */
int pmu__profile_add_ip(struct pmu_profile *p, int pid, uint64_t ip,
			bool kernel, bool leaf);

/* A kernel address's function and offset in it (NULL: none); ctx is
 * the profile (as a tracepoint's %pS asks, pd_trace.h). */
const char *pmu__profile_ksym(void *ctx, uint64_t addr, uint64_t *off);

/* The next record in time order, and what it changes (profile.c). */
const struct perf_event_header *pmu__profile_next_record(struct pmu_profile *p);
void pmu__profile_on_record(struct pmu_profile *p,
			    const struct perf_event_header *h);

/* DWARF unwinding of a sample's user stack into frames (unwind.c);
 * returns the number of frames added. */
size_t pmu__unwind(struct pmu_profile *p, int pid, int tid,
		   const struct pd_sample *s);
void pmu__unwind_free(struct pmu_profile *p);

#endif
