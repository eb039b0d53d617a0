! SPDX-License-Identifier: MIT
!
! Region markers for Fortran (<pmu/region.h>): compile this file with
! your program and link with -lpmu.
!
!   use pmu_regions
!   call pmu_region_begin("solve")
!   ...
!   call pmu_region_end("solve")
!
! Trailing blanks of a name are dropped.  The optional ierr is 0, or a
! negative errno (-22: an empty name, or an end that does not match the
! innermost open region).  Outside `pmu stat --regions` the markers do
! nothing.
module pmu_regions
  use, intrinsic :: iso_c_binding, only: c_char, c_int, c_bool, c_null_char
  implicit none
  private
  public :: pmu_region_begin, pmu_region_end, pmu_region_flush, &
            pmu_region_active

  interface
    function c_begin(name) bind(C, name="pmu_region_begin") result(r)
      import :: c_char, c_int
      character(kind=c_char), dimension(*), intent(in) :: name
      integer(c_int) :: r
    end function c_begin
    function c_end(name) bind(C, name="pmu_region_end") result(r)
      import :: c_char, c_int
      character(kind=c_char), dimension(*), intent(in) :: name
      integer(c_int) :: r
    end function c_end
    function c_flush() bind(C, name="pmu_region_flush") result(r)
      import :: c_int
      integer(c_int) :: r
    end function c_flush
    function c_active() bind(C, name="pmu_region_active") result(r)
      import :: c_bool
      logical(c_bool) :: r
    end function c_active
  end interface

contains

  subroutine pmu_region_begin(name, ierr)
    character(len=*), intent(in) :: name
    integer, intent(out), optional :: ierr
    integer(c_int) :: r
    r = c_begin(trim(name) // c_null_char)
    if (present(ierr)) ierr = int(r)
  end subroutine pmu_region_begin

  subroutine pmu_region_end(name, ierr)
    character(len=*), intent(in) :: name
    integer, intent(out), optional :: ierr
    integer(c_int) :: r
    r = c_end(trim(name) // c_null_char)
    if (present(ierr)) ierr = int(r)
  end subroutine pmu_region_end

  subroutine pmu_region_flush(ierr)
    integer, intent(out), optional :: ierr
    integer(c_int) :: r
    r = c_flush()
    if (present(ierr)) ierr = int(r)
  end subroutine pmu_region_flush

  logical function pmu_region_active()
    pmu_region_active = logical(c_active())
  end function pmu_region_active

end module pmu_regions
