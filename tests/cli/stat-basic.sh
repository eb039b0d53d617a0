#!/usr/bin/env bash
# pmu stat: help, exit status, output formats, repeats and intervals.
. "$(dirname "$0")/lib.sh"
SPIN=$PMU_BUILD/tests/spin
O=$TMP/out E=$TMP/err

run_pmu "$O" "$E" --help
expect_eq "pmu --help exits 0" "$RC" 0
expect_match "pmu --help lists stat" "$O" '^ +stat '
run_pmu "$O" "$E" stat --help
expect_eq "pmu stat --help exits 0" "$RC" 0
for opt in -e -p -t -a -C -I -r -x -j -o --no-scale -v; do
	expect_match "stat --help documents $opt" "$O" "^ +(-., )?$opt[ ,]"
done
run_pmu "$O" "$E" --version
expect_match "pmu --version prints a version" "$O" '^pmu [0-9]+\.[0-9]+\.[0-9]+$'

# Exit status is the command's own; a signal gives 128+N like a shell.
for code in 0 3 42; do
	run_pmu "$O" "$E" stat -e task-clock -- "$SPIN" exit "$code"
	expect_eq "exit status $code propagates" "$RC" "$code"
done
run_pmu "$O" "$E" stat -e task-clock,page-faults -- "$SPIN" pages 10 signal 15
expect_eq "killed by SIGTERM gives 143" "$RC" 143
expect_match "counts printed after a signal" "$E" '^ +[0-9]+ +page-faults'
run_pmu "$O" "$E" stat -e task-clock -- "$SPIN" signal 9
expect_eq "killed by SIGKILL gives 137" "$RC" 137

run_pmu "$O" "$E" stat -e task-clock -- no-such-command-xyz
expect_eq "command not found exits 127" "$RC" 127
expect_match "command not found message" "$E" '^pmu: no-such-command-xyz: command not found'
printf "x\n" >"$TMP/noexec"; chmod 644 "$TMP/noexec"
run_pmu "$O" "$E" stat -e task-clock -- "$TMP/noexec"
expect_eq "non-executable command exits 126" "$RC" 126

# Text table: header names the command, counts, elapsed/user/sys lines.
run_pmu "$O" "$E" stat -e task-clock,page-faults -- "$SPIN" pages 500
expect_match "header names the command" "$E" "^ Performance counter stats for '$SPIN pages 500':"
expect_match "task-clock in msec with CPUs utilized" "$E" '^ +[0-9]+\.[0-9]{2} msec task-clock +# +[0-9.]+ CPUs utilized'
pf=$(awk '$2 == "page-faults" {print $1}' "$E")
check "page-faults >= pages touched (500)" test "${pf:-0}" -ge 500
expect_match "elapsed line" "$E" '^ +[0-9]+\.[0-9]{9} seconds time elapsed'
expect_match "user line" "$E" '^ +[0-9]+\.[0-9]{9} seconds user'
expect_match "sys line" "$E" '^ +[0-9]+\.[0-9]{9} seconds sys'
check "nothing on stdout" test ! -s "$O"

# -o FILE takes the table; stderr keeps only diagnostics.
run_pmu "$O" "$E" stat -o "$TMP/file" -e page-faults -- "$SPIN" pages 100
expect_match "-o writes the table to FILE" "$TMP/file" 'page-faults'
expect_no_match "-o leaves stderr without the table" "$E" 'page-faults'

# Default event set: perf's list; hardware lines only where countable.
run_pmu "$O" "$E" stat -- "$SPIN" pages 10
for ev in task-clock context-switches cpu-migrations page-faults; do
	expect_match "default set has $ev" "$E" " $ev "
done
if [ -e /sys/bus/event_source/devices/cpu ] || [ -e /sys/bus/event_source/devices/cpu_core ]; then
	expect_match "machine with a PMU: cycles shown" "$E" ' cycles '
else
	expect_no_match "no PMU: cycles line dropped" "$E" ' cycles'
	expect_no_match "no PMU: no <not supported> lines" "$E" 'not supported>'
	n=$(grep -c 'hardware counters not shown' "$E")
	expect_eq "no PMU: exactly one explanation line" "$n" 1
	expect_match "explanation names the cause" "$E" '^pmu: hardware counters not shown: .*(PMU|paranoid|CPU)'
	# hardware events the user named: shown <not supported>, and the
	# same one line says why (once, whatever -r and -I)
	for args in "-e cycles,task-clock,instructions:u" "-r 2 -e cycles" "-I 20 -e cycles"; do
		# shellcheck disable=SC2086
		run_pmu "$O" "$E" stat $args -- "$SPIN" sleep 50
		expect_match "no PMU, $args: the row is shown" "$E" '<not supported> +cycles'
		expect_eq "no PMU, $args: one line says why" \
			"$(grep -c '^pmu: cycles.*: <not supported>: this machine has no hardware PMU' "$E")" 1
	done
	run_pmu "$O" "$E" stat -x, -e cycles -- "$SPIN" sleep 10
	expect_no_match "no PMU, -x: rows only, no prose" "$E" 'no hardware PMU'
fi

