/* SPDX-License-Identifier: MIT */
#ifndef PMU_PROTO_EMU_H
#define PMU_PROTO_EMU_H

/*
 * The protocol between the emu driver (in libpmu) and the emulator (the
 * Valgrind tool in emu/, which runs the simulated PMU next to the
 * program).  docs/emulation.md describes it for readers; this header is
 * its definition.  Freestanding: the tool includes it too.
 *
 * Who does what: the session places events on the emulated model's
 * counters and the driver turns the placement into a perfctr control,
 * checks it on a local copy of the simulated PMU, and ships it with the
 * feed rules below; the tool runs the counters (lib/sim and perfctr's
 * low-level driver, the same code), feeds them what the program does,
 * and reports counts and samples.
 *
 * Two ways to reach a tool:
 *  - a command run under the emulator (CHILD targets): the driver writes
 *    a config file (struct pmu_emu_config) into a private directory and
 *    creates a FIFO there; the tool reads the file at start-up
 *    (--pmu-dir=DIR) and writes records (struct pmu_emu_rec) to the FIFO:
 *    count deltas at exec, at exit and every report_ms, and samples;
 *  - the program itself (SELF targets, and the region markers of
 *    <pmu/emu.h>): Valgrind client requests, PMU_EMU_REQ_*, each acting
 *    at once on a counter context of the calling process.
 */

#include <stdint.h>

#include "hwmodel/control.h"

#define PMU_EMU_MAGIC    0x45554d50u /* "PMUE" */
#define PMU_EMU_VERSION  3u

/* What the emulator observes, as cumulative counts per process.  The
 * first group is exact (cachegrind's own definitions where it has one);
 * the others come from the documented models (docs/emulation.md). */
enum pmu_emu_kind {
	PMU_EMU_K_INSTR = 0,     /* instructions retired (cachegrind Ir) */
	PMU_EMU_K_LOAD,          /* data reads, read-modify-writes (Dr) */
	PMU_EMU_K_STORE,         /* data writes (Dw) */
	PMU_EMU_K_BR,            /* branch instructions of every kind */
	PMU_EMU_K_BR_COND,       /* conditional control transfers (Bc) */
	PMU_EMU_K_BR_IND,        /* indirect jumps and calls (Bi) */
	PMU_EMU_K_BR_CALL,       /* calls, direct and indirect */
	PMU_EMU_K_BR_ICALL,      /* indirect calls (part of BR_IND) */
	PMU_EMU_K_BR_RET,        /* returns */
	PMU_EMU_K_BR_TAKEN,      /* branches that changed the flow */
	PMU_EMU_K_SYSCALL,       /* system calls (privilege transitions) */
	/* cache model */
	PMU_EMU_K_I1_MISS,       /* I1mr */
	PMU_EMU_K_D1_RMISS,      /* D1mr */
	PMU_EMU_K_D1_WMISS,      /* D1mw */
	PMU_EMU_K_LL_IMISS,      /* ILmr */
	PMU_EMU_K_LL_RMISS,      /* DLmr */
	PMU_EMU_K_LL_WMISS,      /* DLmw */
	/* branch predictor */
	PMU_EMU_K_BR_MISP,       /* mispredicted branches of every kind */
	PMU_EMU_K_COND_MISP,     /* mispredicted conditional (Bcm) */
	PMU_EMU_K_IND_MISP,      /* mispredicted indirect (Bim) */
	PMU_EMU_K_RET_MISP,      /* returns the return stack got wrong */
	PMU_EMU_K_TAKEN_MISP,    /* mispredicted branches that were taken */
	PMU_EMU_K_RAS_OVERFLOW,  /* calls that pushed the oldest entry out */
	/* cost model */
	PMU_EMU_K_CYCLES,        /* user-mode cycles, for models whose cycle
				    event is not one the simulator counts
				    cycles with */
	PMU_EMU_NKIND,
	PMU_EMU_K_NONE = 0xff,
};

/* Kinds 0..PMU_EMU_K_SYSCALL need no model; the others need the caches
 * (I1_MISS..LL_WMISS) or the branch predictor (BR_MISP..). */
#define PMU_EMU_FIRST_CACHE_KIND  PMU_EMU_K_I1_MISS
#define PMU_EMU_FIRST_BPRED_KIND  PMU_EMU_K_BR_MISP

/*
 * A feed rule: every (kind - minus) occurrence is one event `key` with
 * unit mask `umask` (0: none) on the simulated PMU (pmu__sim_advance).
 * minus subtracts a finer kind (an L1 miss that did not miss in the LL
 * is D1_RMISS - LL_RMISS).
 */
