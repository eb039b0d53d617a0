#!/usr/bin/env bash
# pmu stat --emulate: output formats, exit status, errors, the region
# markers, privilege modifiers, the cost model and the branch predictor
# on known patterns (docs/emulation.md gives the predictor's behaviour:
# a 2-bit counter per entry, gshare with 14 bits of global history).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/emu-lib.sh"
require_emu

value_of() { # EVENT CSV
	awk -F, -v e="$1" '$3 == e { print $1; f = 1 } END { if (!f) print "none" }' "$2"
}

# The default events, the header, the command's output and status.
run_pmu "$TMP/o" "$TMP/e" stat --emulate -- sh -c 'echo hello; exit 7'
expect_eq "the command's exit status" "$RC" 7
expect_eq "the command's output" "$(cat "$TMP/o")" hello
expect_match "the header says emulated" "$TMP/e" "on an emulated fam10h"
for ev in cycles instructions branches branch-misses; do
	expect_match "default event $ev counted" "$TMP/e" "^ +[0-9]+ +$ev "
done
run_pmu "$TMP/o" "$TMP/e" stat --emulate -e instructions -- sh -c 'kill -TERM $$'
expect_eq "killed by SIGTERM: 128+15" "$RC" 143

# No model named: the one closest to the CPU (PMU_CPUID stands for it),
# as pmu info names it, when it samples under emulation; else fam10h;
# PMU_EMU_MODEL in its place; --emulate-model above both.
for c in GenuineIntel-6-8E-9:pentm GenuineIntel-6-7-3:piii \
	 AuthenticAMD-6-4-2:k7 AuthenticAMD-15-5-1:k8 AuthenticAMD-25-11-1:fam10h \
	 GenuineIntel-15-2-7:fam10h 0x00000000410fd0c1:fam10h; do
	PMU_EMU_MODEL= PMU_CPUID=${c%:*} "$PMU" stat --emulate -e instructions -- true \
		>/dev/null 2>"$TMP/dm"
	expect_match "default model for ${c%:*}: ${c#*:}" "$TMP/dm" "on an emulated ${c#*:}:"
done
PMU_EMU_MODEL= PMU_CPUID=GenuineIntel-6-8E-9 "$PMU" info --json >"$TMP/di"
expect_match "... the model pmu info names for that CPU" "$TMP/di" '"closest_model": "pentm"'
PMU_EMU_MODEL= PMU_CPUID=GenuineIntel-6-8E-9 "$PMU" record --emulate -q -o "$TMP/dm.data" -- true
expect_eq "... pmu record --emulate samples on it" "$?" 0
PMU_EMU_MODEL=k8 PMU_CPUID=GenuineIntel-6-8E-9 "$PMU" stat --emulate -e instructions -- true \
	>/dev/null 2>"$TMP/dm"
expect_match "PMU_EMU_MODEL in place of the host's" "$TMP/dm" "on an emulated k8:"
PMU_EMU_MODEL=k8 "$PMU" stat --emulate-model p6 -e instructions -- true >/dev/null 2>"$TMP/dm"
expect_match "--emulate-model above PMU_EMU_MODEL" "$TMP/dm" "on an emulated p6:"
PMU_EMU_MODEL=nosuch "$PMU" stat --emulate -e instructions -- true >/dev/null 2>"$TMP/dm"
expect_eq "PMU_EMU_MODEL unknown: exit 1" "$?" 1
expect_match "... named, and where it came from" "$TMP/dm" "unknown model 'nosuch' to emulate \(\\\$PMU_EMU_MODEL\)"

