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

#if defined(__aarch64__)
/* The Arm PMU's counters as EL0 reads them (PMUSERENR_EL0.ER, which the
 * kernel sets for a task whose event asked for user reads): event
 * counter n is PMEVCNTR<n>_EL0, the cycle counter PMCCNTR_EL0, which
 * the kernel announces as index 32 (idx 31).  The register is part of
 * the instruction, hence one read each. */
#define RD(n) case n: __asm__ volatile("mrs %0, pmevcntr" #n "_el0" : "=r"(v)); break
static unsigned long long arm64_counter(unsigned int idx)
{
	unsigned long long v = 0;

	switch (idx) {
	RD(0); RD(1); RD(2); RD(3); RD(4); RD(5); RD(6); RD(7);
	RD(8); RD(9); RD(10); RD(11); RD(12); RD(13); RD(14); RD(15);
	RD(16); RD(17); RD(18); RD(19); RD(20); RD(21); RD(22); RD(23);
	RD(24); RD(25); RD(26); RD(27); RD(28); RD(29); RD(30);
	case 31:
		__asm__ volatile("mrs %0, pmccntr_el0" : "=r"(v));
		break;
	}
	return v;
}
#undef RD
#endif

/* Only reached when the kernel advertised cap_user_rdpmc for the page. */
static unsigned long long sys_rdpmc(void *ctx, unsigned int idx)
{
#if defined(__x86_64__)
	unsigned int lo, hi;

	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx));
	return (unsigned long long)hi << 32 | lo;
#elif defined(__aarch64__)
	return arm64_counter(idx);
#else
	return 0;
#endif
}

/* The clock of the page's time fields: the TSC on x86-64, the virtual
 * count of the generic timer on arm64 (after an isb, so that it is not
 * read ahead of the counter). */
static unsigned long long sys_rdtsc(void *ctx)
{
#if defined(__x86_64__)
	unsigned int lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (unsigned long long)hi << 32 | lo;
#elif defined(__aarch64__)
	unsigned long long v;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
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
