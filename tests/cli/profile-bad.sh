#!/usr/bin/env bash
# Bad and odd inputs of pmu report / pmu script: each gets a clear
# message naming the file or field, a non-zero exit for a file that is
# not a profile, partial results where there are some, never a crash.
. "$(dirname "$0")/lib.sh"
require_perf
W=$PMU_BUILD/tests/workload
C=$(dirname "$0")/profile_check.py
[ -x "$W" ] || { echo "1..0 # SKIP $W not built"; exit 77; }

"$PMU" record -q -o "$TMP/w.data" -- "$W" 0.2 >/dev/null 2>&1
check "a good profile to spoil" test -s "$TMP/w.data"
size=$(stat -c %s "$TMP/w.data")

run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/nonexistent.data"
expect_eq "missing file: exit 1" "$RC" 1
expect_match "missing file: named" "$TMP/e" 'nonexistent\.data.*No such file'

: >"$TMP/empty.data"
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/empty.data"
expect_eq "empty file: exit 1" "$RC" 1
expect_match "empty file: said" "$TMP/e" 'empty\.data: empty file'

head -c 4096 /dev/urandom >"$TMP/junk.data"
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/junk.data"
expect_eq "not a perf.data file: exit 1" "$RC" 1
expect_match "not a perf.data file: the magic is named" "$TMP/e" 'magic.*not a perf.data file'

head -c 60 "$TMP/w.data" >"$TMP/hdr.data"
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/hdr.data"
expect_eq "cut inside the header: exit 1" "$RC" 1
expect_match "cut inside the header: said" "$TMP/e" 'header'

head -c $((size * 2 / 3)) "$TMP/w.data" >"$TMP/cut.data"
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/cut.data" --sort sym --no-children
expect_eq "truncated data: partial report, exit 0" "$RC" 0
expect_match "truncated data: said" "$TMP/e" 'cut short'
expect_match "truncated data: the samples that are there" "$TMP/o" '%  \[\.\] hot_main'
run_pmu "$TMP/o" "$TMP/e" script -i "$TMP/cut.data"
expect_eq "truncated data: script exit 0" "$RC" 0

python3 "$C" inject "$TMP/w.data" "$TMP/inj.data"
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/inj.data" --sort sym --no-children
expect_eq "unknown record type and feature: exit 0" "$RC" 0
expect_match "unknown records: counted" "$TMP/e" '1 records of types pmu does not know'
"$PMU" report -i "$TMP/w.data" --sort sym --no-children >"$TMP/good.txt" 2>/dev/null
check "unknown record and feature: same report as before" \
	python3 "$C" compare "$TMP/good.txt" "$TMP/o" 0.01 0

python3 "$C" swap "$TMP/w.data" "$TMP/be.data"
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/be.data" --sort sym --no-children
expect_eq "foreign byte order: exit 0" "$RC" 0
check "foreign byte order: same report" python3 "$C" compare "$TMP/good.txt" "$TMP/o" 0.01 0

# a missing DSO, a stripped binary: addresses instead of names, and why
mkdir -p "$TMP/bin"
cp "$W" "$PMU_BUILD/tests/libpmuwork.so" "$TMP/bin/"
"$PMU" record -q -o "$TMP/gone.data" -- "$TMP/bin/workload" 0.2 >/dev/null 2>&1
rm "$TMP/bin/workload"
# perf keeps copies of what it recorded under ~/.debug: not this one
HOME=$TMP run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/gone.data" --sort dso,sym --no-children
expect_eq "missing DSO: exit 0" "$RC" 0
expect_match "missing DSO: named, and why" "$TMP/e" 'bin/workload: no such file'
expect_match "missing DSO: its samples by address" "$TMP/o" '%  workload +\[\.\] 0x[0-9a-f]{16}'
expect_match "missing DSO: the library still resolves" "$TMP/o" '\[\.\] hot_lib'
cp "$W" "$TMP/bin/workload"
strip "$TMP/bin/workload"
"$PMU" record -q -o "$TMP/strip.data" -- "$TMP/bin/workload" 0.2 >/dev/null 2>&1
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/strip.data" --sort dso,sym --no-children
expect_eq "stripped binary: exit 0" "$RC" 0
expect_match "stripped binary: said" "$TMP/e" 'bin/workload: no symbols \(stripped'
expect_match "stripped binary: exported symbols still resolve" "$TMP/o" '\[\.\] hot_lib'

# a profile of nothing: the command ran too briefly for a sample
"$PMU" record -q -c 1000000000000 -o "$TMP/none.data" -- true >/dev/null 2>&1
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/none.data"
expect_eq "no samples: exit 0" "$RC" 0
expect_match "no samples: said" "$TMP/e" 'no samples'
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/none.data" --flamegraph "$TMP/none.svg"
check "no samples: an empty flame graph is still well formed" python3 "$C" svg "$TMP/none.svg"

