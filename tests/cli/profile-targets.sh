#!/usr/bin/env bash
# pmu record on other targets and with options: an existing process
# (-p, stops when it exits), system-wide (-a, stops on SIGINT),
# --switch-output (SIGUSR2 closes one file and starts the next); and
# pmu report's filters (--comm, --dso, --tid, --percent-limit).
. "$(dirname "$0")/lib.sh"
require_perf
W=$PMU_BUILD/tests/workload
[ -x "$W" ] || { echo "1..0 # SKIP $W not built"; exit 77; }

"$W" 0.6 >/dev/null &
wpid=$!
sleep 0.1
run_pmu "$TMP/p.out" "$TMP/p.err" record -p "$wpid" -o "$TMP/p.data"
expect_eq "record -p ends with the process" "$RC" 0
wait "$wpid"
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/p.data" --sort comm,sym --no-children
expect_match "record -p: the process's hot spot, named (maps from /proc)" "$TMP/o" '%  workload +\[\.\] hot_main'
perf script -i "$TMP/p.data" >/dev/null 2>"$TMP/ps.err"
check "record -p: perf script reads it without a word" test ! -s "$TMP/ps.err"

"$PMU" record -a -o "$TMP/a.data" >/dev/null 2>"$TMP/a.err" &
rec=$!
sleep 0.3
"$W" 0.3 >/dev/null
kill -INT "$rec"
wait "$rec"
expect_eq "record -a stops on SIGINT" "$?" 0
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/a.data" --sort comm,sym --no-children
expect_match "record -a: sees the workload among everything" "$TMP/o" '%  workload +\[\.\] hot_main'
perf report -i "$TMP/a.data" --stdio --sort comm --no-children >"$TMP/pa.txt" 2>/dev/null
expect_match "record -a: perf report reads it" "$TMP/pa.txt" '%  workload'

# -a with a command: system-wide while it runs (perf's idiom), its exit
# status pmu's
run_pmu "$TMP/o" "$TMP/e" record -a -g -o "$TMP/ac.data" -- sh -c "\"$W\" 0.3 >/dev/null; exit 3"
expect_eq "record -a -- command: ends with it, its exit status" "$RC" 3
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/ac.data" --sort comm,sym --no-children
expect_match "record -a -- command: the command's hot spot among everything" "$TMP/o" '%  workload +\[\.\] hot_main'
perf report -i "$TMP/ac.data" --stdio --sort comm --no-children >"$TMP/pa.txt" 2>/dev/null
expect_match "record -a -- command: perf report reads it" "$TMP/pa.txt" '%  workload'
run_pmu "$TMP/o" "$TMP/e" record -p $$ -o "$TMP/x.data" -- true
expect_eq "record -p with a command: a usage error" "$RC" 2

"$PMU" record --switch-output -o "$TMP/s.data" -- "$W" 1 >/dev/null 2>"$TMP/s.err" &
rec=$!
sleep 0.5
kill -USR2 "$rec"
wait "$rec"
expect_eq "switch-output: the command's status" "$?" 0
first=$(ls "$TMP"/s.data.* 2>/dev/null | head -1)
check "switch-output: the first file was closed under a timestamped name" test -n "$first"
n1=$("$PMU" script -i "$first" -F tid 2>/dev/null | grep -c .)
n2=$("$PMU" script -i "$TMP/s.data" -F tid 2>/dev/null | grep -c .)
total=$(sed -n 's/.*(\([0-9]*\) samples).*/\1/p' "$TMP/s.err")
expect_eq "switch-output: the two files hold every sample written" "$((n1 + n2))" "$total"
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/s.data" --sort sym --no-children
expect_match "switch-output: the second file resolves on its own" "$TMP/o" '\[\.\] hot_lib'
perf script -i "$first" >/dev/null 2>"$TMP/ps.err"
check "switch-output: perf reads the first file" test ! -s "$TMP/ps.err"

# dumps of the same second (or hundredth) never overwrite each other:
# as many files as dumps said, every sample in one of them
mkdir "$TMP/sw"
"$PMU" record --switch-output -o "$TMP/sw/m.data" -- "$W" 1 >/dev/null 2>"$TMP/m.err" &
rec=$!
sleep 0.3
for i in 1 2 3 4 5; do kill -USR2 "$rec"; sleep 0.05; done
wait "$rec"
dumps=$(grep -c 'dump data' "$TMP/m.err")
files=$(ls "$TMP"/sw/m.data.* 2>/dev/null | grep -c .)
check "switch-output: dumps of one second ($dumps) are $files files" test "$dumps" -ge 1 -a "$dumps" = "$files"
n=0
for f in "$TMP"/sw/m.data*; do
	n=$((n + $("$PMU" script -i "$f" -F tid 2>/dev/null | grep -c .)))
done
total=$(sed -n 's/.*(\([0-9]*\) samples).*/\1/p' "$TMP/m.err")
expect_eq "switch-output: the dumps and the last file hold every sample" "$n" "$total"
expect_match "switch-output: dump names carry hundredths" "$TMP/m.err" 'm\.data\.[0-9]{16}'

