/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "events/jsondir_impl.h"
#include "util/error.h"
#include "util/json.h"

static int jd_add_ent(struct pmu__jsondir *jd, struct jd_model *jm, const struct jd_ent *e);

/* Intel's umask convention of the encoder: flags above the umask byte,
 * at their PERFEVTSEL position minus 8. */
#define UC_EDGE  (1ull << 10)
#define UC_ANY   (1ull << 13)
#define UC_INV   (1ull << 15)
#define UC_CMASK_SH 16

/* "0,1,2,3" -> 0xf; "Fixed counter 1" -> bit 33; others ignored. */
static uint64_t counters_of(const char *s)
{
	uint64_t m = 0;

	if (!s)
		return 0;
	if (!strncasecmp(s, "Fixed counter", 13)) {
		unsigned long n = strtoul(s + 13, NULL, 10);
		return n < 32 ? 1ull << (32 + n) : 0;
	}
	while (*s) {
		char *end;
		unsigned long n = strtoul(s, &end, 10);
		if (end == s)
			break;
		if (n < 32)
			m |= 1ull << n;
		s = *end == ',' ? end + 1 : end;
	}
	return m;
}

static bool flag_of(const struct pmu_json *o, const char *key)
{
	uint64_t v;

	return !pmu__jd_num(o, key, &v) && v;
}

/* Vendor names are short ASCII identifiers; anything else is dropped so
 * that names always round-trip through the event-string parser. */
