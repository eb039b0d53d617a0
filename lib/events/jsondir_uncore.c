/* SPDX-License-Identifier: MIT */
/*
 * Records of non-core units (Intel's uncore boxes, AMD's data fabric and
 * L3, s390's PAI...): kept as perf's event string for the unit's PMU,
 * which perf's generator builds from the record's fields in a fixed
 * order, and applied at use through the sysfs format of each PMU
 * instance, as perf applies it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "events/jsondir_impl.h"
#include "util/error.h"

#define UNC_MAX 0xfffe /* ulist and uhash hold 16-bit positions */

/* Record field -> event term, after the code term; zero values left out. */
static const struct {
	const char *key, *term;
} fields[] = {
	{ "AnyThread", "any" },      { "PortMask", "ch_mask" },
	{ "CounterMask", "cmask" },  { "EdgeDetect", "edge" },
	{ "FCMask", "fc_mask" },     { "Invert", "inv" },
	{ "UMask", "umask" },        { "NodeType", "type" },
	{ "RdWrMask", "rdwrmask" },  { "EnAllCores", "enallcores" },
	{ "EnAllSlices", "enallslices" }, { "SliceId", "sliceid" },
	{ "ThreadMask", "threadmask" },
};

struct tbuf {
	char s[256];
	size_t n;
	bool bad;
};

static void add_term(struct tbuf *b, const char *term, uint64_t v)
{
	int k = snprintf(b->s + b->n, sizeof(b->s) - b->n, "%s%s=%#llx",
			 b->n ? "," : "", term, (unsigned long long)v);

	if (k < 0 || (size_t)k >= sizeof(b->s) - b->n)
		b->bad = true;
	else
		b->n += (size_t)k;
}

/* The code term: ConfigCode, else EventidCode, else EventCode (with
 * ExtSel above bit 8), as perf's generator picks it. */
static int code_term(const struct pmu_json *o, struct tbuf *b)
{
	uint64_t v, ext;

	if (pmu__json_get(o, "ConfigCode")) {
		if (pmu__jd_num(o, "ConfigCode", &v))
			return -EINVAL;
		add_term(b, "config", v);
		return 0;
	}
	if (pmu__json_get(o, "EventidCode")) {
		if (pmu__jd_num(o, "EventidCode", &v))
			return -EINVAL;
		add_term(b, "eventid", v);
		return 0;
	}
	if (pmu__jd_num(o, "EventCode", &v) || pmu__jd_num(o, "ExtSel", &ext))
		return -EINVAL;
	add_term(b, "event", v | ext << 8);
	return 0;
}

static int terms_of(const struct pmu_json *o, struct tbuf *b)
{
	const char *filter = pmu__jd_str(o, "Filter");

	if (code_term(o, b))
		return -EINVAL;
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		uint64_t v;

		if (pmu__jd_num(o, fields[i].key, &v))
			return -EINVAL;
		if (v)
			add_term(b, fields[i].term, v);
	}
	if (filter && *filter) {
		int k = snprintf(b->s + b->n, sizeof(b->s) - b->n, ",%s",
				 filter);
		if (k < 0 || (size_t)k >= sizeof(b->s) - b->n)
			b->bad = true;
		else
			b->n += (size_t)k;
	}
	return b->bad ? -E2BIG : 0;
}

static bool flag_of(const struct pmu_json *o, const char *key)
{
	const char *s = pmu__jd_str(o, key);

	return s && strcmp(s, "0") && strcasecmp(s, "false");
}

