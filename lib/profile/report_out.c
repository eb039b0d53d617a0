/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "profile/report.h"
#include "util/error.h"
#include "util/opts.h"
#include "util/jsonstr.h"
#include "util/outstruct.h"

static const char *const col_title[RK_MAX] = {
	[RK_COMM] = "Command", [RK_PID] = "Pid:Command",
	[RK_TID] = "Pid:Command", [RK_DSO] = "Shared Object",
	[RK_SYM] = "Symbol", [RK_SRCLINE] = "Source:Line",
	[RK_EVENT] = "Event",
};

static const char *const col_json[RK_MAX] = {
	[RK_COMM] = "comm", [RK_PID] = "pid", [RK_TID] = "tid",
	[RK_DSO] = "dso", [RK_SYM] = "sym", [RK_SRCLINE] = "srcline",
	[RK_EVENT] = "event",
};

static int row_cmp(const void *a, const void *b, void *ctx)
{
	const struct rrow *x = a, *y = b;
	const struct report *sort_r = ctx;
	uint64_t vx = sort_r->o->children ? x->children : x->self;
	uint64_t vy = sort_r->o->children ? y->children : y->self;

	if (vx != vy)
		return vx > vy ? -1 : 1;
	/* equal children: the caller (less time of its own) above its
	 * callee, as perf puts them */
	if (x->self != y->self && sort_r->o->children)
		return x->self < y->self ? -1 : 1;
	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	for (size_t i = 0; i < sort_r->nkeys; i++) {
		int c = strcmp(pmu__rpool_get(&sort_r->pool, x->key[i]),
			       pmu__rpool_get(&sort_r->pool, y->key[i]));
		if (c)
			return c;
	}
	return 0;
}

static void sort_rows(struct report *r)
{
	if (r->nrows)
		qsort_r(r->rows, r->nrows, sizeof(*r->rows), row_cmp, r);
}

static double pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

static bool row_shown(const struct report *r, const struct rrow *row)
{
	uint64_t v = r->o->children ? row->children : row->self;

	if (!v && !row->base_self)
		return false;
	return pct(v, r->total) >= r->o->percent_limit ||
	       pct(row->base_self, r->base_total) >= r->o->percent_limit;
}

static void col_widths(const struct report *r, int *w)
{
	for (size_t k = 0; k < r->nkeys; k++) {
		w[k] = (int)strlen(col_title[r->keys[k]]);
		for (size_t i = 0; i < r->nrows; i++) {
			int n = (int)strlen(pmu__rpool_get(&r->pool, r->rows[i].key[k]));

			if (row_shown(r, &r->rows[i]) && n > w[k])
				w[k] = n;
		}
	}
}

static void dots(FILE *out, int n)
{
	for (int i = 0; i < n; i++)
		fputc('.', out);
}

static void stdio_header(struct report *r, FILE *out, const int *w)
{
	fprintf(out, "# Total Lost Samples: %" PRIu64 "\n#\n", r->lost);
	fprintf(out, "# Samples: %" PRIu64 "  of event '%s'\n", r->samples,
		r->event ? r->event : "?");
	fprintf(out, "# Event count (approx.): %" PRIu64 "\n#\n", r->total);
	fprintf(out, "# %s%s", r->o->children ? "Children      Self" :
		"Overhead", r->diff ? "  Baseline     Delta" : "");
	for (size_t k = 0; k < r->nkeys; k++)
		fprintf(out, "  %-*s", k + 1 < r->nkeys ? w[k] : 0,
			col_title[r->keys[k]]);
	fprintf(out, "\n# %s%s", r->o->children ? "........  ........" :
		"........", r->diff ? "  ........  ........" : "");
	for (size_t k = 0; k < r->nkeys; k++) {
		fputs("  ", out);
		dots(out, w[k]);
	}
	fputs("\n#\n", out);
}

/* ---- call graphs, as perf's text tree ---- */

