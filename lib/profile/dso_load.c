/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile/dso_priv.h"

struct symvec {
	struct pmu__sym *v;
	size_t n, cap;
	unsigned char *rank;   /* how much perf would prefer each */
};

static int sv_push(struct symvec *s, uint64_t start, uint64_t size,
		   const char *name, unsigned char rank)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		struct pmu__sym *v = realloc(s->v, cap * sizeof(*v));
		unsigned char *r = realloc(s->rank, cap);

		if (v)
			s->v = v;
		if (r)
			s->rank = r;
		if (!v || !r)
			return -ENOMEM;
		s->cap = cap;
	}
	s->v[s->n] = (struct pmu__sym){ start, start + size, name };
	s->rank[s->n++] = rank;
	return 0;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct pmu__sym *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Of symbols at one address, keep the one perf keeps: with a size,
 * global before weak before local, fewer leading underscores, then
 * the longer name. */
static bool better(const struct pmu__sym *a, unsigned ra,
		   const struct pmu__sym *b, unsigned rb)
{
	size_t ua = strspn(a->name, "_"), ub = strspn(b->name, "_");

	if ((a->end > a->start) != (b->end > b->start))
		return a->end > a->start;
	if (ra != rb)
		return ra > rb;
	if (ua != ub)
		return ua < ub;
	/* the kernel's system call aliases are the last choice */
	if (!strncmp(a->name, "SyS", 3) != !strncmp(b->name, "SyS", 3))
		return strncmp(a->name, "SyS", 3) != 0;
	if (!strncmp(a->name, "compat_SyS", 10) !=
	    !strncmp(b->name, "compat_SyS", 10))
		return strncmp(a->name, "compat_SyS", 10) != 0;
	return strlen(a->name) > strlen(b->name);
}

/* Sort, drop duplicates, and give zero-sized symbols the room up to the
 * next one (perf does the same). */
static void sv_finish(struct pmu__dso *d, struct symvec *s)
{
	size_t out = 0;
	struct pmu__sym *v;
	unsigned char *r;

	/* qsort is not stable: sort (sym, rank) pairs together */
	struct pair { struct pmu__sym s; unsigned char r; } *p =
		malloc((s->n + 1) * sizeof(*p));

	if (!p) {
		s->n = 0;
		return;
	}
	for (size_t i = 0; i < s->n; i++)
		p[i] = (struct pair){ s->v[i], s->rank[i] };
	qsort(p, s->n, sizeof(*p), sym_cmp);
	v = s->v;
	r = s->rank;
	for (size_t i = 0; i < s->n; i++) {
		if (out && v[out - 1].start == p[i].s.start) {
			if (better(&p[i].s, p[i].r, &v[out - 1], r[out - 1])) {
				v[out - 1] = p[i].s;
				r[out - 1] = p[i].r;
			}
			continue;
		}
		v[out] = p[i].s;
		r[out++] = p[i].r;
	}
	free(p);
	for (size_t i = 0; i < out; i++)
		if (v[i].end == v[i].start)
			v[i].end = i + 1 < out ? v[i + 1].start :
				   v[i].start + 4096;
	d->syms = v;
	d->nsyms = out;
	free(s->rank);
	s->v = NULL;
	s->rank = NULL;
}

static bool exec_section(Elf *elf, size_t index)
{
	Elf_Scn *s = elf_getscn(elf, index);
	GElf_Shdr sh;

	return s && gelf_getshdr(s, &sh) && (sh.sh_flags & SHF_EXECINSTR);
}

