#!/usr/bin/env bash
# Lost samples: a one-page ring under a high sampling rate, with the
# recorder stopped for a while so the kernel has to drop samples.  pmu
# record says how many it lost; the file's LOST records (summed from
# perf script -D, perf's own dump) carry the same number, and pmu
# report says it too.
. "$(dirname "$0")/lib.sh"
require_perf
W=$PMU_BUILD/tests/workload
[ -x "$W" ] || { echo "1..0 # SKIP $W not built"; exit 77; }

# stalled ERR RECORDER ARGS...: a recorder stopped for half a second
# while its one-page ring fills; its exit status
stalled() {
	local err=$1 rec; shift
	"$@" >/dev/null 2>"$err" &
	rec=$!
	sleep 0.3
	kill -STOP "$rec"
	sleep 0.5
	kill -CONT "$rec"
	wait "$rec"
}

stalled "$TMP/rec.err" "$PMU" record -m 1 -F 10000 -g -o "$TMP/lost.data" -- "$W" 1
expect_eq "record exits as the command" "$?" 0
lost=$(sed -n 's/.*lost \([0-9]*\) samples.*/\1/p' "$TMP/rec.err")
check "record says it lost samples" test -n "$lost"
check "a positive count" test "${lost:-0}" -gt 0
dumped=$(perf script -D -i "$TMP/lost.data" 2>/dev/null |
	 sed -n 's/.*PERF_RECORD_LOST: .*lost:\([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
expect_eq "the file's LOST records carry that count (perf's dump)" "$dumped" "$lost"
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/lost.data"
expect_match "pmu report says so" "$TMP/e" "$lost samples were lost"
expect_match "and in its header" "$TMP/o" "^# Total Lost Samples: $lost\$"
# the file ends with the count as perf's files do: perf report says it
perf report --stdio -i "$TMP/lost.data" >"$TMP/po" 2>/dev/null
expect_match "perf report's header says it too" "$TMP/po" "^# Total Lost Samples: $lost\$"

# perf's own file, whose end repeats its rings' count: said once, as
# perf report says it
stalled /dev/null perf record -q -m 1 -F 10000 -g -o "$TMP/plost.data" -- "$W" 1
perf report --stdio -i "$TMP/plost.data" >"$TMP/po" 2>/dev/null
plost=$(sed -n 's/^# Total Lost Samples: \([0-9]*\)$/\1/p' "$TMP/po")
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/plost.data"
if [ "${plost:-0}" -gt 0 ]; then
	expect_match "perf's file: the header's lost samples are perf's ($plost)" "$TMP/o" "^# Total Lost Samples: $plost\$"
else
	skip "perf's file: perf lost no samples this time"
fi
done_testing
