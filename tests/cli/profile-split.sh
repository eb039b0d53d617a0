#!/usr/bin/env bash
# pmu record + pmu report on the bundled workload, whose three hot
# spots spin 60/30/10 units of the same work: the report's split is
# within 3 points of the workload's own parameters, and frame-pointer
# call chains give each hot spot its known callers (run_main -> hot_main
# with hot_inline inlined in it, run_lib -> hot_lib in libpmuwork.so,
# run_rec -> hot_rec six deep).
. "$(dirname "$0")/lib.sh"
require_perf
W=$PMU_BUILD/tests/workload
[ -x "$W" ] || { echo "1..0 # SKIP $W not built"; exit 77; }

run_pmu "$TMP/rec.out" "$TMP/rec.err" record -g -o "$TMP/w.data" -- "$W" 0.5 60 30 10
expect_eq "record exits as the command" "$RC" 0
expect_match "record says what it wrote" "$TMP/rec.err" 'Captured and wrote .* \([0-9]+ samples\)'

run_pmu "$TMP/rep.json" "$TMP/rep.err" report -i "$TMP/w.data" --json --sort sym --no-children
expect_eq "report exits 0" "$RC" 0
share() { # sym: percentage of the three hot spots' samples
	python3 - "$TMP/rep.json" "$1" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))['rows']
hot = {r['sym']: r['period'] for r in rows
       if r['sym'] in ('[.] hot_main', '[.] hot_lib', '[.] hot_rec')}
