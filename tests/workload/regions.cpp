// SPDX-License-Identifier: MIT
// The regions tests' C++ program: pmu_region_scope, nested, across an
// early return and an exception.
#include <cstdio>
#include <stdexcept>

#include <pmu/region.h>

static int work(int i)
{
	pmu_region_scope s("work");
	if (i == 1)
		return 1;              // the scope still ends the region
	if (i == 2)
		throw std::runtime_error("two");
	return 0;
}

int main()
{
	{
		pmu_region_scope outer("outer");
		for (int i = 0; i < 3; i++) {
			try {
				work(i);
			} catch (const std::exception &) {
			}
		}
	}
	std::printf("active %d\n", pmu_region_active() ? 1 : 0);
	return 0;
}
