/* SPDX-License-Identifier: MIT */
/* Where a CPU sits: package, die, core, NUMA node and shared cache, as
 * sysfs describes them, for figures aggregated per core, socket... */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/host.h"
#include "util/outstruct.h"

/* An integer file under root/sys/devices/system/cpu/cpuN; -ENOENT. */
static int cpu_int(const char *root, int cpu, const char *rel, int *v)
{
	char path[512], buf[64], *end;
	FILE *f;
	long x;

	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu%d/%s",
		 root ? root : "", cpu, rel);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	x = strtol(buf, &end, 10);
	if (end == buf)
		return -EINVAL;
	*v = (int)x;
	return 0;
}

/* The NUMA node: the cpuN/nodeM link sysfs has with NUMA; 0 without. */
static int cpu_node(const char *root, int cpu)
{
	char path[512];
	struct dirent *de;
	int node = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu%d",
		 root ? root : "", cpu);
	if (!(d = opendir(path)))
		return 0;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "node", 4) &&
		    de->d_name[4] >= '0' && de->d_name[4] <= '9') {
			node = atoi(de->d_name + 4);
			break;
		}
	closedir(d);
	return node;
}

/* The cache of `level` (0: the highest level the CPU has) and its id:
 * the id file, else the first CPU sharing it. */
static void cpu_cache(const char *root, int cpu, int level, int *lvl,
		      int *id)
{
	int best = -1;

	*lvl = *id = -1;
	for (int i = 0; i < 16; i++) {
		char rel[64];
		int l, v;

		snprintf(rel, sizeof(rel), "cache/index%d/level", i);
		if (cpu_int(root, cpu, rel, &l))
			break;
		if ((level && l != level) || l < best)
			continue;
		best = l;
		snprintf(rel, sizeof(rel), "cache/index%d/id", i);
		if (cpu_int(root, cpu, rel, &v)) {
			snprintf(rel, sizeof(rel),
				 "cache/index%d/shared_cpu_list", i);
			if (cpu_int(root, cpu, rel, &v))
				v = cpu;
		}
		*lvl = l;
		*id = v;
	}
}

int pmu__cpu_topology_at(const char *root, int cpu, int cache_level,
			 struct pmu_cpu_topology *t)
{
	struct pmu_cpu_topology o = { .size = sizeof(o), .cpu = cpu };

	if (cpu < 0 || !pmu__out_ok(t, t ? t->size : 0))
		return -EINVAL;
	if (cpu_int(root, cpu, "topology/physical_package_id", &o.socket))
		return -ENOENT;
	if (cpu_int(root, cpu, "topology/die_id", &o.die))
		o.die = 0;      /* kernels before dies, or one die */
	if (cpu_int(root, cpu, "topology/core_id", &o.core))
		o.core = cpu;
	o.node = cpu_node(root, cpu);
	cpu_cache(root, cpu, cache_level, &o.cache_level, &o.cache_id);
	PMU__OUT(t, &o);
	return 0;
}

PMU_API int pmu_cpu_topology(int cpu, int cache_level,
			     struct pmu_cpu_topology *t)
{
	return pmu__cpu_topology_at(NULL, cpu, cache_level, t);
}