# CSV, JSON, intervals, repeats.
run_pmu "$TMP/o" "$TMP/e" stat --emulate -x, -e instructions,L1-dcache-load-misses -- "$WORK/loops" 1
expect_match "-x: CSV" "$TMP/e" '^[0-9]+,,instructions,[0-9]+,100\.00,'
expect_match "-x: a generic cache event" "$TMP/e" '^[0-9]+,,L1-dcache-load-misses,'
run_pmu "$TMP/o" "$TMP/e" stat --emulate -j -e branches -- "$WORK/loops" 1
expect_match "--json" "$TMP/e" '"counter-value" : "[0-9.]+", "unit" : "", "event" : "branches"'
run_pmu "$TMP/o" "$TMP/e" stat --emulate -I 100 -x, -e instructions -- "$WORK/loops" 200
expect_match "-I: interval lines" "$TMP/e" '^ *[0-9]+\.[0-9]+,[0-9]+,,instructions'
sum=$(awk -F, '$4 == "instructions" { s += $2 } END { print s }' "$TMP/e")
run_pmu "$TMP/o" "$TMP/e2" stat --emulate -x, -e instructions -- "$WORK/loops" 200
expect_eq "-I: the intervals add up to the whole run" "$sum" "$(value_of instructions "$TMP/e2")"
run_pmu "$TMP/o" "$TMP/e" stat --emulate -r 3 -e instructions -- "$WORK/loops" 1
expect_match "-r 3" "$TMP/e" "\\(3 runs\\)"
expect_no_match "-r 3: no spread, runs count the same" "$TMP/e" 'instructions.*\+-'

# Region markers: the loop's 5 instructions per iteration and a few of
# the markers' own; without --emulate-regions the whole program.
run_pmu "$TMP/o" "$TMP/e" stat --emulate-regions -x, -e instructions,branches -- "$WORK/kloop" 10000
n=$(value_of instructions "$TMP/e")
check "regions: 5 x 10000 instructions and a few ($n)" [ "$n" -ge 50000 ] && [ "$n" -lt 50064 ]
expect_eq "regions: one branch per iteration, and the loop's call and return" \
	"$(value_of branches "$TMP/e")" 10002
run_pmu "$TMP/o" "$TMP/e" stat --emulate -x, -e instructions -- "$WORK/kloop" 10000
check "without regions: the whole program" [ "$(value_of instructions "$TMP/e")" -gt 100000 ]

# :u and :k.  The emulator sees user code only; system calls cost
# kernel cycles in the cost model.
run_pmu "$TMP/o" "$TMP/e" stat --emulate -x, -e instructions:u,instructions:k,cycles:k -- "$WORK/loops" 1
check "instructions:u counted" [ "$(value_of instructions:u "$TMP/e")" -gt 100000 ]
expect_eq "instructions:k is 0" "$(value_of instructions:k "$TMP/e")" 0
check "cycles:k: system calls" [ "$(value_of cycles:k "$TMP/e")" -gt 0 ]

# The cost model, one term at a time.
costs() { # COSTS EVENTS
	run_pmu "$TMP/o" "$TMP/e" stat --emulate --emulate-opt costs="$1" -x, -e "$2" -- "$WORK/calls" 18
}
costs 1,0,0,0,0 cycles:u,instructions
expect_eq "cost model: 1 per instruction" "$(value_of cycles:u "$TMP/e")" "$(value_of instructions "$TMP/e")"
costs 0,0,0,1,0 cycles:u,branch-misses
expect_eq "cost model: 1 per mispredicted branch" "$(value_of cycles:u "$TMP/e")" "$(value_of branch-misses "$TMP/e")"
costs 0,1,0,0,0 cycles:u,INSTRUCTION_CACHE_MISSES,DATA_CACHE_MISSES
expect_eq "cost model: 1 per L1 miss" "$(value_of cycles:u "$TMP/e")" \
	$(( $(value_of INSTRUCTION_CACHE_MISSES "$TMP/e") + $(value_of DATA_CACHE_MISSES "$TMP/e") ))
run_pmu "$TMP/o" "$TMP/e" stat --emulate-model wcc6 --emulate-opt costs=1,0,0,0,0 -x, -e cycles,instructions -- "$WORK/calls" 18
expect_eq "cost model: a WinChip's INTERNAL_CLOCKS count it too" "$(value_of cycles "$TMP/e")" "$(value_of instructions "$TMP/e")"
costs 0,0,1,0,0 cycles:u,L2_CACHE_MISS:INSTRUCTIONS:DATA
expect_eq "cost model: 1 per LL miss" "$(value_of cycles:u "$TMP/e")" "$(value_of L2_CACHE_MISS:INSTRUCTIONS:DATA "$TMP/e")"

