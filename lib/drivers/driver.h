/* SPDX-License-Identifier: MIT */
#ifndef PMU_DRIVERS_DRIVER_H
#define PMU_DRIVERS_DRIVER_H

/*
 * The driver interface: the one thing the session layer asks of a PMU,
 * whichever PMU it is.  A driver instance (struct pmu__drv) is one PMU:
 * the kernel's perf_event interface, or a simulated CPU.  The session
 * opens a list of events on it (groups contiguous), enables, disables,
 * resets and reads them, and closes them again; the same instance may be
 * opened again afterwards.
 *
 * Events arrive as struct pmu__ev, the driver-neutral object the event
 * layer produces: its perf attribute for drivers that speak perf, the
 * model's own register codes for drivers that program registers.  A
 * driver never parses event names and never changes the objects it is
 * given; what it adjusts (a precise level the kernel refuses, a default
 * it has to drop) it adjusts in its own copies.
 */

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <pmu/error.h>

/* ---- the event object ---- */

#define PMU__EV_MAX_CODES 4

#define PMU__EV_HW            0x1u /* needs a hardware PMU */
#define PMU__EV_PRECISE_MAX   0x2u /* :P: the highest precise level the
				      PMU takes; attr.precise_ip starts at
				      3 and a driver may lower it */
#define PMU__EV_SAMPLE_READ   0x4u /* :S: samples read the whole group */
#define PMU__EV_GUEST_DEFAULT 0x8u /* attr.exclude_guest is only perf's
				      default (no :G/:H): a PMU that
				      refuses it may count without it */
#define PMU__EV_NO_PERF       0x10u /* a register-level model's event
				       with no perf encoding: attr is
				       unset, only simulated PMUs count it */
/* Event sets (the session switches groups itself): */
#define PMU__EV_HELD          0x20u /* its group stays disabled until the
				       session enables it (group_ctl): not
				       enabled on exec */
#define PMU__EV_NOTIFY        0x40u /* overflows every attr.sample_period
				       are announced: notify_fds poll
				       readable, notify_consume counts them;
				       a group of one where the target is
				       inherited per task */
#define PMU__EV_LOST          0x100u /* its group reads PERF_FORMAT_LOST:
				       the samples the kernel could not
				       keep (op lost), which a ring's LOST
				       record announces only once it has
				       room again (Linux 6.0) */
#define PMU__EV_IBS           0x200u /* an AMD IBS set-up: codes[0] its
				       IbsFetchCtl/IbsOpCtl value, [1] its
				       perfmon2 PMC, [2] its control PMD,
				       [3] the PMDs from it (control, then
				       the data it samples); attr the perf
				       form (PMU ibs_fetch / ibs_op) */
#define PMU__EV_WEAK          0x400u /* :W: if the kernel refuses its group
				       as a whole, its events are opened
				       as groups of their own (perf's weak
				       group) */
#define PMU__EV_IMPLIED       0x800u /* added for a metric, not named by
				       the user: what cannot be counted on
				       the target is marked not supported
				       rather than failing the session */
#define PMU__EV_ONE_UNIT      0x80u /* opened on the first CPU or thread
				       of the target only (a wall clock
				       for a CPU target); a group of one */

/* perf's tool events: drivers open them as the software dummy they are
 * to the kernel; the session replaces the reading with its own. */
enum pmu__tool {
	PMU__TOOL_NONE = 0,
	PMU__TOOL_DURATION,    /* wall time counted, ns */
	PMU__TOOL_USER,        /* user CPU time of what was counted, ns */
	PMU__TOOL_SYSTEM,      /* system CPU time, ns */
};

