#!/usr/bin/env bash
# pmu record --emulate: the emulator's exact samples in perf.data.
#
# Expected values come from the workloads' parameters: kloop runs a loop
# of exactly K=5 instructions N times inside the region markers (plus a
# few instructions of the markers and the call, fewer than the period),
# so a period P gives floor(5N/P) samples, every one inside the loop,
# consecutive ones P mod 5 instructions apart in it; pattern's loop has
# one load (cmpb $0,(d,%rcx)) per iteration.  perf script reads the file
# as the oracle, objdump gives the load's offset in main.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/emu-lib.sh"
require_emu
require_perf

K=5 N=10000

# the sample IPs of a file, one per line (perf's reading)
perf_ips() { perf script -i "$1" -F ip 2>/dev/null | awk '{ print $1 }'; }

# Index (0..4) of each sample in the loop, from the addresses kloop
# prints, or "out" for an IP outside it.
loop_pos() { # ADDRS IPS
	awk 'NR == FNR { sub(/^0x/, "", $1); a[$1] = FNR - 1; next }
	     { print ($1 in a) ? a[$1] : "out" }' "$1" "$2"
}

for P in 1000 997 1003; do
	run_pmu "$TMP/addrs" "$TMP/e" record --emulate --emulate-regions \
		-c $P -o "$TMP/k.data" -- "$WORK/kloop" $N
	expect_eq "P=$P: exit status" "$RC" 0
	want=$((K * N / P))
	expect_match "P=$P: the summary counts the samples" "$TMP/e" \
		"\\($want samples\\)"
	expect_eq "P=$P: perf script reads floor(total/P) samples" \
		"$(perf script -i "$TMP/k.data" 2>/dev/null | wc -l)" "$want"
	expect_eq "P=$P: pmu script reads as many" \
		"$("$PMU" script -i "$TMP/k.data" 2>/dev/null | wc -l)" "$want"
	perf_ips "$TMP/k.data" >"$TMP/ips"
	loop_pos "$TMP/addrs" "$TMP/ips" >"$TMP/pos"
	expect_eq "P=$P: a position for each sample" "$(wc -l <"$TMP/pos")" "$want"
	expect_eq "P=$P: every sample in the loop" \
		"$(grep -c out "$TMP/pos")" 0
	# consecutive samples P instructions apart: P mod K places on
	bad=$(awk -v d=$((P % K)) -v k=$K \
		'NR > 1 && $1 != (prev + d) % k { n++ } { prev = $1 }
		 END { print n + 0 }' "$TMP/pos")
	expect_eq "P=$P: positions advance by P mod K" "$bad" 0
	expect_eq "P=$P: the period in each sample" \
		"$(perf script -i "$TMP/k.data" -F period 2>/dev/null |
		   awk -v p=$P '$1 != p { n++ } END { print n + 0 }')" 0
done

# The registers: kloop's a (the first "+r" operand) grows by one an
# iteration, so by P/K between samples when K divides P; perf prints
# them (iregs).  The event is named after the emulated model.
run_pmu "$TMP/addrs" "$TMP/e" record --emulate --emulate-regions -c 1000 \
	-o "$TMP/k.data" -- "$WORK/kloop" $N
perf script -i "$TMP/k.data" -F ip,iregs 2>/dev/null >"$TMP/regs"
expect_match "registers in the samples" "$TMP/regs" "IP:0x[0-9a-f]+ +R8:"
ipreg=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^IP:/) {
		sub("IP:0x", "", $i); print ($1 == $i) ? "same" : "differ" } }' \
	"$TMP/regs" | sort -u)
expect_eq "the IP register is the sample's IP" "$ipreg" same
perf script -i "$TMP/k.data" -F event 2>/dev/null | sort -u >"$TMP/ev"
expect_match "the event names the emulated model" "$TMP/ev" \
	"emu-fam10h/instructions/"
"$PMU" report -i "$TMP/k.data" --stdio >"$TMP/rep" 2>&1
expect_match "pmu report: 100% in the loop's function" "$TMP/rep" \
	"100\\.00%.*kloop"
perf report -i "$TMP/k.data" --stdio 2>/dev/null >"$TMP/prep"
expect_match "perf report: 100% in the loop's function" "$TMP/prep" \
	"100\\.00%.*kloop"

# Data addresses: sampling the loads of pattern's loop, every sample is
# the one load (objdump: the cmpb in main), its address d + rcx.
LOADS=5000 PL=97
run_pmu "$TMP/o" "$TMP/e" record --emulate --emulate-regions \
	-e DATA_CACHE_ACCESSES -c $PL -o "$TMP/p.data" -- \
	"$WORK/pattern" random $LOADS
expect_eq "loads: exit status" "$RC" 0
perf script -i "$TMP/p.data" -F ip,sym,symoff,addr,iregs 2>/dev/null |
	awk '{ cx = sym = ""
	       for (i = 2; i <= NF; i++) {
		       if ($i ~ /^CX:/) cx = substr($i, 6)
		       if ($i ~ /\+0x/) sym = $i
	       }
	       print sym, $1, cx }' >"$TMP/loads"
