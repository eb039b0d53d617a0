/* SPDX-License-Identifier: MIT */
#ifndef PMU_EVENTS_JSONDIR_IMPL_H
#define PMU_EVENTS_JSONDIR_IMPL_H

/* Layout shared by the jsondir*.c files; nothing else includes it. */

#include <stdbool.h>
#include <stdint.h>

#include "events/jsondir.h"

#define JD_NAME_MAX PMU__JSONDIR_NAME_MAX

/* Records per model.  Vendor core files hold well under 2000; building
 * a model is quadratic in its records and an event's umask count is 16
 * bits, so a larger "vendor file" is refused rather than left to grind. */
#define JD_MAX_ENTS 8192

/* One vendor record, kept until the model is built. */
struct jd_ent {
	const char *event;     /* part before the first '.' */
	const char *umask;     /* the rest ('.' -> '_'), NULL if none */
	const char *brief;     /* short vendor description, may be NULL */
	const char *full;      /* long one (falls back to brief) */
	uint64_t code;         /* event select */
	uint64_t ucode;        /* umask code in the encoder's convention */
	uint64_t cntmsk;       /* from "Counter"; 0 = not given */
	bool prec;
};

struct jd_model {
	struct pmu__model m;   /* what the catalog sees */
	char name[JD_NAME_MAX];
	char desc[160];
	const char **patterns; /* CPUID patterns of its mapfile rows */
	size_t npat;
	const char **files;    /* paths (relative to the mapfile's dir) */
	size_t nfiles;
	bool is_dir;           /* kernel layout: files are a directory */
	struct jd_ent *ents;
	size_t nents, cap;
	struct pmu__event *events;
	struct pmu__umask *umasks;
	uint32_t *hash;
	char *strings;         /* pool of the names and brief descriptions */
	const char **ev_long;  /* per event / per umask full descriptions */
	const char **um_long;
};

struct jd_chunk;

struct pmu__jsondir {
	struct jd_model **models;
	size_t n;
	struct jd_chunk *chunks; /* every string and array of the models */
};

/* Memory owned by jd (freed with it); NULL on ENOMEM. */
void *pmu__jd_alloc(struct pmu__jsondir *jd, size_t sz);
char *pmu__jd_strndup(struct pmu__jsondir *jd, const char *s, size_t n);

/* Append a record to model jm; -ENOMEM, -E2BIG past JD_MAX_ENTS. */
int pmu__jd_add_ent(struct pmu__jsondir *jd, struct jd_model *jm,
		    const struct jd_ent *e);

/* Build jm->m from its records. */
int pmu__jd_build(struct pmu__jsondir *jd, struct jd_model *jm,
		  struct pmu_error *err);

/* Is a mapfile row's file (or directory) there?  *found = its path
 * relative to dir (malloc'd). */
int pmu__jd_row_exists(const char *dir, const char *file, size_t len,
		       bool is_dir, char **found);

/* Does a mapfile pattern match a CPUID string (anchored at the start,
 * ending at the end of the string or at a '-')? */
bool pmu__jd_cpuid_match(const char *pattern, const char *cpuid);

#endif
