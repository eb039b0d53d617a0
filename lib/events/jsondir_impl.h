/* SPDX-License-Identifier: MIT */
#ifndef PMU_EVENTS_JSONDIR_IMPL_H
#define PMU_EVENTS_JSONDIR_IMPL_H

/*
 * Layout shared by the jsondir*.c files; nothing else includes it.
 * The files call each other downwards only: jsondir_base.c (memory,
 * members, files) at the bottom; jsondir_uncore.c, jsondir_build.c,
 * jsondir.c (models and mapfile rows) above it; jsondir_metrics.c and
 * jsondir_events.c (records) beside them; jsondir_load.c (directories,
 * the entry point) on top.
 */

#include <stdbool.h>
#include <stdint.h>

#include "events/jsondir.h"
#include "util/json.h"

#define JD_NAME_MAX PMU__JSONDIR_NAME_MAX
/* Longest vendor event name (the kernel's reach 79 bytes). */
#define JD_EVNAME_MAX 128

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
	uint64_t xcode;        /* second register value (MSRValue) */
	bool has_xcode;
	bool prec;
};

/* One metric record, kept until the model is built. */
struct jd_metric {
	const char *name, *expr, *groups, *nogroup, *dflt, *unit;
	const char *desc;      /* the vendor's description */
	uint32_t flags;        /* PMU__MET_* */
};

/* An architecture standard event or metric (the arch directory's own
 * JSON files, which model records name with "ArchStdEvent"). */
struct jd_std {
	const char *name;
	enum pmu__arch arch;   /* of the directory it came from */
	struct jd_ent ent;
	bool is_metric;
	struct jd_metric met;
};

/* One uncore (non-core unit) record, kept until the model is built. */
struct jd_unc {
	const char *name;      /* lower case, as perf lists it */
	const char *terms;     /* perf's event string for it */
	const char *pmu;       /* perf PMU of its unit */
	const char *sunit;     /* ScaleUnit, or NULL */
	const char *desc;      /* the vendor's description, or NULL */
	uint32_t flags;        /* PMU__UEV_* */
};

struct jd_model {
	struct pmu__catmodel m;   /* what the catalog sees */
	char name[JD_NAME_MAX];
	char desc[160];
	const char **patterns; /* CPUID patterns of its mapfile rows */
	size_t npat;
	const char **files;    /* paths (relative to the mapfile's dir) */
	size_t nfiles;
	bool is_dir;           /* kernel layout: files are a directory */
	enum pmu__arch arch;
	char pmu[16];          /* perf PMU of its events */
	struct jd_model *atom; /* hybrid: the model of the cpu_atom events */
	struct jd_model *core; /* ... and of the atom model, its core one */
	uint32_t off_pmu, off_patterns, off_hybrid; /* pool offsets */
	struct jd_metric *mets;
	size_t nmets, mcap;
	int num_generic, num_fixed; /* counter.json, -1 when not given */
	struct jd_ent *ents;
	size_t nents, cap;
	struct pmu__event *events;
	struct pmu__umask *umasks;
	uint32_t *hash;
	char *strings;         /* pool of the names and brief descriptions */
	const char **ev_long;  /* per event / per umask full descriptions */
	const char **um_long;
	struct pmu__metric *metrics;
	const char **met_long; /* per metric: the vendor's description */
	struct jd_unc *unc;    /* uncore records */
	size_t nunc, ucap;
	const char **unc_long; /* per uncore event (name order): the
				  vendor's description */
};

struct jd_chunk;

struct jd_row {
	struct jd_model *model;
	const char *pattern;
};

struct pmu__jsondir {
	struct jd_row *rows;     /* mapfile core rows, in order */
	size_t nrows;
	struct jd_model **models;
	size_t n;
	struct jd_chunk *chunks; /* every string and array of the models */
	struct jd_std *std;      /* architecture standard events */
	size_t nstd, stdcap;
	bool loading_std;        /* the records being added are std ones */
	enum pmu__arch std_arch; /* ... of this architecture */
};

/* Add a standard event (met NULL) or metric named `name`; -ENOMEM. */
int pmu__jd_add_std(struct pmu__jsondir *jd, const char *name,
		    const struct jd_ent *e, const struct jd_metric *met);

/* A record with MetricName or MetricExpr (or an ArchStdEvent naming a
 * standard metric): a metric of jm, or of the standard set while those
 * load. */
int pmu__jd_add_metric_record(struct pmu__jsondir *jd, struct jd_model *jm,
			      const char *what, const struct pmu_json *o,
			      struct pmu_error *err);

/* counter.json's "CountersNumGeneric"/"CountersNumFixed" of a core unit. */
int pmu__jd_counters_record(struct pmu__jsondir *jd, struct jd_model *jm,
			    const struct pmu_json *o);

/* The records of one standard file (text) of an arch directory. */
int pmu__jd_std_events(struct pmu__jsondir *jd, const char *what,
		       const char *text, size_t len, struct pmu_error *err);

/* Standard event or metric by name (case-insensitive), or NULL. */
const struct jd_std *pmu__jd_std_find(const struct pmu__jsondir *jd,
				      enum pmu__arch arch, const char *name);

/* A record's string member, or NULL; a number member ("0x3C", "0xB7,
 * 0xBB" gives the first, or a JSON integer), 0 when absent, -EINVAL
 * when malformed. */
const char *pmu__jd_str(const struct pmu_json *o, const char *key);
int pmu__jd_num(const struct pmu_json *o, const char *key, uint64_t *out);

/* A record of a non-core unit ("Unit": "CHA") of model jm. */
int pmu__jd_add_uncore(struct pmu__jsondir *jd, struct jd_model *jm,
		       const char *what, const struct pmu_json *o,
		       struct pmu_error *err);

/* Build jm->m's uncore arrays from its records; -ENOMEM, -E2BIG. */
int pmu__jd_build_uncore(struct pmu__jsondir *jd, struct jd_model *jm);

/* The model records of unit `unit` go to (hybrid cpu_atom records to
 * the atom model, created on first use); NULL: not a core unit. */
struct jd_model *pmu__jd_unit_model(struct pmu__jsondir *jd,
				    struct jd_model *jm, const char *unit);

/* A regular file (want_dir: a directory) at path? */
bool pmu__jd_exists(const char *path, bool want_dir);

/* Memory owned by jd (freed with it); NULL on ENOMEM. */
void *pmu__jd_alloc(struct pmu__jsondir *jd, size_t sz);
char *pmu__jd_strndup(struct pmu__jsondir *jd, const char *s, size_t n);

/* Build jm->m from its records. */
int pmu__jd_build(struct pmu__jsondir *jd, struct jd_model *jm,
		  struct pmu_error *err);

/* Is a mapfile row's file (or directory) there?  *found = its path
 * relative to dir (malloc'd). */
int pmu__jd_row_exists(const char *dir, const char *file, size_t len,
		       bool is_dir, char **found);

/* pmu__jsondir_add_map() for the mapfile of dir, whose rows' paths
 * are stored with `prefix/` in front (a tree of arch directories). */
int pmu__jd_add_map_at(struct pmu__jsondir *jd, const char *dir,
		       const char *prefix, const char *text, size_t len,
		       struct pmu_error *err);

/* Load the standard events of an arch directory (its own *.json). */
int pmu__jd_load_std(struct pmu__jsondir *jd, const char *dir,
		     enum pmu__arch arch, struct pmu_error *err);

#endif