struct pmu__ev {
	char *name;            /* canonical, as printed: "cycles:u" */
	int group;             /* group index; a group's events are
				  contiguous, its leader first */
	bool leader;
	char unit[16];         /* "msec" for the ns clocks, sysfs .unit */
	double scale;          /* raw * scale is in `unit` */
	uint32_t flags;        /* PMU__EV_* */
	uint8_t tool;          /* enum pmu__tool */
	char *cgroup;          /* count only in this cgroup (a directory
				  path), system-wide targets; NULL: any */
	char *cpus;            /* the CPUs its PMU counts on (an uncore
				  PMU's sysfs cpumask, "0" or "0,18": one
				  per package or die), NULL: any.  Counted
				  only on those CPUs of a system-wide
				  target (a group: its leader's), never
				  per task */
	uint32_t merge;        /* nonzero: one of the events one token
				  expanded to (a PMU's instances); the
				  events sharing it print as one sum */
	uint64_t period;       /* its own period= term: the sampling period
				  of a recording (perf's rule: before -c
				  and -F); 0 when none.  Counting leaves
				  it out, as perf stat does */
	char pmu[64];          /* the sysfs PMU of pmu/.../ ("uncore_cha_0"),
				  "" for other events */
	struct perf_event_attr attr; /* type, config*, exclude_*, precise_ip,
					pinned, exclusive, sample_type; a
					driver adds read_format, disabled,
					inherit, enable_on_exec */
	/* Set when a catalog model encoded the event ("p6::INST_RETIRED"):
	 * what a register-level driver needs to place and program it. */
	char model[32];        /* catalog model, "" when none */
	char *spec;            /* "model::EVENT[:UMASK...]", for placement */
	int ncodes;
	uint64_t codes[PMU__EV_MAX_CODES];
};

/* Where a register-level driver counts an event; the session computes
 * it (counter assignment is the event layer's job) and hands it to
 * drivers that name a catalog model. */
#define PMU__PLACE_NONE (-1)   /* not counted: the session explains why */
#define PMU__PLACE_TSC  (-2)   /* the model's time-stamp counter */
#define PMU__PLACE_FIXED 32    /* counter >= this: fixed counter n - 32 */

struct pmu__place {
	int counter;
	int ncodes;
	uint64_t codes[PMU__EV_MAX_CODES]; /* register values for this
					      counter (EVNTSEL, CCCR+ESCR..) */
	uint32_t escr_msr;     /* Pentium 4: the ESCR the counter uses */
};

/* What became of one event at open: err 0 when it counts, else the
 * negative errno and one line saying why.  An idle event was opened but
 * will not be scheduled (no counter is left for it); reason says why. */
struct pmu__ev_state {
	int err;
	bool idle;
	int user_only;         /* nonzero: the kernel refused kernel-mode
				  counting (the perf_event_paranoid
				  setting it holds, > 1): counted in user
				  space only, as perf falls back; the
				  owner names it NAME:u */
	char reason[192];
};

/* The driver registry (driver.c): the ops of the driver named name (NULL
 * or "": perf's), or NULL; and the names, "perf, sim, emu". */
struct pmu__driver_ops;
const struct pmu__driver_ops *pmu__driver_find(const char *name);

/* Mark an event not supported (-EOPNOTSUPP), with one line saying why. */
void pmu__ev_unsupported(struct pmu__ev_state *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Register-level PMUs (place_ctl.c): placed event pl into perfctr
 * control c, in the next slot, a-mode or (period != 0) i-mode with that
 * overflow period; false when pl is on no general counter or c is full.
 * And the PMC values the model's low-level driver writes for the n
 * placed events: perfctr's control applied to a scratch simulated CPU
 * and read back, or the XScale API's PMNC/EVTSEL (pmcs: the model's
 * nr_pmcs values, those not set left as they were).
 */
struct pmu_control;
struct pmu_hwmodel;
bool pmu__place_put(const struct pmu_hwmodel *m, const struct pmu__place *pl,
		    uint32_t period, struct pmu_control *c);
int pmu__place_pmcs(const struct pmu_hwmodel *m, const struct pmu__place *pl,
		    size_t n, uint64_t *pmcs, struct pmu_error *err);

