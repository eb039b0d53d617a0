#!/usr/bin/env bash
# The rest of perf stat's options against perf itself: -D, --timeout, -B,
# -n, -o with its header and --append, --metric-only, --interval-count,
# --interval-clear, -I with -r; the same lines, columns and order.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/perfcmp.sh"
SPIN=$PMU_BUILD/tests/spin

require_perf

# csv_no_prose FILE: the -x rows alone (perf also writes its "Events
# enabled" and signal lines into the stream; pmu keeps -x clean).
csv_rows() { grep -E '^(<|[0-9 ])' "$1" | grep ',' | csv_shape /dev/stdin; }

# -D: counting starts after the delay; the pages touched before it are
# not counted (a delay far longer than starting the command and
# touching them takes, even on a sanitizer build, whose leak check at
# exit would touch pages of its own).
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	both -D 300 -e task-clock,page-faults -- "$SPIN" pages 500 sleep 500
expect_eq "-D 300: exit 0" "$PMU_RC" 0
same_output "-D 300: 'Events disabled/enabled' and the table" text_shape
pf=$(awk '$2 == "page-faults" { print $1 }' "$TMP/pmu")
check "-D 300: the 500 pages before the start are not counted (${pf:-none})" \
	test "${pf:-999}" -lt 500
el=$(awk '/seconds time elapsed/ { print $1 }' "$TMP/pmu")
check "-D 300: elapsed from the start of counting ($el s < 0.5)" \
	awk -v e="${el:-1}" 'BEGIN { exit !(e < 0.5) }'
both -D -1 -e task-clock,page-faults -- "$SPIN" pages 10
same_output "-D -1: never enabled, <not counted>" text_shape
both -D 30 -x, -e page-faults -- "$SPIN" sleep 60
expect_eq "-D -x,: the rows as perf's" "$(csv_rows "$TMP/pmu")" "$(csv_rows "$TMP/perf")"
check "-D -x,: no prose in the data" sh -c "! grep -q Events '$TMP/pmu'"
both -D x -e page-faults -- "$SPIN" exit 0
expect_eq "-D x: a usage error" "$PMU_RC" 2

# --timeout: the command is stopped, perf's "Terminated" line, exit 0.
both --timeout 150 -e task-clock,page-faults -- "$SPIN" sleep 3000
expect_eq "--timeout: exit 0 as perf's ($PERF_RC)" "$PMU_RC" "$PERF_RC"
same_output "--timeout: the signal line and the table" text_shape
el=$(awk '/seconds time elapsed/ { print $1 }' "$TMP/pmu")
check "--timeout 150: stopped after about 0.15 s ($el)" \
	awk -v e="${el:-9}" 'BEGIN { exit !(e >= 0.14 && e < 1.5) }'
both --timeout 5 -e page-faults -- "$SPIN" exit 0
check "--timeout 5: perf refuses it" test "$PERF_RC" -ne 0
expect_eq "--timeout 5: a usage error (at least 10 ms)" "$PMU_RC" 2
both --timeout 1000 -e page-faults -- "$SPIN" exit 3
expect_eq "--timeout not reached: the command's exit status" "$PMU_RC" 3

# -B: thousands' separators of the locale, none in C; not with -x.
both -B -e page-faults -- "$SPIN" pages 3000
same_output "-B (C locale): the table" text_shape
both -B -x, -e page-faults -- "$SPIN" exit 0
check "-B -x: perf refuses it" test "$PERF_RC" -ne 0
expect_eq "-B -x: a usage error" "$PMU_RC" 2
if locale -a 2>/dev/null | grep -qix 'en_US.utf-\?8'; then
	LC_ALL=en_US.UTF-8 both -e page-faults -- "$SPIN" pages 3000
	same_output "en_US: the separators perf prints" text_shape
	expect_match "en_US: 3,xxx page-faults" "$TMP/pmu" '^ +[0-9],[0-9]{3} +page-faults'
else
	skip "-B in a locale with separators: en_US.UTF-8 is not installed"
fi

# -n: no default events; the command timed, or only what -e names.
both -n -- "$SPIN" pages 10
same_output "-n: header and times, no table" text_shape
both -n -x, -- "$SPIN" pages 10
check "-n -x,: nothing at all, as perf" test ! -s "$TMP/pmu"
expect_eq "-n -x,: perf printed nothing either" "$(wc -c <"$TMP/perf")" 0
both -n -e page-faults -- "$SPIN" pages 10
same_output "-n -e: the named event, no blank line before the times" text_shape

