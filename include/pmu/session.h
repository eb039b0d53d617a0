/* SPDX-License-Identifier: MIT */
#ifndef PMU_SESSION_H
#define PMU_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <pmu/error.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A session is a set of counting events opened on one target.  Events are
 * added as perf-style strings ("cycles,instructions", "{a,b}:u",
 * "msr/tsc/", "sched:sched_switch", "r01c2"); each brace group is
 * scheduled on the PMU together.  Typical use:
 *
 *	struct pmu_session *s = pmu_session_new(NULL);
 *	pmu_session_add(s, "task-clock,page-faults", NULL);
 *	pmu_session_open(s, NULL, NULL);            // this thread
 *	pmu_session_start(s);
 *	...
 *	pmu_session_stop(s);
 *	pmu_session_read(s, vals, n);
 *	pmu_session_free(s);
 */
struct pmu_session;

enum pmu_target_kind {
	PMU_TARGET_SELF = 0, /* the calling thread */
	PMU_TARGET_PID,      /* every thread of existing processes */
	PMU_TARGET_TID,      /* existing threads */
	PMU_TARGET_CHILD,    /* a child stopped before exec: counts from its
				exec, follows its children (inherit) */
	PMU_TARGET_CPUS,     /* system-wide on CPUs (all when cpus is NULL) */
};

struct pmu_open_opts {
	size_t sz;                 /* sizeof(struct pmu_open_opts) */
	enum pmu_target_kind target;
	pid_t pid;                 /* PID, TID or CHILD (unless npids > 0) */
	const char *cpus;          /* CPUS: list like "0-3,6"; NULL = all online */
	bool inherit;              /* count children created after open
				      (default on for CHILD) */
	bool no_mmap_read;         /* force read(2), never the mmap page */
	const pid_t *pids;         /* PID or TID: several processes or threads,
				      counted together; replaces pid */
	size_t npids;              /* entries in pids; 0 = use pid */
	bool start_stopped;        /* CHILD: do not start at exec either;
				      pmu_session_start() starts counting
				      (perf stat -D); the emu driver,
				      which counts a command whole,
				      refuses it (-EOPNOTSUPP) */
	bool skip_gone;            /* TID: threads that have exited or are
				      zombies by the open are left out
				      instead of failing it (a list of
				      every thread of the machine) */
};
#define pmu_open_opts__last_field skip_gone

/* Status of one event after pmu_session_open(). */
enum pmu_event_status {
	PMU_EVENT_OK = 0,
	PMU_EVENT_NOT_SUPPORTED, /* the kernel/hardware cannot count it here */
	PMU_EVENT_NOT_COUNTED,   /* opened, but never scheduled (known at
				    open when no counter is left for it) */
};

/*
 * One reading of one event, summed over every CPU or thread it is open on.
 * Set vals[0].size = sizeof(struct pmu_value) before reading an array:
 * the library reads that size (0 means the first layout, PMU_VALUE_SIZE0,
 * without scaled_err: a zeroed array of this struct is misread) as the
 * array's element size, stores it in each element's size, fills the
 * fields both sides know and leaves the rest of each element alone, so
 * the struct can grow.
 */
struct pmu_value {
	size_t size;
	uint64_t raw;          /* counter value as the kernel reported it */
	uint64_t enabled;      /* ns the event was enabled */
	uint64_t running;      /* ns it was actually on a counter */
	uint64_t scaled;       /* raw * enabled / running, exact, saturating */
	enum pmu_event_status status;
	int err;               /* negative errno when NOT_SUPPORTED, else 0 */
	uint64_t scaled_err;   /* one standard error of `scaled`, from the
				  spread of the per-run rates of the event's
				  set (event sets); 0 when the event counted
				  the whole time or its set ran fewer than
				  2 times */
};

/* sizeof(struct pmu_value) in its first release (no scaled_err). */
#define PMU_VALUE_SIZE0 48

/* Create an empty session counting this machine's events (the perf
 * driver); NULL on failure (errno set). */
PMU_API struct pmu_session *pmu_session_new(struct pmu_error *err);

/*
 * Which PMU a session counts on.  The perf driver (driver NULL or
 * "perf") is this machine's, through perf_event_open(2).  The sim
 * driver ("sim") is a register-level simulated PMU of `model` (any
 * model 'pmu info --list-models' lists), programmed as its own low-level
 * driver did (perfctr, or the XScale PMU API) and driven by an event
 * stream fed with pmu_session_feed().  On it, events are the model's
 * own ("p6::INST_RETIRED", or bare "INST_RETIRED"), generic hardware
 * events where the model has them ("cycles", "instructions"), and raw
 * codes (rNN) on XScale models; other events are reported as not
 * supported, as on a machine without them.
 */
