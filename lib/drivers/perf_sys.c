/* SPDX-License-Identifier: MIT */
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "drivers/perf_sys.h"

static int sys_event_open(void *ctx, struct perf_event_attr *attr, pid_t pid,
			  int cpu, int group_fd, unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd,
			    flags);
}

static ssize_t sys_read(void *ctx, int fd, void *buf, size_t count)
{
	return read(fd, buf, count);
}

static int sys_ioctl(void *ctx, int fd, unsigned long req, unsigned long arg)
{
	return ioctl(fd, req, arg);
}

static void *sys_mmap(void *ctx, size_t len, int fd)
{
	return mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
}

static void *sys_mmap_ring(void *ctx, size_t len, int fd)
{
	return mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
}

static int sys_munmap(void *ctx, void *addr, size_t len)
{
	return munmap(addr, len);
}

static int sys_close(void *ctx, int fd)
{
	return close(fd);
}

/* Only reached when the kernel advertised cap_user_rdpmc for the page. */
static unsigned long long sys_rdpmc(void *ctx, unsigned int idx)
{
#if defined(__x86_64__)
	unsigned int lo, hi;

	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx));
	return (unsigned long long)hi << 32 | lo;
#else
	return 0;
#endif
}

static unsigned long long sys_rdtsc(void *ctx)
{
#if defined(__x86_64__)
	unsigned int lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (unsigned long long)hi << 32 | lo;
#else
	return 0;
#endif
}

const struct pmu__perf_sys pmu__perf_sys_default = {
	.event_open = sys_event_open,
	.read = sys_read,
	.ioctl = sys_ioctl,
	.mmap = sys_mmap,
	.mmap_ring = sys_mmap_ring,
	.munmap = sys_munmap,
	.close = sys_close,
	.rdpmc = sys_rdpmc,
	.rdtsc = sys_rdtsc,
	.ctx = NULL,
};
