/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "profile/report.h"
#include "util/error.h"

enum { F_COMM, F_PID, F_TID, F_CPU, F_TIME, F_PERIOD, F_EVENT, F_IP, F_SYM,
       F_SYMOFF, F_DSO, F_SRCLINE, F_MAX };

static const char *const field_names[F_MAX] = {
	"comm", "pid", "tid", "cpu", "time", "period", "event", "ip", "sym",
	"symoff", "dso", "srcline",
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
					  "srcline)", tok);
		}
		on[k] = true;
		p += n + (p[n] == ',');
	}
	return 0;
}

static void print_frame(FILE *out, const bool *on, const struct pmu_frame *f,
			bool chain)
{
	if (chain)
		fputs("\t", out);
	if (on[F_IP])
		fprintf(out, "%16" PRIx64 " ", f->kind == PMU_FRAME_KERNEL ?
			f->ip : f->addr);
	if (on[F_SYM]) {
		fputs(f->sym ? f->sym : "[unknown]", out);
		if (f->sym && on[F_SYMOFF] && f->kind != PMU_FRAME_INLINED)
			fprintf(out, "+0x%" PRIx64, f->sym_off);
		if (f->kind == PMU_FRAME_INLINED)
			fputs(" (inlined)", out);
	}
	if (on[F_DSO])
		fprintf(out, " (%s)", f->dso);
	if (on[F_SRCLINE] && f->srcfile)
		fprintf(out, "\n%s  %s:%u", chain ? "\t" : "", f->srcfile,
			f->line);
	fputc('\n', out);
}

static void print_head(FILE *out, const bool *on, struct pmu_profile *p,
		       const struct pmu_sample *s, bool chain)
{
	if (on[F_COMM])
		fprintf(out, chain ? "%s " : "%16s ", s->comm);
	if (on[F_PID] && on[F_TID])
		fprintf(out, "%5u/%-5u ", s->pid, s->tid);
	else if (on[F_PID])
		fprintf(out, "%5u ", s->pid);
	else if (on[F_TID])
		fprintf(out, "%5u ", s->tid);
	if (on[F_CPU] && s->cpu != (uint32_t)-1)
		fprintf(out, "[%03u] ", s->cpu);
	if (on[F_TIME])
		fprintf(out, "%5" PRIu64 ".%06" PRIu64 ": ",
			s->time / 1000000000, s->time % 1000000000 / 1000);
	if (on[F_PERIOD])
		fprintf(out, "%10" PRIu64 " ", s->period);
	if (on[F_EVENT])
		fprintf(out, "%s: ", pmu_profile_event_name(p, s->event));
}

int report_script(struct pmu_profile *p, const struct pmu_report_opts *o,
		  FILE *out, struct pmu_error *err)
{
	struct pmu_sample s = { .size = sizeof(s) };
	bool on[F_MAX];
	int ret = parse_fields(o->fields ? o->fields :
			       "comm,tid,time,period,event,ip,sym,symoff,dso",
			       on, err);

	if (ret)
		return ret;
	pmu_profile_rewind(p);
	while ((ret = pmu_profile_next(p, &s)) > 0) {
		size_t n;
		const struct pmu_frame *f = pmu__profile_frames(p, &n);
		bool frames = on[F_IP] || on[F_SYM] || on[F_DSO] ||
			      on[F_SRCLINE];
		bool chain = p->callchains && n > 1 && frames;

		if (!report_filter(o, &s, n ? &f[0] : NULL))
			continue;
		print_head(out, on, p, &s, chain);
		if (!chain) {
			if (n && frames)
				print_frame(out, on, &f[0], false);
			else
				fputc('\n', out);
			continue;
		}
		fputc('\n', out);
		for (size_t i = 0; i < n; i++)
			print_frame(out, on, &f[i], true);
		fputc('\n', out);
	}
	return ret < 0 ? ret : ferror(out) ? -EIO : 0;
}
