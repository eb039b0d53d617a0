/* SPDX-License-Identifier: MIT */
#include <byteswap.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile/perfdata.h"
#include "util/error.h"

static uint64_t rd64(const struct pd_file *f, const void *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return f->swap ? bswap_64(v) : v;
}

static uint32_t rd32(const struct pd_file *f, const void *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return f->swap ? bswap_32(v) : v;
}

static int bad(struct pd_file *f, struct pmu_error *err, int code,
	       const char *field, uint64_t off, const char *why)
{
	return pmu__error(err, code, PMU_ERR_SYNTAX, field, -1,
			  "%s: %s at offset %llu: %s", f->path, field,
			  (unsigned long long)off, why);
}

/* A section that lies inside the file. */
static bool in_file(const struct pd_file *f, struct pd_section s)
{
	return s.offset <= f->len && s.size <= f->len - s.offset;
}

static struct pd_section rd_section(const struct pd_file *f, const void *p)
{
	const unsigned char *b = p;

	return (struct pd_section){ rd64(f, b), rd64(f, b + 8) };
}

static int read_header(struct pd_file *f, struct pmu_error *err)
{
	const unsigned char *b = f->map;
	uint64_t magic;

	if (f->len == 0)
		return pmu__error(err, -EINVAL, PMU_ERR_SYNTAX, NULL, -1,
				  "%s: empty file (no perf.data header)",
				  f->path);
	if (f->len < 16)
		return bad(f, err, -EINVAL, "header", 0,
			   "file too short for a perf.data header");
	memcpy(&magic, b, 8);
	if (magic == bswap_64(PD_MAGIC))
		f->swap = true;
	else if (magic != PD_MAGIC)
		return bad(f, err, -EINVAL, "magic", 0,
			   memcmp(b, "PERFFILE", 8) ?
			   "not a perf.data file (no PERFILE2 magic)" :
			   "perf.data version 1, which pmu does not read");
	f->h.magic = PD_MAGIC;
	f->h.size = rd64(f, b + 8);
	if (f->h.size == 16) {
		f->pipe = true;
		return 0;
	}
	if (f->h.size < 104 || f->h.size > f->len)
		return bad(f, err, -EINVAL, "header.size", 8,
			   f->h.size > f->len ? "file cut short inside the header" :
			   "header size smaller than perf.data's");
	f->h.attr_size = rd64(f, b + 16);
	f->h.attrs = rd_section(f, b + 24);
	f->h.data = rd_section(f, b + 40);
	f->h.event_types = rd_section(f, b + 56);
	for (int i = 0; i < 4; i++)
		f->h.features[i] = rd64(f, b + 72 + 8 * i);
	return 0;
}

/* Fields of perf_event_attr by offset and width, to swap a file of
 * the other byte order field by field. */
static const struct { unsigned char off, width; } attr_fields[] = {
	{ 0, 4 }, { 4, 4 }, { 8, 8 }, { 16, 8 }, { 24, 8 }, { 32, 8 },
	/* 40: the flag bits, handled apart */
	{ 48, 4 }, { 52, 4 }, { 56, 8 }, { 64, 8 }, { 72, 8 }, { 80, 8 },
	{ 88, 4 }, { 92, 4 }, { 96, 8 }, { 104, 4 }, { 108, 2 }, { 110, 2 },
	{ 112, 4 }, { 116, 4 }, { 120, 8 },
};

static unsigned char revbits(unsigned char b)
{
	unsigned char r = 0;

	for (int i = 0; i < 8; i++)
		r |= (unsigned char)(((b >> i) & 1) << (7 - i));
	return r;
}

