/* SPDX-License-Identifier: MIT */
#ifndef PMU_EVENTS_CATALOG_H
#define PMU_EVENTS_CATALOG_H

/*
 * In-memory shape of a model's event catalog.  Built-in models are const
 * tables generated into lib/events/tables/ (scripts/gen-events.*, and
 * scripts/gen-seed-events.py for the seed models), with their name hash
 * precomputed so that using a model costs no start-up work, and without
 * pointers (struct pmu__table) so that they need no relocations; the
 * catalog turns them into struct pmu__catmodel once.  Models built at run
 * time (vendor JSON directories) fill the same structs in allocated
 * memory, call pmu__catmodel_index() once to build the hash and join the
 * registry through pmu__catalog_register().  A model is immutable once
 * published, so lookups are thread-safe without locks.  The catalog
 * calls nothing above it: the encoder, the loaders and the parser use
 * it, never the other way round.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <pmu/error.h>
#include <pmu/event.h>

/* How the encoder turns (event, umasks, modifiers) into registers. */
enum pmu__enc_kind {
	PMU__ENC_AMD64,     /* PERF_CTL: event[7:0] | umask<<8 | event[11:8]
			       <<32, USR/OS/E/INT/EN/INV/CMASK, HO/GO */
	PMU__ENC_INTEL,     /* IA32_PERFEVTSELx (architectural layout) */
	PMU__ENC_NETBURST,  /* two codes: ESCR then CCCR */
	PMU__ENC_PERF,      /* perf generic/software events: code = config,
			       event code2 = perf type */
	PMU__ENC_PERF_RAW,  /* perf_raw::rHEX */
	PMU__ENC_SEED,      /* P5/P6/PPC/XScale models: codes only, the
			       register images of pmu__seed_encode() */
	PMU__ENC_CONFIG,    /* kernel pmu-events models of arm64, POWER,
			       s390 and RISC-V: the event code is the perf
			       config as the core PMU's sysfs format lays
			       it out (event=config:0-N), u/k only */
};

/* Architecture of a kernel pmu-events model (which mapfile matching and
 * which core PMU format apply). */
enum pmu__arch {
	PMU__ARCH_NONE,     /* libpfm4 and seed models */
	PMU__ARCH_X86,
	PMU__ARCH_ARM64,
	PMU__ARCH_POWER,
	PMU__ARCH_S390,
	PMU__ARCH_RISCV,
};

/* Modifiers, as bits of a modifier mask; the names are what users type. */
enum pmu__mod {
	PMU__MOD_K = 0,      /* "k": count at privilege level 0 */
	PMU__MOD_U,          /* "u": count at privilege level 3 */
	PMU__MOD_E,          /* "e": edge detect */
	PMU__MOD_I,          /* "i": invert counter-mask comparison */
	PMU__MOD_C,          /* "c": counter mask (threshold) */
	PMU__MOD_H,          /* "h": host only (AMD) */
	PMU__MOD_G,          /* "g": guest only (AMD) */
	PMU__MOD_T,          /* "t": any thread (Intel) */
	PMU__MOD_INTX,       /* "intx": in transaction (Intel TSX) */
	PMU__MOD_INTXCP,     /* "intxcp": in checkpointed transaction */
	PMU__MOD_LDLAT,      /* "ldlat": load latency threshold */
	PMU__MOD_FE_THRES,   /* "fe_thres": front-end latency threshold */
	PMU__MOD_CMPL,       /* "cmpl": netburst complement */
	PMU__MOD_THR,        /* "thr": netburst threshold */
	PMU__MOD_NR
};

#define PMU__MODBIT(m) (1u << (m))

struct pmu__moddesc {
	char name[12];       /* arrays, not pointers: no relocations */
	char desc[48];
	bool is_int;         /* takes a value; booleans default to 1 */
	uint64_t max;        /* largest accepted value */
};

/* Descriptor of modifier m for a model of kind k (NULL if none). */
const struct pmu__moddesc *pmu__mod_desc(enum pmu__enc_kind k,
					 enum pmu__mod m);

