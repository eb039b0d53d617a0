/* SPDX-License-Identifier: MIT */
#ifndef PMU_EVENTS_ENCREQ_H
#define PMU_EVENTS_ENCREQ_H

/*
 * What the encoder's front (encode.c) hands each kind's encoder
 * (encode_x86.c, encode_perf.c...): the request, its modifiers in
 * effect, and the one way to fail.  Below both, so that the encoders
 * never call back into the front.
 */

#include <stdarg.h>

#include "events/catalog.h"

#define PMU__ENC_MAX_UMASKS 64
#define PMU__ENC_MAX_SEQ 64

/* One attribute of a string, in the order given, umask aliases spelled
 * out: libpfm4 finds a repeated attribute in this list (kind 0 a umask,
 * 1 a model modifier, 2 a perf modifier). */
struct pmu__enc_attr {
	uint8_t kind;
	uint16_t id;
	uint64_t v;
};

/* Modifiers understood by the perf_event layer on top of a model's own. */
enum pmu__pmod {
	PMU__PMOD_U, PMU__PMOD_K, PMU__PMOD_H, PMU__PMOD_PRECISE,
	PMU__PMOD_EXCL, PMU__PMOD_MG, PMU__PMOD_MH, PMU__PMOD_HW_SMPL,
	PMU__PMOD_NR
};

struct pmu__enc_req {
	const struct pmu__catmodel *m;
	const struct pmu__event *ev;
	uint16_t um[PMU__ENC_MAX_UMASKS]; /* chosen umasks, event-relative,
					     in the event's table order */
	int nu;
	bool has_raw;                     /* 0xNN umask given */
	uint64_t raw;
	uint64_t mod[PMU__MOD_NR];        /* model modifier values */
	uint32_t modset;                  /* PMU__MODBIT of given ones */
	uint64_t pmod[PMU__PMOD_NR];      /* perf modifier values */
	uint32_t pmodset;
	unsigned dfl_plm;
	int equiv_depth;                  /* umask aliases being expanded */
	/* Errors libpfm4 reports only once every attribute has parsed: an
	 * attribute set twice to different values, then a value out of its
	 * range (kind 0: none; the texts below say which). */
	enum pmu_error_kind late;
	uint64_t late_max;
	bool perf_late;                   /* a perf modifier out of range,
					     reported after the encoding */
	bool raw_only;                    /* PMU_ENCODE_RAW_ONLY */
	int nseq;                         /* seq[] entries */
	uint64_t eff[PMU__MOD_NR];        /* modifiers in effect, defaults
					     resolved (pmu__encode_resolve) */
	struct pmu__enc_attr seq[PMU__ENC_MAX_SEQ]; /* the attributes as
							given, nseq of them */
	/* Past the part cleared per encoding: written when late or
	 * perf_late is set, read only then. */
	char late_tok[64];                /* the attribute as written */
	char late_name[64];               /* its name */
	char perf_late_tok[64];
};

/* Name of the request's event. */
static inline const char *pmu__req_name(const struct pmu__enc_req *r)
{
	return pmu__ev_name(r->m, r->ev);
}

/* The umasks libpfm4 keeps twice once its pass over the attributes has
 * removed repeats (it steps past the attribute after a removed one):
 * their indexes into ids (at most max), their number returned.  Such a
 * umask counts twice in its group, and a full string names it twice. */
int pmu__enc_kept_twice(const struct pmu__enc_req *r, uint16_t *ids, int max);

/* How many times a full string names umask um: once, and once more for
 * each time it is among the `na` of `again` (pmu__enc_kept_twice()). */
static inline int pmu__enc_named(const uint16_t *again, int na, uint16_t um)
{
	int n = 1;

	for (int k = 0; k < na; k++)
		n += again[k] == um;
	return n;
}

/* Fail with class `e` (sets out->error, fills err, returns -EINVAL or
 * -ENOENT for notfound). */
int pmu__encode_fail(struct pmu_encoding *out, struct pmu_error *err,
		     enum pmu_error_kind e, const char *token,
		     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Fill r->eff: the given modifiers, and the default privilege levels
 * when the string gives none. */
void pmu__encode_resolve(struct pmu__enc_req *r);

/* Value of model modifier m in effect (given, or defaulted by the plm). */
static inline uint64_t pmu__encode_mod(const struct pmu__enc_req *r,
				       enum pmu__mod m)
{
	return r->eff[m];
}

#endif
