/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

#include <pmu/host.h>

#include "profile/record.h"
#include "profile/regs.h"
#include "util/error.h"
#include "util/opts.h"
#include "util/outstruct.h"

static const char *default_events(void)
{
	struct pmu_host_info h = { .size = sizeof(h) };

	/* perf's rule: cycles where a PMU counts them, else cpu-clock */
	if (!pmu_host_info(&h) && h.has_hw_pmu)
		return "cycles";
	return "cpu-clock";
}

/* kernel.perf_event_max_sample_rate (the kernel lowers it when sampling
 * interrupts take too long); 0 when unknown. */
static uint64_t max_sample_rate(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "re");
	unsigned long long v = 0;

	if (f) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

/* The frequency to sample at: perf's default 4000 Hz, "max" the
 * kernel's limit, more than the limit lowered to it with a warning (or
 * refused with strict_freq), as perf does. */
static int sample_freq(const struct pmu_record_opts *o, uint64_t *out,
		       struct pmu_error *err)
{
	uint64_t freq = PMU__OPTS_GET(o, freq, 0), max = max_sample_rate();

	*out = freq ? freq : 4000;
	if (PMU__OPTS_GET(o, period, 0) || !max)
		return 0;
	if (freq == PMU_RECORD_FREQ_MAX) {
		*out = max;
		return 0;
	}
	if (*out <= max)
		return 0;
	if (PMU__OPTS_GET(o, strict_freq, false))
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, "freq", -1,
				  "%llu Hz is above kernel.perf_event_max_"
				  "sample_rate (%llu Hz)",
				  (unsigned long long)*out,
				  (unsigned long long)max);
	pmu__warn("%llu Hz is above kernel.perf_event_max_sample_rate: "
		  "sampling at %llu Hz (the limit can be raised there; the "
		  "kernel lowers it when sampling takes too long)",
		  (unsigned long long)*out, (unsigned long long)max);
	*out = max;
	return 0;
}

static void set_sampling(struct pmu_record *r, const struct pmu_record_opts *o,
			 struct perf_event_attr *a, bool first, uint64_t freq)
{
	uint64_t period = PMU__OPTS_GET(o, period, 0);
	enum pmu_callgraph_mode cg = PMU__OPTS_GET(o, callgraph,
						   PMU_CALLGRAPH_MODE_NONE);
	uint32_t stack = PMU__OPTS_GET(o, stack_size, 0);

	if (period) {
		a->freq = 0;
		a->sample_period = period;
	} else {
		a->freq = 1;
		a->sample_freq = freq;
	}
	a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			  PERF_SAMPLE_PERIOD;
	/* a tracepoint's record, which the file's TRACING_DATA decodes */
	if (a->type == PERF_TYPE_TRACEPOINT)
		a->sample_type |= PERF_SAMPLE_RAW;
	if (r->cpu_field)
		a->sample_type |= PERF_SAMPLE_CPU;
	if (r->evl.n > 1)
		a->sample_type |= PERF_SAMPLE_IDENTIFIER;
	if (cg == PMU_CALLGRAPH_MODE_FP) {
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		/* arm64: the kernel's chain misses a leaf function's caller,
		 * which is still in the link register; perf records it */
		if ((a->sample_regs_user = pmu__regs_fp_mask(pmu__regs_arch(NULL))))
			a->sample_type |= PERF_SAMPLE_REGS_USER;
	}
	if (cg == PMU_CALLGRAPH_MODE_DWARF) {
		/* the kernel's part by the kernel, the user part later */
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
				  PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = pmu__regs_dwarf_mask(pmu__regs_arch(NULL));
		a->sample_stack_user = stack ? (stack + 7) & ~7u : 8192;
		a->exclude_callchain_user = 1;
	}
	a->sample_id_all = 1;
	a->read_format = PERF_FORMAT_ID;
	/* times of CLOCK_MONOTONIC, which the file's clock data ties to
	 * the wall clock (perf record -k mono does the same) */
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	/* one event tells about the machine: comm, maps, forks; for DWARF
	 * unwinding (by perf too) the data maps as well: a library's
	 * read-only segment holds its .eh_frame_hdr */
	a->mmap = a->comm = a->task = a->mmap2 = a->comm_exec = first;
	a->mmap_data = first && cg == PMU_CALLGRAPH_MODE_DWARF;
}

