/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cpuid.h"

/* The first processor's lines are well within this; the rest of a large
 * machine's cpuinfo repeats them for every CPU. */
#define CPUINFO_MAX (32 * 1024)

#define MIDR_PATH "/sys/devices/system/cpu/cpu0/regs/identification/midr_el1"

/* MIDR_EL1 fields, for identities assembled from cpuinfo. */
#define MIDR_IMPL_SH 24
#define MIDR_VAR_SH  20
#define MIDR_ARCH    (0xfull << 16)   /* "see the CPUID scheme": ARMv7+ */
#define MIDR_PART_SH 4

/* Value of the first "key<blanks>: value" line of text, or NULL.  A key
 * must be followed by blanks and ':' ("model" is not "model name"). */
static const char *field(const char *text, const char *key, char *buf,
			 size_t sz)
{
	size_t kl = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : l) {
		const char *c = l + kl, *e;
		size_t n;

		if (strncmp(l, key, kl))
			continue;
		c += strspn(c, " \t");
		if (*c != ':')
			continue;
		c += 1 + strspn(c + 1, " \t");
		e = strchr(c, '\n');
		n = e ? (size_t)(e - c) : strlen(c);
		if (n >= sz)
			n = sz - 1;
		memcpy(buf, c, n);
		buf[n] = '\0';
		return buf;
	}
	return NULL;
}

/* Decimal field value (as atoi reads it), or -1 when there is none. */
static int int_field(const char *text, const char *key)
{
	char buf[32];

	return field(text, key, buf, sizeof(buf)) ? atoi(buf) : -1;
}

/* Hexadecimal ("0x41") or decimal field value; false when none. */
static bool num_field(const char *text, const char *key, uint64_t *v)
{
	char buf[32];

	if (!field(text, key, buf, sizeof(buf)))
		return false;
	*v = strtoull(buf, NULL, 0);
	return true;
}

/* Any "flags" line naming "hypervisor", as x86 kernels print it. */
static bool has_hypervisor(const char *text)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : l) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) : strlen(l);

		if (!strncmp(l, "flags", 5) && memmem(l, n, " hypervisor", 11))
			return true;
	}
	return false;
}

/* arm64 cpuinfo: "CPU implementer : 0x41", "CPU part : 0xd0c"... */
static uint64_t arm_midr(const char *text)
{
	uint64_t impl, part, var = 0, rev = 0;

	if (!num_field(text, "CPU implementer", &impl) ||
	    !num_field(text, "CPU part", &part))
		return 0;
	num_field(text, "CPU variant", &var);
	num_field(text, "CPU revision", &rev);
	return (impl & 0xff) << MIDR_IMPL_SH | (var & 0xf) << MIDR_VAR_SH |
	       MIDR_ARCH | (part & 0xfff) << MIDR_PART_SH | (rev & 0xf);
}

/* POWER cpuinfo: "revision : 2.2 (pvr 004e 1202)". */
static uint32_t power_pvr(const char *text)
{
	char buf[64];
	const char *p;
	unsigned hi, lo;

	if (!field(text, "revision", buf, sizeof(buf)) ||
	    !(p = strstr(buf, "(pvr ")) ||
	    sscanf(p, "(pvr %x %x)", &hi, &lo) != 2)
		return 0;
	return (uint32_t)(hi & 0xffff) << 16 | (lo & 0xffff);
}

/* RISC-V cpuinfo: "mvendorid : 0x489", "marchid : 0x8...", "mimpid". */
static bool riscv_id(const char *text, char *buf, size_t sz)
{
	char v[32], a[32], i[32];

	if (!field(text, "mvendorid", v, sizeof(v)) ||
	    !field(text, "marchid", a, sizeof(a)) ||
	    !field(text, "mimpid", i, sizeof(i)))
		return false;
	snprintf(buf, sz, "%s-%s-%s", v, a, i);
	return true;
}

/* The identifier perf builds on each architecture (header.c there). */
static void perf_id(const char *text, struct pmu__cpuid *id)
{
	char *b = id->perf_id;
	size_t sz = sizeof(id->perf_id);

	if (id->vendor[0] && id->family >= 0 && id->model >= 0) {
		snprintf(id->arch, sizeof(id->arch), "x86");
		if (id->stepping >= 0)
			snprintf(b, sz, "%s-%d-%X-%X", id->vendor, id->family,
				 (unsigned)id->model, (unsigned)id->stepping);
		else
			snprintf(b, sz, "%s-%d-%X", id->vendor, id->family,
				 (unsigned)id->model);
	} else if (id->midr) {
		snprintf(id->arch, sizeof(id->arch), "arm64");
		snprintf(b, sz, "0x%016llx", (unsigned long long)id->midr);
	} else if (id->pvr) {
		snprintf(id->arch, sizeof(id->arch), "powerpc");
		snprintf(b, sz, "0x%08x", (unsigned)id->pvr);
	} else if (riscv_id(text, b, sz)) {
		snprintf(id->arch, sizeof(id->arch), "riscv");
	}
}

/*
 * s390: the identifier from /proc/sysinfo ("Manufacturer:", "Type:",
 * "Model:") and /proc/service_levels (the CPU-MF counter facility's
 * version and authorization) texts; either may be NULL.  Fills
 * id->perf_id and id->arch; 0 or -ENOENT.
 */