struct pmu_emu_rule {
	uint8_t kind;
	uint8_t minus;           /* PMU_EMU_K_NONE or a kind */
	uint16_t pad;
	uint32_t key;
	uint32_t umask;
};

#define PMU_EMU_MAX_RULES 48

struct pmu_emu_cache_geom {
	uint32_t size, assoc, line;   /* bytes, ways, bytes */
};

enum pmu_emu_predictor {
	PMU_EMU_BP_GSHARE = 0,
	PMU_EMU_BP_BIMODAL = 1,
};

/* The cost model: cycles = base per instruction + penalties. */
struct pmu_emu_costs {
	uint32_t instr;          /* per instruction retired */
	uint32_t l1_miss;        /* per L1 (I or D) miss that hits the LL */
	uint32_t ll_miss;        /* per LL miss, on top of l1_miss */
	uint32_t mispredict;     /* per mispredicted branch */
	uint32_t syscall;        /* per system call, counted in kernel mode */
};

#define PMU_EMU_CFG_REGIONS   0x1u  /* start suspended: the markers count */
#define PMU_EMU_CFG_CYCLES    0x2u  /* feed cycles (a counter or the TSC
				       counts them): every model runs */

/* The counter context of one process (SELF) or of the whole command. */
struct pmu_emu_context {
	char model[32];          /* simulated model ('pmu info --list-models') */
	struct pmu_control control;  /* perfctr control; i-mode counters
					(nrictrs) deliver samples */
	uint32_t nrules;
	uint32_t flags;          /* PMU_EMU_CFG_* */
	struct pmu_emu_rule rules[PMU_EMU_MAX_RULES];
};

/*
 * Event sets: contexts of one process, exactly one counting at a time.
 * A set's turn ends after `count` overflows of its virtual counter
 * `ovfl_ctr` (an i-mode counter of its control, reloaded from its
 * ireset: -period); the next set, round robin, counts from the
 * instruction after the one that overflowed.  A set's duration is the
 * guest instructions it counted.
 */
#define PMU_EMU_MAX_SETS 4

struct pmu_emu_switch {
	uint32_t ovfl_ctr;
	uint32_t count;
};

struct pmu_emu_config {
	uint32_t magic, version, size;   /* size: sizeof(this struct) */
	uint32_t report_ms;      /* 0: report at exec and exit only */
	struct pmu_emu_cache_geom i1, d1, ll;
	uint32_t predictor;      /* enum pmu_emu_predictor */
	struct pmu_emu_costs costs;
	uint32_t max_samples;    /* per process; 0: no limit */
	struct pmu_emu_context ctx;
	uint64_t report_insns;   /* also a record every that many guest
				    instructions (why INSNS); 0: none */
	uint32_t nsets;          /* 0: no sets; else ctx is set 0 and
				    set_ctx[k - 1] set k */
	uint32_t pad;
	struct pmu_emu_switch sw[PMU_EMU_MAX_SETS];
	struct pmu_emu_context set_ctx[PMU_EMU_MAX_SETS - 1];
};

/* ---- records on the FIFO: tool -> driver ---- */

enum pmu_emu_rec_type {
	PMU_EMU_REC_COUNTS = 1,  /* deltas since the process's last record */
	PMU_EMU_REC_SAMPLE = 2,  /* one i-mode overflow */
	PMU_EMU_REC_ERROR = 3,   /* the tool could not run: text says why */
	PMU_EMU_REC_SET = 4,     /* one event set's deltas, before the
				    COUNTS record they go with */
	/* only from a context that samples (nrictrs > 0): what a profile
	 * needs to name the code of its samples, in the process's order
	 * with its samples */
	PMU_EMU_REC_TASK = 5,    /* a process starts (an image, a fork) */
	PMU_EMU_REC_MMAP = 6,    /* the process maps a file executable */
};

/* Records are at most this long (PIPE_BUF on Linux): each arrives whole. */
#define PMU_EMU_REC_MAX 4096u

enum pmu_emu_why {
	PMU_EMU_WHY_TICK = 1,    /* report_ms elapsed */
	PMU_EMU_WHY_EXEC = 2,    /* before an execve: a new image follows */
	PMU_EMU_WHY_EXIT = 3,    /* the process ends */
	PMU_EMU_WHY_INSNS = 4,   /* report_insns more instructions ran */
};

struct pmu_emu_rec_hdr {
	uint32_t type;
	uint32_t size;           /* whole record, header included */
	int32_t pid, tid;
};

