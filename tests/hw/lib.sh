# Helpers of the hardware suite (tests/hw): pmu against the perf of the
# same machine on a real kernel PMU driver, never against a fixed number.
# Run in the arm64 guest by make check and on a real host by make
# check-hw; sourced after tests/cli/lib.sh (TAP, $PMU, $TMP).
. "$(dirname "$0")/../cli/lib.sh"
PERF=${PERF:-perf}
HWLOOP=$PMU_BUILD/tests/hw/hwloop

# require_hw: skip the script (exit 77, saying why) unless this machine
# has perf and a kernel PMU driver that counts instructions.
require_hw() {
	local v
	if ! command -v "$PERF" >/dev/null || ! "$PERF" stat -e task-clock true >/dev/null 2>&1; then
		echo "1..0 # SKIP perf is missing or cannot count here (Debian: linux-perf)"
		exit 77
	fi
	[ -x "$HWLOOP" ] || { echo "1..0 # SKIP $HWLOOP not built (make hw-build)"; exit 77; }
	v=$("$PERF" stat -x, -e instructions:u true 2>&1 >/dev/null | cut -d, -f1)
	case $v in
	''|*[!0-9]*)
		echo "1..0 # SKIP no hardware PMU here: perf stat -e instructions:u reads '${v:-nothing}'" \
		     "(a virtual machine without a virtual PMU?); make check runs this suite in the arm64 guest"
		exit 77 ;;
	esac
	hw_setup
}

# The core PMU and its spellings of "instructions" on this machine:
# CORE (sysfs name), RAW_INST, TERM_INST (PMU/event=/), ALIAS_INST (the
# PMU's sysfs alias), NAMED_INST/NAMED_CYC (the CPU model's names).
hw_setup() {
	local d
	CORE=
	for d in /sys/bus/event_source/devices/*; do
		case ${d##*/} in
		cpu|cpu_core|armv8_*|armv7_*) [ -e "$d/format/event" ] && { CORE=${d##*/}; break; } ;;
		esac
	done
	case $(uname -m) in
	aarch64)
		RAW_INST=r08 RAW_CYC=r11 TERM_INST="$CORE/event=0x8/"
		ALIAS_INST="$CORE/inst_retired/" NAMED_INST=INST_RETIRED NAMED_CYC=CPU_CYCLES ;;
	x86_64)
		RAW_INST=r00c0 RAW_CYC=r003c TERM_INST="$CORE/event=0xc0/"
		ALIAS_INST="$CORE/instructions/" NAMED_INST= NAMED_CYC=
		if grep -q AuthenticAMD /proc/cpuinfo; then
			RAW_CYC=r0076 NAMED_INST=ex_ret_instr NAMED_CYC=ls_not_halted_cyc
		else
			NAMED_INST=inst_retired.any_p NAMED_CYC=cpu_clk_unhalted.thread_p
		fi ;;
	*)
		echo "1..0 # SKIP the suite knows the core events of arm64 and x86-64, not $(uname -m)"
		exit 77 ;;
	esac
	# QEMU's emulated PMU counts instructions exactly, except that about
	# one run in a few hundred (of perf's as of pmu's) reads 2 more user
	# instructions than the other runs of the same program (seen in 450
	# runs of each tool).  An exact comparison allows those 2.
	SLACK=0
	grep -qs dummy-virt /proc/device-tree/compatible && SLACK=2
	perf_env
}

# perf runs its command with a few variables of its own (PATH,
# PERF_BUILDID_DIR...); a static program's start-up reads the whole
# environment, so pmu runs with exactly perf's child's environment when
# counts are compared to the instruction.  PENV: that environment.
perf_env() {
	PENV=()
	local line
	while IFS= read -r line; do
		PENV+=("$line")
	done < <("$PERF" stat -o /dev/null -- env 2>/dev/null)
}

# pmu_run ARGS...: pmu with perf's child's environment.
pmu_run() { env -i "${PENV[@]}" "$PMU" "$@"; }

# csv FILE EVENT [FIELD]: a field (default the value) of EVENT in -x,.
csv() { awk -F, -v ev="$2" -v f="${3:-1}" '$3 == ev { print $f; exit }' "$1"; }

# pmu_count / perf_count EVENT CMD...: the -x, value of EVENT.
pmu_count() {
	local ev=$1; shift
	pmu_run stat -x, -o "$TMP/pc" -e "$ev" -- "$@" >/dev/null 2>&1
	csv "$TMP/pc" "$ev"
}
perf_count() {
	local ev=$1; shift
	"$PERF" stat -x, -o "$TMP/fc" -e "$ev" -- "$@" >/dev/null 2>&1
	csv "$TMP/fc" "$ev"
}

# exactness: whether perf counts EVENT on CMD the same twice.  Under
# QEMU's -icount it does (but for SLACK), and pmu must equal it; on a
# real PMU the spread of perf's own runs is the tolerance.  Sets SPREAD
# (0 when exact).
spread_of() {
	local ev=$1; shift
	local a b
	a=$(perf_count "$ev" "$@"); b=$(perf_count "$ev" "$@")
	SPREAD=$(awk -v a="${a:-0}" -v b="${b:-0}" -v slack="${SLACK:-0}" 'BEGIN {
		d = a - b; d = d < 0 ? -d : d; print d <= slack ? 0 : d }')
}

# same NAME PMU_VALUE PERF_VALUE: equal (but for SLACK), or within 3
# spreads + 0.1 % of perf's when perf itself is not exact here.
same() {
	local name=$1 a=$2 b=$3
	if [ -z "$a" ] || [ -z "$b" ] || ! [ "$a" -eq "$a" ] 2>/dev/null || ! [ "$b" -eq "$b" ] 2>/dev/null; then
		not_ok "$name"; diag "not numbers: pmu '$a', perf '$b'"; return
	fi
	if awk -v a="$a" -v b="$b" -v s="${SPREAD:-0}" -v slack="${SLACK:-0}" 'BEGIN {
		d = a - b; if (d < 0) d = -d
		exit !(s == 0 ? d <= slack : d <= 3 * s + 0.001 * b) }'; then
		ok "$name (pmu $a, perf $b)"
	else
		not_ok "$name"; diag "pmu $a, perf $b (perf's own spread ${SPREAD:-0})"
	fi
}

# within NAME A B FRACTION: |A - B| <= FRACTION * B.
within() {
	if [ -n "$2" ] && [ -n "$3" ] && awk -v a="$2" -v b="$3" -v f="$4" 'BEGIN {
		d = a - b; if (d < 0) d = -d; exit !(d <= f * b) }'; then
		ok "$1 ($2 vs $3)"
	else
		not_ok "$1"; diag "'$2' vs '$3': more than $4 apart"
	fi
}

# wait_gated PID TASKS: until PID runs hwloop and its TASKS threads all
# sleep (at its gate), so that whatever attaches now sees them all.
wait_gated() {
	local pid=$1 n=$2 i t st
	for i in $(seq 1 500); do
		if [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$(readlink -f "$HWLOOP")" ] &&
		   [ "$(ls "/proc/$pid/task" 2>/dev/null | wc -l)" = "$n" ]; then
			st=S
			for t in /proc/"$pid"/task/*; do
				[ "$(cut -d' ' -f3 "$t/stat" 2>/dev/null)" = S ] || st=R
			done
			[ "$st" = S ] && return 0
		fi
		sleep 0.01
	done
	diag "process $pid never reached its gate"
	return 1
}
