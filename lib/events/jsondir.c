/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "events/jsondir_impl.h"
#include "util/error.h"

/* Everything a directory owns hangs off one list, so freeing a loaded
 * directory is one walk whatever the loader did before it failed. */
struct jd_chunk {
	struct jd_chunk *next;
	max_align_t data[];
};

void *pmu__jd_alloc(struct pmu__jsondir *jd, size_t sz)
{
	struct jd_chunk *c = calloc(1, sizeof(*c) + sz);

	if (!c)
		return NULL;
	c->next = jd->chunks;
	jd->chunks = c;
	return c->data;
}

char *pmu__jd_strndup(struct pmu__jsondir *jd, const char *s, size_t n)
{
	char *p = pmu__jd_alloc(jd, n + 1);

	if (p)
		memcpy(p, s, n);
	return p;
}

struct pmu__jsondir *pmu__jsondir_new(void)
{
	return calloc(1, sizeof(struct pmu__jsondir));
}

void pmu__jsondir_free(struct pmu__jsondir *jd)
{
	if (!jd)
		return;
	for (size_t i = 0; i < jd->n; i++)
		free(jd->models[i]->ents);
	while (jd->chunks) {
		struct jd_chunk *c = jd->chunks;
		jd->chunks = c->next;
		free(c);
	}
	free(jd->models);
	free(jd);
}

size_t pmu__jsondir_count(const struct pmu__jsondir *jd)
{
	return jd ? jd->n : 0;
}

const struct pmu__model *pmu__jsondir_model_at(const struct pmu__jsondir *jd,
					       size_t i)
{
	return jd && i < jd->n ? &jd->models[i]->m : NULL;
}

bool pmu__jd_cpuid_match(const char *pattern, const char *cpuid)
{
	size_t len = strlen(pattern) + 8;
	char *anchored = malloc(len);
	regmatch_t mt;
	regex_t re;
	bool ok = false;

	if (!anchored)
		return false;
	snprintf(anchored, len, "^(%s)", pattern);
	if (regcomp(&re, anchored, REG_EXTENDED | REG_ICASE) == 0) {
		if (regexec(&re, cpuid, 1, &mt, 0) == 0)
			ok = cpuid[mt.rm_eo] == '\0' || cpuid[mt.rm_eo] == '-';
		regfree(&re);
	}
	free(anchored);
	return ok;
}

static struct jd_model *jd_of(const struct pmu__jsondir *jd,
			      const struct pmu__model *m)
{
	for (size_t i = 0; jd && i < jd->n; i++)
		if (&jd->models[i]->m == m)
			return jd->models[i];
	return NULL;
}

const struct pmu__model *pmu__jsondir_model(const struct pmu__jsondir *jd,
					    const char *name_or_cpuid)
{
	if (!jd || !name_or_cpuid)
		return NULL;
	for (size_t i = 0; i < jd->n; i++)
		if (!strcasecmp(jd->models[i]->name, name_or_cpuid))
			return &jd->models[i]->m;
	/* Mapfile order decides, as in the kernel: first match wins. */
	for (size_t i = 0; i < jd->n; i++)
		for (size_t p = 0; p < jd->models[i]->npat; p++)
			if (pmu__jd_cpuid_match(jd->models[i]->patterns[p],
						name_or_cpuid))
				return &jd->models[i]->m;
	return NULL;
}

const char *pmu__jsondir_long_desc(const struct pmu__jsondir *jd,
				   const struct pmu__model *m,
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
	ms[jd->n++] = jm;
	return jm;
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

/* Model name of a row: the kernel layout names a directory, Intel's a
 * file "/XYZ/events/name_core.json". */
static void row_name(const struct row *r, char *name, size_t sz, bool *is_dir)
{
	const char *f = r->f[2], *b = f;
	size_t n = r->len[2];

	*is_dir = !memchr(f, '/', n) && !(n > 5 && !strncasecmp(f + n - 5,
								 ".json", 5));
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

static enum pmu__enc_kind row_kind(const struct row *r, bool *known)
{
	*known = true;
	if (r->len[0] >= 12 && !strncmp(r->f[0], "GenuineIntel", 12))
		return PMU__ENC_INTEL;
	*known = (r->len[0] >= 12 && !strncmp(r->f[0], "AuthenticAMD", 12)) ||
		 (r->len[0] >= 12 && !strncmp(r->f[0], "HygonGenuine", 12));
	return PMU__ENC_AMD64;
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
		if (p[i] == '{' || p[i] == '\0' || (q && i && p[i - 1] == ')'))
			return false;
		nq += q;
	}
	return nq <= 4;
}

static int add_row(struct pmu__jsondir *jd, const char *dir,
		   const struct row *r)
{
	char name[JD_NAME_MAX], *path = NULL;
	bool is_dir, known;
	enum pmu__enc_kind kind = row_kind(r, &known);
	struct jd_model *jm;
	int rc;

	if (!known || !field_is(r, 3, "core") || !r->len[2])
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
	rc = push_str(jd, &jm->patterns, &jm->npat, r->f[0], r->len[0]);
	if (!rc)
		rc = path ? push_str(jd, &jm->files, &jm->nfiles, path,
				     strlen(path))
			  : push_str(jd, &jm->files, &jm->nfiles, r->f[2],
				     r->len[2]);
	free(path);
	return rc;
}

int pmu__jsondir_add_map(struct pmu__jsondir *jd, const char *dir,
			 const char *text, size_t len, struct pmu_error *err)
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
		k = n ? split_row(s, n, &r) : 0;
		if (k && !field_is(&r, 0, "Family-model")) {
			if (k < 4)
				return pmu__error(err, -EINVAL, PMU_ERR_SYNTAX,
						  NULL, (int)(s - text),
						  "mapfile.csv line %d: %d "
						  "fields, need 4", lineno, k);
			if ((rc = add_row(jd, dir, &r)) == -EINVAL)
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
