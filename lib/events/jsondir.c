/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "events/jsondir_impl.h"
#include "util/error.h"

/*
 * The kernel layout names DIR/NAME/; Intel's names "/XYZ/events/f.json"
 * below DIR, which copies of it often flatten to "XYZ/f.json".
 */
int pmu__jd_row_exists(const char *dir, const char *file, size_t len,
		       bool is_dir, char **found)
{
	char *p = NULL;
	const char *rel = file, *base = file;
	size_t rl = len;

	*found = NULL;
	while (rl && *rel == '/')
		rel++, rl--;
	for (size_t i = 0; i < rl; i++)
		if (rel[i] == '/')
			base = rel + i + 1;
	if (asprintf(&p, "%.*s", (int)rl, rel) < 0)
		return 0;
	if (!is_dir && rel != base && !pmu__jd_exists(p, false)) {
		size_t first = strcspn(rel, "/");
		char *q = NULL;
		if (asprintf(&q, "%.*s/%.*s", (int)first, rel,
			     (int)(rl - (size_t)(base - rel)), base) < 0)
			q = NULL;
		free(p);
		p = q;
	}
	if (p) {
		char *full = NULL;
		if (asprintf(&full, "%s/%s", dir, p) >= 0 &&
		    pmu__jd_exists(full, is_dir))
			*found = p, p = NULL;
		free(full);
	}
	free(p);
	return *found != NULL;
}

size_t pmu__jsondir_count(const struct pmu__jsondir *jd)
{
	return jd ? jd->n : 0;
}

const struct pmu__catmodel *pmu__jsondir_model_at(const struct pmu__jsondir *jd,
					       size_t i)
{
	return jd && i < jd->n ? &jd->models[i]->m : NULL;
}

static struct jd_model *jd_of(const struct pmu__jsondir *jd,
			      const struct pmu__catmodel *m)
{
	for (size_t i = 0; jd && i < jd->n; i++)
		if (&jd->models[i]->m == m)
			return jd->models[i];
	return NULL;
}

const struct pmu__catmodel *pmu__jsondir_model(const struct pmu__jsondir *jd,
					    const char *name_or_cpuid)
{
	if (!jd || !name_or_cpuid)
		return NULL;
	for (size_t i = 0; i < jd->n; i++)
		if (!strcasecmp(jd->models[i]->name, name_or_cpuid))
			return &jd->models[i]->m;
	/* Mapfile order decides, as in the kernel: first match wins. */
	for (size_t i = 0; i < jd->nrows; i++)
		if (pmu__cpuid_pattern_match(jd->rows[i].model->arch,
					     jd->rows[i].pattern,
					     name_or_cpuid))
			return &jd->rows[i].model->m;
	return NULL;
}

const char *pmu__jsondir_long_desc(const struct pmu__jsondir *jd,
				   const struct pmu__catmodel *m,
				   const struct pmu__event *ev, int um)
{
	const struct jd_model *jm = jd_of(jd, m);
	size_t e;

	if (!jm || !ev || ev < m->events || ev >= m->events + m->nevents)
		return NULL;
	e = (size_t)(ev - m->events);
	if (um < 0)
		return jm->ev_long[e];
	if (um >= ev->numasks)
		return NULL;
	return jm->um_long[ev->umask0 + (uint32_t)um];
}

const char *pmu__jsondir_model_path(const struct pmu__jsondir *jd,
				    const struct pmu__catmodel *m)
{
	const struct jd_model *jm = jd_of(jd, m);

	if (jm && jm->core)
		jm = jm->core;
	return jm && jm->nfiles ? jm->files[0] : NULL;
}

const char *pmu__jsondir_metric_desc(const struct pmu__jsondir *jd,
				     const struct pmu__catmodel *m, size_t i)
{
	const struct jd_model *jm = jd_of(jd, m);

	return jm && i < jm->nmets ? jm->met_long[i] : NULL;
}

/* ---- mapfile.csv ---- */

struct row {
	const char *f[4];
	size_t len[4];
};

static int split_row(const char *line, size_t n, struct row *r)
{
	int k = 0;
	const char *s = line, *end = line + n;

	while (k < 4) {
		const char *c = memchr(s, ',', (size_t)(end - s));
		const char *e = c ? c : end;
		r->f[k] = s;
		r->len[k++] = (size_t)(e - s);
		if (!c)
			break;
		s = c + 1;
	}
	return k;
}

static bool field_is(const struct row *r, int k, const char *word)
{
	return r->len[k] == strlen(word) && !strncasecmp(r->f[k], word,
							  r->len[k]);
}

static struct jd_model *model_named(struct pmu__jsondir *jd, const char *name)
{
	for (size_t i = 0; i < jd->n; i++)
		if (!strcmp(jd->models[i]->name, name))
			return jd->models[i];
	return NULL;
}

static struct jd_model *new_model(struct pmu__jsondir *jd, const char *name,
				  enum pmu__enc_kind kind)
{
	struct jd_model **ms = realloc(jd->models,
				       (jd->n + 1) * sizeof(*ms));
	struct jd_model *jm;

