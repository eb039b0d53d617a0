# SPDX-License-Identifier: MIT
"""pmu: performance counters from Python, over libpmu.

    import pmu

    with pmu.Session(["task-clock", "page-faults"]) as s:
        work()
        for v in s.read():
            print(v.name, v.value)

Sessions count on any of libpmu's drivers: this machine's kernel
("perf"), a simulated PMU ("sim", fed an event stream) or the emulator
("emu").  Stat puts a session's readings together as perf stat does
(per CPU, core, socket...).  region() marks code for
``pmu stat --regions``.  list_models(), list_events() and encode() read
the event catalogs; Profile reads perf.data files, sample by sample,
with symbolized call chains.  Failures raise PmuError, which carries
libpmu's error kind, the offending token and its message.
"""
import contextlib
import ctypes
import functools
import math
import os
from collections import namedtuple

from . import _lib as L

__all__ = [
    "PmuError", "Value", "Session", "Stat", "Aggregate", "Metric",
    "region", "marked", "region_active", "region_flush",
    "list_models", "list_events", "Event", "encode", "Encoding",
    "host_model", "Profile", "Sample", "Frame", "version",
]

_c = L.lib


def _b(s):
    if s is None:
        return None
    if isinstance(s, bytes):
        return s
    if not isinstance(s, str):
        raise TypeError("expected a str, not %s" % type(s).__name__)
    return s.encode("utf-8", "surrogateescape")


def _s(b):
    return None if b is None else b.decode("utf-8", "surrogateescape")


class PmuError(OSError):
    """A libpmu call failed.

    errno: the error number; kind: libpmu's kind of error
    ("unknown-event", "bad-modifier", "permission", "not-supported"...);
    token: the offending token of the input ("" when none); offset: its
    byte offset in the input (-1: none); message: libpmu's one-line
    explanation, which names the cause and the fix.
    """

    def __init__(self, code, kind="system", token="", offset=-1,
                 message=None, index=-1):
        code = -code if code < 0 else code
        message = message or _s(_c.pmu_strerror(-code))
        super().__init__(code, message)
        self.kind = kind
        self.token = token
        self.offset = offset
        self.index = index
        self.message = message

    def __str__(self):
        return self.message


def _new_err():
    return L.Error(size=ctypes.sizeof(L.Error), offset=-1, index=-1)


def _raise(rc, err=None):
    """PmuError of a negative return code and its pmu_error."""
    if err is not None and err.code:
        raise PmuError(err.code, _s(_c.pmu_error_kind_name(err.kind)),
                       _s(err.token), err.offset, _s(err.message) or None,
                       err.index)
    raise PmuError(rc)


def version():
    """libpmu's version ("0.1.0")."""
    return _s(_c.pmu_version())


