/* SPDX-License-Identifier: MIT */
/*
 * Decoding sampled records, pmu against perf script.
 *
 * pmu: a sampling session (perf driver) samples every page fault of a
 * workload that touches N fresh pages; the kernel's records are left
 * in the session's ring (counting disabled without the session's
 * drain), copied aside, and then decoded again and again from a ring
 * holding exactly them: the ring reader hands out each record and the
 * decoder writes its default-format entry (40 bytes: pid, tid, event,
 * -period, ip, time, cpu, set).  Time per sample, median of the rounds.
 *
 * perf: perf record -e page-faults -c 1 of the same workload, then
 * perf script -F ip,pid,tid,time > /dev/null on the file: the same
 * samples' fields decoded from perf.data and printed.  Its time per
 * sample is marginal: (T(N) - T(N/4)) / (samples(N) - samples(N/4)),
 * so that perf's start-up and header reading are not counted against
 * it.  Median of the rounds, interleaved with pmu's.
 *
 *	bench-sample [-n PAGES] [-r ROUNDS]
 *	bench-sample --touch PAGES       (the workload perf records)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pmu/pmu.h>

#include "bench.h"
#include "drivers/perf_ring.h"
#include "session/sample.h"
#include "session/session.h"

#define PAGE 4096

static void touch(long n)
{
	const long chunk = 16384;

	/* in chunks, so that a large N needs little memory at once */
	for (long done = 0; done < n; done += chunk) {
		long k = n - done < chunk ? n - done : chunk;
		volatile char *p = mmap(NULL, (size_t)k * PAGE,
					PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			perror("bench-sample: mmap");
			exit(1);
		}
		madvise((void *)p, (size_t)k * PAGE, MADV_NOHUGEPAGE);
		for (long i = 0; i < k; i++)
			p[i * PAGE] = 1;
		munmap((void *)p, (size_t)k * PAGE);
	}
}

struct capture {
	unsigned char *mem;         /* a fake ring holding the records */
	size_t len;
	uint64_t bytes, samples;
};

/* Sample the workload with a session, keep the ring's records. */
static struct pmu_session *record(long n, struct capture *c)
{
	struct pmu_error err = { .size = sizeof(err) };
	struct pmu_sampling_opts o = { .sz = sizeof(o), .period = 1,
				       .buf_size = (size_t)64 << 20 };
	struct pmu_session *s = pmu_session_new(&err);
	struct pmu__ring *r;
	const struct perf_event_header *h;
	size_t nr, data = PAGE;

	if (!s || pmu_session_add(s, "page-faults", &err) ||
	    pmu_session_sample(s, &o, &err) || pmu_session_open(s, NULL, &err) ||
	    pmu_session_event_status(s, 0, NULL) != PMU_EVENT_OK) {
		fprintf(stderr, "bench-sample: %s\n", err.message);
		exit(1);
	}
	pmu_session_start(s);
	touch(n);
	/* stopped by the driver alone: the session would decode */
	s->drv->ops->disable(s->drv);
	pmu__smpl_perf_rings(s, &r, &nr);
	if (nr != 1 || r->lost) {
		fprintf(stderr, "bench-sample: %zu rings, %llu lost\n", nr,
			(unsigned long long)r->lost);
		exit(1);
	}
	c->bytes = pmu__ring_pending(r);
	while (data < c->bytes)
		data *= 2;
	c->len = PAGE + data;
	c->mem = aligned_alloc(PAGE, c->len);
	memset(c->mem, 0, PAGE);
	((struct perf_event_mmap_page *)(void *)c->mem)->data_offset = PAGE;
	((struct perf_event_mmap_page *)(void *)c->mem)->data_size = data;
	pmu__ring_begin(r);
	c->samples = 0;
	for (uint64_t at = 0; (h = pmu__ring_next(r)); at += h->size) {
		memcpy(c->mem + PAGE + at, h, h->size);
		c->samples += h->type == PERF_RECORD_SAMPLE;
	}
	return s;
}