/* The name an event falls back to when counted in user space only, as
 * perf names it: "cycles" -> "cycles:u", "cycles:pp" -> "cycles:ppu",
 * "cpu/event=1/" -> "cpu/event=1/u".  NULL when out of memory. */
char *pmu__ev_user_only_name(const char *name);
/* Make e an event counted in user space only: its name (as above) and
 * its attr; -ENOMEM, e unchanged, when out of memory. */
/* What an event asks for when it samples, over the recording's own
 * settings: its period= term (perf's rule: before -c and -F) and, for
 * :P, the most precise level (the driver steps down from it). */
void pmu__ev_sampling(const struct pmu__ev *e, struct perf_event_attr *a);
int pmu__ev_user_only(struct pmu__ev *e);

/* Say, once, that st[0..n) holds events counted in user space only
 * (a warning through the library's log), when it does. */
void pmu__user_only_said(const struct pmu__ev_state *st, size_t n);

/* How one event read (the values of the public enum pmu_event_status). */
enum pmu__count_status {
	PMU__COUNT_OK = 0,
	PMU__COUNT_UNSUPPORTED,  /* marked at open: err says why */
	PMU__COUNT_IDLE,         /* open but never on a counter */
};

/* One reading of one event, summed over every CPU or thread: what the
 * public struct pmu_value holds after its size, so a driver can write
 * straight into a caller's array. */
struct pmu__count {
	uint64_t raw;
	uint64_t enabled;      /* ns (simulated PMUs: cycles) enabled */
	uint64_t running;      /* of which on a counter */
	uint64_t scaled;       /* raw * enabled / running (pmu__scale) */
	enum pmu__count_status status;
	int err;               /* negative errno when UNSUPPORTED */
	uint64_t scaled_err;   /* drivers write 0: the session estimates it
				  (but those that switch sets themselves) */
};

/* One event set of a driver that switches sets itself (open_sets). */
struct pmu__drv_set {
	size_t first, n;       /* its events: ev[first .. first + n) */
	size_t dsg;            /* the event whose overflows end its turns:
				  one of its own or one past all the sets'
				  events, added for it */
	uint64_t period;       /* an overflow every `period` events */
	uint64_t count;        /* `count` overflows end a turn */
};

/* ---- targets ---- */

/* The same values as the public enum pmu_target_kind. */
enum pmu__target_kind {
	PMU__TARGET_SELF = 0,
	PMU__TARGET_PID,
	PMU__TARGET_TID,
	PMU__TARGET_CHILD,
	PMU__TARGET_CPUS,
};

struct pmu__target {
	enum pmu__target_kind kind;
	const pid_t *pids;     /* PID, TID, CHILD: npids >= 1 entries */
	size_t npids;
	const char *cpus;      /* CPUS: list, NULL = every online CPU */
	bool inherit;          /* follow children created after open */
	bool no_mmap_read;     /* never the perf mmap page */
	bool start_stopped;    /* CHILD: not at exec; enable starts it */
	bool skip_gone;        /* TID: a thread gone by the open is left
				  out (as PID's always are) */
	bool raw_width;        /* register-level drivers: let counters wrap
				  at their hardware width (no overflow
				  handler extends them to 64 bits) */
	bool per_cpu;          /* perf: open every thread or process once
				  per CPU (of `cpus`, NULL = every online
				  one): the kernel maps sampling rings of
				  inherited events only per CPU */
};

/* ---- what a simulated PMU is fed ---- */

enum pmu__feed_kind {
	PMU__FEED_STREAM = 1,  /* text, len: docs/stream-format.md */
	PMU__FEED_EVENT,       /* code, umask, n: n occurrences */
	PMU__FEED_CYCLES,      /* n clock cycles */
	PMU__FEED_IP,          /* n: program counter of what follows */
};

