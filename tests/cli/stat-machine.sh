#!/usr/bin/env bash
# -x and --json carry data only: with the default set on any machine,
# exactly perf's rows (<not supported> ones included) and no prose; the
# text table keeps its one line of explanation.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/perfcmp.sh"
SPIN=$PMU_BUILD/tests/spin

require_perf

both -x, -- "$SPIN" pages 10
expect_eq "-x, default set: exit 0" "$PMU_RC" 0
same_output "-x, default set: perf's rows, in perf's order" csv_shape
bad=$(awk -F, 'NF != 7' "$TMP/pmu" | wc -l)
expect_eq "-x, default set: every line is a 7-field row" "$bad" 0

both -j -- "$SPIN" pages 10
same_output "--json default set: perf's objects, in perf's order" json_shape
check "--json default set: every line parses as JSON" python3 -c '
import json, sys
for l in open(sys.argv[1]): json.loads(l)' "$TMP/pmu"

"$PMU" stat -- "$SPIN" pages 10 >/dev/null 2>"$TMP/text"
if grep -q '<not supported>' "$TMP/perf"; then
	expect_match "text: the explanation stays" "$TMP/text" '^pmu: hardware counters not shown'
	expect_no_match "text: no <not supported> rows" "$TMP/text" 'not supported>'
else
	expect_no_match "text: nothing to explain on a machine with a PMU" "$TMP/text" 'not shown'
fi

done_testing
