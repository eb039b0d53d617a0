#!/usr/bin/env bash
# pmu stat -M: the metrics of the host's kernel model ($PMU_CPUID stands
# for the host: AMD family 1Ah, amdzen5), on this machine (no PMU: the
# metrics say they are not supported) and through the LD_PRELOAD shim's
# fake PMU (hw=fake: a raw event of config C reads C % 1000003 + 1).
# Expected values come from the kernel's formulas and codes: retiring =
# 100 * ex_ret_ops / (8 * ls_not_halted_cyc), ex_ret_ops is event 0xc1,
# ls_not_halted_cyc 0x76 (x86/amdzen5 pipeline.json, core.json).  With
# $PMU_SHARED, every metric of amdzen5 is also computed here from the
# kernel's JSON with the kernel's own expression parser and compared:
# per task (the metrics of uncore events are not supported), and
# system-wide on a fake sysfs tree with the L3 and memory-controller
# PMUs, where all of them are computed.
. "$(dirname "$0")/lib.sh"
SHIM=$PMU_BUILD/tests/libinject.so
O=$TMP/out E=$TMP/err
export PMU_CPUID=AuthenticAMD-26-2
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0

run_pmu "$O" "$E" stat -M retiring -- true
expect_eq "unsupported metric: the command's exit status" "$RC" 0
expect_match "unsupported metric says so and why" "$E" \
	'# +<not supported> %slots  retiring \((ex_ret_ops|ls_not_halted_cyc) is not counted here\)'

run_pmu "$O" "$E" stat -M retirng -- true
expect_eq "unknown metric: exit 1" "$RC" 1
expect_match "unknown metric: named, with the nearest" "$E" \
	"no metric or metric group 'retirng'.*did you mean 'retiring'"
run_pmu "$O" "$E" stat -M
expect_eq "-M without a value: usage error" "$RC" 2
run_pmu "$O" "$E" stat --sim-model p6 --stream /dev/null -M retiring
expect_eq "a simulated P6 has no metrics: exit 1" "$RC" 1
# -M beside options that would drop or misplace its metrics: refused
run_pmu "$O" "$E" stat -M retiring --set task-clock -- true
expect_eq "-M with --set: usage error" "$RC" 2
expect_match "-M with --set: both named" "$E" "-M and --set cannot be combined"
run_pmu "$O" "$E" stat -M retiring --metric-only -- true
expect_eq "-M with --metric-only: usage error" "$RC" 2
expect_match "-M with --metric-only: both named" "$E" "-M and --metric-only cannot be combined"
run_pmu "$O" "$E" stat -M retiring --emulate -- true
expect_eq "-M with --emulate: usage error" "$RC" 2
expect_match "-M with --emulate: both named" "$E" "-M and --emulate cannot be combined"

if [ ! -f "$SHIM" ]; then
	skip "fake PMU ($SHIM not built)"
	done_testing
fi
inject() { # OUT ERR ARGS...
	local out=$1 err=$2; shift 2
	PMU_INJECT=hw=fake LD_PRELOAD=$SHIM "$PMU" "$@" >"$out" 2>"$err"
	RC=$?
}

# 100 * (0xc1 + 1) / (8 * (0x76 + 1)) = 100 * 194 / 952
want=20.378
inject "$O" "$E" stat -x, -M retiring -- true
expect_eq "fake PMU: exit 0" "$RC" 0
got=$(awk -F, '$NF ~ /%slots  retiring$/ {print $(NF-1)}' "$E")
expect_eq "retiring in -x output: value and 'unit  name' as the last fields" "$got" "$want"
expect_match "-x: the metric line leaves the count fields empty" "$E" '^,,,,,20\.378,%slots  retiring$'
inject "$O" "$E" stat -M retiring -- true
expect_match "text: '#  value unit  name' under its first event" "$E" \
	'^ +# +20\.4 %slots  retiring$'
inject "$O" "$E" stat -j -M retiring -- true
expect_match "json: metric-value and metric-unit" "$E" \
	'^\{"metric-value" : 20\.378[0-9]*, "metric-unit" : "%slots  retiring"\}$'
# per CPU and per core: each aggregate's metric from its own counts,
# under that aggregate's row of the metric's first event
inject "$O" "$E" stat -x, -a -A -M retiring -- true
expect_eq "-A: exit 0" "$RC" 0
expect_eq "-A: one metric line per CPU" "$(grep -c ',%slots  retiring$' "$E")" \
	"$(grep -c '^CPU[0-9]*,194,,ex_ret_ops,' "$E")"
check "-A: each CPU's metric follows its ex_ret_ops row" \
	awk -v want="$want" '/^CPU[0-9]*,194,,ex_ret_ops,/ { n = NR }
		/%slots  retiring$/ { if (NR != n + 1) exit 1; split($0, f, ",")
				     if (f[6] != want) exit 1; ok = 1 }
		END { exit !ok }' "$E"