print('%.2f' % (100.0 * hot.get('[.] ' + sys.argv[2], 0) / max(1, sum(hot.values()))))
PY
}
within() { python3 -c "import sys; sys.exit(abs($1 - $2) > $3)"; }
for spec in hot_main:60 hot_lib:30 hot_rec:10; do
	s=${spec%%:*} want=${spec#*:}
	got=$(share "$s")
	if within "$got" "$want" 3; then ok "$s: $got% (want $want +- 3)"
	else not_ok "$s: $got% (want $want +- 3)"; fi
done

# the split follows the parameters, not the names
run_pmu "$TMP/rec2.out" "$TMP/rec2.err" record -q -o "$TMP/w2.data" -- "$W" 0.5 20 20 60
run_pmu "$TMP/rep.json" "$TMP/rep.err" report -i "$TMP/w2.data" --json --sort sym --no-children
got=$(share hot_rec)
if within "$got" 60 3; then ok "hot_rec with 20/20/60: $got%"; else not_ok "hot_rec with 20/20/60: $got%"; fi

# callers from frame-pointer chains (folded stacks: root first)
run_pmu "$TMP/f.txt" "$TMP/f.err" report -i "$TMP/w.data" --folded
expect_match "hot_main called from run_main from main" "$TMP/f.txt" ';main;run_main;hot_main( |;)'
expect_match "hot_inline inlined in hot_main" "$TMP/f.txt" ';run_main;hot_main;hot_inline '
expect_match "hot_lib (shared library) called from run_lib" "$TMP/f.txt" ';main;run_lib;hot_lib( |;)'
expect_match "hot_rec recursive, six deep under run_rec" "$TMP/f.txt" ';run_rec;hot_rec;hot_rec;hot_rec;hot_rec;hot_rec;hot_rec '

# the same callers from DWARF call-frame information: registers and a
# copy of the user stack with each sample, unwound by libdwfl
run_pmu "$TMP/d.out" "$TMP/d.err" record --call-graph dwarf -o "$TMP/d.data" -- "$W" 0.3
expect_eq "record --call-graph dwarf" "$RC" 0
run_pmu "$TMP/fd.txt" "$TMP/fd.err" report -i "$TMP/d.data" --folded
expect_match "dwarf: hot_main (hot_inline inlined) from run_main from main" "$TMP/fd.txt" ';main;run_main;hot_main;hot_inline '
expect_match "dwarf: hot_lib from run_lib" "$TMP/fd.txt" ';main;run_lib;hot_lib '
expect_match "dwarf: hot_rec six deep under run_rec" "$TMP/fd.txt" ';main;run_rec;hot_rec;hot_rec;hot_rec;hot_rec;hot_rec;hot_rec '
expect_match "dwarf: unwound down to the program's entry" "$TMP/fd.txt" '^workload;_start;'
run_pmu "$TMP/rep.json" "$TMP/rep.err" report -i "$TMP/d.data" --json --sort sym --no-children
for spec in hot_main:60 hot_lib:30 hot_rec:10; do
	s=${spec%%:*} want=${spec#*:}
	got=$(share "$s")
	if within "$got" "$want" 3; then ok "dwarf: $s: $got% (want $want +- 3)"
	else not_ok "dwarf: $s: $got% (want $want +- 3)"; fi
done

run_pmu "$TMP/s.txt" "$TMP/s.err" script -i "$TMP/w.data" -F sym,dso,srcline
expect_match "the shared library is named as the DSO" "$TMP/s.txt" 'hot_lib \(.*/libpmuwork\.so\)'
expect_match "inlined frame with its source line" "$TMP/s.txt" 'hot_inline \(inlined\)'
expect_match "source lines from DWARF" "$TMP/s.txt" 'workload\.c:[0-9]+'

# srcline sort: the inlined helper's loop line carries hot_main's time
run_pmu "$TMP/l.txt" "$TMP/l.err" report -i "$TMP/w.data" --sort srcline --no-children -g none
expect_match "srcline rows" "$TMP/l.txt" '%  workload\.c:[0-9]+'

# children: main covers (nearly) everything, run_lib at least hot_lib,
# but for samples in hot_lib's prologue before it sets its frame
# pointer (up to and on its "mov %rsp,%rbp"): there the frame pointer
# is still run_lib's caller's, so the chain skips run_lib (for perf as
# for pmu)
run_pmu "$TMP/c.json" "$TMP/c.err" report -i "$TMP/w.data" --json --sort sym --children
lib=$(grep -o '/[^ )]*libpmuwork\.so' "$TMP/s.txt" | head -1)
setfp=$(objdump -d --no-show-raw-insn "$lib" 2>/dev/null | awk '
	/<hot_lib>:/ { f = 1; next }
	f && /mov +%rsp,%rbp/ { sub(/:.*/, ""); print $1; exit }')
start=$(objdump -d "$lib" 2>/dev/null | awk '/<hot_lib>:/ { print $1; exit }')
limit=$(( ${setfp:+0x$setfp - 0x$start} + 0 ))
"$PMU" script -i "$TMP/w.data" -F sym,symoff 2>/dev/null |
	awk -v lim="$limit" '
	function hex(s,   v, i) {
		v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	BEGIN { RS = "" }
	{ n++; split($0, l, "\n")
	  if (match(l[1], /\thot_lib\+0x[0-9a-f]+$/) &&
	      hex(substr(l[1], RSTART + 11)) <= lim) e++ }
	END { printf "%.4f\n", n ? 100 * e / n : 0 }' >"$TMP/entry.pct"
python3 - "$TMP/c.json" "$(cat "$TMP/entry.pct")" >"$TMP/c.chk" <<'PY'
import json, sys
r = {x['sym']: x for x in json.load(open(sys.argv[1]))['rows']}
entry = float(sys.argv[2])
print('main', r['[.] main']['children'])
print('ok' if r['[.] run_lib']['children'] >= r['[.] hot_lib']['overhead'] - entry - 0.01 else 'bad')
PY
expect_match "main's children share above 95%" "$TMP/c.chk" '^main (9[5-9]|100)\.'
expect_match "a caller's children share covers its callee" "$TMP/c.chk" '^ok$'
sed "s/^/# entries in the prologue: /" "$TMP/entry.pct"
done_testing