# -o: "# started on DATE" and a blank line; --append adds a run.
rm -f "$TMP/po" "$TMP/mo"
perf stat -o "$TMP/po" -e page-faults -- "$SPIN" pages 10
"$PMU" stat -o "$TMP/mo" -e page-faults -- "$SPIN" pages 10
perf stat --append -o "$TMP/po" -e page-faults -- "$SPIN" pages 10
"$PMU" stat --append -o "$TMP/mo" -e page-faults -- "$SPIN" pages 10
cp "$TMP/po" "$TMP/perf"; cp "$TMP/mo" "$TMP/pmu"
same_output "-o, then --append: two runs, each with its header" text_words
expect_eq "-o: two '# started on' lines" "$(grep -cE '^# started on [A-Z][a-z]{2} [A-Z][a-z]{2} +[0-9]+ [0-9:]{8} [0-9]{4}$' "$TMP/mo")" 2
perf stat -o "$TMP/po" -x, -e page-faults -- "$SPIN" pages 10
"$PMU" stat -o "$TMP/mo" -x, -e page-faults -- "$SPIN" pages 10
cp "$TMP/po" "$TMP/perf"; cp "$TMP/mo" "$TMP/pmu"
same_output "-o -x,: the header line, then the rows" text_words

# --metric-only: perf leaves out rates and CPUs utilized; with software
# events alone the lines are empty, as perf's.
for fmt in "" -x, -j; do
	both --metric-only $fmt -e task-clock,page-faults -- "$SPIN" pages 10
	same_output "--metric-only ${fmt:-text}" text_shape
done
both --metric-only -a -A -e task-clock -- "$SPIN" sleep 10
same_output "--metric-only -A: the CPU prefixes" text_shape
# On a simulated P6: 1000 x 40 instructions in 1000 x 60 cycles.
printf 'repeat 1000 {\n event 0xc0 40\n cycles 60\n}\n' >"$TMP/p6"
"$PMU" stat --metric-only --sim-model p6 --stream "$TMP/p6" \
	-e cycles,instructions 2>"$TMP/mo" >/dev/null
expect_match "--metric-only: the insn per cycle column" "$TMP/mo" '^ +insn per cycle $'
expect_match "--metric-only: 40/60 = 0.67" "$TMP/mo" '^ +0\.67  $'
"$PMU" stat --metric-only -x, --sim-model p6 --stream "$TMP/p6" \
	-e cycles,instructions 2>"$TMP/mo" >/dev/null
expect_eq "--metric-only -x,: name line, value line" "$(tr '\n' '|' <"$TMP/mo")" \
	"insn per cycle,|0.67,|"

# --interval-count N: N intervals, then no more (the command runs on).
both -I 50 --interval-count 2 -x, -e page-faults -- "$SPIN" sleep 400
expect_eq "--interval-count 2: two intervals" "$(wc -l <"$TMP/pmu")" 2
same_output "--interval-count 2: perf's two" csv_shape
both --interval-count 2 -e page-faults -- "$SPIN" exit 0
check "--interval-count without -I: perf refuses it" test "$PERF_RC" -ne 0
expect_eq "--interval-count without -I: a usage error" "$PMU_RC" 2

# --interval-clear clears the terminal the counts go to: where standard
# error is none (a file here), both refuse it
both -I 100 --interval-clear -e page-faults -- "$SPIN" sleep 250
check "--interval-clear without a terminal: perf refuses it" test "$PERF_RC" -ne 0
expect_eq "--interval-clear without a terminal: a usage error" "$PMU_RC" 2
expect_match "--interval-clear without a terminal: says why" "$TMP/pmu" \
	'interval-clear.*not a terminal'
# on a terminal (script(1) gives each its own): the screen cleared
# through stdout, the header again
on_tty() { # TOOL OUT LOG: stdout to OUT, the terminal's text to LOG
	local tool=$1 out=$2 log=$3
	script -qec "$tool stat -I 100 --interval-clear -e page-faults -- $SPIN sleep 250 >$out" \
		/dev/null </dev/null | tr -d '\r' >"$log"
}
if command -v script >/dev/null; then
	on_tty perf "$TMP/perf.out" "$TMP/perf"
	on_tty "$PMU" "$TMP/pmu.out" "$TMP/pmu"
	n=$(grep -c 'time  *counts unit events' "$TMP/pmu")
	r=$(grep -c 'page-faults' "$TMP/pmu")
	expect_eq "--interval-clear: a header per interval" "$n" "$r"
	od -c "$TMP/perf.out" | head -1 >"$TMP/a"
	od -c "$TMP/pmu.out" | head -1 >"$TMP/b"
	expect_eq "--interval-clear: perf's clear sequence on stdout" "$(cat "$TMP/b")" "$(cat "$TMP/a")"
	same_output "--interval-clear: header and first interval" first2
else
	skip "--interval-clear on a terminal: no script(1) (Debian: bsdutils)"
fi

# -I with -r: the intervals with perf's spread column.
both -I 100 -r 2 -x, -e page-faults -- "$SPIN" pages 100 sleep 150
head -1 "$TMP/pmu" >"$TMP/pmu.1"; head -1 "$TMP/perf" >"$TMP/perf.1"
mv "$TMP/pmu.1" "$TMP/pmu"; mv "$TMP/perf.1" "$TMP/perf"
same_output "-I -r -x,: the spread after the event name" csv_shape
both -I 100 -r 2 -e page-faults -- "$SPIN" pages 100 sleep 150
same_output "-I -r: header and first interval" first2

done_testing
