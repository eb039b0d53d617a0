# SPDX-License-Identifier: MIT
"""The Python binding, call by call, errors included, on this machine's
software events and on the simulated PMU, each figure checked against
something else than libpmu where there is one (getrusage, the thread's
CPU clock, perf script, the catalogs' documented codes)."""
import ctypes
import json
import os
import resource
import shutil
import subprocess
import sys
import textwrap
import time

import pytest

import pmu
from pmu import _lib as L

PMU_BIN = os.environ.get("PMU")      # the pmu tool of the same build


def test_version_is_the_tools():
    assert pmu.version()
    if PMU_BIN:
        out = subprocess.run([PMU_BIN, "--version"], capture_output=True,
                             text=True).stdout
        assert pmu.version() in out


# ---- the structs: each ctypes mirror has the C layout ----

def test_struct_layouts_match_the_headers(tmp_path):
    inc = os.environ.get("PMU_INCLUDE")
    cc = shutil.which("cc") or shutil.which("gcc")
    if not inc or not cc:
        pytest.skip("needs PMU_INCLUDE (the headers) and a C compiler")
    lines = ['#include <stddef.h>', '#include <stdio.h>',
             '#include <pmu/pmu.h>', '#include <pmu/stat.h>',
             '#include <pmu/metric.h>', '#include <pmu/profile.h>',
             '#include <pmu/region.h>', 'int main(void) {']
    for cname, py in L.STRUCTS.items():
        lines.append('printf("%s #size %%zu\\n", sizeof(struct %s));'
                     % (cname, cname))
        for f, _ in py._fields_:
            lines.append('printf("%s %s %%zu %%zu\\n", offsetof(struct %s, '
                         '%s), sizeof(((struct %s *)0)->%s));'
                         % (cname, f, cname, f, cname, f))
    lines.append("return 0; }")
    src = tmp_path / "layout.c"
    src.write_text("\n".join(lines))
    exe = tmp_path / "layout"
    subprocess.run([cc, "-std=c11", "-D_GNU_SOURCE", "-I", inc, "-o",
                    str(exe), str(src)], check=True)
    want = {}
    for line in subprocess.run([str(exe)], capture_output=True, text=True,
                               check=True).stdout.splitlines():
        s, f, *v = line.split()
        want[(s, f)] = tuple(int(x) for x in v)
    for cname, py in L.STRUCTS.items():
        assert ctypes.sizeof(py) == want[(cname, "#size")][0], cname
        for f, _ in py._fields_:
            field = getattr(py, f)
            assert (field.offset, field.size) == want[(cname, f)], (cname, f)


# ---- sessions on this machine ----

def touch_pages(n):
    """n fresh pages written: n page faults."""
    import mmap
    psz = mmap.PAGESIZE
    m = mmap.mmap(-1, n * psz)
    for i in range(n):
        m[i * psz] = 1
    m.close()


def test_session_counts_what_getrusage_and_the_thread_clock_count():
    with pmu.Session(["task-clock", "page-faults"]) as s:
        r0 = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
        t0 = time.thread_time_ns()
        before = s.counts()
        touch_pages(300)
        x = sum(i * i for i in range(200000))
        after = s.counts()
        t1 = time.thread_time_ns()
        r1 = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
    assert x > 0
    faults = after["page-faults"] - before["page-faults"]
    assert abs(faults - (r1 - r0)) <= 3, (faults, r1 - r0)
    assert faults >= 300
    clock = after["task-clock"] - before["task-clock"]
    assert clock > 0
    assert abs(clock - (t1 - t0)) <= 0.05 * (t1 - t0) + 200000, \
        (clock, t1 - t0)


def test_values_and_their_fields():
    with pmu.Session("task-clock,page-faults") as s:
        vals = s.read()
    assert [v.name for v in vals] == ["task-clock", "page-faults"]
    for v in vals:
        assert v.status == "ok" and v.error == 0
        assert v.value == v.raw and v.enabled >= v.running > 0
        assert not v.multiplexed


def test_events_units_driver():
    s = pmu.Session(["task-clock", "page-faults"])
    assert s.events == ["task-clock", "page-faults"]
    assert s.unit(0) == ("msec", 1e-06)
    assert s.unit(1)[0] == ""
    assert s.driver == "perf"
    s.close()


