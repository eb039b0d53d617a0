#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The Python binding's read cost: Session.read() of
{task-clock,page-faults} on the calling thread, and the bare ctypes call
of pmu_session_read() beneath it, ns per call (median of rounds).
Prints "py NS" and "ctypes NS".  PMU_LIBPMU names the library."""
import statistics
import sys
import time

sys.path.insert(0, sys.argv[1])          # the python/ directory
import pmu                               # noqa: E402
from pmu import _lib as L                # noqa: E402

n = int(sys.argv[2]) if len(sys.argv) > 2 else 50000
with pmu.Session("task-clock,page-faults") as s:
    def rounds(fn):
        out = []
        for _ in range(15):
            t0 = time.perf_counter_ns()
            for _ in range(n):
                fn()
            out.append((time.perf_counter_ns() - t0) / n)
        return statistics.median(out)
    vals = (L.Value * 2)()
    vals[0].size = L.ctypes.sizeof(L.Value)
    raw = L.lib.pmu_session_read
    handle = s._s
    print("py %.1f" % rounds(s.read))
    print("ctypes %.1f" % rounds(lambda: raw(handle, vals, 2)))
