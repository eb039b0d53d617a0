#!/usr/bin/env bash
# pmu stat --sim-model M --stream FILE: a stream counted on a simulated
# PMU through the session layer, printed as a real run is.  Expected
# counts come from the streams written here (repeat counts times the
# events in their bodies), not from an earlier run.
. "$(dirname "$0")/lib.sh"

# A P6 loop: 1000 iterations of 40 INST_RETIRED (0xc0), 5
# BR_INST_RETIRED (0xc4), 1 BR_MISS_PRED_RETIRED (0xc5), 60 cycles.
cat >"$TMP/p6" <<'EOF'
repeat 1000 {
  event 0xc0 40
  event 0xc4 5
  event 0xc5 1
  cycles 60
}
EOF
LOOPS=1000 INSN=40 BR=5 MISS=1 CYC=60

# value FILE EVENT: the count of EVENT in -x, output (first field).
value() { awk -F, -v e="$2" '$3 == e { print $1 }' "$1"; }

run_pmu "$TMP/out" "$TMP/err" stat -x, --sim-model p6 --stream "$TMP/p6" \
	-e cycles,instructions
expect_eq "p6: exit 0" "$RC" 0
expect_eq "p6: cycles = the CPU_CLK_UNHALTED of the stream" \
	"$(value "$TMP/err" cycles)" $((LOOPS * CYC))
expect_eq "p6: instructions = INST_RETIRED" \
	"$(value "$TMP/err" instructions)" $((LOOPS * INSN))
expect_match "p6: insn per cycle from the two" "$TMP/err" \
	"^$((LOOPS * INSN)),,instructions,.*,0\.67,insn per cycle$"

# The model's own names: bare (the session's model) and qualified, and
# a group's :u reaching the register codes (the stream runs in user
# mode, so it still counts everything).  Names print as typed, the
# group's modifiers left out, as perf prints them.
run_pmu "$TMP/out" "$TMP/err" stat -x, --sim-model p6 --stream "$TMP/p6" \
	-e '{BR_INST_RETIRED,p6::BR_MISS_PRED_RETIRED}:u'
expect_eq "p6 names: exit 0" "$RC" 0
expect_eq "p6: bare BR_INST_RETIRED in a :u group" \
	"$(value "$TMP/err" BR_INST_RETIRED)" $((LOOPS * BR))
expect_eq "p6: p6::BR_MISS_PRED_RETIRED in a :u group" \
	"$(value "$TMP/err" p6::BR_MISS_PRED_RETIRED)" $((LOOPS * MISS))
printf 'mode kernel\nevent 0xc0 7\nmode user\nevent 0xc0 3\n' >"$TMP/modes"
run_pmu "$TMP/out" "$TMP/err" stat -x, --sim-model p6 --stream "$TMP/modes" \
	-e 'INST_RETIRED:u,{INST_RETIRED}:k'
expect_eq "p6: :u counts user mode only" "$(value "$TMP/err" INST_RETIRED:u)" 3
expect_eq "p6: a group's :k counts kernel mode only" \
	"$(value "$TMP/err" INST_RETIRED)" 7

# insn per cycle pairs instructions with the cycles of the same
# privilege levels (perf's rule): 7 over 10 in kernel mode; none when
# the cycles are of user mode (3 over 20 would mix the two)
printf 'mode kernel\nevent 0xc0 7\ncycles 10\nmode user\nevent 0xc0 3\ncycles 20\n' >"$TMP/modes"
run_pmu "$TMP/out" "$TMP/err" stat -x, --sim-model p6 --stream "$TMP/modes" \
	-e instructions:k,cycles:k
expect_match "p6: instructions:k over cycles:k" "$TMP/err" \
	"^7,,instructions:k,.*,0\.70,insn per cycle$"
run_pmu "$TMP/out" "$TMP/err" stat -x, --sim-model p6 --stream "$TMP/modes" \
	-e instructions:k,cycles:u
expect_match "p6: instructions:k with cycles:u only: no insn per cycle" \
	"$TMP/err" "^7,,instructions:k,[0-9]*,100\.00,,$"