def test_start_stop_reset():
    s = pmu.Session("page-faults").open()
    s.start()
    touch_pages(50)
    s.stop()
    a = s.read()[0].value
    touch_pages(50)
    assert s.read()[0].value == a          # stopped: nothing more
    assert a >= 50
    s.reset()
    assert s.read()[0].value == 0
    s.close()


def test_not_supported_events_say_why():
    s = pmu.Session(["task-clock", "cycles"]).open()
    v = s.read()
    if s.status(1) == "ok":
        pytest.skip("this machine counts cycles")
    assert v[1].status == "not-supported" and v[1].error > 0
    assert s.reason(1)
    assert s.reason(0) is None or s.status(0) == "ok"
    s.close()


def test_other_targets_pid_and_cpus():
    child = subprocess.Popen([sys.executable, "-c",
                              "import time\nwhile True: time.sleep(0.01)"])
    try:
        with pmu.Session("context-switches").open("pid", pid=child.pid) as s:
            s.start()
            time.sleep(0.3)
            assert s.read()[0].value > 0   # it wakes 100 times a second
    finally:
        child.kill()
        child.wait()
    s = pmu.Session("task-clock").open("cpus").start()
    time.sleep(0.05)
    assert s.read()[0].value > 0
    s.close()


def test_session_errors():
    with pytest.raises(pmu.PmuError) as e:
        pmu.Session("task-clock,nosuchevent")
    assert e.value.kind == "unknown-event"
    assert e.value.token == "nosuchevent"
    assert e.value.offset == len("task-clock,")
    assert e.value.errno > 0 and "nosuchevent" in str(e.value)
    with pytest.raises(pmu.PmuError) as e:
        pmu.Session("task-clock:zz")
    assert e.value.kind in ("bad-modifier", "syntax")
    s = pmu.Session("task-clock")
    with pytest.raises(pmu.PmuError) as e:
        s.read()
    assert e.value.kind == "usage"
    with pytest.raises(ValueError):
        s.open("somewhere")
    with pytest.raises(pmu.PmuError) as e:
        pmu.Session("task-clock").open("pid", pid=2**31 - 2)
    assert e.value.kind == "no-target"
    s.close()
    with pytest.raises(pmu.PmuError):
        s.read()                            # closed
    with pytest.raises(TypeError):
        pmu.Session([42])
    with pytest.raises(pmu.PmuError):
        pmu.Session("task-clock", driver="nosuchdriver")
    with pytest.raises(pmu.PmuError) as e:
        pmu.Session("task-clock").open().feed("event 0xc0\n")
    assert "stream" in str(e.value)


def test_run_counts_a_command_from_its_exec():
    s = pmu.Session(["task-clock", "page-faults"])
    rc = s.run([sys.executable, "-c",
                "import mmap\n"
                "m = mmap.mmap(-1, 500 * mmap.PAGESIZE)\n"
                "for i in range(500): m[i * mmap.PAGESIZE] = 1"])
    assert rc == 0
    v = {x.name: x for x in s.read()}
    assert v["page-faults"].value >= 500
    assert v["task-clock"].value > 0
    with pytest.raises(pmu.PmuError):
        s.run(["true"])                  # open already
    s.close()
    s = pmu.Session("task-clock")
    assert s.run(["/nonexistent/command"]) == 127
    s.close()
    assert pmu.Session("task-clock").run(
        [sys.executable, "-c", "raise SystemExit(3)"]) == 3
    with pytest.raises(ValueError):
        pmu.Session("task-clock").run([])


def test_emu_driver_agrees_with_pmu_stat_emulate():
    emu_dir = os.environ.get("PMU_EMU_DIR")
    if not PMU_BIN or not emu_dir or not os.path.exists(
            os.path.join(emu_dir, "pmu-amd64-linux")):
        pytest.skip("needs $PMU and $PMU_EMU_DIR (the emulator built)")
    if "libasan" in os.environ.get("LD_PRELOAD", ""):
        # the command would inherit the sanitizer's runtime, which cannot
        # run under the emulator (a Valgrind tool)
        pytest.skip("a sanitized libpmu: the emulator cannot run its children")
    s = pmu.Session("instructions", driver="emu")
    assert s.driver == "emu"
    assert s.run(["/bin/true"]) == 0
    (v,) = s.read()
    s.close()
    r = subprocess.run([PMU_BIN, "stat", "--emulate", "-e", "instructions",
                        "-x,", "--", "/bin/true"], capture_output=True,
                       text=True, env=os.environ)
    assert r.returncode == 0, r.stderr
    # the same program in the same environment: exactly as many
    assert v.value == int(r.stderr.split(",")[0]) > 10000


