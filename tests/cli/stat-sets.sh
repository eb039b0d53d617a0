#!/usr/bin/env bash
# pmu stat --set/--switch: event sets taking turns, in every output format.
. "$(dirname "$0")/lib.sh"
SPIN=$PMU_BUILD/tests/spin
O=$TMP/out E=$TMP/err

# --- malformed --switch: exit 2, the message names the bad part ---
bad_switch() { # VALUE EXPECTED-IN-MESSAGE
	run_pmu "$O" "$E" stat --set task-clock --set page-faults --switch "$1" -- "$SPIN" spin 1
	expect_eq "--switch '$1': exit 2" "$RC" 2
	expect_match "--switch '$1': names '$2'" "$E" "$2"
}
bad_switch "time:" "bad MS '' in --switch 'time:'"
bad_switch "time:abc" "bad MS 'abc'"
bad_switch "time:0" "bad MS '0'"
bad_switch "time:-2" "bad MS '-2'"
bad_switch "time:0.001" "MS '0.001' in --switch 'time:0.001' is too short"
bad_switch "cycles" "bad --switch 'cycles': expected time:MS or overflow:EVENT:N"
bad_switch "overflow:task-clock" "bad --switch 'overflow:task-clock'"
bad_switch "overflow:task-clock:0" "bad N '0'"
bad_switch "overflow:task-clock:x" "bad N 'x'"
bad_switch "overflow:task-clock:2:0" "bad PERIOD '0'"
bad_switch "overflow::2" "bad EVENT in --switch 'overflow::2'"

run_pmu "$O" "$E" stat -e task-clock --switch time:2 -- "$SPIN" spin 1
expect_eq "--switch without two sets: exit 2" "$RC" 2
expect_match "--switch without two sets: says so" "$E" "give two or more with --set"
run_pmu "$O" "$E" stat --set task-clock --set page-faults --switch time:1 --switch time:2 -- "$SPIN" spin 1
expect_eq "--switch twice: exit 2" "$RC" 2
run_pmu "$O" "$E" stat --set "" -- "$SPIN" spin 1
expect_eq "empty --set: exit 2" "$RC" 2
run_pmu "$O" "$E" stat --set task-clock --set page-faults --switch overflow:no-such-ev:2 -- "$SPIN" spin 1
expect_eq "unknown switch event: exit 1" "$RC" 1
expect_match "unknown switch event: named" "$E" "unknown event 'no-such-ev'"
# On a simulated PMU the sets are a monitoring context's (exact tests
# in stat-sets-sim.sh): with the default 4 ms turns, 10 million cycles
# give set 0 [0, 4M) and [8M, 10M), 6M cycles: 60% of the run, and an
# estimate of the whole 10M.
printf 'cycles 10000000\n' >"$TMP/cyc.txt"
run_pmu "$O" "$E" stat --sim-model p6 --stream "$TMP/cyc.txt" --set cycles --set instructions
expect_eq "sets on a simulated PMU: exit 0" "$RC" 0
expect_match "sets on a simulated PMU: the estimate and share" "$E" \
	'^ +10000000 +cycles +\(60\.00%\)$'

# CPU-bound for 600 ms of its own CPU time, however loaded the machine
BUSY=("$SPIN" paced 1 600)

# share_ok PCT K: PCT within 5% of 100/K
share_ok() { awk -v p="$1" -v k="$2" 'BEGIN { s = p * k / 100; exit !(s > 0.95 && s < 1.05) }'; }

