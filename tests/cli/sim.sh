#!/bin/sh
# pmu sim: end-to-end runs (sums, overflow handler PCs, JSON shape), and
# the error paths (usage = 2, bad model / control / stream = 1).
. "$(dirname "$0")/lib.sh"

# P6: PMC1 a-mode and PMC0 i-mode (period 1000) on instructions retired.
cat >"$TMP/p6.json" <<'J'
{ "tsc_on": 1, "nractrs": 1, "nrictrs": 1,
  "pmc_map": [1, 0], "evntsel": ["0x000300c0", "0x005300c0"],
  "ireset": [0, -1000] }
J
# 1500 + 2 * 500 = 2500 events: overflows at the 1000th (ip 0x401000)
# and the 2000th (ip 0x402000); 2 * 100 cycles.
cat >"$TMP/s1" <<'S'
# comment line
ip 0x401000
event 0xc0 1500
ip 0x402000
repeat 2 {
  event 0xc0 500
  cycles 100
}
S

run_pmu "$TMP/out" "$TMP/err" sim --model p6 --control "$TMP/p6.json" --stream "$TMP/s1"
expect_eq "text run exits 0" "$RC" 0
expect_match "a-mode sum" "$TMP/out" '^pmc\[0\] +a +map 0x00000001 +2500$'
expect_match "i-mode sum and overflows" "$TMP/out" '^pmc\[1\] +i +map 0x00000000 +2500 +overflows 2$'
expect_match "tsc sum" "$TMP/out" '^tsc +200$'
expect_match "first handler pc" "$TMP/out" 'pc 0x0000000000401000 +mask 0x00000002'
expect_match "second handler pc" "$TMP/out" 'pc 0x0000000000402000 +mask 0x00000002'

run_pmu "$TMP/json" "$TMP/err" sim --model p6 --control "$TMP/p6.json" --stream "$TMP/s1" --json
expect_eq "json run exits 0" "$RC" 0
if command -v python3 >/dev/null 2>&1; then
	python3 - "$TMP/json" >"$TMP/py" 2>&1 <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["model"] == "p6"
assert d["cstatus"] == "0x80010201"
assert d["tsc"] == 200 and d["events"] == 2500 and d["cycles"] == 200
c = d["counters"]
assert [x["sum"] for x in c] == [2500, 2500]
assert [x["mode"] for x in c] == ["a", "i"]
assert c[1]["overflows"] == 2
i = d["interrupts"]
assert i["count"] == 2 and i["truncated"] is False
assert [r["pc"] for r in i["records"]] == ["0x401000", "0x402000"]
assert all(r["mask"] == "0x2" and r["source"] == "pmc" for r in i["records"])
assert d["ibs"] == []
assert set(d["register_writes"]) == {"control", "counter"}
print("ok")
P
	expect_eq "json keys and values" "$(cat "$TMP/py")" ok
else
	skip "json keys and values (no python3)"
fi

# Stream from stdin; suspend/resume windows do not count.
printf 'event 0xc0 10\nsuspend\nevent 0xc0 1000\nresume\nevent 0xc0 5\n' |
	"$PMU" sim -m p6 -c "$TMP/p6.json" -s - >"$TMP/out" 2>"$TMP/err"
expect_eq "stdin run exits 0" "$?" 0
expect_match "suspended events not counted" "$TMP/out" '^pmc\[0\] +a +map 0x00000001 +15$'

# PPC 750: PMC1 counts event 2 (instructions), frozen in kernel (FCS).
cat >"$TMP/ppc.json" <<'J'
{ "tsc_on": 1, "nractrs": 1, "pmc_map": [0], "evntsel": [2],
  "ppc": { "mmcr0": "0x40000000" } }
J
printf 'event 2 7\nmode kernel\nevent 2 100\nmode user\nevent 2 3\ncycles 9\n' >"$TMP/s2"
run_pmu "$TMP/out" "$TMP/err" sim --model ppc750 --control "$TMP/ppc.json" --stream "$TMP/s2"
expect_eq "ppc run exits 0" "$RC" 0
expect_match "FCS freezes kernel events" "$TMP/out" '^pmc\[0\] +a +map 0x00000000 +10$'
expect_match "timebase sum" "$TMP/out" '^tsc +9$'

