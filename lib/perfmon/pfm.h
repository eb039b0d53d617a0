/* SPDX-License-Identifier: MIT */
#ifndef PMU_SESSION_PFM_H
#define PMU_SESSION_PFM_H

/*
 * perfmon2's monitoring contexts (seed-semantics 2.1-2.6): what its
 * kernel held, over a PMU that a driver exposes as numbered registers
 * (drivers/pfm_hw.h).  The logical PMU is the model's pmu_desc; a
 * context holds event sets (sorted by id, one active), 64-bit virtual
 * PMDs over the hardware's counter width, the overflow algorithm, a
 * sampling format and its buffer, and a message queue that is the
 * read end of a pipe (so poll, read and SIGIO work on the descriptor
 * itself).  pmu/perfmon.h is the call interface (perfmon.c).
 *
 * Every engine function runs under the one context lock (pfm_ctx.c).
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <pmu/error.h>
/* the library calls the system's mmap and close by their names */
#define PMU_PERFMON_NO_REDIRECT
#include <pmu/perfmon.h>

#include "drivers/driver.h"
#include "drivers/pfm_hw.h"
#include "hwmodel/model.h"

#define PFM_BV PMU__PFM_BV
/* Words a PMD bit vector can use: no model has more than 64 PMDs, so
 * the engine's loops look at these only (user bit vectors are checked
 * against the implemented PMDs, all of them, first). */
#define PFM_BVU ((PMU_MODEL_MAX_PMDS + 63) / 64)
#define PFM_MSGQ 8               /* messages queued before masking */

enum pfm_state {
	PFM_CTX_UNLOADED = 1,
	PFM_CTX_LOADED = 2,
	PFM_CTX_MASKED = 3,
	PFM_CTX_ZOMBIE = 4,
};

/* Controls a format's handler returns (and the overflow path uses). */
#define PFM_OVFL_NOTIFY 0x1u
#define PFM_OVFL_RESET  0x2u
#define PFM_OVFL_MASK   0x4u
#define PFM_OVFL_SWITCH 0x8u

static inline bool bv_test(const uint64_t *bv, unsigned i)
{
	return bv[i / 64] >> (i % 64) & 1;
}

static inline void bv_set(uint64_t *bv, unsigned i)
{
	bv[i / 64] |= UINT64_C(1) << (i % 64);
}

static inline void bv_clear(uint64_t *bv, unsigned i)
{
	bv[i / 64] &= ~(UINT64_C(1) << (i % 64));
}

static inline bool bv_empty(const uint64_t *bv)
{
	for (unsigned w = 0; w < PFM_BVU; w++)
		if (bv[w])
			return false;
	return true;
}

/* Is a a subset of b? */
static inline bool bv_subset(const uint64_t *a, const uint64_t *b)
{
	for (unsigned w = 0; w < PFM_BV; w++)
		if (a[w] & ~b[w])
			return false;
	return true;
}

static inline void bv_or(uint64_t *a, const uint64_t *b)
{
	for (unsigned w = 0; w < PFM_BVU; w++)
		a[w] |= b[w];
}

struct pfm_pmd {
	uint64_t value;          /* 64-bit; while the set is on the
				    hardware only the bits above the
				    counter's mask are current */
	uint64_t lval;           /* last reset value */
	uint64_t long_reset, short_reset, random_mask, eventid;
	uint64_t smpl_pmds[PFM_BV], reset_pmds[PFM_BV];
	uint64_t ovflsw_ref, ovflsw_thres;
	uint64_t hwlast;         /* models without interrupt: last seen */
	uint64_t accum;          /* counted before the last reset */
	uint64_t run_start;      /* counted when the set went on */
	double rsum, rsq;        /* per run: sum and sum of squares of
				    its rate (counts per ns) */
	uint64_t nrates;         /* runs in them */
	uint32_t flags;          /* PFM_REGFL_* */
};

