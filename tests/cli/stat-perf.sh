#!/usr/bin/env bash
# pmu stat against perf stat on the same workloads (software events).
. "$(dirname "$0")/lib.sh"
SPIN=$PMU_BUILD/tests/spin
O=$TMP/out E=$TMP/err

require_perf

# csv_value FILE EVENT: value column of EVENT in -x, output.
csv_value() { awk -F, -v ev="$2" '$3 == ev {print $1}' "$1"; }

# close_to NAME A B: |A - B| <= 5% of B + 20 (perf's own run-to-run spread).
close_to() {
	local name=$1 a=$2 b=$3
	if [ -z "$a" ] || [ -z "$b" ]; then not_ok "$name"; diag "missing value: pmu='$a' perf='$b'"; return; fi
	if awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.05 * b + 20) }'; then
		ok "$name"
	else
		not_ok "$name"; diag "pmu=$a perf=$b"
	fi
}

compare() { # NAME EVENT MIN WORKLOAD...
	local name=$1 ev=$2 min=$3; shift 3
	"$PMU" stat -x, -e "$ev" -- "$@" 2>"$E" >/dev/null
	local a; a=$(csv_value "$E" "$ev")
	perf stat -x, -e "$ev" -- "$@" 2>"$TMP/perf" >/dev/null
	local b; b=$(csv_value "$TMP/perf" "$ev")
	check "$name: pmu >= $min (got ${a:-none})" test "${a:-0}" -ge "$min"
	check "$name: perf >= $min (got ${b:-none})" test "${b:-0}" -ge "$min"
	close_to "$name: pmu within perf's spread" "$a" "$b"
}

compare "page-faults, 2000 pages" page-faults 2000 "$SPIN" pages 2000
compare "context-switches, 300 round trips" context-switches 600 "$SPIN" switches 300
# Children inherit the counters: 4 children x 500 pages.
compare "page-faults of 4 children" page-faults 2000 "$SPIN" fork 4 500

# A PMU under /sys/bus/event_source and a tracepoint.
run_pmu "$O" "$E" stat -x, -e msr/tsc/,sched:sched_switch -- "$SPIN" switches 100
if grep -q '^<not supported>,,msr/tsc/' "$E" && ! [ -e /sys/bus/event_source/devices/msr ]; then
	skip "msr/tsc/: no msr PMU on this machine"
else
	tsc=$(csv_value "$E" msr/tsc/)
	check "msr/tsc/ counts (got ${tsc:-none})" test "${tsc:-0}" -gt 0
fi
sw=$(csv_value "$E" sched:sched_switch)
check "sched:sched_switch >= 200 for 100 round trips (got ${sw:-none})" test "${sw:-0}" -ge 200

done_testing
