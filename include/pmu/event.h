/* SPDX-License-Identifier: MIT */
#ifndef PMU_EVENT_H
#define PMU_EVENT_H

/*
 * Model-specific event catalogs and the encoder: "[pmu::]EVENT[:UMASK...]
 * [:mod=val...]" -> raw control-register codes, a canonical full string
 * (fstr) and the perf_event_attr fields that count it.  Names, codes and
 * results follow libpfm4 so that existing event strings keep working.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <pmu/error.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMU_ENCODE_MAX_CODES 4

/* Privilege levels (default when the string gives neither u nor k). */
#define PMU_PLM_KERNEL 0x1u /* ring 0 */
#define PMU_PLM_USER   0x8u /* ring 3 */
#define PMU_PLM_HV     0x10u

struct pmu_encode_opts {
	size_t sz;              /* sizeof(struct pmu_encode_opts) */
	const char *model;      /* pmu used when the string has no "pmu::"
				   prefix; NULL = pmu_event_host_model() */
	unsigned dfl_plm;       /* PMU_PLM_* used when neither u nor k is
				   given; 0 = PMU_PLM_USER | PMU_PLM_KERNEL */
	const char *events_dir; /* directory of vendor JSON event files to
				   resolve names from at run time; NULL =
				   built-in tables only */
	unsigned flags;         /* PMU_ENCODE_* */
};
#define pmu_encode_opts__last_field flags

/* Raw register codes and fstr only: no perf_event_attr fields (has_perf
 * stays false, perf_fstr empty), and perf-only modifiers are "attr"
 * errors, as in libpfm4's raw (PFM_OS_NONE) encoding. */
#define PMU_ENCODE_RAW_ONLY 0x1u

/* The fields of struct perf_event_attr the encoding decides. */
struct pmu_encoding_perf {
	uint32_t type;
	uint64_t config, config1, config2;
	uint8_t exclude_user, exclude_kernel, exclude_hv;
	uint8_t exclude_host, exclude_guest;
	uint8_t precise_ip;
};

struct pmu_encoding {
	size_t size;            /* sizeof(struct pmu_encoding) */
	char pmu[32];           /* model name, e.g. "amd64_fam19h_zen4" */
	char event[64];         /* canonical event name */
	int ncodes;             /* raw register values in codes[] */
	uint64_t codes[PMU_ENCODE_MAX_CODES]; /* e.g. PERF_CTL (AMD, Intel);
				   ESCR then CCCR (netburst) */
	char fstr[512];         /* fully qualified string, every modifier
				   spelled out, as for raw-register use */
	char perf_fstr[512];    /* the same for perf_event use (the perf
				   modifiers: precise, excl, mg, mh...) */
	bool has_perf;          /* perf fields below are valid */
	struct pmu_encoding_perf perf;
	enum pmu_error_kind error; /* PMU_ERR_NONE, or what was wrong: the
				      same kind as the pmu_error's */
	uint64_t cntmsk;        /* counters this encoding may use: bit n =
				   generic counter n, bit 32+n = fixed
				   counter n; 0 = no constraint known */
	/* AMD IBS set-ups ("model::ibs_op:maxcnt=N"): the perf PMU that
	 * takes them (has_perf only when sysfs has it) and the period */
	char perf_pmu[32];      /* "ibs_fetch", "ibs_op"; "" for others */
	uint64_t sample_period; /* attr.sample_period; 0 = none */
};

/*
 * Encode one event.  Returns 0 and fills *out, or a negative errno
 * (-ENOENT not found, -EINVAL otherwise, -ENOMEM) with out->error set (when
 * out is non-NULL) and *err naming the offending token, its offset and near
 * names.  Case-insensitive; '.' separates like ':' ("INST_RETIRED.ANY_P");
 * boolean modifiers without a value mean =1; raw umasks "0xNN".  On AMD
 * models with IBS, "ibs_fetch:maxcnt=N[:randen]" and
 * "ibs_op:maxcnt=N[:cnt_ctl]" encode the IBS control register (see
 * pmu_ibs_setup() for the rules).  Strings of the perf event syntax that
 * no catalog holds (cpu/event=0xc0/, sched:sched_switch, r01c2) are
 * described by pmu_event_list_parse().
 */
