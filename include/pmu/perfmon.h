/* SPDX-License-Identifier: MIT */
#ifndef PMU_PERFMON_H
#define PMU_PERFMON_H

/*
 * The perfmon2 interface (the 2008 "v3" calls): monitoring contexts on a
 * file descriptor, the logical PMU of PMC (configuration) and PMD (data)
 * registers, event sets switched by time or by counter overflows,
 * sampling formats writing into a buffer the caller maps, and
 * notifications read from the descriptor.  The calls, structures, flags,
 * errno values and state rules are perfmon2's; the PMU is libpmu's:
 *
 *   - a simulated PMU of any model ('pmu info --list-models'), whose
 *     PMC and PMD numbers are its pmu_desc ('pmu info --model M'); the
 *     program's work is fed to it (pmu_perfmon_feed());
 *   - or, with the perf driver, this machine's PMU (x86: AMD family
 *     17h and later, Intel's architectural PMU): PMC values of the
 *     host's event-select layout become raw perf events, and a thread
 *     of the library takes their overflows; pfm_create() fails with
 *     ENODEV where there is no hardware PMU.
 *
 * Choose with pmu_perfmon_use() before pfm_create(); by default the
 * model named by $PMU_PERFMON_MODEL is simulated, else "perf".
 *
 * The descriptor pfm_create() returns is readable (poll/select/epoll)
 * when a notification is queued, read(2) returns pfarg_msg_t messages,
 * and fcntl(F_SETOWN) + O_ASYNC deliver SIGIO.  Mapping the sampling
 * buffer with mmap(2) and destroying the context with close(2) work on
 * it too: this header routes those two calls through pmu_perfmon_mmap()
 * and pmu_perfmon_close(), which pass any other descriptor on unchanged
 * (define PMU_PERFMON_NO_REDIRECT to call them by name instead).
 *
 * Not included by <pmu/pmu.h>: it defines perfmon2's short names.
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

#include <pmu/error.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PFM_VERSION_MAJOR(x) (((x) >> 16) & 0xffff)
#define PFM_VERSION_MINOR(x) ((x) & 0xffff)

/* Bit vectors of registers: 320 of each kind, as on x86. */
#define PFM_MAX_PMCS 320
#define PFM_MAX_PMDS 320
#define PFM_PMC_BV 5
#define PFM_PMD_BV 5

/* pfm_create() flags */
#define PFM_FL_NOTIFY_BLOCK  0x01 /* the monitored thread blocks on
				     notification (not self-monitoring) */
#define PFM_FL_SYSTEM_WIDE   0x02
#define PFM_FL_SMPL_FMT      0x04 /* a format name, arg and size follow */
#define PFM_FL_OVFL_NO_MSG   0x80 /* no overflow messages */

/* pfm_write/pfm_read register types */
#define PFM_RW_PMD      1 /* pfarg_pmr_t */
#define PFM_RW_PMC      2 /* pfarg_pmr_t */
#define PFM_RW_PMD_ATTR 3 /* pfarg_pmd_attr_t */

/* register flags */
#define PFM_REGFL_OVFL_NOTIFY 0x1 /* PMD: notify on 64-bit overflow */
#define PFM_REGFL_RANDOM      0x2 /* PMD: randomize the reset value */
#define PFM_REGFL_NO_EMUL64   0x4 /* PMC: no 64-bit virtualization */

/* set flags */
#define PFM_SETFL_OVFL_SWITCH 0x01
#define PFM_SETFL_TIME_SWITCH 0x02

/* pfm_set_state() states */
#define PFM_ST_START   1
#define PFM_ST_STOP    2
#define PFM_ST_RESTART 3

/* pfm_attach() target that detaches */
#define PFM_NO_TARGET (-1)

/* message types */
#define PFM_MSG_OVFL 1
#define PFM_MSG_END  2

typedef struct {
	uint64_t sif_avail_pmcs[PFM_PMC_BV]; /* implemented PMCs */
	uint64_t sif_avail_pmds[PFM_PMD_BV]; /* implemented PMDs */
	uint64_t sif_reserved[4];
} pfarg_sinfo_t;

typedef struct {
	uint16_t reg_num;
	uint16_t reg_set;
	uint32_t reg_flags;
	uint64_t reg_value;
} pfarg_pmr_t;

