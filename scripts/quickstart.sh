#!/usr/bin/env bash
# From a fresh clone to a first measurement: install what the build needs,
# build, and count the bundled example workload.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
make -j"$(nproc)"
echo
echo "\$ build/pmu stat -- build/examples/workload"
build/pmu stat -- build/examples/workload
