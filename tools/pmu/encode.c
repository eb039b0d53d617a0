/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <pmu/event.h>
#include <pmu/ibs.h>
#include <pmu/pmu.h>

#include "cmd.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: pmu encode [--model M] [--json] [--events-dir DIR] "
		   "EVENT...\n\n"
		   "Show the raw register codes, full string and "
		   "perf_event_attr of events.\n"
		   "  -m, --model M  model for events without a 'pmu::' "
		   "prefix (default: host)\n"
		   "  -j, --json     one JSON object per event per line\n"
		   "  -E, --events-dir DIR  vendor event files to resolve names "
		   "from\n"
		   "                 (default: $PMU_EVENTS_DIR)\n"
		   "EVENT is [pmu::]NAME[:UMASK...][:mod=val...], or an AMD "
		   "IBS set-up:\n"
		   "  [pmu::]ibs_fetch:maxcnt=N[:randen]   "
		   "[pmu::]ibs_op:maxcnt=N[:cnt_ctl]\n"
		   "(N a multiple of 16 up to 0xffff0; pmu a family 10h or "
		   "later AMD model).\n");
}

static void print_json(const char *ev, const struct pmu_encoding *e)
{
	const struct pmu_encoding_perf *p = &e->perf;

	printf("{\"event\": ");
	pmu_tool_json_str(stdout, ev);
	printf(", \"pmu\": ");
	pmu_tool_json_str(stdout, e->pmu);
	printf(", \"codes\": [");
	for (int i = 0; i < e->ncodes; i++)
		printf("%s\"0x%llx\"", i ? ", " : "",
		       (unsigned long long)e->codes[i]);
	printf("], \"fstr\": ");
	pmu_tool_json_str(stdout, e->fstr);
	if (e->has_perf)
		printf(", \"perf\": {\"type\": %u, \"config\": \"0x%llx\", "
		       "\"config1\": \"0x%llx\", \"config2\": \"0x%llx\", "
		       "\"exclude_user\": %d, \"exclude_kernel\": %d, "
		       "\"exclude_hv\": %d, \"exclude_host\": %d, "
		       "\"exclude_guest\": %d, \"precise_ip\": %d}",
		       p->type, (unsigned long long)p->config,
		       (unsigned long long)p->config1,
		       (unsigned long long)p->config2, p->exclude_user,
		       p->exclude_kernel, p->exclude_hv, p->exclude_host,
		       p->exclude_guest, p->precise_ip);
	printf("}\n");
}

static void print_text(const char *ev, const struct pmu_encoding *e)
{
	const struct pmu_encoding_perf *p = &e->perf;

	printf("%s\n  pmu    %s\n  codes ", ev, e->pmu);
	for (int i = 0; i < e->ncodes; i++)
		printf(" 0x%llx", (unsigned long long)e->codes[i]);
	printf("\n  fstr   %s\n", e->fstr[0] ? e->fstr : "-");
	if (e->has_perf)
		printf("  perf   type=%u config=0x%llx config1=0x%llx "
		       "exclude_user=%d exclude_kernel=%d exclude_hv=%d "
		       "exclude_host=%d exclude_guest=%d precise_ip=%d\n",
		       p->type, (unsigned long long)p->config,
		       (unsigned long long)p->config1, p->exclude_user,
		       p->exclude_kernel, p->exclude_hv, p->exclude_host,
		       p->exclude_guest, p->precise_ip);
}

/* ---- AMD IBS: "[pmu::]ibs_fetch|ibs_op:maxcnt=N[:randen|:cnt_ctl]" ---- */

struct ibs_req {
	char model[64];
	enum pmu_ibs_kind kind;
	long long maxcnt;       /* -1 = not given */
	int opt;                /* randen / cnt_ctl, -1 = not given */
	enum pmu_error_kind cls; /* what was wrong */
};

/* The kind named by the event part, or -1 when it is no IBS string. */
static int ibs_kind(const char *ev, const char **rest)
{
	const char *p = strstr(ev, "::");
	size_t n;

	p = p ? p + 2 : ev;
	n = strcspn(p, ":");
	*rest = p + n;
	if (n == 9 && !strncasecmp(p, "ibs_fetch", 9))
		return PMU_IBS_FETCH;
	if (n == 6 && !strncasecmp(p, "ibs_op", 6))
		return PMU_IBS_OP;
	return -1;
}

__attribute__((format(printf, 5, 6)))
static int ibs_fail(struct ibs_req *r, struct pmu_error *err,
		    enum pmu_error_kind cls, const char *tok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	snprintf(err->token, sizeof(err->token), "%s", tok);
	r->cls = cls;
	return -EINVAL;
}

static int ibs_mod(struct ibs_req *r, const char *t, size_t n,
		   struct pmu_error *err)
{
	const char *opt = r->kind == PMU_IBS_FETCH ? "randen" : "cnt_ctl";
	const char *eq = memchr(t, '=', n);
	size_t kl = eq ? (size_t)(eq - t) : n;
	char tok[64], *end;
	long long v = 1;