# The predictor on known patterns: the region holds N iterations of the
# pattern's branch and of the loop's own (always taken).
bp() { # PREDICTOR PATTERN
	run_pmu "$TMP/o" "$TMP/e" stat --emulate-regions --emulate-opt predictor="$1" \
		-x, -e branches,branch-misses -- "$WORK/pattern" "$2" 10000
	expect_eq "$1 $2: 2 branches per iteration" "$(value_of branches "$TMP/e")" 20000
	MISSES=$(value_of branch-misses "$TMP/e")
}
bp gshare taken
check "gshare, always taken: only the warm-up misses ($MISSES <= 40)" [ "$MISSES" -le 40 ]
bp gshare alternate
check "gshare, alternating: learnt from the history ($MISSES <= 40)" [ "$MISSES" -le 40 ]
bp gshare random
check "gshare, random: about half ($MISSES in 4000..6000)" [ "$MISSES" -ge 4000 ] && [ "$MISSES" -le 6000 ]
bp bimodal taken
check "bimodal, always taken: only the warm-up misses ($MISSES <= 40)" [ "$MISSES" -le 40 ]
bp bimodal alternate
# the counter swings between its two not-taken states: every taken one
# is missed
check "bimodal, alternating: one in two missed ($MISSES in 4990..5040)" [ "$MISSES" -ge 4990 ] && [ "$MISSES" -le 5040 ]

# Models: a P6 counts its own events with its widths; generic names map.
run_pmu "$TMP/o" "$TMP/e" stat --emulate-model p6 -x, -e INST_RETIRED,DATA_MEM_REFS -- "$WORK/loops" 1
check "p6: INST_RETIRED" [ "$(value_of INST_RETIRED "$TMP/e")" -gt 100000 ]
check "p6: DATA_MEM_REFS" [ "$(value_of DATA_MEM_REFS "$TMP/e")" -gt 10000 ]
run_pmu "$TMP/o" "$TMP/e" stat --emulate-model p6 -x, -e L1-dcache-loads,MISALIGN_MEM_REF -- "$WORK/loops" 1
expect_match "p6: no generic cache events (as Linux)" "$TMP/e" '^<not supported>,,L1-dcache-loads'
expect_match "p6: an event the emulation does not produce" "$TMP/e" '^<not supported>,,MISALIGN_MEM_REF'
run_pmu "$TMP/o" "$TMP/e" stat --emulate-model p6 -v -e MISALIGN_MEM_REF -- /bin/true
expect_match "-v says why" "$TMP/e" 'emulation produces no MISALIGN_MEM_REF'

# Errors: pmu's input (1), usage (2), what to install.
run_pmu "$TMP/o" "$TMP/e" stat --emulate-model pentium9 -- /bin/true
expect_eq "unknown model: exit 1" "$RC" 1
expect_match "unknown model named" "$TMP/e" "pentium9"
run_pmu "$TMP/o" "$TMP/e" stat --emulate-opt I1=32768,3,64 -- /bin/true
expect_eq "bad cache: exit 1" "$RC" 1
expect_match "bad cache named" "$TMP/e" "'I1=32768,3,64'"
run_pmu "$TMP/o" "$TMP/e" stat --emulate-opt 'LL=0 x' -- /bin/true
expect_eq "a setting with a space: usage" "$RC" 2
run_pmu "$TMP/o" "$TMP/e" stat --emulate -p 1
expect_eq "--emulate with -p: usage" "$RC" 2
run_pmu "$TMP/o" "$TMP/e" stat --emulate
expect_eq "--emulate without a command: usage" "$RC" 2
run_pmu "$TMP/o" "$TMP/e" stat --emulate --sim-model p6 --stream /dev/null
expect_eq "--emulate with --sim-model: usage" "$RC" 2
run_pmu "$TMP/o" "$TMP/e" stat --emulate -r 2 -I 100 -- /bin/true
expect_eq "--emulate, -r with -I: each run's intervals, as without it" "$RC" 0
PMU_EMU_DIR=$TMP/none "$PMU" stat --emulate -- /bin/true >"$TMP/o" 2>"$TMP/e"
expect_eq "no emulator: exit 1" "$?" 1
expect_match "no emulator: says what to install" "$TMP/e" "apt-get install valgrind"
mkdir -p "$TMP/bin"
ln -sf "$(command -v env)" "$TMP/bin/env"
PATH=$TMP/bin "$PMU" stat --emulate -- /bin/true >"$TMP/o" 2>"$TMP/e"
expect_eq "no valgrind: exit 1" "$?" 1
expect_match "no valgrind: says so" "$TMP/e" "valgrind is not installed"
done_testing