static void read_symtab(struct pmu__dso *d, Elf *elf, Elf_Scn *scn,
			GElf_Shdr *sh, struct symvec *sv)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	for (size_t i = 0; data && i < n; i++) {
		GElf_Sym sym;
		const char *name;
		int type;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		type = GELF_ST_TYPE(sym.st_info);
		if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE ||
		    !sym.st_value)
			continue;
		/* functions, and the labels of assembly code (_start,
		 * _dl_start_user) in executable sections, as perf reads
		 * them */
		if (type != STT_FUNC && type != STT_GNU_IFUNC &&
		    !(type == STT_NOTYPE && sym.st_name &&
		      exec_section(elf, sym.st_shndx)))
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		/* perf's preference: not weak before weak, then global
		 * before local */
		unsigned char rank = GELF_ST_BIND(sym.st_info) == STB_GLOBAL ? 2 :
				     GELF_ST_BIND(sym.st_info) == STB_WEAK ? 0 : 1;
		if (sv_push(sv, sym.st_value, sym.st_size,
			    pmu__dso_str(d, name, true), rank))
			break;
	}
}

static Elf_Scn *section(Elf *elf, const char *want, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstr;

	if (elf_getshdrstrndx(elf, &shstr))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (gelf_getshdr(scn, sh) && (n = elf_strptr(elf, shstr,
							     sh->sh_name)) &&
		    !strcmp(n, want))
			return scn;
	}
	return NULL;
}

/* "name@plt" for each PLT slot, as perf names them: the slots of
 * .rela.plt's jump relocations, in order, in .plt.sec (x86-64, one per
 * slot) or else in .plt after its header: 16-byte slots after 16 bytes
 * on x86-64, after 32 on arm64.  Files of other machines get none. */
static void plt_syms(struct pmu__dso *d, Elf *elf, struct symvec *sv)
{
	GElf_Shdr rsh, psh, dsh;
	GElf_Ehdr eh;
	Elf_Scn *rel = section(elf, ".rela.plt", &rsh), *plt, *dyn;
	uint64_t base, step = 16, header;
	Elf_Data *rd, *dd;

	if (!rel || rsh.sh_type != SHT_RELA || !rsh.sh_entsize ||
	    !gelf_getehdr(elf, &eh))
		return;
	if (eh.e_machine == EM_X86_64)
		header = 16;
	else if (eh.e_machine == EM_AARCH64)
		header = 32;
	else
		return;
	if (eh.e_machine == EM_X86_64 && (plt = section(elf, ".plt.sec", &psh)))
		base = psh.sh_addr;
	else if ((plt = section(elf, ".plt", &psh)))
		base = psh.sh_addr + header;
	else
		return;
	dyn = elf_getscn(elf, rsh.sh_link);
	if (!dyn || !gelf_getshdr(dyn, &dsh) || !(rd = elf_getdata(rel, NULL)) ||
	    !(dd = elf_getdata(dyn, NULL)))
		return;
	for (size_t i = 0; i < rsh.sh_size / rsh.sh_entsize; i++) {
		GElf_Rela ra;
		GElf_Sym sym;
		const char *n;
		char buf[512];

		if (!gelf_getrela(rd, (int)i, &ra) ||
		    !gelf_getsym(dd, (int)GELF_R_SYM(ra.r_info), &sym) ||
		    !(n = elf_strptr(elf, dsh.sh_link, sym.st_name)) || !*n)
			continue;
		/* C++ names demangled, then "@plt", as perf names them */
		char *dm = pmu__demangle(n);

		snprintf(buf, sizeof(buf), "%s@plt", dm ? dm : n);
		free(dm);
		if (sv_push(sv, base + i * step, step,
			    pmu__dso_str(d, buf, false), 2))
			break;
	}
}

/* .symtab when the file has one, else .dynsym.  Returns the number of
 * symbols read. */
static size_t read_syms(struct pmu__dso *d, Elf *elf, struct symvec *sv)
{
	Elf_Scn *scn = NULL, *dyn = NULL, *tab = NULL;
	GElf_Shdr sh, dsh, tsh;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB) {
			tab = scn;
			tsh = sh;
		} else if (sh.sh_type == SHT_DYNSYM) {
			dyn = scn;
			dsh = sh;
		}
	}
	if (tab)
		read_symtab(d, elf, tab, &tsh, sv);
	else if (dyn)
		read_symtab(d, elf, dyn, &dsh, sv);
	return sv->n;
}