expect_eq "loads: floor(loads/P) samples" "$(wc -l <"$TMP/loads")" \
	$((LOADS / PL))
main=$(objdump -d "$WORK/pattern" | awk '/<main>:/ { print $1 }')
cmpb=$(objdump -d "$WORK/pattern" |
       awk '/<main>:/ { m = 1 } m && /cmpb +\$0x0,(0x0)?\(%r[a-z0-9]+,%rcx,1\)/ { sub(":", "", $1); print $1; exit }')
want=$(printf 'main+0x%x' $((0x$cmpb - 0x$main)))
expect_eq "loads: every sample at the cmpb ($want)" \
	"$(awk '{ print $1 }' "$TMP/loads" | sort -u)" "$want"
delta=$(while read -r _ addr cx; do
		printf '%x\n' $((0x$addr - 0x$cx))
	done <"$TMP/loads" | sort -u)
expect_eq "loads: one array base (address - rcx) for all" \
	"$(echo "$delta" | wc -l)" 1
check "loads: the address is not 0" test -n "$delta" -a "$delta" != 0
# sampling instructions, no memory event counted: a sample at the load
# still carries its data address, the same d + rcx
run_pmu "$TMP/o" "$TMP/e" record --emulate --emulate-regions \
	-e instructions -c 7 -o "$TMP/pi.data" -- "$WORK/pattern" random $LOADS
expect_eq "instructions: exit status" "$RC" 0
perf script -i "$TMP/pi.data" -F ip,sym,symoff,addr,iregs 2>/dev/null |
	awk -v want="$want" '{ cx = sym = ""
	       for (i = 2; i <= NF; i++) {
		       if ($i ~ /^CX:/) cx = substr($i, 6)
		       if ($i ~ /\+0x/) sym = $i
	       }
	       if (sym == want) print $1, cx }' >"$TMP/iloads"
check "instructions: some samples at the load ($(wc -l <"$TMP/iloads"))" test -s "$TMP/iloads"
idelta=$(while read -r addr cx; do
		printf '%x\n' $((0x$addr - 0x$cx))
	done <"$TMP/iloads" | sort -u)
expect_eq "instructions: their data address, the array's (d + rcx)" "$idelta" "$delta"

# Determinism: the whole program twice (loader, libc, the loop), the
# same samples at the same times.
for i in 1 2; do
	run_pmu "$TMP/o" "$TMP/e" record --emulate -c 10007 \
		-o "$TMP/d$i.data" -- "$WORK/kloop" 20000
	perf script -i "$TMP/d$i.data" -F tid,time,ip,addr 2>/dev/null |
		awk '{ $1 = ""; print }' >"$TMP/d$i"
done
check "determinism: some samples" test -s "$TMP/d1"
check "determinism: two runs, the same samples" cmp -s "$TMP/d1" "$TMP/d2"

# A forked and exec'd child: its samples resolve in its new image.
run_pmu "$TMP/o" "$TMP/e" record --emulate -c 5003 -o "$TMP/f.data" -- \
	"$WORK/forkexec"
perf script -i "$TMP/f.data" -F comm,ip,sym 2>/dev/null |
	awk '{ print $1, $3 }' >"$TMP/fs"
expect_match "fork+exec: the child's samples in its image" "$TMP/fs" \
	"^ *loops +main"
expect_match "fork+exec: the parent's too" "$TMP/fs" "^ *forkexec "

# Errors.
run_pmu "$TMP/o" "$TMP/e" record --emulate -F 1000 -o "$TMP/x.data" -- true
expect_eq "-F: usage error" "$RC" 2
expect_match "-F: says why" "$TMP/e" "-F: an emulated PMU samples every N events"
run_pmu "$TMP/o" "$TMP/e" record --emulate -g -o "$TMP/x.data" -- true
expect_eq "-g: usage error" "$RC" 2
expect_match "-g: says why" "$TMP/e" "no call chains"
run_pmu "$TMP/o" "$TMP/e" record --emulate -e no-such-event -o "$TMP/x.data" -- true
expect_eq "unknown event: exit 1" "$RC" 1
expect_match "unknown event: named" "$TMP/e" "no-such-event"
run_pmu "$TMP/o" "$TMP/e" record --emulate --emulate-model p5 \
	-e instructions -o "$TMP/x.data" -- true
expect_eq "a model that cannot sample: exit 1" "$RC" 1
expect_match "a model that cannot sample: named, and those that can" \
	"$TMP/e" "emulated p5 cannot sample.*fam10h"
run_pmu "$TMP/o" "$TMP/e" record --emulate -p 1 -o "$TMP/x.data"
expect_eq "-p: usage error" "$RC" 2
run_pmu "$TMP/o" "$TMP/e" record --emulate --emulate-opt 'a b' -o "$TMP/x.data" -- true
expect_eq "bad --emulate-opt: usage error" "$RC" 2

done_testing
