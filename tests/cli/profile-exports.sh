#!/usr/bin/env bash
# Exports of one recording of the workload:
#  - folded stacks add up to the report's total period;
#  - the SVG flame graph is well formed, its frames' values and widths
#    add up within their parents, titles carry counts, the root is the
#    total; rendered once in headless Chromium (skipped without it),
#    whose script must have run (data-ready) and drawn a picture;
#  - pprof: go tool pprof (skipped without it) reads the file and its
#    flat shares match pmu report's (+- 0.1);
#  - the Firefox Profiler JSON has consistent tables;
#  - --diff: the function whose share grew is shown growing.
. "$(dirname "$0")/lib.sh"
require_perf
W=$PMU_BUILD/tests/workload
C=$(dirname "$0")/profile_check.py
[ -x "$W" ] || { echo "1..0 # SKIP $W not built"; exit 77; }

"$PMU" record -q -g -o "$TMP/w.data" -- "$W" 0.4 >/dev/null 2>"$TMP/rec.err"
check "record" test -s "$TMP/w.data"
"$PMU" report -i "$TMP/w.data" --json --no-children >"$TMP/r.json"
total=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['total_period'])" "$TMP/r.json")

run_pmu "$TMP/f.txt" "$TMP/f.err" report -i "$TMP/w.data" --folded
sum=$(awk '{ s += $NF } END { printf "%d", s }' "$TMP/f.txt")
expect_eq "folded stacks add up to the total period" "$sum" "$total"
expect_match "folded lines start with the command" "$TMP/f.txt" '^workload;'

run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/w.data" --flamegraph "$TMP/fg.svg" --title "pmu test"
expect_eq "flame graph written" "$RC" 0
if python3 "$C" svg "$TMP/fg.svg" >"$TMP/svg.txt"; then ok "flame graph structure"
else not_ok "flame graph structure"; sed 's/^/#   /' "$TMP/svg.txt" | head; fi
expect_eq "flame graph root is the total" "$(sed -n 's/^root //p' "$TMP/svg.txt")" "$total"
expect_match "flame graph has the title" "$TMP/fg.svg" '>pmu test</text>'
expect_match "flame graph names hot_lib with its DSO" "$TMP/fg.svg" '<title>hot_lib \[libpmuwork\.so\] \('

browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
	skip "flame graph renders in a browser (no chromium installed)"
else
	prof=$(mktemp -d)
	flags=(--headless --no-sandbox --disable-gpu --disable-background-networking
	       --disable-component-update --disable-sync --no-first-run
	       --user-data-dir="$prof")
	timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$TMP/fg.svg" >"$TMP/dom.txt" 2>/dev/null
	expect_match "the flame graph's script ran in the browser" "$TMP/dom.txt" 'data-ready="1"'
	timeout 120 "$browser" "${flags[@]}" --screenshot="$TMP/fg.png" --window-size=1220,600 \
		"file://$TMP/fg.svg" >/dev/null 2>&1
	check "the browser drew the flame graph" test -s "$TMP/fg.png"
	rm -rf "$prof"
fi

run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/w.data" --pprof "$TMP/w.pb.gz"
expect_eq "pprof written" "$RC" 0
check "pprof file is gzip" python3 -c "import gzip,sys; gzip.open(sys.argv[1]).read()" "$TMP/w.pb.gz"
if command -v go >/dev/null && go tool pprof -h >/dev/null 2>&1; then
	HOME=$TMP go tool pprof -top -nodecount=200 "$TMP/w.pb.gz" >"$TMP/pp.txt" 2>"$TMP/pp.err"
	expect_eq "go tool pprof reads it" "$?" 0
	expect_match "pprof sees the inlined function" "$TMP/pp.txt" 'hot_inline \(inline\)'
	# one frame per address, as pmu report's rows count them
	"$PMU" report -i "$TMP/w.data" --no-inline --pprof "$TMP/w1.pb.gz"
	HOME=$TMP go tool pprof -top -nodecount=200 "$TMP/w1.pb.gz" >"$TMP/pp.txt" 2>"$TMP/pp.err"
	"$PMU" report -i "$TMP/w.data" --stdio --sort sym --no-children -g none --no-inline >"$TMP/rep.txt"
	python3 - "$TMP/pp.txt" "$TMP/rep.txt" >"$TMP/ppc.txt" <<'PY'
import re, sys
flat = {}
for line in open(sys.argv[1]):
    m = re.match(r'\s*\S+\s+(\d+\.\d+)%\s+\S+%\s+\S+\s+\S+%\s+(\S+)', line)
    if m:
        flat[m.group(2)] = float(m.group(1))
bad = 0
for line in open(sys.argv[2]):
    m = re.match(r'\s+(\d+\.\d+)%\s+\[.\] (\S+)$', line)
    if m and float(m.group(1)) >= 1:
        got = flat.get(m.group(2))
        if got is None or abs(got - float(m.group(1))) > 0.1:
            print('%s: pmu %s pprof %s' % (m.group(2), m.group(1), got)); bad += 1
