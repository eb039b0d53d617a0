# SPDX-License-Identifier: MIT
"""Region markers for Python programs (libpmu's <pmu/region.h>).

    import pmu_regions

    with pmu_regions.region("solve"):
        solve()

    @pmu_regions.marked("step")        # every call of step() a region
    def step(): ...

Run the program under ``pmu stat --regions -- python3 prog.py``: each
region is reported per thread with its calls, time and counts.  Outside
pmu the markers do nothing.  libpmu is found as libpmu.so.0 on the
loader's path, or at $PMU_LIBPMU.
"""
import contextlib
import ctypes
import ctypes.util
import functools
import os

__all__ = ["begin", "end", "region", "marked", "active", "flush",
           "RegionError"]


class RegionError(OSError):
    """A marker failed: an empty name, or an end that does not match
    the innermost open region of the thread (errno EINVAL)."""


def _load():
    path = os.environ.get("PMU_LIBPMU") or "libpmu.so.0"
    try:
        lib = ctypes.CDLL(path)
    except OSError:
        found = ctypes.util.find_library("pmu")
        if not found:
            raise
        lib = ctypes.CDLL(found)
    for name in ("pmu_region_begin", "pmu_region_end"):
        getattr(lib, name).argtypes = [ctypes.c_char_p]
        getattr(lib, name).restype = ctypes.c_int
    lib.pmu_region_flush.argtypes = []
    lib.pmu_region_flush.restype = ctypes.c_int
    lib.pmu_region_active.argtypes = []
    lib.pmu_region_active.restype = ctypes.c_bool
    return lib


_lib = _load()


def _call(fn, name):
    if not isinstance(name, (str, bytes)):
        raise TypeError("a region's name is a str, not %s"
                        % type(name).__name__)
    raw = name.encode("utf-8", "surrogateescape") \
        if isinstance(name, str) else name
    rc = fn(raw)
    if rc < 0:
        raise RegionError(-rc, "%s(%r): %s" % (fn.__name__, name,
                                               os.strerror(-rc)))


def begin(name):
    """Begin region `name` on the calling thread."""
    _call(_lib.pmu_region_begin, name)


def end(name):
    """End region `name`, the innermost open one of the calling thread."""
    _call(_lib.pmu_region_end, name)


def active():
    """Is the program measured by ``pmu stat --regions``?"""
    return bool(_lib.pmu_region_active())


def flush():
    """Write what the regions counted so far (done at exit anyway)."""
    rc = _lib.pmu_region_flush()
    if rc < 0:
        raise RegionError(-rc, os.strerror(-rc))


@contextlib.contextmanager
def region(name):
    """The body of a ``with`` statement as region `name`."""
    begin(name)
    try:
        yield
    finally:
        end(name)


def marked(name=None):
    """A decorator: every call of the function is a region (by default
    named after the function)."""
    def wrap(fn):
        label = name or fn.__qualname__

        @functools.wraps(fn)
        def inner(*args, **kwargs):
            with region(label):
                return fn(*args, **kwargs)
        return inner
    return wrap
