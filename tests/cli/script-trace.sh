#!/usr/bin/env bash
# Tracepoint records as text, against perf script on the same files: a
# recording of every tracepoint of many subsystems while real programs
# run (xz, python3 with sqlite3, a refused TCP connection), written by
# pmu record and by perf record.  Every line of pmu script equals perf
# script's (its print fmt run as perf runs it, records in perf's time
# order), except timer:timer_start's flags, where perf 6.1 misreads the
# precedence of '&' (docs/decisions.md).
. "$(dirname "$0")/lib.sh"
require_perf
[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP needs root (tracepoints, tracefs)"; exit 77; }
T=/sys/kernel/tracing
[ -d $T/events ] || T=/sys/kernel/debug/tracing
[ -r $T/events/sched/sched_switch/format ] ||
	{ echo "1..0 # SKIP no tracefs with sched events here"; exit 77; }
for b in xz python3; do
	command -v $b >/dev/null || { echo "1..0 # SKIP $b is not installed"; exit 77; }
done

EV=
for s in sched raw_syscalls irq timer kmem signal task workqueue writeback \
	 sock tcp exceptions filemap rcu; do
	[ -d $T/events/$s ] && EV="$EV -e $s:*"
done
# a few system calls' own (all of them would be 700 tracepoints)
for e in sys_enter_openat sys_exit_openat sys_enter_write sys_exit_write; do
	[ -d $T/events/syscalls/$e ] && EV="$EV -e syscalls:$e"
done
work() {
	head -c 1000000 "$PMU" | xz -6 -c >/dev/null
	python3 -c '
import socket, sqlite3
c = sqlite3.connect(":memory:")
c.execute("create table t(a)")
c.executemany("insert into t values (?)", ((i,) for i in range(2000)))
try:
    socket.create_connection(("127.0.0.1", 1), timeout=1)
except OSError:
    pass'
}
export -f work
export PMU

# same: every line of the two tools' outputs equal but timer_start's
same() { # name file
	perf script -i "$2" >"$TMP/perf.txt" 2>/dev/null
	"$PMU" script -i "$2" >"$TMP/pmu.txt" 2>"$TMP/pmu.err"
	expect_eq "$1: pmu script exits 0" "$?" 0
	grep -v ' timer:timer_start: ' "$TMP/perf.txt" >"$TMP/perf.f"
	grep -v ' timer:timer_start: ' "$TMP/pmu.txt" >"$TMP/pmu.f"
	n=$(wc -l <"$TMP/perf.f")
	check "$1: records to compare ($n)" test "$n" -gt 1000
	# (but for programs without symbols, which these lines do not show)
	check "$1: no complaint from pmu script" \
		sh -c "! grep -v 'no symbols' '$TMP/pmu.err' | grep -q ."
	if cmp -s "$TMP/perf.f" "$TMP/pmu.f"; then
		ok "$1: every line as perf script prints it"
	else
		not_ok "$1: every line as perf script prints it"
		diff "$TMP/perf.f" "$TMP/pmu.f" | head -10 | sed 's/^/#   /'
		diag "$(diff "$TMP/perf.f" "$TMP/pmu.f" | grep -c '^<') lines differ"
	fi
	# lines whose print fmts use what naming fields does not: casts,
	# __print_flags, %pS, array elements; each in its own words
	for p in 'sched:sched_switch: prev_comm=.* prev_state=[A-Z+|]+ ==> next_comm=' \
		 'syscalls:sys_enter_openat: dfd: 0x[0-9a-f]{8}, filename: 0x' \
		 'kmem:kmalloc: call_site=[a-z_][a-z_0-9.]*\+0x[0-9a-f]+ ptr=.* gfp_flags=[A-Z_|]+' \
		 'raw_syscalls:sys_enter: NR [0-9]+ \([0-9a-f]+, '; do
		expect_match "$1: ${p%% *} by its print fmt" "$TMP/pmu.f" "$p"
	done
	# timer_start: everything but the flags, which pmu reads as C does
	expect_eq "$1: timer_start but its flags" \
		"$(sed -n 's/ timer:timer_start: \(.*\) flags=.*/\1/p' "$TMP/pmu.txt" | sha1sum)" \
		"$(sed -n 's/ timer:timer_start: \(.*\) flags=.*/\1/p' "$TMP/perf.txt" | sha1sum)"
}

run_pmu "$TMP/r.out" "$TMP/r.err" record -q -m 256 $EV -o "$TMP/pmu.data" \
	-- bash -c work
expect_eq "pmu record of $(echo "$EV" | wc -w) subsystems' tracepoints: exit 0" "$RC" 0
same "pmu's recording" "$TMP/pmu.data"

perf record -q -m 256 $EV -o "$TMP/perf.data" -- bash -c work >/dev/null 2>&1
expect_eq "perf record of the same: exit 0" "$?" 0
same "perf's recording" "$TMP/perf.data"

done_testing