static void read_segs(struct pmu__dso *d, Elf *elf)
{
	size_t n = 0;

	if (elf_getphdrnum(elf, &n) || !n)
		return;
	d->segs = calloc(n, sizeof(*d->segs));
	for (size_t i = 0; d->segs && i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    !(ph.p_flags & PF_X))
			continue;
		d->segs[d->nsegs++] = (struct pmu__seg){ ph.p_offset,
							 ph.p_filesz,
							 ph.p_vaddr };
	}
}

static size_t elf_bid(Elf *elf, uint8_t id[20])
{
	const void *p;
	ssize_t n = dwelf_elf_gnu_build_id(elf, &p);

	if (n <= 0)
		return 0;
	if (n > 20)
		n = 20;
	memcpy(id, p, (size_t)n);
	return (size_t)n;
}

size_t pmu__elf_build_id(const char *path, uint8_t id[20])
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	size_t n = 0;

	if (fd < 0)
		return 0;
	if (pmu__elfutils_load()) {
		close(fd);
		return 0;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF)
		n = elf_bid(elf, id);
	elf_end(elf);
	close(fd);
	return n;
}

static void hexid(const uint8_t *id, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * n] = 0;
}

/* Regular files only: a profile may name a FIFO or a device.  A
 * descriptor, or -1 with errno: ENOENT and the like, ENODEV (not a
 * regular file), ENOEXEC (not ELF: a data file such as ld.so.cache or
 * a locale archive that the process mapped). */
static int open_elf(const char *path, Elf **elf)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;

	*elf = NULL;
	if (fd < 0)
		return -1;
	if (pmu__elfutils_load()) {
		close(fd);
		errno = ENOSYS;
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = ENODEV;
		return -1;
	}
	*elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!*elf || elf_kind(*elf) != ELF_K_ELF) {
		elf_end(*elf);
		*elf = NULL;
		close(fd);
		errno = ENOEXEC;
		return -1;
	}
	return fd;
}

/* A separate debug file: by build-id, then by the file's own path
 * under /usr/lib/debug. */
static int open_debug(const struct pmu__dso *d, Elf **elf)
{
	char path[4200], hex[41];
	int fd;

	if (d->bid_len) {
		hexid(d->bid, d->bid_len, hex);
		snprintf(path, sizeof(path),
			 "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
		if ((fd = open_elf(path, elf)) >= 0)
			return fd;
	}
	snprintf(path, sizeof(path), "/usr/lib/debug%s.debug", d->path);
	if ((fd = open_elf(path, elf)) >= 0)
		return fd;
	snprintf(path, sizeof(path), "/usr/lib/debug%s", d->path);
	return open_elf(path, elf);
}

/* perf keeps a copy of every binary it recorded under ~/.debug: a file
 * that has changed or gone since may still be there. */
static int open_cached(const struct pmu__dso *d, Elf **elf)
{
	const char *home = getenv("HOME");
	char path[4200], hex[41];

	if (!home || !d->hdr_bid_len)
		return -1;
	hexid(d->hdr_bid, d->hdr_bid_len, hex);
	snprintf(path, sizeof(path), "%s/.debug/.build-id/%.2s/%s/elf", home,
		 hex, hex + 2);
	return open_elf(path, elf);
}

static bool has_dwarf(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstr;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstr))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		n = elf_strptr(elf, shstr, sh.sh_name);
		if (n && !strcmp(n, ".debug_info"))
			return true;
	}
	return false;
}

static void keep_dwarf(struct pmu__dso *d, int fd, Elf *elf)
{
	if (d->dw || !d->set->want_lines || !has_dwarf(elf))
		return;
	d->dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	if (d->dw) {
		d->dw_fd = fd;
		d->dw_elf = elf;
	}
}

static void close_elf(int fd, Elf *elf)
{
	elf_end(elf);
	if (fd >= 0)
		close(fd);
}

