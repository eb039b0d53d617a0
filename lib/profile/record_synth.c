/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <pmu/host.h>
#include <pmu/pmu.h>

#include "events/evparse.h"
#include "profile/dso.h"
#include "profile/record.h"
#include "util/file.h"
#include "util/proc.h"

static int record_mmap2_prot(struct pmu_record *r, uint32_t pid, uint32_t tid, uint64_t start, uint64_t len, uint64_t pgoff, const char *file, uint16_t misc, uint32_t prot, uint32_t flags);

size_t pmu__record_trailer(const struct pmu_record *r, uint32_t pid,
			   uint32_t tid, unsigned char *out)
{
	uint64_t st = r->attr[0].sample_type, v, z = 0;
	size_t n = 0;

	if (st & PERF_SAMPLE_TID) {
		v = (uint64_t)tid << 32 | pid;
		memcpy(out + n, &v, 8);
		n += 8;
	}
	if (st & PERF_SAMPLE_TIME) {
		/* 0: before anything sampled; an emulated record says when */
		memcpy(out + n, &r->synth_time, 8);
		n += 8;
	}
	if (st & PERF_SAMPLE_ID) {
		memcpy(out + n, &r->id0, 8);
		n += 8;
	}
	if (st & PERF_SAMPLE_CPU) {
		memcpy(out + n, &z, 8);
		n += 8;
	}
	if (st & PERF_SAMPLE_IDENTIFIER) {
		memcpy(out + n, &r->id0, 8);
		n += 8;
	}
	return n;
}

static int emit(struct pmu_record *r, unsigned char *rec, size_t len)
{
	struct perf_event_header *h = (struct perf_event_header *)rec;

	h->size = (uint16_t)len;
	pmu__record_note(r, h);
	return pmu__pd_write_data(&r->w, rec, len);
}

int pmu__record_mmap2(struct pmu_record *r, uint32_t pid, uint32_t tid,
		      uint64_t start, uint64_t len, uint64_t pgoff,
		      const char *file, uint16_t misc)
{
	/* PROT_READ|PROT_EXEC, MAP_PRIVATE */
	return record_mmap2_prot(r, pid, tid, start, len, pgoff, file,
				      misc, 5, 2);
}

static int record_mmap2_prot(struct pmu_record *r, uint32_t pid, uint32_t tid,
			   uint64_t start, uint64_t len, uint64_t pgoff,
			   const char *file, uint16_t misc, uint32_t prot,
			   uint32_t flags)
{
	unsigned char rec[4096 + 256] = { 0 };
	struct perf_event_header *h = (struct perf_event_header *)rec;
	size_t n = strlen(file) + 1, at;
	uint64_t v[3] = { start, len, pgoff };

	if (n > 4096)
		return 0;
	h->type = PERF_RECORD_MMAP2;
	h->misc = misc;
	memcpy(rec + 8, &pid, 4);
	memcpy(rec + 12, &tid, 4);
	memcpy(rec + 16, v, 24);
	memcpy(rec + 8 + 56, &prot, 4);
	memcpy(rec + 8 + 60, &flags, 4);
	memcpy(rec + 8 + 64, file, n);
	at = (8 + 64 + n + 7) & ~7u;
	at += pmu__record_trailer(r, pid, tid, rec + at);
	return emit(r, rec, at);
}

int pmu__record_comm(struct pmu_record *r, uint32_t pid, uint32_t tid,
		     const char *comm, uint16_t misc)
{
	unsigned char rec[128] = { 0 };
	struct perf_event_header *h = (struct perf_event_header *)rec;
	size_t n = strnlen(comm, 15) + 1, at;

	h->type = PERF_RECORD_COMM;
	h->misc = misc;
	memcpy(rec + 8, &pid, 4);
	memcpy(rec + 12, &tid, 4);
	memcpy(rec + 16, comm, n - 1);
	at = (16 + n + 7) & ~7u;
	at += pmu__record_trailer(r, pid, tid, rec + at);
	return emit(r, rec, at);
}