	snprintf(tok, sizeof(tok), "%.*s", (int)n, t);
	if (eq) {
		errno = 0;
		v = strtoll(eq + 1, &end, 0);
		if (errno || end != t + n || eq + 1 == end || v < 0)
			return ibs_fail(r, err, PMU_ERR_BAD_VALUE, tok,
					"'%s' needs a number", tok);
	}
	if (kl == 6 && !strncasecmp(t, "maxcnt", 6) && eq) {
		if (r->maxcnt >= 0)
			return ibs_fail(r, err, PMU_ERR_REPEATED, tok,
					"'%s': maxcnt given twice", tok);
		r->maxcnt = v;
		return 0;
	}
	if (kl == strlen(opt) && !strncasecmp(t, opt, kl) && v <= 1) {
		if (r->opt >= 0)
			return ibs_fail(r, err, PMU_ERR_REPEATED, tok,
					"'%s' given twice", tok);
		r->opt = (int)v;
		return 0;
	}
	if (kl == strlen(opt) && !strncasecmp(t, opt, kl))
		return ibs_fail(r, err, PMU_ERR_BAD_VALUE, tok, "'%s' takes 0 or 1",
				tok);
	snprintf(err->message, sizeof(err->message), "IBS %s has no "
		 "modifier '%s' (it takes maxcnt=N and %s)", r->kind ==
		 PMU_IBS_FETCH ? "fetch" : "op", tok, opt);
	snprintf(err->token, sizeof(err->token), "%s", tok);
	r->cls = PMU_ERR_BAD_MODIFIER;
	return -EINVAL;
}

static int ibs_parse(const char *ev, int kind, const char *rest,
		     const char *dfl_model, struct ibs_req *r,
		     struct pmu_error *err)
{
	const char *sep = strstr(ev, "::");

	r->kind = (enum pmu_ibs_kind)kind;
	r->maxcnt = -1;
	r->opt = -1;
	if (sep)
		snprintf(r->model, sizeof(r->model), "%.*s", (int)(sep - ev),
			 ev);
	else
		snprintf(r->model, sizeof(r->model), "%s", dfl_model ?
			 dfl_model : pmu_event_host_model());
	while (*rest == ':') {
		size_t n = strcspn(rest + 1, ":");
		int rc;
		if (n && (rc = ibs_mod(r, rest + 1, n, err)))
			return rc;
		rest += 1 + n;
	}
	if (r->maxcnt < 0)
		return ibs_fail(r, err, PMU_ERR_SYNTAX, "", "%s needs maxcnt=N, the "
				"sampling period (a multiple of 16 up to "
				"0xffff0)", kind == PMU_IBS_FETCH ?
				"ibs_fetch" : "ibs_op");
	if (r->maxcnt > 0xfffff)
		return ibs_fail(r, err, PMU_ERR_BAD_VALUE, "maxcnt", "maxcnt 0x%llx "
				"is larger than the 20-bit period field allows "
				"(0xffff0)", r->maxcnt);
	return 0;
}

static void ibs_print(const char *ev, const char *model,
		      const struct ibs_req *r, const struct pmu_ibs_config *c,
		      bool json)
{
	const char *opt = r->kind == PMU_IBS_FETCH ? "randen" : "cnt_ctl";
	char fstr[160], type[16] = "null";
	int last = c->pmd + c->npmds - 1;

	snprintf(fstr, sizeof(fstr), "%s::%s:maxcnt=%lld:%s=%d", model,
		 c->perf_pmu, r->maxcnt, opt, r->opt > 0);
	if (c->perf_type_known)
		snprintf(type, sizeof(type), "%u", c->perf_type);
	if (!json) {
		printf("%s\n  pmu    %s\n  codes  0x%llx\n  fstr   %s\n"
		       "  regs   %s MSR 0x%x, perfmon2 PMC%d, PMD%d..PMD%d\n"
		       "  perf   pmu=%s type=%s config=0x%llx "
		       "sample_period=%llu\n", ev, model,
		       (unsigned long long)c->ctl, fstr, r->kind ==
		       PMU_IBS_FETCH ? "IbsFetchCtl" : "IbsOpCtl", c->msr,
		       c->pmc, c->pmd, last, c->perf_pmu,
		       c->perf_type_known ? type : "(not in sysfs)",
		       (unsigned long long)c->perf_config,
		       (unsigned long long)c->sample_period);
		return;
	}
	printf("{\"event\": ");
	pmu_tool_json_str(stdout, ev);
	printf(", \"pmu\": \"%s\", \"codes\": [\"0x%llx\"], \"fstr\": ", model,
	       (unsigned long long)c->ctl);
	pmu_tool_json_str(stdout, fstr);
	printf(", \"msr\": \"0x%x\", \"pmc\": %d, \"pmds\": [%d, %d], "
	       "\"perf\": {\"pmu\": \"%s\", \"type\": %s, \"config\": "
	       "\"0x%llx\", \"sample_period\": %llu}}\n", c->msr, c->pmc,
	       c->pmd, last, c->perf_pmu, type,
	       (unsigned long long)c->perf_config,
	       (unsigned long long)c->sample_period);
}