static int parse_events(struct pmu_record *r, const struct pmu_record_opts *o,
			struct pmu_error *err)
{
	const char *ev = PMU__OPTS_GET(o, events, NULL);
	struct pmu__parse_ctx ctx = { 0 };
	uint64_t freq;
	int ret = sample_freq(o, &freq, err);

	if (!ret)
		ret = pmu__evlist_parse(&r->evl, ev ? ev : default_events(),
					&ctx, err);
	if (ret)
		return ret;
	/* perf's tracepoint samples carry their CPU; every event's sample
	 * id must have the same fields, so all do then */
	for (size_t i = 0; i < r->evl.n; i++)
		if (r->evl.ev[i].attr.type == PERF_TYPE_TRACEPOINT)
			r->cpu_field = true;
	if (PMU__OPTS_GET(o, callgraph, PMU_CALLGRAPH_MODE_NONE) ==
	    PMU_CALLGRAPH_MODE_DWARF &&
	    !pmu__regs_dwarf_mask(pmu__regs_arch(NULL)))
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED,
				  "dwarf", -1, "--call-graph dwarf: the "
				  "unwinder knows the registers of x86-64 and "
				  "arm64, not of this machine; use "
				  "--call-graph fp");
	for (size_t i = 0; i < r->evl.n; i++) {
		/* every event samples on its own: groups would read only
		 * their leader's period */
		r->evl.ev[i].group = (int)i;
		r->evl.ev[i].leader = true;
		r->evl.ev[i].flags &= ~PMU__EV_SAMPLE_READ;
		set_sampling(r, o, &r->evl.ev[i].attr, i == 0, freq);
		pmu__ev_sampling(&r->evl.ev[i], &r->evl.ev[i].attr);
	}
	return 0;
}

static int check_events(struct pmu_record *r, struct pmu_error *err)
{
	for (size_t i = 0; i < r->nev; i++) {
		const char *name = pmu_session_event_name(r->s, i);
		int e;

		if (pmu_session_event_status(r->s, i, &e) !=
		    PMU_EVENT_NOT_SUPPORTED)
			continue;
		return pmu__error(err, e, PMU_ERR_NOT_SUPPORTED, name, -1,
				  "cannot sample '%s': %s", name,
				  pmu_session_event_reason(r->s, i));
	}
	return 0;
}

static int open_events(struct pmu_record *r, const struct pmu_record_opts *o,
		       struct pmu_error *err)
{
	enum pmu_target_kind k = PMU__OPTS_GET(o, target, PMU_TARGET_CHILD);
	struct pmu__target t = {
		.kind = (enum pmu__target_kind)k,
		.pids = PMU__OPTS_GET(o, pids, NULL),
		.npids = PMU__OPTS_GET(o, npids, 0),
		.cpus = PMU__OPTS_GET(o, cpus, NULL),
		.inherit = !PMU__OPTS_GET(o, no_inherit, false),
		.no_mmap_read = true,
		.per_cpu = true,
	};
	size_t pages = PMU__OPTS_GET(o, mmap_pages, 0);
	int ret;

	if (k == PMU_TARGET_SELF)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "recording needs a command, processes, "
				  "threads or CPUs");
	r->s = pmu_session_new(err);
	if (!r->s)
		return -errno;
	r->nev = r->evl.n;
	r->evl.ngroups = (int)r->evl.n;
	if (pmu__session_adopt(r->s, &r->evl))
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	/* events counted in user space only (perf's paranoid fallback)
	 * come back named and set as such, and the file says so */
	ret = pmu__session_open_on(r->s, &t, err);
	if (!ret)
		ret = check_events(r, err);
	if (!ret)
		ret = pmu__session_rec_map(r->s, pages ? pages : 128, err);
	return ret;
}

