/* SPDX-License-Identifier: MIT */
/*
 * pmu record --emulate: the command runs under pmu's emulator, its
 * events sample on i-mode counters of the emulated model (the emu
 * driver), and what the emulator sends (processes, the files they map
 * executable, samples) becomes perf.data records as the kernel would
 * have written them.
 *
 * Time: a record's time is its process's instruction count (one
 * nanosecond per instruction), so that two runs write the same file.
 * A forked child's count continues its parent's; an execve starts the
 * image's count again from 0, so a process's later images are put
 * after its earlier ones (a base per process).
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/pmu.h>

#include "proto/emu.h"
#include "profile/record.h"
#include "session/session.h"
#include "util/error.h"
#include "util/opts.h"

#define DEFAULT_EVENT  "instructions"
/* A prime: no loop of the program runs in step with it. */
#define DEFAULT_PERIOD 100003u

/* perf's x86-64 register numbers: ax bx cx dx si di bp sp ip (0-8),
 * r8-r15 (16-23); the emulator has every one but flags and segments. */
#define EMU_REGS_MASK  0xff01ffULL
#define EMU_NREGS      17

struct emu_proc {
	int32_t pid;
	uint64_t base, last;     /* time of icount 0; latest time written */
};

struct record_emu {
	struct pmu_session *s;
	char **cmd;
	uint64_t period;
	struct emu_proc *proc;
	size_t nproc, cap;
	size_t cur;              /* the process looked up last */
	unsigned char *buf;      /* records taken from the driver */
};

#define BUF_SIZE (1u << 20)

static int refuse(struct pmu_error *err, const char *what)
{
	return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1, "%s", what);
}

static int check_opts(const struct pmu_record_opts *o, struct pmu_error *err)
{
	if (PMU__OPTS_GET(o, freq, 0) && !PMU__OPTS_GET(o, period, 0))
		return refuse(err, "an emulated PMU samples every N events "
			      "(-c N), not N times a second: the emulator has "
			      "no clock that samples could follow");
	if (PMU__OPTS_GET(o, callgraph, PMU_CALLGRAPH_MODE_NONE))
		return refuse(err, "the emulator records no call chains: "
			      "samples carry the exact instruction, its "
			      "registers and data address");
	if (PMU__OPTS_GET(o, target, PMU_TARGET_CHILD) != PMU_TARGET_CHILD)
		return refuse(err, "the emulator records the command it runs, "
			      "not processes, threads or CPUs");
	if (!PMU__OPTS_GET(o, command, NULL) || !o->command[0])
		return refuse(err, "recording under the emulator needs a "
			      "command");
	if (PMU__OPTS_GET(o, no_inherit, false))
		return refuse(err, "the emulator follows every process of the "
			      "command: it has no --no-inherit");
	return 0;
}

static int make_session(struct record_emu *e, const struct pmu_record_opts *o,
			struct pmu_error *err)
{
	struct pmu_session_opts so = {
		.sz = sizeof(so), .driver = "emu",
		.model = PMU__OPTS_GET(o, emu_model, NULL),
		.emu = PMU__OPTS_GET(o, emu, NULL) };
	const char *ev = PMU__OPTS_GET(o, events, NULL);
	int ret;

	e->period = PMU__OPTS_GET(o, period, 0);
	if (!e->period)
		e->period = DEFAULT_PERIOD;
	if (!(e->s = pmu_session_new_opts(&so, err)))
		return -errno;
	if ((ret = pmu_session_add(e->s, ev ? ev : DEFAULT_EVENT, err)))
		return ret;
	for (size_t i = 0; i < e->s->n; i++)
		e->s->ev[i].attr.sample_period = e->period;
	if ((ret = pmu__session_stream_keep(e->s)))
		return pmu__error(err, ret, PMU_ERR_USAGE, NULL, -1,
				  "the session is not on the emu driver");
	return pmu_session_command(e->s, o->command, &e->cmd, err);
}

/* Every event must sample: one that cannot is an error, not a hole. */
static int open_session(struct record_emu *e, struct pmu_error *err)
{
	struct pmu_open_opts oo = { .sz = sizeof(oo),
				    .target = PMU_TARGET_CHILD };
	int ret = pmu_session_open(e->s, &oo, err);

	for (size_t i = 0; !ret && i < e->s->n; i++) {
		int ev_err = 0;

		if (pmu_session_event_status(e->s, i, &ev_err) !=
		    PMU_EVENT_NOT_SUPPORTED &&
		    pmu__session_stream_counter(e->s, i) >= 0)
			continue;
		ret = pmu__error(err, ev_err ? ev_err : -EOPNOTSUPP,
				 PMU_ERR_NOT_SUPPORTED, e->s->ev[i].name, -1,
				 "cannot sample '%s': %s", e->s->ev[i].name,
				 pmu_session_event_reason(e->s, i) ?: "no "
				 "counter of the emulated model samples it");
	}
	return ret;
}