# --- text: perf's rows keep their columns, a line per set after them ---
for k in 2 3; do
	args=(--set task-clock,page-faults)
	for ((j = 1; j < k; j++)); do args+=(--set task-clock,context-switches); done
	run_pmu "$O" "$E" stat "${args[@]}" -- "${BUSY[@]}"
	expect_eq "$k sets: exit 0" "$RC" 0
	rows=$(grep -cE '^ +[0-9.]+ +(msec )? *[a-z-]+ +#.*\([0-9.]+%\)$' "$E")
	expect_eq "$k sets: a perf row with (xx.xx%) per event" "$rows" $((2 * k))
	sets=$(grep -cE '^   set [0-9]+: [0-9]+ runs, [0-9.]+ msec active$' "$E")
	expect_eq "$k sets: a line per set" "$sets" "$k"
	expect_match "$k sets: raw and error under each set" "$E" '^ {10}page-faults: raw [0-9]+, \+- [0-9]+ \([0-9.]+%\)$'
	for p in $(grep -E ' # .*\([0-9.]+%\)$' "$E" | grep -oE '\([0-9.]+%\)$' | tr -d '()%'); do
		check "$k sets: (xx.xx%) $p is 1/$k within 5%" share_ok "$p" "$k"
	done
done

# -e after --set adds to that set
run_pmu "$O" "$E" stat -j --set task-clock --set page-faults -e minor-faults -- "$SPIN" spin 50
set_of=$(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    o = json.loads(l)
    if o["event"] == "minor-faults": print(o["set"])' "$E")
expect_eq "-e after --set joins the last set" "$set_of" 1

# --- -x: perf's fields in their places, five more after them ---
run_pmu "$O" "$E" stat -x, --set task-clock,page-faults --set context-switches -- "${BUSY[@]}"
nf=$(awk -F, '{print NF}' "$E" | sort -u | tr '\n' ' ')
expect_eq "-x: 7 fields of perf + set, raw, runs, active ns, stderr" "$nf" "12 "
check "-x: event names in field 3" test "$(cut -d, -f3 "$E" | tr '\n' ' ')" = "task-clock page-faults context-switches "
check "-x: sets in field 8" test "$(cut -d, -f8 "$E" | tr '\n' ' ')" = "0 0 1 "
while IFS=, read -r val unit ev run pct mv mu set raw runs active err; do
	check "-x $ev: pcnt $pct is 1/2 within 5%" share_ok "$pct" 2
	check "-x $ev: $runs runs" test "$runs" -ge 10
	# the event ran no longer than its set was active, and most of it:
	# a task's events stop running while the task waits for a CPU,
	# which other work on the machine causes (a few % on a busy host)
	check "-x $ev: runtime $run ~ set active $active" \
		awk -v a="$run" -v b="$active" 'BEGIN { exit !(a <= b * 1.01 && a >= b * 0.90) }'
	# -x prints perf's whole percentage (truncated, as perf does): the
	# true share is in [pct, pct + 1), the estimate within 1% of that
	check "-x $ev: value $val = raw $raw scaled by 100/[$pct, $pct+1) (1%)" \
		awk -v v="$val" -v r="$raw" -v p="$pct" 'BEGIN { hi = r * 100 / p; lo = r * 100 / (p + 1); exit !(v <= hi * 1.01 + 1 && v >= lo * 0.99 - 1) }'
	check "-x $ev: a standard error" test -n "$err"
done <"$E"

# --- --json: perf's keys, and set, raw, set-runs, set-active-ns, stderr ---
run_pmu "$O" "$E" stat -j --set task-clock,page-faults --set context-switches -- "${BUSY[@]}"
check "--json: every line has the keys" python3 -c '
import json, sys
n = 0
for l in open(sys.argv[1]):
    o = json.loads(l)
    for k in ("counter-value", "event", "pcnt-running", "event-runtime",
              "set", "raw", "set-runs", "set-active-ns", "stderr"):
        assert k in o, k
    assert 95 < o["pcnt-running"] * 2 < 105, o
    n += 1
assert n == 3, n' "$E"

# --- -I: rows and set lines per interval ---
run_pmu "$O" "$E" stat -I 100 --set task-clock --set page-faults -- "$SPIN" spin 350
n=$(grep -cE '^ +[0-9]+\.[0-9]+ +set 0: [0-9]+ runs' "$E")
check "-I: a set line per interval ($n)" test "$n" -ge 3
expect_match "-I: rows keep (xx.xx%)" "$E" '^ +[0-9]+\.[0-9]+ +[0-9.]+ msec task-clock .*\([0-9.]+%\)$'
run_pmu "$O" "$E" stat -I 100 -x, --set task-clock --set page-faults -- "$SPIN" spin 250
nf=$(awk -F, '{print NF}' "$E" | sort -u | tr '\n' ' ')
expect_eq "-I -x: timestamp + 7 + 5 fields" "$nf" "13 "
check "-I -x: no standard error per interval" test -z "$(cut -d, -f13 "$E" | tr -d '\n')"

# --- -r: means over runs, perf's ( +- ) and the sets' lines ---
run_pmu "$O" "$E" stat -r 2 --set task-clock --set page-faults -- "$SPIN" spin 100
expect_match "-r: perf's noise column kept" "$E" 'task-clock .*\( \+- +[0-9.]+% \) +\([0-9.]+%\)$'
expect_match "-r: set lines" "$E" '^   set 1: [0-9]+ runs'

# --- overflow switching: N overflows of PERIOD per turn ---
run_pmu "$O" "$E" stat -x, --set task-clock --set task-clock,page-faults --switch overflow:task-clock:2:1000000 -- "${BUSY[@]}"
while IFS=, read -r val unit ev run pct mv mu set raw runs active err; do
	[ "$ev" = task-clock ] || continue
	# raw is in msec: each of the set's turns is 2 x 1 ms
	check "overflow: set $set, $runs runs of 2 ms for $raw ms" \
		awk -v r="$runs" -v t="$raw" 'BEGIN { d = r * 2 - t; if (d < 0) d = -d; exit !(d <= 2 + 0.05 * t) }'
done <"$E"

# --- system-wide: each CPU's time is shared the same way ---
run_pmu "$O" "$E" stat -a -x, --set cpu-clock --set context-switches -- "$SPIN" spin 600
for p in $(cut -d, -f5 "$E"); do
	check "-a: pcnt $p is 1/2 within 5%" share_ok "$p" 2
done

# --switch overflow:EVENT: every set counts EVENT (a copy each, while
# its set has its turn): one row for EVENT, the sum of the sets' raw
# counts, and under each set its own share.
run_pmu "$O" "$E" stat --set page-faults --set context-switches \
	--switch overflow:task-clock:1:100000 -- "$SPIN" sleep 50
expect_eq "--switch overflow: exit 0" "$RC" 0
expect_eq "--switch overflow: the switch event one row" \
	"$(grep -c '^ *[0-9.]* msec task-clock' "$E")" 1
expect_eq "--switch overflow: under each set, its share" \
	"$(grep -c '^ *task-clock: raw' "$E")" 2
check "--switch overflow: the row is the sum of the sets' shares (0.02 msec of rounding)" awk '
	/^ *[0-9.]+ msec task-clock/ { row = $1 }
	/^ *task-clock: raw/ { sum += $3 }
	END { d = row - sum; if (d < 0) d = -d; exit !(row > 0 && d <= 0.02) }' "$E"
check "--switch overflow: each set's lines together" awk '
	/^ *set [0-9]+:/ { if ($2 in seen) bad = 1; seen[$2] = 1 }
	END { exit bad }' "$E"

# ... where EVENT is the user's own in one set: the copy in the other
# folds into the user's row, not a row of its own
run_pmu "$O" "$E" stat --set task-clock --set page-faults \
	--switch overflow:task-clock:1:100000 -- "$SPIN" sleep 50
expect_eq "--switch overflow, the user's event: exit 0" "$RC" 0
expect_eq "--switch overflow, the user's event: one row" \
	"$(grep -cE '^ *([0-9.]+|<not counted>) +(msec )?task-clock' "$E")" 1
check "--switch overflow, the user's event: the row is the sum of both sets' counts" awk '
	/^ *[0-9.]+ msec task-clock/ { row = $1 }
	/^ *task-clock: raw/ { sum += $3; n++ }
	END { d = row - sum; if (d < 0) d = -d; exit !(n == 2 && row > 0 && d <= 0.02) }' "$E"
done_testing
