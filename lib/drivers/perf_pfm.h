/* SPDX-License-Identifier: MIT */
#ifndef PMU_DRIVERS_PERF_PFM_H
#define PMU_DRIVERS_PERF_PFM_H

/*
 * perfmon2's PMU on the perf driver (drivers/pfm_hw.h): this machine's
 * general-purpose counters as a logical PMU built at run time from the
 * host's event-select layout (AMD family 17h and later: PERF_CTLn /
 * PERF_CTRn; Intel's architectural PMU: IA32_PERFEVTSELn / IA32_PMCn).
 * A PMC with EN set is a raw perf event on the context's target; its
 * PMD is the event's count plus an offset; a PMD that will wrap (a
 * value above 2^63, a sampling period 2^64 - v) while its PMC has INT
 * makes the event sample, and a monitor thread hands the overflows its
 * small ring announces to the engine as interrupts.
 *
 * perf_pfm_model.c: the host and its logical PMU; perf_pfm.c: the
 * registers as perf events; perf_pfm_mon.c: the monitor thread (rings,
 * overflows, the engine's timer).
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "drivers/perf_priv.h"
#include "drivers/perf_ring.h"
#include "drivers/pfm_hw.h"

/* General-purpose counters a logical PMU has at most. */
#define PMU__PERF_PFM_MAX 16

/* Event-select bits the backend acts on (AMD and Intel share them). */
#define PMU__PERF_PFM_USR (UINT64_C(1) << 16)
#define PMU__PERF_PFM_OS  (UINT64_C(1) << 17)
#define PMU__PERF_PFM_INT (UINT64_C(1) << 20)
#define PMU__PERF_PFM_EN  (UINT64_C(1) << 22)

enum pmu__perf_pfm_layout {
	PMU__PERF_PFM_NONE = 0,
	PMU__PERF_PFM_AMD,     /* PERF_CTLn 0xC0010200 + 2n, PERF_CTRn + 1 */
	PMU__PERF_PFM_INTEL,   /* IA32_PERFEVTSELn 0x186 + n, IA32_PMCn 0xC1 + n */
	PMU__PERF_PFM_ARMV8,   /* PMEVTYPERn_EL0 / PMEVCNTRn_EL0 (system
				  register encodings), EN and INT added */
};

/* The Armv8 PMU's logical PMC: PMEVTYPERn_EL0's fields (the event number,
 * P: not at EL1, U: not at EL0) and, in bits the register keeps RES0,
 * the counter's bits of PMCNTENSET_EL0 and PMINTENSET_EL1 at the places
 * EN and INT have above. */
#define PMU__PERF_PFM_ARM_EVENT UINT64_C(0xFFFF)
#define PMU__PERF_PFM_ARM_U     (UINT64_C(1) << 30)
#define PMU__PERF_PFM_ARM_P     (UINT64_C(1) << 31)

/* What the host offers (pmu__perf_pfm_host_detect, or a test's). */
struct pmu__perf_pfm_host {
	bool has_pmu;          /* perf has the core PMU "cpu" */
	bool hybrid;           /* ... as cpu_core and cpu_atom instead */
	bool arm;              /* an Armv8 PMU (armv8_pmuv3...) instead */
	bool virtualized;      /* for the message when there is none */
	enum pmu__perf_pfm_layout layout;
	unsigned nctrs;        /* general-purpose counters */
	unsigned version;      /* Intel: architectural perfmon version */
	char what[64];         /* the processor, for messages */
};

/* The logical PMU: a model the engine reads like the simulated ones. */
struct pmu__perf_pfm_model {
	struct pmu_hwmodel m;
	struct pmu_reg_desc pmcs[PMU__PERF_PFM_MAX];
	struct pmu_reg_desc pmds[PMU__PERF_PFM_MAX];
	char names[2][PMU__PERF_PFM_MAX][24];
	uint64_t cfg_mask;     /* selector bits that are attr.config's */
	bool amd;              /* Guest/HostOnly bits (41:40) */
	bool arm;              /* Armv8: P and U exclude, USR and OS absent */
};

