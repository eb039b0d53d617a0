/* SPDX-License-Identifier: MIT */
#ifndef PMU_PROFILE_PERFDATA_H
#define PMU_PROFILE_PERFDATA_H

/*
 * perf.data files (the format perf record writes; docs in perf's
 * tools/perf/Documentation/perf.data-file-format.txt): reading, in
 * either byte order, and writing.
 */

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <pmu/error.h>

#include "profile/pd_trace.h"

#define PD_MAGIC 0x32454c4946524550ULL /* "PERFILE2" read as a u64 */

/* Feature bits of the header's bitmap that pmu reads or writes. */
enum {
	PD_FEAT_TRACING_DATA = 1,
	PD_FEAT_BUILD_ID = 2,
	PD_FEAT_HOSTNAME = 3,
	PD_FEAT_OSRELEASE = 4,
	PD_FEAT_VERSION = 5,
	PD_FEAT_ARCH = 6,
	PD_FEAT_NRCPUS = 7,
	PD_FEAT_CPUDESC = 8,
	PD_FEAT_CPUID = 9,
	PD_FEAT_TOTAL_MEM = 10,
	PD_FEAT_CMDLINE = 11,
	PD_FEAT_EVENT_DESC = 12,
	PD_FEAT_SAMPLE_TIME = 21,
	PD_FEAT_COMPRESSED = 27,
	PD_FEAT_CLOCK_DATA = 29,   /* clockid, wall and clock time at once */
	PD_FEAT_BITS = 256,
};

/* perf's own record types in the data section. */
enum {
	PD_REC_HEADER_ATTR = 64,
	PD_REC_BUILD_ID = 67,
	PD_REC_FINISHED_ROUND = 68,
	PD_REC_ID_INDEX = 69,
	PD_REC_AUXTRACE = 71,
	PD_REC_COMPRESSED = 81,
	PD_REC_FINISHED_INIT = 82,
	PD_REC_HEADER_TRACING_DATA = 66,
	PD_REC_HEADER_FEATURE = 80,
};

struct pd_section {
	uint64_t offset, size;
};

struct pd_header {
	uint64_t magic;
	uint64_t size;
	uint64_t attr_size;
	struct pd_section attrs, data, event_types;
	uint64_t features[4];
};

struct pd_attr {
	struct perf_event_attr attr; /* native order, zero past attr_size */
	char *name;                  /* EVENT_DESC's name, or NULL */
	uint64_t *ids;
	size_t nids;
	size_t id_pos;               /* u64 index of ID in a sample, or 0 */
	size_t sid_size;             /* bytes of the sample_id trailer */
	size_t sid_id_from_end;      /* u64s from the end to the ID, or 0 */
};

struct pd_build_id {
	int32_t pid;
	uint16_t misc;
	uint8_t id[20];
	size_t id_len;
	char *filename;
};

/* A decoded sample (pointers into the record). */
struct pd_sample {
	size_t attr;                 /* index in the file's attrs */
	uint16_t misc;               /* record misc: cpumode */
	uint64_t ip, time, addr, id, stream_id, period, weight;
	uint32_t pid, tid, cpu;
	uint64_t nr_ips;
	const uint64_t *ips;         /* callchain, native order */
	uint64_t user_abi, user_mask;
	const uint64_t *user_regs;   /* popcount(mask) registers */
	uint64_t stack_size, stack_dyn;
	const unsigned char *stack;
	uint32_t raw_size;           /* RAW: a tracepoint's record */
	const unsigned char *raw;
};

/* The fields of a non-sample record's sample_id trailer. */
struct pmu__pd_sample_id {
	uint32_t pid, tid, cpu;
	uint64_t time, id;
	bool has_time;
};

struct pd_file {
	const unsigned char *map;   /* the whole file (read-only mmap) */
	size_t len;
	bool swap;                  /* written in the other byte order */
	bool pipe;                  /* pipe mode: attrs come as records */
	struct pd_header h;
	struct pd_attr *attr;
	size_t nattr;
	/* id -> attr (open addressing) */
	uint64_t *id_key;
	size_t *id_val;
	size_t id_cap;
	/* header features */
	char *feat_str[PD_FEAT_BITS]; /* string features, NUL-terminated */
	char *cmdline;               /* CMDLINE joined with spaces */
	uint32_t nr_cpus_online, nr_cpus_avail;
	uint64_t total_mem, first_time, last_time;
	struct pd_trace trace;       /* TRACING_DATA: tracepoint formats */
	bool has_clock;              /* CLOCK_DATA: the sample clock and the
					wall clock read at one moment */
	uint32_t clockid;
	uint64_t wall_ns, clock_ns;
	struct pd_build_id *bid;
	size_t nbid;
	unsigned unknown_features;   /* set bits pmu does not read */
	/* iteration */
	uint64_t pos, end;           /* file offsets of the data section */
	unsigned char *scratch;      /* a swapped copy of one record */
	size_t scratch_size;
	bool truncated;              /* the data section ran past the end */
	bool corrupt;                /* a record header made no sense */
	uint64_t corrupt_at;         /* its file offset */
	uint64_t nunknown;           /* records of types pmu ignores */
	char path[256];
	bool own_map;                /* map is pmu__pd_open's mmap of the file */
	bool own_buf;                /* map is pmu__pd_open's copy of stdin */
	size_t since_release;        /* bytes read since pages were dropped */
	uint64_t released;           /* pages below this offset dropped */
};

