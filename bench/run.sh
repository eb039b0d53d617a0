#!/usr/bin/env bash
# Runs every benchmark and prints one markdown table of ratios (pmu / peer,
# lower is better) preceded by a description of the machine.
#   bench/run.sh [BUILD_DIR]     (default: build)
# Environment: RUNS (exec-cost runs per command, default 200), ITERATIONS
# (group-cost calls per method, default 200000).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
runs=${RUNS:-200}
iterations=${ITERATIONS:-200000}

for f in pmu bench/exec-cost bench/group-cost bench/bench-sim bench/bench-encode \
	bench/bench-perfmon; do
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
"$build/bench/group-cost" -i "$iterations"
"$build/bench/bench-sim"
"$build/bench/bench-encode"
"$build/bench/bench-perfmon"

# Not a goal: how much the measuring tool adds to the bare command, which
# shows what is left to gain.
"$build/bench/exec-cost" -n "$runs" \
	-l "overhead of pmu stat -e $events over /bin/true alone" \
	-a "$pmu stat -e $events -- /bin/true" \
	-p "/bin/true" -b "/bin/true"