static void load_file(struct pmu__dso *d, struct symvec *sv)
{
	Elf *elf, *dbg;
	int fd = open_elf(d->path, &elf), dfd;

	if (fd >= 0) {
		d->bid_len = elf_bid(elf, d->bid);
		if (d->hdr_bid_len && (d->bid_len != d->hdr_bid_len ||
				       memcmp(d->bid, d->hdr_bid, d->bid_len))) {
			/* the file changed since the recording */
			close_elf(fd, elf);
			fd = open_cached(d, &elf);
			if (fd < 0) {
				snprintf(d->problem, sizeof(d->problem),
					 "build-id differs from the recorded "
					 "one (file changed)");
				return;
			}
			d->bid_len = elf_bid(elf, d->bid);
		}
	} else {
		int e = errno;

		if ((fd = open_cached(d, &elf)) < 0) {
			snprintf(d->problem, sizeof(d->problem), "%s",
				 e == ENOEXEC ? "not an ELF file" :
				 e == ENOSYS ? pmu__elfutils_problem() :
				 e == ENODEV ? "not a regular file" :
				 e == ENOENT ? "no such file" : strerror(e));
			return;
		}
		d->bid_len = elf_bid(elf, d->bid);
	}
	read_segs(d, elf);
	dfd = open_debug(d, &dbg);
	if (dfd >= 0) {
		read_syms(d, dbg, sv);
		keep_dwarf(d, dfd, dbg);
		if (d->dw_elf != dbg)
			close_elf(dfd, dbg);
	}
	if (!sv->n)
		read_syms(d, elf, sv);
	if (sv->n)
		plt_syms(d, elf, sv);
	keep_dwarf(d, fd, elf);
	if (d->dw_elf != elf)
		close_elf(fd, elf);
	if (!sv->n)
		snprintf(d->problem, sizeof(d->problem),
			 "no symbols (stripped, and no debug file)");
}

/* One kallsyms line: "address type name [module]". */
static bool kallsyms_line(char *line, unsigned long long *a, char *type,
			  char **name, bool *module)
{
	char *end;

	*a = strtoull(line, &end, 16);
	if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
		return false;
	*type = end[1];
	*name = end + 3;
	*module = strchr(*name, '[') != NULL;
	(*name)[strcspn(*name, " \t\n")] = 0;
	return **name != 0;
}

/* /proc/kallsyms, text symbols only. */
static void load_kallsyms(struct pmu__dso *d, struct symvec *sv)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512];

	if (!f) {
		snprintf(d->problem, sizeof(d->problem),
			 "/proc/kallsyms is not readable");
		return;
	}
	bool prev_module = false;

	while (fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char type, *name;
		bool module;

		if (!kallsyms_line(line, &a, &type, &name, &module) || !a)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		/* the last symbol of the kernel's text before the modules'
		 * (or the other way): it reaches the end of its page, not
		 * across the gap to the next one (perf's rule) */
		if (sv->n && module != prev_module &&
		    sv->v[sv->n - 1].end == sv->v[sv->n - 1].start)
			sv->v[sv->n - 1].end =
				((sv->v[sv->n - 1].start + 4096) + 4095) &
				~4095ull;
		prev_module = module;
		if (sv_push(sv, a, 0, pmu__dso_str(d, name, false),
			    type == 'T' ? 2 : type == 'W' || type == 'w' ? 0 : 1))
			break;
	}
	fclose(f);
	if (!sv->n)
		snprintf(d->problem, sizeof(d->problem),
			 "/proc/kallsyms lists no addresses (kptr_restrict)");
}

/* A JIT's map: "START SIZE name" per line, hexadecimal.  /tmp is
 * everyone's: the file is read only when it is a regular file (not a
 * link, a FIFO or a device) owned by root, by the user reading it or by
 * the owner of the process it names while that still runs; at most
 * PERFMAP_MAX bytes, and lines longer than PERFMAP_LINE are skipped. */
#define PERFMAP_MAX  (512ull << 20)
#define PERFMAP_LINE 4096

