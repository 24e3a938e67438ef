#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ (clang, ASan + UBSan) into build-fuzz/ and runs each one
# for MT_FUZZ_SECONDS seconds (default 600: the long run; scripts/test.sh runs 20 s of each), as
# many at once as there are cores.
# Each starts from its seed corpus fuzz/corpus/<target>/ (read only: new inputs go to a scratch
# folder). A crash, an escaped non-mt::Error exception, a leak, an input slower than 10 s or a
# process above 2 GiB of memory fails the run; the reproducer is left in build-fuzz/findings/.
#   scripts/fuzz.sh [TARGET...]    (default: every fuzz/fuzz_*.cpp)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MT_FUZZ_BUILD_DIR:-$root/build-fuzz}
seconds=${MT_FUZZ_SECONDS:-600}
jobs=$(nproc 2>/dev/null || echo 2)

cmake -S "$root/fuzz" -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build "$build" -j "$jobs" >/dev/null

if [ $# -gt 0 ]; then targets=("$@"); else
  targets=()
  for f in "$root"/fuzz/fuzz_*.cpp; do targets+=("$(basename "$f" .cpp)"); done
fi
mkdir -p "$build/findings"
cd "$root"  # the sweep target finds its base scenario relative to the repository

# One target's run: its summary (or its failure) goes to $build/$t.summary; $build/$t.failed
# exists when it failed.
fuzz_one() {
  local t=$1 seeds="$root/fuzz/corpus/${1#fuzz_}" work
  work=$(mktemp -d)
  {
    echo "== $t: ${seconds}s from $(find "$seeds" -type f | wc -l) seeds"
    if ! ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        "$build/$t" "$work" "$seeds" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len=65536 -artifact_prefix="$build/findings/$t-" -print_final_stats=1 \
        >"$build/$t.log" 2>&1; then
      echo "$t FAILED (log: $build/$t.log; reproducer in $build/findings/):"
      grep -E "ERROR|==[0-9]+==|SUMMARY|uncaught|Test unit written" "$build/$t.log" | head -20 || true
      touch "$build/$t.failed"
    else
      grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$build/$t.log" | tr '\n' ' ' || true
      echo
    fi
  } >"$build/$t.summary"
  rm -rf "$work"
}

# The targets run side by side, one per core (each libFuzzer process is single-threaded).
for t in "${targets[@]}"; do
  rm -f "$build/$t.failed" "$build/$t.summary"
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  fuzz_one "$t" &
done
wait
status=0
for t in "${targets[@]}"; do
  cat "$build/$t.summary" 2>/dev/null || { echo "$t: no summary (the run did not start)"; status=1; }
  [ ! -e "$build/$t.failed" ] || status=1
done
exit $status
