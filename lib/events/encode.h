/* SPDX-License-Identifier: MIT */
#ifndef PMU_EVENTS_ENCODE_H
#define PMU_EVENTS_ENCODE_H

/*
 * Internals of the encoder: encode.c parses "EVENT:attr:..." against a
 * model into a request; encode_x86.c turns requests into register codes,
 * full strings and perf_event_attr fields per encoder kind.
 */

#include "events/catalog.h"
#include "events/encreq.h"
#include "events/strbuf.h"

/*
 * Encode `str` ("EVENT[:...]" with no pmu prefix) for model m.  Fills out
 * (size set by the caller) and returns 0, or a negative errno with
 * out->error and *err set.  Used by pmu_event_encode() once it has picked
 * the model, and by code holding a run-time model.
 */
int pmu__encode(const struct pmu__catmodel *m, const char *str,
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
int pmu__seed_encode(const struct pmu__catmodel *m, const struct pmu__event *ev,
		     const uint64_t *umask_codes, size_t nu,
		     const uint64_t *mods, uint32_t modset,
		     struct pmu_encoding *out, struct pmu_error *err);


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
int pmu__encode_ibs(const struct pmu__catmodel *m, int kind, const char *rest,
		    const struct pmu_encode_opts *opts,
		    struct pmu_encoding *out, struct pmu_error *err);

#endif