static void graph_node(const struct report *r, const struct rtree *t,
		       uint32_t i, uint64_t total, const char *col, FILE *out);

/* Whether a branch of v is drawn. */
static bool drawn(const struct report *r, uint64_t v, uint64_t total)
{
	double lim = PMU__OPTS_GET(r->o, callgraph_limit, 0.0);

	if (lim == 0)
		lim = 0.5;
	return lim < 0 || !total || pct(v, total) >= lim;
}

/* Branches, biggest first, as perf draws them: a "|" line, then
 * "|--NN.NN%--name" ("" --NN.NN%--" for the last) at `indent`; what
 * follows a branch's name is drawn in its column, 11 to the right. */
static void graph_children(const struct report *r, const struct rtree *t,
			   uint32_t first, uint64_t total, const char *indent,
			   FILE *out)
{
	uint32_t kids[4096];
	size_t n = 0;

	for (uint32_t c = first; c && n < 4096; c = t->n[c].next_sibling)
		if (drawn(r, t->n[c].total, total))
			kids[n++] = c;
	/* biggest first */
	for (size_t a = 1; a < n; a++)
		for (size_t b = a; b > 0 && t->n[kids[b - 1]].total <
					    t->n[kids[b]].total; b--) {
			uint32_t x = kids[b];
			kids[b] = kids[b - 1];
			kids[b - 1] = x;
		}
	for (size_t k = 0; k < n; k++) {
		char next[1024];
		bool last = k + 1 == n;

		fprintf(out, "%s|          \n%s%s--%.2f%%--%s\n", indent, indent,
			last ? " " : "|", pct(t->n[kids[k]].total, r->total),
			pmu__rpool_get(&r->pool, t->n[kids[k]].name));
		snprintf(next, sizeof(next), "%s%s          ", indent,
			 last ? " " : "|");
		graph_node(r, t, kids[k], total, next, out);
	}
}

/* A straight run (one child each) is one column of names at `col`; the
 * branches after it start there too. */
static void graph_node(const struct report *r, const struct rtree *t,
		       uint32_t i, uint64_t total, const char *col, FILE *out)
{
	while (t->n[i].first_child && !t->n[t->n[i].first_child].next_sibling &&
	       t->n[t->n[i].first_child].total == t->n[i].total) {
		i = t->n[i].first_child;
		fprintf(out, "%s%s\n", col, pmu__rpool_get(&r->pool, t->n[i].name));
	}
	if (t->n[i].first_child)
		graph_children(r, t, t->n[i].first_child, total, col, out);
}

/* perf's layout: one chain that is the whole of the row's value starts
 * "---name"; otherwise every chain is a branch with its share.  A row
 * none of whose chains reaches 0.5% of the total has no graph. */
static void row_graph(const struct report *r, const struct rrow *row, FILE *out)
{
	const struct rtree *t = row->chains;
	uint64_t value = r->o->children ? row->children : row->self;
	bool any = false;
	uint32_t c;

	if (!t)
		return;
	c = t->n[0].first_child;
	for (uint32_t k = c; k && !any; k = t->n[k].next_sibling)
		any = drawn(r, t->n[k].total, r->total);
	if (!any)
		return;
	if (c && !t->n[c].next_sibling && t->n[c].total == value) {
		fprintf(out, "            |\n            ---%s\n",
			pmu__rpool_get(&r->pool, t->n[c].name));
		graph_node(r, t, c, r->total, "               ", out);
	} else {
		graph_children(r, t, c, r->total, "            ", out);
	}
	fputc('\n', out);
}

