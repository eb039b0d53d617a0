#!/usr/bin/env bash
# pmu stat: every input and usage error names the culprit and the fix.
. "$(dirname "$0")/lib.sh"
SPIN=$PMU_BUILD/tests/spin
O=$TMP/out E=$TMP/err

# usage_case NAME EXPECTED-STATUS MESSAGE-REGEX ARGS...
error_case() {
	local name=$1 want=$2 re=$3; shift 3
	run_pmu "$O" "$E" "$@"
	expect_eq "$name: exit $want" "$RC" "$want"
	expect_match "$name: message" "$E" "$re"
}

# Unknown event: message with a suggestion, the input, a caret under it.
run_pmu "$O" "$E" stat -e task-clock,cyclez -- "$SPIN" exit 0
expect_eq "unknown event: exit 1" "$RC" 1
expect_match "unknown event: named, with a suggestion" "$E" "^pmu: .*cyclez.*cycles"
expect_match "unknown event: input echoed" "$E" '^  -e task-clock,cyclez$'
# the caret sits under the 'c' of cyclez: same column in both lines
col_in=$(awk '/^  -e /{print index($0, "cyclez")}' "$E")
col_caret=$(awk '/^ *\^/{print index($0, "^")}' "$E")
expect_eq "unknown event: caret under the token" "${col_caret:-none}" "${col_in:-x}"
check "unknown event: command not run" test ! -s "$O"

error_case "empty event list" 1 '^pmu: ' stat -e '' -- "$SPIN" exit 0
error_case "unknown option" 2 "unknown option '--frobnicate'" stat --frobnicate -- true
error_case "unknown short option" 2 "unknown option '-Q'" stat -Q true
error_case "missing value" 2 "'-e' needs a value" stat -e
error_case "missing value in a bundle" 2 "option '-e' needs a value" stat -ae
error_case "missing value of a long option" 2 "option '--event' needs a value" stat --event
error_case "value for a flag" 2 "option '--json' takes no value" stat --json=1 -- true
error_case "unknown option in a bundle" 2 "unknown option '-Q' in '-aQ'" stat -aQ true
error_case "-I 0" 2 "bad -I value '0'.*>= 1" stat -I 0 -e task-clock -- true
error_case "-I x" 2 "bad -I value 'x'" stat -I x -- true
error_case "-r 0" 2 "bad -r value '0'.*>= 1" stat -r 0 -- true
error_case "-r x" 2 "bad -r value 'x'" stat -r x -- true
error_case "-C 99999" 2 "CPU 99999 .*does not exist" stat -a -C 99999 -- true
error_case "-C 1-0" 2 "bad CPU range" stat -C 1-0 -- true
error_case "-C a" 2 "bad CPU list 'a'" stat -C a -- true
error_case "-C 0x3" 2 "bad CPU list '0x3' for -C at 'x3'" stat -C 0x3 -- true
error_case "-C 1-" 2 "bad CPU range in -C '1-'" stat -C 1- -- true
error_case "-C 0," 2 "bad CPU list '0,' for -C: trailing ','" stat -C 0, -- true
error_case "-C ''" 2 "empty CPU list for -C" stat -C '' -- true
error_case "-p with -a" 2 "cannot be combined" stat -p 1 -a
error_case "-p abc" 2 "bad -p value 'abc'" stat -p abc
error_case "-x with -j" 2 "choose one" stat -x, -j -- true
error_case "no command, no target" 2 "nothing to count" stat -e task-clock
error_case "-r without command" 2 "repeats a COMMAND" stat -r 2 -a
# pid_max is at most 2^22: this pid cannot exist
error_case "no such pid" 1 "no such process" stat -e task-clock -p 4194304
error_case "-o into a missing directory" 1 "cannot write -o '$TMP/no/such'" stat -o "$TMP/no/such" -e task-clock -- true
error_case "not a pmu command" 2 "'frob' is not a pmu command" frob
# An empty command name is named as such, not printed as "pmu: : ...".
error_case "empty command" 2 "the command is an empty string" stat -e task-clock -- ""
expect_no_match "empty command: no empty name in a message" "$E" '^pmu: :'
# Numbers too large are out of range, not "not a number".
error_case "-I too large" 2 "bad -I value '99999999999999999999': out of range" \
	stat -I 99999999999999999999 -- true
error_case "-r too large" 2 "bad -r value '9999999': out of range" stat -r 9999999 -- true
error_case "-p too large" 2 "bad -p value '99999999999' in '99999999999': out of range" \
	stat -p 99999999999
error_case "a term value too large" 1 "out of range \\(more than 64 bits\\)" \
	stat -e 'msr/config=99999999999999999999999/' -- true
error_case "an IBS period too large" 1 "out of range" encode 'zen4::ibs_op:maxcnt=99999999999999999999'

# A perf name of other CPUs' tables: the error says which models have it
# (the model pinned: Zen 4's has no Intel CHA uncore, nor Intel's core
# events)
PMU_CPUID=AuthenticAMD-25-11-0 run_pmu "$O" "$E" stat -a -e unc_cha_tor_inserts.ia_miss -- true
expect_eq "another CPU's uncore event: exit 1, as any unknown event" "$RC" 1
expect_match "another CPU's uncore event: the models that have it" "$E" \
	"unknown event 'unc_cha_tor_inserts.ia_miss' on this CPU: it is an event of [a-z].* \(pmu list --model M"
PMU_CPUID=AuthenticAMD-25-11-0 run_pmu "$O" "$E" stat -e inst_retired.any -- true
expect_match "another CPU's core event: the models that have it" "$E" \
	"'inst_retired.any' on this CPU: it is an event of .*and [0-9]+ more"
PMU_CPUID=AuthenticAMD-25-11-0 run_pmu "$O" "$E" stat -e no_such.thing -- true
expect_no_match "a name of no model: no models named" "$E" 'it is an event of'
done_testing
