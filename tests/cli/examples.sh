#!/bin/sh
# The example programs: built by the Makefile, run here so they keep
# working.  xscale-ratios is checked against ratios computed below from
# the workload its source documents (the work[] table and 3,000,000
# cycles per measurement), not against a recorded run.
. "$(dirname "$0")/lib.sh"

EX="$PMU_BUILD/examples"
SRC="$(dirname "$0")/../../examples/xscale-ratios.c"

# The documented input: 2,000,000 instructions, 12,000 I-cache misses,
# 300,000 cycles without instruction delivery, 700,000 D-cache accesses,
# 35,000 D-cache misses, 3,000,000 cycles.
INSN=2000000 IMISS=12000 NODELIV=300000 DACC=700000 DMISS=35000 CYC=3000000
if [ -r "$SRC" ]; then
	ok=1
	for pat in "EVT_INSTRUCTION, $INSN" "EVT_ICACHE_MISS, $IMISS" \
		"EVT_ICACHE_NO_DELIVER, $NODELIV" "EVT_DCACHE_ACCESS, $DACC" \
		"EVT_DCACHE_MISS, $DMISS" "work, nwork, $CYC, &res"; do
		grep -q -- "$pat" "$SRC" || { ok=0; diag "source lacks '$pat'"; }
	done
	expect_eq "xscale-ratios source still feeds the documented workload" "$ok" 1
else
	skip "xscale-ratios source not found"
fi

# ratio NUM DEN: six decimals, as the example prints.
ratio() { awk -v n="$1" -v d="$2" 'BEGIN { printf "%.6f", n / d }'; }
# value LABEL: the number on the example's line LABEL.
value() { sed -n "s/^$1 *\([0-9.]*\)\$/\1/p" "$TMP/xsc"; }

"$EX/xscale-ratios" >"$TMP/xsc" 2>"$TMP/err"
expect_eq "xscale-ratios exits 0" "$?" 0
# I-cache efficiency: pmu_start(INSTRUCTION, ICACHE_MISS): miss rate =
# PMN1 / PMN0, CPI = CCNT / PMN0.
expect_eq "I-cache miss rate = misses / instructions" \
	"$(value 'icache miss rate')" "$(ratio $IMISS $INSN)"
expect_eq "CPI = cycles / instructions" \
	"$(value 'cycles per instr')" "$(ratio $CYC $INSN)"
# D-cache efficiency: pmu_start(DCACHE_ACCESS, DCACHE_MISS): PMN1 / PMN0.
expect_eq "D-cache miss rate = misses / accesses" \
	"$(value 'dcache miss rate')" "$(ratio $DMISS $DACC)"
# Fetch latency: pmu_start(ICACHE_NO_DELIVER, ICACHE_MISS): PMN0 / PMN1
# and PMN0 / CCNT.
expect_eq "fetch stall cycles per I-cache miss" \
	"$(value 'fetch stall per miss')" "$(ratio $NODELIV $IMISS)"
expect_eq "fraction of cycles stalled on fetch" \
	"$(value 'fetch stall fraction')" "$(ratio $NODELIV $CYC)"