struct pmu__feed {
	enum pmu__feed_kind kind;
	const char *text;
	size_t len;
	uint32_t code, umask;
	uint64_t n;
	/* a stream's `region begin|end NAME` statements, NULL: none */
	int (*region)(void *arg, bool begin, const char *name);
	void *region_arg;
};

/* Counters of what the driver did to the PMU. */
struct pmu__drv_stats {
	uint64_t irqs;         /* overflow interrupts handled */
	uint64_t last_irq_ip;  /* program counter at the last one */
	uint64_t ctl_writes;   /* writes of the main control register
				  (XScale PMNC, P6 EVNTSEL0, ...) */
};

/* One of the units an open driver counts on: a CPU (system-wide) or a
 * thread, each of which can be read on its own. */
struct pmu__unit {
	int cpu;               /* -1: a thread */
	pid_t tid;             /* -1: a CPU; 0: the calling thread */
	pid_t owner;           /* the listed process or thread it came from */
	char comm[16];         /* the thread's name, "" when unknown */
};

/* ---- the ops table ---- */

struct pmu__drv;
struct pmu__ring;      /* drivers/perf_ring.h */

/* What a driver can do beyond the operations every driver has; the
 * session asks for these, never for a driver's name. */
#define PMU__DRV_CGROUP  0x1u  /* counts per cgroup (perf) */
#define PMU__DRV_HWMODEL 0x2u  /* counts a hardware model's PMU, named
				  at creation (sim, emu) */

/* Register address spaces of reg_read (the simulator's numbering). */
enum pmu__reg_space {
	PMU__REG_MSR = 0,      /* x86 rdmsr */
	PMU__REG_SPR = 1,      /* PowerPC mfspr */
	PMU__REG_CP14 = 2,     /* XScale mrc p14, addr = PMU_CP14(crn, crm) */
};

/*
 * A driver that produces the measured program's records itself (the emu
 * driver: samples, tasks and maps of a CHILD target, in the format of
 * proto/emu.h), for profiles.  keep() before the open asks for
 * them; take() moves whole records, oldest first, at most len bytes
 * (the bytes moved, or a negative errno); counter() is the virtual
 * counter of event i (bit i of a sample's mask), or -1; lost() the
 * samples lost so far.
 */
struct pmu__drv_stream {
	int (*keep)(struct pmu__drv *d);
	long (*take)(struct pmu__drv *d, void *out, size_t len);
	int (*counter)(const struct pmu__drv *d, size_t i);
	uint64_t (*lost)(struct pmu__drv *d);
};

/* The units an open driver counts on (every CPU or thread) and each
 * one's reading, as read gives it without the sum over units (perf).
 * Without: one unit, read. */
struct pmu__drv_units {
	size_t (*nunits)(const struct pmu__drv *d);
	int (*unit_info)(const struct pmu__drv *d, size_t u,
			 struct pmu__unit *out);
	int (*read_unit)(struct pmu__drv *d, size_t u, struct pmu__count *c,
			 size_t stride, size_t n);
};

/* The simulated processor (a hardware model, lib/hwmodel) the driver
 * counts on (sim, emu). */
struct pmu__drv_hwmodel {
	/* The catalog model events must be encoded for, and placed on
	 * counters of, before open (register-level drivers). */
	const char *(*catalog_model)(const struct pmu__drv *d);
	/* The simulated model's own name, for messages ("k8"). */
	const char *(*hwmodel_name)(const struct pmu__drv *d);
};

/* A simulated PMU's registers and program (sim). */
struct pmu__drv_regs {
	/* Drive a simulated PMU: what its "program" does next. */
	int (*feed)(struct pmu__drv *d, const struct pmu__feed *f,
		    struct pmu_error *err);
	int (*stats)(const struct pmu__drv *d, struct pmu__drv_stats *st);
	/* A register of the PMU by its address space (enum
	 * pmu_sim_reg_kind) and address. */
	int (*reg_read)(struct pmu__drv *d, unsigned space, uint32_t addr,
			uint64_t *val);
};

