/* SPDX-License-Identifier: MIT */
#ifndef PMU_SESSION_SAMPLE_H
#define PMU_SESSION_SAMPLE_H

/*
 * Sampling sessions (pmu/sample.h).  Two ways, by driver:
 *
 *  - a register-level PMU (the sim driver, which lends its registers
 *    through pfm_hw): the session is a perfmon2 monitoring context with
 *    the chosen format (sets_reg.c opens it, sample_reg.c says what the
 *    format argument and the sampling PMDs are); its buffer, descriptor
 *    and restart are the context's;
 *  - the perf driver (map_buffer): every group leader samples with
 *    sample_type IP|TID|TIME|CPU|PERIOD|IDENTIFIER (+READ for groups,
 *    + the extras), the rings are mapped, and the session decodes the
 *    kernel's records into default-format entries in a buffer of its
 *    own (sample_perf.c; the decoder, sample_decode.c, knows no session
 *    so that tests and benchmarks feed it records directly).
 */

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>

#include <pmu/sample.h>

#include "perfmon/pfm.h"
#include "session/session.h"

struct pmu__smpl_perf;

struct pmu__smpl {
	/* the caller's settings, checked */
	char format[16];
	size_t buf_size;
	uint64_t period, freq, long_period, random_mask, extra, cnt_reset;
	size_t intr_thres;
	/* once open */
	bool reg;                 /* a monitoring context's (sets_reg.c) */
	void *umap;               /* the caller's read-only mapping */
	size_t ulen;
	uint64_t done;            /* reg: entries of buffers restarted */
	struct pmu__smpl_perf *perf;
};

/* ---- sample.c ---- */

/* Does the session's driver sample through a monitoring context? */
bool pmu__smpl_on_reg(const struct pmu_session *s);
/* Open a sampling session on target t (session_open.c calls it). */
int pmu__smpl_open(struct pmu_session *s, const struct pmu__target *t,
		   struct pmu_error *err);
void pmu__smpl_close(struct pmu_session *s);
void pmu__smpl_free(struct pmu_session *s);

/* ---- sample_reg.c: the monitoring context's side ---- */

union pmu__smpl_arg {
	pfm_dfl_smpl_arg_t dfl;
	pfm_pebs_p4_smpl_arg_t pebs;
};

struct pmu__sets_reg;

/* The format and its argument for the context. */
int pmu__smpl_reg_format(struct pmu_session *s, const struct pfm_fmt **fmt,
			 union pmu__smpl_arg *arg, size_t *argsz,
			 struct pmu_error *err);
/* After set [first, end) was placed: the sampling events where the
 * format needs them (PEBS: the leader on IQ_COUNTER4), IBS set-ups on
 * their registers.  pmd[i - first] gets each event's PMD. */
int pmu__smpl_reg_place(struct pmu_session *s, size_t first, size_t end,
			struct pmu__place *pl, struct pmu__ev_state *st,
			int *pmd, struct pmu_error *err);
/* Set k's PMC values and flags as the format needs them. */
void pmu__smpl_reg_pmcs(struct pmu_session *s, size_t first, size_t end,
			const int *pmd, uint64_t *pmcs, uint32_t *pmc_flags);
/* Event i's PMD attributes: a leader samples, with its group's other
 * PMDs as smpl_pmds.  pmd: every event's PMD (-1 none). */
void pmu__smpl_reg_pmd(struct pmu_session *s, size_t i, const int *pmd,
		       pfarg_pmd_attr_t *pd);

/* The open session: PEBS records in buf, statistics of the context's
 * buffer buf (NULL: it could not be had, errno says why), the event of
 * an entry, the events whose values follow a leader's entries. */
uint64_t pmu__smpl_reg_pebs_count(struct pmu_session *s, const void *buf);
int pmu__smpl_reg_stats(struct pmu_session *s, const void *buf,
			struct pmu_sample_stats *st);
ssize_t pmu__smpl_reg_event(const struct pmu_session *s, unsigned pmd,
			    unsigned set);