# fam10h IBS op sampling programmed by the stream: IbsOpCtl = En |
# MaxCnt 0xa (period 160 cycles); 400 cycles give 2 samples.
printf '{ "tsc_on": 1, "nractrs": 1, "pmc_map": [0], "evntsel": ["0x004300c0"] }' >"$TMP/k.json"
printf 'wrmsr 0xc0011033 0x2000a\nsnapshot ip=0x401234 data=0x5000\ncycles 400\n' >"$TMP/ibs"
run_pmu "$TMP/out" "$TMP/err" sim --model fam10h --control "$TMP/k.json" --stream "$TMP/ibs"
expect_eq "ibs run exits 0" "$RC" 0
expect_eq "two IBS op samples" "$(grep -c 'ibs op .*addr 0x0000000000401234' "$TMP/out")" 2
expect_match "IBS interrupts recorded" "$TMP/out" '^interrupts +2$'
run_pmu "$TMP/out" "$TMP/err" sim --model p6 --control "$TMP/p6.json" --stream "$TMP/ibs"
expect_eq "IBS register on a P6 exits 1" "$RC" 1
expect_match "missing register named" "$TMP/err" "line 1: register 0xc0011033 does not exist on p6"

# IBS snapshot words by name: fetch sampling every 16 fetches (IbsFetchCtl
# En bit 48 | MaxCnt 1) and op sampling every 16 cycles (IbsOpCtl En bit
# 17 | MaxCnt 1).  fetch_status carries IbsIcMiss (bit 51); a non-zero
# fetch_phys also sets IbsPhyAddrValid (52); Val is bit 49 (fetch).
printf '{ "tsc_on": 1 }' >"$TMP/tsc.json"
cat >"$TMP/ibsnames" <<'S'
wrmsr 0xc0011030 0x1000000000001
wrmsr 0xc0011033 0x20001
snapshot ip=0x401000 fetch_phys=0x12345 fetch_status=0x8000000000000 op_data1=0x11 op_data2=0x22 op_data3=0x33 data=0x5000 phys=0x6000
fetch 16
cycles 16
S
run_pmu "$TMP/json" "$TMP/err" sim --model fam10h --control "$TMP/tsc.json" --stream "$TMP/ibsnames" --json
expect_eq "ibs named-field run exits 0" "$RC" 0
if command -v python3 >/dev/null 2>&1; then
	python3 - "$TMP/json" >"$TMP/py" 2>&1 <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
f, o = d["ibs"]
h = lambda s: int(s, 16)
assert f["kind"] == "fetch" and o["kind"] == "op"
assert h(f["addr"]) == 0x401000 and h(f["phys"]) == 0x12345
for bit in (49, 51, 52):
    assert h(f["ctl"]) >> bit & 1, bit
assert [h(x) for x in o["data"]] == [0x11, 0x22, 0x33]
assert h(o["addr"]) == 0x401000
assert h(o["dc_linad"]) == 0x5000 and h(o["dc_physad"]) == 0x6000
assert h(o["ctl"]) >> 18 & 1
print("ok")
P
	expect_eq "IBS fields named in the snapshot reach the samples" "$(cat "$TMP/py")" ok
else
	skip "IBS named fields (no python3)"
fi

# P4 PEBS: IQ_COUNTER4 i-mode, ireset -10, PEBS_ENABLE bit 24: records at
# events 11, 22, 33, 44 of 45, each the snapshot current at that event.
cat >"$TMP/pebs.json" <<'J'
{ "tsc_on": 1, "nrictrs": 1, "pmc_map": ["0x80000010"],
  "evntsel": ["0x04039000"], "ireset": [-10],
  "p4": { "escr": ["0x0400020c"], "pebs_enable": "0x01000001",
          "pebs_matrix_vert": 1 } }