struct pmu_session_opts {
	size_t sz;                 /* sizeof(struct pmu_session_opts) */
	const char *driver;        /* "perf" (NULL), "sim" or "emu" */
	const char *model;         /* sim: the simulated model; emu: the
				      model to emulate (NULL: fam10h) */
	const char *emu;           /* emu: settings, "KEY=VALUE ..."
				      (caches, predictor, costs, regions;
				      see pmu-stat(1)), NULL: defaults */
};
#define pmu_session_opts__last_field emu

/*
 * The emu driver ("emu") is the same simulated PMU counting a real
 * program, which runs under pmu's emulator (a Valgrind tool): a command
 * started with the command line pmu_session_command() returns, opened as
 * a PMU_TARGET_CHILD target; or, with PMU_TARGET_SELF, the calling
 * program itself when it runs under the emulator.  Its events are those
 * of the sim driver on the same model, less the ones the emulation does
 * not produce (reported as not supported).
 */

/* A session on the driver of `opts` (NULL: as pmu_session_new).  NULL
 * on failure (errno set; *err names the unknown driver or model). */
PMU_API struct pmu_session *pmu_session_new_opts(
	const struct pmu_session_opts *opts, struct pmu_error *err);

/* The session's driver ("perf", "sim", "emu") and simulated model
 * (NULL for perf). */
PMU_API const char *pmu_session_driver(const struct pmu_session *s);
PMU_API const char *pmu_session_model(const struct pmu_session *s);

/*
 * The command line a child must exec for this session to count it as a
 * PMU_TARGET_CHILD target: argv itself for the perf and sim drivers,
 * argv under the emulator for the emu driver (which fails here, naming
 * what to install, when the emulator or valgrind is missing).  Make it
 * before forking the child; *out is one allocation, freed with free().
 */
PMU_API int pmu_session_command(struct pmu_session *s, char *const argv[],
				char ***out, struct pmu_error *err);

/* Destroy; closes everything. Accepts NULL. */
PMU_API void pmu_session_free(struct pmu_session *s);

/*
 * Add events from a perf-style event list.  May be called several times
 * before open.  Returns 0 or a negative errno (-EINVAL on parse errors,
 * with err->token naming the offending token and err->message suggesting
 * near names).
 */
PMU_API int pmu_session_add(struct pmu_session *s, const char *events,
			    struct pmu_error *err);

/*
 * Count event i only for tasks in a cgroup, as perf stat -G does: `cgroup`
 * names a directory of the cgroup hierarchy perf_event uses (the v1
 * mount with the perf_event controller, else the cgroup2 mount), "/" its
 * root.  The session then needs a system-wide target (PMU_TARGET_CPUS).
 * Before open; NULL removes it.  0, or -ENOENT with *err naming the
 * directory when the cgroup cannot be found or read, -EOPNOTSUPP on a
 * driver other than perf, -EINVAL for a bad index.
 */
PMU_API int pmu_session_set_cgroup(struct pmu_session *s, size_t i,
				   const char *cgroup, struct pmu_error *err);

/* The directory of that hierarchy (what cgroup names are relative to)
 * into buf: 0; -ENOENT when neither is mounted, -EINVAL for no buffer,
 * -ENAMETOOLONG when it does not fit. */
PMU_API int pmu_cgroup_root(char *buf, size_t len);

/* Number of events added so far. */
PMU_API size_t pmu_session_nevents(const struct pmu_session *s);

/* Canonical name of event i ("cycles:u", "msr/tsc/"), or NULL. */
PMU_API const char *pmu_session_event_name(const struct pmu_session *s,
					   size_t i);

/* Unit and scale of event i ("msec", 1e-6 for task-clock; sysfs .unit/.scale). */
PMU_API const char *pmu_session_event_unit(const struct pmu_session *s,
					   size_t i, double *scale);

/* Group index of event i (events outside braces are groups of one), or
 * -EINVAL past the last event. */
PMU_API ssize_t pmu_session_event_group(const struct pmu_session *s,
					size_t i);

/*
 * Events one name stands for on several instances of a PMU (a bare
 * uncore event, or an event alias several sysfs PMUs publish, such as
 * uncore_cha_0..N) share a nonzero merge id, which no other event of the
 * session has: perf prints them as one line, summing counts and times.
 * 0 for any other event, -EINVAL past the last event.
 */
PMU_API ssize_t pmu_session_event_merge(const struct pmu_session *s,
					size_t i);

/* The sysfs PMU an event counts on ("uncore_cha_0" for uncore_cha_0/.../
 * and for the instances a merged name stands for), or NULL for events
 * not of a sysfs PMU and past the last event. */
PMU_API const char *pmu_session_event_pmu(const struct pmu_session *s,
					  size_t i);

/* Event i as pmu_event_list_parse() describes an event (name, group,
 * unit, the perf_event_attr fields that count it: type, config,
 * exclude_*...): set out->size first; filled up to that size.  0, or
 * -EINVAL past the last event or for a size too small to fill. */