ssize_t pmu__smpl_reg_values(const struct pmu_session *s, size_t ev,
			     size_t *idx, size_t max);

/* ---- sample_perf.c: the perf driver's side ---- */

/* The events the driver opens (sampling attributes set), into *dev;
 * the session's target with per_cpu where the kernel needs it. */
int pmu__smpl_perf_prepare(struct pmu_session *s, struct pmu__target *t,
			   struct pmu__ev **dev, struct pmu_error *err);
/* After the driver's open: rings, ids, buffer, descriptor. */
int pmu__smpl_perf_opened(struct pmu_session *s, struct pmu_error *err);
/* Decode what the rings hold; the number of entries written. */
uint64_t pmu__smpl_perf_drain(struct pmu_session *s);
ssize_t pmu__smpl_perf_poll(struct pmu_session *s, int timeout_ms);
int pmu__smpl_perf_restart(struct pmu_session *s);
void pmu__smpl_perf_close(struct pmu_session *s);
/* The caller's read-only mapping (s->smpl->umap), the descriptor,
 * statistics (after a drain), the event of an entry, a leader's
 * members. */
int pmu__smpl_perf_map(struct pmu_session *s);
int pmu__smpl_perf_fd(struct pmu_session *s);
int pmu__smpl_perf_stats(struct pmu_session *s, struct pmu_sample_stats *st);
ssize_t pmu__smpl_perf_event(const struct pmu_session *s, unsigned ev);
ssize_t pmu__smpl_perf_values(const struct pmu_session *s, size_t ev,
			      size_t *idx, size_t max);
/* The decoder and the rings of an open perf sampling session, for
 * benchmarks that time the decoding alone. */
struct pmu__smpl_dec *pmu__smpl_perf_decoder(struct pmu_session *s);
struct pmu__ring;
int pmu__smpl_perf_rings(struct pmu_session *s, struct pmu__ring **rings,
			 size_t *n);

/* ---- sample_decode.c: PERF_RECORD_SAMPLE -> default-format entry ---- */

/* One event as the decoder sees it. */
struct pmu__smpl_ev {
	uint64_t sample_type;
	uint64_t period;          /* its fixed period; 0: in each sample */
	uint32_t first;           /* its group's leader */
	uint32_t nmemb;           /* events in its group */
	uint32_t read_w;          /* words per member in READ: value, id,
				     lost (PERF_FORMAT_LOST) */
	uint32_t raw_vals;        /* IBS: data registers its RAW carries
				     after the control (the values) */
	uint16_t set;
	bool samples;             /* a leader: its samples are entries */
};

struct pmu__smpl_dec {
	/* set by the caller */
	unsigned char *buf;       /* header first */
	size_t size;
	const struct pmu__smpl_ev *ev;
	size_t nev;
	const uint64_t *ids;      /* sorted kernel ids ... */
	const uint32_t *idev;     /* ... and their events */
	size_t nids;
	uint32_t flags;           /* PMU_SAMPLE_* extras */
	int msg_fd;               /* notification queue, -1: none */
	/* state */
	bool full;                /* waits for a restart */
	unsigned can_restart;
	uint64_t samples, lost, fills, bad, msgs_lost;
};

/* The header as perfmon2's default format initialises it. */
void pmu__smpl_dec_init(struct pmu__smpl_dec *d);
/* The largest entry of any sampling event (hdr_min_buf_space). */
size_t pmu__smpl_dec_max_entry(const struct pmu__smpl_dec *d);
/* One record of a ring: 1 an entry written, 0 none (not a sample, or
 * lost to a full buffer: counted), -1 a sample that made no sense. */
int pmu__smpl_dec_record(struct pmu__smpl_dec *d,
			 const struct perf_event_header *h);
/* perfmon2's restart of the default format; -EBUSY without a pending
 * notification. */
int pmu__smpl_dec_restart(struct pmu__smpl_dec *d);

#endif