J
printf 'snapshot ip=0x8048000 flags=0x246 eax=7\nevent 2 25 escr=0x3b8 umask=1\nsnapshot ip=0x8048010 eax=8\nevent 2 20 escr=0x3b8 umask=1\n' >"$TMP/pebs"
run_pmu "$TMP/out" "$TMP/err" sim --model p4 --control "$TMP/pebs.json" --stream "$TMP/pebs"
expect_eq "pebs run exits 0" "$RC" 0
expect_match "four PEBS records" "$TMP/out" '^pebs +4$'
expect_eq "records carry the snapshots" \
	"$(grep -E '^  pebs ' "$TMP/out" | awk '{print $3 "/" $7}' | tr '\n' ' ')" \
	"0x08048000/0x00000007 0x08048000/0x00000007 0x08048010/0x00000008 0x08048010/0x00000008 "

# PEBS buffer parameters from the stream's `pebs` statement.  Control:
# IQ_COUNTER4 i-mode with ireset -4, so the counter overflows at the 4th
# qualifying event and the 5th is recorded (and consumed); the assist
# then reloads cnt_reset.  pebs_stream HEADER: HEADER, then twelve blocks
# k = 1..12 of five events at ip 0x40100k with snapshot eax = k, so with
# cnt_reset -4 block k's last event is the k-th record.
sed -e 's/-10/-4/' "$TMP/pebs.json" >"$TMP/pebs4.json"
pebs_stream() {
	echo "$1"
	for k in 1 2 3 4 5 6 7 8 9 10 11 12; do
		printf 'ip 0x401%03x\nsnapshot ip=0x401%03x eax=%d\n' $k $k $k
		echo 'event 2 5 escr=0x3b8 umask=1'
	done
}
# pebs_eax FILE: the eax of every record, in order.
pebs_eax() { python3 -c 'import json,sys; print(" ".join(str(int(r["regs"][0], 16)) for r in json.load(open(sys.argv[1]))["pebs"]))' "$1"; }
# irq_pcs FILE: source:pc of every interrupt.
irq_pcs() { python3 -c 'import json,sys; print(" ".join(r["source"] + ":" + r["pc"] for r in json.load(open(sys.argv[1]))["interrupts"]["records"]))' "$1"; }
if command -v python3 >/dev/null 2>&1; then
	# Threshold at entry 3 of a 10-entry buffer (400 bytes / 40): the
	# interrupt comes after records 3, 6, 9 and 12, the handler drains
	# and restarts the buffer each time, so nothing is lost.
	pebs_stream 'pebs buf_size=400 intr_thres=3 cnt_reset=-4' >"$TMP/pthr"
	run_pmu "$TMP/json" "$TMP/err" sim --model p4 --control "$TMP/pebs4.json" --stream "$TMP/pthr" --json
	expect_eq "pebs threshold run exits 0" "$RC" 0
	expect_eq "one record per 5 events, restarts keep them all" \
		"$(pebs_eax "$TMP/json")" "1 2 3 4 5 6 7 8 9 10 11 12"
	expect_eq "threshold interrupt at every 3rd record" "$(irq_pcs "$TMP/json")" \
		"pebs:0x401003 pebs:0x401006 pebs:0x401009 pebs:0x40100c"
	expect_match "nothing dropped" "$TMP/json" '"pebs_dropped": 0,'

	# Full buffer: the threshold lies past the 10 entries, so no
	# interrupt, records 1-10 stay and the last two assists are dropped.
	pebs_stream 'pebs buf_size=400 intr_thres=100' >"$TMP/pfull"
	run_pmu "$TMP/json" "$TMP/err" sim --model p4 --control "$TMP/pebs4.json" --stream "$TMP/pfull" --json
	expect_eq "pebs full-buffer run exits 0" "$RC" 0
	expect_eq "full buffer keeps the first 10 records" \
		"$(pebs_eax "$TMP/json")" "1 2 3 4 5 6 7 8 9 10"
	expect_match "two assists dropped" "$TMP/json" '"pebs_dropped": 2,'
	expect_eq "no threshold interrupt" "$(irq_pcs "$TMP/json")" ""

	# cnt_reset -9: the first record still at event 5 (ireset -4), then
	# every 10th event: events 5, 15, ..., 55 = blocks 1, 3, ..., 11.
	pebs_stream 'pebs cnt_reset=-9' >"$TMP/preset"
	run_pmu "$TMP/json" "$TMP/err" sim --model p4 --control "$TMP/pebs4.json" --stream "$TMP/preset" --json
	expect_eq "cnt_reset sets the spacing after the first record" \
		"$(pebs_eax "$TMP/json")" "1 3 5 7 9 11"
