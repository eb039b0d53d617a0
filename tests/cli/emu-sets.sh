#!/usr/bin/env bash
# pmu stat --emulate --set ... --switch overflow:instructions:1:N: the
# emulator switches sets every N guest instructions, exactly.  From the
# test's N and the program's instruction count T (a plain emulated run;
# tests/cli/emu-oracle.sh holds that count to cachegrind's Ir): the
# number of turns is floor(T/N) + 1, taken in turn by the two sets; every
# turn but the last counts N instructions; the sets' instruction counts
# add up to T and each one's estimate is T.  A second run prints the same
# bytes.  And the refusals: time switching, no policy, events the model
# lacks, a model whose counters do not interrupt.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/emu-lib.sh"
require_emu
O=$TMP/out E=$TMP/err
N=100000

# -x, fields: value,unit,event,runtime,pcnt,metric,metric-unit, then
# set,raw,set-runs,set-active,stderr
field() { # EVENT SET FIELD CSV
	awk -F, -v e="$1" -v s="$2" -v f="$3" '$3 == e && $8 == s { print $f; n++ }
		END { if (!n) print "none" }' "$4"
}

run_pmu "$O" "$TMP/plain" stat --emulate -x, -e instructions,branches,L1-dcache-loads -- "$WORK/loops" 10
T=$(awk -F, '$3 == "instructions" { print $1 }' "$TMP/plain")
B=$(awk -F, '$3 == "branches" { print $1 }' "$TMP/plain")
L=$(awk -F, '$3 == "L1-dcache-loads" { print $1 }' "$TMP/plain")
check "plain run: T=$T instructions, more than 4 turns of $N" test "$T" -gt $((4 * N))

sets=(--set instructions,branches --set instructions,L1-dcache-loads
      --switch "overflow:instructions:1:$N")
run_pmu "$O" "$E" stat --emulate -x, "${sets[@]}" -- "$WORK/loops" 10
expect_eq "two sets: exit 0" "$RC" 0
turns=$((T / N + 1))
runs0=$(((turns + 1) / 2)) runs1=$((turns / 2))
tail=$((T % N))
if [ $((turns % 2)) = 1 ]; then
	i0=$(((runs0 - 1) * N + tail)) i1=$((runs1 * N))
else
	i0=$((runs0 * N)) i1=$(((runs1 - 1) * N + tail))
fi
expect_eq "set 0: runs" "$(field instructions 0 10 "$E")" "$runs0"
expect_eq "set 1: runs" "$(field instructions 1 10 "$E")" "$runs1"
expect_eq "set 0: instructions counted" "$(field instructions 0 9 "$E")" "$i0"
expect_eq "set 1: instructions counted" "$(field instructions 1 9 "$E")" "$i1"
expect_eq "set 0: active instructions" "$(field branches 0 11 "$E")" "$i0"
expect_eq "set 1: active instructions" "$(field L1-dcache-loads 1 11 "$E")" "$i1"
expect_eq "the sets' instructions add up to T" \
	$(($(field instructions 0 9 "$E") + $(field instructions 1 9 "$E"))) "$T"
expect_eq "set 0: instructions estimate is T" "$(field instructions 0 1 "$E")" "$T"
expect_eq "set 1: instructions estimate is T" "$(field instructions 1 1 "$E")" "$T"
# -x: perf's whole percentage (100 * running / enabled, the fraction
# dropped)
expect_eq "set 0: share running" "$(field branches 0 5 "$E")" \
	"$(awk -v a="$i0" -v t="$T" 'BEGIN { printf "%.2f", int(100 * a / t) }')"

# estimates of what each set counted part of the time: within four
# standard errors of the true count (the plain run's), and within 10%
within() { # NAME ESTIMATE STDERR TRUE
	check "$1: estimate $2 within 4 x $3 and 10% of $4" awk -v e="$2" -v s="$3" -v t="$4" \
		'BEGIN { d = e - t; if (d < 0) d = -d; exit !(d <= 4 * s && d <= t / 10) }'
}
within branches "$(field branches 0 1 "$E")" "$(field branches 0 12 "$E")" "$B"
within L1-dcache-loads "$(field L1-dcache-loads 1 1 "$E")" \
	"$(field L1-dcache-loads 1 12 "$E")" "$L"

