/* SPDX-License-Identifier: MIT */
#ifndef PMU_SIM_PEBS_H
#define PMU_SIM_PEBS_H

/*
 * Pentium 4 precise event-based sampling on the simulator (freestanding).
 *
 * Two layers:
 *  - the hardware: IA32_DS_AREA (MSR 0x600) points at a DS save area in
 *    simulated memory; when IQ_COUNTER4 overflows with PEBS_ENABLE bit 24
 *    set, the next qualifying event writes a record (the current register
 *    snapshot) at pebs_index, advances it, reloads the counter from
 *    pebs_cnt_reset and raises the interrupt once pebs_index reaches
 *    pebs_intr_thres.  Nothing is written at or past pebs_abs_max, nor
 *    outside the memory the caller handed to the simulator.
 *  - perfmon2's "pebs32_p4" / "pebs64_p4" sampling format: a header with
 *    the DS area inside, then the record area aligned to 256 bytes.
 *
 * Simulated memory is one caller-provided byte array `mem` seen by the
 * simulated CPU at linear address `base`.  All multi-byte fields are
 * little-endian, as on the P4, whatever the host.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"

#define PMU_MSR_DS_AREA           0x600u
#define PMU_P4_PEBS_ENABLE_BIT    0x01000000u  /* PEBS_ENABLE bit 24 */
#define PMU_P4_MISC_PEBS_UNAVAIL  0x00001000u  /* IA32_MISC_ENABLE bit 12 */

/* The only counter that can do PEBS: IQ_COUNTER4 (perfmon2 pmd 8). */
#define PMU_P4_PEBS_HW_CTR        16u

/* Record sizes: 10 x 4 bytes, 18 x 8 bytes. */
#define PMU_PEBS_REC32_SIZE       40u
#define PMU_PEBS_REC64_SIZE       144u
#define PMU_PEBS_MAX_REGS         18u

/* DS save area field offsets (32-bit / 64-bit layout). */
enum pmu_pebs_ds_field {
	PMU_DS_BTS_BUF_BASE = 0,
	PMU_DS_BTS_INDEX,
	PMU_DS_BTS_ABS_MAX,
	PMU_DS_BTS_INTR_THRES,
	PMU_DS_PEBS_BUF_BASE,
	PMU_DS_PEBS_INDEX,
	PMU_DS_PEBS_ABS_MAX,
	PMU_DS_PEBS_INTR_THRES,
	PMU_DS_PEBS_CNT_RESET,   /* 8 bytes in both layouts, 40 bits used */
	PMU_DS_NFIELDS,
};

/* Byte offset of a DS field: 4-byte fields from 0x00 (32-bit) or 8-byte
 * fields (64-bit); the counter reset is at 0x20 / 0x40. */
static inline unsigned pmu__ds_off(bool mode64, enum pmu_pebs_ds_field f)
{
	return (unsigned)f * (mode64 ? 8u : 4u);
}

/* A decoded record: regs[] in record order after the first two words
 * (eax ebx ecx edx esi edi ebp esp [r8 .. r15]). */
struct pmu__pebs_rec {
	uint64_t flags;
	uint64_t ip;
	uint64_t regs[PMU_PEBS_MAX_REGS - 2];
};

/* Simulated memory: `size` bytes at `mem`, seen at linear address `base`;
 * `mode64` selects the IA-32e layouts (8-byte fields, 144-byte records). */
struct pmu__pebs_buf {
	uint8_t *mem;
	size_t size;
	uint64_t base;
	bool mode64;
};

/* Hardware state and statistics. */
struct pmu__pebs {
	struct pmu__pebs_buf buf;
	uint64_t ds_area;       /* IA32_DS_AREA */
	uint64_t written;       /* records written */
	uint64_t dropped;       /* assists that found the buffer full */
	uint64_t irqs;          /* threshold interrupts raised */
};

/* Attach to a P4 simulator; `buf` is copied.  Returns 0 or -PMU_EINVAL. */
int pmu__sim_pebs_attach(struct pmu__sim *sim, struct pmu__pebs *pebs,
			 const struct pmu__pebs_buf *buf);

static inline unsigned pmu__pebs_rec_size(bool mode64)
{
	return mode64 ? PMU_PEBS_REC64_SIZE : PMU_PEBS_REC32_SIZE;
}

/* Little-endian access by linear address.  Loads outside the memory give
 * 0; stores outside it are not done and return -PMU_EINVAL. */
uint64_t pmu__pebs_load(const struct pmu__pebs_buf *b, uint64_t addr,
			unsigned bytes);
int pmu__pebs_store(const struct pmu__pebs_buf *b, uint64_t addr,
		    unsigned bytes, uint64_t val);

/*
 * perfmon2 sampling format.  The header sits at the start of the memory:
 *   u64 overflows; size_t buf_size; size_t start_offs; u32 version;
 *   u32 reserved1; u64 reserved2[5]; DS area
 * 104 bytes with 32-bit size_t and longs, 144 bytes with 64-bit ones.
 */
struct pmu__pebs_fmt_arg {
	uint64_t cnt_reset;     /* counter reload value (e.g. -period) */
	uint64_t buf_size;      /* bytes for the buffer */
	uint64_t intr_thres;    /* threshold as an entry index */
};

#define PMU_PEBS_FMT_VERSION      0x00010000u /* 1.0 */
#define PMU_PEBS_FMT_ALIGN        256u

enum pmu_pebs_hdr_field {
	PMU_PEBS_HDR_OVERFLOWS = 0,
	PMU_PEBS_HDR_BUF_SIZE,
	PMU_PEBS_HDR_START_OFFS,
	PMU_PEBS_HDR_VERSION,
};

unsigned pmu__pebs_hdr_size(bool mode64);
/* Offset of the DS area inside the header. */
unsigned pmu__pebs_hdr_ds_off(bool mode64);
/* Linear address of the DS area: the value for IA32_DS_AREA. */
uint64_t pmu__pebs_fmt_ds_addr(const struct pmu__pebs_buf *b);

/* Lay out header + DS area like the kernel format's initialisation.
 * Needs buf_size >= header + one record + 256 and the header inside the
 * memory.  Returns 0 or -PMU_EINVAL. */
int pmu__pebs_fmt_init(const struct pmu__pebs_buf *b,
		       const struct pmu__pebs_fmt_arg *arg);

uint64_t pmu__pebs_fmt_hdr(const struct pmu__pebs_buf *b,
			   enum pmu_pebs_hdr_field f);
uint64_t pmu__pebs_fmt_ds(const struct pmu__pebs_buf *b,
			  enum pmu_pebs_ds_field f);
void pmu__pebs_fmt_set_ds(const struct pmu__pebs_buf *b,
			  enum pmu_pebs_ds_field f, uint64_t v);

/* Records in the buffer: (pebs_index - pebs_buf_base) / record size. */
uint64_t pmu__pebs_fmt_count(const struct pmu__pebs_buf *b);
/* The kernel's overflow check: pebs_index >= pebs_intr_thres. */
bool pmu__pebs_fmt_full(const struct pmu__pebs_buf *b);
/* The interrupt handler's bookkeeping: overflows++. */
void pmu__pebs_fmt_overflow(const struct pmu__pebs_buf *b);
/* Restart: pebs_index = pebs_buf_base. */
void pmu__pebs_fmt_restart(const struct pmu__pebs_buf *b);
/* Record i of the buffer (0 = oldest). */
void pmu__pebs_fmt_record(const struct pmu__pebs_buf *b, uint64_t i,
			  struct pmu__pebs_rec *rec);

#endif
