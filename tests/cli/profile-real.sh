#!/usr/bin/env bash
# Real programs, recorded by one tool and read by the other: xz (no frame
# pointers, a stripped library) and python3, with DWARF call chains,
# which need every map the unwinder reads (a library's read-only
# segment and its .eh_frame_hdr, the stack).  The reports of the two
# tools on the same file must list the same rows, callers included
# (--children), with the same shares.
#
# Rows compared: those of 1% and more, by DSO and symbol, without inlined
# entries (perf and pmu expand inlined callers differently in --children).
# Left out on both sides: rows without a symbol (perf names a caller
# without one by its run-time address, pmu by its address in the file)
# and perf's unwinder's end marker 0xffffffffffffffff.
. "$(dirname "$0")/lib.sh"
require_perf
C=$(dirname "$0")/profile_check.py
command -v xz >/dev/null || { echo "1..0 # SKIP no xz"; exit 77; }
command -v python3 >/dev/null || { echo "1..0 # SKIP no python3"; exit 77; }
if ! perf record -q -e cpu-clock -o "$TMP/probe.data" -- true >/dev/null 2>&1; then
	echo "1..0 # SKIP perf record cannot sample here"; exit 77
fi

# same_rows NAME FILE [ARGS...]: perf report and pmu report agree, each
# share within $TOL points: 0.2; for the callers of perf's own DWARF
# files pmu's share may be up to 1 point higher, never more than 0.2
# lower (perf's unwinder gives up on a few more samples than pmu's: how
# many depends on the stacks the recording caught)
TOL=0.2
# (--children: callers without a symbol left out, see above)
same_rows() {
	local name=$1 f=$2 drop='^$'; shift 2
	[ "$1" = --children ] && drop='\[[.k]\] 0x[0-9a-f]+ *$'
	perf report -i "$f" --stdio --sort dso,sym -g none --no-inline "$@" 2>/dev/null |
		grep -vE "$drop" >"$TMP/perf.txt"
	"$PMU" report -i "$f" --stdio --sort dso,sym -g none --no-inline "$@" 2>"$TMP/pmu.err" |
		grep -vE "$drop" >"$TMP/pmu.txt"
	if python3 "$C" compare "$TMP/perf.txt" "$TMP/pmu.txt" 1 "$TOL" >"$TMP/cmp.txt"; then
		ok "$name"
	else
		not_ok "$name"; sed 's/^/#   /' "$TMP/cmp.txt" | head -20
	fi
}

head -c 4000000 /dev/urandom >"$TMP/rand.bin"

# pmu's DWARF recording of xz, read by perf (which needs the data maps)
run_pmu "$TMP/o" "$TMP/e" record -q --call-graph dwarf -o "$TMP/xz.data" -- \
	xz -6 -k -c "$TMP/rand.bin"
expect_eq "pmu record --call-graph dwarf xz: exit 0" "$RC" 0
same_rows "xz, pmu's DWARF file: the same callers (--children)" "$TMP/xz.data" --children
same_rows "xz, pmu's DWARF file: the same rows (--no-children)" "$TMP/xz.data" --no-children
# perf unwinds it: main's caller reaches nearly every sample.  (Now and
# then perf's report splits that symbol into two rows, of one sample
# set each, with its own recordings too: the rows add up.)
perf report -i "$TMP/xz.data" --stdio --sort sym -g none --children 2>/dev/null >"$TMP/p.txt"
if awk '/__libc_start_call_main/ { sub(/%/, "", $1); f += $1 }
	END { exit !(f > 90) }' "$TMP/p.txt"; then
	ok "xz, pmu's DWARF file: perf unwinds to __libc_start_call_main"
else
	not_ok "xz, pmu's DWARF file: perf unwinds to __libc_start_call_main"
	diag "perf's share of __libc_start_call_main: $(awk '/__libc_start_call_main/ { print $1 }' "$TMP/p.txt")"
	diag "pmu record said: $(tr '\n' ' ' <"$TMP/e")"
	perf report -i "$TMP/xz.data" --stdio --sort sym -g none --no-children 2>/dev/null |
		grep -v '^#' | grep . | head -8 | sed 's/^/# /'
fi

# perf's DWARF recording of python3, read by pmu
perf record -q --call-graph dwarf -o "$TMP/py.data" -- python3 -c '
import json, hashlib
for i in range(6000):
    hashlib.sha256(json.dumps(list(range(i % 500))).encode()).hexdigest()
' >/dev/null 2>&1
TOL=0.2:1.0 same_rows "python3, perf's DWARF file: the same callers (--children)" "$TMP/py.data" --children
same_rows "python3, perf's DWARF file: the same rows (--no-children)" "$TMP/py.data" --no-children
expect_no_match "python3, perf's DWARF file: no file taken for a missing one" "$TMP/pmu.err" 'ld.so.cache: no such file'

# a multi-threaded xz, frame pointers, both ways
run_pmu "$TMP/o" "$TMP/e" record -q -g -o "$TMP/xzt.data" -- xz -T2 -6 -k -c "$TMP/rand.bin"
expect_eq "pmu record -g xz -T2: exit 0" "$RC" 0
same_rows "xz -T2, pmu's file: the same rows" "$TMP/xzt.data" --no-children
perf report -i "$TMP/xzt.data" --stdio --sort pid -g none --no-children 2>/dev/null | grep -E '^ +[0-9]' >"$TMP/perf.tid"
"$PMU" report -i "$TMP/xzt.data" --stdio --sort pid -g none --no-children 2>/dev/null | grep -E '^ +[0-9]' >"$TMP/pmu.tid"
check "xz -T2: threads and their shares as perf's" python3 -c '
import sys
def rows(p):
    return sorted((l.split()[1], float(l.split()[0].rstrip("%"))) for l in open(p))
a, b = rows(sys.argv[1]), rows(sys.argv[2])
assert len(a) >= 2 and [t for t, _ in a] == [t for t, _ in b], (a, b)
assert all(abs(x - y) <= 0.1 for (_, x), (_, y) in zip(a, b)), (a, b)
' "$TMP/perf.tid" "$TMP/pmu.tid"

done_testing