# The default set: a simulated PMU counts no software events, so the
# default set is its hardware events (as under --emulate); the P6's two
# counters take the first two, the other groups are <not counted>.
run_pmu "$TMP/out" "$TMP/err" stat --sim-model p6 --stream "$TMP/p6"
expect_eq "default set: exit 0" "$RC" 0
expect_match "the header names the stream and the model" "$TMP/err" \
	"Performance counter stats for '.*/p6' on a simulated p6:"
for ev in task-clock context-switches cpu-migrations page-faults; do
	expect_no_match "default set: no $ev (no software events simulated)" \
		"$TMP/err" " $ev( |$)"
done
expect_match "default set: instructions counted" "$TMP/err" "^ +[0-9]+ +instructions"
expect_match "default set: branch-misses listed" "$TMP/err" " branch-misses"
expect_match "default set: cycles counted" "$TMP/err" "^ +$((LOOPS * CYC)) +cycles"
expect_match "default set: branches <not counted> (no counter left)" \
	"$TMP/err" "<not counted> +branches"
run_pmu "$TMP/out" "$TMP/err" stat -v --sim-model p6 --stream "$TMP/p6" \
	-e cycles,instructions,branches
expect_match "-v says why branches is not counted" "$TMP/err" \
	"branches .*no counter of the simulated p6 is free"

# A group larger than the P6's two counters is not counted at all (a
# group is counted whole or not), and the events after it still are.
run_pmu "$TMP/out" "$TMP/err" stat -x, --sim-model p6 --stream "$TMP/p6" \
	-e '{cycles,instructions,branches},BR_MISS_PRED_RETIRED'
expect_eq "too large a group: exit 0" "$RC" 0
for ev in cycles instructions branches; do
	expect_match "too large a group: $ev <not counted>" "$TMP/err" \
		"^<not counted>,,$ev,"
done
expect_eq "the event after it counts" \
	"$(value "$TMP/err" BR_MISS_PRED_RETIRED)" $((LOOPS * MISS))

# K8: four counters; counts stay exact far past 32 bits (the driver
# folds the 32-bit deltas at least every 2^31 events).
cat >"$TMP/k8" <<'EOF'
event 0xc0 10000000000
repeat 3 {
  event 0xc2 3000000000
}
cycles 5000000000
EOF
run_pmu "$TMP/out" "$TMP/err" stat -x, --sim-model k8 --stream "$TMP/k8" \
	-e instructions,branches,cycles,RETIRED_MISPREDICTED_BRANCH_INSTRUCTIONS
expect_eq "k8: exit 0" "$RC" 0
expect_eq "k8: 10^10 instructions exactly" "$(value "$TMP/err" instructions)" \
	10000000000
expect_eq "k8: 9*10^9 branches exactly" "$(value "$TMP/err" branches)" \
	9000000000
expect_eq "k8: 5*10^9 cycles exactly" "$(value "$TMP/err" cycles)" 5000000000
expect_eq "k8: an event the stream never fed is 0" \
	"$(value "$TMP/err" RETIRED_MISPREDICTED_BRANCH_INSTRUCTIONS)" 0

# The stream's suspend/resume stop and restart counting.
printf 'event 0xc0 5\nsuspend\nevent 0xc0 100\nresume\nevent 0xc0 2\n' \
	>"$TMP/susp"
run_pmu "$TMP/out" "$TMP/err" stat -x, --sim-model k8 --stream "$TMP/susp" \
	-e instructions
expect_eq "k8: events while suspended are not counted" \
	"$(value "$TMP/err" instructions)" 7

# XScale: cycles is CCNT, raw codes are PMNC event numbers.
printf 'event 0x07 4000\nevent 0x00 200\nevent 0x16 9\ncycles 6000\n' \
	>"$TMP/xsc"
run_pmu "$TMP/out" "$TMP/err" stat -x, --sim-model xscale1 \
	--stream "$TMP/xsc" -e cycles,r07,r16
