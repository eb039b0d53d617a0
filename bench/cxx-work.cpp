// SPDX-License-Identifier: MIT
// A C++ program built -O2 -g for the source-line benchmark: templates,
// lambdas and standard containers, so most of its time is in inlined
// code spread over many source lines, as in real C++ programs.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <numeric>
#include <string>
#include <vector>

template <typename T> struct Matrix {
	std::vector<T> v;
	size_t n;
	explicit Matrix(size_t n_) : v(n_ * n_), n(n_) {}
	T &at(size_t i, size_t j) { return v[i * n + j]; }
};

template <typename T> static Matrix<T> mul(Matrix<T> &a, Matrix<T> &b)
{
	Matrix<T> c(a.n);
	for (size_t i = 0; i < a.n; i++)
		for (size_t k = 0; k < a.n; k++) {
			T x = a.at(i, k);
			for (size_t j = 0; j < a.n; j++)
				c.at(i, j) += x * b.at(k, j);
		}
	return c;
}

static unsigned long words(unsigned seed, int n)
{
	std::map<std::string, int> m;
	for (int i = 0; i < n; i++) {
		seed = seed * 1103515245 + 12345;
		std::string w(1 + seed % 7, char('a' + seed % 26));
		m[w] += i;
	}
	unsigned long s = 0;
	for (auto &kv : m)
		s += kv.first.size() * (unsigned long)kv.second;
	return s;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 10;
	double acc = 0;
	for (int r = 0; r < rounds; r++) {
		Matrix<double> a(120), b(120);
		std::iota(a.v.begin(), a.v.end(), r);
		std::transform(b.v.begin(), b.v.end(), b.v.begin(),
			       [r](double x) { return x + r * 0.5; });
		Matrix<double> c = mul(a, b);
		acc += std::accumulate(c.v.begin(), c.v.end(), 0.0);
		std::vector<int> v(50000);
		for (size_t i = 0; i < v.size(); i++)
			v[i] = int((i * 2654435761u) >> 7);
		std::sort(v.begin(), v.end());
		acc += v[v.size() / 2] + words(r, 20000);
	}
	printf("%g\n", acc);
	return 0;
}
