#!/usr/bin/env bash
# Uncore events on a fake sysfs tree (the LD_PRELOAD shim redirects
# /sys/bus/event_source and fakes the counters): opened only on their
# PMU's cpumask CPUs, one token's instances merged into one line (or
# not, with --no-merge), refused per task.  Expected counts come from
# the shim's fake_count(config) = config % 1000003 + 1 and the configs
# the formats below give.
. "$(dirname "$0")/lib.sh"
SHIM=$PMU_BUILD/tests/libinject.so
O=$TMP/out E=$TMP/err LOG=$TMP/open.log

if [ ! -f "$SHIM" ]; then
	echo "1..0 # SKIP $SHIM not built"
	exit 77
fi
ncpu=$(getconf _NPROCESSORS_ONLN)
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0

# The tree: a core PMU, software, and four CHA boxes counting on CPU 0.
SYS=$TMP/sys D=$TMP/sys/bus/event_source/devices
pmu_dir() { # NAME TYPE
	mkdir -p "$D/$1/format" "$D/$1/events"
	echo "$2" >"$D/$1/type"
}
pmu_dir cpu 4
echo config:0-7 >"$D/cpu/format/event"
echo config:8-15 >"$D/cpu/format/umask"
pmu_dir software 1
NCHA=4
for k in $(seq 0 $((NCHA - 1))); do
	pmu_dir uncore_cha_$k $((40 + k))
	echo config:0-7 >"$D/uncore_cha_$k/format/event"
	echo config:8-15,32-57 >"$D/uncore_cha_$k/format/umask"
	echo 0 >"$D/uncore_cha_$k/cpumask"
	# an alias every instance publishes: bare "clk" stands for all four
	echo 'event=0x3,umask=0x105' >"$D/uncore_cha_$k/events/clk"
done

fake() { echo $(( $1 % 1000003 + 1 )); }
# umask 0x105: bits 8-15 get 0x05, bits 32-57 the rest (0x1)
CLK_CONFIG=$(( 0x3 | 0x05 << 8 | 0x1 << 32 ))
CLK_ONE=$(fake $CLK_CONFIG)
CLK_SUM=$(( NCHA * CLK_ONE ))

upmu() { # OUT ERR ARGS...
	local out=$1 err=$2; shift 2
	rm -f "$LOG"
	PMU_INJECT=hw=fake PMU_INJECT_SYSFS=$SYS PMU_INJECT_LOG=$LOG \
		LD_PRELOAD=$SHIM "$PMU" "$@" >"$out" 2>"$err"
	RC=$?
}
# "type config cpu pid" lines of the events of type T
opened_cpus() { cat "$LOG" 2>/dev/null | awk -v t="$1" '$1 == t { print $3 }' | sort -u | tr '\n' ' '; }

# -a: each uncore event opens on CPU 0 only, whatever the CPU count.
upmu "$O" "$E" stat -a -x';' -e 'uncore_cha_0/event=0x1/,uncore_cha_1/event=0x2,umask=0x3/' -- sleep 0.1
expect_eq "-a uncore: exit 0" "$RC" 0
expect_eq "uncore_cha_0: opened on CPU 0 only ($ncpu online)" "$(opened_cpus 40)" "0 "
expect_eq "uncore_cha_1: opened on CPU 0 only" "$(opened_cpus 41)" "0 "
expect_eq "uncore_cha_0: one descriptor" "$(cat "$LOG" 2>/dev/null | awk '$1 == 40' | wc -l)" 1
v0=$(awk -F';' '$3 == "uncore_cha_0/event=0x1/" { print $1 }' "$E")
v1=$(awk -F';' '$3 == "uncore_cha_1/event=0x2,umask=0x3/" { print $1 }' "$E")
expect_eq "uncore_cha_0/event=0x1/ counts once, not once per CPU" "$v0" "$(fake 1)"
expect_eq "uncore_cha_1 event 2 umask 3" "$v1" "$(fake $(( 0x2 | 0x3 << 8 )))"

# A token standing for four instances: one line, their sum.
upmu "$O" "$E" stat -a -e clk -- sleep 0.1
expect_eq "clk: exit 0" "$RC" 0
for k in $(seq 0 $((NCHA - 1))); do
	expect_eq "clk on uncore_cha_$k: CPU 0 only" "$(opened_cpus $((40 + k)))" "0 "
done
expect_eq "clk: one line" "$(grep -c ' clk ' "$E")" 1
expect_match "clk: merged count is the instances' sum ($CLK_SUM)" "$E" "^ +$CLK_SUM +clk "
upmu "$O" "$E" stat -a -x, -e clk -- sleep 0.1
expect_eq "clk -x: one row" "$(grep -c ',clk,' "$E")" 1
expect_eq "clk -x: the sum" "$(awk -F, '$3 == "clk" { print $1 }' "$E")" "$CLK_SUM"
upmu "$O" "$E" stat -a --json -e clk -- sleep 0.1
expect_eq "clk --json: one object" "$(grep -c '"event" : "clk"' "$E")" 1
expect_match "clk --json: the sum" "$E" "\"counter-value\" : \"$CLK_SUM\\.0+\", .*\"event\" : \"clk\""