static bool name_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= JD_EVNAME_MAX || *s == '.')
		return false;
	for (; *s; s++)
		if (!(*s == '_' || *s == '.' || *s == '-' ||
		      (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z')))
			return false;
	return s[-1] != '.';
}

static int split_name(struct pmu__jsondir *jd, const char *name,
		      struct jd_ent *e)
{
	const char *dot = strchr(name, '.');
	char *um;

	e->event = pmu__jd_strndup(jd, name, dot ? (size_t)(dot - name)
						: strlen(name));
	e->umask = NULL;
	if (!e->event)
		return -ENOMEM;
	if (!dot)
		return 0;
	if (!(um = pmu__jd_strndup(jd, dot + 1, strlen(dot + 1))))
		return -ENOMEM;
	for (char *p = um; *p; p++)
		if (*p == '.')
			*p = '_';
	e->umask = um;
	return 0;
}

static uint64_t ucode_of(const struct pmu_json *o, enum pmu__enc_kind kind,
			 int *bad)
{
	uint64_t um, cmask;

	*bad |= pmu__jd_num(o, "UMask", &um) | pmu__jd_num(o, "CounterMask", &cmask);
	if (kind != PMU__ENC_INTEL)
		return um & 0xff;
	return (um & 0xff) | (cmask & 0xff) << UC_CMASK_SH |
	       (flag_of(o, "EdgeDetect") ? UC_EDGE : 0) |
	       (flag_of(o, "Invert") ? UC_INV : 0) |
	       (flag_of(o, "AnyThread") ? UC_ANY : 0);
}

/* The companion MSRs perf gives a format term of the core PMU to
 * (offcore_rsp=, ldlat=, frontend=: config1). */
static bool known_msr(uint64_t idx)
{
	return idx == 0x1a6 || idx == 0x1a7 || idx == 0x3f6 || idx == 0x3f7;
}

/* Records that a core counter cannot express on its own: events needing
 * a companion MSR, except in the kernel's layout, whose models carry
 * the MSR value as perf does. */
static bool skip_record(const struct jd_model *jm, const struct pmu_json *o)
{
	uint64_t idx = 0, v = 0;

	pmu__jd_num(o, "MSRIndex", &idx);
	pmu__jd_num(o, "MSRValue", &v);
	if (!idx && !v)
		return false;
	return !jm->is_dir || !known_msr(idx);
}

/*
 * perf's encodings of the architectural events that vendor files give
 * as fixed-counter pseudo codes (tools/perf/pmu-events/jevents.py):
 * event select, umask, any-thread.
 */
static const struct {
	const char *name;
	uint8_t evsel, umask;
	bool any;
} fixed_events[] = {
	{ "inst_retired.any", 0xc0, 0, false },
	{ "inst_retired.any_p", 0xc0, 0, false },
	{ "cpu_clk_unhalted.ref", 0x00, 0x03, false },
	{ "cpu_clk_unhalted.thread", 0x3c, 0, false },
	{ "cpu_clk_unhalted.core", 0x3c, 0, false },
	{ "cpu_clk_unhalted.thread_any", 0x3c, 0, true },
};

static void perf_fixed(const struct jd_model *jm, const char *name,
		       struct jd_ent *e)
{
	if (!jm->is_dir || jm->m.kind != PMU__ENC_INTEL)
		return;
	for (size_t i = 0; i < sizeof(fixed_events) / sizeof(fixed_events[0]);
	     i++) {
		if (strcasecmp(name, fixed_events[i].name))
			continue;
		e->code = fixed_events[i].evsel;
		e->ucode = fixed_events[i].umask |
			   (fixed_events[i].any ? UC_ANY : 0);
		/* the fixed counter, and any programmable one */
		if (e->cntmsk >> 32 && fixed_events[i].evsel)
			e->cntmsk |= 0xffffffffull;
		return;
	}
}

/* Event code of a record: x86 EventCode (12 bits), else the whole perf
 * config: EventCode, or ConfigCode where the vendor gives the config
 * itself (RISC-V firmware events). */
static int code_of(const struct jd_model *jm, const struct pmu_json *o,
		   uint64_t *code)
{
	if (jm->m.kind == PMU__ENC_CONFIG && pmu__json_get(o, "ConfigCode"))
		return pmu__jd_num(o, "ConfigCode", code);
	if (pmu__jd_num(o, "EventCode", code))
		return -EINVAL;
	return jm->m.kind != PMU__ENC_CONFIG && *code > 0xfff ? -EINVAL : 0;
}

static int fill_ent(struct jd_model *jm, const char *what, const char *name,
		    const struct pmu_json *o, struct jd_ent *e,
		    struct pmu_error *err)
{
	const char *pe;
	int bad = code_of(jm, o, &e->code);

	e->ucode = jm->m.kind == PMU__ENC_CONFIG ? e->code
						 : ucode_of(o, jm->m.kind, &bad);
	if (bad)
		return pmu__error(err, -EINVAL, PMU_ERR_BAD_VALUE, name, -1,
				  "%s: event %s has a bad EventCode, UMask "
				  "or CounterMask", what, name);
	e->cntmsk = counters_of(pmu__jd_str(o, "Counter"));
	pe = pmu__jd_str(o, "PEBS") ? pmu__jd_str(o, "PEBS") : pmu__jd_str(o, "Precise");
	e->prec = pe && strcmp(pe, "0");
	if (pmu__json_get(o, "MSRValue") && jm->is_dir) {
		bad = pmu__jd_num(o, "MSRValue", &e->xcode);
		e->has_xcode = !bad;
	}
	perf_fixed(jm, name, e);
	return 0;
}

static int add_strings(struct pmu__jsondir *jd, const struct pmu_json *o,
		       const char *name, struct jd_ent *e)
{
	const char *brief = pmu__jd_str(o, "BriefDescription");
	const char *full = pmu__jd_str(o, "PublicDescription");

	if (split_name(jd, name, e))
		return -ENOMEM;
	if (brief)
		e->brief = brief;
	if (full)
		e->full = full;
	if ((e->brief && !(e->brief = pmu__jd_strndup(jd, e->brief,
						       strlen(e->brief)))) ||
	    (e->full && !(e->full = pmu__jd_strndup(jd, e->full,
						     strlen(e->full)))))
		return -ENOMEM;
	return 0;
}

static int push_ent(struct pmu__jsondir *jd, struct jd_model *jm,
		    const char *what, const char *name, const struct jd_ent *e,
		    struct pmu_error *err)
{
	int rc = jd_add_ent(jd, jm, e);

	if (rc == -E2BIG)
		return pmu__error(err, rc, PMU_ERR_BAD_VALUE, name, -1,
				  "%s: model %s has more than %d events; "
				  "not a vendor core event file", what,
				  jm->name, JD_MAX_ENTS);
	if (rc)
		return pmu__error(err, rc, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	return 0;
}

/* The standard record a model record names with ArchStdEvent, or an
 * error naming it. */
static int std_of(const struct pmu__jsondir *jd, enum pmu__arch arch,
		  const char *what, const char *as, const struct jd_std **std,
		  struct pmu_error *err)
{
	*std = pmu__jd_std_find(jd, arch, as);
	if (*std)
		return 0;
	return pmu__error(err, -EINVAL, PMU_ERR_UNKNOWN_EVENT, as, -1,
			  "%s: ArchStdEvent '%.64s' is not a standard event "
			  "of this architecture", what, as);
}

static int add_record(struct pmu__jsondir *jd, struct jd_model *jm,
		      const char *what, const struct pmu_json *o,
		      struct pmu_error *err)
{
	struct jd_model *model = jm;
	const char *name = pmu__jd_str(o, "EventName");
	const char *as = pmu__jd_str(o, "ArchStdEvent");
	const struct jd_std *std = NULL;
	struct jd_ent e = { 0 };
	int rc;

	if (pmu__json_get(o, "MetricName") || pmu__json_get(o, "MetricExpr"))
		return pmu__jd_add_metric_record(jd, jm, what, o, err);
	if (pmu__json_get(o, "CountersNumGeneric"))
		return pmu__jd_counters_record(jd, jm, o);
	if (!(jm = pmu__jd_unit_model(jd, jm, pmu__jd_str(o, "Unit"))))
		return jd->loading_std ? 0 :
		       pmu__jd_add_uncore(jd, model, what, o, err);
	if (as && (rc = std_of(jd, jm->arch, what, as, &std, err)))
		return rc;
	if (std && std->is_metric)
		return pmu__jd_add_metric_record(jd, jm, what, o, err);
	if (std) {
		e = std->ent;
		name = name ? name : std->name;
	} else if (!pmu__json_get(o, "EventCode") &&
		   !pmu__json_get(o, "ConfigCode") && !jm->is_dir) {
		/* the kernel's files leave out a code of 0 (fixed-counter
		 * events); Intel's always give one */
		return 0;
	}
	if (!name || skip_record(jm, o))
		return 0;
	if (!name_ok(name))
		return pmu__error(err, -EINVAL, PMU_ERR_SYNTAX, name, -1,
				  "%s: event name '%.64s' is not a plain "
				  "identifier", what, name);
	if (!std && (rc = fill_ent(jm, what, name, o, &e, err)))
		return rc;
	if (add_strings(jd, o, name, &e))
		return pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory");
	if (jd->loading_std)
		return pmu__jd_add_std(jd, name, &e, NULL) ?
		       pmu__error(err, -ENOMEM, PMU_ERR_SYSTEM, NULL, -1,
				  "out of memory") : 0;
	return push_ent(jd, jm, what, name, &e, err);
}

/* Append a record to model jm; -ENOMEM, -E2BIG past JD_MAX_ENTS. */
static int jd_add_ent(struct pmu__jsondir *jd, struct jd_model *jm,
		    const struct jd_ent *e)
{
	(void)jd;
	if (jm->nents >= JD_MAX_ENTS)
		return -E2BIG;
	if (jm->nents == jm->cap) {
		size_t cap = jm->cap ? jm->cap * 2 : 64;
		struct jd_ent *n = realloc(jm->ents, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		jm->ents = n;
		jm->cap = cap;
	}
	jm->ents[jm->nents++] = *e;
	return 0;
}

/* A kernel file is a list of records; an Intel file an object whose
 * "Events" member is that list. */
static const struct pmu_json *records_of(const struct pmu_json *root)
{
	if (root->type == PMU_JSON_ARRAY)
		return root;
	if (root->type == PMU_JSON_OBJECT) {
		const struct pmu_json *ev = pmu__json_get(root, "Events");
		if (ev && ev->type == PMU_JSON_ARRAY)
			return ev;
	}
	return NULL;
}

/* "FILE: " in front of the JSON reader's "line L, column C: ...". */
static void prefix_message(struct pmu_error *err, const char *what)
{
	size_t wl = strnlen(what, 200), ml;

	if (!err || err->size < sizeof(*err))
		return;
	ml = strnlen(err->message, sizeof(err->message) - 1);
	if (wl + 2 + ml >= sizeof(err->message))
		ml = sizeof(err->message) - wl - 3;
	memmove(err->message + wl + 2, err->message, ml);
	memcpy(err->message, what, wl);
	memcpy(err->message + wl, ": ", 2);
	err->message[wl + 2 + ml] = '\0';
}

int pmu__jsondir_add_events(struct pmu__jsondir *jd, size_t i,
			    const char *what, const char *text, size_t len,
			    struct pmu_error *err)
{
	struct pmu_json *root;
	const struct pmu_json *recs;
	int rc = 0;

	if (!jd || i >= jd->n)
		return pmu__error(err, -EINVAL, PMU_ERR_USAGE, NULL, -1,
				  "no such model");
	if (!(root = pmu__json_parse(text, len, err))) {
		int e = errno ? errno : EINVAL;
		prefix_message(err, what);
		return -e;
	}
	recs = records_of(root);
	/* The kernel's metricgroups.json: group descriptions, no records. */
	if (!recs && root->type == PMU_JSON_OBJECT && jd->models[i]->is_dir) {
		pmu__json_free(root);
		return 0;
	}
	if (!recs)
		rc = pmu__error(err, -EINVAL, PMU_ERR_SYNTAX, NULL, -1,
				"%s: neither a list of events nor an object "
				"with \"Events\"", what);
	for (size_t k = 0; !rc && k < recs->n; k++)
		if (recs->items[k]->type == PMU_JSON_OBJECT)
			rc = add_record(jd, jd->models[i], what,
					recs->items[k], err);
	pmu__json_free(root);
	return rc;
}

int pmu__jd_std_events(struct pmu__jsondir *jd, const char *what,
		       const char *text, size_t len, struct pmu_error *err)
{
	struct jd_model scratch = { .is_dir = true, .num_generic = -1,
				    .arch = jd->std_arch };
	struct pmu_json *root;
	const struct pmu_json *recs;
	int rc = 0;

	scratch.m.kind = PMU__ENC_CONFIG;
	if (!(root = pmu__json_parse(text, len, err))) {
		int e = errno ? errno : EINVAL;
		prefix_message(err, what);
		return -e;
	}
	recs = records_of(root);
	for (size_t k = 0; recs && !rc && k < recs->n; k++)
		if (recs->items[k]->type == PMU_JSON_OBJECT)
			rc = add_record(jd, &scratch, what, recs->items[k],
					err);
	pmu__json_free(root);
	return rc;
}
