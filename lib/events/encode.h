/* SPDX-License-Identifier: MIT */
#ifndef PMU_EVENTS_ENCODE_H
#define PMU_EVENTS_ENCODE_H

/*
 * Internals of the encoder: encode.c parses "EVENT:attr:..." against a
 * model into a request; encode_x86.c turns requests into register codes,
 * full strings and perf_event_attr fields per encoder kind.
 */

#include "events/catalog.h"

/*
 * Encode `str` ("EVENT[:...]" with no pmu prefix) for model m.  Fills out
 * (size set by the caller) and returns 0, or a negative errno with
 * out->error and *err set.  Used by pmu_event_encode() once it has picked
 * the model, and by code holding a run-time model.
 */
int pmu__encode(const struct pmu__model *m, const char *str,
		const struct pmu_encode_opts *opts, struct pmu_encoding *out,
		struct pmu_error *err);

/*
 * pmu_event_encode() with opts->events_dir: the models of that vendor
 * directory first (a "pmu::" prefix or opts->model naming one of them,
 * else the one its mapfile gives this host), else the catalog.
 */
int pmu__encode_dir(const char *dir, const char *str,
		    const struct pmu_encode_opts *opts, struct pmu_encoding *out,
		    struct pmu_error *err);

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
	const struct pmu__model *m;
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

/* Register codes, fstr and perf fields for x86 core models. */
int pmu__encode_x86(const struct pmu__enc_req *r, struct pmu_encoding *out,
		    struct pmu_error *err);

/* The same for netburst (ESCR + CCCR). */
int pmu__encode_netburst(const struct pmu__enc_req *r,
			 struct pmu_encoding *out, struct pmu_error *err);

/* Kernel models whose event code is the perf config (arm64, POWER,
 * s390, RISC-V). */
int pmu__encode_config(const struct pmu__enc_req *r, struct pmu_encoding *out,
		       struct pmu_error *err);

/* perf generic/software events and perf_raw. */
int pmu__encode_perf(const struct pmu__enc_req *r, struct pmu_encoding *out,
		     struct pmu_error *err);

/* Fill the perf fields common to every kind from the request's
 * privilege and perf modifiers; `hv` whether the event takes "h". */
void pmu__encode_perf_common(const struct pmu__enc_req *r, bool hv,
			     struct pmu_encoding *out);

/* Append the perf modifiers ":u=..:k=..[:h=..][:precise=..]:excl=..:mg=..
 * :mh=..[:hw_smpl=..]" to out->perf_fstr. */
void pmu__encode_perf_fstr(const struct pmu__enc_req *r, bool hv,
			   struct pmu_encoding *out);

/* Seed models (catalog_seed.h): the register image a perfctr control
 * takes.  On failure returns a negative errno with out->error set to the
 * class and *err (may be NULL) naming the reason. */
int pmu__seed_encode(const struct pmu__model *m, const struct pmu__event *ev,
		     const uint64_t *umask_codes, size_t nu,
		     const uint64_t *mods, uint32_t modset,
		     struct pmu_encoding *out, struct pmu_error *err);

/* Fail with class `e` (sets out->error, fills err, returns -EINVAL or
 * -ENOENT for notfound). */
int pmu__encode_fail(struct pmu_encoding *out, struct pmu_error *err,
		     enum pmu_error_kind e, const char *token,
		     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* PMU_IBS_FETCH / PMU_IBS_OP when name[0..n) is "ibs_fetch" / "ibs_op",
 * else -1: on the encoding path of every event, so the first letters
 * decide inline. */
int pmu__encode_ibs_kind_slow(const char *name, size_t n);

static inline int pmu__encode_ibs_kind(const char *name, size_t n)
{
	if ((n != 6 && n != 9) || (name[0] | 0x20) != 'i' ||
	    (name[3] != '_'))
		return -1;
	return pmu__encode_ibs_kind_slow(name, n);
}

/* An IBS set-up of kind on model m; rest is what follows the name
 * (":maxcnt=N[:randen|:cnt_ctl]").  Fills out like any encoding, plus
 * perf_pmu and sample_period. */
int pmu__encode_ibs(const struct pmu__model *m, int kind, const char *rest,
		    const struct pmu_encode_opts *opts,
		    struct pmu_encoding *out, struct pmu_error *err);

/* Fill r->eff: the given modifiers, and the default privilege levels
 * when the string gives none. */
void pmu__encode_resolve(struct pmu__enc_req *r);

/* Value of model modifier m in effect (given, or defaulted by the plm). */
static inline uint64_t pmu__encode_mod(const struct pmu__enc_req *r,
				       enum pmu__mod m)
{
	return r->eff[m];
}

/*
 * Bounded string builder over a caller buffer, always NUL-terminated;
 * output past the end is dropped.  Cheaper than snprintf on the encoding
 * path, which builds two full strings per event.
 */
struct pmu__sb {
	char *buf;
	size_t len, cap;
};

static inline void pmu__sb_init(struct pmu__sb *b, char *buf, size_t cap)
{
	b->buf = buf;
	b->len = 0;
	b->cap = cap;
	buf[0] = '\0';
}

/* Bounded copy, always NUL-terminated (sz > 0). */
void pmu__strlcpy(char *dst, const char *src, size_t sz);

/* Continue a string already in buf. */
void pmu__sb_resume(struct pmu__sb *b, char *buf, size_t cap);

/* Append n bytes of s (no NUL needed). */
static inline void pmu__sb_putn(struct pmu__sb *b, const char *s, size_t n)
{
	if (n >= b->cap - b->len)
		n = b->cap - b->len - 1;
	__builtin_memcpy(b->buf + b->len, s, n);
	b->len += n;
	b->buf[b->len] = '\0';
}

/* Append the first n (< 16) bytes of a 16-byte tag: one fixed-size copy
 * when there is room, which is the common case. */
static inline void pmu__sb_tag(struct pmu__sb *b, const char tag[16],
			       size_t n)
{
	if (b->cap - b->len > 16) {
		__builtin_memcpy(b->buf + b->len, tag, 16);
		b->len += n;
		b->buf[b->len] = '\0';
	} else {
		pmu__sb_putn(b, tag, n);
	}
}

static inline void pmu__sb_puts(struct pmu__sb *b, const char *s)
{
	pmu__sb_putn(b, s, __builtin_strlen(s));
}

static inline void pmu__sb_putc(struct pmu__sb *b, char c)
{
	pmu__sb_putn(b, &c, 1);
}

void pmu__sb_putu_slow(struct pmu__sb *b, uint64_t v);

/* Decimal; full strings mostly show single digits. */
static inline void pmu__sb_putu(struct pmu__sb *b, uint64_t v)
{
	if (v < 10 && b->len + 1 < b->cap) {
		b->buf[b->len++] = (char)('0' + v);
		b->buf[b->len] = '\0';
	} else {
		pmu__sb_putu_slow(b, v);
	}
}

void pmu__sb_putx(struct pmu__sb *b, uint64_t v);   /* 0x..., "0" for 0 */

#endif
