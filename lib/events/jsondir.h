/* SPDX-License-Identifier: MIT */
#ifndef PMU_EVENTS_JSONDIR_H
#define PMU_EVENTS_JSONDIR_H

/*
 * Vendor event directories read at run time: the Linux kernel's
 * pmu-events layout (mapfile.csv mapping CPUID patterns to directories of
 * JSON arrays) and Intel's perfmon layout (mapfile.csv naming JSON files
 * with a Header object and an Events list).  Each directory or core file
 * becomes one catalog model (PMU__ENC_AMD64 or PMU__ENC_INTEL) built in
 * allocated memory; "EVENT.UMASK" vendor names become event EVENT with
 * umask UMASK (further dots turn into '_'), so the encoder, the counter
 * assignment and the listings treat them like built-in tables.  The
 * vendor's full descriptions are kept for listings.
 */

#include <stddef.h>

#include "events/catalog.h"

struct pmu__jsondir;

/* Longest model name, NUL included. */
#define PMU__JSONDIR_NAME_MAX 64

/*
 * Load DIR/mapfile.csv and every core event file it names that exists
 * (rows for other CPUs' files are skipped).  Returns NULL with errno set
 * and *err naming the file (and line, column or event) on failure.
 */
struct pmu__jsondir *pmu__jsondir_load(const char *dir,
				       struct pmu_error *err);
void pmu__jsondir_free(struct pmu__jsondir *jd);

size_t pmu__jsondir_count(const struct pmu__jsondir *jd);
const struct pmu__catmodel *pmu__jsondir_model_at(const struct pmu__jsondir *jd,
					       size_t i);

/*
 * Model by name (case-insensitive) or by CPUID string in the kernel's
 * form "Vendor-Family-Model[-Stepping]" (family decimal, model hex, e.g.
 * "AuthenticAMD-25-11", "GenuineIntel-6-5E"), matched against the
 * mapfile patterns; NULL if none.
 */
const struct pmu__catmodel *pmu__jsondir_model(const struct pmu__jsondir *jd,
					    const char *name_or_cpuid);

/*
 * The vendor's full description of event `ev` of a model of jd (umask
 * index `um` of that event, or -1 for the event itself); NULL if none.
 */
/* The description of uncore event pos (name order) of a model the
 * directory built, or NULL. */
const char *pmu__jsondir_uncore_desc(const struct pmu__jsondir *jd,
				     const struct pmu__catmodel *m, size_t pos);

const char *pmu__jsondir_long_desc(const struct pmu__jsondir *jd,
				   const struct pmu__catmodel *m,
				   const struct pmu__event *ev, int um);

/* Mapfile core rows in order: pattern i and its model (*m). */
size_t pmu__jsondir_nrows(const struct pmu__jsondir *jd);
const char *pmu__jsondir_row(const struct pmu__jsondir *jd, size_t i,
			     const struct pmu__catmodel **m);

/* Where model m's files are, relative to the loaded directory (the
 * first of them; a hybrid atom model's are its core model's). */
const char *pmu__jsondir_model_path(const struct pmu__jsondir *jd,
				    const struct pmu__catmodel *m);

/* The vendor's description of metric `i` of model m, or NULL. */
const char *pmu__jsondir_metric_desc(const struct pmu__jsondir *jd,
				     const struct pmu__catmodel *m, size_t i);

/* ---- building blocks, exposed for tests and the fuzz target ---- */

struct pmu__jsondir *pmu__jsondir_new(void);

/*
 * Parse mapfile text.  With `dir` NULL no file is looked up and every
 * core row makes a model; else rows whose files are missing are skipped.
 */
int pmu__jsondir_add_map(struct pmu__jsondir *jd, const char *dir,
			 const char *text, size_t len, struct pmu_error *err);

/* Add the events of one JSON file (text) to model i; `what` names it in
 * messages. */
int pmu__jsondir_add_events(struct pmu__jsondir *jd, size_t i,
			    const char *what, const char *text, size_t len,
			    struct pmu_error *err);

/* Build the catalog form of every model (after the last add_events). */
int pmu__jsondir_finish(struct pmu__jsondir *jd, struct pmu_error *err);

/* ---- the directory named by $PMU_EVENTS_DIR, loaded once ---- */

/*
 * Load it (once) and register its models with the catalog
 * (pmu__catalog_register()): the catalog lists and finds them only
 * after this.  Entry points that look models up by name or index call
 * it first; without $PMU_EVENTS_DIR it registers nothing.
 */
void pmu__jsondir_env_load(void);

/* This host's CPUID string in the mapfile form; 0 or -ENOENT. */
int pmu__jsondir_host_cpuid(char *buf, size_t sz);

#endif
