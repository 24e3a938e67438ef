#!/usr/bin/env bash
# One command: install what is missing, build, run the whole test suite with ctest (unit, RTL,
# integration), then build the unit tests and the co-simulation adapter's once more with
# ASan+UBSan (build-asan/) and run them, then fuzz every input parser for 20 s each
# (scripts/fuzz.sh; the long run is scripts/fuzz.sh).
#   MT_SKIP_SANITIZE=1 scripts/test.sh   skips the sanitizer pass (local iterations only).
#   MT_SKIP_FUZZ=1 scripts/test.sh       skips the short fuzz runs (local iterations only).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)
started=$SECONDS
# A stage's header with the time spent so far (where CI's time goes).
stage() { echo "== $1 [$((SECONDS - started)) s since start] =="; }
"$root/scripts/setup.sh"

stage "build (Release)"
"$root/scripts/build.sh"
stage "ctest (Release)"
ctest --test-dir "$root/build" -j "$jobs" --output-on-failure --timeout 600

if [ "${MT_SKIP_SANITIZE:-0}" != 1 ]; then
  stage "build (ASan+UBSan, unit tests)"
  # The run layer's tests run the CLI too (to compare): its sanitized mtsim is built with them.
  unit_areas="core topology collective data sched noc nic sim workload run"
  cmake -S "$root" -B "$root/build-asan" -DCMAKE_BUILD_TYPE=Debug -DMT_SANITIZE=ON >/dev/null
  # test_rtl: the co-simulation adapter's own tests (no SystemC run; the Verilated model and
  # Verilator's runtime are sanitized too, rtl/CMakeLists.txt).
  # shellcheck disable=SC2046  # one target per area
  cmake --build "$root/build-asan" -j "$jobs" --target $(printf 'test_%s ' $unit_areas) test_rtl mtsim
  stage "ctest (ASan+UBSan, unit tests)"
  # SystemC's kernel keeps its coroutine stacks alive at exit: leak reports there are not ours.
  ASAN_OPTIONS=detect_leaks=0:detect_stack_use_after_return=0 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir "$root/build-asan" -j "$jobs" --output-on-failure --timeout 900 -L "^($(echo $unit_areas | tr ' ' '|'))\$"
  # (Only test_rtl's cases: the other tests labelled rtl need the testbenches and formal tools.)
  ASAN_OPTIONS=detect_leaks=0:detect_stack_use_after_return=0 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir "$root/build-asan" -j "$jobs" --output-on-failure --timeout 900 -R "^rtl:"
fi

if [ "${MT_SKIP_FUZZ:-0}" != 1 ]; then
  stage "fuzz (libFuzzer, ASan+UBSan, 20 s per target)"
  MT_FUZZ_SECONDS=${MT_FUZZ_SECONDS:-20} "$root/scripts/fuzz.sh"
fi
stage "done"