# a recording that never starts (a command that does not exist) leaves
# the previous file as it was; one that does keeps it as FILE.old; the
# new one is readable by its owner only (it names every process it saw)
echo "earlier recording" >"$TMP/keep.data"
run_pmu "$TMP/o" "$TMP/e" record -o "$TMP/keep.data" -- "$TMP/no-such-command"
expect_eq "record of a missing command: exit 127" "$RC" 127
expect_eq "record of a missing command: the old file untouched" "$(cat "$TMP/keep.data")" "earlier recording"
check "record of a missing command: no FILE.old" test ! -e "$TMP/keep.data.old"
expect_eq "record of a missing command: nothing left beside it" "$(ls -A "$TMP" | grep -c '^\.keep\.data')" 0
run_pmu "$TMP/o" "$TMP/e" record -q -o "$TMP/keep.data" -- "$W" 0.05
expect_eq "a new recording: exit 0" "$RC" 0
expect_eq "a new recording: the old one is FILE.old" "$(cat "$TMP/keep.data.old")" "earlier recording"
expect_eq "a new recording: mode 0600, as perf's" "$(stat -c %a "$TMP/keep.data")" 600
# a link planted where the file goes is replaced, never followed
echo "not yours" >"$TMP/victim"
ln -s victim "$TMP/planted.data"
run_pmu "$TMP/o" "$TMP/e" record -q -o "$TMP/planted.data" -- "$W" 0.05
expect_eq "a planted link: the file it points to is untouched" "$(cat "$TMP/victim")" "not yours"
check "a planted link: the recording is a file of its own" test -f "$TMP/planted.data" -a ! -L "$TMP/planted.data"

# a JIT's code, named by its /tmp/perf-PID.map
J=$PMU_BUILD/tests/jit
if [ "$(uname -m)" = x86_64 ] && [ -x "$J" ]; then
	"$PMU" record -q -o "$TMP/j.data" -- "$J" 0.3 >"$TMP/j.out" 2>/dev/null
	run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/j.data" --sort sym --no-children
	expect_match "JIT code named from /tmp/perf-PID.map" "$TMP/o" '^ +[5-9][0-9]\.[0-9]+%  \[\.\] jit_spin'
	# /tmp is everyone's: a map someone else could have planted there
	# is not believed, and says why
	map=$(cat "$TMP/j.out")
	cp "$map" "$TMP/map.good"
	jit_report() { # NAME EXPECTED-PROBLEM
		run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/j.data" --sort sym --no-children
		expect_eq "perf map $1: exit 0" "$RC" 0
		expect_no_match "perf map $1: not used" "$TMP/o" 'jit_spin'
		expect_match "perf map $1: says why" "$TMP/e" "$map: $2"
	}
	if [ "$(id -u)" = 0 ]; then
		chown 12345 "$map"
		jit_report "of another user" "owned by uid 12345 .*not read"
		chown 0 "$map"
	fi
	rm -f "$map"
	ln -s "$TMP/map.good" "$map"
	jit_report "as a symbolic link" "a symbolic link: not read"
	rm -f "$map"
	mkfifo "$map"
	jit_report "as a FIFO" "not a regular file"
	rm -f "$map"
	truncate -s 600M "$map"
	jit_report "of 600 MB" "larger than 512 MiB"
	# an overlong line is skipped; control characters never reach the
	# terminal
	{ printf '%s\n' "$(head -c 5000 /dev/zero | tr '\0' 'x')"
	  sed 's/jit_spin/jit\x1b[31mspin/' "$TMP/map.good"; } >"$map"
	run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/j.data" --sort sym --no-children
	expect_match "perf map: a name after an overlong line, its escape replaced" "$TMP/o" '\[\.\] jit\?\[31mspin$'
	expect_no_match "perf map: no control character printed" "$TMP/o" $'\x1b'
	rm -f "$map"
else
	skip "JIT code named from /tmp/perf-PID.map (x86-64 only)"
fi

# filters
"$PMU" record -q -o "$TMP/f.data" -- "$W" 0.3 >/dev/null 2>&1
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/f.data" --sort dso,sym --no-children --dso libpmuwork.so
# (a sample may land in the library's PLT slot too: every row is the
# library's, hot_lib nearly all of them)
expect_eq "--dso keeps the library's samples only" \
	"$(awk '$1 ~ /%$/ && $2 != "libpmuwork.so"' "$TMP/o" | grep -c .)" 0
expect_match "--dso keeps the library's samples: hot_lib first" "$TMP/o" \
	'^ +(9[5-9]|100)\.[0-9]+%  libpmuwork\.so +\[\.\] hot_lib'
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/f.data" --no-children --comm nosuchcommand
expect_no_match "--comm of no command: no rows" "$TMP/o" '%'
tid=$("$PMU" script -i "$TMP/f.data" -F tid 2>/dev/null | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/f.data" --no-children --tid "$tid" --sort tid
expect_match "--tid keeps one thread" "$TMP/o" "100\\.00%  +$tid:workload"
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/f.data" --no-children --sort sym --percent-limit 20
expect_match "--percent-limit keeps the big rows" "$TMP/o" 'hot_main'
expect_no_match "--percent-limit hides the small ones" "$TMP/o" 'hot_rec'
done_testing
