/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/cpulist.h"
#include "util/topology.h"

#define CPU_DIR "/sys/devices/system/cpu"

static int read_list(const char *root, const char *rel,
		     struct pmu__cpulist *l)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s%s/%s", root ? root : "", CPU_DIR, rel);
	return pmu__cpulist_read(path, l);
}

static bool read_text(const char *root, const char *rel, char *buf,
		      size_t sz)
{
	char path[4096];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s%s/%s", root ? root : "", CPU_DIR, rel);
	if (!(f = fopen(path, "re")))
		return false;
	n = fread(buf, 1, sz - 1, f);
	fclose(f);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return n > 0;
}

/* Distinct texts of cpuN/topology/<file> over the online CPUs. */
static int distinct(const char *root, const struct pmu__cpulist *on,
		    const char *file)
{
	char (*seen)[256] = calloc(on->n ? on->n : 1, sizeof(*seen));
	int n = 0;

	if (!seen)
		return -1;
	for (size_t i = 0; i < on->n; i++) {
		char rel[96], buf[256];
		bool dup = false;

		snprintf(rel, sizeof(rel), "cpu%d/topology/%s", on->cpu[i], file);
		if (!read_text(root, rel, buf, sizeof(buf))) {
			n = -1;
			break;
		}
		for (int k = 0; k < n && !dup; k++)
			dup = !strcmp(seen[k], buf);
		if (!dup)
			memcpy(seen[n++], buf, sizeof(buf));
	}
	free(seen);
	return n;
}

/* From the tree under root ("/" when NULL); 0 or -ENOENT. */
static int topology_read_at(const char *root, struct pmu__topology *t)
{
	struct pmu__cpulist on = { 0 }, pr = { 0 };
	char buf[16], path[4096];

	memset(t, 0, sizeof(*t));
	t->present_max = t->online = t->packages = t->dies = -1;
	t->cores = t->smt_on = -1;
	if (!read_list(root, "present", &pr) && pr.n)
		t->present_max = pr.cpu[pr.n - 1] + 1;
	pmu__cpulist_free(&pr);
	if (read_list(root, "online", &on))
		return -ENOENT;
	t->online = (int)on.n;
	t->packages = distinct(root, &on, "package_cpus_list");
	if (t->packages < 0)
		t->packages = distinct(root, &on, "core_siblings_list");
	t->dies = distinct(root, &on, "die_cpus_list");
	if (t->dies < 0)
		t->dies = t->packages;
	t->cores = distinct(root, &on, "core_cpus_list");
	if (t->cores < 0)
		t->cores = distinct(root, &on, "thread_siblings_list");
	/* smt/active says it; else more than one thread in some core */
	if (read_text(root, "smt/active", buf, sizeof(buf)))
		t->smt_on = atoi(buf) ? 1 : 0;
	else if (t->cores > 0)
		t->smt_on = t->online > t->cores;
	pmu__cpulist_free(&on);
	snprintf(path, sizeof(path), "%s/sys/firmware/acpi/tables/NFIT",
		 root ? root : "");
	t->has_pmem = access(path, F_OK) == 0;
	return 0;
}

static struct pmu__topology host;
static pthread_once_t host_once = PTHREAD_ONCE_INIT;

static void read_host(void)
{
	topology_read_at(NULL, &host);
}

const struct pmu__topology *pmu__topology_host(void)
{
	pthread_once(&host_once, read_host);
	return &host;
}
