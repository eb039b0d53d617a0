#!/usr/bin/env bash
# pmu encode: text and JSON output, error classes and exit codes.
. "$(dirname "$0")/lib.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

run_pmu "$t/o" "$t/e" encode --json amd64_fam19h_zen4::RETIRED_OPS:u
expect_eq "encode ok exit" "$RC" 0
# event 0xc1 | USR (bit 16) | INT (bit 20) | EN (bit 22)
expect_match "json codes" "$t/o" '"codes": \["0x5100c1"\]'
expect_match "json perf config" "$t/o" '"config": "0xc1"'
expect_match "json exclude_kernel" "$t/o" '"exclude_kernel": 1'

run_pmu "$t/o" "$t/e" encode --json --model zen4 RETIRED_OPS:c=999
expect_eq "bad value exit" "$RC" 1
expect_match "bad value class" "$t/o" '"error": "bad-value"'

run_pmu "$t/o" "$t/e" encode --model zen4 RETIRED_OPZ
expect_eq "unknown event exit" "$RC" 1
expect_match "suggestion" "$t/e" "RETIRED_OPS"

run_pmu "$t/o" "$t/e" encode --model nosuch X
expect_eq "unknown model is an input error, as in list/assign/check" "$RC" 1
expect_match "unknown model named" "$t/e" "'nosuch'"
run_pmu "$t/o" "$t/e" encode --bogus X
expect_eq "unknown option is a usage error" "$RC" 2

PMU_EVENTS_MODEL=skl run_pmu "$t/o" "$t/e" encode INST_RETIRED.ANY_P:u
expect_eq "env model exit" "$RC" 0
expect_match "env model used" "$t/o" "pmu +skl"

run_pmu "$t/o" "$t/e" encode --json zen4::RETIRED_OPS zen4::NOPE
expect_eq "one bad event fails the run" "$RC" 1
expect_eq "one line per event" "$(wc -l < "$t/o")" 2

# Unknown pmu and model names get the nearest name.
run_pmu "$t/o" "$t/e" encode zen44::RETIRED_OPS
expect_eq "unknown pmu exit" "$RC" 1
expect_match "unknown pmu: near name offered" "$t/e" "did you mean 'zen4'"
run_pmu "$t/o" "$t/e" encode --model netbrust global_power_events
expect_match "unknown --model: near name offered" "$t/e" "did you mean 'netburst'"

# One name, one model: p4 is the original Pentium 4 (libpfm4's netburst),
# p4m3 is Prescott (netburst_p), as pmu check and pmu assign take them.
run_pmu "$t/o" "$t/e" encode --json p4::global_power_events p4m3::instr_completed:NBOGUS
expect_eq "p4 / p4m3 encode" "$RC" 0
check "p4 is netburst, p4m3 is netburst_p" python3 -c '
import json, sys
d = [json.loads(l) for l in open(sys.argv[1])]
assert [x["pmu"] for x in d] == ["netburst", "netburst_p"], d
' "$t/o"
run_pmu "$t/o" "$t/e" encode --json p4::instr_completed:NBOGUS
expect_match "no Prescott events on p4" "$t/o" '"error": "unknown-event"'
run_pmu "$t/o" "$t/e" assign --json --model p4 global_power_events:RUNNING
check "pmu assign --model p4 uses the same model" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["model"] == "netburst" and d["control_model"] == "p4", d
' "$t/o"

# P6 MESI umasks E and I against the modifiers e and i: with a value the
# modifier (EVNTSEL edge bit 18), bare the umask (E = 0x4 << 8).
run_pmu "$t/o" "$t/e" encode --json p6::L2_RQSTS:M:e=1 p6::L2_RQSTS:M:e
check "e=1 is edge, e is umask E" python3 -c '
import json, sys
d = [json.loads(l) for l in open(sys.argv[1])]
base = 0x2e | 1 << 16 | 1 << 17 | 1 << 22
assert d[0]["codes"] == [hex(base | 0x800 | 1 << 18)], d[0]
assert d[1]["codes"] == [hex(base | 0xc00)], d[1]
' "$t/o"

# Seed-model failures name their class and reason.
run_pmu "$t/o" "$t/e" encode --json ppc604::RAW ppc604::RAW:0x80
check "ppc604 RAW errors: bad umask, then bad value naming PMC1's 0x7f" python3 -c '
import json, sys
d = [json.loads(l) for l in open(sys.argv[1])]
assert d[0]["error"] == "bad-umask", d[0]
assert d[1]["error"] == "bad-value" and "0x7f" in d[1]["message"], d[1]
' "$t/o"

