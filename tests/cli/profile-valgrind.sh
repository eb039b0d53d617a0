#!/usr/bin/env bash
# Real programs' profiles read by pmu report under valgrind: xz with
# frame pointers and with DWARF call chains, python3, a program of four
# threads, a system-wide recording; the default report (children, call
# graphs) and every export, with no memory error and no leak.  (The
# sanitizer build reads the same files in its own run of this suite's
# other tests; valgrind cannot run it.)
. "$(dirname "$0")/lib.sh"
SPIN=$PMU_BUILD/tests/spin
command -v valgrind >/dev/null || { echo "# skipped: no valgrind"; exit 77; }
if ldd "$PMU" 2>/dev/null | grep -q libasan; then
	echo "# skipped: $PMU is the sanitizer build, which valgrind cannot run"
	exit 77
fi
command -v xz >/dev/null || { echo "# skipped: no xz"; exit 77; }

head -c 400000 /dev/urandom >"$TMP/rand.bin"
rec() { # NAME ARGS...: a recording of the real program
	local name=$1; shift
	"$PMU" record -q -o "$TMP/$name.data" "$@" >/dev/null 2>&1
}
rec xz-fp -g -- xz -6 -k -c "$TMP/rand.bin"
rec xz-dwarf --call-graph dwarf -- xz -6 -k -c "$TMP/rand.bin"
rec python -g -- python3 -c 'import json
for i in range(3000): json.dumps(list(range(i % 300)))'
rec threads -g -- "$SPIN" threads 3 300
rec system -a -g -- sh -c 'xz -6 -k -c "$0" >/dev/null' "$TMP/rand.bin"

vg() { # NAME FILE ARGS...: pmu report under valgrind, no error
	local name=$1 f=$2; shift 2
	valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect \
		"$PMU" report -i "$f" "$@" >/dev/null 2>"$TMP/vg.err"
	local rc=$?
	if [ "$rc" -eq 0 ] && ! grep -q '^==[0-9]*==' "$TMP/vg.err"; then
		ok "valgrind, $name: no memory error, no leak"
	else
		not_ok "valgrind, $name (exit $rc)"
		grep -v '^pmu: .*no symbols' "$TMP/vg.err" | head -20 | sed 's/^/#   /'
	fi
}
for name in xz-fp xz-dwarf python threads system; do
	f=$TMP/$name.data
	if [ ! -s "$f" ]; then
		not_ok "record $name: no file"
		continue
	fi
	vg "$name: the default report" "$f"
done
f=$TMP/python.data
vg "python: --json" "$f" --json
vg "python: --folded" "$f" --folded
vg "python: --flamegraph" "$f" --flamegraph "$TMP/o.svg"
vg "python: --pprof" "$f" --pprof "$TMP/o.pb.gz"
vg "python: --firefox" "$f" --firefox "$TMP/o.json"

done_testing