/* The PMU as perfmon2's numbered registers (perf, sim). */
struct pmu__drv_pfm {
	/* The PMU as perfmon2's numbered registers (drivers/pfm_hw.h),
	 * for the session layer's monitoring contexts; NULL with *err
	 * saying why if it cannot be had (events open through open(), no
	 * such PMU).  Once taken, open() is refused: the two are
	 * different owners of one PMU. */
	struct pmu__pfm_hw *(*pfm_hw)(struct pmu__drv *d,
				      struct pmu_error *err);
	/* Give back what pfm_hw took: the PMU at its reset state, open()
	 * allowed again. */
	void (*pfm_put)(struct pmu__drv *d);
};

/*
 * Event sets.  A driver with this table lets the session switch
 * between sets itself: each set's groups are opened HELD (disabled,
 * not enabled on exec), the session enables the active set's
 * groups and counts overflows of NOTIFY events to decide when to
 * switch.  `group` is the g-th group of the events given to open
 * (groups numbered in order, as the session numbers them).  These
 * ops may be called from another thread than open's, never two at
 * once (the session serialises them with its reads).
 */
struct pmu__drv_switching {
	/* Enable or disable one group on every CPU/thread: one ioctl per
	 * leader descriptor. */
	int (*group_ctl)(struct pmu__drv *d, size_t group, bool enable);
	/* Read one group (one read per CPU/thread) into c[first..] as read
	 * does: elements of the caller's array, `stride` bytes apart,
	 * indexed by event. */
	int (*read_group)(struct pmu__drv *d, size_t group,
			  struct pmu__count *c, size_t stride);
	/* The descriptors that poll readable when NOTIFY event `ev`
	 * overflowed: up to max into fds; returns how many, or a negative
	 * errno (-ENODEV: the event is not open). */
	ssize_t (*notify_fds)(struct pmu__drv *d, size_t ev, int *fds,
			      size_t max);
	/* Overflows of NOTIFY event `ev` announced since the last call
	 * (summed over CPUs/threads; lost announcements included);
	 * consumes them, so that its descriptors stop polling readable. */
	uint64_t (*notify_consume)(struct pmu__drv *d, size_t ev);
	/* Give NOTIFY event `ev` a new sample period, its current one
	 * restarting now. */
	int (*set_period)(struct pmu__drv *d, size_t ev, uint64_t period);
};

/* Sampling into ring buffers (perf). */
struct pmu__drv_buffer {
	/*
	 * Sampling buffers: after open, map one ring of `pages` data
	 * pages (a power of two) per CPU or thread and send every event
	 * of that CPU or thread into it.  *rings (owned by the driver,
	 * unmapped at close) and *nrings are set.  Events carry their
	 * sampling settings (sample_period or freq, sample_type,
	 * comm/mmap2/task...) in their attr.
	 */
	int (*map_buffer)(struct pmu__drv *d, size_t pages,
			  struct pmu__ring **rings, size_t *nrings,
			  struct pmu_error *err);
	/* The kernel's ids of event i (one per CPU or thread where it is
	 * open), as samples carry them in PERF_SAMPLE_ID/IDENTIFIER. */
	int (*event_ids)(struct pmu__drv *d, size_t i, uint64_t *ids,
			 size_t max, size_t *n);
	/* (perf) Samples of PMU__EV_LOST event i the kernel could not
	 * keep, summed over CPUs and threads: one read per unit. */
	int (*lost)(struct pmu__drv *d, size_t i, uint64_t *n);
};

