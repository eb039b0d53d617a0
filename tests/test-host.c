/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <pmu/session.h>

#include "util/cgroup.h"
#include "util/host.h"
#include "util/proc.h"
#include "util/sysfs_pmus.h"

/* A fake / tree: each row describes the files, then what must be read. */
struct row {
	int line;
	const char *paranoid;   /* NULL = file absent */
	const char *pmus[3];    /* entries of sys/bus/event_source/devices */
	const char *flags;      /* cpuinfo flags line, NULL = no cpuinfo */
	const char *capeff;     /* hex, NULL = no status file */
	const char *online;     /* NULL = absent */
	int want_paranoid;
	bool want_pmu, want_virt, want_priv;
	int want_ncpus;
};

static const struct row rows[] = {
	{ __LINE__, "2\n", { "software", "tracepoint" }, "fpu hypervisor sse",
	  "0000000000000000", "0-1\n", 2, false, true, false, 2 },
	{ __LINE__, "-1\n", { "cpu", "software" }, "fpu sse", "0000004000000000",
	  "0-3,6\n", -1, true, false, true, 5 },  /* CAP_PERFMON = bit 38 */
	{ __LINE__, "3\n", { "cpu_core", "cpu_atom" }, "fpu", "0000000000200000",
	  "0\n", 3, true, false, true, 1 },       /* CAP_SYS_ADMIN = bit 21 */
	{ __LINE__, NULL, { "armv8_pmuv3_0" }, NULL, NULL, NULL,
	  PMU_PARANOID_UNKNOWN, true, false, false, 0 },
	{ __LINE__, "1\n", { "cpu_clock", "msr" }, "hypervisor", "ffffffbfffdfffff",
	  "0-7\n", 1, false, true, false, 8 },    /* every cap but the two */
};

static void put(const char *root, const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void mkdirs(const char *root, const char *rel)
{
	char path[512], *p;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

static void build_tree(const char *root, const struct row *r)
{
	char line[256];
	size_t i;

	mkdirs(root, "proc/sys/kernel");
	mkdirs(root, "proc/self");
	mkdirs(root, "sys/bus/event_source/devices");
	mkdirs(root, "sys/devices/system/cpu");
	if (r->paranoid)
		put(root, "proc/sys/kernel/perf_event_paranoid", r->paranoid);
	for (i = 0; i < 3 && r->pmus[i]; i++) {
		snprintf(line, sizeof(line), "sys/bus/event_source/devices/%s",
			 r->pmus[i]);
		mkdirs(root, line);
	}
	if (r->flags) {
		snprintf(line, sizeof(line),
			 "processor\t: 0\nflags\t\t: %s\n\n", r->flags);
		put(root, "proc/cpuinfo", line);
	}
	if (r->capeff) {
		snprintf(line, sizeof(line), "Name:\ttest\nCapEff:\t%s\n",
			 r->capeff);
		put(root, "proc/self/status", line);
	}
	if (r->online)
		put(root, "sys/devices/system/cpu/online", r->online);
}

static void test_fake_trees(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct pmu_host_info h = { .size = sizeof(h) };
		char root[] = "/tmp/test-host-XXXXXX", cmd[64];

		assert_non_null(mkdtemp(root));
		build_tree(root, r);
		assert_int_equal(pmu__host_info_at(root, &h), 0);
		snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
		assert_int_equal(system(cmd), 0);
		if (h.paranoid != r->want_paranoid ||
		    h.has_hw_pmu != r->want_pmu ||
		    h.virtualized != r->want_virt ||
		    h.privileged != r->want_priv ||
		    h.ncpus_online != r->want_ncpus)
			fail_msg("row at line %d: paranoid %d pmu %d virt %d "
				 "priv %d ncpus %d", r->line, h.paranoid,
				 h.has_hw_pmu, h.virtualized, h.privileged,
				 h.ncpus_online);
	}
}

/* The real machine, checked against facts gathered independently. */
static void test_real_host(void **state)
{
	struct pmu_host_info h = { .size = sizeof(h) };
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int par = PMU_PARANOID_UNKNOWN;
	bool want_pmu;
	glob_t g;

	(void)state;
	if (f) {
		assert_int_equal(fscanf(f, "%d", &par), 1);
		fclose(f);
	}
	assert_int_equal(pmu_host_info(&h), 0);
	assert_int_equal(h.size, sizeof(h));
	assert_int_equal(h.paranoid, par);
	assert_int_equal(h.ncpus_online, sysconf(_SC_NPROCESSORS_ONLN));
	want_pmu = glob("/sys/bus/event_source/devices/"
			"{cpu,cpu_core,cpu_atom,armv8_pmuv3*,armv7_cortex*}",
			GLOB_BRACE, NULL, &g) == 0;
	globfree(&g);
	assert_int_equal(h.has_hw_pmu, want_pmu);
	if (geteuid() == 0)
		assert_true(h.privileged);
}

static void test_bad_size(void **state)
{
	struct pmu_host_info h = { .size = 4 };

	(void)state;
	assert_int_equal(pmu_host_info(&h), -EINVAL);
	assert_int_equal(pmu_host_info(NULL), -EINVAL);
}

/* A fake two-socket tree: CPU c in socket c / 2, core c % 2, die 0,
 * node c / 2 (the nodeN link), an L2 per CPU (id c) and an L3 per
 * socket (id 10 + socket); CPU 3 has no die_id, no node link and no id
 * file for its L3 (the first CPU of shared_cpu_list stands for it). */
static void build_topology(const char *root)
{
	char rel[128], val[32];

	for (int c = 0; c < 4; c++) {
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology", c);
		mkdirs(root, rel);
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/"
			 "physical_package_id", c);
		snprintf(val, sizeof(val), "%d\n", c / 2);
		put(root, rel, val);
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/"
			 "core_id", c);
		snprintf(val, sizeof(val), "%d\n", c % 2);
		put(root, rel, val);
		for (int i = 0; i < 2; i++) {
			snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/"
				 "cache/index%d", c, i);
			mkdirs(root, rel);
			snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/"
				 "cache/index%d/level", c, i);
			put(root, rel, i ? "3\n" : "2\n");
			snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/"
				 "cache/index%d/shared_cpu_list", c, i);
			snprintf(val, sizeof(val), i ? "%d-%d\n" : "%d\n",
				 i ? c / 2 * 2 : c, c / 2 * 2 + 1);
			put(root, rel, val);
			if (c == 3 && i == 1)
				continue;
			snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/"
				 "cache/index%d/id", c, i);
			snprintf(val, sizeof(val), "%d\n", i ? 10 + c / 2 : c);
			put(root, rel, val);
		}
		if (c == 3)
			continue;
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/"
			 "topology/die_id", c);
		put(root, rel, "0\n");
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/node%d",
			 c, c / 2);
		mkdirs(root, rel);
	}
}

