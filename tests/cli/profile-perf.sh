#!/usr/bin/env bash
# Cross-checks against perf, which nobody here wrote:
#  - perf report --stdio on pmu's file and pmu report --stdio on the
#    same file list the same symbols (>= 0.5%) with the same
#    percentages (+- 0.1), with and without children;
#  - pmu report on a file perf record wrote gives what perf report
#    gives on it;
#  - perf script reads pmu's file without a warning and sees as many
#    samples as pmu script;
#  - perf report and pmu report agree on a file with a foreign byte
#    order (converted by profile_check.py from the format description).
. "$(dirname "$0")/lib.sh"
require_perf
W=$PMU_BUILD/tests/workload
C=$(dirname "$0")/profile_check.py
[ -x "$W" ] || { echo "1..0 # SKIP $W not built"; exit 77; }
if ! perf record -q -e cpu-clock -o "$TMP/probe.data" -- true >/dev/null 2>&1; then
	echo "1..0 # SKIP perf record cannot sample here"; exit 77
fi

both() { # name file sort [pmu args...]: compare the two reports
	local name=$1 f=$2 sort=$3; shift 3
	perf report -i "$f" --stdio --sort "$sort" -g none "$@" >"$TMP/perf.txt" 2>"$TMP/perf.err"
	"$PMU" report -i "$f" --stdio --sort "$sort" -g none "$@" >"$TMP/pmu.txt" 2>"$TMP/pmu.err"
	if python3 "$C" compare "$TMP/perf.txt" "$TMP/pmu.txt" 0.5 0.1 >"$TMP/cmp.txt"; then
		ok "$name"
	else
		not_ok "$name"; sed 's/^/#   /' "$TMP/cmp.txt" | head -20
	fi
}

run_pmu "$TMP/r.out" "$TMP/r.err" record -g -o "$TMP/pmu.data" -- "$W" 0.5
expect_eq "pmu record" "$RC" 0
both "pmu's file: perf and pmu agree by symbol" "$TMP/pmu.data" sym --no-children
both "pmu's file: by command, DSO, symbol" "$TMP/pmu.data" comm,dso,sym --no-children
both "pmu's file: with children" "$TMP/pmu.data" sym --children
both "pmu's file: by DSO" "$TMP/pmu.data" dso --no-children

# build-ids in the header, as perf reads them, against the files' notes
perf buildid-list -i "$TMP/pmu.data" >"$TMP/bids.txt" 2>/dev/null
for f in "$W" "$PMU_BUILD/tests/libpmuwork.so"; do
	want=$(readelf -n "$f" 2>/dev/null | sed -n 's/.*Build ID: //p')
	got=$(awk -v f="$(readlink -f "$f")" '$2 == f { print $1 }' "$TMP/bids.txt")
	expect_eq "build-id of $(basename "$f") in the header" "$got" "$want"
done
kbid=$(perf buildid-list -k 2>/dev/null)
if [ -n "$kbid" ]; then
	expect_eq "the kernel's build-id in the header" \
		"$(awk '$2 == "[kernel.kallsyms]" { print $1 }' "$TMP/bids.txt")" "$kbid"
else
	skip "the kernel's build-id in the header (perf buildid-list -k says none)"
fi

perf script -i "$TMP/pmu.data" >"$TMP/ps.out" 2>"$TMP/ps.err"
expect_eq "perf script reads pmu's file" "$?" 0
if [ -s "$TMP/ps.err" ]; then not_ok "perf script says nothing on stderr"; sed 's/^/#   /' "$TMP/ps.err" | head
else ok "perf script says nothing on stderr"; fi
n_perf=$(perf script -i "$TMP/pmu.data" -F tid 2>/dev/null | grep -c .)
n_pmu=$("$PMU" script -i "$TMP/pmu.data" -F tid 2>/dev/null | grep -c .)
expect_eq "perf script and pmu script see as many samples" "$n_pmu" "$n_perf"

# the reading API (examples/profile-top.c) on perf's view of the file
"$PMU_BUILD/examples/profile-top" "$TMP/pmu.data" 3 >"$TMP/top.txt"
perf report -i "$TMP/pmu.data" --stdio --sort sym --no-children -g none 2>/dev/null |
	awk '/%/ && !/^#/ { sub(/%/, "", $1); printf "%6.2f%% %s\n", $1, $3; if (++n == 3) exit }' >"$TMP/ptop.txt"
expect_eq "the library's reading API gives perf report's top 3" "$(cat "$TMP/top.txt")" "$(cat "$TMP/ptop.txt")"

perf record -q -g -e cpu-clock -o "$TMP/perf.data" -- "$W" 0.5 >/dev/null 2>&1
both "perf's file: perf and pmu agree by symbol" "$TMP/perf.data" sym --no-children
both "perf's file: by command, DSO, symbol" "$TMP/perf.data" comm,dso,sym --no-children
both "perf's file: with children" "$TMP/perf.data" sym --children

