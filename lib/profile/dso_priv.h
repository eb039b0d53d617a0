/* SPDX-License-Identifier: MIT */
#ifndef PMU_PROFILE_DSO_PRIV_H
#define PMU_PROFILE_DSO_PRIV_H

#include "profile/elfutils.h"

#include "profile/dso.h"

struct pmu__seg {
	uint64_t off, filesz, vaddr;
};

struct pmu__dso {
	struct pmu__dso_set *set;
	size_t index;
	enum pmu__dso_kind kind;
	char *path;
	bool loaded;
	char problem[96];
	uint8_t bid[20], hdr_bid[20];
	size_t bid_len, hdr_bid_len;
	struct pmu__sym *syms;       /* sorted by start */
	size_t nsyms;
	struct pmu__seg *segs;       /* PT_LOAD */
	size_t nsegs;
	/* DWARF, kept open for line lookups */
	int dw_fd;
	Elf *dw_elf;
	Dwarf *dw;
	/* call-frame information (.eh_frame), opened on first need */
	bool cfi_tried;
	int cfi_fd;
	Elf *cfi_elf;
	Dwarf_CFI *cfi;
	/* address -> resolution */
	struct pmu__addr_info **cache;
	size_t cache_cap, ncache;
	char **str;                  /* string chunks */
	size_t nstr, cap_str;
	char *arena;
	size_t arena_left;
};

struct pmu__dso_set {
	struct pmu__dso **dso;
	size_t n;
	struct pmu__dso *last;
	bool want_lines;
	bool offline;              /* read no file (fuzzing) */
};

/* Read symbols (and open DWARF) once. */
void pmu__dso_load(struct pmu__dso *d);
/* Fill a->file/line and the inline chain from DWARF. */
void pmu__dso_lines(struct pmu__dso *d, struct pmu__addr_info *a);
/* A string kept as long as d (demangled when asked and possible). */
const char *pmu__dso_str(struct pmu__dso *d, const char *s, bool demangle);

#endif