inject "$O" "$E" stat -a --per-core -M retiring -- true
expect_eq "--per-core: exit 0" "$RC" 0
expect_eq "--per-core: one metric line per core" \
	"$(grep -c '# \+20\.4 %slots  retiring$' "$E")" \
	"$(grep -c '^S[0-9]*-D[0-9]*-C[0-9]* .* ex_ret_ops' "$E")"
inject "$O" "$E" stat -v -M PipelineL1 -- true
check "PipelineL1: each metric's events in a group" \
	grep -q 'event 1: ls_not_halted_cyc (group 0)' "$E"
inject "$O" "$E" stat -v --metric-no-group -M PipelineL1 -- true
check "--metric-no-group: no event shares a group" \
	sh -c "! grep -E 'event [0-9]+: .*\\(group ([0-9]+)\\)' '$E' | sed 's/.*(group \\([0-9]*\\)).*/\\1/' | sort | uniq -d | grep -q ."

TREE=${PMU_SHARED:+$PMU_SHARED/events/linux-6.12}
ORACLE=${PMU_SHARED:+$PMU_SHARED/reference/oracles}
if [ -z "$TREE" ] || [ ! -f "$ORACLE/metric.py" ] || ! command -v python3 >/dev/null; then
	skip "every amdzen5 metric against the kernel's parser (PMU_SHARED or python3 missing)"
	done_testing
fi
ALL=$(
	python3 - "$TREE" <<'PY'
import json, glob, os, sys
names = []
for p in sorted(glob.glob(os.path.join(sys.argv[1], "x86/amdzen5/*.json"))):
    for e in json.load(open(p)):
        if "MetricName" in e:
            names.append(e["MetricName"])
print(",".join(names))
PY

)
inject "$O" "$E" stat -x, --metric-no-group -M "$ALL" -- true
expect_eq "every amdzen5 metric: exit 0" "$RC" 0
cp "$E" "$TMP/task.out"
# System-wide over a fake sysfs tree that also has the L3 and memory
# controller PMUs (amd_l3, amd_umc_0..3, counting on CPU 0): the metrics
# of uncore events are computed too.  The fake PMUs' formats are this
# test's own; the oracle puts the events through the same ones.
SYS=$TMP/sys D=$TMP/sys/bus/event_source/devices
fmt() { mkdir -p "$D/$1/format"; echo "$3" >"$D/$1/format/$2"; }
mkdir -p "$D/cpu" "$D/software"; echo 4 >"$D/cpu/type"; echo 1 >"$D/software/type"
fmt cpu event config:0-7,32-35; fmt cpu umask config:8-15; fmt cpu edge config:18
fmt cpu inv config:23; fmt cpu cmask config:24-31
fmt amd_l3 event config:0-7; fmt amd_l3 umask config:8-15
fmt amd_l3 enallslices config:46; fmt amd_l3 enallcores config:47
fmt amd_l3 sliceid config:48-50; fmt amd_l3 threadmask config:56-57
echo 50 >"$D/amd_l3/type"; echo 0 >"$D/amd_l3/cpumask"
for k in 0 1 2 3; do
	fmt amd_umc_$k event config:0-7; fmt amd_umc_$k rdwrmask config:8-9
	echo $((60 + k)) >"$D/amd_umc_$k/type"; echo 0 >"$D/amd_umc_$k/cpumask"
done
PMU_INJECT=hw=fake PMU_INJECT_SYSFS=$SYS LD_PRELOAD=$SHIM "$PMU" stat -a -x, \
	--metric-no-group -e duration_time -M "$ALL" -- sleep 0.05 >"$O" 2>"$TMP/system.out"
expect_eq "every amdzen5 metric system-wide on fake uncore PMUs: exit 0" "$?" 0
for mode in task system; do
python3 - "$TREE" "$ORACLE" "$TMP/$mode.out" "$mode" >"$TMP/py" 2>&1 <<'PY'
import glob, json, math, os, re, sys
tree, oracle, out, mode = sys.argv[1:5]
# per task, one fake counter per core event; system-wide, one per CPU,
# and the uncore events counted on their PMUs' instances (amd_l3: one,
# amd_umc: four), through the fake PMUs' formats
system = mode == "system"
ncpu = os.cpu_count() if system else 1
L3 = {"EventCode": (0, 8), "UMask": (8, 8), "EnAllSlices": (46, 1),
      "EnAllCores": (47, 1), "SliceId": (48, 3), "ThreadMask": (56, 2)}
UMC = {"EventCode": (0, 8), "RdWrMask": (8, 2)}
uncore = {}
sys.path.insert(0, oracle)
import metric

events, metrics = {}, {}
for p in glob.glob(os.path.join(tree, "x86/amdzen5/*.json")):
    for e in json.load(open(p)):
        if "MetricName" in e:
            metrics[e["MetricName"].lower()] = e
        elif "EventName" in e and "Unit" not in e:
            code = int(e["EventCode"], 0)
            um = int(e.get("UMask", "0"), 0)
            # AMD core format: event 0-7 and 32-35, umask 8-15
            events[e["EventName"].lower()] = (code & 0xff) | (um << 8) | ((code >> 8) << 32)
        elif system and e.get("Unit") in ("L3PMC", "UMCPMC"):
            lay, n = (L3, 1) if e["Unit"] == "L3PMC" else (UMC, 4)
            cfg = 0
            for k, (lo, w) in lay.items():
                cfg |= (int(e.get(k, "0"), 0) & ((1 << w) - 1)) << lo
            uncore[e["EventName"].lower()] = (cfg, n)

