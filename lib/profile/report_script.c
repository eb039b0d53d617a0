/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "profile/report.h"
#include "util/error.h"

enum { F_COMM, F_PID, F_TID, F_CPU, F_TIME, F_PERIOD, F_EVENT, F_IP, F_SYM,
       F_SYMOFF, F_DSO, F_SRCLINE, F_TRACE, F_MAX };

static const char *const field_names[F_MAX] = {
	"comm", "pid", "tid", "cpu", "time", "period", "event", "ip", "sym",
	"symoff", "dso", "srcline", "trace",
};

static int parse_fields(const char *list, bool *on, struct pmu_error *err)
{
	const char *p = list;

	memset(on, 0, F_MAX * sizeof(*on));
	while (*p) {
		size_t n = strcspn(p, ","), k;

		for (k = 0; k < F_MAX; k++)
			if (strlen(field_names[k]) == n &&
			    !strncmp(field_names[k], p, n))
				break;
		if (k == F_MAX) {
			char tok[64];

			snprintf(tok, sizeof(tok), "%.*s", (int)n, p);
			return pmu__error(err, -EINVAL, PMU_ERR_USAGE, tok,
					  (int)(p - list), "-F: '%s' is not a "
					  "field (comm, pid, tid, cpu, time, "
					  "period, event, ip, sym, symoff, dso, "
					  "srcline, trace)", tok);
		}
		on[k] = true;
		p += n + (p[n] == ',');
	}
	return 0;
}

/* One output line built by hand: printf's parsing of a format per
 * field was most of the time perf script users wait for. */
struct line {
	char b[8192];
	size_t n;
};

static void l_str(struct line *l, const char *s)
{
	size_t k = strlen(s);

	if (k > sizeof(l->b) - l->n - 64)
		k = sizeof(l->b) - l->n - 64;
	memcpy(l->b + l->n, s, k);
	l->n += k;
}

static void l_ch(struct line *l, char c)
{
	l->b[l->n++] = c;
}