# AMD IBS set-up.  IbsOpCtl by hand: MaxCnt = maxcnt >> 4 in bits 15:0, En
# bit 17, CntCtl bit 19; IbsFetchCtl: En bit 48, RandEn bit 57.
run_pmu "$t/o" "$t/e" encode --json zen4::ibs_op:maxcnt=0x1000:cnt_ctl
expect_eq "ibs_op exit" "$RC" 0
check "ibs_op JSON: IbsOpCtl, MSR, perfmon2 indices, perf form" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["pmu"] == "amd64_fam19h_zen4", d
assert d["codes"] == [hex(0x100 | 1 << 17 | 1 << 19)], d
assert d["msr"] == "0xc0011033" and d["pmc"] == 5 and d["pmds"][0] == 7, d
p = d["perf"]
assert p["pmu"] == "ibs_op" and p["config"] == hex(1 << 19), p
assert p["sample_period"] == 0x1000 and p["sample_period"] % 16 == 0, p
' "$t/o"
run_pmu "$t/o" "$t/e" encode --model fam10h ibs_fetch:maxcnt=0x20:randen
expect_match "ibs_fetch IbsFetchCtl" "$t/o" "codes +0x201000000000002$"
expect_match "ibs_fetch perf rand_en" "$t/o" "pmu=ibs_fetch .*config=0x200000000000000 sample_period=32$"
while read -r ev cls; do
	run_pmu "$t/o" "$t/e" encode --json "$ev"
	expect_eq "$ev fails" "$RC" 1
	expect_match "$ev: class $cls" "$t/o" "\"error\": \"$cls\""
done <<'LIST'
zen4::ibs_op:maxcnt=0x1008 bad-value
zen4::ibs_op:maxcnt=0x100000 bad-value
zen4::ibs_op:maxcnt=0 bad-value
zen4::ibs_op syntax
zen4::ibs_op:maxcnt=16:cnt_ctl=2 bad-value
zen4::ibs_op:maxcnt=16:maxcnt=32 repeated
zen4::ibs_fetch:maxcnt=16:cnt_ctl bad-modifier
fam10h::ibs_op:maxcnt=16:cnt_ctl bad-modifier
k8::ibs_op:maxcnt=16 unknown-event
LIST
run_pmu "$t/o" "$t/e" encode zen4::ibs_fetch:maxcnt=0x1008
expect_match "bad maxcnt named with a fix" "$t/e" "0x1008 .*multiple of 16 \\(e\\.g\\. 0x1000\\)"
run_pmu "$t/o" "$t/e" encode fam10h::ibs_op:maxcnt=16:cnt_ctl
expect_match "RevB op counting mode refused" "$t/e" "RevC"
# The IbsOpCtl value programs the simulated fam10h: 40 cycles at a period
# of 16 tag two ops.
run_pmu "$t/o" "$t/e" encode --json fam10h::ibs_op:maxcnt=16
ctl=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["codes"][0])' "$t/o")
printf '{"tsc_on": 1}\n' >"$t/c.json"
printf 'wrmsr 0xc0011033 %s\nip 0x401000\ncycles 40\n' "$ctl" >"$t/s"
run_pmu "$t/o" "$t/e" sim --json --model fam10h --control "$t/c.json" --stream "$t/s"
check "encoded IbsOpCtl samples in pmu sim" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert [s["kind"] for s in d["ibs"]] == ["op", "op"], d["ibs"]
' "$t/o"

# Which model names without "pmu::" use, and what to do when no catalog
# matches this CPU.
PMU_EVENTS_MODEL=zen4 run_pmu "$t/o" "$t/e" encode RETIRED_OPS
expect_match "PMU_EVENTS_MODEL alias" "$t/o" "pmu +amd64_fam19h_zen4"
PMU_EVENTS_MODEL=nosuch run_pmu "$t/o" "$t/e" encode NO_SUCH_EVENT_ANYWHERE
expect_eq "unknown event with a bad PMU_EVENTS_MODEL" "$RC" 1
if "$PMU" list --models | grep -q '^perf .*(this host'; then
	expect_match "bad PMU_EVENTS_MODEL reported" "$t/e" "PMU_EVENTS_MODEL='nosuch'"
	expect_match "no catalog for this CPU said" "$t/e" "no event catalog matches this CPU"
	expect_match "how to choose a model" "$t/e" "--model M"
	run_pmu "$t/o" "$t/e" encode NO_SUCH_A NO_SUCH_B NO_SUCH_C
	expect_eq "three unknown events: the note once" "$(grep -c 'no event catalog matches' "$t/e")" 1
else
	skip "this CPU has a catalog model"
fi
# The same whatever the host: $PMU_CPUID stands for a CPU that no mapfile
# row matches (family 6 model 1, the Pentium Pro).
PMU_CPUID=GenuineIntel-6-01 PMU_EVENTS_MODEL=nosuch run_pmu "$t/o" "$t/e" \
	encode NO_SUCH_EVENT_ANYWHERE
expect_eq "unknown CPU: unknown event, exit 1" "$RC" 1
expect_match "unknown CPU: bad PMU_EVENTS_MODEL reported" "$t/e" "PMU_EVENTS_MODEL='nosuch'"
expect_match "unknown CPU: no catalog said" "$t/e" "no event catalog matches this CPU"
expect_match "unknown CPU: how to choose a model" "$t/e" "--model M"
PMU_CPUID=GenuineIntel-6-01 run_pmu "$t/o" "$t/e" list --models
expect_match "unknown CPU: list --models marks perf as the host's" "$t/o" \
	'^perf .*[(]this host: no CPU catalog matched[)]'
done_testing
