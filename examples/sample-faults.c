/* SPDX-License-Identifier: MIT */
/*
 * Sample this program's own page faults into a small perfmon2
 * default-format buffer, consuming it each time it fills.
 *
 *	sample-faults [PAGES [PERIOD]]
 *
 * Prints the entries read, the samples lost, the times the buffer
 * filled, and the page faults getrusage() saw inside and around the
 * sampled stretch: entries + lost lie between inside / PERIOD and
 * around / PERIOD.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <pmu/pmu.h>
#define PMU_PERFMON_NO_REDIRECT
#include <pmu/perfmon.h>

static long faults(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_minflt + ru.ru_majflt;
}

/* Read the full buffer's entries (one value each: task-clock), take the
 * notification, restart. */
static unsigned long consume(struct pmu_session *s,
			     const struct pmu_sample_hdr *h, int fd)
{
	const char *at = (const char *)h + sizeof(*h);
	unsigned long n = 0;
	pfarg_msg_t msg;

	for (uint64_t k = 0; k < h->hdr_count; k++) {
		const struct pmu_sample_entry *e = (const void *)at;

		at += sizeof(*e) + 8;   /* the group's one other event */
		n += e->pid == (uint32_t)gettid();
	}
	if (read(fd, &msg, sizeof(msg)) != (ssize_t)sizeof(msg))
		perror("sample-faults: read");
	pmu_session_restart(s);
	return n;
}

int main(int argc, char **argv)
{
	long pages = argc > 1 ? atol(argv[1]) : 4096;
	struct pmu_sampling_opts o = {
		.sz = sizeof(o), .period = argc > 2 ? strtoull(argv[2], NULL, 0)
						    : 8,
		.buf_size = 4096,
	};
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_sample_stats st = { .size = sizeof(st) };
	struct pmu_session *s = pmu_session_new(&err);
	const struct pmu_sample_hdr *h;
	unsigned long entries = 0;
	long f0, f1, f2, f3, psz = sysconf(_SC_PAGESIZE);
	char *mem;
	int fd;

	if (!s || pmu_session_add(s, "{page-faults,task-clock}", &err) ||
	    pmu_session_sample(s, &o, &err) || pmu_session_open(s, NULL, &err)) {
		fprintf(stderr, "sample-faults: %s\n", err.message);
		return 1;
	}
	mem = mmap(NULL, (size_t)(pages * psz), PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	madvise(mem, (size_t)(pages * psz), MADV_NOHUGEPAGE);
	h = pmu_session_buffer(s, NULL);
	fd = pmu_session_fd(s);
	f0 = faults();
	pmu_session_start(s);
	f1 = faults();
	for (long i = 0; i < pages; i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		mem[i * psz] = 1;
		if (i % 64)
			continue;
		/* decode what the kernel holds; a full buffer notifies */
		pmu_session_sample_poll(s, 0);
		if (poll(&p, 1, 0) == 1)
			entries += consume(s, h, fd);
	}
	f2 = faults();
	pmu_session_stop(s);
	f3 = faults();
	entries += h->hdr_count;
	pmu_session_sample_stats(s, &st);
	printf("entries %lu lost %llu full %llu inside %ld around %ld\n",
	       entries, (unsigned long long)st.lost,
	       (unsigned long long)st.full, f2 - f1, f3 - f0);
	pmu_session_free(s);
	return 0;
}
