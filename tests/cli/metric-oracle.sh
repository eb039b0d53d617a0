#!/usr/bin/env bash
# Every MetricExpr of every model of the kernel's pmu-events tree
# ($PMU_SHARED/events/linux-6.12) against the kernel's own expression
# parser ($PMU_SHARED/reference/oracles/metric.py, which perf's generator
# uses): the oracle parses each expression into its tree (and simplifies
# it, as the generator does before perf sees it), the tree is evaluated
# here over random counts and #literals with perf's rules for each node
# (tools/perf/util/expr.y: '/' by zero is NaN, d_ratio() by zero 0,
# comparisons 1 or 0, | & ^ logical, "a if c else b" takes a unless c is
# zero, NaN for an uncounted event), and pmu's value for the same
# expression and inputs must agree to 1e-9 relative.  Three rounds: all
# counts positive, some counts zero, some events not counted (NaN).
. "$(dirname "$0")/lib.sh"

TREE=${PMU_SHARED:+$PMU_SHARED/events/linux-6.12}
ORACLE=${PMU_SHARED:+$PMU_SHARED/reference/oracles}
if [ -z "$TREE" ] || [ ! -d "$TREE" ] || [ ! -f "$ORACLE/metric.py" ]; then
	skip "metric oracle (PMU_SHARED events tree or oracles missing)"
	done_testing
fi
if ! command -v python3 >/dev/null 2>&1; then
	skip "metric oracle (python3 missing)"
	done_testing
fi
EVAL=$PMU_BUILD/tests/metric-eval
if [ ! -x "$EVAL" ]; then
	not_ok "metric oracle: $EVAL not built"
	done_testing
fi

python3 - "$EVAL" "$TREE" "$ORACLE" >"$TMP/out" 2>&1 <<'PY'
import glob, json, math, os, random, re, subprocess, sys

helper, tree, oracle = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, oracle)
import metric

def metrics():
    """(model path, MetricExpr) of every metric, ArchStdEvent resolved."""
    out = []
    for arch in ("x86", "arm64", "powerpc", "s390", "riscv"):
        std = {}
        for path in glob.glob(os.path.join(tree, arch, "*.json")):
            for e in json.load(open(path)):
                if "MetricName" in e:
                    std[e["MetricName"].lower()] = e
        for path in sorted(glob.glob(os.path.join(tree, arch, "**", "*.json"),
                                     recursive=True)):
            if os.path.dirname(path) == os.path.join(tree, arch):
                continue
            data = json.load(open(path))
            if not isinstance(data, list):
                continue
            for e in data:
                if "ArchStdEvent" in e and e["ArchStdEvent"].lower() in std:
                    base = dict(std[e["ArchStdEvent"].lower()])
                    base.update(e)
                    e = base
                if "MetricExpr" in e:
                    out.append((os.path.relpath(path, tree), e["MetricExpr"]))
    return out

def unescape(name):
    return re.sub(r"\\(.)", r"\1", name)

def zero(v):
    return v == 0.0

def ev(t, env):
    """perf's value of an oracle tree node."""
    if isinstance(t, metric.Constant):
        return float(t.value)
    if isinstance(t, metric.Literal):
        return env["lit"][t.value]
    if isinstance(t, metric.Event):
        return env["val"][unescape(t.name)]
    if isinstance(t, metric.Select):
        c = ev(t.cond, env)
        return ev(t.false_val, env) if zero(c) else ev(t.true_val, env)
    if isinstance(t, metric.Function):
        if t.fn == "source_count":
            return 1.0
        if t.fn == "has_event":
            return 1.0 if unescape(t.lhs.name) in env["has"] else 0.0
        if t.fn == "strcmp_cpuid_str":
            return 1.0 if midr_match(t.lhs.name, env["cpuid"]) else 0.0
        a, b = ev(t.lhs, env), ev(t.rhs, env)
        if t.fn == "min":
            return a if a < b else b
        if t.fn == "max":
            return a if a > b else b
        if t.fn == "d_ratio":
            return 0.0 if zero(b) else a / b
        raise ValueError(t.fn)
    a, b = ev(t.lhs, env), ev(t.rhs, env)
    op = t.operator
    if op == "+": return a + b
    if op == "-": return a - b
    if op == "*": return a * b
    if op == "/": return math.nan if zero(b) else a / b
    if op == "<": return 1.0 if a < b else 0.0
    if op == ">": return 1.0 if a > b else 0.0
    if op in "|&^":
        fa, fb = math.isfinite(a), math.isfinite(b)
        if fa and fb:
            if op == "|": return 0.0 if zero(a) and zero(b) else 1.0
            if op == "&": return 1.0 if not zero(a) and not zero(b) else 0.0
            return 1.0 if zero(a) != zero(b) else 0.0
        if op != "^" and (fa or fb):
            k, other = (a, b) if fa else (b, a)
            if op == "|": return other if zero(k) else 1.0
            return 0.0 if zero(k) else other
        return math.nan
    raise ValueError(op)