static int report_stdio(struct report *r, struct pmu_profile *p, FILE *out)
{
	int w[RK_MAX];

	sort_rows(r);
	col_widths(r, w);
	stdio_header(r, out, w);
	for (size_t i = 0; i < r->nrows; i++) {
		const struct rrow *row = &r->rows[i];

		if (!row_shown(r, row))
			continue;
		if (r->o->children)
			fprintf(out, "  %7.2f%%  %7.2f%%", pct(row->children, r->total),
				pct(row->self, r->total));
		else
			fprintf(out, "  %7.2f%%", pct(row->self, r->total));
		if (r->diff)
			fprintf(out, "  %7.2f%%  %+7.2f%%",
				pct(row->base_self, r->base_total),
				pct(row->self, r->total) -
				pct(row->base_self, r->base_total));
		for (size_t k = 0; k < r->nkeys; k++)
			fprintf(out, "  %-*s", k + 1 < r->nkeys ? w[k] : 0,
				pmu__rpool_get(&r->pool, row->key[k]));
		fputc('\n', out);
		if (r->o->callgraph)
			row_graph(r, row, out);
	}
	(void)p;
	return ferror(out) ? -EIO : 0;
}

static void json_str(FILE *f, const char *s)
{
	pmu__json_fputs(f, s);
}

static int report_json(struct report *r, struct pmu_profile *p, FILE *out)
{
	bool first = true;

	sort_rows(r);
	fprintf(out, "{\"event\": ");
	json_str(out, r->event ? r->event : "");
	fprintf(out, ", \"samples\": %" PRIu64 ", \"total_period\": %" PRIu64
		", \"lost\": %" PRIu64 ", \"rows\": [", r->samples, r->total,
		r->lost);
	for (size_t i = 0; i < r->nrows; i++) {
		const struct rrow *row = &r->rows[i];

		if (!row_shown(r, row))
			continue;
		fprintf(out, "%s\n  {\"overhead\": %.4f, \"period\": %" PRIu64
			", \"samples\": %" PRIu64, first ? "" : ",",
			pct(row->self, r->total), row->self, row->samples);
		first = false;
		if (r->o->children)
			fprintf(out, ", \"children\": %.4f",
				pct(row->children, r->total));
		if (r->diff)
			fprintf(out, ", \"baseline\": %.4f, \"delta\": %.4f",
				pct(row->base_self, r->base_total),
				pct(row->self, r->total) -
				pct(row->base_self, r->base_total));
		for (size_t k = 0; k < r->nkeys; k++) {
			fprintf(out, ", \"%s\": ", col_json[r->keys[k]]);
			json_str(out, pmu__rpool_get(&r->pool, row->key[k]));
		}
		fputc('}', out);
	}
	fprintf(out, "\n]}\n");
	(void)p;
	return ferror(out) ? -EIO : 0;
}

/* ---- folded stacks ---- */

static void folded_node(const struct report *r, uint32_t i, char *buf,
			size_t len, size_t at, FILE *out)
{
	const struct rnode *n = &r->tree.n[i];
	const char *name = pmu__rpool_get(&r->pool, n->name);
	size_t l = strlen(name);

	if (i) {
		if (at + l + 2 >= len)
			return;
		if (at)
			buf[at++] = ';';
		memcpy(buf + at, name, l);
		at += l;
		buf[at] = 0;
	}
	if (i && n->self)
		fprintf(out, "%s %" PRIu64 "\n", buf, n->self);
	for (uint32_t c = n->first_child; c; c = r->tree.n[c].next_sibling)
		folded_node(r, c, buf, len, at, out);
}

static int report_folded(struct report *r, FILE *out)
{
	char *buf = malloc(65536);

	if (!buf)
		return -ENOMEM;
	buf[0] = 0;
	folded_node(r, 0, buf, 65536, 0, out);
	free(buf);
	return ferror(out) ? -EIO : 0;
}

/* ---- the public entry ---- */

/* The formats: one row each.  Those written from the collected rows
 * have `rows`; the others read the profile themselves (`whole`). */
static int w_stdio(struct report *r, struct pmu_profile *p, FILE *out,
		   struct pmu_error *err)
{
	(void)err;
	return report_stdio(r, p, out);
}