static void swap_attr(unsigned char *tmp, size_t n)
{
	for (size_t i = 0; i < sizeof(attr_fields) / sizeof(attr_fields[0]);
	     i++) {
		unsigned char *p = tmp + attr_fields[i].off;

		if (attr_fields[i].off + attr_fields[i].width > n)
			break;
		for (int a = 0, b = attr_fields[i].width - 1; a < b; a++, b--) {
			unsigned char t = p[a];
			p[a] = p[b];
			p[b] = t;
		}
	}
	/* a big-endian compiler allocates bit fields from the top bit of
	 * each byte: the bytes stay, the bits of each turn round */
	for (size_t o = 40; o < 48 && o < n; o++)
		tmp[o] = revbits(tmp[o]);
}

/* A perf_event_attr of attr_size bytes, in native order. */
static void rd_attr(const struct pd_file *f, const unsigned char *p,
		    size_t size, struct perf_event_attr *a)
{
	unsigned char tmp[sizeof(*a)] = { 0 };
	size_t n = size < sizeof(*a) ? size : sizeof(*a);

	memcpy(tmp, p, n);
	if (f->swap)
		swap_attr(tmp, n);
	memcpy(a, tmp, sizeof(*a));
	a->size = sizeof(*a);
}

static size_t popcount64(uint64_t v)
{
	return (size_t)__builtin_popcountll(v);
}

/* Bytes of a sample_id trailer for sample_type st. */
static size_t pd_sid_size(uint64_t st)
{
	uint64_t m = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
		     PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
		     PERF_SAMPLE_IDENTIFIER;

	return 8 * popcount64(st & m);
}

static void attr_positions(struct pd_attr *a)
{
	uint64_t st = a->attr.sample_type;

	a->sid_size = a->attr.sample_id_all ? pd_sid_size(st) : 0;
	if (st & PERF_SAMPLE_IDENTIFIER) {
		a->id_pos = 0;
		a->sid_id_from_end = 1;
	} else if (st & PERF_SAMPLE_ID) {
		a->id_pos = popcount64(st & (PERF_SAMPLE_IP | PERF_SAMPLE_TID |
					     PERF_SAMPLE_TIME |
					     PERF_SAMPLE_ADDR));
		a->sid_id_from_end = 1 + popcount64(
			st & (PERF_SAMPLE_CPU | PERF_SAMPLE_STREAM_ID));
	}
}

static int id_insert(struct pd_file *f, uint64_t id, size_t attr)
{
	if (f->id_cap == 0)
		return 0;
	size_t m = f->id_cap - 1, k = (size_t)(id * 0x9E3779B97F4A7C15ULL) & m;

	for (size_t n = 0; n < f->id_cap; n++, k = (k + 1) & m) {
		if (f->id_val[k] == (size_t)-1 || f->id_key[k] == id) {
			f->id_key[k] = id;
			f->id_val[k] = attr;
			return 0;
		}
	}
	return -ENOSPC;
}

static int build_id_table(struct pd_file *f)
{
	size_t total = 0;

	for (size_t i = 0; i < f->nattr; i++)
		total += f->attr[i].nids;
	f->id_cap = 16;
	while (f->id_cap < 2 * total)
		f->id_cap *= 2;
	f->id_key = calloc(f->id_cap, sizeof(*f->id_key));
	f->id_val = malloc(f->id_cap * sizeof(*f->id_val));
	if (!f->id_key || !f->id_val)
		return -ENOMEM;
	memset(f->id_val, 0xff, f->id_cap * sizeof(*f->id_val));
	for (size_t i = 0; i < f->nattr; i++)
		for (size_t k = 0; k < f->attr[i].nids; k++)
			id_insert(f, f->attr[i].ids[k], i);
	return 0;
}

static int read_ids(struct pd_file *f, struct pd_attr *a, struct pd_section s,
		    uint64_t where, struct pmu_error *err)
{
	if (!in_file(f, s) || s.size % 8)
		return bad(f, err, -EINVAL, "attr.ids", where,
			   "id section outside the file");
	a->nids = s.size / 8;
	a->ids = calloc(a->nids + 1, sizeof(*a->ids));
	if (!a->ids)
		return -ENOMEM;
	for (size_t k = 0; k < a->nids; k++)
		a->ids[k] = rd64(f, f->map + s.offset + 8 * k);
	return 0;
}

