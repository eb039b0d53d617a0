#!/usr/bin/env bash
# Runs every test of one or two builds and prints one closing line:
#   N passed, N failed, N skipped
# Each test program prints TAP ("ok N - name" / "not ok N - name", "# SKIP");
# a program that exits 77 without TAP output is one skipped test, one that
# fails without a "not ok" line (a crash, a sanitizer report) is one failure.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
args=("$@")

builds=()
valgrind=0
sanitized=0
no_shared=0
guest=0
hw_only=0
while [ $# -gt 0 ]; do
	case "$1" in
	--build) builds+=("$2"); shift 2 ;;
	--also) [ -x "$2/pmu" ] && builds+=("$2"); shift 2 ;;
	--valgrind) valgrind=1; shift ;;
	--sanitized) sanitized=1; shift ;;
	--no-shared) no_shared=1; shift ;;
	# the hardware suite in the arm64 guest (scripts/arm64-guest)
	--guest) guest=1; shift ;;
	--guest-only) guest=1; builds=(); shift ;;
	# the hardware suite alone, on this machine
	--hw-only) hw_only=1; shift ;;
	*) echo "run-tests: unknown option '$1'" >&2; exit 2 ;;
	esac
done

# The shared reference directory beside the clone, when there is one;
# tests that need it skip (and say why) without it.  --no-shared runs the
# suite as a clone without it would, to prove that it passes there too.
if [ "$no_shared" = 1 ]; then
	# hide a directory that is there (as root, in a mount namespace of
	# its own), so a test that finds it by another road fails here
	# rather than on a machine without it
	if [ -d "$root/../shared" ] && [ -z "${PMU_SHARED_HIDDEN:-}" ] &&
		[ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
		export PMU_SHARED_HIDDEN=1
		exec unshare -m --propagation private sh -c \
			'mount -t tmpfs -o size=1m,mode=0555 pmu-no-shared "$0" && exec "$@"' \
			"$root/../shared" "$0" "${args[@]}"
	fi
	export PMU_SHARED=
elif [ -z "${PMU_SHARED:-}" ] && [ -d "$root/../shared" ]; then
	export PMU_SHARED=$root/../shared
else
	export PMU_SHARED=${PMU_SHARED:-}
fi
export CMOCKA_MESSAGE_OUTPUT=TAP
# --emulate's default model is the one closest to the host's CPU, which
# varies between machines: the tests count on fam10h's unless they say
# (emu-stat.sh checks the choice itself)
export PMU_EMU_MODEL=${PMU_EMU_MODEL-fam10h}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# The valgrind pass runs every unit test but these: test-encode-oracle
# compares thousands of encodings with libpfm4's and takes half a minute
# under valgrind, while the encoder it exercises runs under valgrind in
# test-encode and test-catalog (and every test runs under ASan/UBSan).
valgrind_skip=" test-encode-oracle "

passed=0 failed=0 skipped=0
failures=()

run_one() { # label, command...
	local label=$1; shift
	local log="$logdir/$(echo "$label" | tr '/ :' '___').log"
	timeout 300 "$@" >"$log" 2>&1 </dev/null
	count_log "$label" "$log" $?
}

count_log() { # label, log, exit status
	local label=$1 log=$2 rc=$3 p f s
	case $rc in ''|*[!0-9]*) echo "not ok - exit status unreadable: '$rc'" >>"$log"; rc=1 ;; esac
	# cmocka reports a skipped test as "not ok N # SKIP", shell tests as
	# "ok N - name # SKIP": both are skips, not passes or failures.
	p=$(grep -E '^ok [0-9]+' "$log" | grep -vciE '# *skip' | tr -d ' ')
	s=$(grep -E '^(not )?ok [0-9]+' "$log" | grep -ciE '# *skip' | tr -d ' ')
	f=$(grep -E '^not ok [0-9]+' "$log" | grep -vciE '# *skip' | tr -d ' ')
	if [ "$rc" = 77 ] && [ $((p + f + s)) = 0 ]; then
		s=1
	elif [ "$rc" != 0 ] && [ "$rc" != 77 ] && [ "$f" = 0 ]; then
		f=1
	elif [ $((p + f + s)) = 0 ]; then
		p=1
	fi
	passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
	if [ "$f" != 0 ]; then
		printf 'FAIL %-40s %d passed, %d failed (exit %d; log %s)\n' "$label" "$p" "$f" "$rc" "$log"
		# each failure with the diagnostics under it: CI keeps no logs
		awk '/^not ok/ && !/# *[sS][kK][iI][pP]/ { d = 1; print; next }
		     d && /^#/ { print; next } { d = 0 }
		     /ERROR|Assert|error:|Sanitizer|runtime error|definitely lost/' "$log" |
			head -30 | sed 's/^/    /'
		failures+=("$label")
	else
		printf 'ok   %-40s %d passed, %d skipped\n' "$label" "$p" "$s"
		# a test skipped whole says why
		[ "$rc" = 77 ] && [ "$p" = 0 ] &&
			sed -n 's/^1\.\.0 # SKIP /    skipped: /p' "$log" | head -1
	fi
}

