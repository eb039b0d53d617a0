#!/usr/bin/env bash
# The man pages render without groff/man warnings.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)

if ! command -v man >/dev/null; then
	echo "1..0 # SKIP man is not installed"
	exit 77
fi
for page in pmu.1 pmu-stat.1 pmu-record.1 pmu-report.1 pmu-script.1 pmu-serve.1; do
	f=$root/docs/$page
	if [ ! -f "$f" ]; then
		not_ok "$page exists"
		continue
	fi
	warn=$(MANWIDTH=80 man --warnings -l "$f" 2>&1 >/dev/null)
	expect_eq "$page renders without warnings" "$warn" ""
	MANWIDTH=80 man -l "$f" 2>/dev/null >"$TMP/$page.txt"
	expect_match "$page has a NAME section" "$TMP/$page.txt" '^NAME'
done
# Every option that pmu stat --help lists is documented in pmu-stat.1.
"$PMU" stat --help >"$TMP/help"
for opt in $(grep -oE '^ +(-[a-zA-Z], )?--[a-z-]+' "$TMP/help" | grep -oE -- '--[a-z-]+'); do
	expect_match "pmu-stat.1 documents $opt" "$TMP/pmu-stat.1.txt" "$opt"
done
# The same for the profiling commands.
for cmd in record report script serve; do
	"$PMU" "$cmd" --help >"$TMP/help"
	for opt in $(grep -oE '^ +(-[a-zA-Z], )?--[a-z-]+' "$TMP/help" | grep -oE -- '--[a-z-]+'); do
		expect_match "pmu-$cmd.1 documents $opt" "$TMP/pmu-$cmd.1.txt" "$opt"
	done
done
done_testing
