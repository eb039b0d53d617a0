# Helpers for the emulator's CLI tests (sourced after lib.sh; not a test).
#
# require_emu: skip (exit 77) unless the emulator was built and valgrind,
# with cachegrind, can run.
# emu_dir: a directory holding the emulator and cachegrind side by side,
# so that pmu (PMU_EMU_DIR) and cachegrind (VALGRIND_LIB) run their
# programs with the very same environment.
# pmu_counts FILE: "event value" lines from pmu stat -x, output.
# cg_totals PREFIX: the summed "summary:" of cachegrind files PREFIX.*,
# as "name value" lines (Ir, I1mr, ..., Bim).

EMU_BIN=$PMU_BUILD/emu/pmu-amd64-linux
WORK=$PMU_BUILD/tests/emu

require_emu() {
	if [ ! -x "$EMU_BIN" ]; then
		echo "1..0 # SKIP the emulator was not built (valgrind's static libraries missing)"
		exit 77
	fi
	if ! command -v valgrind >/dev/null ||
	   ! valgrind -q --tool=none /bin/true >/dev/null 2>&1; then
		echo "1..0 # SKIP valgrind cannot run here"
		exit 77
	fi
	VG_LIBEXEC=$(dirname "$(readlink -f "$PMU_BUILD/emu/vgpreload_core-amd64-linux.so")")
	if [ ! -x "$VG_LIBEXEC/cachegrind-amd64-linux" ]; then
		echo "1..0 # SKIP cachegrind is not installed beside valgrind"
		exit 77
	fi
}

emu_dir() {
	local d=$TMP/vglib
	mkdir -p "$d"
	ln -sf "$(readlink -f "$EMU_BIN")" "$d/pmu-amd64-linux"
	ln -sf "$VG_LIBEXEC/vgpreload_core-amd64-linux.so" "$d/"
	ln -sf "$VG_LIBEXEC/cachegrind-amd64-linux" "$d/"
	echo "$d"
}

pmu_counts() {
	awk -F, 'NF >= 3 && $1 !~ /^#/ { print $3, $1 }' "$1"
}

cg_totals() {
	awk '/^events:/ { for (i = 2; i <= NF; i++) name[i] = $i }
	     /^summary:/ { for (i = 2; i <= NF; i++) sum[name[i]] += $i }
	     END { for (n in sum) print n, sum[n] }' "$1".*
}

# value NAME FILE: the value of NAME in a "name value" file
value() { awk -v n="$1" '$1 == n { print $2; f = 1 } END { if (!f) print "none" }' "$2"; }