/* 0 done, 1 failed (err and *cls filled), -1 not an IBS string. */
static int encode_ibs(const char *ev, const struct pmu_encode_opts *opts,
		      bool json, struct pmu_error *err,
		      enum pmu_error_kind *cls)
{
	struct pmu_ibs_opts io = { .sz = sizeof(io) };
	struct pmu_ibs_config c = { .size = sizeof(c) };
	struct pmu_catalog_info mi = { .size = sizeof(mi) };
	struct ibs_req r;
	const char *rest;
	int kind = ibs_kind(ev, &rest), rc;
	ssize_t m;

	if (kind < 0)
		return -1;
	*cls = PMU_ERR_SYNTAX;
	if (ibs_parse(ev, kind, rest, opts->model, &r, err)) {
		*cls = r.cls;
		return 1;
	}
	m = pmu_catalog_find(r.model);
	if (m < 0 || pmu_catalog_info((size_t)m, &mi)) {
		const char *near = pmu_catalog_suggest(r.model);
		ibs_fail(&r, err, PMU_ERR_UNKNOWN_PMU, r.model, "unknown pmu '%s'%s%s%s; "
			 "see 'pmu list --models'", r.model,
			 near ? " (did you mean '" : "", near ? near : "",
			 near ? "'?)" : "");
		*cls = r.cls;
		return 1;
	}
	io.model = mi.name;
	rc = pmu_ibs_setup(r.kind, (uint32_t)r.maxcnt, r.opt > 0 ? 1u : 0u,
			   &io, &c, err);
	if (rc) {
		*cls = rc == -EOPNOTSUPP ? PMU_ERR_UNKNOWN_EVENT
					  : PMU_ERR_BAD_VALUE;
		/* IBS without the option's mode (fam10h RevB): the modifier
		 * is what the model lacks, as libpfm4 would class it. */
		if (rc == -EOPNOTSUPP && r.opt > 0 &&
		    pmu_ibs_setup(r.kind, (uint32_t)r.maxcnt, 0, &io, &c,
				  NULL) == 0)
			*cls = PMU_ERR_BAD_MODIFIER;
		return 1;
	}
	ibs_print(ev, mi.name, &r, &c, json);
	return 0;
}

/* A name without "pmu::" that is not found, on a CPU no catalog knows:
 * say so, or the user is left wondering why RETIRED_OPS is unknown. */
static void host_hint(const char *ev, const struct pmu_encode_opts *opts,
		      enum pmu_error_kind cls)
{
	static bool said;   /* once per run, not once per event */
	char note[320];

	if (said || cls != PMU_ERR_UNKNOWN_EVENT || strstr(ev, "::") ||
	    opts->model)
		return;
	said = true;
	if (!pmu_tool_host_note(note, sizeof(note)))
		pmu_tool_err("%s", note);
}

static int encode_one(const char *ev, const struct pmu_encode_opts *opts,
		      bool json)
{
	struct pmu_encoding e = { .size = sizeof(e) };
	struct pmu_error err = { .size = sizeof(err) };
	enum pmu_error_kind cls = PMU_ERR_NONE;
	int rc = encode_ibs(ev, opts, json, &err, &cls);

	if (rc == 0)
		return 0;
	if (rc > 0)
		goto fail;
	if (pmu_event_encode(ev, opts, &e, &err) == 0) {
		if (json)
			print_json(ev, &e);
		else
			print_text(ev, &e);
		return 0;
	}
	cls = e.error;
fail:
	host_hint(ev, opts, cls);
	if (json) {
		printf("{\"event\": ");
		pmu_tool_json_str(stdout, ev);
		printf(", \"error\": \"%s\", \"message\": ",
		       pmu_error_kind_name(cls));
		pmu_tool_json_str(stdout, err.message);
		printf("}\n");
	}
	pmu_tool_err("%s", err.message);
	return 1;
}

int cmd_encode(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "json", no_argument, NULL, 'j' },
		{ "events-dir", required_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pmu_encode_opts opts = { .sz = sizeof(opts) };
	bool json = false;
	int c, rc = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+m:jE:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			opts.model = optarg;
			break;
		case 'E':
			if ((rc = pmu_tool_events_dir(optarg)))
				return rc;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_PMU_USAGE;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return EXIT_PMU_USAGE;
	}
	/* Checked after the options: --events-dir may add the model. */
	if (opts.model && pmu_catalog_find(opts.model) < 0) {
		const char *near = pmu_catalog_suggest(opts.model);
		pmu_tool_err("unknown model '%s'%s%s%s; see 'pmu list "
			     "--models'", opts.model,
			     near ? " (did you mean '" : "", near ? near : "",
			     near ? "'?)" : "");
		return EXIT_PMU_INPUT;
	}
	for (int i = optind; i < argc; i++)
		rc |= encode_one(argv[i], &opts, json);
	fflush(stdout);
	return rc ? EXIT_PMU_INPUT : 0;
}
