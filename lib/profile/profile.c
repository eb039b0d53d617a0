/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/dso_priv.h"
#include "profile/profile.h"
#include "util/error.h"
#include "util/opts.h"
#include "util/outstruct.h"

#define CTX_MAX ((uint64_t)-4095) /* PERF_CONTEXT_MAX as u64 */

/* Time of any record: a sample's TIME field, another record's
 * sample_id trailer; `prev` when it has none. */
static uint64_t rec_time(const struct pd_file *f,
			 const struct perf_event_header *h, uint64_t prev)
{
	if (h->type == PERF_RECORD_SAMPLE) {
		ssize_t a = pmu__pd_attr_of(f, h);
		uint64_t st, t;
		size_t at;

		if (a < 0 || !((st = f->attr[a].attr.sample_type) &
			       PERF_SAMPLE_TIME))
			return prev;
		at = 8 + 8 * (size_t)__builtin_popcountll(
			st & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
			      PERF_SAMPLE_TID));
		if (at + 8 > h->size)
			return prev;
		memcpy(&t, (const char *)h + at, 8);
		return t;
	}
	if (h->type >= PD_REC_HEADER_ATTR)
		return prev;
	struct pmu__pd_sample_id sid;

	pmu__pd_sample_id(f, h, &sid);
	return sid.has_time ? sid.time : prev;
}

