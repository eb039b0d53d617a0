/* SPDX-License-Identifier: MIT */
#ifndef PMU_MODEL_H
#define PMU_MODEL_H

/*
 * Simulated PMU models ("hwmodels": p5, p6, k8, p4, ppc750, xscale1, ...)
 * and perfctr-style control validation against them.
 *
 * A hwmodel describes a historical CPU's PMU as perfctr drove it (counters,
 * control rules) and as perfmon2 described it (PMC/PMD registers).  A
 * control is perfctr's per-CPU control (tsc_on, nractrs, nrictrs,
 * pmc_map, evntsel, ireset, P4 and PPC extras), read from the JSON format
 * of pmu-check(1) / docs/control-format.md.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pmu/error.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pmu_hwmodel;    /* opaque, static: never freed */
struct pmu_control;  /* opaque, from pmu_control_parse/load */

/* Model by exact name, or NULL (errno = ENOENT). */
PMU_API const struct pmu_hwmodel *pmu_hwmodel_find(const char *name);
/* Models in name order: 0 .. pmu_hwmodel_count()-1; NULL past the end. */
PMU_API size_t pmu_hwmodel_count(void);
PMU_API const struct pmu_hwmodel *pmu_hwmodel_at(size_t i);

struct pmu_hwmodel_info {
	size_t size;            /* sizeof(struct pmu_hwmodel_info) */
	const char *name;       /* "p6" */
	const char *desc;       /* one line */
	const char *arch;       /* "x86", "ppc", "arm" */
	const char *pmu_name;   /* perfmon2 pmu_desc model name */
	unsigned cpu_type;      /* perfctr cpu_type in the arch's numbering */
	unsigned features;      /* perfctr: RDPMC 1, RDTSC 2, PCINT 4 */
	unsigned nr_ctrs;       /* programmable counters */
	unsigned ctr_width;     /* real counter width, bits */
	unsigned emul_width;    /* perfmon2 64-bit emulation width, 0 = none */
	const char *tsc;        /* "tsc", "tbl", "ccnt" or "none" */
	unsigned npmcs, npmds;  /* logical PMU registers */
};

PMU_API int pmu_hwmodel_info(const struct pmu_hwmodel *m,
			     struct pmu_hwmodel_info *info);

enum pmu_hwmodel_reg_kind {
	PMU_HWMODEL_PMC = 0,    /* configuration registers */
	PMU_HWMODEL_PMD = 1,    /* data registers (counters, IBS data) */
};

/* One perfmon2 pmu_desc register (sysfs pmcN/pmdN). */
struct pmu_hwmodel_reg {
	size_t size;            /* sizeof(struct pmu_hwmodel_reg) */
	size_t index;
	const char *name;
	uint32_t addr;          /* MSR, SPR, or CP14 (CRn << 8 | CRm) */
	uint64_t dfl_val;
	uint64_t rsvd_msk;      /* set bit = reserved */
	unsigned width;         /* counters only, else 0 */
};

/* Fill *reg with register `index` of `kind`; -EINVAL past the end. */
PMU_API int pmu_hwmodel_reg(const struct pmu_hwmodel *m,
			    enum pmu_hwmodel_reg_kind kind, size_t index,
			    struct pmu_hwmodel_reg *reg);

/*
 * The simulated model closest to a CPU given by CPUID vendor string
 * ("GenuineIntel", "AuthenticAMD", ...), family and model; NULL if none
 * is meaningfully close.
 */
PMU_API const struct pmu_hwmodel *pmu_hwmodel_closest(const char *vendor,
						    unsigned family,
						    unsigned model);

/*
 * The simulated model closest to this host's CPU, or NULL: as
 * pmu_hwmodel_closest(), with $PMU_CPUID ("Vendor-Family-Model[-...]",
 * family decimal, model hex) standing for the host as it does for the
 * event catalog.
 */
PMU_API const struct pmu_hwmodel *pmu_hwmodel_host(void);

/* Parse a control (JSON text of `len` bytes) or load it from a file.
 * NULL + errno on failure, *err names the field (and index). */
PMU_API struct pmu_control *pmu_control_parse(const char *text, size_t len,
					      struct pmu_error *err);
PMU_API struct pmu_control *pmu_control_load(const char *path,
					     struct pmu_error *err);
PMU_API void pmu_control_free(struct pmu_control *c);

/* Outcome of pmu_control_check. */
struct pmu_check_result {
	size_t size;            /* sizeof(struct pmu_check_result) */
	bool ok;
	int code;               /* 0 or a negative errno (-EINVAL, -EPERM) */
	char rule[48];          /* stable rule id, "ok" on success */
	int counter;            /* virtual counter index, -1 if none */
	char field[32];         /* offending field ("evntsel"), "" if none */
	uint32_t value;         /* its value */
	char message[160];
	uint32_t cstatus;       /* perfctr cstatus (0 when rejected) */
};

/*
 * Validate a control as perfctr's update_control would on model `m`
 * (is_global taken from the control).  Returns 0 if accepted, else the
 * negative errno perfctr returns; *res explains either way.
 */
PMU_API int pmu_control_check(const struct pmu_hwmodel *m,
			      const struct pmu_control *c,
			      struct pmu_check_result *res);

#ifdef __cplusplus
}
#endif
#endif
