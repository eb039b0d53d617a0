#!/usr/bin/env bash
# pmu stat --set/--switch on a simulated PMU: perfmon2's sets inside a
# monitoring context, switched on simulated time (cycles, 1 ns each) or
# on overflows.  Expected numbers follow from the stream: 1000 passes of
# 300 instructions then 500 cycles.
. "$(dirname "$0")/lib.sh"

printf 'repeat 1000 {\nevent 0xc0 300\ncycles 500\n}\n' >"$TMP/s.txt"
sets=(--set INST_RETIRED --set CPU_CLK_UNHALTED,INST_RETIRED)

# 50 us = 50000 cycles = 100 passes per turn: 10 turns over 500000
# cycles, set 0 active for turns 1,3,..,9 (5 x 50000 cycles, 5 x 30000
# instructions), set 1 for 2,4,..,10; the last switch (at 500000) makes
# set 0 active once more: 6 runs against 5.
run_pmu "$TMP/out" "$TMP/err" stat --sim-model p6 --stream "$TMP/s.txt" \
	"${sets[@]}" --switch time:0.05 -x,
expect_eq "time switching exits 0" "$RC" 0
expect_eq "-x rows: estimate, share, set, raw, runs, active time" \
	"$(cat "$TMP/err")" \
"300000,,INST_RETIRED,250000,50.00,,,0,150000,6,250000,0
500000,,CPU_CLK_UNHALTED,250000,50.00,,,1,250000,5,250000,0
300000,,INST_RETIRED,250000,50.00,,,1,150000,5,250000,0"

run_pmu "$TMP/out" "$TMP/err" stat --sim-model p6 --stream "$TMP/s.txt" \
	"${sets[@]}" --switch time:0.05
expect_match "text: one line per set" "$TMP/err" '^ +set 0: 6 runs, 0\.25 msec active$'
expect_match "text: raw count under it" "$TMP/err" \
	'^ +INST_RETIRED: raw 150000, \+- 0 \(0\.00%\)$'
expect_match "text: perf's row with the set's share" "$TMP/err" \
	'^ +500000 +CPU_CLK_UNHALTED +\(50\.00%\)$'

# Overflow switching: a turn is 2 overflows of INST_RETIRED every 30000,
# i.e. 60000 instructions = 200 passes; each switch happens on the last
# instruction of a pass, before its cycles, which go to the next set.
# 300000
# instructions make 5 turns: set 0 three, set 1 two (and the last
# switch, on the very last instruction, one more activation of set 1).
run_pmu "$TMP/out" "$TMP/err" stat --sim-model p6 --stream "$TMP/s.txt" \
	"${sets[@]}" --switch overflow:INST_RETIRED:2:30000 -j
expect_eq "overflow switching exits 0" "$RC" 0
raw0=$(sed -n 1p "$TMP/err" | grep -o '"raw" : [0-9]*' | grep -o '[0-9]*$')
runs0=$(sed -n 1p "$TMP/err" | grep -o '"set-runs" : [0-9]*' | grep -o '[0-9]*$')
runs1=$(sed -n 2p "$TMP/err" | grep -o '"set-runs" : [0-9]*' | grep -o '[0-9]*$')
expect_eq "set 0 counted its three turns of 60000" "$raw0" 180000
expect_eq "set 0 ran 3 times" "$runs0" 3
expect_eq "set 1 ran 3 times" "$runs1" 3
# the cycles of set 1: each of its two turns takes the cycles of 200
# passes -- those of the pass whose last instruction switched to it,
# not those of its own last pass -- and the last switch gives it the
# final pass's 500
cyc=$(sed -n 2p "$TMP/err" | grep -o '"raw" : [0-9]*' | grep -o '[0-9]*$')
expect_eq "set 1's cycles" "$cyc" $((2 * 200 * 500 + 500))

run_pmu "$TMP/out" "$TMP/err" stat --sim-model p6 --stream "$TMP/s.txt" \
	--set INST_RETIRED --set CPU_CLK_UNHALTED --switch overflow:NOSUCH:2
expect_eq "an unknown designated event exits 1" "$RC" 1
expect_match "naming it" "$TMP/err" 'NOSUCH'
done_testing