/* header.attr_size is the size of one entry: a perf_event_attr and
 * the {offset, size} of its ids. */
static int read_attrs(struct pd_file *f, struct pmu_error *err)
{
	uint64_t esz = f->h.attr_size, n;

	if (esz < PERF_ATTR_SIZE_VER0 + 16 || esz > 4096 || esz % 8)
		return bad(f, err, -EINVAL, "header.attr_size", 16,
			   "not the size of a perf_event_attr entry");
	if (!in_file(f, f->h.attrs) || f->h.attrs.size % esz)
		return bad(f, err, -EINVAL, "header.attrs", 24,
			   "attribute section outside the file or of a "
			   "size that is not a multiple of an entry");
	n = f->h.attrs.size / esz;
	if (n == 0)
		return bad(f, err, -EINVAL, "header.attrs", 24,
			   "the file describes no event");
	f->attr = calloc(n, sizeof(*f->attr));
	if (!f->attr)
		return -ENOMEM;
	f->nattr = n;
	for (size_t i = 0; i < n; i++) {
		uint64_t o = f->h.attrs.offset + i * esz;
		int ret;

		rd_attr(f, f->map + o, esz - 16, &f->attr[i].attr);
		ret = read_ids(f, &f->attr[i],
			       rd_section(f, f->map + o + esz - 16), o, err);
		if (ret)
			return ret;
		attr_positions(&f->attr[i]);
	}
	return build_id_table(f);
}

/* ---- header features ---- */

struct cursor {
	const struct pd_file *f;
	const unsigned char *p, *end;
	bool bad;
};

static uint32_t cur32(struct cursor *c)
{
	if (c->end - c->p < 4) {
		c->bad = true;
		return 0;
	}
	c->p += 4;
	return rd32(c->f, c->p - 4);
}

static uint64_t cur64(struct cursor *c)
{
	if (c->end - c->p < 8) {
		c->bad = true;
		return 0;
	}
	c->p += 8;
	return rd64(c->f, c->p - 8);
}

/* perf_header_string: u32 len (padded), then len bytes NUL-terminated */
static char *cur_str(struct cursor *c)
{
	uint32_t len = cur32(c);
	char *s;

	if (c->bad || len > (size_t)(c->end - c->p)) {
		c->bad = true;
		return NULL;
	}
	s = strndup((const char *)c->p, len);
	c->p += len;
	if (!s)
		c->bad = true;
	return s;
}

static void feat_cmdline(struct pd_file *f, struct cursor *c)
{
	uint32_t n = cur32(c);
	size_t len = 0;

	for (uint32_t i = 0; !c->bad && i < n && i < 4096; i++) {
		char *s = cur_str(c), *j;

		if (!s)
			break;
		j = realloc(f->cmdline, len + strlen(s) + 2);
		if (!j) {
			free(s);
			break;
		}
		f->cmdline = j;
		len += (size_t)sprintf(f->cmdline + len, "%s%s",
				       len ? " " : "", s);
		free(s);
	}
}

static void feat_event_desc(struct pd_file *f, struct cursor *c)
{
	uint32_t n = cur32(c), asz = cur32(c);

	for (uint32_t i = 0; !c->bad && i < n && i < 65536; i++) {
		uint32_t nids;
		char *name;

		if (asz > (size_t)(c->end - c->p) || asz < 8) {
			c->bad = true;
			return;
		}
		c->p += asz;
		nids = cur32(c);
		name = cur_str(c);
		if (!name)
			return;
		if (nids > (size_t)(c->end - c->p) / 8) {
			free(name);
			c->bad = true;
			return;
		}
		if (i < f->nattr && !f->attr[i].name)
			f->attr[i].name = name;
		else
			free(name);
		c->p += 8 * (size_t)nids;
	}
}