/* Umask flags. */
#define PMU__UM_DFL   0x1u  /* default when none of its group is given */
#define PMU__UM_EXCL  0x2u  /* cannot combine with other umasks of its
			       group (libpfm "NCOMBO") */
#define PMU__UM_PREC  0x4u  /* precise-capable umask */
#define PMU__UM_RAW   0x8u  /* raw code given as 0xNN (runtime only) */
#define PMU__UM_OMIT  0x10u /* its group may be left empty (no default
			       and no umask needed from it) */
#define PMU__UM_CODE_OVR 0x20u /* Intel: code bits 7:0 replace the event
				  select, bits 8+ are the umask */
#define PMU__UM_LDLAT 0x40u /* Intel: load-latency umask, the threshold
			       goes to a second register */
#define PMU__UM_FETHR 0x80u /* Intel: front-end umask taking fe_thres */
#define PMU__UM_NOBITS 0x100u /* netburst: selected through registers
				 other than the ESCR (no event mask bit) */
#define PMU__UM_EXCL_GT 0x200u /* Intel: excludes umasks (and defaults)
				  of later groups */
#define PMU__UM_HW_C 0x800u /* Intel: its counter mask is fixed: a
				 different c= is an error (without the
				 flag, c= ORs into it, as libpfm4 does) */
#define PMU__UM_HW_I 0x1000u /* ... its invert bit */
#define PMU__UM_HW_E 0x2000u /* ... its edge bit */
#define PMU__UM_HW_T 0x4000u /* ... its any-thread bit */
#define PMU__UM_HW_TX 0x8000u /* ... its transaction bits */
#define PMU__UM_XCODE 0x400u /* kernel models: xcode is the value of the
				event's second register (offcore response,
				load latency or front-end MSR: perf's
				config1) */

/*
 * Names and descriptions are 32-bit offsets into the model's string pool
 * (pmu__catmodel.strings) rather than pointers, so that the generated tables
 * are pure read-only data: a pointer in a table of a position-independent
 * executable costs a relocation (and a copy-on-write page) at every start.
 * Offset 0 means "none" (the pool starts with an empty string).
 */
struct pmu__umask {
	uint32_t name;
	uint32_t desc;       /* short, our own words; 0 = none */
	uint32_t equiv;      /* "UMASK[:mod=val...]" it stands for (full
				strings print that), or 0 */
	uint32_t flags;      /* PMU__UM_* */
	uint64_t code;       /* value as the model's encoder takes it: AMD
			        and Intel: umask in bits 7:0, further bits
			        (Intel: inv/cmask/edge above bit 8, per
			        libpfm's ucode convention); netburst: ESCR
			        event-mask bit value; perf: config bits */
	uint64_t cntmsk;     /* counters this umask may use when narrower
				than its event's (same bits); 0 = the
				event's */
	uint8_t grp;         /* group number within its event */
	uint64_t xcode;      /* with PMU__UM_XCODE: second register value */
};

/* Event flags. */
#define PMU__EV_PREC     0x1u  /* precise (PEBS/IBS-like) sampling */
#define PMU__EV_FIXED    0x2u  /* may also count on a fixed counter */
#define PMU__EV_NO_UMASK_OK 0x4u /* no umask needed even if it has some */
#define PMU__EV_UMASK_REQ   0x8u /* a umask must be given (no default) */
#define PMU__EV_PERF_HV  0x10u /* perf_event use offers "h" (hypervisor);
				  the model's own "h" is then that one */
#define PMU__EV_HW_SMPL  0x20u /* perf_event use offers "hw_smpl" */
#define PMU__EV_XREG     0x40u /* Intel: umask bits go to a second
				  register (offcore response, front end) */
#define PMU__EV_SPLIT    0x80u /* vendor files: "EVENT.UMASK" made an
				  event EVENT_UMASK of its own because its
				  code differs from EVENT's (Intel fixed
				  counter pseudo-codes); the dotted name
				  still names it */

