#!/usr/bin/env bash
# perf stat's aggregation modes against perf itself: -A, --per-core,
# --per-socket, --per-die, --per-node (topology from sysfs), --per-thread
# and -G cgroups; the same rows, prefixes, columns and order.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/perfcmp.sh"
SPIN=$PMU_BUILD/tests/spin

require_perf
if ! perf stat -a -e task-clock true >/dev/null 2>&1; then
	echo "1..0 # SKIP system-wide counting is not allowed here (perf_event_paranoid)"
	exit 77
fi

for mode in -A --per-core --per-socket --per-die --per-node; do
	both -a "$mode" -e task-clock,page-faults -- "$SPIN" sleep 20
	expect_eq "$mode: exit 0" "$PMU_RC" 0
	same_output "$mode: text rows, prefixes and widths" text_shape
	both -a "$mode" -x, -e task-clock,page-faults -- "$SPIN" sleep 20
	same_output "$mode -x,: CSV rows" csv_shape
	both -a "$mode" -j -e task-clock,page-faults -- "$SPIN" sleep 20
	same_output "$mode --json: objects and keys" json_shape
	both -a "$mode" -I 30 -e task-clock -- "$SPIN" sleep 45
	same_output "$mode -I: header and interval rows" first2
done

# The default set system-wide: the same events as perf's, in its order
# (the clock is cpu-clock there, task-clock per task).
for tgt in -a "-C 0" ""; do
	# shellcheck disable=SC2086
	perf stat $tgt -x, -o "$TMP/f" -- "$SPIN" sleep 10 >/dev/null 2>&1
	# shellcheck disable=SC2086
	"$PMU" stat $tgt -x, -o "$TMP/p" -- "$SPIN" sleep 10 >/dev/null 2>&1
	expect_eq "default set ${tgt:-per task}: perf's events in perf's order" \
		"$(awk -F, 'NF > 2 { print $3 }' "$TMP/p" | tr '\n' ' ')" \
		"$(awk -F, 'NF > 2 { print $3 }' "$TMP/f" | tr '\n' ' ')"
done

# The aggregates are sysfs's: as many per-core rows as cores.
cores=$(cat /sys/devices/system/cpu/cpu[0-9]*/topology/core_id 2>/dev/null |
	sort -u | wc -l)
sockets=$(cat /sys/devices/system/cpu/cpu[0-9]*/topology/physical_package_id \
	2>/dev/null | sort -u | wc -l)
"$PMU" stat -a --per-core -x, -e task-clock -- "$SPIN" sleep 10 2>"$TMP/o" >/dev/null
if [ "$sockets" = 1 ]; then
	expect_eq "--per-core: one row per core of sysfs" "$(wc -l <"$TMP/o")" "$cores"
fi
"$PMU" stat -a --per-socket -x, -e task-clock -- "$SPIN" sleep 10 2>"$TMP/o" >/dev/null
expect_eq "--per-socket: one row per package of sysfs" "$(wc -l <"$TMP/o")" "$sockets"
ncpu=$(grep -c '' <(ls -d /sys/devices/system/cpu/cpu[0-9]*))
expect_eq "--per-socket: the CPUs summed" "$(awk -F, '{ n += $2 } END { print n }' "$TMP/o")" "$ncpu"

# -A's figures add up to the system-wide one's order of magnitude: the
# sum of per-CPU task-clock is the wall time times the CPUs.
"$PMU" stat -a -A -x, -e task-clock -- "$SPIN" sleep 100 2>"$TMP/o" >/dev/null
check "-A: each CPU's clock ran about the 100 ms" awk -F, \
	'{ if ($2 < 80 || $2 > 400) bad = 1 } END { exit bad }' "$TMP/o"

# A usage error without -a, as perf refuses it.
for mode in -A --per-core --per-socket --per-die --per-node; do
	both "$mode" -e task-clock -- "$SPIN" exit 0
	check "$mode without -a: perf refuses it" test "$PERF_RC" -ne 0
	expect_eq "$mode without -a: a usage error" "$PMU_RC" 2
done

# --per-cache: newer perf's, not 6.1's; here its rows add up to the CPUs.
"$PMU" stat -a --per-cache -x, -e task-clock -- "$SPIN" sleep 10 2>"$TMP/o" >/dev/null
expect_match "--per-cache: S-D-L-ID ids" "$TMP/o" '^S[0-9]+-D[0-9]+-L[0-9]+-ID[0-9]+,[0-9]+,'
expect_eq "--per-cache: the CPUs summed" "$(awk -F, '{ n += $2 } END { print n }' "$TMP/o")" "$ncpu"
run_pmu "$TMP/out" "$TMP/err" stat -a --per-cache=L9 -e task-clock -- "$SPIN" exit 0
expect_eq "--per-cache=L9: no such cache, an input error" "$RC" 1

