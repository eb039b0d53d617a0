#!/usr/bin/env bash
# Hardware breakpoints, perf's mem:ADDR[/LEN][:ACCESS] events: on a
# workload that writes a global W times, reads it R times and calls a
# function C times (tests/workload/watch.c, addresses from nm), each
# count is what the program did (with a few accesses of the kernel's own
# start of the process), equal to perf's on the same command; names are
# printed as perf prints them; malformed forms are refused, naming the
# part.
. "$(dirname "$0")/lib.sh"
WATCH=$PMU_BUILD/tests/watch
[ -x "$WATCH" ] || { echo "1..0 # SKIP $WATCH not built"; exit 77; }
[ -e /sys/bus/event_source/devices/breakpoint ] ||
	{ echo "1..0 # SKIP this kernel has no breakpoint PMU"; exit 77; }
command -v nm >/dev/null || { echo "1..0 # SKIP nm (binutils) is not installed"; exit 77; }
A=0x$(nm "$WATCH" | awk '$3 == "watched" { print $1 }' | sed 's/^0*//')
F=0x$(nm "$WATCH" | awk '$3 == "watched_fn" { print $1 }' | sed 's/^0*//')
[ "$A" != 0x ] && [ "$F" != 0x ] || { echo "1..0 # SKIP no symbols in $WATCH"; exit 77; }
if ! "$PMU" stat -x, -e "mem:$A:w" -- "$WATCH" 1 0 0 >/dev/null 2>"$TMP/probe" ||
   ! grep -q '^[0-9]' "$TMP/probe"; then
	echo "1..0 # SKIP breakpoints cannot be counted here: $(head -1 "$TMP/probe")"; exit 77
fi

W=1000 R=300 C=77
# count EVENT: pmu's count of EVENT over the workload
count() {
	"$PMU" stat -x, -e "$1" -- "$WATCH" $W $R $C 2>&1 >/dev/null | awk -F, 'NR == 1 { print $1 }'
}
# within N LO HI: N a number in [LO, HI]
within() { [ -n "$1" ] && [ "$1" -eq "$1" ] 2>/dev/null && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }

n=$(count "mem:$A:w")
check "writes: $n of the $W" within "$n" $W $((W + 8))
n=$(count "mem:$A")
check "rw by default: $n of the $W + $R" within "$n" $((W + R)) $((W + R + 8))
n=$(count "mem:$A/8:rw")
check "/8:rw: $n of the $W + $R" within "$n" $((W + R)) $((W + R + 8))
n=$(count "mem:$F:x")
check "x on a function: $n of the $C calls" within "$n" $C $((C + 2))
n=$(count "mem:$A:w:u")
check ":u: the program's own writes, $n of $W" within "$n" $W $W

# perf as the oracle: the same counts and names, a group of four (x86's
# debug registers)
if command -v perf >/dev/null && perf stat -e "mem:$A:w" -- true >/dev/null 2>&1; then
	EV="mem:$A:w,mem:$A/8:rw,mem:$F:x,mem:$A:w:u"
	perf stat -x, -e "$EV" -- "$WATCH" $W $R $C 2>"$TMP/perf" >/dev/null
	"$PMU" stat -x, -e "$EV" -- "$WATCH" $W $R $C 2>"$TMP/pmu" >/dev/null
	expect_eq "perf's counts and names" "$(cut -d, -f1,3 "$TMP/pmu")" \
		"$(cut -d, -f1,3 "$TMP/perf")"
else
	skip "perf is not installed or cannot count breakpoints"
fi

# a read-only watchpoint where the CPU has none (x86): not supported,
# as perf says
if [ "$(uname -m)" = x86_64 ]; then
	run_pmu "$TMP/o" "$TMP/e" stat -e "mem:$A:r" -- "$WATCH" 1 1 0
	expect_match "r on x86: not supported" "$TMP/e" "<not supported> +mem:$A:r"
else
	skip "read-only watchpoints are x86's question"
fi

# malformed forms: exit 1, the part named
bad() { # FORM PATTERN
	run_pmu "$TMP/o" "$TMP/e" stat -e "$1" -- true
	expect_eq "'$1': exit 1" "$RC" 1
	expect_match "'$1': says why" "$TMP/e" "$2"
}
bad "mem:" "bad address in breakpoint event 'mem:'"
bad "mem:zz:w" "bad address in breakpoint event 'mem:zz:w'"
bad "mem:$A/3:w" "bad length in breakpoint event 'mem:$A/3:w': 1, 2, 4 or 8"
bad "mem:$A:rx" "x \\(execute\\) does not combine with r or w"
bad "mem:$A:ww" "'w' given twice"
bad "mem:$A:w:q" "unknown modifier 'q' in 'mem:$A:w:q'"
# the length's '/' is not a PMU's terms: the list goes on after it
run_pmu "$TMP/o" "$TMP/e" stat -x, -e "mem:$A/8:w,task-clock" -- "$WATCH" 10 0 0
expect_eq "mem:ADDR/LEN in a list: exit 0" "$RC" 0
expect_match "... both events" "$TMP/e" ",task-clock,"
done_testing