# perf's generic hardware events (PERF_TYPE_HARDWARE configs of
# <linux/perf_event.h>): the shim fakes them the same way
GENERIC = {"cycles": 0, "cpu-cycles": 0, "instructions": 1,
           "cache-references": 2, "cache-misses": 3, "branches": 4,
           "branch-instructions": 4, "branch-misses": 5}

# "cpu@EVENT,cmask=N,inv@": the event's config with the AMD core
# format's fields set (cmask 24-31, inv 23, edge 18)
def cpu_term(body):
    parts = body.split(",")
    cfg = events[parts[0]]
    for t in parts[1:]:
        k, _, v = t.partition("=")
        v = int(v, 0) if v else 1
        if k == "cmask":
            cfg = (cfg & ~(0xff << 24)) | (v << 24)
        elif k == "inv":
            cfg |= v << 23
        elif k == "edge":
            cfg |= v << 18
        else:
            raise KeyError(k)
    return cfg

def smt_on():
    try:
        return float(open("/sys/devices/system/cpu/smt/active").read().strip() != "0")
    except OSError:
        return math.nan

def value(name, depth=0):
    e = metrics[name.lower()]
    t = metric.ParsePerfJson(e["MetricExpr"]).Simplify()
    return ev(t, depth)

def ev(t, d):
    if isinstance(t, metric.Constant): return float(t.value)
    if isinstance(t, metric.Literal):
        return smt_on() if t.value.lower() == "#smt_on" else math.nan
    if isinstance(t, metric.Event):
        n = re.sub(r"\\(.)", r"\1", t.name).lower()
        if n in metrics: return value(n, d + 1)
        if n in events: return float(ncpu * (events[n] % 1000003 + 1))
        if n in GENERIC: return float(ncpu * (GENERIC[n] % 1000003 + 1))
        if n in uncore:
            cfg, inst = uncore[n]
            return float(inst * (cfg % 1000003 + 1))
        if n == "duration_time" and system: return duration
        if n.startswith("cpu@") and n.endswith("@"):
            return float(ncpu * (cpu_term(n[4:-1]) % 1000003 + 1))
        raise KeyError(n)
    if isinstance(t, metric.Select):
        return ev(t.false_val, d) if ev(t.cond, d) == 0 else ev(t.true_val, d)
    if isinstance(t, metric.Function):
        a, b = ev(t.lhs, d), ev(t.rhs, d)
        if t.fn == "d_ratio": return 0.0 if b == 0 else a / b
        if t.fn == "min": return a if a < b else b
        if t.fn == "max": return a if a > b else b
    if isinstance(t, metric.Operator):
        a, b = ev(t.lhs, d), ev(t.rhs, d)
        return {"+": a + b, "-": a - b, "*": a * b,
                "/": math.nan if b == 0 else a / b}.get(t.operator)
    raise ValueError(t)

got = {}
duration = math.nan
for line in open(out):
    f0 = line.split(",")
    if len(f0) > 2 and f0[2] == "duration_time":
        duration = float(f0[0]) / 1e9  # metrics take it in seconds
for line in open(out):
    f = line.rstrip("\n").split(",")
    if len(f) >= 7 and f[0] == "" and "  " in f[-1]:
        got[f[-1].split("  ", 1)[1]] = f[-2]
bad = checked = unsupported = 0
for name, e in sorted(metrics.items()):
    unit = e.get("ScaleUnit", "1")
    scale = float(re.match(r"[0-9.e]*", unit).group(0) or 1)
    try:
        want = value(name) * scale
    except KeyError as k:
        want = None          # an event outside the core files (uncore)
    g = got.get(e["MetricName"])
    if want is None:
        unsupported += 1
        if g != "<not supported>":
            bad += 1
            print("%s: pmu %s, but it needs %s" % (name, g, "an uncore event"))
        continue
    checked += 1
    if g is None or g == "<not supported>" or (
            not (math.isnan(want) and g == "nan") and
            abs(float(g) - round(want, 3)) > 1e-3 * max(1, abs(want))):
        bad += 1
        print("%s: pmu %s, kernel's parser %.3f" % (name, g, want))
print("%s: %d amdzen5 metrics computed, %d need events outside the core "
      "files, %d differ" % (mode, checked, unsupported, bad))
sys.exit(1 if bad or not checked or (system and unsupported) else 0)
PY
rc=$?
sed 's/^/# /' "$TMP/py" | tail -15
expect_eq "every amdzen5 metric ($mode) on the fake PMU equals the kernel parser's value" "$rc" 0
done
done_testing
