/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/catalog.h"

struct cpuid_facts {
	char vendor[16];
	int family, model;
};

/* Value of "key : value" in cpuinfo text (first processor only). */
static const char *field(const char *text, const char *key, char *buf,
			 size_t sz)
{
	size_t kl = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : l) {
		if (strncmp(l, key, kl) || l[kl + strspn(l + kl, " \t")] != ':')
			continue;
		const char *c = strchr(l, ':'), *e = strchr(l, '\n');
		if (!c || (e && c > e))
			return NULL;
		c += 1 + strspn(c + 1, " \t");
		size_t n = e ? (size_t)(e - c) : strlen(c);
		if (n >= sz)
			n = sz - 1;
		memcpy(buf, c, n);
		buf[n] = '\0';
		return buf;
	}
	return NULL;
}

static int parse(const char *text, struct cpuid_facts *f)
{
	char buf[64];

	if (!field(text, "vendor_id", f->vendor, sizeof(f->vendor)) ||
	    !field(text, "cpu family", buf, sizeof(buf)))
		return -1;
	f->family = atoi(buf);
	f->model = field(text, "model", buf, sizeof(buf)) ? atoi(buf) : 0;
	return 0;
}

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

const char *pmu__detect_model(const char *cpuinfo)
{
	struct cpuid_facts f;

	if (!cpuinfo || parse(cpuinfo, &f))
		return NULL;
	if (!strcmp(f.vendor, "AuthenticAMD"))
		return amd_model(f.family, f.model);
	if (!strcmp(f.vendor, "GenuineIntel"))
		return intel_model(f.family, f.model);
	return NULL;
}

static const char *host_detected = "perf";
static pthread_once_t host_once = PTHREAD_ONCE_INIT;

static void detect_host(void)
{
	char buf[8192];
	FILE *f = fopen("/proc/cpuinfo", "re");
	size_t n;
	const char *m;

	if (!f)
		return;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	m = pmu__detect_model(buf);
	if (m)
		host_detected = m;
}

PMU_API const char *pmu_event_host_model(void)
{
	const char *env = getenv("PMU_EVENTS_MODEL");

	if (env && *env) {
		const struct pmu__model *m = pmu__catalog_find(env, strlen(env));
		if (m)
			return m->name;
	}
	pthread_once(&host_once, detect_host);
	return host_detected;
}