struct pmu_event_desc;
PMU_API int pmu_session_event_desc(const struct pmu_session *s, size_t i,
				   struct pmu_event_desc *out);

/* The only CPUs an event counts on, as its PMU's sysfs cpumask lists
 * them ("0,36": an uncore PMU, one CPU per package or die), or NULL
 * when any CPU of the target counts it. */
PMU_API const char *pmu_session_event_cpus(const struct pmu_session *s,
					   size_t i);

/*
 * Open every event on the target; opts may be NULL (this thread).  Events
 * that the machine cannot count are marked PMU_EVENT_NOT_SUPPORTED and do
 * not fail the open; errors that concern the whole session (permission,
 * no such process, bad CPU list, out of file descriptors) do, with
 * err->kind and err->message saying why and what to change.  Events start
 * disabled, except for PMU_TARGET_CHILD where they start at exec.
 */
PMU_API int pmu_session_open(struct pmu_session *s,
			     const struct pmu_open_opts *opts,
			     struct pmu_error *err);

/* Status and errno of event i after open. */
PMU_API enum pmu_event_status pmu_session_event_status(
	const struct pmu_session *s, size_t i, int *err);

/* Why event i is not supported, one line (e.g. "no hardware PMU"). */
PMU_API const char *pmu_session_event_reason(const struct pmu_session *s,
					     size_t i);

PMU_API int pmu_session_start(struct pmu_session *s);
PMU_API int pmu_session_stop(struct pmu_session *s);
PMU_API int pmu_session_reset(struct pmu_session *s);

/*
 * Read every event: vals[i] for i < min(n, nevents), each element
 * vals[0].size bytes apart.  One read(2) per group and CPU/thread
 * (PERF_FORMAT_GROUP); for the calling thread, the mmap page (rdpmc)
 * when the kernel allows it.  Returns the number of values filled or a
 * negative errno (-EINVAL for an element size smaller than `size`).
 */
PMU_API ssize_t pmu_session_read(struct pmu_session *s,
				 struct pmu_value *vals, size_t n);

/*
 * The units an open session counts on: every CPU of a system-wide target
 * (-a/-C), every thread of PID and TID targets, one for the others.
 * pmu_session_read() sums over them; pmu_session_read_unit() reads one
 * (for per-CPU and per-thread figures).
 */
struct pmu_unit_info {
	size_t size;               /* sizeof(struct pmu_unit_info) */
	int cpu;                   /* the CPU, -1 for a thread */
	pid_t tid;                 /* the thread, -1 for a CPU, 0 for the
				      calling thread */
	pid_t pid;                 /* the process or thread listed in the
				      target it belongs to */
	char comm[16];             /* the thread's name, "" when unknown */
};

/* Number of units of an open session (0 when not open). */
PMU_API size_t pmu_session_nunits(const struct pmu_session *s);

/* Describe unit u; 0, or -EINVAL past the last unit or for an unsized
 * struct. */
PMU_API int pmu_session_unit_info(const struct pmu_session *s, size_t u,
				  struct pmu_unit_info *info);

/* As pmu_session_read(), for unit u alone; -EOPNOTSUPP for a session
 * of several event sets (their estimates are of the whole session). */
PMU_API ssize_t pmu_session_read_unit(struct pmu_session *s, size_t u,
				      struct pmu_value *vals, size_t n);

/*
 * Instruction intervals: the emu driver with the setting report-insns=N
 * reads each process of the command every N guest instructions it runs
 * (a forked child and an exec'd image from their start); interval k of
 * the command sums the processes' k-th, so it is the same every run
 * (docs/emulation.md).  pmu_session_nmarks() is the number of intervals
 * so far, final once the command has ended: the last one ends with the
 * command, the others after exactly k*N instructions of each process;
 * -EOPNOTSUPP without them, -E2BIG past 65536 intervals.
 * pmu_session_read_mark() reads the values at the end of interval k as
 * pmu_session_read() reads them, enabled and running being guest
 * instructions, not time; *insns (may be NULL) gets the guest
 * instructions counted up to there, summed over processes; -ERANGE past
 * the last interval.
 */
PMU_API ssize_t pmu_session_nmarks(struct pmu_session *s);
PMU_API ssize_t pmu_session_read_mark(struct pmu_session *s, size_t k,
				      uint64_t *insns, struct pmu_value *vals,
				      size_t n);

/*
 * Drive a simulated PMU: run `len` bytes of event-stream text
 * (docs/stream-format.md) as the counted program.  Counting follows
 * pmu_session_start/stop (and the stream's own suspend/resume
 * statements).  -EOPNOTSUPP on the perf driver (the real program runs
 * by itself); -EINVAL with "line L, column C" in *err for a bad stream.
 */