struct pmu_emu_rec_counts {
	struct pmu_emu_rec_hdr h;
	uint32_t why;
	uint32_t nctrs;          /* virtual counters of the control */
	uint64_t tsc;            /* time-stamp counter sum */
	uint64_t sum[PMU_MAX_CTRS];   /* per virtual counter */
	uint64_t kind[PMU_EMU_NKIND]; /* what the emulator saw */
	uint64_t samples_lost;   /* past max_samples */
};

/* Deltas since the process's previous record.  Rates are per completed
 * turn (a switch-out): count / instructions, per virtual counter. */
struct pmu_emu_rec_set {
	struct pmu_emu_rec_hdr h;
	uint32_t set;
	uint32_t nctrs;
	uint64_t runs;           /* turns begun */
	uint64_t duration;       /* guest instructions counted */
	uint64_t nrates;         /* completed turns */
	uint64_t sum[PMU_MAX_CTRS];
	double rsum[PMU_MAX_CTRS], rsq[PMU_MAX_CTRS];
};

#define PMU_EMU_NGPR 16

/* An i-mode overflow: the instruction that made the counter overflow,
 * its address exactly, the general registers after it executed (rax
 * rbx rcx rdx rsi rdi rbp rsp r8..r15, the order of the PEBS record),
 * and its first data address (0 when it has none). */
struct pmu_emu_rec_sample {
	struct pmu_emu_rec_hdr h;
	uint32_t mask;           /* virtual counters that overflowed (bit
				    i: counter i of the control) */
	uint32_t flags;          /* 0 */
	uint64_t ip;
	uint64_t data_addr;
	uint64_t gpr[PMU_EMU_NGPR];
	uint64_t icount;         /* instructions retired by the process */
};

enum pmu_emu_task {
	PMU_EMU_TASK_START = 1,  /* an image starts: the command, or a
				    process after its execve */
	PMU_EMU_TASK_FORK = 2,   /* a forked child, before its first
				    instruction */
};

/* icount in the records below is the process's instruction count when
 * it happened, as in samples: a fork's child continues its parent's, an
 * image starts again from 0. */
struct pmu_emu_rec_task {
	struct pmu_emu_rec_hdr h;
	uint32_t why;            /* enum pmu_emu_task */
	int32_t ppid;            /* FORK: the parent */
	uint64_t icount;
	char comm[16];           /* START: the program's name, as the
				    kernel's comm (15 bytes and a NUL) */
};

struct pmu_emu_rec_mmap {
	struct pmu_emu_rec_hdr h;
	uint64_t addr, len, pgoff;
	uint64_t icount;
	uint32_t prot;           /* PROT_* */
	uint32_t pad;
	char name[];             /* the file, NUL-terminated; the record
				    is padded to 8 bytes */
};

struct pmu_emu_rec_error {
	struct pmu_emu_rec_hdr h;
	char text[240];
};

/* ---- client requests: program -> tool (<pmu/emu.h> issues them) ---- */

/* Valgrind's tool request base for the two letters 'P', 'M'. */
#define PMU_EMU_REQ_BASE   (((uint32_t)'P' << 24) | ((uint32_t)'M' << 16))
enum pmu_emu_req {
	PMU_EMU_REQ_START = PMU_EMU_REQ_BASE + 1, /* region marker: resume */
	PMU_EMU_REQ_STOP,        /* region marker: suspend */
	PMU_EMU_REQ_PROBE,       /* returns PMU_EMU_MAGIC under the tool */
	PMU_EMU_REQ_OPEN,        /* (struct pmu_emu_open *) -> context id
				    or a negative errno */
	PMU_EMU_REQ_CLOSE,       /* (id) */
	PMU_EMU_REQ_ENABLE,      /* (id) */
	PMU_EMU_REQ_DISABLE,     /* (id) */
	PMU_EMU_REQ_RESET,       /* (id) */
	PMU_EMU_REQ_READ,        /* (id, struct pmu_emu_read *) */
	PMU_EMU_REQ_SAMPLES,     /* (id, struct pmu_emu_rec_sample *, max)
				    -> number copied, oldest first */
};

/* What OPEN passes: a context and the geometry the process already runs
 * with is kept (one cache and predictor per process). */
struct pmu_emu_open {
	uint32_t magic, size;    /* PMU_EMU_MAGIC, sizeof(this struct) */
	struct pmu_emu_context ctx;
};

struct pmu_emu_read {
	uint32_t size;           /* sizeof(this struct) */
	uint32_t nctrs;
	uint64_t tsc;            /* TSC sum */
	uint64_t cycles;         /* simulated cycles while enabled */
	uint64_t sum[PMU_MAX_CTRS];
	uint64_t kind[PMU_EMU_NKIND];
	uint64_t samples;        /* overflow samples kept so far */
	uint64_t irqs;           /* overflow interrupts handled */
};

#endif
