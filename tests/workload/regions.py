# SPDX-License-Identifier: MIT
# The regions tests' Python program (python/pmu_regions.py): nested
# regions, a decorated function, two threads, an error.
import sys
import threading

import pmu_regions


@pmu_regions.marked()
def step(n):
    return sum(range(n))


def work():
    for _ in range(3):
        with pmu_regions.region("thread-work"):
            step(1000)


with pmu_regions.region("outer"):
    with pmu_regions.region("inner"):
        step(100)
ts = [threading.Thread(target=work) for _ in range(2)]
for t in ts:
    t.start()
for t in ts:
    t.join()
try:
    pmu_regions.end("never-begun")
except pmu_regions.RegionError as e:
    print("error", e.errno)
print("active", pmu_regions.active())
sys.exit(0)
