#!/usr/bin/env bash
# Regions on a real PMU driver: a region around the suite's counted loop
# retires 2 N + c user instructions, c the markers' own share, the same
# for every N and every thread; the kernel's own count of the whole
# process (perf stat) bounds it.
. "$(dirname "$0")/lib.sh"
require_hw
W=$PMU_BUILD/tests/hw/hwregion
[ -x "$W" ] || { echo "1..0 # SKIP $W not built (make hw-build)"; exit 77; }

N1=1000000 N2=3000000
# region_insns N [T]: the region's inclusive instructions:u (total)
region_insns() {
	"$PMU" stat --regions -e instructions:u -x, -o "$TMP/c" -- "$W" "$@" \
		>"$TMP/o" 2>"$TMP/e" || { echo "pmu failed: $(cat "$TMP/e")" >&2; return; }
	awk -F, '$1 == "loop" && $2 == "all" && $7 == "instructions:u" {
		printf "%d\n", $5 }' "$TMP/c"
}

r1=$(region_insns $N1)
r2=$(region_insns $N2)
diag "region instructions:u: $r1 ($N1 loops), $r2 ($N2 loops)"
expect_match "the markers were on" "$TMP/o" '^active 1$'
check "2 a loop more, exactly (slack $SLACK)" \
	test "$(( r2 - r1 - 2 * (N2 - N1) ))" -ge "-$SLACK" -a \
	     "$(( r2 - r1 - 2 * (N2 - N1) ))" -le "$SLACK"
c=$(( r1 - 2 * N1 ))
diag "the markers' own instructions inside the region: $c"
check "the markers' share is small and positive" test "$c" -ge 0 -a "$c" -le 5000

# the whole process's count (perf's) holds the region's
whole=$(perf_count instructions:u "$W" $N1)
check "perf's count of the whole process holds the region's" \
	test "${whole:-0}" -gt "$r1"

# four threads: each thread's region the same, the total four times one
"$PMU" stat --regions -e instructions:u -x, -o "$TMP/c" -- "$W" $N1 4 \
	>"$TMP/o" 2>"$TMP/e"
expect_eq "4 threads: exit 0" "$?" 0
check "4 threads: each thread's region 2 N + c" awk -F, -v want=$r1 -v s=$SLACK '
	$1 == "loop" && $2 != "all" && $7 == "instructions:u" {
		n++; d = $5 - want; if (d < -s || d > s) bad = 1 }
	END { exit bad || n != 4 }' "$TMP/c"
# -M: a model's metric of the region, from the region's own counts
# (hip08's retiring = INST_RETIRED / (CPU_CYCLES * 4), the two events
# QEMU counts)
if [ "$(uname -m)" = aarch64 ]; then
	PMU_CPUID=0x00000000480fd010 "$PMU" stat --regions -M retiring -x, \
		-o "$TMP/c" -- "$W" $N1 >"$TMP/o" 2>"$TMP/e"
	expect_eq "-M retiring: exit 0" "$?" 0
	# the region's total rows: region,all,all,calls,value,unit,name,...
	check "-M retiring: the region's value from its own counts" awk -F, '
		$1 != "loop" || $2 != "all" { next }
		tolower($7) ~ /inst_retired/ { inst = $5 }
		tolower($7) ~ /cpu_cycles/ { cyc = $5 }
		$7 == "retiring" { met = $5 }
		END {
			if (inst < 2000000 || cyc <= 0 || met == "") exit 1
			want = inst / (cyc * 4); d = met - want
			exit (d < -0.0001 || d > 0.0001) }' "$TMP/c"
else
	skip "-M of a region: the metric's events are counted on arm64's guest"
	skip "-M of a region: the metric's events are counted on arm64's guest"
fi
done_testing
