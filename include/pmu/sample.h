/* SPDX-License-Identifier: MIT */
#ifndef PMU_SAMPLE_H
#define PMU_SAMPLE_H

/*
 * Sampling through a session into perfmon2's sampling formats.  Each
 * group's leader samples (every `period` counts: its own period= term,
 * else the options'); at each sample an entry goes into a buffer the
 * caller maps read-only, with the counts of the group's other events as
 * the entry's values (perfmon2's smpl_pmds).  When the buffer fills, a
 * notification is queued on a descriptor (poll, epoll, SIGIO; read(2)
 * gives perfmon2's pfarg_msg_t) and the caller restarts it once it has
 * consumed the entries.
 *
 *	struct pmu_sampling_opts o = { .sz = sizeof(o), .period = 10000 };
 *	pmu_session_add(s, "{page-faults,task-clock}", &err);
 *	pmu_session_sample(s, &o, &err);
 *	pmu_session_open(s, NULL, &err);
 *	hdr = pmu_session_buffer(s, &size);
 *	pmu_session_start(s);
 *	... pmu_session_sample_poll(s, 100) ...        // perf driver
 *	... poll(pmu_session_fd(s)), read the entries,
 *	    read(fd, &msg, sizeof(msg)), pmu_session_restart(s) ...
 *
 * On a simulated PMU (driver "sim") the session is a perfmon2 context
 * with the named format, and the entries are exactly what perfmon2's
 * formats write: "default" (every model with counter interrupts),
 * "ibs" (fam10h, IBS set-ups "ibs_op:maxcnt=N" / "ibs_fetch:maxcnt=N"),
 * "pebs32_p4" / "pebs64_p4" (p4, p4m2, p4m3: the leader, an
 * at-retirement event, goes on IQ_COUNTER4 and the buffer is the PEBS
 * hardware's; headers and records as in <pmu/perfmon.h>).  On the perf
 * driver the kernel's samples are decoded into "default" entries;
 * docs/sampling.md says what each field holds there.
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <pmu/error.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pmu_session;

/* Extra fields of perf driver entries (pmu_sampling_opts.extra); the
 * buffer header's hdr_buf_flags says which an entry carries, in this
 * order after the values: DATA_ADDR one u64; REGS a u64 ABI then the
 * user registers of perf's x86-64 set (ax bx cx dx si di bp sp ip
 * flags cs ss r8-r15, 20 u64); CALLCHAIN a u64 count then that many
 * u64 addresses (at most PMU_SAMPLE_MAX_STACK). */
#define PMU_SAMPLE_DATA_ADDR 0x1u
#define PMU_SAMPLE_REGS      0x2u
#define PMU_SAMPLE_CALLCHAIN 0x4u
#define PMU_SAMPLE_NREGS     20
#define PMU_SAMPLE_MAX_STACK 127

struct pmu_sampling_opts {
	size_t sz;               /* sizeof(struct pmu_sampling_opts) */
	const char *format;      /* "default" (NULL), "ibs", "pebs32_p4",
				    "pebs64_p4" */
	size_t buf_size;         /* buffer bytes, header included (0: 64 KiB) */
	uint64_t period;         /* sampling period of leaders without a
				    period= term (0: 100000) */
	uint64_t freq;           /* or samples per second (perf driver
				    only), instead of period */
	uint64_t long_period;    /* period after a restart (perfmon2's long
				    reset; 0: period); simulated PMU */
	uint64_t random_mask;    /* each reset subtracts (random & mask)
				    (perfmon2's PFM_REGFL_RANDOM);
				    simulated PMU */
	uint64_t extra;          /* PMU_SAMPLE_* fields (perf driver) */
	uint64_t cnt_reset;      /* pebs formats: the counter's value after
				    each record (0: -period) */
	size_t intr_thres;       /* pebs formats: the record whose write
				    interrupts, an entry index (0: 90% of
				    the records) */
};
#define pmu_sampling_opts__last_field intr_thres

/* The default format's header and entry: perfmon2's
 * pfm_dfl_smpl_hdr_t and pfm_dfl_smpl_entry_t, byte for byte. */