static bool perfmap_owner_ok(const char *path, uid_t uid)
{
	char proc[64];
	struct stat ps;
	int pid;

	if (uid == 0 || uid == geteuid())
		return true;
	if (sscanf(path, "/tmp/perf-%d.map", &pid) != 1)
		return false;
	snprintf(proc, sizeof(proc), "/proc/%d", pid);
	return stat(proc, &ps) == 0 && ps.st_uid == uid;
}

static void load_perfmap(struct pmu__dso *d, struct symvec *sv)
{
	int fd = open(d->path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	char line[PERFMAP_LINE + 2];
	struct stat st;
	bool skip = false;
	FILE *f;

	if (fd < 0) {
		snprintf(d->problem, sizeof(d->problem), "%s",
			 errno == ELOOP ? "a symbolic link: not read" :
			 errno == ENOENT ? "no such file" : strerror(errno));
		return;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(d->problem, sizeof(d->problem),
			 "not a regular file: not read");
		close(fd);
		return;
	}
	if (!perfmap_owner_ok(d->path, st.st_uid)) {
		snprintf(d->problem, sizeof(d->problem),
			 "owned by uid %u (not you, root or the process's "
			 "owner): not read", (unsigned)st.st_uid);
		close(fd);
		return;
	}
	if ((unsigned long long)st.st_size > PERFMAP_MAX) {
		snprintf(d->problem, sizeof(d->problem),
			 "larger than %llu MiB: not read", PERFMAP_MAX >> 20);
		close(fd);
		return;
	}
	if (!(f = fdopen(fd, "r"))) {
		close(fd);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);
		unsigned long long a, n;
		int off = 0;

		if (ftell(f) > (long)PERFMAP_MAX)
			break;       /* grew while being read */
		/* the rest of an overlong line, or its first part */
		if (skip || (len == sizeof(line) - 1 && line[len - 1] != '\n')) {
			skip = line[len - 1] != '\n';
			continue;
		}
		if (sscanf(line, "%llx %llx %n", &a, &n, &off) != 2 || !off)
			continue;
		line[strcspn(line, "\n")] = 0;
		if (sv_push(sv, a, n ? n : 1, pmu__dso_str(d, line + off, true),
			    2))
			break;
	}
	fclose(f);
}

static size_t vdso_size(unsigned long base)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	size_t n = 4096;

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo == base) {
			n = hi - lo;
			break;
		}
	}
	if (f)
		fclose(f);
	return n;
}

/* The vdso of this machine's kernel, read from this process: the same
 * image as the recorded process had when the kernel is the same. */
static void load_vdso(struct pmu__dso *d, struct symvec *sv)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	Elf *elf;

	if (!base) {
		snprintf(d->problem, sizeof(d->problem), "no vdso here");
		return;
	}
	if (pmu__elfutils_load()) {
		snprintf(d->problem, sizeof(d->problem), "%s",
			 pmu__elfutils_problem());
		return;
	}
	elf = elf_memory((char *)base, vdso_size(base));
	if (!elf) {
		snprintf(d->problem, sizeof(d->problem), "vdso unreadable");
		return;
	}
	read_segs(d, elf);
	d->bid_len = elf_bid(elf, d->bid);
	read_syms(d, elf, sv);
	elf_end(elf);
}

void pmu__dso_load(struct pmu__dso *d)
{
	struct symvec sv = { 0 };

	if (d->loaded)
		return;
	d->loaded = true;
	if (d->set->offline) {
		snprintf(d->problem, sizeof(d->problem), "not read");
		return;
	}
	switch (d->kind) {
	case PMU__DSO_FILE:
		load_file(d, &sv);
		break;
	case PMU__DSO_KERNEL:
		load_kallsyms(d, &sv);
		break;
	case PMU__DSO_PERFMAP:
		load_perfmap(d, &sv);
		break;
	case PMU__DSO_VDSO:
		load_vdso(d, &sv);
		break;
	case PMU__DSO_ANON:
		break;  /* nothing to read, and nothing wrong */
	}
	sv_finish(d, &sv);
	free(sv.v);
	free(sv.rank);
}