static void feat_build_ids(struct pd_file *f, struct cursor *c)
{
	while (!c->bad && c->end - c->p >= 8 + 4 + 24) {
		const unsigned char *r = c->p;
		uint16_t misc, size;
		struct pd_build_id *b;

		memcpy(&size, r + 6, 2);
		memcpy(&misc, r + 4, 2);
		if (f->swap) {
			size = bswap_16(size);
			misc = bswap_16(misc);
		}
		if (size < 8 + 4 + 24 || size > c->end - c->p)
			break;
		b = realloc(f->bid, (f->nbid + 1) * sizeof(*b));
		if (!b)
			break;
		f->bid = b;
		b = &f->bid[f->nbid];
		memset(b, 0, sizeof(*b));
		b->pid = (int32_t)rd32(f, r + 8);
		b->misc = misc;
		memcpy(b->id, r + 12, 20);
		/* newer perf: the length is in the byte after the id */
		b->id_len = (misc & (1u << 15)) && r[12 + 20] <= 20 ?
			    r[12 + 20] : 20;
		b->filename = strndup((const char *)r + 36, size - 36u);
		if (b->filename)
			f->nbid++;
		c->p += size;
	}
}

static void read_feature(struct pd_file *f, int bit, struct pd_section s)
{
	struct cursor c = { f, f->map + s.offset, f->map + s.offset + s.size,
			    false };

	switch (bit) {
	case PD_FEAT_HOSTNAME: case PD_FEAT_OSRELEASE: case PD_FEAT_VERSION:
	case PD_FEAT_ARCH: case PD_FEAT_CPUDESC: case PD_FEAT_CPUID:
		/* a stream may say it twice: the last word counts */
		free(f->feat_str[bit]);
		f->feat_str[bit] = cur_str(&c);
		break;
	case PD_FEAT_NRCPUS:
		f->nr_cpus_avail = cur32(&c);
		f->nr_cpus_online = cur32(&c);
		break;
	case PD_FEAT_TOTAL_MEM:
		f->total_mem = cur64(&c);
		break;
	case PD_FEAT_CMDLINE:
		feat_cmdline(f, &c);
		break;
	case PD_FEAT_EVENT_DESC:
		feat_event_desc(f, &c);
		break;
	case PD_FEAT_BUILD_ID:
		feat_build_ids(f, &c);
		break;
	case PD_FEAT_SAMPLE_TIME:
		f->first_time = cur64(&c);
		f->last_time = cur64(&c);
		break;
	case PD_FEAT_TRACING_DATA:
		pmu__pd_trace_parse(&f->trace, c.p, (size_t)(c.end - c.p));
		break;
	case PD_FEAT_CLOCK_DATA:
		if (cur32(&c) == 1) {    /* version */
			f->clockid = cur32(&c);
			f->wall_ns = cur64(&c);
			f->clock_ns = cur64(&c);
			f->has_clock = !c.bad;
		}
		break;
	default:
		f->unknown_features++;
		break;
	}
}

/* The feature sections follow the data: one {offset, size} per set
 * bit, in bit order.  A bad one is skipped, not fatal: the samples do
 * not need it. */
static void read_features(struct pd_file *f)
{
	uint64_t at = f->h.data.offset + f->h.data.size;

	for (int bit = 1; bit < PD_FEAT_BITS; bit++) {
		struct pd_section s;

		if (!(f->h.features[bit / 64] >> (bit % 64) & 1))
			continue;
		if (at > f->len || f->len - at < 16)
			return;
		s = rd_section(f, f->map + at);
		at += 16;
		if (in_file(f, s))
			read_feature(f, bit, s);
	}
}

/* perf's pipe mode (perf record -o -): after the 16-byte header, the
 * whole stream is records, the attrs (HEADER_ATTR), features
 * (HEADER_FEATURE) and build-ids (HEADER_BUILD_ID) among them, before
 * the samples or anywhere.  One pass collects them; the records are
 * then read from the start, those the readers do not know skipped. */
