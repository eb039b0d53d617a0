/* SPDX-License-Identifier: MIT */
#ifndef PMU_PROFILE_DSO_H
#define PMU_PROFILE_DSO_H

/*
 * Symbolization: one struct pmu__dso per mapped file (executable,
 * shared library, [vdso], the kernel, a JIT's /tmp/perf-PID.map),
 * loaded once, on first use.  ELF symbol tables (libelf) become one
 * sorted array searched by bisection; DWARF (libdw) gives source lines
 * and inlined functions, looked up once per address and cached.
 * Separate debug files are found by build-id under
 * /usr/lib/debug/.build-id and by debuglink under /usr/lib/debug.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pmu__sym {
	uint64_t start, end;   /* [start, end) in the file's addresses */
	const char *name;      /* demangled */
};

/* One function of an address's inline chain, innermost first. */
struct pmu__inl {
	const char *func;      /* the function the code belongs to */
	const char *file;      /* source file of that code, or NULL */
	unsigned line;
};

/* What one address resolves to; cached per DSO. */
struct pmu__addr_info {
	uint64_t addr;         /* in the file's addresses */
	const struct pmu__sym *sym;  /* NULL: no symbol covers it */
	const struct pmu__inl *inl;  /* ninl entries; the last is the
					symbol's own function */
	size_t ninl;
	const char *file;      /* source line of addr */
	unsigned line;
};

enum pmu__dso_kind {
	PMU__DSO_FILE,
	PMU__DSO_KERNEL,       /* /proc/kallsyms */
	PMU__DSO_VDSO,         /* this machine's vdso image */
	PMU__DSO_PERFMAP,      /* /tmp/perf-PID.map */
	PMU__DSO_ANON,         /* anonymous memory: nothing to read */
};

struct pmu__dso;

struct pmu__dso_set;

/* A set of DSOs, each loaded once.  `debug_dirs` NULL means
 * "/usr/lib/debug".  want_lines: also read DWARF. */
struct pmu__dso_set *pmu__dso_set_new(bool want_lines);
void pmu__dso_set_free(struct pmu__dso_set *s);

/* The DSO of a mapped file name as MMAP records give it ("[vdso]",
 * "[kernel.kallsyms]_text", "//anon"...), created on first use.
 * build_id (may be NULL) is what the perf.data header says the file
 * had. */
struct pmu__dso *pmu__dso_get(struct pmu__dso_set *s, const char *filename,
			      const uint8_t *build_id, size_t bid_len);
/* The JIT map of process pid (/tmp/perf-PID.map), or NULL. */
struct pmu__dso *pmu__dso_perfmap(struct pmu__dso_set *s, int pid);

/* Whether at file address `addr` the function's return address is still
 * in its register (the call-frame information gives no place it was
 * saved to): a leaf function, or one before its prologue saved it;
 * false where the file has no such information. */
bool pmu__dso_ra_in_register(struct pmu__dso *d, uint64_t addr);

/* Resolve a file address (see pmu__dso_map_addr); never NULL. */
const struct pmu__addr_info *pmu__dso_resolve(struct pmu__dso *d,
					      uint64_t addr);

/* A mapped address to the file's addresses: `pgoff` is the mapping's
 * file offset, `start` its start; PT_LOAD segments translate the file
 * offset into the ELF address symbols use. */
uint64_t pmu__dso_map_addr(struct pmu__dso *d, uint64_t ip, uint64_t start,
			   uint64_t pgoff);

const char *pmu__dso_name(const struct pmu__dso *d);   /* path as mapped */
const char *pmu__dso_short(const struct pmu__dso *d);  /* basename */
enum pmu__dso_kind pmu__dso_kind(const struct pmu__dso *d);
/* Why symbols are missing ("no such file", "stripped", "build-id
 * mismatch"), NULL when they are not. */
const char *pmu__dso_problem(struct pmu__dso *d);

/* Whether the file is an ELF object whose load segments were read (a
 * process also maps data files: ld.so.cache, locale archives). */
bool pmu__dso_is_elf(struct pmu__dso *d);

/* The load bias of the object when a map of it starts at `start` with
 * file offset `pgoff` (page-aligned, so possibly below its segment's
 * own offset): start less the file address at that offset. */
uint64_t pmu__dso_load_bias(struct pmu__dso *d, uint64_t start,
			    uint64_t pgoff);
/* The file's GNU build-id (read from the file itself); 0 when none. */
size_t pmu__dso_build_id(struct pmu__dso *d, uint8_t id[20]);

/* Demangle a C++ name when the C++ runtime can (NULL otherwise); the
 * caller frees. */
char *pmu__demangle(const char *name);

/* The build-id of an ELF file on disk; 0 when it has none. */
size_t pmu__elf_build_id(const char *path, uint8_t id[20]);

#endif
