#!/usr/bin/env bash
# What this PMU lacks fails as perf fails on the same machine: events the
# kernel refuses read <not supported>, a group larger than the counters
# is never counted, and a term the PMU does not declare is an error that
# names it.
. "$(dirname "$0")/lib.sh"
require_hw

W=("$HWLOOP" loop 1000)
P=$TMP/p F=$TMP/f
# kind FILE EVENT: the value field with digits masked (<not supported>,
# <not counted> or empty for a number)
kind() { csv "$1" "$2" | tr -d 0-9; }

# generic events the PMU cannot count (QEMU implements few)
E=branch-misses,cache-misses,L1-dcache-load-misses,stalled-cycles-frontend,bus-cycles,ref-cycles,dTLB-load-misses
pmu_run stat -x, -o "$P" -e "$E" -- "${W[@]}" >/dev/null 2>"$TMP/perr"; rc=$?
"$PERF" stat -x, -o "$F" -e "$E" -- "${W[@]}" >/dev/null 2>&1; frc=$?
expect_eq "events the PMU lacks: exit status as perf's" "$rc" "$frc"
for ev in ${E//,/ }; do
	expect_eq "$ev reads as perf's ($(kind "$F" "$ev"))" "$(kind "$P" "$ev")" "$(kind "$F" "$ev")"
done

# a group that needs more counters than there are: nothing of it counts
G="{cycles,instructions,$RAW_INST,$RAW_CYC,$RAW_INST,$RAW_CYC,$RAW_INST,$RAW_CYC}"
ncnt=0
pmu_run stat -x, -o "$P" -e "$G" -- "${W[@]}" >/dev/null 2>"$TMP/perr"
"$PERF" stat -x, -o "$F" -e "$G" -- "${W[@]}" >/dev/null 2>&1
if [ "$(awk -F, 'NF > 4 && $1 ~ /^[0-9]+$/' "$F" | grep -c .)" != 0 ]; then
	skip "a group of 8 fits this PMU's counters: perf counts it"
else
	expect_eq "group of 8: no member counts, as in perf" \
		"$(awk -F, 'NF > 4 && $1 ~ /^[0-9]+$/' "$P" | grep -c .)" 0
	expect_eq "group of 8: the rows read as perf's" \
		"$(awk -F, 'NF > 4 { print $1 }' "$P" | tr -d 0-9 | tr '\n' ' ')" \
		"$(awk -F, 'NF > 4 { print $1 }' "$F" | tr -d 0-9 | tr '\n' ' ')"
	expect_match "group of 8: pmu says the group does not fit the counters" "$TMP/perr" "group"
fi

# a term the PMU does not have: an error naming the term and the PMU
run_pmu "$P" "$TMP/perr" stat -e "$CORE/bogus/" -- "${W[@]}"
check "$CORE/bogus/: exit status 1 (got $RC)" test "$RC" = 1
expect_match "$CORE/bogus/: the term is named" "$TMP/perr" "'bogus'"
expect_match "$CORE/bogus/: the PMU's terms are listed" "$TMP/perr" "event"
"$PERF" stat -e "$CORE/bogus/" -- "${W[@]}" >/dev/null 2>"$TMP/ferr"
expect_match "$CORE/bogus/: perf also refuses it" "$TMP/ferr" "bogus"

# an event name neither perf nor pmu knows
run_pmu "$P" "$TMP/perr" stat -e no_such_event_here -- "${W[@]}"
check "no_such_event_here: exit status 1 (got $RC)" test "$RC" = 1
expect_match "no_such_event_here: named" "$TMP/perr" "no_such_event_here"

done_testing
