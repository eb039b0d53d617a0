#!/usr/bin/env bash
# pmu stat --regions: what a program's markers count, against what the
# kernel counts by itself (getrusage's page faults, printed by the
# workload) and, under the emulator, against callgrind's instruction
# count of the function a region wraps.
. "$(dirname "$0")/lib.sh"
W=$PMU_BUILD/tests/regions
[ -x "$W" ] || { echo "1..0 # SKIP $W not built"; exit 77; }
# pmu makes the directory for the region files here: it must be gone
# after every run
export TMPDIR=$TMP/tmpdir
mkdir -p "$TMPDIR"

# regions MODE...: run the workload under pmu stat --regions, page
# faults and task-clock counted, JSON rows into $TMP/j, its output
# into $TMP/o, pmu's messages into $TMP/e
regions() {
	"$PMU" stat --regions -e page-faults,task-clock -j -o "$TMP/j" \
		-- "$W" "$@" >"$TMP/o" 2>"$TMP/e"
	RC=$?
}

# field REGION EVENT KEY [THREAD]: one figure of the total (or of the
# thread's row) from the JSON rows
field() {
	python3 - "$TMP/j" "$@" <<'EOF'
import json, sys
path, region, event, key = sys.argv[1:5]
thread = int(sys.argv[5]) if len(sys.argv) > 5 else None
for line in open(path, encoding="utf-8"):
    if not line.startswith("{"):
        continue
    d = json.loads(line)
    if "region" not in d or d["region"] != region or d["event"] != event:
        continue
    if (thread is None) == ("thread" in d):
        continue
    if thread is not None and d["thread"] != thread:
        continue
    v = d[key]
    print(int(v) if isinstance(v, float) and v == int(v) else v)
    break
EOF
}

# near A B SLACK: |A - B| <= SLACK
near() { [ -n "$1" ] && [ -n "$2" ] && [ $(( $1 > $2 ? $1 - $2 : $2 - $1 )) -le "$3" ]; }

# --- one region, its page faults as the kernel counts them
regions touch 300
expect_eq "touch: exit 0" "$RC" 0
want=$(sed -n 's/^touch faults //p' "$TMP/o")
got=$(field touch page-faults inclusive)
diag "touch: region page-faults $got, getrusage $want"
check "touch: page faults as getrusage's, within 2" near "$got" "$want" 2
check "touch: at least the 300 pages" test "${got:-0}" -ge 300
expect_eq "touch: one call" "$(field touch page-faults calls)" 1
expect_eq "touch: exclusive = inclusive (no inner region)" \
	"$(field touch page-faults exclusive)" "$got"
expect_match "touch: the workload saw the markers on" "$TMP/o" '^active 1$'
check "touch: the run's own counts printed too" \
	grep -q '"event" : "page-faults"' "$TMP/j"

# --- nesting: exclusive is inclusive less the inner region's
regions nest 100 50
want=$(sed -n 's/^outer faults //p' "$TMP/o")
wanti=$(sed -n 's/^inner faults //p' "$TMP/o")
oi=$(field outer page-faults inclusive)
oe=$(field outer page-faults exclusive)
ii=$(field inner page-faults inclusive)
check "nest: outer inclusive as getrusage's" near "$oi" "$want" 2
check "nest: inner inclusive as getrusage's" near "$ii" "$wanti" 2
expect_eq "nest: outer exclusive + inner inclusive = outer inclusive" \
	"$((oe + ii))" "$oi"
check "nest: outer exclusive as getrusage's outer less inner" \
	near "$oe" "$((want - wanti))" 2
check "nest: outer exclusive at least its own 100 pages" test "${oe:-0}" -ge 100
ot=$(field outer time inclusive)
oet=$(field outer time exclusive)
it=$(field inner time inclusive)
check "nest: outer time exclusive <= inclusive - inner" python3 -c "
import sys; sys.exit(not ($oet <= $ot - $it + 0.011))"

# --- recursion: the outermost call's span counted once inclusively
regions recurse 4 10
expect_eq "recurse: 4 calls" "$(field rec page-faults calls)" 4
ri=$(field rec page-faults inclusive)
re=$(field rec page-faults exclusive)
want=$(sed -n 's/^rec faults //p' "$TMP/o")
check "recurse: inclusive as getrusage's (the 40 pages once, not 100)" \
	near "$ri" "$want" 2
check "recurse: at least 40, less than 100" test "${ri:-0}" -ge 40 -a "${ri:-0}" -lt 100
expect_eq "recurse: exclusive sums to inclusive" "$re" "$ri"

# --- a region open at exit is reported, flagged, with its counts
regions open 20
expect_eq "open: exit 0" "$RC" 0
expect_eq "open: flagged open at exit" \
	"$(field left page-faults open-at-exit)" True
