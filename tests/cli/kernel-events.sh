#!/usr/bin/env bash
# Every core event of every model of the kernel's pmu-events tree
# ($PMU_SHARED/events/linux-6.12), read here directly from its JSON files:
# each event name (as the file spells it, and in lower case as perf lists
# it) must encode, for its model, to the perf_event_attr config and
# config1 that perf's event string for it gives through the core PMU's
# sysfs format as the kernel declares it (arch/x86/events/intel/core.c,
# arch/x86/events/amd/core.c, drivers/perf/arm_pmuv3.c, ...).  The event
# string is built here as perf's generator builds it
# (tools/perf/pmu-events/jevents.py): EventCode, UMask, CounterMask,
# EdgeDetect, Invert, AnyThread, the MSR terms offcore_rsp/ldlat/frontend
# with MSRValue, ConfigCode, ArchStdEvent records taking the arch
# directory's standard event, and the fixed-counter events perf spells
# with their architectural codes.  Any mismatch fails.
. "$(dirname "$0")/lib.sh"

TREE=${PMU_SHARED:+$PMU_SHARED/events/linux-6.12}
if [ -z "$TREE" ] || [ ! -d "$TREE" ]; then
	skip "kernel pmu-events encodings (PMU_SHARED/events/linux-6.12 missing)"
	done_testing
fi
if ! command -v python3 >/dev/null 2>&1; then
	skip "kernel pmu-events encodings (python3 missing)"
	done_testing
fi

PYTHONPATH=$(dirname "$0") python3 - "$PMU" "$TREE" >"$TMP/out" 2>&1 <<'PY'
import glob, json, os, subprocess, sys
import kernel_tree

pmu, tree = sys.argv[1], sys.argv[2]

# The core PMUs' sysfs formats as the kernel declares them.
INTEL = {"event": "config:0-7", "umask": "config:8-15", "edge": "config:18",
         "pc": "config:19", "any": "config:21", "inv": "config:23",
         "cmask": "config:24-31", "in_tx": "config:32",
         "in_tx_cp": "config:33", "offcore_rsp": "config1:0-63",
         "ldlat": "config1:0-15", "frontend": "config1:0-23"}
AMD = {"event": "config:0-7,32-35", "umask": "config:8-15",
       "edge": "config:18", "inv": "config:23", "cmask": "config:24-31"}
FORMATS = {"intel": INTEL, "amd": AMD,
           "arm64": {"event": "config:0-15"},
           "power8": {"event": "config:0-49"},
           "power9": {"event": "config:0-51"},
           "power10": {"event": "config:0-59"},
           "s390": {"event": "config:0-63"},
           "riscv": {"event": "config:0-47"}}

def deposit(fmt, val, attr):
    field, bits = fmt.split(":")
    for part in bits.split(","):
        lo, hi = (part.split("-") + [part])[:2]
        lo, hi = int(lo), int(hi)
        width = hi - lo + 1
        attr[field] |= (val & ((1 << width) - 1)) << lo
        val >>= width
    if val:
        raise ValueError("value %#x does not fit %s" % (val, fmt))

def num(v):
    return int(str(v).split(",")[0].strip(), 0)

MSR = {0x3F6: "ldlat", 0x1A6: "offcore_rsp", 0x1A7: "offcore_rsp",
       0x3F7: "frontend"}
FIXED = {"inst_retired.any": [("event", 0xc0)],
         "inst_retired.any_p": [("event", 0xc0)],
         "cpu_clk_unhalted.ref": [("event", 0), ("umask", 3)],
         "cpu_clk_unhalted.thread": [("event", 0x3c)],
         "cpu_clk_unhalted.core": [("event", 0x3c)],
         "cpu_clk_unhalted.thread_any": [("event", 0x3c), ("any", 1)]}

def terms(e):
    """perf's event string for a record, as (term, value) pairs."""
    name = e["EventName"].lower()
    if name in FIXED:
        return FIXED[name]
    if "ConfigCode" in e:
        return [("config", num(e["ConfigCode"]))]
    t = [("event", num(e.get("EventCode", "0")))]
    for key, term in (("AnyThread", "any"), ("CounterMask", "cmask"),
                      ("EdgeDetect", "edge"), ("Invert", "inv"),
                      ("UMask", "umask")):
        if key in e and e[key] != "0":
            t.append((term, num(e[key])))
    if "MSRIndex" in e and "MSRValue" in e:
        t.append((MSR[num(e["MSRIndex"])], num(e["MSRValue"])))
    return t

def std_events(arch):
    std = {}
    for path in glob.glob(os.path.join(tree, arch, "*.json")):
        for e in json.load(open(path)):
            if "EventName" in e:
                std[e["EventName"].lower()] = e
    return std

def core_unit(e):
    return e.get("Unit") in (None, "cpu_core", "cpu_atom", "CPU-M-CF")

def records(arch, sub, std):
    for path in sorted(glob.glob(os.path.join(tree, arch, sub, "*.json"))):
        data = json.load(open(path))
        if not isinstance(data, list):
            continue
        for e in data:
            if "MetricName" in e or "MetricExpr" in e or not core_unit(e):
                continue
            if "ArchStdEvent" in e:
                if e["ArchStdEvent"].lower() not in std:
                    continue        # a standard metric
                base = dict(std[e["ArchStdEvent"].lower()])
                base.update(e)
                e = base
            if "EventName" in e:
                yield e

def models():
    for arch, ident, sub in kernel_tree.core_models(tree):
        kind = sub if arch == "powerpc" else arch
        if arch == "x86":
            kind = "intel" if ident.startswith("GenuineIntel") else "amd"
        yield arch, kind, sub

def encode(model, names):
    out = subprocess.run([pmu, "encode", "--json", "--model", model] + names,
                         capture_output=True, text=True).stdout
    return [json.loads(l) for l in out.splitlines()]

bad = total = 0
for arch, kind, sub in models():
    std = std_events(arch)
    by_model = {}
    for e in records(arch, sub, std):
        leaf = sub.split("/")[-1]
        model = leaf + "_atom" if e.get("Unit") == "cpu_atom" else leaf
        by_model.setdefault(model, {})[e["EventName"]] = e
    for model, evs in sorted(by_model.items()):
        names = sorted(evs)
        want = {}
        for n in names:
            attr = {"config": 0, "config1": 0}
            for term, val in terms(evs[n]):
                if term == "config":
                    attr["config"] = val
                else:
                    try:
                        deposit(FORMATS[kind][term], val, attr)
                    except ValueError as x:
                        raise ValueError("%s::%s: %s" % (model, n, x))
            want[n] = attr
        for spelling in (names, [n.lower() for n in names]):
            got = encode(model, spelling)
            if len(got) != len(spelling):
                bad += 1
                print("%s: %d answers for %d names" % (model, len(got), len(spelling)))
                continue
            for n, s, g in zip(names, spelling, got):
                total += 1
                w = want[n]
                if "error" in g:
                    bad += 1
                    print("%s::%s: %s" % (model, s, g.get("message")))
                    continue
                have = (int(g["perf"]["config"], 16), int(g["perf"]["config1"], 16))
                if have != (w["config"], w["config1"]):
                    bad += 1
                    print("%s::%s: config %#x config1 %#x, perf's %#x %#x"
                          % (model, s, have[0], have[1], w["config"], w["config1"]))
print("%d event names of the kernel's tree encoded, %d differ" % (total, bad))
sys.exit(1 if bad else 0)
PY
rc=$?
tail -40 "$TMP/out" | sed 's/^/# /'
expect_eq "every kernel pmu-events event encodes to perf's config" "$rc" 0
done_testing