static char *lower_dup(struct pmu__jsondir *jd, const char *s)
{
	char *d = pmu__jd_strndup(jd, s, strlen(s));

	for (char *p = d; p && *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return d;
}

static int push_unc(struct jd_model *jm, const struct jd_unc *u)
{
	if (jm->nunc >= UNC_MAX)
		return -E2BIG;
	if (jm->nunc == jm->ucap) {
		size_t cap = jm->ucap ? jm->ucap * 2 : 64;
		struct jd_unc *n = realloc(jm->unc, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		jm->unc = n;
		jm->ucap = cap;
	}
	jm->unc[jm->nunc++] = *u;
	return 0;
}

int pmu__jd_add_uncore(struct pmu__jsondir *jd, struct jd_model *jm,
		       const char *what, const struct pmu_json *o,
		       struct pmu_error *err)
{
	const char *name = pmu__jd_str(o, "EventName");
	const char *sunit = pmu__jd_str(o, "ScaleUnit");
	const char *desc = pmu__jd_str(o, "PublicDescription");
	char pbuf[64];
	const char *pmu = pmu__uncore_unit_pmu(pmu__jd_str(o, "Unit"), pbuf,
					       sizeof(pbuf));
	struct tbuf b = { .n = 0 };
	struct jd_unc u = { 0 };
	int rc;

	if (!jm->is_dir || !name || !pmu)
		return 0;
	if (terms_of(o, &b))
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, name, -1,
				  "%s: uncore event %.64s has a malformed "
				  "code, mask or filter field", what, name);
	u.name = lower_dup(jd, name);
	u.terms = pmu__jd_strndup(jd, b.s, b.n);
	u.pmu = pmu__jd_strndup(jd, pmu, strlen(pmu));
	u.sunit = sunit ? pmu__jd_strndup(jd, sunit, strlen(sunit)) : NULL;
	if (!desc)
		desc = pmu__jd_str(o, "BriefDescription");
	u.desc = desc ? pmu__jd_strndup(jd, desc, strlen(desc)) : NULL;
	u.flags = (flag_of(o, "PerPkg") ? PMU__UEV_PERPKG : 0) |
		  (flag_of(o, "Deprecated") ? PMU__UEV_DEPRECATED : 0);
	if (!u.name || !u.terms || !u.pmu || (sunit && !u.sunit) ||
	    (desc && !u.desc))
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	rc = push_unc(jm, &u);
	if (rc == -E2BIG)
		return pmu__error(err, rc, PMU_ERR_BAD_VALUE, name, -1,
				  "%s: model %s has more than %d uncore "
				  "events", what, jm->name, UNC_MAX);
	return rc ? pmu__error(err, rc, PMU_ERR_SYSTEM, NULL, -1,
			       "out of memory") : 0;
}

static int cmp_unc(const void *a, const void *b)
{
	const struct jd_unc *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	/* a name given twice (two files): the first record stands */
	return c ? c : (x < y ? -1 : x > y);
}

/* Pool offset of s in buf (appended), or 0 for NULL. */
static uint32_t put(char *buf, size_t *len, const char *s)
{
	size_t n;

	if (!s)
		return 0;
	n = strlen(s) + 1;
	memcpy(buf + *len, s, n);
	*len += n;
	return (uint32_t)(*len - n);
}

int pmu__jd_build_uncore(struct pmu__jsondir *jd, struct jd_model *jm)
{
	struct pmu__uevent *uev;
	uint16_t *list, *hash;
	size_t need = 1, len = 1, n = 0;
	uint32_t size = 4;
	char *pool;

	if (!jm->nunc)
		return 0;
	qsort(jm->unc, jm->nunc, sizeof(*jm->unc), cmp_unc);
	for (size_t i = 0; i < jm->nunc; i++) {
		const struct jd_unc *u = &jm->unc[i];

		need += strlen(u->name) + strlen(u->terms) + strlen(u->pmu) +
			(u->sunit ? strlen(u->sunit) + 1 : 0) + 3;
	}
	while (size <= 2 * jm->nunc)
		size *= 2;
	uev = pmu__jd_alloc(jd, jm->nunc * sizeof(*uev));
	list = pmu__jd_alloc(jd, jm->nunc * sizeof(*list));
	hash = pmu__jd_alloc(jd, size * sizeof(*hash));
	pool = pmu__jd_alloc(jd, need);
	jm->unc_long = pmu__jd_alloc(jd, jm->nunc * sizeof(*jm->unc_long));
	if (!uev || !list || !hash || !pool || !jm->unc_long)
		return -ENOMEM;
	pool[0] = '\0';
	for (size_t i = 0; i < jm->nunc; i++) {
		const struct jd_unc *u = &jm->unc[i];

		if (n && !strcmp(u->name, jm->unc[i - 1].name))
			continue;
		uev[n] = (struct pmu__uevent){
			.name = put(pool, &len, u->name),
			.terms = put(pool, &len, u->terms),
			.pmu = put(pool, &len, u->pmu),
			.sunit = put(pool, &len, u->sunit),
			.flags = u->flags,
		};
		list[n] = (uint16_t)n;
		jm->unc_long[n] = u->desc;
		n++;
	}
	jm->m.uev = uev;
	jm->m.ulist = list;
	jm->m.nuncore = (uint32_t)n;
	jm->m.ustrings = pool;
	jm->m.uhash = hash;
	jm->m.uhash_size = size;
	return pmu__uncore_index(&jm->m, hash, size);
}

const char *pmu__jsondir_uncore_desc(const struct pmu__jsondir *jd,
				     const struct pmu__catmodel *m, size_t pos)
{
	for (size_t i = 0; jd && i < jd->n; i++) {
		const struct jd_model *jm = jd->models[i];

		if (&jm->m == m)
			return jm->unc_long && pos < m->nuncore ?
			       jm->unc_long[pos] : NULL;
	}
	return NULL;
}
