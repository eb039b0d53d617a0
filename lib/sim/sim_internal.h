/* SPDX-License-Identifier: MIT */
#ifndef PMU_SIM_SIM_INTERNAL_H
#define PMU_SIM_SIM_INTERNAL_H

/* Shared between the simulator core files; not for extensions. */

#include "sim/sim.h"

static inline uint32_t pmu__sim_hash(uint32_t key)
{
	return (key * 0x9E3779B1u) >> (32 - PMU_SIM_HASH_BITS);
}

/* ESCR MSR for P4 counter `hw` and ESCR_SELECT `sel`, 0 if the model has
 * no such ESCR (IQ_ESCR0/1 exist only on models <= 2). */
uint32_t pmu__sim_p4_escr_addr(const struct pmu__sim *s, unsigned hw,
			       unsigned sel);

/* Does the model auto-mask LVTPC when it delivers a PMI (P4, Pentium M)? */
bool pmu__sim_lvtpc_automask(const struct pmu__sim *s);

#endif