# ---- the simulated PMU: exact ----

def test_sim_counts_exactly_what_the_stream_says():
    with pmu.Session(["INST_RETIRED", "cycles"], driver="sim",
                     model="p6") as s:
        assert s.driver == "sim" and s.model
        s.feed("event 0xc0 1000\ncycles 5000\n")
        s.feed("repeat 10 {\nevent 0xc0 3\n}\n")
        v = s.read()
    assert v[0].value == 1030 and v[0].status == "ok"
    assert v[1].value == 5000


def test_sim_errors_name_the_token():
    with pmu.Session("INST_RETIRED", driver="sim", model="p6") as s:
        with pytest.raises(pmu.PmuError) as e:
            s.feed("event 0xc0 1000\nbogus 3\n")
        assert e.value.token == "bogus"
    with pytest.raises(pmu.PmuError):
        pmu.Session("INST_RETIRED", driver="sim", model="nosuchmodel")


# ---- the counting engine ----

def test_stat_per_cpu_sums_to_the_global_figure():
    s = pmu.Session("task-clock,context-switches").open("cpus").start()
    time.sleep(0.05)
    s.stop()
    per_cpu = pmu.Stat(s, "cpu")
    whole = pmu.Stat(s)
    ncpu = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
        else os.cpu_count()
    assert len(per_cpu.aggregates) >= ncpu
    assert sorted(a.cpu for a in per_cpu.aggregates) == \
        sorted(set(a.cpu for a in per_cpu.aggregates))
    rows = per_cpu.read()
    ((agg, total),) = whole.read()
    assert agg.cpu == -1 and agg.nr == len(rows)
    for i in range(2):
        assert total[i].value == sum(vals[i].value for _, vals in rows)
    with pytest.raises(ValueError):
        pmu.Stat(s, "galaxy")
    per_cpu.close()
    whole.close()
    s.close()


def test_stat_of_a_thread_target_refuses_topology():
    s = pmu.Session("task-clock").open()
    with pytest.raises(pmu.PmuError):
        pmu.Stat(s, "socket")
    s.close()


# ---- metrics ----

def test_metrics():
    with pytest.raises(pmu.PmuError) as e:
        pmu.Metrics("nosuchmetric", model="amdzen4")
    assert "nosuchmetric" in str(e.value)
    m = pmu.Metrics("frontend_bound", model="amdzen4")
    s = pmu.Session()
    m.add(s)
    assert s.events                      # the metric's events came in
    s.open().start()
    vals = s.read()
    (fb,) = m.values(vals, 1e6)
    assert fb.name == "frontend_bound" and fb.unit == "%"
    if any(v.status != "ok" for v in vals):
        assert fb.missing and fb.value != fb.value   # NaN, says which
    s.close()
    m.close()


# ---- regions ----

def test_regions_outside_pmu_do_nothing():
    assert not pmu.region_active()
    with pmu.region("x"):
        pass
    pmu.region_flush()