static void test_topology(void **state)
{
	char root[] = "/tmp/pmu-topo-XXXXXX";
	struct pmu_cpu_topology t = { .size = sizeof(t) };
	char cmd[64];

	(void)state;
	assert_non_null(mkdtemp(root));
	build_topology(root);
	for (int c = 0; c < 4; c++) {
		assert_int_equal(pmu__cpu_topology_at(root, c, 0, &t), 0);
		assert_int_equal(t.cpu, c);
		assert_int_equal(t.socket, c / 2);
		assert_int_equal(t.core, c % 2);
		assert_int_equal(t.die, 0);
		assert_int_equal(t.node, c == 3 ? 0 : c / 2);
		assert_int_equal(t.cache_level, 3);
		assert_int_equal(t.cache_id, c == 3 ? 2 : 10 + c / 2);
		assert_int_equal(pmu__cpu_topology_at(root, c, 2, &t), 0);
		assert_int_equal(t.cache_level, 2);
		assert_int_equal(t.cache_id, c);
	}
	assert_int_equal(pmu__cpu_topology_at(root, 4, 0, &t), -ENOENT);
	assert_int_equal(pmu__cpu_topology_at(root, 0, 1, &t), 0);
	assert_int_equal(t.cache_level, -1);
	assert_int_equal(pmu__cpu_topology_at(root, -1, 0, &t), -EINVAL);
	t.size = 4;
	assert_int_equal(pmu_cpu_topology(0, 0, &t), -EINVAL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

/* The hierarchy perf_event uses: v1 with the perf_event controller
 * over cgroup2, cgroup2 without it, neither: ENOENT. */
static void test_cgroup_mount(void **state)
{
	static const struct { const char *text, *want; int rc; } mrows[] = {
		{ "30 25 0:27 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n"
		  "31 25 0:28 / /sys/fs/cgroup/pe rw - cgroup cgroup rw,perf_event\n",
		  "/sys/fs/cgroup/pe", 0 },
		{ "30 25 0:27 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n"
		  "31 25 0:28 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n",
		  "/sys/fs/cgroup/unified", 0 },
		{ "22 1 8:1 / / rw - ext4 /dev/sda1 rw\n", "", -ENOENT },
		{ "garbage line\n31 25 0:28 / /cg rw - cgroup cgroup perf_event,rw\n",
		  "/cg", 0 },
	};
	char path[] = "/tmp/pmu-mountinfo-XXXXXX", buf[256];

	(void)state;
	for (size_t i = 0; i < sizeof(mrows) / sizeof(mrows[0]); i++) {
		int fd = mkstemp(path);
		FILE *f = fdopen(fd, "w");

		assert_non_null(f);
		fputs(mrows[i].text, f);
		fclose(f);
		buf[0] = '\0';
		assert_int_equal(pmu__cgroup_mount_at(path, buf, sizeof(buf)),
				 mrows[i].rc);
		if (!mrows[i].rc)
			assert_string_equal(buf, mrows[i].want);
		unlink(path);
		strcpy(path, "/tmp/pmu-mountinfo-XXXXXX");
	}
	assert_int_equal(pmu__cgroup_mount_at("/nonexistent/mountinfo", buf,
					      sizeof(buf)), -ENOENT);
	/* the public call: this machine's, as the reader finds it */
	{
		char want[256], got[256];
		int rc = pmu__cgroup_mount_at("/proc/self/mountinfo", want,
					      sizeof(want));

		assert_int_equal(pmu_cgroup_root(got, sizeof(got)), rc);
		if (!rc) {
			assert_string_equal(got, want);
			assert_int_equal(pmu_cgroup_root(got, 2), -ENAMETOOLONG);
		}
		assert_int_equal(pmu_cgroup_root(NULL, 10), -EINVAL);
		assert_int_equal(pmu_cgroup_root(got, 0), -EINVAL);
	}
}

/* A thread that waits, so that the process has two. */
static pthread_mutex_t hold = PTHREAD_MUTEX_INITIALIZER;
static pid_t waiter_tid;

static void *waiter(void *arg)
{
	(void)arg;
	__atomic_store_n(&waiter_tid, (pid_t)syscall(SYS_gettid),
			 __ATOMIC_SEQ_CST);
	pthread_mutex_lock(&hold);
	pthread_mutex_unlock(&hold);
	return NULL;
}

static bool has(const pid_t *v, size_t n, pid_t id)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == id)
			return true;
	return false;
}

