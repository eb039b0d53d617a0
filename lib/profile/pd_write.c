/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile/perfdata.h"
#include "util/error.h"

#define HDR_SIZE 104
#define ATTR_SIZE sizeof(struct perf_event_attr)

/* Header, ids, attrs, then the data, as perf lays them out: a file cut
 * short keeps what describes its samples.  The ids are known before
 * the first record. */
static uint64_t ids_size(const struct pd_writer *w)
{
	uint64_t n = 0;

	for (size_t i = 0; i < w->nattr; i++)
		n += 8 * w->nids[i];
	return n;
}

static int put(FILE *f, const void *p, size_t n);
static int pipe_feature(struct pd_writer *w, int b);

/* Pipe mode: the 16-byte header, then each attr with its ids as a
 * HEADER_ATTR record and FINISHED_INIT, as perf record -o - begins. */
static int begin_pipe(struct pd_writer *w)
{
	uint64_t hdr[2] = { PD_MAGIC, 16 };
	struct perf_event_header fin = { PD_REC_FINISHED_INIT, 0, 8 };
	int ret = put(w->f, hdr, 16);

	for (size_t i = 0; !ret && i < w->nattr; i++) {
		size_t n = w->nids[i] > 4096 ? 4096 : w->nids[i];
		struct perf_event_header h = {
			PD_REC_HEADER_ATTR, 0,
			(uint16_t)(8 + ATTR_SIZE + 8 * n) };

		ret = put(w->f, &h, 8) || put(w->f, &w->attr[i], ATTR_SIZE) ||
		      put(w->f, w->ids[i], 8 * n) ? -EIO : 0;
	}
	/* the events' names ahead of their samples: readers name the
	 * events by them (perf's tracepoints) */
	if (!ret)
		ret = pipe_feature(w, PD_FEAT_EVENT_DESC);
	/* the tracepoints' formats ahead of the samples they decode */
	if (!ret && w->ntracing) {
		static const char zero[8];
		size_t pad = ((w->ntracing + 7) & ~(size_t)7) - w->ntracing;
		/* the size counts the padding, as perf's readers expect */
		uint32_t n = (uint32_t)(w->ntracing + pad);
		struct perf_event_header h = { PD_REC_HEADER_TRACING_DATA, 0,
					       16 };

		ret = put(w->f, &h, 8) || put(w->f, &n, 4) ||
		      put(w->f, zero, 4) || put(w->f, w->tracing, w->ntracing) ||
		      put(w->f, zero, pad) ? -EIO : 0;
	}
	if (!ret)
		ret = put(w->f, &fin, 8);
	w->data_off = 16;
	return ret;
}

static int begin_data(struct pd_writer *w)
{
	if (w->data_off)
		return 0;
	if (w->pipe)
		return begin_pipe(w);
	w->data_off = HDR_SIZE + ids_size(w) + w->nattr * (ATTR_SIZE + 16);
	return fseeko(w->f, (off_t)w->data_off, SEEK_SET) ? -EIO : 0;
}

/* A path that is a device, a fifo or a socket (not a link to one: a
 * planted link is replaced, never followed). */