class _Closed:
    """A handle closed by close(), on leaving a with block, and when
    collected."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()


# ---- sessions ----

_STATUS = {0: "ok", 1: "not-supported", 2: "not-counted"}


class Value(namedtuple("Value", "name value raw enabled running status "
                                "error")):
    """One event's reading.

    value: the count scaled for multiplexing (raw * enabled / running);
    raw: as the kernel counted it; enabled, running: ns; status: "ok",
    "not-supported" or "not-counted"; error: the errno of a
    "not-supported" event, else 0.
    """
    __slots__ = ()

    @property
    def multiplexed(self):
        """Was the event off its counter part of the time?"""
        return self.status == "ok" and self.running < self.enabled


def _value(name, v):
    return Value(name, v.scaled, v.raw, v.enabled, v.running,
                 _STATUS.get(v.status, "unknown"), -v.err if v.err else 0)


_TARGETS = {"self": 0, "pid": 1, "tid": 2, "child": 3, "cpus": 4}


class Session:
    """Events counted together on one target.

    events: a perf-style list ("cycles:u,{msr/tsc/,page-faults}") or a
    list of such strings.  driver: "perf" (this machine, the default),
    "sim" (a simulated PMU of `model`, fed with feed()) or "emu".

    Used as a context manager, a session not yet opened is opened on
    the calling thread and started; leaving it stops it and frees it.
    """

    def __init__(self, events=(), *, driver=None, model=None, emu=None):
        self._s = None
        opts = L.SessionOpts(sz=ctypes.sizeof(L.SessionOpts),
                             driver=_b(driver), model=_b(model), emu=_b(emu))
        err = _new_err()
        self._s = _c.pmu_session_new_opts(ctypes.byref(opts),
                                            ctypes.byref(err))
        if not self._s:
            _raise(-22, err)
        self._open = False
        self._vals = None
        if isinstance(events, (str, bytes)):
            events = [events]
        try:
            for e in events:
                self.add(e)
        except BaseException:
            self.close()
            raise

    def _live(self):
        if not self._s:
            raise PmuError(-22, "usage", message="the session is closed")
        return self._s

    def add(self, events):
        """Add events (a perf-style list) before open()."""
        err = _new_err()
        rc = _c.pmu_session_add(self._live(), _b(events),
                                  ctypes.byref(err))
        if rc < 0:
            _raise(rc, err)
        return self

    @property
    def driver(self):
        return _s(_c.pmu_session_driver(self._live()))

    @property
    def model(self):
        return _s(_c.pmu_session_model(self._live()))

    @property
    def events(self):
        """The events' canonical names, in order."""
        s = self._live()
        return [_s(_c.pmu_session_event_name(s, i))
                for i in range(_c.pmu_session_nevents(s))]

    def unit(self, i):
        """(unit, scale) of event i: ("msec", 1e-06) for task-clock."""
        scale = ctypes.c_double(1.0)
        u = _c.pmu_session_event_unit(self._live(), i,
                                        ctypes.byref(scale))
        return _s(u) or "", scale.value

    def status(self, i):
        """After open(): "ok" or "not-supported" (with reason())."""
        e = ctypes.c_int(0)
        return _STATUS.get(_c.pmu_session_event_status(
            self._live(), i, ctypes.byref(e)), "unknown")

    def reason(self, i):
        """Why event i is not supported, or None."""
        return _s(_c.pmu_session_event_reason(self._live(), i))

    def set_cgroup(self, i, cgroup):
        """Count event i only in `cgroup` (needs target="cpus")."""
        err = _new_err()
        rc = _c.pmu_session_set_cgroup(self._live(), i, _b(cgroup),
                                         ctypes.byref(err))
        if rc < 0:
            _raise(rc, err)

    def open(self, target="self", *, pid=0, pids=None, cpus=None,
             inherit=False):
        """Open every event on the target: "self" (the calling
        thread), "pid" or "tid" (pid, or several: pids) or "cpus"
        (system-wide; cpus a list like "0-3", None: all)."""
        if target not in _TARGETS:
            raise ValueError("target: one of self, pid, tid, cpus (child: "
                             "run() forks it); not %r" % (target,))
        o = L.OpenOpts(sz=ctypes.sizeof(L.OpenOpts),
                       target=_TARGETS[target], pid=pid, cpus=_b(cpus),
                       inherit=inherit)
        if pids:
            arr = (L.c_pid_t * len(pids))(*pids)
            o.pids = ctypes.cast(arr, ctypes.POINTER(L.c_pid_t))
            o.npids = len(pids)
        err = _new_err()
        rc = _c.pmu_session_open(self._live(), ctypes.byref(o),
                                   ctypes.byref(err))
        if rc < 0:
            _raise(rc, err)
        self._open = True
        n = _c.pmu_session_nevents(self._s)
        self._vals = (L.Value * max(n, 1))()
        self._names = self.events
        return self

    def run(self, argv):
        """Count a command from its exec to its end (the session not yet
        opened): under the emulator for the "emu" driver.  Returns its
        exit status as os.waitstatus_to_exitcode() gives it; read()
        then gives its counts."""
        if self._open:
            raise PmuError(-22, "usage", message="run() opens the session: "
                           "it is open already")
        args = [_b(a) for a in argv]
        if not args:
            raise ValueError("run(): no command")
        arr = (ctypes.c_char_p * (len(args) + 1))(*args, None)
        out = ctypes.POINTER(ctypes.c_char_p)()
        err = _new_err()
        rc = _c.pmu_session_command(self._live(), arr, ctypes.byref(out),
                                    ctypes.byref(err))
        if rc < 0:
            _raise(rc, err)
        cmd = []
        while out[len(cmd)] is not None:
            cmd.append(out[len(cmd)])
        L.free(ctypes.cast(out, ctypes.c_void_p))
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:                     # the child: exec once told to
            try:
                os.close(w)
                if os.read(r, 1) == b"x":
                    os.execvp(cmd[0], cmd)
            finally:
                os._exit(127)
        os.close(r)
        try:
            self.open("child", pid=pid)
        except BaseException:
            os.close(w)                  # the child exits unexec'd
            os.waitpid(pid, 0)
            raise
        os.write(w, b"x")
        os.close(w)
        _, status = os.waitpid(pid, 0)
        return os.waitstatus_to_exitcode(status)

    def _rc(self, rc):
        if rc < 0:
            _raise(rc)
        return self

    def start(self):
        return self._rc(_c.pmu_session_start(self._live()))

    def stop(self):
        return self._rc(_c.pmu_session_stop(self._live()))

    def reset(self):
        return self._rc(_c.pmu_session_reset(self._live()))

    def read(self):
        """Every event's Value, in order."""
        s = self._live()
        if not self._open:
            raise PmuError(-22, "usage",
                           message="open the session before reading it")
        vals = self._vals
        n = len(self._names)
        vals[0].size = ctypes.sizeof(L.Value)
        r = _c.pmu_session_read(s, vals, n)
        if r < 0:
            _raise(r)
        return [_value(self._names[i], vals[i]) for i in range(r)]

    def counts(self):
        """{name: scaled count} of the events counted."""
        return {v.name: v.value for v in self.read() if v.status == "ok"}

    def feed(self, stream):
        """Run an event stream on a simulated PMU (driver "sim"): what
        the stream says happened is counted exactly."""
        b = _b(stream)
        err = _new_err()
        rc = _c.pmu_session_feed(self._live(), b, len(b),
                                   ctypes.byref(err))
        if rc < 0:
            _raise(rc, err)
        return self

    def close(self):
        if self._s:
            _c.pmu_session_free(self._s)
            self._s = None

    def __enter__(self):
        if not self._open:
            self.open()
            self.start()
        return self

    def __exit__(self, *exc):
        if self._s and self._open:
            _c.pmu_session_stop(self._s)
        self.close()

    def __del__(self):
        self.close()