void pmu__perf_pfm_host_detect(struct pmu__perf_pfm_host *h);
/* The logical PMU of host h; -ENODEV (no hardware PMU) or -EOPNOTSUPP
 * (a PMU whose event selects are not known here) with *err saying so. */
int pmu__perf_pfm_model(const struct pmu__perf_pfm_host *h,
			struct pmu__perf_pfm_model *pm,
			struct pmu_error *err);
/* Event select `sel` (reserved bits as the model forces them) as a raw
 * perf event: type, config, exclude_*; the rest of *a zeroed. */
void pmu__perf_pfm_attr(const struct pmu__perf_pfm_model *pm, uint64_t sel,
			struct perf_event_attr *a);
/* Tests: contexts on perf driver d see host *h instead of this one. */
int pmu__perf_pfm_set_host(struct pmu__drv *d,
			   const struct pmu__perf_pfm_host *h);

/* One counter: a PMC/PMD pair and the perf event behind it. */
struct perf_pfm_ctr {
	uint64_t sel;          /* the PMC as last written */
	uint64_t off;          /* PMD = count + off */
	uint64_t period;       /* the PMD will wrap after this many: 0 none */
	uint64_t last;         /* the last count read */
	int fd;                /* -1: not open */
	struct perf_event_attr attr;   /* as opened */
	bool on;               /* enabled */
	struct pmu__ring ring; /* sampling: overflow announcements */
	bool dead;             /* its descriptor hung up: not polled */
	bool failed;           /* a read failed (the monitor logs it once) */
	/* an overflow read from the ring, not yet handed to the engine */
	bool have;
	uint64_t ip;
	uint32_t pid, tid, cpu;
	uint64_t lost;         /* overflows the kernel lost, not handed yet */
};

struct perf_pfm_mon {
	pthread_t thr;
	bool on;
	pid_t owner;           /* the process that started it */
	int wake;              /* eventfd: look again */
	int timer;             /* timerfd at the engine's deadline */
	bool quit;
};

struct perf_pfm {
	struct pmu__pfm_hw hw;         /* first */
	struct pmu__perf *d;
	struct pmu__perf_pfm_model pm;
	struct pmu__pfm_hw_cb cb;
	int tid, cpu;                  /* perf_event_open's pid and cpu */
	bool attached;
	unsigned n;
	struct perf_pfm_ctr ctr[PMU__PERF_PFM_MAX];
	uint64_t irq_pmds;             /* what the engine lets interrupt */
	/* the first refusal of a caller's operation, for take_error */
	int err;
	enum pmu_error_kind err_kind;
	char err_tok[16];
	char err_msg[256];
	/* the overflow being handed to the engine */
	bool in_irq, served;
	uint64_t cur_ip;
	uint32_t cur_pid, cur_tid, cur_cpu;
	bool in_monitor;               /* ops called from the monitor */
	uint64_t lost;                 /* overflows the kernel lost, total */
	struct perf_pfm_mon mon;
};

/* The driver ops pfm_hw and pfm_put, and the driver's destroy. */
struct pmu__pfm_hw *pmu__perf_pfm_hw(struct pmu__drv *d,
				     struct pmu_error *err);
void pmu__perf_pfm_put(struct pmu__drv *d);

/* perf_pfm_mon.c */
int pmu__perf_pfm_mon_start(struct perf_pfm *p);
void pmu__perf_pfm_mon_stop(struct perf_pfm *p);
void pmu__perf_pfm_mon_kick(struct perf_pfm *p);
void pmu__perf_pfm_mon_fini(struct perf_pfm *p);
/* pfm_hw's pending: the counters whose rings announced an overflow. */
void pmu__perf_pfm_pending(struct pmu__pfm_hw *h, const uint64_t *watch,
			   const uint64_t *emul, unsigned width, uint64_t *bv);

#endif
