#!/usr/bin/env bash
# An unprivileged user where kernel.perf_event_paranoid is 2 (Debian's
# default): perf counts user space only, naming the events :u; pmu
# does the same, says so in one line, and refuses what perf refuses.
# perf, run as the same user, is the oracle.
. "$(dirname "$0")/lib.sh"
require_perf

par=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null || [ "${par:-0}" -lt 2 ]; then
	echo "# skipped: needs root (to become another user), setpriv and perf_event_paranoid >= 2 (it is ${par:-unknown})"
	exit 77
fi

# a directory and a pmu the other user can reach
ND=$(mktemp -d /tmp/pmu-unpriv-XXXXXX)
trap 'rm -rf "$TMP" "$ND"' EXIT
chmod 755 "$ND"
cp "$PMU" "$ND/pmu"
mkdir "$ND/w" && chmod 777 "$ND/w"
as_nobody() { (cd "$ND/w" && setpriv --reuid=65534 --regid=65534 --clear-groups "$@"); }

# stat: the same rows under the same names as perf's
as_nobody perf stat -x, -e 'task-clock,{page-faults,cs}' -- true >/dev/null 2>"$TMP/perf"
prc=$?
as_nobody "$ND/pmu" stat -x, -e 'task-clock,{page-faults,cs}' -- true >/dev/null 2>"$TMP/pmu"
rc=$?
expect_eq "stat: exit as perf's" "$rc" "$prc"
expect_eq "stat -x: the events perf names" \
	"$(grep -v '^pmu:' "$TMP/pmu" | cut -d, -f3 | tr '\n' ' ')" \
	"$(cut -d, -f3 "$TMP/perf" | tr '\n' ' ')"
expect_eq "stat: the fallback said in one line" \
	"$(grep -c 'perf_event_paranoid=2: counting user space only' "$TMP/pmu")" 1

# the default events too
as_nobody "$ND/pmu" stat -- true >/dev/null 2>"$TMP/pmu"
expect_eq "stat with default events: exit 0" "$?" 0
expect_match "stat with default events: task-clock:u" "$TMP/pmu" '^ +[0-9.]+ msec task-clock:u '

# kernel mode asked for explicitly: refused, as perf refuses it
as_nobody perf stat -e page-faults:k -- true >/dev/null 2>&1
prc=$?
as_nobody "$ND/pmu" stat -e page-faults:k -- true >/dev/null 2>"$TMP/pmu"
rc=$?
check "stat -e page-faults:k: perf refuses it ($prc)" test "$prc" -ne 0
expect_eq "stat -e page-faults:k: pmu too" "$rc" 1
expect_match "stat -e page-faults:k: names the event and the setting" "$TMP/pmu" \
	"page-faults:k.*perf_event_paranoid <= 1"

# record: the file says what was counted, in perf's words
as_nobody "$ND/pmu" record -o "$ND/w/u.data" -- true >/dev/null 2>"$TMP/pmu"
expect_eq "record: exit 0" "$?" 0
expect_eq "record: the fallback said in one line" \
	"$(grep -c 'counting user space only' "$TMP/pmu")" 1
as_nobody perf evlist -v -i "$ND/w/u.data" >"$TMP/evl" 2>&1
expect_match "record: perf reads the event as cpu-clock:u" "$TMP/evl" '^cpu-clock:u:'
expect_match "record: perf reads its attr as user-only" "$TMP/evl" 'exclude_kernel: 1.*exclude_hv: 1|exclude_hv: 1.*exclude_kernel: 1'

done_testing
