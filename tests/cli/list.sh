#!/bin/sh
# pmu list: models, events of a model, patterns, --long and --json.
. "$(dirname "$0")/lib.sh"

run_pmu "$TMP/out" "$TMP/err" list --models
expect_eq "list --models exits 0" "$RC" 0
for m in p5 p6 pentm ppc604 ppc7450 xscale1 xscale2 amd64_fam19h_zen4; do
	expect_match "model $m listed" "$TMP/out" "^$m "
done

run_pmu "$TMP/out" "$TMP/err" list --model p6 L2_RQSTS --long
expect_match "p6 event listed" "$TMP/out" '^p6::L2_RQSTS '
expect_match "MESI umask M listed" "$TMP/out" '^ +:M +0x08'
expect_match "c modifier listed" "$TMP/out" '^ +:c=N'
expect_no_match "pattern filters" "$TMP/out" 'INST_RETIRED'

run_pmu "$TMP/out" "$TMP/err" list --model xscale1 --json
check "JSON lines parse" python3 -c '
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
codes = {e["event"]: int(e["code"], 16) for e in ev}
# seed 004 event numbers
assert codes["ICACHE_MISS"] == 0 and codes["DCACHE_MISS"] == 0xB and codes["RMW"] == 0x16
' "$TMP/out"

run_pmu "$TMP/out" "$TMP/err" list --model 'p6' '*MISS*'
expect_match "glob pattern" "$TMP/out" '^p6::ITLB_MISS '

run_pmu "$TMP/out" "$TMP/err" list
expect_eq "host listing exits 0" "$RC" 0
expect_match "host listing: perf's software events, perf's layout" "$TMP/out" '^  context-switches OR cs +\[Software event\]$'
expect_match "host listing: tool events" "$TMP/out" '^  duration_time +\[Tool event\]$'
expect_match "host listing: raw descriptors" "$TMP/out" '^  rNNN +\[Raw hardware event descriptor\]$'
expect_no_match "host listing: no libpfm4 names of perf's events" "$TMP/out" 'perf::'
# every entry has a description line under it
check "host listing: a description under every entry" awk '
	/^  [^ ]/ { if (pending) bad = 1; pending = 1; next }
	/^       \[.+\]$/ { pending = 0; next }
	/^$/ || /^[^ ].*:$/ { next }
	{ bad = 1 }
	END { exit bad || pending }' "$TMP/out"
if [ -d /sys/kernel/tracing/events/sched ] || [ -d /sys/kernel/debug/tracing/events/sched ]; then
	run_pmu "$TMP/out" "$TMP/err" list sched
	expect_match "pmu list sched: the sched tracepoints" "$TMP/out" '^  sched:sched_switch +\[Tracepoint event\]$'
	expect_match "pmu list sched: each with a line on it" "$TMP/out" '^       \[a tracepoint of the kernel.s sched subsystem\]$'
	check "pmu list sched: not the subsystem's enable and filter files" \
		test "$(grep -c '^  sched:\(enable\|filter\) ' "$TMP/out")" = 0
	run_pmu "$TMP/out" "$TMP/err" list --long sched
	expect_match "pmu list --long sched: a tracepoint's fields" "$TMP/out" '^       \[fields: .*prev_pid.*\]$'
else
	skip "no tracefs here"
fi
run_pmu "$TMP/out" "$TMP/err" list -j cpu-clock
check "pmu list -j: a JSON array of perf's keys" python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))
assert v and all({"EventName", "EventType", "BriefDescription"} <= set(e) for e in v), v
assert any(e["EventName"] == "cpu-clock" and e["EventType"] == "Software event" for e in v), v
' "$TMP/out"

run_pmu "$TMP/out" "$TMP/err" list --model nosuch
expect_eq "unknown model exits 1" "$RC" 1
run_pmu "$TMP/out" "$TMP/err" list --model xscale3
expect_match "unknown model: near name offered" "$TMP/err" "did you mean 'xscale[12]'"

