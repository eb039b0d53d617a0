#!/usr/bin/env bash
# Names that are not UTF-8: a program is whatever bytes its file is
# called, and so is its command name.  Every export pmu writes must
# still be read by strict readers: Python's json (report --json,
# --firefox), a proto3 reader's UTF-8 check (pprof's string table),
# an XML parser (the flame graph).  Bytes that are not UTF-8 become
# U+FFFD; control characters never reach the files.
. "$(dirname "$0")/lib.sh"
W=$PMU_BUILD/tests/workload
[ -x "$W" ] || { echo "1..0 # SKIP $W not built"; exit 77; }

# a copy of the workload named "w", 0xff, "x", 0x01, "y"
bad="$TMP/w"$'\xff'x$'\x01'y
cp "$W" "$bad"
cp "$PMU_BUILD/tests/libpmuwork.so" "$TMP/" 2>/dev/null
run_pmu "$TMP/o" "$TMP/e" record -q -o "$TMP/u.data" -- "$bad" 0.2
expect_eq "record of a program with such a name: exit 0" "$RC" 0

run_pmu "$TMP/u.json" "$TMP/e" report -i "$TMP/u.data" --json
expect_eq "report --json: exit 0" "$RC" 0
check "report --json: Python's json reads it, the name with U+FFFD" python3 -c '
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
text = json.dumps(d, ensure_ascii=False)
assert "w\ufffdx" in text, text[:400]
assert "\x01" not in text
' "$TMP/u.json"

run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/u.data" --firefox "$TMP/u.ff.json"
expect_eq "report --firefox: exit 0" "$RC" 0
check "report --firefox: Python's json reads it, the name with U+FFFD" python3 -c '
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert "w\ufffdx" in json.dumps(d, ensure_ascii=False)
' "$TMP/u.ff.json"

run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/u.data" --pprof "$TMP/u.pb.gz"
expect_eq "report --pprof: exit 0" "$RC" 0
# proto3: every string of the table (field 6) must be UTF-8
check "report --pprof: every string of the table is UTF-8, the path with U+FFFD" python3 -c '
import gzip, sys
b = gzip.open(sys.argv[1]).read()
def varint(i):
    v = s = 0
    while True:
        c = b[i]; i += 1; v |= (c & 0x7f) << s; s += 7
        if c < 0x80: return v, i
i, found = 0, False
while i < len(b):
    key, i = varint(i)
    f, wt = key >> 3, key & 7
    if wt == 0: _, i = varint(i)
    elif wt == 2:
        n, i = varint(i)
        if f == 6:
            t = b[i:i + n].decode("utf-8")      # raises if not UTF-8
            found |= "w\ufffdx" in t
        i += n
    elif wt == 1: i += 8
    elif wt == 5: i += 4
    else: raise SystemExit("wire type %d" % wt)
assert found
' "$TMP/u.pb.gz"

run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/u.data" --flamegraph "$TMP/u.svg"
expect_eq "report --flamegraph: exit 0" "$RC" 0
check "report --flamegraph: an XML parser reads it" python3 -c '
import sys, xml.etree.ElementTree as ET
ET.parse(sys.argv[1])
assert "w\ufffdx" in open(sys.argv[1], encoding="utf-8").read()
' "$TMP/u.svg"

done_testing
