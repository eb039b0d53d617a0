/* SPDX-License-Identifier: MIT */
#ifndef PMU_PROFILE_ELFUTILS_H
#define PMU_PROFILE_ELFUTILS_H

/*
 * elfutils (libelf, libdw) loaded when first needed: the counting
 * commands never read an ELF file, so they do not pay for loading
 * libdw, libelf, libz, liblzma and libbz2 at start-up.  Files that
 * include this header call the libraries' functions by their own names,
 * which go through the table pmu__elfutils_load() fills; every path
 * that opens an ELF file (elf_begin, elf_memory, dwfl_begin) calls it
 * first and treats a failure as a file it cannot read.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <libelf.h>

#define PMU__ELFUTILS_FNS(X) \
	X(dwarf_addrdie) X(dwarf_attr) X(dwarf_attr_integrate) \
	X(dwarf_begin_elf) X(dwarf_cfi_addrframe) X(dwarf_cu_getdwarf) \
	X(dwarf_dieoffset) X(dwarf_end) X(dwarf_filesrc) X(dwarf_formstring) \
	X(dwarf_formudata) X(dwarf_frame_info) X(dwarf_frame_register) \
	X(dwarf_getcfi_elf) X(dwarf_getscopes) X(dwarf_getscopes_die) \
	X(dwarf_getsrc_die) X(dwarf_getsrcfiles) X(dwarf_lineno) \
	X(dwarf_linesrc) X(dwarf_offdie) X(dwarf_tag) \
	X(dwelf_elf_gnu_build_id) X(dwfl_attach_state) X(dwfl_begin) \
	X(dwfl_build_id_find_elf) X(dwfl_end) X(dwfl_frame_pc) \
	X(dwfl_getthread_frames) X(dwfl_report_begin) X(dwfl_report_elf) \
	X(dwfl_report_end) X(dwfl_standard_find_debuginfo) \
	X(dwfl_thread_state_register_pc) X(dwfl_thread_state_registers) \
	X(elf_begin) X(elf_end) X(elf_getdata) X(elf_getphdrnum) \
	X(elf_getscn) X(elf_getshdrstrndx) X(elf_kind) X(elf_memory) \
	X(elf_nextscn) X(elf_strptr) X(elf_version) X(gelf_getehdr) \
	X(gelf_getphdr) X(gelf_getrela) X(gelf_getshdr) X(gelf_getsym)

struct pmu__elfutils {
#define PMU__EU_FIELD(f) __typeof__(f) *f;
	PMU__ELFUTILS_FNS(PMU__EU_FIELD)
#undef PMU__EU_FIELD
};

extern struct pmu__elfutils pmu__eu;

/* Load libdw (and with it libelf) once; thread-safe.  0, or -ENOENT
 * when it cannot be loaded (pmu__elfutils_problem() says why). */
int pmu__elfutils_load(void);
const char *pmu__elfutils_problem(void);

#ifndef PMU__ELFUTILS_IMPL
#define dwarf_addrdie (pmu__eu.dwarf_addrdie)
#define dwarf_attr (pmu__eu.dwarf_attr)
#define dwarf_attr_integrate (pmu__eu.dwarf_attr_integrate)
#define dwarf_begin_elf (pmu__eu.dwarf_begin_elf)
#define dwarf_cfi_addrframe (pmu__eu.dwarf_cfi_addrframe)
#define dwarf_cu_getdwarf (pmu__eu.dwarf_cu_getdwarf)
#define dwarf_dieoffset (pmu__eu.dwarf_dieoffset)
#define dwarf_end (pmu__eu.dwarf_end)
#define dwarf_filesrc (pmu__eu.dwarf_filesrc)
#define dwarf_formstring (pmu__eu.dwarf_formstring)
#define dwarf_formudata (pmu__eu.dwarf_formudata)
#define dwarf_frame_info (pmu__eu.dwarf_frame_info)
#define dwarf_frame_register (pmu__eu.dwarf_frame_register)
#define dwarf_getcfi_elf (pmu__eu.dwarf_getcfi_elf)
#define dwarf_getscopes (pmu__eu.dwarf_getscopes)
#define dwarf_getscopes_die (pmu__eu.dwarf_getscopes_die)
#define dwarf_getsrc_die (pmu__eu.dwarf_getsrc_die)
#define dwarf_getsrcfiles (pmu__eu.dwarf_getsrcfiles)
#define dwarf_lineno (pmu__eu.dwarf_lineno)
#define dwarf_linesrc (pmu__eu.dwarf_linesrc)
#define dwarf_offdie (pmu__eu.dwarf_offdie)
#define dwarf_tag (pmu__eu.dwarf_tag)
#define dwelf_elf_gnu_build_id (pmu__eu.dwelf_elf_gnu_build_id)
#define dwfl_attach_state (pmu__eu.dwfl_attach_state)
#define dwfl_begin (pmu__eu.dwfl_begin)
#define dwfl_build_id_find_elf (pmu__eu.dwfl_build_id_find_elf)
#define dwfl_end (pmu__eu.dwfl_end)
#define dwfl_frame_pc (pmu__eu.dwfl_frame_pc)
#define dwfl_getthread_frames (pmu__eu.dwfl_getthread_frames)
#define dwfl_report_begin (pmu__eu.dwfl_report_begin)
#define dwfl_report_elf (pmu__eu.dwfl_report_elf)
#define dwfl_report_end (pmu__eu.dwfl_report_end)
#define dwfl_standard_find_debuginfo (pmu__eu.dwfl_standard_find_debuginfo)
#define dwfl_thread_state_register_pc (pmu__eu.dwfl_thread_state_register_pc)
#define dwfl_thread_state_registers (pmu__eu.dwfl_thread_state_registers)
#define elf_begin (pmu__eu.elf_begin)
#define elf_end (pmu__eu.elf_end)
#define elf_getdata (pmu__eu.elf_getdata)
#define elf_getphdrnum (pmu__eu.elf_getphdrnum)
#define elf_getscn (pmu__eu.elf_getscn)
#define elf_getshdrstrndx (pmu__eu.elf_getshdrstrndx)
#define elf_kind (pmu__eu.elf_kind)
#define elf_memory (pmu__eu.elf_memory)
#define elf_nextscn (pmu__eu.elf_nextscn)
#define elf_strptr (pmu__eu.elf_strptr)
#define elf_version (pmu__eu.elf_version)
#define gelf_getehdr (pmu__eu.gelf_getehdr)
#define gelf_getphdr (pmu__eu.gelf_getphdr)
#define gelf_getrela (pmu__eu.gelf_getrela)
#define gelf_getshdr (pmu__eu.gelf_getshdr)
#define gelf_getsym (pmu__eu.gelf_getsym)
#endif

#endif
