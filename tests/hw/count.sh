#!/usr/bin/env bash
# Counting on the kernel's PMU driver: pmu stat against perf stat on the
# same machine, the same workload and the same environment.  A loop of N
# two-instruction iterations retires N x 2 + c user instructions, c the
# same for both tools; every spelling of an event counts the same.
. "$(dirname "$0")/lib.sh"
require_hw

N1=1000000 N2=3000000
spread_of instructions:u "$HWLOOP" loop $N1
diag "core PMU $CORE; perf's own spread on instructions:u: $SPREAD (slack $SLACK)"

# instructions:u, twice: equal to perf's, and growing by exactly 2 a loop
a1=$(pmu_count instructions:u "$HWLOOP" loop $N1)
b1=$(perf_count instructions:u "$HWLOOP" loop $N1)
a2=$(pmu_count instructions:u "$HWLOOP" loop $N2)
b2=$(perf_count instructions:u "$HWLOOP" loop $N2)
same "instructions:u, $N1 loops" "$a1" "$b1"
same "instructions:u, $N2 loops" "$a2" "$b2"
if [ "$SPREAD" = 0 ]; then
	SLACK=$((2 * SLACK)) same "instructions:u grow by 2 an iteration" "$((a2 - a1))" "$((2 * (N2 - N1)))"
	diag "c = $((a1 - 2 * N1)) user instructions of start-up and exit"
else
	within "instructions:u grow by about 2 an iteration" "$((a2 - a1))" "$((2 * (N2 - N1)))" 0.01
fi

# every spelling of the retired-instruction event: perf's count of the
# same string
for ev in instructions:u "$RAW_INST:u" "${TERM_INST%/}/u" "${ALIAS_INST%/}/u" ${NAMED_INST:+"$NAMED_INST:u"}; do
	same "$ev" "$(pmu_count "$ev" "$HWLOOP" loop $N1)" "$(perf_count "$ev" "$HWLOOP" loop $N1)"
done
# cycles are QEMU's virtual clock, which now and then runs a few
# nanoseconds apart from the instructions: never tighter than 1
spread_of cycles:u "$HWLOOP" loop $N1
[ "$SPREAD" = 0 ] && SPREAD=1
for ev in cycles:u "$RAW_CYC:u" ${NAMED_CYC:+"$NAMED_CYC:u"}; do
	same "$ev" "$(pmu_count "$ev" "$HWLOOP" loop $N1)" "$(perf_count "$ev" "$HWLOOP" loop $N1)"
done

# a group: its members as perf counts them
spread_of instructions:u "$HWLOOP" loop $N1
G="{instructions:u,cycles:u,$RAW_INST:u}"
pmu_run stat -x, -o "$TMP/p" -e "$G" -- "$HWLOOP" loop $N1 >/dev/null 2>&1
"$PERF" stat -x, -o "$TMP/f" -e "$G" -- "$HWLOOP" loop $N1 >/dev/null 2>&1
for ev in instructions:u "$RAW_INST:u"; do
	same "group $G: $ev" "$(csv "$TMP/p" "$ev")" "$(csv "$TMP/f" "$ev")"
done
expect_eq "group $G: its members run all the time" \
	"$(awk -F, 'NF > 4 && $5 != "100.00"' "$TMP/p" | grep -c .)" 0

# user + kernel: in one group all three count the same stretch, so the
# two parts add up to the whole, in pmu as in perf
G="{instructions,instructions:u,instructions:k}"
for tool in pmu perf; do
	if [ $tool = pmu ]; then pmu_run stat -x, -o "$TMP/g" -e "$G" -- "$HWLOOP" loop $N1 >/dev/null 2>&1
	else "$PERF" stat -x, -o "$TMP/g" -e "$G" -- "$HWLOOP" loop $N1 >/dev/null 2>&1; fi
	all=$(csv "$TMP/g" instructions) u=$(csv "$TMP/g" instructions:u) k=$(csv "$TMP/g" instructions:k)
	expect_eq "$tool: instructions = instructions:u + instructions:k" "${all:-x}" "$(( ${u:-0} + ${k:-0} ))"
	[ $tool = pmu ] && pk=$k || fk=$k
done
# the kernel's share differs between the tools (each starts its command
# its own way) but not by a factor
within "instructions:k of pmu's command near perf's" "${pk:-0}" "${fk:-0}" 0.5

# the default table: the same hardware rows, counted or not, as perf's
pmu_run stat -x, -o "$TMP/p" -- "$HWLOOP" loop $N1 >/dev/null 2>&1
"$PERF" stat -x, -o "$TMP/f" -- "$HWLOOP" loop $N1 >/dev/null 2>&1
for ev in cycles instructions branches branch-misses; do
	expect_eq "default set: $ev reads as perf's does" \
		"$(csv "$TMP/p" "$ev" | tr -d 0-9)" "$(csv "$TMP/f" "$ev" | tr -d 0-9)"
done

# starting the command takes no CPU from it: pmu learns whether the exec
# worked when the command ends, so the exec wakes nobody (on one CPU a
# wake-up would preempt the command as its counting starts).  A wake-up
# of pmu's own would add a switch to every run; a timer or another task
# adds one to some runs of either tool: the fewest of 7 runs compare.
pcs= fcs=
for i in 1 2 3 4 5 6 7; do
	p=$(pmu_count context-switches "$HWLOOP" loop $N1)
	f=$(perf_count context-switches "$HWLOOP" loop $N1)
	[ -z "$pcs" ] || [ "$p" -lt "$pcs" ] && pcs=$p
	[ -z "$fcs" ] || [ "$f" -lt "$fcs" ] && fcs=$f
done
check "context switches of the command, fewest of 7 runs: pmu's no more than perf's ($pcs, $fcs)" \
	test "$pcs" -le "$fcs"

# pmu info names the processor as the kernel does (arm64: its MIDR)
midr=/sys/devices/system/cpu/cpu0/regs/identification/midr_el1
if [ -r "$midr" ]; then
	"$PMU" info >"$TMP/info" 2>&1
	expect_match "pmu info: the MIDR sysfs gives" "$TMP/info" \
		"MIDR $(printf '%#018x' "$(cat "$midr")")"
	expect_match "pmu info: the event model" "$TMP/info" '^event model: [a-z0-9_-]+$'
else
	skip "pmu info: no MIDR in sysfs (not arm64)"
fi

done_testing
