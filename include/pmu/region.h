/* SPDX-License-Identifier: MIT */
#ifndef PMU_REGION_H
#define PMU_REGION_H

/*
 * Regions: mark a piece of code once, and `pmu stat --regions` reports
 * its counts per region and per thread.
 *
 *	#include <pmu/region.h>
 *	...
 *	pmu_region_begin("solve");
 *	solve();
 *	pmu_region_end("solve");
 *
 * Regions nest and may recurse; each thread has its own (any thread the
 * program creates: pthreads, OpenMP).  Outside `pmu stat --regions` a
 * marker returns at once: it is a macro that tests one flag.  Under it, the calling
 * thread's counters are read at each marker (in user space where the
 * kernel allows it, else one read(2) per event group), and the program
 * writes what its regions counted when it exits (or at
 * pmu_region_flush()); pmu stat reads that and prints it.  Under
 * `pmu stat --emulate --regions` the counters are the emulator's: exact.
 *
 * Each region gets: the calls, the time and counts from begin to end
 * (inclusive) and the same less what its inner regions took
 * (exclusive).  A region that recurses counts its outermost call's span
 * once inclusively.  A region still open when the program exits is
 * reported as open, with what it counted up to the exit.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <pmu/error.h>
#include <pmu/session.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A region's name keeps its first PMU_REGION_NAME_MAX - 1 bytes. */
#define PMU_REGION_NAME_MAX 128

/*
 * Begin and end region `name` on the calling thread (names are compared
 * as strings, up to PMU_REGION_NAME_MAX - 1 bytes).  0; -EINVAL for a NULL or
 * empty name, or an end that does not match the innermost open region
 * of the thread (the mismatch is also reported with the regions, naming
 * both); -ENOMEM.  A marker outside `pmu stat --regions` does nothing
 * and returns 0.
 */
PMU_API int pmu_region_begin(const char *name);
PMU_API int pmu_region_end(const char *name);

/*
 * 0 once the library knows the markers are off (it looks when it is
 * loaded): the two markers are then macros that test it and call
 * nothing, without evaluating `name`.  (pmu_region_begin)(name) calls
 * the function itself.
 */
PMU_API extern int pmu_regions_enabled;
#define pmu_region_begin(name) \
	(__builtin_expect(pmu_regions_enabled, 0) ? (pmu_region_begin)(name) : 0)
#define pmu_region_end(name) \
	(__builtin_expect(pmu_regions_enabled, 0) ? (pmu_region_end)(name) : 0)

/* Is this program measured by `pmu stat --regions`? */
PMU_API bool pmu_region_active(void);

/* Write what every thread's regions counted so far, open regions
 * flagged open with what they counted up to their thread's last marker
 * (the program writes at exit by itself; one that leaves by _exit() or
 * replaces itself by exec calls this first: the exec'd image writes a
 * file of its own). */
PMU_API int pmu_region_flush(void);

/* Forget what every thread's regions counted so far (after a flush that
 * handed it on: libpmu-mpi.so's at MPI_Finalize).  A region open now
 * goes on, counted from its thread's last marker, as one call of what
 * comes after.  0. */
PMU_API int pmu_region_reset(void);

/*
 * Reading what measured programs wrote: the directory `pmu stat
 * --regions` gave them (environment variable PMU_REGIONS), one file per
 * process.
 */
struct pmu_region_report;

struct pmu_region_row {
	size_t size;               /* sizeof(struct pmu_region_row) */
	const char *name;          /* the region */
	pid_t pid;                 /* the process; 0 in a total */
	pid_t tid;                 /* the thread; 0 in a total */
	int rank;                  /* an MPI job's rank; -1 otherwise */
	uint64_t calls;
	uint64_t threads;          /* threads that entered it (1 in a
				      thread's row) */
	uint64_t time_ns;          /* inclusive wall time */
	uint64_t excl_time_ns;     /* less its inner regions' */
	bool open_at_exit;         /* still open when the thread or the
				      program ended */
	const uint64_t *incl;      /* [nevents] inclusive counts (scaled
				      when the events were multiplexed) */
	const uint64_t *excl;      /* [nevents] exclusive counts */
};
#define pmu_region_row__last_field excl

/* Load every file of `dir`; NULL with *err (and errno) on failure: no
 * file, a file that is not a region file (naming it), files of
 * different event lists. */
PMU_API struct pmu_region_report *pmu_region_report_load(
	const char *dir, struct pmu_error *err);
PMU_API void pmu_region_report_free(struct pmu_region_report *r);