int pmu__record_fork(struct pmu_record *r, uint32_t pid, uint32_t ppid,
		     uint32_t tid, uint32_t ptid)
{
	unsigned char rec[128] = { 0 };
	struct perf_event_header *h = (struct perf_event_header *)rec;
	uint32_t v[4] = { pid, ppid, tid, ptid };
	size_t at = 8 + 16 + 8;

	h->type = PERF_RECORD_FORK;
	memcpy(rec + 8, v, 16);
	memcpy(rec + 24, &r->synth_time, 8);
	at += pmu__record_trailer(r, pid, tid, rec + at);
	return emit(r, rec, at);
}

/* perf names the kernel's map after the symbol it is relocated by:
 * "[kernel.kallsyms]_text", from _text to the end of the address
 * space, file offset = _text. */
int pmu__record_synth_kernel(struct pmu_record *r)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[256];
	unsigned long long text = 0;

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char t, name[128];

		if (sscanf(line, "%llx %c %127s", &a, &t, name) == 3 &&
		    !strcmp(name, "_text")) {
			text = a;
			break;
		}
	}
	if (f)
		fclose(f);
	if (!text)
		return 0; /* addresses hidden: kernel frames stay unknown */
	return pmu__record_mmap2(r, (uint32_t)-1, 0, text, ~0ULL - text, text,
			  "[kernel.kallsyms]_text", PERF_RECORD_MISC_KERNEL);
}

/* A process's maps as the kernel would have told them: the executable
 * ones, and with mmap_data (DWARF call chains: the unwinder reads the
 * .eh_frame_hdr of a library's read-only segment, and the stack's map)
 * every readable one, as perf synthesizes them. */
static int synth_maps(struct pmu_record *r, int pid)
{
	bool data = r->nev && r->attr[0].mmap_data;
	char path[64], line[4600];
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	if (!(f = fopen(path, "re")))
		return 0; /* gone already */
	while (!ret && fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi, off;
		char perm[8];
		int name = 0;
		uint16_t misc = PERF_RECORD_MISC_USER;
		uint32_t prot;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &lo, &hi,
			   perm, &off, &name) < 4 || !name || strlen(perm) < 4)
			continue;
		if (perm[2] != 'x') {
			if (!data || perm[0] != 'r')
				continue;
			misc |= PERF_RECORD_MISC_MMAP_DATA;
		}
		prot = (perm[0] == 'r' ? 1 : 0) | (perm[1] == 'w' ? 2 : 0) |
		       (perm[2] == 'x' ? 4 : 0);
		line[strcspn(line, "\n")] = 0;
		ret = record_mmap2_prot(r, (uint32_t)pid, (uint32_t)pid,
					     lo, hi - lo, off,
					     line[name] ? line + name : "//anon",
					     misc, prot, perm[3] == 's' ? 1 : 2);
	}
	fclose(f);
	return ret;
}

static int read_comm(int pid, int tid, char *comm, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	if (!(f = fopen(path, "re")))
		return -ESRCH;
	if (!fgets(comm, (int)len, f))
		comm[0] = 0;
	fclose(f);
	comm[strcspn(comm, "\n")] = 0;
	return 0;
}

static int synth_proc(struct pmu_record *r, int pid)
{
	char comm[32];
	pid_t *tids = NULL;
	size_t n = 0, cap = 0;
	int ret = 0;

	if (pmu__proc_ids(NULL, pid, &tids, &n, &cap)) {
		free(tids);
		return 0;
	}
	for (size_t i = 0; !ret && i < n; i++)
		if (!read_comm(pid, tids[i], comm, sizeof(comm)))
			ret = pmu__record_comm(r, (uint32_t)pid,
					       (uint32_t)tids[i], comm, 0);
	free(tids);
	return ret ? ret : synth_maps(r, pid);
}

