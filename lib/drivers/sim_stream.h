/* SPDX-License-Identifier: MIT */
#ifndef PMU_DRIVERS_SIM_STREAM_H
#define PMU_DRIVERS_SIM_STREAM_H

/*
 * The simulator's event stream (docs/stream-format.md): a line format
 * compiled into a flat array of operations; `repeat N { ... }` becomes a
 * REPEAT op that knows where its END is.  Hosted.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmu/error.h>

#include "sim/sim.h"

enum pmu__stream_kind {
	PMU_STREAM_EVENT = 1,   /* key, umask, n */
	PMU_STREAM_CYCLES,      /* n */
	PMU_STREAM_MODE,        /* n = enum pmu_sim_mode */
	PMU_STREAM_PMM,         /* n = 0 / 1 */
	PMU_STREAM_IP,          /* n = ip */
	PMU_STREAM_SNAPSHOT,    /* snap = index into snaps */
	PMU_STREAM_SAMPLE,
	PMU_STREAM_SUSPEND,
	PMU_STREAM_RESUME,
	PMU_STREAM_REG,         /* reg_kind, addr, n = value */
	PMU_STREAM_REPEAT,      /* n = count, jump = index of its END */
	PMU_STREAM_END,         /* jump = index of its REPEAT */
	PMU_STREAM_REGION,      /* n = 1 begin, 0 end; snap = name index */
};

struct pmu__stream_op {
	uint8_t kind;
	uint8_t reg_kind;       /* enum pmu_sim_reg_kind */
	int line;
	uint32_t key, umask, addr;
	uint32_t jump, snap;
	uint64_t n;
};

/* The `pebs` header statement: perfmon2's pebs32_p4 format argument
 * (cnt_reset, buf_size in bytes, intr_thres as an entry index). */
struct pmu__stream_pebs {
	bool given, has_buf_size, has_intr_thres, has_cnt_reset;
	int line;
	uint64_t buf_size, intr_thres, cnt_reset;
};

#define PMU_STREAM_PEBS_MIN_BUF  400u         /* header + record + 256 */
#define PMU_STREAM_PEBS_MAX_BUF  (64u << 20)
#define PMU_STREAM_PEBS_CTR_MASK 0xFFFFFFFFFFull /* 40-bit IQ_COUNTER4 */

struct pmu__stream {
	struct pmu__stream_pebs pebs;
	struct pmu__stream_op *ops;
	size_t nops, cap;
	struct pmu__sim_snapshot *snaps;
	size_t nsnaps, snapcap;
	char **names;           /* regions' names */
	size_t nnames, namecap;
};

#define PMU_STREAM_MAX_OPS   (1u << 20)
#define PMU_STREAM_REGION_NAME_MAX 128
#define PMU_STREAM_MAX_DEPTH 16

/*
 * Parse `len` bytes of stream text into *s (zeroed first).  Returns 0 or
 * -EINVAL / -ENOMEM; on error *err names "line L, column C", the token
 * and the problem, err->offset is the byte offset.  Free with
 * pmu__stream_free (also after an error).
 */
int pmu__stream_parse(const char *text, size_t len, struct pmu__stream *s,
		      struct pmu_error *err);
void pmu__stream_free(struct pmu__stream *s);

#endif
