/* SPDX-License-Identifier: MIT */
#ifndef PMU_PROFILE_RECORD_H
#define PMU_PROFILE_RECORD_H

#include <pmu/profile.h>

#include "events/evlist.h"
#include "profile/perfdata.h"
#include "session/session.h"

struct pmu_record {
	struct pmu__evlist evl;         /* parsed, until the session has them */
	struct pmu_session *s;          /* perf: the events, their rings */
	size_t nev;                     /* events on perf (0: the emulator) */
	struct pd_writer w;
	char *path;
	struct perf_event_attr *attr;   /* as opened, for the file */
	char **names;
	uint64_t id0;                   /* first event's first id */
	bool cpu_field;                 /* samples carry CPU */
	/* records that describe the machine (COMM, MMAP2, FORK), kept to
	 * start a switched-to file with them */
	unsigned char *keep;
	size_t nkeep, cap_keep;
	/* the files mapped, for build-ids */
	char **files;
	size_t nfiles, cap_files;
	struct pmu_record_stats stats;
	uint64_t lost_base;             /* lost before the current file */
	int argc;
	char **argv;
	bool have_time;
	uint64_t first_time, last_time;
	uint64_t synth_time;            /* TIME of records pmu writes */
	struct record_emu *emu;         /* recording under the emulator */
};

/* Records pmu writes itself: the kernel's map, and (-p, -t, -a) the
 * threads and maps of processes that existed before recording. */
int pmu__record_synth_kernel(struct pmu_record *r);
int pmu__record_synth_procs(struct pmu_record *r, const pid_t *pids,
			    size_t n, bool threads);
/* A sample_id trailer for a synthesized record of pid/tid. */
size_t pmu__record_trailer(const struct pmu_record *r, uint32_t pid,
			   uint32_t tid, unsigned char *out);
/* Records of the machine, written as the kernel would (misc: the
 * header's; times: r->synth_time). */
/* The tracepoints' formats (TRACING_DATA), known before the first
 * record: a stream carries them ahead of the samples. */
int pmu__record_tracing(struct pmu_record *r);
int pmu__record_mmap2(struct pmu_record *r, uint32_t pid, uint32_t tid,
		      uint64_t start, uint64_t len, uint64_t pgoff,
		      const char *file, uint16_t misc);
int pmu__record_comm(struct pmu_record *r, uint32_t pid, uint32_t tid,
		     const char *comm, uint16_t misc);
int pmu__record_fork(struct pmu_record *r, uint32_t pid, uint32_t ppid,
		     uint32_t tid, uint32_t ptid);

/* record_emu.c: a command under the emulator, its samples the emulated
 * model's i-mode overflows (docs/emulation.md). */
int pmu__record_emu_open(struct pmu_record *r,
			 const struct pmu_record_opts *o,
			 struct pmu_error *err);
/* Write what the emulator sent so far. */
int pmu__record_emu_drain(struct pmu_record *r);
/* Stop: what is left is written, lost samples counted. */
int pmu__record_emu_stop(struct pmu_record *r);
void pmu__record_emu_free(struct pmu_record *r);

/* Header features and build-ids of the files mapped. */
int pmu__record_features(struct pmu_record *r);
/* Note a record written (keeps COMM/MMAP/FORK, collects file names). */
void pmu__record_note(struct pmu_record *r, const struct perf_event_header *h);

#endif
