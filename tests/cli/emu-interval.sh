#!/usr/bin/env bash
# pmu stat --emulate -I Ni: an interval every N guest instructions.
# The oracle is the plain emulated total of the same command (which
# tests/cli/emu-oracle.sh holds equal to cachegrind's Ir): with T
# instructions there are ceil(T/N) intervals, each of N instructions but
# the last (T - (lines-1)*N), the first column the instructions counted
# up to the interval's end, and every event's intervals add up to its
# plain total.  Two runs print the same bytes.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/emu-lib.sh"

# Usage errors need no emulator: exit 2, naming the token.
bad_usage() { # NAME TOKEN ARGS...
	local name=$1 tok=$2; shift 2
	run_pmu "$TMP/o" "$TMP/e" "$@"
	expect_eq "$name: exit 2" "$RC" 2
	expect_match "$name: names '$tok'" "$TMP/e" "'$tok'"
}
bad_usage "-I 0i" 0i stat --emulate -I 0i -e instructions -- /bin/true
bad_usage "-I 10i without --emulate" 10i stat -I 10i -e task-clock -- /bin/true
bad_usage "-I with a bad suffix" 10x stat --emulate -I 10x -e instructions -- /bin/true
bad_usage "-I i" i stat --emulate -I i -e instructions -- /bin/true
bad_usage "-I 1.5i" 1.5i stat --emulate -I 1.5i -e instructions -- /bin/true
bad_usage "-I Ni with --set" 1000i stat --emulate --set instructions \
	--set branches --switch overflow:instructions:2 -I 1000i -- /bin/true

require_emu

total() { # EVENT CSV: the plain run's count
	awk -F, -v e="$1" '$3 == e { print $1; f = 1 } END { if (!f) print "none" }' "$2"
}
# EVENT CSV: "position count" of each interval of EVENT
ivals() { awk -F, -v e="$1" '$4 == e { print $1 + 0, $2 }' "$2"; }
sum_of() { awk '{ s += $2 } END { print s + 0 }'; }

# The plain totals of a command: T (instructions), B (branches).
plain() {
	run_pmu "$TMP/o" "$TMP/plain" stat --emulate -x, -e instructions,branches -- "$@"
	T=$(total instructions "$TMP/plain")
	B=$(total branches "$TMP/plain")
}

# Every interval of N instructions but the last, positions N, 2N, ..., T.
check_ivals() { # LABEL N CSV
	local label=$1 n=$2 f=$3
	local want=$(( (T + n - 1) / n ))
	ivals instructions "$f" >"$TMP/iv"
	expect_eq "$label: ceil($T/$n) interval lines" "$(wc -l <"$TMP/iv")" "$want"
	expect_eq "$label: each of N instructions, the last of the rest, at their ends" \
		"$(awk -v n="$n" -v t="$T" -v k="$want" '{
			i++; c = i < k ? n : t - (k - 1) * n
			p = i < k ? i * n : t
			if ($2 != c || $1 != p) { print "interval " i ": " $0; bad = 1 }
		} END { if (!bad) print "ok" }' "$TMP/iv")" ok
	expect_eq "$label: instructions add up to the plain total" "$(sum_of <"$TMP/iv")" "$T"
	expect_eq "$label: branches add up to the plain total" \
		"$(ivals branches "$f" | sum_of)" "$B"
}

L=$WORK/loops
plain "$L" 1
check "loops: a total to cut ($T)" [ "$T" -gt 300000 ]
N=100000
run_pmu "$TMP/o" "$TMP/i1" stat --emulate -I ${N}i -x, -e instructions,branches -- "$L" 1
expect_eq "-I ${N}i: exit 0" "$RC" 0
check_ivals "-I ${N}i" $N "$TMP/i1"
run_pmu "$TMP/o" "$TMP/i2" stat --emulate -I ${N}i -x, -e instructions,branches -- "$L" 1
check "-I ${N}i: two runs print the same bytes" cmp -s "$TMP/i1" "$TMP/i2"

# N dividing T: no tail; N one short of T: a tail of one instruction.
run_pmu "$TMP/o" "$TMP/i1" stat --emulate -I ${T}i -x, -e instructions,branches -- "$L" 1
check_ivals "-I Ti" "$T" "$TMP/i1"
run_pmu "$TMP/o" "$TMP/i1" stat --emulate -I $((T - 1))i -x, -e instructions,branches -- "$L" 1
check_ivals "-I (T-1)i" $((T - 1)) "$TMP/i1"

# Text (the default events) and JSON: the same figures, nothing of the
# wall clock.
run_pmu "$TMP/o" "$TMP/t1" stat --emulate -I ${N}i -- "$L" 1
run_pmu "$TMP/o" "$TMP/t2" stat --emulate -I ${N}i -- "$L" 1
expect_match "text: the header names the instructions column" "$TMP/t1" '^#   instructions +counts unit events'
check "text: two runs print the same bytes" cmp -s "$TMP/t1" "$TMP/t2"
expect_eq "text: the instructions rows" \
	"$(awk '$3 == "instructions" { printf "%s,%s ", $1, $2 }' "$TMP/t1")" \
	"$(awk -F, '$4 == "instructions" { printf "%d,%s ", $1, $2 }' "$TMP/i2")"
run_pmu "$TMP/o" "$TMP/j" stat --emulate -j -I ${N}i -e instructions -- "$L" 1
expect_eq "--json: the intervals at their instruction counts" \
	"$(sed -n 's/^{"interval" : \([0-9]*\), "counter-value" : "\([0-9]*\)\..*/\1 \2/p' "$TMP/j" | tr '\n' ' ')" \
	"$(ivals instructions "$TMP/i2" | tr '\n' ' ')"

# --interval-count: the first intervals only.
run_pmu "$TMP/o" "$TMP/c" stat --emulate -I ${N}i --interval-count 2 -x, -e instructions -- "$L" 1
expect_eq "--interval-count 2" "$(ivals instructions "$TMP/c" | tr '\n' ' ')" "$N $N $((2 * N)) $N "

# fork + exec: each process's intervals from its own start, summed; the
# totals as the plain run's, the same bytes every run.
F=$WORK/forkexec
plain "$F"
N=250000
run_pmu "$TMP/o" "$TMP/f1" stat --emulate -I ${N}i -x, -e instructions,branches -- "$F"
expect_eq "forkexec: exit 0" "$RC" 0
expect_eq "forkexec: instructions add up to the plain total" \
	"$(ivals instructions "$TMP/f1" | sum_of)" "$T"
expect_eq "forkexec: branches add up to the plain total" \
	"$(ivals branches "$TMP/f1" | sum_of)" "$B"
expect_eq "forkexec: the last position is the total" \
	"$(ivals instructions "$TMP/f1" | tail -1 | cut -d' ' -f1)" "$T"
check "forkexec: more than one interval" [ "$(ivals instructions "$TMP/f1" | wc -l)" -gt 1 ]
run_pmu "$TMP/o" "$TMP/f2" stat --emulate -I ${N}i -x, -e instructions,branches -- "$F"
check "forkexec: two runs print the same bytes" cmp -s "$TMP/f1" "$TMP/f2"

done_testing