/* The events counted: name, unit ("msec" for clocks, else "") and the
 * scale that turns a count into the unit (1e-6 for ns to msec). */
PMU_API size_t pmu_region_report_nevents(const struct pmu_region_report *r);
PMU_API const char *pmu_region_report_event(
	const struct pmu_region_report *r, size_t i, const char **unit,
	double *scale);
/* Is event i counted (false: the PMU could not count it)? */
PMU_API bool pmu_region_report_counted(const struct pmu_region_report *r,
				       size_t i);

/* Regions, in the order they were first entered; region k's total over
 * every thread and process, and its rows (one per thread). */
PMU_API size_t pmu_region_report_nregions(const struct pmu_region_report *r);
PMU_API int pmu_region_report_total(const struct pmu_region_report *r,
				    size_t k, struct pmu_region_row *out);
PMU_API size_t pmu_region_report_nrows(const struct pmu_region_report *r,
				       size_t k);
PMU_API int pmu_region_report_row(const struct pmu_region_report *r,
				  size_t k, size_t j,
				  struct pmu_region_row *out);

/*
 * An MPI job (each rank under its own pmu stat, libpmu-mpi.so gathering
 * every rank's regions to rank 0 at MPI_Finalize): the ranks whose
 * regions rank 0's directory holds (0: not a job's), and on another
 * rank the rank whose regions went to rank 0 (-1: none went).
 * Region k's total over each rank's threads (rank q of those that
 * entered it, in rank order; pid is the rank's process), and the spread
 * of one figure over those ranks: figure 0 the inclusive time in ns,
 * figure 1 + i event i's inclusive count (unscaled).
 */
struct pmu_region_spread {
	size_t size;               /* sizeof(struct pmu_region_spread) */
	size_t nranks;
	double sum, min, mean, max;
	int min_rank, max_rank;    /* the ranks of min and max (the first
				      of equals) */
};
#define pmu_region_spread__last_field max_rank

PMU_API size_t pmu_region_report_nranks(const struct pmu_region_report *r);
PMU_API int pmu_region_report_sent(const struct pmu_region_report *r);
/* What a rank's own process marked after it sent its regions (after
 * MPI_Finalize), from its own file of `dir`; NULL with *err (-ENOENT:
 * nothing) otherwise. */
PMU_API struct pmu_region_report *pmu_region_report_load_after(
	const char *dir, struct pmu_error *err);
PMU_API size_t pmu_region_report_nrank_rows(const struct pmu_region_report *r,
					    size_t k);
PMU_API int pmu_region_report_rank_row(const struct pmu_region_report *r,
				       size_t k, size_t q,
				       struct pmu_region_row *out);
PMU_API int pmu_region_report_spread(const struct pmu_region_report *r,
				     size_t k, size_t figure,
				     struct pmu_region_spread *out);

/*
 * A recorder: the regions of a session the calling program drives
 * itself (a simulated PMU fed a stream with `region begin NAME` /
 * `region end NAME` statements, or the caller's own begin and end),
 * read there, kept as a measured program's are and reported the same
 * way.  s must stay open while the recorder lives; it takes the
 * session's region statements (pmu_session_on_region()) until freed.
 * begin and end return as the markers do; report gives the regions so
 * far, those still open flagged and closed at the last reading.
 */
struct pmu_region_recorder;
PMU_API struct pmu_region_recorder *pmu_region_recorder_new(
	struct pmu_session *s, struct pmu_error *err);
PMU_API int pmu_region_recorder_begin(struct pmu_region_recorder *r,
				      const char *name);
PMU_API int pmu_region_recorder_end(struct pmu_region_recorder *r,
				    const char *name);
PMU_API struct pmu_region_report *pmu_region_recorder_report(
	struct pmu_region_recorder *r, struct pmu_error *err);
PMU_API void pmu_region_recorder_free(struct pmu_region_recorder *r);

/* What went wrong in the measured program (an end that matched no
 * begin...), one message each, naming the region and the thread. */
PMU_API size_t pmu_region_report_nerrors(const struct pmu_region_report *r);
PMU_API const char *pmu_region_report_error(
	const struct pmu_region_report *r, size_t i);

#ifdef __cplusplus
}

/* C++: a region for the lifetime of a scope. */
class pmu_region_scope {
public:
	explicit pmu_region_scope(const char *name) : name_(name)
	{
		pmu_region_begin(name_);
	}
	~pmu_region_scope() { pmu_region_end(name_); }
	pmu_region_scope(const pmu_region_scope &) = delete;
	pmu_region_scope &operator=(const pmu_region_scope &) = delete;

private:
	const char *name_;
};
#endif

#endif