# perf events: a description each, and the perf_event modifiers libpfm4's
# perf layer offers (u k h mg mh; no h for software events).
run_pmu "$TMP/out" "$TMP/err" list --model perf --json
check "every perf event has a one-line description" python3 -c '
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
assert len(ev) > 50 and all(e["desc"] and "\n" not in e["desc"] for e in ev), \
    [e["event"] for e in ev if not e["desc"]]
d = {e["event"]: e["desc"] for e in ev}
assert d["CYCLES"] == d["PERF_COUNT_HW_CPU_CYCLES"] != d["INSTRUCTIONS"]
' "$TMP/out"
run_pmu "$TMP/out" "$TMP/err" list --model perf --long 'cycles'
expect_match "perf --long: u modifier" "$TMP/out" '^ +:u=0\|1 '
expect_match "perf --long: h modifier for hardware events" "$TMP/out" '^ +:h=0\|1 '
run_pmu "$TMP/out" "$TMP/err" list --model perf --long 'task-clock'
expect_match "perf --long: mg modifier" "$TMP/out" '^ +:mg=0\|1 '
expect_no_match "perf --long: no h for software events" "$TMP/out" '^ +:h='

run_pmu "$TMP/out" "$TMP/err" list a b
expect_eq "two patterns is a usage error" "$RC" 2
# "model::PATTERN", the form error messages point to.
run_pmu "$TMP/out" "$TMP/err" list 'p6::l2_rq*'
expect_eq "model::PATTERN exits 0" "$RC" 0
expect_match "model::PATTERN lists the model's event" "$TMP/out" '^p6::L2_RQSTS '
expect_no_match "model::PATTERN lists nothing else" "$TMP/out" '^perf::'
run_pmu "$TMP/out" "$TMP/err" list --model p6 p5::x
expect_eq "model twice is a usage error" "$RC" 2
run_pmu "$TMP/out" "$TMP/err" list --model vc3
expect_no_match "no trailing blanks when an event has no description" "$TMP/out" ' $'

# Which model the default listing stands for: said on stderr when it
# explains something (a search that found nothing, an ignored
# PMU_EVENTS_MODEL), not on every run.
PMU_EVENTS_MODEL=zen4 run_pmu "$TMP/out" "$TMP/err" list RETIRED_OPS
expect_match "PMU_EVENTS_MODEL model listed" "$TMP/out" '^  amd64_fam19h_zen4::RETIRED_OPS$'
check "a search that found events: no note" test ! -s "$TMP/err"
PMU_EVENTS_MODEL=zen4 run_pmu "$TMP/out" "$TMP/err" list NO_SUCH_EVENT_XYZ
expect_match "found nothing: the model and where it came from" "$TMP/err" 'model amd64_fam19h_zen4, from PMU_EVENTS_MODEL'
PMU_EVENTS_MODEL=nosuch run_pmu "$TMP/out" "$TMP/err" list
expect_match "a bad PMU_EVENTS_MODEL is reported" "$TMP/err" "PMU_EVENTS_MODEL='nosuch' names no built-in model"
expect_no_match "diagnostics stay off stdout" "$TMP/out" 'PMU_EVENTS_MODEL'
run_pmu "$TMP/out" "$TMP/err" list
check "a plain listing prints no warning" test ! -s "$TMP/err"
run_pmu "$TMP/out" "$TMP/err" list NO_SUCH_EVENT_XYZ
if "$PMU" list --models | grep -q '^perf .*(this host'; then
	expect_match "found nothing: no catalog for this CPU said" "$TMP/err" 'no event catalog matches this CPU \([A-Za-z]+-[0-9]+-[0-9A-F]+\)'
	expect_match "how to choose a model" "$TMP/err" "--model M, PMU_EVENTS_MODEL=M"
	run_pmu "$TMP/out" "$TMP/err" list --models
	expect_match "--models says no CPU catalog matched" "$TMP/out" '^perf .*no CPU catalog matched'