# the same run again: the same bytes, in each format
cp "$E" "$TMP/first"
run_pmu "$O" "$E" stat --emulate -x, "${sets[@]}" -- "$WORK/loops" 10
check "-x: a second run prints the same bytes" cmp -s "$E" "$TMP/first"
for fmt in --json ""; do
	run_pmu "$O" "$TMP/a" stat --emulate $fmt "${sets[@]}" -- "$WORK/loops" 10
	run_pmu "$O" "$TMP/b" stat --emulate $fmt "${sets[@]}" -- "$WORK/loops" 10
	grep -v 'seconds\|^$' "$TMP/a" >"$TMP/a2"; grep -v 'seconds\|^$' "$TMP/b" >"$TMP/b2"
	check "${fmt:-text}: a second run prints the same counts" cmp -s "$TMP/a2" "$TMP/b2"
done
expect_match "text: a set's line says instructions" "$TMP/a" \
	"set 0: $runs0 runs, $i0 instructions active"
run_pmu "$O" "$E" stat --emulate --json "${sets[@]}" -- "$WORK/loops" 10
expect_match "json: set-active-instructions" "$E" "\"set-active-instructions\" : $i1"

# a designated event the sets lack is added to each, and not printed
run_pmu "$O" "$E" stat --emulate -x, --set branches --set L1-dcache-loads \
	--switch "overflow:instructions:1:$N" -- "$WORK/loops" 10
expect_eq "added designated event: set 0 active" "$(field branches 0 11 "$E")" "$i0"
expect_eq "added designated event: set 1 active" "$(field L1-dcache-loads 1 11 "$E")" "$i1"
expect_eq "added designated event: two rows" "$(grep -c , "$E")" 2

# several processes: each its own rotation, the sums added up
run_pmu "$O" "$TMP/fplain" stat --emulate -x, -e instructions -- "$WORK/forkexec" "$WORK/loops" 2
FT=$(awk -F, '$3 == "instructions" { print $1 }' "$TMP/fplain")
run_pmu "$O" "$E" stat --emulate -x, "${sets[@]}" -- "$WORK/forkexec" "$WORK/loops" 2
expect_eq "fork+exec: exit 0" "$RC" 0
expect_eq "fork+exec: the sets' instructions add up" \
	$(($(field instructions 0 9 "$E") + $(field instructions 1 9 "$E"))) "$FT"

# refusals
run_pmu "$O" "$E" stat --emulate --set instructions --set branches --switch time:10 -- /bin/true
expect_eq "time switching: exit 2" "$RC" 2
expect_match "time switching: names the policy" "$E" "not 'time:10'"
run_pmu "$O" "$E" stat --emulate --set instructions --set branches -- /bin/true
expect_eq "no policy: exit 2" "$RC" 2
expect_match "no policy: says what to give" "$E" "overflow:EVENT:N"
run_pmu "$O" "$E" stat --emulate --set instructions --set branches --switch overflow:DATA_MEM_REFS:1 -- /bin/true
expect_eq "designated event the model lacks: exit 1" "$RC" 1
expect_match "designated event the model lacks: named" "$E" "DATA_MEM_REFS"
run_pmu "$O" "$E" stat --emulate --set instructions --set bogus --switch overflow:instructions:1 -- /bin/true
expect_eq "set event the model lacks: exit 1" "$RC" 1
expect_match "set event the model lacks: named" "$E" "bogus"
run_pmu "$O" "$E" stat --emulate --set instructions --set branches --switch overflow:DISPATCH_STALLS:1 -- /bin/true
expect_eq "designated event the emulation does not produce: exit 1" "$RC" 1
expect_match "designated event the emulation does not produce: named" "$E" "overflows of DISPATCH_STALLS"
run_pmu "$O" "$E" stat --emulate-model p5 --set INSTRUCTIONS_EXECUTED --set BRANCHES \
	--switch overflow:INSTRUCTIONS_EXECUTED:1 -- /bin/true
expect_eq "p5: exit 1" "$RC" 1
expect_match "p5: says its counters do not interrupt" "$E" "INSTRUCTIONS_EXECUTED: the emulated p5's counters do not interrupt"
done_testing
