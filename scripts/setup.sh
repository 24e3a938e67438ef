#!/usr/bin/env bash
# Installs every Debian 12 package mtsim needs, only when missing. Idempotent: quiet and fast when
# everything is present. Works as root or through sudo.
set -euo pipefail

packages=(
  build-essential cmake pkg-config git
  libsystemc-dev verilator catch2
  libyaml-cpp-dev libboost-graph-dev libboost-program-options-dev nlohmann-json3-dev
  yosys opensta qflow-tech-osu018 qflow graywolf qrouter z3
  python3 python3-matplotlib graphviz time
  python3-scipy  # scripts/tree_overlap.py: the fluid model's linear program (HiGHS)
  slurmctld slurmd slurm-client munge
  clang libclang-rt-14-dev  # libFuzzer + ASan/UBSan runtimes for fuzz/ (scripts/fuzz.sh)
  clang-format-14  # the format check of model/, tb/, tests/, fuzz/ (ctest lint.format_check)
  valgrind linux-perf  # profiling (docs/speed.md "Profiling on this machine")
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi
echo "setup: installing ${missing[*]}" >&2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
export DEBIAN_FRONTEND=noninteractive
if ! { "${sudo[@]}" apt-get update -qq && \
       "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "setup: installing packages failed (output above)" >&2
  exit 1
fi
# Some package scripts replace /dev/null in containers; put the character device back.
[ -c /dev/null ] || { "${sudo[@]}" rm -f /dev/null; "${sudo[@]}" mknod -m 666 /dev/null c 1 3; }
echo "setup: done" >&2