/* One pass over the captured ring: ns per sample. */
static double decode_pass(struct pmu_session *s, struct capture *c)
{
	struct pmu__smpl_dec *d = pmu__smpl_perf_decoder(s);
	struct perf_event_mmap_page *meta = (void *)c->mem;
	const struct perf_event_header *h;
	struct pmu__ring ring;
	uint64_t t0, t1;

	meta->data_tail = 0;
	meta->data_head = c->bytes;
	pmu__ring_init(&ring, c->mem, c->len, PAGE);
	pmu__smpl_dec_init(d);
	d->samples = d->lost = 0;
	t0 = bench_now_ns();
	pmu__ring_begin(&ring);
	while ((h = pmu__ring_next(&ring)))
		pmu__smpl_dec_record(d, h);
	pmu__ring_end(&ring);
	t1 = bench_now_ns();
	if (d->samples != c->samples) {
		fprintf(stderr, "bench-sample: %llu entries of %llu samples\n",
			(unsigned long long)d->samples,
			(unsigned long long)c->samples);
		exit(1);
	}
	free(ring.copy);
	return (double)(t1 - t0) / (double)c->samples;
}

static int run(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

static long perf_samples(const char *data)
{
	char cmd[512], line[64];
	long n = -1;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "perf script -i %s -F ip 2>/dev/null | "
		 "wc -l", data);
	f = popen(cmd, "r");
	if (f && fgets(line, sizeof(line), f))
		n = strtol(line, NULL, 10);
	if (f)
		pclose(f);
	return n;
}

static double perf_script_ns(const char *data)
{
	char cmd[512];
	uint64_t t0, t1;

	snprintf(cmd, sizeof(cmd), "perf script -i %s -F ip,pid,tid,time "
		 ">/dev/null 2>&1", data);
	t0 = bench_now_ns();
	if (run(cmd)) {
		fprintf(stderr, "bench-sample: %s failed\n", cmd);
		exit(1);
	}
	t1 = bench_now_ns();
	return (double)(t1 - t0);
}

int main(int argc, char **argv)
{
	long n = 100000, rounds = 11;
	char dir[] = "/tmp/pmu-bench-sample-XXXXXX", big[128], small[128];
	char cmd[2048], self[512];
	double ours[64], theirs[64], per_big, per_small;
	long s_big, s_small;
	struct capture c;
	struct pmu_session *s;
	int opt;
	ssize_t len;

	if (argc == 3 && !strcmp(argv[1], "--touch")) {
		touch(strtol(argv[2], NULL, 10));
		return 0;
	}
	while ((opt = getopt(argc, argv, "n:r:")) != -1) {
		if (opt == 'n')
			n = strtol(optarg, NULL, 10);
		else if (opt == 'r')
			rounds = strtol(optarg, NULL, 10);
		else
			return 2;
	}
	if (rounds < 1 || rounds > 64 || n < 1000)
		return 2;
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0 || !mkdtemp(dir))
		return 1;
	self[len] = '\0';
	snprintf(big, sizeof(big), "%s/big.data", dir);
	snprintf(small, sizeof(small), "%s/small.data", dir);
	snprintf(cmd, sizeof(cmd), "perf record -q -e page-faults -c 1 -o %s "
		 "-- %s --touch %ld >/dev/null 2>&1 && perf record -q -e "
		 "page-faults -c 1 -o %s -- %s --touch %ld >/dev/null 2>&1",
		 big, self, n, small, self, n / 4);
	if (run(cmd)) {
		bench_row_na("decode samples (ns/sample)", "ns", 0,
			     "perf script", "perf record failed");
		return 0;
	}
	s_big = perf_samples(big);
	s_small = perf_samples(small);
	s = record(n, &c);
	for (long r = 0; r < rounds; r++) {
		ours[r] = decode_pass(s, &c);
		per_big = perf_script_ns(big);
		per_small = perf_script_ns(small);
		theirs[r] = (per_big - per_small) / (double)(s_big - s_small);
	}
	fprintf(stderr, "bench-sample: pmu decoded %llu samples (%llu bytes "
		"of ring); perf script read %ld and %ld\n",
		(unsigned long long)c.samples, (unsigned long long)c.bytes,
		s_big, s_small);
	bench_row("decode page-fault samples into entries vs perf script "
		  "-F ip,pid,tid,time (per sample)", "ns",
		  bench_median(ours, (size_t)rounds), "perf script",
		  bench_median(theirs, (size_t)rounds), 0.5);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	run(cmd);
	pmu_session_free(s);
	free(c.mem);
	return 0;
}
