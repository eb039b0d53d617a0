/* SPDX-License-Identifier: MIT */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/dso_priv.h"

/* A function's name as the program spells it: the linkage name
 * demangled (C++), else DW_AT_name, following abstract origins. */
static const char *die_func_name(struct pmu__dso *d, Dwarf_Die *die)
{
	Dwarf_Attribute at;
	const char *n;

	if ((dwarf_attr_integrate(die, DW_AT_linkage_name, &at) ||
	     dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &at)) &&
	    (n = dwarf_formstring(&at)))
		return pmu__dso_str(d, n, true);
	if (dwarf_attr_integrate(die, DW_AT_name, &at) &&
	    (n = dwarf_formstring(&at)))
		return pmu__dso_str(d, n, false);
	return NULL;
}

/* Where an inlined instance was called from. */
static void call_site(struct pmu__dso *d, Dwarf_Die *cu, Dwarf_Die *inl,
		      const char **file, unsigned *line)
{
	Dwarf_Attribute at;
	Dwarf_Word fi = 0, ln = 0;
	Dwarf_Files *files;
	size_t nfiles;
	const char *f;

	*file = NULL;
	*line = 0;
	if (dwarf_attr(inl, DW_AT_call_line, &at) && !dwarf_formudata(&at, &ln))
		*line = (unsigned)ln;
	if (!dwarf_attr(inl, DW_AT_call_file, &at) || dwarf_formudata(&at, &fi))
		return;
	if (dwarf_getsrcfiles(cu, &files, &nfiles) || fi >= nfiles)
		return;
	if ((f = dwarf_filesrc(files, fi, NULL, NULL)))
		*file = pmu__dso_str(d, f, false);
}

/* The chain of functions an address is in, innermost first: each
 * inlined instance (named by its abstract origin) with the source line
 * in it, then the function it was inlined into at the call site, out to
 * the concrete function.  dwarf_getscopes() names the innermost scope;
 * past an inlined instance it goes on with the scopes of the instance's
 * abstract definition, so the concrete chain of the innermost scope
 * (dwarf_getscopes_die) is walked instead, as addr2line -i walks it. */
static void inline_chain(struct pmu__dso *d, Dwarf_Die *cu,
			 struct pmu__addr_info *a)
{
	Dwarf_Die *scopes = NULL, inner;
	int n = dwarf_getscopes(cu, a->addr, &scopes);
	struct pmu__inl *v;
	size_t k = 0;
	const char *file = a->file;
	unsigned line = a->line;

	if (n > 0 && dwarf_offdie(dwarf_cu_getdwarf(cu->cu),
				  dwarf_dieoffset(&scopes[0]), &inner)) {
		free(scopes);
		scopes = NULL;
		n = dwarf_getscopes_die(&inner, &scopes);
	}
	if (n <= 0 || !(v = calloc((size_t)n + 1, sizeof(*v)))) {
		free(scopes);
		return;
	}
	for (int i = 0; i < n; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag != DW_TAG_inlined_subroutine &&
		    tag != DW_TAG_subprogram)
			continue;
		v[k].func = die_func_name(d, &scopes[i]);
		v[k].file = file;
		v[k].line = line;
		k++;
		if (tag == DW_TAG_subprogram)
			break;
		call_site(d, cu, &scopes[i], &file, &line);
	}
	free(scopes);
	/* the outermost is the symbol's own function: its name is the
	 * symbol table's, which perf shows */
	if (k && a->sym)
		v[k - 1].func = a->sym->name;
	if (k)
		a->inl = v;
	else
		free(v);
	a->ninl = k;
}

void pmu__dso_lines(struct pmu__dso *d, struct pmu__addr_info *a)
{
	Dwarf_Die cu;
	Dwarf_Line *l;
	int line = 0;
	const char *f;

	if (!dwarf_addrdie(d->dw, a->addr, &cu))
		return;
	if ((l = dwarf_getsrc_die(&cu, a->addr))) {
		if ((f = dwarf_linesrc(l, NULL, NULL)))
			a->file = pmu__dso_str(d, f, false);
		dwarf_lineno(l, &line);
		a->line = (unsigned)line;
	}
	inline_chain(d, &cu, a);
}

/* The file's .eh_frame, read once (and not for a file that changed
 * since the recording: its addresses would lie). */
static Dwarf_CFI *cfi_of(struct pmu__dso *d)
{
	if (d->cfi_tried)
		return d->cfi;
	d->cfi_tried = true;
	pmu__dso_load(d);
	if (d->kind != PMU__DSO_FILE || d->problem[0] || d->set->offline)
		return NULL;
	if (pmu__elfutils_load())
		return NULL;
	d->cfi_fd = open(d->path, O_RDONLY | O_CLOEXEC);
	if (d->cfi_fd < 0)
		return NULL;
	d->cfi_elf = elf_begin(d->cfi_fd, ELF_C_READ_MMAP, NULL);
	if (d->cfi_elf)
		d->cfi = dwarf_getcfi_elf(d->cfi_elf);
	return d->cfi;
}

bool pmu__dso_ra_in_register(struct pmu__dso *d, uint64_t addr)
{
	Dwarf_CFI *cfi = cfi_of(d);
	Dwarf_Frame *fr = NULL;
	Dwarf_Op mem[3], *ops = NULL;
	size_t nops = 0;
	bool same = false;
	int ra;

	if (!cfi || dwarf_cfi_addrframe(cfi, addr, &fr) || !fr)
		return false;
	/* no rule that saves it (a location to read it from): "same
	 * value", or no rule at all (GCC's arm64 CIE gives the link
	 * register none, and libdw reads that as undefined) */
	ra = dwarf_frame_info(fr, NULL, NULL, NULL);
	if (ra >= 0 && !dwarf_frame_register(fr, ra, mem, &ops, &nops))
		same = nops == 0;
	free(fr);
	return same;
}