typedef struct {
	uint16_t reg_num;
	uint16_t reg_set;
	uint32_t reg_flags;
	uint64_t reg_value;
	uint64_t reg_long_reset;   /* value after a user notification */
	uint64_t reg_short_reset;  /* value after an overflow otherwise */
	uint64_t reg_random_mask;  /* bits of the reset value randomized */
	uint64_t reg_smpl_pmds[PFM_PMD_BV];  /* PMDs recorded in a sample */
	uint64_t reg_reset_pmds[PFM_PMD_BV]; /* PMDs reset with this one */
	uint64_t reg_ovfl_swcnt;   /* 64-bit overflows before a set switch */
	uint64_t reg_smpl_eventid;
	uint64_t reg_last_value;   /* read: the last reset value */
	uint64_t reg_reserved[8];
} pfarg_pmd_attr_t;

typedef struct {
	uint16_t set_id;
	uint16_t set_reserved1;
	uint32_t set_flags;        /* PFM_SETFL_* */
	uint64_t set_timeout;      /* TIME_SWITCH: ns active before a switch */
	uint64_t reserved[6];
} pfarg_set_desc_t;

typedef struct {
	uint16_t set_id;
	uint16_t set_reserved1;
	uint32_t set_reserved2;
	uint64_t set_ovfl_pmds[PFM_PMD_BV]; /* last overflowed PMDs */
	uint64_t set_runs;         /* times the set was activated */
	uint64_t set_timeout;      /* leftover of its timeout, ns */
	uint64_t set_duration;     /* ns it was active */
	uint64_t set_reserved3[4];
} pfarg_set_info_t;

typedef struct {
	uint32_t msg_type;         /* PFM_MSG_OVFL */
	uint32_t msg_ovfl_pid;     /* as perfmon2 fills it: the thread id */
	uint16_t msg_active_set;   /* the set that overflowed */
	uint16_t msg_ovfl_cpu;
	uint32_t msg_ovfl_tid;     /* as perfmon2 fills it: the process id */
	uint64_t msg_ovfl_ip;
	uint64_t msg_ovfl_pmds[PFM_PMD_BV]; /* PMDs with a 64-bit overflow */
} pfarg_ovfl_msg_t;

typedef union {
	uint32_t type;
	pfarg_ovfl_msg_t pfm_ovfl_msg;
} pfarg_msg_t;

/* The default sampling format, "default", version 1.0. */
#define PFM_DFL_SMPL_NAME    "default"
#define PFM_DFL_SMPL_VERSION 0x10000

typedef struct {
	uint64_t buf_size;         /* bytes of the buffer, header included */
	uint32_t buf_flags;
	uint32_t res1;
	uint64_t reserved[6];
} pfm_dfl_smpl_arg_t;

typedef struct {
	uint64_t hdr_count;        /* entries in the buffer */
	uint64_t hdr_cur_offs;     /* where the next entry goes */
	uint64_t hdr_overflows;    /* overflows that found it full */
	uint64_t hdr_buf_size;
	uint64_t hdr_min_buf_space;
	uint32_t hdr_version;
	uint32_t hdr_buf_flags;
	uint64_t hdr_reserved[10];
} pfm_dfl_smpl_hdr_t;

/* An entry; the 64-bit values of the overflowed PMD's smpl_pmds follow,
 * in increasing PMD order. */
typedef struct {
	uint32_t pid;              /* thread id */
	uint16_t ovfl_pmd;
	uint16_t reserved;
	uint64_t last_reset_val;
	uint64_t ip;
	uint64_t tstamp;
	uint16_t cpu;
	uint16_t set;
	uint32_t tgid;             /* process id */
} pfm_dfl_smpl_entry_t;

/* The Pentium 4 PEBS formats, "pebs32_p4" / "pebs64_p4".  The buffer
 * holds the header below then the records at (char *)(hdr + 1) +
 * start_offs; the DS area's addresses are the simulated CPU's linear
 * addresses of the buffer (records = (pebs_index - pebs_buf_base) /
 * record size).  pebs64_p4 uses this header as declared on a 64-bit
 * host; pebs32_p4 lays it out with 4-byte size_t and longs, as a 32-bit
 * kernel did (104 bytes, DS area at offset 64). */
#define PFM_PEBS_P4_SMPL_VERSION 0x10000

typedef struct {
	uint64_t cnt_reset;        /* counter value after each record */
	size_t buf_size;           /* bytes for the records */
	size_t intr_thres;         /* index of the record that interrupts */
	uint64_t reserved[6];
} pfm_pebs_p4_smpl_arg_t;

typedef struct {
	unsigned long bts_buf_base, bts_index, bts_abs_max, bts_intr_thres;
	unsigned long pebs_buf_base, pebs_index, pebs_abs_max;
	unsigned long pebs_intr_thres;
	uint64_t pebs_cnt_reset;
} pfm_ds_area_p4_t;

