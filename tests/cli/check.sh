#!/bin/bash
# pmu check: verdicts, JSON output, exit codes, errors naming the field.
. "$(dirname "$0")/lib.sh"

cat >"$TMP/p6-ok.json" <<'J'
{ "tsc_on": 1, "nractrs": 2, "pmc_map": [0, 1],
  "evntsel": ["0x004100C0", "0x000100C0"] }
J
# PMC1 with the enable bit: perfctr says EPERM (only EVNTSEL0 has EN)
cat >"$TMP/p6-bad.json" <<'J'
{ "nractrs": 2, "pmc_map": [0, 1], "evntsel": ["0x004100C0", "0x004100C0"] }
J
cat >"$TMP/unknown.json" <<'J'
{ "nractrs": 1, "evntsel": [1], "pmcmap": [0] }
J
cat >"$TMP/range.json" <<'J'
{ "nractrs": 1, "evntsel": [1, 4294967296] }
J
printf '{ "nractrs": 1,\n  "evntsel": [1,, 2] }' >"$TMP/syntax.json"

run_pmu "$TMP/out" "$TMP/err" check --model p6 "$TMP/p6-ok.json"
expect_eq "accepted control exits 0" "$RC" 0
# cstatus = TSC bit 31 | (2 counters << 8) | 2 a-mode counters
expect_eq "text verdict" "$(cat "$TMP/out")" "ok cstatus=0x80000202"

run_pmu "$TMP/out" "$TMP/err" check --model p6 --json "$TMP/p6-ok.json"
expect_eq "accepted JSON exits 0" "$RC" 0
check "accepted JSON is valid" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d == {"ok": True, "cstatus": "0x80000202"}, d' "$TMP/out"

run_pmu "$TMP/out" "$TMP/err" check --model p6 "$TMP/p6-bad.json"
expect_eq "rejected control exits 1" "$RC" 1
expect_match "text rejection names errno and rule" "$TMP/out" \
	'^pmu check: rejected: EPERM \(p6\.enable_bit_other\): .*counter 1'

run_pmu "$TMP/out" "$TMP/err" check --json --model p6 "$TMP/p6-bad.json"
expect_eq "rejected JSON exits 1" "$RC" 1
check "rejected JSON fields" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ok"] is False and d["errno"] == "EPERM", d
assert d["rule"] == "p6.enable_bit_other" and d["counter"] == 1, d
assert isinstance(d["message"], str) and d["message"], d' "$TMP/out"

# the same control is fine on K7, where every evntsel carries EN
run_pmu "$TMP/out" "$TMP/err" check --model k7 "$TMP/p6-bad.json"
expect_eq "same control on k7 accepted" "$RC" 0

run_pmu "$TMP/out" "$TMP/err" check --model p6 "$TMP/unknown.json"
expect_eq "unknown field exits 1" "$RC" 1
expect_match "unknown field is named" "$TMP/err" "field 'pmcmap'.*unknown field"
expect_match "file is named" "$TMP/err" "unknown\.json"

run_pmu "$TMP/out" "$TMP/err" check --model p6 "$TMP/range.json"
expect_eq "out-of-range value exits 1" "$RC" 1
expect_match "field and index named" "$TMP/err" "evntsel\[1\].*32-bit"

run_pmu "$TMP/out" "$TMP/err" check --model p6 "$TMP/syntax.json"
expect_eq "syntax error exits 1" "$RC" 1
expect_match "syntax error has a position" "$TMP/err" "line 2, column"

run_pmu "$TMP/out" "$TMP/err" check --model p6 "$TMP/missing.json"
expect_eq "missing file exits 1" "$RC" 1
expect_match "missing file named" "$TMP/err" "missing\.json"

run_pmu "$TMP/out" "$TMP/err" check --model pentium9 "$TMP/p6-ok.json"
expect_eq "unknown model exits 1" "$RC" 1
expect_match "unknown model lists models" "$TMP/err" "^ +xscale2 "

run_pmu "$TMP/out" "$TMP/err" check "$TMP/p6-ok.json"
expect_eq "missing --model is a usage error" "$RC" 2
run_pmu "$TMP/out" "$TMP/err" check --model p6
expect_eq "missing file argument is a usage error" "$RC" 2
run_pmu "$TMP/out" "$TMP/err" check --model p6 --frobnicate "$TMP/p6-ok.json"
expect_eq "unknown option is a usage error" "$RC" 2
run_pmu "$TMP/out" "$TMP/err" check --help
expect_eq "--help exits 0" "$RC" 0
expect_match "--help shows usage" "$TMP/out" "^usage: pmu check"

# Every example of docs/control-format.md gives the verdict it documents
# (the verdicts there are worked out from perfctr's rules, row by row).
DOC="$(dirname "$0")/../../docs/control-format.md"
if [ -r "$DOC" ] && command -v python3 >/dev/null 2>&1; then
	python3 - "$DOC" >"$TMP/rows" <<'P'
import re, sys
for line in open(sys.argv[1]):
    m = re.match(r"^\| `([a-z0-9]+)` \| `(\{.*\})` \| `([^`]*)` \|$", line)
    if m:
        print("\t".join(m.groups()))
P
	n=0
	while IFS="$(printf '\t')" read -r model ctl verdict; do
		n=$((n + 1))
		printf '%s' "$ctl" >"$TMP/doc.json"
		run_pmu "$TMP/out" "$TMP/err" check --model "$model" "$TMP/doc.json"
		case $verdict in
		ok*) expect_eq "doc example $n ($model): $verdict" "$(cat "$TMP/out")" "$verdict" ;;
		*) expect_eq "doc example $n ($model): $verdict" \
			"$(sed -n 's/^pmu check: rejected: \([A-Z]* ([a-z0-9_.]*)\).*/\1/p' "$TMP/out")" "$verdict" ;;
		esac
	done <"$TMP/rows"
	check "docs/control-format.md has at least 20 examples ($n)" [ "$n" -ge 20 ]
else
	skip "docs/control-format.md examples (no docs or python3)"
fi

done_testing