static int w_json(struct report *r, struct pmu_profile *p, FILE *out,
		  struct pmu_error *err)
{
	(void)err;
	return report_json(r, p, out);
}

static int w_folded(struct report *r, struct pmu_profile *p, FILE *out,
		    struct pmu_error *err)
{
	(void)p;
	(void)err;
	return report_folded(r, out);
}

static int w_svg(struct report *r, struct pmu_profile *p, FILE *out,
		 struct pmu_error *err)
{
	(void)p;
	(void)err;
	return pmu__report_svg(r, out);
}

static const struct format {
	struct pmu_report_format_info info;
	int (*rows)(struct report *r, struct pmu_profile *p, FILE *out,
		    struct pmu_error *err);
	int (*whole)(struct pmu_profile *p, const struct pmu_report_opts *o,
		     FILE *out, struct pmu_error *err);
} formats[] = {
	[PMU_REPORT_STDIO] = { { 0, "stdio", false, true, false }, w_stdio,
			       NULL },
	[PMU_REPORT_JSON] = { { 0, "json", false, true, false }, w_json,
			      NULL },
	[PMU_REPORT_FOLDED] = { { 0, "folded", false, true, true }, w_folded,
				NULL },
	[PMU_REPORT_SVG] = { { 0, "svg", false, true, true }, w_svg, NULL },
	[PMU_REPORT_PPROF] = { { 0, "pprof", true, false, true },
			       pmu__report_pprof, NULL },
	[PMU_REPORT_FIREFOX] = { { 0, "firefox", false, false, true }, NULL,
				 pmu__report_firefox },
	[PMU_REPORT_SCRIPT] = { { 0, "script", false, false, false }, NULL,
				pmu__report_script },
};

static const struct format *format_of(enum pmu_report_format fmt)
{
	return (unsigned)fmt < sizeof(formats) / sizeof(formats[0]) &&
	       formats[fmt].info.name ? &formats[fmt] : NULL;
}

PMU_API int pmu_report_format_info(enum pmu_report_format fmt,
				   struct pmu_report_format_info *info)
{
	const struct format *f = format_of(fmt);
	struct pmu_report_format_info mine;

	if (!f || !pmu__out_ok(info, info ? info->size : 0))
		return -EINVAL;
	mine = f->info;
	mine.size = sizeof(mine);
	PMU__OUT(info, &mine);
	return 0;
}

int pmu_report_write(struct pmu_profile *p, struct pmu_profile *base,
		     enum pmu_report_format fmt, FILE *out,
		     const struct pmu_report_opts *opts, struct pmu_error *err)
{
	struct pmu_report_opts dflt = { .sz = sizeof(dflt) };
	const struct format *f;
	struct report r = { 0 };
	int ret;

	if ((ret = PMU__OPTS_CHECK(opts, pmu_report_opts, err)))
		return ret;
	if (!p || !out)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "no profile or no output");
	if (!(f = format_of(fmt)))
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "unknown report format %d", (int)fmt);
	/* an older caller's smaller struct: copy what it has */
	if (opts)
		memcpy(&dflt, opts, opts->sz < sizeof(dflt) ? opts->sz :
		       sizeof(dflt));
	dflt.sz = sizeof(dflt);
	if (base && !f->info.diff)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, f->info.name, -1,
				  "the %s format shows one profile, not a "
				  "comparison", f->info.name);
	if (f->whole)
		return f->whole(p, &dflt, out, err);
	r.o = &dflt;
	ret = pmu__report_collect(&r, p, false, err);
	if (!ret && base) {
		r.diff = true;
		ret = pmu__report_collect(&r, base, true, err);
	}
	if (!ret)
		ret = f->rows(&r, p, out, err);
	pmu__report_free(&r);
	if (ret == -EIO)
		pmu__error(err, ret, PMU_ERR_SYSTEM, NULL, -1,
			   "cannot write the report");
	return ret;
}