# --per-thread on a process whose threads use 10, 20 and 30 ms of each
# 40: perf's order (most first), names and columns.
"$SPIN" threads 3 4000 &
w=$!
sleep 0.3
# (The main thread waits in pthread_join: whether it ran at all while
# counted is chance, so its rows are left out of the comparison.)
per_thread() { # TOOL OUT ARGS...
	local tool=$1 out=$2; shift 2
	if [ "$tool" = perf ]; then perf stat "$@" 2>"$out.all" & else "$PMU" stat "$@" 2>"$out.all" & fi
	local p=$!
	sleep 0.6
	kill -INT "$p"
	wait "$p"
	grep -v "spin-$w" "$out.all" >"$out"
}
# Which thread got more CPU in each run is the scheduler's, on a busy
# machine too: the rows are compared as sets, and the order of pmu's
# against its own counts (perf's rule: most first).
sorted_text() { text_shape "$1" | sort; }
sorted_csv() { csv_shape "$1" | sort; }
sorted_json() { json_shape "$1" | sort; }
per_thread perf "$TMP/perf" --per-thread -p "$w" -e task-clock
per_thread pmu "$TMP/pmu" --per-thread -p "$w" -e task-clock
same_output "--per-thread: perf's rows and widths" sorted_text
expect_match "--per-thread: comm-tid" "$TMP/pmu" "^ +work2-[0-9]+ +[0-9.]+ msec task-clock"
check "--per-thread: most first" sh -c "awk '/task-clock/ { print \$2 }' '$TMP/pmu' | sort -c -r -g"
expect_eq "--per-thread: a row per worker" "$(grep -c ' work[0-2]-' "$TMP/pmu")" 3
per_thread perf "$TMP/perf" --per-thread -x, -p "$w" -e task-clock
per_thread pmu "$TMP/pmu" --per-thread -x, -p "$w" -e task-clock
same_output "--per-thread -x,: CSV" sorted_csv
check "--per-thread -x,: most first" sh -c "cut -d, -f2 '$TMP/pmu' | sort -c -r -g"
per_thread perf "$TMP/perf" --per-thread -j -p "$w" -e task-clock
per_thread pmu "$TMP/pmu" --per-thread -j -p "$w" -e task-clock
same_output "--per-thread --json" sorted_json
kill "$w" 2>/dev/null; wait "$w" 2>/dev/null
both --per-thread -e task-clock -- "$SPIN" exit 0
check "--per-thread with a command: perf refuses it" test "$PERF_RC" -ne 0
expect_eq "--per-thread with a command: a usage error" "$PMU_RC" 2

# -G: a cgroup of this test's own, the command moving itself into it.
both -e task-clock -G pmu-none -a -- "$SPIN" exit 0
check "-G without such a cgroup: perf refuses it" test "$PERF_RC" -ne 0
check "-G without such a cgroup: pmu too" test "$PMU_RC" -ne 0
expect_match "-G: the cgroup named" "$TMP/pmu" "cgroup .*pmu-none"
both -G x -a -e task-clock -- "$SPIN" exit 0
check "-G before -e: perf refuses it" test "$PERF_RC" -ne 0
expect_eq "-G before -e: a usage error" "$PMU_RC" 2
both -e task-clock -G / -- "$SPIN" exit 0
check "-G without -a: perf refuses it" test "$PERF_RC" -ne 0
expect_eq "-G without -a: a usage error" "$PMU_RC" 2
both -a -e task-clock -G /,/ -- "$SPIN" exit 0
check "-G with more cgroups than events: perf refuses it" test "$PERF_RC" -ne 0
expect_eq "-G with more cgroups than events: a usage error" "$PMU_RC" 2

mnt=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
cg=pmu-test-$$
if [ -n "$mnt" ] && ! awk '$9 == "cgroup" && $NF ~ /perf_event/ { f = 1 } END { exit !f }' \
	/proc/self/mountinfo && mkdir "$mnt/$cg" 2>/dev/null; then
	into="echo \$\$ > $mnt/$cg/cgroup.procs && exec $SPIN pages 3000"
	both -a -e task-clock,page-faults,cs -G "$cg,/" -- sh -c "$into"
	same_output "-G A,/: cgroup column of each event" text_shape_cgroup
	expect_match "-G: the cgroup counted the command's page faults" "$TMP/pmu" \
		"^ +[0-9]{4,} +page-faults +/"
	both -a -x, -e task-clock,page-faults -G "$cg" -- sh -c "$into"
	same_output "-G -x,: the cgroup field" csv_shape
	pf=$(awk -F, '$3 == "page-faults" { print $1 }' "$TMP/pmu")
	check "-G: page faults of the command in the cgroup (${pf:-none} >= 3000)" \
		test "${pf:-0}" -ge 3000
	both -a -j -e task-clock,page-faults -G "$cg" -- sh -c "$into"
	same_output "-G --json: the cgroup key" json_shape
	rmdir "$mnt/$cg" 2>/dev/null
else
	skip "-G: no writable cgroup2 hierarchy for perf_event here"
fi

done_testing