run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/w.data" --sort bogus
expect_eq "bad sort key: exit 2" "$RC" 2
expect_match "bad sort key: named" "$TMP/e" "'bogus' is not a sort key"
run_pmu "$TMP/o" "$TMP/e" script -i "$TMP/w.data" -F comm,nope
expect_eq "bad script field: exit 2" "$RC" 2
expect_match "bad script field: named" "$TMP/e" "'nope' is not a field"
for v in 0 -3 x 2.5 1e9; do
	run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/w.data" --max-stack "$v"
	expect_eq "--max-stack $v: exit 2" "$RC" 2
	expect_match "--max-stack $v: the option and the value named" "$TMP/e" "--max-stack: '$v'"
done
run_pmu "$TMP/o" "$TMP/e" script -i "$TMP/w.data" --max-stack 1
expect_eq "script --max-stack 1: read" "$RC" 0
run_pmu "$TMP/o" "$TMP/e" record -F 0 -- true
expect_eq "record -F 0: exit 2" "$RC" 2
run_pmu "$TMP/o" "$TMP/e" record -e no-such-event -o "$TMP/x.data" -- true
expect_eq "record unknown event: exit 1" "$RC" 1
expect_match "record unknown event: named" "$TMP/e" 'no-such-event'
run_pmu "$TMP/o" "$TMP/e" record -o "$TMP/x.data" -- /nonexistent/cmd
expect_eq "record a missing command: 127" "$RC" 127
# an export never writes over the profile it reads (the default input
# perf.data, a link to it, a diff's files), and a failed export leaves
# what its file held
cp "$TMP/w.data" "$TMP/keep.data"
for x in --flamegraph --pprof --firefox; do
	(cd "$TMP" && cp w.data perf.data && "$PMU" report $x perf.data) >"$TMP/o" 2>"$TMP/e"
	expect_eq "report $x perf.data (its own input): a usage error" "$?" 2
	check "report $x perf.data: the profile is intact" cmp -s "$TMP/perf.data" "$TMP/keep.data"
	expect_match "report $x perf.data: says why" "$TMP/e" "profile being read"
done
ln -sf w.data "$TMP/link.svg"
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/w.data" --flamegraph "$TMP/link.svg"
expect_eq "an export onto a link to its input: a usage error" "$RC" 2
check "the linked profile is intact" cmp -s "$TMP/w.data" "$TMP/keep.data"
run_pmu "$TMP/o" "$TMP/e" report --diff "$TMP/w.data" "$TMP/keep.data" --flamegraph "$TMP/keep.data"
expect_eq "a diff's export onto one of its files: a usage error" "$RC" 2
check "the diff's file is intact" cmp -s "$TMP/w.data" "$TMP/keep.data"
echo "an earlier export" >"$TMP/old.svg"
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/w.data" -s nonsense --flamegraph "$TMP/old.svg"
expect_eq "a failed export: exit 2" "$RC" 2
expect_eq "a failed export leaves the file as it was" "$(cat "$TMP/old.svg")" "an earlier export"
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/w.data" --flamegraph "$TMP/old.svg"
expect_eq "a good export replaces it: exit 0" "$RC" 0
expect_match "a good export replaces it" "$TMP/old.svg" '<svg'
expect_eq "no temporary file left beside it" "$(ls -A "$TMP" | grep -c '^\.old\.svg\.')" 0
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/w.data" --pprof /dev/null
expect_eq "an export to a device is written in place" "$RC" 0

# a recording that cannot be written (no space left) stops its command
# and reaps it, as perf does, rather than leave it running unwatched
SPIN=$PMU_BUILD/tests/spin
if [ -c /dev/full ] && ! (echo x >/dev/full) 2>/dev/null && [ -x "$SPIN" ]; then
	run_pmu "$TMP/o" "$TMP/e" record -e cpu-clock -o /dev/full -- "$SPIN" spin 4321
	expect_eq "record to a full device: exit 1" "$RC" 1
	expect_match "record to a full device: says so, naming it" "$TMP/e" '/dev/full: No space left'
	check "record to a full device: the command is not left running" \
		test -z "$(pgrep -f "$SPIN spin 4321")"
	pkill -f "$SPIN spin 4321"
	check "record to a full device: the device is still there" test -c /dev/full
	run_pmu "$TMP/o" "$TMP/e" record -q -e cpu-clock -o /dev/null -- true
	expect_eq "record to /dev/null: written in place, exit 0" "$RC" 0
	check "/dev/null is still a device" test -c /dev/null
else
	skip "record to a full device: no /dev/full or spin"
fi

run_pmu "$TMP/o" "$TMP/e" record -m 3 -- true
expect_eq "record -m not a power of two: exit 2" "$RC" 2
run_pmu "$TMP/o" "$TMP/e" record
expect_eq "record without a target: exit 2" "$RC" 2
done_testing
