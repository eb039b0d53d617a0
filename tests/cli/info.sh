#!/bin/bash
# pmu info: model descriptions (text and JSON), model list, host view.
. "$(dirname "$0")/lib.sh"

run_pmu "$TMP/out" "$TMP/err" info --model p6 --json
expect_eq "info --model p6 --json exits 0" "$RC" 0
# P6: PERFEVTSEL0 at MSR 0x186, PERFCTR0 at 0xC1 (seed-semantics §1.4)
check "p6 JSON shape and registers" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert set(d) == {"model", "pmcs", "pmds"} and d["model"] == "p6", d
keys = {"index", "name", "addr", "dfl_val", "rsvd_msk", "width"}
for r in d["pmcs"] + d["pmds"]:
    assert set(r) == keys, r
    for k in ("addr", "dfl_val", "rsvd_msk"):
        assert r[k].startswith("0x"), r
assert d["pmcs"][0]["name"] == "PERFEVTSEL0" and d["pmcs"][0]["addr"] == "0x186"
assert d["pmds"][0]["addr"] == "0xc1" and d["pmds"][0]["width"] == 40
assert d["pmcs"][0]["width"] == 0' "$TMP/out"

run_pmu "$TMP/out" "$TMP/err" info --model p4 --json
# perfmon2 P4 map: pmc31 = IQ_CCCR4 (MSR 0x370), 65 PMCs, 18 PMDs
check "p4 pmc31 is IQ_CCCR4" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["pmcs"]) == 65 and len(d["pmds"]) == 18
r = d["pmcs"][31]
assert r["index"] == 31 and r["name"] == "IQ_CCCR4" and r["addr"] == "0x370", r' "$TMP/out"

run_pmu "$TMP/out" "$TMP/err" info --model fam10h --json
check "fam10h pmc4 is IbsFetchCtl" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = d["pmcs"][4]
assert r["name"] == "IBSFETCHCTL" and r["addr"] == "0xc0011030", r
assert len(d["pmds"]) == 14' "$TMP/out"

run_pmu "$TMP/out" "$TMP/err" info --model k8
expect_eq "text form exits 0" "$RC" 0
expect_match "text form names a register" "$TMP/out" "PERFSEL0 +0xc0010000"

# every model named on the command lines of this project is known
models="generic p5 p5mmx mii wcc6 p6 pii piii pentm k7 k8 k8c fam10h vc3 p4
	p4m2 p4m3 p4ht ppc604 ppc604e ppc750 ppc7400 ppc7450 xscale1 xscale2"
all=1
for m in $models; do
	"$PMU" info --model "$m" --json | python3 -c 'import json,sys; json.load(sys.stdin)' ||
		{ all=0; diag "model $m failed"; }
done
expect_eq "all 25 models describe themselves in valid JSON" "$all" 1

run_pmu "$TMP/out" "$TMP/err" info --list-models
expect_eq "--list-models exits 0" "$RC" 0
expect_eq "--list-models lists 25 models" "$(wc -l <"$TMP/out")" 25
run_pmu "$TMP/out2" "$TMP/err" info --model list
check "--model list is the same list" cmp -s "$TMP/out" "$TMP/out2"

run_pmu "$TMP/out" "$TMP/err" info --model p9
expect_eq "unknown model exits 1" "$RC" 1
expect_match "unknown model lists models" "$TMP/err" "^ +p4ht "

run_pmu "$TMP/out" "$TMP/err" info --json
expect_eq "host info exits 0" "$RC" 0
check "host JSON has perf facts" python3 -c '
import json, sys, os
d = json.load(open(sys.argv[1]))
for k in ("cpu", "virtualized", "core_pmu", "perf_event_paranoid", "perf_pmus", "closest_model"):
    assert k in d, k
names = {p["name"] for p in d["perf_pmus"]}
want = set(os.listdir("/sys/bus/event_source/devices"))
assert names == want, (names, want)
t = open("/sys/bus/event_source/devices/software/type").read().strip()
assert [p["type"] for p in d["perf_pmus"] if p["name"] == "software"] == [int(t)]
assert d["perf_event_paranoid"] == int(open("/proc/sys/kernel/perf_event_paranoid").read())
' "$TMP/out"

