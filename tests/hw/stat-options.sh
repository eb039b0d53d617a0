#!/usr/bin/env bash
# pmu stat's options on hardware counters, against perf stat's on the
# same workload: repeats, intervals, CSV and JSON, system-wide and
# per-CPU counting, per-thread counts and a running process.
. "$(dirname "$0")/lib.sh"
require_hw

N=1000000
spread_of instructions:u "$HWLOOP" loop $N
P=$TMP/p F=$TMP/f

# -r: the mean of identical runs, and perf's spread column
pmu_run stat -r 3 -x, -o "$P" -e instructions:u -- "$HWLOOP" loop $N >/dev/null 2>&1
"$PERF" stat -r 3 -x, -o "$F" -e instructions:u -- "$HWLOOP" loop $N >/dev/null 2>&1
same "-r 3: mean" "$(csv "$P" instructions:u)" "$(csv "$F" instructions:u)"
expect_eq "-r 3: the spread field as perf's" "$(csv "$P" instructions:u 4)" "$(csv "$F" instructions:u 4)"

# -I: the intervals add up to the whole count
M=20000000
spread_of instructions:u "$HWLOOP" loop $M
whole=$(perf_count instructions:u "$HWLOOP" loop $M)
pmu_run stat -I 10 -x, -o "$P" -e instructions:u -- "$HWLOOP" loop $M >/dev/null 2>&1
"$PERF" stat -I 10 -x, -o "$F" -e instructions:u -- "$HWLOOP" loop $M >/dev/null 2>&1
np=$(awk -F, '$4 == "instructions:u"' "$P" | grep -c .)
nf=$(awk -F, '$4 == "instructions:u"' "$F" | grep -c .)
check "-I 10: several intervals (pmu $np, perf $nf)" test "$np" -ge 3
sum() { awk -F, '$4 == "instructions:u" && $2 ~ /^[0-9]+$/ { s += $2 } END { printf "%d\n", s }' "$1"; }
same "-I 10: pmu's intervals add up to perf's whole count" "$(sum "$P")" "$whole"
same "-I 10: perf's intervals add up to its whole count" "$(sum "$F")" "$whole"

# -x with another separator, and --json
pmu_run stat -x';' -o "$P" -e instructions:u -- "$HWLOOP" loop $N >/dev/null 2>&1
"$PERF" stat -x';' -o "$F" -e instructions:u -- "$HWLOOP" loop $N >/dev/null 2>&1
same "-x';': the value" "$(awk -F';' '$3 == "instructions:u" { print $1 }' "$P")" \
	"$(awk -F';' '$3 == "instructions:u" { print $1 }' "$F")"
jv() { sed -n 's/.*"counter-value" : "\([0-9]*\)\..*"event" : "'"$2"'".*/\1/p' "$1" | head -1; }
pmu_run stat -j -o "$P" -e instructions:u -- "$HWLOOP" loop $N >/dev/null 2>&1
"$PERF" stat -j -o "$F" -e instructions:u -- "$HWLOOP" loop $N >/dev/null 2>&1
same "--json: counter-value" "$(jv "$P" instructions:u)" "$(jv "$F" instructions:u)"
# (perf 6.1 gives a row without a metric one anyway: metric-value 0,
# with the unit "(null)", or with the unit of a figure it could not
# compute, "insn per cycle" without cycles; later perf, and pmu, leave
# both out)
expect_eq "--json: the same keys as perf's" \
	"$(grep -o '"[a-z-]*" :' "$P" | sort -u | tr '\n' ' ')" \
	"$(sed 's/, *"metric-value" *: *0\.0*, *"metric-unit" *: *"[^"]*"//' "$F" |
	   grep -o '"[a-z-]*" :' | sort -u | tr '\n' ' ')"

# system-wide: every CPU's instructions while the loop runs, at least
# the loop's; -A a row a CPU, -C one CPU
ncpu=$(grep -c ^processor /proc/cpuinfo)
for opt in "-a" "-a -A" "-C 0"; do
	# shellcheck disable=SC2086
	pmu_run stat $opt -x, -o "$P" -e instructions -- "$HWLOOP" loop $N >/dev/null 2>&1
	# shellcheck disable=SC2086
	"$PERF" stat $opt -x, -o "$F" -e instructions -- "$HWLOOP" loop $N >/dev/null 2>&1
	if [ "$opt" = "-a -A" ]; then
		expect_eq "-a -A: a row a CPU, as perf's" \
			"$(awk -F, '$4 == "instructions" { print $1 }' "$P" | tr '\n' ' ')" \
			"$(awk -F, '$4 == "instructions" { print $1 }' "$F" | tr '\n' ' ')"
		a=$(awk -F, '$4 == "instructions" { s += $2 } END { print s + 0 }' "$P")
	else
		a=$(csv "$P" instructions)
		b=$(csv "$F" instructions)
		check "$opt: perf counts the loop ($b >= $((2 * N)))" test "${b:-0}" -ge $((2 * N))
	fi
	check "$opt: pmu counts the loop (${a:-none} >= $((2 * N)))" test "${a:-0}" -ge $((2 * N))
done
diag "$ncpu CPUs"

# a running process (-p), and its threads (--per-thread): pmu and perf
# attach to the same process at once, before it leaves its gate
fifo=$TMP/gate
mkfifo "$fifo"
attach() { # OUTPUT-SUFFIX ARGS...: both tools on the gated process
	local s=$1; shift
	"$PMU" stat -x, -o "$P.$s" "$@" -p "$pid" >/dev/null 2>&1 & local a=$!
	"$PERF" stat -x, -o "$F.$s" "$@" -p "$pid" >/dev/null 2>&1 & local b=$!
	sleep 1
	echo x >"$fifo"
	wait "$pid" "$a" "$b"
}
"$HWLOOP" gate "$fifo" $N & pid=$!
wait_gated $pid 1
attach p -e instructions:u
a=$(csv "$P.p" instructions:u) b=$(csv "$F.p" instructions:u)
check "-p: pmu counts the loop after attaching (${a:-none} >= $((2 * N)))" test "${a:-0}" -ge $((2 * N))
same "-p: the same count as perf's" "$a" "$b"

"$HWLOOP" threads 3 $N "$fifo" & pid=$!
wait_gated $pid 4
attach t --per-thread -e instructions:u
# rows: comm-tid,count,unit,event,...; threads ordered by tid in both
rows() { awk -F, '$4 == "instructions:u" { print $1, $2 }' "$1" | sort; }
rows "$P.t" >"$TMP/pt"; rows "$F.t" >"$TMP/ft"
expect_eq "--per-thread: the same threads as perf's" "$(cut -d' ' -f1 "$TMP/pt" | tr '\n' ' ')" \
	"$(cut -d' ' -f1 "$TMP/ft" | tr '\n' ' ')"
busy=$(awk -v n=$((2 * N)) '$2 >= n' "$TMP/pt" | grep -c .)
expect_eq "--per-thread: three threads count their loop" "$busy" 3
while read -r t v; do
	same "--per-thread: $t as perf" "$v" "$(awk -v t="$t" '$1 == t { print $2 }' "$TMP/ft")"
done <"$TMP/pt"

done_testing