static int tgid_of(int tid)
{
	char path[64], line[128];
	FILE *f;
	int tgid = tid;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	if (!(f = fopen(path, "re")))
		return tid;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

/* pids NULL: every process (system-wide recording). */
int pmu__record_synth_procs(struct pmu_record *r, const pid_t *pids,
			    size_t n, bool threads)
{
	pid_t *procs = NULL;
	size_t np = 0, cap = 0;
	int ret = 0;

	for (size_t i = 0; pids && !ret && i < n; i++)
		ret = synth_proc(r, threads ? tgid_of(pids[i]) : pids[i]);
	if (pids || pmu__proc_ids(NULL, 0, &procs, &np, &cap)) {
		free(procs);
		return ret;
	}
	for (size_t i = 0; !ret && i < np; i++)
		ret = synth_proc(r, procs[i]);
	free(procs);
	return ret;
}

/* ---- what was written ---- */

static void keep_record(struct pmu_record *r, const struct perf_event_header *h)
{
	if (r->nkeep + h->size > r->cap_keep) {
		size_t cap = r->cap_keep ? 2 * r->cap_keep : 65536;

		while (cap < r->nkeep + h->size)
			cap *= 2;
		unsigned char *k = realloc(r->keep, cap);

		if (!k)
			return;
		r->keep = k;
		r->cap_keep = cap;
	}
	memcpy(r->keep + r->nkeep, h, h->size);
	r->nkeep += h->size;
}

static void note_file(struct pmu_record *r, const char *name, size_t max)
{
	size_t n = strnlen(name, max);

	if (!n || name[0] != '/')
		return;
	for (size_t i = r->nfiles; i-- > 0;)
		if (strlen(r->files[i]) == n && !memcmp(r->files[i], name, n))
			return;
	if (r->nfiles == r->cap_files) {
		size_t cap = r->cap_files ? 2 * r->cap_files : 64;
		char **v = realloc(r->files, cap * sizeof(*v));

		if (!v)
			return;
		r->files = v;
		r->cap_files = cap;
	}
	if ((r->files[r->nfiles] = strndup(name, n)))
		r->nfiles++;
}

void pmu__record_note(struct pmu_record *r, const struct perf_event_header *h)
{
	const char *p = (const char *)h;

	switch (h->type) {
	case PERF_RECORD_MMAP2:
		if (h->size > 72)
			note_file(r, p + 72, h->size - 72u);
		keep_record(r, h);
		break;
	case PERF_RECORD_MMAP:
		if (h->size > 40)
			note_file(r, p + 40, h->size - 40u);
		keep_record(r, h);
		break;
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
		keep_record(r, h);
		break;
	default:
		break;
	}
}

/* The kernel's build-id, from the notes the kernel exports. */
static size_t kernel_build_id(uint8_t id[20])
{
	unsigned char buf[4096];
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;
	size_t at = 0;

	if (fd >= 0)
		close(fd);
	while (n > 0 && at + 12 <= (size_t)n) {
		uint32_t nsz, dsz, type;

		memcpy(&nsz, buf + at, 4);
		memcpy(&dsz, buf + at + 4, 4);
		memcpy(&type, buf + at + 8, 4);
		size_t name = at + 12, desc = name + ((nsz + 3) & ~3u);

		if (desc + dsz > (size_t)n)
			break;
		if (type == 3 && nsz == 4 && !memcmp(buf + name, "GNU", 4)) {
			size_t len = dsz > 20 ? 20 : dsz;

			memcpy(id, buf + desc, len);
			return len;
		}
		at = desc + ((dsz + 3) & ~3u);
	}
	return 0;
}

static int build_ids(struct pmu_record *r)
{
	uint8_t id[20];
	size_t n;
	int ret = 0;

	if ((n = kernel_build_id(id)))
		ret = pmu__pd_write_build_id(&r->w, -1, PERF_RECORD_MISC_KERNEL, id,
					n, "[kernel.kallsyms]");
	for (size_t i = 0; !ret && i < r->nfiles; i++)
		if ((n = pmu__elf_build_id(r->files[i], id)))
			ret = pmu__pd_write_build_id(&r->w, -1, PERF_RECORD_MISC_USER,
						id, n, r->files[i]);
	return ret;
}

static int host_features(struct pmu_record *r)
{
	struct pmu_host_cpu c = { .size = sizeof(c) };
	struct utsname u;
	struct sysinfo si;
	char buf[160];
	int ret = 0;

	if (!uname(&u)) {
		ret = pmu__pd_write_feat_str(&r->w, PD_FEAT_HOSTNAME, u.nodename) ||
		      pmu__pd_write_feat_str(&r->w, PD_FEAT_OSRELEASE, u.release) ||
		      pmu__pd_write_feat_str(&r->w, PD_FEAT_ARCH, u.machine);
	}
	snprintf(buf, sizeof(buf), "pmu %s", pmu_version());
	ret = ret || pmu__pd_write_feat_str(&r->w, PD_FEAT_VERSION, buf);
	pmu_host_cpu(&c);
	if (!ret && c.name[0])
		ret = pmu__pd_write_feat_str(&r->w, PD_FEAT_CPUDESC, c.name);
	if (!ret && c.vendor[0] && c.family >= 0) {
		snprintf(buf, sizeof(buf), "%s,%d,%d,%d", c.vendor, c.family,
			 c.model, c.stepping);
		ret = pmu__pd_write_feat_str(&r->w, PD_FEAT_CPUID, buf);
	}
	r->w.nr_cpus_online = (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
	r->w.nr_cpus_avail = (uint32_t)sysconf(_SC_NPROCESSORS_CONF);
	if (!sysinfo(&si))
		r->w.total_mem = (uint64_t)si.totalram * si.mem_unit / 1024;
	return ret ? -ENOMEM : 0;
}

/* ---- TRACING_DATA: the tracepoints' formats, as perf writes them ---- */

/* A tracefs file, its size first (4 or 8 bytes, as the format asks). */
static void put_file(FILE *o, const char *path, int width)
{
	size_t len = 0;
	char *text = pmu__read_file(path, 1u << 24, &len);
	uint64_t n8 = text ? len : 0;
	uint32_t n4 = (uint32_t)n8;

	fwrite(width == 8 ? (void *)&n8 : (void *)&n4, 1, (size_t)width, o);
	if (text)
		fwrite(text, 1, len, o);
	free(text);
}

static bool wanted_any(const struct pmu_record *r)
{
	for (size_t i = 0; i < r->nev; i++)
		if (r->attr[i].type == PERF_TYPE_TRACEPOINT)
			return true;
	return false;
}

static bool wanted(const struct pmu_record *r, uint64_t id)
{
	for (size_t i = 0; i < r->nev; i++)
		if (r->attr[i].type == PERF_TYPE_TRACEPOINT &&
		    r->attr[i].config == id)
			return true;
	return false;
}

/* A recorded tracepoint found in tracefs. */
struct tp_found {
	char *sys, *name;
};

/* The recorded tracepoints of one subsystem, added to f[*n..] in the
 * directory's order. */
static int find_system(const struct pmu_record *r, const char *root,
		       const char *sys, struct tp_found **f, size_t *n)
{
	char path[4096];
	struct dirent *de;
	int ret = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/events/%s", root, sys);
	if (!(d = opendir(path)))
		return 0;
	while (!ret && (de = readdir(d))) {
		struct tp_found *v;
		uint64_t id;

		if (de->d_name[0] == '.' ||
		    pmu__tracepoint_id(root, sys, de->d_name, &id) ||
		    !wanted(r, id))
			continue;
		if (!(v = realloc(*f, (*n + 1) * sizeof(*v)))) {
			ret = -ENOMEM;
			break;
		}
		*f = v;
		v[*n].sys = strdup(sys);
		v[*n].name = strdup(de->d_name);
		if (!v[(*n)++].sys || !v[*n - 1].name)
			ret = -ENOMEM;
	}
	closedir(d);
	return ret;
}

/* Every recorded tracepoint: ftrace's own first, then the other
 * subsystems', each subsystem's together. */
static int find_tracepoints(const struct pmu_record *r, const char *root,
			    struct tp_found **f, size_t *n)
{
	char path[4096];
	struct dirent *de;
	int ret = find_system(r, root, "ftrace", f, n);
	DIR *d;

	snprintf(path, sizeof(path), "%s/events", root);
	if (ret || !(d = opendir(path)))
		return ret;
	while (!ret && (de = readdir(d)))
		if (de->d_name[0] != '.' && de->d_type == DT_DIR &&
		    strcmp(de->d_name, "ftrace"))
			ret = find_system(r, root, de->d_name, f, n);
	closedir(d);
	return ret;
}

/* f[at..end) of one subsystem: their count, then each format with its
 * size; returns end. */
static size_t put_system(FILE *o, const char *root, const struct tp_found *f,
			 size_t at, size_t n)
{
	char path[4096];
	size_t end = at;
	uint32_t k;

	while (end < n && !strcmp(f[end].sys, f[at].sys))
		end++;
	k = (uint32_t)(end - at);
	fwrite(&k, 1, 4, o);
	for (size_t i = at; i < end; i++) {
		snprintf(path, sizeof(path), "%s/events/%s/%s/format", root,
			 f[i].sys, f[i].name);
		put_file(o, path, 8);
	}
	return end;
}

/* The layout perf's trace-event readers take (version 0.6): a magic
 * and version, byte order, long and page sizes, the ring's header
 * formats, the ftrace events' formats, each subsystem's formats of the
 * events recorded, then kallsyms (empty: perf report reads the
 * kernel's own), the printk formats and saved command names (empty: the
 * samples name their commands). */
static int tracing_data(struct pmu_record *r)
{
	static const char magic[10] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i',
					'n', 'g' };
	const char *root = NULL;
	char path[4096], *buf = NULL;
	size_t len = 0, n = 0, at = 0;
	uint32_t page = (uint32_t)sysconf(_SC_PAGESIZE), nsys = 0, zero4 = 0;
	uint64_t zero8 = 0;
	unsigned char endian = 0, lsize = (unsigned char)sizeof(long);
	struct tp_found *f = NULL;
	FILE *o = NULL;
	int ret;

	if (!wanted_any(r) || !(root = pmu__tracefs_root(NULL)))
		return 0;
	if ((ret = find_tracepoints(r, root, &f, &n)) ||
	    !(o = open_memstream(&buf, &len))) {
		ret = -ENOMEM;
		goto out;
	}
	fwrite(magic, 1, sizeof(magic), o);
	fwrite("0.6", 1, 4, o);
	fwrite(&endian, 1, 1, o);
	fwrite(&lsize, 1, 1, o);
	fwrite(&page, 1, 4, o);
	fwrite("header_page", 1, 12, o);
	snprintf(path, sizeof(path), "%s/events/header_page", root);
	put_file(o, path, 8);
	fwrite("header_event", 1, 13, o);
	snprintf(path, sizeof(path), "%s/events/header_event", root);
	put_file(o, path, 8);
	/* the ftrace system's own events (maybe none), then the others' */
	if (n && !strcmp(f[0].sys, "ftrace"))
		at = put_system(o, root, f, 0, n);
	else
		fwrite(&zero4, 1, 4, o);
	for (size_t i = at; i < n; i++)
		nsys += !i || i == at || strcmp(f[i].sys, f[i - 1].sys);
	fwrite(&nsys, 1, 4, o);
	while (at < n) {
		fwrite(f[at].sys, 1, strlen(f[at].sys) + 1, o);
		at = put_system(o, root, f, at, n);
	}
	fwrite(&zero4, 1, 4, o);        /* kallsyms */
	/* the kernel's strings that records point to (a %s of an
	 * address), as perf copies them */
	snprintf(path, sizeof(path), "%s/printk_formats", root);
	put_file(o, path, 4);
	fwrite(&zero8, 1, 8, o);        /* saved command names */
	if (fclose(o)) {
		free(buf);
		ret = -ENOMEM;
		goto out;
	}
	free(r->w.tracing);
	r->w.tracing = (unsigned char *)buf;
	r->w.ntracing = len;
out:
	for (size_t i = 0; i < n; i++) {
		free(f[i].sys);
		free(f[i].name);
	}
	free(f);
	return ret;
}

int pmu__record_tracing(struct pmu_record *r)
{
	return tracing_data(r);
}

int pmu__record_features(struct pmu_record *r)
{
	int ret = host_features(r);

	if (!ret && r->argc)
		ret = pmu__pd_write_cmdline(&r->w, r->argc, r->argv);
	if (!ret)
		ret = build_ids(r);
	r->w.has_time = r->have_time;
	r->w.first_time = r->first_time;
	r->w.last_time = r->last_time;
	return ret;
}