struct pmu__event {
	uint32_t name;       /* string pool offsets, as for umasks */
	uint32_t desc;       /* short, our own words; 0 = none */
	uint32_t equiv;      /* canonical "EVENT[:UMASK]" this one stands
				for (full strings print it), or 0 */
	uint32_t modmsk;     /* PMU__MODBIT() of accepted modifiers */
	uint32_t flags;      /* PMU__EV_* */
	uint32_t umask0;     /* index of its first umask in model->umasks */
	uint16_t numasks;
	uint8_t ngrp;        /* umask groups */
	uint16_t name_len;   /* strlen of the name (0: not known) */
	uint64_t code;       /* event select incl. high bits (AMD 11:8) */
	uint64_t code2;      /* netburst: ESCR select (CCCR); perf: type */
	uint64_t cntmsk;     /* bit n generic counter n, bit 32+n fixed */
};

/*
 * A metric of a kernel pmu-events model: perf's MetricExpr and what
 * decides how its events are grouped and its value printed.  Strings are
 * pool offsets (0 = none); descriptions are not kept.
 */
struct pmu__metric {
	uint32_t name;       /* MetricName */
	uint32_t expr;       /* MetricExpr, as the vendor file spells it */
	uint32_t groups;     /* MetricGroup: "A;B" */
	uint32_t nogroup;    /* MetricgroupNoGroup: groups that, when they
				select it, leave its events ungrouped */
	uint32_t dflt;       /* DefaultMetricgroupName */
	uint32_t unit;       /* ScaleUnit: "100%", "1GHz", "1e9ns"... */
	uint32_t flags;      /* PMU__MET_* */
};

/*
 * An uncore (or other non-core PMU) event of a kernel pmu-events model:
 * perf's event string for it, applied at use through the sysfs format of
 * each PMU instance that matches `pmu` ("uncore_cha" -> uncore_cha_0,
 * uncore_cha_1...).  Strings are offsets into the model's ustrings.
 */
struct pmu__uevent {
	uint32_t name;       /* as perf lists it: lower case */
	uint32_t terms;      /* "event=0x35,umask=0xc8177e01,..." */
	uint32_t pmu;        /* perf PMU name the unit maps to */
	uint32_t sunit;      /* ScaleUnit ("64Bytes"), 0 = none */
	uint32_t flags;      /* PMU__UEV_* */
};

#define PMU__UEV_PERPKG 0x1u  /* one count per package (PerPkg) */
#define PMU__UEV_DEPRECATED 0x2u /* kept for old names; not listed */

#define PMU__MET_NO_GROUP 0x1u  /* MetricConstraint NO_GROUP_EVENTS* */
#define PMU__MET_NO_NMI   0x2u  /* ... _NMI: ungrouped with the NMI
				   watchdog on */
#define PMU__MET_NO_SMT   0x4u  /* ... _SMT: ungrouped with SMT on */

struct pmu__catmodel {
	const char *name;          /* libpfm4 name */
	const char *desc;
	const char *const *aliases;/* NULL-terminated, may be NULL */
	enum pmu__enc_kind kind;
	uint32_t modmsk;           /* modifiers any event of it accepts */
	int ncounters, nfixed;
	uint32_t perf_type;        /* attr.type of its events (PERF_TYPE_RAW
				      for core pmus) */
	const struct pmu__event *events;
	uint32_t nevents;
	const struct pmu__umask *umasks;
	uint32_t numasks;
	/* Open-addressed hash of event names: a slot holds the event index
	 * + 1 in its low 16 bits and the top 16 bits of the name's hash
	 * above (PMU__SLOT()), 0 = empty; hash_size is a power of two >
	 * nevents.  The hash bits let a probe skip other names without
	 * touching their events. */
	const uint32_t *hash;
	uint32_t hash_size;
	const char *strings;       /* pool the offsets of events and umasks
				      point into; starts with a NUL */
	bool vendor_names;         /* built from vendor files: names keep
				      the vendor's dots ("A.B.C" is umask
				      B_C of A, or the split event A_B_C) */
	/* Models of the kernel's pmu-events layout (built-in or run-time): */
	enum pmu__arch arch;       /* PMU__ARCH_NONE for the others */
	const char *pmu;           /* perf PMU of its events: "cpu",
				      "cpu_core", "cpu_atom", "armv8_pmuv3",
				      "cpum_cf"; NULL when none */
	const char *patterns;      /* mapfile CPUID patterns, one a line */
	const char *hybrid;        /* the other core type's model of a
				      hybrid CPU ("alderlake_atom"), or NULL */
	const char *twin;          /* libpfm4 model of the same CPU, or NULL */
	const struct pmu__metric *metrics;
	uint32_t nmetrics;
	/* Vendor-name index (vendor_names models): every name as the files
	 * spell it ("EVENT.UMASK", "EVENT"), '.' read as '_', case
	 * ignored, to its event and umask: a slot holds the event index + 1
	 * in its low 16 bits and the umask index + 1 above (0: the event
	 * itself, or its DEFAULT umask); 0 = empty; vhash_size a power of
	 * two, or 0 when there is none. */
	const uint32_t *vhash;
	uint32_t vhash_size;
	/* Uncore events (kernel models): records, possibly shared with
	 * other models; this model's are ulist[0..nuncore) (indices into
	 * uev), sorted by name; uhash: open-addressed, a slot holds the
	 * position in ulist + 1, 0 = empty, uhash_size a power of two. */
	const struct pmu__uevent *uev;
	const uint16_t *ulist;
	uint32_t nuncore;
	const uint16_t *uhash;
	uint32_t uhash_size;
	const char *ustrings;
};

