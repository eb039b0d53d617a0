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

"$SPIN" spin 60000 &
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

"$SPIN" sleep 60000 &
sleeper=$!
stat_until_int "$O" "$E" stat -e context-switches -p "$sleeper"
expect_eq "-p on a sleeping process: exit 0" "$RC" 0
expect_match "-p on a sleeping process: a line for the event" "$E" ' context-switches'
kill "$sleeper" 2>/dev/null; wait "$sleeper" 2>/dev/null

# held_child FIFO N: a process that waits for a line on FIFO, then
# becomes spin and touches N fresh pages (same pid: exec keeps it).
held_child() {
	mkfifo "$1"
	( read -r _ <"$1"; exec "$SPIN" pages "$2" ) &
}

# perf_fds PID: how many perf_event descriptors PID holds.
perf_fds() {
	ls -l "/proc/$1/fd" 2>/dev/null | grep -c 'perf_event'
}

# -p A,B counts both processes together: each touches N pages only after
# pmu has its counters open, so the sum is at least 2N, and one alone
# (N plus its exec) cannot reach it.
N=3000
held_child "$TMP/go1" $N; c1=$!
held_child "$TMP/go2" $N; c2=$!
"$PMU" stat -e page-faults -x, -p "$c1,$c2" >"$O" 2>"$E" &
p=$!
for _ in $(seq 100); do
	[ "$(perf_fds "$p")" -ge 2 ] && break
	sleep 0.1
done
sleep 0.1 # opened, now let it start counting
echo >"$TMP/go1"; echo >"$TMP/go2"
wait "$c1" "$c2"
wait "$p"
expect_eq "-p A,B: exit 0 once both exited" "$?" 0
pf=$(awk -F, '$3 == "page-faults" {print $1}' "$E")
check "-p A,B: page faults of both summed (got ${pf:-none}, want >= $((2 * N)))" \
	awk -v n="${pf:-0}" -v w=$((2 * N)) 'BEGIN { exit !(n >= w) }'
rm -f "$TMP/go1" "$TMP/go2"

"$SPIN" sleep 60000 &
s1=$!
"$SPIN" sleep 60000 &
s2=$!
stat_until_int "$O" "$E" stat -e task-clock -p "$s1,$s2"
expect_eq "-p A,B: exit 0 after SIGINT" "$RC" 0
expect_match "-p A,B: header lists both" "$E" "^ Performance counter stats for process id '$s1,$s2':"
stat_until_int "$O" "$E" stat -e task-clock -t "$s1,$s2"
expect_match "-t A,B: header lists both" "$E" "^ Performance counter stats for thread id '$s1,$s2':"

# A pid that does not exist fails the whole list and is named.
gone=$("$SPIN" exit 0 & echo $!; wait)
run_pmu "$O" "$E" stat -e task-clock -p "$s1,$gone" -- "$SPIN" exit 0
expect_eq "-p with a missing pid: exit 1" "$RC" 1
expect_match "-p with a missing pid: names it" "$E" "no such process: $gone\$"
run_pmu "$O" "$E" stat -e task-clock -t "$gone,$s2" -- "$SPIN" exit 0
expect_eq "-t with a missing tid: exit 1" "$RC" 1
expect_match "-t with a missing tid: names it" "$E" "no such thread: $gone"
kill "$s1" "$s2" 2>/dev/null; wait "$s1" "$s2" 2>/dev/null

# Bad lists are usage errors that quote the bad token.
while IFS='|' read -r flag arg tok; do
	run_pmu "$O" "$E" stat -e task-clock "$flag" "$arg" -- "$SPIN" exit 0
	expect_eq "$flag '$arg': usage error" "$RC" 2
	expect_match "$flag '$arg': names '$tok'" "$E" "$tok"
done <<'ROWS'
-p|12,x|bad -p value 'x' in '12,x'
-p|,|empty process id in -p ','
-p|0|bad -p value '0'
-p|-3|bad -p value '-3'
-p|5,,6|empty process id
-t|7,|empty thread id
-t|1.5|bad -t value '1\.5'
ROWS

# -p ends by itself when the process exits.
"$SPIN" sleep 300 &
short=$!
timeout 10 "$PMU" stat -e task-clock -p "$short" >"$O" 2>"$E"
expect_eq "-p: stops when the process exits" "$?" 0

if [ "$(id -u)" = 0 ]; then
	stat_until_int "$O" "$E" stat -e task-clock -a -C 0
	expect_eq "-a -C 0: exit 0" "$RC" 0
	expect_match "-a -C 0: header names the CPU" "$E" "^ Performance counter stats for 'CPU\\(s\\) 0':"
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

# -a --per-thread counts every thread of the machine: a zombie among
# them (a child its parent does not reap) is left out, as perf leaves
# it, not an error
bash -c 'sleep 0.05 & exec sleep 2' &
zpid=$!
for i in $(seq 1 100); do
	z=$(ps -o pid=,stat= --ppid "$zpid" 2>/dev/null | awk '$2 ~ /^Z/ { print $1 }')
	[ -n "$z" ] && break
	sleep 0.02
done
if [ -n "$z" ]; then
	run_pmu "$O" "$E" stat -a --per-thread -x, -e task-clock -- "$SPIN" spin 20
	expect_eq "-a --per-thread beside zombie $z: exit 0" "$RC" 0
	# every live thread has its row (the command's own appears under
	# the name it had when the threads were listed, as in perf)
	n=$(grep -cE '^[^,]+-[0-9]+,[0-9.]+,msec,task-clock,' "$E")
	check "-a --per-thread beside a zombie: rows for the threads ($n)" test "$n" -ge 2
	expect_no_match "-a --per-thread beside a zombie: no row for it" "$E" "^[^,]+-$z,"
else
	skip "-a --per-thread beside a zombie: none could be made"
fi
kill "$zpid" 2>/dev/null
wait "$zpid" 2>/dev/null

done_testing