PMU_API int pmu_event_encode(const char *str,
			     const struct pmu_encode_opts *opts,
			     struct pmu_encoding *out, struct pmu_error *err);

/*
 * One event of a perf-style event list, as the event-list parser reads
 * it: what pmu_session_add() would count, and what `pmu stat -e` does.
 */
struct pmu_event_desc {
	size_t size;            /* the array's element size: see below */
	char name[128];         /* as pmu stat prints it */
	int group;              /* group index; {a,b} share one */
	bool leader;            /* first of its group */
	char pmu[32];           /* who encodes it: a catalog model
				   ("amd64_fam19h_zen4"), a sysfs PMU
				   ("msr", "software", "tracepoint"),
				   or "hardware", "hw_cache", "raw" */
	char unit[16];          /* "msec", "ns", a sysfs .unit; "" */
	double scale;           /* count * scale is in unit */
	bool has_perf;          /* the perf fields are valid (false: an
				   event only a simulated PMU counts) */
	struct pmu_encoding_perf perf;
	uint64_t sample_period;
	uint8_t pinned, exclusive, exclude_idle, sample_read;
	bool tool;              /* duration_time, user_time, system_time:
				   the session measures it (a software
				   dummy to the kernel) */
	/* events a catalog model encoded ("zen4::RETIRED_OPS:u") */
	char event[64];         /* the model's event name; "" otherwise */
	int ncodes;
	uint64_t codes[PMU_ENCODE_MAX_CODES];
	char fstr[512];         /* the encoder's full string */
};

/*
 * Read a perf-style event list ("cycles:u,{msr/tsc/,sched:sched_switch}",
 * "sched:*", "r01c2", "zen4::RETIRED_OPS") with the event-list parser of
 * pmu_session_add().  Names without "pmu::" may also be events of
 * opts->model (NULL: pmu_event_host_model()), after the generic names;
 * opts->dfl_plm, flags and events_dir are not used.  Fills out[0..n) in
 * list order and returns the number of events in the list (larger than
 * n when out is too short; n = 0 and out = NULL only count; out = NULL
 * with n > 0 is -EINVAL), or a
 * negative errno with *err as pmu_session_add() fills it (token, byte
 * offset, message).  Set out[0].size = sizeof(struct pmu_event_desc):
 * elements are that far apart, and each is filled up to that size.
 */
PMU_API ssize_t pmu_event_list_parse(const char *list,
				     const struct pmu_encode_opts *opts,
				     struct pmu_event_desc *out, size_t n,
				     struct pmu_error *err);

/*
 * The catalog model of this host: $PMU_EVENTS_MODEL when set (a model name
 * or alias), else detected from /proc/cpuinfo, else "perf".  Never NULL.
 */
PMU_API const char *pmu_event_host_model(void);

/* ---- iteration, for listings ---- */

struct pmu_catalog_info {
	size_t size;            /* sizeof(struct pmu_catalog_info) */
	const char *name;       /* "amd64_fam19h_zen4" */
	const char *desc;       /* "AMD Zen4" */
	const char *const *aliases; /* NULL-terminated (never NULL) */
	size_t nevents;
	size_t nmodifiers;
	size_t ncounters;       /* generic counters (0 if not known) */
	size_t nfixed;          /* fixed counters */
	bool is_host;           /* pmu_event_host_model() */
	/* Models of the kernel's pmu-events tree (else NULL / 0): */
	const char *arch;       /* "x86", "arm64", "powerpc", "s390", "riscv" */
	const char *pmu;        /* perf PMU of its events: "cpu", "cpu_core",
				   "cpu_atom", "armv8_pmuv3", "cpum_cf" */
	const char *patterns;   /* the mapfile's CPU identifier patterns
				   (CPUID, MIDR, PVR...), one a line */
	const char *hybrid;     /* the other core type's model of a hybrid
				   CPU ("alderlake_atom"), or NULL */
	const char *twin;       /* the libpfm4-named model of the same CPU */
	size_t nmetrics;        /* metrics (pmu_catalog_metric_info()) */
};