# --children call graphs as perf draws them: every entry, callers with
# only their callees' time included, has its graph (caller order, each
# branch's share of the total); main's and its caller's, and hot_main's
# (whose own time has the whole chain above it), drawn line for line
graph_of() { # FILE SYMBOL: the graph lines under SYMBOL's row
	awk -v s="$2" '$0 ~ "\\[\\.\\] " s " *$" && /%/ { on = 1; next }
		on && /^$/ { exit } on { sub(/ +$/, ""); print }' "$1"
}
perf report -i "$TMP/pmu.data" --stdio --children >"$TMP/pg.txt" 2>/dev/null
"$PMU" report -i "$TMP/pmu.data" --stdio --children >"$TMP/mg.txt" 2>/dev/null
for s in __libc_start_call_main main hot_main run_main; do
	graph_of "$TMP/pg.txt" "$s" >"$TMP/pg.$s"
	graph_of "$TMP/mg.txt" "$s" >"$TMP/mg.$s"
	if [ -s "$TMP/pg.$s" ] && cmp -s "$TMP/pg.$s" "$TMP/mg.$s"; then
		ok "--children: $s's call graph drawn as perf draws it"
	else
		not_ok "--children: $s's call graph drawn as perf draws it"
		diff "$TMP/pg.$s" "$TMP/mg.$s" | sed 's/^/#   /' | head -20
	fi
done

# C++: demangled names as perf shows them (no parameters, no return
# type), PLT slots named name@plt
CXX_SRC=$(dirname "$0")/../../bench/cxx-work.cpp
if command -v g++ >/dev/null && g++ -O2 -g -fno-omit-frame-pointer -o "$TMP/cxx" "$CXX_SRC" 2>/dev/null; then
	"$PMU" record -q -g -o "$TMP/cxx.data" -- "$TMP/cxx" 150 >/dev/null 2>&1
	both "C++, pmu's file: perf and pmu agree by symbol" "$TMP/cxx.data" sym --no-children
	both "C++, pmu's file: with children" "$TMP/cxx.data" sym --children
else
	skip "C++, pmu's file: perf and pmu agree by symbol (no g++)"
	skip "C++, pmu's file: with children (no g++)"
fi

python3 "$C" swap "$TMP/pmu.data" "$TMP/be.data"
both "foreign byte order: perf and pmu agree" "$TMP/be.data" sym --no-children
"$PMU" report -i "$TMP/be.data" --stdio >/dev/null 2>"$TMP/be.err"
expect_match "foreign byte order is said" "$TMP/be.err" 'other byte order'

# pipe mode: -o - writes perf's stream to standard output, -i - reads
# one (or a whole file) from standard input, both ways with perf; the
# command's own output goes to standard error, as perf sends it
"$PMU" record -q -g -o - -- "$W" 0.3 2>"$TMP/pipe.err" >"$TMP/pipe.data"
expect_eq "record -o -: exit 0" "$?" 0
perf report -i - --stdio --no-children --sort sym <"$TMP/pipe.data" >"$TMP/pr.txt" 2>"$TMP/pr.err"
expect_eq "record -o -: perf report -i - reads the stream" "$?" 0
expect_match "record -o -: perf sees the hot spot" "$TMP/pr.txt" '^ +[5-6][0-9]\.[0-9]+%  \[\.\] hot_main'
both "record -o -: perf and pmu read the stream alike" "$TMP/pipe.data" sym --no-children
"$PMU" report -i - --stdio --no-children --sort sym <"$TMP/pipe.data" >"$TMP/pr2.txt" 2>/dev/null
expect_eq "report -i -: the stream from standard input, as from the file" \
	"$(grep -E '^ +[0-9]' "$TMP/pr2.txt")" "$("$PMU" report -i "$TMP/pipe.data" --stdio --no-children --sort sym 2>/dev/null | grep -E '^ +[0-9]')"
"$PMU" record -q -o - -- sh -c 'echo the-command-speaks; exit 0' 2>"$TMP/pipe.err" >"$TMP/pipe2.data"
expect_match "record -o -: the command's output on standard error" "$TMP/pipe.err" '^the-command-speaks$'
perf script -i - <"$TMP/pipe2.data" >/dev/null 2>"$TMP/ps2.err"
check "record -o -: the stream stays whole (perf script reads it without a word)" test ! -s "$TMP/ps2.err"
perf record -q -g -o - -- "$W" 0.3 2>/dev/null | cat >"$TMP/ppipe.data"
both "perf record -o -: perf and pmu read perf's stream alike" "$TMP/ppipe.data" sym --no-children
mkfifo "$TMP/fifo"
cat "$TMP/fifo" >"$TMP/fifo.data" &
cpid=$!
"$PMU" record -q -o "$TMP/fifo" -- "$W" 0.2 >/dev/null 2>&1
wait "$cpid"
both "record -o FIFO: a stream perf reads" "$TMP/fifo.data" sym --no-children