print('bad', bad)
PY
	expect_match "pprof's flat shares match pmu report" "$TMP/ppc.txt" '^bad 0$'
	# what pprof needs to symbolize and disassemble from the files
	# themselves: mappings with their ranges, offsets and build-ids;
	# the period, duration and time; the threads as labels
	HOME=$TMP go tool pprof -raw "$TMP/w.pb.gz" >"$TMP/raw.txt" 2>&1
	wbid=$(readelf -n "$W" | sed -n 's/.*Build ID: //p')
	expect_match "pprof: the program's mapping, range, offset, path, build-id" "$TMP/raw.txt" \
		"^1: 0x[0-9a-f]+/0x[0-9a-f]+/0x[0-9a-f]+ $(readlink -f "$W") $wbid "
	expect_match "pprof: the period" "$TMP/raw.txt" '^Period: [1-9][0-9]*$'
	expect_match "pprof: the duration" "$TMP/raw.txt" '^Duration: [0-9]'
	expect_match "pprof: the time of the recording, this year" "$TMP/raw.txt" "^Time: $(date -u +%Y)-"
	expect_match "pprof: pid and tid labels" "$TMP/raw.txt" 'pid:\[[0-9]+\] tid:\[[0-9]+\]'
	expect_match "pprof: the command as a label" "$TMP/raw.txt" 'comm:\[workload\]'
	HOME=$TMP go tool pprof -tags "$TMP/w.pb.gz" >"$TMP/tags.txt" 2>&1
	expect_match "pprof -tags: the threads" "$TMP/tags.txt" '^ *tid: Total'
	# -disasm from the file the mapping names (Go's pprof translates no
	# addresses of position-independent files: a program at fixed ones)
	if command -v g++ >/dev/null &&
	   g++ -O2 -g -no-pie -o "$TMP/inl" "$(dirname "$0")/../workload/inlines.cpp" 2>/dev/null; then
		"$PMU" record -q -e cpu-clock:u -o "$TMP/inl.data" -- "$TMP/inl" 50 >/dev/null 2>&1
		"$PMU" report -i "$TMP/inl.data" --pprof "$TMP/inl.pb.gz"
		HOME=$TMP go tool pprof -disasm=main "$TMP/inl.pb.gz" >"$TMP/dis.txt" 2>&1
		expect_match "pprof -disasm: the sampled function's instructions, with their time" \
			"$TMP/dis.txt" '^ +[0-9.]+m?s +[0-9.]+m?s +[0-9a-f]+: '
	else
		skip "pprof -disasm (no g++)"
	fi
else
	skip "go tool pprof reads it (no go installed)"
	skip "pprof's flat shares match pmu report (no go installed)"
fi

run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/w.data" --firefox "$TMP/ff.json"
expect_eq "Firefox profile written" "$RC" 0
if python3 "$C" firefox "$TMP/ff.json" >"$TMP/ff.txt"; then ok "Firefox profile tables"
else not_ok "Firefox profile tables"; sed 's/^/#   /' "$TMP/ff.txt" | head; fi
nsamp=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['samples'])" "$TMP/r.json")
expect_match "Firefox profile has every sample" "$TMP/ff.txt" "samples $nsamp\$"

"$PMU" record -q -o "$TMP/b.data" -- "$W" 0.4 20 70 10 >/dev/null 2>&1
run_pmu "$TMP/d.txt" "$TMP/d.err" report --diff "$TMP/w.data" "$TMP/b.data" --sort sym
expect_eq "diff report" "$RC" 0
# Each file's own report gives the shares the diff must set side by
# side and subtract (the workload's split moves a few points when the
# machine is busy; the arithmetic must not).
share() { # FILE SYMBOL: its self share in pmu report, without the %
	"$PMU" report -i "$1" --stdio --no-children --sort sym 2>/dev/null |
		awk -v s="$2" '$NF == s { sub(/%/, "", $1); print $1; exit }'
}
for sym in hot_lib hot_main; do
	a=$(share "$TMP/w.data" $sym) b=$(share "$TMP/b.data" $sym)
	line=$(awk -v s=$sym '$NF == s' "$TMP/d.txt")
	check "diff $sym: overhead $b%, baseline $a%, delta their difference ($line)" \
		awk -v a="${a:-x}" -v b="${b:-x}" -v l="$line" 'BEGIN {
			split(l, f, " "); gsub(/%/, "", f[1]); gsub(/%/, "", f[2]); gsub(/%/, "", f[3])
			d = f[3] - (b - a); if (d < 0) d = -d
			exit !(a != "x" && f[1] == b && f[2] == a && d <= 0.015) }'
done
expect_match "hot_lib grows (30% to 70% of the work)" "$TMP/d.txt" '\+ *([2-5][0-9])\.[0-9]+%  \[\.\] hot_lib'
expect_match "hot_main shrinks (60% to 20% of the work)" "$TMP/d.txt" '-([2-5][0-9])\.[0-9]+%  \[\.\] hot_main'
run_pmu "$TMP/o" "$TMP/e" report --diff "$TMP/w.data" "$TMP/b.data" --flamegraph "$TMP/d.svg"
check "differential flame graph structure" python3 "$C" svg "$TMP/d.svg"
expect_match "differential flame graph shows the base share" "$TMP/d.svg" 'base [0-9.]+%'
done_testing
