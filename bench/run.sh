#!/usr/bin/env bash
# Runs every benchmark and prints one markdown table of ratios (pmu / peer,
# lower is better) preceded by a description of the machine.
#   bench/run.sh [BUILD_DIR]     (default: build)
# Environment: RUNS (exec-cost runs per command, default 200), ITERATIONS
# (group-cost calls per method, default 200000), BASELINE_REV (a git
# revision whose pmu is built and measured beside this one: the start-up
# row; without it that row is not run).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
runs=${RUNS:-200}
iterations=${ITERATIONS:-200000}

for f in pmu bench/exec-cost bench/group-cost bench/bench-sim bench/bench-encode \
	 bench/bench-lookup bench/sets-cost bench/bench-perfmon bench/bench-sample \
	 bench/region-cost bench/read-cost; do
	if [ ! -x "$build/$f" ]; then
		echo "run.sh: $build/$f missing; run 'make bench' first" >&2
		exit 1
	fi
done
if ! command -v perf >/dev/null 2>&1; then
	echo "run.sh: perf not found (Debian package linux-perf)" >&2
	exit 1
fi

# Measure a private copy of the tool, so that a rebuild of the tree during
# the run cannot swap the binary under the benchmark.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$build/pmu" "$tmp/pmu"
pmu=$tmp/pmu

model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
if [ -d /sys/bus/event_source/devices/cpu ] ||
   ls /sys/bus/event_source/devices 2>/dev/null | grep -qE '^(cpu_core|armv8)'; then
	pmu_note="hardware PMU present"
else
	pmu_note="no hardware PMU"
fi
if grep -qw hypervisor /proc/cpuinfo; then
	pmu_note="virtual machine, $pmu_note"
fi

echo "Machine: $(nproc) CPUs, ${model:-unknown CPU}; kernel $(uname -r); $pmu_note;" \
     "perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo '?')"
echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC'); pmu $("$pmu" --version | awk '{print $2}');" \
     "$(perf --version)"
echo
echo "| benchmark | pmu | peer | ratio pmu/peer | goal | met |"
echo "|---|---|---|---|---|---|"

events=task-clock,page-faults
"$build/bench/exec-cost" -n "$runs" -g 0.25 -m 0.5 \
	-l "stat -e $events -- /bin/true" \
	-a "$pmu stat -e $events -- /bin/true" \
	-p "perf stat" -b "perf stat -e $events -- /bin/true"
# the limit: two execs and the perf_event_open calls
"$build/bench/exec-cost" -n "$runs" -g 2.2 \
	-l "stat -e $events -- /bin/true against /bin/true alone" \
	-a "$pmu stat -e $events -- /bin/true" \
	-p "/bin/true" -b "/bin/true"
"$build/bench/group-cost" -i "$iterations"
"$build/bench/bench-sim"
"$build/bench/bench-encode"
"$build/bench/bench-lookup"
"$build/bench/sets-cost" -P "$pmu"
"$build/bench/bench-perfmon"
"$build/bench/bench-sample"
"$build/bench/region-cost"
"$here/serve.sh" "$pmu"
# The Python binding's Session.read() against pmu_session_read() in C.
c_ns=$("$build/bench/read-cost" | awk '$1 == "c" { print $2 }')
PMU_LIBPMU=$build/libpmu.so.0 python3 "$here/py-read.py" "$here/../python" |
	awk -v c="$c_ns" '$1 == "py" { py = $2 } $1 == "ctypes" { ct = $2 }
	END { printf "| Python Session.read() / C pmu_session_read(), 2 events (bare ctypes call %.0f ns) | %.0f ns | %.0f ns | %.2f | - | - |\n",
	      ct, py, c, py / c }'

# The emulator (when it was built): the slowdown of an emulated run over
# the native one against cachegrind's (with its cache simulation) and
# valgrind --tool=none's on the same program.  Both slowdowns share the
# native time, so their ratio is the ratio of the two wall times.
if [ -x "$build/emu/pmu-amd64-linux" ] && command -v valgrind >/dev/null; then
	work=$build/bench/emu-work
	erun=${EMU_RUNS:-7}
	# pmu finds the emulator next to the copied binary's build tree;
	# one model on every host, as the runs being compared had
	export PMU_EMU_DIR=$build/emu PMU_EMU_MODEL=fam10h
	"$build/bench/exec-cost" -n "$erun" -w 1 -g 1.0 \
		-l "emulated instructions,branches,L1-dcache-load-misses" \
		-a "$pmu stat --emulate -e instructions,branches,L1-dcache-load-misses -- $work" \
		-p "cachegrind" -b "valgrind --tool=cachegrind --cachegrind-out-file=/dev/null $work"
	"$build/bench/exec-cost" -n "$erun" -w 1 -g 1.5 \
		-l "emulated instructions" \
		-a "$pmu stat --emulate -e instructions -- $work" \
		-p "valgrind --tool=none" -b "valgrind --tool=none $work"
	# Not goals: each tool's slowdown over the native program.
	"$build/bench/exec-cost" -n "$erun" -w 1 \
		-l "slowdown of the emulated instructions,branches,L1-dcache-load-misses" \
		-a "$pmu stat --emulate -e instructions,branches,L1-dcache-load-misses -- $work" \
		-p "native" -b "$work"
	"$build/bench/exec-cost" -n "$erun" -w 1 \
		-l "slowdown of cachegrind" \
		-a "valgrind --tool=cachegrind --cachegrind-out-file=/dev/null $work" \
		-p "native" -b "$work"
	unset PMU_EMU_DIR
fi

# pmu list of the host's model against perf list.
"$build/bench/exec-cost" -n "$runs" -g 0.25 \
	-l "list (this machine's model)" -a "$pmu list" \
	-p "perf list" -b "perf list"
"$build/bench/exec-cost" -n "$runs" -g 0.25 \
	-l "list --model amdzen5" -a "$pmu list --model amdzen5" \
	-p "perf list" -b "perf list"

# Start-up must not grow with the catalogs: the same command against the
# pmu of BASELINE_REV, built from that revision in a scratch directory.
if [ -n "${BASELINE_REV:-}" ]; then
	mkdir "$tmp/base"
	git -C "$here/.." archive "$BASELINE_REV" | tar -x -C "$tmp/base"
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$tmp/base" -j2 BUILD=build build/pmu >/dev/null
	"$build/bench/exec-cost" -n "$runs" -g 1.05 -m 1.05 \
		-l "stat -e task-clock -- /bin/true against $BASELINE_REV" \
		-a "$pmu stat -e task-clock -- /bin/true" \
		-p "$BASELINE_REV" -b "$tmp/base/build/pmu stat -e task-clock -- /bin/true"
fi

# Read-only data of the kernel's catalog tables in the binary.
size -A "$build"/obj/lib/events/tables/kernel/*.o | awk '
	$1 ~ /^\.rodata/ { s += $2 }
	END { printf "| kernel catalog tables, read-only data | %.2f MB | goal 4.00 MB | %.3f | <= 1.00 | %s |\n",
		     s / 1048576, s / 4194304, s <= 4194304 ? "yes" : "no" }'
size -A "$build/pmu" | awk '
	$1 == ".rodata" { r = $2 } $1 == ".text" { t = $2 }
	END { printf "| pmu executable: .rodata, .text (not a goal) | %.2f MB, %.2f MB | - | - | - | - |\n",
		     r / 1048576, t / 1048576 }'