/* The samples' clock and the wall clock, read at one moment. */
static void clock_data(struct pmu_record *r)
{
	struct timespec w, m;

	if (!r->nev || !r->attr[0].use_clockid ||
	    clock_gettime(CLOCK_REALTIME, &w) ||
	    clock_gettime((clockid_t)r->attr[0].clockid, &m))
		return;
	r->w.has_clock = true;
	r->w.clockid = (uint32_t)r->attr[0].clockid;
	r->w.wall_ns = (uint64_t)w.tv_sec * 1000000000u + (uint64_t)w.tv_nsec;
	r->w.clock_ns = (uint64_t)m.tv_sec * 1000000000u + (uint64_t)m.tv_nsec;
}

static int create_file(struct pmu_record *r, struct pmu_error *err)
{
	int ret;

	r->attr = calloc(r->nev, sizeof(*r->attr));
	r->names = calloc(r->nev, sizeof(*r->names));
	if (!r->attr || !r->names)
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	for (size_t i = 0; i < r->nev; i++) {
		r->attr[i] = r->s->ev[i].attr;
		/* as the driver opened it */
		r->attr[i].inherit = 1;
		r->attr[i].disabled = 1;
		r->attr[i].enable_on_exec = 1;
		r->names[i] = r->s->ev[i].name;
	}
	ret = pmu__pd_write_open(&r->w, r->path, r->nev, r->attr, r->names, err);
	for (size_t i = 0; !ret && i < r->nev; i++) {
		uint64_t ids[1024];
		size_t n = 0;

		pmu__session_rec_ids(r->s, i, ids, 1024, &n);
		if (n > 1024)
			n = 1024;
		if (i == 0 && n)
			r->id0 = ids[0];
		ret = pmu__pd_write_ids(&r->w, i, ids, n);
	}
	if (!ret)
		clock_data(r);
	if (!ret)
		ret = pmu__record_tracing(r);
	return ret;
}

static int save_argv(struct pmu_record *r, const struct pmu_record_opts *o)
{
	int argc = PMU__OPTS_GET(o, argc, 0);
	char *const *argv = PMU__OPTS_GET(o, argv, NULL);

	if (!argv || argc <= 0)
		return 0;
	r->argv = calloc((size_t)argc + 1, sizeof(*r->argv));
	if (!r->argv)
		return -ENOMEM;
	for (int i = 0; i < argc; i++)
		r->argv[i] = strdup(argv[i] ? argv[i] : "");
	r->argc = argc;
	return 0;
}

static int start(struct pmu_record *r, const struct pmu_record_opts *o)
{
	enum pmu_target_kind k = PMU__OPTS_GET(o, target, PMU_TARGET_CHILD);
	int ret = pmu__record_synth_kernel(r);

	if (!ret && (k == PMU_TARGET_PID || k == PMU_TARGET_TID))
		ret = pmu__record_synth_procs(r, PMU__OPTS_GET(o, pids, NULL),
					      PMU__OPTS_GET(o, npids, 0),
					      k == PMU_TARGET_TID);
	if (!ret && k == PMU_TARGET_CPUS)
		ret = pmu__record_synth_procs(r, NULL, 0, false);
	/* a child starts at its exec (enable_on_exec); others now */
	if (!ret && k != PMU_TARGET_CHILD)
		ret = pmu_session_start(r->s);
	return ret;
}

static int open_perf(struct pmu_record *r, const struct pmu_record_opts *opts,
		     struct pmu_error *err);

struct pmu_record *pmu_record_open(const char *path,
				   const struct pmu_record_opts *opts,
				   struct pmu_error *err)
{
	struct pmu_record *r;
	int ret;