/* The measured command run as the driver's guest (emu). */
struct pmu__drv_guest {
	/* The command line that a CHILD target must exec to be counted
	 * (*out: one allocation, freed with free()): argv under the
	 * emulator; a driver without the table execs argv itself. */
	int (*command)(struct pmu__drv *d, char *const *argv, char ***out,
		       struct pmu_error *err);
	/*
	 * Event sets the driver switches itself, after guest events (the
	 * emulator, where a switch must fall on an exact instruction):
	 * open() with the sets' events, place[] holding each set placed
	 * on its own.  read() then gives each event's raw count, its
	 * set's duration as running, all sets' as enabled, the estimate
	 * and its scaled_err; set_info() a set's runs and duration.
	 */
	int (*open_sets)(struct pmu__drv *d, const struct pmu__ev *ev,
			 size_t nev, const struct pmu__place *place,
			 const struct pmu__drv_set *sets, size_t nsets,
			 const struct pmu__target *t, struct pmu__ev_state *st,
			 struct pmu_error *err);
	int (*set_info)(struct pmu__drv *d, size_t set, uint64_t *runs,
			uint64_t *duration);
	/*
	 * (emu) Instruction intervals: how many so far, and the readings
	 * (as read) at the end of interval k, with *insns the guest
	 * instructions counted up to there.  -EOPNOTSUPP: not kept.
	 */
	ssize_t (*nmarks)(struct pmu__drv *d);
	int (*read_mark)(struct pmu__drv *d, size_t k, uint64_t *insns,
			 struct pmu__count *c, size_t stride, size_t n);
};

struct pmu__driver_ops {
	const char *name;      /* "perf", "sim", "emu" */
	unsigned caps;         /* PMU__DRV_* */
	/*
	 * Open ev[0..nev) on target t.  place is NULL unless the driver
	 * names a catalog model (then one entry per event).  Events the
	 * PMU cannot count get st[i].err/reason and do not fail the open;
	 * errors about the whole target fail it with *err filled and
	 * nothing left open.  Entries of st the session already marked
	 * (err != 0) are not counted and keep the session's reason.
	 * Counting starts disabled (CHILD targets: at exec).
	 */
	int (*open)(struct pmu__drv *d, const struct pmu__ev *ev, size_t nev,
		    const struct pmu__place *place,
		    const struct pmu__target *t, struct pmu__ev_state *st,
		    struct pmu_error *err);
	void (*close)(struct pmu__drv *d);       /* back to unopened */
	int (*enable)(struct pmu__drv *d);
	int (*disable)(struct pmu__drv *d);
	int (*reset)(struct pmu__drv *d);
	/* c[0..min(n, nev)), each `stride` bytes after the previous (the
	 * session may point c into its caller's array); events that are
	 * not counted read 0 with their status and errno; returns the
	 * number filled or a negative errno */
	int (*read)(struct pmu__drv *d, struct pmu__count *c, size_t stride,
		    size_t n);
	void (*destroy)(struct pmu__drv *d);

	/* Capabilities: NULL where a driver has no such thing; a table it
	 * has is whole. */
	const struct pmu__drv_units *units;
	const struct pmu__drv_hwmodel *hwmodel;
	const struct pmu__drv_regs *regs;
	const struct pmu__drv_pfm *pfm;
	const struct pmu__drv_switching *switching;
	const struct pmu__drv_buffer *buffer;
	const struct pmu__drv_guest *guest;
	const struct pmu__drv_stream *stream;
};

struct pmu__drv {
	const struct pmu__driver_ops *ops;
};

/*
 * A driver instance by name: "perf" (model must be NULL or empty), "sim"
 * (model: a simulated model, 'pmu info --list-models') or "emu" (a
 * simulated model counting a real program; NULL: the default one).
 * Returns 0 or a negative errno with *err naming the bad driver or
 * model.
 */
int pmu__driver_new(const char *name, const char *model,
		    struct pmu__drv **out, struct pmu_error *err);

/* The same with the emu driver's settings (docs/emulation.md; NULL:
 * none, and the only choice for the other drivers). */
int pmu__driver_new_with(const char *name, const char *model,
			 const char *settings, struct pmu__drv **out,
			 struct pmu_error *err);

static inline void pmu__driver_free(struct pmu__drv *d)
{
	if (d)
		d->ops->destroy(d);
}

#endif