PMU_API int pmu_session_feed(struct pmu_session *s, const char *stream,
			     size_t len, struct pmu_error *err);

/*
 * A fed stream's `region begin NAME` and `region end NAME` statements
 * (docs/stream-format.md) call fn(arg, begin, NAME) there, the counters
 * as the stream has them at that statement (pmu_session_read() reads
 * them); fn's negative errno stops the stream with an error naming the
 * line.  NULL: the statements do nothing.  <pmu/region.h>'s recorder
 * uses it.
 */
typedef int (*pmu_region_fn)(void *arg, bool begin, const char *name);
PMU_API int pmu_session_on_region(struct pmu_session *s, pmu_region_fn fn,
				  void *arg);

/*
 * Event sets (perfmon2's multiplexing under the user's control).  A
 * session's events may be split into sets, of which exactly one counts
 * at any time; the session switches round-robin from one set to the
 * next, after a time (the target's running time) or after a number of
 * overflows of a designated event.  Without pmu_session_add_set() a
 * session is one set and behaves as if sets did not exist.
 *
 *	pmu_session_add(s, "task-clock,page-faults", NULL);     // set 0
 *	pmu_session_add_set(s, NULL);                           // set 1
 *	pmu_session_add(s, "task-clock,context-switches", NULL);
 *	pmu_session_open(s, NULL, NULL);  // switches every 4 ms of run time
 *
 * With sets, a reading's `enabled` is the whole session's counting time
 * (the sum of every set's active time), `running` the time the event
 * actually counted (at most its set's active time), and `scaled` = raw *
 * enabled / running is the estimate for the whole time, with its
 * standard error in `scaled_err`.
 */

/* Start a new event set: later pmu_session_add() calls add to it.  Events
 * added before the first call form set 0.  Before open only.  Returns the
 * new set's index or a negative errno. */
PMU_API ssize_t pmu_session_add_set(struct pmu_session *s,
				    struct pmu_error *err);

/* Number of event sets (>= 1). */
PMU_API size_t pmu_session_nsets(const struct pmu_session *s);

/* Set of event i, -EINVAL past the last event. */
PMU_API ssize_t pmu_session_event_set(const struct pmu_session *s, size_t i);

enum pmu_switch_kind {
	PMU_SWITCH_NONE = 0,     /* no policy of its own: the default */
	PMU_SWITCH_TIME = 1,     /* after timeout_ns of the target's time */
	PMU_SWITCH_OVERFLOW = 2, /* after `count` overflows of `event` */
};

/*
 * A set's switch policy.  Several sets without a policy switch by TIME
 * every 4 ms (PMU_SWITCH_DEFAULT_NS, the kernel's own multiplexing
 * interval).
 */
struct pmu_switch_opts {
	size_t sz;                  /* sizeof(struct pmu_switch_opts) */
	enum pmu_switch_kind kind;
	uint64_t timeout_ns;        /* TIME: the target's running time per
				       turn (task-clock; cpu-clock for CPU
				       targets), >= 10000 */
	const char *event;          /* OVERFLOW: the designated event, added
				       to every set that lacks it */
	uint64_t period;            /* OVERFLOW: counts of `event` per
				       overflow, >= 1 */
	uint64_t count;             /* OVERFLOW: overflows before the set
				       switches (perfmon2's reg_ovfl_swcnt),
				       >= 1 */
};
#define pmu_switch_opts__last_field count

#define PMU_SWITCH_DEFAULT_NS 4000000ull

/* Switch policy of set `set` (-1: every set, also those added later).
 * Before open. */
PMU_API int pmu_session_set_switch(struct pmu_session *s, ssize_t set,
				   const struct pmu_switch_opts *o,
				   struct pmu_error *err);

/* What a set did (perfmon2's pfm_getinfo_sets).  Set size first. */
struct pmu_set_info {
	size_t size;
	uint64_t runs;          /* times the set was activated */
	uint64_t duration;      /* ns it was active (counting) */
	uint64_t timeout_left;  /* TIME: ns of its turn not used when it was
				   last switched out (stopped mid-turn) */
	uint64_t ovfl_mask;     /* bit k: the set's k-th event had the last
				   overflow that switched it */
};

/* Fill *info for set `set` (zeros before the session counted).  0 or a
 * negative errno (-EINVAL: no such set, or info NULL or too small). */
PMU_API int pmu_session_set_info(struct pmu_session *s, size_t set,
				 struct pmu_set_info *info);

/*
 * Exact scaling: raw * enabled / running computed in 128 bits, saturating
 * at UINT64_MAX.  running == 0 gives 0; running >= enabled gives raw.
 */
PMU_API uint64_t pmu_scale(uint64_t raw, uint64_t enabled, uint64_t running);

#ifdef __cplusplus
}
#endif
#endif