@pytest.mark.skipif(not PMU_BIN, reason="needs $PMU, the pmu tool")
def test_regions_under_pmu_stat(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text(textwrap.dedent("""
        import mmap, pmu
        @pmu.marked("step")
        def step():
            m = mmap.mmap(-1, 20 * mmap.PAGESIZE)
            for i in range(20):
                m[i * mmap.PAGESIZE] = 1
        with pmu.region("all"):
            for _ in range(3):
                step()
        try:
            with pmu.region("bad"):
                pmu._lib.lib.pmu_region_end(b"other")
        except pmu.PmuError:
            pass
        print("active", pmu.region_active())
    """))
    r = subprocess.run([PMU_BIN, "stat", "--regions", "-e", "page-faults",
                        "-j", "--", sys.executable, str(prog)],
                       capture_output=True, text=True, env=os.environ)
    assert r.returncode == 0, r.stderr
    assert "active True" in r.stdout
    rows = [json.loads(x) for x in r.stderr.splitlines()
            if x.startswith('{"region"')]
    step = [d for d in rows if d["region"] == "step" and "thread" not in d
            and d["event"] == "page-faults"]
    assert step and step[0]["calls"] == 3
    assert step[0]["inclusive"] >= 60
    all_ = [d for d in rows if d["region"] == "all" and "thread" not in d
            and d["event"] == "page-faults"]
    assert all_[0]["inclusive"] >= step[0]["inclusive"]


def test_region_errors():
    with pytest.raises(TypeError):
        with pmu.region(3):
            pass


# ---- the catalogs ----

def test_models_and_events():
    models = pmu.list_models()
    assert "amd64_fam19h_zen4" in models and len(models) > 100
    p6 = {e.name: e for e in pmu.list_events("p6")}
    assert p6["INST_RETIRED"].code == 0xc0          # Intel's P6 manual
    assert "u" in p6["INST_RETIRED"].modifiers
    host = pmu.host_model()
    if host:
        assert pmu.list_events()
    with pytest.raises(pmu.PmuError) as e:
        pmu.list_events("amdzen44")
    assert e.value.kind == "unknown-pmu" and "did you mean" in str(e.value)


def test_encode():
    e = pmu.encode("zen4::RETIRED_OPS:u")
    assert e.pmu == "amd64_fam19h_zen4" and e.event == "RETIRED_OPS"
    # PERF_CTL: event 0xc1, USR (bit 16) without OS (bit 17), EN (22)
    assert e.codes[0] & 0xff == 0xc1
    assert e.codes[0] & (1 << 16) and not e.codes[0] & (1 << 17)
    assert e.perf["config"] & 0xff == 0xc1 and e.perf["exclude_kernel"] == 1
    p = pmu.encode("INST_RETIRED", model="p6")
    assert p.codes[0] & 0xff == 0xc0
    with pytest.raises(pmu.PmuError) as err:
        pmu.encode("zen4::RETIRED_OPS:nosuchmod")
    assert err.value.kind == "bad-modifier"
    assert err.value.token == "nosuchmod"
    with pytest.raises(pmu.PmuError) as err:
        pmu.encode("zen4::NOSUCHEVENT")
    assert err.value.kind == "unknown-event"


# ---- perf.data ----

@pytest.fixture(scope="module")
def profile_file(tmp_path_factory):
    if not PMU_BIN:
        pytest.skip("needs $PMU, the pmu tool, to record")
    path = tmp_path_factory.mktemp("prof") / "perf.data"
    r = subprocess.run([PMU_BIN, "record", "-e", "cpu-clock", "-F", "2000",
                        "-g", "-o", str(path), "--", sys.executable, "-c",
                        "sum(i * i for i in range(3000000))"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip("pmu record failed here: " + r.stderr.strip())
    return path


def test_profile_reads_what_perf_script_reads(profile_file):
    with pmu.Profile(profile_file) as p:
        assert p.events == ["cpu-clock"]
        assert p.info["callchains"] and p.info["nsamples"] > 50
        samples = list(p)
    assert len(samples) == p.info["nsamples"]
    assert all(s.event == "cpu-clock" for s in samples)
    assert any(s.frames and s.frames[-1].sym for s in samples)
    times = [s.time for s in samples]
    assert times == sorted(times)
    perf = shutil.which("perf")
    if not perf:
        pytest.skip("no perf to compare with")
    r = subprocess.run([perf, "script", "-i", str(profile_file), "-G", "-F",
                        "tid,time,ip,sym"], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip("perf script cannot read it here: " + r.stderr[:200])
    lines = [x for x in r.stdout.splitlines() if x.strip()]
    assert len(lines) == len(samples)
    # the leaf's symbol, where both name one
    same = both = 0
    for s, line in zip(samples, lines):
        f = line.split()
        psym = f[-1] if len(f) >= 4 else None
        if s.frames and s.frames[0].sym and psym and psym != "[unknown]":
            both += 1
            same += s.frames[0].sym.split("(")[0] == psym.split("+")[0]
    assert both > 0 and same >= 0.95 * both, (same, both)


def test_profile_errors(tmp_path):
    with pytest.raises(pmu.PmuError) as e:
        pmu.Profile(tmp_path / "none.data")
    assert "none.data" in str(e.value)
    bad = tmp_path / "bad.data"
    bad.write_bytes(b"PERFILE2" + b"\0" * 50)
    with pytest.raises(pmu.PmuError):
        pmu.Profile(bad)
    p = pmu.Profile.__new__(pmu.Profile)
    p._p = None
    with pytest.raises(pmu.PmuError):
        list(p)
