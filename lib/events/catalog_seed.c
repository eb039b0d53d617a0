/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <strings.h>

#include "events/catalog_seed.h"

#define MODS_P5 (PMU__MODBIT(PMU__MOD_U) | PMU__MODBIT(PMU__MOD_K))
#define MODS_P6 (MODS_P5 | PMU__MODBIT(PMU__MOD_E) | PMU__MODBIT(PMU__MOD_I) | \
		 PMU__MODBIT(PMU__MOD_C))

/* Per-counter selector widths of the PowerPC PMCs (PMC1..PMC6). */
#define PPC_MAX { 127, 63, 31, 31, 31, 63 }

static const struct pmu__seed_info infos[] = {
	{ "p5", PMU__SEED_P5, 2, { 0 }, 0x01FF, 0 },
	{ "p5mmx", PMU__SEED_P5, 2, { 0 }, 0x01FF, 0 },
	{ "mii", PMU__SEED_P5, 2, { 0 }, 0x05FF, 0 },
	{ "wcc6", PMU__SEED_WCC6, 2, { 0 }, 0x00FF, 0 },
	{ "vc3", PMU__SEED_VC3, 2, { 0 }, 0x01FF, 0 },
	{ "p6", PMU__SEED_P6, 2, { 0 }, 0, 0 },
	{ "pii", PMU__SEED_P6, 2, { 0 }, 0, 0 },
	{ "piii", PMU__SEED_P6, 2, { 0 }, 0, 0 },
	{ "pentm", PMU__SEED_P6, 2, { 0 }, 0, 0 },
	{ "ppc604", PMU__SEED_PPC, 2, PPC_MAX, 0, 0 },
	{ "ppc604e", PMU__SEED_PPC, 4, PPC_MAX, 0, 0 },
	{ "ppc750", PMU__SEED_PPC, 4, PPC_MAX, 0, 0 },
	{ "ppc7400", PMU__SEED_PPC, 4, PPC_MAX, 0, 0 },
	{ "ppc7450", PMU__SEED_PPC, 6, PPC_MAX, 0, 0 },
	/* the 80200's bus events are seed 004's too: no limit there */
	{ "xscale1", PMU__SEED_XSCALE, 2, { 0 }, 0, 0 },
	{ "xscale2", PMU__SEED_XSCALE, 4, { 0 }, 0, 0x0D },
};

#define NSEED (sizeof(infos) / sizeof(infos[0]))

static const char *const descs[NSEED] = {
	"Intel Pentium", "Intel Pentium MMX", "Cyrix 6x86MX / MII",
	"Centaur WinChip C6", "VIA C3", "Intel Pentium Pro",
	"Intel Pentium II", "Intel Pentium III", "Intel Pentium M",
	"PowerPC 604", "PowerPC 604e", "PowerPC 750",
	"PowerPC 7400/7410", "PowerPC 7450", "Intel XScale (80200)",
	"Intel XScale core 2 (PXA)",
};

/* Filled once by init_models() and read-only afterwards. */
static struct pmu__catmodel models[NSEED];
static const struct pmu__catmodel *model_ptrs[NSEED];
static uint32_t hash_slots[NSEED][512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static uint32_t model_modmsk(enum pmu__seed_family f)
{
	if (f == PMU__SEED_P6)
		return MODS_P6;
	return f == PMU__SEED_P5 ? MODS_P5 : 0;
}

static void init_models(void)
{
	/* Called, not listed in a static array: a table of pointers would
	 * need relocations at every start. */
	const struct pmu__table *const tables[NSEED] = {
		pmu__seed_table_p5(), pmu__seed_table_p5mmx(),
		pmu__seed_table_mii(), pmu__seed_table_wcc6(),
		pmu__seed_table_vc3(), pmu__seed_table_p6(),
		pmu__seed_table_pii(), pmu__seed_table_piii(),
		pmu__seed_table_pentm(), pmu__seed_table_ppc604(),
		pmu__seed_table_ppc604e(), pmu__seed_table_ppc750(),
		pmu__seed_table_ppc7400(), pmu__seed_table_ppc7450(),
		pmu__seed_table_xscale1(), pmu__seed_table_xscale2(),
	};

	for (size_t i = 0; i < NSEED; i++) {
		struct pmu__catmodel *m = &models[i];
		uint32_t size = 16;

		pmu__table_model(tables[i], m, NULL);
		m->name = infos[i].name;
		m->desc = descs[i];
		m->kind = PMU__ENC_SEED;
		m->modmsk = model_modmsk(infos[i].family);
		m->ncounters = infos[i].nctrs;
		while (size <= 2 * m->nevents && size < 512)
			size *= 2;
		if (pmu__catmodel_index(m, hash_slots[i], size) == 0) {
			m->hash = hash_slots[i];
			m->hash_size = size;
		}
		model_ptrs[i] = m;
	}
}

const struct pmu__catmodel *const *pmu__seed_models(size_t *n)
{
	pthread_once(&once, init_models);
	*n = NSEED;
	return model_ptrs;
}

const struct pmu__catmodel *pmu__seed_model_find(const char *name)
{
	size_t n;
	const struct pmu__catmodel *const *all = pmu__seed_models(&n);

	for (size_t i = 0; i < n; i++)
		if (!strcasecmp(all[i]->name, name))
			return all[i];
	return NULL;
}

const struct pmu__seed_info *pmu__seed_info(const struct pmu__catmodel *m)
{
	if (!m || m < models || m >= models + NSEED)
		return NULL;
	return &infos[m - models];
}

uint32_t pmu__seed_ctl_value(const struct pmu__seed_info *si, uint64_t code,
			     int ctr)
{
	uint32_t v = (uint32_t)code;

	if (si && si->family == PMU__SEED_P6) {
		v &= ~PMU__P6_INT;
		v = ctr == 0 ? v | PMU__P6_EN : v & ~PMU__P6_EN;
	}
	return v;
}

bool pmu__seed_ctl_accepts(const struct pmu__seed_info *si, uint64_t code)
{
	return !si || !si->ctl_max || code <= si->ctl_max;
}

int pmu__seed_counter_ok(const struct pmu__seed_info *si, uint64_t code,
			 int ctr)
{
	if (!si || ctr < 0 || ctr >= si->nctrs)
		return 0;
	if (si->family == PMU__SEED_PPC)
		return ctr < 6 && code <= si->sel_max[ctr];
	return 1;
}
