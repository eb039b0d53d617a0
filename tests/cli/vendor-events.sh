#!/usr/bin/env bash
# Vendor event files ($PMU_SHARED/events, kernel pmu-events JSON) against
# the built-in catalogs: every vendor event name the catalog knows must
# encode to the vendor's EventCode/UMask/CounterMask/Invert/EdgeDetect.
# The catalogs follow libpfm4's names and codes; names it lacks, and codes
# where libpfm4's tables differ from the vendor's newer files, are counted
# and shown, and fail the test when they are more than a third of a file.
. "$(dirname "$0")/lib.sh"

if [ -z "${PMU_SHARED:-}" ] || [ ! -d "$PMU_SHARED/events" ]; then
	skip "vendor event files (PMU_SHARED/events missing)"
	done_testing
fi
if ! command -v python3 >/dev/null 2>&1; then
	skip "vendor event files (python3 missing)"
	done_testing
fi

python3 - "$PMU" "$PMU_SHARED/events" >"$TMP/out" <<'PY'
import glob, json, os, subprocess, sys

pmu, root = sys.argv[1], sys.argv[2]
SETS = [("skl", "intel/SKL"), ("icl", "intel/ICL"), ("spr", "intel/SPR")]

def num(v):
    if v in (None, "", "null"):
        return 0
    return int(str(v).split(",")[0], 0)

def rows(sub):
    for path in sorted(glob.glob(os.path.join(root, sub, "*.json"))):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        for e in data.get("Events", []) if isinstance(data, dict) else data:
            # Fixed-counter pseudo codes and offcore pairs have no
            # single-register form to compare.
            if ("EventName" in e and "EventCode" in e and
                    "," not in e["EventCode"] and
                    "Fixed" not in e.get("Counter", "")):
                yield e

for model, sub in SETS:
    evs = list(rows(sub))
    res = subprocess.run([pmu, "encode", "--json", "--model", model] +
                         [e["EventName"] for e in evs],
                         capture_output=True, text=True).stdout.splitlines()
    good = missing = differ = 0
    for e, line in zip(evs, res):
        r = json.loads(line)
        if "error" in r:
            missing += 1
            continue
        c = int(r["codes"][0], 16)
        got = (c & 0xff, c >> 8 & 0xff, c >> 24 & 0xff, c >> 23 & 1,
               c >> 18 & 1)
        want = (num(e["EventCode"]), num(e.get("UMask")),
                num(e.get("CounterMask")), num(e.get("Invert")),
                num(e.get("EdgeDetect")))
        if got == want:
            good += 1
        else:
            differ += 1
            print("# %s %s: pmu %s, vendor %s" % (model, e["EventName"],
                                                  got, want))
    print("%s %d %d %d %d" % (model, len(evs), good, missing, differ))
PY

grep '^#' "$TMP/out" | head -40
while read -r model total good missing differ; do
	case $model in \#*) continue ;; esac
	diag "$model: $total vendor events, $good encode as the vendor says," \
	     "$missing not in the catalog, $differ with libpfm4's codes"
	check "$model vendor events encode to the vendor codes" \
		test "$total" -gt 0 -a $(((missing + differ) * 3)) -le "$total"
	check "$model: vendor names found encode mostly as the vendor says" \
		test $((differ * 5)) -le "$good" -a "$good" -gt 0
done < <(grep -v '^#' "$TMP/out")

# With the vendor directory, the vendor's own names resolve as spelled:
# fixed-counter pseudo-events (event 0, umask n+1: their code differs from
# the rest of their family) and names with two dots.
NAMES="INST_RETIRED.ANY CPU_CLK_UNHALTED.THREAD CPU_CLK_UNHALTED.REF_TSC IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE"
# shellcheck disable=SC2086
run_pmu "$TMP/enc" "$TMP/err" encode --json --events-dir "$PMU_SHARED/events/intel" --model skylake_json $NAMES
expect_eq "skylake vendor names encode" "$RC" 0
check "skylake vendor names give the vendor's event, umask and cmask" python3 - "$PMU_SHARED/events/intel/SKL/skylake_core.json" "$TMP/enc" $NAMES <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
recs = {e["EventName"]: e for e in (data["Events"] if isinstance(data, dict) else data)}
got = [json.loads(l) for l in open(sys.argv[2])]
for name, r in zip(sys.argv[3:], got):
    v = recs[name]
    c = int(r["codes"][0], 16)
    want = (int(v["EventCode"].split(",")[0], 0), int(v["UMask"], 0),
            int(v.get("CounterMask", "0") or "0", 0))
    assert (c & 0xff, c >> 8 & 0xff, c >> 24 & 0xff) == want, (name, r, want)
PY
PMU_EVENTS_DIR="$PMU_SHARED/events/intel" run_pmu "$TMP/out" "$TMP/err" assign --model skylake_json INST_RETIRED.ANY CPU_CLK_UNHALTED.THREAD CPU_CLK_UNHALTED.REF_TSC
expect_match "INST_RETIRED.ANY on fixed counter 0" "$TMP/out" '^fixed0 +INST_RETIRED\.ANY '
expect_match "CPU_CLK_UNHALTED.REF_TSC on fixed counter 2" "$TMP/out" '^fixed2 +CPU_CLK_UNHALTED\.REF_TSC '
done_testing
