/* SPDX-License-Identifier: MIT */
/*
 * LD_PRELOAD shim that stands in for kernel answers, so CLI tests can
 * reach error paths this machine never produces.  PMU_INJECT is a comma
 * list of:
 *   open=ERRNO                     every perf_event_open fails with ERRNO
 *   open:type=T[:config=C]=ERRNO   only events of that type (and config)
 *   mux=PCT                        reads report time_running as PCT% of
 *                                  time_enabled, as if multiplexed
 *   short-read                     reads of counters return 8 bytes,
 *                                  fewer than any read format needs
 *   kill=SIG                       once an event is open on another
 *                                  process, kill it with SIG (it dies
 *                                  while pmu still holds it)
 *   hw=fake                        raw and hardware events, and those
 *                                  of dynamic PMU types (>=
 *                                  PERF_TYPE_MAX: a fake sysfs tree's
 *                                  uncore PMUs), open as software
 *                                  events and read fake_count(config)
 *                                  (below), as if the machine had a
 *                                  PMU counting them
 * ERRNO is a name (EACCES, EMFILE, ESRCH, EOPNOTSUPP, ...) or a number.
 *
 * PMU_INJECT_SYSFS=DIR: paths under /sys/bus/event_source/devices are
 * looked up under DIR/bus/event_source/devices instead (open, openat,
 * fopen, opendir, access, stat), so a test can lay out the PMUs it
 * needs (uncore_cha_0..N with their cpumask).
 * PMU_INJECT_LOG=FILE: every perf_event_open appends "type config cpu
 * pid" (config in hex) to FILE, so a test can see where events opened.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_FDS 4096
/* The build hides symbols by default; these must interpose libc's. */
#define SHIM_API __attribute__((visibility("default")))

/* A test shim: one process, one thread of interest; plain tables do. */
static uint64_t read_formats[MAX_FDS];
static unsigned char perf_fds[MAX_FDS];
/* hw=fake: the config each fake fd stands for, its group leader, and
 * each leader's members in the order they were opened */
static uint64_t fake_config[MAX_FDS];
static unsigned char fake[MAX_FDS];
static int leader_of[MAX_FDS];
static int members[MAX_FDS][16];
static int nmembers[MAX_FDS];

/* What a fake counter reads: a value the tests compute the same way. */
static uint64_t fake_count(uint64_t config)
{
	return config % 1000003 + 1;
}

static int hw_fake(void)
{
	const char *spec = getenv("PMU_INJECT");

	return spec && strstr(spec, "hw=fake") != NULL;
}

static const struct { const char *name; int value; } errnos[] = {
	{ "EACCES", EACCES }, { "EPERM", EPERM }, { "EMFILE", EMFILE },
	{ "ENFILE", ENFILE }, { "ESRCH", ESRCH }, { "ENOENT", ENOENT },
	{ "EOPNOTSUPP", EOPNOTSUPP }, { "EINVAL", EINVAL },
	{ "ENODEV", ENODEV }, { "EBUSY", EBUSY }, { "ENOSPC", ENOSPC },
};

