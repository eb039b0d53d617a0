#!/usr/bin/env bash
# What only x86 PMUs have, where this machine has it, against its perf:
# precise sampling (PEBS on Intel, IBS-backed :pp on AMD), AMD's IBS op
# PMU, Intel's fixed counters and the topdown metrics.  Each part skips,
# saying why, where the machine lacks it.
. "$(dirname "$0")/lib.sh"
require_hw
if [ "$(uname -m)" != x86_64 ]; then
	echo "1..0 # SKIP precise sampling, IBS, fixed counters and topdown are x86's ($(uname -m) here)"
	exit 77
fi
cd "$TMP" || exit 1
W=("$HWLOOP" hot 20000000)
top() { awk '$1 ~ /%$/ { print $NF; exit }' "$1"; }
attr_of() { "$PERF" report --header-only -i "$1" 2>/dev/null | grep -o "$2 = [0-9]*" | head -1; }

# precise sampling: the kernel takes cycles:pp where the PMU has PEBS or
# IBS; pmu asks for the same level and both profiles agree
if "$PERF" record -q -e cycles:pp -c 1000003 -o perf-pp.data -- "${W[@]}" >/dev/null 2>&1; then
	pmu_run record -q -e cycles:pp -c 1000003 -o pmu-pp.data -- "${W[@]}" >/dev/null 2>"err"
	expect_eq "cycles:pp: the precise level perf asked for" \
		"$(attr_of pmu-pp.data precise_ip)" "$(attr_of perf-pp.data precise_ip)"
	"$PERF" report -i pmu-pp.data --no-children -s sym --stdio >a.txt 2>/dev/null
	"$PERF" report -i perf-pp.data --no-children -s sym --stdio >b.txt 2>/dev/null
	expect_eq "cycles:pp: the same top symbol" "$(top a.txt)" "$(top b.txt)"
else
	skip "cycles:pp: this PMU has no precise sampling (perf record -e cycles:pp fails)"
fi

# AMD IBS: the op sampler's own PMU
if [ -d /sys/bus/event_source/devices/ibs_op ]; then
	"$PERF" record -q -e ibs_op// -c 200000 -o perf-ibs.data -- "${W[@]}" >/dev/null 2>&1
	pmu_run record -q -e ibs_op// -c 200000 -o pmu-ibs.data -- "${W[@]}" >/dev/null 2>&1
	a=$("$PERF" script -i pmu-ibs.data -F ip 2>/dev/null | grep -c .)
	b=$("$PERF" script -i perf-ibs.data -F ip 2>/dev/null | grep -c .)
	within "ibs_op//: as many samples as perf's" "$a" "$b" 0.2
	"$PERF" report -i pmu-ibs.data --no-children -s sym --stdio >a.txt 2>/dev/null
	"$PERF" report -i perf-ibs.data --no-children -s sym --stdio >b.txt 2>/dev/null
	expect_eq "ibs_op//: the same top symbol" "$(top a.txt)" "$(top b.txt)"
else
	skip "ibs_op//: no AMD IBS op PMU here"
fi

# Intel's fixed counters: instructions, cycles and ref-cycles sit on
# them, so beside four general-purpose events in one group nothing is
# multiplexed, and the counts are perf's
if [ -e /sys/bus/event_source/devices/cpu/events/ref-cycles ]; then
	G="{instructions:u,cycles:u,ref-cycles:u,$RAW_INST:u,$RAW_INST:u,$RAW_INST:u,$RAW_INST:u}"
	spread_of instructions:u "$HWLOOP" loop 10000000
	pmu_run stat -x, -o p.csv -e "$G" -- "$HWLOOP" loop 10000000 >/dev/null 2>&1
	"$PERF" stat -x, -o f.csv -e "$G" -- "$HWLOOP" loop 10000000 >/dev/null 2>&1
	if [ "$(awk -F, 'NF > 4 && $1 ~ /^[0-9]/' f.csv | grep -c .)" = 7 ]; then
		expect_eq "fixed counters: the group of 7 counts whole in pmu" \
			"$(awk -F, 'NF > 4 && $1 ~ /^[0-9]/ && $5 == "100.00"' p.csv | grep -c .)" 7
		same "fixed counters: instructions:u" "$(csv p.csv instructions:u)" "$(csv f.csv instructions:u)"
	else
		skip "fixed counters: perf cannot count the group of 7 here"
	fi
else
	skip "fixed counters: no Intel ref-cycles (not an Intel core PMU)"
fi

# topdown level 1, perf's metric group, where perf has it for this CPU
if "$PERF" stat -M TopdownL1 -o f.txt -- "${W[@]}" >/dev/null 2>&1 &&
   grep -q -i 'retiring' f.txt; then
	pmu_run stat -M TopdownL1 -o p.txt -- "${W[@]}" >/dev/null 2>"err"
	for m in retiring frontend_bound bad_speculation backend_bound; do
		pv=$(grep -i "$m" p.txt | grep -o '[0-9.]*' | head -1)
		fv=$(grep -i "$m" f.txt | grep -o '[0-9.]*' | head -1)
		if [ -z "$fv" ]; then
			skip "TopdownL1 $m: perf prints none here"
		else
			# a share of the slots: within 5 points of perf's run
			check "TopdownL1 $m: pmu ${pv:-none}, perf $fv" \
				awk -v a="${pv:-x}" -v b="$fv" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "x" && d <= 5) }'
		fi
	done
else
	skip "TopdownL1: perf has no such metric group for this CPU"
fi

done_testing
