! SPDX-License-Identifier: MIT
! The MPI regions test's Fortran program (built with -cpp; -DF08 for
! the mpi_f08 module): rank R enters region "work" R + 1 times, then
! every rank meets in "barrier"; after MPI_Finalize, region "after".
program mpi_regions_f90
#ifdef F08
  use mpi_f08
#else
  use mpi
#endif
  use pmu_regions
  implicit none
  integer :: rank, size, ierr, i
  real(8) :: x
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  x = 0
  do i = 1, rank + 1
    call pmu_region_begin("work")
    x = x + sqrt(real(i, 8))
    call pmu_region_end("work")
  end do
  call pmu_region_begin("barrier")
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call pmu_region_end("barrier")
  print '(a,i0,a,i0,a,f8.3)', "rank ", rank, " of ", size, " x ", x
  call MPI_Finalize(ierr)
  if (ierr /= 0) stop 2
  call pmu_region_begin("after")
  x = x * 2
  call pmu_region_end("after")
end program mpi_regions_f90