expect_eq "xscale1: exit 0" "$RC" 0
expect_eq "xscale1: cycles from CCNT" "$(value "$TMP/err" cycles)" 6000
expect_eq "xscale1: r07 (INSTRUCTION)" "$(value "$TMP/err" r07)" 4000
expect_eq "xscale1: r16 (RMW, a bus event)" "$(value "$TMP/err" r16)" 9
run_pmu "$TMP/out" "$TMP/err" stat -x, --sim-model xscale1 \
	--stream "$TMP/xsc" -e instructions,ICACHE_MISS,r05
expect_match "xscale1: a third PMN event is <not counted>" "$TMP/err" \
	"^<not counted>,,r05,"
expect_eq "xscale1: ICACHE_MISS by name" "$(value "$TMP/err" ICACHE_MISS)" 200

# P5: cycles is the TSC, which cannot tell user from kernel mode.
run_pmu "$TMP/out" "$TMP/err" stat -x, --sim-model p5 --stream "$TMP/xsc" \
	-e cycles,cycles:u
expect_eq "p5: cycles from the TSC" "$(value "$TMP/err" cycles)" 6000
expect_match "p5: cycles:u <not supported>" "$TMP/err" \
	"^<not supported>,,cycles:u,"

# JSON and -r: the same counts, every run.
run_pmu "$TMP/out" "$TMP/err" stat -j -r 3 --sim-model p6 --stream "$TMP/p6" \
	-e instructions
expect_eq "-j -r 3: exit 0" "$RC" 0
expect_match "-j: counter-value of the stream" "$TMP/err" \
	"\"counter-value\" : \"$((LOOPS * INSN))\\.0+\".*\"event\" : \"instructions\""

# Errors: each names what is wrong; usage errors exit 2, input errors 1.
printf 'event 0xc0 5\nbogus 7\n' >"$TMP/bad"
run_pmu "$TMP/out" "$TMP/err" stat --sim-model p6 --stream "$TMP/bad" -e instructions
expect_eq "bad stream: exit 1" "$RC" 1
expect_match "bad stream: file, line, column and token" "$TMP/err" \
	"/bad: line 2, column 1: unknown statement 'bogus'"
run_pmu "$TMP/out" "$TMP/err" stat --sim-model p7 --stream "$TMP/p6"
expect_eq "unknown model: exit 1" "$RC" 1
expect_match "unknown model: named" "$TMP/err" "unknown simulated model 'p7'"
run_pmu "$TMP/out" "$TMP/err" stat --sim-model p6 --stream "$TMP/none"
expect_eq "missing stream file: exit 1" "$RC" 1
expect_match "missing stream file: named" "$TMP/err" "'.*/none': No such file"
while IFS='|' read -r why args; do
	# shellcheck disable=SC2086
	run_pmu "$TMP/out" "$TMP/err" stat $args
	expect_eq "usage: $why: exit 2" "$RC" 2
	expect_match "usage: $why: said" "$TMP/err" "^pmu: stat: "
done <<EOF
no stream|--sim-model p6 -e instructions
no model|--stream $TMP/p6
a command too|--sim-model p6 --stream $TMP/p6 -- true
a pid too|--sim-model p6 --stream $TMP/p6 -p 1
an interval too|--sim-model p6 --stream $TMP/p6 -I 100
EOF
run_pmu "$TMP/out" "$TMP/err" stat --help
expect_match "--help lists --sim-model" "$TMP/out" "--sim-model MODEL"

# more events than the model's counters: the ones left over are
# <not counted>, and one line says why and how to count them all
printf 'cycles 1000\nevent 0xc0 500\n' >"$TMP/few.txt"
run_pmu "$TMP/o" "$TMP/e" stat --sim-model p6 --stream "$TMP/few.txt" -e cycles,instructions,branches
expect_eq "3 events on the p6's 2 counters: exit 0" "$RC" 0
expect_match "the third is <not counted>" "$TMP/e" '<not counted> +branches'
expect_match "one line says why, and how to count it" "$TMP/e" \
	'^pmu: branches: not counted: no counter of the simulated p6 is free.*--set EVENTS --set EVENTS'

done_testing
