#!/bin/sh
# pmu assign: tables, conflicts, JSON, and control files that pmu check
# accepts for the perfctr models.
. "$(dirname "$0")/lib.sh"

run_pmu "$TMP/out" "$TMP/err" assign --model p6 INST_RETIRED CPU_CLK_UNHALTED:u
expect_eq "p6 assignment exits 0" "$RC" 0
# EVNTSEL by hand: 0xC0 | USR | OS | EN on PMC0; 0x79 | USR on PMC1
expect_match "p6 PMC0 value" "$TMP/out" '^0 +INST_RETIRED +0x4300c0$'
expect_match "p6 PMC1 value" "$TMP/out" '^1 +CPU_CLK_UNHALTED:u +0x10079$'

run_pmu "$TMP/out" "$TMP/err" assign --model p6 FLOPS FP_COMP_OPS_EXE INST_RETIRED
expect_eq "conflict exits 1" "$RC" 1
expect_match "conflict names FLOPS" "$TMP/out" '^  FLOPS$'
expect_no_match "conflict leaves out INST_RETIRED" "$TMP/out" '^  INST_RETIRED$'

run_pmu "$TMP/out" "$TMP/err" assign --json --model ppc7450 RAW:0x45 RAW:0x46
expect_eq "ppc conflict exits 1" "$RC" 1
check "conflict JSON parses" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["ok"] is False and len(d["conflict"]) == 2' "$TMP/out"

run_pmu "$TMP/out" "$TMP/err" assign --json --model xscale2 INSTRUCTION DCACHE_MISS
check "JSON assignment parses" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [e["counter"] for e in d["events"]] == ["0", "1"]' "$TMP/out"

run_pmu "$TMP/out" "$TMP/err" assign --model nosuch X
expect_eq "unknown model exits 1" "$RC" 1
run_pmu "$TMP/out" "$TMP/err" assign --model p6
expect_eq "no events is a usage error" "$RC" 2

# Models from vendor files take part like built-in ones.
FIX="$(cd "$(dirname "$0")/../fixtures/events" && pwd)"
PMU_EVENTS_DIR="$FIX" run_pmu "$TMP/out" "$TMP/err" assign --model tiny INST_RETIRED.PREC_DIST INST_RETIRED_ANY INST_RETIRED.ANY_P
expect_eq "vendor model assignment exits 0" "$RC" 0
expect_match "PREC_DIST only on counter 1" "$TMP/out" '^1 +INST_RETIRED\.PREC_DIST +0x4301c0$'
expect_match "fixed-counter event on fixed0 (OS|USR field)" "$TMP/out" '^fixed0 +INST_RETIRED_ANY +0x3$'
expect_match "ANY_P on counter 0" "$TMP/out" '^0 +INST_RETIRED\.ANY_P +0x4300c0$'

# Pentium 4: the two registers are named.  By hand (seed §1.4): instr_retired
# is CRU_ESCR0 (MSR 0x3b8) event 2 -> ESCR bits 30:25, NBOGUSNTAG mask bit 0
# -> bit 9, T0_USR bit 2; CCCR ENABLE bit 12 | ESCR select 4 << 13 |
# ACTIVE_THREAD 3 << 16; IQ_COUNTER0 is counter 12.
run_pmu "$TMP/out" "$TMP/err" assign --model p4 instr_retired:NBOGUSNTAG:u
expect_match "P4 CCCR and ESCR named" "$TMP/out" '^12 +instr_retired:NBOGUSNTAG:u +CCCR 0x39000 ESCR 0x4000204 \(MSR 0x3b8\)$'

# Intel fixed counters: IA32_FIXED_CTR_CTRL fields (OS bit 0, USR bit 1 of
# each 4-bit field); four generic counters on Skylake.
run_pmu "$TMP/out" "$TMP/err" assign --model skl INSTRUCTION_RETIRED UNHALTED_CORE_CYCLES:u UNHALTED_REFERENCE_CYCLES BR_INST_RETIRED BR_MISP_RETIRED LONGEST_LAT_CACHE:MISS LONGEST_LAT_CACHE:REFERENCE
expect_eq "7 events on 3 fixed + 4 generic counters" "$RC" 0
expect_match "instructions on fixed0" "$TMP/out" '^fixed0 +INSTRUCTION_RETIRED +0x3$'
expect_match "user cycles on fixed1" "$TMP/out" '^fixed1 +UNHALTED_CORE_CYCLES:u +0x20$'
expect_match "reference cycles on fixed2" "$TMP/out" '^fixed2 +UNHALTED_REFERENCE_CYCLES +0x300$'
run_pmu "$TMP/out" "$TMP/err" assign --model skl BR_INST_RETIRED BR_MISP_RETIRED INSTRUCTION_RETIRED LONGEST_LAT_CACHE:MISS LONGEST_LAT_CACHE:REFERENCE MACHINE_CLEARS:COUNT UNHALTED_CORE_CYCLES
expect_eq "5 generic-only events conflict" "$RC" 1
expect_eq "smallest conflicting set: the 5 generic-only events" \
	"$(grep -c '^  ' "$TMP/out")" 5