static int push_ref(struct pmu_profile *p, size_t *cap, uint64_t t,
		    uint64_t off)
{
	if (p->norder == *cap) {
		size_t ncap = *cap ? 2 * *cap : 4096;
		struct pmu__rec_ref *v = realloc(p->order, ncap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		p->order = v;
		*cap = ncap;
	}
	p->order[p->norder++] = (struct pmu__rec_ref){ t, off };
	return 0;
}

static void count(struct pmu_profile *p, const struct perf_event_header *h)
{
	if (h->type == PERF_RECORD_SAMPLE) {
		ssize_t a = pmu__pd_attr_of(&p->f, h);

		struct pd_sample s;

		p->nsamples++;
		if (a >= 0 && (p->f.attr[a].attr.sample_type &
			       (PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_STACK_USER)))
			p->callchains = true;
		if (!pmu__pd_sample_parse(&p->f, h, &s))
			p->total_period += s.period;
	} else if (h->type == PERF_RECORD_LOST && h->size >= 24) {
		uint64_t n;

		memcpy(&n, (const char *)h + 16, 8);
		p->lost_rec += n;
		p->nlost++;
	} else if (h->type == PERF_RECORD_LOST_SAMPLES && h->size >= 16) {
		uint64_t n;

		memcpy(&n, (const char *)h + 8, 8);
		p->lost_smpl += n;
		p->has_lost_smpl = true;
	} else if (h->type > PERF_RECORD_MAX && h->type < PD_REC_HEADER_ATTR) {
		p->nunknown++;
	} else if (h->type > PD_REC_FINISHED_INIT + 10) {
		p->nunknown++;
	}
}

static int ref_cmp(const void *a, const void *b)
{
	const struct pmu__rec_ref *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* One pass over the records at open: what pmu_profile_info() tells. */
static int index_file(struct pmu_profile *p)
{
	const struct perf_event_header *h;

	/* the machine that recorded it (perf names it in the header) */
	p->arch = pmu__regs_arch(p->f.feat_str[PD_FEAT_ARCH]);
	while ((h = pmu__pd_next(&p->f)))
		count(p, h);
	/* perf ends a file with its count of lost samples (LOST_SAMPLES),
	 * the same samples its rings' LOST records told of: that count
	 * when there is one, as perf report reads it, else the records' */
	p->lost = p->has_lost_smpl ? p->lost_smpl : p->lost_rec;
	p->f.pos = p->f.h.data.offset;
	p->f.released = 0;
	return 0;
}

/* kernel.perf_event_max_stack: how deep the kernel records chains here,
 * and how deep perf report follows them; 127, its default, where it
 * cannot be read. */
static unsigned max_stack_default(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_stack", "re");
	unsigned v = 0;

	if (f) {
		if (fscanf(f, "%u", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v ? v : 127;
}

struct pmu_profile *pmu_profile_open(const char *path,
				     const struct pmu_profile_opts *opts,
				     struct pmu_error *err)
{
	struct pmu_profile *p;
	int ret;

	if ((ret = PMU__OPTS_CHECK(opts, pmu_profile_opts, err))) {
		errno = -ret;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	p->no_lines = PMU__OPTS_GET(opts, no_lines, false);
	p->no_inline = PMU__OPTS_GET(opts, no_inline, false);
	p->max_stack = PMU__OPTS_GET(opts, max_stack, 0u);
	if (!p->max_stack)
		p->max_stack = max_stack_default();
	ret = path ? pmu__pd_open(&p->f, path, err) :
		     pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				"no file name");
	if (!ret && !(p->dsos = pmu__dso_set_new(!p->no_lines)))
		ret = pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				 "out of memory");
	if (!ret && (ret = index_file(p)))
		pmu__error(err, ret, PMU_ERR_SYSTEM, NULL, -1, "out of memory");
	if (ret) {
		pmu_profile_close(p);
		errno = -ret;
		return NULL;
	}
	pmu__machine_init(&p->m, p->dsos);
	p->scan = p->f.h.data.offset;
	return p;
}

/* Kept for the fuzz target: the same over bytes in memory. */
struct pmu_profile *pmu__profile_open_mem(const void *buf, size_t len,
					  struct pmu_error *err);
struct pmu_profile *pmu__profile_open_mem(const void *buf, size_t len,
					  struct pmu_error *err)
{
	struct pmu_profile *p = calloc(1, sizeof(*p));
	int ret;

	if (!p)
		return NULL;
	p->no_lines = true;
	p->max_stack = 127;
	ret = pmu__pd_open_mem(&p->f, buf, len, err);
	if (!ret && !(p->dsos = pmu__dso_set_new(false)))
		ret = -ENOMEM;
	if (!ret)
		p->dsos->offline = true;
	if (!ret)
		ret = index_file(p);
	if (ret) {
		pmu_profile_close(p);
		return NULL;
	}
	pmu__machine_init(&p->m, p->dsos);
	p->scan = p->f.h.data.offset;
	return p;
}

void pmu_profile_close(struct pmu_profile *p)
{
	if (!p)
		return;
	pmu__unwind_free(p);
	pmu__machine_free(&p->m);
	pmu__dso_set_free(p->dsos);
	pmu__pd_close(&p->f);
	free(p->order);
	free(p->fr);
	free(p);
}

int pmu_profile_rewind(struct pmu_profile *p)
{
	if (!p)
		return -EINVAL;
	pmu__machine_free(&p->m);
	pmu__machine_init(&p->m, p->dsos);
	p->cur = p->norder = p->nemit = 0;
	p->seen_max = p->round_limit = 0;
	p->f.pos = p->scan = p->f.h.data.offset;
	p->last_time = 0;
	p->f.released = 0;
	p->f.corrupt = false;
	return 0;
}

const char *pmu_profile_event_name(const struct pmu_profile *p, size_t i)
{
	if (!p || i >= p->f.nattr)
		return NULL;
	if (p->f.attr[i].name && p->f.attr[i].name[0])
		return p->f.attr[i].name;
	const struct perf_event_attr *a = &p->f.attr[i].attr;

	/* files without event descriptions: perf's names of the common
	 * software and hardware events */
	static const char *const sw[] = { "cpu-clock", "task-clock",
		"page-faults", "context-switches", "cpu-migrations",
		"minor-faults", "major-faults", "alignment-faults",
		"emulation-faults", "dummy" };
	static const char *const hw[] = { "cycles", "instructions",
		"cache-references", "cache-misses", "branches",
		"branch-misses", "bus-cycles" };

	if (a->type == PERF_TYPE_SOFTWARE && a->config < 10)
		return sw[a->config];
	if (a->type == PERF_TYPE_HARDWARE && a->config < 7)
		return hw[a->config];
	return "unknown-event";
}

static const char *str_or_empty(const char *s)
{
	return s ? s : "";
}

int pmu_profile_info(struct pmu_profile *p, struct pmu_profile_info *info)
{
	struct pmu_profile_info in = { .size = sizeof(in) };

	if (!p || !pmu__out_ok(info, info ? info->size : 0))
		return -EINVAL;
	in.nevents = p->f.nattr;
	in.nsamples = p->nsamples;
	in.lost = p->lost;
	in.nlost_records = p->nlost;
	in.foreign_endian = p->f.swap;
	in.truncated = p->f.truncated;
	in.corrupt = p->f.corrupt;
	in.unknown_records = p->nunknown;
	in.unknown_features = p->f.unknown_features;
	in.hostname = str_or_empty(p->f.feat_str[PD_FEAT_HOSTNAME]);
	in.os_release = str_or_empty(p->f.feat_str[PD_FEAT_OSRELEASE]);
	in.arch = str_or_empty(p->f.feat_str[PD_FEAT_ARCH]);
	in.cpu_desc = str_or_empty(p->f.feat_str[PD_FEAT_CPUDESC]);
	in.version = str_or_empty(p->f.feat_str[PD_FEAT_VERSION]);
	in.cmdline = str_or_empty(p->f.cmdline);
	in.first_time = p->f.first_time;
	in.last_time = p->f.last_time;
	in.callchains = p->callchains;
	in.total_period = p->total_period;
	PMU__OUT(info, &in);
	return 0;
}

/* ---- records that change the machine ---- */

static const uint8_t *header_build_id(const struct pd_file *f,
				      const char *name, size_t *len)
{
	for (size_t i = 0; i < f->nbid; i++)
		if (!strcmp(f->bid[i].filename, name)) {
			*len = f->bid[i].id_len;
			return f->bid[i].id;
		}
	*len = 0;
	return NULL;
}

static void on_mmap(struct pmu_profile *p, const struct perf_event_header *h)
{
	const unsigned char *r = (const unsigned char *)h;
	size_t fixed = h->type == PERF_RECORD_MMAP2 ? 8 + 64 : 8 + 32;
	uint32_t pid;
	uint64_t v[3];
	char name[4096];
	size_t max, n, blen;
	const uint8_t *bid;

	if (h->size <= fixed)
		return;
	memcpy(&pid, r + 8, 4);
	memcpy(v, r + 16, 24);
	max = h->size - fixed;
	n = strnlen((const char *)r + fixed, max < sizeof(name) - 1 ?
		    max : sizeof(name) - 1);
	memcpy(name, r + fixed, n);
	name[n] = 0;
	bid = header_build_id(&p->f, name, &blen);
	/* the kernel's own map belongs to no process */
	pmu__machine_mmap(&p->m, (int32_t)pid, v[0], v[1], v[2],
			  pmu__dso_get(p->dsos, name, bid, blen));
}

void pmu__profile_on_record(struct pmu_profile *p,
			    const struct perf_event_header *h)
{
	const unsigned char *r = (const unsigned char *)h;
	uint32_t u[4];

	switch (h->type) {
	case PERF_RECORD_COMM:
		if (h->size > 16) {
			char comm[64];
			size_t n = strnlen((const char *)r + 16, h->size - 16u);

			if (n >= sizeof(comm))
				n = sizeof(comm) - 1;
			memcpy(u, r + 8, 8);
			memcpy(comm, r + 16, n);
			comm[n] = 0;
			pmu__machine_comm(&p->m, (int)u[0], (int)u[1], comm);
		}
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		on_mmap(p, h);
		break;
	case PERF_RECORD_FORK:
		if (h->size >= 24) {
			memcpy(u, r + 8, 16);
			pmu__machine_fork(&p->m, (int)u[0], (int)u[1],
					  (int)u[2], (int)u[3]);
		}
		break;
	default:
		break;
	}
}

/*
 * Records in time order, as perf orders them: perf record writes each
 * CPU's ring in turn and a FINISHED_ROUND after each pass, so a record
 * may come after later ones from another CPU, within its round or in
 * the next one (its CPU's ring drained before the other's, its record
 * still on the way).  So at the end of a round the records up to the
 * latest time of the round before are due (ties in file order); the
 * rest wait for the next round; at the end of the file all are due.
 * Memory is about two rounds' worth of references.
 */
static int load_round(struct pmu_profile *p)
{
	const struct perf_event_header *h;
	uint64_t t = p->last_time, off, limit;
	size_t cap = p->cap_order;
	bool end;

	/* what is still held moves to the front */
	if (p->cur && p->norder > p->cur)
		memmove(p->order, p->order + p->cur,
			(p->norder - p->cur) * sizeof(*p->order));
	p->norder -= p->cur;
	p->cur = p->nemit = 0;
	do {
		p->f.pos = p->scan;
		off = p->f.pos;
		while ((h = pmu__pd_next(&p->f))) {
			t = rec_time(&p->f, h, t);
			if (t > p->seen_max)
				p->seen_max = t;
			if (push_ref(p, &cap, t, off))
				return -ENOMEM;
			off = p->f.pos;
			if (h->type == PD_REC_FINISHED_ROUND)
				break;
		}
		p->cap_order = cap;
		p->scan = p->f.pos;
		p->last_time = t;
		end = !h || p->scan >= p->f.end || p->f.corrupt;
		limit = end ? UINT64_MAX : p->round_limit;
		p->round_limit = p->seen_max;
		if (p->norder > 1)
			qsort(p->order, p->norder, sizeof(*p->order), ref_cmp);
		while (p->nemit < p->norder && p->order[p->nemit].time <= limit)
			p->nemit++;
	} while (!p->nemit && !end);
	return 0;
}

const struct perf_event_header *pmu__profile_next_record(struct pmu_profile *p)
{
	if (p->cur >= p->nemit) {
		if ((p->scan >= p->f.end || p->f.corrupt) &&
		    p->cur >= p->norder)
			return NULL;
		if (load_round(p) || p->cur >= p->nemit)
			return NULL;
	}
	p->f.pos = p->order[p->cur++].off;
	return pmu__pd_next(&p->f);
}