static int read_pipe(struct pd_file *f, struct pmu_error *err)
{
	uint64_t at = 16;
	size_t cap = 0;

	if (f->swap)
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED,
				  "magic", -1, "%s: a pipe-mode stream of the "
				  "other byte order, which pmu does not read",
				  f->path);
	while (f->len - at >= 8) {
		const unsigned char *p = f->map + at;
		struct perf_event_header h;

		memcpy(&h, p, 8);
		if (h.size < 8 || h.size > f->len - at)
			break;      /* read as data, which says what is wrong */
		if (h.type == PD_REC_HEADER_ATTR) {
			uint32_t asz = rd32(f, p + 12);
			struct pd_attr *a;

			if (!asz)
				asz = PERF_ATTR_SIZE_VER0;
			if (asz < PERF_ATTR_SIZE_VER0 || asz > h.size - 8u ||
			    (h.size - 8u - asz) % 8)
				return bad(f, err, -EINVAL, "HEADER_ATTR", at,
					   "attribute record of a size that "
					   "makes no sense");
			if (f->nattr == cap) {
				size_t nc = cap ? 2 * cap : 8;

				a = realloc(f->attr, nc * sizeof(*a));
				if (!a)
					return -ENOMEM;
				f->attr = a;
				cap = nc;
			}
			a = &f->attr[f->nattr++];
			memset(a, 0, sizeof(*a));
			rd_attr(f, p + 8, asz, &a->attr);
			a->nids = (h.size - 8u - asz) / 8;
			if (!(a->ids = calloc(a->nids + 1, sizeof(*a->ids))))
				return -ENOMEM;
			for (size_t k = 0; k < a->nids; k++)
				a->ids[k] = rd64(f, p + 8 + asz + 8 * k);
			attr_positions(a);
		} else if (h.type == PD_REC_HEADER_FEATURE && h.size >= 16) {
			uint64_t bit = rd64(f, p + 8);

			if (bit > 0 && bit < PD_FEAT_BITS) {
				f->h.features[bit / 64] |= 1ull << (bit % 64);
				read_feature(f, (int)bit, (struct pd_section){
					at + 16, h.size - 16u });
			}
		} else if (h.type == PD_REC_BUILD_ID) {
			struct cursor c = { f, p, p + h.size, false };

			feat_build_ids(f, &c);
		} else if (h.type == PD_REC_HEADER_TRACING_DATA &&
			   h.size >= 12) {
			/* the tracefs data follows the record */
			uint64_t n = (rd32(f, p + 8) + 7ull) & ~7ull;

			if (n > f->len - at - h.size)
				break;
			pmu__pd_trace_parse(&f->trace, p + h.size, rd32(f, p + 8));
			at += n;
		}
		at += h.size;
	}
	if (!f->nattr)
		return bad(f, err, -EINVAL, "HEADER_ATTR", 16,
			   "the stream describes no event");
	/* the data section is the whole stream */
	f->h.data = (struct pd_section){ 16, f->len - 16 };
	f->pos = 16;
	f->end = f->len;
	return build_id_table(f);
}

static int open_common(struct pd_file *f, struct pmu_error *err)
{
	int ret = read_header(f, err);

	if (ret)
		return ret;
	if (f->pipe) {
		ret = read_pipe(f, err);
		return ret == -ENOMEM ? pmu__error(err, ret, PMU_ERR_SYSTEM,
						   NULL, -1, "out of memory") :
					ret;
	}
	ret = read_attrs(f, err);
	if (ret)
		return ret == -ENOMEM ? pmu__error(err, ret, PMU_ERR_SYSTEM,
						   NULL, -1, "out of memory") :
					ret;
	if (f->h.data.offset > f->len || f->h.data.offset < f->h.size)
		return bad(f, err, -EINVAL, "header.data", 40,
			   "data section outside the file");
	f->pos = f->h.data.offset;
	f->end = f->h.data.offset + f->h.data.size;
	if (f->h.data.size > f->len - f->h.data.offset) {
		f->truncated = true; /* cut short: read what is there */
		f->end = f->len;
	} else {
		read_features(f);
	}
	if (f->h.features[PD_FEAT_COMPRESSED / 64] >> PD_FEAT_COMPRESSED & 1)
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED,
				  "COMPRESSED", -1, "%s: compressed records "
				  "(perf record -z), which pmu does not read; "
				  "'perf inject -i FILE -o OUT' decompresses",
				  f->path);
	return 0;
}

