#!/usr/bin/env bash
# Verilator line and toggle coverage of the NIC scheduler RTL under its testbench (nic_sched_tb):
# configures a coverage build (-DMT_RTL_COVERAGE=ON, its own build folder), builds nic_sched_tb,
# runs the ctest testbench cases (real tables, random tables under two seeds and both issue
# orders), merges the counts and writes a per-file summary (verilator_coverage) plus annotated
# sources (lines never hit are marked %000000).
#
#   scripts/coverage.sh [--build DIR] [--random N] [-- extra cmake args,
#                       e.g. -DMT_RTL_PARAMS_FILE=FILE]
#
# Writes DIR/coverage/summary.md (the table in rtl/README.md), DIR/coverage/merged.dat and
# DIR/coverage/annotated/. Default DIR build-cov; N random tables per seed (default 800).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build-cov"
random=800
cmake_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --random) random="$2"; shift 2 ;;
    --) shift; cmake_args=("$@"); break ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "coverage.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
command -v verilator_coverage >/dev/null || { echo "coverage.sh: verilator_coverage not found" >&2; exit 2; }
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DMT_RTL_COVERAGE=ON \
  "${cmake_args[@]+"${cmake_args[@]}"}" >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target nic_sched_tb
tb=$(find "$build" -name nic_sched_tb -type f -perm -u+x | head -1)
cov="$build/coverage"
rm -rf "$cov"; mkdir -p "$cov"
"$tb" --seed 1 --random 0 --coverage "$cov/real.dat"
"$tb" --no-real --seed 2 --random "$random" --coverage "$cov/random2.dat"
"$tb" --no-real --seed 3 --random "$random" --step-order off --coverage "$cov/random3.dat"
verilator_coverage --write "$cov/merged.dat" "$cov"/real.dat "$cov"/random2.dat "$cov"/random3.dat
verilator_coverage --annotate "$cov/annotated" --annotate-min 1 "$cov/merged.dat" \
  > "$cov/annotate.log" 2>&1
/usr/bin/python3 "$root/scripts/synth/coverage_summary.py" "$cov/merged.dat" "$cov/annotated" \
  > "$cov/summary.md"
cat "$cov/summary.md"
