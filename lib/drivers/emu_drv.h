/* SPDX-License-Identifier: MIT */
#ifndef PMU_DRIVERS_EMU_DRV_H
#define PMU_DRIVERS_EMU_DRV_H

/*
 * The emu driver: a simulated PMU (any model of lib/hwmodel) counting a
 * real program, which runs under the project's Valgrind tool (emu/).
 * The session places events on the model's counters, as for the sim
 * driver; this driver turns the placement into a perfctr control,
 * checks it on a local simulated PMU (same errors as the sim driver),
 * keeps only the events the emulation produces, and hands the control
 * and the feed rules to the tool, which runs the counters:
 *  - CHILD targets: a command started with pmu_session_command()'s
 *    command line; config file and FIFO in a private directory
 *    (emu_child.c);
 *  - SELF: the calling program itself, when it runs under the tool;
 *    client requests (emu_self.c).
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "drivers/driver.h"
#include "proto/emu.h"
#include "hwmodel/model.h"

struct emu_settings {
	struct pmu_emu_cache_geom i1, d1, ll;
	uint32_t predictor;          /* enum pmu_emu_predictor */
	struct pmu_emu_costs costs;
	bool regions;                /* count between the markers only */
	uint32_t report_ms;
	uint64_t report_insns;       /* records every that many instructions */
	uint32_t max_samples;
};

/* One event set's counts, summed over the processes. */
struct emu_set_counts {
	uint64_t runs, duration, nrates;
	uint64_t sum[PMU_MAX_CTRS];
	double rsum[PMU_MAX_CTRS], rsq[PMU_MAX_CTRS];
};

/* What the tool reported, summed over the processes of the program. */
struct emu_counts {
	uint64_t sum[PMU_MAX_CTRS];
	uint64_t tsc;
	uint64_t kind[PMU_EMU_NKIND];
	uint64_t lost;
	uint64_t cycles;             /* SELF: simulated cycles enabled */
	struct emu_set_counts set[PMU_EMU_MAX_SETS];
};

/* A process's place in the instruction intervals: its records go to
 * interval `ord`, which each of its INSNS records ends. */
struct emu_proc_ord {
	int32_t pid;
	uint32_t ord;
};

/* The FIFO's byte stream turned into records (emu_records.c). */
struct emu_records {
	unsigned char buf[2 * 4096];  /* a partial record (PIPE_BUF max) */
	size_t have;
	struct emu_counts c;
	struct pmu_emu_rec_sample *smp;
	size_t nsmp, cap;
	bool broken;                 /* a record made no sense */
	/* a profile's records: samples, tasks and maps as they came, in
	 * q[head..len) (samples then go here, not to smp) */
	bool raw;
	unsigned char *q;
	size_t qhead, qlen, qcap;
	bool marks;                  /* keep instruction intervals */
	bool marks_over;             /* more than the intervals kept */
	struct emu_counts *iv;       /* [niv]: counts by interval */
	size_t niv, ivcap;
	struct emu_proc_ord *procs;
	size_t nprocs, proccap;
};

/* Instruction intervals kept at most (about 2 KiB each). */
#define EMU_MAX_MARKS 65536u

void pmu__emu_records_add(struct emu_records *r, const void *data,
			  size_t len);
/* Move up to max kept samples, oldest first, out to `out`. */
size_t pmu__emu_records_take(struct emu_records *r,
			     struct pmu_emu_rec_sample *out, size_t max);
void pmu__emu_records_clear(struct emu_records *r);
/* Move whole records (SAMPLE, TASK, MMAP), oldest first, into out, at
 * most len bytes; the bytes moved. */
size_t pmu__emu_records_take_raw(struct emu_records *r, void *out,
				 size_t len);
/* Instruction intervals so far (a trailing one without instructions
 * folded into the one before), and the counts at the end of interval k
 * summed over processes; -E2BIG past EMU_MAX_MARKS, -ERANGE past the
 * last. */
ssize_t pmu__emu_records_nmarks(const struct emu_records *r);
int pmu__emu_records_mark(const struct emu_records *r, size_t k,
			  struct emu_counts *out);

enum emu_slot_kind { EMU_SLOT_NONE, EMU_SLOT_TSC, EMU_SLOT_PMC };

struct emu_slot {
	enum emu_slot_kind kind;
	unsigned idx;                /* virtual counter */
};


struct emu_child;