# ---- the counting engine ----

_MODES = {"global": 0, "cpu": 1, "thread": 2, "core": 3, "socket": 4,
          "die": 5, "node": 6, "cache": 7}

Aggregate = namedtuple("Aggregate", "cpu socket die core node cache_level "
                                    "cache_id tid comm nr")
Aggregate.__doc__ = """One aggregate of a Stat: what a row of perf stat's
output names (-1 where the mode does not group by it)."""


class Stat(_Closed):
    """A session's readings put together as perf stat does: mode
    "global" (one figure per event), "cpu" (perf stat -A), "thread",
    "core", "socket", "die", "node" or "cache" (cache_level: 1, 2, 3;
    0 the highest).  The session must be open and outlive the Stat."""

    def __init__(self, session, mode="global", *, cache_level=0,
                 no_merge=False):
        self._st = None
        if mode not in _MODES:
            raise ValueError("mode: one of %s; not %r"
                             % (", ".join(_MODES), mode))
        self._session = session
        o = L.StatOpts(sz=ctypes.sizeof(L.StatOpts), mode=_MODES[mode],
                       cache_level=cache_level, no_merge=no_merge)
        err = _new_err()
        self._st = _c.pmu_stat_new(session._live(), ctypes.byref(o),
                                     ctypes.byref(err))
        if not self._st:
            _raise(-22, err)
        self.aggregates = []
        for a in range(_c.pmu_stat_naggr(self._st)):
            g = L.Aggr(size=ctypes.sizeof(L.Aggr))
            _c.pmu_stat_aggr(self._st, a, ctypes.byref(g))
            self.aggregates.append(Aggregate(
                g.cpu, g.socket, g.die, g.core, g.node, g.cache_level,
                g.cache_id, g.tid, _s(g.comm), g.nr))

    def read(self):
        """[(Aggregate, [Value per event])...]; events another one's
        count was folded into (a merged uncore event's instances) are
        left out."""
        names = self._session.events
        n, na = len(names), len(self.aggregates)
        vals = (L.Value * max(n * na, 1))()
        vals[0].size = ctypes.sizeof(L.Value)
        r = _c.pmu_stat_read(self._st, vals, n * na)
        if r < 0:
            _raise(r)
        keep = [i for i in range(n) if not _c.pmu_stat_folded(self._st, i)]
        return [(agg, [_value(names[i], vals[a * n + i]) for i in keep])
                for a, agg in enumerate(self.aggregates)]

    def close(self):
        if self._st:
            _c.pmu_stat_free(self._st)
            self._st = None


# ---- metrics ----

Metric = namedtuple("Metric", "name value unit missing")
Metric.__doc__ = """A metric's value (NaN when an event it needs is
missing: `missing` names it)."""


