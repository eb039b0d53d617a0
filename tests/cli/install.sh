#!/usr/bin/env bash
# make install as the README says, then the README's library example
# built through pkg-config, shared and static, and run; DESTDIR staging
# as distributions use it.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

for tool in make pkg-config cc; do
	command -v "$tool" >/dev/null || { echo "1..0 # SKIP $tool missing"; exit 77; }
done
# The installed library is the build's own: a sanitizer build's needs the
# sanitizer runtime in every program linked with it.
if nm "$PMU_BUILD/libpmu.a" 2>/dev/null | grep -q ' __asan_'; then
	echo "1..0 # SKIP $PMU_BUILD is a sanitizer build; the plain build's run covers install"
	exit 77
fi

# install_to PREFIX [DESTDIR]: the Makefile's install with this build.
install_to() {
	env -u MAKEFLAGS -u MFLAGS make --no-print-directory -C "$ROOT" \
		BUILD="$PMU_BUILD" PREFIX="$1" DESTDIR="${2:-}" install \
		>"$TMP/make.log" 2>&1
}

PREFIX=$TMP/prefix
install_to "$PREFIX"
expect_eq "make install PREFIX=... exits 0" "$?" 0
PC=$PREFIX/lib/pkgconfig/libpmu.pc
expect_match "the installed .pc names the install prefix" "$PC" "^prefix=$PREFIX\$"
expect_no_match "the installed .pc does not say /usr/local" "$PC" '/usr/local'

# The README's example, as a user copies it.
awk '/^```c$/ { f = 1; next } /^```$/ { f = 0 } f' "$ROOT/README.md" >"$TMP/ex.c"
check "README has a C example" grep -q pmu_session_new "$TMP/ex.c"
export PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig
# shellcheck disable=SC2046
cc -o "$TMP/ex-shared" "$TMP/ex.c" $(pkg-config --cflags --libs libpmu) 2>"$TMP/cc.log"
expect_eq "example builds with pkg-config --cflags --libs" "$?" 0
LD_LIBRARY_PATH=$PREFIX/lib "$TMP/ex-shared" >"$TMP/out" 2>"$TMP/err"
expect_eq "shared example runs" "$?" 0
expect_match "shared example counts task-clock" "$TMP/out" '^[0-9]+ task-clock$'
check "shared example uses the installed libpmu.so" \
	sh -c "LD_LIBRARY_PATH='$PREFIX/lib' ldd '$TMP/ex-shared' | grep -q '$PREFIX/lib/libpmu.so'"

# shellcheck disable=SC2046
cc -static -o "$TMP/ex-static" "$TMP/ex.c" \
	$(pkg-config --static --cflags --libs libpmu) 2>"$TMP/cc.log"
expect_eq "example links statically with pkg-config --static" "$?" 0
"$TMP/ex-static" >"$TMP/out" 2>"$TMP/err"
expect_eq "static example runs" "$?" 0
expect_match "static example counts page-faults" "$TMP/out" '^[0-9]+ page-faults$'

# DESTDIR stages the files; the .pc still names the final prefix.
install_to /usr "$TMP/stage"
expect_eq "make install DESTDIR=... exits 0" "$?" 0
check "DESTDIR: library staged under DESTDIR" test -f "$TMP/stage/usr/lib/libpmu.so.0"
check "DESTDIR: header staged" test -f "$TMP/stage/usr/include/pmu/pmu.h"
expect_match "DESTDIR: .pc says prefix=/usr" "$TMP/stage/usr/lib/pkgconfig/libpmu.pc" '^prefix=/usr$'
expect_no_match "DESTDIR: .pc does not name the staging root" \
	"$TMP/stage/usr/lib/pkgconfig/libpmu.pc" "$TMP"

done_testing