check "open: its pages counted up to the exit" \
	test "$(field left page-faults inclusive)" -ge 20
"$PMU" stat --regions -e page-faults -- "$W" open 20 >/dev/null 2>"$TMP/e"
expect_match "open: the text says so" "$TMP/e" \
	"Region 'left' \\(1 call in 1 thread\\), still open at exit"

# --- an end that does not match
regions mismatch
expect_eq "mismatch: exit 0 (the program's)" "$RC" 0
expect_match "mismatch: the marker returned -EINVAL" "$TMP/o" '^end b: -22$'
expect_match "mismatch: end without begin: -EINVAL" "$TMP/o" '^end none: -22$'
expect_match "mismatch: reported, naming both regions" "$TMP/e" \
	"end of region 'b' while 'a' is the innermost open one"
expect_match "mismatch: an end of nothing reported" "$TMP/e" \
	"end of region 'none', which is not open"
expect_eq "mismatch: region a still counted once" \
	"$(field a page-faults calls)" 1

# --- many threads
regions threads 64 1000
expect_eq "threads: exit 0" "$RC" 0
expect_eq "threads: 64000 calls in all" "$(field t page-faults calls)" 64000
expect_eq "threads: 64 threads" "$(field t page-faults threads)" 64
check "threads: one row per thread, 1000 calls each, faults as its getrusage" python3 -c '
import json, re, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
rows = [r for r in rows if r.get("region") == "t" and "thread" in r
        and r["event"] == "page-faults"]
want = dict(map(int, m) for m in
            re.findall(r"^thread (\d+) faults (\d+)$", open(sys.argv[2]).read(), re.M))
assert len(rows) == 64, len(rows)
assert {r["thread"] for r in rows} == set(want), (len(want), rows[:1])
assert all(r["calls"] == 1000 for r in rows), rows[:2]
bad = [(r["inclusive"], want[r["thread"]]) for r in rows
       if abs(r["inclusive"] - want[r["thread"]]) > 4 or r["inclusive"] < 1000]
assert not bad, bad
' "$TMP/j" "$TMP/o"

# --- fork inside a region: the child's part in a file of its own
regions fork 30 70
expect_eq "fork: exit 0" "$RC" 0
check "fork: two processes, the child's pages in the child's row" python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
rows = [r for r in rows if r.get("region") == "forked" and "pid" in r
        and r["event"] == "page-faults"]
assert len(rows) == 2, rows
assert rows[0]["pid"] != rows[1]["pid"]
assert sorted(r["inclusive"] >= 30 for r in rows) == [True, True]
assert max(r["inclusive"] for r in rows) >= 70, rows
' "$TMP/j"

# --- exec inside a region: what the old image flushed, then the new one's
regions exec 40 30
expect_eq "exec: exit 0" "$RC" 0
expect_eq "exec: the old image's region, flagged open" \
	"$(field pre-exec page-faults open-at-exit)" True
check "exec: its pages counted up to the flush" \
	test "$(field pre-exec page-faults inclusive)" -ge 40
expect_eq "exec: the new image's region too" "$(field touch page-faults calls)" 1
check "exec: both images' rows of one process" python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
pids = {r["pid"] for r in rows if "pid" in r and r.get("region") in ("pre-exec", "touch")}
assert len(pids) == 1, pids
' "$TMP/j"

# --- names: any bytes go through, one line per row in -x
regions names
check "names: JSON names read back (127 bytes kept, bytes not UTF-8 as U+FFFD)" python3 -c '
import json, sys
names = {json.loads(l).get("region") for l in open(sys.argv[1], encoding="utf-8")
         if l.startswith("{")}
want = {"tab\there", "new\nline", "100%", "caf\u00e9", "a,b;c \"quoted\"",
        "bad\ufffd", "x" * 127}
assert want <= names, names
' "$TMP/j"
"$PMU" stat --regions -e page-faults -x, -o "$TMP/c" -- "$W" names >/dev/null 2>&1
check "names: -x rows keep their fields (9 each)" awk -F, '
	$1 ~ /%/ || $2 == "all" { if (NF != 9) bad = 1; n++ }
	END { exit bad || n < 12 }' "$TMP/c"
expect_match "names: the separator and control bytes escaped in -x" \
	"$TMP/c" '^tab%09here,all,all,1,'
expect_match "names: a comma escaped" "$TMP/c" '^a%2Cb;c "quoted",all,'