	if (!ms)
		return NULL;
	jd->models = ms;
	if (!(jm = pmu__jd_alloc(jd, sizeof(*jm))))
		return NULL;
	snprintf(jm->name, sizeof(jm->name), "%s", name);
	jm->m.name = jm->name;
	jm->m.desc = jm->desc;
	jm->m.kind = kind;
	jm->num_generic = jm->num_fixed = -1;
	ms[jd->n++] = jm;
	return jm;
}

/* The model hybrid parts' cpu_atom records go to: NAME_atom. */
static struct jd_model *atom_model(struct pmu__jsondir *jd,
				   struct jd_model *jm)
{
	char name[JD_NAME_MAX + 8];

	if (jm->atom)
		return jm->atom;
	snprintf(name, sizeof(name), "%.*s_atom", JD_NAME_MAX - 6, jm->name);
	jm->atom = new_model(jd, name, jm->m.kind);
	if (!jm->atom)
		return NULL;
	jm->atom->is_dir = jm->is_dir;
	jm->atom->core = jm;
	jm->atom->arch = jm->arch;
	snprintf(jm->atom->pmu, sizeof(jm->atom->pmu), "cpu_atom");
	snprintf(jm->pmu, sizeof(jm->pmu), "cpu_core");
	/* Detection finds the core model; the atom one goes with it. */
	return jm->atom;
}

struct jd_model *pmu__jd_unit_model(struct pmu__jsondir *jd,
				    struct jd_model *jm, const char *unit)
{
	if (!unit || !strcasecmp(unit, "cpu") || !strcasecmp(unit, "core") ||
	    !strcasecmp(unit, "CPU-M-CF"))
		return jm;
	if (!strcasecmp(unit, "cpu_core"))
		return atom_model(jd, jm) ? jm : NULL;
	if (!strcasecmp(unit, "cpu_atom"))
		return atom_model(jd, jm);
	return NULL;
}

/* Grow a string array kept in jd memory by one element. */
static int push_str(struct pmu__jsondir *jd, const char ***arr, size_t *n,
		    const char *s, size_t len)
{
	const char **a = pmu__jd_alloc(jd, (*n + 1) * sizeof(*a));
	char *copy = pmu__jd_strndup(jd, s, len);

	if (!a || !copy)
		return -ENOMEM;
	for (size_t i = 0; i < *n; i++) {
		if (!strcmp((*arr)[i], copy))
			return 0;
		a[i] = (*arr)[i];
	}
	a[(*n)++] = copy;
	*arr = a;
	return 0;
}

/* The rows in mapfile order: detection takes the first that matches. */
static int push_row(struct pmu__jsondir *jd, struct jd_model *jm,
		    const char *pat, size_t len)
{
	struct jd_row *r = pmu__jd_alloc(jd, (jd->nrows + 1) * sizeof(*r));
	char *p = pmu__jd_strndup(jd, pat, len);

	if (!r || !p)
		return -ENOMEM;
	if (jd->nrows)
		memcpy(r, jd->rows, jd->nrows * sizeof(*r));
	r[jd->nrows].model = jm;
	r[jd->nrows].pattern = p;
	jd->rows = r;
	jd->nrows++;
	return 0;
}

size_t pmu__jsondir_nrows(const struct pmu__jsondir *jd)
{
	return jd ? jd->nrows : 0;
}

const char *pmu__jsondir_row(const struct pmu__jsondir *jd, size_t i,
			     const struct pmu__catmodel **m)
{
	if (!jd || i >= jd->nrows)
		return NULL;
	*m = &jd->rows[i].model->m;
	return jd->rows[i].pattern;
}

/* Model name of a row: the kernel layout names a directory, Intel's a
 * file "/XYZ/events/name_core.json". */
static void row_name(const struct row *r, char *name, size_t sz, bool *is_dir)
{
	const char *f = r->f[2], *b = f;
	size_t n = r->len[2];

	*is_dir = !(n > 5 && !strncasecmp(f + n - 5, ".json", 5));
	for (size_t i = 0; i < n; i++)
		if (f[i] == '/')
			b = f + i + 1;
	n -= (size_t)(b - f);
	if (n > 10 && !strncasecmp(b + n - 10, "_core.json", 10))
		n -= 10;
	else if (n > 5 && !strncasecmp(b + n - 5, ".json", 5))
		n -= 5;
	if (n >= sz)
		n = sz - 1;
	for (size_t i = 0; i < n; i++)
		name[i] = (char)tolower((unsigned char)b[i]);
	name[n] = '\0';
}

static enum pmu__arch row_arch(const struct row *r)
{
	return pmu__cpuid_arch(r->f[0], r->len[0]);
}

static enum pmu__enc_kind row_kind(const struct row *r, enum pmu__arch a)
{
	if (a != PMU__ARCH_X86)
		return PMU__ENC_CONFIG;
	return r->len[0] >= 12 && !strncmp(r->f[0], "GenuineIntel", 12)
	       ? PMU__ENC_INTEL : PMU__ENC_AMD64;
}

