#!/usr/bin/env bash
# pmu stat started from an unusual signal environment.
. "$(dirname "$0")/lib.sh"
SPIN=$PMU_BUILD/tests/spin
O=$TMP/out E=$TMP/err

if ! command -v timeout >/dev/null; then
	echo "1..0 # SKIP timeout(1) missing"
	exit 77
fi

# Some daemons and job runners start their children with SIGCHLD ignored;
# the kernel then reaps pmu's command itself and sends no SIGCHLD.  pmu
# must still notice the end of the command, report it and its counts.
# (The limit only catches a hang; it is far above any normal run.)
timeout 20 bash -c 'trap "" CHLD; exec "$@"' sh \
	"$PMU" stat -x, -e page-faults -- "$SPIN" pages 100 exit 3 >"$O" 2>"$E"
RC=$?
check "SIGCHLD ignored by the caller: pmu does not hang (rc $RC)" test "$RC" -ne 124
expect_eq "SIGCHLD ignored: exit status is the command's" "$RC" 3
pf=$(awk -F, '$3 == "page-faults" {print $1}' "$E")
check "SIGCHLD ignored: page-faults counted (got ${pf:-none})" test "${pf:-0}" -ge 100

# The command must not inherit "SIGCHLD ignored" from pmu's set-up either:
# it gets the default disposition, as under perf.
timeout 20 bash -c 'trap "" CHLD; exec "$@"' sh \
	"$PMU" stat -e task-clock -- grep SigIgn /proc/self/status >"$O" 2>"$E"
ign=$(awk '{print $2}' "$O")
check "the command starts with SIGCHLD not ignored (SigIgn ${ign:-none})" \
	test -n "$ign" -a $(( 0x${ign:-0} >> 16 & 1 )) -eq 0

done_testing
