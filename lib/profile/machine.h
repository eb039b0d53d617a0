/* SPDX-License-Identifier: MIT */
#ifndef PMU_PROFILE_MACHINE_H
#define PMU_PROFILE_MACHINE_H

/*
 * What the profiled machine looked like at a point of the recording:
 * threads (command names) and, per process, the files mapped where
 * (from COMM, MMAP, MMAP2, FORK and EXIT records, in time order).
 */

#include <stddef.h>
#include <stdint.h>

#include "profile/dso.h"

struct pmu__map {
	uint64_t start, end, pgoff;
	struct pmu__dso *dso;
};

struct pmu__proc {
	int pid;
	struct pmu__map *maps;  /* sorted by start, not overlapping */
	size_t n, cap;
};

struct pmu__thread {
	int tid, pid;
	const char *comm;       /* interned */
};

struct pmu__machine {
	struct pmu__dso_set *dsos;
	struct pmu__proc **procs;     /* hash by pid */
	size_t proc_cap, nproc;
	struct pmu__thread **threads; /* hash by tid */
	size_t thr_cap, nthr;
	char **strs;                  /* interned strings */
	size_t nstrs, cap_strs;
	struct pmu__thread *last_thr;
	struct pmu__proc *last_proc;
};

void pmu__machine_init(struct pmu__machine *m, struct pmu__dso_set *dsos);
void pmu__machine_free(struct pmu__machine *m);

struct pmu__thread *pmu__machine_thread(struct pmu__machine *m, int pid,
					int tid);
struct pmu__proc *pmu__machine_proc(struct pmu__machine *m, int pid);
int pmu__machine_comm(struct pmu__machine *m, int pid, int tid,
		      const char *comm);
int pmu__machine_mmap(struct pmu__machine *m, int pid, uint64_t start,
		      uint64_t len, uint64_t pgoff, struct pmu__dso *dso);
/* A new process (pid != ppid) starts with a copy of its parent's maps;
 * a new thread inherits its creator's command name. */
int pmu__machine_fork(struct pmu__machine *m, int pid, int ppid, int tid,
		      int ptid);
const struct pmu__map *pmu__machine_find(const struct pmu__proc *p,
					 uint64_t ip);

#endif