# -x, CSV: value,unit,event,run-time,pcnt-running,metric-value,metric-unit
run_pmu "$O" "$E" stat -x, -e task-clock,page-faults,cycles -- "$SPIN" pages 300
n=$(grep -c , "$E")
expect_eq "CSV: one line per event" "$n" 3
bad=$(awk -F, '/,/ && NF != 7' "$E" | wc -l)
expect_eq "CSV: 7 fields per line" "$bad" 0
expect_match "CSV: task-clock row" "$E" '^[0-9]+\.[0-9]{2},msec,task-clock,[0-9]+,100\.00,[0-9.]+,CPUs utilized$'
expect_match "CSV: page-faults row" "$E" '^[0-9]+,,page-faults,[0-9]+,100\.00,[0-9.]+,[KMG]?/sec$'
if ! [ -e /sys/bus/event_source/devices/cpu ]; then
	expect_match "CSV: unsupported value" "$E" '^<not supported>,,cycles,0,'
fi
run_pmu "$O" "$E" stat -x';' -e page-faults -- "$SPIN" pages 10
expect_match "CSV: custom separator" "$E" '^[0-9]+;;page-faults;'

# --json: one valid object per line with perf's keys.
run_pmu "$O" "$E" stat -j -e task-clock,page-faults,cycles -- "$SPIN" pages 10
if command -v python3 >/dev/null; then
	check "JSON: every line parses" python3 -c '
import json, sys
keys = {"counter-value", "unit", "event", "event-runtime", "pcnt-running", "metric-value", "metric-unit"}
lines = [l for l in open(sys.argv[1]) if l.startswith("{")]
assert len(lines) == 3, lines
for l in lines:
    o = json.loads(l)
    assert keys <= set(o), o
    assert isinstance(o["counter-value"], str)
' "$E"
else
	skip "JSON: python3 missing"
fi
run_pmu "$O" "$E" stat -j -r 2 -e page-faults -- "$SPIN" pages 10
expect_match "JSON -r: variance key" "$E" '"variance" : [0-9.]+'
run_pmu "$O" "$E" stat -j -I 50 -e page-faults -- "$SPIN" sleep 120
expect_match "JSON -I: interval key" "$E" '^\{"interval" : [0-9.]+, "counter-value"'

# -r N: means with ( +- x% ) and the elapsed spread.
run_pmu "$O" "$E" stat -r 3 -e task-clock,page-faults -- "$SPIN" pages 200
expect_eq "-r 3 exits 0" "$RC" 0
expect_match "-r 3 header says 3 runs" "$E" "for '.*' \\(3 runs\\):"
expect_match "-r 3 elapsed with +-" "$E" '^ +[0-9.]+ \+- [0-9.]+ seconds time elapsed +\( \+- +[0-9.]+% \)'
run_pmu "$O" "$E" stat -r 2 -e task-clock -- "$SPIN" exit 5
expect_eq "-r: exit status of the last run" "$RC" 5

# -I: at least two intervals, timestamps increase.
run_pmu "$O" "$E" stat -I 100 -e task-clock,page-faults -- "$SPIN" sleep 350
expect_match "-I text header" "$E" '^#[ ]+time[ ]+counts unit events'
awk '$3 == "page-faults" || $2 == "page-faults" {print $1}' "$E" >"$TMP/ts"
n=$(wc -l <"$TMP/ts")
check "-I 100 over 350 ms: >= 2 intervals (got $n)" test "$n" -ge 2
check "-I timestamps increase" sort -c -g -u "$TMP/ts"
run_pmu "$O" "$E" stat -I 100 -x, -e page-faults -- "$SPIN" sleep 250
bad=$(awk -F, 'NF != 8' "$E" | wc -l)
expect_eq "-I CSV: timestamp + 7 fields" "$bad" 0

# --no-scale prints raw counts and no running percentage.
run_pmu "$O" "$E" stat --no-scale -e page-faults -- "$SPIN" pages 100
expect_no_match "--no-scale: no percentage" "$E" '\([0-9.]+%\)'
expect_match "--no-scale: count printed" "$E" '^ +[0-9]+ +page-faults'

# Option spellings: long options with '=', bundles, values attached; the
# options end at the command, with or without "--", and what follows the
# command is the command's own (sh -c here would be an unknown -c).
run_pmu "$O" "$E" stat --event=page-faults --field-separator=';' -- "$SPIN" pages 10
expect_match "--event= and --field-separator=" "$E" '^[0-9]+;;page-faults;'
run_pmu "$O" "$E" stat -je page-faults -- "$SPIN" pages 10
expect_match "bundle -je EVENT" "$E" '"event" : "page-faults"'
run_pmu "$O" "$E" stat -x';' -epage-faults "$SPIN" pages 10
expect_match "values attached, command without --" "$E" '^[0-9]+;;page-faults;'
run_pmu "$O" "$E" stat -e task-clock sh -c 'exit 4'
expect_eq "the command's own options stay its own" "$RC" 4
run_pmu "$O" "$E" stat -e task-clock -- sh -c 'exit 5'
expect_eq "the same after --" "$RC" 5

done_testing
