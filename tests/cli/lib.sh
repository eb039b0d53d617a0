# Shared helpers for CLI tests: TAP output, assertions, temp dirs.
# Sourced by tests/cli/*.sh; $PMU is the pmu binary under test, $PMU_BUILD
# its build directory, $PMU_SHARED the shared reference directory.
set -u
: "${PMU:?PMU must name the pmu binary}"
: "${PMU_BUILD:=$(dirname "$PMU")}"
TAP_N=0
TAP_FAILED=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ok()     { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - $*"; }
not_ok() { TAP_N=$((TAP_N + 1)); TAP_FAILED=1; echo "not ok $TAP_N - $*"; }
skip()   { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - $* # SKIP"; }
diag()   { echo "# $*"; }

# check NAME CONDITION-COMMAND...: ok if the command succeeds.
check() { local name=$1; shift; if "$@"; then ok "$name"; else not_ok "$name"; fi; }

# expect_eq NAME ACTUAL EXPECTED
expect_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1"; diag "expected '$3', got '$2'"; fi
}

# expect_match NAME FILE REGEX: file contains a line matching the ERE.
expect_match() {
	if grep -qE -- "$3" "$2"; then ok "$1"; else not_ok "$1"; diag "no line matches /$3/ in:"; sed 's/^/#   /' "$2" | head -20; fi
}

expect_no_match() {
	if ! grep -qE -- "$3" "$2"; then ok "$1"; else not_ok "$1"; diag "unexpected /$3/ in:"; sed 's/^/#   /' "$2" | head -20; fi
}

# run_pmu OUT ERR ARGS...: runs pmu, stores exit status in $RC.
run_pmu() { local out=$1 err=$2; shift 2; "$PMU" "$@" >"$out" 2>"$err"; RC=$?; }

# require_perf: skip the whole script (exit 77) unless perf can count here.
require_perf() {
	if ! command -v perf >/dev/null || ! perf stat -e task-clock true >/dev/null 2>&1; then
		echo "1..0 # SKIP perf missing or unusable"
		exit 77
	fi
}

done_testing() { echo "1..$TAP_N"; exit $TAP_FAILED; }
