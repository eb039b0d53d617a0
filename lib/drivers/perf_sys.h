/* SPDX-License-Identifier: MIT */
#ifndef PMU_DRIVERS_PERF_SYS_H
#define PMU_DRIVERS_PERF_SYS_H

#include <linux/perf_event.h>
#include <sys/types.h>

/*
 * Every system call the perf driver makes goes through this table, so tests
 * can stand in for the kernel: inject errno values (EACCES, EMFILE, ENOENT,
 * EOPNOTSUPP, ESRCH), multiplexed time_enabled/time_running, counter wrap,
 * or a fake mmap page with cap_user_rdpmc.  Functions return what the libc
 * call returns (-1 with errno set on failure).  `rdpmc` reads hardware
 * counter `idx` (the mmap page's index - 1).
 */
struct pmu__perf_sys {
	int (*event_open)(void *ctx, struct perf_event_attr *attr, pid_t pid,
			  int cpu, int group_fd, unsigned long flags);
	ssize_t (*read)(void *ctx, int fd, void *buf, size_t count);
	int (*ioctl)(void *ctx, int fd, unsigned long req, unsigned long arg);
	void *(*mmap)(void *ctx, size_t len, int fd);
	int (*munmap)(void *ctx, void *addr, size_t len);
	int (*close)(void *ctx, int fd);
	unsigned long long (*rdpmc)(void *ctx, unsigned int idx);
	unsigned long long (*rdtsc)(void *ctx);
	void *ctx;
	/* Where /proc is mounted, read to list a process's threads; tests
	 * point it at a fake tree.  NULL means "/proc". */
	const char *proc;
	/* A ring buffer (perf_ring.h: header page + data pages), mapped
	 * readable and writable so that the reader can hand space back
	 * through data_tail.  NULL in a seam that offers none: events that
	 * sample or announce overflows cannot be opened.  (Last, so that
	 * seams written before it still initialise.) */
	void *(*mmap_ring)(void *ctx, size_t len, int fd);
	/* Where sysfs is mounted, read for what PMUs declare (the format
	 * term asking for user-space reads); NULL means "/sys". */
	const char *sysfs;
};

/* The real kernel. */
extern const struct pmu__perf_sys pmu__perf_sys_default;

#endif
