#!/usr/bin/env bash
# Estimates of event sets against perf stat's direct count of the same
# workload: page-faults counted a third or half of the time, scaled up.
. "$(dirname "$0")/lib.sh"
SPIN=$PMU_BUILD/tests/spin
E=$TMP/err

require_perf

# N pages touched evenly over MS ms of CPU time, so any share of the
# run sees its share of the faults.
work=("$SPIN" paced 40000 800)

csv_value() { awk -F, -v ev="$2" '$3 == ev {print $1}' "$1"; }

perf stat -x, -e page-faults -- "${work[@]}" 2>"$TMP/perf" >/dev/null
direct=$(csv_value "$TMP/perf" page-faults)
check "perf counts the workload's faults (got ${direct:-none})" test "${direct:-0}" -ge 40000

# within2 NAME ESTIMATE: |ESTIMATE - direct| <= 2% of direct
within2() {
	if [ -n "$2" ] && awk -v a="$2" -v b="$direct" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.02 * b) }'; then
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
		"$PMU" stat -x, "${args[@]}" -- "${work[@]}" 2>"$E" >/dev/null
		est=$(csv_value "$E" page-faults)
		within2 "page-faults in set $at of $k: estimate within 2% of perf" "$est"
	done
done

done_testing