/* Uncore event of m named name (n bytes, case ignored), or NULL; its
 * position in m's name order, or -1. */
ssize_t pmu__uncore_pos(const struct pmu__catmodel *m, const char *name,
			size_t n);
const struct pmu__uevent *pmu__uncore_find(const struct pmu__catmodel *m,
					   const char *name, size_t n);

/* Uncore event i of m (0 .. m->nuncore), in name order. */
static inline const struct pmu__uevent *
pmu__uncore_at(const struct pmu__catmodel *m, size_t i)
{
	return i < m->nuncore ? &m->uev[m->ulist[i]] : NULL;
}

static inline const char *pmu__ustr(const struct pmu__catmodel *m, uint32_t off)
{
	return off ? m->ustrings + off : NULL;
}

/* Fill hash (size a power of two > 2 * m->nuncore... any size above
 * nuncore) for m's ulist; -E2BIG past 65534 events. */
int pmu__uncore_index(const struct pmu__catmodel *m, uint16_t *hash,
		      uint32_t size);

/* Does sysfs PMU `inst` stand for the unit's perf PMU `pmu`, as perf
 * matches them: the same name, or the name and a suffix "_N" of decimal
 * digits ("uncore_cha_12") or of more than two hex digits; a name with
 * commas ("hisi_sccl,ddrc")
 * matches an instance that starts with its first part and holds the
 * others in order ("hisi_sccl1_ddrc0"). */
bool pmu__uncore_pmu_match(const char *pmu, const char *inst);

/* perf's PMU name of a vendor file's Unit ("CHA" -> "uncore_cha",
 * "DFPMC" -> "amd_df"); NULL for the core units. */
const char *pmu__uncore_unit_pmu(const char *unit, char *buf, size_t sz);

/* String at pool offset off, or NULL for 0. */
static inline const char *pmu__str(const struct pmu__catmodel *m, uint32_t off)
{
	return off ? m->strings + off : NULL;
}

static inline const char *pmu__ev_name(const struct pmu__catmodel *m,
				       const struct pmu__event *ev)
{
	return m->strings + ev->name;
}

static inline const char *pmu__um_name(const struct pmu__catmodel *m,
				       const struct pmu__umask *u)
{
	return m->strings + u->name;
}

/*
 * A generated table as it sits in read-only data: one object holding this
 * header, then the events, umasks, name hash and string pool, which the
 * header locates by byte offsets from itself.  No pointers, hence no
 * relocations.  Tables export only a function returning their header.
 */
#define PMU__TABLE_ALIASES 4

