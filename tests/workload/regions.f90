! SPDX-License-Identifier: MIT
! The regions tests' Fortran program: pmu's own module (pmu_regions).
!   regions-f90    "outer" twice, each with an "inner", then a mismatch
program regions_f90
  use pmu_regions
  implicit none
  integer :: i, ierr
  real(8) :: x
  x = 0
  do i = 1, 2
    call pmu_region_begin("outer")
    call pmu_region_begin("inner   ")
    x = x + i
    call pmu_region_end("inner")
    call pmu_region_end("outer", ierr)
    if (ierr /= 0) stop 1
  end do
  call pmu_region_begin("a")
  call pmu_region_end("b", ierr)
  print '(a,i0)', "mismatch ", ierr
  call pmu_region_end("a")
  print '(a,l1)', "active ", pmu_region_active()
end program regions_f90