def midr_match(want, have):
    want, have = int(want, 16), int(have, 16)
    mask = 0xf0000f
    if want & ~mask != have & ~mask:
        return False
    if not want & mask:
        return True
    if have & 0xf00000 != want & 0xf00000:
        return have & 0xf00000 > want & 0xf00000
    return have & 0xf >= want & 0xf

def walk(t, events, lits, fns):
    if isinstance(t, metric.Event):
        events.add(unescape(t.name))
    elif isinstance(t, metric.Literal):
        lits.add(t.value)
    elif isinstance(t, metric.Function):
        if t.fn in ("has_event", "strcmp_cpuid_str"):
            fns.add(unescape(t.lhs.name))
            return
        walk(t.lhs, events, lits, fns)
        if t.rhs is not None:
            walk(t.rhs, events, lits, fns)
    elif isinstance(t, metric.Select):
        for x in (t.true_val, t.cond, t.false_val):
            walk(x, events, lits, fns)
    elif isinstance(t, metric.Operator):
        walk(t.lhs, events, lits, fns)
        walk(t.rhs, events, lits, fns)

def count(rnd, mode):
    if mode == 1 and rnd.random() < 0.25:
        return 0.0
    if mode == 2 and rnd.random() < 0.25:
        return math.nan
    return rnd.choice([rnd.uniform(1, 1e3), rnd.uniform(1e3, 1e10),
                       float(rnd.randint(1, 100))])

rnd = random.Random(20240612)
jobs, wants, where = [], [], []
for path, expr in metrics():
    tree_ = metric.ParsePerfJson(expr).Simplify()
    events, lits, fns = set(), set(), set()
    walk(tree_, events, lits, fns)
    for mode in (0, 1, 2):
        env = {"val": {e: count(rnd, mode) for e in sorted(events)},
               "lit": {l: float(rnd.choice([0, 1, 2, 4, 6])) for l in sorted(lits)},
               "has": {f for f in sorted(fns) if rnd.random() < 0.5},
               "cpuid": rnd.choice(["0x00000000410fd493", "0x00000000410fd490",
                                    "0x00000000410fd4f0"])}
        want = ev(tree_, env)
        jobs.append(json.dumps({
            "expr": expr,
            "values": {k: (None if math.isnan(v) else v)
                       for k, v in env["val"].items()},
            "literals": env["lit"], "has": sorted(env["has"]),
            "cpuid": env["cpuid"]}))
        wants.append(want)
        where.append((path, expr, mode))

res = subprocess.run([helper], input="\n".join(jobs) + "\n",
                     capture_output=True, text=True).stdout.splitlines()
bad = 0
exprs = len({w[1] for w in where})
for (path, expr, mode), want, line in zip(where, wants, res):
    got = json.loads(line)
    if "error" in got:
        bad += 1
        print("%s: %s\n  pmu: %s" % (path, expr[:120], got["error"]))
        continue
    g = got["value"]
    g = math.nan if g is None else g
    ok = (math.isnan(g) and math.isnan(want)) or g == want or \
         (math.isfinite(g) and math.isfinite(want) and
          abs(g - want) <= 1e-9 * max(abs(g), abs(want)))
    if not ok:
        bad += 1
        if bad < 20:
            print("%s (round %d): %s\n  pmu %r, oracle %r" % (path, mode, expr[:160], g, want))
if len(res) != len(jobs):
    bad += 1
    print("%d answers for %d jobs" % (len(res), len(jobs)))
print("%d metric expressions (%d evaluations): %d differ" % (exprs, len(jobs), bad))
sys.exit(1 if bad else 0)
PY
rc=$?
tail -40 "$TMP/out" | sed 's/^/# /'
expect_eq "every MetricExpr evaluates as the kernel's parser's tree does" "$rc" 0
done_testing