struct pmu__table {
	uint32_t name, desc;       /* pool offsets (0 = none) */
	uint32_t aliases[PMU__TABLE_ALIASES]; /* pool offsets, 0 ends */
	uint32_t kind;             /* enum pmu__enc_kind */
	uint32_t modmsk;
	int32_t ncounters, nfixed;
	uint32_t perf_type;
	uint32_t nevents, numasks, hash_size;
	uint32_t events, umasks, hash, strings; /* offsets from the header */
	/* kernel pmu-events models (0 for the others): */
	uint32_t arch;             /* enum pmu__arch */
	uint32_t pmu, patterns, hybrid, twin; /* pool offsets */
	uint32_t nmetrics, metrics;/* metrics: offset from the header */
	uint32_t vhash_size, vhash;/* vendor-name index, offset */
};

/* Fill m from table t (pointers derived from t's address).  aliases: room
 * for PMU__TABLE_ALIASES + 1 pointers, NULL-terminated on return and used
 * by m afterwards. */
void pmu__table_model(const struct pmu__table *t, struct pmu__catmodel *m,
		      const char **aliases);

/* Little-endian 8-byte word with ASCII letters folded to lower case
 * (other bytes change too, alike on both sides of a comparison). */
static inline uint64_t pmu__name_word(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	uint64_t w = 0;

	if (n >= 8) {
		__builtin_memcpy(&w, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		w = __builtin_bswap64(w);
#endif
	} else {
		for (size_t i = 0; i < n; i++)
			w |= (uint64_t)p[i] << (8 * i);
	}
	return w | 0x2020202020202020ull;
}

/* Case-insensitive hash of n bytes, a word at a time (event lookups are
 * on the encoding path); '.' and ':' never occur in event names, so the
 * generator and the library hash identical strings. */
static inline __attribute__((always_inline)) uint32_t
pmu__name_hash(const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
	const char *end = s + n;

	if (n < 8) {
		h = (h ^ pmu__name_word(s, n)) * 0xff51afd7ed558ccdull;
	} else {
		for (; end - s >= 8; s += 8)
			h = (h ^ pmu__name_word(s, 8)) * 0xff51afd7ed558ccdull;
		/* The tail as the last 8 bytes, overlapping the previous
		 * word: one load instead of a byte loop. */
		if (s != end)
			h = (h ^ pmu__name_word(end - 8, 8)) *
			    0xff51afd7ed558ccdull;
	}
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	return (uint32_t)h;
}

#define PMU__SLOT(idx, h) \
	(((uint32_t)(idx) + 1) | ((uint32_t)(h) & 0xffff0000u))
#define PMU__SLOT_MAX_EVENTS 0xfffeu

static inline uint64_t pmu__load64(const char *p)
{
	uint64_t w;

	__builtin_memcpy(&w, p, 8);
	return w;
}

/* Slow path of pmu__name_eq_n(): ASCII case-insensitive. */
bool pmu__name_caseeq(const char *a, const char *b, size_t n);

/* n bytes at a equal n bytes at b, ignoring ASCII case; both must have n
 * readable bytes.  Names are mostly typed as the tables spell them, so an
 * exact comparison a word at a time comes first. */
static inline bool pmu__name_eq_n(const char *a, const char *b, size_t n)
{
	if (n >= 8) {
		size_t i = 0;
		for (; i + 8 <= n; i += 8)
			if (pmu__load64(a + i) != pmu__load64(b + i))
				return pmu__name_caseeq(a, b, n);
		if (i != n && pmu__load64(a + n - 8) != pmu__load64(b + n - 8))
			return pmu__name_caseeq(a, b, n);
		return true;
	}
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return pmu__name_caseeq(a, b, n);
	return true;
}

/* ---- the registry of models ---- */

/* Every model: the built-in tables, the seed models, the kernel's
 * pmu-events models, then those registered at run time, in a stable
 * order (indices never change).  Fills every model: listings of all
 * models use it; lookups of one use the calls below. */
const struct pmu__catmodel *const *pmu__catalog_models(size_t *n);

/* Number of models, and model i (filled on first use) or its name
 * (without filling it); NULL past the end. */
size_t pmu__catalog_count(void);
const struct pmu__catmodel *pmu__catalog_at(size_t i);

/* Index of a model by name or alias (case-insensitive, n bytes), or -1;
 * fills no model. */
ssize_t pmu__catalog_find_index(const char *name, size_t n);

/*
 * Add models built at run time (vendor event directories) after the
 * built-in ones.  They must outlive the process' use of the catalog.
 * One registration per process, made by their loader
 * (pmu__jsondir_env_load()); returns 0, or -EBUSY for a second one.
 * Models past the registry's room (64 in all) are left out.
 */
int pmu__catalog_register(const struct pmu__catmodel *const *ms, size_t n);

/* Model by name or alias (case-insensitive, n bytes), or NULL. */
const struct pmu__catmodel *pmu__catalog_find(const char *name, size_t n);

/* The model name or alias nearest to the n bytes at `name` (a typo of
 * it), or NULL when none is near. */
const char *pmu__catalog_suggest(const char *name, size_t n);

/* Event of a model by name (case-insensitive, n bytes), or NULL. */
const struct pmu__event *pmu__catmodel_event(const struct pmu__catmodel *m,
					  const char *name, size_t n);

/*
 * String pool of a model built at run time: pmu__strpool_add() appends s
 * (NULL gives offset 0) and returns its offset; on allocation failure or
 * overflow it returns 0 and sets `failed`.  The caller owns buf (free()).
 */
struct pmu__strpool {
	char *buf;
	size_t len, cap;
	bool failed;
};

uint32_t pmu__strpool_add(struct pmu__strpool *p, const char *s);

/*
 * Does a mapfile pattern of a model of architecture `arch` match the CPU
 * identifier `id` in perf's form (x86 "GenuineIntel-6-A7-1", arm64 MIDR
 * "0x00000000410fd0c1", POWER PVR "0x004e1202", s390
 * "IBM,3931,A01,3.7,002f", RISC-V "0x489-0x8000000000000007-0x0")?  By
 * perf's rules for that architecture.
 */
bool pmu__cpuid_pattern_match(enum pmu__arch arch, const char *pattern,
			      const char *id);

/* false when the regular expression `pattern` cannot match at the start
 * of `id` (its literal prefix differs): a filter before compiling it. */
bool pmu__pattern_may_match(const char *pattern, const char *id);

/* Architecture of a CPU identifier or mapfile pattern (n bytes) by its
 * form: x86 vendor strings, s390 "IBM", RISC-V "MVENDORID-MARCHID-
 * MIMPID", arm64 MIDR (16 hex digits), else POWER PVR "0x...". */
enum pmu__arch pmu__cpuid_arch(const char *s, size_t n);

/* "x86", "arm64", "powerpc", "s390", "riscv"; NULL for PMU__ARCH_NONE. */
const char *pmu__arch_name(enum pmu__arch a);

/*
 * A vendor name ("OCR.DEMAND_DATA_RD.ANY_RESPONSE", n bytes; '.' and '_'
 * alike, any case) of a model with a vendor-name index: its event, and
 * in *um the umask index within the event (-1: none named).  NULL when
 * the model has no such name or no index.
 */
const struct pmu__event *pmu__catmodel_vname(const struct pmu__catmodel *m,
					  const char *name, size_t n,
					  int *um);

/* Build the vendor-name index of m into slots (size a power of two
 * larger than twice the names); 0 or -EINVAL. */
int pmu__catmodel_vindex(const struct pmu__catmodel *m, uint32_t *slots,
		      uint32_t size);

/* Number of vendor names of m (the index's entries). */
uint32_t pmu__catmodel_vnames(const struct pmu__catmodel *m);

/* Umasks of an event (ev->numasks of them). */
static inline const struct pmu__umask *
pmu__event_umasks(const struct pmu__catmodel *m, const struct pmu__event *ev)
{
	return m->umasks + ev->umask0;
}

/*
 * Build the name hash of a run-time model into `slots` (caller memory,
 * `size` a power of two > m->nevents); the caller then sets m->hash and
 * m->hash_size.  Returns 0 or -EINVAL.
 */
int pmu__catmodel_index(const struct pmu__catmodel *m, uint32_t *slots,
		     uint32_t size);

#endif
