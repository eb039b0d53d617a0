#!/usr/bin/env bash
# The Python binding as a user gets it: `pip install ./python` into a
# virtual environment of Debian's python3 (offline: the package builds
# with its own backend, which needs nothing from the network), then its
# pytest suite run against that installation (not the source tree), one
# TAP line per test; and pip uninstall takes every file back.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)

py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
command -v "$py" >/dev/null || { echo "1..0 # SKIP no python3"; exit 77; }
"$py" -c 'import venv, ensurepip' 2>/dev/null ||
	{ echo "1..0 # SKIP python3 cannot make a virtual environment with pip (Debian package python3-venv)"; exit 77; }
"$py" -c 'import pytest' 2>/dev/null ||
	{ echo "1..0 # SKIP no pytest for $py (Debian package python3-pytest)"; exit 77; }
[ -e "$PMU_BUILD/libpmu.so.0" ] ||
	{ echo "1..0 # SKIP $PMU_BUILD/libpmu.so.0 not built"; exit 77; }

# a copy: pip builds in the tree it installs from
cp -r "$root/python" "$TMP/src"
"$py" -m venv --system-site-packages "$TMP/env" >"$TMP/venv.log" 2>&1
expect_eq "a virtual environment of $py" "$?" 0
# --no-index: nothing may come from the network
"$TMP/env/bin/pip" install --no-index "$TMP/src" >"$TMP/pip.log" 2>&1
rc=$?
expect_eq "pip install ./python" "$rc" 0
[ "$rc" = 0 ] || { sed 's/^/# /' "$TMP/pip.log" | tail -20; done_testing; }

export PMU_LIBPMU=$PMU_BUILD/libpmu.so.0 PMU_INCLUDE=$root/include PMU
# the emulator, for the emu driver's test (skipped without it)
[ -x "$PMU_BUILD/emu/pmu-amd64-linux" ] && export PMU_EMU_DIR=$PMU_BUILD/emu
# a sanitized library needs its runtime first in the process
if readelf -d "$PMU_LIBPMU" 2>/dev/null | grep -q 'libasan'; then
	cc=$(command -v cc || command -v gcc)
	preload="$("$cc" -print-file-name=libasan.so) $("$cc" -print-file-name=libubsan.so)"
	export ASAN_OPTIONS="detect_leaks=0:verify_asan_link_order=0"
else
	preload=
fi
cd "$TMP" || exit 1
check "the installed package is imported, not the source" \
	env LD_PRELOAD="$preload" "$TMP/env/bin/python" -c "
import pmu, sys
sys.exit(not pmu.__file__.startswith('$TMP/env/'))"
env LD_PRELOAD="$preload" "$TMP/env/bin/python" -m pytest -rA -q \
	-p no:cacheprovider "$TMP/src/tests" >"$TMP/pytest.log" 2>&1
rc=$?
# one TAP line per test
while read -r word name rest; do
	case $word in
	PASSED) ok "pytest ${name#*::}" ;;
	FAILED|ERROR) not_ok "pytest ${name#*::}" ;;
	SKIPPED) skip "pytest ${rest:-$name}" ;;
	esac
done < <(grep -E '^(PASSED|FAILED|ERROR|SKIPPED) ' "$TMP/pytest.log")
expect_eq "pytest: exit 0" "$rc" 0
[ "$rc" = 0 ] && grep -q ' passed' "$TMP/pytest.log" ||
	{ not_ok "pytest ran"; sed 's/^/# /' "$TMP/pytest.log" | tail -40; }
check "pip left nothing in the source tree" \
	test -z "$(find "$TMP/src" -name '*.egg-info' -o -name build -type d -prune -o -name '*.whl' | head -1)"
"$TMP/env/bin/pip" uninstall -y pmu >"$TMP/un.log" 2>&1
expect_eq "pip uninstall pmu" "$?" 0
check "... takes the package away" sh -c \
	"! ls '$TMP'/env/lib/python3*/site-packages/pmu '$TMP'/env/lib/python3*/site-packages/pmu_regions.py 2>/dev/null | grep -q ."
done_testing