# --no-merge: one line per instance, named PMU/EVENT/.
upmu "$O" "$E" stat -a --no-merge -x, -e clk -- sleep 0.1
expect_eq "--no-merge: exit 0" "$RC" 0
for k in $(seq 0 $((NCHA - 1))); do
	expect_eq "--no-merge: uncore_cha_$k/clk/ has one instance's count" \
		"$(awk -F, -v n="uncore_cha_$k/clk/" '$3 == n { print $1 }' "$E")" "$CLK_ONE"
done
expect_eq "--no-merge: no merged line" "$(grep -c ',clk,' "$E")" 0
upmu "$O" "$E" stat -a --no-merge -e clk -- sleep 0.1
expect_eq "--no-merge text: four lines" "$(grep -cE "^ +$CLK_ONE +uncore_cha_[0-3]/clk/ " "$E")" "$NCHA"
upmu "$O" "$E" stat -a --no-merge --json -e clk -- sleep 0.1
expect_eq "--no-merge --json: four objects" "$(grep -c '"event" : "uncore_cha_[0-3]/clk/"' "$E")" "$NCHA"

# Intervals and repeats merge too (the fake count is the same at every
# read: the first interval has it all).
upmu "$O" "$E" stat -a -x, -I 100 --interval-count 1 -e clk -- sleep 0.3
expect_eq "-I: one merged row, the sum" "$(awk -F, '$4 == "clk" { print $2 }' "$E")" "$CLK_SUM"
upmu "$O" "$E" stat -a -x, -r 2 -e clk -- sleep 0.05
expect_eq "-r 2: the sum" "$(awk -F, '$3 == "clk" { print $1 }' "$E")" "$CLK_SUM"
# -A: the merged line of CPU 0 (the only CPU the instances count on)
upmu "$O" "$E" stat -a -A -x, -e clk,task-clock -- sleep 0.05
expect_eq "-A: CPU0's merged row, the sum" "$(awk -F, '$1 == "CPU0" && $4 == "clk" { print $2 }' "$E")" "$CLK_SUM"
expect_eq "-A: no row of clk for a CPU outside its cpumask" \
	"$(awk -F, '$1 != "CPU0" && $4 == "clk"' "$E" | wc -l)" 0
expect_eq "-A: task-clock keeps a row per CPU" \
	"$(awk -F, '$4 == "task-clock"' "$E" | wc -l)" "$ncpu"

# Per task: refused, naming the event and the way to count it.
upmu "$O" "$E" stat -e clk -- true
expect_eq "per task: exit 1" "$RC" 1
expect_match "per task: names the event and -a" "$E" "clk: an uncore event counts for the whole package.*not per task.*-a"
upmu "$O" "$E" stat -e uncore_cha_2/event=0x1/ -- true
expect_eq "per task (explicit PMU): exit 1" "$RC" 1
expect_match "per task: names uncore_cha_2/event=0x1/" "$E" "uncore_cha_2/event=0x1/: an uncore event"
check "per task: nothing opened" test ! -s "$LOG"

# -C meets the cpumask: only CPU 0 opens; -C without CPU 0: not counted,
# the reason naming the PMU's CPUs (docs/decisions.md).
if [ "$ncpu" -ge 2 ]; then
	upmu "$O" "$E" stat -C 0,1 -x, -e clk -- sleep 0.05
	expect_eq "-C 0,1: CPU 0 only" "$(opened_cpus 40)" "0 "
	expect_eq "-C 0,1: the sum" "$(awk -F, '$3 == "clk" { print $1 }' "$E")" "$CLK_SUM"
	upmu "$O" "$E" stat -v -C 1 -x, -e clk,uncore_cha_0/event=0x1/ -- sleep 0.05
	expect_eq "-C 1: exit 0" "$RC" 0
	check "-C 1: no uncore descriptor" test "$(cat "$LOG" 2>/dev/null | awk '$1 >= 40' | wc -l)" -eq 0
	expect_match "-C 1: clk not supported" "$E" '^<not supported>,,clk,'
	expect_match "-C 1: uncore_cha_0/event=0x1/ not supported" "$E" '^<not supported>,,uncore_cha_0/event=0x1/,'
	expect_match "-C 1: the reason names CPU 0" "$E" 'counts only on CPUs 0 .*none of which is in the CPU list'
else
	skip "-C cases need 2 CPUs"