else
	expect_match "found nothing: detected model said" "$TMP/err" 'detected from this CPU'
fi

# Vendor event files read at run time (--events-dir / PMU_EVENTS_DIR).
FIX="$(cd "$(dirname "$0")/../fixtures/events" && pwd)"
run_pmu "$TMP/out" "$TMP/err" list --events-dir "$FIX" --models
expect_eq "--events-dir --models exits 0" "$RC" 0
expect_match "fixture kernel-layout model" "$TMP/out" '^tinyzen '
expect_match "fixture Intel-layout model" "$TMP/out" '^tiny '
run_pmu "$TMP/out" "$TMP/err" list --events-dir "$FIX" --model tinyzen --long ex_ret_instr
expect_match "short vendor description" "$TMP/out" '^tinyzen::ex_ret_instr +Instructions the core retired\.$'
expect_match "full vendor description with --long" "$TMP/out" '^    Instructions retired, counted once each'
PMU_EVENTS_DIR="$FIX" run_pmu "$TMP/out" "$TMP/err" list --model tiny --json INST_RETIRED
check "PMU_EVENTS_DIR listing as JSON" python3 -c '
import json, sys
ev = {e["event"]: e for e in map(json.loads, open(sys.argv[1]))}
u = {x["name"]: x for x in ev["INST_RETIRED"]["umasks"]}
assert u["PREC_DIST"]["code"] == "0x1" and ev["INST_RETIRED"]["counters"] == "0xf"
assert ev["INST_RETIRED_ANY"]["counters"] == "0x100000000"
assert ev["INST_RETIRED_ANY"]["long_desc"].startswith("Instructions retired, on fixed")
' "$TMP/out"
run_pmu "$TMP/out" "$TMP/err" encode --events-dir "$FIX" tiny::CYCLE_ACTIVITY.STALLS_TOTAL
# PERFEVTSEL by hand: 0xA3 | umask 4 << 8 | USR | OS | INT | EN | cmask 4 << 24
expect_match "encode --events-dir" "$TMP/out" 'codes +0x45304a3$'
run_pmu "$TMP/out" "$TMP/err" list --events-dir "$TMP/nowhere" --models
expect_eq "missing events dir exits 1" "$RC" 1
expect_match "missing events dir names mapfile.csv" "$TMP/err" 'nowhere/mapfile\.csv'
mkdir -p "$TMP/bad/m"
printf 'Family-model,Version,Filename,EventType\nAuthenticAMD-25-1,v1,m,core\n' >"$TMP/bad/mapfile.csv"
printf '[{"EventName": "x",\n "EventCode": 0x1}]' >"$TMP/bad/m/e.json"
PMU_EVENTS_DIR="$TMP/bad" run_pmu "$TMP/out" "$TMP/err" list --models
expect_eq "broken PMU_EVENTS_DIR exits 1" "$RC" 1
expect_match "broken file named with its line" "$TMP/err" 'm/e\.json: line 2'

# Without --model, the vendor model matching this host is listed too.
mkdir -p "$TMP/host/hi" "$TMP/host/ha"
printf 'Family-model,Version,Filename,EventType\nGenuineIntel-.*,v1,hi,core\nAuthenticAMD-.*,v1,ha,core\n' >"$TMP/host/mapfile.csv"
printf '[{"EventName": "hostly_event", "EventCode": "0x42"}]' >"$TMP/host/hi/e.json"
cp "$TMP/host/hi/e.json" "$TMP/host/ha/e.json"
if grep -qE 'GenuineIntel|AuthenticAMD' /proc/cpuinfo; then
	run_pmu "$TMP/out" "$TMP/err" list --events-dir "$TMP/host" hostly
	expect_match "host's vendor model in the default listing: its heading" "$TMP/out" '^h[ia]:$'
	expect_match "host's vendor model in the default listing: perf's name" "$TMP/out" '^  hostly_event$'
else
	skip "not an x86 host"
fi