/* Right-aligned in `width`, like %*llu / %*llx. */
static void l_num(struct line *l, uint64_t v, unsigned base, int width,
		  bool zero)
{
	char t[24];
	int k = 0;

	do {
		t[k++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	for (int i = k; i < width; i++)
		l_ch(l, zero ? '0' : ' ');
	while (k)
		l_ch(l, t[--k]);
}

/* A pid or tid, -1 as perf prints it (a task gone when sampled). */
static void l_id(struct line *l, uint32_t v, int width)
{
	char t[16];

	snprintf(t, sizeof(t), "%*" PRId32, width, (int32_t)v);
	l_str(l, t);
}

static void l_pad(struct line *l, const char *s, int width)
{
	for (int i = (int)strlen(s); i < width; i++)
		l_ch(l, ' ');
	l_str(l, s);
}

static void l_flush(struct line *l, FILE *out)
{
	fwrite_unlocked(l->b, 1, l->n, out);
	l->n = 0;
}

static void print_frame(struct line *l, const bool *on,
			const struct pmu_frame *f, bool chain)
{
	if (chain)
		l_ch(l, '\t');
	if (on[F_IP]) {
		l_num(l, f->kind == PMU_FRAME_KERNEL ? f->ip : f->addr, 16, 16,
		      false);
		l_ch(l, ' ');
	}
	if (on[F_SYM]) {
		l_str(l, f->sym ? f->sym : "[unknown]");
		if (f->sym && on[F_SYMOFF] && f->kind != PMU_FRAME_INLINED) {
			l_str(l, "+0x");
			l_num(l, f->sym_off, 16, 0, false);
		}
		if (f->kind == PMU_FRAME_INLINED)
			l_str(l, " (inlined)");
	}
	if (on[F_DSO]) {
		l_str(l, " (");
		l_str(l, f->dso);
		l_ch(l, ')');
	}
	if (on[F_SRCLINE] && f->srcfile) {
		l_str(l, chain ? "\n\t  " : "\n  ");
		l_str(l, f->srcfile);
		l_ch(l, ':');
		l_num(l, f->line, 10, 0, false);
	}
	l_ch(l, '\n');
}

static void print_head(struct line *l, const bool *on, struct pmu_profile *p,
		       const struct pmu_sample *s, bool chain, size_t ev_w)
{
	if (on[F_COMM]) {
		if (chain)
			l_str(l, s->comm);
		else
			l_pad(l, s->comm, 16);
		l_ch(l, ' ');
	}
	if (on[F_PID] && on[F_TID]) {
		l_id(l, s->pid, 5);
		l_ch(l, '/');
		size_t at = l->n;

		l_id(l, s->tid, 0);
		for (size_t k = l->n - at; k < 5; k++)
			l_ch(l, ' ');
		l_ch(l, ' ');
	} else if (on[F_PID] || on[F_TID]) {
		l_id(l, on[F_PID] ? s->pid : s->tid, 5);
		l_ch(l, ' ');
	}
	if (on[F_CPU] && s->cpu != (uint32_t)-1) {
		l_ch(l, '[');
		l_num(l, s->cpu, 10, 3, true);
		l_str(l, "] ");
	}
	if (on[F_TIME]) {
		l_num(l, s->time / 1000000000, 10, 5, false);
		l_ch(l, '.');
		l_num(l, s->time % 1000000000 / 1000, 10, 6, true);
		l_str(l, ": ");
	}
	if (on[F_PERIOD]) {
		l_num(l, s->period, 10, 10, false);
		l_ch(l, ' ');
	}
	if (on[F_EVENT]) {
		const char *name = pmu_profile_event_name(p, s->event);

		for (size_t len = name ? strlen(name) : 0; len < ev_w; len++)
			l_ch(l, ' ');
		l_str(l, name ? name : "");
		l_str(l, ": ");
	}
}

/* A tracepoint's record as text (its format from the file's
 * TRACING_DATA), after the line so far; nothing for other samples. */
static void print_trace(struct line *l, FILE *out, struct pmu_profile *p,
			const struct pmu_sample *s)
{
	const struct perf_event_attr *a = s->event < p->f.nattr ?
					  &p->f.attr[s->event].attr : NULL;
	const struct pd_tp *tp;
	const struct pd_tp_syms ks = { pmu__profile_ksym, p, &p->f.trace };

	if (!a || a->type != PERF_TYPE_TRACEPOINT || !p->raw ||
	    !(tp = pmu__pd_trace_find(&p->f.trace, a->config)))
		return;
	l_flush(l, out);
	pmu__pd_trace_print(out, tp, p->raw, p->raw_size, &ks);
}

int pmu__report_script(struct pmu_profile *p, const struct pmu_report_opts *o,
		  FILE *out, struct pmu_error *err)
{
	struct pmu_sample s = { .size = sizeof(s) };
	struct line *l = malloc(sizeof(*l));
	bool on[F_MAX], tp_on[F_MAX];
	size_t ev_w = 0;
	int ret = parse_fields(o->fields ? o->fields :
			       "comm,tid,time,period,event,ip,sym,symoff,dso",
			       on, err);

	if (ret || !l) {
		free(l);
		return ret ? ret : -ENOMEM;
	}
	/* perf's default for tracepoints: their record, no address */
	if (!o->fields)
		parse_fields("comm,tid,cpu,time,event,trace", tp_on, err);
	else
		memcpy(tp_on, on, sizeof(on));
	/* several events: names right-aligned to the longest, as perf
	 * aligns them */
	for (size_t i = 0; p->f.nattr > 1 && i < p->f.nattr; i++) {
		const char *e = pmu_profile_event_name(p, i);

		if (e && strlen(e) > ev_w)
			ev_w = strlen(e);
	}
	l->n = 0;
	pmu_profile_rewind(p);
	while ((ret = pmu_profile_next(p, &s)) > 0) {
		size_t n;
		const struct pmu_frame *f = pmu__profile_frames(p, &n);
		bool tpe = s.event < p->f.nattr &&
			   p->f.attr[s.event].attr.type == PERF_TYPE_TRACEPOINT;
		const bool *use = tpe ? tp_on : on;
		bool frames = use[F_IP] || use[F_SYM] || use[F_DSO] ||
			      use[F_SRCLINE];
		/* perf's layout: an event that records call chains is
		 * printed a frame per line, even with only one frame */
		bool chain = frames && n > 0 && s.event < p->f.nattr &&
			     (p->f.attr[s.event].attr.sample_type &
			      (PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_STACK_USER));

		if (!pmu__report_filter(o, &s, n ? &f[0] : NULL))
			continue;
		print_head(l, use, p, &s, chain, ev_w);
		if (use[F_TRACE]) {
			print_trace(l, out, p, &s);
			if (!chain && frames && n)
				l_ch(l, ' ');
		}
		if (!chain) {
			if (n && frames)
				print_frame(l, use, &f[0], false);
			else
				l_ch(l, '\n');
			l_flush(l, out);
			continue;
		}
		l_ch(l, '\n');
		for (size_t i = 0; i < n; i++) {
			print_frame(l, use, &f[i], true);
			if (l->n > sizeof(l->b) / 2)
				l_flush(l, out);
		}
		l_ch(l, '\n');
		l_flush(l, out);
	}
	free(l);
	return ret < 0 ? ret : ferror(out) ? -EIO : 0;
}