/* The perf PMU that a kernel model's core events go to. */
static const char *arch_pmu(enum pmu__arch a)
{
	switch (a) {
	case PMU__ARCH_ARM64: return "armv8_pmuv3";
	case PMU__ARCH_S390: return "cpum_cf";
	default: return "cpu";
	}
}

/* Mapfile patterns are simple (classes, groups, alternation, + and *);
 * stacked or counted repetition makes regcomp's work explode, so such
 * patterns are refused before they reach it. */
static bool pattern_ok(const char *p, size_t n)
{
	int nq = 0;

	if (n > 200)
		return false;
	for (size_t i = 0; i < n; i++) {
		bool q = p[i] == '+' || p[i] == '*' || p[i] == '?';
		/* "{4}" after a class, as POWER's patterns count digits */
		if (p[i] == '{' && i && p[i - 1] == ']' && i + 2 < n &&
		    isdigit((unsigned char)p[i + 1]) && p[i + 2] == '}') {
			i += 2;
			nq++;
			continue;
		}
		if (p[i] == '{' || p[i] == '\0' || (q && i && p[i - 1] == ')'))
			return false;
		nq += q;
	}
	return nq <= 4;
}

static int add_row(struct pmu__jsondir *jd, const char *dir,
		   const char *prefix, const struct row *r)
{
	char name[JD_NAME_MAX], *path = NULL;
	bool is_dir;
	enum pmu__arch arch = row_arch(r);
	enum pmu__enc_kind kind = row_kind(r, arch);
	struct jd_model *jm;
	int rc;

	if (arch == PMU__ARCH_NONE || !field_is(r, 3, "core") || !r->len[2])
		return 0;
	if (!pattern_ok(r->f[0], r->len[0]))
		return -EINVAL;
	row_name(r, name, sizeof(name), &is_dir);
	if (!name[0])
		return 0;
	if (dir && !pmu__jd_row_exists(dir, r->f[2], r->len[2], is_dir, &path))
		return 0;
	jm = model_named(jd, name);
	if (!jm && !(jm = new_model(jd, name, kind))) {
		free(path);
		return -ENOMEM;
	}
	jm->is_dir = is_dir;
	jm->arch = arch;
	if (!jm->pmu[0])
		snprintf(jm->pmu, sizeof(jm->pmu), "%s", arch_pmu(arch));
	rc = push_str(jd, &jm->patterns, &jm->npat, r->f[0], r->len[0]);
	if (!rc)
		rc = push_row(jd, jm, r->f[0], r->len[0]);
	if (!rc) {
		char *rel = NULL;
		if (asprintf(&rel, "%s%s%.*s", prefix, *prefix ? "/" : "",
			     path ? (int)strlen(path) : (int)r->len[2],
			     path ? path : r->f[2]) < 0)
			rel = NULL;
		rc = rel ? push_str(jd, &jm->files, &jm->nfiles, rel,
				    strlen(rel)) : -ENOMEM;
		free(rel);
	}
	free(path);
	return rc;
}

int pmu__jsondir_add_map(struct pmu__jsondir *jd, const char *dir,
			 const char *text, size_t len, struct pmu_error *err)
{
	return pmu__jd_add_map_at(jd, dir, "", text, len, err);
}

int pmu__jd_add_map_at(struct pmu__jsondir *jd, const char *dir,
		       const char *prefix, const char *text, size_t len,
		       struct pmu_error *err)
{
	const char *s = text, *end = text + len;
	int lineno = 0;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		struct row r;
		int k, rc;

		lineno++;
		memset(&r, 0, sizeof(r));
		if (n && s[n - 1] == '\r')
			n--;
		if (memchr(s, '\0', n))
			return pmu__error(err, -EINVAL, PMU_ERR_SYNTAX, NULL,
					  (int)(s - text), "mapfile.csv line "
					  "%d: NUL byte", lineno);
		/* comment lines: the header of arm64's, POWER's and RISC-V's
		 * mapfiles */
		k = n && s[0] != '#' ? split_row(s, n, &r) : 0;
		if (k && !field_is(&r, 0, "Family-model")) {
			if (k < 4)
				return pmu__error(err, -EINVAL, PMU_ERR_SYNTAX,
						  NULL, (int)(s - text),
						  "mapfile.csv line %d: %d "
						  "fields, need 4", lineno, k);
			if ((rc = add_row(jd, dir, prefix, &r)) == -EINVAL)
				return pmu__error(err, rc, PMU_ERR_SYNTAX,
						  NULL, (int)(s - text),
						  "mapfile.csv line %d: CPUID "
						  "pattern too complex", lineno);
			if (rc)
				return pmu__error(err, rc, PMU_ERR_SYSTEM,
						  NULL, -1, "out of memory");
		}
		s = nl ? nl + 1 : end;
	}
	return 0;
}

int pmu__jsondir_finish(struct pmu__jsondir *jd, struct pmu_error *err)
{
	for (size_t i = 0; i < jd->n; i++) {
		int rc = pmu__jd_build(jd, jd->models[i], err);
		if (rc)
			return rc;
	}
	return 0;
}