	if ((ret = PMU__OPTS_CHECK(opts, pmu_record_opts, err))) {
		errno = -ret;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r || !(r->path = strdup(path ? path : "perf.data"))) {
		free(r);
		pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	r->cpu_field = PMU__OPTS_GET(opts, target, PMU_TARGET_CHILD) ==
		       PMU_TARGET_CPUS;
	if (PMU__OPTS_GET(opts, emulate, false))
		ret = pmu__record_emu_open(r, opts, err);
	else
		ret = open_perf(r, opts, err);
	if (!ret && save_argv(r, opts))
		ret = pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				 "out of memory");
	if (ret) {
		pmu_record_free(r);
		errno = -ret;
		return NULL;
	}
	return r;
}

static int open_perf(struct pmu_record *r, const struct pmu_record_opts *opts,
		     struct pmu_error *err)
{
	int ret = parse_events(r, opts, err);

	if (!ret)
		ret = open_events(r, opts, err);
	if (!ret)
		ret = create_file(r, err);
	if (!ret && (ret = start(r, opts)))
		pmu__error(err, ret, PMU_ERR_SYSTEM, r->path, -1,
			   "cannot start recording into %s: %s", r->path,
			   strerror(-ret));
	return ret;
}

static void note_time(struct pmu_record *r, const struct perf_event_header *h)
{
	uint64_t t;

	/* IP, TID, TIME lead every sample (no IDENTIFIER: one event) */
	size_t at = 8 + (r->nev > 1 ? 8 : 0) + 16;

	if (at + 8 > h->size)
		return;
	memcpy(&t, (const char *)h + at, 8);
	if (!r->have_time)
		r->first_time = t;
	r->last_time = t;
	r->have_time = true;
}

/* One record from a ring, into the file. */
static int keep_record(void *arg, const struct perf_event_header *h)
{
	struct pmu_record *r = arg;

	if (h->type == PERF_RECORD_SAMPLE) {
		r->stats.samples++;
		note_time(r, h);
	} else {
		pmu__record_note(r, h);
	}
	return pmu__pd_write_data(&r->w, h, h->size);
}

static int drain(struct pmu_record *r)
{
	static const struct perf_event_header round = {
		.type = PD_REC_FINISHED_ROUND, .size = 8 };
	bool any = false;
	int ret = pmu__session_rec_drain(r->s, keep_record, r, &any);

	/* no record of a later round is older than this one's: perf
	 * sorts within rounds */
	if (!ret && any) {
		r->stats.wakeups++;
		ret = pmu__pd_write_data(&r->w, &round, sizeof(round));
	}
	return ret;
}

int pmu_record_poll(struct pmu_record *r, int timeout_ms)
{
	int ret, d;

	if (!r || !r->w.f)
		return -EINVAL;
	if (r->emu) {
		/* the emulator's records wait in the driver meanwhile */
		if (timeout_ms && poll(NULL, 0, timeout_ms) < 0)
			return -EINTR;
		return pmu__record_emu_drain(r);
	}
	ret = pmu__session_rec_wait(r->s, timeout_ms);
	if (ret && ret != -EINTR)
		return ret;
	d = drain(r);
	return d ? d : ret;
}

static void lost_total(struct pmu_record *r)
{
	r->stats.lost = pmu__session_rec_lost(r->s);
}

/* The file's count of lost samples, as perf ends its files: a
 * LOST_SAMPLES record, which perf report's "Total Lost Samples" (and
 * pmu report's) sums, beside the rings' LOST records. */
static int lost_samples(struct pmu_record *r)
{
	unsigned char rec[128] = { 0 };
	struct perf_event_header *h = (struct perf_event_header *)rec;
	uint64_t n;
	size_t at = 16;

	lost_total(r);
	n = r->stats.lost - r->lost_base;
	r->lost_base = r->stats.lost;
	if (!n)
		return 0;
	h->type = PERF_RECORD_LOST_SAMPLES;
	memcpy(rec + 8, &n, 8);
	at += pmu__record_trailer(r, 0, 0, rec + at);
	h->size = (uint16_t)at;
	return pmu__pd_write_data(&r->w, rec, at);
}

