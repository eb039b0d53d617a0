#!/usr/bin/env bash
# Installs the Debian 12 packages that building and testing pmu need.
# Idempotent: prints nothing and changes nothing when all are present.
# Runs apt-get as root, or through sudo when that is available.
set -euo pipefail

# valgrind also brings what emu/ builds against: its headers, valgrind.pc
# and the static libcoregrind/libvex of a tool.
packages=(
	build-essential pkg-config libcmocka-dev valgrind clang
	libclang-rt-14-dev linux-perf libpfm4-dev libpapi-dev papi-tools
	libelf-dev libdw-dev zlib1g-dev
	# oracles of the profiling tests (they skip without them): a browser
	# for the flame graph, go tool pprof for the pprof export
	chromium golang-go
	python3 man-db hyperfine
	# programs marked for other tools' region markers, run under
	# pmu stat --regions by the tests: LIKWID's examples, PAPI, Fortran
	likwid gfortran libopenmpi-dev openmpi-bin
	# pmu serve's HTTP server (loaded at run time; the header to build)
	# and its oracles: a Prometheus server, promtool, an OpenMetrics
	# parser; the Python binding's installation and tests
	libmicrohttpd-dev prometheus python3-prometheus-client
	python3-pytest python3-venv python3-pip
	# the arm64 guest of the hardware suite (scripts/arm64-guest): QEMU,
	# the cross compiler and the arm64 libraries pmu links against
	qemu-system-arm gcc-aarch64-linux-gnu cpio
	libdw-dev:arm64 libelf-dev:arm64 zlib1g-dev:arm64 libcmocka-dev:arm64
)

missing=()
native=$(dpkg --print-architecture 2>/dev/null || echo amd64)
for p in "${packages[@]}"; do
	# a library installed for two architectures answers twice: ask for
	# this machine's one unless the name says which
	q=$p
	[[ $p == *:* ]] || q=$p:$native
	status=$(dpkg-query -W -f='${db:Status-Status}' "$q" 2>/dev/null ||
		 dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$status" = installed ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
	echo "install-deps: apt-get not found; install these packages by hand:" \
	     "${missing[*]}" >&2
	exit 1
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		as_root=(sudo)
	else
		echo "install-deps: need root (or sudo) to install:" \
		     "${missing[*]}" >&2
		exit 1
	fi
fi

echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# arm64 packages beside this machine's: dpkg must know the architecture
# (the guest's own packages are downloaded by scripts/arm64-guest, not
# installed)
if [[ " ${missing[*]}" == *:arm64* ]] &&
   ! dpkg --print-foreign-architectures | grep -qx arm64 &&
   [ "$(dpkg --print-architecture)" != arm64 ]; then
	"${as_root[@]}" dpkg --add-architecture arm64
fi
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
