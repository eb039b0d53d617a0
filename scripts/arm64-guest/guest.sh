#!/usr/bin/env bash
# An arm64 machine with a real kernel PMU driver, for the hardware suite
# (tests/hw): QEMU's virt board with a Cortex-A57, whose emulated PMUv3
# the Debian arm64 kernel drives with armv8_pmuv3; under -icount shift=0
# it counts instructions and cycles exactly.  Debian's arm64 perf runs
# beside pmu in the guest as the oracle.
#
#   guest.sh [OPTIONS] run [TEST...]   build, boot, run the tests (default:
#                                      every tests/hw test), one log each
#   guest.sh [OPTIONS] prepare         build and assemble, do not boot
#   guest.sh [OPTIONS] shell           boot to a shell on this terminal
#
#   --out DIR       work directory (default build-arm64/guest): the
#                   downloaded packages (kept: a second run downloads
#                   nothing), the kernel, the initramfs, console.log and
#                   logs/TEST.log + logs/TEST.rc
#   --timeout S     limit of one test in the guest (default 300)
#   --boot-limit S  limit of the whole boot (default 1500)
#   --jobs N        make's jobs for the arm64 build (default: CPUs)
#
# Exit status: 0 when every test ran (their own results are in the logs),
# 77 when something the guest needs is missing (the reason on stderr),
# 1 when the build or the boot failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$root/build-arm64/guest
test_limit=300
boot_limit=1500
jobs=$(nproc 2>/dev/null || echo 2)

usage() { sed -n '2,/^set -e/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$(realpath -m "$2"); shift 2 ;;
	--timeout) test_limit=$2; shift 2 ;;
	--boot-limit) boot_limit=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	-h|--help) usage ;;
	-*) echo "guest.sh: unknown option '$1'" >&2; usage ;;
	*) break ;;
	esac
done
cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in run|prepare|shell) ;; *) usage ;; esac

skip() { echo "guest.sh: skipped: $*" >&2; exit 77; }
fail() { echo "guest.sh: $*" >&2; exit 1; }

# What the host needs; each missing piece is a skip that names it.
requirements() {
	local t
	for t in qemu-system-aarch64 aarch64-linux-gnu-gcc apt-get dpkg-deb cpio readelf; do
		command -v "$t" >/dev/null ||
			skip "'$t' not found (Debian: scripts/install-deps.sh installs qemu-system-arm, gcc-aarch64-linux-gnu, cpio and binutils)"
	done
	for t in libdw.so libelf.so libz.so libcmocka.so; do
		[ "$(aarch64-linux-gnu-gcc -print-file-name=$t)" != $t ] ||
			skip "the arm64 library $t is not installed (Debian: dpkg --add-architecture arm64; apt-get install libdw-dev:arm64 libelf-dev:arm64 zlib1g-dev:arm64 libcmocka-dev:arm64; scripts/install-deps.sh does both)"
	done
}

# The packages: the listed ones, the libraries apt says they need, and
# the kernel; downloaded once into $out/debs and unpacked into $out/root.
fetch() {
	local debs=$out/debs list kernel
	[ -f "$debs/.complete" ] && [ -f "$out/root/.complete" ] && return 0
	mkdir -p "$debs"
	list=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/packages")
	apt-cache show busybox-static:arm64 >/dev/null 2>&1 ||
		skip "apt knows no arm64 packages (dpkg --add-architecture arm64 && apt-get update; scripts/install-deps.sh does it)"
	kernel=$(apt-cache depends linux-image-arm64:arm64 2>/dev/null |
		 sed -n 's/^ *Depends: \(linux-image-[0-9][^:]*\)\(:arm64\)\{0,1\}$/\1/p' | head -1)
	[ -n "$kernel" ] || skip "apt names no arm64 kernel (linux-image-arm64:arm64)"
	# the libraries the listed packages need, all the way down
	local deps
	deps=$(apt-cache depends --recurse --no-recommends --no-suggests \
		--no-conflicts --no-breaks --no-replaces --no-enhances \
		$(printf '%s:arm64 ' $list) 2>/dev/null |
	       sed -n 's/^\(lib[^ <:]*\|zlib1g\):arm64$/\1/p' | sort -u)
	echo "guest.sh: downloading $kernel and $(echo $list $deps | wc -w) packages" >&2
	local sandbox=()
	[ "$(id -u)" = 0 ] && sandbox=(-o APT::Sandbox::User=root)
	( cd "$debs" && apt-get "${sandbox[@]}" -q download "$kernel:arm64" \
		$(printf '%s:arm64 ' $list $deps) >download.log 2>&1 ) ||
		skip "downloading the arm64 packages failed (no network?): see $debs/download.log"
	touch "$debs/.complete"
	rm -rf "$out/root" && mkdir -p "$out/root"
	local d
	for d in "$debs"/*.deb; do
		case ${d##*/} in
		linux-image-*)
			dpkg-deb --fsys-tarfile "$d" |
				tar -x -C "$out/root" --wildcards './boot/vmlinuz-*' ;;
		*) dpkg-deb -x "$d" "$out/root" ;;
		esac
	done
	touch "$out/root/.complete"
}

