#!/usr/bin/env bash
# Derived figures on hardware counts: the insn-per-cycle figure perf
# prints beside instructions (by privilege level: instructions:k over
# cycles:k), and perf's metrics (-M) of a CPU model whose events this
# PMU counts, pmu's value against perf's on the same machine.
. "$(dirname "$0")/lib.sh"
require_hw

W=("$HWLOOP" loop 1000000)
P=$TMP/p F=$TMP/f

# csv_metric FILE EVENT: the metric value and unit fields of EVENT
csv_metric() { awk -F, -v ev="$2" '$3 == ev { print $6 "|" $7; exit }' "$1"; }
E=instructions:k,cycles:u,cycles:k,instructions:u,instructions,cycles
pmu_run stat -x, -o "$P" -e "$E" -- "${W[@]}" >/dev/null 2>&1
"$PERF" stat -x, -o "$F" -e "$E" -- "${W[@]}" >/dev/null 2>&1
for ev in instructions:u instructions; do
	expect_eq "-x: $ev's insn per cycle, as perf prints it" \
		"$(csv_metric "$P" $ev)" "$(csv_metric "$F" $ev)"
done
# the kernel's counts differ between the tools: the figure is checked
# against pmu's own counts, and against the ratio perf takes (:k by :k)
k=$(csv "$P" instructions:k) ck=$(csv "$P" cycles:k) cu=$(csv "$P" cycles:u)
want=$(awk -v a="$k" -v b="$ck" 'BEGIN { printf "%.2f|insn per cycle\n", a / b }')
expect_eq "-x: instructions:k over cycles:k, not over cycles:u" "$(csv_metric "$P" instructions:k)" "$want"
pmu_run stat -o "$P" -e "$E" -- "${W[@]}" >/dev/null 2>&1
"$PERF" stat -o "$F" -e "$E" -- "${W[@]}" >/dev/null 2>&1
ipc() { awk -v ev="$2" '$2 == ev { for (i = 3; i <= NF; i++) if ($i == "insn") { print $(i - 1); exit } }' "$1"; }
for ev in instructions:u instructions:k instructions; do
	expect_eq "text: $ev's insn per cycle as perf's" "$(ipc "$P" $ev)" "$(ipc "$F" $ev)"
done

# -M: a model's metrics over this PMU's counts.  QEMU counts the
# architectural INST_RETIRED and CPU_CYCLES alone, so the metrics of a
# model (chosen with PERF_CPUID and PMU_CPUID) that use those two only
if [ "$(uname -m)" = aarch64 ]; then
	# HiSilicon's hip08: retiring = INST_RETIRED / (CPU_CYCLES * 4)
	id=0x00000000480fd010
	for m in retiring; do
		PMU_CPUID=$id "$PMU" stat -j -o "$P" -M $m -- "${W[@]}" >/dev/null 2>"$TMP/err"
		PERF_CPUID=$id "$PERF" stat -j -o "$F" -M $m -- "${W[@]}" >/dev/null 2>&1
		# perf puts the value on its first event's line, pmu on a line
		# of the metric's own ("  retiring")
		mv() { sed -n 's/.*"metric-value" : \([0-9.]*\), "metric-unit" : " *'"$2"'".*/\1/p' "$1" | head -1; }
		a=$(mv "$P" $m) b=$(mv "$F" $m)
		diag "pmu: $(grep -h "$m" "$P" | head -2 | tr '\n' ' ')"
		check "-M $m: pmu computes it (${a:-none}; perf ${b:-none})" test -n "$a"
		within "-M $m of hip08: pmu's value near perf's" "${a:-0}" "${b:-x}" 0.001
		sed 's/^/# /' "$TMP/err"
	done
	# a metric whose events this PMU lacks: not supported, named
	PMU_CPUID=$id "$PMU" stat -o "$P" -M bad_speculation -- "${W[@]}" >/dev/null 2>"$TMP/err"
	expect_eq "-M bad_speculation: the command is still measured (exit 0)" "$?" 0
	cat "$TMP/err" >>"$P"
	expect_match "-M bad_speculation: not supported, INST_SPEC (which this PMU lacks) named" "$P" \
		"not supported.*bad_speculation.*INST_SPEC"
else
	skip "-M on a model's metrics over QEMU's two counted events: arm64 only"
fi

done_testing