enum pmu_attr_type {
	PMU_ATTR_UMASK,         /* unit mask */
	PMU_ATTR_MOD_BOOL,      /* boolean modifier (u, k, e, ...) */
	PMU_ATTR_MOD_INT,       /* integer modifier (c, thr, ldlat...) */
};

struct pmu_event_info {
	size_t size;            /* sizeof(struct pmu_event_info) */
	const char *name;
	const char *desc;       /* short description; may be "" */
	uint64_t code;          /* event select (incl. high bits) */
	uint64_t code2;         /* netburst: ESCR select; else 0 */
	uint64_t cntmsk;        /* counters it may use: bit n = generic
				   counter n, bit 32+n = fixed counter n */
	size_t nattrs;          /* umasks then modifiers */
	size_t numasks;
	bool precise;           /* supports precise sampling */
};

struct pmu_attr_info {
	size_t size;            /* sizeof(struct pmu_attr_info) */
	const char *name;
	const char *desc;
	enum pmu_attr_type type;
	uint64_t code;          /* umask value (modifiers: 0) */
	bool is_default;        /* used when no umask of its group is given */
	bool exclusive;         /* cannot be combined with other umasks */
	int group;              /* umasks of one group may combine (OR);
				   one group must be satisfied per event */
};

/*
 * The catalogs: models 0 .. pmu_catalog_count()-1 (stable per build,
 * run-time models of $PMU_EVENTS_DIR after the built-in ones), each
 * with events 0 .. nevents-1, each with attributes 0 .. nattrs-1
 * (unit masks, then modifiers).  Indices are size_t everywhere; the
 * lookups return an index, or a negative errno (ssize_t, as read(2)).
 * The info calls fill the caller's struct up to its `size` and return 0,
 * -ENOENT past the end, -EINVAL for a NULL or unsized struct.
 */
PMU_API size_t pmu_catalog_count(void);
/* A model by name or alias (case-insensitive), or -ENOENT. */
PMU_API ssize_t pmu_catalog_find(const char *name);
/* The model name or alias nearest to a mistyped `name` (for "did you
 * mean"), or NULL when none is near.  The string lives as long as the
 * process. */
PMU_API const char *pmu_catalog_suggest(const char *name);
PMU_API int pmu_catalog_info(size_t model, struct pmu_catalog_info *info);
PMU_API int pmu_catalog_event_info(size_t model, size_t event,
				   struct pmu_event_info *info);
/* An event of a model by name, or -ENOENT. */
PMU_API ssize_t pmu_catalog_event_find(size_t model, const char *name);
PMU_API int pmu_catalog_attr_info(size_t model, size_t event, size_t attr,
				  struct pmu_attr_info *info);

/*
 * The uncore events of a kernel pmu-events model (Intel's uncore boxes,
 * AMD's data fabric and L3, ...), 0 .. pmu_catalog_uncore_count()-1 in
 * name order: each is perf's event string for the PMU its unit maps to,
 * counted on every instance of that PMU ("uncore_cha" -> uncore_cha_0,
 * uncore_cha_1, ...) that sysfs lists.
 */
struct pmu_uncore_info {
	size_t size;            /* sizeof(struct pmu_uncore_info) */
	const char *name;       /* "unc_cha_clockticks", as perf lists it */
	const char *pmu;        /* "uncore_cha" */
	const char *terms;      /* "event=0x1", through the PMU's format */
	const char *scale_unit; /* "64Bytes"; "" when none */
	bool per_pkg;           /* one count per package */
	bool deprecated;        /* an old name kept for scripts */
};

PMU_API size_t pmu_catalog_uncore_count(size_t model);
PMU_API int pmu_catalog_uncore_info(size_t model, size_t i,
				    struct pmu_uncore_info *info);
/* An uncore event of a model by name (case ignored), or -ENOENT. */
PMU_API ssize_t pmu_catalog_uncore_find(size_t model, const char *name);

#ifdef __cplusplus
}
#endif
#endif