# Built-in models get the vendor's descriptions of the same events.
if [ -d "${PMU_SHARED:-}/events/amd" ]; then
	run_pmu "$TMP/out" "$TMP/err" list --events-dir "$PMU_SHARED/events/amd" --model amd64_fam19h_zen4 --long RETIRED_OPS
	expect_match "zen4 event has the vendor text" "$TMP/out" '^    .*[Rr]etired'
	run_pmu "$TMP/out" "$TMP/err" list --events-dir "$PMU_SHARED/events/intel" --model skl --long INST_RETIRED
	expect_match "skl umask has the vendor text" "$TMP/out" '^    :PREC_DIST +0x01 +[A-Z]'
else
	skip "no vendor files in PMU_SHARED"
	skip "no vendor files in PMU_SHARED"
fi
# Against perf list on this machine: every entry perf lists, pmu lists
# in perf's section and order (pmu's own entries may follow), but the
# SDT events perf lists from the user's own build-id cache (~/.debug,
# filled by perf record), not from the system.
if command -v perf >/dev/null 2>&1 && perf list >"$TMP/perf.list" 2>/dev/null; then
	run_pmu "$TMP/out" "$TMP/err" list
	pairs() { sed -n 's/^  \([^ ].*[^ ]\)  *\[\([A-Za-z ]*\)\]$/\1|\2/p' "$1" |
		grep -v '|SDT event$'; }
	pairs "$TMP/perf.list" >"$TMP/perf.pairs"
	pairs "$TMP/out" | grep -Fxf "$TMP/perf.pairs" >"$TMP/pmu.pairs" || :
	check "perf list's entries, in perf's sections and order ($(wc -l <"$TMP/perf.pairs") of them)" \
		cmp -s "$TMP/perf.pairs" "$TMP/pmu.pairs"
	if ! cmp -s "$TMP/perf.pairs" "$TMP/pmu.pairs"; then
		diff "$TMP/perf.pairs" "$TMP/pmu.pairs" | head -10 | sed 's/^/# /'
	fi
	perf list sched >"$TMP/perf.list" 2>/dev/null
	run_pmu "$TMP/out" "$TMP/err" list sched
	pairs "$TMP/perf.list" >"$TMP/perf.pairs"
	pairs "$TMP/out" | grep -Fxf "$TMP/perf.pairs" >"$TMP/pmu.pairs" || :
	check "pmu list sched: perf list sched's entries" cmp -s "$TMP/perf.pairs" "$TMP/pmu.pairs"
else
	skip "perf list is not available"
fi

# pmu list --metrics: each metric with its unit and groups, a
# description under it (the vendor's, else what it is computed from),
# and its expression with --long.
run_pmu "$TMP/out" "$TMP/err" list --metrics --model skylake
expect_eq "--metrics: exit 0" "$RC" 0
check "--metrics: a description under every metric" awk '
	/^    \[.+\]$/ { if (!pending) bad = 1; pending = 0; next }
	{ if (pending) bad = 1; pending = 1; n++ }
	END { exit bad || pending || n < 50 }' "$TMP/out"
expect_match "--metrics: what a metric is computed from" "$TMP/out" '^    \[computed from UOPS_RETIRED.RETIRE_SLOTS, tma_info_thread_slots\]$'
run_pmu "$TMP/out" "$TMP/err" list --metrics --model skylake --long TopdownL1
expect_match "--metrics --long GROUP: the group's metrics" "$TMP/out" '^tma_retiring +% +.*TopdownL1'
expect_match "--metrics --long: the expression" "$TMP/out" '^    = UOPS_RETIRED.RETIRE_SLOTS / tma_info_thread_slots$'
expect_no_match "--metrics GROUP: other groups left out" "$TMP/out" '^C3_Core_Residency'
run_pmu "$TMP/out" "$TMP/err" list --metrics --model nosuch
expect_match "--metrics: an unknown model named" "$TMP/err" "unknown model 'nosuch'"
done_testing
