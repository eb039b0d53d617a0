/* SPDX-License-Identifier: MIT */
#ifndef PMU_EVENTS_CATALOG_SEED_H
#define PMU_EVENTS_CATALOG_SEED_H

/*
 * Catalog models of the processors that perfctr supported and libpfm4
 * does not (P5, P6 family, WinChip C6, VIA C3, PowerPC 60x/7xx/74xx,
 * XScale).  Their encodings are the register images a perfctr control
 * takes, so an assignment can be written as a control file directly.
 */

#include <stdbool.h>
#include <stdint.h>

#include "events/catalog.h"

enum pmu__seed_family {
	PMU__SEED_P5,      /* 16-bit CESR half: event, CPL bits, clocks bit */
	PMU__SEED_WCC6,    /* CESR half, 8-bit event only */
	PMU__SEED_VC3,     /* EVNTSEL1, 9-bit event, PMC1 only */
	PMU__SEED_P6,      /* EVNTSEL, EN only in EVNTSEL0 */
	PMU__SEED_PPC,     /* PMCnSEL field value */
	PMU__SEED_XSCALE,  /* PMNC / EVTSEL event byte */
};

struct pmu__seed_info {
	const char *name;
	enum pmu__seed_family family;
	int nctrs;               /* programmable counters (VC3: 2, PMC1 used) */
	uint8_t sel_max[6];      /* PPC: largest event number per PMC */
	uint32_t half_mask;      /* P5 family: CESR half bits the check allows */
	uint32_t ctl_max;        /* largest event number perfctr's driver
				    takes in a control (XScale: 0x0D, while
				    the simple API also counts the 80200 bus
				    events above); 0 = no such limit */
};

/* P6 EVNTSEL bits the encoder sets. */
#define PMU__P6_USR    (1u << 16)
#define PMU__P6_OS     (1u << 17)
#define PMU__P6_EDGE   (1u << 18)
#define PMU__P6_INT    (1u << 20)
#define PMU__P6_EN     (1u << 22)
#define PMU__P6_INV    (1u << 23)

/* P5 CESR half: CPL 0-2 (k) bit 6, CPL 3 (u) bit 7, count clocks bit 8. */
#define PMU__P5_CPL_OS  0x40u
#define PMU__P5_CPL_USR 0x80u
#define PMU__P5_CLOCKS  0x100u

/* The seed models (hashes built on the first call; thread-safe). */
const struct pmu__catmodel *const *pmu__seed_models(size_t *n);

/* Seed model by name (case-insensitive), or NULL. */
const struct pmu__catmodel *pmu__seed_model_find(const char *name);

/* Register-level facts of a seed model, or NULL for other models. */
const struct pmu__seed_info *pmu__seed_info(const struct pmu__catmodel *m);

/*
 * The control-register value for an encoded event placed on hardware
 * counter `ctr`: the encoding with the P6 global enable kept only on
 * counter 0 (perfctr's rule), otherwise unchanged.
 */
uint32_t pmu__seed_ctl_value(const struct pmu__seed_info *si, uint64_t code,
			     int ctr);

/* Does perfctr's driver for the model accept the encoded event in a
 * control?  (false only for XScale events above 0x0D) */
bool pmu__seed_ctl_accepts(const struct pmu__seed_info *si, uint64_t code);

/* Does counter `ctr` of the model accept event number `code`? (PPC
 * selector widths; true for the other families.) */
int pmu__seed_counter_ok(const struct pmu__seed_info *si, uint64_t code,
			 int ctr);

/* Tables generated into lib/events/tables/seed_*.c. */
#define PMU__SEED_TABLE(n) \
	const struct pmu__table *pmu__seed_table_##n(void)

PMU__SEED_TABLE(p5);
PMU__SEED_TABLE(p5mmx);
PMU__SEED_TABLE(mii);
PMU__SEED_TABLE(wcc6);
PMU__SEED_TABLE(vc3);
PMU__SEED_TABLE(p6);
PMU__SEED_TABLE(pii);
PMU__SEED_TABLE(piii);
PMU__SEED_TABLE(pentm);
PMU__SEED_TABLE(ppc604);
PMU__SEED_TABLE(ppc604e);
PMU__SEED_TABLE(ppc750);
PMU__SEED_TABLE(ppc7400);
PMU__SEED_TABLE(ppc7450);
PMU__SEED_TABLE(xscale1);
PMU__SEED_TABLE(xscale2);

#endif