else
	skip "pebs parameters (no python3)"
fi
printf 'event 2 1 escr=0x3b8\npebs buf_size=400\n' >"$TMP/plate"
run_pmu "$TMP/out" "$TMP/err" sim --model p4 --control "$TMP/pebs4.json" --stream "$TMP/plate"
expect_eq "pebs after another statement exits 1" "$RC" 1
expect_match "pebs placement error names the line" "$TMP/err" "plate: line 2, column 1: pebs must come before"
printf 'pebs buf_size=399\n' >"$TMP/psmall"
run_pmu "$TMP/out" "$TMP/err" sim --model p4 --control "$TMP/pebs4.json" --stream "$TMP/psmall"
expect_match "too small a buffer is named" "$TMP/err" "line 1, column 15: PEBS buf_size is at least 400 bytes, not '399'"
printf 'pebs intr_thres=2\n' >"$TMP/pht"
run_pmu "$TMP/out" "$TMP/err" sim --model p4ht --control "$TMP/pebs4.json" --stream "$TMP/pht"
expect_eq "pebs on p4ht exits 1" "$RC" 1
expect_match "p4ht has no PEBS" "$TMP/err" "pebs: p4ht has no usable PEBS \(not with HyperThreading\)"
run_pmu "$TMP/out" "$TMP/err" sim --model p6 --control "$TMP/p6.json" --stream "$TMP/pht"
expect_match "p6 has no PEBS" "$TMP/err" "line 1: pebs: p6 has no usable PEBS"

# One scenario per model family: model | control | stream | the pmc sums
# and interrupt count worked out from the seed rules:
# - p5: CESR halves 0x56 / 0x96 = event 0x16 with CPL bit 6 (kernel) /
#   bit 7 (user): 5 kernel, 10 user events.
# - wcc6: no CPL bits, counts in every mode.
# - k7: 0x76 counts cycles; i-mode 0xc0 with ireset -100: 250 events ->
#   2 overflows.
# - pentm: ireset -10, 35 events -> 3 PMIs; the CPU masks LVTPC on each,
#   perfctr unmasks it, so none is lost.
# - p4m3: IQ_COUNTER0 (0xC) on CRU_ESCR0 instr_retired, OVF_PMI_T0,
#   ireset -10: 35 events -> 3 PMIs (LVTPC auto-masks too).
# - ppc7450: PMC1 i-mode from 0x7ffffffb (bit 31 set after 5 events),
#   MMCR0.PMXE: 10 events -> 2 PM exceptions; PMC2 a-mode counts 10.
# - xscale1: PMN1 i-mode on event 0 from -3: 7 events -> 2 overflows.
# - xscale2: four PMNs on events 7, 0, 10, 11.
while IFS='|' read -r model ctl stream sums irqs; do
	[ -n "$model" ] || continue
	printf '%s' "$ctl" >"$TMP/fam.json"
	printf "$stream" >"$TMP/fam.s"
	run_pmu "$TMP/out" "$TMP/err" sim --model "$model" --control "$TMP/fam.json" --stream "$TMP/fam.s"
	got=$(awk '/^pmc\[/ { printf "%s%s", sep, $5; sep = " " }' "$TMP/out")
	expect_eq "$model: sums" "$RC:$got" "0:$sums"
	expect_match "$model: $irqs interrupts" "$TMP/out" "^interrupts +$irqs\$"