struct pfm_set {
	uint16_t id;
	uint32_t flags;          /* PFM_SETFL_* */
	uint64_t timeout;        /* ns */
	uint64_t timeout_left;   /* ns of the turn left when switched out */
	uint64_t pmcs[PMU_MODEL_MAX_PMCS];
	uint64_t nemul_pmcs[PFM_BV];   /* written with NO_EMUL64 */
	struct pfm_pmd pmds[PMU_MODEL_MAX_PMDS];
	uint64_t used_pmcs[PFM_BV], used_pmds[PFM_BV];
	uint64_t ovfl_pmds[PFM_BV];  /* the last 64-bit overflows */
	uint64_t povfl_pmds[PFM_BV]; /* hardware overflows not handled */
	uint64_t reset_pmds[PFM_BV]; /* resets not done yet */
	/* derived from the above (pmu__pfm_refresh) */
	uint64_t emul_pmds[PFM_BV];  /* counters emulated to 64 bits */
	uint64_t watch_pmds[PFM_BV]; /* used PMDs whose overflows count */
	uint64_t runs, duration, duration_start;
};

/* Iterate over the set bits i of PMD bit vector bv. */
#define BV_FOR_EACH(i, bv) \
	for (unsigned i##_w_ = 0; i##_w_ < PFM_BVU; i##_w_++) \
		for (uint64_t i##_b_ = (bv)[i##_w_]; i##_b_ && \
		     ((i) = i##_w_ * 64 + (unsigned)__builtin_ctzll(i##_b_), 1); \
		     i##_b_ &= i##_b_ - 1)

struct pfm_ctx;

/* What the handler of a format gets for one 64-bit overflow. */
struct pfm_ovfl_arg {
	unsigned pmd;
	uint16_t set;
	uint64_t last_reset;
	uint64_t eventid;
	unsigned nsmpl;
	uint64_t smpl[PMU_MODEL_MAX_PMDS]; /* values of its smpl_pmds */
	uint64_t ip, tstamp;
	uint32_t tid, pid;
	uint16_t cpu;
};

/* A sampling format (seed-semantics 2.6). */
struct pfm_fmt {
	const char *name;
	uint32_t version;
	size_t arg_size;
	/* 0 or -EINVAL for an argument it refuses (*err says why) */
	int (*validate)(const struct pfm_ctx *c, int flags, unsigned npmds,
			const void *arg, struct pmu_error *err);
	size_t (*getsize)(int flags, const void *arg);
	int (*init)(struct pfm_ctx *c, int flags, unsigned npmds,
		    const void *arg, struct pmu_error *err);
	/* one 64-bit overflow: returns PFM_OVFL_* controls */
	unsigned (*handler)(struct pfm_ctx *c, const struct pfm_ovfl_arg *a);
	/* restart: returns controls (RESET; MASK to stay masked) */
	unsigned (*restart)(struct pfm_ctx *c);
};

const struct pfm_fmt *pmu__pfm_fmt_find(const char *name);
/* Not found by name: resets every overflowed PMD and records nothing,
 * so a session's overflow-switched sets neither mask nor saturate. */
extern const struct pfm_fmt pmu__pfm_fmt_turns;
/* Names of the formats, for messages: "default, ibs, ..." */
const char *pmu__pfm_fmt_names(void);

struct pfm_ctx {
	int fd;                  /* the caller's descriptor (pipe read end) */
	int wfd;                 /* its write end: the message queue */
	dev_t dev;               /* the pipe, to know the descriptor again */
	ino_t ino;
	int flags;               /* PFM_FL_* */
	enum pfm_state state;
	struct pmu__drv *drv;
	bool own_drv;            /* else borrowed: given back (pfm_put) */
	struct pmu__pfm_hw *hw;
	const struct pmu_hwmodel *m;
	unsigned npmcs, npmds;
	unsigned width;          /* emulated counter width */
	uint64_t ovfl_mask;      /* 2^width - 1 */
	uint64_t wmask;          /* 2^ctr_width - 1 */
	bool irq_model;          /* counters interrupt on overflow */
	uint64_t impl_pmcs[PFM_BV], impl_pmds[PFM_BV];
	uint64_t cnt_pmds[PFM_BV];   /* counter PMDs */
	uint64_t intr_pmds[PFM_BV];  /* PMDs that may interrupt */
	uint64_t wr_pmds[PFM_BV];    /* writable PMDs */
	int pmd_of_pmc[PMU_MODEL_MAX_PMCS]; /* the counter a PMC alone
					       controls, -1 */
	struct pfm_set *sets;    /* sorted by id */
	size_t nsets;
	size_t active;           /* index into sets */
	bool started;            /* PFM_ST_START seen, no STOP since */
	bool on_hw;              /* the active set's PMDs are in hardware */
	bool deferred_switch;    /* a switch waits for restart */
	bool in_irq;
	uint64_t deadline;       /* absolute ns of the set's switch, or 0 */
	/* target */
	bool self;
	pid_t tid, pid;          /* the monitored thread and its process */
	int cpu;                 /* system-wide: the CPU */
	pid_t owner_tid, owner_pid;
	/* sampling */
	const struct pfm_fmt *fmt;
	void *buf;               /* the engine's mapping of the buffer */
	size_t buf_size;
	int buf_fd;              /* memfd behind it (callers map it) */
	/* notification */
	unsigned can_restart;
	uint64_t msgs_lost;      /* notifications that found the queue full */
	uint64_t spurious;       /* interrupts while masked or stopped */
	uint64_t rand;           /* random reset generator state */
	/* the monitored thread's end */
	pthread_t watcher;
	bool watching;
	int stop_pipe[2];
	/* blocking notification (pfm_block.c): the monitored thread, as
	 * it feeds the simulated PMU, waits in the interrupt for a restart */
	pthread_cond_t wake;     /* restart, detach, close: look again */
	unsigned feeders;        /* feeds running (one, or one waiting) */
	bool feeding_self;       /* the monitored thread is feeding */
	bool block;              /* a notification stops it until restart */
	bool cancelled;          /* its wait ended by a detach or close */
	bool dead;               /* destroyed during a feed: freed after it */
	uint64_t gen;            /* attaches and detaches so far */
	void (*on_end)(struct pfm_ctx *c); /* the watcher saw the
					      monitored thread end */
};

/* ---- pfm_core.c: the engine's lock, the registry of contexts ---- */

void pmu__pfm_lock(void);
void pmu__pfm_unlock(void);
/* The lock if it is free (a PMU's own thread, which must never wait for
 * it: the engine stops that thread while holding it). */
bool pmu__pfm_trylock(void);
/* Wait on cv with the context lock (a blocked feeder). */
void pmu__pfm_wait(pthread_cond_t *cv);
/* The context of descriptor fd (locked by the caller), NULL with
 * EBADF in *err if there is none. */
struct pfm_ctx *pmu__pfm_get(int fd, struct pmu_error *err);
/* A context into the registry (-ENOMEM), and out of it. */
int pmu__pfm_register(struct pfm_ctx *c);
void pmu__pfm_unregister(struct pfm_ctx *c);

/* ---- pfm_free.c: a context's end ---- */

/* Free c (out of the registry, its watcher stopped), or mark it dead
 * while a feed still runs on its PMU. */
void pmu__pfm_destroy(struct pfm_ctx *c);
/* Free a context whose feed has ended after it was destroyed. */
void pmu__pfm_reap(struct pfm_ctx *c);

/* ---- pfm_ctx.c: contexts and their descriptors ---- */

/* A context on a session's driver (borrowed), with format `fmt` given
 * by pointer (argsz its argument's size), locked by the caller. */
int pmu__pfm_create_on(struct pmu__drv *drv, int flags,
		       const struct pfm_fmt *fmt, const void *arg,
		       size_t argsz, struct pmu_error *err);
/* A context on simulated `model` (NULL: the pmu_perfmon_use choice). */
int pmu__pfm_create(int flags, pfarg_sinfo_t *sif, const char *fmt,
		    const void *arg, size_t argsz, const char *model,
		    struct pmu_error *err);
int pmu__pfm_attach(struct pfm_ctx *c, int target, struct pmu_error *err);
int pmu__pfm_set_state(struct pfm_ctx *c, int state, struct pmu_error *err);
int pmu__pfm_close(int fd);
void *pmu__pfm_mmap(struct pfm_ctx *c, void *addr, size_t len, int prot,
		    int flags, off_t off, struct pmu_error *err);
/* Detached-only commands and the ptrace rule for another thread. */
int pmu__pfm_check(struct pfm_ctx *c, bool detached_only,
		   struct pmu_error *err);
int pmu__pfm_use(const char *driver, const char *model,
		 struct pmu_error *err);
/* Does the engine feed the PMU the monitored program (simulated), or
 * does the program run by itself (a PMU told its target)? */
static inline bool pmu__pfm_fed(const struct pfm_ctx *c)
{
	return !c->hw->ops->target;
}

/* What the PMU refused of what the engine programmed since the last
 * look (a kernel's PMU may refuse an event): 0 or its negative errno,
 * *err naming the register. */
static inline int pmu__pfm_hw_error(struct pfm_ctx *c, struct pmu_error *err)
{
	return c->hw->ops->take_error ? c->hw->ops->take_error(c->hw, err)
				      : 0;
}

/* Tell the PMU what the context monitors (attach, detach). */
static inline void pmu__pfm_hw_target(struct pfm_ctx *c, int tid, int cpu)
{
	if (c->hw->ops->target)
		c->hw->ops->target(c->hw, tid, cpu);
}

/* ---- pfm_regs.c: registers ---- */

int pmu__pfm_write_pmcs(struct pfm_ctx *c, const pfarg_pmr_t *r, size_t n,
			struct pmu_error *err);
int pmu__pfm_write_pmds(struct pfm_ctx *c, const pfarg_pmd_attr_t *r,
			size_t n, bool attr, struct pmu_error *err);
int pmu__pfm_read_pmds(struct pfm_ctx *c, pfarg_pmd_attr_t *r, size_t n,
		       bool attr, struct pmu_error *err);
int pmu__pfm_read_pmcs(struct pfm_ctx *c, pfarg_pmr_t *r, size_t n,
		       struct pmu_error *err);
struct pfm_set *pmu__pfm_find_set(struct pfm_ctx *c, unsigned id);
/* Recompute a set's derived bit vectors after its registers changed. */
void pmu__pfm_refresh(const struct pfm_ctx *c, struct pfm_set *s);
/* Is PMD i of set s emulated to 64 bits by overflow interrupts? */
static inline bool pmu__pfm_emulated(const struct pfm_ctx *c,
				     const struct pfm_set *s, unsigned i)
{
	(void)c;
	return bv_test(s->emul_pmds, i);
}
/* The 64-bit value of PMD i of set s, wherever it lives: an emulated
 * counter of the set on the hardware (the sampling path) inline. */
uint64_t pmu__pfm_pmd_value_slow(struct pfm_ctx *c, struct pfm_set *s,
				 unsigned i);
static inline uint64_t pmu__pfm_pmd_value(struct pfm_ctx *c,
					  struct pfm_set *s, unsigned i)
{
	if (c->on_hw && s == &c->sets[c->active] && bv_test(s->emul_pmds, i))
		return (s->pmds[i].value & ~c->ovfl_mask) |
		       (c->hw->ops->read_pmd(c->hw, i) & c->ovfl_mask);
	return pmu__pfm_pmd_value_slow(c, s, i);
}
/* Write PMD i of the active set's 64-bit value to the hardware. */
void pmu__pfm_hw_write_pmd(struct pfm_ctx *c, struct pfm_set *s, unsigned i);

/* What PMDs pmds[0..n) of set `set` of context fd counted since they
 * were written, resets included (the sessions' sets read this). */
int pmu__pfm_counts(int fd, unsigned set, const unsigned *pmds, size_t n,
		    uint64_t *out);
/* And one standard error of each count scaled from the set's time to
 * `total` ns: (total - the set's duration) times the standard error of
 * the mean of its per-run rates; 0 with fewer than two runs. */
int pmu__pfm_count_errs(int fd, unsigned set, const unsigned *pmds,
			size_t n, uint64_t total, uint64_t *out);
/* What PMD i of set s counted since written (resets included). */
uint64_t pmu__pfm_count(struct pfm_ctx *c, struct pfm_set *s, unsigned i);

/* ---- pfm_sets.c: sets, their registers, activation ---- */

int pmu__pfm_create_sets(struct pfm_ctx *c, const pfarg_set_desc_t *d,
			 size_t n, struct pmu_error *err);
int pmu__pfm_getinfo_sets(struct pfm_ctx *c, pfarg_set_info_t *s, size_t n,
			  struct pmu_error *err);
int pmu__pfm_init_sets(struct pfm_ctx *c);
/* The active set onto the hardware, counting (duration, timer), and
 * back into the set, stopped. */
void pmu__pfm_load(struct pfm_ctx *c);
void pmu__pfm_save(struct pfm_ctx *c);
/* OR the active set's hardware overflows into pend. */
void pmu__pfm_collect(struct pfm_ctx *c, uint64_t *pend);
/* Thresholds back at their reference (attach, activation). */
void pmu__pfm_activate(struct pfm_ctx *c);
void pmu__pfm_reload_thresholds(struct pfm_set *s);
/* A PMU whose time passes by itself learns that tick() will be due. */
void pmu__pfm_timer_armed(struct pfm_ctx *c);

/* ---- pfm_ovfl.c: overflows, resets, restart, and the set switches
 * they and the timer cause ---- */

void pmu__pfm_switch(struct pfm_ctx *c, bool long_reset);
/* Handle overflows of the active set recorded while it was away. */
void pmu__pfm_replay(struct pfm_ctx *c);
void pmu__pfm_tick(void *arg);
uint64_t pmu__pfm_deadline(void *arg);

void pmu__pfm_irq(void *arg, uint64_t ip);
/* Process pending hardware overflows `pend` of set s (the active one). */
void pmu__pfm_overflow(struct pfm_ctx *c, struct pfm_set *s,
		       const uint64_t *pend, uint64_t ip);
void pmu__pfm_reset_pmds(struct pfm_ctx *c, struct pfm_set *s,
			 const uint64_t *pmds, bool long_reset);
int pmu__pfm_restart(struct pfm_ctx *c, struct pmu_error *err);

/* ---- pfm_block.c: blocking notification ---- */

/* Run a piece of the monitored program (pmu_perfmon_feed). */
int pmu__pfm_feed(struct pfm_ctx *c, const char *text, size_t len,
		  struct pmu_error *err);
/* A notification was queued: in blocking mode the monitored thread, if
 * it is the one feeding, stops at the interrupt until a restart. */
void pmu__pfm_block_request(struct pfm_ctx *c);
/* End of an interrupt: wait there while a notification blocks. */
void pmu__pfm_block_wait(struct pfm_ctx *c);
/* A restart (which clears `block` first), detach or close: a waiting
 * feeder looks again. */
void pmu__pfm_block_wake(struct pfm_ctx *c);
/* Should the feed running on the context stop (its wait was ended by
 * a detach or close)? */
bool pmu__pfm_cancelled(void *arg);

/* ---- pfm_msg.c: messages and the monitored thread's end ---- */

int pmu__pfm_msg_init(struct pfm_ctx *c);
void pmu__pfm_msg_fini(struct pfm_ctx *c);
/* Queue a message; false when the queue already holds PFM_MSGQ. */
bool pmu__pfm_post(struct pfm_ctx *c, const pfarg_msg_t *m);
/* Watch the monitored thread: on_end runs (lock held) when it ends. */
int pmu__pfm_watch(struct pfm_ctx *c, void (*on_end)(struct pfm_ctx *c));
void pmu__pfm_unwatch(struct pfm_ctx *c);

#endif
