/* SPDX-License-Identifier: MIT */
/*
 * libpmu-mpi.so: one region report for an MPI job.  Under
 * `mpirun -np N pmu stat --regions -- ./app` every rank is a program of
 * its own pmu stat; this library, which pmu stat preloads into a program
 * that calls MPI_Finalize, takes MPI_Finalize (through MPI's profiling
 * interface) and first gathers every rank's regions to rank 0 with MPI
 * itself: rank 0 writes them into its pmu stat's directory as
 * regions.rank.R, the other ranks leave a note (regions.sent) saying
 * where theirs went.  Rank 0's pmu stat prints the job's regions; the
 * others print their counts only.  What a rank marks after MPI_Finalize
 * (MPI can no longer carry it) stays in its own file, which its own
 * pmu stat prints.
 *
 * Fortran's MPI_FINALIZE is taken too: Open MPI's Fortran bindings call
 * PMPI_Finalize directly, past the C one.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pmu/region.h>

#define EXPORT __attribute__((visibility("default")))

/* The whole file at path (NUL-terminated), *len its size; NULL. */
static char *slurp(const char *path, int *len)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	long n;

	*len = 0;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || n > (1L << 30) ||
	    fseek(f, 0, SEEK_SET) || !(buf = malloc((size_t)n + 1)) ||
	    fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[n] = 0;
	*len = (int)n;
	return buf;
}

/* This process image's file, DIR/regions.PID-IMAGE: the newest of the
 * pid's (an exec'd image's is newer than the one before); 0 if none. */
static int own_file(const char *dir, char *path, size_t len)
{
	char prefix[32], best[256] = "";
	unsigned long long top = 0;
	struct dirent *e;
	DIR *d = opendir(dir);
	size_t pl;

	if (!d)
		return 0;
	pl = (size_t)snprintf(prefix, sizeof(prefix), "regions.%d-",
			      (int)getpid());
	while ((e = readdir(d))) {
		unsigned long long v;

		if (strncmp(e->d_name, prefix, pl))
			continue;
		v = strtoull(e->d_name + pl, NULL, 10);
		if (!*best || v > top) {
			top = v;
			snprintf(best, sizeof(best), "%s", e->d_name);
		}
	}
	closedir(d);
	if (!*best)
		return 0;
	snprintf(path, len, "%s/%s", dir, best);
	return 1;
}

/* Write len bytes to dir/name whole (a temporary renamed). */
static void put(const char *dir, const char *name, const char *text,
		size_t len)
{
	char path[4096], tmp[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", dir, name);
	if (!(f = fopen(tmp, "we")))
		return;
	if (fwrite(text, 1, len, f) != len || fclose(f)) {
		unlink(tmp);
		return;
	}
	if (rename(tmp, path))
		unlink(tmp);
}

/* Every rank's regions to rank 0 (collective: every rank calls it). */
static void gather(void)
{
	const char *dir = getenv("PMU_REGIONS");
	int rank = 0, size = 1, len = 0, *lens = NULL, *offs = NULL;
	char path[4096], *text = NULL, *all = NULL;
	long total = 0;

	if (!dir || !*dir || PMPI_Comm_rank(MPI_COMM_WORLD, &rank) ||
	    PMPI_Comm_size(MPI_COMM_WORLD, &size))
		return;
	/* this rank's regions so far, as its file */
	pmu_region_flush();
	if (own_file(dir, path, sizeof(path)))
		text = slurp(path, &len);
	if (rank == 0) {
		lens = calloc((size_t)size, sizeof(*lens));
		offs = calloc((size_t)size, sizeof(*offs));
	}
	PMPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (rank == 0 && lens && offs) {
		for (int r = 0; r < size; r++) {
			offs[r] = (int)total;
			total += lens[r];
		}
		if (total > (1L << 30) || !(all = malloc((size_t)total + 1)))
			total = -1;
	}
	/* a rank 0 out of memory still takes part, receiving nothing */
	if (rank == 0 && total < 0) {
		for (int r = 0; r < size; r++)
			lens[r] = offs[r] = 0;
	}
	PMPI_Gatherv(text ? text : "", len, MPI_CHAR, all, lens, offs,
		     MPI_CHAR, 0, MPI_COMM_WORLD);
	if (rank == 0 && all) {
		for (int r = 0; r < size; r++) {
			char name[64];

			if (!lens[r])
				continue;
			snprintf(name, sizeof(name), "regions.rank.%d", r);
			put(dir, name, all + offs[r], (size_t)lens[r]);
		}
	} else if (rank != 0) {
		char note[64];
		int n = snprintf(note, sizeof(note), "rank %d of %d\n", rank,
				 size);

		put(dir, "regions.sent", note, (size_t)n);
	}
	free(all);
	free(lens);
	free(offs);
	free(text);
	/* what comes after is this rank's own */
	pmu_region_reset();
}

EXPORT int MPI_Finalize(void);

EXPORT int MPI_Finalize(void)
{
	if (pmu_region_active())
		gather();
	return PMPI_Finalize();
}

/* Fortran: `call MPI_Finalize(ierror)` (mpif.h, `use mpi`; the names
 * the compilers give it) and `use mpi_f08` (ierror optional). */
static void fortran_finalize(MPI_Fint *ierr)
{
	int rc = MPI_Finalize();

	if (ierr)
		*ierr = (MPI_Fint)rc;
}

EXPORT void mpi_finalize_(MPI_Fint *ierr);
EXPORT void mpi_finalize__(MPI_Fint *ierr);
EXPORT void mpi_finalize(MPI_Fint *ierr);
EXPORT void MPI_FINALIZE(MPI_Fint *ierr);
EXPORT void mpi_finalize_f08_(MPI_Fint *ierr);

EXPORT void mpi_finalize_(MPI_Fint *ierr) { fortran_finalize(ierr); }
EXPORT void mpi_finalize__(MPI_Fint *ierr) { fortran_finalize(ierr); }
EXPORT void mpi_finalize(MPI_Fint *ierr) { fortran_finalize(ierr); }
EXPORT void MPI_FINALIZE(MPI_Fint *ierr) { fortran_finalize(ierr); }
EXPORT void mpi_finalize_f08_(MPI_Fint *ierr) { fortran_finalize(ierr); }
