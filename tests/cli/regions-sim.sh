#!/usr/bin/env bash
# Regions of a simulated PMU's stream: `region begin NAME` / `region end
# NAME` statements, counted exactly (the simulator counts what the
# stream says); a stream's regions under pmu stat --sim-model --regions.
. "$(dirname "$0")/lib.sh"

# P6: INST_RETIRED is event 0xc0, CPU_CLK_UNHALTED follows `cycles`
cat >"$TMP/s.txt" <<'S'
region begin outer
event 0xc0 100
repeat 3 {
  region begin inner
  event 0xc0 10
  cycles 5
  region end inner
}
region end outer
region begin rec
event 0xc0 1
region begin rec
event 0xc0 2
region end rec
region end rec
region begin left
event 0xc0 7
S

# field REGION EVENT KEY: the total's figure from -j rows
field() {
	awk -v r="\"region\" : \"$1\"" -v e="\"event\" : \"$2\"" -v k="\"$3\" : " '
		index($0, r) && index($0, e) && index($0, "\"threads\"") {
			s = substr($0, index($0, k) + length(k))
			sub(/[,}].*/, "", s); print s; exit }' "$TMP/j"
}

"$PMU" stat --sim-model p6 -e INST_RETIRED,CPU_CLK_UNHALTED --stream "$TMP/s.txt" \
	--regions -j -o "$TMP/j" >"$TMP/o" 2>"$TMP/e"
expect_eq "exit 0" "$?" 0
expect_eq "outer: inclusive INST_RETIRED 130" "$(field outer INST_RETIRED inclusive)" 130.00
expect_eq "outer: exclusive 100 (inner's 30 taken off)" "$(field outer INST_RETIRED exclusive)" 100.00
expect_eq "outer: its cycles all inner's" "$(field outer CPU_CLK_UNHALTED exclusive)" 0.00
expect_eq "inner: 3 calls in a repeat" "$(field inner INST_RETIRED calls)" 3
expect_eq "inner: 30 instructions, 15 cycles" \
	"$(field inner INST_RETIRED inclusive)/$(field inner CPU_CLK_UNHALTED inclusive)" \
	"30.00/15.00"
expect_eq "recursion: 2 calls" "$(field rec INST_RETIRED calls)" 2
expect_eq "recursion: the outer span once (3)" "$(field rec INST_RETIRED inclusive)" 3.00
expect_eq "recursion: exclusive sums every level (3)" "$(field rec INST_RETIRED exclusive)" 3.00
expect_eq "left open: 7, flagged" \
	"$(field left INST_RETIRED inclusive)/$(field left INST_RETIRED open-at-exit)" \
	"7.00/true"
check "the run's counts too: 140 in all" grep -q '"counter-value" : "140' "$TMP/j"

# the same stream without --regions: the statements change nothing
"$PMU" stat --sim-model p6 -e INST_RETIRED --stream "$TMP/s.txt" -x, \
	-o "$TMP/c" >/dev/null 2>&1
expect_eq "without --regions: exit 0" "$?" 0
expect_match "without --regions: 140 counted" "$TMP/c" '^140,'
expect_no_match "without --regions: no region rows" "$TMP/c" '^outer,'
# pmu sim, the perfctr driver's own run: the statements change nothing
printf '{ "tsc_on": 1, "nractrs": 1, "pmc_map": [0], "evntsel": ["0x004300c0"] }\n' \
	>"$TMP/p6.json"
"$PMU" sim --model p6 --control "$TMP/p6.json" --stream "$TMP/s.txt" >"$TMP/o" 2>&1
expect_eq "pmu sim runs such a stream" "$?" 0
expect_match "pmu sim: all 140 counted" "$TMP/o" '^pmc\[0\] +a .* 140$'


# an end that is not the innermost region's stops the stream, naming it
printf 'region begin a\nregion begin b\nregion end a\n' >"$TMP/bad.txt"
"$PMU" stat --sim-model p6 -e INST_RETIRED --stream "$TMP/bad.txt" \
	--regions >"$TMP/o" 2>"$TMP/e"
expect_eq "mismatch: exit 1" "$?" 1
expect_match "mismatch: the line and the region named" "$TMP/e" \
	"line 3: region end a: not the innermost open region"

# malformed statements, named
for bad in "region start x:expected 'begin' or 'end'" \
	   "region begin:region" \
	   "region begin a b:unexpected 'b'"; do
	printf '%s\n' "${bad%%:*}" >"$TMP/m.txt"
	"$PMU" stat --sim-model p6 -e INST_RETIRED --stream "$TMP/m.txt" \
		>"$TMP/o" 2>"$TMP/e"
	expect_eq "'${bad%%:*}': exit 1" "$?" 1
	expect_match "'${bad%%:*}': line 1 named" "$TMP/e" "line 1.*${bad#*:}"
done
printf 'region begin %0130d\n' 0 >"$TMP/m.txt"
"$PMU" stat --sim-model p6 -e INST_RETIRED --stream "$TMP/m.txt" >"$TMP/o" 2>"$TMP/e"
expect_match "a name over 127 bytes refused" "$TMP/e" "at most 127 bytes"

# a stream without regions
printf 'event 0xc0 5\n' >"$TMP/n.txt"
"$PMU" stat --sim-model p6 -e INST_RETIRED --stream "$TMP/n.txt" --regions \
	>"$TMP/o" 2>"$TMP/e"
expect_eq "no region statement: exit 0" "$?" 0
expect_match "no region statement: says so" "$TMP/e" "marks no region"
done_testing