done <<'T'
p5|{"tsc_on": 1, "nractrs": 2, "pmc_map": [0, 1], "evntsel": ["0x0056", "0x0096"]}|event 0x16 10\nmode kernel\nevent 0x16 5\n|5 10|0
wcc6|{"nractrs": 2, "pmc_map": [0, 1], "evntsel": ["0x01", "0x02"]}|event 1 5\nmode kernel\nevent 2 6\nevent 1 1\n|6 6|0
k7|{"tsc_on": 1, "nractrs": 1, "nrictrs": 1, "pmc_map": [0, 1], "evntsel": ["0x00410076", "0x005100C0"], "ireset": [0, -100]}|cycles 1000\nevent 0xc0 250\n|1000 250|2
pentm|{"nrictrs": 1, "pmc_map": [0], "evntsel": ["0x005300C0"], "ireset": [-10]}|event 0xc0 35\n|35|3
p4m3|{"nrictrs": 1, "pmc_map": ["0x8000000C"], "evntsel": ["0x04039000"], "ireset": [-10], "p4": {"escr": ["0x04000204"]}}|event 2 35 escr=0x3b8 umask=1\n|35|3
ppc7450|{"nractrs": 1, "nrictrs": 1, "pmc_map": [1, 0], "evntsel": [2, 2], "ireset": [0, "0x7ffffffb"], "ppc": {"mmcr0": "0x04000000"}}|event 2 10\n|10 10|2
xscale1|{"nractrs": 1, "nrictrs": 1, "pmc_map": [0, 1], "evntsel": [7, 0], "ireset": [0, -3]}|event 7 10\nevent 0 7\n|10 7|2
xscale2|{"nractrs": 4, "pmc_map": [0, 1, 2, 3], "evntsel": [7, 0, 10, 11]}|event 7 10\nevent 0 7\nevent 10 3\nevent 11 1\n|10 7 3 1|0
T

# Errors.
run_pmu "$TMP/out" "$TMP/err" sim --model p6 --control "$TMP/p6.json"
expect_eq "missing --stream is a usage error" "$RC" 2
run_pmu "$TMP/out" "$TMP/err" sim --model p6 --bogus
expect_eq "unknown option is a usage error" "$RC" 2
run_pmu "$TMP/out" "$TMP/err" sim --help
expect_eq "--help exits 0" "$RC" 0
expect_match "--help names the options" "$TMP/out" '--stream'
run_pmu "$TMP/out" "$TMP/err" sim --model p7 --control "$TMP/p6.json" --stream "$TMP/s1"
expect_eq "unknown model exits 1" "$RC" 1
expect_match "unknown model named" "$TMP/err" "p7"
printf 'event 0xc0 1\nevent 0xc0 lots\n' >"$TMP/bad"
run_pmu "$TMP/out" "$TMP/err" sim --model p6 --control "$TMP/p6.json" --stream "$TMP/bad"
expect_eq "bad stream exits 1" "$RC" 1
expect_match "bad stream: file, line, column, token" "$TMP/err" "bad: line 2, column 12: .*'lots'"
printf 'suspend\nsuspend\n' >"$TMP/twice"
run_pmu "$TMP/out" "$TMP/err" sim --model p6 --control "$TMP/p6.json" --stream "$TMP/twice"
expect_eq "double suspend exits 1" "$RC" 1
expect_match "double suspend names the line" "$TMP/err" "line 2: suspend"
printf '{ "nractrs": 1, "pmc_map": [0], "evntsel": ["0x000300c0"] }' >"$TMP/noen.json"
run_pmu "$TMP/out" "$TMP/err" sim --model p6 --control "$TMP/noen.json" --stream "$TMP/s1"
expect_eq "rejected control exits 1" "$RC" 1
expect_match "rejected control says why" "$TMP/err" "noen.json: control rejected: EINVAL"
run_pmu "$TMP/out" "$TMP/err" sim --model p6 --control "$TMP/nonexistent.json" --stream "$TMP/s1"
expect_eq "missing control file exits 1" "$RC" 1
run_pmu "$TMP/out" "$TMP/err" sim --model p6 --control "$TMP/p6.json" --stream "$TMP/nonexistent"
expect_eq "missing stream file exits 1" "$RC" 1
expect_match "missing stream file named" "$TMP/err" "nonexistent"