static void describe(struct pmu_record *r, size_t i, uint64_t period)
{
	struct perf_event_attr *a = &r->attr[i];

	*a = r->emu->s->ev[i].attr;
	a->size = sizeof(*a);
	a->freq = 0;
	a->sample_period = period;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_ADDR | PERF_SAMPLE_PERIOD |
			 PERF_SAMPLE_REGS_INTR;
	if (r->emu->s->n > 1)
		a->sample_type |= PERF_SAMPLE_IDENTIFIER;
	a->sample_regs_intr = EMU_REGS_MASK;
	a->precise_ip = 3;       /* no skid: the instruction itself */
	a->sample_id_all = 1;
	a->read_format = PERF_FORMAT_ID;
	a->inherit = 1;
	a->disabled = 1;
	a->enable_on_exec = 1;
	a->mmap = a->comm = a->task = a->mmap2 = a->comm_exec = i == 0;
}

/* Names say what sampled: "emu-fam10h/instructions/". */
static int create_file(struct pmu_record *r, struct pmu_error *err)
{
	struct record_emu *e = r->emu;
	const char *model = pmu_session_model(e->s);
	size_t n = e->s->n;
	int ret;

	r->attr = calloc(n, sizeof(*r->attr));
	r->names = calloc(n, sizeof(*r->names));
	if (!r->attr || !r->names)
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	for (size_t i = 0; i < n; i++) {
		describe(r, i, e->period);
		if (asprintf(&r->names[i], "emu-%s/%s/", model,
			     e->s->ev[i].name) < 0) {
			r->names[i] = NULL;
			return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL,
					  -1, "out of memory");
		}
	}
	ret = pmu__pd_write_open(&r->w, r->path, n, r->attr, r->names, err);
	for (size_t i = 0; !ret && i < n; i++) {
		uint64_t id = i + 1;     /* ids of the file's own */

		ret = pmu__pd_write_ids(&r->w, i, &id, 1);
	}
	r->id0 = 1;
	return ret;
}

int pmu__record_emu_open(struct pmu_record *r,
			 const struct pmu_record_opts *o,
			 struct pmu_error *err)
{
	int ret = check_opts(o, err);

	if (ret)
		return ret;
	r->emu = calloc(1, sizeof(*r->emu));
	if (!r->emu || !(r->emu->buf = malloc(BUF_SIZE)))
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	ret = make_session(r->emu, o, err);
	if (!ret)
		ret = open_session(r->emu, err);
	if (!ret)
		ret = create_file(r, err);
	return ret;
}

/* ---- records ---- */

static struct emu_proc *proc_of(struct record_emu *e, int32_t pid, bool add)
{
	if (e->cur < e->nproc && e->proc[e->cur].pid == pid)
		return &e->proc[e->cur];
	for (size_t i = 0; i < e->nproc; i++)
		if (e->proc[i].pid == pid)
			return &e->proc[e->cur = i];
	if (!add)
		return NULL;
	if (e->nproc == e->cap) {
		size_t cap = e->cap ? 2 * e->cap : 16;
		void *p = realloc(e->proc, cap * sizeof(*e->proc));

		if (!p)
			return NULL;
		e->proc = p;
		e->cap = cap;
	}
	e->proc[e->nproc] = (struct emu_proc){ .pid = pid };
	return &e->proc[e->cur = e->nproc++];
}

/* The record's time, and its process's latest. */
static uint64_t stamp(struct emu_proc *p, uint64_t icount)
{
	uint64_t t = p ? p->base + icount : icount;

	if (p && t > p->last)
		p->last = t;
	return t;
}

static int on_task(struct pmu_record *r, const struct pmu_emu_rec_task *t)
{
	struct record_emu *e = r->emu;
	bool exec = proc_of(e, t->h.pid, false) != NULL;
	struct emu_proc *parent = t->why == PMU_EMU_TASK_FORK
				  ? proc_of(e, t->ppid, false) : NULL;
	uint64_t pbase = parent ? parent->base : 0;
	struct emu_proc *p = proc_of(e, t->h.pid, true);

	if (!p)
		return -ENOMEM;
	if (t->why == PMU_EMU_TASK_FORK) {
		p->base = pbase;
		r->synth_time = stamp(p, t->icount);
		return pmu__record_fork(r, (uint32_t)t->h.pid,
					(uint32_t)t->ppid, (uint32_t)t->h.tid,
					(uint32_t)t->ppid);
	}
	/* a new image comes after everything its process did before */
	p->base = exec ? p->last + 1 : 0;
	r->synth_time = stamp(p, t->icount);
	return pmu__record_comm(r, (uint32_t)t->h.pid, (uint32_t)t->h.tid,
				t->comm, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);
}

