#!/usr/bin/env bash
# Estimates of event sets against perf stat's direct count of the same
# workload: page-faults counted a half or a third of the time, scaled up.
. "$(dirname "$0")/lib.sh"
SPIN=$PMU_BUILD/tests/spin
E=$TMP/err

require_perf

# N pages touched evenly over MS ms of CPU time, so any share of the run
# sees its share of the faults.  Both tools attach to it (-p) while it
# sleeps first: the faults of its start (the loader's, a sanitizer's, a
# burst in the first turn that one set would see whole) are nobody's.
work=(sleep 500 paced 40000 800)

csv_value() { awk -F, -v ev="$2" '$3 == ev {print $1}' "$1"; }

# attached OUT TOOL ARGS...: run TOOL ARGS -p PID of a fresh workload.
attached() {
	local out=$1; shift
	"$SPIN" "${work[@]}" &
	local pid=$!
	"$@" -p "$pid" 2>"$out" >/dev/null
	wait "$pid"
}

attached "$TMP/perf" perf stat -x, -e page-faults
direct=$(csv_value "$TMP/perf" page-faults)
check "perf counts the workload's faults (got ${direct:-none})" test "${direct:-0}" -ge 40000

# within NAME ESTIMATE PCT: |ESTIMATE - direct| <= PCT% of direct.  A
# set sees the faults of its turns; its estimate can be off by about a
# turn at each end of the run, a larger part of its count the fewer
# turns it has: 1% of the run per set (2% with 2 sets, 3% with 3).
within() {
	if [ -n "$2" ] && awk -v a="$2" -v b="$direct" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= p / 100 * b) }'; then
		ok "$1: $2 against perf's $direct"
	else
		not_ok "$1"; diag "pmu=${2:-none} perf=$direct"
	fi
}

for k in 2 3; do
	for at in 0 1; do
		args=()
		for ((j = 0; j < k; j++)); do
			if [ "$j" = "$at" ]; then
				args+=(--set task-clock,page-faults)
			else
				args+=(--set task-clock,context-switches)
			fi
		done
		attached "$E" "$PMU" stat -x, "${args[@]}"
		est=$(csv_value "$E" page-faults)
		within "page-faults in set $at of $k: estimate within $k% of perf" "$est" "$k"
	done
done

done_testing