static void test_threads(void **state)
{
	pid_t me = getpid(), tids[64], *all, dead;
	pthread_t t;
	ssize_t n, na;

	(void)state;
	pthread_mutex_lock(&hold);
	assert_int_equal(pthread_create(&t, NULL, waiter, NULL), 0);
	while (!__atomic_load_n(&waiter_tid, __ATOMIC_SEQ_CST))
		usleep(1000);
	/* this process: its two threads */
	n = pmu_host_threads(me, tids, 64);
	assert_int_equal(n, 2);
	assert_true(has(tids, 2, me) && has(tids, 2, waiter_tid));
	/* counting only, and a short buffer: the count, the first ones */
	assert_int_equal(pmu_host_threads(me, NULL, 0), 2);
	tids[1] = -7;
	assert_int_equal(pmu_host_threads(me, tids, 1), 2);
	assert_int_equal(tids[1], -7);
	/* every thread of the machine holds both */
	na = pmu_host_threads(0, NULL, 0);
	assert_true(na >= 2);
	all = calloc((size_t)na + 256, sizeof(*all));
	na = pmu_host_threads(0, all, (size_t)na + 256);
	assert_true(has(all, (size_t)na, me) &&
		    has(all, (size_t)na, waiter_tid));
	free(all);
	pthread_mutex_unlock(&hold);
	pthread_join(t, NULL);
	/* a process that is gone; bad arguments */
	if ((dead = fork()) == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	assert_int_equal(pmu_host_threads(dead, tids, 64), -ESRCH);
	assert_int_equal(pmu_host_threads(-1, tids, 64), -EINVAL);
	assert_int_equal(pmu_host_threads(me, NULL, 4), -EINVAL);
}

/* The PMU directory of a fixture tree: natural order, a filter, and
 * the core PMU names. */
static bool not_msr(const char *name, const void *arg)
{
	(void)arg;
	return strcmp(name, "msr") != 0;
}

static void test_sysfs_pmus(void **state)
{
	char root[] = "/tmp/pmu-sysfs-XXXXXX", path[256], **v;
	static const char *const dirs[] = { "uncore_imc_10", "msr", "cpu",
					    "uncore_imc_9", ".hidden" };
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(root));
	for (size_t i = 0; i < 5; i++) {
		snprintf(path, sizeof(path),
			 "mkdir -p %s/bus/event_source/devices/%s", root,
			 dirs[i]);
		assert_int_equal(system(path), 0);
	}
	assert_int_equal(pmu__sysfs_pmus(root, not_msr, NULL, &v, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(v[0], "cpu");
	assert_string_equal(v[1], "uncore_imc_9");
	assert_string_equal(v[2], "uncore_imc_10");
	pmu__strv_free(v, n);
	/* a tree without the directory: none, not an error */
	assert_int_equal(pmu__sysfs_pmus("/nonexistent", NULL, NULL, &v, &n),
			 0);
	assert_int_equal(n, 0);
	assert_true(pmu__sysfs_core_pmu("cpu_atom") &&
		    pmu__sysfs_core_pmu("armv8_pmuv3_0") &&
		    !pmu__sysfs_core_pmu("cpu0") && !pmu__sysfs_core_pmu("msr"));
	/* the public calls refuse an unsized buffer and a path as a name */
	assert_int_equal(pmu_kernel_pmus(&(struct pmu_kernel_pmu){ 0 }, 1),
			 -EINVAL);
	assert_int_equal(pmu_kernel_aliases("../cpu", NULL, 0), -EINVAL);
	assert_int_equal(pmu_kernel_aliases("no-such-pmu", NULL, 0), 0);
	snprintf(path, sizeof(path), "rm -rf %s", root);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fake_trees),
		cmocka_unit_test(test_real_host),
		cmocka_unit_test(test_bad_size),
		cmocka_unit_test(test_topology),
		cmocka_unit_test(test_cgroup_mount),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_sysfs_pmus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