static int on_mmap(struct pmu_record *r, const struct pmu_emu_rec_mmap *m)
{
	struct emu_proc *p = proc_of(r->emu, m->h.pid, true);

	r->synth_time = stamp(p, m->icount);
	return pmu__record_mmap2(r, (uint32_t)m->h.pid, (uint32_t)m->h.tid,
				 m->addr, m->len, m->pgoff, m->name,
				 PERF_RECORD_MISC_USER);
}

static void note_sample_time(struct pmu_record *r, uint64_t t)
{
	if (!r->have_time || t < r->first_time)
		r->first_time = t;
	if (!r->have_time || t > r->last_time)
		r->last_time = t;
	r->have_time = true;
}

/* One SAMPLE record of event i: IDENTIFIER (several events), IP, TID,
 * TIME, ADDR, PERIOD, REGS_INTR, as describe() says. */
static int put_sample(struct pmu_record *r, size_t i, uint64_t t,
		      const struct pmu_emu_rec_sample *s)
{
	uint64_t rec[1 + 7 + 1 + EMU_NREGS], *v = rec + 1;
	struct perf_event_header h = {
		.type = PERF_RECORD_SAMPLE,
		.misc = PERF_RECORD_MISC_USER | PERF_RECORD_MISC_EXACT_IP };

	if (r->emu->s->n > 1)
		*v++ = i + 1;
	*v++ = s->ip;
	*v++ = (uint64_t)(uint32_t)s->h.tid << 32 | (uint32_t)s->h.pid;
	*v++ = t;
	*v++ = s->data_addr;
	*v++ = r->emu->period;
	*v++ = PERF_SAMPLE_REGS_ABI_64;
	memcpy(v, s->gpr, 8 * 8);               /* ax .. sp */
	v[8] = s->ip;
	memcpy(v + 9, s->gpr + 8, 8 * 8);       /* r8 .. r15 */
	v += EMU_NREGS;
	h.size = (uint16_t)((char *)v - (char *)rec);
	memcpy(rec, &h, sizeof(h));
	r->stats.samples++;
	note_sample_time(r, t);
	return pmu__pd_write_data(&r->w, rec, h.size);
}

/* A sample per event whose counter overflowed at the instruction. */
static int on_sample(struct pmu_record *r, const struct pmu_emu_rec_sample *s)
{
	struct record_emu *e = r->emu;
	uint64_t t = stamp(proc_of(e, s->h.pid, true), s->icount);
	int ret = 0;

	for (size_t i = 0; !ret && i < e->s->n; i++) {
		int k = pmu__session_stream_counter(e->s, i);

		if (k >= 0 && (s->mask >> k & 1))
			ret = put_sample(r, i, t, s);
	}
	return ret;
}

static int one(struct pmu_record *r, const struct pmu_emu_rec_hdr *h)
{
	switch (h->type) {
	case PMU_EMU_REC_TASK:
		return on_task(r, (const void *)h);
	case PMU_EMU_REC_MMAP:
		return on_mmap(r, (const void *)h);
	case PMU_EMU_REC_SAMPLE:
		return on_sample(r, (const void *)h);
	default:
		return 0;
	}
}

int pmu__record_emu_drain(struct pmu_record *r)
{
	struct record_emu *e = r->emu;
	long n;
	int ret = 0;

	while (!ret &&
	       (n = pmu__session_stream_take(e->s, e->buf, BUF_SIZE)) > 0) {
		r->stats.wakeups++;
		for (long at = 0; !ret && at < n;) {
			struct pmu_emu_rec_hdr h;

			memcpy(&h, e->buf + at, sizeof(h));
			ret = one(r, (const void *)(e->buf + at));
			at += h.size;
		}
	}
	return ret;
}

int pmu__record_emu_stop(struct pmu_record *r)
{
	int ret;

	pmu_session_stop(r->emu->s);
	ret = pmu__record_emu_drain(r);
	r->stats.lost = pmu__session_stream_lost(r->emu->s);
	return ret;
}

void pmu__record_emu_free(struct pmu_record *r)
{
	if (!r->emu)
		return;
	for (size_t i = 0; r->names && r->emu->s && i < r->emu->s->n; i++)
		free(r->names[i]);
	pmu_session_free(r->emu->s);
	free(r->emu->cmd);
	free(r->emu->proc);
	free(r->emu->buf);
	free(r->emu);
	r->emu = NULL;
}

char *const *pmu_record_command(const struct pmu_record *r)
{
	return r && r->emu ? r->emu->cmd : NULL;
}