fi
# The catalog's uncore events (sapphirerapids, PMU_CPUID below): a bare
# name of the model counts on every instance of its unit's PMU, merged;
# the codes are the kernel files' (uncore-cache.json UNC_CHA_CLOCKTICKS:
# EventCode 0x01; uncore-memory.json UNC_M_CAS_COUNT.RD: EventCode 0x05,
# UMask 0xcf).
export PMU_CPUID=GenuineIntel-6-8F-4
NIMC=3
for k in $(seq 0 $((NIMC - 1))); do
	pmu_dir uncore_imc_$k $((60 + k))
	echo config:0-7 >"$D/uncore_imc_$k/format/event"
	echo config:8-15 >"$D/uncore_imc_$k/format/umask"
	echo 0 >"$D/uncore_imc_$k/cpumask"
done
upmu "$O" "$E" stat -a -x, -e unc_cha_clockticks -- sleep 0.05
expect_eq "unc_cha_clockticks: exit 0" "$RC" 0
expect_eq "unc_cha_clockticks: the sum over the $NCHA CHA instances" \
	"$(awk -F, '$3 == "unc_cha_clockticks" { print $1 }' "$E")" "$(( NCHA * $(fake 1) ))"
# A group of two such names: one group per CHA instance, each name's
# line the sum over the instances.
upmu "$O" "$E" stat -a -x, -e '{clk,unc_cha_clockticks}' -- sleep 0.05
expect_eq "{clk,unc_cha_clockticks}: exit 0" "$RC" 0
expect_eq "{clk,unc_cha_clockticks}: clk's sum" \
	"$(awk -F, '$3 == "clk" { print $1 }' "$E")" "$CLK_SUM"
expect_eq "{clk,unc_cha_clockticks}: unc_cha_clockticks's sum" \
	"$(awk -F, '$3 == "unc_cha_clockticks" { print $1 }' "$E")" "$(( NCHA * $(fake 1) ))"
expect_eq "{clk,unc_cha_clockticks}: both opened on uncore_cha_1" \
	"$(awk '$1 == 41' "$LOG" | wc -l)" 2
upmu "$O" "$E" stat -a -x, --no-merge -e UNC_M_CAS_COUNT.RD -- sleep 0.05
expect_eq "UNC_M_CAS_COUNT.RD --no-merge: one row per iMC" \
	"$(grep -c '^[0-9]*,,uncore_imc_[0-9]/UNC_M_CAS_COUNT.RD/,' "$E")" "$NIMC"
expect_eq "uncore_imc_2's row: event 5 umask 0xcf" \
	"$(awk -F, '$3 == "uncore_imc_2/UNC_M_CAS_COUNT.RD/" { print $1 }' "$E")" "$(fake $(( 0x05 | 0xcf << 8 )))"
upmu "$O" "$E" stat -a -e unc_iio_clockticks -- true
expect_eq "a unit this machine lacks: exit 1" "$RC" 1
expect_match "a unit this machine lacks: named with its PMU" "$E" \
	"'unc_iio_clockticks' is an uncore event of sapphirerapids, counted by PMU uncore_iio"

# A metric over an uncore event: memory_bandwidth_read =
# UNC_M_CAS_COUNT.RD * 64 / 1e6 / duration_time (sapphirerapids
# metrics), the count being the sum over the iMC instances, whether the
# rows are merged or not (duration_time as an event: the same wall time).
for merge in "" --no-merge; do
	upmu "$O" "$E" stat -a -x, $merge -e duration_time -M memory_bandwidth_read -- sleep 0.05
	expect_eq "memory_bandwidth_read ${merge:-merged}: exit 0" "$RC" 0
	got=$(awk -F, '$NF ~ /memory_bandwidth_read$/ { print $(NF-1) }' "$E")
	dur=$(awk -F, '$3 == "duration_time" { print $1 }' "$E")
	want=$(awk -v n="$NIMC" -v one="$(fake $(( 0x05 | 0xcf << 8 )))" -v d="$dur" \
		'BEGIN { if (d > 0) printf "%.3f", n * one * 64 / 1e6 / (d / 1e9) }')
	check "memory_bandwidth_read ${merge:-merged}: $got, the formula over the summed instances $want" \
		awk -v g="$got" -v w="$want" 'BEGIN { exit !(w > 0 && g != "" && (g - w) / w < 1e-3 && (w - g) / w < 1e-3) }'
done
# Per task, a metric's uncore event is not counted (the user did not
# name it): the metric says not supported, the run goes on, -v says why.
upmu "$O" "$E" stat -v -M memory_bandwidth_read -- true
expect_eq "per-task metric of an uncore event: exit 0" "$RC" 0
expect_match "per-task metric: not supported" "$E" '<not supported> MB/s  memory_bandwidth_read'
expect_match "per-task metric: -v says to count system-wide" "$E" 'UNC_M_CAS_COUNT.RD.*whole package.*-a'
check "per-task metric: no uncore descriptor" test "$(awk '$1 >= 40' "$LOG" 2>/dev/null | wc -l)" -eq 0
done_testing