expect_no_match "fixed-capable events are not in the conflict" "$TMP/out" '^  (INSTRUCTION_RETIRED|UNHALTED_CORE_CYCLES)$'
expect_match "conflict reason names the counters" "$TMP/out" '^reason: .*\{0,1,2,3\}'

# The 80200 bus events (0x10-0x16) are statistics seed 004 lists for a
# counter: assigned, written as a control, and the control checks.
run_pmu "$TMP/out" "$TMP/err" assign --model xscale1 BCU_REQUEST INSTRUCTION
expect_eq "xscale1 bus event assignment exits 0" "$RC" 0
expect_match "bus event on a counter" "$TMP/out" '^0 +BCU_REQUEST +0x10$'
expect_no_match "no note refuses it" "$TMP/out" "^note:"
rm -f "$TMP/x.json"
run_pmu "$TMP/out" "$TMP/err" assign --model xscale1 -o "$TMP/x.json" BCU_REQUEST RMW
expect_eq "-o with bus events exits 0" "$RC" 0
run_pmu "$TMP/out" "$TMP/err" check --model xscale1 "$TMP/x.json"
expect_eq "the control with EVT_BCU_REQUEST and EVT_RMW checks" "$RC" 0

# Round trip through the simulator: assign -o -> pmu check -> pmu sim.
if "$PMU" sim --help >/dev/null 2>&1; then
	run_pmu "$TMP/out" "$TMP/err" assign --model p6 -o "$TMP/c.json" INST_RETIRED DCU_LINES_IN:u
	printf 'event 0xc0 100\nevent 0x45 7\nmode kernel\nevent 0x45 5\nevent 0xc0 1\n' >"$TMP/s"
	run_pmu "$TMP/out" "$TMP/err" sim --json --model p6 --control "$TMP/c.json" --stream "$TMP/s"
	check "p6 control counts the stream (user+kernel / user only)" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert [c["sum"] for c in d["counters"]] == [101, 7], d
' "$TMP/out"
	run_pmu "$TMP/out" "$TMP/err" assign --model p4 -o "$TMP/c.json" instr_retired:NBOGUSNTAG:u
	printf 'event 2 5 escr=0x3b8 umask=0x1\nmode kernel\nevent 2 3 escr=0x3b8 umask=0x1\n' >"$TMP/s"
	run_pmu "$TMP/out" "$TMP/err" sim --json --model p4 --control "$TMP/c.json" --stream "$TMP/s"
	check "p4 control counts user-mode instr_retired" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert [c["sum"] for c in d["counters"]] == [5], d
' "$TMP/out"
else
	skip "pmu sim not available for the round trip"
fi

# Round trip: the control written by assign passes pmu check.
if "$PMU" check --help >/dev/null 2>&1; then
	while read -r model events; do
		# shellcheck disable=SC2086
		run_pmu "$TMP/out" "$TMP/err" assign --model "$model" -o "$TMP/c.json" $events
		run_pmu "$TMP/out" "$TMP/err" check --model "$model" "$TMP/c.json"
		expect_match "$model control accepted by pmu check" "$TMP/out" '^ok cstatus='
	done <<'LIST'
p5 DATA_READ CODE_READ:u
p5mmx TAKEN_BRANCHES RETURNS
wcc6 X86_INSTRUCTIONS INTERNAL_CLOCKS
vc3 INSTRUCTIONS_EXECUTED
p6 DATA_MEM_REFS FLOPS
pentm BR_INST_EXEC:u EMON_FUSED_UOPS_RET
k7 RETIRED_INSTRUCTIONS:u CPU_CLK_UNHALTED
ppc7450 CYCLES RAW:0x45 RAW:0x30
xscale1 INSTRUCTION DCACHE_MISS
xscale2 INSTRUCTION BRANCH ICACHE_MISS DTLB_MISS
p4 global_power_events:RUNNING instr_retired:NBOGUSNTAG uops_retired:NBOGUS branch_retired:MMNP
p4ht global_power_events:RUNNING instr_retired:NBOGUSNTAG:u BSQ_cache_reference:RD_2ndL_HITS
p4m3 instr_retired:NBOGUSNTAG x87_FP_uop:ALL
LIST
else
	skip "pmu check not available for the round trip"
fi
done_testing
