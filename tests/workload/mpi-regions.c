/* SPDX-License-Identifier: MIT */
/*
 * The MPI regions test's program: rank R touches 10 * (R + 1) fresh
 * pages in region "work" and prints the page faults the kernel counted
 * inside it ("rank R faults F"); then every rank meets in "barrier".
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <pmu/region.h>

static long faults(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_minflt;
}

int main(int argc, char **argv)
{
	long psz = sysconf(_SC_PAGESIZE), pages, f0, f1;
	int rank, size;
	volatile char *p;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	pages = 10L * (rank + 1);
	p = mmap(NULL, (size_t)(pages * psz), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 3;
	pmu_region_begin("work");
	f0 = faults();
	for (long i = 0; i < pages; i++)
		p[i * psz] = 1;
	f1 = faults();
	pmu_region_end("work");
	pmu_region_begin("barrier");
	MPI_Barrier(MPI_COMM_WORLD);
	pmu_region_end("barrier");
	printf("rank %d of %d faults %ld\n", rank, size, f1 - f0);
	fflush(stdout);
	MPI_Finalize();
	return 0;
}
