#!/usr/bin/env bash
# The text layout of pmu stat against perf stat's, field widths included,
# so that scripts and eyes trained on perf read pmu's output the same way.
. "$(dirname "$0")/lib.sh"
SPIN=$PMU_BUILD/tests/spin
O=$TMP/out E=$TMP/err

require_perf

# shape FILE: one line per output line, its length and whether it is blank;
# values differ between runs, the widths they are printed in do not.
shape() { awk '{ printf "%d%s ", length($0), NF ? "" : "b" } END { print "" }' "$1"; }
# widths FILE: the set of line lengths, for outputs whose number of lines
# depends on timing (-I).
widths() { awk '{ print length($0) }' "$1" | sort -un | tr '\n' ' '; }

same_shape() { # HOW NAME ARGS...: pmu and perf lay out ARGS' output alike
	local how=$1 name=$2; shift 2
	if ! perf stat "$@" 2>"$TMP/perf" >/dev/null; then
		skip "$name: perf cannot run it here"; return
	fi
	"$PMU" stat "$@" 2>"$E.all" >/dev/null
	# pmu's one line on hardware events this machine cannot count (no
	# hardware PMU) is its own, before the table: the table's layout
	# is perf's
	grep -v '^pmu: .*: <not supported>: this machine has no hardware PMU' "$E.all" >"$E"
	local a b; a=$($how "$E"); b=$($how "$TMP/perf")
	if [ "$a" = "$b" ]; then ok "$name"; else
		not_ok "$name"; diag "line lengths: pmu '$a', perf '$b'"
		sed 's/^/# pmu  |/; s/$/|/' "$E"; sed 's/^/# perf |/; s/$/|/' "$TMP/perf"
	fi
}

# Counted rows without a derived figure, a <not supported> row, the
# elapsed/user/sys footer and the blank lines around them.
same_shape shape "single run: rows, <not supported>, footer" \
	-e page-faults,cycles,sched:sched_switch -- "$SPIN" pages 10
same_shape widths "interval rows, <not counted>" \
	-I 40 -e task-clock,page-faults,cycles -- "$SPIN" pages 10 sleep 100
same_shape shape "system-wide with a command: no user/sys lines" \
	-a -e page-faults -- "$SPIN" sleep 20

# The header names a CPU list in quotes, as perf does.
run_pmu "$O" "$E" stat -C 0 -e page-faults -- "$SPIN" sleep 10
if ! perf stat -C 0 -e page-faults -- "$SPIN" sleep 10 2>"$TMP/perf" >/dev/null; then
	skip "-C header: perf cannot count CPU 0 here"
else
	expect_eq "-C header" "$(grep 'counter stats' "$E")" "$(grep 'counter stats' "$TMP/perf")"
fi

# -r: perf prints the elapsed mean and its spread with two digits more
# than the spread's first significant one, so the spread always shows
# three significant digits and the mean the same number of decimals.
run_pmu "$O" "$E" stat -r 4 -e page-faults -- "$SPIN" pages 10
line=$(grep 'seconds time elapsed' "$E")
mean=$(awk '{print $1}' <<<"$line") sd=$(awk '{print $3}' <<<"$line")
digits=$(sed -E 's/^[0.]*//; s/\.//' <<<"$sd")
check "-r spread '$sd' shows 3 significant digits" test "${#digits}" -eq 3
mdec=${mean#*.} sdec=${sd#*.}
expect_eq "-r mean '$mean' has as many decimals as the spread '$sd'" "${#mdec}" "${#sdec}"

done_testing