typedef struct {
	uint64_t overflows;
	size_t buf_size;
	size_t start_offs;         /* first record: (char *)(hdr + 1) + this */
	uint32_t version;
	uint32_t reserved1;
	uint64_t reserved2[5];
	pfm_ds_area_p4_t ds;
} pfm_pebs_p4_smpl_hdr_t;

/* AMD IBS, "ibs": entries of the default format whose sampled PMDs are
 * the IBS data registers (pmu_desc of fam10h). */
#define PFM_IBS_SMPL_NAME "ibs"

PMU_API int pfm_create(int flags, pfarg_sinfo_t *sif, ...);
PMU_API int pfm_write(int fd, int flags, int type, void *regs, size_t sz);
PMU_API int pfm_read(int fd, int flags, int type, void *regs, size_t sz);
PMU_API int pfm_attach(int fd, int flags, int target);
PMU_API int pfm_set_state(int fd, int flags, int state);
PMU_API int pfm_create_sets(int fd, int flags, pfarg_set_desc_t *s, size_t sz);
PMU_API int pfm_getinfo_sets(int fd, int flags, pfarg_set_info_t *s, size_t sz);

/* libpmu's additions. */

/* What perfmon2 did through mmap(2) and close(2) on a context's
 * descriptor; any other descriptor goes to the system call. */
PMU_API void *pmu_perfmon_mmap(void *addr, size_t len, int prot, int flags,
			       int fd, off_t off);
PMU_API int pmu_perfmon_close(int fd);

/* Which PMU later contexts are created on: driver "perf" (model NULL)
 * or "sim" with a simulated model.  0 or -1 with errno (ENOENT: no such
 * driver or model). */
PMU_API int pmu_perfmon_use(const char *driver, const char *model);

/* A simulated PMU's program: `len` bytes of event stream
 * (docs/stream-format.md) run on context fd's PMU as the monitored
 * thread runs.  With PFM_FL_NOTIFY_BLOCK, when the caller is the
 * context's monitored thread (attached by another), a notification
 * blocks the call at the overflowing event until another thread's
 * PFM_ST_RESTART, then the stream goes on; any other caller never
 * blocks.  0, or -1 with errno (EINVAL for a bad stream: the line and
 * column are in pmu_perfmon_error(); ECANCELED when the context was
 * detached or closed while the call waited, the rest of the stream not
 * run; EBUSY while another feed of the context waits for a restart;
 * EOPNOTSUPP for a context on this machine's PMU, whose program runs by
 * itself). */
PMU_API int pmu_perfmon_feed(int fd, const char *stream, size_t len);

/* What a context knows beyond perfmon2's calls. */
struct pmu_perfmon_info {
	size_t size;               /* sizeof, set by the caller */
	int state;                 /* 1 unloaded, 2 loaded, 3 masked,
				      4 zombie (perfmon2's numbers) */
	unsigned can_restart;      /* notifications awaiting a restart */
	uint64_t msgs_lost;        /* notifications that found the queue
				      full (monitoring was masked) */
	uint64_t spurious;         /* interrupts while stopped or masked */
	unsigned width;            /* counter width emulated to 64 bits */
	char model[32];            /* the simulated model, or the host's
				      ("host-amd64", "host-intel") */
	char format[32];           /* the sampling format, "" if none */
	size_t buf_size;           /* its buffer's size, 0 if none */
};

/* 0, or -1 with errno (EBADF: not a context). */
PMU_API int pmu_perfmon_info(int fd, struct pmu_perfmon_info *info);

/*
 * Run a scenario (docs/scenario-format.md): one context on simulated
 * `model` (NULL: the scenario's own 'model' line) driven statement by
 * statement, each line of output handed to out(arg, line) (out may be
 * NULL).  Returns 0 when every call and expectation held, the number of
 * expectations that did not (> 0), or a negative errno for a malformed
 * scenario or a call that failed unexpectedly, *err naming the line.
 */
PMU_API int pmu_perfmon_scenario(const char *text, size_t len,
				 const char *model,
				 void (*out)(void *arg, const char *line),
				 void *arg, struct pmu_error *err);

/* The detail of the last failed call of this thread (never NULL). */
PMU_API const struct pmu_error *pmu_perfmon_error(void);

#ifndef PMU_PERFMON_NO_REDIRECT
#define mmap(a, l, p, f, fd, o) pmu_perfmon_mmap(a, l, p, f, fd, o)
#define close(fd) pmu_perfmon_close(fd)
#endif

#ifdef __cplusplus
}
#endif
#endif