# --- names given in one buffer that changes between markers
regions buffer
expect_eq "buffer: exit 0 (every marker matched)" "$RC" 0
expect_eq "buffer: x once" "$(field x page-faults calls)" 1
expect_eq "buffer: y once" "$(field y page-faults calls)" 1
expect_no_match "buffer: no mismatch reported" "$TMP/e" "end of region"

# --- many distinct names: each its own region, found again by name
regions many 5000
expect_eq "many: exit 0" "$RC" 0
check "many: 5000 regions, 2 calls each, in the order first entered" python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
tot = [r for r in rows if r.get("event") == "page-faults" and "threads" in r
       and r.get("region", "").startswith("m")]
assert len(tot) == 5000, len(tot)
assert [r["region"] for r in tot] == ["m%d" % i for i in range(5000)], tot[:3]
assert all(r["calls"] == 2 for r in tot)
' "$TMP/j"

# --- no region marked, bad names
regions none
expect_eq "none: exit 0" "$RC" 0
expect_match "none: says no region was written, and why that may be" "$TMP/e" "wrote no regions: it marked none.*or ended before"
check "none: the counts are printed anyway" grep -q page-faults "$TMP/j"
regions killed
expect_eq "killed: the command's status (128 + 9)" "$RC" 137
expect_match "killed: no regions written, and why that may be" "$TMP/e" \
	"wrote no regions: .*ended before it could write them"
regions empty
expect_match "empty: begin(\"\") and begin(NULL) are -EINVAL" "$TMP/o" \
	'^empty -22 null -22$'

# --- outside pmu the markers do nothing
(cd "$TMP" && env -u PMU_REGIONS "$W" touch 5 >"$TMP/o2")
expect_match "outside pmu: markers off" "$TMP/o2" '^active 0$'
check "outside pmu: no file written" test -z "$(ls "$TMP" | grep regions)"

# --- -M: the metrics' events counted for the regions too, each
# region's metric printed (without a hardware PMU, not supported)
PMU_EVENTS_MODEL=amdzen4 "$PMU" stat --regions -M frontend_bound \
	-e page-faults -j -o "$TMP/j" -- "$W" touch 5 >"$TMP/o" 2>"$TMP/e"
expect_eq "-M: exit 0" "$?" 0
check "-M: the region's metric line" grep -q \
	'"region" : "touch", "metric" : "frontend_bound"' "$TMP/j"
expect_eq "-M: page-faults still counted in the region" \
	"$(field touch page-faults calls)" 1

# --- usage errors
run_pmu "$TMP/o" "$TMP/e" stat --regions -a
expect_eq "usage: --regions without a command: exit 2" "$RC" 2
expect_match "usage: says a command is needed" "$TMP/e" "give one after --"
run_pmu "$TMP/o" "$TMP/e" stat --regions -r 3 -- true
expect_eq "usage: --regions -r: exit 2" "$RC" 2
expect_match "usage: names -r" "$TMP/e" "\-\-regions and -r cannot"
run_pmu "$TMP/o" "$TMP/e" stat --regions --set task-clock -- true
expect_eq "usage: --regions --set: exit 2" "$RC" 2
run_pmu "$TMP/o" "$TMP/e" stat --help
expect_match "usage: --help lists --regions" "$TMP/o" "--regions"
check "no region directory left behind" test -z "$(ls -A "$TMPDIR")"

# --- under the emulator: exact instructions of the wrapped function
# (a sanitized workload does not run under valgrind)
if "$PMU" stat --emulate -e instructions -- true >/dev/null 2>&1 &&
	command -v valgrind >/dev/null &&
	valgrind --tool=none "$W" none >/dev/null 2>&1; then
	emu_func() {
		"$PMU" stat --emulate --regions -e instructions -j -o "$TMP/j" \
			-- "$W" func "$1" >/dev/null 2>&1
		field func instructions inclusive
	}
	cg_func() {
		valgrind --tool=callgrind --toggle-collect=work \
			--callgrind-out-file="$TMP/cg" "$W" func "$1" \
			>/dev/null 2>&1
		sed -n 's/^summary: //p' "$TMP/cg"
	}
	e1=$(emu_func 1000); e2=$(emu_func 3000)
	c1=$(cg_func 1000); c2=$(cg_func 3000)
	diag "emulated region: $e1, $e2; callgrind's work(): $c1, $c2"
	expect_eq "emulate: 2000 more iterations, as many more instructions as callgrind counts" \
		"$((e2 - e1))" "$((c2 - c1))"
	check "emulate: the markers' own instructions in the region are few" \
		test "$((e1 - c1))" -ge 0 -a "$((e1 - c1))" -le 2000
else
	skip "emulate: no emulator (valgrind) here, or a sanitized workload"
	skip "emulate: no emulator (valgrind) here, or a sanitized workload"
fi

done_testing