# One statement with a huge count on a period-1 i-mode counter would run
# for centuries; the run stops at the overflow bound with an error.
cat >"$TMP/every.json" <<'J'
{ "tsc_on": 1, "nrictrs": 1, "pmc_map": [0], "evntsel": ["0x005300c0"],
  "ireset": [-1] }
J
printf 'event 0xc0 9223372036854775807\n' >"$TMP/huge"
run_pmu "$TMP/out" "$TMP/err" sim --model p6 --control "$TMP/every.json" --stream "$TMP/huge"
expect_eq "unbounded overflows exit 1" "$RC" 1
expect_match "overflow bound names the line" "$TMP/err" "huge: line 1: counters overflow too often"

# Seed 000's "Generic" x86: "Only permits TSC sampling, with tsc_on == 1
# and nractrs == nrictrs == 0": it runs like every other model, and a
# control with a counter is refused.
printf '{ "tsc_on": 1 }\n' >"$TMP/gen.json"
printf 'cycles 1234\ncycles 6\n' >"$TMP/gens"
run_pmu "$TMP/out" "$TMP/err" sim --model generic --control "$TMP/gen.json" --stream "$TMP/gens"
expect_eq "generic: TSC-only control runs" "$RC" 0
expect_match "generic: the TSC counts the cycles" "$TMP/out" '^tsc +1240$'
printf '{ "tsc_on": 1, "nractrs": 1, "pmc_map": [0], "evntsel": [0] }\n' >"$TMP/gen2.json"
run_pmu "$TMP/out" "$TMP/err" sim --model generic --control "$TMP/gen2.json" --stream "$TMP/gens"
expect_eq "generic: a counter is refused" "$RC" 1
expect_match "generic: says only the TSC" "$TMP/err" 'no usable counters'
# What a file holds is quoted with what is not text escaped: a binary
# stream does not write raw bytes to the terminal.
printf 'event 0xc0 1\n\001\177ELF\n' >"$TMP/binary"
run_pmu "$TMP/out" "$TMP/err" sim --model p6 --control "$TMP/p6.json" --stream "$TMP/binary"
expect_eq "binary stream exits 1" "$RC" 1
expect_match "binary stream: the byte escaped" "$TMP/err" "line 2, column 1: unexpected byte '\\\\x01'"
check "binary stream: no control byte in the message" sh -c "! LC_ALL=C grep -q '[[:cntrl:]]' '$TMP/err'"
printf 'event 0xc0 \000\n' >"$TMP/nul"
run_pmu "$TMP/out" "$TMP/err" sim --model p6 --control "$TMP/p6.json" --stream "$TMP/nul"
expect_match "a NUL byte is shown as \\x00" "$TMP/err" "'\\\\x00'"
# A number too large is out of range, not "not a number".
printf 'event 0xc0 99999999999999999999999\n' >"$TMP/big"
run_pmu "$TMP/out" "$TMP/err" sim --model p6 --control "$TMP/p6.json" --stream "$TMP/big"
expect_match "too large a count: out of range" "$TMP/err" "line 1, column 12: number out of range .*'99999999999999999999999'"
# A control that cannot be read is named once.
if [ -r /dev/zero ]; then
	run_pmu "$TMP/out" "$TMP/err" sim --model p6 --control /dev/zero --stream "$TMP/s1"
	expect_eq "endless control file exits 1" "$RC" 1
	expect_eq "endless control file named once" "$(grep -o /dev/zero "$TMP/err" | wc -l)" 1
fi

done_testing
