#!/usr/bin/env bash
# pmu stat --set with perf stat's other options: -D, -I --interval-count,
# --metric-only, -o --append, -G, tool events in a set; and what cannot
# go with sets (per-CPU and per-thread figures, -d, -T), refused as usage
# errors that name both options.
. "$(dirname "$0")/lib.sh"
SPIN=$PMU_BUILD/tests/spin
O=$TMP/out E=$TMP/err
SETS=(--set task-clock --set page-faults)
# turns of 10 s: the first set counts the whole of a short command
LONG=(--switch time:10000)

refused() { # OPTION ARGS...
	local opt=$1; shift
	run_pmu "$O" "$E" stat "${SETS[@]}" "$@" -- "$SPIN" spin 1
	expect_eq "--set with $*: exit 2" "$RC" 2
	expect_match "--set with $*: names both" "$E" "--set and $opt cannot be combined"
}
refused -A -a -A
refused --per-thread -a --per-thread
refused --per-core -a --per-core
refused --per-socket -a --per-socket
refused --per-die -a --per-die
refused --per-node -a --per-node
refused --per-cache -a --per-cache
refused -d -d
refused -T -T
run_pmu "$O" "$E" stat -p $$ --per-thread "${SETS[@]}"
expect_eq "--per-thread before --set: exit 2" "$RC" 2
expect_match "--per-thread before --set: names both" "$E" "--set and --per-thread"

# -D -1: counting never starts, so no set has had a turn
run_pmu "$O" "$E" stat -D -1 -x, "${SETS[@]}" -- "$SPIN" spin 50
expect_eq "-D -1: exit 0" "$RC" 0
expect_eq "-D -1: nothing counted" "$(cut -d, -f1 "$E" | sort -u)" "<not counted>"
expect_eq "-D -1: no set ran (set runs, field 10)" "$(cut -d, -f10 "$E" | sort -u)" 0

# -D MS: counting starts after the delay, with set 0's turn
run_pmu "$O" "$E" stat -D 100 "${SETS[@]}" "${LONG[@]}" -- "$SPIN" spin 300
expect_eq "-D 100: exit 0" "$RC" 0
expect_match "-D 100: says when counting starts" "$E" "^Events enabled$"
expect_match "-D 100: task-clock counted" "$E" '^ +[0-9.]+ msec task-clock'
expect_match "-D 100: set 0 had its turn" "$E" '^   set 0: 1 runs, [0-9.]+ msec active$'
expect_match "-D 100: set 1 had none" "$E" '^   set 1: 0 runs, 0.00 msec active$'

# A tool event reads the session's clock whatever its set's turns
run_pmu "$O" "$E" stat -x, --set task-clock --set duration_time "${LONG[@]}" -- "$SPIN" spin 50
d=$(awk -F, '$3 == "duration_time" { print $1 }' "$E")
check "duration_time in a set that never ran: counted (${d:-none} ns >= 50 ms)" \
	test "${d:-0}" -ge 50000000 2>/dev/null
expect_eq "duration_time's set: 0 runs" "$(awk -F, '$3 == "duration_time" { print $10 }' "$E")" 0

# An overflow switch event neither set has joins both at open: each
# set's copy is a row of its own, the first set's counting
run_pmu "$O" "$E" stat -x, "${SETS[@]}" --switch overflow:minor-faults:1000:1000 -- "$SPIN" pages 200
expect_eq "switch event added to both sets: exit 0" "$RC" 0
expect_eq "switch event added to both sets: events, sets" \
	"$(cut -d, -f3,8 "$E" | tr '\n' ' ')" \
	"task-clock,0 page-faults,1 minor-faults,0 minor-faults,1 "
mf=$(awk -F, '$3 == "minor-faults" && $8 == 0 { print $9 }' "$E")
check "switch event: set 0's copy counted the command's faults (${mf:-none} >= 200)" \
	test "${mf:-0}" -ge 200 2>/dev/null