static bool is_device(const char *path)
{
	struct stat st;

	return !lstat(path, &st) && !S_ISREG(st.st_mode) &&
	       !S_ISLNK(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* /dev/null, a fifo: written as they are, nothing renamed; what cannot
 * seek (a FIFO, a socket) in pipe mode. */
static int open_device(struct pd_writer *w, const char *path)
{
	struct stat st;

	if (!(w->f = fopen(path, "w+e")))
		w->f = fopen(path, "we");
	if (w->f && !fstat(fileno(w->f), &st) &&
	    (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		w->pipe = true;
	return w->f ? 0 : -1;
}

/* "-": standard output, in pipe mode (perf record -o -). */
static int open_stdout(struct pd_writer *w)
{
	int fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);

	if (fd < 0 || !(w->f = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	w->pipe = true;
	return 0;
}

/* ".NAME.XXXXXX" beside the file: mkstemp creates it 0600, O_EXCL. */
static int open_tmp(struct pd_writer *w)
{
	char *dir = strdup(w->path), *base = strdup(w->path);
	int fd = -1;

	if (dir && base &&
	    asprintf(&w->tmp, "%s/.%s.XXXXXX", dirname(dir), basename(base)) >= 0)
		fd = mkstemp(w->tmp);
	else
		w->tmp = NULL;
	free(dir);
	free(base);
	if (fd < 0) {
		free(w->tmp);
		w->tmp = NULL;
		return -1;
	}
	if (!(w->f = fdopen(fd, "w+"))) {
		close(fd);
		return -1;
	}
	return 0;
}

int pmu__pd_write_open(struct pd_writer *w, const char *path, size_t nattr,
		  const struct perf_event_attr *attr, char *const *names,
		  struct pmu_error *err)
{
	memset(w, 0, sizeof(*w));
	w->path = strdup(path);
	w->attr = calloc(nattr, sizeof(*w->attr));
	w->names = calloc(nattr, sizeof(*w->names));
	w->ids = calloc(nattr, sizeof(*w->ids));
	w->nids = calloc(nattr, sizeof(*w->nids));
	if (!w->path || !w->attr || !w->names || !w->ids || !w->nids) {
		pmu__pd_write_close(w);
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	}
	w->nattr = nattr;
	for (size_t i = 0; i < nattr; i++) {
		w->attr[i] = attr[i];
		w->attr[i].size = ATTR_SIZE;
		w->names[i] = strdup(names[i] ? names[i] : "");
	}
	if (!strcmp(path, "-") ? open_stdout(w) :
	    is_device(path) ? open_device(w, path) : open_tmp(w)) {
		int e = errno ? -errno : -EIO;

		pmu__pd_write_close(w);
		return pmu__error(err, e, PMU_ERR_SYSTEM, path, -1,
				  "cannot create %s: %s", path, strerror(-e));
	}
	return 0;
}

int pmu__pd_write_ids(struct pd_writer *w, size_t i, const uint64_t *ids, size_t n)
{
	uint64_t *m;

	if (i >= w->nattr)
		return -EINVAL;
	m = realloc(w->ids[i], (w->nids[i] + n + 1) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	memcpy(m + w->nids[i], ids, n * sizeof(*m));
	w->ids[i] = m;
	w->nids[i] += n;
	return 0;
}

int pmu__pd_write_data(struct pd_writer *w, const void *rec, size_t len)
{
	if (begin_data(w))
		return -EIO;
	if (fwrite(rec, 1, len, w->f) != len)
		return errno ? -errno : -EIO;
	w->data_size += len;
	return 0;
}

int pmu__pd_write_feat_str(struct pd_writer *w, int feat, const char *s)
{
	char *d;

	if (feat <= 0 || feat >= PD_FEAT_BITS || !s)
		return -EINVAL;
	if (!(d = strdup(s)))
		return -ENOMEM;
	free(w->feat_str[feat]);
	w->feat_str[feat] = d;
	return 0;
}

int pmu__pd_write_cmdline(struct pd_writer *w, int argc, char *const *argv)
{
	w->argv = calloc((size_t)argc + 1, sizeof(*w->argv));
	if (!w->argv)
		return -ENOMEM;
	for (int i = 0; i < argc; i++)
		if ((w->argv[w->argc] = strdup(argv[i])))
			w->argc++;
	return 0;
}

int pmu__pd_write_build_id(struct pd_writer *w, int32_t pid, uint16_t misc,
		      const uint8_t *id, size_t len, const char *filename)
{
	struct pd_build_id *b = realloc(w->bid, (w->nbid + 1) * sizeof(*b));

	if (!b)
		return -ENOMEM;
	w->bid = b;
	b = &w->bid[w->nbid];
	memset(b, 0, sizeof(*b));
	b->pid = pid;
	b->misc = misc;
	b->id_len = len > 20 ? 20 : len;
	memcpy(b->id, id, b->id_len);
	if (!(b->filename = strdup(filename)))
		return -ENOMEM;
	w->nbid++;
	return 0;
}

/* ---- feature sections ---- */

static int put(FILE *f, const void *p, size_t n)
{
	return fwrite(p, 1, n, f) == n ? 0 : -EIO;
}

static int put32(FILE *f, uint32_t v)
{
	return put(f, &v, 4);
}

/* perf_header_string: u32 length (with the NUL, padded to 64) */
static int put_str(FILE *f, const char *s)
{
	static const char zero[64];
	size_t n = strlen(s) + 1, pad = (n + 63) / 64 * 64;

	if (put32(f, (uint32_t)pad) || put(f, s, n))
		return -EIO;
	return put(f, zero, pad - n);
}

static int feat_build_ids(const struct pd_writer *w, FILE *f)
{
	static const char zero[64];

	for (size_t i = 0; i < w->nbid; i++) {
		const struct pd_build_id *b = &w->bid[i];
		size_t n = strlen(b->filename) + 1, pad = (n + 63) / 64 * 64;
		struct perf_event_header h = {
			.type = PD_REC_BUILD_ID,
			/* PERF_RECORD_MISC_BUILD_ID_SIZE: the length is in
			 * the byte after the id */
			.misc = (uint16_t)(b->misc | (1u << 15)),
			.size = (uint16_t)(8 + 4 + 24 + pad),
		};
		uint8_t id[24] = { 0 };

		memcpy(id, b->id, b->id_len);
		id[20] = (uint8_t)b->id_len;
		if (put(f, &h, 8) || put(f, &b->pid, 4) || put(f, id, 24) ||
		    put(f, b->filename, n) || put(f, zero, pad - n))
			return -EIO;
	}
	return 0;
}

static int feat_event_desc(const struct pd_writer *w, FILE *f)
{
	int ret = put32(f, (uint32_t)w->nattr) || put32(f, ATTR_SIZE);

	for (size_t i = 0; !ret && i < w->nattr; i++) {
		ret = put(f, &w->attr[i], ATTR_SIZE) ||
		      put32(f, (uint32_t)w->nids[i]) ||
		      put_str(f, w->names[i]) ||
		      put(f, w->ids[i], 8 * w->nids[i]);
	}
	return ret ? -EIO : 0;
}

static int feat_cmdline(const struct pd_writer *w, FILE *f)
{
	int ret = put32(f, (uint32_t)w->argc);

	for (size_t i = 0; !ret && i < w->argc; i++)
		ret = put_str(f, w->argv[i]);
	return ret;
}

static bool feat_present(const struct pd_writer *w, int bit)
{
	switch (bit) {
	case PD_FEAT_BUILD_ID:
		return true;
	case PD_FEAT_NRCPUS:
		return w->nr_cpus_online;
	case PD_FEAT_TOTAL_MEM:
		return w->total_mem;
	case PD_FEAT_CMDLINE:
		return w->argv;
	case PD_FEAT_EVENT_DESC:
		return true;
	case PD_FEAT_SAMPLE_TIME:
		return w->has_time;
	case PD_FEAT_CLOCK_DATA:
		return w->has_clock;
	case PD_FEAT_TRACING_DATA:
		return w->ntracing > 0;
	default:
		return bit < PD_FEAT_BITS && w->feat_str[bit];
	}
}

static int feat_write(const struct pd_writer *w, int bit, FILE *f)
{
	switch (bit) {
	case PD_FEAT_BUILD_ID:
		return feat_build_ids(w, f);
	case PD_FEAT_NRCPUS:
		return put32(f, w->nr_cpus_avail) || put32(f, w->nr_cpus_online);
	case PD_FEAT_TOTAL_MEM:
		return put(f, &w->total_mem, 8);
	case PD_FEAT_CMDLINE:
		return feat_cmdline(w, f);
	case PD_FEAT_EVENT_DESC:
		return feat_event_desc(w, f);
	case PD_FEAT_SAMPLE_TIME:
		return put(f, &w->first_time, 8) || put(f, &w->last_time, 8);
	case PD_FEAT_TRACING_DATA:
		return put(f, w->tracing, w->ntracing);
	case PD_FEAT_CLOCK_DATA:    /* version 1 */
		return put32(f, 1) || put32(f, w->clockid) ||
		       put(f, &w->wall_ns, 8) || put(f, &w->clock_ns, 8);
	default:
		return put_str(f, w->feat_str[bit]);
	}
}

/* Feature table right after the data, contents after it; returns the
 * features bitmap through *bits. */
static int write_features(struct pd_writer *w, uint64_t bits[4])
{
	struct pd_section sec[PD_FEAT_BITS];
	uint64_t table = w->data_off + w->data_size;
	int n = 0, ret = 0;

	memset(bits, 0, 4 * sizeof(*bits));
	for (int b = 1; b < PD_FEAT_BITS; b++)
		if (feat_present(w, b)) {
			bits[b / 64] |= 1ULL << (b % 64);
			n++;
		}
	if (fseeko(w->f, (off_t)(table + 16 * (uint64_t)n), SEEK_SET))
		return -EIO;
	n = 0;
	for (int b = 1; !ret && b < PD_FEAT_BITS; b++) {
		if (!feat_present(w, b))
			continue;
		sec[n].offset = (uint64_t)ftello(w->f);
		ret = feat_write(w, b, w->f) ? -EIO : 0;
		sec[n].size = (uint64_t)ftello(w->f) - sec[n].offset;
		n++;
	}
	if (ret || fseeko(w->f, (off_t)table, SEEK_SET))
		return -EIO;
	return put(w->f, sec, 16 * (size_t)n);
}

/* ids, attrs (in the room kept before the data), the header. */
static int write_attrs(struct pd_writer *w, const uint64_t bits[4])
{
	struct pd_section *ids = calloc(w->nattr + 1, sizeof(*ids));
	struct pd_header h = { 0 };
	int ret = 0;

	if (!ids || fseeko(w->f, HDR_SIZE, SEEK_SET)) {
		free(ids);
		return -EIO;
	}
	for (size_t i = 0; !ret && i < w->nattr; i++) {
		ids[i].offset = (uint64_t)ftello(w->f);
		ids[i].size = 8 * w->nids[i];
		ret = put(w->f, w->ids[i], 8 * w->nids[i]);
	}
	for (size_t i = 0; !ret && i < w->nattr; i++)
		ret = put(w->f, &w->attr[i], ATTR_SIZE) ||
		      put(w->f, &ids[i], 16) ? -EIO : 0;
	free(ids);
	h.magic = PD_MAGIC;
	h.size = HDR_SIZE;
	h.attr_size = ATTR_SIZE + 16; /* perf counts the ids section in */
	h.attrs = (struct pd_section){ HDR_SIZE + ids_size(w),
				       w->nattr * (ATTR_SIZE + 16) };
	h.data = (struct pd_section){ w->data_off, w->data_size };
	memcpy(h.features, bits, sizeof(h.features));
	if (!ret && (fseeko(w->f, 0, SEEK_SET) || put(w->f, &h, HDR_SIZE)))
		ret = -EIO;
	return ret;
}

/* Pipe mode ends with the features as HEADER_FEATURE records (a
 * record holds at most 64 KiB: a larger feature is left out) and each
 * build-id as a HEADER_BUILD_ID record, which readers take wherever
 * they come. */
static int pipe_feature(struct pd_writer *w, int b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	int ret;

	if (!(m = open_memstream(&buf, &len)))
		return -ENOMEM;
	ret = feat_write(w, b, m) ? -EIO : 0;
	if (fclose(m))
		ret = -ENOMEM;
	if (!ret && 16 + ((len + 7) & ~(size_t)7) <= 65535) {
		static const char zero[8];
		size_t pad = ((len + 7) & ~(size_t)7) - len;
		struct perf_event_header h = {
			PD_REC_HEADER_FEATURE, 0,
			(uint16_t)(16 + len + pad) };
		uint64_t id = (uint64_t)b;

		ret = put(w->f, &h, 8) || put(w->f, &id, 8) ||
		      put(w->f, buf, len) || put(w->f, zero, pad) ? -EIO : 0;
	}
	free(buf);
	return ret;
}

static int pipe_features(struct pd_writer *w)
{
	int ret = 0;

	/* (the event descriptions and tracepoint formats went first) */
	for (int b = 1; !ret && b < PD_FEAT_BITS; b++) {
		if (!feat_present(w, b) || b == PD_FEAT_TRACING_DATA ||
		    b == PD_FEAT_EVENT_DESC)
			continue;
		ret = b == PD_FEAT_BUILD_ID ? feat_build_ids(w, w->f) :
					      pipe_feature(w, b);
	}
	return ret;
}

static int complete(struct pd_writer *w, struct pmu_error *err)
{
	uint64_t bits[4];
	int ret = w->f ? begin_data(w) : 0;

	if (!w->f)
		return 0;   /* done already: only its place is left */
	if (!ret && w->pipe)
		ret = pipe_features(w);
	else if (!ret)
		ret = write_features(w, bits);
	if (!ret && !w->pipe)
		ret = write_attrs(w, bits);
	if (!ret && fflush(w->f))
		ret = -errno;
	if (!ret && fclose(w->f))
		ret = errno ? -errno : -EIO;
	else if (ret)
		fclose(w->f);
	w->f = NULL;
	if (ret)
		return pmu__error(err, ret, PMU_ERR_SYSTEM, w->path, -1,
				  "cannot write %s: %s", w->path,
				  strerror(-ret));
	return 0;
}

/* rename(), failing where `to` exists (file systems without
 * RENAME_NOREPLACE: a hard link, which fails so too). */
static int no_replace(const char *from, const char *to)
{
	if (!renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE))
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	if (link(from, to))
		return -1;
	unlink(from);
	return 0;
}

/* The finished file in its place. */
static int place(struct pd_writer *w, const char *dest, bool backup,
		 struct pmu_error *err)
{
	struct stat st;
	char *old = NULL;
	int ret = 0;

	if (backup && !lstat(dest, &st) && (st.st_size > 0 || !S_ISREG(st.st_mode))) {
		if (asprintf(&old, "%s.old", dest) < 0)
			return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
					  "out of memory");
		if (rename(dest, old))
			ret = pmu__error(err, -errno, PMU_ERR_SYSTEM, dest, -1,
					 "cannot keep %s as %s: %s", dest, old,
					 strerror(errno));
		free(old);
	}
	if (!ret && !backup && no_replace(w->tmp, dest))
		ret = pmu__error(err, -errno, PMU_ERR_SYSTEM, dest, -1,
				 "cannot write %s: %s", dest, strerror(errno));
	else if (!ret && backup && rename(w->tmp, dest))
		ret = pmu__error(err, -errno, PMU_ERR_SYSTEM, dest, -1,
				 "cannot write %s: %s", dest, strerror(errno));
	if (!ret) {
		free(w->tmp);
		w->tmp = NULL;
	}
	return ret;
}

int pmu__pd_write_finish(struct pd_writer *w, struct pmu_error *err)
{
	int ret = complete(w, err);

	/* a device was written in place */
	return ret || !w->tmp ? ret : place(w, w->path, true, err);
}

int pmu__pd_write_finish_to(struct pd_writer *w, const char *dest,
		       struct pmu_error *err)
{
	int ret = w->tmp ? complete(w, err)
			 : pmu__error(err, -EINVAL, PMU_ERR_USAGE, w->path, -1,
				      "%s is not a file: its recording cannot "
				      "be finished under another name",
				      w->path);

	return ret ? ret : place(w, dest, false, err);
}

void pmu__pd_write_close(struct pd_writer *w)
{
	if (!w)
		return;
	if (w->f)
		fclose(w->f);
	if (w->tmp)
		unlink(w->tmp);
	free(w->tmp);
	for (size_t i = 0; i < w->nattr; i++) {
		free(w->names ? w->names[i] : NULL);
		free(w->ids ? w->ids[i] : NULL);
	}
	for (size_t i = 0; i < w->nbid; i++)
		free(w->bid[i].filename);
	for (size_t i = 0; i < w->argc; i++)
		free(w->argv[i]);
	for (int i = 0; i < PD_FEAT_BITS; i++)
		free(w->feat_str[i]);
	free(w->argv);
	free(w->tracing);
	free(w->bid);
	free(w->names);
	free(w->ids);
	free(w->nids);
	free(w->attr);
	free(w->path);
	memset(w, 0, sizeof(*w));
}