struct emu_drv {
	struct pmu__drv drv;         /* first: the ops table */
	const struct pmu_hwmodel *m;
	struct emu_settings set;
	bool is_open, enabled, ever_enabled;
	enum { EMU_MODE_NONE, EMU_MODE_CHILD, EMU_MODE_SELF } mode;
	size_t nev;
	const struct pmu__ev_state *st;
	struct emu_slot *slot;
	struct pmu_emu_context ctx;
	size_t nsets;                /* > 1: the emulator switches sets */
	unsigned *slot_set;          /* [event]: the set whose control holds
				        its slot */
	struct pmu_emu_context sctx[PMU_EMU_MAX_SETS];
	struct pmu_emu_switch sw[PMU_EMU_MAX_SETS];
	uint64_t t_enabled, t_mark;  /* CHILD: ns of the monotonic clock */
	struct emu_child *child;     /* CHILD: made by the command */
	bool raw;                    /* keep a profile's records */
	long id;                     /* SELF: the tool's context */
};

/* emu_drv.c */
int pmu__emu_driver_new(const char *model, const char *settings,
			struct pmu__drv **out, struct pmu_error *err);
/* i-mode overflow samples taken so far (oldest first, each returned
 * once); a negative errno when the driver is not an open emu driver. */
long pmu__emu_samples(struct pmu__drv *d, struct pmu_emu_rec_sample *out,
		      size_t max);
/* A profile of a CHILD target: keep the tool's records (samples, tasks,
 * maps) in order for pmu__emu_records(); before the open. */
int pmu__emu_keep_records(struct pmu__drv *d);
/* Whole records, oldest first, at most len bytes: the bytes moved. */
long pmu__emu_records(struct pmu__drv *d, void *out, size_t len);
/* The virtual counter of event i (bit i of a sample's mask), or -1. */
int pmu__emu_counter(const struct pmu__drv *d, size_t i);
/* Samples lost so far: past max-samples, or not kept. */
uint64_t pmu__emu_lost(struct pmu__drv *d);
/* What the emulator saw (kind totals), summed like the counts. */
int pmu__emu_kinds(struct pmu__drv *d, uint64_t kind[PMU_EMU_NKIND]);

/* emu_drv.c: d->ctx for ev[0..d->nev), d->slot filled. */
int pmu__emu_make_context(struct emu_drv *d, const struct pmu__ev *ev,
			  const struct pmu__place *place,
			  struct pmu__ev_state *st, struct pmu_error *err);

/* emu_sets.c: event sets the emulator switches (driver.h's open_sets):
 * every set's context and switch rule, d->slot for all events. */
int pmu__emu_sets_build(struct emu_drv *d, const struct pmu__ev *ev,
			size_t nev, const struct pmu__place *place,
			const struct pmu__drv_set *sets, size_t nsets,
			struct pmu__ev_state *st, struct pmu_error *err);
void pmu__emu_sets_config(const struct emu_drv *d, struct pmu_emu_config *cfg);
void pmu__emu_sets_value(const struct emu_drv *d, const struct emu_counts *k,
			 size_t i, struct pmu__count *c);
void pmu__emu_sets_add(struct emu_counts *c, const struct pmu_emu_rec_set *r);
/* Add every set's figures of c to `to`. */
void pmu__emu_sets_merge(struct emu_counts *to, const struct emu_counts *c);

/* emu_opts.c: settings; the model's or this host's caches first. */
int pmu__emu_settings(const struct pmu_hwmodel *m, bool model_given,
		      const char *text, struct emu_settings *s,
		      struct pmu_error *err);

/* emu_find.c: the command line that runs argv under the tool. */
int pmu__emu_command(struct emu_drv *d, char *const *argv, char ***out,
		     struct pmu_error *err);

/* emu_child.c */
int pmu__emu_child_new(struct emu_child **out, struct pmu_error *err);
const char *pmu__emu_child_dir(const struct emu_child *c);
int pmu__emu_child_start(struct emu_child *c, const struct pmu_emu_config *cfg,
			 struct pmu_error *err);
void pmu__emu_child_drain(struct emu_child *c);
void pmu__emu_child_counts(struct emu_child *c, struct emu_counts *out);
long pmu__emu_child_samples(struct emu_child *c,
			    struct pmu_emu_rec_sample *out, size_t max);
ssize_t pmu__emu_child_nmarks(struct emu_child *c);
int pmu__emu_child_mark(struct emu_child *c, size_t k, struct emu_counts *out);
void pmu__emu_child_free(struct emu_child *c);
void pmu__emu_child_keep_raw(struct emu_child *c);
long pmu__emu_child_records(struct emu_child *c, void *out, size_t len);

/* emu_self.c: the calling program, under the tool. */
int pmu__emu_self_open(struct emu_drv *d, struct pmu_error *err);
void pmu__emu_self_close(struct emu_drv *d);
int pmu__emu_self_op(struct emu_drv *d, unsigned req);
int pmu__emu_self_read(struct emu_drv *d, struct emu_counts *out);
long pmu__emu_self_samples(struct emu_drv *d, struct pmu_emu_rec_sample *out,
			   size_t max);

/* The driver's operations, for the registry (driver.c). */
extern const struct pmu__driver_ops pmu__emu_ops;

#endif
