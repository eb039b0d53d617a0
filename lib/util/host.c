/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "util/cpuid.h"
#include "util/cpulist.h"
#include "util/host.h"
#include "util/outstruct.h"
#include "util/sysfs_pmus.h"

#define CAP_BIT_SYS_ADMIN 21
#define CAP_BIT_PERFMON 38

static FILE *open_at(const char *root, const char *path)
{
	char full[4096];

	snprintf(full, sizeof(full), "%s%s", root ? root : "", path);
	return fopen(full, "re");
}

static int read_paranoid(const char *root)
{
	FILE *f = open_at(root, "/proc/sys/kernel/perf_event_paranoid");
	int v;

	if (!f)
		return PMU_PARANOID_UNKNOWN;
	if (fscanf(f, "%d", &v) != 1)
		v = PMU_PARANOID_UNKNOWN;
	fclose(f);
	return v;
}

static bool core_pmu(const char *name, const void *arg)
{
	(void)arg;
	return pmu__sysfs_core_pmu(name);
}

static bool read_has_hw_pmu(const char *root)
{
	char sysfs[4096];
	char **names;
	size_t n = 0;

	snprintf(sysfs, sizeof(sysfs), "%s/sys", root ? root : "");
	if (pmu__sysfs_pmus(sysfs, core_pmu, NULL, &names, &n))
		return false;
	pmu__strv_free(names, n);
	return n > 0;
}

static bool cpuid_hypervisor(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;

	if (__get_cpuid(1, &a, &b, &c, &d))
		return (c >> 31) & 1;
#endif
	return false;
}

/* The hypervisor flag of /proc/cpuinfo; the real host's is read once. */
static bool cpuinfo_hypervisor(const char *root)
{
	struct pmu__cpuid id;

	if (!root)
		return pmu__cpuid_host()->hypervisor;
	pmu__cpuid_read_at(root, &id);
	return id.hypervisor;
}

static bool caps_privileged(const char *root)
{
	FILE *f = open_at(root, "/proc/self/status");
	unsigned long long caps = 0;
	char line[256];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "CapEff: %llx", &caps) == 1;
	fclose(f);
	return (caps >> CAP_BIT_PERFMON & 1) || (caps >> CAP_BIT_SYS_ADMIN & 1);
}

static int count_online(const char *root)
{
	struct pmu__cpulist l;
	char path[4096];
	int n;

	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/online",
		 root ? root : "");
	if (pmu__cpulist_read(path, &l))
		return root ? 0 : (int)sysconf(_SC_NPROCESSORS_ONLN);
	n = (int)l.n;
	pmu__cpulist_free(&l);
	return n;
}

int pmu__host_info_at(const char *root, struct pmu_host_info *info)
{
	struct pmu_host_info h = { .size = sizeof(h) };

	if (!pmu__out_ok(info, info ? info->size : 0))
		return -EINVAL;
	h.paranoid = read_paranoid(root);
	h.has_hw_pmu = read_has_hw_pmu(root);
	h.virtualized = cpuinfo_hypervisor(root) || (!root && cpuid_hypervisor());
	h.privileged = caps_privileged(root) || (!root && geteuid() == 0);
	h.ncpus_online = count_online(root);
	PMU__OUT(info, &h);
	return 0;
}

PMU_API int pmu_host_info(struct pmu_host_info *info)
{
	return pmu__host_info_at(NULL, info);
}

PMU_API int pmu_host_cpu(struct pmu_host_cpu *cpu)
{
	const struct pmu__cpuid *id = pmu__cpuid_host();
	struct pmu_host_cpu o = { .size = sizeof(o), .family = id->family,
				  .model = id->model,
				  .stepping = id->stepping, .midr = id->midr,
				  .pvr = id->pvr };

	if (!pmu__out_ok(cpu, cpu ? cpu->size : 0))
		return -EINVAL;
	snprintf(o.vendor, sizeof(o.vendor), "%s", id->vendor);
	snprintf(o.name, sizeof(o.name), "%s", id->name);
	PMU__OUT(cpu, &o);
	return id->vendor[0] || id->midr || id->pvr ? 0 : -ENOENT;
}