static int errno_value(const char *s)
{
	for (size_t i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		if (!strcmp(s, errnos[i].name))
			return errnos[i].value;
	return atoi(s);
}

/* Does "type=1:config=2" (possibly empty) select this event? */
static int filter_matches(char *filters, const struct perf_event_attr *a)
{
	for (char *f = strtok(filters, ":"); f; f = strtok(NULL, ":")) {
		unsigned long long v = strtoull(strchr(f, '=') ? strchr(f, '=') + 1
							       : "", NULL, 0);
		if (!strncmp(f, "type=", 5) && a->type != v)
			return 0;
		if (!strncmp(f, "config=", 7) && a->config != v)
			return 0;
	}
	return 1;
}

static int rule_errno(char *item, const struct perf_event_attr *a)
{
	char *eq = strrchr(item, '=');

	if (strncmp(item, "open", 4) || !eq || (item[4] != '=' && item[4] != ':'))
		return 0;
	*eq = '\0';
	return filter_matches(item + 4, a) ? errno_value(eq + 1) : 0;
}

static int open_errno(const struct perf_event_attr *a)
{
	const char *spec = getenv("PMU_INJECT");
	char buf[512];
	char *save = NULL;
	int e = 0;

	if (!spec || strlen(spec) >= sizeof(buf))
		return 0;
	strcpy(buf, spec);
	for (char *it = strtok_r(buf, ",", &save); it && !e;
	     it = strtok_r(NULL, ",", &save))
		e = rule_errno(it, a);
	return e;
}

static int mux_percent(void)
{
	const char *spec = getenv("PMU_INJECT");
	const char *m = spec ? strstr(spec, "mux=") : NULL;

	return m ? atoi(m + 4) : 0;
}

/* WNOWAIT: the process is dead when this returns, and its status is
 * still there for pmu to collect. */
static void kill_target(pid_t pid)
{
	static int done;
	const char *spec = getenv("PMU_INJECT");
	const char *k = spec ? strstr(spec, "kill=") : NULL;
	siginfo_t si;

	if (!k || done || pid <= 0)
		return;
	done = 1;
	if (kill(pid, atoi(k + 5)) == 0)
		waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT);
}

static void log_open(const struct perf_event_attr *at, int cpu, pid_t pid)
{
	const char *path = getenv("PMU_INJECT_LOG");
	FILE *f = path ? fopen(path, "ae") : NULL;

	if (!f)
		return;
	fprintf(f, "%u 0x%llx %d %d\n", at->type,
		(unsigned long long)at->config, cpu, (int)pid);
	fclose(f);
}

SHIM_API long syscall(long nr, ...)
{
	long (*real)(long, ...) = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	long a[6];
	va_list ap;
	long r;
	int e;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr != SYS_perf_event_open)
		return real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	e = open_errno((const struct perf_event_attr *)a[0]);
	if (e) {
		errno = e;
		return -1;
	}
	const struct perf_event_attr *at = (const struct perf_event_attr *)a[0];
	struct perf_event_attr sw;
	int is_fake = hw_fake() && (at->type == PERF_TYPE_RAW ||
				    at->type == PERF_TYPE_HARDWARE ||
				    at->type >= PERF_TYPE_MAX);

	log_open(at, (int)a[2], (pid_t)a[1]);
	if (is_fake) {
		sw = *at;
		sw.type = PERF_TYPE_SOFTWARE;
		sw.config = PERF_COUNT_SW_DUMMY;
		sw.precise_ip = 0;
		a[0] = (long)&sw;
	}
	r = real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (r >= 0 && r < MAX_FDS) {
		int g = (int)a[3];
		perf_fds[r] = 1;
		read_formats[r] = at->read_format;
		fake[r] = (unsigned char)is_fake;
		fake_config[r] = at->config;
		leader_of[r] = g >= 0 && g < MAX_FDS ? g : (int)r;
		nmembers[r] = 0;
		if (g >= 0 && g < MAX_FDS && nmembers[g] < 16)
			members[g][nmembers[g]++] = (int)r;
	}
	if (r >= 0)
		kill_target((pid_t)a[1]);
	return r;
}

/* Both layouts start with nr (group) or value, then enabled, running. */
static void rewrite_running(void *buf, ssize_t len, uint64_t fmt, int pct)
{
	uint64_t *v = buf;
	size_t ena = 1, run = 2;

	if (!(fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) ||
	    !(fmt & PERF_FORMAT_TOTAL_TIME_RUNNING))
		return;
	if ((size_t)len < (run + 1) * sizeof(uint64_t))
		return;
	v[run] = v[ena] * (uint64_t)pct / 100;
}

/* The values of a read of a fake fd: its own, or (group read) its
 * group's in the order the members were opened. */