# The documentation's three worked examples, with the API's own calls
# (<pmu/xscale.h>).  Each source states its simulated work; the counts
# and both the documentation's integer quotients and the exact ones
# follow from it.
# doc_check NAME CCNT PMN0 PMN1 LABEL NUM DEN [LABEL NUM DEN]
doc_check() {
	name=$1 ccnt=$2 pmn0=$3 pmn1=$4; shift 4
	"$EX/xscale-doc-$name" >"$TMP/doc" 2>"$TMP/err"
	expect_eq "xscale-doc-$name exits 0" "$?" 0
	expect_eq "xscale-doc-$name: counts of the documented work" \
		"$(head -1 "$TMP/doc")" "ccnt $ccnt pmn0 $pmn0 pmn1 $pmn1"
	while [ $# -ge 3 ]; do
		want=$(awk -v n="$2" -v d="$3" \
			'BEGIN { printf "%d (exact %.6f)", int(n / d), n / d }')
		expect_eq "xscale-doc-$name: $1" \
			"$(sed -n "s/^$1 //p" "$TMP/doc")" "$want"
		shift 3
	done
}
doc_check icache 100000 40000 2000 \
	icache_miss_rage 2000 40000 cycles_per_instruction 100000 40000
doc_check dcache 200000 50000 5000 dcache_miss_rage 5000 50000
doc_check fetch 120000 30000 1000 \
	average_stall_waiting_for_instruction_fetch 30000 1000 \
	percent_stall_cycles_due_to_instruction_fetch 30000 120000
for name in icache dcache fetch; do
	src="$(dirname "$0")/../../examples/xscale-doc-$name.c"
	own=0
	[ -r "$src" ] && grep -q 'pmu_start(EVT_' "$src" &&
		! grep -q 'pmu_simple_\(start\|stop\|claim\|release\)' "$src" &&
		own=1
	expect_eq "xscale-doc-$name uses only the API's own calls" "$own" 1
done

# selfcount: three software events of its own thread, counted for real.
"$EX/selfcount" >"$TMP/self" 2>"$TMP/err"
rc=$?
if [ $rc -ne 0 ] && grep -qiE 'permission|not supported|no such' "$TMP/err"; then
	skip "selfcount: perf events unavailable here: $(head -1 "$TMP/err")"
else
	expect_eq "selfcount exits 0" "$rc" 0
	expect_eq "selfcount prints three events" "$(wc -l <"$TMP/self" | tr -d ' ')" 3
	expect_no_match "every event was counted" "$TMP/self" 'not counted'
	# It writes one byte per page of a fresh 64-page buffer ten times and
	# sleeps ten times: faults and switches cannot be zero.
	pf=$(awk '$NF == "page-faults" { printf "%d", $1 }' "$TMP/self")
	cs=$(awk '$NF == "context-switches" { printf "%d", $1 }' "$TMP/self")
	tc=$(awk '$NF == "task-clock" { print ($1 > 0) }' "$TMP/self")
	check "selfcount: page-faults > 0 ($pf)" [ "${pf:-0}" -gt 0 ]
	check "selfcount: context-switches >= 10 ($cs)" [ "${cs:-0}" -ge 10 ]
	expect_eq "selfcount: task-clock > 0" "$tc" 1
fi

# workload: the deterministic load the CLI tests measure.
"$EX/workload" --pages 100 >"$TMP/wl" 2>"$TMP/err"
expect_eq "workload --pages 100 exits 0" "$?" 0
expect_eq "workload is silent without --verbose" "$(cat "$TMP/wl" "$TMP/err")" ""
"$EX/workload" --pages 100 --switches 10 --loops 1000 --verbose >"$TMP/wl" 2>&1
expect_eq "workload --verbose exits 0" "$?" 0
expect_match "workload reports its parameters" "$TMP/wl" \
	'^workload: pages=100 switches=10 loops=1000 checksum=[0-9a-f]+$'
"$EX/workload" --pages >"$TMP/wl" 2>&1
check "workload rejects a missing value" [ $? -ne 0 ]

# perfmon-smpl: a perfmon2 self-sampling program.  Its source states the
# work (passes of 2500 instructions then 4000 cycles, a sample every
# 10000 instructions, 3 samples a buffer) and what follows from it:
# sample k falls in pass 4k-1 at ip 0x400000 + 16 (4k-1), with
# (4k-1) * 4000 cycles less 4000 for each buffer filled before it.
for model in p6 k8; do
	"$EX/perfmon-smpl" "$model" >"$TMP/pfm" 2>"$TMP/err"
	expect_eq "perfmon-smpl $model exits 0" "$?" 0
	want=$(awk 'BEGIN { for (k = 1; k <= 10; k++)
		printf "sample %3d: pmd 0 ip 0x%06x cycles %7d set 0\n", k,
			4194304 + 16 * (4 * k - 1),
			(4 * k - 1) * 4000 - 4000 * int((k - 1) / 3) }')
	expect_eq "perfmon-smpl $model: the samples of its work" \
		"$(grep '^sample' "$TMP/pfm")" "$want"
	expect_eq "perfmon-smpl $model: 3 notifications" \
		"$(tail -1 "$TMP/pfm")" "10 samples, 3 notifications"
done
"$EX/perfmon-smpl" p99 >"$TMP/pfm" 2>"$TMP/err"
check "perfmon-smpl refuses an unknown model" [ $? -ne 0 ]
expect_match "naming it" "$TMP/err" "p99"

# sample-faults: each of its page faults sampled every PERIOD is an
# entry read or a sample counted lost (a 4 KiB buffer fills several
# times): their sum lies between the faults its getrusage saw inside and
# around the sampled stretch, divided by PERIOD.
for args in "4096 8" "20000 1"; do
	set -- $args
	"$EX/sample-faults" "$1" "$2" >"$TMP/sf" 2>"$TMP/err"
	rc=$?
	if [ $rc -ne 0 ] && grep -qiE "permission|paranoid" "$TMP/err"; then
		skip "sample-faults $args: $(head -1 "$TMP/err")"
		continue
	fi
	expect_eq "sample-faults $args exits 0" "$rc" 0
	read -r _ entries _ lost _ full _ inside _ around <"$TMP/sf"
	total=$((entries + lost))
	check "sample-faults $args: entries + lost ($total) >= inside / $2" \
		[ "$total" -ge $((inside / $2)) ]
	check "sample-faults $args: entries + lost ($total) <= around / $2" \
		[ "$total" -le $((around / $2)) ]
	check "sample-faults $args: the buffer filled" [ "$full" -ge 1 ]
done

# The README's event stream, as the README runs it: the loop of
# examples/loop.txt retires 4 instructions in 3 cycles, 1000 times.
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cmd=$(sed -n 's/^\(pmu stat --sim-model p6 .*examples\/loop\.txt\).*/\1/p' "$ROOT/README.md")
if [ -n "$cmd" ]; then
	(cd "$ROOT" && eval "\"\$PMU\"${cmd#pmu} -x," >/dev/null 2>"$TMP/loop")
	expect_eq "README's stream: exit 0" "$?" 0
	expect_match "README's stream: 3000 cycles" "$TMP/loop" '^3000,,cycles,'
	expect_match "README's stream: 4000 instructions" "$TMP/loop" '^4000,,instructions,'
else
	not_ok "the README runs examples/loop.txt"
fi
done_testing