/* Map and check a file; every problem is named in *err (the field and
 * its offset).  A data section cut short is not an error: `truncated`
 * says so and reading stops where the file does. */
int pmu__pd_open(struct pd_file *f, const char *path, struct pmu_error *err);
/* The same over bytes in memory (the fuzz target; len bytes are read,
 * never written, and must outlive f). */
int pmu__pd_open_mem(struct pd_file *f, const void *buf, size_t len,
		struct pmu_error *err);
void pmu__pd_close(struct pd_file *f);

/* The next record of the data section in native order, NULL at the end
 * (or where the file was cut short).  Valid until the next call. */
const struct perf_event_header *pmu__pd_next(struct pd_file *f);

/* The attr a record belongs to (by its ID or IDENTIFIER; the first
 * attr when the file has one), or -1. */
ssize_t pmu__pd_attr_of(const struct pd_file *f, const struct perf_event_header *h);

/* Decode a PERF_RECORD_SAMPLE; -EINVAL when it is shorter than its
 * sample_type says. */
int pmu__pd_sample_parse(const struct pd_file *f, const struct perf_event_header *h,
		    struct pd_sample *s);

/* The sample_id trailer of any other record (zeros where absent). */
void pmu__pd_sample_id(const struct pd_file *f, const struct perf_event_header *h,
		  struct pmu__pd_sample_id *sid);

/* ---- writing ---- */

struct pd_writer {
	FILE *f;
	char *path;
	char *tmp;           /* the file written, until it is put at path */
	bool pipe;           /* perf's pipe mode: "-" (standard output), a
				FIFO or a socket; written front to back */
	uint64_t data_off, data_size;
	size_t nattr;
	struct perf_event_attr *attr;
	char **names;
	uint64_t **ids;
	size_t *nids;
	/* features, given before pmu__pd_write_finish */
	char *feat_str[PD_FEAT_BITS];
	char **argv;
	size_t argc;
	struct pd_build_id *bid;
	size_t nbid;
	uint32_t nr_cpus_online, nr_cpus_avail;
	uint64_t total_mem, first_time, last_time;
	bool has_time;
	unsigned char *tracing;  /* TRACING_DATA: the tracepoints' formats */
	size_t ntracing;
	bool has_clock;      /* CLOCK_DATA: the samples' clock and the wall
				clock read at one moment */
	uint32_t clockid;
	uint64_t wall_ns, clock_ns;
};

/* Start a file that goes to `path` once finished, and reserve its
 * header; attrs and their ids are given now and written at finish.  It
 * is written into a new file of its own beside path (mode 0600, as
 * perf's, since a recording tells about every process it saw; created
 * anew, so no link planted there is followed), and nothing at path
 * changes before the finish. */
int pmu__pd_write_open(struct pd_writer *w, const char *path, size_t nattr,
		  const struct perf_event_attr *attr, char *const *names,
		  struct pmu_error *err);
/* Add kernel ids of attr i (copied). */
int pmu__pd_write_ids(struct pd_writer *w, size_t i, const uint64_t *ids,
		 size_t n);
/* Append records to the data section (sizes taken from the headers). */
int pmu__pd_write_data(struct pd_writer *w, const void *rec, size_t len);
/* Features: a string one (HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC,
 * CPUID), the command line, a build-id. */
int pmu__pd_write_feat_str(struct pd_writer *w, int feat, const char *s);
int pmu__pd_write_cmdline(struct pd_writer *w, int argc, char *const *argv);
int pmu__pd_write_build_id(struct pd_writer *w, int32_t pid, uint16_t misc,
		      const uint8_t *id, size_t len, const char *filename);
/* Write attrs, ids and features after the data and the header at 0,
 * and put the file at path: what was there (if not empty) becomes
 * path.old, as perf keeps it. */
int pmu__pd_write_finish(struct pd_writer *w, struct pmu_error *err);
/* The same, put at `dest` instead, which must not exist yet (-EEXIST:
 * nothing is replaced; the finished file stays until close). */
int pmu__pd_write_finish_to(struct pd_writer *w, const char *dest,
		       struct pmu_error *err);
/* Free; an unfinished file is removed. */
void pmu__pd_write_close(struct pd_writer *w);

#endif
