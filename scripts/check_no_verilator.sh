#!/usr/bin/env bash
# Checks that mtsim builds and runs without Verilator (issue 15): configures build-nover/ with
# Verilator hidden from CMake, builds mtsim, runs the default scenario's first size, and expects a
# scenario asking for the RTL scheduler to stop with exit 2 and "built without Verilator".
# Not part of scripts/test.sh (a second build would add minutes to CI); run it after changing how
# the RTL back end is linked or registered.
#   scripts/check_no_verilator.sh [BUILD_DIR]     (default build-nover)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-nover}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_DISABLE_FIND_PACKAGE_verilator=ON \
  >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target mtsim >/dev/null
mtsim="$build/bin/mtsim"
if nm -C "$mtsim" | grep -q -i 'Vnic_sched'; then
  echo "check_no_verilator: $mtsim links the Verilated scheduler" >&2; exit 1
fi
"$mtsim" run "$root/scenarios/default.yaml" --set 'collective.sizes=[64KiB]' >/dev/null
set +e
out=$("$mtsim" run "$root/scenarios/default.yaml" --set nic.scheduler=rtl --set nic.issue=hardware \
  2>&1 >/dev/null)
rc=$?
set -e
if [ "$rc" -ne 2 ] || ! grep -q "built without Verilator" <<<"$out"; then
  echo "check_no_verilator: expected exit 2 and 'built without Verilator', got $rc: $out" >&2
  exit 1
fi
echo "check_no_verilator: mtsim builds and runs without Verilator; the RTL scheduler is refused:"
echo "  $out"