run_pmu "$TMP/out" "$TMP/err" info
expect_match "host text names paranoid" "$TMP/out" "^perf_event_paranoid: "

run_pmu "$TMP/out" "$TMP/err" info --bogus
expect_eq "unknown option is a usage error" "$RC" 2
run_pmu "$TMP/out" "$TMP/err" info --model
expect_eq "--model without value is a usage error" "$RC" 2
run_pmu "$TMP/out" "$TMP/err" info --help
expect_eq "--help exits 0" "$RC" 0

# Features spelled as perfctr_info_print does; the P5 (not MMX) has no
# RDPMC and no interrupt support, the P6 has all three (seed-semantics
# §1.3, §1.4).
run_pmu "$TMP/out" "$TMP/err" info --model p6
expect_match "p6 features" "$TMP/out" 'features 0x7 \(rdpmc,rdtsc,pcint\)$'
run_pmu "$TMP/out" "$TMP/err" info --model p5
expect_match "p5 features" "$TMP/out" 'features 0x2 \(rdtsc\)$'
run_pmu "$TMP/out" "$TMP/err" info --model generic
expect_match "generic has no counters" "$TMP/out" '^  no programmable counters; time stamp: tsc$'

# The kernel's PMUs from a fixture tree (the LD_PRELOAD shim redirects
# /sys/bus/event_source): names in natural order, each with its type;
# a PMU without a type file reads -1; the core PMU makes "core PMU: yes".
SHIM=$PMU_BUILD/tests/libinject.so
if [ -f "$SHIM" ]; then
	D=$TMP/sys/bus/event_source/devices
	for p in cpu:4 uncore_cha_10:30 uncore_cha_2:22 software:1 msr:9; do
		mkdir -p "$D/${p%%:*}/events"
		echo "${p#*:}" >"$D/${p%%:*}/type"
	done
	mkdir -p "$D/notype"
	echo "event=0x3c" >"$D/cpu/events/cpu-cycles"
	echo "ns" >"$D/cpu/events/cpu-cycles.unit"
	echo "event=0x00" >"$D/msr/events/tsc"
	echo "event=0x10,umask=0x1" >"$D/uncore_cha_2/events/clockticks"
	# (a sanitizer build's runtime need not come first: the shim does)
	fixture() { # OUT ERR ARGS...
		local out=$1 err=$2; shift 2
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
		PMU_INJECT_SYSFS=$TMP/sys LD_PRELOAD=$SHIM "$PMU" "$@" >"$out" 2>"$err"
		RC=$?
	}
	fixture "$TMP/out" "$TMP/err" info
	expect_eq "fixture: info exits 0" "$RC" 0
	sed -n '/^perf PMUs:$/,/^closest/p' "$TMP/out" | sed '1d;$d' >"$TMP/pmus"
	check "fixture: PMUs in natural order, with their types" diff -u - "$TMP/pmus" < <(printf '%s\n' \
		"  cpu                  type 4" "  msr                  type 9" \
		"  notype               type -1" "  software             type 1" \
		"  uncore_cha_2         type 22" "  uncore_cha_10        type 30")
	expect_match "fixture: the cpu PMU is a core PMU" "$TMP/out" '^core PMU: yes$'
	fixture "$TMP/out" "$TMP/err" info --json
	check "fixture: --json lists the same" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
got = [(p["name"], p["type"]) for p in d["perf_pmus"]]
assert got == [("cpu", 4), ("msr", 9), ("notype", -1), ("software", 1),
               ("uncore_cha_2", 22), ("uncore_cha_10", 30)], got' "$TMP/out"
	# the aliases, without their .unit/.scale files
	fixture "$TMP/out" "$TMP/err" list
	expect_match "fixture: list shows cpu's alias" "$TMP/out" '^  cpu/cpu-cycles/ .*\[Kernel PMU event\]'
	expect_match "fixture: list gives an alias's terms" "$TMP/out" 'uncore_cha_2 PMU: event=0x10,umask=0x1'
	check "fixture: no .unit entry" test "$(grep -c 'cpu-cycles\.unit' "$TMP/out")" = 0
else
	skip "fixture: $SHIM not built"
fi

done_testing