# The hardware suite on this machine: each test skips, saying why, where
# the machine has no PMU (or no perf to compare with).
# A test script: run it.  A helper that tests source is not executable
# and is not run; a test (a line "done_testing") that is not executable
# would be left out unseen: a failure.
run_script() { # label, script
	if [ -x "$2" ]; then
		run_one "$1" "$2"
	elif grep -qx 'done_testing' "$2"; then
		run_one "$1" sh -c \
			'echo "not ok 1 - $0 is not executable (chmod +x)"; exit 1' "$2"
	fi
}

run_hw() { # build, tag
	local t
	for t in tests/hw/*.sh; do
		run_script "$2/hw/$(basename "$t" .sh)" "$t"
	done
	for t in "$1"/tests/hw/test-*; do
		[ -x "$t" ] && run_one "$2/hw/$(basename "$t")" "$t"
	done
}

# The hardware suite in the arm64 guest: one boot, one log a test.
run_guest() {
	local g=build-arm64/guest rc log name
	logdir=build-arm64/test-logs
	rm -rf "$logdir"; mkdir -p "$logdir"
	scripts/arm64-guest/guest.sh --out "$g" run >"$logdir/guest.log" 2>&1 </dev/null
	rc=$?
	if [ "$rc" = 77 ]; then
		skipped=$((skipped + 1))
		printf 'skip %-40s %s\n' "arm64-guest" "$(grep 'skipped:' "$logdir/guest.log" | tail -1)"
		return
	elif [ "$rc" != 0 ]; then
		count_log "arm64-guest" "$logdir/guest.log" "$rc"
		return
	fi
	sed 's/^/    /' "$logdir/guest.log"
	for log in "$g"/logs/*.log; do
		[ -e "$log" ] || continue
		name=$(basename "$log" .log)
		count_log "arm64/hw/${name%.sh}" "$log" "$(cat "${log%.log}.rc" 2>/dev/null || echo 1)"
	done
}

for b in "${builds[@]}"; do
	logdir="$b/test-logs"
	rm -rf "$logdir"; mkdir -p "$logdir"
	tag=$(basename "$b")
	export PMU="$root/$b/pmu" PMU_BUILD="$root/$b"
	if [ "$hw_only" = 1 ]; then
		run_hw "$b" "$tag"
		continue
	fi
	for t in "$b"/tests/test-*; do
		[ -x "$t" ] || continue
		run_one "$tag/$(basename "$t")" "$t"
		if [ "$valgrind" = 1 ] && [ "$b" = "${builds[0]}" ] &&
		   [ "${valgrind_skip#* $(basename "$t") }" = "$valgrind_skip" ]; then
			run_one "$tag/valgrind/$(basename "$t")" valgrind -q --error-exitcode=99 \
				--leak-check=full --errors-for-leak-kinds=definite,indirect \
				--track-fds=no "$t"
		fi
	done
	for t in tests/cli/*.sh; do
		run_script "$tag/cli/$(basename "$t" .sh)" "$t"
	done
	for r in "$b"/fuzz/replay-*; do
		[ -x "$r" ] || continue
		name=${r##*/replay-}
		run_one "$tag/fuzz/$name" "$r" tests/fuzz/corpus/"$name"
	done
	run_hw "$b" "$tag"
done
[ "$guest" = 1 ] && run_guest

if [ ${#failures[@]} -gt 0 ]; then
	echo "failed: ${failures[*]}"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
