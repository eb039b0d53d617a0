#!/usr/bin/env bash
# What a command writes must reach its file: a full disk is an error that
# names the file and exits non-zero, never a silent success.
. "$(dirname "$0")/lib.sh"
if ! [ -c /dev/full ] || (echo x >/dev/full) 2>/dev/null; then
	echo "1..0 # SKIP /dev/full does not refuse writes here"
	exit 77
fi

run_pmu "$TMP/o" "$TMP/e" stat -e task-clock -o /dev/full -- true
expect_eq "stat -o /dev/full: exit 1" "$RC" 1
expect_match "stat -o /dev/full: names the file" "$TMP/e" "/dev/full.*No space left"
run_pmu "$TMP/o" "$TMP/e" stat -I 10 -e task-clock -o /dev/full -- sleep 0.05
expect_eq "stat -I -o /dev/full: exit 1" "$RC" 1
"$PMU" serve --print -I 10 -e task-clock >/dev/full 2>"$TMP/e"
expect_eq "serve --print >/dev/full: exit 1" "$?" 1
expect_match "serve --print >/dev/full: says so" "$TMP/e" "standard output.*No space left"
run_pmu "$TMP/o" "$TMP/e" assign -m p6 -o /dev/full INST_RETIRED
expect_eq "assign -o /dev/full: exit 1" "$RC" 1
expect_match "assign -o /dev/full: names the file" "$TMP/e" "/dev/full"
for cmd in "list" "info" "list --json" "encode p6::INST_RETIRED" "info --model p6" "stat --help"; do
	# shellcheck disable=SC2086
	"$PMU" $cmd >/dev/full 2>"$TMP/e"
	rc=$?
	expect_eq "$cmd > /dev/full: exit 1" "$rc" 1
	expect_match "$cmd > /dev/full: says so" "$TMP/e" "standard output.*No space left"
done
check "/dev/full is still a device" test -c /dev/full
done_testing