class Metrics(_Closed):
    """Metrics of a catalog ("IPC,TopdownL1") measured by a session: add()
    puts their events into the session before it opens; values() computes
    them from counts over a duration."""

    def __init__(self, names, *, model=None, no_group=False):
        self._m = None
        o = L.MetricSetOpts(sz=ctypes.sizeof(L.MetricSetOpts),
                            model=_b(model), no_group=no_group)
        err = _new_err()
        self._m = _c.pmu_metric_set_new(_b(names), ctypes.byref(o),
                                          ctypes.byref(err))
        if not self._m:
            _raise(-22, err)

    def add(self, session):
        err = _new_err()
        rc = _c.pmu_metric_set_add(self._m, session._live(),
                                     ctypes.byref(err))
        if rc < 0:
            _raise(rc, err)
        return self

    def values(self, values, duration_ns):
        """Metrics from a session's Values (read() of it, or deltas)."""
        counts = (ctypes.c_double * max(len(values), 1))()
        for i, v in enumerate(values):
            counts[i] = (v.value if v.status == "ok" else
                         math.nan if v.status == "not-supported" else 0.0)
        out = []
        for k in range(_c.pmu_metric_set_count(self._m)):
            mv = L.MetricValue(size=ctypes.sizeof(L.MetricValue))
            err = _new_err()
            rc = _c.pmu_metric_set_value(self._m, k, counts, len(values),
                                           float(duration_ns),
                                           ctypes.byref(mv),
                                           ctypes.byref(err))
            if rc < 0:
                _raise(rc, err)
            out.append(Metric(_s(mv.name), mv.value, _s(mv.unit) or "",
                              _s(mv.missing)))
        return out

    def close(self):
        if self._m:
            _c.pmu_metric_set_free(self._m)
            self._m = None


__all__.append("Metrics")


# ---- regions ----

def _marker(fn, name):
    rc = fn(_b(name))
    if rc < 0:
        raise PmuError(rc, "usage", name if isinstance(name, str) else "",
                       message="region %r: %s" % (name, _s(
                           _c.pmu_strerror(rc))))


@contextlib.contextmanager
def region(name):
    """A region of the calling thread for ``pmu stat --regions``; does
    nothing outside it."""
    _marker(_c.pmu_region_begin, name)
    try:
        yield
    finally:
        _marker(_c.pmu_region_end, name)


def marked(name):
    """Decorator: every call of the function is region `name`."""
    def wrap(fn):
        @functools.wraps(fn)
        def inner(*a, **k):
            with region(name):
                return fn(*a, **k)
        return inner
    return wrap


def region_active():
    """Is this program measured by ``pmu stat --regions``?"""
    return bool(_c.pmu_region_active())


def region_flush():
    """Write the regions so far (before os._exit or an exec)."""
    rc = _c.pmu_region_flush()
    if rc < 0:
        _raise(rc)


# ---- the event catalogs ----

def _catalog(model):
    if model is None:
        model = _s(_c.pmu_event_host_model())
        if not model:
            raise PmuError(-2, "unknown-pmu",
                           message="no catalog for this machine's CPU: "
                                   "name a model (list_models())")
    m = _c.pmu_catalog_find(_b(model))
    if m < 0:
        near = _s(_c.pmu_catalog_suggest(_b(model)))
        raise PmuError(m, "unknown-pmu", model, 0,
                       "no event catalog '%s'%s" % (
                           model, "; did you mean '%s'?" % near if near
                           else " (list_models() names them)"))
    return m


def host_model():
    """The catalog model of this machine's CPU, or None."""
    return _s(_c.pmu_event_host_model())


def list_models():
    """Every catalog model's name."""
    out = []
    for m in range(_c.pmu_catalog_count()):
        i = L.CatalogInfo(size=ctypes.sizeof(L.CatalogInfo))
        if _c.pmu_catalog_info(m, ctypes.byref(i)) == 0:
            out.append(_s(i.name))
    return out


Event = namedtuple("Event", "name desc code umasks modifiers precise")
Event.__doc__ = """A catalog event: its unit masks and modifiers by
name."""


def list_events(model=None):
    """The events of a catalog model (None: this machine's)."""
    m = _catalog(model)
    info = L.CatalogInfo(size=ctypes.sizeof(L.CatalogInfo))
    _c.pmu_catalog_info(m, ctypes.byref(info))
    out = []
    for e in range(info.nevents):
        ev = L.EventInfo(size=ctypes.sizeof(L.EventInfo))
        if _c.pmu_catalog_event_info(m, e, ctypes.byref(ev)):
            continue
        umasks, mods = [], []
        for a in range(ev.nattrs):
            at = L.AttrInfo(size=ctypes.sizeof(L.AttrInfo))
            if _c.pmu_catalog_attr_info(m, e, a, ctypes.byref(at)) == 0:
                (umasks if at.type == 0 else mods).append(_s(at.name))
        out.append(Event(_s(ev.name), _s(ev.desc) or "", ev.code,
                         tuple(umasks), tuple(mods), ev.precise))
    return out


