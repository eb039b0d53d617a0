/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "events/catalog.h"
#include "events/catalog_kernel.h"
#include "events/detect.h"
#include "events/jsondir.h"
#include "util/cpuid.h"

static const char *amd_model(int fam, int mod)
{
	switch (fam) {
	case 6:
		return "amd64_k7";
	case 15:
		/* Revision C and later parts count the same events as far as
		 * a catalog can tell without the stepping; the oldest is the
		 * safe choice for B, the newest for the rest. */
		return mod < 0x10 ? "amd64_k8_revb" : "amd64_k8_revg";
	case 0x10:
		return "amd64_fam10h_barcelona";
	case 0x17:
		return mod < 0x30 ? "amd64_fam17h_zen1" : "amd64_fam17h_zen2";
	case 0x19:
		/* Zen4 parts: 10h-1Fh (Genoa, incl. this family's 11h),
		 * 60h-7Fh, A0h-AFh; the rest of the family is Zen3. */
		if ((mod >= 0x10 && mod <= 0x1f) || (mod >= 0x60 && mod <= 0x7f) ||
		    (mod >= 0xa0 && mod <= 0xaf))
			return "amd64_fam19h_zen4";
		return "amd64_fam19h_zen3";
	}
	return NULL;
}

static const char *intel_model(int fam, int mod)
{
	static const struct { int model; char name[4]; } fam6[] = {
		{ 0x4e, "skl" }, { 0x5e, "skl" }, { 0x8e, "skl" },
		{ 0x9e, "skl" }, { 0xa5, "skl" }, { 0xa6, "skl" },
		{ 0x55, "skl" }, { 0x7d, "icl" }, { 0x7e, "icl" },
		{ 0x6a, "icl" }, { 0x6c, "icl" }, { 0x8f, "spr" },
		{ 0xcf, "spr" },
	};

	if (fam == 15)
		return mod >= 3 ? "netburst_p" : "netburst";
	if (fam != 6)
		return NULL;
	for (size_t i = 0; i < sizeof(fam6) / sizeof(fam6[0]); i++)
		if (fam6[i].model == mod)
			return fam6[i].name;
	return NULL;
}

/* Catalog model of an identity: x86 vendor, family and model. */
static const char *model_of(const struct pmu__cpuid *id)
{
	int model = id->model < 0 ? 0 : id->model;

	if (id->family < 0)
		return NULL;
	if (!strcmp(id->vendor, "AuthenticAMD"))
		return amd_model(id->family, model);
	if (!strcmp(id->vendor, "GenuineIntel"))
		return intel_model(id->family, model);
	return NULL;
}

static enum pmu__arch arch_of(const char *name)
{
	static const enum pmu__arch all[] = {
		PMU__ARCH_X86, PMU__ARCH_ARM64, PMU__ARCH_POWER,
		PMU__ARCH_S390, PMU__ARCH_RISCV,
	};

	for (size_t i = 0; name && i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(pmu__arch_name(all[i]), name))
			return all[i];
	return PMU__ARCH_NONE;
}

/*
 * The kernel's model for a CPU identifier of architecture `arch`: the
 * first mapfile row that matches, as perf picks it (the index holds the
 * rows, so no model's table is read).
 */
const char *pmu__detect_kernel(const char *arch, const char *id)
{
	const struct pmu__krow *rows;
	const char *pats;
	enum pmu__arch a = arch_of(arch);
	size_t n = pmu__ktable_rows(&rows, &pats);

	if (a == PMU__ARCH_NONE || !id || !*id)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (rows[i].arch == a &&
		    pmu__cpuid_pattern_match(a, pats + rows[i].pattern, id))
			return pmu__ktable_name(rows[i].model);
	return NULL;
}

const char *pmu__detect_model(const char *cpuinfo)
{
	struct pmu__cpuid id;

	if (!cpuinfo || pmu__cpuid_parse(cpuinfo, &id))
		return NULL;
	return model_of(&id);
}

static const char *host_detected = "perf";
static pthread_once_t host_once = PTHREAD_ONCE_INIT;

/* The kernel's mapfiles first (their names are perf's); CPUs they do
 * not know (K7, K8, family 10h, Pentium 4) by the libpfm4 tables. */
static void detect_host(void)
{
	const struct pmu__cpuid *id = pmu__cpuid_host();
	const char *env = getenv("PMU_CPUID");
	const char *m;

	/* $PMU_CPUID stands for the host's identifier, as PERF_CPUID does
	 * for perf: its form says its architecture. */
	if (env && *env) {
		m = pmu__detect_kernel(pmu__arch_name(pmu__cpuid_arch(
					  env, strlen(env))), env);
		if (m)
			host_detected = m;
		return;
	}
	m = pmu__detect_kernel(id->arch, id->perf_id);

	if (!m)
		m = model_of(id);
	if (m)
		host_detected = m;
}

PMU_API const char *pmu_event_host_model(void)
{
	const char *env = getenv("PMU_EVENTS_MODEL");

	if (env && *env) {
		const struct pmu__catmodel *m;

		/* $PMU_EVENTS_MODEL may name a model of $PMU_EVENTS_DIR. */
		pmu__jsondir_env_load();
		m = pmu__catalog_find(env, strlen(env));
		if (m)
			return m->name;
	}
	pthread_once(&host_once, detect_host);
	return host_detected;
}
