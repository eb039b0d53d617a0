// SPDX-License-Identifier: MIT
// Nested inlining for the inline-chain tests: at -O2 -g, eval and
// accumulate are inlined into integrate<T>, which is inlined into
// run<T>, which is inlined into main, so one sampled address stands
// for a chain of several functions, each with its own source line.
#include <cstdio>
#include <cstdlib>

static inline double eval(double x)
{
	return x * x * 0.5 + x * 0.25 + 1.0;
}

static inline double accumulate(double s, double y)
{
	return s + y / (1.0 + s * 1e-12);
}

template <typename T> static inline T integrate(T lo, T hi, int n)
{
	T s = 0, h = (hi - lo) / n;
	for (int i = 0; i < n; i++)
		s = accumulate(s, eval(lo + h * i) * h);
	return s;
}

template <typename T> static inline T run(int rounds, int n)
{
	T total = 0;
	for (int r = 0; r < rounds; r++)
		total += integrate<T>(T(r), T(r + 1), n);
	return total;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 200;
	double d = run<double>(rounds, 200000);
	float f = run<float>(rounds / 4, 200000);
	printf("%g %g\n", d, (double)f);
	return 0;
}
