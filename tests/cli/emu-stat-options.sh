#!/usr/bin/env bash
# pmu stat --emulate with perf stat's other options: -n -e, --timeout,
# --metric-only, -d, -o --append, -x with -I and -r; and what cannot go
# with the emulator (-D, -T, -n alone), refused as usage errors that name
# both options.  Emulated counts are exact and the same run to run, so a
# plain run of the same program is the oracle of the others.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/emu-lib.sh"
require_emu
O=$TMP/out E=$TMP/err

value_of() { # EVENT CSV
	awk -F, -v e="$1" '$3 == e { print $1; f = 1 } END { if (!f) print "none" }' "$2"
}

refused() { # OPTION ARGS...
	local opt=$1; shift
	run_pmu "$O" "$E" stat --emulate "$@" -- /bin/true
	expect_eq "--emulate with $*: exit 2" "$RC" 2
	expect_match "--emulate with $*: names both" "$E" "--emulate and $opt cannot be combined"
}
refused -D -D 100
refused -D -D -1
refused -T -T
refused -n -n
run_pmu "$O" "$E" stat -D 100 --emulate-model p6 -- /bin/true
expect_eq "-D before --emulate-model: exit 2" "$RC" 2

# the oracle: one plain run
run_pmu "$O" "$TMP/plain" stat --emulate -x, -e instructions,cycles -- "$WORK/loops" 1
ins=$(value_of instructions "$TMP/plain")
cyc=$(value_of cycles "$TMP/plain")
check "plain run: instructions ($ins) and cycles ($cyc)" test "$ins" -gt 0 -a "$cyc" -gt 0

# -n with -e: the events given, no default set
run_pmu "$O" "$E" stat --emulate -n -x, -e instructions -- "$WORK/loops" 1
expect_eq "-n -e instructions: exit 0" "$RC" 0
expect_eq "-n -e instructions: the same count" "$(value_of instructions "$E")" "$ins"
expect_eq "-n -e instructions: one row" "$(grep -c , "$E")" 1

# --metric-only: perf's IPC of the plain run's counts
run_pmu "$O" "$E" stat --emulate --metric-only -x, -e instructions,cycles -- "$WORK/loops" 1
ipc=$(awk -v i="$ins" -v c="$cyc" 'BEGIN { printf "%.2f", i / c }')
expect_eq "--metric-only: insn per cycle" "$(sed -n 2p "$E" | cut -d, -f1)" "$ipc"

# -I with -r: every run's intervals, which add up to the plain run's
run_pmu "$O" "$E" stat --emulate -r 2 -I 100 -x, -e instructions -- "$WORK/loops" 200
expect_eq "-I -r 2: exit 0" "$RC" 0
run_pmu "$O" "$TMP/whole" stat --emulate -x, -e instructions -- "$WORK/loops" 200
sum=$(awk -F, '$4 == "instructions" { s += $2 } END { print s }' "$E")
expect_eq "-I -r 2: the intervals add up to two runs" "$sum" \
	$((2 * $(value_of instructions "$TMP/whole")))

# --timeout: the command is stopped as asked, and what it ran is counted
run_pmu "$O" "$E" stat --emulate --timeout 300 -x, -e instructions -- "$WORK/loops" 1000000
expect_eq "--timeout: exit 0, as perf" "$RC" 0
n=$(value_of instructions "$E")
check "--timeout: instructions counted ($n)" test "$n" -gt 0 2>/dev/null

# -d: perf's detailed events join; those the model's counters cannot
# hold say so with -v
run_pmu "$O" "$E" stat --emulate -v -d -x, -- "$WORK/loops" 1
expect_eq "-d: exit 0" "$RC" 0
expect_match "-d: L1-dcache-loads has a row" "$E" ',L1-dcache-loads,'
expect_match "-d: -v says why an event is not counted" "$E" \
	'no counter of the simulated fam10h is free'

# -o FILE --append
echo previous >"$TMP/file"
run_pmu "$O" "$E" stat --emulate -o "$TMP/file" --append -x, -e instructions -- "$WORK/loops" 1
expect_eq "-o --append: kept the file's line" "$(head -1 "$TMP/file")" previous
expect_eq "-o --append: the count" "$(value_of instructions "$TMP/file")" "$ins"

done_testing
