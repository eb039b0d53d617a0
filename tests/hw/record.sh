#!/usr/bin/env bash
# Sampling through real overflow interrupts: pmu record against perf
# record on the same workload (sample counts, top symbols, call chains),
# and each tool reading the other's file.
. "$(dirname "$0")/lib.sh"
require_hw
cd "$TMP" || exit 1

N=5000000 # hot_three loops 3N, hot_one N: 8N x 2 instructions
W=("$HWLOOP" hot $N)

samples() { # TOOL FILE: samples in the file, as perf script lists them
	"$PERF" script -i "$2" -F ip 2>/dev/null | grep -c .
}
# share REPORT SYMBOL: the overhead of SYMBOL in a --no-children report
share() { awk -v s="$2" '$1 ~ /%$/ && $NF == s { sub("%", "", $1); print $1; exit }' "$1"; }
top() { awk '$1 ~ /%$/ { print $NF; exit }' "$1"; }

# period sampling on cycles:u, whose overflow interrupt QEMU raises on
# time: one sample a period, as perf
cyc=$(perf_count cycles:u "${W[@]}")
P=1000000
pmu_run record -q -e cycles:u -c $P -o pmu.data -- "${W[@]}" >/dev/null 2>&1
"$PERF" record -q -e cycles:u -c $P -o perf.data -- "${W[@]}" >/dev/null 2>&1
"$PERF" record -q -e cycles:u -c $P -o perf2.data -- "${W[@]}" >/dev/null 2>&1
a=$(samples perf pmu.data) b=$(samples perf perf.data) b2=$(samples perf perf2.data)
SPREAD=$(( b > b2 ? b - b2 : b2 - b ))
[ "$SPREAD" = 0 ] && SPREAD=1
same "-c $P cycles:u: samples as perf's" "$a" "$b"
within "-c $P cycles:u: a sample a period ($cyc cycles)" "$a" "$((cyc / P))" 0.05

# the profile: hot_three has three quarters of the samples in both
"$PERF" report -i pmu.data --no-children -s sym --stdio 2>/dev/null >perf-of-pmu.txt
"$PERF" report -i perf.data --no-children -s sym --stdio 2>/dev/null >perf-of-perf.txt
"$PMU" report -i perf.data --no-children -s sym >pmu-of-perf.txt 2>&1
"$PMU" report -i pmu.data --no-children -s sym >pmu-of-pmu.txt 2>&1
for f in perf-of-pmu perf-of-perf pmu-of-perf pmu-of-pmu; do
	expect_eq "$f: top symbol" "$(top $f.txt)" hot_three
	within "$f: hot_three's share near 75%" "$(share $f.txt hot_three)" 75 0.1
done
within "pmu's report of its file and perf's report of it agree" \
	"$(share pmu-of-pmu.txt hot_three)" "$(share perf-of-pmu.txt hot_three)" 0.001

# as_many NAME MIN-SPREAD RECORD-OPTIONS...: pmu's samples against
# perf's, within perf's own spread over two runs (and MIN-SPREAD)
as_many() {
	local name=$1 min=$2 a b b2
	shift 2
	pmu_run record -q "$@" -o pmu-n.data -- "${W[@]}" >/dev/null 2>&1
	"$PERF" record -q "$@" -o perf-n.data -- "${W[@]}" >/dev/null 2>&1
	"$PERF" record -q "$@" -o perf-n2.data -- "${W[@]}" >/dev/null 2>&1
	a=$(samples perf pmu-n.data) b=$(samples perf perf-n.data)
	b2=$(samples perf perf-n2.data)
	SPREAD=$(( b > b2 ? b - b2 : b2 - b ))
	[ "$SPREAD" -lt "$min" ] && SPREAD=$min
	same "$name: samples as perf's" "$a" "$b"
}
# frequency mode: the kernel tunes the period
as_many "-F 2000" 2 -e cycles:u -F 2000
# instructions: QEMU raises this counter's overflow late (when the PMU's
# state is next updated), so both tools get the same few samples
as_many "-c 100000 instructions:u" 2 -e instructions:u -c 100000

# a dynamically linked program (bash, its libc): the shared objects'
# symbols as perf names them, PLT slots included
pmu_run record -q -e cycles:u -c 100000 -o dyn.data -- \
	bash -c 'i=0; while [ $i -lt 30000 ]; do i=$((i + 1)); done' >/dev/null 2>&1
"$PERF" report -i dyn.data --no-children -s dso,sym --stdio 2>/dev/null |
	awk '$1 ~ /%$/ { print $1, $2, $NF; if (++n == 5) exit }' >perf-dyn.txt
"$PMU" report -i dyn.data --no-children -s dso,sym 2>/dev/null |
	awk '$1 ~ /%$/ { print $1, $2, $NF; if (++n == 5) exit }' >pmu-dyn.txt
expect_eq "bash's profile: pmu report's top 5 (share, DSO, symbol) are perf report's" \
	"$(cat pmu-dyn.txt)" "$(cat perf-dyn.txt)"

# call chains: frame pointers, and DWARF (registers and stack copied at
# each sample, unwound afterwards); main calls both hot functions
for cg in fp dwarf; do
	pmu_run record -q -e cycles:u -c $P --call-graph $cg -o pmu-$cg.data -- "${W[@]}" >/dev/null 2>"err-$cg"
	"$PERF" record -q -e cycles:u -c $P --call-graph $cg -o perf-$cg.data -- "${W[@]}" >/dev/null 2>&1
	# samples in hot_three whose chain reaches main
	chains() { "$1" script -i "$2" 2>/dev/null |
		awk '/^[^ \t]/ { if (hot && main) n++; hot = main = 0; next }
		     /hot_three/ { hot = 1 } / main/ { main = 1 }
		     END { if (hot && main) n++; print n + 0 }'; }
	a=$(chains "$PERF" pmu-$cg.data) b=$(chains "$PERF" perf-$cg.data)
	c=$(chains "$PMU" perf-$cg.data)
	check "--call-graph $cg: perf unwinds pmu's samples of hot_three to main ($a)" test "$a" -gt 10
	within "--call-graph $cg: as many as in perf's own file" "$a" "$b" 0.2
	# pmu's unwinder on perf's file: no fewer than perf's own
	check "--call-graph $cg: pmu reads perf's chains (pmu $c, perf $b)" \
		test "$c" -ge $((b * 95 / 100)) -a "$c" -gt 10
	sed 's/^/# /' "err-$cg"
done

done_testing