# tracepoints: the file carries their formats (TRACING_DATA), so perf
# reads it, and both tools print their records; a plain print fmt
# (sched_process_exec's) word for word as perf prints it
if [ -r /sys/kernel/tracing/events/sched/sched_process_exec/format ] ||
   [ -r /sys/kernel/debug/tracing/events/sched/sched_process_exec/format ]; then
	run_pmu "$TMP/o" "$TMP/e" record -q -e sched:sched_process_exec,sched:sched_switch \
		-o "$TMP/tp.data" -- sh -c 'sleep 0.01; true'
	expect_eq "record of tracepoints: exit 0" "$RC" 0
	perf script -i "$TMP/tp.data" >"$TMP/ptp.txt" 2>"$TMP/ptp.err"
	expect_eq "perf script reads pmu's tracepoint recording" "$?" 0
	check "perf script: no complaint" test ! -s "$TMP/ptp.err"
	"$PMU" script -i "$TMP/tp.data" >"$TMP/mtp.txt" 2>/dev/null
	expect_eq "pmu script: the exec records as perf prints them" \
		"$(grep sched_process_exec "$TMP/mtp.txt")" "$(grep sched_process_exec "$TMP/ptp.txt")"
	check "pmu script: there are some ($(grep -c sched_process_exec "$TMP/mtp.txt"))" \
		grep -q 'sched:sched_process_exec: filename=/usr/bin/sleep pid=' "$TMP/mtp.txt"
	expect_match "pmu script: a switch record's fields" "$TMP/mtp.txt" \
		'sched:sched_switch: prev_comm=[^ ]+ prev_pid=[0-9]+ .*next_comm='
	# and a stream of them, perf's and pmu's
	"$PMU" record -q -e sched:sched_process_exec -o - -- sh -c 'sleep 0.01; true' \
		2>/dev/null >"$TMP/tps.data"
	perf script -i - <"$TMP/tps.data" >"$TMP/ptps.txt" 2>/dev/null
	expect_match "perf script reads a stream of pmu's tracepoints" "$TMP/ptps.txt" \
		'sched:sched_process_exec: filename=/usr/bin/sleep'
	perf record -q -e sched:sched_process_exec -o - -- sh -c 'sleep 0.01; true' 2>/dev/null |
		"$PMU" script -i - >"$TMP/mtps.txt" 2>/dev/null
	expect_match "pmu script reads a stream of perf's tracepoints" "$TMP/mtps.txt" \
		'sched:sched_process_exec: filename=/usr/bin/sleep'
else
	for t in 1 2 3 4 5 6 7 8; do skip "tracepoints (no tracefs sched events here)"; done
fi

# the header's command line is the whole of it, pmu's path first, as
# perf stores its own (hotspot shows it as the recording's command)
"$PMU" record -q -o "$TMP/cl.data" -- "$W" 0.05 >/dev/null 2>&1
perf report --header-only -i "$TMP/cl.data" >"$TMP/cl.hdr" 2>/dev/null
expect_match "perf's header: pmu's own command line" "$TMP/cl.hdr" \
	"^# cmdline : /[^ ]*pmu record -q -o $TMP/cl.data -- $W 0.05 *\$"

# -F above the kernel's limit: lowered to it with a word, as perf does;
# --strict-freq refuses it; -F max is the limit
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
freq_of() { perf evlist -v -i "$1" 2>/dev/null | sed -n 's/.*sample_freq }: \([0-9]*\),.*/\1/p' | head -1; }
run_pmu "$TMP/o" "$TMP/e" record -F $((max * 10)) -o "$TMP/f.data" -- "$W" 0.05
expect_eq "-F ten times the limit: exit 0" "$RC" 0
expect_match "-F ten times the limit: says so" "$TMP/e" "above kernel.perf_event_max_sample_rate: sampling at $max Hz"
expect_eq "-F ten times the limit: sampled at the limit (perf evlist)" "$(freq_of "$TMP/f.data")" "$max"
run_pmu "$TMP/o" "$TMP/e" record -F $((max * 10)) --strict-freq -o "$TMP/f2.data" -- "$W" 0.05
expect_eq "--strict-freq: exit 1" "$RC" 1
expect_match "--strict-freq: names the limit" "$TMP/e" "above kernel.perf_event_max_sample_rate \($max Hz\)"
run_pmu "$TMP/o" "$TMP/e" record -F max -o "$TMP/f3.data" -- "$W" 0.05
expect_eq "-F max: exit 0" "$RC" 0
expect_eq "-F max: the limit" "$(freq_of "$TMP/f3.data")" "$max"
done_testing
