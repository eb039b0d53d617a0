#!/usr/bin/env bash
# pmu stat on existing processes, threads and CPUs (no command).
. "$(dirname "$0")/lib.sh"
SPIN=$PMU_BUILD/tests/spin
O=$TMP/out E=$TMP/err

# stat_until_int OUT ERR ARGS...: run pmu in the background, SIGINT it
# after a moment (as Ctrl-C would), wait for it, exit status in $RC.
stat_until_int() {
	local out=$1 err=$2; shift 2
	"$PMU" "$@" >"$out" 2>"$err" &
	local p=$!
	sleep 0.4
	kill -INT "$p"
	wait "$p"
	RC=$?
}

"$SPIN" spin 3000 &
busy=$!
stat_until_int "$O" "$E" stat -e task-clock,page-faults -p "$busy"
expect_eq "-p: exit 0 after SIGINT" "$RC" 0
expect_match "-p: header names the process" "$E" "^ Performance counter stats for process id '$busy':"
ms=$(awk '$3 == "task-clock" {print $1}' "$E")
check "-p: a spinning process accrues task-clock (got ${ms:-none} ms)" awk -v m="${ms:-0}" 'BEGIN { exit !(m > 50) }'

stat_until_int "$O" "$E" stat -e task-clock -t "$busy"
expect_eq "-t: exit 0 after SIGINT" "$RC" 0
expect_match "-t: header names the thread" "$E" "^ Performance counter stats for thread id '$busy':"
ms=$(awk '$3 == "task-clock" {print $1}' "$E")
check "-t: the thread accrues task-clock (got ${ms:-none} ms)" awk -v m="${ms:-0}" 'BEGIN { exit !(m > 50) }'
kill "$busy" 2>/dev/null; wait "$busy" 2>/dev/null

"$SPIN" sleep 3000 &
sleeper=$!
stat_until_int "$O" "$E" stat -e context-switches -p "$sleeper"
expect_eq "-p on a sleeping process: exit 0" "$RC" 0
expect_match "-p on a sleeping process: a line for the event" "$E" ' context-switches'
kill "$sleeper" 2>/dev/null; wait "$sleeper" 2>/dev/null

# -p ends by itself when the process exits.
"$SPIN" sleep 300 &
short=$!
timeout 10 "$PMU" stat -e task-clock -p "$short" >"$O" 2>"$E"
expect_eq "-p: stops when the process exits" "$?" 0

if [ "$(id -u)" = 0 ]; then
	stat_until_int "$O" "$E" stat -e task-clock -a -C 0
	expect_eq "-a -C 0: exit 0" "$RC" 0
	expect_match "-a -C 0: header names the CPU" "$E" "^ Performance counter stats for CPU\\(s\\) 0:"
	ms=$(awk '$3 == "task-clock" {print $1}' "$E")
	# one CPU's clock runs all the time: close to the 400 ms waited
	check "-a -C 0: task-clock of one CPU (got ${ms:-none} ms)" awk -v m="${ms:-0}" 'BEGIN { exit !(m > 100) }'
	run_pmu "$O" "$E" stat -a -e task-clock -- "$SPIN" sleep 100
	expect_match "-a with a command: system wide" "$E" "^ Performance counter stats for 'system wide':"
	run_pmu "$O" "$E" stat -I 100 -a -C 0 -e task-clock -- "$SPIN" sleep 250
	n=$(grep -c 'task-clock' "$E")
	check "-a -I 100: >= 2 intervals (got $n)" test "$n" -ge 2
else
	skip "-a needs root"
fi

# Ctrl-C while a command runs: pmu survives, prints counts, exits 130.
"$PMU" stat -e task-clock -- "$SPIN" sleep 5000 >"$O" 2>"$E" &
p=$!
sleep 0.3
kill -INT "$p"
wait "$p"
expect_eq "SIGINT to pmu reaches the command: 128+2" "$?" 130
expect_match "SIGINT: counts still printed" "$E" 'msec task-clock'

done_testing