int pmu__pd_open_mem(struct pd_file *f, const void *buf, size_t len,
		struct pmu_error *err)
{
	int ret;

	memset(f, 0, sizeof(*f));
	snprintf(f->path, sizeof(f->path), "(memory)");
	f->map = buf;
	f->len = len;
	ret = open_common(f, err);
	if (ret) {
		f->map = NULL; /* not ours to unmap */
		pmu__pd_close(f);
	}
	return ret;
}

/* "-": standard input, perf's pipe mode (perf record -o - | pmu report
 * -i -) or a whole file, read into memory. */
static int open_stdin(struct pd_file *f, struct pmu_error *err)
{
	size_t cap = 1 << 20, n = 0;
	unsigned char *b = malloc(cap);
	int ret;

	while (b) {
		ssize_t r;

		if (n == cap) {
			unsigned char *nb = realloc(b, 2 * cap);

			if (!nb) {
				free(b);
				b = NULL;
				break;
			}
			b = nb;
			cap *= 2;
		}
		r = read(STDIN_FILENO, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			free(b);
			return pmu__error(err, ret, PMU_ERR_SYSTEM, "-", -1,
					  "cannot read standard input: %s",
					  strerror(-ret));
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (!b)
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	f->map = b;
	f->len = n;
	f->own_buf = true;
	ret = open_common(f, err);
	if (ret)
		pmu__pd_close(f);
	return ret;
}

int pmu__pd_open(struct pd_file *f, const char *path, struct pmu_error *err)
{
	struct stat st;
	void *m = NULL;
	int fd, ret;

	memset(f, 0, sizeof(*f));
	snprintf(f->path, sizeof(f->path), "%s", path);
	if (!strcmp(path, "-")) {
		snprintf(f->path, sizeof(f->path), "standard input");
		return open_stdin(f, err);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		return pmu__error(err, ret, ret == -ENOENT ? PMU_ERR_USAGE :
				  PMU_ERR_SYSTEM, path, -1, "cannot open %s: %s",
				  path, strerror(-ret));
	}
	if (st.st_size > 0) {
		m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED) {
			ret = -errno;
			close(fd);
			return pmu__error(err, ret, PMU_ERR_SYSTEM, path, -1,
					  "cannot map %s: %s", path,
					  strerror(-ret));
		}
		madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
	}
	close(fd);
	f->map = m;
	f->len = (size_t)st.st_size;
	f->own_map = m != NULL;
	ret = open_common(f, err);
	if (ret)
		pmu__pd_close(f);
	return ret;
}

void pmu__pd_close(struct pd_file *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nattr; i++) {
		free(f->attr[i].ids);
		free(f->attr[i].name);
	}
	for (size_t i = 0; i < f->nbid; i++)
		free(f->bid[i].filename);
	for (int i = 0; i < PD_FEAT_BITS; i++)
		free(f->feat_str[i]);
	free(f->bid);
	pmu__pd_trace_free(&f->trace);
	free(f->attr);
	free(f->id_key);
	free(f->id_val);
	free(f->cmdline);
	free(f->scratch);
	if (f->own_map)
		munmap((void *)f->map, f->len);
	if (f->own_buf)
		free((void *)f->map);
	memset(f, 0, sizeof(*f));
}