# The shared libraries an ELF file needs, all the way down, found in the
# unpacked packages: one path a line.
needed() {
	local dirs=("$out/root/lib/aarch64-linux-gnu" "$out/root/usr/lib/aarch64-linux-gnu")
	local -A seen=()
	local queue=("$@") f so d found
	while [ ${#queue[@]} -gt 0 ]; do
		f=${queue[0]}; queue=("${queue[@]:1}")
		for so in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
			[ -n "${seen[$so]:-}" ] && continue
			seen[$so]=1
			found=
			for d in "${dirs[@]}"; do
				[ -e "$d/$so" ] && { found=$d/$so; break; }
			done
			[ -n "$found" ] || fail "$so (needed by ${f##*/}) is in none of the guest's packages"
			echo "$found"
			queue+=("$(readlink -f "$found")")
		done
	done
}

build() {
	echo "guest.sh: building pmu and the hardware suite for arm64" >&2
	make -C "$root" --no-print-directory -j"$jobs" ARCH=arm64 hw-build \
		>"$out/build.log" 2>&1 ||
		fail "the arm64 build failed: $(grep -m3 -E 'error|Error' "$out/build.log" | tr '\n' ' ') (log: $out/build.log)"
}

# The initramfs: busybox, bash, perf and their libraries, then pmu, the
# suite's programs and scripts under /pmu.  Not compressed: the kernel
# reads a plain cpio archive and nothing is spent packing it.
assemble() {
	local ir=$out/initramfs tests=("$@") b=$root/build-arm64 f
	rm -rf "$ir"
	mkdir -p "$ir"/{bin,usr/bin,lib/aarch64-linux-gnu,pmu/build/tests/hw,pmu/tests/hw,pmu/tests/cli}
	cp "$out/root/bin/busybox" "$out/root/bin/bash" "$ir/bin/"
	cp "$out/root/usr/bin/perf" "$ir/usr/bin/"
	cp "$here/init" "$ir/init"
	cp "$b/pmu" "$ir/pmu/build/"
	cp "$b"/tests/hw/* "$ir/pmu/build/tests/hw/"
	cp "$root"/tests/hw/*.sh "$ir/pmu/tests/hw/"
	cp "$root/tests/cli/lib.sh" "$ir/pmu/tests/cli/"
	for f in $(needed "$ir/bin/bash" "$ir/usr/bin/perf" "$ir/pmu/build/pmu" \
			  $(find "$ir/pmu/build/tests/hw" -type f)); do
		cp -L "$f" "$ir/lib/aarch64-linux-gnu/"
	done
	cp -L "$out/root/lib/ld-linux-aarch64.so.1" "$ir/lib/"
	{
		echo "GUEST_TESTS='${tests[*]}'"
		echo "GUEST_TEST_TIMEOUT=$test_limit"
		echo "export PMU=/pmu/build/pmu PMU_BUILD=/pmu/build PMU_SHARED="
		echo "export CMOCKA_MESSAGE_OUTPUT=TAP"
	} >"$ir/pmu/guest.conf"
	( cd "$ir" && find . | cpio -o -H newc --quiet ) >"$out/initramfs.cpio"
}

# Every test of the suite, by the name the guest runs it under.
all_tests() {
	local t
	for t in "$root"/tests/hw/*.sh; do
		[ -x "$t" ] && echo "${t##*/}"
	done
	for t in "$root"/tests/hw/test-*.c; do
		[ -e "$t" ] && basename "$t" .c
	done
	return 0
}

# The machine: qemu's command line into qemu=() for the kernel command
# line's extra words $1 and qemu's own further options.
machine() {
	local kernel
	kernel=$(ls "$out"/root/boot/vmlinuz-* | head -1)
	qemu=(qemu-system-aarch64 -M virt -cpu cortex-a57 -smp 1 -m 1024
	      -icount shift=0 -nic none -no-reboot
	      -kernel "$kernel" -initrd "$out/initramfs.cpio"
	      -append "console=ttyAMA0 quiet loglevel=0 panic=-1 $1" "${@:2}")
}

# console.log into logs/TEST.log and logs/TEST.rc.
split_logs() {
	rm -rf "$out/logs" && mkdir -p "$out/logs"
	tr -d '\r' <"$out/console.log" | awk -v dir="$out/logs" '
		$1 == "@@pmu-guest" && $2 == "begin" { name = $3; file = dir "/" name ".log"; printf "" > file; next }
		$1 == "@@pmu-guest" && $2 == "end" {
			# an exit status that is not a number is a failure
			# that says what the line was
			if ($4 !~ /^[0-9]+$/) { print "not ok - the end marker read back as: " $0 > file; $4 = 1 }
			printf "%s\n", $4 > (dir "/" $3 ".rc"); close(file); name = ""; next }
		name != "" { print > file }'
}

requirements
mkdir -p "$out"
fetch
build
case $cmd in
prepare) assemble $(all_tests); echo "guest.sh: $out/initramfs.cpio" >&2; exit 0 ;;
shell) assemble; machine pmu.shell -nographic; exec "${qemu[@]}" ;;
esac

tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=($(all_tests))
assemble "${tests[@]}"
echo "guest.sh: booting (${#tests[@]} tests)" >&2
rc=0
machine "" -display none -monitor none -serial "file:$out/console.log"
timeout "$boot_limit" "${qemu[@]}" </dev/null >"$out/qemu.log" 2>&1 || rc=$?
split_logs
# the kernel's warnings and errors of the run, for whoever reads the log
tr -d '\r' <"$out/console.log" | grep '^kernel: ' | head -20 >&2 || :
if ! tr -d '\r' <"$out/console.log" | grep -q '^@@pmu-guest done'; then
	[ "$rc" = 124 ] && echo "guest.sh: the guest ran out of its ${boot_limit} s" >&2
	echo "guest.sh: the guest stopped before its last test (qemu exit $rc); its console's end:" >&2
	tr -d '\r' <"$out/console.log" | tail -15 | sed 's/^/  /' >&2
	cat "$out/qemu.log" >&2
	exit 1
fi
tr -d '\r' <"$out/console.log" | sed -n 's/^@@pmu-guest \(boot\|done\) /guest \1: /p' >&2
exit 0