struct pmu_sample_hdr {
	uint64_t hdr_count;        /* entries in the buffer */
	uint64_t hdr_cur_offs;     /* where the next entry goes */
	uint64_t hdr_overflows;    /* times the buffer filled */
	uint64_t hdr_buf_size;
	uint64_t hdr_min_buf_space;/* the largest entry */
	uint32_t hdr_version;      /* 0x10000 */
	uint32_t hdr_buf_flags;    /* PMU_SAMPLE_* extras of the entries */
	uint64_t hdr_reserved[10];
};

struct pmu_sample_entry {
	uint32_t pid;              /* thread id */
	uint16_t ovfl_pmd;         /* the sampling event: a PMD number on a
				    simulated PMU, the event's index in the
				    session on perf (pmu_session_sample_event) */
	uint16_t reserved;
	uint64_t last_reset_val;   /* -(the period that ended here) */
	uint64_t ip;
	uint64_t tstamp;           /* ns (simulated PMU: cycles) */
	uint16_t cpu;
	uint16_t set;              /* the event's set */
	uint32_t tgid;             /* process id */
	/* then the values (pmu_session_sample_values), then the extras */
};

/* Sample with `o` (NULL: defaults).  Before open.  -EINVAL for a bad
 * setting (named in *err), -EOPNOTSUPP for a format or setting the
 * session's driver has not (the reason in *err). */
PMU_API int pmu_session_sample(struct pmu_session *s,
			       const struct pmu_sampling_opts *o,
			       struct pmu_error *err);

/* After open: the buffer, its format's header first, mapped read-only
 * (the memory the PMU or the decoder writes), *size its bytes; NULL
 * with errno when the session does not sample or is not open. */
PMU_API const void *pmu_session_buffer(struct pmu_session *s, size_t *size);

/* After open: readable while a notification is queued (the buffer
 * filled); read(2) returns pfarg_msg_t (<pmu/perfmon.h>) of 64 bytes;
 * fcntl F_SETOWN + O_ASYNC deliver SIGIO.  Owned by the session.  A
 * negative errno when the session does not sample or is not open. */
PMU_API int pmu_session_fd(struct pmu_session *s);

/* The buffer was consumed: empty it and sample on (perfmon2's
 * PFM_ST_RESTART).  -EBUSY when no notification awaits a restart. */
PMU_API int pmu_session_restart(struct pmu_session *s);

/*
 * Perf driver: wait up to timeout_ms (-1: no limit, 0: not at all) for
 * the kernel's samples, then decode every sample it holds into the
 * buffer.  Decoding also happens in pmu_session_read(), _stop() and
 * _sample_stats(); nothing runs between calls, the kernel's rings hold
 * the samples meanwhile.  Returns the number of entries written, or a
 * negative errno.  A simulated PMU writes entries as it is fed: 0.
 */
PMU_API ssize_t pmu_session_sample_poll(struct pmu_session *s,
					int timeout_ms);

struct pmu_sample_stats {
	size_t size;               /* sizeof, set by the caller */
	uint64_t samples;          /* entries written since open */
	uint64_t lost;             /* samples dropped: by the kernel
				      (PERF_RECORD_LOST), or finding the
				      buffer full before a restart */
	uint64_t full;             /* times the buffer filled */
};

PMU_API int pmu_session_sample_stats(struct pmu_session *s,
				     struct pmu_sample_stats *st);

/* The session's event that wrote entry `e` (its ovfl_pmd in its set),
 * or -ENOENT. */
PMU_API ssize_t pmu_session_sample_event(const struct pmu_session *s,
					 const struct pmu_sample_entry *e);

/* The events whose counts follow the entries of sampling event `ev`, in
 * the order they follow: up to max indices into idx.  Returns their
 * number, or -EINVAL when `ev` does not sample. */
PMU_API ssize_t pmu_session_sample_values(const struct pmu_session *s,
					  size_t ev, size_t *idx, size_t max);

#ifdef __cplusplus
}
#endif
#endif