run_pmu "$O" "$E" stat "${SETS[@]}" --switch overflow:duration_time:2 -- "$SPIN" spin 1
expect_eq "a tool event as switch event: exit 2" "$RC" 2
expect_match "a tool event as switch event: says it never overflows" "$E" \
	"'duration_time' is measured by the session.*never overflows"

# --metric-only: the derived figures only, no lines of the sets
run_pmu "$O" "$E" stat --metric-only "${SETS[@]}" -- "$SPIN" spin 50
expect_eq "--metric-only: exit 0" "$RC" 0
expect_no_match "--metric-only: no set lines" "$E" 'set [0-9]+:|raw'

# -I --interval-count: that many intervals, each with its set lines
run_pmu "$O" "$E" stat -I 100 --interval-count 2 "${SETS[@]}" -- "$SPIN" spin 600
expect_eq "-I --interval-count 2: exit 0" "$RC" 0
expect_eq "-I --interval-count 2: two intervals of set 0" \
	"$(grep -cE '^ +[0-9]+\.[0-9]+ +set 0: ' "$E")" 2
expect_eq "-I --interval-count 2: two of set 1" \
	"$(grep -cE '^ +[0-9]+\.[0-9]+ +set 1: ' "$E")" 2

# -I with -r: each run's intervals count its own turns from its start
run_pmu "$O" "$E" stat -r 2 -I 100 -x, "${SETS[@]}" -- "$SPIN" spin 250
expect_eq "-I -r 2: exit 0" "$RC" 0
check "-I -r 2: intervals of both runs ($(grep -c task-clock "$E"))" \
	test "$(grep -c task-clock "$E")" -ge 4
# fields: time, perf's 7 and -r's spread, set, raw, set runs, set active
# ns, stderr; an interval of 100 ms holds fewer than 100 turns of 4 ms
# and less than a second of a one-thread command's time
expect_eq "-I -r 2: 14 fields" "$(awk -F, '{ print NF }' "$E" | sort -u)" 14
check "-I -r 2: every interval's set runs and active time its own" \
	awk -F, '$12 >= 100 || $13 >= 1e9 { bad = 1 } END { exit bad }' "$E"

# -o FILE --append: the rows and the sets' lines go after what was there
echo previous >"$TMP/file"
run_pmu "$O" "$E" stat -o "$TMP/file" --append "${SETS[@]}" -- "$SPIN" spin 50
expect_eq "-o --append: exit 0" "$RC" 0
expect_eq "-o --append: kept the file's line" "$(head -1 "$TMP/file")" previous
expect_match "-o --append: perf's line saying when" "$TMP/file" '^# started on '
expect_match "-o --append: the set lines" "$TMP/file" '^   set 1: '
expect_no_match "-o --append: nothing on stderr" "$E" 'set [0-9]+:|task-clock'

# -G: a cgroup's events in a set (system-wide), the command in the cgroup
mnt=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
cg=pmu-sets-$$
if [ -n "$mnt" ] && ! awk '$9 == "cgroup" && $NF ~ /perf_event/ { f = 1 } END { exit !f }' \
	/proc/self/mountinfo && mkdir "$mnt/$cg" 2>/dev/null; then
	into="echo \$\$ > $mnt/$cg/cgroup.procs && exec $SPIN pages 3000"
	run_pmu "$O" "$E" stat -a -x, --set page-faults -G "$cg" --set task-clock "${LONG[@]}" -- sh -c "$into"
	expect_eq "-G in a set: exit 0" "$RC" 0
	expect_eq "-G in a set: page-faults' cgroup field" \
		"$(awk -F, '$3 == "page-faults" { print $4 }' "$E")" "$cg"
	expect_eq "-G in a set: task-clock has none" \
		"$(awk -F, '$3 == "task-clock" { print $4 }' "$E")" ""
	pf=$(awk -F, '$3 == "page-faults" { print $10 }' "$E")
	check "-G in a set: the command's page faults, raw (${pf:-none} >= 3000)" \
		test "${pf:-0}" -ge 3000 2>/dev/null
	rmdir "$mnt/$cg" 2>/dev/null
else
	skip "-G in a set: no writable cgroup2 hierarchy for perf_event here"
fi

done_testing
