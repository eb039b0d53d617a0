#!/usr/bin/env bash
# pmu sim --scenario: every scenario in tests/scenarios holds (each
# states the rule it checks and derives its expectations from its own
# parameters), a wrong expectation fails, malformed scenarios are
# refused naming the line and the token, usage errors exit 2.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)

for f in "$root"/tests/scenarios/*.scn; do
	name=$(basename "$f" .scn)
	run_pmu "$TMP/out" "$TMP/err" sim --scenario "$f"
	if [ "$RC" = 0 ] && ! grep -qE '^line [0-9]+: expected' "$TMP/out"; then
		ok "scenario $name holds"
	else
		not_ok "scenario $name holds (exit $RC)"
		sed 's/^/#   /' "$TMP/out" "$TMP/err" | head -20
	fi
done

# The same scenario with one expectation changed must fail, saying what
# it expected and what it got.
sed '0,/^expect set 0 runs 4$/s//expect set 0 runs 5/' \
	"$root/tests/scenarios/sets-time.scn" >"$TMP/wrong.scn"
run_pmu "$TMP/out" "$TMP/err" sim --scenario "$TMP/wrong.scn"
expect_eq "a wrong expectation exits 1" "$RC" 1
expect_match "it says what it expected" "$TMP/out" \
	'^line [0-9]+: expected runs 5, got 4$'
expect_match "and counts it" "$TMP/err" '1 expectation did not hold'

# The model may come from the command line.
grep -v '^model' "$root/tests/scenarios/emul64-k8.scn" >"$TMP/nomodel.scn"
run_pmu "$TMP/out" "$TMP/err" sim --scenario "$TMP/nomodel.scn" --model k8
expect_eq "--model gives the scenario its model" "$RC" 0
run_pmu "$TMP/out" "$TMP/err" sim --scenario "$TMP/nomodel.scn"
expect_eq "no model at all is an error" "$RC" 1
expect_match "naming the line" "$TMP/err" 'line [0-9]+, column 1: no model'

bad() { # NAME TEXT ERE
	printf '%b' "$2" >"$TMP/bad.scn"
	run_pmu "$TMP/out" "$TMP/err" sim --scenario "$TMP/bad.scn"
	if [ "$RC" = 1 ] && grep -qE -- "$3" "$TMP/err"; then
		ok "$1"
	else
		not_ok "$1 (exit $RC)"
		sed 's/^/#   /' "$TMP/err"
	fi
}
bad "unknown statement" 'model p6\ncontext\nfrobnicate 3\n' \
	"line 3, column 1: unknown statement 'frobnicate'"
bad "unknown model" 'model p99\n' "line 1, column 7: unknown model 'p99'"
bad "bad register value" 'model p6\ncontext\npmc 0 0xzz\n' \
	"line 3, column 7: bad value '0xzz'"
bad "unknown pmd option" 'model p6\ncontext\npmd 0 0 nofity\n' \
	"line 3, column 9: unknown pmd option 'nofity'"
bad "run without end" 'model p6\ncontext\nrun\nevent 1\n' \
	"line 3: run without its 'end'"
bad "a bad stream names its own line" \
	'model p6\ncontext\nrun\ncycles 1\nevnt 2\nend\n' \
	"the run at line 3: line 2, column 1"
bad "an unexpected failure stops the run" \
	'model p6\ncontext\nstart\nexpect state loaded\n' \
	"line 3: pfm_set_state failed: EINVAL"
bad "an unknown errno name" 'model p6\ncontext\nstart -> EWHAT\n' \
	"unknown errno name"
bad "a statement before the context" 'model p6\npmc 0 0\n' \
	"'pmc' needs a context first"
bad "an expected failure that succeeds" \
	'model p6\ncontext\npmc 0 0 -> EINVAL\n' 'expectation did not hold'
run_pmu "$TMP/out" "$TMP/err" sim --scenario "$TMP/nonexistent.scn"
expect_eq "a missing scenario file exits 1" "$RC" 1
expect_match "naming it" "$TMP/err" 'nonexistent.scn'

run_pmu "$TMP/out" "$TMP/err" sim --scenario "$TMP/bad.scn" --stream x
expect_eq "--scenario with --stream is a usage error" "$RC" 2
run_pmu "$TMP/out" "$TMP/err" sim --help
expect_match "--help names --scenario" "$TMP/out" '--scenario'
done_testing
