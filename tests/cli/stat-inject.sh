#!/usr/bin/env bash
# Kernel answers this machine never gives, through the LD_PRELOAD shim.
. "$(dirname "$0")/lib.sh"
SPIN=$PMU_BUILD/tests/spin
SHIM=$PMU_BUILD/tests/libinject.so
O=$TMP/out E=$TMP/err

if [ ! -f "$SHIM" ]; then
	echo "1..0 # SKIP $SHIM not built"
	exit 77
fi
# A sanitizer runtime wants to be first in the link order; the shim only
# wraps libc calls, so that check can be relaxed.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0

inject() { # SPEC OUT ERR ARGS...
	local spec=$1 out=$2 err=$3; shift 3
	PMU_INJECT=$spec LD_PRELOAD=$SHIM "$PMU" "$@" >"$out" 2>"$err"
	RC=$?
}

paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo '?')
inject open=EACCES "$O" "$E" stat -e task-clock -- "$SPIN" exit 0
expect_eq "EACCES: exit 1" "$RC" 1
expect_match "EACCES: names perf_event_paranoid and its value" "$E" "perf_event_paranoid.*$paranoid"

inject open=EMFILE "$O" "$E" stat -e task-clock -- "$SPIN" exit 0
expect_eq "EMFILE: exit 1" "$RC" 1
expect_match "EMFILE: suggests ulimit" "$E" 'ulimit'

inject open=ESRCH "$O" "$E" stat -e task-clock -- "$SPIN" exit 0
expect_eq "ESRCH: exit 1" "$RC" 1
expect_match "ESRCH: no such process" "$E" 'no such process'

# A software event refused by the "kernel" stays in the table.
inject open:type=1:config=2=EOPNOTSUPP "$O" "$E" stat -e task-clock,page-faults -- "$SPIN" pages 10
expect_eq "EOPNOTSUPP on page-faults: command still measured" "$RC" 0
expect_match "EOPNOTSUPP: <not supported> line" "$E" '^ +<not supported> +page-faults'
expect_match "EOPNOTSUPP: other events counted" "$E" '^ +[0-9.]+ msec task-clock'

# Multiplexing: counters ran half the time; scaled = raw * 2.
inject mux=50 "$O" "$E" stat -x, -e page-faults -- "$SPIN" pages 1000
scaled=$(awk -F, '$3 == "page-faults" {print $1}' "$E")
pct=$(awk -F, '$3 == "page-faults" {print $5}' "$E")
# -x keeps perf's whole percentage: 100 * running / enabled in whole
# nanoseconds, the fraction dropped (half of an odd time is 49.99...)
check "mux=50: CSV pcnt-running, perf's whole part ($pct)" \
	awk -v p="$pct" 'BEGIN { exit !(p == "50.00" || p == "49.00") }'
inject mux=50 "$O" "$E" stat -x, --no-scale -e page-faults -- "$SPIN" pages 1000
raw=$(awk -F, '$3 == "page-faults" {print $1}' "$E")
check "mux=50: raw >= 1000 (got ${raw:-none})" test "${raw:-0}" -ge 1000
check "mux=50: scaled ~ 2 x raw (scaled ${scaled:-none}, raw ${raw:-none})" \
	awk -v s="${scaled:-0}" -v r="${raw:-0}" 'BEGIN { exit !(r > 0 && s >= 1.8 * r && s <= 2.2 * r) }'
inject mux=50 "$O" "$E" stat -e page-faults -- "$SPIN" pages 100
expect_match "mux=50: text shows (50.00%)" "$E" 'page-faults .*\(50\.00%\)$'
inject mux=50 "$O" "$E" stat --no-scale -e page-faults -- "$SPIN" pages 100
expect_no_match "mux=50 --no-scale: no percentage" "$E" '\(50\.00%\)'

# The command dies while pmu still holds it: pmu survives the broken
# pipe, says what happened and exits as the command did.
inject kill=9 "$O" "$E" stat -e task-clock -- "$SPIN" exit 0
expect_eq "killed before release: exit 128+9" "$RC" 137
expect_match "killed before release: names the signal" "$E" 'killed by signal 9'

# A read the library rejects is reported with the library's error code.
inject short-read "$O" "$E" stat -e task-clock -- "$SPIN" exit 0
expect_match "short read: names the returned error" "$E" \
	'cannot read counters: Input/output error'

done_testing
