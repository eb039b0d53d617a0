/* SPDX-License-Identifier: MIT */
/* Public face of the simulated PMU models (lib/hwmodel is freestanding). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmu/model.h>

#include "hwmodel/model.h"
#include "util/cpuid.h"
#include "util/outstruct.h"

PMU_API const struct pmu_hwmodel *pmu_hwmodel_find(const char *name)
{
	const struct pmu_hwmodel *m = pmu__hwmodel_find(name);

	if (!m)
		errno = ENOENT;
	return m;
}

PMU_API size_t pmu_hwmodel_count(void)
{
	return pmu__hwmodel_count();
}

PMU_API const struct pmu_hwmodel *pmu_hwmodel_at(size_t i)
{
	return pmu__hwmodel_at(i);
}

static const char *arch_name(enum pmu_arch a)
{
	return a == PMU_ARCH_X86 ? "x86" : a == PMU_ARCH_PPC ? "ppc" : "arm";
}

static const char *tsc_name(enum pmu_tsc_kind t)
{
	static const char *const names[] = {
		[PMU_TSC_NONE] = "none", [PMU_TSC_TSC] = "tsc",
		[PMU_TSC_TBL] = "tbl",   [PMU_TSC_CCNT] = "ccnt",
	};

	return (unsigned)t < sizeof(names) / sizeof(names[0]) ? names[t] : "none";
}

PMU_API int pmu_hwmodel_info(const struct pmu_hwmodel *m,
			     struct pmu_hwmodel_info *info)
{
	struct pmu_hwmodel_info o = { .size = sizeof(o) };

	if (!m || !pmu__out_ok(info, info ? info->size : 0))
		return -EINVAL;
	o.name = m->name;
	o.desc = m->desc;
	o.arch = arch_name(m->arch);
	o.pmu_name = m->desc_name;
	o.cpu_type = m->cpu_type;
	o.features = m->features;
	o.nr_ctrs = m->nr_ctrs;
	o.ctr_width = m->ctr_width;
	o.emul_width = m->emul_width;
	o.tsc = tsc_name(m->tsc_kind);
	o.npmcs = m->nr_pmcs;
	o.npmds = m->nr_pmds;
	PMU__OUT(info, &o);
	return 0;
}

PMU_API int pmu_hwmodel_reg(const struct pmu_hwmodel *m,
			    enum pmu_hwmodel_reg_kind kind, size_t index,
			    struct pmu_hwmodel_reg *reg)
{
	struct pmu_hwmodel_reg o = { .size = sizeof(o), .index = index };
	const struct pmu_reg_desc *d;

	if (!m || !pmu__out_ok(reg, reg ? reg->size : 0))
		return -EINVAL;
	if (kind == PMU_HWMODEL_PMC && index < m->nr_pmcs)
		d = &m->pmcs[index];
	else if (kind == PMU_HWMODEL_PMD && index < m->nr_pmds)
		d = &m->pmds[index];
	else
		return -EINVAL;
	o.name = d->name;
	o.addr = d->addr;
	o.dfl_val = d->dfl_val;
	o.rsvd_msk = d->rsvd_msk;
	o.width = d->width;
	PMU__OUT(reg, &o);
	return 0;
}

static const char *intel_closest(unsigned family, unsigned model)
{
	if (family == 5)
		return model >= 4 ? "p5mmx" : "p5";
	if (family == 15)
		return model <= 1 ? "p4" : model == 2 ? "p4m2" : "p4m3";
	if (family != 6)
		return NULL;
	if (model == 1)
		return "p6";
	if (model == 3 || model == 5 || model == 6)
		return "pii";
	if (model == 7 || model == 8 || model == 10 || model == 11)
		return "piii";
	/* Pentium M and everything after it descend from the P6 core */
	return "pentm";
}

static const char *amd_closest(unsigned family)
{
	if (family == 6)
		return "k7";
	if (family == 15)
		return "k8";
	/* later families keep the four legacy counters and IBS */
	return family >= 16 ? "fam10h" : NULL;
}

PMU_API const struct pmu_hwmodel *pmu_hwmodel_host(void)
{
	const char *env = getenv("PMU_CPUID");
	const struct pmu__cpuid *id;
	char vendor[32];
	unsigned fam, mod;

	if (env && *env)
		return sscanf(env, "%31[^-]-%u-%x", vendor, &fam, &mod) == 3 ?
		       pmu_hwmodel_closest(vendor, fam, mod) : NULL;
	id = pmu__cpuid_host();
	if (!id->vendor[0] || id->family < 0 || id->model < 0)
		return NULL;
	return pmu_hwmodel_closest(id->vendor, (unsigned)id->family,
				   (unsigned)id->model);
}

PMU_API const struct pmu_hwmodel *pmu_hwmodel_closest(const char *vendor,
						    unsigned family,
						    unsigned model)
{
	const char *name = NULL;

	if (!vendor)
		return NULL;
	if (!strcmp(vendor, "GenuineIntel"))
		name = intel_closest(family, model);
	else if (!strcmp(vendor, "AuthenticAMD"))
		name = amd_closest(family);
	else if (!strcmp(vendor, "CentaurHauls"))
		name = family == 5 ? "wcc6" : family == 6 ? "vc3" : NULL;
	else if (!strcmp(vendor, "CyrixInstead"))
		name = "mii";
	return name ? pmu__hwmodel_find(name) : NULL;
}