Encoding = namedtuple("Encoding", "pmu event codes fstr perf_fstr perf "
                                  "cntmsk")
Encoding.__doc__ = """An event's encoding: the raw register codes, the
fully qualified strings and, where perf counts it, the perf_event_attr
fields (a dict; None otherwise)."""


def encode(event, model=None):
    """Encode one event string of a catalog (libpfm4's syntax
    "zen4::RETIRED_OPS:u", or a name of `model`)."""
    o = L.EncodeOpts(sz=ctypes.sizeof(L.EncodeOpts), model=_b(model))
    out = L.Encoding(size=ctypes.sizeof(L.Encoding))
    err = _new_err()
    rc = _c.pmu_event_encode(_b(event), ctypes.byref(o), ctypes.byref(out),
                               ctypes.byref(err))
    if rc < 0:
        _raise(rc, err)
    perf = None
    if out.has_perf:
        p = out.perf
        perf = {f: getattr(p, f) for f, _ in L.EncodingPerf._fields_}
    return Encoding(_s(out.pmu), _s(out.event),
                    tuple(out.codes[i] for i in range(out.ncodes)),
                    _s(out.fstr), _s(out.perf_fstr), perf, out.cntmsk)


# ---- perf.data ----

Frame = namedtuple("Frame", "ip addr sym sym_off dso dso_short srcfile line "
                            "kind")
Frame.__doc__ = """A call-chain frame: sym None when unknown; kind
"user", "kernel" or "inlined"."""
Sample = namedtuple("Sample", "event pid tid cpu time period ip comm kernel "
                              "frames")
Sample.__doc__ = """One sample: event is its event's name; frames the
call chain, leaf first."""
_KINDS = {0: "user", 1: "kernel", 2: "inlined"}


class Profile(_Closed):
    """A perf.data file (pmu record's or perf record's), read sample by
    sample in time order, each with its symbolized call chain.

        with pmu.Profile("perf.data") as p:
            for s in p:
                print(s.comm, s.frames[0].sym if s.frames else None)

    lines=False skips DWARF (no source lines nor inlined frames: faster).
    """

    def __init__(self, path="perf.data", *, lines=True, inline=True,
                 max_stack=0):
        self._p = None
        o = L.ProfileOpts(sz=ctypes.sizeof(L.ProfileOpts),
                          no_lines=not lines, no_inline=not inline,
                          max_stack=max_stack)
        err = _new_err()
        self._p = _c.pmu_profile_open(_b(str(path)), ctypes.byref(o),
                                        ctypes.byref(err))
        if not self._p:
            _raise(-2, err)
        i = L.ProfileInfo(size=ctypes.sizeof(L.ProfileInfo))
        _c.pmu_profile_info(self._p, ctypes.byref(i))
        self.info = {f: (_s(getattr(i, f)) if t is ctypes.c_char_p
                         else getattr(i, f))
                     for f, t in L.ProfileInfo._fields_ if f != "size"}
        self.events = []
        while True:
            n = _c.pmu_profile_event_name(self._p, len(self.events))
            if n is None:
                break
            self.events.append(_s(n))

    def _live(self):
        if not self._p:
            raise PmuError(-22, "usage", message="the profile is closed")
        return self._p

    def __iter__(self):
        p = self._live()
        rc = _c.pmu_profile_rewind(p)
        if rc < 0:
            _raise(rc)
        s = L.Sample(size=ctypes.sizeof(L.Sample))
        f = L.Frame(size=ctypes.sizeof(L.Frame))
        while True:
            rc = _c.pmu_profile_next(p, ctypes.byref(s))
            if rc < 0:
                _raise(rc)
            if rc == 0:
                return
            frames = []
            for k in range(s.nframes):
                if _c.pmu_profile_frame(p, k, ctypes.byref(f)) == 0:
                    frames.append(Frame(f.ip, f.addr, _s(f.sym), f.sym_off,
                                        _s(f.dso), _s(f.dso_short),
                                        _s(f.srcfile), f.line,
                                        _KINDS.get(f.kind, "user")))
            yield Sample(self.events[s.event] if s.event < len(self.events)
                         else None, s.pid, s.tid,
                         None if s.cpu == 0xffffffff else s.cpu, s.time,
                         s.period, s.ip, _s(s.comm), s.kernel, frames)

    def close(self):
        if self._p:
            _c.pmu_profile_close(self._p)
            self._p = None