int pmu_record_finish(struct pmu_record *r, struct pmu_record_stats *st,
		      struct pmu_error *err)
{
	struct stat sb;
	int ret;

	if (!r || !r->w.f)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "no recording under way");
	if (r->emu) {
		ret = pmu__record_emu_stop(r);
	} else {
		pmu_session_stop(r->s);
		ret = drain(r);
	}
	if (ret)
		return pmu__error(err, ret, PMU_ERR_SYSTEM, r->path, -1,
				  "cannot write %s: %s", r->path,
				  strerror(-ret));
	if (!r->emu)
		ret = lost_samples(r);
	if (!ret)
		ret = pmu__record_features(r);
	if (!ret)
		ret = pmu__pd_write_finish(&r->w, err);
	else
		pmu__error(err, ret, PMU_ERR_SYSTEM, NULL, -1, "out of memory");
	if (ret)
		return ret;
	r->stats.bytes = stat(r->path, &sb) ? 0 : (uint64_t)sb.st_size;
	r->stats.size = sizeof(r->stats);
	if (st && pmu__out_ok(st, st->size))
		PMU__OUT(st, &r->stats);
	return 0;
}

static int restart_file(struct pmu_record *r, struct pmu_error *err)
{
	int ret = pmu__pd_write_open(&r->w, r->path, r->nev, r->attr, r->names,
				     err);

	for (size_t i = 0; !ret && i < r->nev; i++) {
		uint64_t ids[1024];
		size_t n = 0;

		pmu__session_rec_ids(r->s, i, ids, 1024, &n);
		ret = pmu__pd_write_ids(&r->w, i, ids, n > 1024 ? 1024 : n);
	}
	if (!ret)
		clock_data(r);
	if (!ret)
		ret = pmu__record_tracing(r);
	/* what the machine looks like so far: the new file must resolve
	 * samples on its own */
	if (!ret && r->nkeep)
		ret = pmu__pd_write_data(&r->w, r->keep, r->nkeep);
	r->have_time = false;
	return ret;
}

int pmu_record_switch(struct pmu_record *r, const char *done_path,
		      struct pmu_error *err)
{
	bool done = r && !r->w.f && r->w.tmp;   /* a name taken: again */
	int ret = 0;

	if (!r || (!r->w.f && !done) || !done_path)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "no recording under way");
	if (r->emu)
		return pmu__error(err, -EOPNOTSUPP, PMU_ERR_NOT_SUPPORTED,
				  NULL, -1, "a recording under the emulator "
				  "is one file");
	if (!done)
		ret = drain(r);
	if (!ret && !done)
		ret = lost_samples(r);
	if (!ret && !done)
		ret = pmu__record_features(r);
	/* never over another file: -EEXIST, and the caller names another */
	if (!ret)
		ret = pmu__pd_write_finish_to(&r->w, done_path, err);
	if (ret == -EEXIST)
		return ret;
	pmu__pd_write_close(&r->w);
	return ret ? ret : restart_file(r, err);
}

void pmu_record_free(struct pmu_record *r)
{
	if (!r)
		return;
	pmu__pd_write_close(&r->w);
	pmu__record_emu_free(r);
	/* the names of the file's events are the session's */
	pmu_session_free(r->s);
	pmu__evlist_clear(&r->evl);
	for (int i = 0; i < r->argc; i++)
		free(r->argv[i]);
	for (size_t i = 0; i < r->nfiles; i++)
		free(r->files[i]);
	free(r->files);
	free(r->argv);
	free(r->keep);
	free(r->attr);
	free(r->names);
	free(r->path);
	free(r);
}
