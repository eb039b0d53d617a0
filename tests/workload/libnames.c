/* SPDX-License-Identifier: MIT */
/*
 * Symbol names as toolchains write them, for the profile reader's
 * tests: a versioned definition (names_versioned@@PMU_1 in .symtab)
 * and a C++-mangled function called through a PLT slot
 * (_ZN3pmu6targetEi@plt, which perf shows as pmu::target@plt).
 */
int names_versioned_impl(int x);
int names_mangled(int x) __asm__("_ZN3pmu6targetEi");
int names_caller(int x);

__asm__(".symver names_versioned_impl, names_versioned@@PMU_1");

int names_versioned_impl(int x)
{
	return x + 7;
}

/* global and interposable: calls to it from here go through the PLT */
__attribute__((noinline)) int names_mangled(int x)
{
	return x * 5;
}

int names_caller(int x)
{
	return names_mangled(x) + 1;
}
