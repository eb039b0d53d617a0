/* SPDX-License-Identifier: MIT */
/*
 * Sampling speed of a perfmon2 context with the default format on a
 * simulated P6: every instruction overflows PMD 0 (period 1), so each
 * event fed is one interrupt, one 64-bit overflow, one 40-byte entry
 * (plus one sampled PMD) and one reset.  The baseline is the cheapest
 * sample writer: filling the same entries with memcpy into a buffer,
 * measured in the same run, interleaved.
 *	bench-perfmon [-n SAMPLES] [-r ROUNDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pmu/perfmon.h>

#include "bench.h"

#define ENTRY (sizeof(pfm_dfl_smpl_entry_t) + 8)

static int fail(const char *what)
{
	fprintf(stderr, "bench-perfmon: %s: %s\n", what,
		pmu_perfmon_error()->message);
	exit(1);
}

static int context(size_t nsamples, size_t *bufsz)
{
	/* full after exactly nsamples entries: less than the 40 + 8 * 2
	 * bytes the format keeps free are left */
	pfm_dfl_smpl_arg_t arg = { .buf_size = 128 + nsamples * ENTRY + 55 };
	pfarg_pmr_t pc[2] = { { .reg_num = 0, .reg_value = 0x4300c0 },
			      { .reg_num = 1, .reg_value = 0x430079 } };
	pfarg_pmd_attr_t pd[2];
	int fd;

	memset(pd, 0, sizeof(pd));
	pd[0].reg_value = pd[0].reg_long_reset = pd[0].reg_short_reset = -1ull;
	pd[0].reg_flags = PFM_REGFL_OVFL_NOTIFY;
	pd[0].reg_smpl_pmds[0] = 2;
	pd[1].reg_num = 1;
	*bufsz = arg.buf_size;
	if (pmu_perfmon_use("sim", "p6"))
		fail("use");
	fd = pfm_create(PFM_FL_SMPL_FMT, NULL, "default", &arg, sizeof(arg));
	if (fd < 0)
		fail("pfm_create");
	if (pfm_write(fd, 0, PFM_RW_PMC, pc, sizeof(pc)) ||
	    pfm_write(fd, 0, PFM_RW_PMD_ATTR, pd, sizeof(pd)) ||
	    pfm_attach(fd, 0, gettid()) || pfm_set_state(fd, 0, PFM_ST_START))
		fail("set-up");
	return fd;
}

/* ns per sample of one batch; the buffer emptied first (restart needs
 * a pending notification: the batch before filled the buffer). */
static double time_ctx(int fd, const char *stream, size_t len,
		       const pfm_dfl_smpl_hdr_t *h, size_t nsamples)
{
	uint64_t t0 = bench_now_ns(), t;

	if (pmu_perfmon_feed(fd, stream, len))
		fail("feed");
	t = bench_now_ns() - t0;
	if (h->hdr_count != nsamples) {
		fprintf(stderr, "bench-perfmon: %llu samples, want %zu\n",
			(unsigned long long)h->hdr_count, nsamples);
		exit(1);
	}
	return (double)t / (double)nsamples;
}

static double time_base(char *buf, size_t nsamples)
{
	pfm_dfl_smpl_entry_t e = { .pid = 1, .tgid = 1 };
	uint64_t t0 = bench_now_ns(), v = 0;
	char *p = buf + 128;

	for (size_t i = 0; i < nsamples; i++) {
		e.ip = i;
		e.tstamp = i;
		v += i;
		memcpy(p, &e, sizeof(e));
		memcpy(p + sizeof(e), &v, 8);
		p += ENTRY;
		__asm__ volatile("" : : "r"(p) : "memory");
	}
	return (double)(bench_now_ns() - t0) / (double)nsamples;
}

int main(int argc, char **argv)
{
	size_t n = 1000000, rounds = 9, bufsz;
	double ctx[64], base[64], ns, ns_b;
	char stream[64], *buf;
	const pfm_dfl_smpl_hdr_t *h;
	int c, fd, len;

	while ((c = getopt(argc, argv, "n:r:")) != -1) {
		if (c == 'n')
			n = strtoull(optarg, NULL, 0);
		else if (c == 'r')
			rounds = strtoull(optarg, NULL, 0);
		else {
			fprintf(stderr, "usage: bench-perfmon [-n SAMPLES] "
				"[-r ROUNDS]\n");
			return 2;
		}
	}
	if (rounds < 1 || rounds > 64 || n < 1 || n > 4000000) {
		fprintf(stderr, "bench-perfmon: bad arguments\n");
		return 2;
	}
	fd = context(n, &bufsz);
	h = mmap(NULL, bufsz, PROT_READ, MAP_SHARED, fd, 0);
	buf = malloc(bufsz);
	if (h == MAP_FAILED || !buf)
		fail("buffer");
	len = snprintf(stream, sizeof(stream), "ip 0x401000\nevent 0xc0 %zu\n",
		       n);
	for (size_t r = 0; r < rounds; r++) {
		/* each batch fills the buffer up to its last entry and the
		 * format then asks for a restart */
		ctx[r] = time_ctx(fd, stream, (size_t)len, h, n);
		pfm_set_state(fd, 0, PFM_ST_RESTART);
		base[r] = time_base(buf, n);
	}
	ns = bench_median(ctx, rounds);
	ns_b = bench_median(base, rounds);
	printf("| perfmon2 default-format sampling, simulated P6 | %.1f "
	       "Msamples/s | memcpy of the entries %.0f Msamples/s | %.2f | "
	       ">= 20 Msamples/s | %s |\n", 1e3 / ns, 1e3 / ns_b,
	       ns_b > 0 ? ns / ns_b : 0.0, 1e3 / ns >= 20.0 ? "yes" : "no");
	free(buf);
	close(fd);
	return 0;
}