static int cpuid_s390(const char *sysinfo, const char *levels,
		    struct pmu__cpuid *id)
{
	char man[32] = "", type[16] = "", model[64] = "", *m = model, *save;
	unsigned maj = 0, min = 0, auth = 0;
	const char *cf;

	if (!sysinfo || !field(sysinfo, "Manufacturer", man, sizeof(man)) ||
	    !field(sysinfo, "Type", type, sizeof(type)))
		return -ENOENT;
	/* "Model: 704  A01": the model identifier is its last word */
	field(sysinfo, "Model", model, sizeof(model));
	for (char *w = strtok_r(model, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save))
		m = w;
	cf = levels ? strstr(levels, "CPU-MF: Counter facility: version=")
		    : NULL;
	if (cf)
		sscanf(cf, "CPU-MF: Counter facility: version=%u.%u "
		       "authorization=%x", &maj, &min, &auth);
	snprintf(id->arch, sizeof(id->arch), "s390");
	snprintf(id->perf_id, sizeof(id->perf_id), "%s,%s,%s,%u.%u,%04x",
		 man, type, m, maj, min, auth);
	return 0;
}

static void clear(struct pmu__cpuid *id)
{
	memset(id, 0, sizeof(*id));
	id->family = id->model = id->stepping = -1;
}

int pmu__cpuid_parse(const char *text, struct pmu__cpuid *id)
{
	clear(id);
	if (!text)
		return -ENOENT;
	/* Other architectures use "model" for other things (POWER: the
	 * machine), so the x86 numbers count only beside a vendor_id. */
	if (field(text, "vendor_id", id->vendor, sizeof(id->vendor))) {
		id->family = int_field(text, "cpu family");
		id->model = int_field(text, "model");
		id->stepping = int_field(text, "stepping");
	}
	if (!field(text, "model name", id->name, sizeof(id->name)))
		field(text, "cpu", id->name, sizeof(id->name));
	id->midr = arm_midr(text);
	id->pvr = power_pvr(text);
	id->hypervisor = has_hypervisor(text);
	perf_id(text, id);
	return id->vendor[0] || id->midr || id->pvr || id->perf_id[0]
	       ? 0 : -ENOENT;
}

/* The first `sz - 1` bytes of a file, NUL-terminated; 0 or -errno. */
static int read_head(const char *root, const char *path, char *buf,
		     size_t sz)
{
	char full[4096];
	FILE *f;
	size_t n;

	snprintf(full, sizeof(full), "%s%s", root ? root : "", path);
	if (!(f = fopen(full, "re")))
		return -errno;
	n = fread(buf, 1, sz - 1, f);
	fclose(f);
	buf[n] = '\0';
	return 0;
}

/* s390 keeps its identity in /proc/sysinfo, not in cpuinfo. */
static int read_s390(const char *root, struct pmu__cpuid *id)
{
	char *sys = malloc(CPUINFO_MAX), *lev = malloc(CPUINFO_MAX);
	int rc = -ENOENT;

	if (sys && lev && read_head(root, "/proc/sysinfo", sys,
				    CPUINFO_MAX) == 0)
		rc = cpuid_s390(sys, read_head(root, "/proc/service_levels",
						    lev, CPUINFO_MAX) ? NULL
								      : lev,
				     id);
	free(sys);
	free(lev);
	return rc;
}

int pmu__cpuid_read_at(const char *root, struct pmu__cpuid *id)
{
	char *text = malloc(CPUINFO_MAX), midr[32];
	int rc;

	clear(id);
	if (!text)
		return -ENOMEM;
	rc = read_head(root, "/proc/cpuinfo", text, CPUINFO_MAX);
	if (!rc)
		rc = pmu__cpuid_parse(text, id);
	free(text);
	/* The register itself beats cpuinfo's decoded fields. */
	if (read_head(root, MIDR_PATH, midr, sizeof(midr)) == 0 &&
	    strtoull(midr, NULL, 0)) {
		id->midr = strtoull(midr, NULL, 0);
		snprintf(id->arch, sizeof(id->arch), "arm64");
		snprintf(id->perf_id, sizeof(id->perf_id), "0x%016llx",
			 (unsigned long long)id->midr);
		rc = rc == -ENOENT ? 0 : rc;
	}
	if (!id->perf_id[0] && read_s390(root, id) == 0)
		rc = rc == -ENOENT ? 0 : rc;
	return rc;
}

static struct pmu__cpuid host_id;
static pthread_once_t host_once = PTHREAD_ONCE_INIT;

static void read_host(void)
{
	pmu__cpuid_read_at(NULL, &host_id);
}

const struct pmu__cpuid *pmu__cpuid_host(void)
{
	pthread_once(&host_once, read_host);
	return &host_id;
}

int pmu__cpuid_string(const struct pmu__cpuid *id, char *buf, size_t sz)
{
	if (!id->vendor[0] || id->family < 0 || id->model < 0)
		return -ENOENT;
	snprintf(buf, sz, "%s-%d-%X", id->vendor, id->family,
		 (unsigned)id->model);
	return 0;
}