static void rewrite_fake(int fd, void *buf, ssize_t len)
{
	uint64_t fmt = read_formats[fd], *v = buf;
	size_t stride = 1 + !!(fmt & PERF_FORMAT_ID), at;
	size_t skip = !!(fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		      !!(fmt & PERF_FORMAT_TOTAL_TIME_RUNNING);

	if (!(fmt & PERF_FORMAT_GROUP)) {
		if (fake[fd] && len >= 8)
			v[0] = fake_count(fake_config[fd]);
		return;
	}
	at = 1 + skip;
	if (fake[fd] && (at + 1) * 8 <= (size_t)len)
		v[at] = fake_count(fake_config[fd]);
	for (int i = 0; i < nmembers[fd]; i++) {
		int m = members[fd][i];
		at = 1 + skip + (size_t)(i + 1) * stride;
		if (fake[m] && (at + 1) * 8 <= (size_t)len)
			v[at] = fake_count(fake_config[m]);
	}
}

SHIM_API ssize_t read(int fd, void *buf, size_t count)
{
	ssize_t (*real)(int, void *, size_t) =
		(ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	ssize_t r = real(fd, buf, count);
	int pct;

	if (r > 8 && fd >= 0 && fd < MAX_FDS && perf_fds[fd] &&
	    getenv("PMU_INJECT") && strstr(getenv("PMU_INJECT"), "short-read"))
		return 8;
	if (r > 0 && fd >= 0 && fd < MAX_FDS && perf_fds[fd] &&
	    (pct = mux_percent()) > 0)
		rewrite_running(buf, r, read_formats[fd], pct);
	if (r > 0 && fd >= 0 && fd < MAX_FDS && perf_fds[fd] && hw_fake())
		rewrite_fake(fd, buf, r);
	return r;
}

SHIM_API int close(int fd)
{
	int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "close");

	if (fd >= 0 && fd < MAX_FDS)
		perf_fds[fd] = 0;
	return real(fd);
}

/* ---- PMU_INJECT_SYSFS: a fake /sys/bus/event_source ---- */

static const char *sysfs_path(const char *path, char *buf, size_t sz)
{
	static const char pre[] = "/sys/bus/event_source";
	const char *root = getenv("PMU_INJECT_SYSFS");
	size_t n = sizeof(pre) - 1;

	if (!root || !path || strncmp(path, pre, n) ||
	    (path[n] != '\0' && path[n] != '/'))
		return path;
	if ((size_t)snprintf(buf, sz, "%s%s", root, path + 4) >= sz)
		return path;
	return buf;
}

#define REAL(name, type) ((type)dlsym(RTLD_NEXT, name))

static int open_as(const char *fn, const char *path, int flags, va_list ap)
{
	char buf[4096];
	mode_t mode = (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE
		      ? va_arg(ap, mode_t) : 0;

	return REAL(fn, int (*)(const char *, int, ...))(
		sysfs_path(path, buf, sizeof(buf)), flags, mode);
}

SHIM_API int open(const char *path, int flags, ...)
{
	va_list ap;
	int r;

	va_start(ap, flags);
	r = open_as("open", path, flags, ap);
	va_end(ap);
	return r;
}

SHIM_API int open64(const char *path, int flags, ...)
{
	va_list ap;
	int r;

	va_start(ap, flags);
	r = open_as("open64", path, flags, ap);
	va_end(ap);
	return r;
}

SHIM_API int openat(int dirfd, const char *path, int flags, ...)
{
	char buf[4096];
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE
		       ? va_arg(ap, mode_t) : 0;
	va_end(ap);
	return REAL("openat", int (*)(int, const char *, int, ...))(
		dirfd, sysfs_path(path, buf, sizeof(buf)), flags, mode);
}

SHIM_API FILE *fopen(const char *path, const char *mode)
{
	char buf[4096];

	return REAL("fopen", FILE *(*)(const char *, const char *))(
		sysfs_path(path, buf, sizeof(buf)), mode);
}

SHIM_API DIR *opendir(const char *path)
{
	char buf[4096];

	return REAL("opendir", DIR *(*)(const char *))(
		sysfs_path(path, buf, sizeof(buf)));
}

SHIM_API int access(const char *path, int mode)
{
	char buf[4096];

	return REAL("access", int (*)(const char *, int))(
		sysfs_path(path, buf, sizeof(buf)), mode);
}

SHIM_API int stat(const char *path, struct stat *st)
{
	char buf[4096];

	return REAL("stat", int (*)(const char *, struct stat *))(
		sysfs_path(path, buf, sizeof(buf)), st);
}
