/* SPDX-License-Identifier: MIT */
/*
 * Simulated counting speed: the cost of one single-event advance and the
 * throughput of bursts, on a P6 with both counters counting the event.
 * There is no external peer; the baseline is the cheapest thing a
 * counting loop can do (adding to a 64-bit counter through a function
 * pointer), measured in the same run, interleaved, so the ratio carries
 * the machine's noise out.
 *	bench-sim [-i CALLS] [-r ROUNDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench.h"
#include "sim/sim.h"

#define BURST 4096u

struct base {
	uint64_t count;
};

static void __attribute__((noinline)) base_add(struct base *b, uint32_t key,
					       uint32_t umask, uint64_t n)
{
	(void)key;
	(void)umask;
	b->count += n;
}

/* Keeps the compiler from seeing through the baseline's pointer. */
static void (*volatile base_fn)(struct base *, uint32_t, uint32_t,
				uint64_t) = base_add;

static double time_sim(struct pmu__sim *s, uint64_t calls, uint64_t n)
{
	uint64_t t0 = bench_now_ns();

	for (uint64_t i = 0; i < calls; i++)
		pmu__sim_advance(s, 0xC0, 0, n);
	return (double)(bench_now_ns() - t0) / (double)calls;
}

static double time_base(struct base *b, uint64_t calls, uint64_t n)
{
	void (*fn)(struct base *, uint32_t, uint32_t, uint64_t) = base_fn;
	uint64_t t0 = bench_now_ns();

	for (uint64_t i = 0; i < calls; i++)
		fn(b, 0xC0, 0, n);
	return (double)(bench_now_ns() - t0) / (double)calls;
}

static int setup(struct pmu__sim *s)
{
	const struct pmu_hwmodel *m = pmu__hwmodel_find("p6");

	if (!m || pmu__sim_init(s, m))
		return -1;
	/* Both counters on instructions retired, user + kernel. */
	if (pmu__sim_wrmsr(s, 0x186, 0x004300C0) ||
	    pmu__sim_wrmsr(s, 0x187, 0x000300C0))
		return -1;
	return 0;
}

static void row(const char *what, const char *unit, double v,
		double base, const char *goal, int met)
{
	printf("| %s | %.2f %s | fn-pointer add %.2f %s | %.2f | %s | %s |\n",
	       what, v, unit, base, unit, base > 0 ? v / base : 0.0, goal,
	       met ? "yes" : "no");
}

int main(int argc, char **argv)
{
	uint64_t calls = 2000000, rounds = 15;
	double one[64], one_b[64], burst[64], burst_b[64];
	struct pmu__sim s;
	struct base b = { 0 };
	double ns1, mevs, mevs_b;
	int c;

	while ((c = getopt(argc, argv, "i:r:")) != -1) {
		if (c == 'i')
			calls = strtoull(optarg, NULL, 0);
		else if (c == 'r')
			rounds = strtoull(optarg, NULL, 0);
		else {
			fprintf(stderr, "usage: bench-sim [-i CALLS] [-r ROUNDS]\n");
			return 2;
		}
	}
	if (rounds < 1 || rounds > 64 || calls < 1 || setup(&s)) {
		fprintf(stderr, "bench-sim: bad arguments or setup failed\n");
		return 1;
	}
	for (uint64_t r = 0; r < rounds; r++) {
		one[r] = time_sim(&s, calls, 1);
		one_b[r] = time_base(&b, calls, 1);
		burst[r] = time_sim(&s, calls / 16 + 1, BURST);
		burst_b[r] = time_base(&b, calls / 16 + 1, BURST);
	}
	ns1 = bench_median(one, rounds);
	mevs = BURST / bench_median(burst, rounds) * 1e3;
	mevs_b = BURST / bench_median(burst_b, rounds) * 1e3;
	row("sim advance, 1 event, 2 counters", "ns", ns1,
	    bench_median(one_b, rounds), "<= 10 ns", ns1 <= 10.0);
	/* Throughput: higher is better, so the ratio is baseline / sim. */
	printf("| sim advance, bursts of %u events | %.0f Mevents/s | "
	       "fn-pointer add %.0f Mevents/s | %.2f | >= 200 Mevents/s | %s |\n",
	       BURST, mevs, mevs_b, mevs > 0 ? mevs_b / mevs : 0.0,
	       mevs >= 200.0 ? "yes" : "no");
	/* The counts must be right, or the timing means nothing. */
	{
		uint64_t v0 = 0, v1 = 0;
		uint64_t want = rounds * (calls + (calls / 16 + 1) * BURST);

		pmu__sim_rdmsr(&s, 0xC1, &v0);
		pmu__sim_rdmsr(&s, 0xC2, &v1);
		if (v0 != (want & 0xFFFFFFFFFFull) || v0 != v1) {
			fprintf(stderr, "bench-sim: counted %llu, want %llu\n",
				(unsigned long long)v0, (unsigned long long)want);
			return 1;
		}
	}
	return 0;
}
